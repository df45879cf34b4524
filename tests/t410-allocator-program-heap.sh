#!/usr/bin/env bash
# t410: --allocator=program runs the program's own allocator (glibc, jemalloc
# in libjemalloc.so, jemalloc linked into the executable unprefixed and with
# tikv-jemallocator's _rjem_ prefix, from C and from Rust's global
# allocator) and sees the same heap as the default
# mode, to the byte: every allocation site's counts (allocations, bytes,
# blocks and bytes live at exit) and the heap at exit are equal in the two
# modes, on programs exercising every C and C++ entry point, jemalloc's whole
# API, mimalloc's and tcmalloc's own names, and 64 threads. The extra bytes are the allocator's own rounding: the
# program's malloc_usable_size count, to the byte. -v counts the calls made
# inside others once and finds no block it never saw. --heap-limit kills
# and refuses (NULL, std::bad_alloc) as in the default mode.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/progs/jemalloc_build.sh"
need c++ rustc lib:jemalloc file:libjemalloc_pic.a objcopy lib:mimalloc lib:tcmalloc_minimal

progs=()
add() { progs+=("$1|$2|$3"); }   # name|binary|arguments
p=$(build_prog heap_c.c) || plan_skip "cannot build heap_c.c"; add glibc-c "$p" ""
p=$(build_prog heap_cxx.cc) || plan_skip "cannot build heap_cxx.cc"; add glibc-cxx "$p" ""
p=$(build_prog threads64.c) || plan_skip "cannot build threads64.c"; add threads "$p" ""
for f in shared static rjem; do
  p=$(je_prog "$f" jemalloc_api.c 2>"$T/build.err") \
    || plan_skip "cannot build against jemalloc ($f): $(head -c 200 "$T/build.err")"
  add "jemalloc-$f" "$p" workload
done
RUSTC=$(test_rustc)   # lib.sh: Debian's rustc first
[ -n "$RUSTC" ] || plan_skip "no rustc on PATH nor in ~/.cargo/bin (apt-get install rustc)"
for o in 0 2; do
  p=$(je_rust_prog "$RUSTC" $o 2>"$T/build.err") \
    || plan_skip "rustc cannot build rust_jemalloc.rs against _rjem_ jemalloc: $(head -c 200 "$T/build.err")"
  add "rust-O$o" "$p" ""
done
pu=$(build_prog alloc_usable.c) || plan_skip "cannot build alloc_usable.c"
pur=$(je_prog rjem alloc_usable.c 2>"$T/build.err") || plan_skip "cannot build alloc_usable.c with _rjem_"
pus=$(je_prog shared alloc_usable.c 2>"$T/build.err") || plan_skip "cannot build alloc_usable.c with libjemalloc"

# mimalloc and tcmalloc under their own names (tests/progs/peers_api.cc, as
# t405 builds it).
peers=()
for f in mimalloc tcmalloc-static tcmalloc-so; do
  case $f in
    mimalloc)        a=(-DUSE_MIMALLOC -lmimalloc) ;;
    tcmalloc-static) a=(-DUSE_TCMALLOC -Wl,-Bstatic -ltcmalloc_minimal -Wl,-Bdynamic) ;;
    tcmalloc-so)     a=(-DUSE_TCMALLOC -ltcmalloc_minimal) ;;
  esac
  p=$(build_prog peers_api.cc "${a[@]}" 2>"$T/build.err") \
    || plan_skip "cannot build peers_api.cc for $f: $(head -c 200 "$T/build.err")"
  peers+=("$f|$p")
done

pl=$(build_prog limit_chunks.c) || plan_skip "cannot build limit_chunks.c"
pn=$(build_prog limit_new.cc) || plan_skip "cannot build limit_new.cc"

