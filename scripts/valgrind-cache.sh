#!/usr/bin/env bash
# Provides another release of Valgrind from Debian's archive in a cache
# directory outside the clone, once, and prints its prefix:
#   scripts/valgrind-cache.sh SUITE      (trixie: 3.24.0, sid: 3.27.1)
# The release is Debian's own binary package, the build that suite's users
# run, unpacked and relocated: seconds, where building it takes minutes of
# both cores. Only where that package does not run on this machine (its
# launcher needs a newer C library, another architecture) is the release
# built from Debian's source package instead.
# The cache is $MEMTIME_VALGRIND_CACHE, else ~/.cache/memtime/valgrind; a
# prefix is only used once it is complete (a stamp file), so a killed
# run is redone, not trusted. The machine's own apt configuration is left
# alone: the other suite's package index lives in the cache, read through
# apt options that point apt at it.
set -eu
suite=${1:?usage: scripts/valgrind-cache.sh SUITE (trixie or sid)}
cache=${MEMTIME_VALGRIND_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memtime/valgrind}
apt=$cache/apt-$suite
mkdir -p "$cache" "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/src" "$apt/deb"
# Another run of the same suite (two test scripts at once) waits here.
exec 9>"$cache/$suite.lock"
flock 9
# ready KIND: prints the complete prefix of that kind and exits, if there is
# one: Debian's package (SUITE-VERSION-deb) or a source build (SUITE-VERSION).
ready() {
  local d
  for d in "$cache"/$suite-*/; do
    case $1:$d in package:*-deb/|source:*[0-9]/) [ -f "$d/.memtime-built" ] && { echo "${d%/}"; exit 0; } ;; esac
  done
  return 0
}
ready package
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
printf 'Types: deb deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
  "$suite" "$keyring" >"$apt/memtime-$suite.sources"
aptopts=(-o "Dir::Etc::sourcelist=-" -o "Dir::Etc::sourceparts=$apt" -o "Dir::State::Lists=$apt/lists"
         -o "Dir::Cache=$apt/cache" -o "APT::Sandbox::User=root")
index() { apt-get "${aptopts[@]}" update -qq >&2; }

