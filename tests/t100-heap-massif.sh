#!/usr/bin/env bash
# t100-heap-massif: memtime and Massif (the real one, run beside it) must agree
# on every snapshot (time, heap, extra, stacks, kind) and on every tree, names
# and bytes, with --time-unit=B --peak-inaccuracy=0.0, on C and C++ programs
# that use every allocation entry point, --ignore-fn and custom allocators.
# Only code addresses may differ (the two preloads have different sizes, so
# libraries load elsewhere); they are normalised to "0x:".
. "$(dirname "$0")/lib.sh"
plan 13

# Snapshot list as "n time heap extra stacks kind" lines.
snapshots() {
  awk -F= '/^snapshot=/{n=$2} /^time=/{t=$2} /^mem_heap_B=/{h=$2} /^mem_heap_extra_B=/{x=$2}
           /^mem_stacks_B=/{s=$2} /^heap_tree=/{print n, t, h, x, s, $2}' "$1"
}
# The whole file without desc: (it names the output option) and addresses.
normalised() { sed -e 1d -e 's/0x[0-9A-F]*: /0x: /' "$1"; }
# The peak snapshot's tree.
peak_tree() { normalised "$1" | awk '/^heap_tree=/{p=($0=="heap_tree=peak")} p && /^ *n[0-9]+: /'; }

compare() {   # NAME PROG [OPTIONS...]
  local name=$1 prog=$2; shift 2
  massif  --time-unit=B --peak-inaccuracy=0.0 "$@" --massif-out-file="$T/$name.ms" "$prog" >/dev/null 2>"$T/$name.ms.err"
  memtime --time-unit=B --peak-inaccuracy=0.0 "$@" --memtime-out-file="$T/$name.mt" "$prog" >/dev/null 2>"$T/$name.mt.err"
  snapshots "$T/$name.ms" >"$T/$name.ms.snap"
  snapshots "$T/$name.mt" >"$T/$name.mt.snap"
  if [ "$(wc -l <"$T/$name.ms.snap")" -ge 10 ]; then ok "$name: Massif took $(wc -l <"$T/$name.ms.snap") snapshots"
  else not_ok "$name: Massif took too few snapshots to compare"; fi
  is_file "$T/$name.mt.snap" "$T/$name.ms.snap" "$name: same snapshots (time, heap, extra, stacks, kind)"
  peak_tree "$T/$name.ms" >"$T/$name.ms.peak"
  peak_tree "$T/$name.mt" >"$T/$name.mt.peak"
  if [ -s "$T/$name.ms.peak" ]; then is_file "$T/$name.mt.peak" "$T/$name.ms.peak" "$name: same peak tree"
  else not_ok "$name: Massif recorded no peak tree"; fi
  normalised "$T/$name.ms" >"$T/$name.ms.all"
  normalised "$T/$name.mt" >"$T/$name.mt.all"
  is_file "$T/$name.mt.all" "$T/$name.ms.all" "$name: same file apart from desc: and addresses"
  check "$name: massif-visualizer's grammar" perl "$MT_SRC/tests/check-strict-grammar.pl" "$T/$name.mt"
}

c=$(build_prog heap_c.c) || { not_ok "build heap_c.c"; exit 1; }
cxx=$(build_prog heap_cxx.cc) || { not_ok "build heap_cxx.cc"; exit 1; }
compare heap_c "$c" --ignore-fn=ignored_alloc
compare heap_cxx "$cxx"

# The ignored function's 4000 and 8000 bytes appear nowhere.
if sed 1d "$T/heap_c.mt" | grep -q ignored_alloc; then not_ok "--ignore-fn: ignored_alloc absent from the trees"
else ok "--ignore-fn: ignored_alloc absent from the trees"; fi
# The custom allocator's blocks are charged to its callers.
check "custom allocator: pool_alloc's blocks in a tree" grep -q 'pool_alloc (heap_c.c' "$T/heap_c.mt"

# A failed realloc leaves the block live and freeable: the heap ends at 0.
# (Massif 3.19 loses the block's record there and keeps counting its bytes.)
rf=$(build_prog heap_realloc_fail.c) || { not_ok "build heap_realloc_fail.c"; exit 1; }
memtime --time-unit=B --memtime-out-file="$T/rf.mt" "$rf" 2>/dev/null
is "$(snapshots "$T/rf.mt" | tail -1 | cut -d' ' -f3,4)" "0 0" "failed realloc: heap and extra back to 0 at the end"
massif --time-unit=B --massif-out-file="$T/rf.ms" "$rf" 2>/dev/null
diag "Massif 3.19 ends heap_realloc_fail with heap/extra: $(snapshots "$T/rf.ms" | tail -1 | cut -d' ' -f3,4)"
finish
