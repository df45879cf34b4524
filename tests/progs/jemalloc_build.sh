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
