#!/usr/bin/env bash
# t306-chart-rss-panel: the heap stays readable beside a large RSS.
# When the RSS's highest is more than twice the heap's (chart_data.h,
# vis_chart_rss_panel), every chart draws the heap on its own scale in the
# main plot and the RSS in a panel below, heap and RSS on one scale.
#
# Oracle: a crafted profile (written here) whose heap grows in four sites to
# a 16 MiB plateau from 600 ms while the RSS is RATIO x 16 MiB from 100 ms,
# a quarter of it file-backed. Checked from the pixels (tests/pngcheck.c) with
# the mapping of MEMTIME_VIS_DEBUG_LAYOUT=1 (tests/chart-lib.sh): the heap's
# bands fill at least half of the main plot; in the panel the heap's total
# and the RSS line stand at heights whose ratio is the true one. The same in
# gnuplot's script, SVG (an XML parser), PNG (pixels) and PDF, and in the
# HTML page's DOM in headless Chromium. The rule's edges: 1.5x and exactly
# 2x draw one plot, 2x plus a page the panel. Then a real program under
# memtime (tests/progs/rss_big_map.c: 64 MiB mapped, a 1.75 MiB heap).
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/chart-lib.sh"
need gnuplot python3 chromium
CHROMIUM=$(command -v chromium || command -v chromium-browser)
plan 26
SITE_COLOURS="4E79A7 F28E2B 59A14F B07AA1" RSS=6A1B9A PANEL_HEAP=B8C4D0
HEAP=$((16 * MiB))

# gen FILE RSS_BYTES: the crafted profile and its companion.
gen() {
  python3 - "$1" "$2" <<'PY'
import sys
path, rss = sys.argv[1], int(sys.argv[2])
M = 1 << 20
# (time ms, [site bytes]): four sites reaching 8 + 4 + 3 + 1 = 16 MiB at 600 ms.
steps = [(0, [0, 0, 0, 0]), (100, [2*M, 1*M, 0, 0]), (300, [4*M, 2*M, 1*M, 0]),
         (600, [8*M, 4*M, 3*M, 1*M]), (800, [8*M, 4*M, 3*M, 1*M]), (1000, [8*M, 4*M, 3*M, 1*M])]
names = ['0x401000: index_build (index.c:10)', '0x402000: cache_fill (cache.c:20)',
         '0x403000: names_intern (names.c:30)', '0x404000: log_buffer (log.c:40)']
peak = 3
with open(path, 'w') as f:
    f.write('desc: crafted by t306\ncmd: ./bigmap --serve\ntime_unit: ms\n')
    for i, (t, v) in enumerate(steps):
        tot = sum(v)
        kind = 'peak' if i == peak else ('detailed' if tot else 'empty')
        f.write('#-----------\nsnapshot=%d\n#-----------\ntime=%d\nmem_heap_B=%d\n'
                'mem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=%s\n' % (i, t, tot, kind))
        if tot:
            kids = [(b, n) for b, n in zip(v, names) if b]
            f.write('n%d: %d (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n'
                    % (len(kids), tot))
            for b, n in sorted(kids, key=lambda k: -k[0]):
                f.write(' n0: %d %s\n' % (b, n))
file_b = rss // 4
with open(path + '.memtime', 'w') as f:
    f.write('memtime-companion: 1\nprofile: %s\ntime_unit: ms\n' % path.split('/')[-1])
    for i, (t, v) in enumerate(steps):
        tot = rss if t >= 100 else M
        fb = file_b if t >= 100 else 0
        f.write('rss: snapshot=%d time=%d anon=%d file=%d shmem=0\n' % (i, t, tot - fb, fb))
    f.write('rss-peak: time=100 anon=%d file=%d shmem=0 heap=%d\n' % (rss - file_b, file_b, 3 * M))
PY
}
gen "$T/ten.massif" $((10 * HEAP))
FIX="$T/ten.massif"
check "ms_print reads the crafted profile" sh -c "ms_print '$FIX' >/dev/null"

