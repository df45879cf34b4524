#!/usr/bin/env bash
# t100-heap-massif: memtime and Massif (the real one, run beside it) must agree
# on every snapshot (time, heap, extra, stacks, kind) and on every tree, names
# and bytes, with --time-unit=B --peak-inaccuracy=0.0, on C and C++ programs
# that use every allocation entry point, --ignore-fn and custom allocators.
# Only code addresses may differ (the two preloads have different sizes, so
# libraries load elsewhere); they are normalised to "0x:".
. "$(dirname "$0")/lib.sh"
need c++
plan 16

# The peak snapshot's tree, normalised (lib.sh: without desc: and addresses).
peak_tree() { normalised "$1" | awk '/^heap_tree=/{p=($0=="heap_tree=peak")} p && /^ *n[0-9]+: /'; }

compare() {   # NAME PROG [OPTIONS...]
  local name=$1 prog=$2; shift 2
  massif  --time-unit=B --peak-inaccuracy=0.0 "$@" --massif-out-file="$T/$name.ms" "$prog" >/dev/null 2>"$T/$name.ms.err"
  memtime --time-unit=B --peak-inaccuracy=0.0 "$@" --memtime-out-file="$T/$name.mt" "$prog" >/dev/null 2>"$T/$name.mt.err"
  snapshots "$T/$name.ms" >"$T/$name.ms.snap"
  snapshots "$T/$name.mt" >"$T/$name.mt.snap"
  if [ "$(wc -l <"$T/$name.ms.snap")" -ge 10 ]; then ok "$name: Massif took $(wc -l <"$T/$name.ms.snap") snapshots"
  else not_ok "$name: Massif took too few snapshots to compare"; fi
  is_file "$T/$name.mt.snap" "$T/$name.ms.snap" "$name: same snapshots (time, heap, extra, stacks, kind)"
  peak_tree "$T/$name.ms" >"$T/$name.ms.peak"
  peak_tree "$T/$name.mt" >"$T/$name.mt.peak"
  if [ -s "$T/$name.ms.peak" ]; then is_file "$T/$name.mt.peak" "$T/$name.ms.peak" "$name: same peak tree"
  else not_ok "$name: Massif recorded no peak tree"; fi
  normalised "$T/$name.ms" >"$T/$name.ms.all"
  normalised "$T/$name.mt" >"$T/$name.mt.all"
  is_file "$T/$name.mt.all" "$T/$name.ms.all" "$name: same file apart from desc: and addresses"
  check "$name: massif-visualizer's grammar" grammar "$T/$name.mt"
}

c=$(build_prog heap_c.c) || { not_ok "build heap_c.c"; exit 1; }
cxx=$(build_prog heap_cxx.cc) || { not_ok "build heap_cxx.cc"; exit 1; }
compare heap_c "$c" --ignore-fn=ignored_alloc
compare heap_cxx "$cxx"

# The ignored function's 4000 and 8000 bytes appear nowhere.
if sed 1d "$T/heap_c.mt" | grep -q ignored_alloc; then not_ok "--ignore-fn: ignored_alloc absent from the trees"
else ok "--ignore-fn: ignored_alloc absent from the trees"; fi
# The custom allocator's blocks are charged to its callers.
check "custom allocator: pool_alloc's blocks in a tree" grep -q 'pool_alloc (heap_c.c' "$T/heap_c.mt"

# A failed realloc leaves the block live and freeable: the heap ends at 0.
# (Massif 3.19 loses the block's record there and keeps counting its bytes.)
rf=$(build_prog heap_realloc_fail.c) || { not_ok "build heap_realloc_fail.c"; exit 1; }
memtime --time-unit=B --memtime-out-file="$T/rf.mt" "$rf" 2>/dev/null
is "$(snapshots "$T/rf.mt" | tail -1 | cut -d' ' -f3,4)" "0 0" "failed realloc: heap and extra back to 0 at the end"
massif --time-unit=B --massif-out-file="$T/rf.ms" "$rf" 2>/dev/null
diag "Massif $("$MT_VALGRIND" --tool=none --version) ends heap_realloc_fail with heap/extra: $(snapshots "$T/rf.ms" | tail -1 | cut -d' ' -f3,4)"

# realloc(p, 0): up to 3.20 the core's preload frees p itself; from 3.21 the
# tool decides, under --realloc-zero-bytes-frees (mt_compat.h).
rz=$(build_prog realloc_zero.c) || { not_ok "build realloc_zero.c"; exit 1; }
memtime --time-unit=B --memtime-out-file="$T/rz.mt" "$rz" >/dev/null 2>&1
massif --time-unit=B --massif-out-file="$T/rz.ms" "$rz" >/dev/null 2>&1
is "$(last_heap "$T/rz.mt") $(last_heap "$T/rz.ms")" "100 100" "realloc(p, 0) frees p, as under Massif"
if "$MT_VALGRIND" --tool=massif --help 2>/dev/null | grep -q -- '--realloc-zero-bytes-frees'; then
  memtime --time-unit=B --realloc-zero-bytes-frees=no --memtime-out-file="$T/rz1.mt" "$rz" >"$T/rz1.txt" 2>&1
  massif --time-unit=B --realloc-zero-bytes-frees=no --massif-out-file="$T/rz1.ms" "$rz" >/dev/null 2>&1
  is "$(last_heap "$T/rz1.mt") $(last_heap "$T/rz1.ms")" "101 101" \
    "--realloc-zero-bytes-frees=no: realloc(p, 0) is a 1-byte block, as under Massif"
  check "--realloc-zero-bytes-frees=no: the program gets a block" grep -q 'returned a block' "$T/rz1.txt"
else
  # The option is not this core's: it must refuse it, not ignore it.
  if memtime --realloc-zero-bytes-frees=no --memtime-out-file="$T/rz2.mt" true >/dev/null 2>&1; then
    not_ok "a core without --realloc-zero-bytes-frees refuses it"
  else ok "a core without --realloc-zero-bytes-frees refuses it"; fi
  check "and realloc(p, 0) returned NULL to the program" \
    sh -c "'$MT_VALGRIND' --tool=none -q '$rz' | grep -q 'returned NULL'"
fi
finish
