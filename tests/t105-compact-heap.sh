#!/usr/bin/env bash
# t105-compact-heap: --compact-heap=yes keeps small blocks in memtime's own
# slabs and the others in its open-addressing table. Oracles: the program
# checks every answer the allocator gives it (usable sizes as Valgrind's
# arena gives them, realloc in place and moving, calloc zeroing reused
# memory, alignment, a custom allocator's block at the start of a malloc'd
# pool, thousands of big blocks found again while the table grows) and
# prints the bytes it holds at its one peak; Massif, run beside it, gives
# the peak tree, which only the extra bytes may not change. The default
# keeps Massif's exact extra bytes (t100), checked here on the same program.
. "$(dirname "$0")/lib.sh"
plan 11

prog=$(build_prog compact_heap.c) || { not_ok "build compact_heap.c"; exit 1; }
peak_tree() { normalised "$1" | awk '/^heap_tree=/{p=($0=="heap_tree=peak")} p && /^ *n[0-9]+: /'; }

massif --time-unit=B --peak-inaccuracy=0.0 --massif-out-file="$T/ms" "$prog" 3000 arena >"$T/ms.out" 2>"$T/ms.err"
is "$?" 0 "Massif: the program's own checks pass (arena sizes)"
memtime -v --compact-heap=yes --time-unit=B --peak-inaccuracy=0.0 --memtime-out-file="$T/mt" "$prog" 3000 \
  >"$T/mt.out" 2>"$T/mt.err"
rc=$?
is "$rc" 0 "--compact-heap=yes: the program's own checks pass (usable sizes, realloc, calloc, alignment, pool, big blocks)"
[ "$rc" = 0 ] || diag "$(grep compact_heap: "$T/mt.err")"
peak=$(sed -n 's/^peak //p' "$T/mt.out")
peak_tree "$T/ms" >"$T/ms.peak"
peak_tree "$T/mt" >"$T/mt.peak"
is_file "$T/mt.peak" "$T/ms.peak" "--compact-heap=yes: the peak tree is Massif's"
is "$(awk '/^ *n[0-9]+: /{print $2; exit}' "$T/mt.peak")" "$peak" "the peak holds what the program says it holds ($peak bytes)"
check "massif-visualizer's grammar" grammar "$T/mt"

# -v: the tool's own memory at exit.
most=$(sed -n 's/.*memtime: blocks: [0-9]* live at exit, at most \([0-9]*\) at once$/\1/p' "$T/mt.err")
if [ -n "$most" ] && [ "$most" -ge 73000 ]; then ok "-v: live blocks at exit and at most ($most; the program holds 73,000)"
else not_ok "-v: live blocks at most: '$most'"; fi
per=$(sed -n 's/.*memtime: own memory for them: .*, \([0-9]*\) bytes per block at the high$/\1/p' "$T/mt.err")
if [ -n "$per" ] && [ "$per" -le 32 ]; then ok "-v: $per bytes of bookkeeping per block at the high (at most 32)"
else not_ok "-v: bytes per block at the high: '${per}' (want at most 32)"; diag "$(grep 'memtime:' "$T/mt.err")"; fi
grep -Eq 'memtime: table: [0-9]+ blocks in [0-9]+ slots of 32 bytes \(load [0-9]+%\)' "$T/mt.err"
is "$?" 0 "-v: the table's load"
slots=$(sed -n 's/.*memtime: table: [0-9]* blocks in \([0-9]*\) slots.*/\1/p' "$T/mt.err")
if [ -n "$slots" ] && [ "$slots" -ge 4096 ]; then ok "the table grew past its first 1024 slots ($slots)"
else not_ok "the table did not grow ($slots slots)"; fi
grep -q 'memtime: slabs: 0 blocks, [1-9][0-9]* slabs of 64 KB' "$T/mt.err"
is "$?" 0 "-v: slabs were used and are empty at exit"

# The default: Valgrind's arena, whose unsplit remainders the program allows.
memtime --time-unit=B --peak-inaccuracy=0.0 --memtime-out-file="$T/mt0" "$prog" 3000 arena >/dev/null 2>"$T/mt0.err"
is "$?" 0 "default: the program's own checks pass (arena sizes)"
