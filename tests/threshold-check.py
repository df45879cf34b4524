#!/usr/bin/env python3
"""tests/threshold-check.py ALL.json VIEW.json: checks the view's threshold
memtime-vis chose without --threshold (VIEW.json, "grouping": "threshold",
"threshold_adapted") against every group of the peak's tree (ALL.json, the
same grouping at --threshold=0), by the rule of docs/memtime-vis.1: from
1% down, one group at a time, until what stays below holds at most 5% of
the peak's heap, 20 groups stand above, or the next group is under 0.1%;
the threshold printed with two decimals, at most the last group's share.
Function and file views are not lowered (their fallback groups name what
falls below, groups.h): 1%, not adapted. Prints "threshold T adapted A remainder R%" and exits 1 on a mismatch."""
import json
import math
import sys

alls = json.load(open(sys.argv[1]))
view = json.load(open(sys.argv[2]))
if view['grouping']['by'] in ('function', 'file'):
    g = view['grouping']
    print('threshold %.2f adapted %s (a %s view: not lowered)' % (g['threshold'], g['threshold_adapted'], g['by']))
    sys.exit(0 if abs(g['threshold'] - 1.0) < 1e-9 and not g['threshold_adapted'] else 1)
pk = alls['peak']
heap = pk['heap_bytes']
shares = sorted((100.0 * s['bytes'] / heap for s in pk['sites']
                 if not s['site'].startswith('in ')), reverse=True)
t = 1.0
above = sum(1 for x in shares if x >= t)
rest = sum(x for x in shares if x < t)
for x in shares:
    if rest <= 5.0 or above >= 20:
        break
    if x >= 1.0:
        continue
    if x < 0.1:
        break
    t = math.floor(x * 100.0) / 100.0
    rest -= x
    above += 1
# What stays below the chosen threshold (groups at the cut's two decimals
# stay above it too).
rest = sum(x for x in shares if x < t)
g = view['grouping']
got, adapted = g['threshold'], g['threshold_adapted']
print('threshold %.2f adapted %s remainder %.1f%% (want %.2f)' % (got, adapted, rest, t))
ok = abs(got - t) < 0.005 and adapted == (abs(t - 1.0) > 1e-9)
# The view's own remainder line at the peak holds what the rule left.
line = [s for s in view['peak']['sites'] if s['site'].startswith('in ')]
if line:
    r = 100.0 * sum(s['bytes'] for s in line) / heap
    ok = ok and abs(r - rest) < 0.05
    print('view remainder %.2f%%' % r)
sys.exit(0 if ok else 1)