# from_package: Debian's binary package, unpacked under the prefix
# SUITE-VERSION-deb: its valgrind.pc names that prefix, and its launcher (a
# script running bin/valgrind.bin, as on Debian) takes the tools from the
# prefix's libexec/valgrind unless VALGRIND_LIB says otherwise. Fails,
# leaving nothing, where the launcher does not run here. Its vgdb is kept
# only where it runs here; else the machine's vgdb, whose protocol every
# release shares, serves.
from_package() {
  local deb ver prefix root
  (cd "$apt/deb" && rm -f ./*.deb && apt-get "${aptopts[@]}" download valgrind >&2) || return 1
  deb=$(ls "$apt/deb"/valgrind_*.deb | head -n 1)
  ver=$(dpkg-deb -f "$deb" Version | sed 's/^[0-9]*://; s/-[^-]*$//')
  prefix=$cache/$suite-$ver-deb
  root=$cache/unpack-$suite
  rm -rf "$root" "$prefix"
  dpkg-deb -x "$deb" "$root" && mv "$root/usr" "$prefix" && rm -rf "$root" || return 1
  sed -i "s|^prefix=/usr\$|prefix=$prefix|" "$prefix"/lib/*/pkgconfig/valgrind.pc
  head -n 1 "$prefix/bin/valgrind" | grep -q '^#!/bin/sh' && [ -x "$prefix/bin/valgrind.bin" ] \
    && sed -i "1a VALGRIND_LIB=\${VALGRIND_LIB:-$prefix/libexec/valgrind}; export VALGRIND_LIB" "$prefix/bin/valgrind" \
    && [ "$("$prefix/bin/valgrind" --tool=none --version 2>/dev/null)" = "valgrind-$ver" ] \
    && "$prefix/bin/valgrind" -d --tool=none true 2>&1 | grep -qF "launching $prefix/libexec/valgrind/none-" \
    || { echo "memtime: Debian $suite's valgrind $ver does not run on this machine" >&2; rm -rf "$prefix"; return 1; }
  "$prefix/bin/vgdb" --help >/dev/null 2>&1 || rm -f "$prefix/bin/vgdb"
  touch "$prefix/.memtime-built"
  echo "$prefix"
}
# Exit status 75 (EX_TEMPFAIL) when Debian's archive cannot be reached: the
# tests take it for a missing dependency, not a broken build.
index && from_package && exit 0
ready source
# The source package, built: where Debian's binary package does not run.
index && (cd "$apt/src" && rm -f ./*.dsc ./*.tar.* && apt-get "${aptopts[@]}" source --download-only valgrind >&2) \
  || { echo "memtime: cannot download Valgrind from Debian $suite (no network?)" >&2; exit 75; }
orig=$(ls "$apt/src"/valgrind_*.orig.tar.* | head -n 1)
ver=$(basename "$orig" | sed 's/^valgrind_\([0-9.]*\)\.orig.*/\1/')
prefix=$cache/$suite-$ver
work=$cache/build-$suite
rm -rf "$work" "$prefix"
mkdir -p "$work"
tar -xf "$orig" -C "$work"
src=$(ls -d "$work"/valgrind-* | head -n 1)
echo "memtime: building Valgrind $ver ($suite) into $prefix (a few minutes, once)" >&2
# Only what memtime and its tests use: the core (launcher, libcoregrind and
# libvex that a tool links, the preloads, vgdb), Massif (the oracle, with
# ms_print), Nulgrind (configure's probe of the tool directory), the headers,
# default.supp and valgrind.pc. Not the other tools, their tests, the
# auxiliary programs or the documentation: a third of the work, and a
# fresh machine's test run builds two releases. 64-bit only, as memtime is.
# (Each directory is built and installed on its own with all-am/install-am:
# the top level's make would walk every tool.)
parts="include VEX coregrind massif none"
# VEX compiles every architecture's front and back end into libvex, three
# quarters of its source, though a tool links only the host's: main_main.c
# names the others only in the multi-architecture library, which no tool
# links. So libvex is first built from the objects that belong to no other
# architecture (VEX's own object list, filtered, given to its make); should
# anything then fail to build or link, the release is built again whole.
(cd "$src" && ./configure --prefix="$prefix" --enable-only64bit) >"$work/configure.log" 2>&1 \
  || { echo "memtime: configuring Valgrind $ver failed; see $work/configure.log" >&2; exit 1; }
arch=$(sed -n 's/^VGCONF_ARCH_PRI = //p' "$src/VEX/Makefile")
os=$(sed -n 's/^VGCONF_OS = //p' "$src/VEX/Makefile")
var=libvex_${arch}_${os}_a_OBJECTS
others=$(echo "x86 amd64 ppc s390 arm arm64 mips mipsdsp nanomips riscv64" | tr ' ' '\n' | grep -vx "$arch" | paste -sd'|')
objs=$(printf 'memtime-objs:\n\t@echo $(%s)\n' "$var" | make -s -C "$src/VEX" -f Makefile -f - memtime-objs \
       | tr ' ' '\n' | grep -vE -- "-((guest|host)_($others)_|($others)_disasm)" | paste -sd' ')
vex=("pkglib_LIBRARIES=libvex-$arch-$os.a" "$var=$objs")
build() {   # build [VEX's make arguments...]
  { make -j"$(nproc)" include/vgversion.h default.supp valgrind.pc \
      && for d in $parts; do
           if [ "$d" = VEX ]; then make -C VEX -j"$(nproc)" all-am "$@"; else make -C "$d" -j"$(nproc)" all-am; fi || return 1
         done \
      && make -j"$(nproc)" all-am; } >"$work/make.log" 2>&1 \
  && { for d in $parts; do
         if [ "$d" = VEX ]; then make -C VEX install-am "$@"; else make -C "$d" install-am; fi || return 1
       done && make install-am; } >"$work/install.log" 2>&1
}
cd "$src"
if [ -n "$objs" ] && build "${vex[@]}"; then :
else
  echo "memtime: the host's libvex alone did not build; building Valgrind $ver whole" >&2
  cp "$work/make.log" "$work/make-host-only.log" 2>/dev/null || true
  rm -rf "$prefix"
  build || { echo "memtime: building Valgrind $ver failed; see $work/*.log" >&2; exit 1; }
fi
cd /
rm -rf "$work"
touch "$prefix/.memtime-built"
echo "$prefix"
