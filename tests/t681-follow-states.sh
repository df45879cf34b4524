#!/usr/bin/env bash
# t681-follow-states: memtime-vis --follow on profiles whose every number is
# known by construction, each put in place by rename as memtime does: the
# plain line per change when stdout is not a terminal (the lines compared
# whole), and the terminal view in a tmux pane (the sites' growth since the
# first tree, the marks, the states). States: waiting for a file that does
# not exist, running (the companion's process record names a live pid),
# garbage in the file's place (the reader's message, the last good read
# kept), the good file back, killed (end: none and the pid gone: the plain
# mode then ends by itself), killed at the heap limit, ended at exit with
# its status. A site name carrying terminal escapes is shown with '?' in
# their place, in both modes. Ctrl-Z in a shell with job control gives the
# terminal back (line mode, echo) and fg brings the view back. The usage
# errors of --follow.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/follow-lib.sh"
plan 24

# profile FILE STEP: the profile after STEP rewrites (1: one tree; 2: a
# second, bigger one), written beside FILE and renamed over it. Snapshot 1
# stays marked as the peak, as a mid-run profile's mark can lag behind: the
# view's peak is the largest total all the same, and a run over shows the
# largest tree's sites.
profile() {
  {
    printf 'desc: (none)\ncmd: ./crafted --serve\ntime_unit: ms\n'
    printf '#-----------\nsnapshot=0\n#-----------\ntime=0\nmem_heap_B=0\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=empty\n'
    printf '#-----------\nsnapshot=1\n#-----------\ntime=1000\nmem_heap_B=3000\nmem_heap_extra_B=100\nmem_stacks_B=0\nheap_tree=peak\n'
    printf 'n2: 3000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n'
    printf ' n0: 2000 0x401000: make_cache (cache.c:10)\n n0: 1000 0x401100: read_input (input.c:20)\n'
    if [ "$2" -ge 2 ]; then
      printf '#-----------\nsnapshot=2\n#-----------\ntime=2000\nmem_heap_B=9500\nmem_heap_extra_B=200\nmem_stacks_B=4096\nheap_tree=detailed\n'
      printf 'n3: 9500 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n'
      printf ' n0: 8000 0x401000: make_cache (cache.c:10)\n n0: 1000 0x401100: read_input (input.c:20)\n'
      printf ' n0: 500 0x401200: evil\033]0;pwned\007name (x.c:1)\n'
    fi
  } >"$1.tmp" && mv "$1.tmp" "$1"
}
# companion FILE LINES...: the companion of FILE, renamed into place.
companion() {
  local f=$1; shift
  { printf 'memtime-companion: 1\nprofile: %s\ntime_unit: ms\n' "$(basename "$f")"
    printf 'mark: time=1500 warm up\n'
    printf '%s\n' "$@"; } >"$f.memtime.tmp" && mv "$f.memtime.tmp" "$f.memtime"
}
# A process the companion names: alive until the test kills it.
sleep 3600 &
SLEEPER=$!
who="process: pid=$SLEEPER parent=1 start=0 began=launched"

# ---- Without a terminal: one line per change.
f=$T/plain.out
bg_start "$MT_VIS" --follow "$f" >"$T/lines" 2>"$T/lines.err" </dev/null
VIS=$!
lines_has() { grep -Fqx -- "$1" "$T/lines"; }
wait_until 120 $VIS lines_has "$f: waiting for it to appear"
check "plain: waits for a file that does not exist yet" lines_has "$f: waiting for it to appear"
companion "$f" "end: none" "$who"
profile "$f" 1
l1="1.00 s heap 2.93 KiB extra 100 B stacks 0 B peak 3.03 KiB at 1.00 s top 1.95 KiB make_cache (cache.c:10) [running]"
wait_until 120 $VIS lines_has "$l1"
check "plain: the first rewrite's line" lines_has "$l1"
profile "$f" 2
l2="2.00 s heap 9.28 KiB extra 200 B stacks 4.00 KiB peak 13.5 KiB at 2.00 s top 7.81 KiB make_cache (cache.c:10) [running]"
wait_until 120 $VIS lines_has "$l2"
check "plain: the second rewrite's line" lines_has "$l2"
printf 'garbage\001\n' >"$f.tmp" && mv "$f.tmp" "$f"
bad="$f:1: expected 'desc: <text>', found 'garbage?' (the last good read stands)"
wait_until 120 $VIS lines_has "$bad"
check "plain: garbage in place of the profile gives the reader's message" lines_has "$bad"
profile "$f" 2
wait_until 120 $VIS eval '[ "$(tail -1 "$T/lines")" = "$l2" ]'
is "$(tail -1 "$T/lines")" "$l2" "plain: the good file back, its line again"
kill_wait $SLEEPER
killed="2.00 s heap 9.28 KiB extra 200 B stacks 4.00 KiB peak 13.5 KiB at 2.00 s top 7.81 KiB make_cache (cache.c:10) [killed: no final rewrite, and pid $SLEEPER is gone]"
wait_until 120 $VIS lines_has "$killed"
check "plain: end: none and the pid gone: killed" lines_has "$killed"
wait "$VIS"
is "$?" 0 "plain: the view ended by itself once the run was over, status 0"
printf '%s\n' "$f: waiting for it to appear" "$l1" "$l2" "$bad" "$l2" "$killed" >"$T/lines.want"
is_file "$T/lines" "$T/lines.want" "plain: one line per change, no more"
is "$(cat "$T/lines.err")" "" "plain: nothing on stderr (no sanitizer report)"
check "plain: no escape character reached the output" eval '! grep -q "$(printf "\033")" "$T/lines"'

