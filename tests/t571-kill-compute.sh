#!/usr/bin/env bash
# t571-kill-compute: a program that allocates for a second, then computes
# without allocating (tests/progs/kill_compute.c), is killed with SIGKILL
# once the profile on disk has followed it WAIT_MS (3 s) into its compute
# phase: with the default ms clock memtime keeps sampling and rewriting the
# file while nothing is allocated, so the profile's last snapshot time
# passes (time of the "compute" mark) + WAIT_MS. The test synchronises on
# the files themselves (the ready file, then the profile's last time), not
# on sleeps, so machine load can slow it down but not change its verdict;
# the only limits are generous failure timeouts. After the kill, the
# profile left behind is complete and still reaches that far. Checked with
# the default schedule and with --max-snapshots=10, where culling spaces the
# snapshots out much more than the sampling interval. memtime-vis marks the
# run as not ended at exit (the companion still says "end: none").
. "$(dirname "$0")/lib.sh"
WAIT_MS=${MT_WAIT_MS:-3000}
plan 12

P=$(build_prog kill_compute.c) || { not_ok "build kill_compute.c"; exit 1; }
mark_of()   { sed -n 's/^mark: time=\([0-9]*\) compute$/\1/p' "$1.memtime" 2>/dev/null; }
last_of()   { sed -n 's/^time=//p' "$1" 2>/dev/null | tail -1; }
# reached FILE: the profile on disk holds the compute mark and a snapshot
# WAIT_MS past it.
reached() {
  local m l; m=$(mark_of "$1"); l=$(last_of "$1")
  [ -n "$m" ] && [ -n "$l" ] && [ "$l" -ge $(( m + WAIT_MS )) ]
}

for opts in "" "--max-snapshots=10"; do
  name=${opts:-default}; d=$T/${name#--}; mkdir -p "$d"
  memtime_bg -q $opts --memtime-out-file="$d/c.out" "$P" "$d/ready" 900 >/dev/null 2>"$d.err"
  JOB=$!
  wait_until 300 "$JOB" test -e "$d/ready"
  check "$name: the program started computing" test -e "$d/ready"
  wait_until 600 "$JOB" reached "$d/c.out"
  check "$name: while it computed, the profile on disk reached the compute mark + $WAIT_MS ms (last snapshot at $(last_of "$d/c.out") ms, mark at $(mark_of "$d/c.out") ms)" \
    reached "$d/c.out"
  kill -0 "$JOB" 2>/dev/null; alive=$?
  is "$alive" 0 "$name: the program was still computing then"
  kill_wait "$JOB"
  check "$name: after SIGKILL, a complete profile was left" grammar "$d/c.out"
  mark=$(mark_of "$d/c.out"); last=$(last_of "$d/c.out")
  check "$name: it holds the compute mark (${mark:-?} ms) and reaches ${last:-?} ms >= mark + $WAIT_MS" reached "$d/c.out"
  vis --summary-only "$d/c.out" >"$d/sum.txt" 2>&1
  check "$name: memtime-vis says the run was killed" grep -q '^Run end: NOT at exit: the program was killed' "$d/sum.txt"
done
finish
