#!/usr/bin/env bash
# t587-clock-phases: the ms clock is true in every phase of a program's
# life. clock_events allocates at start-up, computes 300 ms without
# allocating, sleeps 200 ms, starts a thread that allocates, runs 100 ms of
# steady small allocations, then computes 100 ms before exit; an event
# (an allocation of a size of its own, and a mark) ends each phase. Every
# snapshot and mark time must agree with the program's own clock within
# max(10 ms, 5%), and the snapshot at exit must come after the last 100 ms
# (and within the run). While the program computes or sleeps, memtime
# samples (--sample-interval, 100 ms): those snapshots must lie inside the
# phase. Massif --time-unit=ms (the oracle) shows the test is fair.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/clock-lib.sh"
plan 4

phases="start compute=300 sleep=200 thread steady=100 event exit=100"
clock_check massif phases-massif "Massif --time-unit=ms (the oracle) agrees with the program's clock" $phases
clock_check memtime phases "memtime's snapshot, sample, mark and exit times agree with the program's clock" $phases
# Event 0 ends start-up, 1 the computing, 2 the sleep. (Inside the phase:
# the comparison found each event's snapshot, so these are between them.)
n=$(between phases 0)
check "samples while computing without allocating ($n)" test "${n:-0}" -ge 1
n=$(between phases 1)
check "samples around the sleep ($n)" test "${n:-0}" -ge 1
finish
