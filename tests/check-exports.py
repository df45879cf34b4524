#!/usr/bin/env python3
"""check-exports.py: an independent reader of memtime-vis's exports.

Reads the Massif-format profile itself (its own small parser, not
memtime-vis's), takes one snapshot's tree, and checks an export of it:

  check-exports.py PROFILE SNAPSHOT collapsed FILE
  check-exports.py PROFILE SNAPSHOT svg FILE
  check-exports.py PROFILE SNAPSHOT pprof-raw FILE   (go tool pprof -symbolize=none -raw)
  check-exports.py PROFILE SNAPSHOT svg-diff FILE BASE  (differential flamegraph since
                                                      snapshot BASE, or OLD_PROFILE:BASE;
                                                      -1: an empty heap)
  check-exports.py PROFILE peak                      (prints the snapshot the exports
                                                      should show by default)

SNAPSHOT is the snapshot=N number. Exits 0 when the export agrees with the
tree to the byte, 1 with the differences on stderr."""
import re
import sys
import xml.etree.ElementTree as ET

WIDTH_INNER = 1180.0   # the flamegraph's 1200 px less 10 px each side


def read_profile(path):
    """Snapshots as dicts: n, time, heap, extra, stacks, kind, tree (lines)."""
    snaps, cur = [], None
    with open(path, 'rb') as f:
        for raw in f:
            line = raw.rstrip(b'\n').rstrip(b'\r')
            if not line or line.startswith(b'#'):
                continue
            if line.startswith(b'snapshot='):
                cur = {'n': int(line[9:]), 'tree': []}
                snaps.append(cur)
            elif cur is None:
                continue
            elif line.startswith(b'mem_heap_B='):
                cur['heap'] = int(line[11:])
            elif line.startswith(b'mem_heap_extra_B='):
                cur['extra'] = int(line[17:])
            elif line.startswith(b'mem_stacks_B='):
                cur['stacks'] = int(line[13:])
            elif line.startswith(b'time='):
                cur['time'] = int(line[5:])
            elif line.startswith(b'heap_tree='):
                cur['kind'] = line[10:].decode()
            elif re.match(rb' *n\d+: \d+', line):
                cur['tree'].append(line)
    return snaps


def peak_tree_snapshot(snaps):
    """The snapshot memtime-vis exports by default (profile.h: peak_tree)."""
    total = lambda s: s['heap'] + s['extra'] + s['stacks']
    peak = 0
    for i, s in enumerate(snaps):
        if total(s) > total(snaps[peak]):
            peak = i
    marked = [i for i, s in enumerate(snaps) if s['kind'] == 'peak']
    if marked and total(snaps[marked[-1]]) == total(snaps[peak]):
        peak = marked[-1]
    if snaps[peak]['kind'] != 'empty':
        return snaps[peak]['n']
    if marked:
        return snaps[marked[-1]]['n']
    detailed = [s for s in snaps if s['kind'] != 'empty']
    best = detailed[0]
    for s in detailed:
        if total(s) > total(best):
            best = s
    return best['n']


def stacks_of(snap):
    """[(labels innermost first, bytes)] with bytes not under a child; and the root's bytes."""
    nodes = []   # (depth, bytes, label)
    for line in snap['tree']:
        m = re.match(rb'( *)n(\d+): (\d+) ?(.*)$', line)
        nodes.append((len(m.group(1)), int(m.group(3)), m.group(4)))
    out = []
    path = []
    for i, (d, b, label) in enumerate(nodes):
        path[d:] = [label]
        kids = 0
        for d2, b2, _ in nodes[i + 1:]:
            if d2 <= d:
                break
            if d2 == d + 1:
                kids += b2
        if b > kids:
            out.append((tuple(path[1:]) if d > 0 else (label,), b - kids))
    return out, nodes[0][1]


def name_of(label):
    m = re.match(rb'0x[0-9A-Fa-f]+: ', label)
    return label[m.end():] if m else label


def address_of(label):
    m = re.match(rb'0x([0-9A-Fa-f]+): ', label)
    return int(m.group(1), 16) if m else 0


def shown(name):
    """How the SVG shows a name: control characters and bytes that are not
    UTF-8 as \\xNN."""
    out, i = [], 0
    while i < len(name):
        for n in (4, 3, 2, 1):
            chunk = name[i:i + n]
            try:
                s = chunk.decode('utf-8')
            except UnicodeDecodeError:
                continue
            if len(s) == 1:
                break
        else:
            s = None
        if s is None or ord(s) < 0x20 or ord(s) == 0x7f:
            out.append('\\x%02X' % name[i])
            i += 1
        else:
            out.append(s)
            i += len(s.encode('utf-8'))
    return ''.join(out)


def merged(pairs):
    d = {}
    for k, v in pairs:
        d[k] = d.get(k, 0) + v
    return d


def fail(msgs):
    for m in msgs[:20]:
        print(m, file=sys.stderr)
    return 1


