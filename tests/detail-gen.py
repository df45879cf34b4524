#!/usr/bin/env python3
"""detail-gen.py: crafts a Massif-format profile and its memtime companion
with the unpruned detail of the trees (detail:, frame:, dtree: in
docs/file-format.md), from a heap known by construction (t615), and the
answers: every grouping's bytes per group at every detailed snapshot, and
each function's object, crate and namespace (groups_of).

  detail-gen.py PROFILE ANSWERS.json [ALPHA [SMALL]]

ALPHA multiplies the bytes of crate alpha's functions (a second run, for
diff and check; 0 leaves a heap mostly of C++). SMALL adds that many small
crates of one function each, about 0.5% of the heap apiece (a remainder by
crate above 5%, which the view's threshold is lowered for).

The heap is made of functions whose group under every grouping is written
here by hand in the table below (the answers are not computed by any
parser), Rust functions of three crates of our own (impls, closures, hashes,
v0 disambiguators), C++ functions in nested namespaces, C libraries, an
unnamed function told by its caller, one whose caller only the file's
deeper tree names, and an allocation wrapper, my_malloc,
with 50 callers none of which holds much of it. The Massif file's trees are
pruned at 1% of the heap as Massif prunes them: the rest is one "in N
places" line, which the detail holds unpruned.
"""
import json
import sys

EXE = '/opt/app/bin/noded'
SVC = '/usr/lib/x86_64-linux-gnu/libsvc-77f0c1d2e3a4b5c6.so.3'
ZLIB = '/usr/lib/x86_64-linux-gnu/libz.so.1'
FOO = '/usr/lib/libfoo.so.2'

# (label after the address, bytes at scale 1, function, object, crate,
#  namespace depth 1, namespace depth 2). Callers: a list of (label, share).
SITES = [
    ('alpha::store::Store::insert::h0123456789abcdef (in %s)' % EXE, 300000,
     'alpha::store::Store::insert', 'noded', 'alpha', 'alpha', 'alpha::store'),
    ('<alpha::index::Index as core::clone::Clone>::clone (in %s)' % EXE, 120000,
     '<alpha::index::Index as core::clone::Clone>::clone', 'noded', 'alpha', 'alpha',
     'alpha::index'),
    ('beta::codec::decode::{{closure}} (in %s)' % EXE, 90000,
     'beta::codec::decode::{{closure}}', 'noded', 'beta', 'beta', 'beta::codec'),
    ('<beta::Frame>::encode (in %s)' % EXE, 6000,
     '<beta::Frame>::encode', 'noded', 'beta', 'beta', 'beta::Frame'),
    ('<u8 as gamma::wire::Pack>::pack (in %s)' % EXE, 5000,
     '<u8 as gamma::wire::Pack>::pack', 'noded', 'gamma', 'gamma', 'gamma::wire'),
    ('gamma[1a2b3c4d]::net::Peer::recv (in %s)' % EXE, 4000,
     'gamma[1a2b3c4d]::net::Peer::recv', 'noded', 'gamma', 'gamma', 'gamma::net'),
    ('app::net::Conn::read(int) (in %s)' % SVC, 200000,
     'app::net::Conn::read(int)', 'libsvc.so', 'app', 'app', 'app::net'),
    ('app::db::Table::insert(std::string const&) (in %s)' % SVC, 3000,
     'app::db::Table::insert(std::string const&)', 'libsvc.so', 'app', 'app', 'app::db'),
    ('void std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>(int const&) (in %s)' % SVC,
     2500,
     'void std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>(int const&)',
     'libsvc.so', 'std', 'std', 'std::vector'),
    # Two functions whose names shortened for a legend read the same.
    ('app::db::Cursor<app::db::Row<std::basic_string<char>, long> >::fetch(unsigned long) (in %s)' % SVC,
     50000, 'app::db::Cursor<app::db::Row<std::basic_string<char>, long> >::fetch(unsigned long)',
     'libsvc.so', 'app', 'app', 'app::db'),
    ('app::db::Cursor<app::db::Column<std::basic_string<char>, double> >::fetch(unsigned long) (in %s)' % SVC,
     40000, 'app::db::Cursor<app::db::Column<std::basic_string<char>, double> >::fetch(unsigned long)',
     'libsvc.so', 'app', 'app', 'app::db'),
    ('inflateInit2_ (in %s)' % ZLIB, 2000, 'inflateInit2_', 'libz.so', '(in libz.so)',
     '(in libz.so)', '(in libz.so)'),
    ('deflateInit2_ (in %s)' % ZLIB, 1500, 'deflateInit2_', 'libz.so', '(in libz.so)',
     '(in libz.so)', '(in libz.so)'),
    ('make_node (tree.c:12)', 1200, 'make_node', '(in tree.c)',
     '(in tree.c)', '(in tree.c)', '(in tree.c)'),
]
UNNAMED = ('??? (in %s)' % FOO, 1100, 'foo_open (in %s)' % FOO)
# An unnamed function whose caller (in the detail's two levels) is unnamed
# too; the file's tree goes one level further, to qux_init, and the reader
# names it by that: the regrouping takes that name for the detail's node.
QUX = '/usr/lib/libqux.so.4'
DEEP = ('??? (in %s)' % QUX, 50000, '??? (in %s)' % QUX, 'qux_init (in %s)' % QUX)
WRAPPER = 'my_malloc (in %s)' % EXE
N_CALLERS = 50


