#!/usr/bin/env bash
# Builds another release of Valgrind from Debian's source packages into a
# cache directory outside the clone, once, and prints its prefix:
#   scripts/valgrind-cache.sh SUITE      (trixie: 3.24.0, sid: 3.27.1)
# The cache is $MEMTIME_VALGRIND_CACHE, else ~/.cache/memtime/valgrind; a
# prefix is only used once its build finished (a stamp file), so a killed
# build is redone, not trusted. The machine's own apt configuration is left
# alone: the other suite's source index lives in the cache, read through
# apt options that point apt at it.
set -eu
suite=${1:?usage: scripts/valgrind-cache.sh SUITE (trixie or sid)}
cache=${MEMTIME_VALGRIND_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memtime/valgrind}
apt=$cache/apt-$suite
mkdir -p "$cache" "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/src"
# Another run building the same suite (two test scripts at once) waits here.
exec 9>"$cache/$suite.lock"
flock 9
for d in "$cache"/$suite-*/; do
  if [ -f "$d/.memtime-built" ]; then echo "${d%/}"; exit 0; fi
done
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
  "$suite" "$keyring" >"$apt/memtime-$suite.sources"
aptopts=(-o "Dir::Etc::sourcelist=-" -o "Dir::Etc::sourceparts=$apt" -o "Dir::State::Lists=$apt/lists"
         -o "Dir::Cache=$apt/cache" -o "APT::Sandbox::User=root")
# Exit status 75 (EX_TEMPFAIL) when Debian's archive cannot be reached: the
# tests take it for a missing dependency, not a broken build.
apt-get "${aptopts[@]}" update -qq >&2 \
  && (cd "$apt/src" && rm -f ./*.dsc ./*.tar.* && apt-get "${aptopts[@]}" source --download-only valgrind >&2) \
  || { echo "memtime: cannot download Valgrind's source package from Debian $suite (no network?)" >&2; exit 75; }
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
