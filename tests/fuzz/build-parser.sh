#!/usr/bin/env bash
# build-parser.sh OUT: builds the profile parser harness
# (tests/fuzz/fuzz_parser.c) with clang, -fsanitize=fuzzer,address,undefined,
# into OUT. The one list of the sources it links: used by tests/fuzz/run.sh
# and t208, so a module the text reports come to call is added once.
set -eu
out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
v=$top/visualizer
clang -g -O1 -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$v" -o "$out" \
  "$top/tests/fuzz/fuzz_parser.c" \
  "$v/read/massif.c" "$v/read/companion.c" \
  "$v/model/profile.c" "$v/model/sites.c" "$v/model/names.c" "$v/model/label.c" "$v/model/full_name.c" "$v/model/short_name.c" "$v/base/strbuf.c" "$v/model/stacks.c" \
  "$v/model/analysis.c" "$v/model/growth.c" "$v/model/when.c" "$v/model/outline.c" \
  "$v/model/groups.c" "$v/model/group_cut.c" "$v/model/group_default.c" "$v/model/group_keys.c" "$v/model/wrappers.c" \
  "$v/model/stack_groups.c" "$v/model/demangle.c" "$v/model/alloc_account.c" \
  "$v/render/report.c" "$v/render/collapsed.c" "$v/render/flamegraph.c" \
  "$v/render/summary.c" "$v/render/growth_text.c" \
  "$v/base/units.c" "$v/base/grow.c" "$v/base/ptrmap.c" "$v/base/utf8.c" \
  -liberty -lm
