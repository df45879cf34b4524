# bench/b-stacks.sh: stack profiling cost on a call-heavy program (recursive
# fib, single-threaded and with 4 threads). Reference: heap-only memtime.
# Targets: memtime --stacks=yes <= 1.3x heap-only memtime, and far below
# Massif --stacks=yes (taken as <= 0.5x). Massif heap-only and --tool=none
# are printed for scale. The time unit is i (Massif's default): with ms,
# Massif --stacks=yes reads the clock at every stack-pointer move and runs
# some 50x slower than with i, which would only measure that pathology.
bench_stacks() {
  local n=34 tn=32 cfg prog settings stacks_na=
  if [ "$QUICK" = 1 ]; then n=31 tn=29; fi
  settings="--time-unit=i --detailed-freq=10 --depth=30 --max-snapshots=100 --threshold=1.0"
  # An option can be listed before it works: require a non-zero stack figure.
  if [ -n "$MEMTIME_NA" ]; then stacks_na=$MEMTIME_NA
  elif ! memtime_option '--stacks='; then stacks_na="memtime has no --stacks option"
  elif ! $MEMTIME --stacks=yes --memtime-out-file="$BENCH_WORK/probe.prof" "$PROGS/fib" 20 >/dev/null 2>&1 \
       || ! grep -q '^mem_stacks_B=[1-9]' "$BENCH_WORK/probe.prof"; then
    stacks_na="memtime --stacks=yes records no stack bytes"
  fi
  for cfg in "fib $n" "fib $tn 4"; do
    prog="$PROGS/$cfg"
    group_begin stacks "$([ "${cfg#fib * }" = "$cfg" ] && echo "fib($n)" || echo "fib($tn) x 4 threads")"
    if [ -n "$MEMTIME_NA" ]; then group_tool memtime "" "$MEMTIME_NA"
    else group_tool memtime "$MEMTIME $settings --memtime-out-file=$BENCH_WORK/memtime.prof $prog"; fi
    if [ -n "$stacks_na" ]; then group_tool memtime-stacks "" "$stacks_na"
    else group_tool memtime-stacks "$MEMTIME $settings --stacks=yes --memtime-out-file=$BENCH_WORK/memtime-stacks.prof $prog"; fi
    group_tool massif-stacks "valgrind -q --tool=massif $settings --stacks=yes --massif-out-file=$BENCH_WORK/massif-stacks.prof $prog"
    group_tool massif "valgrind -q --tool=massif $settings --massif-out-file=$BENCH_WORK/massif.prof $prog"
    group_tool none "valgrind -q --tool=none $prog"
    group_run
    group_target "memtime-stacks/memtime time" memtime-stacks memtime 1.30
    group_target "memtime-stacks/massif-stacks time" memtime-stacks massif-stacks 0.50
  done
}
