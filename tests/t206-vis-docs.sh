#!/usr/bin/env bash
# t206-vis-docs: the samples in docs/file-format.md are real: the profile
# sample is tests/data/small.out byte for byte and both ms_print and
# memtime-vis read it; the companion sample is read by memtime-vis with it,
# its marks and threads reaching the summary. The man page formats cleanly.
. "$(dirname "$0")/lib.sh"
need man
plan 6
doc="$MT_SRC/docs/file-format.md"
# sample NAME: the fenced block after "<!-- sample: NAME -->".
sample() { awk -v m="<!-- sample: $1 -->" '$0 == m {f = 1; next} f && /^```$/ {if (in_) exit; in_ = 1; next} in_' "$doc"; }
mkdir -p "$T/d"
sample tests/data/small.out >"$T/d/small.out"
is_file "$T/d/small.out" "$MT_SRC/tests/data/small.out" "profile sample is tests/data/small.out"
if command -v ms_print >/dev/null; then check "ms_print reads the sample" sh -c "ms_print '$T/d/small.out' >/dev/null 2>&1"
else skip "ms_print is not installed"; fi
sample companion >"$T/d/small.out.memtime"
(cd "$T/d" && vis --summary-only small.out) >"$T/sum.txt" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:" "memtime-vis reads both samples"
check "companion marks reach the summary" grep -q '^      8.79 KiB  phase two: compaction (level 0)$' "$T/sum.txt"
check "companion threads reach the summary" grep -q '^  tid 2          512 B  worker$' "$T/sum.txt"
if command -v man >/dev/null; then
  check "docs/memtime-vis.1 formats without warnings" sh -c "MANWIDTH=80 man --warnings -l '$MT_SRC/docs/memtime-vis.1' 2>&1 >/dev/null | grep -q . && exit 1 || exit 0"
else skip "man is not installed"; fi
finish
