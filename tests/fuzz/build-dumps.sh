#!/usr/bin/env bash
# build-dumps.sh OUT WORKDIR: builds the heap dump harness
# (tests/fuzz/fuzz_dumps.c) with clang, -fsanitize=fuzzer,address,undefined,
# into OUT; pprof's message code is generated into WORKDIR by protoc-c, as
# the build does. Used by tests/fuzz/run-dumps.sh and t705.
set -eu
out=$1 work=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
v=$top/visualizer
mkdir -p "$work"
protoc-c --proto_path="$v/render" --c_out="$work" "$v/render/pprof_profile.proto"
clang -g -O1 -std=c99 -D_POSIX_C_SOURCE=200809L -D_GNU_SOURCE -Wall -Wextra -Werror \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$v" -I"$work" -o "$out" \
  "$top/tests/fuzz/fuzz_dumps.c" "$v/read/dumps.c" "$v/read/jeheap.c" "$v/read/maps.c" \
  "$v/read/symbols.c" "$v/read/pprof_in.c" "$v/read/massif.c" "$v/model/heap_tree.c" \
  "$v/render/massif_out.c" "$v/model/demangle.c" "$v/base/grow.c" "$v/base/strfmt.c" \
  "$v/base/outfile.c" "$v/base/units.c" "$v/model/profile.c" "$v/model/sites.c" \
  "$v/model/names.c" "$v/model/label.c" "$v/model/full_name.c" "$v/model/short_name.c" "$v/base/strbuf.c" "$v/base/ptrmap.c" "$v/base/utf8.c" "$v/model/groups.c" "$v/model/group_cut.c" "$v/model/group_default.c" \
  "$v/model/group_keys.c" "$v/model/wrappers.c" \
  "$work/pprof_profile.pb-c.c" \
  $(pkg-config --cflags --libs libprotobuf-c zlib libdw libelf) -liberty -lm
