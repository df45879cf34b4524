#!/usr/bin/env bash
# t682-follow-dir: memtime-vis --follow DIR, one line per process, in a
# tmux pane and in plain mode (stdout not a terminal), while memtime runs
# programs that write their profiles into DIR. First follow_steps.c, paced
# by the test: its line appears with its pid and "running", shows its heap
# (1 MiB + 100 KiB) after a step, then its exit status. Then
# fork_titles.c (a parent and three children whose answers t584 checks
# against the companions): each line carries the process's title, its peak
# and how it ended: exit 0, exit 3, and the child its parent killed with
# SIGKILL, which only the parent's record can tell. A file that starts
# like a profile but is broken gives its reader's message on a line of its
# own; a file that is no profile is not listed. In a pane too short for
# them all, the latest processes to start are shown, with a count of the
# others.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/follow-lib.sh"
plan 14

FS=$(build_prog follow_steps.c) || { not_ok "build follow_steps.c"; exit 1; }
FT=$(build_prog fork_titles.c) || { not_ok "build fork_titles.c"; exit 1; }
d=$T/run; mkdir -p "$d"
printf 'desc: broken\nnot a cmd line\n' >"$d/zz.out"
echo "notes" >"$d/notes.txt"

view_start 250 30 --follow "$d"
bg_start "$MT_VIS" --follow "$d" >"$T/lines" 2>"$T/lines.err" </dev/null
PLAIN=$!
wait_pane "^$d: 0 processes, 0 running, 1 unreadable\$"
check "the broken profile is counted unreadable" pane_has "^$d: 0 processes, 0 running, 1 unreadable\$"
check "  its reader's message is on its own line" \
  pane_has "^ +! $d/zz.out:2: expected 'cmd: <text>', found 'not a cmd line'\$"

s=$d/steps; mkdir -p "$s"
memtime_bg -q --memtime-out-file="$d/fs.%p.out" "$FS" "$s" 1 >/dev/null 2>"$T/fs.err"
JOB=$!
wait_pane "^ +$JOB .* running +$FS $s 1\$"
check "a running process: its pid, running, its command as title" pane_has "^ +$JOB .* running +$FS $s 1\$"
touch "$s/go.1"
wait_pane "^ +$JOB +1\.10 MiB .* running "
check "  its heap now, after a step: 1.10 MiB" pane_has "^ +$JOB +1\.10 MiB .* running "
touch "$s/go.end"
wait "$JOB"
wait_pane "^ +$JOB .* ended: exit 3 "
check "  then how it ended: exit 3" pane_has "^ +$JOB +0 B .* 1\.10 MiB +ended: exit 3 "

(cd "$d" && memtime -q --memtime-out-file="$d/ft.%p.out" "$FT" "$d/ft.%d.out") 2>"$T/ft.err"
is "$?" 0 "fork_titles ran, status 0"
kid() { grep -l "^title: .* $1\$" "$d"/ft.*.memtime | sed 's/.*ft\.\([0-9]*\)\.out\.memtime/\1/'; }
k1=$(kid mt-worker-1); k2=$(kid 'mt: worker two'); k3=$(kid mt-victim)
parent=$(sed -n 's/^process: pid=\([0-9]*\) .*began=launched$/\1/p' "$d"/ft.*.memtime)
wait_pane "^ +$k3 .* killed \(SIGKILL\) +mt-victim\$"
check "the child its parent killed: killed (SIGKILL), its title" pane_has "^ +$k3 .* killed \(SIGKILL\) +mt-victim\$"
check "child 2: peak 1.91 MiB (2,000,000 B), exit 3, its title" pane_has "^ +$k2 .* 1\.91 MiB +ended: exit 3 +mt: worker two\$"
check "child 1: exit 0, its title" pane_has "^ +$k1 .* ended: exit 0 +mt-worker-1\$"
# Its command, clipped at the pane's width (250 columns) when the paths are
# long (a checkout or a TMPDIR deep in the file system).
PARENT_CMD="$FT $d/ft.%d.out"   # (check's own locals would shadow $d inside it)
parent_row() {
  local row cmd want=$PARENT_CMD
  row=$(pane | grep -E -m1 "^ +$parent .* ended: exit 0 +") || return 1
  cmd=$(printf '%s\n' "$row" | sed -E 's/^.* ended: exit 0 +//')
  case $want in "$cmd"*) ;; *) diag "parent row: [$row]"; return 1;; esac
  [ "$cmd" = "$want" ] || [ "${#row}" -ge 245 ] || { diag "parent row: [$row], want [$want]"; return 1; }
}
check "the parent: exit 0, its command (clipped at the pane's width)" parent_row
check "the file that is no profile is not listed" eval '! pane_has notes'
# Seven rows: the header, 2 of the 5 processes (the latest to start), the
# broken file's line, the footer, and a line for the 3 left out.
tm resize-window -t follow -x 250 -y 7
# The latest to start, by the companions' records (start, then pid, as the
# view orders them): under load a child can start after a younger one.
latest=$(sed -n 's/^process: pid=\([0-9]*\) parent=[0-9]* start=\([0-9]*\) .*/\2 \1/p' "$d"/ft.*.memtime |
         sort -n -k1,1 -k2,2 | tail -1 | cut -d' ' -f2)
fits() {
  [ "$(pane | sed -n 3p)" = "         (3 earlier processes not shown)" ] &&
    pane | sed -n 5p | grep -q "^ *$latest " && [ "$(pane | sed -n 7p)" = "q: quit" ]
}
wait_until 120 $VIEW_WAIT fits
check "more processes than rows: the latest ones, and how many are left out" fits
# Plain mode: the last line of each process says how it ended.
last_of() { grep "^ *$1 " "$T/lines" | tail -1; }
ended_plain() {
  last_of "$JOB" | grep -q 'ended: exit 3' && last_of "$k1" | grep -q 'ended: exit 0 *mt-worker-1$' &&
    last_of "$k2" | grep -q 'ended: exit 3 *mt: worker two$' &&
    last_of "$k3" | grep -q 'killed (SIGKILL) *mt-victim$' && last_of "$parent" | grep -q 'ended: exit 0'
}
wait_until 120 $PLAIN ended_plain
check "plain: one line per change, the last of each process says how it ended" ended_plain
kill -TERM "$PLAIN"; wait "$PLAIN"
is "$?/$(cat "$T/lines.err")" "0/" "plain: SIGTERM ends it with status 0, nothing on stderr"
view_end
follow_done
finish
