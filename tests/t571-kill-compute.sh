#!/usr/bin/env bash
# t571-kill-compute: a program that allocates for a second, then computes
# for seconds without allocating, is killed with SIGKILL
# (tests/progs/kill_compute.c). With the default ms clock the profile left
# behind reaches to within about 1.5 s of the kill: its last snapshot time
# is at least (time of the "compute" mark) + (seconds the test waited
# after the program started computing) - 1.5 s. Checked with the default
# schedule and with --max-snapshots=10, where culling spaces the snapshots
# out much more than the sampling interval.
. "$(dirname "$0")/lib.sh"
WAIT_MS=${MT_WAIT_MS:-3000}
plan 8

P=$(build_prog kill_compute.c) || { not_ok "build kill_compute.c"; exit 1; }
trap '[ -n "${JOB:-}" ] && kill -KILL "$JOB" 2>/dev/null; rm -rf "$T"' EXIT

for opts in "" "--max-snapshots=10"; do
  name=${opts:-default}; d=$T/${name#--}; mkdir -p "$d"
  VALGRIND_LIB="$MT_INPLACE" valgrind --tool=memtime -q $opts \
    --memtime-out-file="$d/c.out" "$P" "$d/ready" 60 >/dev/null 2>"$d.err" &
  JOB=$!
  for i in $(seq 600); do [ -e "$d/ready" ] && break; sleep 0.05; done
  check "$name: the program started computing" test -e "$d/ready"
  sleep "$(( WAIT_MS / 1000 )).$(printf '%03d' $(( WAIT_MS % 1000 )))"
  kill -KILL "$JOB"; wait "$JOB" 2>/dev/null; JOB=
  check "$name: a complete profile was left" perl "$MT_SRC/tests/check-strict-grammar.pl" "$d/c.out"
  mark=$(sed -n 's/^mark: time=\([0-9]*\) compute$/\1/p' "$d/c.out.memtime" 2>/dev/null)
  check "$name: the compute mark is in the companion (at ${mark:-?} ms)" test -n "$mark"
  last=$(sed -n 's/^time=//p' "$d/c.out" | tail -1)
  want=$(( ${mark:-0} + WAIT_MS - 1500 ))
  check "$name: last snapshot at ${last:-?} ms >= $want ms (compute mark + $WAIT_MS - 1500)" \
    test "${last:-0}" -ge "$want"
done
finish
