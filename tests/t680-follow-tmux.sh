#!/usr/bin/env bash
# t680-follow-tmux: memtime-vis --follow in a real terminal (a tmux pane,
# read back with capture-pane) while memtime profiles a program whose pace
# the test sets (tests/progs/follow_steps.c: each step adds 1 MiB at
# grow_table() when the test creates go.N, then creates done.N). The view
# starts before the profile exists and waits for it; after each step, once
# the profile on disk holds the new peak (the file's own mem_heap_B, the
# oracle), the pane shows that peak, and grow_table as the top site holding
# N MiB; the sparkline's last column is full at the peak; the view survives
# three resizes (lines clipped, never wrapped: the title stays on the first
# row and the footer on the last; a path too long for the title loses its
# start, never the file's name and state); it shows the end of the run with the
# program's exit status; a profile replaced by garbage gives the reader's
# message in the view while the last good read stays on screen; a file cut
# short is shown up to the cut with the warning every command gives (the
# file and the line where it ends); the view recovers when the good file
# returns; q
# quits and leaves the final view on the screen. Every wait is on a file's
# content or the pane's text, never on a duration.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/follow-lib.sh"
plan 28

P=$(build_prog follow_steps.c) || { not_ok "build follow_steps.c"; exit 1; }
d=$T/run; mkdir -p "$d"
# The peak column of the "heap" row.
pane_peak() { pane | sed -nE 's/^heap +[0-9.]+ [KMG]?i?B +([0-9.]+ [KMG]?i?B) .*/\1/p'; }
# What memtime-vis prints for a size of 1..10 MiB (three significant digits).
mib() { awk -v b="$1" 'BEGIN { printf "%.2f MiB", b / 1048576 }'; }

view_start 100 30 --follow "$d/p.out"
wait_until 120 $VIEW_WAIT pane_has 'waiting for it to appear'
check "before the profile exists, the view waits for it" pane_has "p.out: waiting for it to appear"

memtime_bg -q --memtime-out-file="$d/p.out" "$P" "$d" 3 >/dev/null 2>"$d/memtime.err"
JOB=$!
wait_until 300 $JOB pane_has '^cmd: .*follow_steps'
# The command line, clipped at the pane's width (100 columns) when the
# paths are long (a checkout or a TMPDIR deep in the file system).
CMD_WANT="cmd: $P $d 3"   # (check's own locals would shadow $d inside it)
cmd_shown() {
  local line full=$CMD_WANT
  line=$(pane | grep -m1 '^cmd: ') || return 1
  case $full in "$line"*) ;; *) diag "cmd line: [$line], not a start of [$full]"; return 1;; esac
  [ "$line" = "$full" ] || [ "${#line}" -ge 90 ] || { diag "cmd line: [$line], want [$full]"; return 1; }
}
check "the profile appeared: the view shows its command (clipped at the pane's width)" cmd_shown
check "the run is shown as running" pane_has '^run: running$'

for i in 1 2 3; do
  touch "$d/go.$i"
  wait_until 300 $JOB test -e "$d/done.$i"
  # The rewrite that carries step i: the file's largest heap passes i MiB.
  has_step() { local m; m=$(max_heap "$d/p.out"); [ -n "$m" ] && [ "$m" -ge $(( i * 1048576 )) ]; }
  wait_until 300 $JOB has_step
  want=$(mib "$(max_heap "$d/p.out")")
  wait_until 300 $JOB eval '[ "$(pane_peak)" = "$want" ]'
  is "$(pane_peak)" "$want" "step $i: the pane shows the new peak, $want, the profile's largest mem_heap_B"
  top_is() { pane_has "^ +$i\\.00 MiB +[-+0-9.]+ [KMG]?i?B +grow_table \\(follow_steps\\.c:[0-9]+\\)\$"; }
  wait_until 300 $JOB top_is
  check "step $i: the top site is grow_table, holding $i.00 MiB" top_is
done
# The peak is the present: the sparkline's last column is full.
check "the sparkline ends with a full block at the peak" pane_has '█$'
check "the marks of the three steps are listed" \
  eval 'pane | grep -Ec "^ +[0-9.]+ [a-z]+ +step [123]\$" | grep -qx 3'

