#!/usr/bin/env bash
# t404: memtime's warnings for a profile that is probably blind: an
# executable without a symbol table (stripped: nothing in it to intercept),
# a statically linked one (no preload at all), and a run that maps lots of
# anonymous memory through an allocator nobody intercepts. A normal program
# gets none of them.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/progs/jemalloc_build.sh"
need lib:jemalloc file:libjemalloc_pic.a objcopy strip
plan 7

P=$(build_prog jemalloc_anon_map.c) || plan_skip "cannot build jemalloc_anon_map.c"
memtime --massif-out-file="$T/a.out" "$P" >"$T/a.txt" 2>"$T/a.err"
is "$?" 0 "an uninstrumented allocator's program runs"
# The warning comes at exit, or earlier once the gap has lasted past a
# rewrite (about two seconds): which one depends on how fast the machine
# runs the program, so either wording passes.
check "memtime warns that its 320 MiB of anonymous memory are invisible" \
  grep -qE 'memtime: warning: the program (ended with|has held) [0-9]+ MiB of private anonymous memory but its heap never exceeded' "$T/a.err"
check "no symbol-table warning for an executable with symbols" sh -c "! grep -q 'no symbol table' '$T/a.err'"

# Stripped: the _rjem_ jemalloc program, whose allocator then escapes us.
R=$(je_prog rjem jemalloc_api.c 2>/dev/null) && strip -o "$T/stripped" "$R"
memtime --massif-out-file="$T/s.out" "$T/stripped" workload >/dev/null 2>"$T/s.err"
check "memtime warns that a stripped executable has no symbol table" \
  grep -qF "memtime: warning: $T/stripped has no full symbol table (.symtab stripped" "$T/s.err"
v=$(awk -F= '/^mem_heap_B=/{if ($2>m) m=$2} END{print m+0}' "$T/s.out")
check "and indeed its jemalloc heap is not seen (peak $v)" test "$v" -lt 100000

# Statically linked: Valgrind cannot preload anything.
if cc -static -o "$T/static" "$MT_SRC/tests/progs/jemalloc_anon_map.c" 2>/dev/null; then
  memtime --massif-out-file="$T/st.out" "$T/static" >/dev/null 2>"$T/st.err"
  check "memtime warns that a static executable gets no interception" \
    grep -qF "memtime: warning: $T/static is statically linked" "$T/st.err"
else
  skip "no static libc to link a static executable"
fi

# A normal jemalloc program: no warning at all.
memtime --massif-out-file="$T/n.out" "$R" workload >/dev/null 2>"$T/n.err"
check "an intercepted jemalloc program gets no warning" sh -c "! grep -q 'memtime: warning' '$T/n.err'"
finish
