#!/usr/bin/env bash
# t596-rss-chart: memtime-vis draws the resident memory (the companion's rss:
# records) over the stacked heap, checked by its pixels and in the gnuplot
# script. The fixture tests/data/rss-chart.massif (valid for ms_print) holds
# a flat 8 MiB heap from 100 ms; its companion has four readings: 1 MiB at
# 0 ms, 10 MiB at 100 ms, 32 MiB (20 anonymous, 12 file-backed) at 500 and
# 1000 ms, the RSS peak at 500 ms. So from 500 ms on the RSS line is at 32 MiB,
# its file-backed part at 12 MiB, the tinted gap between 8 and 32 MiB. The
# same readings reach the gnuplot script, the CSV and --json.
# The RSS peak is 4 times the heap, more than VIS_RSS_PANEL_RATIO (2): the
# main plot holds the heap on its own scale and the RSS is drawn in the
# panel below it, heap and RSS on one scale (t306 measures the rule).
# Positions come from MEMTIME_VIS_DEBUG_LAYOUT=1 (see t300).
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/chart-lib.sh"
need gnuplot python3
plan 24
FIX="$T/rss-chart.massif"
cp "$MT_SRC/tests/data/rss-chart.massif" "$FIX"
cp "$MT_SRC/tests/data/rss-chart.massif.memtime" "$FIX.memtime"
BLUE=4E79A7 RSS=6A1B9A RSS_FILE=9C4DCC

check "ms_print reads the fixture" sh -c "ms_print '$FIX' >/dev/null"

# load NAME: the RSS panel (load_panel) and the RSS peak's ring
load() {
  load_plot "$1"
  load_panel "$1"
  read -r RX RY <<<"$(awk '$2=="rsspeak"{print $3,$4}' "$T/$1.layout")"
}

render main
load_plot main
check "the main plot's axis is the heap's (8 MiB), not the RSS's" \
  awk -v y="$YMAX" -v m=$MiB 'BEGIN{ exit !(y >= 8*m && y < 16*m) }'
is "$(at main "$(xt 750)" "$(ym 3)")" $BLUE "the heap's band in the main plot"
load main
check "the panel's axis holds the RSS peak (32 MiB)" \
  awk -v y="$YMAX" -v m=$MiB 'BEGIN{ exit !(y >= 32*m) }'
