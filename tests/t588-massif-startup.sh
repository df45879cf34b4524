#!/usr/bin/env bash
# t588-massif-startup: the two documented start-up differences from Massif
# (memtime.1, "Differences from Massif at start-up"; the README's comparison with Massif).
# 1. --time-unit=i: every time after snapshot 0 is later than Massif's by
#    the instructions the dynamic loader spends on memtime's preload, which
#    is bigger than Massif's. With LD_BIND_NOW=1 (every symbol bound before
#    main) that is one constant for the whole run, and everything else
#    (heap, extra, kind of each snapshot) is Massif's; with lazy binding
#    the offset moves by a few dozen instructions, either way, at the first
#    call of a function the loader binds then (its symbol lookup also walks
#    memtime's preload, whose hash chains differ from Massif's).
# 2. --pages-as-heap=yes: Massif takes a snapshot per start-up mapping the
#    core reports before the program's first instruction, all at time 0;
#    memtime records the same pages but its first snapshot is at the first
#    instruction, holding all of them at once.
. "$(dirname "$0")/lib.sh"
plan 7

P=$(build_prog heap_c.c) || { echo "Bail out! cannot build heap_c.c"; exit 1; }
# "time heap extra kind" per snapshot.
snaps() {
  awk -F= '/^time=/{t=$2} /^mem_heap_B=/{h=$2} /^mem_heap_extra_B=/{x=$2} /^heap_tree=/{print t, h, x, $2}' "$1"
}
run_both() {   # NAME [OPTIONS...]: both tools, 1000 snapshots (no culling)
  local name=$1; shift
  massif  --time-unit=i --max-snapshots=1000 "$@" --massif-out-file="$T/$name.ms" "$P" >/dev/null 2>&1
  memtime --time-unit=i --max-snapshots=1000 "$@" --memtime-out-file="$T/$name.mt" "$P" >/dev/null 2>&1
  snaps "$T/$name.ms" >"$T/$name.ms.s"
  snaps "$T/$name.mt" >"$T/$name.mt.s"
}
# The offsets memtime - Massif of snapshots 1.. (one per line).
offsets() { paste -d' ' "$T/$1.ms.s" "$T/$1.mt.s" | awk 'NR > 1 { print $5 - $1 }'; }

LD_BIND_NOW=1 run_both now
is "$(cut -d' ' -f2- "$T/now.mt.s")" "$(cut -d' ' -f2- "$T/now.ms.s")" \
   "i, LD_BIND_NOW=1: the same snapshots ($(wc -l <"$T/now.ms.s")), each with Massif's heap, extra and kind"
d=$(offsets now | sort -u)
check "i, LD_BIND_NOW=1: snapshot 0 at time 0 in both, every later time Massif's plus one constant ($(echo $d))" \
  sh -c "[ '$(head -1 "$T/now.mt.s" | cut -d' ' -f1)' = 0 ] && [ '$(head -1 "$T/now.ms.s" | cut -d' ' -f1)' = 0 ] \
         && [ $(echo "$d" | wc -l) = 1 ] && [ '$d' -gt 0 ] && [ '$d' -lt 5000 ]"

run_both lazy
offs=$(offsets lazy)
first=$(echo "$offs" | head -1) last=$(echo "$offs" | tail -1)
# within FIRST LIST: every offset within 1000 instructions of the first.
within() { printf '%s\n' "$2" | awk -v f="$1" '{ d = $1 - f; if (d < 0) d = -d; if (d >= 1000) exit 1 }'; }
check "i, lazy binding: the offset starts positive ($first)" test "$first" -gt 0
check "... and moves by a few dozen instructions per lazily bound function (by $(( last - first )) to the end)" \
  within "$first" "$offs"

run_both pages --pages-as-heap=yes
n_ms=$(awk '$1 == 0' "$T/pages.ms.s" | wc -l)
n_mt=$(awk '$1 == 0' "$T/pages.mt.s" | wc -l)
check "pages-as-heap: Massif takes a snapshot per start-up mapping at time 0 ($n_ms), the first of one page" \
  sh -c "[ $n_ms -ge 5 ] && [ '$(head -1 "$T/pages.ms.s" | cut -d' ' -f2)' = 4096 ]"
is "$n_mt" 1 "pages-as-heap: memtime takes one snapshot at time 0, at the first instruction"
first_mt=$(head -1 "$T/pages.mt.s" | cut -d' ' -f2)
check "... holding every start-up mapping at once ($first_mt bytes)" test "$first_mt" -ge 65536
finish
