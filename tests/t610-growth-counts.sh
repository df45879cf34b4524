#!/usr/bin/env bash
# t610-growth-counts: the counts and views that find a leak (growth kinds,
# what is live at exit, allocations, temporaries), on a program whose
# answers are known by construction (tests/progs/grow_kinds.c: a leak, a bounded
# cache, a burst, temporaries), run with --time-unit=i so the profile is
# repeatable. The companion's site: lines carry the exact allocation,
# temporary and live counts; memtime-vis --json (parsed with python3's json)
# and the text report rank the leak as the steady grower, the cache as a
# plateau, the burst as a burst; --from/--to take each WHEN form. A run
# killed with SIGKILL is reported as not ended at exit, with its last
# moments, and no at_exit list.
. "$(dirname "$0")/lib.sh"
need python3
plan 36
P=$(build_prog grow_kinds.c) || { not_ok "build grow_kinds.c"; exit 1; }
out=$T/g.out
memtime -q --time-unit=i --detailed-freq=1 --memtime-out-file="$out" "$P" 2>"$T/err"
is "$?" 0 "the program ran"
site() { grep "^site: .* $1 (grow_kinds.c:[0-9]*)\$" "$out.memtime" | sed 's/ 0x.*//'; }
is "$(site leak_tick)" "site: allocs=100 temporary=0 bytes=2457600 live_blocks=100 live_bytes=2457600" "leak: 100 allocations, all live at exit"
is "$(site cache_put)" "site: allocs=100 temporary=0 bytes=3276800 live_blocks=40 live_bytes=1310720" "cache: 100 allocations, 40 live"
is "$(site burst)" "site: allocs=80 temporary=0 bytes=10485760 live_blocks=0 live_bytes=0" "burst: 80 allocations, none live"
is "$(site scratch_tmp)" "site: allocs=100 temporary=100 bytes=10000 live_blocks=0 live_bytes=0" "scratch_tmp: every allocation temporary"
is "$(site scratch_kept)" "site: allocs=100 temporary=0 bytes=10000 live_blocks=0 live_bytes=0" "scratch_kept: freed after another allocation: none temporary"
is "$(grep -c '^end: ' "$out.memtime") $(grep '^end: ' "$out.memtime")" "1 end: exit" "one end: exit line"
# Every site label is a top-level node label of the profile's trees (when it has bytes there).
lbl=$(grep '^site: .* leak_tick ' "$out.memtime" | sed 's/^site: \([^ ]* \)\{5\}//')
check "the leak's label is the trees' label" grep -qF " $lbl" "$out"

vis --json "$out" >"$T/g.json" 2>"$T/err"
is "$?" 0 "--json: exit 0"
py() { python3 - "$T/g.json" "$@" <<PY
import json, sys
d = json.load(open(sys.argv[1]))
def site(rows, name):
    r = [x for x in rows if x["site"].startswith(name + " (grow_kinds.c:")]
    return r[0] if len(r) == 1 else None
$(cat)
PY
}
is "$(py <<<'print(set(["command","time_unit","peak","ended_by_exit","growth","at_exit","sites"]) <= set(d.keys()), d["time_unit"], d["ended_by_exit"])')" "True i True" "--json: the issue's keys, time unit, ended at exit"
is "$(py <<<'print(" ".join(site(d["growth"], n)["kind"] for n in ["leak_tick","cache_put","burst"]))')" "steady plateau burst" "kinds: leak steady, cache plateau, burst burst"
is "$(py <<<'print(d["growth"][0]["site"].split(" ")[0])')" "leak_tick" "the leak ranks first"
is "$(py <<<'g=site(d["growth"],"leak_tick"); print(g["end_bytes"]-g["start_bytes"]==g["growth_bytes"], g["end_bytes"], g["rate_per_s"])')" "True 2457600 None" "leak: growth = end - start, ends at 2,457,600 B; no rate per second in i units"
is "$(py <<<'g=site(d["growth"],"cache_put"); print(g["start_bytes"], g["end_bytes"])')" "0 1310720" "cache: from 0 to 1,310,720 B"
is "$(py <<<'a=site(d["at_exit"],"leak_tick"); c=site(d["at_exit"],"cache_put"); print(a["bytes"],a["blocks"],c["bytes"],c["blocks"], site(d["at_exit"],"burst"))')" "2457600 100 1310720 40 None" "at_exit: the leak's and the cache's blocks, not the burst"
is "$(py <<<'s=site(d["sites"],"scratch_tmp"); k=site(d["sites"],"burst"); print(s["allocations"],s["temporary"],s["allocated_bytes"],k["allocations"],k["temporary"],k["allocated_bytes"])')" "100 100 10000 80 0 10485760" "sites: allocations, temporary, allocated bytes"
is "$(py <<<'p=d["peak"]; print(p["total_bytes"] >= sum(s["bytes"] for s in p["sites"]), site(p["sites"],"burst")["bytes"])')" "True 10485760" "peak: the burst's 10 MiB, sites within the total"

vis --summary-only "$out" >"$T/sum.txt"
check "summary: Run end: exit" grep -qx 'Run end: exit' "$T/sum.txt"
check "summary: the leak heads the Growing section as steady" \
  sh -c "sed -n '/^Growing/,/^\$/p' '$T/sum.txt' | sed -n 3p | grep -q '^  steady .* leak_tick (grow_kinds.c:'"