def check_collapsed(stacks, heap, path):
    msgs = []
    got = []
    with open(path, 'rb') as f:
        for n, line in enumerate(f, 1):
            if not line.endswith(b'\n'):
                msgs.append('line %d: no newline' % n)
            line = line.rstrip(b'\n')
            if any(c < 0x20 or c == 0x7f for c in line):
                msgs.append('line %d: a raw control character' % n)
            stack, _, count = line.rpartition(b' ')
            frames = tuple(re.sub(rb'%([0-9A-F]{2})', lambda m: bytes([int(m.group(1), 16)]), fr)
                           for fr in stack.split(b';'))
            got.append((frames, int(count)))
    total = sum(b for _, b in got)
    if total != heap:
        msgs.append('lines add up to %d, the heap is %d' % (total, heap))
    want = merged((tuple(name_of(l) for l in reversed(labels)), b) for labels, b in stacks)
    have = merged(got)
    if len(have) != len(got):
        msgs.append('a stack is written twice')
    for k in sorted(set(want) | set(have)):
        if want.get(k) != have.get(k):
            msgs.append('stack %r: want %s, got %s' % (b';'.join(k), want.get(k), have.get(k)))
    return fail(msgs) if msgs else 0


def flame_frames(stacks, heap):
    """{path of shown names, outermost first: bytes}, () being the root."""
    frames = {(): heap}
    for labels, b in stacks:
        names = tuple(shown(name_of(l)) for l in reversed(labels))
        for k in range(1, len(names) + 1):
            frames[names[:k]] = frames.get(names[:k], 0) + b
    return frames


def external_references(tree):
    """What in a parsed SVG would make a viewer fetch something: an href or
    src attribute (xlink's too) that is not a fragment of the file itself, a
    url(...) in an attribute or a style sheet pointing outside it, an
    @import, and in a script the calls that load. Read from the markup's
    structure, never from its text: the profile's command line and names,
    which the SVG shows, may hold any word ("src", "href", a path)."""
    msgs = []
    ext_url = re.compile(r'url\(\s*["\']?(?!#)([^"\' )]*)')
    for el in tree.iter():
        tag = el.tag.rpartition('}')[2]
        for name, value in el.attrib.items():
            local = name.rpartition('}')[2]
            if local in ('href', 'src') and not value.startswith('#'):
                msgs.append('an external reference: <%s %s=%r>' % (tag, local, value))
            for url in ext_url.findall(value):
                msgs.append('an external reference: <%s %s> url(%s)' % (tag, local, url))
        if tag == 'style':
            css = el.text or ''
            for url in ext_url.findall(css):
                msgs.append('an external reference: <style> url(%s)' % url)
            if '@import' in css:
                msgs.append('an external reference: <style> @import')
        if tag == 'script':
            js = el.text or ''
            for m in re.finditer(r'\b(fetch|XMLHttpRequest|importScripts|import)\s*\(|'
                                 r'\.(?:src|href)\s*=|setAttribute(?:NS)?\([^)]*[\'"](?:xlink:)?(?:href|src)[\'"]', js):
                msgs.append('an external reference: <script> %r' % m.group(0))
    return msgs


def check_svg(stacks, heap, snap_n, path, base=None):
    msgs = []
    text = open(path, 'rb').read()
    tree = ET.parse(path)   # raises if it is not XML
    ns = {'s': 'http://www.w3.org/2000/svg'}
    msgs += external_references(tree)
    if re.findall(rb'https?://', text) != [b'http://']:
        msgs.append('a URL other than the SVG namespace')
    sub = tree.find('.//s:text[@id="subtitle"]', ns)
    if sub is None or not re.match(r'snapshot %d\b' % snap_n, sub.text or ''):
        msgs.append('subtitle does not name snapshot %d: %r' % (snap_n, sub is not None and sub.text))
    if tree.find('.//s:script', ns) is None:
        msgs.append('no script')
    # Expected frames: every prefix (outermost first) of every stack, merged by
    # name; differential: with the change since base, the same path's bytes.
    frames = flame_frames(stacks, heap)
    if base is None:
        want = merged(((len(k), k[-1] if k else 'all', v), 1) for k, v in frames.items())
    else:
        was = flame_frames(*base) if base[0] is not None else {}
        want = merged(((len(k), k[-1] if k else 'all', v, v - was.get(k, 0)), 1)
                      for k, v in frames.items())
    got = []
    ys = []
    for g in tree.find('.//s:g[@id="frames"]', ns).findall('s:g', ns):
        title = g.find('s:title', ns).text
        rect = g.find('s:rect', ns)
        m = re.match(r'(.*) \u2014 [^\u2014]+? \(([\d,]+) bytes\), ([\d.]+)%'
                     r'(?:; (?:grew|shrank|unchanged)[^(]*\(([+-]?[\d,]+) bytes\))?$', title, re.S)
        if not m:
            msgs.append('title %r' % title)
            continue
        b = int(m.group(2).replace(',', ''))
        w = float(rect.get('width'))
        y = float(rect.get('y'))
        ys.append(y)
        if heap and abs(w - b * WIDTH_INNER / heap) > 0.006:
            msgs.append('%r: %d bytes drawn %.2f px wide, want %.3f' % (m.group(1), b, w, b * WIDTH_INNER / heap))
        if heap and abs(float(m.group(3)) - 100.0 * b / heap) > 0.006:
            msgs.append('%r: %s%% of the heap, want %.3f' % (m.group(1), m.group(3), 100.0 * b / heap))
        if base is None:
            got.append((y, m.group(1), b))
            continue
        if m.group(4) is None:
            msgs.append('%r: no change in the title' % title)
            continue
        change = int(m.group(4).replace(',', ''))
        got.append((y, m.group(1), b, change))
        fill = re.match(r'rgb\((\d+),(\d+),(\d+)\)', rect.get('fill')).groups()
        r_, g_, b_ = (int(x) for x in fill)
        colour = 'red' if r_ > b_ else 'blue' if b_ > r_ else 'grey'
        if colour != ('red' if change > 0 else 'blue' if change < 0 else 'grey'):
            msgs.append('%r: a change of %d drawn %s' % (m.group(1), change, rect.get('fill')))
    bottom = max(ys) if ys else 0
    have = merged(((int(round((bottom - g[0]) / 16)),) + g[1:], 1) for g in got)
    for k in sorted(set(want) | set(have), key=repr):
        if want.get(k) != have.get(k):
            msgs.append('frame (depth, name, bytes) %r: want %s, got %s' % (k, want.get(k), have.get(k)))
    return fail(msgs) if msgs else 0


