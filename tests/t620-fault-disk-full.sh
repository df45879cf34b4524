#!/usr/bin/env bash
# t620-fault-disk-full: the disk fills during a rewrite. The profile goes to
# a 28 KiB tmpfs; tests/progs/fault_grow.c adds a detailed snapshot per step
# (--detailed-freq=1) until the file and its temporary no longer fit. Then:
# the profile on disk is the previous complete one (ms_print and the strict
# grammar read it), memtime has warned once, naming the full disk; the test
# gives the file system room again and memtime, still running, writes the
# profile again and says so; at exit the final profile is complete, no
# temporary is left, and there was exactly one warning. Each step waits for
# memtime's own message, never for a time. (Mounting needs root.)
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || plan_skip "needs root to mount a small tmpfs"
plan 12
P=$(build_prog fault_grow.c) || { not_ok "build fault_grow.c"; exit 1; }
fs=$T/small ctl=$T/ctl
mkdir -p "$fs" "$ctl"
mount -t tmpfs -o size=28k tmpfs "$fs" || { not_ok "mount a 28 KiB tmpfs"; exit 1; }
at_exit 'umount "$fs" 2>/dev/null'

memtime_bg -q --detailed-freq=1 --max-snapshots=1000 --flush-interval=20 \
  --memtime-out-file="$fs/p.out" "$P" "$ctl" >/dev/null 2>"$T/err"
JOB=$!
# wait_for PATTERN: until memtime's stderr says PATTERN (or memtime is gone).
# (A message that never comes is a failure, not a hang: at most 10 minutes.)
wait_for() { wait_until 600 "$JOB" grep -q "$1" "$T/err"; }
snaps() { grep -c '^snapshot=' "$1"; }

check "memtime warns when the disk fills" wait_for 'warning: memtime:'
check "the warning names the full disk and the file" \
  grep -q "warning: memtime: cannot write $fs/\.p\.out\(\.memtime\)\?\.tmp\.[0-9]*: No space left on device; $fs/p.out keeps its previous complete profile" "$T/err"
cp "$fs/p.out" "$T/kept.out" 2>/dev/null
check "the previous complete profile is there and ms_print reads it ($(snaps "$T/kept.out") snapshots, $(stat -c %s "$T/kept.out") bytes)" \
  sh -c "ms_print '$T/kept.out' >/dev/null"
check "it passes massif-visualizer's grammar" grammar "$T/kept.out"
# Whole to its end: the last detailed tree's root holds the snapshot's heap.
check "its last snapshot is whole (the last tree's root = the last mem_heap_B)" \
  awk '/^mem_heap_B=/{h=substr($0, 12)} /^n[0-9]+: /{r=$2} END{exit !(r != "" && r == h)}' "$T/kept.out"

# Room again: memtime, still running, resumes on its own.
mount -o remount,size=16m "$fs"
check "memtime says the profile is written again" wait_for 'is written again, after [0-9]* failed rewrite'
n=$(snaps "$fs/p.out")
check "the rewritten profile goes past the kept one ($n > $(snaps "$T/kept.out") snapshots)" \
  test "$n" -gt "$(snaps "$T/kept.out")"
touch "$ctl/stop"
wait "$JOB"; rc=$?
is "$rc" 0 "the program ran to its end"
check "the final profile passes ms_print" sh -c "ms_print '$fs/p.out' >/dev/null"
check "and massif-visualizer's grammar" grammar "$fs/p.out"
is "$(ls -A "$fs" | grep -v -x -e p.out -e p.out.memtime)" "" "no temporary left on the file system (only the profile and its companion)"
is "$(grep -c 'warning:' "$T/err")" 1 "exactly one warning in the whole run"
finish
