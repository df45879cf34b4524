#!/usr/bin/env bash
# t590-heap-limit: --heap-limit and --heap-limit-action on programs whose
# answers are known by construction. tests/progs/limit_chunks.c allocates
# 1 MiB per step through grab(); with a 10 MiB limit the 10th block is the
# one that crosses (nine blocks, stdout's buffer and the admin bytes stay
# below 10 MiB, ten do not): kill ends the program there with SIGKILL (137
# from a shell) after writing a profile whose last, detailed snapshot holds
# ten blocks under grab(); fail returns NULL at steps 10, 11, 12 and the
# program goes on; snapshot takes a detailed snapshot of ten blocks and the
# program runs to its end. operator new under fail throws std::bad_alloc
# (tests/progs/limit_new.cc). memtime-vis shows the limit in the summary,
# --json and the chart; ms_print reads every profile.
. "$(dirname "$0")/lib.sh"
need c++ python3 chromium
plan 36

P=$(build_prog limit_chunks.c) || { not_ok "build limit_chunks.c"; exit 1; }
PN=$(build_prog limit_new.cc) || { not_ok "build limit_new.cc"; exit 1; }
PNGCHECK=$(build_pngcheck) || { not_ok "build pngcheck"; exit 1; }
MiB=1048576
# The heap bytes under grab() in the last snapshot's tree.
last_grab() {
  awk '/^snapshot=/{g=0} /^ *n[0-9]+: [0-9]+ .*grab \(limit_chunks.c/{g=$2} END{print g}' "$1"
}

# --- kill (the default action) ---------------------------------------------
out=$T/kill.out
memtime -q --heap-limit=10MiB --memtime-out-file="$out" "$P" 100 >"$T/kill.txt" 2>"$T/kill.err"
is "$?" 137 "kill: the exit status is an OOM kill's (SIGKILL: 137)"
is "$(tail -1 "$T/kill.txt")" "step 9" "kill: the program ends inside its 10th allocation"
check "kill: memtime says why" grep -q 'heap limit of 10485760 bytes reached.*SIGKILL' "$T/kill.err"
check "kill: ms_print reads the profile" sh -c "ms_print '$out' >/dev/null"
check "kill: strict Massif grammar" grammar "$out"
last_tree=$(awk '/^heap_tree=/{t=$0} END{print t}' "$out")
is "$last_tree" "heap_tree=detailed" "kill: the last snapshot is detailed"
is "$(last_grab "$out")" $((10 * MiB)) "kill: its tree holds the 10 blocks, the crossing one included"
heap=$(awk -F= '/^mem_heap_B=/{h=$2} /^mem_heap_extra_B=/{e=$2} END{print h+e}' "$out")
check "kill: the last snapshot's total ($heap) is above the limit" test "$heap" -gt $((10 * MiB))
check "kill: companion mark" grep -q '^mark: time=[0-9]* heap limit 10MiB reached$' "$out.memtime"
check "kill: companion heap-limit line" \
  grep -Eq '^heap-limit: bytes=10485760 action=kill time=[0-9]+ refused=0$' "$out.memtime"
vis "$out" --json >"$T/kill.json"
is "$(json_get "$T/kill.json" 'd["heap_limit"]["bytes"], d["heap_limit"]["action"], d["heap_limit"]["time"] is not None, d["ended_by_exit"]')" \
   "10485760 kill True False" "kill: --json heap_limit and ended_by_exit"
vis "$out" >"$T/kill.report"
check "kill: the summary says memtime killed it at the limit" \
  grep -q '^Heap limit: 10.0 MiB reached at .*SIGKILL' "$T/kill.report"
check "kill: the run end says so" grep -q '^Run end: killed by memtime with SIGKILL at its heap limit' "$T/kill.report"
# The chart draws the limit line in its own colour (B22222); without the
# companion the same profile has no such pixels.
vis "$out" -o "$T/kill.png"
n_limit=$("$PNGCHECK" "$T/kill.png" count B22222)
check "kill: the chart draws the limit line ($n_limit px)" test "$n_limit" -gt 500
cp "$out" "$T/bare.out"
vis "$T/bare.out" -o "$T/bare.png"
is "$("$PNGCHECK" "$T/bare.png" count B22222)" 0 "no limit line without the companion"

# The HTML report draws it too (headless Chromium's DOM after the script ran).
vis "$out" -o "$T/kill.html"
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$(mktemp -d "$T/chr.XXXXXX")" --dump-dom "file://$T/kill.html" >"$T/kill.dom" 2>/dev/null
check "kill: the HTML report draws the limit line" grep -q '<line class="limit"' "$T/kill.dom"
check "kill: ... labelled with the limit and the action" grep -q 'heap limit 10.0 MiB (kill)' "$T/kill.dom"

