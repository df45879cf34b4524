#!/usr/bin/env bash
# t580: symbol names of any length. A C++ program whose allocation sites'
# demangled names run to 6.8 million and 426 thousand characters (nested
# templates, tests/progs/long_names.cc): memtime must not crash (it died
# with signal 11 on a name copied to its 1 MiB stack, then on the core's
# pattern matcher, which asserts on inputs of a million characters), its
# file must equal Massif's apart from desc: and code addresses, and
# ms_print and memtime-vis must read it.
. "$(dirname "$0")/lib.sh"
need c++ python3
plan 10

p=$(build_prog long_names.cc) || { not_ok "build long_names.cc"; exit 1; }
B="--time-unit=B --peak-inaccuracy=0.0 --detailed-freq=4"   # 5 detailed trees, a 29 MB file

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
# By site: the name of one site is what is checked (the default groups
# by function, below).
vis --group-by=site "$T/ln.mt" >"$T/vis.txt" 2>"$T/vis.err"
is "$?" 0 "memtime-vis reads it"
check "the summary names grow<…>(…), its template arguments elided (memtime-vis.1, NAMES)" grep -q '^ *1\. .*void\* grow<…>(…) @0x[0-9A-F]* (long_names.cc:[0-9]*)$' "$T/vis.txt"

# The default grouping: its C++ functions are global templates, in no
# namespace, so grouping by namespace would make one fallback group
# "(debug info: no object)"; the default rule (model/groups.h) takes the
# functions instead and says why. The two grow<...> instances hold 2/3 and
# 1/3 of the heap at the peak (tests/progs/long_names.cc).
vis --json "$T/ln.mt" >"$T/auto.json" 2>"$T/auto.err"
is "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
g = d["grouping"]
sites = sorted(d["peak"]["sites"], key=lambda s: -s["bytes"])
print(g["by"], g["by_default"], g["default_reason"])
print(len(sites), all("grow<" in s["site"] for s in sites), sites[0]["bytes"] == 2 * sites[1]["bytes"])' "$T/auto.json")" \
   "function True C++ functions outside namespaces hold most of the heap
2 True True" "the default grouping of a C++ program of global functions: by function, with its reason, two groups"
vis "$T/ln.mt" >"$T/auto.txt" 2>&1
check "the summary names the default and its reason, and no fallback group" sh -c \
  "grep -q 'Top groups by function (the default for this program: C++ functions outside namespaces hold most of the heap; --group-by)' '$T/auto.txt' && ! grep -q 'debug info: no object' '$T/auto.txt'"

# The default time unit (samples, final snapshot, companion file) too.
memtime --memtime-out-file="$T/ms-unit.mt" "$p" >/dev/null 2>"$T/ms-unit.err"
is "$?" 0 "memtime exits 0 with --time-unit=ms"
finish
