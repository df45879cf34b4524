#!/usr/bin/env bash
# t706: unsymbolized pprof heap profiles as jemalloc_pprof serves them
# (reth's /debug/pprof/heap): made here from real jemalloc dumps by
# tests/progs/je2pprof.c, which does what rust-jemalloc-pprof does (the
# "t*" counts unsampled, every address minus one and made relative to its
# object, one mapping per object over the whole address space, no names).
# memtime-vis names them through the objects as it names the dumps: the
# series of profiles must give the same trees, site for site and byte for
# byte, as the series of dumps they came from (addresses aside: file
# offsets against the process's), with time_nanos as the clock.
. "$(dirname "$0")/lib.sh"
command -v protoc-c >/dev/null || plan_skip "protoc-c is not installed"
[ -f "$(cc -print-file-name=libjemalloc.so)" ] || plan_skip "libjemalloc-dev not installed"
prog=$(build_prog dumps_sites.c -ljemalloc) || plan_skip "cannot build dumps_sites.c against jemalloc"
plan 4
protoc-c --proto_path="$MT_SRC/visualizer/render" --c_out="$T" "$MT_SRC/visualizer/render/pprof_profile.proto"
cc -O1 -I"$T" -o "$T/je2pprof" "$MT_SRC/tests/progs/je2pprof.c" "$T/pprof_profile.pb-c.c" \
  $(pkg-config --cflags --libs libprotobuf-c zlib) -lm 2>"$T/cc.err"
check "je2pprof builds" test -x "$T/je2pprof"

mkdir "$T/d" "$T/p"
MALLOC_CONF=prof:true,lg_prof_interval:22,lg_prof_sample:16,prof_prefix:$T/d/jp "$prog"
mapfile -t dumps < <(cd "$T/d" && ls jp.*.heap | sort -t. -k3,3n | sed "s|^|$T/d/|")
profiles=()
for i in "${!dumps[@]}"; do
  # A second and a half apart, from an arbitrary start.
  "$T/je2pprof" "${dumps[i]}" $(( 1700000000000000000 + i * 1500000000 )) "$T/p/heap.$i.pb.gz"
  profiles+=("$T/p/heap.$i.pb.gz")
done
vis convert --threshold=0 --clock=seq "${dumps[@]}" -o "$T/dumps.out" 2>/dev/null
vis convert --threshold=0 "${profiles[@]}" -o "$T/pprof.out" 2>/dev/null
trees() { sed -n '/^#-----------$/,$p' "$1" | grep -v '^time=' | sed 's/0x[0-9A-F]*: /0x: /'; }
trees "$T/dumps.out" >"$T/dumps.trees"; trees "$T/pprof.out" >"$T/pprof.trees"
check "the profiles' trees are the dumps' trees (${#dumps[@]} snapshots)" test -s "$T/dumps.trees"
is_file "$T/pprof.trees" "$T/dumps.trees" "... site for site, byte for byte, names and lines included"
is "$(sed -n 's/^time=//p' "$T/pprof.out" | tr '\n' ' ')" \
  "$(for i in "${!dumps[@]}"; do printf '%d ' $(( i * 1500 )); done)" "the clock is time_nanos, in ms since the first"
finish
