#!/usr/bin/env bash
# t411: under --allocator=program the resident memory is the program's own
# allocator's, and its own account names the gap between RSS and heap.
# tests/progs/alloc_gap.c builds the gap by construction (30 MiB live after a
# 160 MiB batch is freed: jemalloc's dirty pages, in libjemalloc.so and in a
# static _rjem_ copy; glibc's holes in the main arena and in 4 per-thread
# arenas, then malloc_trim) and prints, natively, VmRSS and its own heap at
# each phase: the oracle, measured in this run. At each phase memtime's
# client RSS is within 15% of the native VmRSS, its heap within 2% of the
# program's count; at the gap the allocator's own figure for what it holds
# freed (jemalloc's dirty pages, glibc's free chunks) is the measured
# difference RSS - heap within 25%, and the summary lists the allocator's
# mappings as the heap's, one group. jemalloc's decay runs on wall-clock time,
# which a program under Valgrind spends more slowly: the test brackets it
# with dirty_decay_ms:-1 (never purge) and :0 (purge at once), where the
# answer is known; the default (10 s) is only reported. Trimming the main
# arena's top gives brk back to Valgrind, which keeps the pages (it zeroes
# them): up to its 8 MiB brk cap more there, allowed for.
# Each phase is read from the exact outline's bucket that holds its mark
# (--time-unit=i; the program holds still after each mark), never from a
# snapshot, which memtime may cull in a run as long as this one.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/progs/jemalloc_build.sh"
. "$MT_SRC/tests/alloc-lib.sh"
need python3 lib:jemalloc file:libjemalloc_pic.a objcopy

G=$(build_prog alloc_gap.c) || plan_skip "cannot build alloc_gap.c"
GS=$(je_prog shared alloc_gap.c 2>"$T/build.err") || plan_skip "cannot build alloc_gap.c with libjemalloc: $(head -c 200 "$T/build.err")"
GR=$(je_prog rjem alloc_gap.c 2>"$T/build.err") || plan_skip "cannot build alloc_gap.c with _rjem_ jemalloc: $(head -c 200 "$T/build.err")"
plan 41

# --- jemalloc: dirty pages after the batch is freed -------------------------
for flavour in shared rjem; do
  bin=$GS; [ $flavour = rjem ] && bin=$GR
  for decay in -1 0; do
    n=je-$flavour-$decay
    gap_run "$n" "MALLOC_CONF=dirty_decay_ms:$decay" "$bin" batch
    for ph in live batch freed; do
      rss_ok "$n, $ph: RSS" "$(o_rss "$T/$n.out.memtime" $ph)" "$(native "$T/$n.native" $ph VmRSS)"
    done
    heap_ok "$n, freed: heap" "$(o_heap "$T/$n.out.memtime" freed)" "$(native "$T/$n.native" freed heap)"
    if [ "$decay" = -1 ]; then
      o_gap_ok "$n, freed: jemalloc's dirty pages" "$T/$n.out.memtime" freed dirty
    fi
  done
done
# The default decay: what production would see depends on the time since
# the free, which Valgrind stretches; reported, not held to a figure.
"$GS" batch >"$T/je-default.native"
memtime --allocator=program --time-unit=i --memtime-out-file="$T/je-default.out" "$GS" batch >/dev/null 2>&1
diag "jemalloc, default decay, after the free: memtime $(o_rss "$T/je-default.out.memtime" freed) kB, native $(native "$T/je-default.native" freed VmRSS) kB"

# --- glibc: holes in the main arena, and per-thread arenas -------------------
gap_run holes "" "$G" holes
for ph in allocated freed; do
  rss_ok "holes, $ph: RSS" "$(o_rss "$T/holes.out.memtime" $ph)" "$(native "$T/holes.native" $ph VmRSS)"
done
rss_ok "holes, trimmed: RSS (Valgrind keeps the brk pages trimmed, up to 8 MiB)" \
  "$(o_rss "$T/holes.out.memtime" trimmed)" "$(native "$T/holes.native" trimmed VmRSS)" 8192
