#!/usr/bin/env bash
# Installs the Debian packages memtime needs that this machine lacks.
#   scripts/deps.sh          what building, installing and the example need
#   scripts/deps.sh --test   plus everything any test uses (C++, static libc, jemalloc,
#                            mimalloc, tcmalloc, clang for fuzzing, gnuplot, rustc, man,
#                            go tool pprof, python3, sqlite3, memcached, redis, headless chromium,
#                            massif-visualizer run headless under xvfb with ImageMagick,
#                            tmux for the live view,
#                            debhelper, dpkg-dev and lintian for the Debian package's test):
#                            under CI=true a test that lacks one fails instead of skipping
set -eu
pkgs="gcc make autoconf automake pkg-config valgrind libpng-dev libfreetype-dev fonts-dejavu-core zlib1g-dev libprotobuf-c-dev protobuf-c-compiler libiberty-dev libdw-dev libelf-dev"
if [ "${1:-}" = --test ]; then
  pkgs="$pkgs g++ libc6-dev perl libjemalloc-dev libmimalloc-dev libgoogle-perftools-dev clang libclang-rt-14-dev"
  pkgs="$pkgs gnuplot-nox binutils rustc man-db libstdc++6 golang-go python3 chromium sqlite3 memcached redis-server redis-tools"
  pkgs="$pkgs massif-visualizer xvfb xauth imagemagick"
  # The live view (--follow) is driven in a terminal multiplexer (t680-t683).
  pkgs="$pkgs tmux"
  # A tokio service built offline by Debian's cargo from Debian's crate sources (t413).
  pkgs="$pkgs cargo librust-tokio-dev"
  # Other Valgrind releases: Debian's packages, or their source packages built where those do not run (scripts/valgrind-cache.sh).
  pkgs="$pkgs bzip2 xz-utils util-linux"
  pkgs="$pkgs debhelper dpkg-dev lintian"
fi
missing=
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "memtime: installing missing packages:$missing"
if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
