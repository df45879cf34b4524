#!/usr/bin/env bash
# t307-chart-group-by: the charts follow --group-by (every byte
# named at a level a person can act on, on the chart too). A crafted
# profile (written here) holds three sites in two files: a_table (alpha.c)
# 4 MiB, a_index (alpha.c) 2 MiB, b_log (beta.c) 2 MiB, at the peak. By
# construction: --group-by=file draws two bands, alpha.c (6 MiB) and beta.c
# (2 MiB), measured from the pixels in the ratio 3:1; --group-by=function
# three; the legend's heading, gnuplot's key and the CSV's columns say so.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/chart-lib.sh"
need gnuplot python3
plan 8
FIX="$T/g.massif"
python3 - "$FIX" <<'PY'
import sys
M = 1 << 20
sites = [('0x401000: a_table (alpha.c:10)', 4*M), ('0x402000: a_index (alpha.c:20)', 2*M),
         ('0x403000: b_log (beta.c:5)', 2*M)]
with open(sys.argv[1], 'w') as f:
    f.write('desc: crafted by t307\ncmd: ./grouped\ntime_unit: ms\n')
    for i, (t, scale) in enumerate([(100, 1), (500, 1), (1000, 1)]):
        tot = sum(b for _, b in sites)
        f.write('#-----------\nsnapshot=%d\n#-----------\ntime=%d\nmem_heap_B=%d\n'
                'mem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=%s\n' % (i, t, tot, 'peak' if i == 1 else 'detailed'))
        f.write('n3: %d (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n' % tot)
        for n, b in sites:
            f.write(' n0: %d %s\n' % (b, n))
PY
check "ms_print reads the fixture" sh -c "ms_print '$FIX' >/dev/null"
render file --group-by=file
render func --group-by=function
is "$(awk '$2=="band"{ $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print }' "$T/file.layout" | tr '\n' ';')" \
  "alpha.c;beta.c;" "--group-by=file: one band per file"
is "$(awk '$2=="band"{ $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print }' "$T/func.layout" | tr '\n' ';')" \
  "a_table;a_index;b_log;" "--group-by=function: one band per function"
load_plot file
X=$(xt 700)
read -r a b <<<"$("$PNGCHECK" "$T/file.png" runs "$X" "$Y0" "$Y1" | awk '
  $3 == "4E79A7" { a += $2 - $1 + 1 } $3 == "F28E2B" { b += $2 - $1 + 1 } END{ print a + 0, b + 0 }')"
check "--group-by=file: the bands' heights from the pixels, alpha.c $a px and beta.c $b px, are 3:1" \
  awk -v a="$a" -v b="$b" 'BEGIN{ exit !(b > 0 && a / b > 2.8 && a / b < 3.2) }'
is "$(sed -n 's/^layout legendhead //p' "$T/file.layout") / $(sed -n 's/^layout legendhead //p' "$T/func.layout")" \
  "Memory by file / Memory by function" "the legend's heading names the grouping"
"$MT_VIS" --group-by=file "$FIX" --gnuplot="$T/g.gp"
check "gnuplot: the key says 'by file' and names both files" \
  sh -c "grep -q '\"by file  \[value at the peak\]\"' '$T/g.gp' && grep -q 'title \"alpha.c  \[6.00 MiB\]\"' '$T/g.gp' && grep -q 'title \"beta.c  \[2.00 MiB\]\"' '$T/g.gp'"
"$MT_VIS" --group-by=file "$FIX" -o "$T/g.csv"
is "$(head -3 "$T/g.csv" | cut -d, -f1-5 | tr '\n' ';')" \
  "snapshot,time,total,alpha.c,beta.c;0,100,8388608,6291456,2097152;1,500,8388608,6291456,2097152;" \
  "CSV: the file groups' columns and bytes"
"$MT_VIS" "$FIX" --gnuplot="$T/s.gp"
check "without --group-by (C sites: site grouping) the key says 'by site'" grep -q '"by site  \[value at the peak\]"' "$T/s.gp"
finish
