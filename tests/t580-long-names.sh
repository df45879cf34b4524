#!/usr/bin/env bash
# t580: symbol names of any length. A C++ program whose allocation sites'
# demangled names run to 6.8 million and 426 thousand characters (nested
# templates, tests/progs/long_names.cc): memtime must not crash (it died
# with signal 11 on a name copied to its 1 MiB stack, then on the core's
# pattern matcher, which asserts on inputs of a million characters), its
# file must equal Massif's apart from desc: and code addresses, and
# ms_print and memtime-vis must read it.
. "$(dirname "$0")/lib.sh"
plan 8

p=$(build_prog long_names.cc) || { not_ok "build long_names.cc"; exit 1; }
B="--time-unit=B --peak-inaccuracy=0.0 --detailed-freq=2"

massif  $B --massif-out-file="$T/ln.ms" "$p" >/dev/null 2>"$T/ms.err"
memtime $B --memtime-out-file="$T/ln.mt" "$p" >/dev/null 2>"$T/mt.err"
is "$?" 0 "memtime exits 0 on names of millions of characters"
if grep -q "INTERNAL ERROR\|Assertion\|impossible" "$T/mt.err"; then
  not_ok "no internal error"; head -5 "$T/mt.err" | diag "$(cat)"
else ok "no internal error"; fi
longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/ln.mt")
if [ "$longest" -gt 6000000 ]; then ok "a tree line of $longest characters"
else not_ok "the longest tree line has only $longest characters"; fi
normalised "$T/ln.ms" >"$T/ms.all"
normalised "$T/ln.mt" >"$T/mt.all"
is_file "$T/mt.all" "$T/ms.all" "same file as Massif's apart from desc: and addresses"
check "ms_print reads it" sh -c "ms_print '$T/ln.mt' >'$T/ln.txt'"
# By site: the name of the one site is what is checked (grouped by
# namespace, the default for C++, the namespace-less grow is one group).
vis --group-by=site "$T/ln.mt" >"$T/vis.txt" 2>"$T/vis.err"
is "$?" 0 "memtime-vis reads it"
check "the summary names grow<…>(…), its template arguments elided (memtime-vis.1, NAMES)" grep -q '^ *1\. .*void\* grow<…>(…) @0x[0-9A-F]* (long_names.cc:[0-9]*)$' "$T/vis.txt"

# The default time unit (samples, final snapshot, companion file) too.
memtime --memtime-out-file="$T/ms-unit.mt" "$p" >/dev/null 2>"$T/ms-unit.err"
is "$?" 0 "memtime exits 0 with --time-unit=ms"
finish
