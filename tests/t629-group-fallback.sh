#!/usr/bin/env bash
# t629-group-fallback: --group-by=function on a program whose heap is
# mostly in functions each below the view's threshold (1%), known by
# construction (tests/progs/ns_fallback.cc): the fallback groups take them
# by namespace ("other functions in many": 40 functions of 5000 B), then
# what is left by source file (four namespaces of one 2500 B function and
# three 2000 B functions: 16000 B in ns_fallback.cc), in the summary, the
# JSON, the CSV and the chart's legend alike; a function of its own
# (big::hold, 500000 B) stays itself, and --threshold=0 lists every
# function again.
. "$(dirname "$0")/lib.sh"
need c++ python3
plan 9
cd "$T" || exit 1

P=$(build_prog ns_fallback.cc) || { not_ok "build ns_fallback.cc"; exit 1; }
memtime -q --memtime-out-file=fb.out "$P" 2>err
check "memtime profiles ns_fallback" test -s fb.out

# The peak's groups of ours (lib.sh's peak_sites).
OURS='^(big::|many::|mid::|x0::|few::|other functions)'
is "$(peak_sites fb.out "$OURS" --group-by=function)" \
   "big::hold()=500000 other functions in many=200000 other functions in mid=30000 other functions in ns_fallback.cc=16000" \
   "JSON: big::hold itself; many's 40 and mid's 10 functions by namespace; the rest by file"
is "$(vis --json --group-by=function fb.out | json_get - 'd["grouping"]["fallback"]')" \
   "['namespace', 'file']" "JSON: grouping.fallback names the two levels"
vis --group-by=function fb.out >sum.txt
check "the summary lists the fallback groups" grep -q "other functions in many" sum.txt
check "the summary says the rule" grep -q "fall back to their namespace, then their file" sum.txt
check "no remainder line at the peak: every function is in a named group" \
  sh -c "! sed -n '/^Top groups/,/^\$/p' sum.txt | grep -q \"below the view's threshold\""

vis --group-by=function fb.out -o fb.csv
vis --group-by=function --json fb.out >fb.json
is "$(python3 -c '
import csv, json
peak = str(json.load(open("fb.json"))["peak"]["snapshot"])
rows = list(csv.reader(open("fb.csv")))
cols = rows[0]
row = next(r for r in rows[1:] if r[0] == peak)   # the peak, detailed
print(" ".join("%s=%s" % (c, row[i]) for i, c in enumerate(cols) if c.startswith("other functions in m")))')" \
   "other functions in many=200000 other functions in mid=30000" "CSV: the fallback groups are columns, the same bytes at the peak"

MEMTIME_VIS_DEBUG_LAYOUT=1 vis --group-by=function --top 2 fb.out -o fb.png 2>fb.layout
check "chart: the fallback group is a band, the rest past --top says so (not 'other functions')" \
  sh -c "grep -q '^layout legend 1 other functions in many\$' fb.layout &&
         grep -Eq '^layout legend 2 [0-9]+ more groups \(past --top\)\$' fb.layout"

n=$(peak_sites fb.out "$OURS" --group-by=function --threshold=0 | tr ' ' '\n' | grep -c '^many::f')
is "$n" "40" "--threshold=0: the 40 functions of many each on their own again"
finish
