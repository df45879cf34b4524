#!/usr/bin/env python3
"""outline-gen.py: crafts a Massif-format profile and its memtime companion
with an exact outline, from a run known by construction (t614).

  outline-gen.py SCENARIO PROFILE [--no-outline]

The run is a list of step changes of the heap (and stacks) over time; the
outline's buckets are computed here from those steps as docs/file-format.md
defines them (every bucket with a change written, its min/max counting the
value it entered with), and each snapshot's numbers are the run's value at
its time, so the profile and the outline agree. Written apart from
memtime-vis's C code: it shares nothing with the reader it tests.

Scenarios (all in ms, MiB = 1048576):
  bursts  10 MiB from t=0 (site base), five bursts of 32 ms at 1008, 3008,
          5008, 7008, 9008 of 8, 40, 16, 32, 24 MiB (site spike); snapshots
          every 500 ms (detailed every other one), one detailed inside the
          32 MiB burst (7016); none inside the 40 MiB one. Width 16, end 10000.
  growth  10 MiB flat (site base) to t=10000; a 40 MiB burst (site spike)
          of 32 ms every 1000 ms from 1008; detailed snapshots at 0, 500,
          1500, ..., 7500 between bursts, then at 8016 and 9016, inside
          bursts.
  gaps    sparse buckets with long gaps (fills), a last bucket cut by end=,
          and o-rss lines. Width 64, end 100000.
"""
import sys

MiB = 1 << 20


def scenario(name):
    """(steps, snapshots, width, end, rss): steps are (time, heap, stacks),
    each setting the values from that time on; snapshots are (time, kind,
    {site: bytes}); kind is 'empty', 'detailed' or 'peak'."""
    if name == 'bursts':
        steps = [(0, 10 * MiB, 0)]
        heights = [8, 40, 16, 32, 24]
        for k, h in enumerate(heights):
            t = 1008 + 2000 * k
            steps += [(t, (10 + h) * MiB, 0), (t + 32, 10 * MiB, 0)]
        snaps = []
        for i, t in enumerate(range(0, 10001, 500)):
            snaps.append((t, 'detailed' if i % 2 == 0 else 'empty', None))
        snaps.append((7016, 'detailed', None))
        snaps.sort()
        return steps, snaps, 16, 10000, []
    if name == 'growth':
        steps = [(0, 10 * MiB, 0)]
        for t in range(1008, 10000, 1000):
            steps += [(t, 50 * MiB, 0), (t + 32, 10 * MiB, 0)]
        snaps = [(0, 'detailed', None)]
        snaps += [(t, 'detailed', None) for t in range(500, 7501, 1000)]
        snaps += [(8016, 'detailed', None), (9016, 'detailed', None), (10000, 'empty', None)]
        return steps, snaps, 16, 10000, []
    if name == 'gaps':
        steps = [(100, 1000, 0), (130, 5000, 4096), (150, 3000, 4096),
                 (70000, 9000, 8192), (70010, 2000, 8192), (99990, 2500, 8192)]
        snaps = [(0, 'empty', None), (100, 'detailed', None), (50000, 'detailed', None),
                 (99999, 'empty', None)]
        rss = [(64, 100000, 120000, 110000), (69952, 200000, 200000, 200000)]
        return steps, snaps, 64, 99999, rss
    sys.exit('outline-gen.py: unknown scenario ' + name)


def value_at(steps, t):
    """(heap, stacks) in force at time t (0 before the first step)."""
    h = s = 0
    for (st, sh, ss) in steps:
        if st <= t:
            h, s = sh, ss
    return h, s


def site_split(steps, t, name):
    """The sites of a tree at t: 'base' holds the first step's heap, 'spike'
    the rest (a burst's allocation)."""
    heap, _ = value_at(steps, t)
    base = min(heap, steps[0][1])
    sites = {}
    if base:
        sites['0x401000: base_alloc (base.c:10)'] = base
    if heap > base:
        sites['0x402000: spike_alloc (spike.c:20)'] = heap - base
    return sites


def buckets(steps, width, end):
    """The outline's written buckets: (start, min, max, last, hmin, hmax, hlast)."""
    out = []
    by_bucket = {}
    for (t, h, s) in steps:
        if t <= end:
            by_bucket.setdefault(t - t % width, []).append((t, h, s))
    for start in sorted(by_bucket):
        eh, es = value_at(steps, start - 1) if start > 0 else (0, 0)
        tot = [eh + es]
        hp = [eh]
        for (_, h, s) in sorted(by_bucket[start]):
            tot.append(h + s)
            hp.append(h)
        out.append((start, min(tot), max(tot), tot[-1], min(hp), max(hp), hp[-1]))
    return out


def main():
    args = sys.argv[1:]
    outline = '--no-outline' not in args
    args = [a for a in args if a != '--no-outline']
    name, path = args
    steps, snaps, width, end, rss = scenario(name)
    peak_i = max((i for i in range(len(snaps)) if snaps[i][1] != 'empty'),
                 key=lambda i: (sum(value_at(steps, snaps[i][0])), -i))
    with open(path, 'w') as f:
        f.write('desc: crafted by tests/outline-gen.py (%s)\ncmd: ./%s\ntime_unit: ms\n'
                % (name, name))
        for i, (t, kind, _) in enumerate(snaps):
            heap, stacks = value_at(steps, t)
            if kind != 'empty' and i == peak_i:
                kind = 'peak'
            f.write('#-----------\nsnapshot=%d\n#-----------\ntime=%d\nmem_heap_B=%d\n'
                    'mem_heap_extra_B=0\nmem_stacks_B=%d\nheap_tree=%s\n'
                    % (i, t, heap, stacks, kind))
            if kind == 'empty':
                continue
            sites = site_split(steps, t, name)
            f.write('n%d: %d (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n'
                    % (len(sites), heap))
            for label, b in sorted(sites.items(), key=lambda kv: -kv[1]):
                f.write(' n0: %d %s\n' % (b, label))
    with open(path + '.memtime', 'w') as f:
        f.write('memtime-companion: 1\ntime_unit: ms\nend: exit\n')
        if outline:
            f.write('outline: width=%d end=%d\n' % (width, end))
            for b in buckets(steps, width, end):
                f.write('o: %d %d %d %d %d %d %d\n' % b)
            for r in rss:
                f.write('o-rss: %d %d %d %d\n' % r)


main()
