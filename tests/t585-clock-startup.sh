#!/usr/bin/env bash
# t585-clock-startup: with --time-unit=ms the times are true from the first
# allocation on. clock_events allocates as soon as main starts, then runs
# library code it never ran (regex, formatting, sorting, time: Valgrind
# translates it as it goes), allocates again and computes 50 ms before
# exit. Every snapshot and mark time must agree with the program's own
# CLOCK_MONOTONIC within max(10 ms, 5%) (tests/clock-compare.pl), and the
# snapshot at exit must come after those 50 ms. A clock re-read only every
# 50,000 blocks stamped the first allocation 150-700 ms early here; Massif,
# which reads the clock at every allocation, shows the test is fair.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/clock-lib.sh"
plan 5

phases="start newcode exit=50"
clock_check massif startup-massif "Massif --time-unit=ms (the oracle) agrees with the program's clock" $phases
clock_check memtime startup "memtime's snapshot and mark times agree with the program's clock" $phases
check "memtime's companion holds a mark per event" \
  test "$(grep -c '^mark: time=[0-9]* event [0-9]$' "$T/startup.out.memtime")" = "$(grep -c ^event "$T/startup.ev")"

# The comparison catches a stale clock: the same profile with every time
# from the second event on made D ms later (the intervals a clock lagging D
# ms at start-up gives, as the old one did) fails it. D is at least 50 ms
# and always beyond what the comparison allows for that interval, however
# long load made it: the tolerance (5% of the interval) twice over, plus
# the width of the program's own reading of it (its clock reads around the
# allocations), so the verdict cannot depend on the machine's load.
set -- $(sed -n 's/^event 1: profile \([0-9]*\) ms; since event 0: \([0-9]*\) ms, program \([0-9.]*\)\.\.\([0-9.]*\) ms.*/\1 \2 \3 \4/p' "$T/startup.cmp")
t1=${1:-0}
d=$(awk -v x="${2:-0}" -v lo="${3:-0}" -v hi="${4:-0}" 'BEGIN { d = 50 + (hi - lo) + x / 5; printf "%d", d + 1 }')
perl -pe 's/^time=(\d+)$/"time=" . ($1 >= '"$t1"' ? $1 + '"$d"' : $1)/e' \
  "$T/startup.out" >"$T/stale.out"
check "a clock $d ms behind at start-up fails the comparison" \
  sh -c "! perl '$MT_SRC/tests/clock-compare.pl' '$T/startup.ev' '$T/stale.out' >'$T/stale.cmp'"
check "... naming the first event" grep -q '^event 1: .*off by' "$T/stale.cmp"
finish
