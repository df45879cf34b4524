#!/usr/bin/env python3
"""wrapcheck.py: one profile's attribution in memtime-vis's outputs against
the answer known by construction (t660-t662).

  wrapcheck.py WANT JSON CSV SUMMARY [IGNORE]

WANT: "name=bytes,name=bytes,..." the groups (sites without their
"(file:line)", functions, ...) expected at the peak, each with its exact
bytes, the most it ever holds; every one must also be a growth row (JSON)
whose largest is those bytes, a column of the chart's CSV whose largest
value they are, and a line of the summary's peak list. Groups of the C and C++ libraries' own ("(in
lib...)", "... (no symbols)", "in N places/groups") are left out of the
comparison, and so are groups whose whole name matches the regular
expression IGNORE (the runtime's own: "std", "(in dl-tls.c)"); no other
group may appear. Prints what differs; exit 1 then.
"""
import csv
import json
import re
import sys

want_s, json_path, csv_path, sum_path = sys.argv[1:5]
ignore = re.compile(sys.argv[5]) if len(sys.argv) > 5 else None
want = {}
for item in want_s.split(','):
    name, b = item.rsplit('=', 1)
    want[name] = int(b)

LOC = re.compile(r' \([^()]*:[0-9]+\)$')


def bare(name):
    return LOC.sub('', name)


def ours(name):
    if ignore and ignore.fullmatch(bare(name)):
        return False
    return not (name.startswith('(in lib') or name.endswith(' (no symbols)')
                or re.match(r'in [0-9]+ (places|sites|groups)', name)
                or name.startswith('(in ld-') or name.startswith('(in dl-'))


bad = []
d = json.load(open(json_path))
peak = {}
for s in d['peak']['sites']:
    if ours(s['site']):
        peak[bare(s['site'])] = peak.get(bare(s['site']), 0) + s['bytes']
if peak != want:
    bad.append('JSON peak: got %s' % sorted(peak.items()))
rows = {bare(r['site']): r['max_bytes'] for r in d['growth'] if ours(r['site'])}
for name, b in want.items():
    if rows.get(name) != b:
        bad.append('JSON growth: %s holds at most %s, not %d' % (name, rows.get(name), b))
extra = sorted(set(rows) - set(want))
if extra:
    bad.append('JSON growth: rows not expected: %s' % extra)

with open(csv_path) as f:
    table = list(csv.reader(f))
head = table[0]
fixed = {'snapshot', 'time', 'total', 'other', 'unattributed', 'extra_heap', 'stacks',
         'rss', 'rss_anon', 'rss_file', 'rss_shmem'}
cols = {bare(h): max(int(row[k]) for row in table[1:]) for k, h in enumerate(head)
        if h not in fixed and ours(h)}
if cols != want:
    bad.append('CSV, the largest of each column: got %s' % sorted(cols.items()))

text = open(sum_path).read()
top = text.split('\nTop ', 1)[1].split('\n\n', 1)[0] if '\nTop ' in text else ''
lines = [re.sub(r'^ +[0-9]+\. +[^ ]+ [^ ]+ +[0-9.]+% +', '', l) for l in top.split('\n')[1:]
         if re.match(r'^ {1,3}[0-9]+\. ', l)]
names = sorted(bare(l) for l in lines if ours(l))
if names != sorted(want):
    bad.append('summary peak list: got %s' % names)
if any('@0x' in l for l in lines if ours(l)):
    bad.append('summary peak list: a site told apart by its address')
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