# Resizes: narrower and shorter, then very short.
tm resize-window -t follow -x 60 -y 20
# Lines counted in characters (the sparkline's blocks are 3 bytes each).
narrow() {
  local LC_ALL=C.UTF-8 l n=0
  while IFS= read -r l; do [ "${#l}" -le 60 ] || return 1; n=$((n + 1)); done < <(pane)
  [ "$n" -le 20 ]
}
wait_until 120 $VIEW_WAIT eval 'narrow && pane_has "^q: quit\$"'
check "after a resize to 60x20 no line is wider than 60 columns, the footer shown" eval 'narrow && pane_has "^q: quit\$"'
check "  the title is still the first row" eval 'pane | head -1 | grep -q "p.out  \[running\]"'
check "  the heap row still shows the peak" eval '[ "$(pane_peak)" = "$want" ]'
tm resize-window -t follow -x 60 -y 8
short() { [ "$(pane | sed -n 8p)" = "q: quit" ] && pane | head -1 | grep -q 'p.out  \[running\]'; }
wait_until 120 $VIEW_WAIT short
check "after a resize to 60x8: the title on the first row, the footer on the last" short
# Narrower than the path: the path loses its start, the name and the state stay.
tm resize-window -t follow -x 24 -y 8
# ("..." where the terminal is not UTF-8)
elided() { pane | head -1 | grep -Eqx '(…|\.\.\.)[^ ]*p\.out  \[running\]' && [ "$(pane | head -1 | LC_ALL=C.UTF-8 wc -m)" -le 25 ]; }
wait_until 120 $VIEW_WAIT elided
check "after a resize to 24x8: the title's path loses its start (…), p.out and the state stay" elided
tm resize-window -t follow -x 100 -y 30

touch "$d/go.end"
wait "$JOB"
is "$?" 3 "the program ended with its own status, 3"
wait_until 120 $VIEW_WAIT pane_has '^run: ended: exit 3$'
check "the view shows the end of the run and its exit status" pane_has '^run: ended: exit 3$'
check "  and that the run is over" pane_has '^the run is over; q: quit$'
check "  the peak stays $want" eval '[ "$(pane_peak)" = "$want" ]'

# Bad input in place of the profile, then the good file back.
cp "$d/p.out" "$d/good.out"
printf 'this is not a profile\n' >"$d/tmp" && mv "$d/tmp" "$d/p.out"
# The message may take several rows (a long path): waits and checks read it
# joined (message), never one row, which a long path would break.
msg_is() { message | grep -Eq -- "$1"; }
garbage_msg="^! $d/p.out:1: expected 'desc: .*', found 'this is not a profile' \(showing the last good read\)\$"
wait_until 120 $VIEW_WAIT msg_is "$garbage_msg"
if msg_is "$garbage_msg"; then ok "garbage in place of the profile: the reader's message in the view"
else not_ok "garbage in place of the profile: the reader's message in the view"; diag "message: [$(message)]"; fi
check "  the last good read stays on screen" eval '[ "$(pane_peak)" = "$want" ] && pane_has "^run: ended: exit 3\$"'
# Cut inside a snapshot, after its time= line: a cut at a byte count could
# land inside a word ("heap_tree=deta"), which is a malformed line, not a
# short file, or between two snapshots, which is a complete shorter file.
nt=$(grep -c '^time=' "$d/good.out")
cut=$(grep -n '^time=' "$d/good.out" | sed -n "$(( nt / 2 + 1 ))p" | cut -d: -f1)
head -n "$cut" "$d/good.out" >"$d/tmp" && mv "$d/tmp" "$d/p.out"
# The warning, joined back from the rows it was wrapped into.
warning() {
  tm capture-pane -p -N -t follow | awk '/^! /{ p = 1 } p { printf "%s", $0 } /before the cut *$/{ p = 0 }' |
    sed 's/ *$//'
}
kept=$(grep -c '^heap_tree=' "$d/p.out")
# (check's own local d would hide the run's directory inside an eval.)
warn_re="^! $d/p.out:$(( cut + 1 )): warning: the file is cut short \(expected .*\); showing the $kept snapshots before the cut\$"
wait_until 120 $VIEW_WAIT eval 'warning | grep -Eq -- "$warn_re"'
check "a profile cut short: the view shows the one rule's warning, naming the line" \
  eval 'warning | grep -Eq -- "$warn_re"'
check "  and what is there: the $kept snapshots before the cut" \
  pane_has "^elapsed .*, $kept snapshots, rewritten"
cp "$d/good.out" "$d/tmp" && mv "$d/tmp" "$d/p.out"
wait_until 120 $VIEW_WAIT eval '! pane_has "^! "'
check "the good file back: the message is gone" eval '! pane_has "^! "'

tm send-keys -t follow q
wait_until 120 $VIEW_WAIT test -s "$T/view.status"
is "$(cat "$T/view.status" 2>/dev/null)" 0 "q quits, status 0"
check "the final view stays on the screen, without the footer" \
  eval 'pane_has "^run: ended: exit 3\$" && ! pane_has "q: quit"'
is "$(cat "$T/view.err")" "" "nothing on stderr (no sanitizer report)"
view_end
follow_done
finish
