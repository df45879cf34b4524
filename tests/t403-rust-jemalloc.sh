#!/usr/bin/env bash
# t403: a Rust program whose #[global_allocator] calls jemalloc's _rjem_
# extended API as tikv-jemallocator does (tests/progs/rust_jemalloc.rs),
# linked with the renamed static jemalloc. memtime sees its heap, names
# build_index (demangled) rather than the allocator shims, and Massif misses
# that heap. Built twice: -C opt-level=0 (every plumbing function a real,
# strippable frame) and -C opt-level=2 (plumbing inlined into build_index).
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/progs/jemalloc_build.sh"
. "$MT_SRC/tests/progs/jemalloc_check.sh"
need rustc file:libjemalloc_pic.a objcopy

RUSTC=$(test_rustc)   # lib.sh: Debian's rustc first, as on a fresh machine
ARCHIVE=$(je_rjem_archive 2>"$T/err") || plan_skip "no libjemalloc_pic.a to rename: $(head -c 200 "$T/err")"


plan 13
P0=$(je_rust_prog "$RUSTC" 0 2>"$T/err0") || { head -20 "$T/err0" | diag "$(cat)"; }
P2=$(je_rust_prog "$RUSTC" 2 2>"$T/err2") || { head -20 "$T/err2" | diag "$(cat)"; }
check "rustc builds the program against _rjem_ jemalloc" test -x "$P0" -a -x "$P2"

# Unoptimised: the allocation frames are all real functions.
memtime -v --massif-out-file="$T/o0.out" "$P0" >"$T/o0.txt" 2>"$T/o0.err"
is "$?" 0 "opt-level=0 runs under memtime"
known=$(awk '$1=="known_bytes"{print $2}' "$T/o0.txt")
check "memtime names the _rjem_ interception" \
  grep -qF "intercepting jemalloc (_rjem_ prefix, tikv-jemallocator) in the main executable" "$T/o0.err"
v=$(peak_heap "$T/o0.out")
check "memtime's peak ($v) holds the $known bytes build_index asked for" \
  test "$v" -ge "${known:-1}" -a "$v" -lt $(( ${known:-0} * 2 ))
peak_tree "$T/o0.out" | grep '^ n' >"$T/o0.top"
diag "top of the opt-level=0 peak tree:" "$(cut -c1-120 "$T/o0.top")"
n=$(grep -c 'rust_jemalloc::build_index (rust_jemalloc.rs' "$T/o0.top")
check "the peak tree's top nodes name build_index, demangled ($n of them)" test "$n" -ge 3
check "no top node is allocator plumbing (__rust_alloc, GlobalAlloc, RawVec, _rjem_)" \
  sh -c "! grep -qE '__rust|__rg_|__rdl_|GlobalAlloc|RawVec|raw_vec::|_rjem_|mallocx' '$T/o0.top'"
check "no mangled Rust names in the file" sh -c "! grep -qE ': _ZN|: _R[A-Z]' '$T/o0.out'"
check "ms_print reads memtime's file" sh -c "ms_print '$T/o0.out' >/dev/null"

# Optimised: the same heap, build_index in the peak tree.
memtime --massif-out-file="$T/o2.out" "$P2" >"$T/o2.txt" 2>"$T/o2.err"
is "$?" 0 "opt-level=2 runs under memtime"
v=$(peak_heap "$T/o2.out")
check "opt-level=2: memtime's peak ($v) holds the $known bytes" \
  test "$v" -ge "${known:-1}" -a "$v" -lt $(( ${known:-0} * 2 ))
peak_tree "$T/o2.out" >"$T/o2.tree"
check "opt-level=2: the peak tree names build_index" grep -q 'rust_jemalloc::build_index (rust_jemalloc.rs' "$T/o2.tree"
check "opt-level=2: no top node is the shim or the allocator entry point" \
  sh -c "! grep '^ n' '$T/o2.tree' | grep -qE '__rustc::|_rjem_|mallocx|GlobalAlloc>::'"

# Massif on the same program sees almost nothing.
massif --massif-out-file="$T/ms.out" "$P2" >/dev/null 2>&1
v=$(peak_heap "$T/ms.out")
check "Massif misses it (its peak: $v bytes)" test "$v" -lt 100000
finish
