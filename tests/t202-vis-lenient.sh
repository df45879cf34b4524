#!/usr/bin/env bash
# t202-vis-lenient: what memtime-vis accepts beyond the strict grammar.
# A file cut short anywhere after its first snapshot is read up to the cut
# (a one-line warning naming the line, exit 0, the complete snapshots shown);
# cut inside the header it is rejected. CRLF line endings, '#' comment lines
# and blank lines change nothing.
. "$(dirname "$0")/lib.sh"
src="$MT_SRC/tests/data/massif-cxx.out"
size=$(wc -c <"$src")
cuts="700 1500 3000 7777 12345 20000 33333 50001 65536 80000 99999 110000"
plan $(( $(echo $cuts | wc -w) * 3 + 10 ))
mkdir -p "$T/lf" "$T/crlf" "$T/cut"

for c in $cuts; do
  head -c "$c" "$src" >"$T/cut/p.out"
  # Independent count of the snapshots kept: complete "heap_tree=" lines.
  want=$(head -n "$(wc -l <"$T/cut/p.out")" "$T/cut/p.out" | grep -c '^heap_tree=')
  (cd "$T/cut" && vis p.out -o p.png --report p.txt) 2>"$T/err"
  rc=$?
  if [ $rc -eq 0 ] && [ -s "$T/cut/p.png" ] && [ -s "$T/cut/p.txt" ]; then ok "cut at byte $c of $size: chart and report written"
  else not_ok "cut at byte $c of $size: exit $rc"; diag "$(cat "$T/err")"; fi
  if [ "$(wc -l <"$T/err")" = 1 ] && grep -Eq '^memtime-vis: p\.out:[0-9]+: warning: the file is cut short \(expected .*\); showing the [0-9]+ snapshots? before the cut$' "$T/err"
  then ok "cut at byte $c: one warning line naming the line"; else not_ok "cut at byte $c: warning"; diag "$(cat "$T/err")"; fi
  is "$(sed -n 's/^Number of snapshots: //p' "$T/cut/p.txt")" "$want" "cut at byte $c: the $want complete snapshots are reported"
  rm -f "$T/cut/p.png" "$T/cut/p.txt"
done

head -c 60 "$src" >"$T/cut/h.out"
(cd "$T/cut" && vis h.out -o h.png) 2>"$T/err"
is "$?" 1 "cut inside the header: rejected"
check "cut inside the header: no chart written" test ! -e "$T/cut/h.png"

# CRLF: the same report as the LF file (same base name, so the echoed arguments match).
cp "$src" "$T/lf/x.out"
sed 's/$/\r/' "$src" >"$T/crlf/x.out"
(cd "$T/lf" && vis x.out) >"$T/lf.txt" 2>&1
(cd "$T/crlf" && vis x.out) >"$T/crlf.txt" 2>&1
is_file "$T/crlf.txt" "$T/lf.txt" "CRLF line endings: same report as LF"
(cd "$T/lf" && vis --threshold=20 x.out) >"$T/lf.txt" 2>&1
(cd "$T/crlf" && vis --threshold=20 x.out) >"$T/crlf.txt" 2>&1
is_file "$T/crlf.txt" "$T/lf.txt" "CRLF line endings, --threshold=20: same report as LF"
(cd "$T/lf" && vis --summary-only x.out --top=3) >"$T/lf.txt" 2>&1
(cd "$T/crlf" && vis --summary-only x.out --top=3) >"$T/crlf.txt" 2>&1
is_file "$T/crlf.txt" "$T/lf.txt" "CRLF line endings: same summary as LF"
check "CRLF: no carriage return in the output" sh -c "! grep -q \$(printf '\\r') '$T/crlf.txt'"

# Comment and blank lines everywhere (ms_print skips them too): same output as ms_print.
mkdir -p "$T/com"
awk '{print} NR % 5 == 0 {print "# a comment line"} NR % 7 == 0 {print ""} NR % 11 == 0 {print "   "}' "$src" >"$T/com/x.out"
(cd "$T/com" && vis --ms-print-only x.out) >"$T/com.txt" 2>"$T/err"
is "$?" 0 "comment and blank lines: accepted"
if command -v ms_print >/dev/null; then
  (cd "$T/com" && ms_print x.out) >"$T/com.ms" 2>/dev/null
  is_file "$T/com.txt" "$T/com.ms" "comment and blank lines: identical to ms_print"
  # A high threshold: most subtrees are skipped by the report's walk, with
  # comment and blank lines inside them and at their ends.
  (cd "$T/com" && vis --ms-print-only --threshold=20 x.out) >"$T/com20.txt" 2>&1
  (cd "$T/com" && ms_print --threshold=20 x.out) >"$T/com20.ms" 2>/dev/null
  is_file "$T/com20.txt" "$T/com20.ms" "comment and blank lines, --threshold=20: identical to ms_print"
else skip "ms_print is not installed"; skip "ms_print is not installed"; fi
(cd "$T/lf" && vis --ms-print-only x.out) >"$T/lf.txt" 2>&1
is_file "$T/com.txt" "$T/lf.txt" "comment and blank lines: same report as without them"
finish
