#!/usr/bin/env bash
# t614-outline-reader: memtime-vis reads memtime's exact outline (the
# companion's outline:, o: and o-rss: lines) and reports it, on profiles
# crafted by tests/outline-gen.py whose every number is known by
# construction:
# - --json's "outline" and "outline_rss" are the companion's spans, filled
#   gaps and the cut at end= included, by an independent python reader
#   (outline-check.py); a Massif file gives "outline": [];
# - -o NAME.outline.csv, every column by the same reader; a profile without
#   an outline: exit 1, one line, no file;
# - the bursts (JSON and summary): time of the top, height above the level
#   before, duration at the buckets' resolution, the top site of a tree
#   taken during the burst or none; the summary's true peak when the
#   samples missed it, and the whole summary by summary-oracle.pl;
# - --growth is not fooled by detailed snapshots that land on bursts;
# - check --max-peak gates on the true maximum, diff says which it uses;
# - --follow's sparkline scales to the outline's maximum;
# - a hostile gap does not expand bucket by bucket; 2^20 spans at most.
. "$(dirname "$0")/lib.sh"
need python3 tmux
plan 32
cd "$T" || exit 1
gen() { python3 "$MT_SRC/tests/outline-gen.py" "$@"; }
ocheck() { python3 "$MT_SRC/tests/outline-check.py" "$@"; }
MiB=1048576
for s in bursts growth gaps; do gen $s $s.out || exit 1; done

# ---- The spans, as JSON and CSV, against the independent reader.
for s in bursts gaps; do
  vis --json $s.out >$s.json 2>err.txt
  is "$?:$(cat err.txt)" "0:" "$s: --json, exit 0, nothing on stderr"
  check "$s: JSON outline and outline_rss are the companion's spans (python reader)" \
    ocheck json $s.out.memtime $s.json
  vis -o $s.outline.csv $s.out 2>err.txt
  check "$s: NAME.outline.csv, every row and column (python reader)" ocheck csv $s.out.memtime $s.outline.csv
done
# gaps: a gap of ~70 s at width 64 is one filled span, not a thousand.
is "$(json_get gaps.json 'len(d["outline"]), sum(s["filled"] for s in d["outline"]), d["outline"][-1]["end"]')" \
  "6 2 99999" "gaps: 4 buckets, 2 filled spans (one per gap), the last cut at end=99999"

vis --json "$MT_SRC/tests/data/massif-B.out" >massif.json
is "$(json_get massif.json 'd["outline"], d["outline_rss"], d["outline_info"], d["bursts"]')" \
  "[] [] None []" "a Massif file: \"outline\": [], no bursts"
vis -o none.outline.csv "$MT_SRC/tests/data/massif-B.out" 2>err.txt
rc=$?
is "$rc:$(wc -l <err.txt)" "1:1" "-o NAME.outline.csv without an outline: exit 1, one line"
check "  ... saying why, and nothing written" sh -c "grep -q 'no exact outline' err.txt && test ! -e none.outline.csv"

# ---- Bursts: five of 32 ms (two and a bit buckets of 16 ms: 48 ms at the
# buckets' resolution) above 10 MiB, by height; a tree only in the 32 MiB one.
want=$(printf '%s\n' "3008 40 10 3008 3056 None None" "7008 32 10 7008 7056 15 spike_alloc (spike.c:20)" \
  "9008 24 10 9008 9056 None None" "5008 16 10 5008 5056 None None" "1008 8 10 1008 1056 None None")