# ---- PNG ----------------------------------------------------------------------
render ten
load_plot ten
check "RSS 10x the heap: the chart has the RSS panel" grep -q '^layout panel ' "$T/ten.layout"
check "the main plot's axis is the heap's: 16 MiB <= top ($YMAX) < 32 MiB" \
  awk -v y="$YMAX" -v h=$HEAP 'BEGIN{ exit !(y >= h && y < 2 * h) }'
# The plateau's middle (900 ms): the highest site-coloured row of the column
# and the site-coloured pixels in it, from the pixels.
X=$(xt 900)
"$PNGCHECK" "$T/ten.png" runs "$X" "$Y0" "$Y1" >"$T/ten.runs"
read -r top npx <<<"$(awk -v c="$SITE_COLOURS" 'BEGIN{ n = split(c, a, " "); for (i = 1; i <= n; i++) s[a[i]] = 1; top = -1 }
  ($3 in s) { if (top < 0) top = $1; px += $2 - $1 + 1 } END{ print top, px + 0 }' "$T/ten.runs")"
check "the heap's bands reach $(( (Y1 - top) * 100 / (Y1 - Y0) ))% of the main plot's height (>= 50%)" \
  test "$top" -ge 0 -a $(( 2 * (Y1 - top) )) -ge $(( Y1 - Y0 ))
check "site-coloured pixels fill $(( npx * 100 / (Y1 - Y0) ))% of the column (>= 45%; grid lines cross them)" \
  test $(( 100 * npx )) -ge $(( 45 * (Y1 - Y0) ))
check "each of the four sites is drawn in the main plot" sh -c "for c in $SITE_COLOURS; do grep -q \" \$c\$\" '$T/ten.runs' || exit 1; done"
# The panel: heap and RSS on one scale. From its pixels: the heap's total
# (filled) and the RSS line's row, their heights in the true ratio (10).
load_panel ten
"$PNGCHECK" "$T/ten.png" runs "$X" "$Y0" "$Y1" >"$T/panel.runs"
heap_top=$(awk -v c=$PANEL_HEAP '$3 == c { print $1; exit }' "$T/panel.runs")
rss_row=$(awk -v c=$RSS '$3 == c { print int(($1 + $2) / 2); exit }' "$T/panel.runs")
check "the panel's heap total at 16 MiB (row $heap_top, expected $(ym 16) +-2)" \
  test "${heap_top:-0}" -ge $(( $(ym 16) - 2 )) -a "${heap_top:-0}" -le $(( $(ym 16) + 2 ))
check "the panel's RSS line at 160 MiB (row $rss_row, expected $(ym 160) +-2)" \
  test "${rss_row:-0}" -ge $(( $(ym 160) - 2 )) -a "${rss_row:-0}" -le $(( $(ym 160) + 2 ))
check "heap and RSS compare on one scale: heights $(( Y1 - ${rss_row:-Y1} )) / $(( Y1 - ${heap_top:-Y1} )) within 10 +- 0.7" \
  awk -v r=$(( Y1 - ${rss_row:-Y1} )) -v h=$(( Y1 - ${heap_top:-Y1} )) 'BEGIN{ exit !(h > 0 && r / h > 9.3 && r / h < 10.7) }'
check "the RSS peak's ring is in the panel" \
  awk -v y0="$Y0" -v y1="$Y1" '$2=="rsspeak"{ ok = $4 >= y0 && $4 <= y1 } END{ exit !ok }' "$T/ten.layout"
check "the footnote says why the panel is there" grep -q '^layout footnote 1 Below: RSS and heap on one scale' "$T/ten.layout"

# The rule's edges and its absence.
gen "$T/small.massif" $((HEAP * 3 / 2))
gen "$T/two.massif" $((2 * HEAP))
gen "$T/twoplus.massif" $((2 * HEAP + 4096))
for f in small two twoplus; do FIX="$T/$f.massif" render "$f"; done
FIX="$T/ten.massif" render bare --no-companion
check "RSS 1.5x the heap: one plot, its axis holds the RSS" sh -c "! grep -q '^layout panel' '$T/small.layout' &&
  awk -v m=$MiB '\$2==\"y\"{ exit !(\$3 >= 24 * m) }' '$T/small.layout'"
