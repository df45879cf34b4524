#!/usr/bin/env python3
"""tests/burstcheck.py: measures a drawn timeline against the run's known
memory (tests/data/gen/bursts.py's "change" and "burst" lines), for t305
(the PNG's pixels) and t626 (the HTML page's DOM).

  burstcheck.py png DUMP LAYOUT TRUTH   DUMP: pngcheck's dump of the plot
                                        rectangle (layout plot X0 Y0 X1 Y1)
  burstcheck.py html DOM TRUTH          DOM: chromium --dump-dom of the page
  burstcheck.py gp SCRIPT TRUTH         SCRIPT: memtime-vis --gnuplot's, its
                                        $cols datablock (a column's value
                                        range, not pixels: rows of 1/1000)

Column k of the plot holds the times that round to it (plot.h). For every
column the drawn top (the highest ink) is compared with the true highest
total in the column's time, widened to the outline's buckets ("width W"); for every burst, the spike's top against its
true height over the level before it and its width at half that height
against max(2, twice its duration) columns. Prints:
  columns N BAD       columns checked, those whose top is off by > 1 px
  spikes N LOW        bursts checked, those under 95% of their height
  widths N WIDE MAX   bursts checked, those too wide, the widest
  bad <what>          the first few failures, for the diagnostics
"""
import re
import sys


GRAIN = [1]      # the outline's bucket width: what a column can resolve


def truth(path):
    changes, bursts = [], []
    for line in open(path):
        f = line.split()
        if f[0] == 'width':
            GRAIN[0] = int(f[1])
        elif f[0] == 'change':
            changes.append((int(f[1]), int(f[2])))
        elif f[0] == 'burst':
            bursts.append(tuple(int(x) for x in f[1:5]))
    return changes, bursts


