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
apt-get "${aptopts[@]}" update -qq >&2
(cd "$apt/src" && rm -f ./*.dsc ./*.tar.* && apt-get "${aptopts[@]}" source --download-only valgrind >&2)
orig=$(ls "$apt/src"/valgrind_*.orig.tar.* | head -n 1)
ver=$(basename "$orig" | sed 's/^valgrind_\([0-9.]*\)\.orig.*/\1/')
prefix=$cache/$suite-$ver
work=$cache/build-$suite
rm -rf "$work" "$prefix"
mkdir -p "$work"
tar -xf "$orig" -C "$work"
src=$(ls -d "$work"/valgrind-* | head -n 1)
echo "memtime: building Valgrind $ver ($suite) into $prefix (a few minutes, once)" >&2
(cd "$src" && ./configure --prefix="$prefix" >"$work/configure.log" 2>&1 \
   && make -j"$(nproc)" >"$work/make.log" 2>&1 && make install >"$work/install.log" 2>&1) \
  || { echo "memtime: building Valgrind $ver failed; see $work/*.log" >&2; exit 1; }
rm -rf "$work"
touch "$prefix/.memtime-built"
echo "$prefix"
