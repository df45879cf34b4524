#!/usr/bin/env bash
# t305: the PNG chart draws memtime's exact outline (the companion's
# outline:/o:/o-rss: lines): every pixel column's top is the highest total
# of the outline's buckets overlapping it, so a burst between two snapshots
# is a spike at its true height, one or two columns wide, and a sampled step
# never holds above what the outline shows. The fixture comes from
# tests/data/gen/bursts.py: a 6-minute run with a slow leak, a 60 s plateau
# and 180 bursts of 40 MiB for 30 ms; snapshots every 1.51 s, three of them
# inside a burst. tests/burstcheck.py measures the pixels (pngcheck's dump)
# against the generator's own list of every change (the oracle), widened to
# the outline's 128 ms buckets, the data's resolution.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/chart-lib.sh"
need gnuplot python3
plan 23
GEN="python3 $MT_SRC/tests/data/gen/bursts.py"
BC="python3 $MT_SRC/tests/burstcheck.py"
FIX="$T/bursts.massif"
$GEN "$FIX" >"$T/truth"
$GEN "$T/sampled.massif" --no-outline >"$T/truth-sampled"
$GEN "$T/rss.massif" --rss >"$T/truth-rss"
OUTSIDE=D9703C ORANGE=F28E2B RSS=6A1B9A

check "ms_print reads the fixture" sh -c "ms_print '$FIX' >/dev/null"

# measure NAME TRUTH: burstcheck's lines for $T/NAME.png
measure() {
  load_plot "$1"
  "$PNGCHECK" "$T/$1.png" dump "$X0" "$Y0" "$X1" "$Y1" >"$T/$1.dump"
  $BC png "$T/$1.dump" "$T/$1.layout" "$2" >"$T/$1.bc"
}
bc() { awk -v k="$2" '$1==k{$1=""; print substr($0,2)}' "$T/$1.bc"; }

render main
measure main "$T/truth"
is "$(awk '$2=="exact"{print $3}' "$T/main.layout")" 1 "drawn from the exact outline"
check "the footnote says the outline is exact, the bands sampled" \
  grep -q '^layout footnote 0 Outline: exact (every change, 2813 buckets of 128 ms); bands: 31 of 240 snapshots with a tree, sampled\.' "$T/main.layout"
read -r ncol bad <<<"$(bc main columns)"
check "every column's top is the true highest total in its time, within a pixel ($bad of $ncol off)" \
  test "$ncol" -ge 800 -a "$bad" = 0
read -r nb low <<<"$(bc main spikes)"
check "each burst's spike reaches >= 95% of its height over the level before ($low of $nb short)" \
  test "$nb" -ge 170 -a "$low" = 0
read -r nb wide widest <<<"$(bc main widths)"
check "each spike is at most max(2, twice its duration) columns wide at half height ($wide too wide, widest $widest)" \
  test "$nb" -ge 170 -a "$wide" = 0
grep '^bad' "$T/main.bc" | head -5 | diag "$(cat)"

# The plateau (30 MiB, 100..160 s) is flat: between bursts its columns' tops
# sit on one row (the leak adds 1.7 MiB over it: at most a few rows), and
# the plateau's site fills it.
tops=$(python3 - "$T/main.dump" "$(xt 101000)" "$(xt 159000)" "$X0" "$Y0" \
  "$(awk '$2=="peak"{print $3}' "$T/main.layout")" <<'PY'
import sys
rows = [r.split() for r in open(sys.argv[1])]
a, b, x0, y0, peak = (int(v) for v in sys.argv[2:])
ink = lambda c: c not in ('FFFFFF', 'EEEEEE', 'E2E2E2', 'EAEAEA', 'F3F3F3')
tops = []
for x in range(a, b + 1):
    if abs(x - peak) <= 8:        # the peak's red line stands over the data
        continue
    tops.append(next(y for y in range(len(rows)) if ink(rows[y][x - x0])) + y0)
# A burst column rises well above its neighbours; the others follow the
# plateau's level, which the leak raises by a row now and then.
base = [t for i, t in enumerate(tops) if t >= max(tops[max(0, i - 3):i + 4]) - 4]
steps = [abs(u - v) for u, v in zip(base, base[1:])]
print(max(steps), len(tops) - len(base))
PY
)
read -r jump up <<<"$tops"
check "the plateau is flat: between the bursts ($up columns) no column's top moves by more than two rows ($jump; the leak adds one every 12 columns)" \
  test "$jump" -le 2 -a "$up" -ge 25
is "$(at main "$(xt 130000)" "$(ym 15)")" $ORANGE "the plateau's site (load_batch) fills it"
# A snapshot that caught a burst: the burst is a spike, not a block held to
# the next snapshot 1.51 s later.
held=0 n=0
for ts in $(awk '$1=="snapshot-burst"{print $2}' "$T/truth"); do
  x=$(xt $((ts + 800)))
  [ "$(awk '$2=="peak"{print $3}' "$T/main.layout")" -ge $((x - 8)) ] &&
    [ "$(awk '$2=="peak"{print $3}' "$T/main.layout")" -le $((x + 8)) ] && continue
  n=$((n + 1))
  c=$(at main "$x" "$(ym 30)")
  case $c in FFFFFF|EEEEEE|E2E2E2|EAEAEA) ;; *) held=$((held + 1));; esac
