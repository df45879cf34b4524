#!/usr/bin/env bash
# t004: configure chooses the Valgrind to build for and refuses the wrong
# one. --with-valgrind=PREFIX takes that prefix's valgrind.pc, headers,
# static core and launcher (a fake prefix here, linked to the system
# Valgrind's files, with the version its valgrind.pc and launcher claim);
# a release outside the tested range stops configure with a message naming
# the tested releases and --enable-untested-valgrind, which lets it
# through; a launcher of another release than the core stops it too. A
# tree configured again for another Valgrind is compiled and linked again
# against it (memtime/valgrind.stamp), and for the same one is left alone.
. "$(dirname "$0")/lib.sh"
plan 12
vgver=$(valgrind --version | sed 's/^valgrind-//')
vginc=$(pkg-config --variable=includedir valgrind)
vglib=$(pkg-config --variable=libdir valgrind)/valgrind
# fake_prefix DIR PC-VERSION LAUNCHER-VERSION
fake_prefix() {
  local d=$1
  mkdir -p "$d/bin" "$d/lib/pkgconfig" "$d/include"
  ln -sfn "$vginc" "$d/include/valgrind"
  ln -sfn "$vglib" "$d/lib/valgrind"
  printf 'prefix=%s\nexec_prefix=${prefix}\nlibdir=${exec_prefix}/lib\nincludedir=${prefix}/include/valgrind\nvalt_load_address=0x58000000\n\nName: Valgrind\nDescription: fake\nVersion: %s\nLibs:\nCflags: -I${includedir}\n' \
    "$d" "$2" >"$d/lib/pkgconfig/valgrind.pc"
  # The launcher: its version as told, the rest (valgrind -d) the real one's.
  printf '#!/bin/sh\ncase " $* " in *" --version "*) echo valgrind-%s; exit 0;; esac\nexec valgrind "$@"\n' "$3" >"$d/bin/valgrind"
  chmod +x "$d/bin/valgrind"
}
# conf DIR ARGS...: configure in DIR. The runs share one cache of the
# compiler's and libraries' answers (the same for all; no Valgrind check is
# cached), which halves each run; the one with other CFLAGS passes
# --cache-file=/dev/null after, as autoconf refuses a cache made with others.
conf() { local dir=$1; shift; mkdir -p "$dir"; (cd "$dir" && "$MT_SRC/configure" --cache-file="$T/config.cache" "$@" >log 2>&1); }

fake_prefix "$T/same" "$vgver" "$vgver"
if conf "$T/b1" --with-valgrind="$T/same"; then ok "--with-valgrind=PREFIX configures"
else not_ok "--with-valgrind=PREFIX configures"; diag "$(tail -5 "$T/b1/log")"; fi
check "... reports the version and that prefix's launcher" \
  grep -q "Valgrind $vgver (amd64-linux), launcher $T/same/bin/valgrind" "$T/b1/log"
check "... builds against that prefix's headers" grep -q "^VG_INCDIR = $T/same/include/valgrind\$" "$T/b1/memtime/Makefile"

fake_prefix "$T/new" 3.99.0 3.99.0
if conf "$T/b2" --with-valgrind="$T/new"; then not_ok "an untested release (3.99.0) stops configure"
else ok "an untested release (3.99.0) stops configure"; fi
check "... with a message naming the tested releases and the override" \
  grep -q "error: Valgrind 3.99.0 is outside memtime's tested range 3.19 .. 3.27 (tested: .*--enable-untested-valgrind" "$T/b2/log"
if conf "$T/b3" --with-valgrind="$T/new" --enable-untested-valgrind; then ok "--enable-untested-valgrind lets it through"
else not_ok "--enable-untested-valgrind lets it through"; diag "$(tail -5 "$T/b3/log")"; fi
check "... and tells the compiler (mt_compat.h's range check is lifted)" \
  grep -q "^VG_UNTESTED_CPPFLAGS = -DMT_UNTESTED_VALGRIND=1" "$T/b3/memtime/Makefile"

fake_prefix "$T/mixed" "$vgver" 3.27.1
if ! conf "$T/b4" --with-valgrind="$T/mixed" && grep -q "launcher $T/mixed/bin/valgrind is Valgrind 3.27.1 but the headers and static core found are $vgver" "$T/b4/log"
then ok "a launcher of another release than the core stops configure, saying so"
else not_ok "a launcher of another release than the core stops configure, saying so"; diag "$(tail -3 "$T/b4/log")"; fi
if conf "$T/b5" --with-valgrind="$T/nowhere"; then not_ok "--with-valgrind=missing directory stops configure"
else ok "--with-valgrind=missing directory stops configure"; fi

# A distribution's hardened CFLAGS (Debian's dpkg-buildflags, Fedora's and
# Arch's packaging) carry a stack protector, which the tool cannot link:
# configure leaves it out of the tool's flags only.
if conf "$T/b6" --cache-file=/dev/null CFLAGS="-O2 -g -fstack-protector-strong" && make -C "$T/b6/memtime" -j2 >"$T/b6/make.log" 2>&1 \
   && test -x "$T/b6/memtime/memtime-amd64-linux"; then
  ok "the tool builds with CFLAGS carrying -fstack-protector-strong"
else not_ok "the tool builds with CFLAGS carrying -fstack-protector-strong"; diag "$(grep -E 'error|undefined' "$T/b6/make.log" | head -5)"; fi

# The same tree configured again for another Valgrind (its files older than
# the build, as a package's are): every object is compiled again against its
# headers and the tool and preload linked from its archives; configured again
# for the same one, nothing is.
tool="memtime-amd64-linux vgpreload_memtime-amd64-linux.so vgpreload_mtwrap-amd64-linux.so"
conf "$T/b6" --cache-file=/dev/null CFLAGS="-O2 -g -fstack-protector-strong" --with-valgrind="$T/same"
make -n -C "$T/b6/memtime" $tool >"$T/b6/again.n" 2>&1
if grep -q "mt_preload.c" "$T/b6/again.n" && grep -q "mt_main.c" "$T/b6/again.n" \
   && grep -q -- "--whole-archive $T/same/lib/valgrind/libreplacemalloc_toolpreload-amd64-linux.a" "$T/b6/again.n" \
   && grep -q "$T/same/lib/valgrind/libcoregrind-amd64-linux.a" "$T/b6/again.n"; then
  ok "configured for another Valgrind, the tool is compiled and linked again against it"
else not_ok "configured for another Valgrind, the tool is compiled and linked again against it"; diag "$(head -c 600 "$T/b6/again.n")"; fi
make -C "$T/b6/memtime" $tool >/dev/null 2>&1
conf "$T/b6" --cache-file=/dev/null CFLAGS="-O2 -g -fstack-protector-strong" --with-valgrind="$T/same"
is "$(make -n -C "$T/b6/memtime" $tool 2>&1 | grep -c 'gcc\|CC')" 0 "configured again for the same Valgrind, nothing is rebuilt"
finish