check "RSS exactly 2x the heap: one plot" sh -c "! grep -q '^layout panel' '$T/two.layout'"
check "RSS 2x the heap and a page: the panel" grep -q '^layout panel' "$T/twoplus.layout"
check "without the companion's readings: no panel" sh -c "! grep -q '^layout panel' '$T/bare.layout'"

# ---- gnuplot: script, SVG, PNG, PDF ---------------------------------------------
FIX="$T/ten.massif"
"$MT_VIS" "$FIX" --gnuplot="$T/g.gp"
read -r main_top panel_top <<<"$(awk '/^ydiv = /{ d = $3 } /^set yrange \[0:/{ v = $3; sub(/^\[0:/, "", v); sub(/\]$/, "", v); printf "%.0f ", v * d }' "$T/g.gp")"
check "gnuplot: the main plot's range is the heap's ($main_top B), the panel's holds the RSS ($panel_top B)" \
  sh -c "grep -q '^set multiplot' '$T/g.gp' && [ ${main_top:-0} -ge $HEAP -a ${main_top:-0} -lt $((2 * HEAP)) -a ${panel_top:-0} -ge $((10 * HEAP)) ]"
"$MT_VIS" "$FIX" -o "$T/g.svg"
"$MT_VIS" "$FIX" -o "$T/g.pdf"
check "gnuplot SVG parses as XML and shows the bands, the RSS and the panel's caption" python3 - "$T/g.svg" <<'PY'
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
text = ' '.join(n.firstChild.data for n in doc.getElementsByTagName('text') if n.firstChild)
need = ['index_build (index.c:10)', 'log_buffer (log.c:40)', 'resident memory (RSS)  [peak 160 MiB]',
        'Resident memory (RSS) and heap on one scale: RSS peak 160 MiB', 'top of the heap plot above']
miss = [w for w in need if w not in text]
sys.exit('missing: %r' % miss if miss else 0)
PY
check "gnuplot PDF written" sh -c "head -c 5 '$T/g.pdf' | grep -q '%PDF-'"
(cd "$T" && gnuplot -e 'out="gp.png"' g.gp)
# The gnuplot PNG's main plot: PLOT_T and PANEL_MAIN_B of the height (gnuplot.c).
read -r GW GH <<<"$("$PNGCHECK" "$T/gp.png" size)"
gx=$(awk -v w="$GW" 'BEGIN{ printf "%d", w * (0.065 + (0.675 - 0.065) * 0.9) }')
gy0=$(awk -v h="$GH" 'BEGIN{ printf "%d", h * (1 - 0.87) }')
gy1=$(awk -v h="$GH" 'BEGIN{ printf "%d", h * (1 - 0.385) }')
gtop=$("$PNGCHECK" "$T/gp.png" runs "$gx" "$gy0" "$gy1" | awk -v c="$SITE_COLOURS" 'BEGIN{ n = split(c, a, " "); for (i = 1; i <= n; i++) s[a[i]] = 1 } ($3 in s){ print $1; exit }')
check "gnuplot PNG: the heap's bands reach $(( (gy1 - ${gtop:-gy1}) * 100 / (gy1 - gy0) ))% of the main plot (>= 50%)" \
  test -n "$gtop" -a $(( 2 * (gy1 - ${gtop:-gy1}) )) -ge $(( gy1 - gy0 ))

# ---- HTML in Chromium ------------------------------------------------------------
"$MT_VIS" "$FIX" -o "$T/ten.html"
browse "$T/ten.dom" --dump-dom "file://$T/ten.html"
check "HTML: the page draws without an error" sh -c "! grep -q CONSOLE '$T/ten.dom.err' && grep -q 'class=\"timeline\"' '$T/ten.dom'"
python3 - "$T/ten.dom" $HEAP >"$T/html.check" <<'PY'
import re, sys
text, heap = open(sys.argv[1], encoding='utf-8').read(), int(sys.argv[2])
a = dict(re.findall(r'(data-[a-z0-9-]+)="([^"]*)"', re.search(r'<svg[^>]*class="timeline"[^>]*>', text).group(0)))
x0, x1, t0, t1 = int(a['data-x0']), int(a['data-x1']), float(a['data-t0']), float(a['data-t1'])
y0, y1, ymax = float(a['data-y0']), float(a['data-y1']), float(a['data-ymax'])
k = int((900 - t0) * (x1 - x0) / (t1 - t0) + 0.5)
X = x0 + k
def rects(cls):
    out = []
    for p in re.findall(r'<path[^>]*class="%s"[^>]*>' % cls, text):
        d = re.search(r' d="([^"]*)"', p).group(1)
        out += [(int(float(x)), float(u), float(v)) for x, u, v in re.findall(r'M(-?[0-9.]+) (-?[0-9.]+)h1V(-?[0-9.]+)h-1Z', d)]
    return [(u, v) for x, u, v in out if x == X]
