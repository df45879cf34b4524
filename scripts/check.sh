#!/usr/bin/env bash
# Runs the whole test suite from a fresh clone: installs missing packages, builds
# a test tree (visualizer with ASan/UBSan, warnings as errors) in _build/check
# and checks the optimised build compiles warning-free (_build/check-O2), then
# runs every tests/t*.sh through prove against _build/check. Nothing installed
# is used.
set -eu
cd "$(dirname "$0")/.."
top=$PWD
scripts/deps.sh --test
[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
mkdir -p _build/check
cd _build/check
if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
  "$top/configure" --enable-werror --enable-sanitizers --prefix="$top/_build/check/_prefix" >configure.log 2>&1 \
    || { tail -20 configure.log; exit 1; }
fi
make -j2 >make.log 2>&1 || { tail -40 make.log; exit 1; }
# The optimised build users install must compile warning-free too (-O2 finds
# warnings the sanitizer build does not); it is built, not tested.
mkdir -p "$top/_build/check-O2"
cd "$top/_build/check-O2"
if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
  "$top/configure" --enable-werror CFLAGS="-O2 -g" >configure.log 2>&1 || { tail -20 configure.log; exit 1; }
fi
make -j2 >make.log 2>&1 || { echo "optimised -Werror build failed:"; grep -E 'error|warning' make.log | head -20; exit 1; }
cd "$top"
export MT_BUILD="$top/_build/check" MT_SRC="$top"
exec prove -j2 --timer "$@" tests/t*.sh
