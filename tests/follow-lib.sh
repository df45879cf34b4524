# follow-lib.sh: memtime-vis --follow in a tmux pane, for the live view's
# tests (t680-t683, t703). Source it after lib.sh. The pane runs the view with
# LANG=C.UTF-8 on its own tmux server (killed at exit); its exit status
# and its stderr (the sanitizers' reports) land in $T/view.status and
# $T/view.err. Every wait is on the pane's text (wait_until polls it).
need tmux
_follow_sock="mt-$(basename "$0" .sh)-$$"
at_exit "tmux -L '$_follow_sock' -f /dev/null kill-server 2>/dev/null"
VIEW_WAIT=$$   # wait_until's pid for waits on the pane: only the timeout ends them

tm() { tmux -L "$_follow_sock" -f /dev/null "$@"; }
# view_start COLS ROWS ARGS...: memtime-vis ARGS in a new COLSxROWS pane.
view_start() {
  local cols=$1 rows=$2 a q=; shift 2
  for a in "$@"; do q="$q $(printf '%q' "$a")"; done
  rm -f "$T/view.status"
  printf '#!/bin/bash\nLANG=C.UTF-8 %q%s 2>%q\necho $? >%q\n' "$MT_VIS" "$q" "$T/view.err" \
    "$T/view.status" >"$T/view.sh"
  chmod +x "$T/view.sh"
  tm new-session -d -s follow -x "$cols" -y "$rows" "$T/view.sh" \; \
    set-option -t follow remain-on-exit on
}
# view_end: q to the view (if it still runs), then its session goes.
view_end() {
  [ -s "$T/view.status" ] || tm send-keys -t follow q 2>/dev/null
  wait_until 120 $VIEW_WAIT test -s "$T/view.status"
  tm kill-session -t follow 2>/dev/null
}
# follow_done: the tmux server goes (before finish: lib.sh would otherwise
# find it still running and say so).
follow_done() { tm kill-server 2>/dev/null; }
pane() { tm capture-pane -p -t follow; }
# pane_has REGEX: a line of the pane matches REGEX (extended).
pane_has() { pane | grep -Eq -- "$1"; }
# wait_pane REGEX: waits (2 minutes at most) until the pane shows REGEX.
wait_pane() { wait_until 120 $VIEW_WAIT pane_has "$1"; }
# The view's "! " message: its rows (cut at the pane's width) joined, up to
# the row where the joined text ends "(showing the last good read)" (a cut
# may fall inside that end too); -N keeps the spaces a cut may leave at a
# row's end.
message() {
  tm capture-pane -p -N -t follow |
    awk '/^! /{ p = 1; m = "" } p { m = m $0; if (m ~ /read\) *$/) { print m; exit } }' |
    sed 's/ *$//'
}
