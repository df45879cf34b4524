#!/usr/bin/env bash
# t630-hostile-alloc: allocation calls a careless or hostile program makes
# give what Massif gives: tests/progs/hostile_alloc.cc (malloc(SIZE_MAX),
# overflowing calloc, malloc(0), realloc(NULL, n), realloc(p, 0), bad and
# zero alignments to memalign, posix_memalign and aligned_alloc, zero-sized
# new[]) under memtime and under Massif, --time-unit=B --detailed-freq=1:
# the program gets the same answers, the two files are the same snapshot
# for snapshot and tree for tree (addresses aside), and the same Valgrind
# warnings are printed. Bogus frees (a stack address, a pointer inside a
# block, a double free) kill Massif 3.19 itself, so there memtime is held
# to the program's own run without them: no crash, the same snapshots.
# jemalloc's mallocx with MALLOCX_ARENA, MALLOCX_TCACHE_NONE, no flags,
# MALLOCX_ZERO, SIZE_MAX and an impossible alignment (Massif does not see
# mallocx at all) must answer as jemalloc does natively, and count exactly
# the bytes the program keeps.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/progs/jemalloc_build.sh"
need c++ lib:jemalloc
plan 11
P=$(build_prog hostile_alloc.cc -fno-builtin) || { not_ok "build hostile_alloc.cc"; exit 1; }
warnings() { grep -i 'warning' "$1" | sed 's/^==[0-9]*== //'; }
OPTS="--time-unit=B --peak-inaccuracy=0.0 --detailed-freq=1"

massif  $OPTS --massif-out-file="$T/h.ms"  "$P" >"$T/ms.txt" 2>"$T/ms.err"
is "$?" 0 "Massif runs the program"
memtime $OPTS --memtime-out-file="$T/h.mt" "$P" >"$T/mt.txt" 2>"$T/mt.err"
is "$?" 0 "memtime runs the program"
is_file "$T/mt.txt" "$T/ms.txt" "the program gets the same answers ($(wc -l <"$T/ms.txt") calls reported)"
snapshots "$T/h.ms" >"$T/ms.snap"; snapshots "$T/h.mt" >"$T/mt.snap"
is_file "$T/mt.snap" "$T/ms.snap" "same snapshots as Massif ($(wc -l <"$T/ms.snap"): time, heap, extra, stacks, kind)"
normalised "$T/h.ms" >"$T/ms.all"; normalised "$T/h.mt" >"$T/mt.all"
is_file "$T/mt.all" "$T/ms.all" "same file as Massif's apart from desc: and addresses"
is "$(warnings "$T/mt.err")" "$(warnings "$T/ms.err")" "the same Valgrind warnings as under Massif"

massif --massif-out-file="$T/b.ms" "$P" bogus >/dev/null 2>"$T/b.ms.err"
diag "Massif 3.19 with the bogus frees: exit $? ($(grep -o "Assertion '[^']*' failed" "$T/b.ms.err" | head -1))"
memtime $OPTS --memtime-out-file="$T/b.mt" "$P" bogus >"$T/b.mt.txt" 2>"$T/b.mt.err"
is "$?" 0 "bogus frees (stack address, inside a block, twice): memtime runs to the end"
snapshots "$T/b.mt" >"$T/b.mt.snap"
is_file "$T/b.mt.snap" "$T/mt.snap" "bogus frees change no snapshot"

J=$(je_prog shared hostile_mallocx.c) || { not_ok "build hostile_mallocx.c against jemalloc"; exit 1; }
"$J" >"$T/je.native"
memtime --memtime-out-file="$T/je.mt" "$J" >"$T/je.txt" 2>"$T/je.err"
is "$?" 0 "mallocx with hostile flags: memtime runs the program"
is_file "$T/je.txt" "$T/je.native" "mallocx answers as jemalloc does natively"
is "$(grep 'hostile_site (hostile_mallocx.c' "$T/je.mt" | tail -1 | awk '{print $2}')" 4396 \
  "the last tree charges hostile_site with 100 + 100 + 100 + 4096 = 4396 bytes"
finish
