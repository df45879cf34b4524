#!/usr/bin/env bash
# t102-tree-options: the options that shape trees and the snapshot schedule
# give exactly Massif's output (B unit, addresses normalised): --depth,
# --threshold, --alloc-fn, --ignore-fn, --detailed-freq, --max-snapshots
# (culling), --peak-inaccuracy; and --time-unit=i agrees with Massif up to the
# constant start-up offset that the different preload object causes.
. "$(dirname "$0")/lib.sh"
plan 19

prog=$(build_prog heap_many.c) || { not_ok "build heap_many.c"; exit 1; }

same_as_massif() {   # DESCRIPTION OPTIONS...
  local d=$1; shift
  massif  -q "$@" --massif-out-file="$T/o.ms" "$prog" >/dev/null 2>&1
  memtime -q "$@" --memtime-out-file="$T/o.mt" "$prog" >/dev/null 2>&1
  normalised "$T/o.ms" >"$T/o.ms.n"; normalised "$T/o.mt" >"$T/o.mt.n"
  is_file "$T/o.mt.n" "$T/o.ms.n" "$d: same as Massif"
}
B="--time-unit=B --peak-inaccuracy=0.0"

same_as_massif "defaults in B"           $B
same_as_massif "--depth=1"               $B --depth=1
same_as_massif "--depth=3"               $B --depth=3
check "--depth=3: no tree line deeper than 3 frames" \
  awk '/^    +n[0-9]+: /{bad=1} END{exit bad}' "$T/o.mt"
same_as_massif "--threshold=0.0"         $B --threshold=0.0
same_as_massif "--threshold=20"          $B --threshold=20
check "--threshold=20: sites merged into 'below massif's threshold' lines" \
  grep -q "below massif's threshold (20.00%)" "$T/o.mt"
same_as_massif "--alloc-fn=my_alloc"     $B --alloc-fn=my_alloc
if normalised "$T/o.mt" | grep -q 'my_alloc (heap_many'; then not_ok "--alloc-fn: my_alloc stripped from every stack"
else ok "--alloc-fn: my_alloc stripped from every stack"; fi
same_as_massif "--ignore-fn=from_c"      $B --ignore-fn=from_c
same_as_massif "--detailed-freq=1"       $B --detailed-freq=1
same_as_massif "--detailed-freq=1000000" $B --detailed-freq=1000000
same_as_massif "--max-snapshots=10 (culling)" $B --max-snapshots=10
n=$(grep -c '^snapshot=' "$T/o.mt")
check "--max-snapshots=10: at most 10 snapshots ($n)" test "$n" -le 10
same_as_massif "--max-snapshots=37 --detailed-freq=4" $B --max-snapshots=37 --detailed-freq=4
same_as_massif "--peak-inaccuracy=5 (default peak tolerance)" --time-unit=B --peak-inaccuracy=5
same_as_massif "--heap-admin=0 --threshold=3 --depth=5" $B --heap-admin=0 --threshold=3 --depth=5

# Instructions: same snapshots and values; times shifted by one constant
# (the memtime preload is a bigger object: the dynamic linker runs longer).
massif  -q --time-unit=i --massif-out-file="$T/i.ms" "$prog" >/dev/null 2>&1
memtime -q --time-unit=i --memtime-out-file="$T/i.mt" "$prog" >/dev/null 2>&1
rel() { awk -F= '/^time=/{t=$2; if (n==1) t1=t; if (n>=1) print t-t1, n; n++}' "$1"; }
is_file <(rel "$T/i.mt") <(rel "$T/i.ms") "--time-unit=i: same times relative to the first allocation"
grep -v '^time=' "$T/i.ms" | normalised /dev/stdin >"$T/i.ms.n"
grep -v '^time=' "$T/i.mt" | normalised /dev/stdin >"$T/i.mt.n"
is_file "$T/i.mt.n" "$T/i.ms.n" "--time-unit=i: same values, kinds and trees"
finish
