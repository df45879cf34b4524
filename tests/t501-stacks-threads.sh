#!/usr/bin/env bash
# t501-stacks-threads: --stacks=yes on a program whose five threads hold
# uneven stacks at the same moment (100..400 levels of ~1 KB, main 50).
# Massif --stacks=yes is the oracle for the combined peak; the companion
# gives each thread's own size, matched to the depth via the thread's name.
. "$(dirname "$0")/lib.sh"
need python3
plan 9

thr=$(build_prog stack_threads.c) || { not_ok "build stack_threads.c"; exit 1; }
memtime -q --stacks=yes --memtime-out-file="$T/thr.out" "$thr" 100 50 >/dev/null 2>&1
massif  -q --stacks=yes --massif-out-file="$T/thr.ms" "$thr" 100 50 >/dev/null 2>&1
mt=$(peak_stacks "$T/thr.out"); ms=$(peak_stacks "$T/thr.ms")
check "threads: peak stack $mt within 10% of Massif's $ms" within_pct "$mt" "$ms" 10
check "threads: peak covers 1050 levels of 1 KB" test "$mt" -ge 1050000

c="$T/thr.out.memtime"
is "$(grep -c '^thread: ' "$c")" 5 "companion: five threads"
# The stacks: line whose sum is the peak, as "tid=bytes" words.
line=$(awk -v p="$mt" '/^stacks: /{ s = 0; for (i = 4; i <= NF; i++) { split($i, kv, "="); s += kv[2] } if (s == p) { print; exit } }' "$c")
diag "peak line: $line"
for levels in 100 200 300 400; do
  tid=$(sed -n "s/^thread: tid=\([0-9]*\) name=deep-$levels\$/\1/p" "$c")
  sz=$(printf '%s\n' $line | sed -n "s/^$tid=//p")
  # A level is 1000 bytes of array plus the frame's bookkeeping (~1.05 KB at -O0).
  check "thread deep-$levels (tid ${tid:-?}): ${sz:-none} bytes within 10% of $levels x 1.04 KB" \
    within_pct "${sz:-0}" $((levels * 1040)) 10
done
main=$(printf '%s\n' $line | sed -n 's/^1=//p')
check "main thread: ${main:-none} bytes within 10% of 50 x 1.04 KB (+ start-up frames)" within_pct "${main:-0}" $((50 * 1040 + 2000)) 10
# The chart's series of a --stacks=yes run (the chart
# tells the truth): memtime-vis -o CSV
# against the file's trees and numbers (tests/csvcheck.py): parts add up to
# the total, stacks are each snapshot's own, sites exact at trees and never
# invented between them.
vis "$T/thr.out" -o "$T/thr.csv" 2>/dev/null
python3 "$MT_SRC/tests/csvcheck.py" "$T/thr.out" "$T/thr.csv" --auto >"$T/csv.bad"
check "--stacks=yes: the CSV agrees with the profile (stacks, trees, totals)" test $? = 0 -a ! -s "$T/csv.bad"
diag "$(head -5 "$T/csv.bad")"
finish