check "summary: still live at exit: 2.34 MiB in 100 blocks for the leak" \
  grep -qE '^ +2\.34 MiB in +100 blocks  leak_tick ' "$T/sum.txt"
check "summary: most temporary allocations: 100 of 100 scratch_tmp" \
  grep -qE '^ +100 of +100 calls  scratch_tmp ' "$T/sum.txt"
vis --growth "$out" >"$T/growth.txt"
is "$(sed -n '3,5p' "$T/growth.txt" | awk '{print $1}' | tr '\n' ' ')" "steady plateau burst " "--growth: steady, plateau, burst in that order"

# The chart: --growth tags the leak's band (a box in the warning colour at
# the plot's right end) and its legend row; nothing is tagged without it.
PNGCHECK=$(build_pngcheck) || { not_ok "build tests/pngcheck.c"; exit 1; }
vis -o "$T/plain.png" "$out" 2>/dev/null
is "$("$PNGCHECK" "$T/plain.png" count B22222)" 0 "chart without --growth: no tag colour"
MEMTIME_VIS_DEBUG_LAYOUT=1 vis --growth -o "$T/grow.png" "$out" 2>"$T/layout.txt"
read -r _ _ x0 y0 x1 y1 < <(grep '^layout plot ' "$T/layout.txt")
check "chart --growth: the tag's frame at the plot's right end" \
  sh -c "'$PNGCHECK' '$T/grow.png' runs $((x1 - 8)) $y0 $y1 | grep -q ' B22222\$'"
check "chart --growth: the tag colour in the legend too (left of the plot's end: no)" \
  test "$("$PNGCHECK" "$T/grow.png" count B22222)" -gt 400

# The window: from the cache's bound (tick 40 of 100) on, the cache is flat.
n=$(grep -c '^snapshot=' "$out")
vis --json --from "#$((n / 2))" --to end "$out" >"$T/w.json"
is "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["window"]["from_snapshot"], [g["kind"] for g in d["growth"] if g["site"].startswith("cache_put")][0], d["growth"][0]["site"].split()[0])' "$T/w.json")" \
  "$((n / 2)) flat leak_tick" "--from #N --to end: the cache is flat in the second half, the leak still steady"
end=$(sed -n 's/^time=//p' "$out" | tail -1)
vis --json --from 0 --to "$end" "$out" | cmp -s - "$T/g.json"
check "--from 0 --to <last time>: the whole run" test $? -eq 0
vis --json --from peak "$out" >/dev/null 2>&1; is "$?" 0 "--from peak is accepted"
vis --growth --from 1s "$out" >/dev/null 2>"$T/err"; rc=$?
is "$rc $(cat "$T/err")" "2 memtime-vis: --from: '1s' has a unit, but this profile's time unit is i (instructions); expected #N (0 to $((n - 1))), peak, end, a whole number in the file's unit, or a phase mark's label (this profile has none)" \
  "--from 1s on an i profile: usage error naming what is accepted"
vis --growth --from end --to '#0' "$out" >/dev/null 2>&1; is "$?" 2 "--from after --to: usage error"

# Killed: SIGKILL from outside while it sleeps after tick 70.
d=$T/kill; mkdir -p "$d"
memtime_bg -q --time-unit=i --detailed-freq=1 \
  --memtime-out-file="$d/k.out" "$P" "wait=$d/ready" >/dev/null 2>&1
JOB=$!
# Wait until both files are from after tick 70: the companion (renamed
# first) counts 71 leak blocks, and the profile (renamed after it in the
# same commit) ends at 2.9 MB or more (tick 65 on, after the burst).
after70() {
  [ -e "$d/ready" ] && grep -q '^site: allocs=71 .* leak_tick ' "$d/k.out.memtime" 2>/dev/null \
    && [ "$(last_heap "$d/k.out")" -ge 2900000 ] 2>/dev/null
}
wait_until 300 "$JOB" after70
kill_wait "$JOB"
is "$(grep '^end: ' "$d/k.out.memtime")" "end: none" "killed: the companion says the process had not ended"
vis --json "$d/k.out" >"$T/k.json" 2>"$T/k.err" || diag "$(cat "$T/k.err")"
is "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["ended_by_exit"], d["at_exit"], d["last_moments"]["growth"][0]["site"].split()[0], d["last_moments"]["growth"][0]["kind"])' "$T/k.json")" \
  "False None leak_tick steady" "killed: ended_by_exit false, at_exit null, the leak grows in the last moments"
vis --summary-only "$d/k.out" >"$T/ksum.txt"
check "killed: the summary says so" grep -q '^Run end: NOT at exit: the program was killed' "$T/ksum.txt"
check "killed: the last moments name the leak" \
  sh -c "sed -n '/^Last moments/,/^\$/p' '$T/ksum.txt' | grep -q '^  steady .* leak_tick '"
check "killed: no 'Still live at exit' section" sh -c "! grep -q '^Still live' '$T/ksum.txt'"
vis -o "$T/killed.png" "$d/k.out" 2>/dev/null
check "killed: the chart says it ends with a kill (warning text in the subtitle)" \
  test "$("$PNGCHECK" "$T/killed.png" count B22222)" -gt 100
finish
