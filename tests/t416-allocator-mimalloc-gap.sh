#!/usr/bin/env bash
# t416: under --allocator=program on mimalloc (Debian's libmimalloc, no
# statistics build) the resident memory is mimalloc's, and its commit, beside
# memtime's count of the heap, names the gap between RSS and heap.
# mimalloc's public API gives, without a statistics build, only its commit
# (mi_process_info: what it has committed now and at most; its "RSS" on Linux
# is that same estimate) and not the bytes it has handed out: memtime writes
# its own count of the program's blocks beside it, so what mimalloc holds
# freed is its commit beyond the heap.
# tests/progs/alloc_gap.c, built on mi_malloc/mi_free, builds the gap by
# construction (30 MiB live after a 160 MiB batch of 4 KiB blocks is freed)
# and prints, natively, VmRSS and its own heap at each phase: the oracle,
# measured in this run. At each phase memtime's client RSS is within 15% of
# the native VmRSS and its heap within 2% of the program's count.
# mimalloc decommits freed pages after a delay in wall-clock milliseconds
# (decommit_delay, 25 ms), at its next allocations: under Valgrind the
# program does less in a millisecond, so the test brackets it with
# MIMALLOC_ALLOW_DECOMMIT=0 (it keeps the batch: its commit beyond the heap
# is RSS - heap within 25%) and MIMALLOC_DECOMMIT_DELAY=0 (it gives the batch
# back at once: the commit that left is the RSS that left, within 25%); the
# default is only reported. Each phase is read from the exact outline's bucket
# that holds its mark (--time-unit=i). The summary, the JSON, the chart's
# legend and the HTML report (in headless Chromium) name the split.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/alloc-lib.sh"
need python3 chromium lib:mimalloc
CHROMIUM=$(command -v chromium || command -v chromium-browser)

G=$(build_prog alloc_gap.c -DUSE_MIMALLOC -lmimalloc 2>"$T/build.err") ||
  plan_skip "cannot build alloc_gap.c with mimalloc: $(head -c 200 "$T/build.err")"
plan 23

say() {
  local c=$T/$1.out.memtime
  diag "$1: native VmRSS live/batch/freed $(native "$T/$1.native" live VmRSS)/$(native "$T/$1.native" batch VmRSS)/$(native "$T/$1.native" freed VmRSS) kB, memtime $(o_rss "$c" live)/$(o_rss "$c" batch)/$(o_rss "$c" freed) kB; mimalloc's commit at freed $(mt_stat "$c" freed committed) B, heap $(mt_stat "$c" freed allocated) B"
}

for n in keep release; do
  case $n in
    keep)    e=MIMALLOC_ALLOW_DECOMMIT=0 ;;
    release) e=MIMALLOC_DECOMMIT_DELAY=0 ;;
  esac
  gap_run $n "$e" "$G" batch --max-snapshots=1000
  c=$T/$n.out.memtime
  say $n
  for ph in live batch freed; do
    rss_ok "$n, $ph: RSS" "$(o_rss "$c" $ph)" "$(native "$T/$n.native" $ph VmRSS)"
    heap_ok "$n, $ph: heap" "$(o_heap "$c" $ph)" "$(native "$T/$n.native" $ph heap)"
  done
  case $n in
    keep) o_gap_ok "$n, freed: mimalloc's commit beyond the heap" "$c" freed committed-allocated ;;
    release)
      left=$(( ($(o_rss "$c" batch) - $(o_rss "$c" freed)) * 1024 ))
      b=$(mt_stat "$c" batch committed); f=$(mt_stat "$c" freed committed)
      check "$n, freed: the commit that left, $(( ${b:-0} - ${f:-0} )) B, is the RSS that left, $left B, within 25%" \
        within_pct "$(( ${b:-0} - ${f:-0} ))" "$left" 25 ;;
  esac
done
# The default: when mimalloc decommits depends on the milliseconds since the
# free, which Valgrind stretches; reported, not held to a figure.
gap_run default "" "$G" batch --max-snapshots=1000
say default

# --- memtime-vis: the account in the summary, --json, the chart and HTML -------
vis --summary-only "$T/keep.out" >"$T/mi.sum" 2>&1
check "summary: the RSS split by mimalloc's commit" \
  grep -Eq '^  RSS 1[0-9.]+ MiB = heap [0-9.]+ [KM]iB \+ mimalloc holds freed 1[0-9.]+ MiB \+ outside mimalloc [0-9.]+ [KM]iB$' "$T/mi.sum"
check "summary: mimalloc's commit named, the heap by memtime's count" \
  grep -Eq '^  mimalloc holds freed: committed 1[0-9.]+ MiB beyond the heap.s [0-9.]+ [KM]iB \(its commit 1[0-9.]+ MiB, its peak 1[0-9.]+ MiB; the heap by memtime.s count' "$T/mi.sum"
vis --json "$T/keep.out" >"$T/mi.json" 2>&1
check "--json: mimalloc's readings (committed, peak, the heap) and the RSS split" python3 - "$T/mi.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["allocator"]
assert a["name"] == "mimalloc" and len(a["stats"]) > 3, a["name"]
for k in ("time", "allocated_bytes", "committed_bytes", "peak_committed_bytes"):
    assert all(k in s for s in a["stats"]), k
assert not any("dirty_bytes" in s or "heap_size_bytes" in s for s in a["stats"])
assert max(s["committed_bytes"] - s["allocated_bytes"] for s in a["stats"]) >= 150 << 20
sp = a["rss_split"]
assert sp["heap_bytes"] + sp["held_bytes"] + sp["outside_bytes"] == sp["rss_bytes"], sp
assert sp["held_bytes"] >= 150 << 20, sp
PY
MEMTIME_VIS_DEBUG_LAYOUT=1 "$MT_VIS" "$T/keep.out" -o "$T/mi.png" 2>"$T/mi.layout"
check "chart: the band is named mimalloc holds freed (committed, not in use)" \
  grep -q '^layout held [0-9A-F]* mimalloc holds freed (committed, not in use)$' "$T/mi.layout"
"$MT_VIS" "$T/keep.out" -o "$T/mi.html"
browse "$T/mi.dom" --dump-dom "file://$T/mi.html"
check "HTML: the page draws without an error" sh -c "! grep -q CONSOLE '$T/mi.dom.err' && grep -q 'class=\"timeline\"' '$T/mi.dom'"
python3 - "$T/mi.dom" >"$T/html.check" <<'PY'
import re, sys
text = open(sys.argv[1], encoding='utf-8').read()
m = re.search(r'RSS by mimalloc\'s account</dt><dd>([^<]*)<', text)
print(m.group(1) if m else 'none')
PY
check "HTML: the summary splits the RSS by mimalloc's commit ($(cut -c1-160 "$T/html.check"))" \
  grep -Eq '^[0-9.]+ MiB = heap [0-9.]+ [KM]iB \+ mimalloc holds freed 1[0-9.]+ MiB \+ outside mimalloc .*committed 1[0-9.]+ MiB beyond the heap' "$T/html.check"
finish
