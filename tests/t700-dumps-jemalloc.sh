#!/usr/bin/env bash
# t700: jemalloc heap dumps made here, by Debian's libjemalloc2 (built with
# its profiler) under MALLOC_CONF, from a program whose heap is known by
# construction (tests/progs/dumps_sites.c: a leak, a bounded cache, a burst
# in a second thread), read by memtime-vis as one timeline. The oracles:
# jeprof (libjemalloc-dev), which reads each dump on its own, for every
# dump's total and the functions' bytes; the program's own construction
# for the growth kinds, the peak's top site and the leak's final size;
# ms_print and the strict grammar for the converted file; go tool pprof for
# the pprof export.
. "$(dirname "$0")/lib.sh"

command -v jeprof >/dev/null || plan_skip "jeprof not installed (libjemalloc-dev)"
[ -f "$(cc -print-file-name=libjemalloc.so)" ] || plan_skip "libjemalloc-dev not installed"
command -v go >/dev/null || plan_skip "go not installed (golang-go)"
prog=$(build_prog dumps_sites.c -ljemalloc) || plan_skip "cannot build dumps_sites.c against jemalloc"
pngcheck=$(build_pngcheck) || plan_skip "cannot build pngcheck"
src=$MT_SRC/tests/progs/dumps_sites.c
line_of() { grep -n "$1" "$src" | cut -d: -f1; }
LEAK=$(line_of LEAK_LINE) CACHE=$(line_of CACHE_LINE) BURST=$(line_of BURST_LINE)

plan 27

# One sample per 4 KiB (lg_prof_sample:12) keeps the sampled sites' shapes
# clear of sampling noise: the 2 MiB cache holds about 512 samples (+-4%);
# at one per 64 KiB its 32 samples (+-18%) made its level read as a burst in
# about one run of five;
# a dump every 4 MiB allocated (lg_prof_interval:22), and one at exit.
mkdir "$T/d"
MALLOC_CONF=prof:true,lg_prof_interval:22,lg_prof_sample:12,prof_final:true,prof_prefix:$T/d/jp \
  "$prog" || diag "dumps_sites exited with $?"
mapfile -t dumps < <(cd "$T/d" && ls jp.*.heap | sort -t. -k3,3n | sed "s|^|$T/d/|")
n=${#dumps[@]}
check "the program wrote at least 10 dumps ($n)" test "$n" -ge 10

# --- convert: the Massif file, read by ms_print and the strict grammar ---
check "convert writes the series" vis convert --clock=seq --threshold=0 "${dumps[@]}" -o "$T/all.out"
check "ms_print and the strict grammar read it" both_readers "$T/all.out"
is "$(grep -c '^snapshot=' "$T/all.out")" "$n" "one snapshot per dump"
is "$(grep -c '^heap_tree=peak' "$T/all.out")" 1 "one of them the peak"
mapfile -t shuffled < <(printf '%s\n' "${dumps[@]}" | sort -r)
vis convert --clock=seq --threshold=0 "${shuffled[@]}" -o "$T/shuf.out"
is_file "$T/shuf.out" "$T/all.out" "dumps given in any order are ordered by their sequence numbers"

# --- every dump's total against jeprof's Total (within 1%) ---
mapfile -t heaps < <(sed -n 's/^mem_heap_B=//p' "$T/all.out")
bad=0
for i in "${!dumps[@]}"; do
  jt=$(jeprof --text --show_bytes "$prog" "${dumps[i]}" 2>/dev/null | sed -n 's/^Total: \([0-9]*\) B$/\1/p')
  if [ -z "$jt" ] || ! within_pct "${heaps[i]}" "$jt" 1; then
    bad=$((bad + 1)); diag "${dumps[i]}: memtime-vis ${heaps[i]}, jeprof ${jt:-none}"
  fi
done
is "$bad" 0 "each of the $n dumps' total is jeprof's Total within 1%"

# --- per function, on the peak dump: jeprof's flat bytes ---
peak=$(awk -F= '/^snapshot=/{n=$2} /^heap_tree=peak/{print n}' "$T/all.out")
# The depth-1 nodes of snapshot $1 (the sites, unpruned: --threshold=0),
# summed per function.
sites_of() {
  awk -v s="$1" '/^snapshot=/{cur=($0 == "snapshot=" s)}
    cur && /^ n[0-9]+: / { b=$2; sub(/^ n[0-9]+: [0-9]+ 0x[0-9A-F]+: /, ""); sub(/ \(.*$/, ""); f[$0]+=b }
    END { for (k in f) print k, f[k] }' "$T/all.out"
}
jeprof --text --show_bytes "$prog" "${dumps[peak]}" 2>/dev/null >"$T/jeprof.txt"
for fn in burst_site leak_site cache_put; do
  got=$(sites_of "$peak" | awk -v f="$fn" '$1 == f {print $2}')
  want=$(awk -v f="$fn" '$6 == f {print $1}' "$T/jeprof.txt")
  # jeprof sums each stack's estimate unrounded; memtime-vis rounds each
  # stack's to whole bytes: at most a byte apart per stack.
  if [ -n "$got" ] && [ -n "$want" ] && [ $(( got > want ? got - want : want - got )) -le 8 ]; then
    ok "$fn's bytes at the peak dump equal jeprof --text's ($want)"
  else
    not_ok "$fn's bytes at the peak dump equal jeprof --text's"; diag "got '$got', jeprof '$want'"
  fi
done

# --- known by construction ---
final=$(sites_of $((n - 1)) | awk '$1 == "leak_site" {print $2}')
check "the leak at exit is its 400 x 32 KiB within 25% (sampling) (${final:-none})" \
  within_pct "${final:-0}" $((400 * 32768)) 25
vis --growth --clock=seq "${dumps[@]}" >"$T/growth.txt" 2>"$T/growth.err"
kind() { awk -v s="$1" 'index($0, s) {print $1; exit}' "$T/growth.txt"; }
is "$(kind "leak_site (dumps_sites.c:$LEAK)")" steady "the growth analysis calls the leak steady"
is "$(kind "cache_put (dumps_sites.c:$CACHE)")" plateau "... the bounded cache a plateau"
is "$(kind "burst_site (dumps_sites.c:$BURST)")" burst "... and the burst a burst"

vis --summary-only --clock=seq "${dumps[@]}" >"$T/sum.txt" 2>/dev/null
top=$(awk '/^Top allocation sites at the peak/{getline; print; exit}' "$T/sum.txt")
case $top in *"burst_site (dumps_sites.c:$BURST)") ok "the top site at the peak is the burst, with its file:line" ;;
  *) not_ok "the top site at the peak is the burst, with its file:line"; diag "$top" ;; esac
