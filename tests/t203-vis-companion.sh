#!/usr/bin/env bash
# t203-vis-companion: memtime-vis reads memtime's companion file
# (<profile>.memtime, or --companion FILE): phase marks and per-thread stacks
# reach the summary; comments, blank lines and unknown keys are skipped;
# stacks lines that do not match the profile are ignored; a broken companion
# is rejected with one line naming it, and --no-companion skips it.
. "$(dirname "$0")/lib.sh"
plan 21
cd "$T" || exit 1
cp "$MT_SRC/tests/data/small.out" p.out
printf '%s\n' 'memtime-companion: 1' '# written by hand for t203' 'profile: p.out' 'time_unit: B' \
  'thread: tid=1 name=main' 'thread: tid=2 name=worker #2' '' \
  'mark: time=9000 phase two: compaction (level 0)' 'mark: time=100 start' \
  'future_key: ignored by this reader' \
  'stacks: snapshot=1 time=4096 1=2048 2=512' \
  'stacks: snapshot=2 time=8192 1=4096' \
  'stacks: snapshot=2 time=7777 1=999999' \
  'stacks: snapshot=9 time=1 2=999999' >p.out.memtime

vis --summary-only p.out >sum.txt 2>err.txt
is "$?" 0 "profile with companion: exit 0"
is "$(cat err.txt)" "" "nothing on stderr"
sed -n '/^Phase marks:/,/^$/p' sum.txt >marks.txt
printf '%s\n' 'Phase marks:' '         100 B  start' '      8.79 KiB  phase two: compaction (level 0)' '' >want.txt
is_file marks.txt want.txt "marks sorted by time, labels whole"
sed -n '/^Thread stacks/,/^$/p' sum.txt >threads.txt
printf '%s\n' 'Thread stacks (largest size seen):' 'tid 1       4.00 KiB  main' 'tid 2          512 B  worker #2' '' \
  | sed 's/^/  /; 1s/^  //; $s/^  //' >want.txt
is_file threads.txt want.txt "thread names and stack peaks; mismatched stacks lines ignored"
check "summary names the companion" grep -q '^  Companion:  p.out.memtime$' sum.txt

vis --summary-only --no-companion p.out >none.txt 2>&1
check "--no-companion: no marks" sh -c "! grep -q 'Phase marks' none.txt"
mv p.out.memtime other.memtime
vis --summary-only --companion other.memtime p.out >sum2.txt 2>&1
sed -i '/^  Companion:/d' sum.txt sum2.txt
is_file sum2.txt sum.txt "--companion FILE: the same summary"
vis --summary-only --companion missing.memtime p.out >/dev/null 2>err.txt
is "$?" 1 "--companion with a missing file: exit 1"
is "$(cat err.txt)" "memtime-vis: missing.memtime: cannot open: No such file or directory" "  ... naming it"

