#!/usr/bin/env bash
# t690-cut-short: every command of memtime-vis given a file cut short
# follows the one rule (memtime-vis(1), FILES CUT SHORT): what is there is
# used, the output is written, and one warning line names the file and the
# line where it ends, "memtime-vis: FILE:LINE: warning: the file is cut
# short (expected ..., found ...); showing the N snapshots before the cut"
# (a companion: "...; using its records before the cut"); check, a gate,
# fails (exit 3) with a line naming the same place. Never a crash: the
# build runs under ASan, and stderr must hold the warning line and nothing
# else.
#
# Real profiles, cut where a copy or a killed writer leaves them: memtime's
# (with its companion: counts, outline, unpruned detail) of
# tests/progs/grow_kinds.c and Massif's own of the same program, cut
#   - inside a snapshot's header (after a time= line),
#   - inside a detailed snapshot's tree, in the middle of a node line,
#   - the companion inside its last 'dtree:' record, and inside a 'site:'
#     record before its 'end:' line (the live view then cannot say the run
#     is over), mid-line,
#   - Massif's file inside a tree, mid-line.
# The oracles are the files themselves: the line of the cut (the partial
# line, or the one after the last whole line), the snapshots whose header
# is complete (their heap_tree= lines), the last detailed snapshot's
# mem_heap_B, which the exports' stacks must add up to.
. "$(dirname "$0")/lib.sh"
need python3 gnuplot
CASES="header tree dtree site massif"
PER_CASE=20
plan $(( 5 * PER_CASE + 3 ))

A=$(build_prog grow_kinds.c) || { not_ok "build grow_kinds.c"; exit 1; }
mkdir -p "$T/whole"
memtime -q --time-unit=i --memtime-out-file="$T/whole/p.out" "$A" 2>/dev/null
massif --time-unit=i --massif-out-file="$T/whole/m.out" "$A" >/dev/null 2>&1
check "the whole profiles: memtime's with a companion holding detail, Massif's" \
  eval 'grep -q "^dtree:" "$T/whole/p.out.memtime" && grep -q "^site:" "$T/whole/p.out.memtime" && grep -q "^heap_tree=detailed" "$T/whole/m.out"'

# The byte offset where line N (from 1) of FILE starts.
line_start() { head -n $(( $2 - 1 )) "$1" | wc -c; }
# mid FILE N DEST: FILE cut 7 bytes into its line N (or at its end, if
# shorter), which must hold more than 7 bytes.
mid() { head -c $(( $(line_start "$1" "$2") + 7 )) "$1" >"$3"; }
# The line numbers of FILE's lines matching RE.
lines_of() { grep -n -- "$2" "$1" | cut -d: -f1; }

# Each case: a directory holding p.out (and p.out.memtime), the file cut
# (FILE), the line where it ends (LINE), what the warning's tail says.
for c in $CASES; do mkdir -p "$T/$c"; done
# Inside the header of a snapshot in the middle: the file's last line is a
# whole time= line; the cut is on the next one.
n=$(lines_of "$T/whole/p.out" '^time=' | wc -l)
k=$(lines_of "$T/whole/p.out" '^time=' | sed -n "$(( n / 2 ))p")
head -n "$k" "$T/whole/p.out" >"$T/header/p.out"
cp "$T/whole/p.out.memtime" "$T/header/"
header_file=p.out header_line=$(( k + 1 ))
# Inside a tree: the second node line of a detailed snapshot past the middle.
n=$(lines_of "$T/whole/p.out" '^heap_tree=detailed' | wc -l)
k=$(lines_of "$T/whole/p.out" '^heap_tree=detailed' | sed -n "$(( n / 2 + 1 ))p")
mid "$T/whole/p.out" $(( k + 2 )) "$T/tree/p.out"
cp "$T/whole/p.out.memtime" "$T/tree/"
tree_file=p.out tree_line=$(( k + 2 ))
# The companion inside its last dtree: record, and inside its first site:
# record (before end:).
for c in dtree site; do
  cp "$T/whole/p.out" "$T/$c/"
  k=$(lines_of "$T/whole/p.out.memtime" "^$c:" | if [ $c = dtree ]; then tail -n 1; else head -n 1; fi)
  mid "$T/whole/p.out.memtime" "$k" "$T/$c/p.out.memtime"
  eval "${c}_file=p.out.memtime ${c}_line=$k"
