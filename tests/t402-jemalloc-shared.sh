#!/usr/bin/env bash
# t402: memtime sees the heap of a C program using jemalloc as a shared
# library (-ljemalloc, libjemalloc.so.2); every entry point is checked, and
# Massif is shown to miss that heap.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/progs/jemalloc_build.sh"
. "$MT_SRC/tests/progs/jemalloc_check.sh"
need lib:jemalloc
je_api_tests shared "jemalloc in libjemalloc.so"