heap_ok "holes, freed: heap" "$(o_heap "$T/holes.out.memtime" freed)" "$(native "$T/holes.native" freed heap)"
o_gap_ok "holes, freed: glibc's free chunks" "$T/holes.out.memtime" freed free

gap_run arenas "" "$G" arenas
for ph in freed trimmed; do
  rss_ok "arenas, $ph: RSS" "$(o_rss "$T/arenas.out.memtime" $ph)" "$(native "$T/arenas.native" $ph VmRSS)"
done
heap_ok "arenas, freed: heap" "$(o_heap "$T/arenas.out.memtime" freed)" "$(native "$T/arenas.native" freed heap)"
o_gap_ok "arenas, freed: glibc's free chunks" "$T/arenas.out.memtime" freed free

# --- memtime-vis: the account in the summary and in --json --------------------
vis --summary-only "$T/je-shared--1.out" >"$T/je.sum" 2>&1
check "summary: the RSS split by jemalloc's own account" \
  grep -Eq '^  RSS [0-9.]+ MiB = heap [0-9.]+ MiB \+ jemalloc holds freed 1[0-9.]+ MiB \+ outside jemalloc [0-9.]+ [KM]iB$' "$T/je.sum"
check "summary: jemalloc's parts named (dirty pages)" \
  grep -Eq '^  jemalloc holds freed: dirty pages 1[0-9.]+ MiB, muzzy pages' "$T/je.sum"
# The allocator's own mappings are the heap here, one group: at the RSS
# peak (the batch, 190 MiB in jemalloc's extents or glibc's arenas, their
# mmaps merged by the core with their neighbours) nearly all of the RSS.
check "summary: jemalloc's mappings are one group, [malloc], nearly all of the RSS" \
  grep -Eq '^   1\.  +1[89][0-9](\.[0-9])? MiB  anon   \[malloc\]' "$T/je.sum"
check "summary: no mapping of jemalloc's reads as outside the heap" \
  sh -c "! grep -q 'outside the malloc heap' '$T/je.sum' && ! grep -A2 '^   [0-9]\.' '$T/je.sum' | grep -q 'libjemalloc'"
vis --summary-only "$T/holes.out" >"$T/holes.sum" 2>&1
check "summary: glibc's arenas are one group, [malloc] (its mmaps and its brk)" \
  grep -Eq '^   1\.  +1[89][0-9](\.[0-9])? MiB  anon   \[malloc\]' "$T/holes.sum"
check "summary: glibc's holes named" \
  grep -Eq '^  glibc holds freed: free chunks 1[0-9.]+ MiB in its arenas, .* in holes \(malloc_trim returns' "$T/holes.sum"
check "every alloc-stats line carries the RSS reading it follows, read before it" \
  awk '/^alloc-stats:/ { n++; split($2, t, "="); split($3, r, "="); if ($3 !~ /^rss_time=/ || $4 !~ /^rss=[0-9]+$/ || r[2] + 0 > t[2] + 0) bad++ }
       END { exit !(n > 0 && bad == 0) }' "$T/je-shared--1.out.memtime"
vis --json "$T/je-shared--1.out" >"$T/je.json" 2>&1
vis --json "$T/holes.out" >"$T/holes.json" 2>&1
check "--json: jemalloc's readings with their keys, and glibc's with its own" python3 - "$T/je.json" "$T/holes.json" <<'PY'
import json, sys
je = json.load(open(sys.argv[1]))["allocator"]
gl = json.load(open(sys.argv[2]))["allocator"]
assert je["name"] == "jemalloc" and len(je["stats"]) > 3, je["name"]
for k in ("time", "allocated_bytes", "active_bytes", "resident_bytes", "dirty_bytes", "retained_bytes"):
    assert all(k in s for s in je["stats"]), k
assert max(s["dirty_bytes"] for s in je["stats"]) >= 150 << 20
assert gl["name"] == "glibc"
assert all("allocated_bytes" in s and "free_bytes" in s and "dirty_bytes" not in s for s in gl["stats"])
PY
finish
