#!/usr/bin/env bash
# t406: allocation trees start at the program's own function even when the
# allocator plumbing is inlined into it. memtime prints its trees itself
# (memtime/mt_msprint.c), so first its inlined frames are checked against
# real Massif byte for byte (C at -O2, nothing to strip); then an inlined C
# wrapper named by --alloc-fn is stripped where Massif keeps it; then
# optimised Rust (-C opt-level=2 -g): with the system allocator, and with
# jemalloc's _rjem_ API as tikv-jemallocator calls it, the peak tree's
# top-level sites are the program's functions (and a closure that allocates
# stays visible), never __rust_alloc, alloc (alloc.rs), RawVec or hashbrown.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/progs/jemalloc_build.sh"
. "$MT_SRC/tests/progs/jemalloc_check.sh"
need rustc file:libjemalloc_pic.a objcopy
plan 16

# Top-level sites of the peak tree (depth 1), without the merged line.
top_sites() { peak_tree "$1" | grep '^ n[0-9]*: ' | grep -v "below massif's threshold"; }
# heap_kinds FILE: "heap extra kind" per snapshot.
heap_kinds() {
  awk -F= '/^mem_heap_B=/{h=$2} /^mem_heap_extra_B=/{x=$2} /^heap_tree=/{print h, x, $2}' "$1"
}
B="--time-unit=B --peak-inaccuracy=0.0"

# --- C, inlined frames and nothing to strip: exactly Massif's file.
vi=$(build_prog vis_inline.c -O2) || { not_ok "build vis_inline.c"; exit 1; }
iw=$(build_prog inline_wrapper.c -O2) || { not_ok "build inline_wrapper.c"; exit 1; }
for p in "$vi" "$iw"; do
  n=$(basename "$p")
  massif  -q $B --threshold=0.0 --massif-out-file="$T/$n.ms" "$p" >/dev/null 2>&1
  memtime -q $B --threshold=0.0 --memtime-out-file="$T/$n.mt" "$p" >/dev/null 2>&1
  is_file <(normalised "$T/$n.mt") <(normalised "$T/$n.ms") \
    "${n%-*} -O2 (inlined frames, --threshold=0.0): same file as Massif"
done
check "Massif's trees there do hold inlined frames (two lines per address)" \
  sh -c "grep -q 'inner_alloc (vis_inline.c' '$T/$(basename "$vi").ms'"

# --- C, an always_inline wrapper named by --alloc-fn.
massif  -q $B --alloc-fn=xmalloc_inline --massif-out-file="$T/w.ms" "$iw" >/dev/null 2>&1
memtime -q $B --alloc-fn=xmalloc_inline --memtime-out-file="$T/w.mt" "$iw" >/dev/null 2>&1
is "$(heap_kinds "$T/w.mt")" "$(heap_kinds "$T/w.ms")" \
  "--alloc-fn=xmalloc_inline: same snapshots (heap, extra, kind) as Massif"
top_sites "$T/w.ms" >"$T/w.ms.top"
check "Massif keeps the inlined wrapper's line at the top of its peak tree" \
  grep -q ': xmalloc_inline (inline_wrapper.c:' "$T/w.ms.top"
top_sites "$T/w.mt" >"$T/w.top"
diag "memtime's top-level sites:" "$(cat "$T/w.top")"
check "memtime strips it: the top-level sites are make_big and make_small" \
  sh -c "[ \$(grep -cE ': (make_big|make_small) \(inline_wrapper.c:' '$T/w.top') = 2 ] && ! grep -q ': xmalloc_inline (' '$T/w.mt'"

# --- Rust.
RUSTC=$(test_rustc)   # lib.sh: Debian's rustc first, as on a fresh machine
if [ -z "$RUSTC" ]; then
  for i in $(seq 10); do skip "no rustc on PATH nor in ~/.cargo/bin (apt-get install rustc)"; done
  finish; exit
fi
PLUMBING='__rust|__rdl_|__rg_|GlobalAlloc|RawVec|raw_vec|alloc\.rs|boxed\.rs|hashbrown|/raw/|UnknownInlinedFun|library/|jemalloc|mallocx|: alloc '

ri=$(rust_prog rust_inlined.rs 2 2>"$T/ri.err") || { head -20 "$T/ri.err" | diag "$(cat)"; }
check "rustc builds rust_inlined.rs at opt-level=2" test -x "$ri"
memtime --massif-out-file="$T/ri.out" "$ri" >/dev/null 2>"$T/ri.err"
is "$?" 0 "rust_inlined runs under memtime"
top_sites "$T/ri.out" >"$T/ri.top"
diag "top-level sites:" "$(cut -c1-120 "$T/ri.top")"
check "every top-level site is in the program's own source" \
  sh -c "[ -s '$T/ri.top' ] && ! grep -qv '(rust_inlined.rs:[0-9]*)\$' '$T/ri.top'"
check "no top-level site is allocator plumbing" sh -c "! grep -qE '$PLUMBING' '$T/ri.top'"
check "make_boxes, make_table and make_names are top-level sites" \
  sh -c "grep -q 'rust_inlined::make_boxes (' '$T/ri.top' && grep -q 'rust_inlined::make_table (' '$T/ri.top' && grep -q 'rust_inlined::make_names (' '$T/ri.top'"
check "the format! closure keeps its own line (not charged to collect or make_names)" \
  grep -q ': {closure#0} (rust_inlined.rs:' "$T/ri.top"

ARCHIVE=$(je_rjem_archive 2>"$T/err") || {
  for i in $(seq 4); do skip "no libjemalloc_pic.a to rename: $(head -c 100 "$T/err")"; done
  finish; exit
}
# libc after the archive: rustc links with -nodefaultlibs and puts its own -lc
# before link-args (rustc 1.63, Debian bookworm's).
rj=$(rust_prog rust_jemalloc.rs 2 -C link-arg="$ARCHIVE" -C link-arg=-lm -C link-arg=-lpthread -C link-arg=-lc 2>"$T/rj.err") \
  || { head -20 "$T/rj.err" | diag "$(cat)"; }
check "rustc builds rust_jemalloc.rs against _rjem_ jemalloc at opt-level=2" test -x "$rj"
memtime --massif-out-file="$T/rj.out" "$rj" >/dev/null 2>"$T/rj.err"
is "$?" 0 "rust_jemalloc runs under memtime"
top_sites "$T/rj.out" >"$T/rj.top"
diag "top-level sites:" "$(cut -c1-120 "$T/rj.top")"
n=$(grep -c ': rust_jemalloc::build_index (rust_jemalloc.rs:[0-9]*)$' "$T/rj.top")
is "$n:$(wc -l <"$T/rj.top")" "5:5" \
  "the five top-level sites are all build_index's own lines (Box, HashMap, two Vecs, push)"
check "ms_print reads memtime's file" sh -c "ms_print '$T/rj.out' >/dev/null"
finish