def true_max(changes, a, b):
    """The highest total over [a, b) widened to the outline's buckets (a
    column shows every bucket it overlaps): the value entering it and every
    change in it."""
    g = GRAIN[0]
    a = a // g * g
    b = -(-b // g) * g
    v, m = 0, None
    for t, val in changes:
        if t <= a:
            v = val
        elif t < b:
            m = max(m if m is not None else v, val)
        else:
            break
    return max(v, m) if m is not None else v


def check(top_y, x0, x1, y0, y1, t0, t1, ymax, changes, bursts, skip, ink_at, line_above, marks=()):
    """top_y(x): the highest drawn row of column x, None if none."""
    def yof(v):
        return y1 - round(v * (y1 - y0) / ymax)
    def val(y):
        return (y1 - y) * ymax / (y1 - y0)
    dt = (t1 - t0) / (x1 - x0)
    bad, n, msgs = 0, 0, []
    for x in range(x0, x1 + 1):
        if skip(x) or x in marks:
            continue
        a = t0 + (x - x0 - 0.5) * dt
        b = t0 + (x - x0 + 0.5) * dt
        want = yof(true_max(changes, max(a, t0), b)) - line_above
        got = top_y(x)
        n += 1
        if got is None or abs(got - want) > 1:
            bad += 1
            if len(msgs) < 5:
                msgs.append('column %d (%.0f..%.0f ms): top row %s, true highest at row %d' % (x, a, b, got, want))
    print('columns', n, bad)
    def col(t):
        return x0 + int((t - t0) * (x1 - x0) / (t1 - t0) + 0.5)
    low = wide = nb = 0
    widest = 0
    for s, e, level, height in bursts:
        xa, xb = col(s), col(e)
        # A burst at an edge of the plot (its window past the first or last
        # column) is not measured: there is no column beside it.
        if any(skip(x) for x in range(xa - 2, xb + 3)) or xa - 2 < x0 or xb + 2 > x1:
            continue
        nb += 1
        tops = [top_y(x) for x in range(xa, xb + 1) if top_y(x) is not None]
        reached = val(min(tops)) if tops else 0
        if reached - level < 0.95 * height:
            low += 1
            if len(msgs) < 10:
                msgs.append('burst at %d ms: reaches %.0f B over its level, of %d' % (s, reached - level, height))
        yh = yof(level + height / 2)
        # Columns beside the burst whose own memory reaches half its height
        # (the end of the plateau) are not the burst's width.
        # So are the columns of another burst near it (a program that was
        # descheduled can make two bursts come a column or two apart).
        def other(x):
            a = t0 + (x - x0 - 0.5) * dt
            b = t0 + (x - x0 + 0.5) * dt
            if not (b <= s or a >= e):
                return False
            return (true_max(changes, max(a, t0), b) >= level + height / 2
                    or any(col(s2) <= x <= col(e2) for s2, e2, _, _ in bursts if (s2, e2) != (s, e)))
        # A mark's dashed line (1 px, over the data) is not the burst's.
        w = sum(1 for x in range(xa - 2, xb + 3) if ink_at(x, yh) and not other(x) and x not in marks)
        widest = max(widest, w)
        limit = max(2, 2 * (e - s) / dt)
        if w > limit:
            wide += 1
            if len(msgs) < 10:
                msgs.append('burst at %d ms: %d columns wide at half height, at most %.1f' % (s, w, limit))
    print('spikes', nb, low)
    print('widths', nb, wide, widest)
    for m in msgs:
        print('bad', m)


def png(dump, layout, truthf):
    lay = {}
    for line in open(layout):
        f = line.split()
        if len(f) > 2 and f[0] == 'layout':
            lay.setdefault(f[1], f[2:])
    x0, y0, x1, y1 = (int(v) for v in lay['plot'][:4])
    t0, t1 = (float(v) for v in lay['x'][:2])
    ymax = float(lay['y'][0])
    peak = int(lay['peak'][0])
    rows = [r.split() for r in open(dump)]
    def ink(x, y):
        # The background, the grid (and where its lines cross); the
        # hatches' light grounds (F2F2F2, FBE3D6) are ink.
        if y < y0 or y > y1 or x < x0 or x > x1:
            return False
        return rows[y - y0][x - x0] not in ('FFFFFF', 'EEEEEE', 'E2E2E2', 'EAEAEA', 'F3F3F3')
    def top_y(x):
        for y in range(y0, y1 + 1):
            if ink(x, y):
                return y
        return None
    # The marks' dashed lines, one column each.
    marks = {int(f[3]) for f in (line.split() for line in open(layout))
             if len(f) > 3 and f[0] == 'layout' and f[1] == 'mark'}
    changes, bursts = truth(truthf)
    # The peak's red line and disc stand over the data near its column.
    check(top_y, x0, x1, y0, y1, t0, t1, ymax, changes, bursts, lambda x: abs(x - peak) <= 8,
          ink, 1, marks)


def html(dom, truthf):
    text = open(dom, encoding='utf-8').read()
    svg = re.search(r'<svg[^>]*class="timeline"[^>]*>', text).group(0)
    attr = dict(re.findall(r'(data-[a-z0-9]+)="([^"]*)"', svg))
    x0, x1 = int(attr['data-x0']), int(attr['data-x1'])
    y0, y1 = float(attr['data-y0']), float(attr['data-y1'])
    t0, t1, ymax = float(attr['data-t0']), float(attr['data-t1']), float(attr['data-ymax'])
    # The outline: one rectangle per column, "M x ytop h1 V ybot h-1 Z".
    d = re.search(r'<path[^>]*class="outline"[^>]*>', text).group(0)
    d = re.search(r' d="([^"]*)"', d).group(1)
    span = {}
    for x, ya, yb in re.findall(r'M(-?[0-9.]+) (-?[0-9.]+)h1V(-?[0-9.]+)h-1Z', d):
        span[int(float(x))] = (float(ya), float(yb))
    def top_y(x):
        return span[x][0] if x in span else None
    def ink(x, y):
        return x in span and span[x][0] <= y <= span[x][1] or x in tops_fill and tops_fill[x] <= y
    # The bands' and the outside fill's tops, per column: the highest fill.
    tops_fill = {}
    for cls in ('band', 'outside'):
        for m in re.finditer(r'<path[^>]*class="%s"[^>]*>' % cls, text):
            dd = re.search(r' d="([^"]*)"', m.group(0))
            if not dd:
                continue
            for x, ya, yb in re.findall(r'M(-?[0-9.]+) (-?[0-9.]+)h1V(-?[0-9.]+)h-1Z', dd.group(1)):
                x = int(float(x))
                tops_fill[x] = min(tops_fill.get(x, 1e9), float(ya))
    changes, bursts = truth(truthf)
    # The SVG's rows are not whole pixels: a 1 px (1 unit) tolerance holds.
    check(top_y, x0, x1, y0, y1, t0, t1, ymax, changes, bursts, lambda x: False, ink, 1)


def gp(script, truthf):
    text = open(script, encoding='utf-8').read()
    m = re.search(r'# cols: (\d+) columns from (\S+) to (\S+)\n\$cols << EOD\n(.*?)EOD\n', text, re.S)
    ncol, t0, t1 = int(m.group(1)), float(m.group(2)), float(m.group(3))
    rows = [[float(v) for v in r.split()] for r in m.group(4).strip().split('\n')]
    dt = (t1 - t0) / (ncol - 1)
    ymax = max(r[-1] for r in rows) * 1.05
    y0, y1 = 0, 1000
    def yof(v):
        return y1 - round(v * (y1 - y0) / ymax)
    span, fill = {}, {}
    for left, right in zip(rows[0::2], rows[1::2]):
        # Column k's edges are t0 + (k -/+ 0.5) dt, cut to [t0, t1].
        k = round((right[0] - t0) / dt - 0.5) if right[0] < t1 else ncol - 1
        span[k] = (yof(right[-1]), yof(right[-2]))
        fill[k] = yof(right[-3])
    def top_y(x):
        return span[x][0] if x in span else None
    def ink(x, y):
        return x in span and (span[x][0] <= y <= span[x][1] or fill[x] <= y)
    changes, bursts = truth(truthf)
    check(top_y, 0, ncol - 1, y0, y1, t0, t1, ymax, changes, bursts, lambda x: False, ink, 0)


if sys.argv[1] == 'png':
    png(sys.argv[2], sys.argv[3], sys.argv[4])
elif sys.argv[1] == 'gp':
    gp(sys.argv[2], sys.argv[3])
else:
    html(sys.argv[2], sys.argv[3])
