#!/usr/bin/env bash
# t624-threads-64: 64 threads allocating at once (a barrier releases them
# together) with --stacks=yes: tests/progs/threads64.c. memtime must not
# crash or lose count: by construction thread_alloc() holds 660160 bytes at
# the end; the companion names 65 threads and, once all 64 are past the
# barrier, a snapshot records all 65 stacks; the profile is complete.
. "$(dirname "$0")/lib.sh"
plan 7
P=$(build_prog threads64.c) || { not_ok "build threads64.c"; exit 1; }
memtime -q --stacks=yes --memtime-out-file="$T/p.out" "$P" >/dev/null 2>"$T/err"
is "$?" 0 "the program ran to its end"
check "the profile passes ms_print" sh -c "ms_print '$T/p.out' >/dev/null"
check "and massif-visualizer's grammar" grammar "$T/p.out"
is "$(grep 'thread_alloc (threads64.c' "$T/p.out" | tail -1 | awk '{print $2}')" 660160 \
  "the last tree charges thread_alloc with 10 * (64 * 1000 + 0 + ... + 63) = 660160 bytes"
is "$(grep -c '^thread: tid=' "$T/p.out.memtime")" 65 "the companion names 65 threads"
is "$(awk '/^stacks:/{if (NF - 3 > m) m = NF - 3} END{print m}' "$T/p.out.memtime")" 65 \
  "a snapshot records the stacks of all 65 threads"
check "the stacks show in the profile" \
  awk -F= '/^mem_stacks_B=/{if ($2 > m) m = $2} END{exit !(m > 0)}' "$T/p.out"
finish
