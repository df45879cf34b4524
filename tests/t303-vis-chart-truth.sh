#!/usr/bin/env bash
# t303: the chart's series tell the truth. The fixture
# tests/data/phases.massif (made by tests/data/gen/phases.py, valid for
# ms_print) has trees at only 3 of 90 snapshots (25, 45, and 80, the peak):
# load_index holds 4 MiB until 290 ms, then build_cache ramps to 5 MiB, then
# serve_requests to 3 MiB at the peak; a stripped binary's two sites
# ("??? (in /tmp/phases-stripped)" at two addresses), a long Rust name, a
# name with a comma and quotes, and a site listed with 0 bytes in every tree.
# The CSV (-o NAME.csv) is checked against the file's trees by
# tests/csvcheck.py (its own reading of the file); the PNG by its pixels.
. "$(dirname "$0")/lib.sh"
need python3
[ -x "$MT_VIS" ] || plan_skip "memtime-vis not built ($MT_VIS)"
PNGCHECK="$MT_PROGS/pngcheck"
if [ ! -x "$PNGCHECK" ] || [ "$MT_SRC/tests/pngcheck.c" -nt "$PNGCHECK" ]; then
  cc -g -O1 -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=undefined \
    -o "$PNGCHECK.tmp.$$" "$MT_SRC/tests/pngcheck.c" $(pkg-config --cflags --libs libpng) \
    && mv -f "$PNGCHECK.tmp.$$" "$PNGCHECK" || plan_skip "cannot build tests/pngcheck.c"
fi
plan 23
FIX="$MT_SRC/tests/data/phases.massif"
CHECK="python3 $MT_SRC/tests/csvcheck.py"
check "ms_print reads the fixture" sh -c "ms_print '$FIX' >/dev/null"
# The sites, CSV name (the full name: memtime-vis.1, NAMES) = verbatim label.
MAP=("build_cache (phases.c:27)=0x4011A0: build_cache (phases.c:27)"
     "load_index (phases.c:14)=0x401120: load_index (phases.c:14)"
     "serve_requests (phases.c:41)=0x401230: serve_requests (phases.c:41)"
     "??? @0x1091F0 (in /tmp/phases-stripped)=0x1091F0: ??? (in /tmp/phases-stripped)"
     "??? @0x1091B7 (in /tmp/phases-stripped)=0x1091B7: ??? (in /tmp/phases-stripped)"
     'parse<a, b>("cfg") (cfg.c:3)=0x401400: parse<a, b>("cfg") (cfg.c:3)')
LONG=$(grep -o '0x4A0000: .*' "$FIX" | head -1)

vis "$FIX" -o "$T/all.csv" --top=50 2>"$T/err"
check "writes the CSV" test -s "$T/all.csv" -a ! -s "$T/err"
LONGNAME=$(python3 -c 'import csv,sys; h=next(csv.reader(open(sys.argv[1]))); print([c for c in h if "reserve_rehash" in c][0])' "$T/all.csv")
check "the long Rust name keeps its function (reserve_rehash): '$LONGNAME'" test -n "$LONGNAME"
MEMTIME_VIS_DEBUG_LAYOUT=1 vis "$FIX" -o "$T/c.png" --top=50 2>"$T/c.layout"
SHORT=$(sed -n 's/^layout band [0-9]* [0-9A-F]* .*reserve_rehash.*/&/p' "$T/c.layout" | cut -d' ' -f5-)
check "its legend name is at most 56 characters, its function whole: '$SHORT'" \
  sh -c "[ \$(printf %s '$SHORT' | wc -m) -le 56 ] && printf %s '$SHORT' | grep -q '::reserve_rehash (in libphases_cache.so)\$'"
$CHECK "$FIX" "$T/all.csv" "${MAP[@]}" "$LONGNAME=$LONG" >"$T/check.out"
check "CSV agrees with the file's trees, parts add up, no site invented between trees" test $? = 0
diag "$(cat "$T/check.out")"
head -1 "$T/all.csv" >"$T/head"
is "$(head -1 "$T/all.csv" | cut -d, -f1-4)" "snapshot,time,total,build_cache (phases.c:27)" \
  "header starts snapshot,time,total, then the top site"
is "$(head -1 "$T/all.csv" | awk -F, '{print $(NF-3)","$(NF-2)","$(NF-1)","$NF}')" \
  "other,unattributed,extra_heap,stacks" "header ends other,unattributed,extra_heap,stacks"
check "a site that never held a byte takes no column" sh -c "! grep -q never_used '$T/head'"
is "$(python3 -c 'import csv,sys; print(len(next(csv.reader(open(sys.argv[1])))))' "$T/all.csv")" 14 \
  "--top=50: the 7 sites that held memory, nothing else"
check "a name with a comma and quotes is quoted (RFC 4180)" grep -qF '"parse<a, b>(""cfg"") (cfg.c:3)"' "$T/head"
check "the two stripped sites carry their addresses" \
  sh -c "grep -qF '??? @0x1091F0 (in /tmp/phases-stripped)' '$T/head' && grep -qF '??? @0x1091B7 (in /tmp/phases-stripped)' '$T/head'"
# Between trees 25 (load_index 4 MiB, build_cache 0) and 45 (the reverse),
# neither is drawn: their memory is unattributed, not given to the other.
row35=$(awk -F, '$1==35' "$T/all.csv")
is "$(echo "$row35" | cut -d, -f4,5)" "0,0" "snapshot 35: neither load_index nor build_cache is credited"
is "$(echo "$row35" | awk -F, '{print $(NF-2)}')" 1048576 \
  "snapshot 35: its 1 MiB of build_cache ramp is unattributed"

