#!/usr/bin/env bash
# t401: memtime sees the heap of a C program using unprefixed jemalloc linked
# into the executable (libjemalloc_pic.a): malloc is the stock preload's, the
# *allocx API memtime's; every entry point is checked, and Massif is shown to
# miss that heap.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/progs/jemalloc_build.sh"
. "$MT_SRC/tests/progs/jemalloc_check.sh"
need file:libjemalloc_pic.a
je_api_tests static "jemalloc (unprefixed) in the main executable"
