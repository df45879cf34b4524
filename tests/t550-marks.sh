#!/usr/bin/env bash
# t550-marks: MEMTIME_MARK and MEMTIME_SNAPSHOT from a C program
# (tests/progs/mark_client.c). Natively and under another tool each request
# returns 0 and does nothing; under memtime it returns 1, each mark lands in
# the companion file at its time (in order, between the profile's snapshot
# times, control characters flattened), each MEMTIME_SNAPSHOT adds exactly
# one detailed snapshot, both readers accept the profile, and memtime-vis
# lists the marks.
. "$(dirname "$0")/lib.sh"
plan 16

P=$(build_prog mark_client.c) || { not_ok "build mark_client.c"; exit 1; }

expected_results="mark load 1
snapshot 1
mark compute 1
mark prune 1
snapshot 1
mark newline 1
mark empty 1
mark null 1"

"$P" >"$T/native.txt"
is "$(cat "$T/native.txt")" "${expected_results//1/0}" "natively every request returns 0"
massif -q --massif-out-file="$T/massif.out" "$P" >"$T/massif.txt" 2>/dev/null
is "$(cat "$T/massif.txt")" "${expected_results//1/0}" "under Massif every request returns 0"

# Detailed snapshots only on request (and the final one at exit): none on
# the --detailed-freq schedule, none at bursts (the prune comes down from
# the peak by half, which --burst-threshold's default would give a tree).
out=$T/marks.out
memtime -q --detailed-freq=1000000 --burst-threshold=100 --memtime-out-file="$out" "$P" >"$T/memtime.txt" 2>"$T/memtime.err"
is "$(cat "$T/memtime.txt")" "$expected_results" "under memtime every request returns 1"
check "profile: strict grammar" grammar "$out"
check "profile: ms_print reads it" sh -c "ms_print '$out' >'$T/ms_print.txt'"
# (The peak snapshot, always detailed, is counted apart.)
trees=$(grep -c '^heap_tree=detailed$' "$out")
is "$trees" 3 "two requested detailed snapshots plus the final one"
# The requested snapshots hold the blocks of that moment: 300000 requested
# bytes after "load", 150000 after "prune".
check "a detailed snapshot holds the 30 loaded blocks (300000 B)" \
  sh -c "grep -B1 '^heap_tree=detailed' '$out' | grep -q '^mem_stacks_B=0' && awk '/^mem_heap_B=/{h=\$0} /^heap_tree=detailed/{print h}' '$out' | grep -qx 'mem_heap_B=30[0-9][0-9][0-9][0-9]'"
check "a detailed snapshot holds the 15 blocks left after pruning" \
  sh -c "awk '/^mem_heap_B=/{h=\$0} /^heap_tree=(detailed|peak)/{print h}' '$out' | grep -qx 'mem_heap_B=15[0-9][0-9][0-9][0-9]'"

comp=$out.memtime
check "companion file written beside the profile" test -f "$comp"
is "$(head -1 "$comp")" "memtime-companion: 1" "companion: first line"
is "$(sed -n 's/^mark: time=[0-9]* \(.*\)$/[\1]/p' "$comp" | tr -d '\n')" \
  "[load: 300 KB in 30 blocks][compute][prune][two lines][][]" "companion: the marks' labels, in order (newline flattened, empty and NULL labels empty)"
# Times: non-decreasing, "compute" at least 150 ms before "prune" (the
# program computes 200 ms between them), all within the profile's span.
mt=$(sed -n 's/^mark: time=\([0-9]*\).*/\1/p' "$comp" | tr '\n' ' ')
set -- $mt
check "mark times never decrease ($mt)" sh -c "printf '%s\n' $mt | sort -n -c"
check "compute -> prune spans the 200 ms of computing ($2 -> $3)" test $(( $3 - $2 )) -ge 150
last=$(sed -n 's/^time=//p' "$out" | tail -1)
check "every mark within the profile's time span (last snapshot at $last)" test "$6" -le "$last"

vis --summary-only "$out" >"$T/vis.txt" 2>&1
check "memtime-vis lists the phase marks" grep -q 'compute' "$T/vis.txt"
# (memtime-vis writes times from 1000 ms on in seconds.)
if [ "$1" -lt 1000 ]; then when="$1 ms"; else when="$(awk -v t="$1" 'BEGIN{printf "%.2f", t/1000}') s"; fi
check "memtime-vis names the label with its time ($when)" \
  grep -qE "^ +$when +load: 300 KB in 30 blocks$" "$T/vis.txt"
finish
