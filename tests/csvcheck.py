#!/usr/bin/env python3
"""tests/csvcheck.py MASSIF CSV: checks memtime-vis's CSV against the Massif
file it was made from, reading the file independently (its own small parser,
not memtime-vis's). Prints one line per broken rule and exits 1 if any.

Rules (the chart's series must tell the truth): one row per snapshot in file order with its number, time and
total; the parts (every column after total) add up to total; at a snapshot
with a tree each drawn site's value is its bytes in that tree and unattributed
is 0; at a snapshot without one a site's value never exceeds the larger of its
values in the trees around it in time and is 0 where either shows it holding
nothing (before the first tree / after the last the missing side counts as
nothing); extra_heap and stacks are the snapshot's own numbers. Sites are
matched by the names memtime-vis gives them, which contain the function's name;
the mapping from the CSV's columns to labels is given by --site NAME=LABEL
arguments after the two files (every site column must be mapped), or with
--auto for the columns whose name is the label without its address. Columns
after stacks (resident memory) are not checked here. When the file has
memtime's companion with the unpruned detail, a detailed snapshot's sites
are the detail's (every site, as memtime-vis regroups them by default)."""
import csv, re, sys

def parse_massif(path):
    snaps, cur = [], None
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n')
        m = re.match(r'snapshot=(\d+)$', line)
        if m:
            cur = {'n': int(m.group(1)), 'tree': None, 'sites': {}}
            snaps.append(cur)
            continue
        m = re.match(r'(time|mem_heap_B|mem_heap_extra_B|mem_stacks_B)=(\d+)$', line)
        if m and cur is not None:
            cur[m.group(1)] = int(m.group(2))
            continue
        m = re.match(r'heap_tree=(\w+)$', line)
        if m:
            cur['tree'] = None if m.group(1) == 'empty' else m.group(1)
            continue
        m = re.match(r' n\d+: (\d+) (.*)$', line)     # depth 1: a site
        if m and cur is not None and cur['tree']:
            lab = m.group(2)
            if not re.match(r'in \d+ places?, .*below massif', lab):
                cur['sites'][lab] = cur['sites'].get(lab, 0) + int(m.group(1))
    detail(path + '.memtime', snaps)
    return snaps

def detail(companion, snaps):
    """memtime's unpruned detail (the companion's frame: and dtree: lines,
    docs/file-format.md): where a detailed snapshot has one, its sites are
    the detail's depth-1 nodes, every one, not only those the tree lists
    above the threshold (memtime-vis regroups from them)."""
    try:
        lines = open(companion, encoding='utf-8').read().split('\n')
    except OSError:
        return
    frames, trees = [], {}
    for line in lines:
        if line.startswith('frame: '):
            frames.append(line.split(' ', 2)[2])
        elif line.startswith('dtree: '):
            f = line.split(' ')
            n = int(f[1].split('=')[1])
            sites = {}
            for node in f[3:]:
                depth, fid, b = node.split('.')
                if depth == '1':
                    sites[int(fid)] = sites.get(int(fid), 0) + int(b)
            trees[n] = sites
    for sn in snaps:
        if sn['tree'] and sn['n'] in trees:
            sn['sites'] = {frames[k]: v for k, v in trees[sn['n']].items()}

def main():
    massif, csvpath = sys.argv[1], sys.argv[2]
    auto = '--auto' in sys.argv[3:]
    names = dict(a.split('=', 1) for a in sys.argv[3:] if a != '--auto')
    snaps = parse_massif(massif)
    rows = list(csv.reader(open(csvpath, encoding='utf-8', newline='')))
    head, body = rows[0], rows[1:]
    bad = []
    fixed = ['snapshot', 'time', 'total']
    tail = ['other', 'unattributed', 'extra_heap', 'stacks']
    if head[:3] != fixed or 'other' not in head or head[head.index('other'):head.index('other') + 4] != tail:
        bad.append('header %r' % head)
    site_cols = head[3:head.index('other')]
    if auto:
        # Map a column to the one label whose name without its address is
        # the column's text (names memtime-vis did not shorten or tag).
        labels = set(l for sn in snaps for l in sn['sites'])
        for col in site_cols:
            hits = [l for l in labels if re.sub(r'^0x[0-9A-Fa-f]+: ', '', l) == col]
            if len(hits) == 1:
                names[col] = hits[0]
    for s in site_cols:
        if s not in names:
            bad.append('site column %r not mapped' % s)
    if len(body) != len(snaps):
        bad.append('%d rows for %d snapshots' % (len(body), len(snaps)))
    trees = [i for i, s in enumerate(snaps) if s['tree']]
    for i, (row, s) in enumerate(zip(body, snaps)):
        if len(row) != len(head):
            bad.append('row %d: %d fields' % (i, len(row)))
            continue
        v = dict(zip(head, (int(x) if x else 0 for x in row)))
        total = s['mem_heap_B'] + s['mem_heap_extra_B'] + s['mem_stacks_B']
        if (v['snapshot'], v['time'], v['total']) != (s['n'], s['time'], total):
            bad.append('row %d: snapshot/time/total %r' % (i, row[:3]))
        nparts = head.index('other') + 4
        if sum(int(x) for x in row[3:nparts]) != total:
            bad.append('row %d: parts add up to %d, total %d' % (i, sum(int(x) for x in row[3:nparts]), total))
        if (v['extra_heap'], v['stacks']) != (s['mem_heap_extra_B'], s['mem_stacks_B']):
            bad.append('row %d: extra/stacks' % i)
        prev = [t for t in trees if t < i]
        nxt = [t for t in trees if t > i]
        for col in site_cols:
            lab = names.get(col)
            if lab is None:
                continue
            if s['tree']:
                if v[col] != s['sites'].get(lab, 0):
                    bad.append('row %d: %s = %d, its tree says %d' % (i, col, v[col], s['sites'].get(lab, 0)))
                continue
            a = snaps[prev[-1]]['sites'].get(lab, 0) if prev else 0
            b = snaps[nxt[0]]['sites'].get(lab, 0) if nxt else 0
            if v[col] > max(a, b) or (v[col] and (a == 0 or b == 0)):
                bad.append('row %d: %s = %d between trees holding %d and %d' % (i, col, v[col], a, b))
        if s['tree'] and v['unattributed'] != 0:
            bad.append('row %d: unattributed %d at a tree' % (i, v['unattributed']))
    for b in bad[:20]:
        print(b)
    sys.exit(1 if bad else 0)

main()
