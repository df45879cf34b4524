#!/usr/bin/env bash
# t616-group-real: --group-by on real programs under memtime whose heap at
# the peak is known by construction: a Rust program built from crates of
# our own (tests/progs/rust_crates: alpha holds 300000 B, beta 200000 B)
# at --group-by=crate and function, and a C++ program with nested
# namespaces (tests/progs/ns_layers.cc) at --group-by=namespace, depths 1
# and 2, and --collapsed grouped by namespace. The bytes are read from
# --json and the folded stacks by python and compared with the programs'
# own constants (main's held.reserve(64): 512 B under std, a group of its
# own now that memtime's detail keeps what Massif's threshold merged).
# Groups named by an object ("(in libc.so)", "libstdc++.so (no symbols)":
# the C library's and libstdc++'s own start-up blocks) are left out; the
# program's C function, which has debug info, is "(in ns_layers.cc)".
. "$(dirname "$0")/lib.sh"
need c++ python3 rustc
plan 8
cd "$T" || exit 1

# The C++ program.
P=$(build_prog ns_layers.cc) || { not_ok "build ns_layers.cc"; exit 1; }
memtime -q --memtime-out-file=ns.out "$P" 2>err
check "memtime profiles ns_layers" test -s ns.out
# The program's own groups (lib.sh's peak_sites): not the libraries' ("in
# libc.so.6", "(in libstdc++.so.6)", "x (no symbols)"), but its C function
# by its object.
OURS='^(?!in )(?!.* \(no symbols\)$)(?!\(in (?!ns_layers\.cc\)$))'
is "$(peak_sites ns.out "$OURS" --group-by=namespace)" \
   "(anonymous namespace)=60000 (in ns_layers.cc)=40000 net=200000 std=512 store=500000" \
   "namespace depth 1: store 500000, net 200000, the anonymous namespace, a C function by its object"
is "$(peak_sites ns.out "$OURS" --group-by=namespace --namespace-depth=2)" \
   "(anonymous namespace)=60000 (in ns_layers.cc)=40000 net::http=120000 net::tls=80000 std::__new_allocator=512 store::cache=200000 store::disk=300000" \
   "namespace depth 2: store::disk 300000, store::cache 200000, net::http 120000, net::tls 80000"

vis --group-by=namespace --collapsed=ns.folded ns.out
is "$(python3 -c '
import sys
acc = {}
for l in open("ns.folded"):
    stack, b = l.rsplit(" ", 1)
    g = stack.split(";")[0]
    acc[g] = acc.get(g, 0) + int(b)
print(" ".join("%s=%d" % kv for kv in sorted(acc.items())
               if not kv[0].startswith("in ") and not kv[0].endswith(" (no symbols)")
               and (not kv[0].startswith("(in ") or kv[0] == "(in ns_layers.cc)")))')" \
   "(anonymous namespace)=60000 (in ns_layers.cc)=40000 net=200000 store=500000" \
   "--collapsed: each stack under its namespace as the outermost frame, the same bytes"

# The Rust program.
RUSTC=$(test_rustc)
if [ -z "$RUSTC" ]; then
  skip "no rustc on PATH nor in ~/.cargo/bin (apt-get install rustc)"
  skip "no rustc"; skip "no rustc"; skip "no rustc"
  finish; exit
fi
src=$MT_SRC/tests/progs/rust_crates
# opt-level 0: Debian's rustc 1.63 inlines Store::fill into main at 1 despite
# #[inline(never)], and the site is then main's.
r() { "$RUSTC" --edition 2021 -g -C opt-level=0 "$@" 2>>rustc.err; }
r --crate-type=rlib --crate-name alpha "$src/alpha.rs" && r --crate-type=rlib --crate-name beta "$src/beta.rs" &&
  r --extern alpha=libalpha.rlib --extern beta=libbeta.rlib -L . -o crates "$src/main.rs"
check "rustc builds the program from its three crates" test -x crates
memtime -q --memtime-out-file=rs.out ./crates >run.txt 2>err
is "$(cat run.txt)" "300000 25000 1000" "the program runs under memtime"
is "$(peak_sites rs.out '^(alpha|beta)$' --group-by=crate)" \
   "alpha=300000 beta=200000" "crate: alpha holds 300000 B, beta 200000 B"
is "$(peak_sites rs.out '^(alpha|beta)::' --group-by=function)" \
   "alpha::Store::fill=300000 beta::codec::frame=200000" "function: alpha::Store::fill and beta::codec::frame, without locations"
finish
