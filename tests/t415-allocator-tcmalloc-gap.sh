#!/usr/bin/env bash
# t415: under --allocator=program on tcmalloc (gperftools' libtcmalloc_minimal)
# the resident memory is tcmalloc's, and its own account (its numeric
# properties) names the gap between RSS and heap.
# tests/progs/alloc_gap.c, linked with tcmalloc, builds the gap by construction
# (30 MiB live after a 160 MiB batch of 4 KiB blocks is freed) and prints,
# natively, VmRSS and its own heap at each phase: the oracle, measured in this
# run. At each phase memtime's client RSS is within 15% of the native VmRSS
# and its heap within 2% of the program's count; where tcmalloc keeps the
# batch, what it says it holds freed (free pages in its page heap, free blocks
# in its central, transfer and thread caches, metadata) is the measured
# difference RSS - heap within 25%.
# tcmalloc gives pages back by a count of pages freed, not by time
# (TCMALLOC_RELEASE_RATE: one page released per 1000/rate pages freed, once a
# delay of pages has passed), so Valgrind's slower clock does not bend it;
# still, the test runs three settings and holds each to its native run: the
# default, TCMALLOC_RELEASE_RATE=0 (never release) and
# TCMALLOC_AGGRESSIVE_DECOMMIT=true (release at once: the batch's pages
# leave the RSS, and tcmalloc's unmapped bytes name what left).
# Each phase is read from the exact outline's bucket that holds its mark
# (--time-unit=i; the program holds still after each mark). The summary, the
# JSON, the chart's legend and the HTML report (in headless Chromium) name
# tcmalloc's parts where it holds the most freed (the phase "freed", or the
# end, once the program has freed its live blocks too); their runs keep up to
# 1000 snapshots, so no such moment is culled from the list they split.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/alloc-lib.sh"
need python3 chromium lib:tcmalloc_minimal
CHROMIUM=$(command -v chromium || command -v chromium-browser)

G=$(build_prog alloc_gap.c -DUSE_TCMALLOC -ltcmalloc_minimal 2>"$T/build.err") ||
  plan_skip "cannot build alloc_gap.c with tcmalloc: $(head -c 200 "$T/build.err")"
plan 31

# what tcmalloc holds freed, by its own account
HELD=pageheap_free+central_cache_free+transfer_cache_free+thread_cache_free+metadata

for n in default rate0 aggressive; do
  case $n in
    default)    e= ;;
    rate0)      e=TCMALLOC_RELEASE_RATE=0 ;;
    aggressive) e=TCMALLOC_AGGRESSIVE_DECOMMIT=true ;;
  esac
  gap_run $n "$e" "$G" batch --max-snapshots=1000
  c=$T/$n.out.memtime
  diag "$n: native VmRSS live/batch/freed $(native "$T/$n.native" live VmRSS)/$(native "$T/$n.native" batch VmRSS)/$(native "$T/$n.native" freed VmRSS) kB, memtime $(o_rss "$c" live)/$(o_rss "$c" batch)/$(o_rss "$c" freed) kB; tcmalloc holds freed $(mt_stat "$c" freed $HELD) B, unmapped $(mt_stat "$c" freed pageheap_unmapped) B"
  for ph in live batch freed; do
    rss_ok "$n, $ph: RSS" "$(o_rss "$c" $ph)" "$(native "$T/$n.native" $ph VmRSS)"
    heap_ok "$n, $ph: heap" "$(o_heap "$c" $ph)" "$(native "$T/$n.native" $ph heap)"
  done
  case $n in
    default|rate0) o_gap_ok "$n, freed: tcmalloc's free pages, cached blocks and metadata" "$c" freed "$HELD" ;;
    aggressive)
      # The pages it gave back: the RSS that left between batch and freed.
      left=$(( ($(o_rss "$c" batch) - $(o_rss "$c" freed)) * 1024 ))
      unm=$(mt_stat "$c" freed pageheap_unmapped)
      check "$n, freed: tcmalloc's unmapped bytes, ${unm:-none} B, are the RSS that left, $left B, within 25%" \
        within_pct "${unm:-0}" "$left" 25 ;;
  esac