check "the summary states the sampling and a small site's error" \
  grep -q 'sampling: one sample per 4 KiB allocated on average.*+-100% for a 4 KiB site' "$T/sum.txt"
check "... and the clock" grep -q "clock: the dumps' sequence numbers" "$T/sum.txt"
check "... and names the dumps it read, first to last" \
  grep -q "^memtime-vis summary of ${dumps[0]} .. ${dumps[n-1]}$" "$T/sum.txt"

# --- the clocks: modification times, and bytes allocated ---
mkdir "$T/m"
for i in "${!dumps[@]}"; do
  cp "${dumps[i]}" "$T/m/"
  touch -d "@$((1700000000 + i * 3)).$((i % 2 * 5))00000000" "$T/m/$(basename "${dumps[i]}")"
done
vis convert "$T"/m/*.heap -o "$T/mtime.out"
want=$(for i in "${!dumps[@]}"; do echo $(( i * 3000 + i % 2 * 500 )); done | tr '\n' ' ')
is "$(sed -n 's/^time_unit: //p' "$T/mtime.out") $(sed -n 's/^time=//p' "$T/mtime.out" | tr '\n' ' ')" \
  "ms $want" "with a modification time each, the times are ms since the first dump"
vis convert --clock=alloc --lg-prof-interval=22 "${dumps[@]:0:n-1}" -o "$T/alloc.out"
want=$(for f in "${dumps[@]:0:n-1}"; do k=${f##*.i}; k=${k%.heap}; echo $(( (k + 1) * 4194304 )); done | tr '\n' ' ')
is "$(sed -n 's/^time_unit: //p' "$T/alloc.out") $(sed -n 's/^time=//p' "$T/alloc.out" | tr '\n' ' ')" \
  "B $want" "--clock=alloc: interval dump N at (N+1) x 2^lg_prof_interval bytes allocated"
err=$(vis convert --clock=alloc --lg-prof-interval=22 "${dumps[@]}" -o "$T/x.out" 2>&1)
is "$err" "memtime-vis: ${dumps[n-1]}: --clock=alloc takes interval dumps only (PREFIX.PID.SEQ.iN.heap)" \
  "--clock=alloc refuses the exit dump, by name"

# --- every view works on them ---
vis -o "$T/c.png" --clock=seq "${dumps[@]}" 2>/dev/null
is "$("$pngcheck" "$T/c.png" size 2>&1)" "1600 900" "the PNG chart"
vis --json --clock=seq "${dumps[@]}" 2>/dev/null >"$T/p.json"
check "the JSON report parses, names the burst and states the sampling and clock" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert 'burst_site' in json.dumps(d)
assert any(s.startswith('sampling: one sample per 4 KiB') for s in d['source'])
assert any(s.startswith('clock: the dumps') for s in d['source'])" "$T/p.json"
vis --pprof="$T/p.pb.gz" --clock=seq "${dumps[@]}" 2>/dev/null
check "the pprof export of the peak: go tool pprof lists burst_site" \
  sh -c "go tool pprof -top '$T/p.pb.gz' 2>/dev/null | grep -q burst_site"
vis diff --clock=seq "${dumps[0]}" "${dumps[n-1]}" >"$T/diff.txt" 2>/dev/null
check "diff of the first and last dump shows the leak grown" grep -q 'leak_site' "$T/diff.txt"
vis check --max-peak=20MiB "${dumps[@]}" >"$T/check.txt" 2>/dev/null
is "$?" 3 "check --max-peak=20MiB fails on the 34 MiB burst"
n_f=$(vis --flamegraph="$T/f.svg" "${dumps[@]}" 2>/dev/null; grep -c 'burst_site' "$T/f.svg")
check "the flame graph of the peak holds the burst" test "${n_f:-0}" -ge 1
finish
