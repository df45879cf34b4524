#!/usr/bin/env bash
# t661-rust-service: the default view of a multi-threaded Rust service
# whose heap is in its own crate (tests/progs/rust_service: the crate
# rustnode, three threads in step): by crate alone it would read "rustnode
# 99.9%", which explains nothing. The default descends into rustnode's
# functions, with the bytes known by construction (rustnode.rs's header) at
# the true peak (--peak-inaccuracy=0: the last batch, the cache full, 40
# peers leaked): run_batch 800000 B, BlockCache::import 200000 B, add_peer
# 40000 B, in the summary, the JSON's peak and growth, and the chart's CSV
# (tests/wrapcheck.py); the leak is a growth line of its own and the one
# thing still live at exit; the JSON and the summary say why the view
# descended; --group-by=crate still gives the crate whole.
. "$(dirname "$0")/lib.sh"
need rustc python3
RUSTC=$(test_rustc)
plan 8
cd "$T" || exit 1
src=$MT_SRC/tests/progs/rust_service
r() { "$RUSTC" --edition 2021 -g -C opt-level=0 "$@" 2>>rustc.err; }
r --crate-type=rlib --crate-name rustnode "$src/rustnode.rs" &&
  r --extern rustnode=librustnode.rlib -L . -o service "$src/main.rs"
check "rustc builds the service from its crate" test -x service
memtime -q --peak-inaccuracy=0.0 --memtime-out-file=s.out ./service >run.txt 2>err
is "$(cat run.txt)" "40000 200000 800000" "the service runs under memtime (peers leaked, cache held, last batch)"

vis --json s.out >d.json && vis s.out -o d.csv && vis --summary-only s.out >d.txt
RUNTIME='std|core|alloc|main|\(in .*\)|.* \(no symbols\)'
check "the default view names run_batch, BlockCache::import and add_peer with their bytes (summary, JSON, growth, CSV)" \
  python3 "$MT_SRC/tests/wrapcheck.py" \
  "rustnode::batch::run_batch=800000,rustnode::cache::BlockCache::import=200000,rustnode::peers::add_peer=40000" \
  d.json d.csv d.txt "$RUNTIME"
is "$(python3 -c 'import json; g=json.load(open("d.json"))["grouping"]; d=g["descended"]; print(g["by"], g["by_default"], d["group"], d["by"], d["percent"] > 99)')" \
   "crate True rustnode function True" "the JSON: by crate, rustnode (over 99% by crate) told apart by its functions"
check "the summary says the view descended into rustnode, and why" \
  grep -q '^Top groups by crate, rustnode by function (the default for this program: Rust functions hold a quarter or more of the heap; rustnode held 99\.[0-9]% of the heap by crate, more than half; --group-by)' d.txt
check "the growth table: the leak is a line of its own, +39.1 KiB" bash -c \
  "sed -n '/^Growing over/,/^\$/p' d.txt | grep -qE '^  (steady|plateau) +0 B +39\\.1 KiB +\\+39\\.1 KiB .*  rustnode::peers::add_peer\$'"
check "still live at exit: add_peer's 40 blocks, nothing else of rustnode" bash -c \
  "sed -n '/^Still live at exit/,/^\$/p' d.txt | grep -E 'rustnode::' | tr -s ' ' | grep -qx ' 39.1 KiB in 40 blocks rustnode::peers::add_peer'"
is "$(vis --json --group-by=crate s.out | python3 -c '
import json, sys
d = json.load(sys.stdin)
print([(s["site"], s["bytes"]) for s in d["peak"]["sites"] if s["site"] == "rustnode"], d["grouping"]["descended"])')" \
   "[('rustnode', 1040000)] None" "--group-by=crate: rustnode whole, 1040000 B, no descent"
finish