# Ranking by largest: with --top=2 the 4 MiB phase freed long before the peak
# is drawn; the peak's 3 MiB serve_requests is not.
vis "$FIX" -o "$T/top2.csv" --top=2
is "$(head -1 "$T/top2.csv")" "snapshot,time,total,build_cache (phases.c:27),load_index (phases.c:14),other,unattributed,extra_heap,stacks" \
  "--top=2 draws the two sites that held most at their largest"
$CHECK "$FIX" "$T/top2.csv" "${MAP[@]}" >"$T/check2.out"
check "--top=2 CSV agrees with the trees too" test $? = 0

# The summary: the stripped sites told apart, the big phase listed under the peak list.
vis --summary-only --top=3 "$FIX" >"$T/sum.txt"
check "summary: the big phase freed before the peak is listed with its largest size and when" \
  grep -qE '^ +4\.00 MiB +[0-9.]+%  at 250 ms \(snapshot 25\)  load_index \(phases\.c:14\)$' "$T/sum.txt"
vis --summary-only --top=8 "$FIX" >"$T/sum8.txt"
check "summary: the two stripped sites carry their addresses" \
  sh -c "grep -qF '??? @0x1091F0 (in phases-stripped)' '$T/sum8.txt' && grep -qF '??? @0x1091B7 (in phases-stripped)' '$T/sum8.txt'"

# The PNG draws the CSV's numbers: the legend names the CSV's columns, by
# the short name --json gives the site whose full name the column has,
# and the unattributed memory is hatched, in the legend too.
vis --json "$FIX" >"$T/all.json"
python3 - "$T/all.csv" "$T/c.layout" "$T/all.json" >"$T/names.diff" <<'PY'
import csv, json, sys
head = next(csv.reader(open(sys.argv[1], encoding='utf-8')))[3:-4]
legend = [l.split(' ', 3)[3].rstrip('\n') for l in open(sys.argv[2], encoding='utf-8') if l.startswith('layout legend ')]
short = {r['site']: r['name'] for r in json.load(open(sys.argv[3], encoding='utf-8'))['growth']}
bad = ['%r != %r' % (short.get(a), b) for a, b in zip(head, legend) if short.get(a) != b]
if len(legend) < len(head):
    bad.append('legend has %d sites, CSV %d' % (len(legend), len(head)))
for b in bad:
    print(b)
PY
check "the legend shows each CSV column's site by its short name" test ! -s "$T/names.diff"
diag "$(cat "$T/names.diff")"
grep -q 'layout band [0-9]* A0A0A0 unattributed' "$T/c.layout"
check "unattributed is a band in the legend" test $? = 0
read -r X0 Y0 X1 Y1 <<<"$(awk '$2=="plot"{print $3,$4,$5,$6}' "$T/c.layout")"
read -r T0 TT1 <<<"$(awk '$2=="x"{print $3,$4}' "$T/c.layout")"
YMAX=$(awk '$2=="y"{print $3}' "$T/c.layout")
# Snapshot 35 (t=350..360): unattributed spans the heap above the small sites.
x=$(awk -v t=355 -v a="$T0" -v b="$TT1" -v x0="$X0" -v x1="$X1" 'BEGIN{printf "%d", x0+(t-a)*(x1-x0)/(b-a)+0.5}')
y=$(awk -v v=1200000 -v m="$YMAX" -v y0="$Y0" -v y1="$Y1" 'BEGIN{printf "%d", y1-v*(y1-y0)/m+0.5}')
cols=$(for dy in 0 1 2 3 4 5 6 7 8 9; do "$PNGCHECK" "$T/c.png" at "$x" $((y + dy)); done | sort -u | tr '\n' ' ')
is "$cols" "A0A0A0 F2F2F2 " "snapshot 35 is hatched (two colours down one column)"
# Colours: every drawn band has its own, up to the largest --top.
check "no two bands share a colour" test "$(awk '$2=="band"{print $4}' "$T/c.layout" | sort | uniq -d | wc -l)" = 0
# Labels never overlap: marks right beside the peak (270 and 330 ms; the peak
# is at 300) and far from it. From the layout: no two labels on one row
# overlap, and no leader runs through another label's text on its way down.
cp "$MT_SRC/tests/data/chart-steps.massif" "$T/marks.massif"
printf 'memtime-companion: 1\nprofile: marks.massif\ntime_unit: ms\nmark: time=270 just before the peak\nmark: time=330 just after the peak\nmark: time=300 at the peak itself\nmark: time=900 late\n' >"$T/marks.massif.memtime"
for w in 1600 800; do
  MEMTIME_VIS_DEBUG_LAYOUT=1 vis "$T/marks.massif" -o "$T/m$w.png" --width $w --height 600 2>"$T/m$w.layout"
  python3 - "$T/m$w.layout" >"$T/m$w.bad" <<'PY'
import sys
xs, ann = {}, {}
for l in open(sys.argv[1]):
    f = l.split()
    if f[1] == 'peak': xs[0] = int(f[2])
    if f[1] == 'mark': xs[int(f[2]) + 1] = int(f[3])
    if f[1] == 'annot': ann[int(f[2])] = (int(f[3]), int(f[4]), int(f[5]))
for i, (li, lx, w) in ann.items():
    for j, (lj, ljx, wj) in ann.items():
        if i != j and li == lj and lx < ljx + wj and ljx < lx + w:
            print('labels %d and %d overlap on row %d' % (i, j, li))
        if i != j and lj > li and lx < xs[j] < lx + w:
            print("label %d's leader runs through label %d" % (j, i))
PY
  check "width $w: no label overlaps another or is crossed by a leader" test ! -s "$T/m$w.bad"
  diag "$(cat "$T/m$w.bad")"
done
finish