got=$(python3 -c '
import json
for b in json.load(open("bursts.json"))["bursts"]:
    print(b["top_time"], b["height_bytes"] // 1048576, b["level_bytes"] // 1048576, b["start"], b["end"], b["snapshot"], b["site"])')
is "$got" "$want" "bursts: top time, height, level, duration and site, largest first"
is "$(json_get bursts.json 'd["outline_info"]["max_bytes"], d["bursts"][1]["site_bytes"]')" \
  "$((50 * MiB)) $((32 * MiB))" "bursts: the outline's maximum (50 MiB) and the site's bytes in its tree"

vis --summary-only bursts.out >bursts.txt
check "summary: the true peak and what the samples miss" \
  grep -qx "  True peak:  50.0 MiB (52,428,800 B) in \[3.01 s, 3.02 s) by the exact outline: the samples' peak misses 8.00 MiB (8,388,608 B)" bursts.txt
check "summary: the 40 MiB burst first, with no tree during it" \
  grep -qx "  at     3.01 s   +40.0 MiB above   10.0 MiB  for      48 ms  no tree during it" bursts.txt
check "summary: the 32 MiB burst's top site at the snapshot inside it" \
  grep -qx "  at     7.01 s   +32.0 MiB above   10.0 MiB  for      48 ms  snapshot 15: 32.0 MiB spike_alloc (spike.c:20)" bursts.txt
for s in bursts growth gaps; do
  vis --summary-only $s.out >$s.txt
  if perl "$MT_SRC/tests/summary-oracle.pl" $s.out $s.txt >oracle.err 2>&1; then
    ok "$s: the summary agrees with summary-oracle.pl's reading"
  else not_ok "$s: the summary agrees with summary-oracle.pl's reading"; diag "$(cat oracle.err)"; fi
done
vis --summary-only --no-companion bursts.out >plain.txt
check "without the companion: no true peak line, no bursts" sh -c "! grep -q -e 'True peak' -e Bursts plain.txt"

# ---- Growth: detailed snapshots at 8016 and 9016 land on bursts of the
# spike site. Without the outline it looks like +40 MiB of growth; with it
# those samples are left out and nothing grew.
vis --growth --no-companion growth.out >g0.txt
check "growth, samples alone: fooled (spike_alloc +40.0 MiB), so the test can tell" \
  grep -Eq '^  plateau .* \+40\.0 MiB .*spike_alloc' g0.txt
vis --growth growth.out >g1.txt
check "growth with the outline: spike_alloc does not grow" sh -c "! grep -q '+40.0 MiB' g1.txt"
check "  ... and the two samples on bursts are said to be left out" \
  grep -q "(2 detailed snapshots taken during bursts of the exact outline left out at the window.s ends" g1.txt
vis --json growth.out >g.json
is "$(json_get g.json 'd["window"]["left_out_on_bursts"], [r["growth_bytes"] for r in d["growth"]]')" \
  "2 [0]" "growth, JSON: 2 samples left out, no site grew"

# ---- check and diff: the true maximum.
vis check --max-peak=45MiB bursts.out >chk.txt 2>&1
is "$?:$(cat chk.txt)" "3:true peak 50.0 MiB (52,428,800 B) by the exact outline (the snapshots' peak is snapshot 15) is over --max-peak 45.0 MiB (47,185,920 B)" \
  "check --max-peak: the true maximum (50 MiB) breaks 45 MiB, said so"
vis check --max-peak=45MiB --no-companion bursts.out >chk.txt 2>&1
is "$?:$(cat chk.txt)" "0:" "  ... the samples' peak (42 MiB) alone would pass"
vis check --max-peak=50MiB bursts.out >chk.txt 2>&1
is "$?:$(cat chk.txt)" "0:" "check --max-peak=50MiB: the true maximum is not over it"
vis diff --json growth.out bursts.out >d.json
is "$(json_get d.json 'd["total"]["new_bytes"], d["true_peak"]')" \
  "$((42 * MiB)) {'old_bytes': $((50 * MiB)), 'new_bytes': $((50 * MiB)), 'delta_bytes': 0, 'source': 'outline'}" \
  "diff --json: the samples' totals and the true peaks, said to come from the outline"

# ---- Hostile: a gap of 2^63 units at width 1 is one filled span, and a
# file expanding past 2^20 spans is refused with one line.
cp "$MT_SRC/tests/data/small.out" h.out
printf 'memtime-companion: 1\ntime_unit: B\noutline: width=1 end=18446744073709551615\no: 0 1 3 2 1 1 1\no: 9223372036854775808 1 3 2 1 1 1\n' >h.out.memtime
vis --json h.out >h.json 2>err.txt
is "$?:$(json_get h.json 'len(d["outline"])')" "0:4" \
  "a gap of 2^63 buckets: one filled span (4 spans in all)"
awk 'BEGIN { print "memtime-companion: 1"; print "time_unit: B"; print "outline: width=1 end=18446744073709551615"
  for (i = 0; i < 524300; i++) printf "o: %d 1 1 1 1 1 1\n", 2 * i }' >h.out.memtime
vis --summary-only h.out >/dev/null 2>err.txt
rc=$?
is "$rc:$(wc -l <err.txt)" "1:1" "more than 2^20 spans after expansion: exit 1, one line"
check "  ... naming the limit and the line" grep -q "^memtime-vis: h.out.memtime:524292: expected at most 1048576 spans in the outline, found 'o: 1048576 " err.txt

# ---- --follow: the sparkline's full height is the outline's maximum.
if command -v tmux >/dev/null; then
  . "$MT_SRC/tests/follow-lib.sh"
  view_start 100 30 --follow bursts.out
  if wait_pane 'total, full height 50\.0 MiB'; then ok "--follow: the sparkline reaches the true maximum (50.0 MiB)"
  else not_ok "--follow: the sparkline reaches the true maximum (50.0 MiB)"; diag "$(pane)"; fi
  view_end
  view_start 100 30 --follow --no-companion bursts.out
  if wait_pane 'total, full height 42\.0 MiB'; then ok "--follow --no-companion: the samples' 42.0 MiB"
  else not_ok "--follow --no-companion: the samples' 42.0 MiB"; diag "$(pane)"; fi
  view_end
  follow_done
else
  skip "tmux is not installed (scripts/deps.sh --test)"; skip "tmux"
fi
finish
