#!/usr/bin/env bash
# t207-vis-summary: the summary memtime-vis prints first, against reviewed
# expected files (tests/expected/summary/), for Massif files in two time
# units with and without a marked peak that has a tree, with --top, and for a
# profile with a companion file (phase marks). Every summary, golden or not,
# is also checked against an independent reading of the file
# (tests/summary-oracle.pl, Perl, apart from memtime-vis's C parser): the
# counts, the peak, its parts, the sites in file order with their bytes and
# shares, the rest, the marks, each shown value the exact one rounded.
. "$(dirname "$0")/lib.sh"
plan 14
oracle() {   # SUMMARY-FILE DESCRIPTION [--top=N] FILE
  local sum=$1 d=$2; shift 2
  if perl "$MT_SRC/tests/summary-oracle.pl" "$@" "$sum" >"$T/oracle.err" 2>&1; then ok "$d"
  else not_ok "$d"; diag "$(cat "$T/oracle.err")"; fi
}
cd "$MT_SRC/tests/data" || exit 1
golden() {   # EXPECTED-NAME ARGS...
  local name=$1; shift
  vis --summary-only "$@" >"$T/$name.txt" 2>"$T/err"
  is_file "$T/$name.txt" "$MT_SRC/tests/expected/summary/$name.txt" "summary of $* as expected"
  oracle "$T/$name.txt" "summary of $*: agrees with an independent reading of the file" "$@"
}
golden massif-B massif-B.out
golden massif-pages-top3 --top=3 massif-pages.out
golden massif-cxx massif-cxx.out
golden chart-steps chart-steps.massif
# The peak line agrees with an independent reading of the file (awk): the
# largest heap+extra+stacks, the marked peak winning a tie.
want=$(awk -F= '/^snapshot=/{n=$2} /^mem_heap_B=/{h=$2} /^mem_heap_extra_B=/{x=$2} /^mem_stacks_B=/{t=h+x+$2}
  /^heap_tree=/{ if (t > best || (t == best && $2 == "peak")) { best = t; at = n } } END { print best, at }' massif-cxx.out)
got=$(vis --summary-only massif-cxx.out | sed -n 's/^  Peak: .*(\([0-9,]*\) B) at .*, snapshot \([0-9]*\)$/\1 \2/p' | tr -d ,)
is "$got" "$want" "peak total and snapshot match the file"
# The largest total elsewhere than the snapshot the file marks as its peak
# (Massif's --peak-inaccuracy): the peak is the marked one, with its tree,
# and the largest total is stated beside it.
sed 's/^mem_heap_B=1000$/mem_heap_B=20000/' small.out >"$T/late.out"
vis --summary-only "$T/late.out" >"$T/late.txt"
is "$(grep -c -e '^  Peak:       8.00 KiB (8,192 B) at 8.00 KiB, snapshot 2$' \
  -e '^  Largest:    19.6 KiB (20,024 B) at 12.0 KiB, snapshot 3: more than at the peak the file marks$' \
  -e '^Top allocation sites at the peak (snapshot 2, 8.00 KiB):$' "$T/late.txt")" 3 \
  "the peak is the marked one; the largest total elsewhere is stated plainly"
oracle "$T/late.txt" "the largest total elsewhere: agrees with an independent reading" "$T/late.out"
# Sites of a phase freed before the peak, the stripped binary's two sites
# told apart by address, a killed run (tests/data/phases.massif).
cp phases.massif "$T/phases.massif"
printf 'memtime-companion: 1\nprofile: phases.massif\ntime_unit: ms\nend: none\n' >"$T/phases.massif.memtime"
vis --summary-only --top=3 "$T/phases.massif" >"$T/phases.txt"
oracle "$T/phases.txt" "phases, killed: agrees with an independent reading" --top=3 "$T/phases.massif"
vis --summary-only --top=2 massif-cxx.out >"$T/top2.txt"
is "$(grep -c '^  *[0-9]*\. ' "$T/top2.txt")" 2 "--top=2 lists two sites"
oracle "$T/top2.txt" "--top=2: agrees with an independent reading (the rest summed)" --top=2 massif-cxx.out
finish
