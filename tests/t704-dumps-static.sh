#!/usr/bin/env bash
# t704: jemalloc linked into the executable, as C++ servers and Rust nodes
# ship it: a C++ program on Debian's static libjemalloc_pic.a (inlined
# frames through namespaces, tests/progs/dumps_cxx.cc) and a Rust program
# on that archive renamed `_rjem_*` as tikv-jemallocator builds it
# (tests/progs/rust_jemalloc.rs). jeprof cannot strip a static jemalloc's
# frames (it calls prof_backtrace_impl 100% flat), but its Total and its
# cumulative bytes per function still hold: memtime-vis's totals and
# cumulative bytes must equal them, no site may be allocator plumbing, and
# the inlined frames must be the ones addr2line -i names.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/progs/jemalloc_build.sh"

command -v jeprof >/dev/null || plan_skip "jeprof not installed (libjemalloc-dev)"
RUSTC=$(test_rustc)
[ -n "$RUSTC" ] || plan_skip "no rustc (apt-get install rustc)"
CXX=$(je_prog static dumps_cxx.cc 2>"$T/err") || plan_skip "cannot build dumps_cxx.cc on libjemalloc_pic.a: $(head -c 200 "$T/err")"
ARCHIVE=$(je_rjem_archive 2>"$T/err") || plan_skip "no libjemalloc_pic.a to rename"
RUSTV=$("$RUSTC" --version | md5sum | cut -c1-8)
RS=$MT_PROGS/rust_jemalloc-dumps-$RUSTV
rsrc=$MT_SRC/tests/progs/rust_jemalloc.rs
if [ ! -x "$RS" ] || [ "$rsrc" -nt "$RS" ] || [ "$ARCHIVE" -nt "$RS" ]; then
  "$RUSTC" -g -C opt-level=0 -o "$RS.tmp.$$" "$rsrc" -C link-arg="$ARCHIVE" -C link-arg=-lm \
    -C link-arg=-lpthread -C link-arg=-lc >&2 && mv -f "$RS.tmp.$$" "$RS" || plan_skip "rustc cannot build rust_jemalloc.rs"
fi
PUT=$(grep -n PUT_LINE "$MT_SRC/tests/progs/dumps_cxx.cc" | cut -d: -f1)
FILL=$(grep -n FILL_LINE "$MT_SRC/tests/progs/dumps_cxx.cc" | cut -d: -f1)
plan 10