done
check "a burst a snapshot caught is not held to the next snapshot ($held of $n are)" test "$n" -ge 1 -a "$held" = 0
# The plateau's first 1.2 s, before a snapshot saw it, is above the samples.
check "memory the outline shows above the samples is hatched in its own colour" \
  sh -c "grep -o $OUTSIDE '$T/main.dump' | wc -l | awk '{exit !(\$1 > 50)}'"

# gnuplot (SVG, PDF) draws the same rule: its $cols datablock, one column a
# pixel of the plot, measured by the same oracle.
vis "$T/bursts.massif" --gnuplot "$T/c.gp"
$BC gp "$T/c.gp" "$T/truth" >"$T/gp.bc"
read -r ncol bad <<<"$(bc gp columns)"
read -r nb low <<<"$(bc gp spikes)"
read -r nb wide widest <<<"$(bc gp widths)"
check "gnuplot: every column true ($bad of $ncol off), spikes full height ($low short) and narrow ($wide too wide)" \
  test "$ncol" -ge 900 -a "$bad" = 0 -a "$low" = 0 -a "$wide" = 0 -a "$nb" -ge 170
check "gnuplot: the outline's top and the memory above the samples are plotted" \
  sh -c "grep -q 'title \"above the samples (exact outline; no tree saw it)\"' '$T/c.gp' && grep -q 'the exact outline  \[76.4 MiB\]' '$T/c.gp'"
if command -v gnuplot >/dev/null; then
  vis "$T/bursts.massif" -o "$T/c.svg" 2>"$T/svg.err"
  check "gnuplot: the SVG is written and says the outline is exact" grep -q 'Outline: exact (every change' "$T/c.svg"
else
  not_ok "gnuplot missing (scripts/deps.sh --test installs gnuplot-nox)"
fi

# Another size: the same rule in fewer columns.
render small --width 800 --height 500
measure small "$T/truth"
read -r ncol bad <<<"$(bc small columns)"
check "800x500: every column's top true within a pixel ($bad of $ncol off)" test "$ncol" -ge 300 -a "$bad" = 0
read -r nb wide widest <<<"$(bc small widths)"
read -r nb2 low <<<"$(bc small spikes)"
check "800x500: spikes full height ($low short) and narrow ($wide too wide)" test "$nb" -ge 100 -a "$wide" = 0 -a "$low" = 0

# Without the outline (Massif's own files, older memtime): samples, said so.
FIX="$T/sampled.massif"
render sampled
measure sampled "$T/truth-sampled"
is "$(awk '$2=="exact"{print $3}' "$T/sampled.layout")" 0 "no outline: drawn from the samples"
check "no outline: the footnote says bursts between snapshots are not shown" \
  grep -q '^layout footnote 0 Sampled: bursts between snapshots are not shown (240 snapshots, 31 with a tree' "$T/sampled.layout"
read -r nb low <<<"$(bc sampled spikes)"
check "no outline: the samples miss most bursts, as the oracle sees ($low of $nb)" test "$low" -ge 150
is "$("$PNGCHECK" "$T/sampled.png" count $OUTSIDE)" 0 "no outline: nothing hatched as outside the samples"

# Resident memory from the outline's RSS buckets: each reading held until
# the next one (a step), never a ramp.
FIX="$T/rss.massif"
render rss
load_plot rss
check "with RSS buckets the footnote says how the RSS is drawn" \
  grep -q '^layout footnote 1 RSS: every reading, lowest to highest per bucket, held between them\.' "$T/rss.layout"
steps=0 n=0
for i in 40 41 60 90 150; do
  ts=$((i * 1510)) t2=$((i * 1510 + 1510))
  v=$(awk -v s="snapshot=$i" '$1=="rss:" && $2==s{sub("anon=","",$4); print $4}' "$T/rss.massif.memtime")
  w=$(awk -v s="snapshot=$((i + 1))" '$1=="rss:" && $2==s{sub("anon=","",$4); print $4}' "$T/rss.massif.memtime")
  [ "$v" = "$w" ] && continue
  n=$((n + 1))
  mid=$(( ($(xt "$ts") + $(xt "$t2")) / 2 ))
  y=$(awk -v v="$v" -v y0="$Y0" -v y1="$Y1" -v m="$YMAX" 'BEGIN{printf "%d", y1 - int(v*(y1-y0)/m + 0.5)}')
  found=0
  for dy in -1 0 1; do [ "$(at rss "$mid" $((y + dy)))" = $RSS ] && found=1; done
  steps=$((steps + found))
done
check "between two readings the RSS line holds the first ($steps of $n)" test "$n" -ge 3 -a "$steps" = "$n"
check "the RSS line is drawn" test "$("$PNGCHECK" "$T/rss.png" count $RSS)" -gt 1000
check "the RSS readings stay within the chart" grep -q '^layout rsspeak' "$T/rss.layout"
finish