done

# --- memtime-vis: the account in the summary, --json, the chart and HTML -------
vis --summary-only "$T/default.out" >"$T/tc.sum" 2>&1
check "summary: the RSS split by tcmalloc's own account" \
  grep -Eq '^  RSS 1[0-9.]+ MiB = heap [0-9.]+ [KM]iB \+ tcmalloc holds freed 1[0-9.]+ MiB \+ outside tcmalloc [0-9.]+ [KM]iB$' "$T/tc.sum"
check "summary: tcmalloc's parts named (free pages in its page heap, caches, metadata, unmapped)" \
  grep -Eq '^  tcmalloc holds freed: free pages in its page heap 1[0-9.]+ MiB, free blocks in its caches [0-9.]+ [KM]iB \(central [0-9.]+ [KM]?i?B, transfer [0-9.]+ [KM]?i?B, thread [0-9.]+ [KM]?i?B\), metadata [0-9.]+ [KM]iB; unmapped \(returned\) [0-9.]+ [KM]?i?B$' "$T/tc.sum"
vis --summary-only "$T/aggressive.out" >"$T/tca.sum" 2>&1
check "summary: with aggressive decommit, the batch is unmapped (returned)" \
  grep -Eq '^  tcmalloc holds freed: free pages in its page heap [0-9.]+ [KM]?i?B, .*; unmapped \(returned\) 1[0-9.]+ MiB$' "$T/tca.sum"
vis --json "$T/default.out" >"$T/tc.json" 2>&1
check "--json: tcmalloc's readings with its own keys, and the RSS split" python3 - "$T/tc.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["allocator"]
assert a["name"] == "tcmalloc" and len(a["stats"]) > 3, a["name"]
keys = ("time", "allocated_bytes", "heap_size_bytes", "pageheap_free_bytes", "pageheap_unmapped_bytes",
        "central_cache_free_bytes", "transfer_cache_free_bytes", "thread_cache_free_bytes", "metadata_bytes")
for k in keys:
    assert all(k in s for s in a["stats"]), k
assert not any("dirty_bytes" in s or "free_bytes" in s for s in a["stats"])
assert max(s["pageheap_free_bytes"] for s in a["stats"]) >= 150 << 20
sp = a["rss_split"]
assert sp["heap_bytes"] + sp["held_bytes"] + sp["outside_bytes"] == sp["rss_bytes"], sp
assert sp["held_bytes"] >= 150 << 20 and sp["heap_bytes"] <= 32 << 20, sp
PY
MEMTIME_VIS_DEBUG_LAYOUT=1 "$MT_VIS" "$T/default.out" -o "$T/tc.png" 2>"$T/tc.layout"
check "chart: the band is named tcmalloc holds freed (free pages and cached blocks)" \
  grep -q '^layout held [0-9A-F]* tcmalloc holds freed (free pages and cached blocks)$' "$T/tc.layout"
"$MT_VIS" "$T/default.out" -o "$T/tc.html"
browse "$T/tc.dom" --dump-dom "file://$T/tc.html"
check "HTML: the page draws without an error" sh -c "! grep -q CONSOLE '$T/tc.dom.err' && grep -q 'class=\"timeline\"' '$T/tc.dom'"
python3 - "$T/tc.dom" >"$T/html.check" <<'PY'
import re, sys
text = open(sys.argv[1], encoding='utf-8').read()
m = re.search(r'RSS by tcmalloc\'s account</dt><dd>([^<]*)<', text)
print(m.group(1) if m else 'none')
PY
check "HTML: the summary splits the RSS by tcmalloc's account, its parts named ($(cut -c1-160 "$T/html.check"))" \
  grep -Eq '^[0-9.]+ MiB = heap [0-9.]+ MiB \+ tcmalloc holds freed 1[0-9.]+ MiB \+ outside tcmalloc .*free pages in its page heap 1[0-9.]+ MiB, free blocks in its caches .*unmapped \(returned\)' "$T/html.check"
finish
