#!/usr/bin/env bash
# t209-vis-report-onepass: the text report reads the file once. Its table and
# trees are rendered while the file is read and wait for the graph in memory
# (up to 1 MiB), then in an unlinked scratch file in $TMPDIR; without one (an
# unusable TMPDIR), or for a tree that is not nested with a node that prints
# under one that does not, the report walks the trees from the file again.
# Every way gives the same text: checked on a report of several MB (the
# scratch file, and the walk when TMPDIR is unusable) and on trees that are
# not nested, against ms_print where it is installed. The scratch file
# leaves nothing behind.
. "$(dirname "$0")/lib.sh"
plan 13
cd "$T" || exit 1
have_ms_print() { command -v ms_print >/dev/null; }

# A profile whose report is about 3 MB: 12 detailed snapshots of nested
# trees 30 levels deep, labels of many lengths (some over 128 bytes), every
# node printed with --threshold=0.
awk 'BEGIN {
  print "desc: --detailed-freq=1"; print "cmd: ./big"; print "time_unit: B"
  srand(209)
  for (s = 0; s < 12; s++) {
    total = 1000000 + s * 1000
    print "#-----------"; print "snapshot=" s; print "#-----------"
    print "time=" s * 100; print "mem_heap_B=" total; print "mem_heap_extra_B=8"; print "mem_stacks_B=0"
    print (s == 9 ? "heap_tree=peak" : "heap_tree=detailed")
    node(0, total)
  }
}
function node(d, b,    k, i, part, rest, pad, lab) {
  k = (d >= 30 || b < 3000) ? 0 : (d < 2 ? 3 : (rand() < 0.7 ? 1 : 2))
  pad = sprintf("%" d "s", "")
  lab = d == 0 ? "(heap allocation functions) malloc/new/new[], --alloc-fns, etc." \
               : sprintf("0x%X: fn_%d_%d(int, char**) (file_%d.c:%d)%s", 4096 + d * 7919 + k, d, int(rand() * 50), d, int(rand() * 900), substr("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 1, int(rand() * 100)))
  print pad "n" k ": " b " " lab
  rest = b
  for (i = 0; i < k; i++) {
    part = (i == k - 1) ? rest : int(rest * (0.5 + rand() * 0.3))
    rest -= part
    node(d + 1, part)
  }
}' >big.out
mkdir tmp
TMPDIR="$T/tmp" vis --threshold=0 big.out >scratch.txt 2>err.txt
is "$?:$(cat err.txt)" "0:" "a report of about 3 MB: exit 0, silent"
size=$(wc -c <scratch.txt)
check "  ... it is over 1 MiB ($size bytes), more than the report keeps in memory" test "$size" -gt 1048576
is "$(ls -A tmp | wc -l)" 0 "  ... which leaves nothing in TMPDIR"
TMPDIR="$T/nonexistent" vis --threshold=0 big.out >walked.txt 2>err.txt
is "$?:$(cat err.txt)" "0:" "unusable TMPDIR: exit 0, silent (the trees are read again)"
is_file walked.txt scratch.txt "  ... and the same report"
: >afile
TMPDIR="$T/afile" vis --threshold=0 --ms-print-only big.out >walked.txt 2>/dev/null
TMPDIR="$T/tmp" vis --threshold=0 --ms-print-only big.out >scratch.txt 2>/dev/null
is_file walked.txt scratch.txt "TMPDIR a file, --ms-print-only: the same report"
TMPDIR="$T/tmp" vis --threshold=0 --ms-print-only --report=rep.txt big.out
is_file rep.txt scratch.txt "--report=FILE: the same report as on stdout"
if have_ms_print; then
  ms_print --threshold=0 big.out >ms.txt 2>/dev/null
  is_file scratch.txt ms.txt "about 3 MB, --threshold=0: identical to ms_print"
  ms_print --threshold=2 --x=40 big.out >ms.txt 2>/dev/null
  TMPDIR="$T/tmp" vis --ms-print-only --threshold=2 --x=40 big.out >vis.txt
  is_file vis.txt ms.txt "about 3 MB, --threshold=2 --x=40: identical to ms_print"
else
  skip "ms_print is not installed"; skip "ms_print is not installed"
fi

# Trees that are not nested (Massif never writes one; the grammar allows it).
tree() {   # TOTAL NODE-LINES...: a file with three detailed snapshots of one tree
  local total=$1; shift
  printf 'desc: (none)\ncmd: ./t\ntime_unit: i\n'
  for s in 0 1 2; do
    printf '#-----------\nsnapshot=%d\n#-----------\ntime=%d\nmem_heap_B=%d\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=%s\n' \
      "$s" $((s * 10)) "$total" "$([ $s = 1 ] && echo peak || echo detailed)"
    printf '%s\n' "$@"
  done
}
# A node that prints (90%) under one that does not (0.5%): ms_print prints it.
tree 1000 'n2: 1000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.' \
  ' n1: 5 0x1: small (a.c:1)' '  n1: 900 0x2: big_under_small (a.c:2)' '   n0: 900 0x3: leaf (a.c:3)' \
  ' n0: 95 0x4: other (a.c:4)' >under.out
vis --ms-print-only under.out >vis.txt 2>err.txt
is "$(grep -c '^| ->90.00% (900B) 0x2: big_under_small (a.c:2)$' vis.txt):$(cat err.txt)" "3:" \
  "a printing node under one below the threshold: printed in all three trees"
# Larger than its parent, but below the threshold like it: nothing more prints.
tree 1000 'n2: 1000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.' \
  ' n2: 5 0x1: small (a.c:1)' '  n0: 3 0x2: a (a.c:2)' '  n0: 9 0x5: over (a.c:5)' \
  ' n1: 995 0x4: other (a.c:4)' '  n0: 995 0x6: z (a.c:6)' >over.out
vis --ms-print-only over.out >vis2.txt 2>err.txt
is "$(grep -c '0x5: over\|0x1: small' vis2.txt):$(cat err.txt)" "0:" "nodes over their parent, all below the threshold: none printed"
if have_ms_print; then
  ms_print under.out >ms.txt 2>/dev/null
  is_file vis.txt ms.txt "a printing node under one below the threshold: identical to ms_print"
  ms_print over.out >ms.txt 2>/dev/null
  is_file vis2.txt ms.txt "nodes over their parent, all below the threshold: identical to ms_print"
else
  skip "ms_print is not installed"; skip "ms_print is not installed"
fi
finish
