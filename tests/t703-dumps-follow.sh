#!/usr/bin/env bash
# t703: memtime-vis --follow DIR on a directory a running program keeps
# writing jemalloc heap dumps into (tests/progs/dumps_sites.c, held before
# its burst until the test lets it go): the live view shows the series so
# far while the process runs, then its burst and its end, in a tmux pane
# and in plain mode (stdout not a terminal). The dumps are the oracle:
# the series the view shows is the one convert writes from them.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/follow-lib.sh"

[ -f "$(cc -print-file-name=libjemalloc.so)" ] || plan_skip "libjemalloc-dev not installed"
prog=$(build_prog dumps_sites.c -ljemalloc) || plan_skip "cannot build dumps_sites.c against jemalloc"
BURST=$(grep -n BURST_LINE "$MT_SRC/tests/progs/dumps_sites.c" | cut -d: -f1)
plan 7

d=$T/dumps; mkdir -p "$d" "$T/steps"
MALLOC_CONF=prof:true,lg_prof_interval:22,lg_prof_sample:16,prof_final:true,prof_prefix:$d/jp \
  bg_start "$prog" "$T/steps"
JOB=$!
# Dumps before the burst: the process waits for steps/go after round 150
# (about 19 MiB allocated, four interval dumps).
have_dumps() { [ "$(ls "$T/dumps" | wc -l)" -ge 4 ]; }
wait_until 300 "$JOB" have_dumps
check "the running program wrote its first dumps" have_dumps

view_start 200 30 --follow "$d"
bg_start "$MT_VIS" --follow "$d" >"$T/lines" 2>"$T/lines.err" </dev/null
PLAIN=$!
wait_pane "running"
check "the pane shows the series while the process runs" pane_has "running"
plain_running() { grep -q 'leak_site' "$T/lines"; }
wait_until 300 "$PLAIN" plain_running
check "plain mode: a line with the series so far, its top site" plain_running

touch "$T/steps/go"
wait "$JOB"
wait_pane "ended at exit"
check "after the exit dump the pane says the process ended" pane_has "ended at exit"
check "... with the burst as the peak's top site" pane_has "burst_site \\(dumps_sites.c:$BURST\\)"
wait "$PLAIN"
is "$?" 0 "plain mode ends with the process, status 0"
vis --summary-only "$d"/*.heap >"$T/sum.txt" 2>/dev/null
peak=$(sed -n 's/^  Peak: *\([^ ]* [^ ]*\) .*/\1/p' "$T/sum.txt")
check "its last line: ended, the same peak ($peak) as the dumps' own summary" \
  sh -c "tail -1 '$T/lines' | grep -q 'peak $peak at .*ended at exit'"
view_end
follow_done
finish
