#!/usr/bin/env python3
"""mansections.py GUIDE.md DOCDIR: every man page section the user guide
points at exists. A pointer is a paragraph that starts with "Man pages:",
a list of "PAGE(1) SECTION, SECTION ...; PAGE(1) ..."; the upper-case
section names (parentheses and quoted subsection titles aside) must be a
.SH or .SS heading of DOCDIR/PAGE.1, and a quoted title must be a .SS
heading. Prints GUIDE:LINE: what was expected, what was found, for each
that is not, and exits 1 if any."""
import re
import sys


def headings(path):
    out = set()
    with open(path, encoding='utf-8') as f:
        for line in f:
            m = re.match(r'^\.S[HS]\s+"?(.*?)"?\s*$', line)
            if m:
                out.add(m.group(1))
    return out


def main():
    guide, docdir = sys.argv[1], sys.argv[2]
    paras = []
    with open(guide, encoding='utf-8') as f:
        cur = None
        for n, line in enumerate(f, 1):
            if line.startswith('Man pages:'):
                cur = [n, line[len('Man pages:'):].strip()]
                paras.append(cur)
            elif cur is not None and line.strip():
                cur[1] += ' ' + line.strip()
            else:
                cur = None
    bad = 0
    for n, text in paras:
        for part in text.rstrip('.').split(';'):
            m = re.match(r'\s*(memtime(?:-vis)?)\(1\)\s*(.*)$', part)
            if not m:
                continue
            page, rest = m.group(1), m.group(2)
            have = headings('%s/%s.1' % (docdir, page))
            quoted = re.findall(r'"([^"]+)"', rest)
            rest = re.sub(r'\([^)]*\)', '', re.sub(r'"[^"]+"', '', rest))
            names = [x.strip() for x in rest.split(',') if x.strip()]
            names = [x for x in names if x.upper() == x and re.search(r'[A-Z]', x)]
            for name in names + quoted:
                if name not in have:
                    print('%s:%d: a section "%s" of %s.1 expected, found none' % (guide, n, name, page))
                    bad += 1
    if not paras:
        print('%s:1: "Man pages:" pointers expected, found none' % guide)
        bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
