#!/usr/bin/env bash
# Fuzzes memtime-vis's parser and text reports with libFuzzer (clang,
# -fsanitize=fuzzer,address,undefined) for SECONDS (default 120), seeded with
# every Massif file in tests/data and tests/fuzz/seeds/ (profiles followed by
# their companion, split at its "memtime-companion: 1" line). Crashing inputs are copied into
# tests/data/fuzz-regress/, which t205-vis-fuzz-regress.sh replays.
#   tests/fuzz/run.sh [seconds] [extra libFuzzer flags...]
set -eu
cd "$(dirname "$0")/../.."
top=$PWD
secs=${1:-120}; shift || true
work=$top/tests/fuzz/corpus-work          # kept between runs, not committed
rm -rf "$work/crashes"    # only this run's crashers are copied below
mkdir -p "$work/corpus" "$work/crashes" "$top/tests/data/fuzz-regress"
bin=$work/fuzz_parser
tests/fuzz/build-parser.sh "$bin"
cp tests/data/*.out tests/data/bad/*.out tests/data/*.massif "$work/corpus/" 2>/dev/null || true
cp tests/data/fuzz-regress/* "$work/corpus/" 2>/dev/null || true
cp tests/fuzz/seeds/* "$work/corpus/" 2>/dev/null || true
jobs=$(nproc 2>/dev/null || echo 1)
set +e
"$bin" -max_total_time="$secs" -timeout=5 -rss_limit_mb=1024 -max_len=65536 \
  -dict=tests/fuzz/massif.dict -artifact_prefix="$work/crashes/" \
  ${jobs:+-fork=$jobs} -ignore_crashes=1 "$@" "$work/corpus" 2>"$work/log"
rc=$?
set -e
tail -5 "$work/log"
n=0
for c in "$work"/crashes/*; do
  [ -f "$c" ] || continue
  cp "$c" "$top/tests/data/fuzz-regress/$(basename "$c")"
  n=$((n+1))
done
echo "fuzz: exit $rc, $n crashing input(s) kept in tests/data/fuzz-regress/"
