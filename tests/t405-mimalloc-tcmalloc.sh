#!/usr/bin/env bash
# t405: every mimalloc mi_* and tcmalloc tc_* entry point memtime intercepts
# (memtime/mt_preload.c), called by tests/progs/peers_api.cc with byte
# counts known by construction: each call allocates on its own line of
# main, the heap only grows until the peak, then every block is freed
# through one of the allocator's frees. Checked: the program's own checks
# (usable sizes, zeroing, strdup, mi_expand in place) pass under memtime;
# the peak tree charges exactly the program's bytes to each line; after
# the peak the heap falls by exactly each freed block, in order; memtime
# names the interception. Three builds: libmimalloc.so; tcmalloc linked
# statically (tc_* in the executable, which only memtime's own wrappers
# catch); libtcmalloc_minimal.so, where many tc_* are aliases of a malloc
# Valgrind's stock preload also catches. (Massif is no oracle here: it
# cannot run this program, whose size queries and sized frees reach the
# real allocator with blocks Valgrind's malloc gave.)
# With --time-unit=B and up to 1000 snapshots every allocation and free
# is a snapshot (no culling), so the heap's steps can be read one by one.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/progs/jemalloc_check.sh"   # peak_heap, peak_tree
need c++ lib:mimalloc lib:tcmalloc_minimal
plan 15
OPTS="--time-unit=B --peak-inaccuracy=0.0 --threshold=0.0 --max-snapshots=1000 --detailed-freq=1000000"

# sites FILE: "LINE BYTES" per line of main in the peak tree (bytes summed,
# lines left with none dropped), sorted.
sites() {
  peak_tree "$1" | awk '/^ n[0-9]+: [0-9]+ 0x[0-9A-F]+: main \(peers_api\.cc:[0-9]+\)$/ {
      l = $NF; sub(/^\(peers_api\.cc:/, "", l); sub(/\)$/, "", l); b[l] += $2 }
    END { for (l in b) if (b[l] > 0) print l, b[l] }' | sort -n
}
# steps FILE N: the heap's first N changes after the peak snapshot.
steps() {
  awk -F= -v n="$2" '/^mem_heap_B=/{h=$2} /^heap_tree=/{ if (seen && k < n) { print h - last; k++ }
      if ($2 == "peak") seen = 1; last = h }' "$1"
}

for flavour in mimalloc tcmalloc-static tcmalloc-so; do
  case $flavour in
    mimalloc)        args=(-DUSE_MIMALLOC -lmimalloc); says="intercepting mimalloc in libmimalloc.so" ;;
    tcmalloc-static) args=(-DUSE_TCMALLOC -Wl,-Bstatic -ltcmalloc_minimal -Wl,-Bdynamic)
                     says="intercepting tcmalloc (tc_*) in the main executable" ;;
    tcmalloc-so)     args=(-DUSE_TCMALLOC -ltcmalloc_minimal); says="intercepting tcmalloc in libtcmalloc*.so" ;;
  esac
  P=$(build_prog peers_api.cc "${args[@]}" 2>"$T/build.err") \
    || { not_ok "$flavour: build peers_api.cc"; head -20 "$T/build.err" | diag "$(cat)"; continue; }
  out=$T/$flavour.out
  memtime -v $OPTS --memtime-out-file="$out" "$P" >"$T/$flavour.txt" 2>"$T/$flavour.err"
  is "$?" 0 "$flavour: runs under memtime"
  n_ok=$(grep -c '^ok .* 1$' "$T/$flavour.txt")
  check "$flavour: the program's own checks pass ($n_ok), no call returned NULL" \
    sh -c "[ $n_ok -ge 3 ] && ! grep -q -e '^ok .* 0\$' -e '^error' '$T/$flavour.txt'"
  check "$flavour: memtime -v says '$says'" grep -qF "memtime: $says" "$T/$flavour.err"
  sed -n 's/^site \([0-9]*\) \([0-9]*\) .*/\1 \2/p' "$T/$flavour.txt" | sort -n >"$T/want.sites"
  sites "$out" >"$T/got.sites"
  is_file "$T/got.sites" "$T/want.sites" \
    "$flavour: the peak tree charges each call's line exactly its bytes ($(wc -l <"$T/want.sites") calls, $(awk '{s+=$2} END{print s}' "$T/want.sites") bytes)"
  sed -n 's/^free \([0-9]*\) .*/-\1/p' "$T/$flavour.txt" >"$T/want.steps"
  steps "$out" "$(wc -l <"$T/want.steps")" >"$T/got.steps"
  is_file "$T/got.steps" "$T/want.steps" "$flavour: after the peak the heap falls by each freed block, in order ($(wc -l <"$T/want.steps") frees)"
done
finish
