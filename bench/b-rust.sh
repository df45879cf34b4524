# bench/b-rust.sh: Rust at full speed (issue 27): Debian's rustc (LLVM
# inside: deep stacks of long, mangled, inlined Rust and C++ names, and
# about a million allocations) compiling the small crate progs/rust_crate
# (main.rs, words.rs, stats.rs) at opt-level=2, under Massif (the
# reference), memtime and --tool=none, each in its default mode as users run
# them (Massif --time-unit=i, memtime ms with its samples, rewrites, tree
# detail and resident-memory readings). The compiled program is never run.
# Targets, on median user+sys CPU seconds: memtime <= 0.90x Massif and
# <= 1.15x --tool=none. Not available without /usr/bin/rustc (Debian's
# rustc package; a rustup toolchain's rustc is a different program).
bench_rust() {
  local cmd na=
  group_begin rust "rustc, a small crate"
  if [ ! -x /usr/bin/rustc ]; then
    na="no /usr/bin/rustc (apt-get install rustc)"
    group_tool massif "" "$na"; group_tool memtime "" "$na"; group_tool none "" "$na"
  else
    cmd="/usr/bin/rustc --edition 2021 -C opt-level=2 -o $BENCH_WORK/rust_crate $BENCH_SRC/progs/rust_crate/main.rs"
    group_heap_tools "" "$cmd"
  fi
  group_run
  group_target "memtime/massif cpu" memtime massif 0.90 cpu
  group_target "memtime/none cpu" memtime none 1.15 cpu
}
