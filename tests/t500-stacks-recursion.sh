#!/usr/bin/env bash
# t500-stacks-recursion: --stacks=yes on a deep recursion that allocates
# nothing (the peak falls between snapshots). Massif --stacks=yes is the
# oracle for the peak; the companion file must pair with the profile
# snapshot by snapshot; stacks off the thread's stack (alternate signal
# stack, coroutine) are ignored; --stacks=no writes no stacks and no companion.
. "$(dirname "$0")/lib.sh"
plan 16

rec=$(build_prog stack_recurse.c) || { not_ok "build stack_recurse.c"; exit 1; }
memtime -q --stacks=yes --memtime-out-file="$T/rec.out" "$rec" 2000 >/dev/null 2>&1
massif  -q --stacks=yes --massif-out-file="$T/rec.ms" "$rec" 2000 >/dev/null 2>&1
mt=$(peak_stacks "$T/rec.out"); ms=$(peak_stacks "$T/rec.ms")
check "recursion: peak stack $mt within 10% of Massif's $ms" within_pct "$mt" "$ms" 10
check "recursion: peak covers the 2000 x 1 KB frames" test "$mt" -ge 2000000
check "profile keeps Massif's grammar" grammar "$T/rec.out"
check "ms_print reads it" sh -c "ms_print '$T/rec.out' >'$T/rec.txt'"
check "ms_print shows the stacks column" grep -q 'stacks(B)' "$T/rec.txt"

# The companion: <profile>.memtime, one stacks: line per snapshot, same
# numbers and times, per-thread sizes summing to mem_stacks_B.
c="$T/rec.out.memtime"
check "companion file exists" test -f "$c"
is "$(head -1 "$c")" "memtime-companion: 1" "companion: first line"
is "$(sed -n 's/^profile: //p' "$c")" "rec.out" "companion: profile's base name"
is "$(sed -n 's/^time_unit: //p' "$c")" "$(sed -n 's/^time_unit: //p' "$T/rec.out")" "companion: same time unit"
check "companion: the main thread is tid 1" grep -qx 'thread: tid=1 name=main' "$c"
awk -F= '/^snapshot=/{n=$2} /^time=/{t=$2} /^mem_stacks_B=/{print n, t, $2}' "$T/rec.out" >"$T/want"
awk '/^stacks: /{ s = 0; for (i = 4; i <= NF; i++) { split($i, kv, "="); s += kv[2] }
       sub("snapshot=", "", $2); sub("time=", "", $3); print $2, $3, s }' "$c" >"$T/got"
is_file "$T/got" "$T/want" "companion: every snapshot's number, time and per-thread sum match the profile"
check "no temporary companion left" test -z "$(ls -A "$T" | grep '\.tmp\.')"

# Alternate signal stack and coroutine: ~200 KB deep each, but not on the
# thread's stack; Massif counts them, memtime must not.
alt=$(build_prog stack_altstack.c) || { not_ok "build stack_altstack.c"; exit 1; }
memtime -q --stacks=yes --memtime-out-file="$T/alt.out" "$alt" >/dev/null 2>&1
mt=$(peak_stacks "$T/alt.out")
check "altstack/coroutine: ignored (peak $mt < 50000)" test "${mt:-999999}" -lt 50000

# --stacks=no (and --rss=no): no stacks; the companion, which the
# allocation counts still make, replaces a stale one and has no stacks lines.
echo stale >"$T/plain.out.memtime"
memtime -q --rss=no --memtime-out-file="$T/plain.out" "$rec" 10 >/dev/null 2>&1
is "$(peak_stacks "$T/plain.out")" 0 "--stacks=no: mem_stacks_B stays 0"
check "--stacks=no: the stale companion is replaced, no stacks lines" \
  sh -c "head -1 '$T/plain.out.memtime' | grep -qx 'memtime-companion: 1' && ! grep -q '^stacks:' '$T/plain.out.memtime'"

# As Massif: not together with --pages-as-heap=yes.
rc=0; memtime -q --stacks=yes --pages-as-heap=yes --memtime-out-file="$T/x.out" "$rec" 10 >"$T/x.log" 2>&1 || rc=$?
check "--stacks=yes --pages-as-heap=yes is refused" sh -c "test $rc -ne 0 && grep -q 'Cannot be used together' '$T/x.log'"
finish
