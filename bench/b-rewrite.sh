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
  local ops=1200000 prog settings label count size
  [ "$QUICK" = 1 ] && ops=300000
  prog="$PROGS/sites $ops"
  settings="--time-unit=ms --detailed-freq=10 --depth=30 --max-snapshots=100 --threshold=0.0"
  group_begin rewrite "2000 sites, --threshold=0"
  if [ -n "$MEMTIME_NA" ]; then
    for label in memtime-noflush memtime memtime-flush100; do group_tool $label "" "$MEMTIME_NA"; done
  elif ! memtime_option '--flush-interval='; then
    group_tool memtime-noflush "" "memtime has no --flush-interval option"
    group_tool memtime "$MEMTIME $settings --memtime-out-file=$BENCH_WORK/memtime.prof $prog"
    group_tool memtime-flush100 "" "memtime has no --flush-interval option"
  else
    group_tool memtime-noflush "$MEMTIME $settings --flush-interval=0 --memtime-out-file=$BENCH_WORK/noflush.prof $prog"
    group_tool memtime "$MEMTIME $settings --memtime-out-file=$BENCH_WORK/memtime.prof $prog"
    group_tool memtime-flush100 "$MEMTIME $settings --flush-interval=100 --memtime-out-file=$BENCH_WORK/flush100.prof $prog"
  fi
  group_tool massif "valgrind -q --tool=massif $settings --massif-out-file=$BENCH_WORK/massif.prof $prog"
  group_tool none "valgrind -q --tool=none $prog"
  group_run
  group_target "memtime/memtime-noflush time" memtime memtime-noflush 1.10

  declare -A prof=([memtime-noflush]=noflush [memtime]=memtime [memtime-flush100]=flush100 [massif]=massif)
  for label in memtime-noflush memtime memtime-flush100 massif; do
    local out=$BENCH_WORK/${prof[$label]}.prof
    [ "${G_STATUS[$label]}" = ok ] || continue
    size=$(stat -c %s "$out" 2>/dev/null || echo 0)
    note rewrite "$label" "profile $(awk -v s="$size" 'BEGIN { printf "%.2f MB", s / 1e6 }'), $(grep -c '^heap_tree=detailed\|^heap_tree=peak' "$out") detailed trees, $(grep -c '^ *n[0-9]*: ' "$out") tree lines"
  done
  if ! command -v strace >/dev/null; then
    note rewrite rewrites "rewrite count not available: strace is not installed"
    return
  fi
  # Every run renames once at exit; the rewrites while running are the rest.
  local base=
  for label in memtime-noflush memtime memtime-flush100; do
    [ "${G_STATUS[$label]}" = ok ] || continue
    local i cmd=
    for i in "${!G_LABELS[@]}"; do [ "${G_LABELS[$i]}" = "$label" ] && cmd=${G_CMDS[$i]}; done
    # --seccomp-bpf stops the tracee only at the traced calls, not at each syscall.
    if ! eval "strace -f -qq --seccomp-bpf -e trace=rename,renameat,renameat2 -o \"$BENCH_WORK/strace.txt\" $cmd" \
         >/dev/null 2>&1; then
      note rewrite "$label" "rewrite count not available: the strace run failed"
      continue
    fi
    count=$(grep -c "rename.*\.tmp\.[0-9]*\", \"[^\"]*/${prof[$label]}\.prof\") = 0" "$BENCH_WORK/strace.txt")
    [ "$label" = memtime-noflush ] && base=${G_MED[$label]}
    note rewrite "$label" "$count renames of the profile in the strace run (including the final write); $(awk \
      -v a="${G_MED[$label]}" -v b="$base" -v n="$((count - 1))" 'BEGIN {
        if (b == "" || n <= 0) print "no per-rewrite estimate";
        else printf "about %.0f ms per periodic rewrite ((median - noflush median) / %d)", (a - b) * 1000 / n, n }')"
  done
}
