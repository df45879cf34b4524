#!/usr/bin/env bash
# t623-fault-signal-storm: a storm of signals while memtime rewrites the
# profile. tests/progs/signal_storm.c allocates over a wide tree and counts
# SIGUSR1s; memtime rewrites as often as it may (--flush-interval=1) and
# logs each rewrite (--test-hook-log); the test sends SIGUSR1 without pause
# until memtime has completed 5 rewrites since the storm began, so the
# storm covers rewrites whatever the machine's load. Then: the program got
# signals and ran to its end, memtime said nothing, every logged rewrite
# and the final profile are complete, and no temporary is left.
. "$(dirname "$0")/lib.sh"
plan 7
P=$(build_prog signal_storm.c) || { not_ok "build signal_storm.c"; exit 1; }
d=$T/out ctl=$T/ctl
mkdir -p "$d" "$ctl"
memtime_bg -q --flush-interval=1 --threshold=0 --test-hook-log="$T/log" \
  --memtime-out-file="$d/p.out" "$P" "$ctl" >"$T/stdout" 2>"$T/err"
JOB=$!
# The program's handler is in place; memtime's pid (the client's) from its
# first rewrite, which came before.
started() { [ -e "$ctl/ready" ] && [ -s "$T/log" ]; }
wait_until 600 "$JOB" started
pid=$(sed -n '1s/^rewritten pid=\([0-9]*\) .*/\1/p' "$T/log")
before=$(wc -l <"$T/log") sent=0
while [ "$(wc -l <"$T/log")" -lt $((before + 5)) ] && kill -USR1 "$pid" 2>/dev/null; do
  sent=$((sent + 1))
done
during=$(( $(wc -l <"$T/log") - before ))
touch "$ctl/stop"
wait "$JOB"; rc=$?
is "$rc" 0 "the program ran to its end"
check "the storm ($sent signals) covered $during rewrites" test "$during" -ge 5
got=$(sed -n 's/^signals: //p' "$T/stdout")
check "the program's handler ran (${got:-0} times; signals sent close together merge)" test "${got:-0}" -ge 1
is "$(grep -c . "$T/err")" 0 "memtime said nothing (no failed write, no warning)"
check "the final profile passes ms_print" sh -c "ms_print '$d/p.out' >/dev/null"
check "and massif-visualizer's grammar" grammar "$d/p.out"
is "$(ls -A "$d" | grep -v -x -e p.out -e p.out.memtime)" "" "no temporary left (only the profile and its companion)"
finish
