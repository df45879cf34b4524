#!/usr/bin/env bash
# t414: the charts and the HTML report name the RSS gap the program's own
# allocator explains (memtime --allocator=program): what it holds freed is a
# band of its own on the heap's top, under the RSS line, with a legend entry.
#
# Oracle: tests/progs/alloc_gap.c "batch hold" on Debian's libjemalloc with
# dirty_decay_ms:-1 (never purge): 30 MiB live, a 160 MiB batch allocated and
# freed, then the program runs on (allocating and freeing 4 KiB at a time,
# which reuses the freed pages) for 160 MiB of allocations. Its native run
# prints VmRSS and its own heap count at each phase: the gap VmRSS - heap at
# "held" is the known answer (~170 MiB). Drawn with --time-unit=B, so the
# stretch between the "freed" and "held" marks is by construction 160 MiB of
# the time axis. From the PNG's pixels (tests/pngcheck.c, positions from
# MEMTIME_VIS_DEBUG_LAYOUT=1): in the middle of that stretch the band's
# colour stands on the heap's top, its height within 15% of the native gap;
# the legend names it. The same band in gnuplot's script ($heldcols) and
# the SVG it draws, in the HTML page's DOM in headless Chromium (band and
# legend and the summary's RSS split); the default mode draws none.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/chart-lib.sh"
. "$MT_SRC/tests/progs/jemalloc_build.sh"
need python3 gnuplot chromium lib:jemalloc
CHROMIUM=$(command -v chromium || command -v chromium-browser)
GS=$(je_prog shared alloc_gap.c 2>"$T/build.err") || plan_skip "cannot build alloc_gap.c with libjemalloc: $(head -c 200 "$T/build.err")"
plan 13
HELD=E8A0BF

# native: the oracle, the gap VmRSS - heap at "held", bytes.
MALLOC_CONF=dirty_decay_ms:-1 "$GS" batch hold >"$T/native" || not_ok "native run"
GAP=$(awk '$2 == "held" { split($3, r, "="); split($4, h, "="); printf "%d", r[2] * 1024 - h[2] }' "$T/native")
LIVE=$(awk '$2 == "held" { split($4, h, "="); print h[2] }' "$T/native")
diag "native: VmRSS - heap at \"held\" = $GAP B, heap $LIVE B"

MALLOC_CONF=dirty_decay_ms:-1 memtime -q --allocator=program --time-unit=B \
  --memtime-out-file="$T/je.out" "$GS" batch hold >/dev/null 2>"$T/je.err"
is "$?" 0 "runs under memtime --allocator=program"
memtime -q --time-unit=B --memtime-out-file="$T/def.out" "$GS" batch hold >/dev/null 2>"$T/def.err"
FIX="$T/je.out"

# ---- PNG ----------------------------------------------------------------------
render je
load_plot je
check "the layout names the band: jemalloc holds freed (dirty, muzzy, partly used pages)" \
  grep -q "^layout held $HELD jemalloc holds freed (dirty, muzzy, partly used pages)$" "$T/je.layout"
# The middle of the stretch between the "freed" and "held" marks.
XF=$(awk '$2 == "mark" && $5 == "freed" { print $4 }' "$T/je.layout")
XH=$(awk '$2 == "mark" && $5 == "held" { print $4 }' "$T/je.layout")
X=$(( (XF + XH) / 2 ))
"$PNGCHECK" "$T/je.png" runs "$X" "$Y0" "$Y1" >"$T/je.runs"
# The band's rows in the column: its top and bottom row.
read -r htop hbot <<<"$(awk -v c=$HELD '$3 == c { if (t == "") t = $1; b = $2 } END { print (t == "" ? -1 : t), (b == "" ? -1 : b) }' "$T/je.runs")"
check "the band is drawn in the middle of the freed stretch (column $X)" test "$htop" -ge 0
# Bytes per pixel row: YMAX over the plot's rows.
held_B=$(awk -v t="$htop" -v b="$hbot" -v y0="$Y0" -v y1="$Y1" -v m="$YMAX" 'BEGIN{ printf "%d", (b - t + 1) * m / (y1 - y0) }')
check "its height, $held_B B, is the native gap VmRSS - heap, $GAP B, within 15%" within_pct "$held_B" "$GAP" 15
base_B=$(awk -v b="$hbot" -v y1="$Y1" -v m="$YMAX" -v y0="$Y0" 'BEGIN{ printf "%d", (y1 - b) * m / (y1 - y0) }')
check "it stands on the heap's top: $base_B B, the program's heap $LIVE B, within 5%" within_pct "$base_B" "$LIVE" 5
FIX="$T/def.out"
render def
check "the default mode (Valgrind's allocator) draws no band and names none" \
  sh -c "! grep -q '^layout held' '$T/def.layout' && [ \$('$PNGCHECK' '$T/def.png' count $HELD) -eq 0 ]"

