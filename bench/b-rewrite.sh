# bench/b-rewrite.sh: the cost of memtime's periodic atomic rewrites of the
# profile (what keeps a recent profile on disk when the OOM killer strikes).
# The workload has 2000 distinct allocation sites behind a dispatch tree, and
# --threshold=0 keeps every site in every detailed tree, so each rewrite
# writes the biggest file this program can produce. Reference: memtime with
# rewriting disabled (--flush-interval=0). Our target: the default schedule
# costs <= 1.10x (the tool aims to spend at most ~5% of the run rewriting).
# The rewrite count comes from an extra, untimed run under strace (renames of
# the temporary file onto the profile).
bench_rewrite() {
  local ops=800000 prog settings label count size
  [ "$QUICK" = 1 ] && ops=300000
  prog="$PROGS/sites $ops"
  settings="--time-unit=ms --detailed-freq=10 --depth=30 --max-snapshots=100 --threshold=0.0"
  group_begin rewrite "2000 sites, --threshold=0"
  if [ -n "$MEMTIME_NA" ]; then
    for label in memtime-noflush memtime memtime-flush100; do group_tool $label "" "$MEMTIME_NA"; done
  elif ! memtime_option '--flush-interval='; then
    group_tool memtime-noflush "" "memtime has no --flush-interval option"
    group_tool memtime "$MEMTIME $settings --memtime-out-file=$BENCH_WORK/memtime.out $prog"
    group_tool memtime-flush100 "" "memtime has no --flush-interval option"
  else
    group_tool memtime-noflush "$MEMTIME $settings --flush-interval=0 --memtime-out-file=$BENCH_WORK/noflush.out $prog"
    group_tool memtime "$MEMTIME $settings --memtime-out-file=$BENCH_WORK/memtime.out $prog"
    group_tool memtime-flush100 "$MEMTIME $settings --flush-interval=100 --memtime-out-file=$BENCH_WORK/flush100.out $prog"
  fi
  group_tool massif "valgrind -q --tool=massif $settings --massif-out-file=$BENCH_WORK/massif.out $prog"
  group_tool none "valgrind -q --tool=none $prog"
  group_run
  group_target "memtime/memtime-noflush time" memtime memtime-noflush 1.10

  for label in memtime memtime-flush100 massif; do
    local out=$BENCH_WORK/$label.out
    [ "$label" = memtime-flush100 ] && out=$BENCH_WORK/flush100.out
    [ "${G_STATUS[$label]}" = ok ] || continue
    size=$(stat -c %s "$out" 2>/dev/null || echo 0)
    note rewrite "$label" "profile $(awk -v s="$size" 'BEGIN { printf "%.2f MB", s / 1e6 }'), $(grep -c '^heap_tree=detailed\|^heap_tree=peak' "$out") detailed trees, $(grep -c '^ *n[0-9]*: ' "$out") tree lines"
  done
  if ! command -v strace >/dev/null; then
    note rewrite rewrites "rewrite count not available: strace is not installed"
    return
  fi
  for label in memtime memtime-flush100; do
    [ "${G_STATUS[$label]}" = ok ] || continue
    local i cmd=
    for i in "${!G_LABELS[@]}"; do [ "${G_LABELS[$i]}" = "$label" ] && cmd=${G_CMDS[$i]}; done
    # --seccomp-bpf stops the tracee only at the traced calls, not at each syscall.
    if eval "strace -f -qq --seccomp-bpf -e trace=rename,renameat,renameat2 -o \"$BENCH_WORK/strace.txt\" $cmd" \
         >/dev/null 2>&1; then
      count=$(grep -c 'rename.*\.tmp\.[0-9]*", "[^"]*\.out")* = 0' "$BENCH_WORK/strace.txt")
      note rewrite "$label" "$count rewrites in the strace run; $(awk -v a="${G_MED[$label]}" \
        -v b="${G_MED[memtime-noflush]:-}" -v n="$count" 'BEGIN {
          if (b == "" || n == 0) print "no per-rewrite estimate";
          else printf "about %.0f ms per rewrite ((median - noflush median) / count)", (a - b) * 1000 / n }')"
    else
      note rewrite "$label" "rewrite count not available: the strace run failed"
    fi
  done
}
