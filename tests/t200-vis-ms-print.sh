#!/usr/bin/env bash
# t200-vis-ms-print: memtime-vis --ms-print-only must print byte for byte what
# ms_print prints, on the Massif files kept in tests/data (all time units,
# pages-as-heap, C++ names, inlined frames) and on files Massif writes now for
# the programs in tests/progs, with ms_print's options (--threshold, --x, --y),
# and on files memtime writes for them.
. "$(dirname "$0")/lib.sh"
need c++
command -v ms_print >/dev/null || plan_skip "ms_print is not installed"
fixtures="massif-i massif-ms massif-B massif-pages massif-cxx massif-inline small chart-steps"
optsets=("" "--threshold=0" "--threshold=7.5 --x=100 --y=12" "--x=4 --y=4 --threshold=100")
plan $(( $(echo $fixtures | wc -w) * ${#optsets[@]} + 14 ))

# same NAME FILE OPTS: run both from FILE's directory so the echoed arguments match.
same() {
  local name=$1 file=$2; shift 2
  local dir base; dir=$(dirname "$file"); base=$(basename "$file")
  (cd "$dir" && ms_print "$@" "$base") >"$T/ms.txt" 2>/dev/null
  (cd "$dir" && vis --ms-print-only "$@" "$base") >"$T/vis.txt" 2>"$T/vis.err"
  local rc=$?
  if [ $rc -ne 0 ]; then not_ok "$name $*: memtime-vis failed ($rc)"; diag "$(cat "$T/vis.err")"; return; fi
  is_file "$T/vis.txt" "$T/ms.txt" "$name ${*:-(defaults)}: identical to ms_print"
}

for f in $fixtures; do
  for o in "${optsets[@]}"; do
    # shellcheck disable=SC2086
    file="$MT_SRC/tests/data/$f.out"; [ "$f" = chart-steps ] && file="$MT_SRC/tests/data/$f.massif"
    same "$f" "$file" $o
  done
done
# The largest total after the snapshot the file marks as its peak (as
# --peak-inaccuracy makes happen): the graph scales to the largest total.
sed 's/^mem_heap_B=1000$/mem_heap_B=20000/' "$MT_SRC/tests/data/small.out" >"$T/late.out"
same late "$T/late.out"
# A hand-made file with trees at 3 of 90 snapshots.
same phases "$MT_SRC/tests/data/phases.massif"
# A node larger than its parent (Massif never writes one; the grammar allows
# it): ms_print prints it under its parent left out, so the report's walk
# must not skip what is under a node below the threshold in such a tree.
sed 's/^ n1: 3000 0x109190/ n1: 30 0x109190/' "$MT_SRC/tests/data/small.out" >"$T/unnested.out"
same unnested "$T/unnested.out"
same unnested "$T/unnested.out" --threshold=7.5

# Fresh Massif output, so the test follows the installed Valgrind.
g=$(build_prog vis_growth.c) || { not_ok "build vis_growth.c"; exit 1; }
n=$(build_prog vis_names.cc) || { not_ok "build vis_names.cc"; exit 1; }
for unit in i ms B; do
  massif --time-unit=$unit --massif-out-file="$T/g-$unit.out" "$g" >/dev/null 2>&1
  same "live growth, time unit $unit" "$T/g-$unit.out"
done
massif --pages-as-heap=yes --massif-out-file="$T/g-pages.out" "$g" >/dev/null 2>&1
same "live growth, pages-as-heap" "$T/g-pages.out"
massif --stacks=yes --detailed-freq=1 --threshold=0.1 --massif-out-file="$T/n.out" "$n" >/dev/null 2>&1
same "live C++ names, stacks, every snapshot detailed" "$T/n.out"
same "live C++ names," "$T/n.out" --threshold=0
massif --depth=3 --max-snapshots=10 --massif-out-file="$T/d.out" "$n" >/dev/null 2>&1
same "live C++ names, --depth=3 --max-snapshots=10" "$T/d.out"
check "C++ labels kept whole (spaces, parentheses, commas, <>)" \
  grep -q "(anonymous namespace)::Pool<std::pair<int, long> >::operator()(unsigned long)" "$T/vis.txt"
# memtime's own output (its default time unit is ms; B is reproducible).
if [ -x "$MT_BUILD/memtime/memtime-amd64-linux" ]; then
  memtime --time-unit=B --memtime-out-file="$T/mt.out" "$n" >/dev/null 2>&1
  same "memtime output, C++ names" "$T/mt.out"
  memtime --memtime-out-file="$T/mt-ms.out" "$g" >/dev/null 2>&1
  same "memtime output, time unit ms" "$T/mt-ms.out" --threshold=0
else skip "memtime is not built"; skip "memtime is not built"; fi
finish