# ---- gnuplot: script and SVG ----------------------------------------------------
FIX="$T/je.out"
"$MT_VIS" "$FIX" --gnuplot="$T/je.gp"
check "gnuplot: the script holds the band's columns and its key entry" \
  sh -c "grep -q '^\\\$heldcols << EOD' '$T/je.gp' && grep -q 'heldcols using 1:2:3 with filledcurves fc rgb \"#e8a0bf\" title \"jemalloc holds freed' '$T/je.gp'"
# The datablock's values in the stretch: heap top and band top, MiB.
python3 - "$T/je.gp" "$T/je.layout" "$GAP" >"$T/gp.check" <<'PY'
import sys
text = open(sys.argv[1]).read().split('\n')
lay = {l.split()[4]: l for l in open(sys.argv[2]) if l.startswith('layout mark')}
gap = int(sys.argv[3]) / 1048576
i = text.index('$heldcols << EOD')
rows = []
for l in text[i + 1:]:
    if l == 'EOD':
        break
    if l:
        rows.append([float(v) for v in l.split()])
ts = sorted(r[0] for r in rows)
mid = ts[len(ts) * 3 // 4]      # well inside the held stretch (time unit B)
r = [r for r in rows if r[0] == mid][0]
print(round((r[2] - r[1]) / gap, 3))
PY
check "gnuplot: the band's height in the held stretch is the native gap within 15% ($(cat "$T/gp.check"))" \
  awk '{ exit !($1 > 0.85 && $1 < 1.15) }' "$T/gp.check"
(cd "$T" && gnuplot -e 'out="je.svg"' je.gp) 2>"$T/gp.err"
check "gnuplot: the SVG names the band in its key" grep -q 'jemalloc holds freed' "$T/je.svg"

# ---- HTML in Chromium ------------------------------------------------------------
"$MT_VIS" "$FIX" -o "$T/je.html"
browse "$T/je.dom" --dump-dom "file://$T/je.html"
check "HTML: the page draws without an error" sh -c "! grep -q CONSOLE '$T/je.dom.err' && grep -q 'class=\"timeline\"' '$T/je.dom'"
python3 - "$T/je.dom" >"$T/html.check" <<'PY'
import re, sys
text = open(sys.argv[1], encoding='utf-8').read()
p = re.search(r'<path[^>]*class="held"[^>]*>', text)
d = re.search(r' d="([^"]*)"', p.group(0)).group(1) if p else ''
print('held', len(re.findall(r'h1V', d)))
print('legend', int('jemalloc holds freed (dirty, muzzy, partly used pages): resident memory the program freed' in text))
m = re.search(r'RSS by jemalloc\'s account</dt><dd>([^<]*)<', text)
print('summary', m.group(1) if m else 'none')
PY
check "HTML: the band is drawn ($(sed -n 1p "$T/html.check") columns)" awk '$1=="held"{ exit !($2 > 100) }' "$T/html.check"
check "HTML: the legend names it" grep -qx 'legend 1' "$T/html.check"
check "HTML: the summary splits the RSS by jemalloc's account, dirty pages named ($(sed -n 3p "$T/html.check" | cut -c1-120))" \
  grep -Eq '^summary [0-9.]+ MiB = heap [0-9.]+ MiB \+ jemalloc holds freed 1[0-9.]+ MiB \+ outside jemalloc .*dirty pages 1[0-9.]+ MiB' "$T/html.check"
finish
