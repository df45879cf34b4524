#!/usr/bin/env bash
# t300: memtime-vis's PNG chart, checked by its pixels. The fixture
# tests/data/chart-steps.massif (valid for ms_print, with a companion holding
# two phase marks) has a known shape: grow_a dominates 100..500 ms and peaks
# at 300 ms (15.75 MiB), grow_b dominates 500..1000 ms, snapshots 4, 7 and 10
# are not detailed (no site exceeds its larger value in the trees around it;
# the rest is unattributed, hatched).
# The PNG is decoded with libpng (tests/pngcheck.c); positions come from the
# layout memtime-vis prints with MEMTIME_VIS_DEBUG_LAYOUT=1 (plot rectangle and
# axis ranges) and the mapping stated in chart.c.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/chart-lib.sh"
plan 32
FIX="$T/chart-steps.massif"
cp "$MT_SRC/tests/data/chart-steps.massif" "$FIX"
cp "$MT_SRC/tests/data/chart-steps.massif.memtime" "$FIX.memtime"
BLUE=4E79A7 ORANGE=F28E2B GREEN=59A14F OTHER=C9C9C9 EXTRA=8F8F8F STACKS=5A6B7B TOTAL=1A1A1A PEAK=D62728
HATCH=A0A0A0 HATCH_BG=F2F2F2

# The fixture is valid for the oracle.
check "ms_print reads the fixture" sh -c "ms_print '$FIX' >/dev/null"

# load NAME: the plot (load_plot) and this test's own marks
load() {
  load_plot "$1"
  PEAKX=$(awk '$2=="peak"{print $3}' "$T/$1.layout")
  MARK0=$(awk '$2=="mark"&&$3==0{print $4}' "$T/$1.layout")
  MARK1=$(awk '$2=="mark"&&$3==1{print $4}' "$T/$1.layout")
}
# band NAME TIME LO HI COLOUR: the pixel in the middle of [LO,HI] MiB at TIME
band() {
  local mid; mid=$(awk -v a="$3" -v b="$4" 'BEGIN{print (a+b)/2}')
  is "$(at "$1" "$(xt "$2")" "$(ym "$mid")")" "$5" "$1: at $2 ms, $3..$4 MiB is $5"
}

render main
check "writes a PNG" test -s "$T/main.png"
is "$("$PNGCHECK" "$T/main.png" size)" "1600 900" "default size 1600x900"
load main
check "layout printed" test -n "$X0" -a -n "$YMAX" -a -n "$PEAKX"
# Bands of detailed snapshots: sites stacked bottom first in rank order.
band main 350 0 12 $BLUE           # snapshot 3 (the peak): grow_a 12 MiB
band main 350 12 14 $ORANGE        # grow_b 2 MiB on top of it
band main 350 14 15 $GREEN         # the std::map site
band main 350 15 15.5 $EXTRA       # extra heap 0.5 MiB
band main 150 0 4 $BLUE            # snapshot 1
band main 550 0 6 $ORANGE          # snapshot 5: grow_a freed, grow_b 6 MiB
band main 680 10 10.5 $OTHER       # snapshot 6: the below-threshold line
band main 950 11 13 $GREEN         # snapshot 9: the map site grew to 2 MiB
band main 950 13.5 13.75 $STACKS   # stacks on top
# Snapshot 4 has no tree: its heap (7.5 MiB) lies 15/16 of the way from
# snapshot 3's (15 MiB) to snapshot 5's (7 MiB), so grow_b moves 15/16 of the
# way from 2 to 6 MiB (5.75 MiB), the map site stays at 1 MiB, grow_a (absent
# from snapshot 5's tree) gets nothing, and the remaining 0.75 MiB is
# unattributed (hatched).
band main 450 0 5.6 $ORANGE
band main 450 5.9 6.6 $GREEN
hatched() {   # NAME TIME LO HI: a hatch (both of its colours) in [LO,HI] MiB at TIME
  local x; x=$(xt "$2")
  local got; got=$(for y in $(seq "$(ym "$4")" "$(ym "$3")"); do at "$1" "$x" "$y"; done | sort -u | tr '\n' ' ')
  is "$got" "$HATCH $HATCH_BG " "$1: at $2 ms, $3..$4 MiB is hatched"
}
hatched main 450 6.8 7.45
band main 450 7.6 7.9 $EXTRA
# Snapshot 7 lies between snapshot 6 (0.5 MiB in a below-threshold line) and
# snapshot 8 (none): "other" gets nothing there, the 0.5 MiB is unattributed.
hatched main 750 10.05 10.45
# Steps: just before the next snapshot the old value still holds.
band main 395 0 12 $BLUE
is "$(at main "$(xt 350)" "$(( $(ym 15.75) - 4 ))")" FFFFFF "above the stack is background"
is "$(at main "$(xt 350)" "$(ym 15.75)")" $TOTAL "the total line sits on the stack"
# The peak marker: a red line from the top of the plot down to 15.75 MiB at 300 ms.
is "$PEAKX" "$(xt 300)" "peak line at 300 ms"
row=$("$PNGCHECK" "$T/main.png" row "$(ym 17)" $PEAK)
is "$row" "$PEAKX-$((PEAKX + 1))" "red peak line (2 px) at its column, nowhere else in that row"
# Phase marks from the companion: dashed lines at 250 and 650 ms.
is "$MARK0 $MARK1" "$(xt 250) $(xt 650)" "mark lines at 250 and 650 ms"
nonbg=$("$PNGCHECK" "$T/main.png" runs "$MARK0" "$(ym 17)" "$(ym 11.5)" | awk '$3 != "FFFFFF" && $3 != "E2E2E2"' | wc -l)
check "mark 0's column is dashed above the data" test "$nonbg" -ge 3
# Each band colour names exactly one band.
legend_ok=1
for c in $BLUE $ORANGE $GREEN $OTHER $EXTRA $STACKS; do
  [ "$(awk -v c="$c" '$2=="band" && $4==c' "$T/main.layout" | wc -l)" = 1 ] || legend_ok=0
done
check "every band is named once in the layout" test $legend_ok = 1
grep -qF 'layout band 2 59A14F std::map<…>::operator[](int const&) (stl_map.h:511)' "$T/main.layout"
check "long C++ name shortened in the legend: its template arguments first (memtime-vis.1, NAMES)" test $? = 0

# Other sizes keep the mapping honest.
render small --width 800 --height 500
is "$("$PNGCHECK" "$T/small.png" size)" "800 500" "--width 800 --height 500"
load small
band small 350 0 12 $BLUE

# --top 1: only grow_a on its own, the others become "other sites".
render top1 --top 1
load top1
band top1 350 12 15 $OTHER

# A file cut short: rendered, with a red warning in the subtitle.
head -n 60 "$FIX" >"$T/cut.massif"
MEMTIME_VIS_DEBUG_LAYOUT=0 "$MT_VIS" "$T/cut.massif" -o "$T/cut.png" 2>"$T/cut.err"
check "a file cut short is rendered" test -s "$T/cut.png"
n_warn=$("$PNGCHECK" "$T/cut.png" count B22222)
n_full=$("$PNGCHECK" "$T/main.png" count B22222)
check "its subtitle carries the warning (red text), the full file's does not" test "$n_warn" -gt 20 -a "$n_full" = 0
finish
