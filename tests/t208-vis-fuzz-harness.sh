#!/usr/bin/env bash
# t208-vis-fuzz-harness: builds the libFuzzer harness (tests/fuzz/fuzz_parser.c,
# clang with -fsanitize=fuzzer,address,undefined, as tests/fuzz/run.sh does)
# and runs it once over every input in tests/data/fuzz-regress/, every
# fixture (through the exports too) and every seed of tests/fuzz/seeds/
# (profiles with their companions: the exact outline), so each crasher the fuzzer found stays fixed under the very
# sanitizers that found it (clang's UBSan flags more than gcc's).
. "$(dirname "$0")/lib.sh"
need clang
plan 2
v="$MT_SRC/visualizer"
if clang -g -O1 -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror \
     -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I"$v" -o "$T/fuzz_parser" \
     "$MT_SRC/tests/fuzz/fuzz_parser.c" "$v/read/massif.c" "$v/model/profile.c" "$v/model/sites.c" "$v/model/names.c" "$v/base/units.c" "$v/render/report.c" \
     "$v/model/stacks.c" "$v/render/collapsed.c" "$v/render/flamegraph.c" "$v/model/analysis.c" \
     "$v/model/growth.c" "$v/model/when.c" "$v/render/summary.c" "$v/render/growth_text.c" \
     "$v/base/grow.c" "$v/base/ptrmap.c" "$v/base/utf8.c" \
     "$v/read/companion.c" "$v/model/outline.c" "$v/model/groups.c" "$v/model/group_keys.c" "$v/model/wrappers.c" \
     "$v/model/stack_groups.c" "$v/model/demangle.c" -liberty -lm 2>"$T/cc.err"
then ok "harness builds"; else not_ok "harness builds"; diag "$(head -20 "$T/cc.err")"; exit 1; fi
d="$MT_SRC/tests/data"
"$T/fuzz_parser" -runs=1 "$d"/fuzz-regress/* "$d"/*.out "$d"/*.massif "$d"/bad/*.out \
  "$MT_SRC"/tests/fuzz/seeds/* >"$T/log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then ok "every kept input runs clean under the harness"
else not_ok "every kept input runs clean under the harness (exit $rc)"; grep -m10 -e ERROR -e 'runtime error' -e Running "$T/log" | diag "$(cat)"; fi
finish
