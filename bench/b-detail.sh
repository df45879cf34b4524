# bench/b-detail.sh: what the unpruned tree detail in the companion
# (--detail-depth, default 2; memtime/mt_detail.c) costs. Reference: memtime
# with --detail-depth=0, which is memtime without the detail; against it,
# memtime with its defaults. Workloads: the 2000-site program (a wide tree in
# every detailed snapshot, rewritten about once a second), alloc_heavy, and
# Debian's rustc compiling tests/progs/rust_inlined.rs (thousands of sites in
# libraries without symbols, the case the detail is for), when /usr/bin/rustc is there.
# Targets: CPU <= 1.10x the reference; profile + companion <= 10x
# the reference's (sizes from the last repetition of each).
_detail_sizes() {   # FILE: bytes of FILE plus its companion
  local s=0 f
  for f in "$1" "$1.memtime"; do [ -f "$f" ] && s=$((s + $(stat -c %s "$f"))); done
  echo "$s"
}

_detail_group() {   # CONFIG COMMAND
  local config=$1 cmd=$2 a b result
  group_begin detail "$config"
  if [ -n "$MEMTIME_NA" ]; then
    group_tool memtime-nodetail "" "$MEMTIME_NA"; group_tool memtime "" "$MEMTIME_NA"
  elif ! memtime_option '--detail-depth='; then
    group_tool memtime-nodetail "" "memtime has no --detail-depth option"
    group_tool memtime "" "memtime has no --detail-depth option"
  else
    group_tool memtime-nodetail "$MEMTIME --detail-depth=0 --memtime-out-file=$BENCH_WORK/nodetail.prof $cmd"
    group_tool memtime "$MEMTIME --memtime-out-file=$BENCH_WORK/detail.prof $cmd"
  fi
  group_run
  group_target "memtime/memtime-nodetail cpu" memtime memtime-nodetail 1.10 cpu
  if [ -n "${G_MED[memtime]:-}" ] && [ -n "${G_MED[memtime-nodetail]:-}" ]; then
    a=$(_detail_sizes "$BENCH_WORK/detail.prof"); b=$(_detail_sizes "$BENCH_WORK/nodetail.prof")
    note detail "$config" "profile+companion: $a bytes with the detail, $b without ($(grep -m1 '^detail:' "$BENCH_WORK/detail.prof.memtime" 2>/dev/null || echo 'no detail: line'))"
    result=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f\t%s", (b > 0 ? a / b : 0), (b > 0 && a <= 10 * b) ? "met" : "NOT MET" }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' detail "$config" "size memtime/memtime-nodetail" "${result%%	*}" "<= 10" "${result#*	}" >>"$BENCH_TARGETS"
  else
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' detail "$config" "size memtime/memtime-nodetail" - "<= 10" "not available" >>"$BENCH_TARGETS"
  fi
}

bench_detail() {
  local ops=3000000 alloc_ops=2000000
  if [ "$QUICK" = 1 ]; then ops=1000000 alloc_ops=500000; fi
  _detail_group "2000 sites" "$PROGS/sites $ops"
  _detail_group alloc_heavy "$PROGS/alloc_heavy $alloc_ops"
  if [ -x /usr/bin/rustc ]; then
    _detail_group "rustc, a small crate" \
      "/usr/bin/rustc --edition 2021 -C opt-level=2 -o $BENCH_WORK/rust_prog $TOP/tests/progs/rust_inlined.rs"
  else
    group_begin detail "rustc, a small crate"
    group_tool memtime-nodetail "" "no /usr/bin/rustc (apt-get install rustc)"
    group_tool memtime "" "no /usr/bin/rustc (apt-get install rustc)"
    group_run
    group_target "memtime/memtime-nodetail cpu" memtime memtime-nodetail 1.10 cpu
  fi
}
