#!/usr/bin/env bash
# t584: a server of many processes (tests/progs/fork_titles.c): a parent
# with an early 8,000,000 B peak forks three children that rename
# themselves (prctl, argv rewritten in place, prctl); one exits 0, one
# exits 3, one is killed with SIGKILL once its profile shows its
# 3,000,000 B. Checked: each child's profile is its own (starts at the
# fork, none of the parent's peak), the parent marks each fork, the
# companions record who is who and how each ended, and memtime-vis lists
# the processes of a directory and draws them on one time axis.
. "$(dirname "$0")/lib.sh"
plan 26

P=$(build_prog fork_titles.c) || { not_ok "build fork_titles.c"; exit 1; }
d=$T/run; mkdir -p "$d"
(cd "$d" && memtime -q --memtime-out-file="$d/ft.%p.out" "$P" "$d/ft.%d.out") 2>"$T/err"
is "$?" 0 "the run ends with status 0"
parent=$(sed -n 's/^process: pid=\([0-9]*\) .*began=launched$/\1/p' "$d"/*.memtime)
kid() { grep -l "^title: .* $1\$" "$d"/*.memtime | sed 's/.*ft\.\([0-9]*\)\.out\.memtime/\1/'; }
k1=$(kid mt-worker-1); k2=$(kid 'mt: worker two'); k3=$(kid mt-victim)
is "$(ls "$d" | grep -vc '\.memtime$')" 4 "four profiles"
check "the parent is known ($parent), so are its children ($k1 $k2 $k3)" test -n "$parent$k1" -a -n "$k2" -a -n "$k3"
pc=$d/ft.$parent.out.memtime
is "$(grep -c "^fork: time=[0-9]* child=\($k1\|$k2\|$k3\)\$" "$pc")" 3 "the parent records its three forks"
is "$(grep -c "^mark: time=[0-9]* fork \($k1\|$k2\|$k3\)\$" "$pc")" 3 "... and marks each"
check "it records how child 1 ended: exit 0" grep -q "^child-ended: time=[0-9]* pid=$k1 exit=0\$" "$pc"
check "child 2: exit 3" grep -q "^child-ended: time=[0-9]* pid=$k2 exit=3\$" "$pc"
check "child 3: killed by signal 9" grep -q "^child-ended: time=[0-9]* pid=$k3 signal=9\$" "$pc"
check "its own end: exit 0" grep -q "^ended: time=[0-9]* exit=0\$" "$pc"
check "its command line" grep -qxF "command: $P $d/ft.%d.out" "$pc"

for k in $k1 $k2 $k3; do
  f=$d/ft.$k.out
  start=$(sed -n "s/^process: pid=$k parent=$parent start=\([0-9]*\) .*began=fork of $parent\$/\1/p" "$f.memtime")
  is "$(awk '/^snapshot=1$/ {exit} /^(time|heap_tree)=/' "$f" | tr '\n' ' ')" "time=$start heap_tree=detailed " \
    "child $k: its profile starts at the fork (time=$start on the parent's clock), detailed"
done
rss_own=yes
for k in $k1 $k2 $k3; do
  st=$(sed -n 's/^process: .* start=\([0-9]*\) .*/\1/p' "$d/ft.$k.out.memtime")
  rt=$(sed -n 's/^rss-peak: time=\([0-9]*\) .*/\1/p' "$d/ft.$k.out.memtime")
  [ -n "$rt" ] && [ "$rt" -ge "$st" ] || rss_own="no: child $k peak at ${rt:-none}, started $st"
done
is "$rss_own" yes "each child's RSS peak is its own (read at or after its fork)"
check "child 1 renamed itself by prctl" grep -q "^title: time=[0-9]* via=prctl mt-worker-1\$" "$d/ft.$k1.out.memtime"
check "... and its thread naming itself is not a title" sh -c "! grep -q 'mt-thread' '$d/ft.$k1.out.memtime'"
check "child 2 by rewriting its argv" grep -q "^title: time=[0-9]* via=argv mt: worker two\$" "$d/ft.$k2.out.memtime"
check "child 2 recorded its exit 3" grep -q "^ended: time=[0-9]* exit=3\$" "$d/ft.$k2.out.memtime"
check "the killed child recorded no end (it could not)" sh -c "! grep -q '^ended:' '$d/ft.$k3.out.memtime'"
is "$(max_heap "$d/ft.$k2.out") $(max_heap "$d/ft.$k3.out")" "2000000 3000000" \
  "the children's peaks are their own (2,000,000 and 3,000,000 B; the parent's 8,000,000 is not theirs)"
check "the parent's profile holds its 8,000,000 B" test "$(max_heap "$d/ft.$parent.out")" -ge 8000000

vis "$d" >"$T/list.txt" 2>"$T/list.err"
is "$?" 0 "memtime-vis lists a directory of profiles"
is "$(awk 'NR > 2 { print $1, $2 }' "$T/list.txt" | head -1)" "$parent $(sed -n "s/^process: pid=$parent parent=\([0-9]*\) .*/\1/p" "$pc")" \
  "the parent first (start order), with its own parent"
is "$(awk -v k=$k3 '$1 == k' "$T/list.txt" | grep -c 'killed (SIGKILL) .*mt-victim$')" 1 \
  "the victim's line: killed (SIGKILL), its title"
is "$(awk -v k=$k2 '$1 == k' "$T/list.txt" | grep -c "^ *$k2 *$parent .* exit 3 *1.91 MiB .*mt: worker two\$")" 1 \
  "child 2's line: its parent, exit 3, its peak, its title"

PNGCHECK=$(build_pngcheck) || { not_ok "build pngcheck"; exit 1; }
vis "$d"/ft.*.out -o "$T/all.png" 2>"$T/png.err"
check "-o all.png draws them on one time axis, the killed one named in red" \
  sh -c "test \"\$('$PNGCHECK' '$T/all.png' count C62828)\" -gt 20 && test \"\$('$PNGCHECK' '$T/all.png' count 4C78A8)\" -gt 100"
finish
