#!/usr/bin/env bash
# t705: builds the heap dump fuzz harness (tests/fuzz/fuzz_dumps.c, clang
# with -fsanitize=fuzzer,address,undefined, as tests/fuzz/run-dumps.sh does)
# and runs it over its seeds, every crasher kept in
# tests/data/fuzz-dumps-regress/, real dumps made here and variants of them
# cut at every 97th byte, then 2000 fuzzed inputs from a fixed seed, so the
# readers and the conversion stay clean under the sanitizers.
. "$(dirname "$0")/lib.sh"
command -v clang >/dev/null || plan_skip "clang is not installed (scripts/deps.sh --test)"
command -v protoc-c >/dev/null || plan_skip "protoc-c is not installed"
[ -f "$(cc -print-file-name=libjemalloc.so)" ] || plan_skip "libjemalloc-dev not installed"
prog=$(build_prog dumps_sites.c -ljemalloc) || plan_skip "cannot build dumps_sites.c against jemalloc"
plan 3
if "$MT_SRC/tests/fuzz/build-dumps.sh" "$T/fuzz_dumps" "$T/gen" 2>"$T/cc.err"; then ok "harness builds"
else not_ok "harness builds"; diag "$(head -20 "$T/cc.err")"; exit 1; fi
mkdir "$T/d" "$T/in"
MALLOC_CONF=prof:true,lg_prof_interval:23,lg_prof_sample:16,prof_prefix:$T/d/jp "$prog"
f=$(ls "$T"/d/*.heap | head -1); size=$(stat -c %s "$f")
cp "$T"/d/*.heap "$T/in/"
for ((k = 1; k < size; k += 97)); do head -c "$k" "$f" >"$T/in/cut.$k"; done
# libFuzzer takes the arguments as single inputs only when each is a file.
mapfile -t kept < <(find "$MT_SRC/tests/data/fuzz-dumps-regress" -type f ! -name '.*' 2>/dev/null)
"$T/fuzz_dumps" -runs=1 "$MT_SRC"/tests/fuzz/dump-seeds/* "${kept[@]}" "$T"/in/* >"$T/log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then ok "every seed, kept crasher and cut dump runs clean"
else not_ok "every seed, kept crasher and cut dump runs clean (exit $rc)"; grep -m10 -e ERROR -e 'runtime error' "$T/log" | diag "$(cat)"; fi
mkdir "$T/corpus"; cp "$MT_SRC"/tests/fuzz/dump-seeds/* "$T/corpus/"
"$T/fuzz_dumps" -runs=2000 -seed=1 -max_len=65536 -rss_limit_mb=2048 -artifact_prefix="$T/crash-" \
  "$T/corpus" >"$T/log2" 2>&1
rc=$?
if [ $rc -eq 0 ]; then ok "2000 fuzzed inputs from seed 1 run clean"
else not_ok "2000 fuzzed inputs from seed 1 run clean (exit $rc)"; grep -m10 -e ERROR -e 'runtime error' "$T/log2" | diag "$(cat)"; fi
finish
