#!/usr/bin/env bash
# t003-test-harness: what tests/lib.sh promises about processes. memtime_bg
# leaves in $! the pid of the program itself (the oracle: the pid
# tests/progs/mark_vgdb.c reads with getpid() and writes to its ready
# file; Valgrind and its client are one process), where `memtime ... &`
# leaves a subshell's. And a script that ends with things still running
# (Valgrind started the old way, a plain command, a forked loop) leaves
# none of them alive: lib.sh kills them at exit, names each on stderr,
# runs at_exit commands after they are gone, keeps the exit status.
# And what it promises about dependencies and plans: need skips a script
# whose dependency is missing (one plan line naming the package), a
# failure under CI=true; a skip after the plan skips the checks left; a
# script that stops early reports the checks it did not run.
. "$(dirname "$0")/lib.sh"
plan 13
P=$(build_prog mark_vgdb.c) || { not_ok "build mark_vgdb.c"; exit 1; }
ready() { [ -s "$1.ready" ]; }
# alive PID: the process exists and is not a zombie (one killed whose
# parent has not reaped it yet is dead).
alive() { [ -e "/proc/$1" ] && ! grep -q '^[0-9]* (.*) Z ' "/proc/$1/stat" 2>/dev/null; }

memtime_bg -q --memtime-out-file="$T/bg.out" "$P" "$T/bg" >/dev/null 2>"$T/bg.err"
job=$!
wait_until 600 "$job" ready "$T/bg"
is "$(cat "$T/bg.ready" 2>/dev/null)" "$job" "memtime_bg: \$! is the program's own pid"
touch "$T/bg"
wait "$job"
is "$?" 0 "memtime_bg: wait \$! gets the program's exit status"

memtime -q --memtime-out-file="$T/fn.out" "$P" "$T/fn" >/dev/null 2>"$T/fn.err" &
sub=$!
wait_until 600 "$sub" ready "$T/fn"
prog=$(cat "$T/fn.ready" 2>/dev/null)
check "the oracle is fair: \`memtime ... &\` leaves a subshell's pid in \$! ($sub, the program is ${prog:-?})" \
  test -n "$prog" -a "$prog" != "$sub"
touch "$T/fn"
wait "$sub"

# A script that leaves three things running and says what it started.
cat >"$T/leaver.sh" <<'SH'
. "$MT_SRC/tests/lib.sh"
P=$1 D=$2
plan 1
memtime -q --memtime-out-file="$D/old.out" "$P" "$D/old" >/dev/null 2>&1 &
sleep 1000 &
echo "sleep $!" >>"$D/pids"
( while :; do sleep 1; done ) &
echo "loop $!" >>"$D/pids"
until [ -s "$D/old.ready" ]; do sleep 0.02; done
echo "valgrind $(cat "$D/old.ready")" >>"$D/pids"
at_exit 'for p in $(cut -d" " -f2 "$D/pids"); do
           [ -e /proc/$p ] && ! grep -q "^[0-9]* (.*) Z " /proc/$p/stat && echo "$p"
         done >"$D/at-exit"
         [ -d "$T" ] && echo "T still there" >>"$D/at-exit"'
ok "left them running"
(exit 3)
SH
MT_SRC=$MT_SRC MT_BUILD=$MT_BUILD timeout 600 bash "$T/leaver.sh" "$P" "$T" >"$T/leaver.tap" 2>"$T/leaver.err"
is "$?" 3 "the script's exit status is kept"
for what in valgrind sleep loop; do
  pid=$(sed -n "s/^$what //p" "$T/pids")
  if [ -n "$pid" ] && ! alive "$pid"; then ok "$what ($pid): not running after the script ended"
  else not_ok "$what (${pid:-?}): not running after the script ended"; diag "$(ps -o pid,stat,args -p "${pid:-0}")"; fi
done
check "stderr names Valgrind as killed at exit" \
  grep -q "^# lib.sh: killing $(sed -n 's/^valgrind //p' "$T/pids"), still running at exit: .*--tool=memtime" "$T/leaver.err"
is "$(cat "$T/at-exit" 2>/dev/null)" "T still there" \
  "at_exit ran once they were all gone, before the scratch directory was removed"

# Dependencies and plans: small scripts whose TAP is known by construction.
cat >"$T/needy.sh" <<'SH'
. "$MT_SRC/tests/lib.sh"
need sh lib:c ${NEED:-}
plan 3
ok one
[ -n "${LATE:-}" ] && plan_skip "late"
[ -n "${STOP:-}" ] && exit 4
ok two
ok three
finish
SH
tap() { env "$@" MT_SRC="$MT_SRC" MT_BUILD="$MT_BUILD" bash "$T/needy.sh" 2>&1; echo "exit $?"; }
is "$(tap NEED="memtime-no-such-tool gnuplot" PATH=/usr/bin:/bin CI= | tr '\n' '|')" \
  "1..0 # SKIP not installed: memtime-no-such-tool$(command -v gnuplot >/dev/null || echo ' gnuplot-nox') (scripts/deps.sh --test installs them)|exit 0|" \
  "need: a missing command skips the whole script, naming the package"
is "$(tap NEED=lib:memtime-no-such-lib CI=true | tr '\n' '|')" \
  "1..1|not ok 1 - skipped under CI=true (a skip is a failure there): not installed: memtime-no-such-lib (scripts/deps.sh --test installs them)|exit 1|" \
  "need under CI=true: a failure"
is "$(tap LATE=1 CI= | tr '\n' '|')" "1..3|ok 1 - one|ok 2 # SKIP late|ok 3 # SKIP late|exit 0|" \
  "plan_skip after the plan: one plan, the checks left skipped"
is "$(tap STOP=1 CI= | tr '\n' '|')" \
  "1..3|ok 1 - one|not ok 2 - not run: the script stopped before this check (exit status 4)|not ok 3 - not run: the script stopped before this check (exit status 4)|exit 4|" \
  "a script that stops early: each check it did not run is a failure"
finish