# ---- In a terminal.
sleep 3600 &
SLEEPER=$!
who="process: pid=$SLEEPER parent=1 start=0 began=launched"
f=$T/tty.out
companion "$f" "end: none" "$who"
profile "$f" 2
view_start 100 30 --follow "$f"
wait_pane '^run: running$'
check "tty: the sites of the latest tree with their growth since the first" \
  eval 'pane_has "^top sites at 2\.00 s, growth since 1\.00 s:\$" &&
        pane_has "^ +7\.81 KiB +\+5\.86 KiB +make_cache \(cache\.c:10\)\$" &&
        pane_has "^ +1000 B +0 B +read_input \(input\.c:20\)\$"'
check "tty: a name's escape characters are shown as '?'" \
  eval 'pane_has "^ +500 B +\+500 B +evil\?\]0;pwned\?name \(x\.c:1\)\$"'
check "tty: the marks" pane_has '^ +1\.50 s  warm up$'
check "tty: now and peak" \
  eval 'pane_has "^heap +9\.28 KiB +9\.28 KiB +at 2\.00 s\$" && pane_has "^stacks +4\.00 KiB +4\.00 KiB\$" &&
        pane_has "^total +13\.5 KiB +13\.5 KiB\$"'
kill_wait $SLEEPER
wait_pane "^run: killed: no final rewrite, and pid $SLEEPER is gone\$"
check "tty: the process gone without a final rewrite: killed" \
  pane_has "^run: killed: no final rewrite, and pid $SLEEPER is gone\$"
companion "$f" "heap-limit: bytes=8192 action=kill time=1800 refused=0" "end: none"
profile "$f" 2
wait_pane '^run: killed by memtime'
check "tty: killed at the heap limit" \
  pane_has '^run: killed by memtime at its heap limit \(8\.00 KiB\); heap limit 8\.00 KiB \(kill\) reached at 1\.80 s$'
companion "$f" "end: exit" "process: pid=$SLEEPER parent=1 start=0 began=launched" "ended: time=2000 exit=7"
profile "$f" 2
wait_pane '^run: ended'
check "tty: ended at exit, with its status" pane_has '^run: ended: exit 7$'
tm send-keys -t follow q
wait_until 120 $VIEW_WAIT test -s "$T/view.status"
is "$(cat "$T/view.status" 2>/dev/null)/$(cat "$T/view.err")" "0/" "tty: q quits, status 0, nothing on stderr"
view_end

# ---- Ctrl-Z in a shell with job control: the terminal is given back
# (line mode and echo on) while the view is stopped, and taken again by fg.
tm new-session -d -s shell -x 100 -y 30 "env LANG=C.UTF-8 PS1='prompt\$ ' bash --norc --noprofile -i"
shell_has() { tm capture-pane -p -t shell | grep -Eq -- "$1"; }
wait_until 120 $VIEW_WAIT shell_has '^prompt\$'
tm send-keys -t shell "$(printf '%q' "$MT_VIS") --follow $(printf '%q' "$f") 2>$(printf '%q' "$T/z.err")" Enter
wait_until 120 $VIEW_WAIT shell_has '^run: ended: exit 7$'
tm send-keys -t shell C-z
wait_until 120 $VIEW_WAIT shell_has 'Stopped'
tm send-keys -t shell "stty -a | tr ' ' '\n' | grep -xE -- '-?(icanon|echo)' | tr '\n' ' '; echo =stty" Enter
wait_until 120 $VIEW_WAIT shell_has '^(-?(icanon|echo) )*=stty$'
check "Ctrl-Z: stopped, the terminal back in line mode with echo" shell_has '^icanon echo =stty$'
# The stopped view's last frame stays on the screen until clear has run:
# only then can its text tell that fg brought the view back.
tm send-keys -t shell clear Enter
wait_until 120 $VIEW_WAIT eval '! shell_has "q: quit\$"'
tm send-keys -t shell fg Enter
wait_until 120 $VIEW_WAIT shell_has '^the run is over; q: quit$'
check "fg: the view is back" eval 'shell_has "^run: ended: exit 7\$" && shell_has "^the run is over; q: quit\$"'
tm send-keys -t shell q
wait_until 120 $VIEW_WAIT eval '! shell_has "q: quit\$"'
tm send-keys -t shell "echo status=\$?" Enter
wait_until 120 $VIEW_WAIT shell_has '^status='
check "q, then status 0, nothing on stderr" eval 'shell_has "^status=0\$" && [ ! -s "$T/z.err" ]'
tm kill-session -t shell

# ---- Usage errors: one line, status 2, the pointer to --help.
usage_is() {   # DESCRIPTION EXPECTED-MESSAGE ARGS...
  local desc=$1 want=$2; shift 2
  vis "$@" >"$T/u.out" 2>"$T/u.err"
  is "$?|$(head -1 "$T/u.err")|$(sed -n 2p "$T/u.err")|$(cat "$T/u.out")" \
     "2|memtime-vis: $want|Try 'memtime-vis --help' for more information.|" "usage: $desc"
}
usage_is "--follow draws no chart" "--follow takes only --top, --companion, --no-companion, --group-by, --namespace-depth, --keep-wrappers and --threshold, not -o" \
  --follow -o x.png "$f"
usage_is "--follow takes one input" "--follow expects one FILE or DIRECTORY, got 2" --follow "$f" "$f"
usage_is "a directory has no one companion" "--companion names one profile's companion; $T is a directory" \
  --follow --companion=x "$T"
follow_done
finish
