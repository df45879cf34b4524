#!/usr/bin/env bash
# t304: the gnuplot SVG/PDF keep the PNG's layout with long names (a chart
# that tells the truth, in every format):
# a profile whose sites have 60-character names and whose command line has
# 120 characters (made from tests/data/phases.massif) is drawn as SVG; the
# SVG is parsed with an XML parser (python3 xml.etree): the plot (the extent
# of its grid lines) keeps at least 60% of the width, the title is the
# command, or where it does not fit a prefix of it cut at a word boundary
# with an ellipsis, and the numbers drawn (the script's datablock) are the
# CSV's (-o NAME.csv).
. "$(dirname "$0")/lib.sh"
need gnuplot python3
[ -x "$MT_VIS" ] || plan_skip "memtime-vis not built ($MT_VIS)"
plan 11
CMD='./long-command-line-program --with-a-very-long-option=value --and-another-option=some/long/path/to/a/file --verbose --xy'
sed -e "s|^cmd: .*|cmd: $CMD|" \
    -e 's|load_index (phases.c:14)|load_index_from_the_very_long_named_module_xyz (phases.c:14)|' \
    -e 's|build_cache (phases.c:27)|build_cache_for_all_the_requests_served_today (phases.c:27)|' \
    -e 's|serve_requests (phases.c:41)|serve_requests_coming_in_from_the_network_socket (net.c:41)|' \
    "$MT_SRC/tests/data/phases.massif" >"$T/long.massif"
is "$(printf %s "$CMD" | wc -c)" 120 "the command line has 120 characters"
check "site names of 60 characters" grep -q ' n0: [0-9]* 0x401120: load_index_from_the_very_long_named_module_xyz (phases.c:14)$' "$T/long.massif"

# svgcheck SVG WIDTH: prints "PLOT_FRACTION TITLE" (the title: the text
# drawn at the largest font size).
svgcheck() {
  python3 - "$1" "$2" <<'PY'
import re, sys, xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
W = float(sys.argv[2])
xs = []
for p in root.iter(ns + 'path'):
    if p.get('class') == 'gridline':
        xs += [float(v) for v in re.findall(r'[ML]([\d.]+),', p.get('d'))]
best, title = 0, ''
for g in root.iter(ns + 'g'):
    fs = float(g.get('font-size') or 0)
    for t in g.iter(ns + 'text'):
        text = ''.join(t.itertext()).strip()
        if fs > best and text:
            best, title = fs, text
print('%.3f %s' % ((max(xs) - min(xs)) / W, title))
PY
}
for w in 1600 1000; do
  vis "$T/long.massif" -o "$T/w$w.svg" --width "$w" --height 900 2>"$T/err"
  check "width $w: the SVG is written" test -s "$T/w$w.svg" -a ! -s "$T/err"
  read -r frac title <<<"$(svgcheck "$T/w$w.svg" "$w")"
  check "width $w: the plot keeps >= 60% of the width ($frac)" awk -v f="$frac" 'BEGIN{exit !(f >= 0.60)}'
  case $title in
    "$CMD") ok "width $w: the title is the whole command" ;;
    *" …") p=${title% …}
      if [ "${CMD#"$p"}" != "$CMD" ] && [ "${CMD:${#p}:1}" = " " ]; then
        ok "width $w: the title is cut at a word boundary with an ellipsis: '$title'"
      else not_ok "width $w: the title is cut at a word boundary with an ellipsis: '$title'"; fi ;;
    *) not_ok "width $w: title '$title'" ;;
  esac
done
# At 1000 px the 120 characters do not fit: the title must have been cut.
check "width 1000: the title was shortened" sh -c "! grep -qF -- '--verbose --xy<' '$T/w1000.svg'"

# The numbers drawn are the CSV's: the datablock's cumulative boundaries
# are the CSV's parts (its non-zero columns) added up, snapshot by snapshot,
# and each column the plot draws ($cols) shows one snapshot's.
vis "$T/long.massif" -o "$T/l.csv" --gnuplot "$T/l.gp"
python3 - "$T/l.csv" "$T/l.gp" >"$T/data.diff" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding='utf-8')))[1:]
parts = [[int(x) for x in r[3:]] for r in rows]
keep = [k for k in range(len(parts[0])) if any(p[k] for p in parts)]
lines = open(sys.argv[2], encoding='utf-8').read().split('$data << EOD\n')[1].split('EOD\n')[0].split('\n')[:-1]
new = [lines[0]] + lines[2::2]           # each snapshot's own row (the first has one)
bad = []
for r, p, l in zip(rows, parts, new):
    want, cum = [r[1], '0'], 0
    for k in keep:
        cum += p[k]
        want.append(str(cum))
    if l.split() != want:
        bad.append('%s != %s' % (l, ' '.join(want)))
if len(new) != len(rows):
    bad.append('%d rows for %d snapshots' % (len(new), len(rows)))
# What the plot draws ($cols, one column a pixel, chart_data's rule): for a
# file without an outline, every column's bands are a snapshot's numbers.
text = open(sys.argv[2], encoding='utf-8').read()
cols = text.split('$cols << EOD\n')[1].split('EOD\n')[0].split('\n')[:-1]
snaps = {tuple(l.split()[1:]) for l in lines}
odd = [c for c in cols if tuple(c.split()[1:-3]) not in snaps]
if not cols or odd:
    bad.append('%d of %d columns are no snapshot\'s numbers: %s' % (len(odd), len(cols), odd[:2]))
print('\n'.join(bad[:5]), end='')
PY
check "the SVG's data are the CSV's numbers" test ! -s "$T/data.diff"
diag "$(cat "$T/data.diff")"
vis "$T/long.massif" -o "$T/l.pdf" 2>"$T/err"
check "the PDF is written" sh -c "head -c 5 '$T/l.pdf' | grep -q '%PDF-'"
finish
