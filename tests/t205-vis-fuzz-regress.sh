#!/usr/bin/env bash
# t205-vis-fuzz-regress: replays every input kept in tests/data/fuzz-regress/
# (crashers found by tests/fuzz/run.sh and hand-made extremes), every fixture
# in tests/data and a label longer than the read buffer through the
# build-tree memtime-vis (ASan/UBSan in the test build) with the text report
# and the PNG chart: the exit status must be 0 or 1, stderr one line at most
# (the error or the cut-short warning), and no sanitizer report. An input
# holding a line "memtime-companion: 1" is a profile followed by its
# companion (the fuzz harness splits it there, tests/fuzz/fuzz_parser.c):
# it is split the same way, the companion put beside the profile.
# Deep trees have one defined outcome (docs/memtime-vis.1): a tree of 4096
# levels, the limit, is read whole (its report is ms_print's, line for
# line); one level more (4097, and the 4200 of an old crasher) is rejected
# with the one-line error naming the limit, and no output file is written.
. "$(dirname "$0")/lib.sh"
d="$MT_SRC/tests/data"
# deep_tree LEVELS: a snapshot whose peak tree is a chain LEVELS deep.
deep_tree() {
  printf 'desc: deep\ncmd: x\ntime_unit: i\nsnapshot=0\ntime=0\nmem_heap_B=10\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=peak\n'
  awk -v n="$1" 'BEGIN { s = ""; for (i = 0; i < n; i++) { print s "n" (i < n - 1) ": 10 f" i; s = s " " } }'
}
# A label longer than the reader's 1 MiB buffer.
{ printf 'desc: long\ncmd: x\ntime_unit: i\nsnapshot=0\ntime=0\nmem_heap_B=10\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=peak\nn1: 10 root\n n0: 10 0x1: '
  head -c 3000000 /dev/zero | tr '\0' 'x'; printf ' (a.c:1)\n'; } >"$T/long-label.out"
files=("$d"/fuzz-regress/* "$d"/*.out "$d"/*.massif "$d"/bad/*.out "$T/long-label.out"
       "$MT_SRC"/tests/fuzz/seeds/*)
plan $(( ${#files[@]} + 8 ))
for f in "${files[@]}"; do
  [ -f "$f" ] || { skip "$f: not a file"; continue; }
  rm -f "$T/x.png" "$T/x.txt" "$T/split.out" "$T/split.out.memtime"
  in=$f
  if grep -aqx 'memtime-companion: 1' "$f"; then
    awk -v a="$T/split.out" -v b="$T/split.out.memtime" \
      '/^memtime-companion: 1$/ { c = 1 } { print > (c ? b : a) }' "$f"
    in=$T/split.out
  fi
  vis "$in" -o "$T/x.png" --report "$T/x.txt" >/dev/null 2>"$T/err"
  rc=$?
  name=${f#"$d"/}
  if { [ $rc -eq 0 ] || [ $rc -eq 1 ]; } && [ "$(wc -l <"$T/err")" -le 1 ] \
     && ! grep -q -e 'Sanitizer' -e 'runtime error' "$T/err" \
     && { [ $rc -eq 1 ] || [ -s "$T/x.png" ]; } && { [ $rc -eq 0 ] || [ -s "$T/err" ]; }
  then ok "$name: exit $rc, clean"
  else not_ok "$name: exit $rc"; head -20 "$T/err" | diag "$(cat)"; fi
done

# --- deep trees
deep_tree 4096 >"$T/d4096.out"
rm -f "$T/x.png" "$T/x.txt"
vis "$T/d4096.out" -o "$T/x.png" --report "$T/x.txt" >/dev/null 2>"$T/err"
is "$?:$(cat "$T/err")" "0:" "4096 levels (the limit): read, exit 0, nothing on stderr"
check "4096 levels: the chart and the report are written" test -s "$T/x.png" -a -s "$T/x.txt"
vis --ms-print-only "$T/d4096.out" >"$T/vis.txt" 2>/dev/null
ms_print "$T/d4096.out" >"$T/ms.txt" 2>/dev/null   # (Perl warns of deep recursion)
check "4096 levels: ms_print's report shows the deepest node" grep -q ' f4095$' "$T/ms.txt"
is_file "$T/vis.txt" "$T/ms.txt" "4096 levels: memtime-vis's report is ms_print's, line for line"
for n in 4097 4200; do
  deep_tree $n >"$T/d$n.out"
  rm -f "$T/x.png" "$T/x.txt"
  vis "$T/d$n.out" -o "$T/x.png" --report "$T/x.txt" >/dev/null 2>"$T/err"
  rc=$?
  # Line 4105 is the 4096th level's node, which claims a child.
  want="memtime-vis: $T/d$n.out:4105: expected a tree at most 4096 levels deep, found '$(printf '%60s' '')...'"
  is "$rc:$(cat "$T/err")" "1:$want" "$n levels: rejected, exit 1, one line naming the 4096-level limit"
  check "$n levels: no chart and no report written" test ! -e "$T/x.png" -a ! -e "$T/x.txt"
done
finish
