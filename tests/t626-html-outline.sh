#!/usr/bin/env bash
# t626: the HTML report draws the exact outline as the PNG does (t305): the
# page carries the columns chart_data computes for its plot (html.c), and
# headless Chromium draws them. Measured in the DOM after the script ran
# (chromium --dump-dom): every column's outline against the run's known
# memory (tests/data/gen/bursts.py), each burst a spike at >= 95% of its
# height and at most max(2, twice its duration) columns wide
# (tests/burstcheck.py); the footnote says what is exact and what is sampled;
# the RSS is a step per reading. A screenshot decodes and shows the spikes.
. "$(dirname "$0")/lib.sh"
need python3 chromium
[ -x "$MT_VIS" ] || plan_skip "memtime-vis not built ($MT_VIS)"
CHROMIUM=$(command -v chromium || command -v chromium-browser)
plan 13
GEN="python3 $MT_SRC/tests/data/gen/bursts.py"
BC="python3 $MT_SRC/tests/burstcheck.py"
PNGCHECK=$(build_pngcheck) || { not_ok "build pngcheck"; exit 1; }
$GEN "$T/bursts.massif" >"$T/truth"
$GEN "$T/sampled.massif" --no-outline >"$T/truth-sampled"
$GEN "$T/rss.massif" --rss >"$T/truth-rss"

for name in bursts sampled rss; do
  vis -o "$T/$name.html" "$T/$name.massif" 2>"$T/$name.err"
  browse "$T/$name.dom" --dump-dom "file://$T/$name.html"
done
check "the page draws itself with nothing on the console" \
  sh -c "grep -q 'data-drawn-ms=\"[0-9]*\"' '$T/bursts.dom' && ! grep -q CONSOLE '$T/bursts.dom.err'"
$BC html "$T/bursts.dom" "$T/truth" >"$T/bursts.bc"
bc() { awk -v k="$2" '$1==k{$1=""; print substr($0,2)}' "$T/$1.bc"; }
read -r ncol bad <<<"$(bc bursts columns)"
check "every column's outline top is the true highest total in its time ($bad of $ncol off)" \
  test "$ncol" -ge 800 -a "$bad" = 0
read -r nb low <<<"$(bc bursts spikes)"
check "each burst's spike reaches >= 95% of its height over the level before ($low of $nb short)" \
  test "$nb" -ge 170 -a "$low" = 0
read -r nb wide widest <<<"$(bc bursts widths)"
check "each spike is at most max(2, twice its duration) columns wide ($wide too wide, widest $widest)" \
  test "$nb" -ge 170 -a "$wide" = 0
grep '^bad' "$T/bursts.bc" | head -5 | diag "$(cat)"
check "the footnote: outline exact, bands sampled" \
  grep -q 'id="chart-footnote">Outline: exact (every change, 2813 buckets of 128 ms); bands: 31 of 240 snapshots with a tree, sampled' "$T/bursts.dom"
check "memory above the samples is drawn in its own hatch, named in the legend" \
  sh -c "grep -q 'class=\"outside\"' '$T/bursts.dom' && grep -q 'above the samples (exact outline; no tree saw it)' '$T/bursts.dom'"

# The same columns as the PNG: the page's columns are the PNG's rule at the
# page's width; at the PNG's own width both put every burst's top on the
# same value (checked above against the same oracle).
$BC html "$T/sampled.dom" "$T/truth-sampled" >"$T/sampled.bc"
read -r nb low <<<"$(bc sampled spikes)"
check "without an outline the page draws the samples, which miss most bursts ($low of $nb)" test "$low" -ge 150
check "without an outline the footnote says bursts between snapshots are not shown" \
  grep -q 'id="chart-footnote">Sampled: bursts between snapshots are not shown' "$T/sampled.dom"
check "without an outline nothing is drawn as above the samples" sh -c "! grep -q 'class=\"outside\"' '$T/sampled.dom'"

# RSS: one rectangle per column, flat between readings (a step, no ramp).
python3 - "$T/rss.dom" "$T/rss.massif.memtime" >"$T/rss.check" <<'PY'
import re, sys
text = open(sys.argv[1], encoding='utf-8').read()
svg = re.search(r'<svg[^>]*class="timeline"[^>]*>', text).group(0)
a = dict(re.findall(r'(data-[a-z0-9]+)="([^"]*)"', svg))
x0, x1, t0, t1 = int(a['data-x0']), int(a['data-x1']), float(a['data-t0']), float(a['data-t1'])
y0, y1, ymax = float(a['data-y0']), float(a['data-y1']), float(a['data-ymax'])
d = re.search(r' d="([^"]*)"', re.search(r'<path[^>]*class="rssline"[^>]*>', text).group(0)).group(1)
col = {int(float(x)): (float(u), float(v)) for x, u, v in re.findall(r'M(-?[0-9.]+) (-?[0-9.]+)h1V(-?[0-9.]+)h-1Z', d)}
reads = []
for line in open(sys.argv[2]):
    f = line.split()
    if f[0] == 'rss:':
        reads.append((int(f[2][5:]), int(f[3][5:])))
held = n = 0
for (ta, va), (tb, vb) in zip(reads, reads[1:]):
    xa = x0 + int((ta - t0) * (x1 - x0) / (t1 - t0) + 0.5)
    xb = x0 + int((tb - t0) * (x1 - x0) / (t1 - t0) + 0.5)
    if xb - xa < 3 or va == vb:
        continue
    n += 1
    # A column strictly between the two: the line at the first reading.
    ymid = y0 + (y1 - y0) * (1 - va / ymax)
    u, v = col.get(xa + 1, (None, None))
    held += u is not None and u - 0.5 <= ymid <= v + 0.5
print(n, held)
PY
read -r n held <<<"$(cat "$T/rss.check")"
check "RSS: between two readings the line holds the first ($held of $n)" test "$n" -ge 20 -a "$held" = "$n"

# Look at it: a screenshot decodes and shows the outline's spikes (many
# dark columns reaching far above the bands).
browse "$T/shot" --screenshot="$T/bursts.png" --window-size=1200,900 "file://$T/bursts.html"
is "$("$PNGCHECK" "$T/bursts.png" size)" "1200 900" "the screenshot decodes"
check "the screenshot shows the orange hatch's colour" \
  test "$("$PNGCHECK" "$T/bursts.png" count D9703C)" -gt 0
# The page's script is the same for any profile: its hostile-name checks are t625's.
check "the columns document holds numbers and fixed words only" \
  sh -c "sed -n '/id=\"memtime-columns\"/,/<\\/script>/p' '$T/bursts.html' | sed '1d;\$d' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert isinstance(d[\"cols\"], list) and len(d[\"cols\"]) == d[\"x1\"] - d[\"x0\"] + 1'"
finish