# dumps DIR PROG: PROG's jemalloc dumps into DIR, sorted by sequence number.
dumps() {
  mkdir -p "$1"
  MALLOC_CONF=prof:true,lg_prof_interval:21,lg_prof_sample:14,prof_final:true,prof_prefix:$1/jp "$2" >/dev/null
  (cd "$1" && ls jp.*.heap | sort -t. -k3,3n | sed "s|^|$1/|")
}
# totals_match PROG OUT DUMPS...: each dump's mem_heap_B in OUT against
# jeprof's Total; prints the mismatches.
totals_match() {
  local prog=$1 out=$2 i=0 jt; shift 2
  mapfile -t heaps < <(sed -n 's/^mem_heap_B=//p' "$out")
  for f in "$@"; do
    jt=$(jeprof --text --show_bytes "$prog" "$f" 2>/dev/null | sed -n 's/^Total: \([0-9]*\) B$/\1/p')
    # An empty dump (all freed by the exit dump): jeprof prints no Total.
    if [ -z "$jt" ] && [ "${heaps[i]}" = 0 ]; then :
    elif ! within_pct "${heaps[i]}" "${jt:-0}" 1; then echo "$f: ${heaps[i]} vs jeprof ${jt:-none}"; fi
    i=$((i + 1))
  done
}
# cum OUT SNAPSHOT FUNCTION: the bytes of the stacks through FUNCTION (by
# name, without arguments) in that snapshot's tree: each outermost node of it.
cum() {
  awk -v s="$2" -v fn="$3" '
    /^snapshot=/ { cur = ($0 == "snapshot=" s) }
    cur && /^ *n[0-9]+: / {
      d = match($0, /[^ ]/) - 1; b = $2; l = $0
      sub(/^ *n[0-9]+: [0-9]+ (0x[0-9A-F]+: )?/, "", l); sub(/\(.*$/, "", l); sub(/ +$/, "", l)
      lab[d] = l; inside = 0
      for (k = 1; k < d; k++) if (lab[k] == fn) inside = 1
      if (l == fn && !inside) t += b
    }
    END { print t + 0 }' "$1"
}
jcum() { jeprof --text --show_bytes "$1" "$2" 2>/dev/null | awk -v f="$3" '$6 == f { print $4 }'; }
plumbing='prof_|je_|_rjem_|imalloc|malloc|operator new|__rust|__rg_|GlobalAlloc|RawVec|raw_vec::'

# --- C++ on static jemalloc ---
mapfile -t cd < <(dumps "$T/cxx" "$CXX")
vis convert --threshold=0 "${cd[@]}" -o "$T/cxx.out" 2>/dev/null
check "C++: converted, read by ms_print and the strict grammar (${#cd[@]} dumps)" both_readers "$T/cxx.out"
bad=$(totals_match "$CXX" "$T/cxx.out" "${cd[@]}")
is "$bad" "" "C++: each dump's total is jeprof's Total within 1%"
last=$(( ${#cd[@]} - 1 ))
got=$(cum "$T/cxx.out" "$last" "store::fill")
want=$(jcum "$CXX" "${cd[last]}" "store::fill")
check "C++: store::fill's cumulative bytes at the last dump are jeprof's ($want, got $got)" \
  test -n "$want" -a $(( got > ${want:-0} ? got - ${want:-0} : ${want:-0} - got )) -le 64
check "C++: no site is the allocator's own frame" \
  sh -c "! grep -E '^ n[0-9]+: [0-9]+ 0x[0-9A-F]+: ($plumbing)' '$T/cxx.out'"
# The inlined call: put's frame and fill's at one address, as addr2line -i
# reads the executable's DWARF there.
pair=$(grep -A1 -E "^ *n[0-9]+: [0-9]+ 0x[0-9A-F]+: store::Cache::put\(unsigned long\) \(dumps_cxx.cc:$PUT\)$" "$T/cxx.out" | head -2)
a1=$(echo "$pair" | sed -n '1s/.* \(0x[0-9A-F]*\): .*/\1/p'); a2=$(echo "$pair" | sed -n '2s/.* \(0x[0-9A-F]*\): .*/\1/p')
check "C++: the inlined put has its own frame, at fill's address, with fill's call line" \
  sh -c "[ -n '$a1' ] && [ '$a1' = '$a2' ] && echo '$pair' | sed -n 2p | grep -q 'store::fill(store::Cache&, int) (dumps_cxx.cc:$FILL)\$'"
base=$(awk -v p="$CXX" '$6 == p && $3 == "00000000" { split($1, r, "-"); print r[1]; exit }' \
  <(sed -n '/^MAPPED_LIBRARIES:/,$p' "${cd[last]}"))
a2l=$(addr2line -f -i -C -e "$CXX" "$(printf '%#x' $(( a1 - 0x$base - 1 )))" 2>/dev/null |
  sed 'N;s/\n/ /' | sed 's/(.*) \/.*\/\([^/]*\):\([0-9]*\).*/ \1:\2/;s/ *(discriminator.*//' | tr '\n' ';')
is "$a2l" "store::Cache::put dumps_cxx.cc:$PUT;store::fill dumps_cxx.cc:$FILL;" \
  "C++: addr2line -i names the same two frames at that address"

# --- Rust on _rjem_ jemalloc ---
mapfile -t rd < <(dumps "$T/rs" "$RS")
vis convert --threshold=0 "${rd[@]}" -o "$T/rs.out" 2>/dev/null
bad=$(totals_match "$RS" "$T/rs.out" "${rd[@]}")
is "$bad" "" "Rust: each of the ${#rd[@]} dumps' total is jeprof's Total within 1%"
peak=$(awk -F= '/^snapshot=/{n=$2} /^heap_tree=peak/{print n}' "$T/rs.out")
got=$(cum "$T/rs.out" "$peak" "rust_jemalloc::build_index")
want=$(jcum "$RS" "${rd[peak]}" "rust_jemalloc::build_index")
check "Rust: build_index's cumulative bytes at the peak are jeprof's ($want, got $got)" \
  test -n "$want" -a $(( got > ${want:-0} ? got - ${want:-0} : ${want:-0} - got )) -le 64
check "Rust: no site is the allocator's (_rjem_, GlobalAlloc, __rust_alloc, RawVec)" \
  sh -c "! grep -E '^ n[0-9]+: [0-9]+ 0x[0-9A-F]+: ($plumbing)' '$T/rs.out'"
vis --summary-only --group-by=site "${rd[@]}" >"$T/rs.txt" 2>/dev/null
top=$(awk '/^Top allocation sites at the peak/{getline; print; exit}' "$T/rs.txt")
case $top in *"rust_jemalloc::build_index ("*) ok "Rust: the top site at the peak is build_index, demangled, with its line" ;;
  *) not_ok "Rust: the top site at the peak is build_index, demangled, with its line"; diag "$top" ;; esac
finish
