#!/usr/bin/env bash
# t208-vis-fuzz-harness: builds the libFuzzer harness (tests/fuzz/fuzz_parser.c,
# by tests/fuzz/build-parser.sh, as tests/fuzz/run.sh does)
# and runs it once over every input in tests/data/fuzz-regress/, every
# fixture (through the exports too) and every seed of tests/fuzz/seeds/
# (profiles with their companions: the exact outline), so each crasher the fuzzer found stays fixed under the very
# sanitizers that found it (clang's UBSan flags more than gcc's).
. "$(dirname "$0")/lib.sh"
need clang
plan 2
if "$MT_SRC/tests/fuzz/build-parser.sh" "$T/fuzz_parser" 2>"$T/cc.err"
then ok "harness builds"; else not_ok "harness builds"; diag "$(head -20 "$T/cc.err")"; exit 1; fi
d="$MT_SRC/tests/data"
"$T/fuzz_parser" -runs=1 "$d"/fuzz-regress/* "$d"/*.out "$d"/*.massif "$d"/bad/*.out \
  "$MT_SRC"/tests/fuzz/seeds/* >"$T/log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then ok "every kept input runs clean under the harness"
else not_ok "every kept input runs clean under the harness (exit $rc)"; grep -m10 -e ERROR -e 'runtime error' -e Running "$T/log" | diag "$(cat)"; fi
finish
