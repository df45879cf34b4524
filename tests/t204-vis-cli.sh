#!/usr/bin/env bash
# t204-vis-cli: memtime-vis's command line: usage errors exit 2 with a hint,
# data and I/O errors exit 1 with one line, stdout is checked on close, the
# report and chart files are written whole (no temporary file left behind;
# the chart decodes with libpng to a non-blank image),
# and option spellings agree.
. "$(dirname "$0")/lib.sh"
plan 28
cd "$T" || exit 1
cp "$MT_SRC/tests/data/massif-B.out" p.out

vis --help >out.txt 2>err.txt
is "$?" 0 "--help: exit 0"
check "--help: usage on stdout" grep -q '^usage: memtime-vis \[options\] FILE' out.txt
vis --version >out.txt
check "--version names the program" grep -q '^memtime-vis [0-9]' out.txt

usage() {   # DESCRIPTION EXPECTED-FIRST-LINE ARGS...
  local d=$1 want=$2; shift 2
  vis "$@" >out.txt 2>err.txt
  local rc=$?
  if [ $rc -eq 2 ] && [ "$(head -1 err.txt)" = "$want" ] && grep -q "^Try 'memtime-vis --help'" err.txt && [ ! -s out.txt ]
  then ok "$d: exit 2 and '$want'"; else not_ok "$d"; diag "exit $rc" "$(cat err.txt)"; fi
}
usage "no input" "memtime-vis: expected an input FILE"
usage "several inputs (one per process) take no report option" "memtime-vis: with several profiles only -o IMG.png, --width and --height apply" --gnuplot=x.gp p.out p.out
usage "unknown option" "memtime-vis: unknown option '--frobnicate'" --frobnicate p.out
usage "threshold out of range" "memtime-vis: --threshold expects a percentage from 0 to 100, got '101'" --threshold=101 p.out
usage "graph too narrow" "memtime-vis: --x expects a whole number from 4 to 1000, got '3'" --x=3 p.out
usage "missing value" "memtime-vis: option '-o' needs a value" p.out -o
usage "unknown image type" "memtime-vis: -o expects a file name ending in .png, .svg, .pdf, .csv or .html, got 'x.bmp'" -o x.bmp p.out
usage "exclusive report parts" "memtime-vis: --summary-only and --ms-print-only exclude each other" --summary-only --ms-print-only p.out

vis nope.out >out.txt 2>err.txt
is "$?" 1 "missing input: exit 1"
is "$(cat err.txt)" "memtime-vis: nope.out: cannot open: No such file or directory" "missing input: one line"
mkdir adir
vis adir >out.txt 2>err.txt
is "$?:$(wc -l <err.txt)" "1:1" "a directory as input: exit 1, one line"

if [ -w /dev/full ]; then
  vis p.out >/dev/full 2>err.txt
  is "$?" 1 "stdout on a full disk: exit 1"
  check "stdout on a full disk: says so" grep -q '^memtime-vis: stdout: write error' err.txt
else skip "no /dev/full"; skip "no /dev/full"; fi

vis p.out >stdout.txt
vis p.out --report report.txt >out.txt
is_file report.txt stdout.txt "--report FILE: the same text as stdout"
is "$(ls -A | grep -c tmp)" 0 "--report FILE: no temporary file left"
check "--report FILE: nothing on stdout" test ! -s out.txt
vis p.out --report nodir/report.txt 2>err.txt
is "$?:$(cat err.txt)" "1:memtime-vis: cannot create nodir/report.txt: No such file or directory" "--report into a missing directory: exit 1, one line"

# The report walks its trees from the profile itself: no temporary file,
# so an unusable TMPDIR changes nothing.
vis p.out >want.txt 2>/dev/null
TMPDIR="$T/nonexistent" vis p.out >out.txt 2>err.txt
is "$?:$(cat err.txt)" "0:" "unusable TMPDIR: the report needs no temporary file (exit 0, silent)"
check "  ... and is the same report" cmp -s out.txt want.txt

vis --ms-print-only --threshold 2.5 --x 50 p.out >a.txt
vis --ms-print-only --threshold=2.5 --x=50 p.out >b.txt
is_file a.txt b.txt "'--opt value' and '--opt=value' agree"

vis p.out -o chart.png >out.txt 2>err.txt
is "$?" 0 "-o chart.png: exit 0"
check "-o chart.png: nothing printed" sh -c "[ ! -s out.txt ] && [ ! -s err.txt ]"
# The whole PNG decodes (libpng, tests/pngcheck.c) to the default size and
# holds a chart: the first site's colour and the total line, not a blank.
PNGCHECK=$(build_pngcheck)
is "$("$PNGCHECK" chart.png size 2>&1)" "1600 900" "-o chart.png: decodes whole, 1600x900"
white=$("$PNGCHECK" chart.png count FFFFFF 2>&1)
site=$("$PNGCHECK" chart.png count 4E79A7 2>&1)
line=$("$PNGCHECK" chart.png count 1A1A1A 2>&1)
check "-o chart.png: not blank ($white white, $site of the first site's colour, $line of the total line's)" \
  test "$white" -lt $((1600 * 900)) -a "$site" -ge 10000 -a "$line" -ge 1000
is "$(ls -A | grep -c tmp)" 0 "-o chart.png: no temporary file left"
finish