bands = rects('band')
top = min(u for u, v in bands) if bands else y1
print('panel', a.get('data-panel'))
print('main', round(ymax / heap, 3), round((y1 - top) / (y1 - y0), 3))
py0, py1, pymax = float(a['data-panel-y0']), float(a['data-panel-y1']), float(a['data-panel-ymax'])
h = rects('panel-heap'); r = rects('rssline')
hh = py1 - min(u for u, v in h) if h else 0
rh = py1 - (r[0][0] + r[0][1]) / 2 if r else 0
print('panel-ratio', round(rh / hh, 2) if hh else 0, int(all(py0 <= u <= py1 for u, v in r)))
PY
is "$(sed -n 1p "$T/html.check")" "panel 1" "HTML: the page has the RSS panel"
check "HTML: the main plot is on the heap's scale and its bands fill >= half of it ($(sed -n 2p "$T/html.check"))" \
  awk '$1=="main"{ exit !($2 >= 1 && $2 < 2 && $3 >= 0.5) }' "$T/html.check"
check "HTML: in the panel the RSS line and the heap's total stand in the true ratio, 10 ($(sed -n 3p "$T/html.check"))" \
  awk '$1=="panel-ratio"{ exit !($2 > 9.3 && $2 < 10.7 && $3 == 1) }' "$T/html.check"
browse "$T/shot" --screenshot="$T/shot.png" --window-size=1200,1100 "file://$T/ten.html"
check "HTML screenshot: the bands and the RSS both show" sh -c "[ \$('$PNGCHECK' '$T/shot.png' count 4E79A7) -gt 20000 ] && [ \$('$PNGCHECK' '$T/shot.png' count 6B2FA3) -gt 300 ]"

# ---- a real program: a 64 MiB mapping, a 1.75 MiB heap ---------------------------
P=$(build_prog rss_big_map.c) || { not_ok "build rss_big_map.c"; exit 1; }
memtime -q --time-unit=i --memtime-out-file="$T/real.out" "$P" 64 >/dev/null 2>"$T/real.err"
FIX="$T/real.out"
render real
load_plot real
X=$(( $(awk '$2=="peak"{print $3}' "$T/real.layout") - 3 ))
rtop=$("$PNGCHECK" "$T/real.png" runs "$X" "$Y0" "$Y1" | awk -v c="$SITE_COLOURS" 'BEGIN{ n = split(c, a, " "); for (i = 1; i <= n; i++) s[a[i]] = 1 } ($3 in s){ print $1; exit }')
check "real program: the panel is drawn and the heap's bands fill >= half of the main plot (top row ${rtop:-none} of $Y0..$Y1)" \
  sh -c "grep -q '^layout panel' '$T/real.layout' && [ -n '$rtop' ] && [ $(( 2 * (Y1 - ${rtop:-Y1}) )) -ge $(( Y1 - Y0 )) ]"
load_panel real
peak_rss=$(awk '/^rss-peak: /{ for (i = 2; i <= 4; i++) { split($i, a, "="); if (a[1] != "time") s += a[2] } } END{ printf "%.6f", s / 1048576 }' "$T/real.out.memtime")
is "$(awk '$2=="rsspeak"{print $4}' "$T/real.layout")" "$(ym "$peak_rss")" "real program: the RSS peak's ring in the panel at the companion's RSS peak ($peak_rss MiB)"
finish
