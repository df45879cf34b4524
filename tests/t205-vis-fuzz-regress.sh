#!/usr/bin/env bash
# t205-vis-fuzz-regress: replays every input kept in tests/data/fuzz-regress/
# (crashers found by tests/fuzz/run.sh and hand-made extremes), every fixture
# in tests/data, and a tree deeper than memtime-vis accepts, through the
# build-tree memtime-vis (ASan/UBSan in the test build) with the text report
# and the PNG chart (plus a label longer than the read buffer): the exit status must be 0 or 1, stderr one line at most
# (the error or the cut-short warning), and no sanitizer report.
. "$(dirname "$0")/lib.sh"
d="$MT_SRC/tests/data"
{ printf 'desc: deep\ncmd: x\ntime_unit: i\nsnapshot=0\ntime=0\nmem_heap_B=10\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=peak\n'
  awk 'BEGIN { s = ""; for (i = 0; i < 4200; i++) { print s "n1: 10 f" i; s = s " " } }'; } >"$T/deep-tree.out"
# A label longer than the reader's 1 MiB buffer.
{ printf 'desc: long\ncmd: x\ntime_unit: i\nsnapshot=0\ntime=0\nmem_heap_B=10\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=peak\nn1: 10 root\n n0: 10 0x1: '
  head -c 3000000 /dev/zero | tr '\0' 'x'; printf ' (a.c:1)\n'; } >"$T/long-label.out"
files=("$d"/fuzz-regress/* "$d"/*.out "$d"/*.massif "$d"/bad/*.out "$T/deep-tree.out" "$T/long-label.out")
plan ${#files[@]}
for f in "${files[@]}"; do
  [ -f "$f" ] || { skip "$f: not a file"; continue; }
  rm -f "$T/x.png" "$T/x.txt"
  vis "$f" -o "$T/x.png" --report "$T/x.txt" >/dev/null 2>"$T/err"
  rc=$?
  name=${f#"$d"/}
  if { [ $rc -eq 0 ] || [ $rc -eq 1 ]; } && [ "$(wc -l <"$T/err")" -le 1 ] \
     && ! grep -q -e 'Sanitizer' -e 'runtime error' "$T/err" \
     && { [ $rc -eq 1 ] || [ -s "$T/x.png" ]; } && { [ $rc -eq 0 ] || [ -s "$T/err" ]; }
  then ok "$name: exit $rc, clean"
  else not_ok "$name: exit $rc"; head -20 "$T/err" | diag "$(cat)"; fi
done
finish
