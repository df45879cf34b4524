# jemalloc_build.sh: sourced by the t40x tests (after tests/lib.sh) to build
# the jemalloc flavours users run: Debian's libjemalloc.so, its static
# libjemalloc_pic.a linked into the executable, and that archive with every
# public symbol renamed `_rjem_*` as tikv-jemallocator (Rust) builds it.
# Each function prints a path; all are cached in $MT_PROGS like build_prog's.

# je_pic_archive: Debian's static PIC archive (libjemalloc-dev), or nothing.
je_pic_archive() {
  local a; a=$(cc -print-file-name=libjemalloc_pic.a)
  [ -f "$a" ] && echo "$a"
}

# je_public_symbols: jemalloc's public API, the names tikv-jemallocator's
# build prefixes (functions and the two configuration variables).
je_public_symbols() {
  echo malloc calloc realloc free posix_memalign aligned_alloc memalign valloc \
       malloc_usable_size mallocx rallocx xallocx sallocx dallocx sdallocx nallocx \
       mallctl mallctlnametomib mallctlbymib malloc_stats_print malloc_conf \
       malloc_message malloc_conf_2_conf_harder | tr ' ' '\n'
}

# je_rjem_archive: libjemalloc_pic.a with the public symbols renamed _rjem_*.
je_rjem_archive() {
  local src; src=$(je_pic_archive) || return 1
  local out="$MT_PROGS/libjemalloc_rjem.a"
  if [ ! -f "$out" ] || [ "$src" -nt "$out" ]; then
    je_public_symbols | awk '{print $1, "_rjem_" $1}' >"$out.map.$$"
    objcopy --redefine-syms="$out.map.$$" "$src" "$out.tmp.$$" >&2 \
      && mv -f "$out.tmp.$$" "$out" || { rm -f "$out.map.$$" "$out.tmp.$$"; return 1; }
    rm -f "$out.map.$$"
  fi
  echo "$out"
}

# je_prog FLAVOUR SRC: SRC built against jemalloc; FLAVOUR is shared, static
# (unprefixed, in the executable) or rjem (_rjem_, in the executable).
je_prog() {
  local flavour=$1 src=$2 a
  case $flavour in
    shared) build_prog "$src" -ljemalloc ;;
    static) a=$(je_pic_archive) && build_prog "$src" "$a" -lm -ldl ;;
    rjem)   a=$(je_rjem_archive) && build_prog "$src" -DJE_PREFIX=_rjem_ "$a" -lm -ldl ;;
    *) echo "je_prog: unknown flavour $flavour" >&2; return 1 ;;
  esac
}

# je_rust_prog RUSTC OPT: tests/progs/rust_jemalloc.rs built with RUSTC at
# -C opt-level=OPT with -g against the _rjem_ archive, as tikv-jemallocator
# links it. The archive needs libc after it: rustc links with -nodefaultlibs
# and puts its own -lc before link-args (rustc 1.63, Debian bookworm's).
# Binaries are cached per compiler version (a rustup and a Debian rustc
# differ).
je_rust_prog() {
  local rustc=$1 opt=$2 archive rustv out src="$MT_SRC/tests/progs/rust_jemalloc.rs"
  archive=$(je_rjem_archive) || return 1
  rustv=$("$rustc" --version | md5sum | cut -c1-8)
  out="$MT_PROGS/rust_jemalloc-O$opt-$rustv"
  if [ ! -x "$out" ] || [ "$src" -nt "$out" ] || [ "$archive" -nt "$out" ]; then
    "$rustc" -g -C opt-level="$opt" -o "$out.tmp.$$" "$src" -C link-arg="$archive" \
      -C link-arg=-lm -C link-arg=-lpthread -C link-arg=-lc >&2 \
      && mv -f "$out.tmp.$$" "$out" || return 1
  fi
  echo "$out"
}

# je_tokio_prog: tests/progs/rust_tokio_svc (a multi-threaded tokio service)
# built offline by cargo from Debian's crate sources
# (/usr/share/cargo/registry: librust-tokio-dev) against the _rjem_ archive,
# with mt_phase.c for memtime's marks. Cached per source and compiler; the
# build's output on stderr. --target keeps the link arguments off the
# build scripts and proc-macros cargo builds for the host.
je_tokio_prog() {
  local src="$MT_SRC/tests/progs/rust_tokio_svc" archive cargo rustc tag out dir
  archive=$(je_rjem_archive) || return 1
  rustc=$(test_rustc)
  # The cargo that goes with that rustc: Debian's with Debian's.
  if [ "$rustc" = /usr/bin/rustc ]; then cargo=/usr/bin/cargo
  else cargo=$(command -v cargo || echo "$HOME/.cargo/bin/cargo"); fi
  [ -x "$cargo" ] && [ -n "$rustc" ] || { echo "no cargo or rustc" >&2; return 1; }
  [ -d /usr/share/cargo/registry ] || { echo "no /usr/share/cargo/registry (librust-tokio-dev)" >&2; return 1; }
  tag=$( { "$rustc" --version; cat "$src/Cargo.toml" "$src/src/main.rs" "$src/mt_phase.c" "$MT_SRC/memtime/memtime.h"; } | md5sum | cut -c1-8)
  out="$MT_PROGS/rust_tokio_svc-$tag"
  if [ ! -x "$out" ] || [ "$archive" -nt "$out" ]; then
    dir=$(mktemp -d "$MT_PROGS/tokio.XXXXXX") || return 1
    cp -r "$src/." "$dir/" && mkdir -p "$dir/.cargo" || return 1
    printf '[source.crates-io]\nreplace-with = "debian"\n[source.debian]\ndirectory = "/usr/share/cargo/registry"\n[net]\noffline = true\n' \
      >"$dir/.cargo/config.toml"
    cc -g -O1 -c -I"$MT_SRC/memtime" -o "$dir/mt_phase.o" "$src/mt_phase.c" >&2 || return 1
    (cd "$dir" && CARGO_HOME="$dir/.cargo-home" RUSTC="$rustc" \
       RUSTFLAGS="-C link-arg=$dir/mt_phase.o -C link-arg=$archive -C link-arg=-lm -C link-arg=-lpthread -C link-arg=-lc" \
       "$cargo" build --release --offline -q --target x86_64-unknown-linux-gnu) >&2 \
      && mv -f "$dir/target/x86_64-unknown-linux-gnu/release/rust_tokio_svc" "$out" || { rm -rf "$dir"; return 1; }
    rm -rf "$dir"
  fi
  echo "$out"
}