def check_pprof(stacks, heap, path):
    msgs = []
    lines = open(path, 'rb').read().split(b'\n')
    samples, locs, section, cur = [], {}, None, None
    for line in lines:
        if line in (b'Samples:', b'Locations', b'Mappings'):
            section = line
            continue
        if section == b'Samples:':
            m = re.match(rb'\s*(\d+): ([\d ]+)$', line)
            if m:
                samples.append((int(m.group(1)), [int(x) for x in m.group(2).split()]))
            elif line and line != b'inuse_space/bytes[dflt]':
                msgs.append('sample types: %r' % line)
        elif section == b'Locations':
            m = re.match(rb'\s*(\d+): 0x([0-9a-f]+) M=\d+ (.*)$', line)
            if m:
                cur = int(m.group(1))
                locs[cur] = (int(m.group(2), 16), [m.group(3)])
            elif line.strip():
                locs[cur][1].append(line.strip())
    def full(fn_line):
        m = re.match(rb'(.*) (\S*):(\d+) s=\d+$', fn_line)
        fn, file, ln = m.group(1), m.group(2), int(m.group(3))
        if ln:
            return b'%s (%s:%d)' % (fn, file, ln)
        return b'%s (in %s)' % (fn, file) if file else fn
    got = []
    for value, ids in samples:
        labels = []
        for i in ids:
            addr, fl = locs[i]
            for x in fl:
                name = full(x)
                labels.append(b'0x%X: %s' % (addr, name) if addr else name)
        got.append((tuple(labels), value))
    total = sum(v for _, v in got)
    if total != heap:
        msgs.append('samples add up to %d, the heap is %d' % (total, heap))
    # pprof has no "no address": Massif's "0x0: ???" comes back as "???";
    # strings are UTF-8 there, an invalid byte U+FFFD.
    fix = lambda l: (l[5:] if l.startswith(b'0x0: ') else l).decode('utf-8', 'replace').encode('utf-8')
    want = merged((tuple(fix(l) for l in labels), b) for labels, b in stacks)
    have = merged(got)
    for k in sorted(set(want) | set(have)):
        if want.get(k) != have.get(k):
            msgs.append('stack %r: want %s, got %s' % (k, want.get(k), have.get(k)))
    return fail(msgs) if msgs else 0


def main(argv):
    snaps = read_profile(argv[1])
    if argv[2] == 'peak':
        print(peak_tree_snapshot(snaps))
        return 0
    snap = [s for s in snaps if s['n'] == int(argv[2])][0]
    stacks, root = stacks_of(snap)
    if root != snap['heap']:
        return fail(['the tree root holds %d, mem_heap_B is %d' % (root, snap['heap'])])
    kind, path = argv[3], argv[4]
    if kind == 'svg-diff':
        base = (None, 0)
        bfile, _, bn = argv[5].rpartition(':')   # [OTHER_PROFILE:]SNAPSHOT
        if int(bn) >= 0:
            bsnap = [s for s in (read_profile(bfile) if bfile else snaps) if s['n'] == int(bn)][0]
            base = stacks_of(bsnap)
        return check_svg(stacks, root, snap['n'], path, base)
    if kind == 'collapsed':
        return check_collapsed(stacks, root, path)
    if kind == 'svg':
        return check_svg(stacks, root, snap['n'], path)
    if kind == 'pprof-raw':
        return check_pprof(stacks, root, path)
    print('unknown check ' + kind, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