printf 'memtime-companion: 2\nmark: time=1 x\n' >p.out.memtime
vis --summary-only p.out >/dev/null 2>err.txt
is "$?" 1 "unknown companion version: exit 1"
is "$(cat err.txt)" "memtime-vis: p.out.memtime:1: expected 'memtime-companion: 1', found 'memtime-companion: 2' (use --no-companion to ignore it)" "  ... one line naming file and line"
printf 'memtime-companion: 1\ntime_unit: ms\n' >p.out.memtime
vis --summary-only p.out >/dev/null 2>err.txt
is "$(cat err.txt)" "memtime-vis: p.out.memtime:2: expected 'time_unit: B' as in the profile, found 'time_unit: ms' (use --no-companion to ignore it)" "time unit mismatch rejected"
printf 'memtime-companion: 1\nmark: 12 no time key\n' >p.out.memtime
vis --summary-only p.out >/dev/null 2>err.txt
is "$(cat err.txt)" "memtime-vis: p.out.memtime:2: expected 'mark: time=<n> <label>', found 'mark: 12 no time key' (use --no-companion to ignore it)" "bad mark line rejected"
# The allocator's own account (memtime --allocator=program): a reading
# before its allocator, times that go back, a name that is not a word; keys
# the reader does not know are skipped.
printf 'memtime-companion: 1\nalloc-stats: time=5 allocated=1\n' >p.out.memtime
vis --summary-only p.out >/dev/null 2>err.txt
is "$(cat err.txt)" "memtime-vis: p.out.memtime:2: expected 'allocator: name=<word>' before 'alloc-stats:', found 'alloc-stats: time=5 allocated=1' (use --no-companion to ignore it)" "alloc-stats before allocator rejected"
printf 'memtime-companion: 1\nallocator: name=jemalloc\nalloc-stats: time=5 allocated=1\nalloc-stats: time=4 allocated=1\n' >p.out.memtime
vis --summary-only p.out >/dev/null 2>err.txt
is "$(cat err.txt)" "memtime-vis: p.out.memtime:4: expected 'alloc-stats:' times in order (4 after 5), found 'alloc-stats: time=4 allocated=1' (use --no-companion to ignore it)" "alloc-stats going back in time rejected"
printf 'memtime-companion: 1\nallocator: name=<b>\n' >p.out.memtime
vis --summary-only p.out >/dev/null 2>err.txt
is "$(cat err.txt)" "memtime-vis: p.out.memtime:2: expected 'allocator: name=<word>' (letters, digits, '_.-', at most 15), found 'allocator: name=<b>' (use --no-companion to ignore it)" "an allocator name that is not a word rejected"
printf 'memtime-companion: 1\nallocator: name=jemalloc\nalloc-stats: time=5 newer_key=3 allocated=7\n' >p.out.memtime
check "unknown alloc-stats keys are skipped, the known ones kept" \
  sh -c "'$MT_VIS' --json p.out 2>&1 | grep -q '{\"time\": 5, \"allocated_bytes\": 7}'"
# A reading carries the RSS it follows: the split stands when that RSS's
# snapshot is gone (culled): here read at time 100, where no snapshot is.
printf '%s\n' 'memtime-companion: 1' 'time_unit: B' 'rss: snapshot=1 time=4096 anon=1000000 file=0 shmem=0' \
  'allocator: name=glibc' \
  'alloc-stats: time=120 rss_time=100 rss=5000000 allocated=1000000 arena=4000000 mmapped=0 free=3000000 top_releasable=0 arena_in_use=1000000' \
  'alloc-stats: time=4100 rss_time=4096 rss=1000000 allocated=500000 arena=600000 mmapped=0 free=100000 top_releasable=0 arena_in_use=500000' >p.out.memtime
vis --summary-only p.out >split.txt 2>&1
check "the split where the allocator holds the most freed, its RSS from the reading, its snapshot culled" \
  sh -c "grep -q '^  RSS 4.77 MiB = heap 977 KiB + glibc holds freed 2.86 MiB + outside glibc 977 KiB$' split.txt &&
         grep -q '^  (the RSS read at 100 B, at a snapshot culled since)$' split.txt"
check "--json: rss_split of that reading, its snapshot null" \
  sh -c "'$MT_VIS' --json p.out | grep -q '\"rss_split\": {\"time\": 100, \"snapshot\": null, \"stats_time\": 120, \"rss_bytes\": 5000000, \"heap_bytes\": 1000000, \"held_bytes\": 3000000, \"outside_bytes\": 1000000}'"
printf 'memtime-companion: 1\ntime_unit: B\nallocator: name=glibc\nalloc-stats: time=5 rss_time=6 rss=1 allocated=1\n' >p.out.memtime
vis --summary-only p.out >/dev/null 2>err.txt
is "$(cat err.txt)" "memtime-vis: p.out.memtime:4: expected 'rss_time=' at or before the reading's time (6 after 5), found 'alloc-stats: time=5 rss_time=6 rss=1 allocated=1' (use --no-companion to ignore it)" "an RSS read after its statistics rejected"
vis --summary-only --no-companion p.out >/dev/null 2>&1
is "$?" 0 "--no-companion skips a broken companion"
finish
