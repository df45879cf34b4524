#!/usr/bin/env bash
# Fuzzes memtime-vis's heap dump readers and their conversion
# (tests/fuzz/fuzz_dumps.c) with libFuzzer for SECONDS (default 120),
# seeded with tests/fuzz/dump-seeds/ and any dumps given after the seconds.
# Crashing inputs are copied into tests/data/fuzz-dumps-regress/, which
# t705 replays.
#   tests/fuzz/run-dumps.sh [seconds] [seed files...]
set -eu
cd "$(dirname "$0")/../.."
top=$PWD
secs=${1:-120}; shift || true
work=$top/tests/fuzz/corpus-dumps-work        # kept between runs, not committed
rm -rf "$work/crashes"
mkdir -p "$work/corpus" "$work/crashes" "$top/tests/data/fuzz-dumps-regress"
tests/fuzz/build-dumps.sh "$work/fuzz_dumps" "$work/gen"
cp tests/fuzz/dump-seeds/* tests/data/fuzz-dumps-regress/* "$@" "$work/corpus/" 2>/dev/null || true
set +e
"$work/fuzz_dumps" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -artifact_prefix="$work/crashes/" "$work/corpus" 2>"$work/log"
set -e
tail -3 "$work/log"
for c in "$work"/crashes/*; do
  [ -f "$c" ] && cp "$c" "$top/tests/data/fuzz-dumps-regress/"
done
exit 0
