#!/usr/bin/env python3
"""testtable.py README.md TESTS_DIR: tests/README.md's table of numbers
covers the suite, so it cannot drift from the scripts. Each row of the
table under "What each number covers" is | range | what | scripts |: the
range is tN (tNxx, tNNx: every number it spells), tNNN or tNNN-tNNN; the
scripts cell names each script by its number, alone (t617) or in a span
(t610-t613). Checked: every tNNN-*.sh in TESTS_DIR is named in the table,
in the row whose range holds its number; every number the table names is a
script's; no two scripts share a number; no two rows' ranges overlap.
Prints one line per defect, FILE:LINE: what was expected, what was found,
and exits 1 if there was any."""
import os
import re
import sys

HEADING = '## What each number covers'
NAMED = re.compile(r'\bt(\d{3})(?:-t(\d{3}))?\b')


def parse_range(cell):
    """The set of numbers a range cell spells, or None if it spells none."""
    cell = cell.strip()
    m = re.fullmatch(r't(\d)(\d|x)x', cell)
    if m:
        lo = int(m.group(1)) * 100 + (0 if m.group(2) == 'x' else int(m.group(2)) * 10)
        return set(range(lo, lo + (100 if m.group(2) == 'x' else 10)))
    m = re.fullmatch(r't(\d{3})(?:-t(\d{3}))?', cell)
    if m:
        lo = int(m.group(1))
        hi = int(m.group(2) or lo)
        return set(range(lo, hi + 1)) if hi >= lo else None
    return None


def table_rows(path):
    """(line number, range cell, scripts cell) of each row of the table."""
    rows, inside = [], False
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if line.startswith('## '):
                inside = line.strip() == HEADING
                continue
            if inside and line.startswith('|'):
                cells = line.rstrip('\n').split('|')[1:-1]
                if len(cells) != 3 or set(cells[0].strip()) <= set('-: '):
                    continue  # the header and its rule
                if cells[0].strip() == 'range':
                    continue
                rows.append((n, cells[0], cells[2]))
    return rows


def main():
    readme, tests = sys.argv[1], sys.argv[2]
    errors = []
    scripts = {}
    for name in sorted(os.listdir(tests)):
        m = re.fullmatch(r't(\d{3})-.+\.sh', name)
        if m:
            num = int(m.group(1))
            if num in scripts:
                errors.append(f'{os.path.join(tests, name)}:1: expected a number of its own, '
                              f'found t{num:03d} taken by {scripts[num]} too')
            else:
                scripts[num] = name
    rows = table_rows(readme)
    if not rows:
        errors.append(f'{readme}:1: expected a table under "{HEADING}", found none')
    named = {}   # number -> line of the row naming it
    ranges = []  # (line, set)
    for line, rcell, scell in rows:
        span = parse_range(rcell)
        if span is None:
            errors.append(f'{readme}:{line}: expected a range (t6xx, t62x, t630, t600-t619), '
                          f'found "{rcell.strip()}"')
            continue
        for other_line, other in ranges:
            if span & other:
                errors.append(f'{readme}:{line}: expected a range apart from line {other_line}\'s, '
                              f'found "{rcell.strip()}" overlapping it')
        ranges.append((line, span))
        for a, b in NAMED.findall(scell):
            lo, hi = int(a), int(b or a)
            for num in range(lo, hi + 1):
                if num not in scripts:
                    errors.append(f'{readme}:{line}: expected a script tests/t{num:03d}-*.sh, found none')
                elif num not in span:
                    errors.append(f'{readme}:{line}: expected t{num:03d} in the row of its range, '
                                  f'found it under "{rcell.strip()}"')
                named.setdefault(num, line)
    for num, name in sorted(scripts.items()):
        if num not in named:
            home = [line for line, span in ranges if num in span]
            where = home[0] if home else (rows[-1][0] if rows else 1)
            errors.append(f'{readme}:{where}: expected {name} named in the table'
                          f'{"" if home else " (no range holds its number)"}, found it missing')
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
