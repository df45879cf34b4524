#!/usr/bin/env bash
# t405: the same interception mechanism for mimalloc's mi_* API
# (libmimalloc.so) and tcmalloc's tc_* API (libtcmalloc_minimal.so): memtime
# sees the 1,200,000 bytes keep_blocks() holds, at keep_blocks. Massif misses
# mimalloc's; tcmalloc's tc_* are aliases of its malloc, which Valgrind's
# stock preload already catches in libtcmalloc, so there Massif is the
# oracle and the two peaks must agree.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/progs/jemalloc_check.sh"
plan 8

for a in mimalloc tcmalloc; do
  case $a in
    mimalloc) P=$(build_prog jemalloc_peers.c -DUSE_MIMALLOC -lmimalloc 2>/dev/null) ;;
    tcmalloc) P=$(build_prog jemalloc_peers.c -DUSE_TCMALLOC -ltcmalloc_minimal 2>/dev/null) ;;
  esac
  if [ -z "$P" ]; then
    for i in 1 2 3 4; do skip "$a: lib$a development files missing (scripts/deps.sh --test)"; done
    continue
  fi
  memtime --massif-out-file="$T/$a.out" "$P" >"$T/$a.txt" 2>"$T/$a.err"
  check "$a: runs under memtime, usable sizes right" grep -qx "usable_ok 1" "$T/$a.txt"
  v=$(peak_heap "$T/$a.out")
  check "$a: memtime's peak is the 1,200,000 live bytes (got $v)" test "$v" -ge 1200000 -a "$v" -le 1300000
  s=$(peak_tree "$T/$a.out" | awk '/^ n[0-9]+: [0-9]+ 0x[0-9A-F]+: keep_blocks \(/{s+=$2} END{print s+0}')
  is "$s" 1200000 "$a: the peak tree's top nodes at keep_blocks hold all of it"
  massif --massif-out-file="$T/$a.ms" "$P" >/dev/null 2>&1
  m=$(peak_heap "$T/$a.ms")
  if [ $a = mimalloc ]; then
    check "$a: Massif misses it (its peak: $m)" test "$m" -lt 1200000
  else
    is "$v" "$m" "$a: memtime's peak equals Massif's"
  fi
done
finish