done
# Massif's own file, inside the tree of its last detailed snapshot but one.
k=$(lines_of "$T/whole/m.out" '^heap_tree=detailed' | tail -n 2 | head -n 1)
mid "$T/whole/m.out" $(( k + 2 )) "$T/massif/p.out"
massif_file=p.out massif_line=$(( k + 2 ))

# What stays of a cut profile: the snapshots whose heap_tree= line is whole,
# and the last detailed one's number and mem_heap_B.
kept() { head -n "$(wc -l <"$1")" "$1" | grep -c '^heap_tree='; }
last_detailed() {
  head -n "$(wc -l <"$1")" "$1" | awk -F= '/^snapshot=/ { s = $2 } /^mem_heap_B=/ { h = $2 }
    /^heap_tree=(detailed|peak)/ { ls = s; lh = h } END { print ls, lh }'
}
# The exact stderr of one command: the warning and nothing else.
only_warning() { [ "$(wc -l <"$1")" = 1 ] && grep -Eqx -- "$2" "$1"; }
# A command's outcome: "rc" and whether stderr is the warning alone.
ran() {
  local rc=$1 err=$2 want=$3
  if [ "$rc" = "$4" ] && only_warning "$err" "$want"; then return 0; fi
  diag "exit $rc (want $4); stderr:" "$(head -c 2000 "$err")"
  return 1
}

