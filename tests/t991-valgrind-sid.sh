#!/usr/bin/env bash
# t991: memtime on Valgrind 3.27.1, Debian sid's release: Debian's own package,
# unpacked into a cache outside the clone (scripts/valgrind-cache.sh; built
# from the source package where that package does not run here): memtime builds against it with no warning and the version-sensitive
# tests pass with that release's core, preloads and Massif (vgdb is the release's where it runs here, else the machine's)
# (tests/versions-lib.sh).
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/versions-lib.sh"
need bzip2 xz flock
vt_debian_suite sid
finish
