#!/usr/bin/env bash
# t597-long-run-bursts: a long run's timeline shows every burst, at its true
# height, for its true duration, end to end: tests/progs/bursts.c leaks
# steadily and now and then holds 40 MiB for a moment, stamping each burst
# with its own clock (bracketed reads, so the load does not matter), under
# memtime with default options. Three runs: 10 bursts over 20 s (real time),
# 150 bursts over 6 minutes and 120 over an hour (memtime's clock sped up by
# the documented test hook, x10 and x120). For each: every burst is in the
# exact outline at >= 95% of its size above the level before it, read from
# the companion, from --json's "outline" and from the outline CSV
# (tests/burst-stamps.py, against the program's stamps); in the PNG's
# pixels and the HTML page's DOM (headless Chromium) each burst is a spike
# reaching >= 95% of its height and at most max(2 px, twice its duration)
# wide (tests/burstcheck.py); culling kept a tree at the top of bursts; and
# profile plus companion stay small (an hour: under 1 MiB).
. "$(dirname "$0")/lib.sh"
need python3 chromium
CHROMIUM=$(command -v chromium || command -v chromium-browser)
plan 20
BURSTS=$(build_prog bursts.c) || { echo "Bail out! cannot build bursts.c"; exit 1; }
PNGCHECK=$(build_pngcheck) || { echo "Bail out! cannot build pngcheck"; exit 1; }
BS="python3 $MT_SRC/tests/burst-stamps.py"
BC="python3 $MT_SRC/tests/burstcheck.py"

# The three runs at once (they mostly sleep): NAME SPEEDUP ARGS...
start_run() {
  local name=$1 speed=$2; shift 2
  memtime -q --test-hook-clock-speedup="$speed" --memtime-out-file="$T/$name.out" \
    "$BURSTS" "$@" >"$T/$name.ev" 2>"$T/$name.err" &
}
start_run s20 1 10 2000 30 40 64 50      # 10 bursts, every 2 s, 30 ms each
start_run m6 10 150 240 3 40 64 5        # 150 bursts over 6 min of clock
start_run h1 120 120 250 2 40 16 5       # 120 bursts over 1 h of clock
wait

# bursts NAME SPEEDUP DESCRIPTION N
bursts() {
  local n=$1 s=$2 what=$3 want=$4 f="$T/$1"
  check "$what: the program ran its $want bursts" test "$(grep -c '^burst ' "$f.ev")" = "$want"
  $BS "$f.ev" "$f.out" "$s" json <(vis "$f.out" --json) >"$f.json.bs"
  vis "$f.out" -o "$f.outline.csv" 2>"$f.csv.err"
  $BS "$f.ev" "$f.out" "$s" csv "$f.outline.csv" >"$f.csv.bs"
  check "$what: every burst in --json's outline at >= 95% of its size ($(head -1 "$f.json.bs"))" \
    grep -qx "bursts $want 0" "$f.json.bs"
  check "$what: every burst in the outline CSV at >= 95% of its size ($(head -1 "$f.csv.bs"))" \
    grep -qx "bursts $want 0" "$f.csv.bs"
  diag "$(tail -n +2 "$f.json.bs")"
  $BS "$f.ev" "$f.out" "$s" truth >"$f.truth"
  MEMTIME_VIS_DEBUG_LAYOUT=1 vis "$f.out" -o "$f.png" 2>"$f.layout"
  read -r X0 Y0 X1 Y1 <<<"$(awk '$2=="plot"{print $3,$4,$5,$6}' "$f.layout")"
  "$PNGCHECK" "$f.png" dump "$X0" "$Y0" "$X1" "$Y1" >"$f.dump"
  $BC png "$f.dump" "$f.layout" "$f.truth" >"$f.png.bc"
  vis "$f.out" -o "$f.html" 2>"$f.html.err"
  browse "$f.dom" --dump-dom "file://$f.html"
  $BC html "$f.dom" "$f.truth" >"$f.html.bc"
  local sp wd
  # burstcheck.py does not count a mark's dashed line (the anchor's, a
  # column or two before the first burst) nor a neighbour burst's columns
  # (under load the program can be descheduled and two bursts come a
  # column or two apart) in a burst's width.
  # The PNG leaves out the bursts beside the peak's marker (its red line
  # and disc stand over the data there, 17 columns, and a burst is skipped
  # when any of the 5 or more columns around it is one of them), and one at
  # either edge of the plot: at most 5.
  read -r _ nb low <<<"$(grep '^spikes' "$f.png.bc")"
  read -r _ nw wide widest <<<"$(grep '^widths' "$f.png.bc")"
  check "$what: PNG: each burst a spike at >= 95% of its height, at most max(2 px, twice its duration) wide ($nb checked, $low short, $wide too wide, widest $widest px)" \
    test "$nb" -ge $((want - 5)) -a "$low" = 0 -a "$wide" = 0
  read -r _ nb low <<<"$(grep '^spikes' "$f.html.bc")"
  read -r _ nw wide widest <<<"$(grep '^widths' "$f.html.bc")"
  check "$what: HTML DOM: each burst a spike at >= 95% of its height, at most max(2, twice its duration) columns wide ($nb checked, $low short, $wide too wide, widest $widest)" \
    test "$nb" = "$want" -a "$low" = 0 -a "$wide" = 0
  # On failure the reasons go to stderr too, which prove shows without -v.
  if grep -q '^bad burst' "$f.png.bc" "$f.html.bc" || [ "$(grep -c '^spikes' "$f.png.bc")" != 1 ]; then
    { echo "t597 $what:"; cat "$f.png.bc" "$f.html.bc" | grep -v '^bad column' | head -12; } >&2
  fi
}
bursts s20 1 "20 s" 10
bursts m6 10 "6 min" 150
bursts h1 120 "1 h" 120

# Culling keeps trees at burst tops: a detailed snapshot inside the burst
# at >= 95% of its size over the level before it.
tops() { $BS "$T/$1.ev" "$T/$1.out" "$2" tops; }
n=$(tops s20 1); check "20 s: every burst has a tree at its top in the profile ($n of 10)" test "$n" -ge 10
n=$(tops m6 10); echo "t597: 6 min: $n of 150 bursts kept a tree at their top" >&2
# How many survive culling depends on when culling comes (the machine's
# load): typically 20-25 quiet, fewer in a loaded suite. Massif-style
# culling by time keeps about 5 bursts in all, tree or not.
check "6 min: culling kept trees at the tops of bursts ($n of 150)" test "$n" -ge 1
size=$(( $(stat -c %s "$T/h1.out") + $(stat -c %s "$T/h1.out.memtime") ))
check "1 h: profile plus companion under 1 MiB ($size B)" test "$size" -lt 1048576
check "1 h: the outline is bounded (at most 4096 buckets)" test "$(grep -c '^o: ' "$T/h1.out.memtime")" -le 4096
check "every profile stays inside Massif's grammar" eval 'grammar "$T/s20.out" && grammar "$T/m6.out" && grammar "$T/h1.out"'
finish
