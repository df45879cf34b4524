#!/usr/bin/env bash
# t011: memtime on Valgrind 3.27.1, Debian sid's release, built from Debian's
# source package into a cache outside the clone (scripts/valgrind-cache.sh,
# a few minutes the first time): memtime builds against it with no warning
# and the version-sensitive tests (tests/versions-lib.sh) pass with that
# release's core, preload, vgdb and Massif.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/versions-lib.sh"
set -- $VERSION_TESTS
plan $(($# + 2))
prefix=$("$MT_SRC/scripts/valgrind-cache.sh" sid 2>"$T/cache.log") || {
  not_ok "Valgrind from Debian sid's source package"; diag "$(tail -20 "$T/cache.log")"; exit 1; }
dir=$MT_BUILD/../vg-sid
if ver=$(vt_build "$prefix" "$dir" "$T/build.log"); then
  ok "memtime builds against Valgrind $ver ($prefix)"
else
  not_ok "memtime builds against $prefix"; diag "$(tail -30 "$T/build.log")"; exit 1
fi
check "no compiler warning against Valgrind $ver" vt_no_warnings "$T/build.log"
vt_run "$prefix" "$dir" "Valgrind $ver"
finish