def addr(i):
    return '0x%X' % (0x400000 + 0x40 * i)


def main():
    profile, answers_path = sys.argv[1], sys.argv[2]
    alpha = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    small = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    sites = SITES + [('small%02d::f (in %s)' % (k, EXE), 5000 + 50 * k, 'small%02d::f' % k, 'noded',
                      'small%02d' % k, 'small%02d' % k, 'small%02d' % k) for k in range(small)]
    labels = {}   # text after the address -> full label with address

    def lab(text):
        if text not in labels:
            labels[text] = '%s: %s' % (addr(len(labels)), text)
        return labels[text]

    # Snapshots: (time, scale); detailed ones every other; the peak last
    # but one.
    scales = [0, 1, 2, 3, 4, 2]
    kinds = ['empty', 'detailed', 'empty', 'detailed', 'peak', 'detailed']
    snaps = []
    deep_chain = {}   # site label -> (its named caller's label, the unnamed middle)
    answers = {'function': {}, 'object': {}, 'crate': {}, 'namespace': {}, 'namespace2': {},
               'site': {}, 'groups_of': {}}
    for i, (sc, kind) in enumerate(zip(scales, kinds)):
        parts = []   # (site label, bytes, [(caller label, bytes)], groups)
        for text, b, fn, obj, crate, ns1, ns2 in sites:
            f = alpha if crate == 'alpha' else 1
            parts.append((lab(text), b * sc * f, [], (fn, obj, crate, ns1, ns2)))
        u_text, u_b, u_caller = UNNAMED
        ul = lab(u_text)
        parts.append((ul, u_b * sc, [(lab(u_caller), u_b * sc)],
                      ('??? called by foo_open (in %s)' % FOO, 'libfoo.so', '(in libfoo.so)',
                       '(in libfoo.so)', '(in libfoo.so)')))
        d_text, d_b, d_caller, d_named = DEEP
        dl = lab(d_text)
        told = '??? called by qux_init (in %s)' % QUX
        middle = '0xD00D00: %s' % d_caller   # the same text at another address
        parts.append((dl, d_b * sc, [(middle, d_b * sc)],
                      (told, 'libqux.so', '(in libqux.so)', '(in libqux.so)', '(in libqux.so)')))
        deep_chain[dl] = (lab(d_named), middle)
        # The wrapper: caller k holds (k + 1) * 100 bytes at scale 1.
        callers = [(lab('caller_%02d (in %s)' % (k, EXE)), (k + 1) * 100 * sc)
                   for k in range(N_CALLERS)]
        parts.append((lab(WRAPPER), sum(c[1] for c in callers), callers, None))
        heap = sum(p[1] for p in parts)
        snaps.append((i, i * 1000, heap, kind, parts))
        if kind == 'empty':
            continue
        # Each function's object, crate and outermost namespace, from the
        # table (what the remainder of --group-by=function is read by).
        for label, b, cs, groups in parts:
            if groups is None:
                for cl, cb in cs:
                    answers['groups_of'][cl.split(': ', 1)[1].split(' (')[0]] = {
                        'object': 'noded', 'crate': '(in noded)', 'namespace': '(in noded)',
                        'file': '(in noded)'}
            else:
                answers['groups_of'][groups[0]] = {
                    'object': groups[1], 'crate': groups[2], 'namespace': groups[3],
                    # the source file's base name, else the object's
                    'file': 'tree.c' if groups[1].startswith('(') else '(in %s)' % groups[1]}
        # The answers: the wrapper's callers are the sites.
        for g, idx in (('function', 0), ('object', 1), ('crate', 2), ('namespace', 3),
                       ('namespace2', 4)):
            acc = {}
            for label, b, cs, groups in parts:
                if groups is None:
                    for cl, cb in cs:
                        name = cl.split(': ', 1)[1]
                        key = {'function': name.split(' (')[0], 'object': 'noded',
                               'crate': '(in noded)', 'namespace': '(in noded)',
                               'namespace2': '(in noded)'}[g]
                        acc[key] = acc.get(key, 0) + cb
                    continue
                if b:
                    acc[groups[idx]] = acc.get(groups[idx], 0) + b
            answers[g][str(i)] = acc
        acc = {}
        for label, b, cs, groups in parts:
            for cl, cb in (cs if groups is None else [(label, b)]):
                name = cl.split(': ', 1)[1]
                if groups is not None and name.startswith('???'):
                    name = groups[0]
                acc[name] = acc.get(name, 0) + cb
        answers['site'][str(i)] = acc

    with open(profile, 'w') as f:
        f.write('desc: crafted by tests/detail-gen.py\ncmd: ./noded --serve\ntime_unit: ms\n')
        for i, t, heap, kind, parts in snaps:
            f.write('#-----------\nsnapshot=%d\n#-----------\ntime=%d\n' % (i, t))
            f.write('mem_heap_B=%d\nmem_heap_extra_B=%d\nmem_stacks_B=0\nheap_tree=%s\n'
                    % (heap, heap // 50, kind))
            if kind == 'empty':
                continue
            big = sorted([p for p in parts if p[1] * 100 >= heap and p[1] > 0],
                         key=lambda p: -p[1])
            small = [p for p in parts if p[1] * 100 < heap and p[1] > 0]
            n = len(big) + (1 if small else 0)
            f.write('n%d: %d (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n'
                    % (n, heap))
            lines = []
            for p in big:
                if p[0] in deep_chain:
                    named_l, middle = deep_chain[p[0]]
                    lines.append((p[1], ' n1: %d %s\n  n1: %d %s\n   n0: %d %s\n'
                                  % (p[1], p[0], p[1], middle, p[1], named_l)))
                else:
                    lines.append((p[1], ' n0: %d %s\n' % (p[1], p[0])))
            if small:
                sb = sum(p[1] for p in small)
                lines.append((sb, " n0: %d in %d places, all below massif's threshold (1.00%%)\n"
                              % (sb, len(small))))
            for _, line in sorted(lines, key=lambda x: -x[0]):
                f.write(line)
    frames = {}
    dtrees = []
    for i, t, heap, kind, parts in snaps:
        if kind == 'empty':
            continue
        nodes = []
        for label, b, cs, groups in sorted(parts, key=lambda p: -p[1]):
            if not b:
                continue
            nodes.append('1.%d.%d' % (frames.setdefault(label, len(frames)), b))
            for cl, cb in sorted(cs, key=lambda c: -c[1]):
                if cb:
                    nodes.append('2.%d.%d' % (frames.setdefault(cl, len(frames)), cb))
        dtrees.append('dtree: snapshot=%d time=%d %s\n' % (i, t, ' '.join(nodes)))
    # Allocation counts ("site:" records): function k of SITES made
    # (k + 1) * 10 calls; two unnamed functions of libbar, which no tree
    # shows, read the same but for their address.
    counts = []
    for k, (text, b, fn, obj, crate, ns1, ns2) in enumerate(sites):
        counts.append((lab(text), (k + 1) * 10, {'function': fn, 'object': obj, 'crate': crate,
                                                 'namespace': ns1}))
    for a, n in (('0xBA0000', 5), ('0xBB0000', 7)):
        counts.append(('%s: ??? (in /usr/lib/libbar.so.1)' % a, n,
                       {'function': '??? @%s (in /usr/lib/libbar.so.1)' % a, 'object': 'libbar.so',
                        'crate': 'libbar.so (no symbols)',
                        'namespace': 'libbar.so (no symbols)'}))
    answers['counts'] = {}
    for g in ('function', 'object', 'crate', 'namespace'):
        acc = {}
        for label, n, keys in counts:
            acc[keys[g]] = acc.get(keys[g], 0) + n
        answers['counts'][g] = acc
    with open(profile + '.memtime', 'w') as f:
        f.write('memtime-companion: 1\ntime_unit: ms\n')
        for label, n, keys in counts:
            f.write('site: allocs=%d temporary=0 bytes=%d live_blocks=1 live_bytes=100 %s\n'
                    % (n, n * 100, label))
        f.write('detail: depth=2 snapshots=%d frames=%d\n' % (len(dtrees), len(frames)))
        for label, k in sorted(frames.items(), key=lambda x: x[1]):
            f.write('frame: %d %s\n' % (k, label))
        for d in dtrees:
            f.write(d)
    with open(answers_path, 'w') as f:
        json.dump(answers, f, indent=1, sort_keys=True)


if __name__ == '__main__':
    main()
