#!/usr/bin/env python3
"""tests/burst-stamps.py: holds memtime's exact outline of a real run of
tests/progs/bursts.c against the program's own stamps (t597).

  burst-stamps.py EVENTS PROFILE SPEEDUP truth         burstcheck.py's truth
  burst-stamps.py EVENTS PROFILE SPEEDUP json FILE     memtime-vis --json
  burst-stamps.py EVENTS PROFILE SPEEDUP csv FILE      NAME.outline.csv
  burst-stamps.py EVENTS PROFILE SPEEDUP tops          the profile's trees

The program stamps each burst's malloc and free between two reads of
CLOCK_MONOTONIC, and the MEMTIME_MARK("anchor") it makes first the same way;
the companion's mark gives the anchor's time on memtime's clock, so every
burst's true interval on that clock is known within the brackets, widened by
memtime's documented clock error (2 ms, times the test hook's speed-up) and
the outline's bucket width. The outline (read from the companion here, from
the JSON or the CSV in the other modes) must reach, inside each burst's
interval, at least 95% of the burst's size above the total it held just
before. Prints "bursts N LOW" and the first failures; exits 1 on any.
In "tops" mode, prints how many bursts have a detailed snapshot of the
profile inside them at >= 95% of their size above the level before."""
import csv
import json
import re
import sys

events, profile, speed, mode = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]

anchor, bursts = None, []
for line in open(events):
    f = line.split()
    if f[0] == 'anchor':
        anchor = (int(f[1]), int(f[2]))
    elif f[0] == 'burst':
        bursts.append([int(x) for x in f[1:]])

mark, width, spans = None, None, []
for line in open(profile + '.memtime'):
    line = line.rstrip('\n')
    if line.startswith('mark: ') and line.endswith(' anchor'):
        mark = int(line.split()[1].split('=')[1])
    elif line.startswith('outline: '):
        width = int(line.split()[1].split('=')[1])
    elif line.startswith('o: '):
        s, mn, mx, last = (int(v) for v in line.split()[1:5])
        spans.append((s, s + width, mn, mx, last))
assert anchor and mark is not None and width, 'no anchor, mark or outline'

if mode == 'json':
    doc = json.load(open(sys.argv[5]))
    spans = [(o['start'], o['end'], o['min_bytes'], o['max_bytes'], o['last_bytes'])
             for o in doc['outline']]
elif mode == 'csv':
    rows = list(csv.DictReader(open(sys.argv[5])))
    spans = [(int(r['start']), int(r['end']), int(r['min_bytes']), int(r['max_bytes']),
              int(r['last_bytes'])) for r in rows]


def on_clock(ns, lo):
    """A program time on memtime's clock: the earliest (lo) or latest it
    can be, from the anchor's brackets."""
    return mark + ((ns - anchor[1]) if lo else (ns - anchor[0])) / 1e6 * speed


tol = 2 * speed + width
snaps = []
if mode == 'tops':
    txt = open(profile).read()
    snaps = [(int(t), int(h) + int(x) + int(s)) for t, h, x, s, k in re.findall(
        r"time=(\d+)\nmem_heap_B=(\d+)\nmem_heap_extra_B=(\d+)\nmem_stacks_B=(\d+)\nheap_tree=(\w+)",
        txt) if k != 'empty']
n = low = tops = 0
out = []
for k, size, b1, a1, b2, a2, level_B in bursts:
    s, e = on_clock(b1, True) - tol, on_clock(a2, False) + tol
    before = [sp for sp in spans if sp[1] <= s]
    level = before[-1][4] if before else 0
    inside = [sp[3] for sp in spans if sp[1] > s and sp[0] < e]
    top = max(inside) if inside else 0
    n += 1
    if any(s <= t <= e and v - level >= 0.95 * size for t, v in snaps):
        tops += 1
    if top - level < 0.95 * size:
        low += 1
        if low <= 5:
            out.append('bad burst %d at %.0f..%.0f: %d B over the level %d, of %d' % (k, s, e, top - level, level, size))
    if mode == 'truth':
        out.append('burst %d %d %d %d' % (int(s), int(e + 0.5), level, size))
if mode == 'tops':
    print(tops)
    sys.exit(0)
if mode == 'truth':
    print('width', width)
    print('\n'.join(out))
    sys.exit(0)
print('bursts', n, low)
print('\n'.join(out))
sys.exit(1 if low else 0)
