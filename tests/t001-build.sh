#!/usr/bin/env bash
# The build tree holds a runnable tool, the visualizer, and a self-contained client header.
. "$(dirname "$0")/lib.sh"
plan 10
check "tool binary built" test -x "$MT_BUILD/memtime/memtime-amd64-linux"
check "tool preload built" test -f "$MT_BUILD/memtime/vgpreload_memtime-amd64-linux.so"
# The preload run has no DWARF and no full symbol table (the core would
# read them at every start) but keeps its redirection symbols (exported)
# and its unwind tables.
pre="$MT_INPLACE/vgpreload_memtime-amd64-linux.so"
check "the preload run carries no DWARF and no .symtab" sh -c "! readelf -S '$pre' | grep -Eq '\.debug_|\.symtab'"
check "... but its redirections and unwind tables" \
  sh -c "nm -D '$pre' | grep -q '_vgr10010ZU_VgSoSynmtrjem__rjem_malloc' && readelf -S '$pre' | grep -q '\.eh_frame '"
# --allocator=program's preload: wrappers only, stripped the same way.
wrap="$MT_INPLACE/vgpreload_mtwrap-amd64-linux.so"
check "the wrapping preload (--allocator=program) is built, without DWARF or .symtab" \
  sh -c "test -f '$wrap' && ! readelf -S '$wrap' | grep -Eq '\.debug_|\.symtab'"
check "... with wrappers only, none of Valgrind's replacements" \
  sh -c "nm -D '$wrap' | grep -q '_vgw10010ZU_libcZdsoZa_malloc' && ! nm -D '$wrap' | grep -q '_vgr'"
check "inplace VALGRIND_LIB holds the core preload too" test -e "$MT_INPLACE/vgpreload_core-amd64-linux.so"
check "memtime-vis built" test -x "$MT_VIS"
# memtime.h compiles with only -I of its directory, in C and C++, pedantic.
mkdir -p "$T/inc" && cp "$MT_SRC/memtime/memtime.h" "$T/inc/"
cat >"$T/c.c" <<'C'
#include <memtime.h>
int main(void) { MEMTIME_MARK("start"); MEMTIME_SNAPSHOT(); return MEMTIME_MARK("x") + MEMTIME_SNAPSHOT(); }
C
check "memtime.h compiles alone (C99, pedantic, -Werror)" \
  cc -std=c99 -pedantic -Wall -Wextra -Werror -I"$T/inc" -o "$T/c" "$T/c.c"
# Outside Valgrind the requests are no-ops returning 0.
check "requests are no-ops outside Valgrind" "$T/c"
finish
