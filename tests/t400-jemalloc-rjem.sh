#!/usr/bin/env bash
# t400: memtime sees the heap of a C program using jemalloc linked into the
# executable with tikv-jemallocator's `_rjem_` prefix (libjemalloc_pic.a
# renamed by objcopy), as Rust nodes are built; every entry point is
# checked, and Massif is shown to miss that heap.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/progs/jemalloc_build.sh"
. "$MT_SRC/tests/progs/jemalloc_check.sh"
need file:libjemalloc_pic.a objcopy
je_api_tests rjem "jemalloc (_rjem_ prefix, tikv-jemallocator) in the main executable"