# --- fail ---------------------------------------------------------------------
out=$T/fail.out
memtime -q --heap-limit=10MiB --heap-limit-action=fail --memtime-out-file="$out" "$P" 100 \
  >"$T/fail.txt" 2>"$T/fail.err"
is "$?" 0 "fail: the program goes on and exits normally"
is "$(grep NULL "$T/fail.txt" | tr '\n' ,)" "NULL at step 10,NULL at step 11,NULL at step 12," \
   "fail: malloc returns NULL from the crossing step on"
is "$(grep -c 'heap limit of 10485760 bytes reached: refusing' "$T/fail.err")" 1 "fail: one message"
check "fail: companion counts 3 refusals" \
  grep -Eq '^heap-limit: bytes=10485760 action=fail time=[0-9]+ refused=3$' "$out.memtime"
vis "$out" --json >"$T/fail.json"
is "$(json_get "$T/fail.json" 'd["heap_limit"]["action"], d["heap_limit"]["refused"], d["peak"]["total_bytes"] <= 10485760')" \
   "fail 3 True" "fail: --json counts the refusals, and the heap never passed the limit"
check "fail: the summary counts the refusals" grep -q '^Heap limit: 10.0 MiB first reached at .*: 3 allocations refused' \
  <(vis "$out")
# A fractional size with a unit: 10.5 MiB lets the 10th block through.
memtime -q --heap-limit=10.5MiB --heap-limit-action=fail --memtime-out-file="$T/frac.out" "$P" 100 >"$T/frac.txt" 2>/dev/null
is "$(grep -m1 NULL "$T/frac.txt")" "NULL at step 11" "fail: --heap-limit=10.5MiB refuses the 11th block"
memtime -q --heap-limit=10240KiB --heap-limit-action=fail --memtime-out-file="$T/kib.out" "$P" 100 >"$T/kib.txt" 2>/dev/null
is "$(grep -m1 NULL "$T/kib.txt")" "NULL at step 10" "fail: 10240KiB is 10MiB"

# --- operator new under fail ----------------------------------------------------
memtime -q --heap-limit=10MiB --heap-limit-action=fail --memtime-out-file="$T/new.out" "$PN" >"$T/new.txt" 2>/dev/null
is "$?" 0 "new: the program catches the exception and exits normally"
is "$(cat "$T/new.txt")" "bad_alloc at step 10
after freeing: allocated" "new: operator new[] throws std::bad_alloc at the crossing step, and works again below"

# --- snapshot -------------------------------------------------------------------
out=$T/snap.out
memtime -q --time-unit=B --heap-limit=10MiB --heap-limit-action=snapshot --detailed-freq=1000000 \
  --memtime-out-file="$out" "$P" 20 >"$T/snap.txt" 2>/dev/null
is "$?" 0 "snapshot: the program goes on"
is "$(tail -1 "$T/snap.txt")" "step 20" "snapshot: it runs to its end"
mark_t=$(sed -n 's/^mark: time=\([0-9]*\) heap limit 10MiB reached$/\1/p' "$out.memtime")
check "snapshot: one mark" test -n "$mark_t"
# The detailed snapshot at the mark's time holds 10 blocks under grab().
at_mark=$(awk -v t="$mark_t" '/^time=/{tm=substr($0,6)} /^heap_tree=/{d=(tm==t)} d && /grab \(limit_chunks.c/{print $2; exit}' "$out")
is "$at_mark" $((10 * MiB)) "snapshot: the detailed snapshot at the crossing holds 10 blocks"
is "$(vis "$out" --json | json_get - 'd["heap_limit"]["action"], d["heap_limit"]["time"]')" \
   "snapshot $mark_t" "snapshot: --json heap_limit time is the mark's"

# --- options ----------------------------------------------------------------------
for bad in --heap-limit=0 --heap-limit=lots --heap-limit=5XB --heap-limit-action=maybe; do
  memtime -q $bad --memtime-out-file="$T/bad.out" "$P" 1 >/dev/null 2>"$T/bad.err"
  rc=$?
  if [ "$rc" -ne 0 ] && grep -q -- "${bad%%=*}" "$T/bad.err" && [ ! -e "$T/bad.out" ]; then
    ok "$bad is rejected before the program runs"
  else
    not_ok "$bad is rejected before the program runs"; diag "rc=$rc" "$(cat "$T/bad.err")"
  fi
done
finish
