#!/usr/bin/env bash
# t104: outputs that are not regular files (/dev/null, a FIFO) are written in
# place, never replaced by the temporary-then-rename dance (as root that would
# turn /dev/null into a file), by the tool and by memtime-vis alike. The
# tool is held still at the moment it writes (a test hook), so what is seen
# then does not depend on winning a race.
. "$(dirname "$0")/lib.sh"
plan 22
prog=$(build_prog heap_sleep.c) || plan_skip "cannot build heap_sleep.c"
fix="$MT_SRC/tests/data/massif-ms.out"

# restore_devnull: if a run broke /dev/null (a regular file now), put the
# device back so the rest of the machine keeps working, and fail.
devnull_ok() {
  if [ -c /dev/null ]; then return 0; fi
  if [ "$(id -u)" = 0 ]; then rm -f /dev/null && mknod -m 666 /dev/null c 1 3; fi
  return 1
}

# memtime holds still while it writes /dev/null (--test-hook-pause, see
# docs/memtime.1 FOR TESTS): the device must be a device then, and no
# temporary of this process may exist in /dev, at that moment and after.
# (Only this run's pid is looked for: other runs may share the machine.)
memtime_bg --memtime-out-file=/dev/null --flush-interval=10 \
  --test-hook-pause=mid-rewrite:"$T/pause" "$prog" >/dev/null 2>"$T/err1"
job=$!
wait_until 600 "$job" grep -q last= "$T/pause" 2>/dev/null
pid=$(sed -n 's/^mid-rewrite pid=\([0-9]*\) .*/\1/p' "$T/pause" 2>/dev/null)
check "tool: caught memtime writing /dev/null" test -n "$pid"
check "tool: /dev/null is a device while memtime writes it" test -c /dev/null
check "tool: no temporary in /dev while memtime writes /dev/null" test ! -e "/dev/.null.tmp.$pid"
rm -f "$T/pause"
wait "$job"
check "tool: /dev/null stays a device" devnull_ok
check "tool: no temporary left in /dev" test ! -e "/dev/.null.tmp.$pid"

# Written in place, the writes are checked all the same: /dev/full refuses
# them, and memtime says so once.
memtime -q --memtime-out-file=/dev/full "$prog" >/dev/null 2>"$T/err-full"
is "$(grep -c warning "$T/err-full")" 1 "tool: a write to /dev/full fails with one warning"
check "tool: which names the device and the error" \
  grep -q "warning: memtime: cannot write /dev/full: No space left on device; the profile is lost" "$T/err-full"
check "tool: /dev/full stays a device" test -c /dev/full

mkfifo "$T/fifo"
cat "$T/fifo" >"$T/got" &
reader=$!
memtime --memtime-out-file="$T/fifo" "$prog" >/dev/null 2>"$T/err2"
wait $reader
check "tool: the FIFO stays a FIFO" test -p "$T/fifo"
check "tool: the reader got one whole profile" bash -c "grep -c '^desc:' '$T/got' | grep -qx 1"
check "tool: what came through the FIFO passes ms_print" sh -c "ms_print '$T/got' >/dev/null"
check "tool: no companion or temporary beside the FIFO" bash -c "[ \$(ls -A '$T' | grep -c fifo) = 1 ]"

# /dev/stdout redirected to a file is a symlink to a regular file: it must
# stay a symlink (a rename would replace it for the whole machine).
devstdout_ok() {
  if [ -L /dev/stdout ]; then return 0; fi
  if [ "$(id -u)" = 0 ]; then rm -f /dev/stdout && ln -s /proc/self/fd/1 /dev/stdout; fi
  return 1
}
memtime --memtime-out-file=/dev/stdout "$prog" >"$T/via-stdout.out" 2>"$T/err3"
check "tool: /dev/stdout stays a symlink" devstdout_ok
check "tool: the profile written through /dev/stdout passes ms_print" sh -c "ms_print '$T/via-stdout.out' >/dev/null"
# A symlinked output keeps its link; the profile lands in the target.
: >"$T/target.out"; ln -s target.out "$T/link.out"
memtime --memtime-out-file="$T/link.out" "$prog" >/dev/null 2>"$T/err4"
check "tool: a symlinked output stays a symlink" test -L "$T/link.out"
check "tool: the profile lands in the link's target" grep -q '^desc:' "$T/target.out"

vis "$fix" --report /dev/null
check "vis: --report /dev/null works and /dev/null stays a device" devnull_ok
vis "$fix" --report /dev/stdout >"$T/report.txt"
check "vis: --report /dev/stdout writes through" grep -q "^Number of snapshots" "$T/report.txt"
check "vis: /dev/stdout stays a symlink" devstdout_ok
mkfifo "$T/png-fifo.png"
cat "$T/png-fifo.png" >"$T/got.png" &
reader=$!
vis "$fix" -o "$T/png-fifo.png"
wait $reader
check "vis: a PNG through a FIFO" test -p "$T/png-fifo.png"
check "vis: the PNG that came through is whole" bash -c "head -c 8 '$T/got.png' | od -An -tx1 | grep -q '89 50 4e 47'"
check "vis: no temporary left" bash -c "! ls -A '$T' | grep -q tmp"
finish
