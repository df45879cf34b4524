#!/usr/bin/env bash
# t412: a real server on Debian's libjemalloc.so, redis-server, under
# --allocator=program and under the default mode: it runs to its shutdown in
# both, with the same heap at its peak (100,000 keys made by DEBUG POPULATE)
# within 2%; under --allocator=program with --heap-admin=0 the heap and its
# extra bytes (jemalloc's usable sizes) are Redis's own count of its
# allocations (INFO's used_memory, which counts usable sizes) within 5%, and
# the jemalloc statistics memtime read inside it are those Redis reports
# (allocator_resident, its own mallctl reading) within 10%.
. "$(dirname "$0")/lib.sh"
need redis-server redis-cli
ldd "$(command -v redis-server)" | grep -q libjemalloc || plan_skip "this redis-server is not linked with libjemalloc.so"
plan 9

# run_server NAME [memtime options]: redis under memtime, the workload, the
# shutdown; leaves $T/NAME.{out,err,info,rc}.
run_server() {
  local name=$1; shift
  local sock=$T/$name.sock
  bg_start memtime -q "$@" --memtime-out-file="$T/$name.out" redis-server --port 0 \
    --unixsocket "$sock" --save "" --appendonly no --enable-debug-command yes \
    --dir "$T" >/dev/null 2>"$T/$name.err"
  local pid=$!
  wait_until 600 "$pid" sh -c "redis-cli -s '$sock' ping 2>/dev/null | grep -q PONG"
  redis-cli -s "$sock" debug populate 100000 >/dev/null
  redis-cli -s "$sock" info memory >"$T/$name.info"
  redis-cli -s "$sock" flushall sync >/dev/null
  redis-cli -s "$sock" shutdown nosave >/dev/null 2>&1
  wait "$pid"; echo $? >"$T/$name.rc"
}
info() { sed -n "s/^$2:\\([0-9]*\\).*/\\1/p" "$1" | tr -d '\r'; }

run_server def
run_server prog --allocator=program --heap-admin=0
is "$(cat "$T/def.rc")/$(cat "$T/prog.rc")" 0/0 "redis-server ends normally after SHUTDOWN in both modes"
used=$(info "$T/prog.info" used_memory)
check "DEBUG POPULATE made its keys (used_memory $used B)" test "${used:-0}" -gt 5000000
hv=$(max_heap "$T/def.out") hp=$(max_heap "$T/prog.out")
check "the peak heap is the default mode's within 2% ($hp B, $hv B)" within_pct "${hp:-0}" "${hv:-1}" 2
# heap + extra at the peak, in program mode: usable sizes, as Redis counts.
tot=$(awk -F= '/^mem_heap_B=/{h=$2} /^mem_heap_extra_B=/{if (h + $2 > m) m = h + $2} END{print m}' "$T/prog.out")
check "heap and extra bytes are Redis's used_memory within 5% ($tot B, $used B)" within_pct "${tot:-0}" "${used:-1}" 5
check "the companion names jemalloc's statistics" grep -q '^allocator: name=jemalloc$' "$T/prog.out.memtime"
res=$(awk '$1 == "alloc-stats:" { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "resident" && kv[2] > m) m = kv[2] } } END { print m }' "$T/prog.out.memtime")
ares=$(info "$T/prog.info" allocator_resident)
check "jemalloc's resident bytes as memtime read them are Redis's allocator_resident within 10% ($res B, $ares B)" \
  within_pct "${res:-0}" "${ares:-1}" 10
check "no warning that the allocator is invisible" sh -c "! grep -q 'probably invisible' '$T/prog.err'"
vis --summary-only "$T/prog.out" >"$T/prog.sum" 2>&1
check "memtime-vis splits the RSS by jemalloc's account" grep -Eq '^  RSS [0-9.]+ [KM]iB = heap .* \+ jemalloc holds freed ' "$T/prog.sum"
check "the profile stays inside Massif's grammar" perl "$MT_SRC/tests/check-strict-grammar.pl" "$T/prog.out"
finish
