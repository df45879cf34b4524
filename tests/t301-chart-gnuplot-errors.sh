#!/usr/bin/env bash
# t301: memtime-vis's gnuplot outputs (a self-contained script; SVG and PDF
# rendered through gnuplot) and the chart writers' error paths: a clear
# message, a non-zero exit and no output file (nor temporary) left behind.
. "$(dirname "$0")/lib.sh"
need gnuplot
[ -x "$MT_VIS" ] || plan_skip "memtime-vis not built ($MT_VIS)"
plan 19
FIX="$T/in/chart-steps.massif"
mkdir -p "$T/in" "$T/out" "$T/elsewhere"
cp "$MT_SRC/tests/data/chart-steps.massif" "$FIX"
cp "$MT_SRC/tests/data/chart-steps.massif.memtime" "$FIX.memtime"
# leftovers DIR: files other than the expected ones (temporaries end in .tmpXXXXXX)
leftovers() { ls -A "$1" | grep -c '\.tmp' ; }

# --- the script ---------------------------------------------------------------
vis "$FIX" --gnuplot "$T/out/timeline.gp" 2>"$T/err"
check "--gnuplot writes a script" test -s "$T/out/timeline.gp"
grep -q '^\$data << EOD$' "$T/out/timeline.gp"
check "its data is inline" test $? = 0
# Self-contained: it names no file but its own default output.
# (The footnote names the profile, as the PNG's does: a label, not a read.)
is "$(grep -v -e '^#' -e '^set label' "$T/out/timeline.gp" | grep -c 'chart-steps.massif')" 0 "it reads no data file"
n_rows=$(sed -n '/^\$data << EOD$/,/^EOD$/p' "$T/out/timeline.gp" | grep -c '^[0-9]')
is "$n_rows" 21 "one row for the first snapshot, two (old and new value) for each later one"
# The stacked boundaries at the peak row, in bytes: 12, 14, 15, 15, 15, 15.5,
# 15.75 MiB (grow_a, grow_b, the map site, other, unattributed, extra, stacks).
grep -q '^300 0 12582912 14680064 15728640 15728640 15728640 16252928 16515072$' "$T/out/timeline.gp"
check "the peak row holds the cumulative bands in bytes" test $? = 0
grep -q 'title "grow_a (chart.c:10)  \[12.0 MiB\]"' "$T/out/timeline.gp"
check "bands are titled like the PNG's legend" test $? = 0

if command -v gnuplot >/dev/null 2>&1; then
  # Run the script from another directory, copied there alone.
  cp "$T/out/timeline.gp" "$T/elsewhere/t.gp"
  (cd "$T/elsewhere" && gnuplot t.gp) 2>"$T/gperr"
  check "gnuplot runs the script alone, writing timeline.svg where it runs" test -s "$T/elsewhere/timeline.svg"
  grep -q '<svg' "$T/elsewhere/timeline.svg" && grep -q 'rgb( 78, 121, 167)' "$T/elsewhere/timeline.svg"
  check "the SVG draws the top site's band colour" test $? = 0
  vis "$FIX" -o "$T/out/timeline.svg" 2>"$T/err"
  check "-o .svg renders through gnuplot" sh -c "grep -q '<svg' '$T/out/timeline.svg'"
  vis "$FIX" -o "$T/out/timeline.pdf" 2>"$T/err"
  is "$(head -c 5 "$T/out/timeline.pdf" 2>/dev/null)" "%PDF-" "-o .pdf renders a PDF"
  is "$(leftovers "$T/out")" 0 "no temporaries left after rendering"
else
  for i in 1 2 3 4 5; do skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done
fi

# Without gnuplot on PATH: a clear error and no file.
mkdir -p "$T/bin"
ln -sf "$MT_VIS" "$T/bin/memtime-vis"
PATH="$T/bin" "$T/bin/memtime-vis" "$FIX" -o "$T/out/nognuplot.svg" 2>"$T/err"
rc=$?
check "no gnuplot: non-zero exit" test $rc -ne 0
grep -q 'gnuplot is not installed' "$T/err"
check "no gnuplot: says so" test $? = 0
check "no gnuplot: no file" test ! -e "$T/out/nognuplot.svg"

# --- PNG error paths --------------------------------------------------------------
vis "$FIX" -o "$T/missing-dir/x.png" 2>"$T/err"
rc=$?
check "missing directory: non-zero exit" test $rc -ne 0
grep -q 'x.png' "$T/err"
check "missing directory: the message names the file" test $? = 0
touch "$T/afile"
vis "$FIX" -o "$T/afile/x.png" 2>/dev/null
check "a file as the directory: non-zero exit" test $? -ne 0
# A bad size is a usage error (exit 2), checked before anything is written:
# an existing file stays untouched and no temporary is left.
printf 'old' >"$T/out/keep.png"
vis "$FIX" -o "$T/out/keep.png" --width 9000 2>"$T/err"
rc=$?
is "$rc:$(cat "$T/out/keep.png")" "2:old" "bad size: usage error (exit 2), the old file untouched"
is "$(leftovers "$T/out")" 0 "no temporaries left after errors"
finish
