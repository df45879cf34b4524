# jemalloc_check.sh: the body shared by t400-t402, one jemalloc flavour each
# (see jemalloc_build.sh). Sourced after tests/lib.sh; call
#   je_api_tests FLAVOUR "interception line memtime -v must print"
# It runs tests/progs/jemalloc_api.c under memtime (every entry point
# checked by the program itself, values compared here), then its workload
# under memtime and under Massif: memtime must see the 1,400,000 bytes live
# at the peak, at build_table and grow_buffers, where Massif sees almost
# nothing.

JE_CHECKS="malloc realloc free calloc posix_memalign aligned_alloc memalign valloc
mallocx-align mallocx-zero rallocx-align rallocx-zero xallocx-no-grow xallocx-shrink
xallocx-extra sallocx nallocx"
JE_N_TESTS=$(( $(echo $JE_CHECKS | wc -w) + 14 ))

# peak_heap FILE: mem_heap_B of the peak snapshot (or the largest one).
peak_heap() {
  awk -F= '/^mem_heap_B=/{h=$2} /^heap_tree=peak/{p=h} /^mem_heap_B=/{if ($2>m) m=$2}
           END{print (p != "" ? p : (m != "" ? m : 0))}' "$1"
}
# peak_tree FILE: the peak snapshot's tree.
peak_tree() { awk '/^heap_tree=peak/{p=1; next} p && /^#-/{exit} p' "$1"; }

je_api_tests() {
  local flavour=$1 intercept=$2 prog name v
  prog=$(je_prog "$flavour" jemalloc_api.c 2>"$T/build.err") \
    || plan_skip "cannot build against jemalloc ($flavour): $(head -c 200 "$T/build.err")"
  plan "$JE_N_TESTS"

  # 1. Every entry point, checked by the program, under memtime.
  memtime -v --massif-out-file="$T/api.out" "$prog" >"$T/api.txt" 2>"$T/api.err"
  is "$?" 0 "$flavour: jemalloc_api runs cleanly under memtime"
  for name in $JE_CHECKS; do
    if grep -qx "ok $name" "$T/api.txt"; then ok "$flavour: $name"
    else not_ok "$flavour: $name"; grep "$name" "$T/api.txt" | diag "$(cat)"; fi
  done
  check "$flavour: memtime -v names the interception" grep -qF "memtime: intercepting $intercept" "$T/api.err"
  check "$flavour: no redirection conflict with the stock preload" \
    sh -c "! grep -A2 'redirection conflicts' '$T/api.err' | grep -qE 'mallocx|rallocx|sdallocx|_rjem_|jemalloc'"
  # Valgrind's arena hands out 16-byte granules on amd64: sallocx and
  # nallocx must both say so, and agree.
  v=$(awk '$2=="sallocx(777)"{print $3}' "$T/api.txt")
  is "$v" 784 "$flavour: sallocx(mallocx(777)) is the arena's usable size"
  v=$(awk '$2=="nallocx(777)"{print $3}' "$T/api.txt")
  is "$v" 784 "$flavour: nallocx(777) predicts it"
  v=$(awk '$2=="malloc_usable_size(100)"{print $3}' "$T/api.txt")
  is "$v" 112 "$flavour: malloc_usable_size(malloc(100))"
  v=$(awk '$2=="xallocx(1000->500)"{print $3}' "$T/api.txt")
  is "$v" 1008 "$flavour: xallocx shrinks in place and returns the usable size"

  # 2. The workload: memtime sees it all, at the program's own functions.
  memtime --massif-out-file="$T/mt.out" "$prog" workload >/dev/null 2>"$T/mt.err"
  is "$?" 0 "$flavour: workload runs under memtime"
  v=$(peak_heap "$T/mt.out")
  check "$flavour: memtime's peak heap is the 1,400,000 live bytes (got $v)" \
    test "$v" -ge 1400000 -a "$v" -le 1500000
  peak_tree "$T/mt.out" >"$T/tree.txt"
  check "$flavour: peak tree names build_table with its 1,000,000 bytes" \
    grep -qE '^ n1: 1000000 0x[0-9A-F]+: build_table \(jemalloc_api.c:[0-9]+\)$' "$T/tree.txt"
  check "$flavour: peak tree names grow_buffers with its 400,000 bytes" \
    grep -qE '^ n1: 400000 0x[0-9A-F]+: grow_buffers \(jemalloc_api.c:[0-9]+\)$' "$T/tree.txt"
  v=$(last_heap "$T/mt.out")
  check "$flavour: sdallocx and dallocx freed it all (last heap $v)" test "$v" -lt 100000
  check "$flavour: ms_print reads memtime's file" sh -c "ms_print '$T/mt.out' >/dev/null"

  # 3. Massif, same program: it misses the jemalloc heap.
  massif --massif-out-file="$T/ms.out" "$prog" workload >/dev/null 2>&1
  v=$(peak_heap "$T/ms.out")
  check "$flavour: Massif misses it (its peak: $v bytes)" test "$v" -lt 100000
  finish
}
