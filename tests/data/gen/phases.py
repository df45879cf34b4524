# tests/data/gen/phases.py: how tests/data/phases.massif was made (it is kept
# in the repository; regenerate with python3 phases.py > ../phases.massif).
# 90 snapshots, trees at 25, 45 and 80 (the peak); see tests/t303.
MiB = 1 << 20
KiB = 1024
sites = {
    'load':  '0x401120: load_index (phases.c:14)',
    'cache': '0x4011A0: build_cache (phases.c:27)',
    'serve': '0x401230: serve_requests (phases.c:41)',
    'anonA': '0x1091B7: ??? (in /tmp/phases-stripped)',
    'anonB': '0x1091F0: ??? (in /tmp/phases-stripped)',
    'never': '0x401300: never_used (phases.c:50)',
    'comma': '0x401400: parse<a, b>("cfg") (cfg.c:3)',
    'long':  '0x4A0000: hashbrown::raw::RawTable<(alloc::string::String, alloc::vec::Vec<u8>), alloc::alloc::Global>::reserve_rehash::h0123456789abcdef (in /home/user/project/target/release/deps/libphases_cache-0123456789abcdef.so)',
}
def values(i):
    v = {}
    v['load'] = 4 * MiB * min(i, 20) // 20 if i < 30 else 0
    v['cache'] = 0 if i < 30 else 5 * MiB * min(i - 30, 25) // 25
    v['serve'] = 0 if i < 60 or i > 84 else 3 * MiB * min(i - 60, 20) // 20
    v['anonA'] = 128 * KiB if i >= 1 else 0
    v['anonB'] = 192 * KiB if i >= 1 else 0
    v['long'] = 256 * KiB if i >= 2 else 0
    v['never'] = 0
    v['comma'] = 96 * KiB if i >= 3 else 0
    return v
trees = {25: 'detailed', 45: 'detailed', 80: 'peak'}
out = ['desc: --time-unit=ms --detailed-freq=1000', 'cmd: ./phases --load --cache --serve', 'time_unit: ms']
for i in range(90):
    v = values(i)
    heap = sum(v.values())
    out += ['#-----------', 'snapshot=%d' % i, '#-----------', 'time=%d' % (i * 10),
            'mem_heap_B=%d' % heap, 'mem_heap_extra_B=%d' % (heap // 64), 'mem_stacks_B=0',
            'heap_tree=%s' % trees.get(i, 'empty')]
    if i in trees:
        kids = sorted(((b, sites[k]) for k, b in v.items() if b > 0 or k == 'never'), key=lambda x: -x[0])
        out.append('n%d: %d (heap allocation functions) malloc/new/new[], --alloc-fns, etc.' % (len(kids), heap))
        for b, lab in kids:
            out.append(' n0: %d %s' % (b, lab))
print('\n'.join(out))
