#!/usr/bin/env bash
# t201-vis-malformed: every file in tests/data/bad/ breaks Massif's grammar in
# one place before its end, or (outline-*) its companion NAME.out.memtime
# breaks the exact outline's rules (docs/file-format.md) in one line: o:
# before outline:, two outline: lines, a width not a power of two, a bucket
# off the grid or out of order, min <= last <= max broken, heap above the
# total, o-rss: out of order. memtime-vis must reject it with exit status 1 and
# exactly the one-line message in tests/expected/bad/NAME.err, and leave no
# output file (PNG or report) behind.
. "$(dirname "$0")/lib.sh"
cd "$MT_SRC/tests/data" || exit 1
files=(bad/*.out)
plan $(( ${#files[@]} * 3 ))
for f in "${files[@]}"; do
  name=$(basename "$f" .out)
  mkdir -p "$T/$name"
  vis "$f" -o "$T/$name/chart.png" --report "$T/$name/report.txt" >"$T/out" 2>"$T/err"
  rc=$?
  is "$rc" 1 "$name: exit status 1"
  is_file "$T/err" "$MT_SRC/tests/expected/bad/$name.err" "$name: the expected one-line message"
  is "$(ls -A "$T/$name")" "" "$name: no output file left behind"
done
finish
