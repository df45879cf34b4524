# tests/data/gen/bursts.py OUT [--no-outline] [--rss]: writes OUT (a Massif
# file, valid for ms_print) and OUT.memtime (its companion) for a run whose
# memory is known at every moment, so the charts' pixels can be checked
# against it (t305, t626). Times in ms; a 6-minute run:
#   base 2 MiB throughout; a slow leak of 29,127 B a second; a plateau of
#   30 MiB from 100 s to 160 s; and a burst of 40 MiB for 30 ms every 2 s
#   (at 2000k + 500 ms), 180 of them. Snapshots every 1.51 s (so a few catch
#   a burst, most do not), a tree at every 8th and at the peak.
# With the outline (the default) the companion holds memtime's exact outline
# in buckets of 128 ms: every change, bursts at their full height. Also
# prints the truth, one item a line: "width W" (the outline's bucket), "change TIME BYTES" (the total from
# TIME on) at every change, "burst START END LEVEL HEIGHT" (ms, bytes) for
# each burst, "snapshot-burst TIME" for each snapshot that caught one.
import sys

MiB = 1 << 20
END = 360000
W = 128
BURST_MS, BURST_B = 30, 40 * MiB
PLATEAU = (100000, 160000, 30 * MiB)
LEAK_STEP = 29127            # each second
SITES = {'base': '0x401000: init_tables (svc.c:10)',
         'leak': '0x401100: cache_insert (svc.c:42)',
         'plateau': '0x401200: load_batch (svc.c:77)',
         'burst': '0x401300: render_frame (svc.c:120)'}

out_path = sys.argv[1]
outline = '--no-outline' not in sys.argv
with_rss = '--rss' in sys.argv
bursts = [(2000 * k + 500, 2000 * k + 500 + BURST_MS) for k in range(180)]


def parts(t):
    """What each site holds from time t on (after the changes at t)."""
    v = {'base': 2 * MiB, 'leak': (t // 1000) * LEAK_STEP, 'plateau': 0, 'burst': 0}
    if PLATEAU[0] <= t < PLATEAU[1]:
        v['plateau'] = PLATEAU[2]
    for a, b in bursts:
        if a <= t < b:
            v['burst'] = BURST_B
    return v


def total(t):
    return sum(parts(t).values())


# Every moment the memory changes.
events = sorted(set([t for t in range(0, END, 1000)] + list(PLATEAU[:2]) +
                    [t for ab in bursts for t in ab]))

snaps = list(range(0, END, 1510)) + [END]
vals = [total(t) for t in snaps]
peak = max(range(len(snaps)), key=lambda i: (vals[i], -i))
out = ['desc: --time-unit=ms (t305 fixture: bursts.py)', 'cmd: ./svc --serve', 'time_unit: ms']
for i, t in enumerate(snaps):
    v = parts(t)
    kind = 'peak' if i == peak else 'detailed' if i % 8 == 0 else 'empty'
    out += ['#-----------', 'snapshot=%d' % i, '#-----------', 'time=%d' % t,
            'mem_heap_B=%d' % vals[i], 'mem_heap_extra_B=0', 'mem_stacks_B=0', 'heap_tree=%s' % kind]
    if kind != 'empty':
        kids = sorted(((b, SITES[k]) for k, b in v.items() if b > 0), key=lambda x: -x[0])
        out.append('n%d: %d (heap allocation functions) malloc/new/new[], --alloc-fns, etc.' % (len(kids), vals[i]))
        out += [' n0: %d %s' % (b, lab) for b, lab in kids]
open(out_path, 'w').write('\n'.join(out) + '\n')

comp = ['memtime-companion: 1', 'profile: %s' % out_path.split('/')[-1], 'time_unit: ms']
if with_rss:
    # Resident memory: the heap plus 6 MiB, read at every snapshot.
    for i, t in enumerate(snaps):
        comp.append('rss: snapshot=%d time=%d anon=%d file=0 shmem=0' % (i, t, vals[i] + 6 * MiB))
if outline:
    comp.append('outline: width=%d end=%d' % (W, END))
    for s in range(0, END, W):
        inside = [e for e in events if s <= e < s + W]
        if not inside:
            continue                      # no change: not written
        seen = [total(s - 1) if s else 0] + [total(e) for e in inside]
        last = total(min(s + W, END) - 1)
        comp.append('o: %d %d %d %d %d %d %d' % (s, min(seen), max(seen), last, min(seen), max(seen), last))
    if with_rss:
        for i, t in enumerate(snaps):
            if t < END:
                r = vals[i] + 6 * MiB
                comp.append('o-rss: %d %d %d %d' % (t // W * W, r, r, r))
open(out_path + '.memtime', 'w').write('\n'.join(comp) + '\n')

print('width %d' % (W if outline else 1))
prev = None
for t in [0] + events:
    if total(t) != prev:
        print('change %d %d' % (t, total(t)))
        prev = total(t)
for a, b in bursts:
    print('burst %d %d %d %d' % (a, b, total(a - 1), BURST_B))
for i, t in enumerate(snaps):
    if parts(t)['burst']:
        print('snapshot-burst %d' % t)