is "$RX $RY" "$(xt 500) $(ym 32)" "the RSS peak's ring at 500 ms, 32 MiB"
is "$(at main "$(xt 750)" "$(ym 32)")" $RSS "the RSS line at 32 MiB between 500 and 1000 ms"
is "$(at main "$(xt 750)" "$(( $(ym 32) - 6 ))")" FFFFFF "above the RSS line is background"
is "$(at main "$(xt 750)" "$(ym 4)")" B8C4D0 "below 8 MiB the heap's total in the panel, the tint under it"
tint=$(at main "$(xt 750)" "$(ym 22)")
r=$((16#${tint:0:2})) g=$((16#${tint:2:2})) b=$((16#${tint:4:2}))
check "between the heap (8 MiB) and the RSS (32 MiB) a light purple tint ($tint)" \
  test "$r" -gt "$g" -a "$b" -gt "$g" -a "$g" -gt 180 -a "$g" -lt 250
row=$("$PNGCHECK" "$T/main.png" row "$(ym 12)" $RSS_FILE)
check "the file-backed part is a dashed line at 12 MiB after 500 ms (runs: $row)" \
  sh -c "[ \$(printf '%s\n' $row | awk -F- -v a=$(xt 550) -v b=$(xt 950) '\$1 >= a && \$2 <= b' | wc -l) -ge 5 ]"
# Between readings the line holds the last one (a step), never a ramp: 10 MiB
# from 100 ms until the reading at 500 ms, nothing at 21 MiB in between.
is "$(at main "$(xt 300)" "$(ym 10)")" $RSS "between two readings the line holds the first (10 MiB at 300 ms)"
isnt_rss=$(at main "$(xt 300)" "$(ym 21)")
check "no ramp between the readings at 100 and 500 ms (21 MiB at 300 ms is $isnt_rss)" test "$isnt_rss" != $RSS

# Without the companion the chart is the heap's alone, as before.
MEMTIME_VIS_DEBUG_LAYOUT=1 "$MT_VIS" --no-companion "$FIX" -o "$T/none.png" 2>"$T/none.layout"
is "$("$PNGCHECK" "$T/none.png" count $RSS)" 0 "--no-companion: no RSS line"
check "--no-companion: no RSS peak in the layout" sh -c "! grep -q rsspeak '$T/none.layout'"
mkdir -p "$T/bare" && cp "$FIX" "$T/bare/"
(cd "$T" && "$MT_VIS" --no-companion rss-chart.massif -o none2.png)
(cd "$T/bare" && "$MT_VIS" rss-chart.massif -o ../bare.png)
check "a Massif file without a companion draws the same as with --no-companion" cmp -s "$T/bare.png" "$T/none2.png"

# gnuplot: the readings in their own datablock, the lines and the tint.
"$MT_VIS" "$FIX" --gnuplot="$T/c.gp"
is "$(sed -n '/^\$rss << EOD$/,/^EOD$/p' "$T/c.gp" | sed '1d;$d' | awk '{print $1, $2, $3}' | tr '\n' ';')" \
  "0 1 0;100 10 0;500 32 12;1000 32 12;" "gnuplot: the readings as time, RSS, file-backed (ms, MiB)"
check "gnuplot: the RSS line, its file-backed part and the tint are plotted" \
  sh -c "grep -q 'resident memory (RSS)  \[peak 32.0 MiB\]' '$T/c.gp' && grep -q 'file-backed part of the RSS' '$T/c.gp' && grep -q 'RSS above the heap  \[24.0 MiB at the RSS peak\]' '$T/c.gp'"
if command -v gnuplot >/dev/null; then
  "$MT_VIS" "$FIX" -o "$T/c.svg" 2>"$T/svg.err"
  check "SVG through gnuplot names the RSS peak" grep -q 'RSS peak 32.0 MiB at 500 ms, heap 25% of it' "$T/c.svg"
  check "SVG is well-formed XML" python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" "$T/c.svg"
else
  not_ok "gnuplot missing (scripts/deps.sh --test installs gnuplot-nox)"
  not_ok "gnuplot missing"
fi
# CSV: rss, rss_anon, rss_file, rss_shmem after the heap's columns, empty
# where there is no reading; none without readings.
"$MT_VIS" "$FIX" -o "$T/r.csv"
is "$(cut -d, -f9- "$T/r.csv" | tr '\n' ';')" \
  "rss,rss_anon,rss_file,rss_shmem;1048576,1048576,0,0;10485760,10485760,0,0;33554432,20971520,12582912,0;33554432,20971520,12582912,0;" \
  "CSV: the resident-memory columns"
grep -v '^rss: snapshot=1 ' "$FIX.memtime" >"$T/one-less.memtime"
"$MT_VIS" "$FIX" --companion="$T/one-less.memtime" -o "$T/r2.csv"
is "$(sed -n 3p "$T/r2.csv" | cut -d, -f9-)" ",,," "CSV: a snapshot without a reading has empty RSS fields"
# JSON: the peak with its mappings, every reading; null without readings.
"$MT_VIS" --json "$FIX" >"$T/r.json"
is "$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["rss"]
k = r["peak"]
print(k["time"], k["total_bytes"], k["anon_bytes"], k["file_bytes"], k["shmem_bytes"], k["heap_bytes"])
print(len(r["readings"]), r["readings"][1]["total_bytes"], r["readings"][1]["heap_total_bytes"])' "$T/r.json")" \
  "500 33554432 20971520 12582912 0 8388608
4 10485760 8388608" "JSON: rss.peak and rss.readings"
is "$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["rss"]["peak"]["mappings"]
print(m[0]["name"], m[0]["mmap_stack"], m[1]["name"], m[1]["mappings"], m[1]["mmap_stack"])' "$T/r.json")" \
  "/var/lib/service/cache.db [] [anon] 3 ['arena_grow (arena.c:77)', 'main (service.c:19)']" \
  "JSON: the mappings at the RSS peak, anonymous ones with their mmap's stack"
is "$("$MT_VIS" --json --no-companion "$FIX" | json_get - 'd["rss"]')" \
  None "JSON: rss is null without readings"
finish