for c in $CASES; do
  D=$T/$c
  eval "F=\$${c}_file L=\$${c}_line"
  N=$(kept "$D/p.out")
  if [ "$F" = p.out ]; then
    tail_re="showing the $N snapshots? before the cut"
    summary_re="^  Warning:    the file is cut short at line $L; $N complete snapshots are shown$"
  else
    tail_re="using its records before the cut"
    summary_re="^  Warning:    the companion is cut short at line $L; its records before the cut are used$"
  fi
  # The warning, as every command prints it (the live view without the
  # program's name): the file and its line, the reader's what and found.
  W="$F:$L: warning: the file is cut short \(expected .*, found .*\); $tail_re"
  WANT="memtime-vis: $W"
  cd "$D" || exit 1

  vis --summary-only p.out >sum.txt 2>err.txt
  check "$c: the summary: exit 0, one warning naming $F:$L" ran $? err.txt "$WANT" 0
  check "$c: the summary says it too" grep -Eq -- "$summary_re" sum.txt

  vis --ms-print-only p.out >ms.txt 2>err.txt
  rc=$?
  check "$c: the ms_print report: exit 0, the warning, the $N snapshots" \
    eval 'ran $rc err.txt "$WANT" 0 && grep -qx "Number of snapshots: $N" ms.txt'

  vis p.out -o c.png 2>err.txt
  rc=$?
  check "$c: the PNG chart: exit 0, the warning, a PNG written" \
    eval 'ran $rc err.txt "$WANT" 0 && [ "$(head -c 4 c.png | od -An -tx1 | tr -d " ")" = 89504e47 ]'

  vis p.out -o c.svg 2>err.txt
  rc=$?
  check "$c: the SVG chart (gnuplot): exit 0, the warning, an SVG written" \
    eval 'ran $rc err.txt "$WANT" 0 && python3 -c "import sys, xml.etree.ElementTree as E; sys.exit(not E.parse(\"c.svg\").getroot().tag.endswith(\"svg\"))"'

  vis p.out -o r.html 2>err.txt
  rc=$?
  check "$c: the HTML report: exit 0, the warning, the page written" \
    eval 'ran $rc err.txt "$WANT" 0 && grep -q "</html>" r.html'

  vis p.out -o c.csv 2>err.txt
  rc=$?
  check "$c: CSV: exit 0, the warning, a row for each of the $N snapshots" \
    eval 'ran $rc err.txt "$WANT" 0 && [ "$(sed 1d c.csv | wc -l)" = "$N" ]'

  vis --json p.out >j.json 2>err.txt
  rc=$?
  check "$c: JSON: exit 0, the warning" ran $rc err.txt "$WANT" 0
  is "$(json_get j.json 'd["cut_short"]')" \
     "[{'file': '$F', 'line': $L}]" "$c: JSON: cut_short names $F and line $L"

  # The exports of the last detailed snapshot (its tree cut, in the tree
  # and Massif cases): the stacks add up to its mem_heap_B all the same.
  read -r snap heap <<<"$(last_detailed p.out)"
  vis p.out --snapshot="#$snap" --flamegraph=f.svg --collapsed=s.txt --pprof=p.pb 2>err.txt
  rc=$?
  check "$c: the exports: exit 0, the warning, the three written" \
    eval 'ran $rc err.txt "$WANT" 0 && [ -s f.svg ] && [ -s s.txt ] && [ -s p.pb ]'
  is "$(awk '{ s += $NF } END { print s }' s.txt)" "$heap" \
     "$c: the collapsed stacks of snapshot $snap add up to its mem_heap_B"
  cut_frame=0
  grep -q '^(the file is cut short: the rest of this tree is not in it)' s.txt && cut_frame=1
  want_cut=0
  case $c in tree|massif) want_cut=1 ;; esac
  is "$cut_frame" "$want_cut" "$c: the bytes the cut tree does not reach are under the cut's own frame ($want_cut)"

  vis diff ../whole/p.out p.out >d.txt 2>err.txt
  rc=$?
  check "$c: diff: exit 0, the warning, the comparison printed" \
    eval 'ran $rc err.txt "$WANT" 0 && grep -q "Total:" d.txt'

  vis check --max-peak=1T p.out >k.txt 2>err.txt
  rc=$?
  check "$c: check: exit 3 (a gate never passes a run seen in part), the warning" ran $rc err.txt "$WANT" 3
  is "$(cat k.txt)" "$F:$L: the file is cut short: a run seen in part cannot pass the check" \
     "$c: check names where the file ends"
  vis check --baseline=p.out --max-increase=1000 ../whole/p.out >k.txt 2>err.txt
  rc=$?
  check "$c: check with the cut file as --baseline: exit 3, the warning, that line first" \
    eval 'ran $rc err.txt "$WANT" 3 && [ "$(head -n 1 k.txt)" = "$F:$L: the file is cut short: a run seen in part cannot pass the check" ]'

  vis ../whole/p.out p.out -o procs.png >o.txt 2>err.txt
  rc=$?
  check "$c: the overview of several profiles (-o PNG): exit 0, the warning, the chart" \
    eval 'ran $rc err.txt "$WANT" 0 && [ -s procs.png ]'
  (cd "$T" && vis "$c") >o.txt 2>err.txt
  rc=$?
  check "$c: the overview of a directory: exit 0, the warning naming $c/$F, one process listed" \
    eval 'ran $rc err.txt "memtime-vis: $c/$W" 0 && [ "$(grep -c "^ *[0-9-]\+ \+[0-9-]" o.txt)" = 1 ]'

  # --follow, without a terminal: the warning as a line of its own, then
  # the line of what was read. A run whose companion lost its end: line
  # never ends by itself: the lines are waited for, then the view is
  # stopped.
  bg_start "$MT_VIS" --follow p.out >f.txt 2>ferr.txt </dev/null
  pid=$!
  wait_until 120 $pid grep -q '\]$' f.txt
  kill_wait $pid
  check "$c: --follow FILE: the warning line, then what was read" \
    eval 'grep -Eqx -- "! $W" f.txt && [ "$(grep -n "^! " f.txt | head -n 1 | cut -d: -f1)" -lt "$(grep -n "\]$" f.txt | head -n 1 | cut -d: -f1)" ] && [ ! -s ferr.txt ]'
  [ -s ferr.txt ] && diag "$(head -c 2000 ferr.txt)"
  bg_start -C "$T" "$MT_VIS" --follow "$c" >fd.txt 2>ferr.txt </dev/null
  pid=$!
  wait_until 120 $pid grep -q -- "warning" fd.txt
  kill_wait $pid
  check "$c: --follow DIR: the warning line under the process, naming $c/$F:$L" \
    eval 'grep -Eqx -- " +! $c/$W" fd.txt && [ ! -s ferr.txt ]'
  cd "$T" || exit 1
done

# The controls: whole files give no warning, and check passes them.
cd "$T/whole" || exit 1
vis --summary-only p.out >/dev/null 2>err.txt
is "$?:$(cat err.txt)" "0:" "control: the whole profile gives no warning"
vis check --max-peak=1T p.out >k.txt 2>err.txt
is "$?:$(cat k.txt err.txt)" "0:" "control: check passes the whole profile, silently"
finish
