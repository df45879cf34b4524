#!/usr/bin/env python3
"""outline-check.py: an independent reading of a companion's exact outline
for t614, written apart from memtime-vis's C reader (read/companion.c).

  outline-check.py json COMPANION JSON   memtime-vis --json's "outline" and
                                         "outline_rss" are the companion's
                                         spans, expanded by docs/file-format.md
  outline-check.py csv COMPANION CSV     NAME.outline.csv: the header, then
                                         one row per span, every column

The expansion: each "o:" bucket is [start, start+W); a gap between two
written buckets saw no change, so it is one flat span at the previous
bucket's last values; after the last bucket a flat span runs to end=; the
last span stops at end= when that is before its end. Prints each
disagreement; exit 0 when there is none."""
import csv
import json
import sys


def spans_of(path):
    width = end = None
    spans, rss = [], []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == 'outline:':
                kv = dict(x.split('=') for x in w[1:])
                width, end = int(kv['width']), int(kv['end'])
            elif w[0] == 'o:':
                v = [int(x) for x in w[1:]]
                start = v[0]
                if spans and spans[-1]['end'] < start:
                    p = spans[-1]
                    spans.append(dict(start=p['end'], end=start, min_bytes=p['last_bytes'],
                                      max_bytes=p['last_bytes'], last_bytes=p['last_bytes'],
                                      heap_min_bytes=p['heap_last_bytes'],
                                      heap_max_bytes=p['heap_last_bytes'],
                                      heap_last_bytes=p['heap_last_bytes'], filled=True))
                spans.append(dict(start=start, end=start + width, min_bytes=v[1], max_bytes=v[2],
                                  last_bytes=v[3], heap_min_bytes=v[4], heap_max_bytes=v[5],
                                  heap_last_bytes=v[6], filled=False))
            elif w[0] == 'o-rss:':
                v = [int(x) for x in w[1:]]
                rss.append(dict(start=v[0], end=min(v[0] + width, end), min_bytes=v[1],
                                max_bytes=v[2], last_bytes=v[3]))
    if spans:
        p = spans[-1]
        if p['end'] < end:
            spans.append(dict(start=p['end'], end=end, min_bytes=p['last_bytes'],
                              max_bytes=p['last_bytes'], last_bytes=p['last_bytes'],
                              heap_min_bytes=p['heap_last_bytes'],
                              heap_max_bytes=p['heap_last_bytes'],
                              heap_last_bytes=p['heap_last_bytes'], filled=True))
        spans[-1]['end'] = min(spans[-1]['end'], end)
    return spans, rss


def main():
    mode, comp, got = sys.argv[1:]
    spans, rss = spans_of(comp)
    bad = []
    if mode == 'json':
        with open(got) as f:
            d = json.load(f)
        if d['outline'] != spans:
            bad.append('outline: %d spans, expected %d' % (len(d['outline']), len(spans)))
            for i, (a, b) in enumerate(zip(d['outline'], spans)):
                if a != b:
                    bad.append('span %d: %s, expected %s' % (i, a, b))
                    break
        if d['outline_rss'] != rss:
            bad.append('outline_rss: %s, expected %s' % (d['outline_rss'], rss))
        # The spans cover their time once, without a gap or an overlap.
        for a, b in zip(d['outline'], d['outline'][1:]):
            if a['end'] != b['start']:
                bad.append('spans not contiguous at %d/%d' % (a['end'], b['start']))
    else:
        cols = ['start', 'end', 'min_bytes', 'max_bytes', 'last_bytes', 'heap_min_bytes',
                'heap_max_bytes', 'heap_last_bytes']
        with open(got, newline='') as f:
            rows = list(csv.reader(f))
        if rows[0] != cols:
            bad.append('header: %s' % rows[0])
        want = [[str(s[c]) for c in cols] for s in spans]
        if rows[1:] != want:
            bad.append('rows: %d, expected %d; first difference: %s' % (
                len(rows) - 1, len(want),
                next(((a, b) for a, b in zip(rows[1:], want) if a != b), None)))
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


main()