plan $(( ${#progs[@]} * 6 + 3 * 3 + 3 + ${#peers[@]} * 2 + 3 ))

# sites FILE: the companion's site: records, code addresses left out (the
# C library loads elsewhere when the preload differs), sorted.
sites() { grep '^site:' "$1" | sed -E 's/0x[0-9A-F]+: //g' | LC_ALL=C sort; }

for entry in "${progs[@]}"; do
  IFS='|' read -r name bin args <<<"$entry"
  # shellcheck disable=SC2086
  memtime --memtime-out-file="$T/$name.v.out" "$bin" $args >"$T/$name.v.txt" 2>"$T/$name.v.err"
  rc_v=$?
  # shellcheck disable=SC2086
  memtime -v --allocator=program --memtime-out-file="$T/$name.p.out" "$bin" $args \
    >"$T/$name.p.txt" 2>"$T/$name.p.err"
  rc_p=$?
  is "$rc_v/$rc_p" 0/0 "$name: runs cleanly in both modes"
  is_file "$T/$name.p.txt" "$T/$name.v.txt" "$name: the program prints the same in both modes"
  sites "$T/$name.v.out.memtime" >"$T/$name.v.sites"
  sites "$T/$name.p.out.memtime" >"$T/$name.p.sites"
  check "$name: the default mode counted sites" test -s "$T/$name.v.sites"
  is_file "$T/$name.p.sites" "$T/$name.v.sites" "$name: every site's counts are the default mode's"
  is "$(last_heap "$T/$name.p.out")" "$(last_heap "$T/$name.v.out")" "$name: the same heap at exit"
  if [ "$name" = threads ]; then
    # glibc makes each thread's cache inside the allocator (never through
    # malloc) and frees it through free() at the thread's exit: passed
    # through and counted; and its arenas are the allocator's own mappings,
    # no sign of an invisible allocator.
    check "$name: -v counts the frees of blocks never seen (glibc's thread caches), no blindness warning" \
      sh -c "grep -qE ' [1-9][0-9]* frees and 0 reallocs of blocks never seen' '$T/$name.p.err' &&
             ! grep -q 'probably invisible' '$T/$name.p.err'"
  else
    check "$name: -v saw no block it never made, and the program's allocator ran" \
      sh -c "grep -q ' 0 frees and 0 reallocs of blocks never seen' '$T/$name.p.err' &&
             grep -q 'allocator calls observed' '$T/$name.p.err'"
  fi
done
# libstdc++'s nothrow new[] of 2^62 bytes calls the throwing one, which
# throws through memtime's wrapper: the wrapper left is forgotten, and the
# heap above stayed exact.
check "glibc-cxx: -v counts the wrapper an exception left" \
  grep -qE ' [1-9][0-9]* left by an exception or longjmp' "$T/glibc-cxx.p.err"

# The same for mimalloc's mi_* and tcmalloc's tc_*, but for two sites that
# differ by construction: peers_api.cc:163 grows a block with mi_expand to
# the usable size its allocator gives (3008 bytes on Valgrind's, 3072 on
# mimalloc's), and tcmalloc's own start-up allocation
# (MallocExtension::Register) is made inside the program's first allocator
# call, so it is the allocator's, not the program's.
for entry in "${peers[@]}"; do
  IFS='|' read -r name bin <<<"$entry"
  memtime --memtime-out-file="$T/$name.v.out" "$bin" >/dev/null 2>&1
  rc_v=$?
  memtime -v --allocator=program --memtime-out-file="$T/$name.p.out" "$bin" >/dev/null 2>"$T/$name.p.err"
  rc_p=$?
  is "$rc_v/$rc_p" 0/0 "$name: runs cleanly in both modes"
  sites "$T/$name.v.out.memtime" | grep -vE 'main \(peers_api\.cc:163\)$|MallocExtension::Register' >"$T/$name.v.sites"
  sites "$T/$name.p.out.memtime" | grep -vE 'main \(peers_api\.cc:163\)$|MallocExtension::Register' >"$T/$name.p.sites"
  is_file "$T/$name.p.sites" "$T/$name.v.sites" "$name: every other site's counts are the default mode's"
done

# The extra bytes: the allocator's usable size minus the request, as the
# program itself counts them, at its MEMTIME_SNAPSHOT (--heap-admin=0).
for entry in "glibc|$pu" "libjemalloc|$pus" "rjem|$pur"; do
  IFS='|' read -r name bin <<<"$entry"
  memtime --allocator=program --heap-admin=0 --memtime-out-file="$T/u-$name.out" "$bin" \
    >"$T/u-$name.txt" 2>"$T/u-$name.err"
  is "$?" 0 "usable sizes ($name): runs"
  read -r req beyond < <(sed -nE 's/^requested=([0-9]+) beyond=([0-9]+) blocks=60$/\1 \2/p' "$T/u-$name.txt")
  check "usable sizes ($name): the allocator rounds up (beyond=${beyond:-?})" test "${beyond:-0}" -gt 0
  check "usable sizes ($name): a detailed snapshot holds the program's heap=$req and extra=$beyond" \
    sh -c "awk '/^mem_heap_B=/{h=\$0} /^mem_heap_extra_B=/{e=\$0} /^heap_tree=detailed/{print h, e}' '$T/u-$name.out' |
           grep -qx 'mem_heap_B=$req mem_heap_extra_B=$beyond'"
done

# --heap-limit: the program's allocator is never asked for a refused block;
# the program sees what it sees by default (t590's programs).
memtime -q --allocator=program --heap-limit=10MiB --memtime-out-file="$T/kill.out" "$pl" 100 >"$T/kill.txt" 2>/dev/null
is "$?/$(tail -1 "$T/kill.txt")" "137/step 9" "--heap-limit kills at the 10th MiB, as by default"
memtime -q --allocator=program --heap-limit=10MiB --heap-limit-action=fail --memtime-out-file="$T/fail.out" "$pl" 100 \
  >"$T/fail.txt" 2>/dev/null
is "$(grep NULL "$T/fail.txt" | tr '\n' ,)" "NULL at step 10,NULL at step 11,NULL at step 12," \
  "--heap-limit-action=fail: malloc returns NULL from the crossing step on, as by default"
memtime -q --allocator=program --heap-limit=10MiB --heap-limit-action=fail --memtime-out-file="$T/new.out" "$pn" \
  >"$T/new.txt" 2>/dev/null
check "--heap-limit-action=fail: operator new throws std::bad_alloc the program catches" \
  sh -c "grep -qx 'bad_alloc at step 10' '$T/new.txt' && grep -qx 'after freeing: allocated' '$T/new.txt'"

# The options: the mode is named, and pages-as-heap (which keeps the
# program's allocator already) does not combine with it.
memtime --allocator=bogus /bin/true >/dev/null 2>"$T/bad.err"
rc=$?
check "--allocator=bogus is refused, naming the choices" \
  sh -c "test $rc -ne 0 && grep -q 'must be valgrind or program' '$T/bad.err'"
memtime --allocator=program --pages-as-heap=yes /bin/true >/dev/null 2>"$T/bad2.err"
rc=$?
check "--allocator=program with --pages-as-heap=yes is refused" \
  sh -c "test $rc -ne 0 && grep -q 'pages-as-heap' '$T/bad2.err'"
finish
