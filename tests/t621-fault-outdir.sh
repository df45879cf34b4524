#!/usr/bin/env bash
# t621-fault-outdir: the output directory is removed, or its file system
# made read-only, while the program runs (tests/progs/fault_grow.c, which
# runs until told to stop). memtime warns once, naming the cause; the
# program goes on undisturbed; a read-only file system keeps the previous
# complete profile; when the directory is back (or writable again) memtime
# writes the profile again, by itself, and the final one is complete. Each
# step waits for a file or for memtime's own message, never for a time.
# (The read-only case mounts a tmpfs: root only.)
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || plan_skip "needs root to mount a tmpfs and make it read-only"
plan 15
P=$(build_prog fault_grow.c) || { not_ok "build fault_grow.c"; exit 1; }
at_exit 'umount "$T/ro" 2>/dev/null'

# wait_for FILE PATTERN: until FILE holds PATTERN (or memtime is gone).
# (A message that never comes is a failure, not a hang: at most 10 minutes.)
wait_for() { wait_until 600 "$JOB" grep -q "$2" "$1" 2>/dev/null; }

# --- removed ------------------------------------------------------------------
d=$T/gone ctl=$T/ctl1
mkdir -p "$d" "$ctl"
memtime_bg -q --flush-interval=20 --memtime-out-file="$d/p.out" "$P" "$ctl" >/dev/null 2>"$T/err1"
JOB=$!
wait_for "$d/p.out" '^time_unit:'
rm -rf "$d"
check "removed: memtime warns" wait_for "$T/err1" "warning: memtime:"
check "removed: the warning says the directory is gone" \
  grep -q "warning: memtime: cannot \(create\|rename\) $d/\.p\.out\(\.memtime\)\?\.tmp\.[0-9]*: No such file or directory" "$T/err1"
mkdir "$d"
check "removed: once the directory is back, memtime writes the profile again" \
  wait_for "$T/err1" "memtime: $d/p.out is written again"
touch "$ctl/stop"
wait "$JOB"; rc=$?
is "$rc" 0 "removed: the program ran to its end"
check "removed: the final profile is complete" both_readers "$d/p.out"
is "$(grep -c 'warning:' "$T/err1")" 1 "removed: exactly one warning"
is "$(ls -A "$d" | grep -v -x -e p.out -e p.out.memtime)" "" "removed: no temporary left (only the profile and its companion)"

# --- read-only ----------------------------------------------------------------
d=$T/ro ctl=$T/ctl2
mkdir -p "$d" "$ctl"
mount -t tmpfs -o size=8m tmpfs "$d" || { not_ok "mount a tmpfs"; exit 1; }
memtime_bg -q --flush-interval=20 --memtime-out-file="$d/p.out" "$P" "$ctl" >/dev/null 2>"$T/err2"
JOB=$!
wait_for "$d/p.out" '^time_unit:'
# The kernel refuses while a file is open for writing (a rewrite under
# way): try until it takes.
until mount -o remount,ro "$d" 2>/dev/null; do sleep 0.01; done
check "read-only: memtime warns" wait_for "$T/err2" "warning: memtime:"
check "read-only: the warning names the read-only file system" \
  grep -q "warning: memtime: cannot \(create\|rename\) $d/\.p\.out\(\.memtime\)\?\.tmp\.[0-9]*: Read-only file system; $d/p.out keeps its previous complete profile" "$T/err2"
cp "$d/p.out" "$T/kept.out"
check "read-only: the previous complete profile is there ($(grep -c '^snapshot=' "$T/kept.out") snapshots)" both_readers "$T/kept.out"
mount -o remount,rw "$d"
check "read-only: writable again, memtime writes the profile again" \
  wait_for "$T/err2" "memtime: $d/p.out is written again"
check "read-only: the new profile goes past the kept one" \
  test "$(grep -c '^snapshot=' "$d/p.out")" -gt "$(grep -c '^snapshot=' "$T/kept.out")"
touch "$ctl/stop"
wait "$JOB"; rc=$?
is "$rc" 0 "read-only: the program ran to its end"
check "read-only: the final profile is complete" both_readers "$d/p.out"
is "$(grep -c 'warning:' "$T/err2")" 1 "read-only: exactly one warning"
umount "$d"
finish
