#!/usr/bin/env bash
# t103-ms-crash: the default ms unit (timeline reaches past the last
# allocation: sampling while the program sleeps and a final snapshot at exit;
# ms_print and massif-visualizer's grammar accept the file) and profiles that
# survive the program's death by SIGSEGV, abort() and SIGKILL.
. "$(dirname "$0")/lib.sh"
plan 17

times() { sed -n 's/^time=//p' "$1"; }

sl=$(build_prog heap_sleep.c) || { not_ok "build heap_sleep.c"; exit 1; }
memtime -q --memtime-out-file="$T/sleep.out" "$sl" 2>/dev/null
check "ms: valid grammar" grammar "$T/sleep.out"
check "ms: ms_print reads it" sh -c "ms_print '$T/sleep.out' >'$T/sleep.txt'"
check "ms: ms_print's table is in ms" grep -q 'time(ms)' "$T/sleep.txt"
last=$(times "$T/sleep.out" | tail -1)
check "ms: last snapshot at or after the 450 ms of sleep ($last ms)" test "$last" -ge 450
# While it sleeps the heap is exactly the first block's 100000 bytes: the
# malloc's snapshot, plus one sample after each 150 ms sleep
# (--sample-interval=100, the default), unless sampling is off.
during() { grep -c '^mem_heap_B=100000$' "$1"; }
n=$(during "$T/sleep.out")
check "ms: sampled while sleeping ($n snapshots of the sleeping heap)" test "$n" -ge 3
memtime -q --sample-interval=0 --memtime-out-file="$T/nosample.out" "$sl" 2>/dev/null
is "$(during "$T/nosample.out")" 1 "--sample-interval=0: no sample while sleeping"
check "ms: the final snapshot is detailed (or the peak)" \
  grep -qE '^(detailed|peak)$' <(sed -n 's/^heap_tree=//p' "$T/nosample.out" | tail -1)
# B keeps Massif's list: no final snapshot.
memtime -q --time-unit=B --memtime-out-file="$T/b.out" "$sl" 2>/dev/null
massif  -q --time-unit=B --massif-out-file="$T/b.ms" "$sl" 2>/dev/null
is "$(grep -c '^snapshot=' "$T/b.out")" "$(grep -c '^snapshot=' "$T/b.ms")" "B: no extra snapshot at exit"

cr=$(build_prog heap_crash.c) || { not_ok "build heap_crash.c"; exit 1; }
for how in segv abort; do
  rc=0; memtime -q --memtime-out-file="$T/$how.out" "$cr" $how >/dev/null 2>&1 || rc=$?
  check "$how: the program died ($rc)" test "$rc" -ne 0
  check "$how: complete profile (grammar)" grammar "$T/$how.out"
  check "$how: ms_print reads it" sh -c "ms_print '$T/$how.out' >/dev/null"
done
# SIGKILL: nothing runs at exit; the periodic rewrite must have left a profile.
mkdir -p "$T/kill"
rc=0; memtime -q --flush-interval=200 --memtime-out-file="$T/kill/kill.out" "$cr" kill >/dev/null 2>&1 || rc=$?
check "kill: the program was killed ($rc)" test "$rc" -eq 137
check "kill: a complete profile was left (grammar)" grammar "$T/kill/kill.out"
is "$(ls -A "$T/kill" | tr '\n' ' ')" "kill.out kill.out.memtime " "kill: no temporary file left (the profile and its companion)"
finish
