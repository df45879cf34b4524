#!/usr/bin/env bash
# t520-pages-as-heap: --pages-as-heap=yes counts mmap/mremap/brk pages.
# Each step of pages_unmap maps pages and gives them back; Massif is the
# oracle for how much each step adds (its peak minus its baseline peak) where
# it is right, and memtime must come back to its baseline after every
# munmap/mremap/brk shrink, where Massif keeps a stale value. Time unit B
# for both: no snapshot at exit, so the last snapshot is the one taken by
# the step's last unmap (memtime's exit snapshot would hide a stale one).
. "$(dirname "$0")/lib.sh"
plan 14

heap() { sed -n 's/^mem_heap_B=//p' "$1"; }

pg=$(build_prog pages_unmap.c) || { not_ok "build pages_unmap.c"; exit 1; }
for s in 0 1 2 3 4; do
  memtime -q --pages-as-heap=yes --time-unit=B --memtime-out-file="$T/mt.$s" "$pg" $s >/dev/null 2>&1
  massif  -q --pages-as-heap=yes --time-unit=B --massif-out-file="$T/ms.$s" "$pg" $s >/dev/null 2>&1
done
check "profile keeps Massif's grammar" grammar "$T/mt.1"
check "root is the page-allocation node" grep -q '^n[0-9]*: [0-9]* (page allocation syscalls) mmap/mremap/brk, --alloc-fns, etc\.$' "$T/mt.1"
check "ms_print reads it" sh -c "ms_print '$T/mt.1' >/dev/null"

base=$(heap "$T/mt.0" | tail -1)
mbase=$(max_heap "$T/ms.0")
# Step: pages it maps at its highest (what Massif's peak grows by, except
# step 3 where Massif counts the MAP_FIXED pages twice).
for step in "1 64 munmap" "2 96 mremap+munmap" "4 40 brk-shrink"; do
  set -- $step
  is "$(( $(max_heap "$T/mt.$1") - base ))" "$(( $(max_heap "$T/ms.$1") - mbase ))" \
     "step $1 ($3): memtime's peak grows by what Massif's does"
  is "$(( $(max_heap "$T/mt.$1") - base ))" $(( $2 * 4096 )) "step $1: by exactly $2 pages"
  is "$(heap "$T/mt.$1" | tail -1)" "$base" "step $1 ($3): back to the baseline after it"
done
is "$(( $(max_heap "$T/mt.3") - base ))" $(( 16 * 4096 )) "step 3 (MAP_FIXED over a mapping): counted once, 16 pages"
is "$(heap "$T/mt.3" | tail -1)" "$base" "step 3: back to the baseline after it"
# What memtime fixes: Massif's last snapshot after the munmap still counts
# all but one page (diagnostic only: it is Massif's behaviour, not ours).
diag "Massif's last value minus its baseline, step 1: $(( $(heap "$T/ms.1" | tail -1) - mbase )) (memtime: 0)"
finish
