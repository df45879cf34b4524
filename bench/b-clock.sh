# bench/b-clock.sh: the cost and the accuracy of the ms clock.
# Cost: on the allocation-heavy programs (progs/malloc_loop.c, nothing but
# malloc/free; progs/alloc_heavy.c), memtime --time-unit=ms against memtime
# --time-unit=i (the reference: same tool, no clock, an instruction counter
# instead), and Massif --time-unit=ms, which reads the clock at every
# allocation. Targets: the clock costs <= 10% (memtime ms / memtime i <=
# 1.10) and memtime stays >= 3x faster than Massif --time-unit=ms on the
# malloc/free loop (memtime / Massif <= 0.33). Each is checked on wall
# time and on CPU time (user+sys), which a loaded machine disturbs less.
# Accuracy: tests/progs/clock_events.c, run through every phase (start-up,
# new code, computing, sleeping, a thread, dlopen of libstdc++, steady
# allocation, exit) under memtime and under Massif --time-unit=ms; the
# notes give the worst difference, over all runs and all pairs of events,
# between a profile's interval and the program's own CLOCK_MONOTONIC one
# (tests/clock-compare.pl; the guarantee is max(10 ms, 5%)), and how many
# times memtime read the kernel clock.
bench_clock() {
  local loop_ops=4000000 alloc_ops=4000000 cfg settings rep worst mworst reads secs
  if [ "$QUICK" = 1 ]; then loop_ops=1000000 alloc_ops=1000000; fi
  settings="--detailed-freq=10 --depth=30 --max-snapshots=100 --threshold=1.0 --peak-inaccuracy=1.0 --heap-admin=8"
  for cfg in "malloc_loop $loop_ops" "alloc_heavy $alloc_ops"; do
    group_begin clock "${cfg%% *} ms vs i"
    if [ -n "$MEMTIME_NA" ]; then
      group_tool memtime-i "" "$MEMTIME_NA"; group_tool memtime-ms "" "$MEMTIME_NA"
    else
      group_tool memtime-i "$MEMTIME --time-unit=i $settings --memtime-out-file=$BENCH_WORK/memtime-i.prof $PROGS/$cfg"
      group_tool memtime-ms "$MEMTIME --time-unit=ms $settings --memtime-out-file=$BENCH_WORK/memtime-ms.prof $PROGS/$cfg"
    fi
    group_tool massif-ms "valgrind -q --tool=massif --time-unit=ms $settings --massif-out-file=$BENCH_WORK/massif-ms.prof $PROGS/$cfg"
    group_run
    group_target "memtime-ms/memtime-i time" memtime-ms memtime-i 1.10
    group_target "memtime-ms/memtime-i cpu" memtime-ms memtime-i 1.10 cpu
    if [ "${cfg%% *}" = malloc_loop ]; then
      group_target "memtime-ms/massif-ms time" memtime-ms massif-ms 0.33
      group_target "memtime-ms/massif-ms cpu" memtime-ms massif-ms 0.33 cpu
      # Kernel clock reads of one extra run (-v -v reports them).
      if [ -z "$MEMTIME_NA" ]; then
        reads=$($MEMTIME -v -v --time-unit=ms --memtime-out-file="$BENCH_WORK/reads.prof" $PROGS/$cfg 2>&1 >/dev/null \
                | sed -n 's/.*memtime: \([0-9]*\) kernel clock reads.*/\1/p')
        secs=${G_MED[memtime-ms]:-?}
        note clock "${cfg%% *} ms" "memtime read the kernel clock ${reads:-?} times in a run of about $secs s"
      fi
    fi
  done

  local phases="start newcode compute=300 sleep=200 thread dlopen=libstdc++.so.6 demangle steady=100 event exit=100"
  if [ -n "$MEMTIME_NA" ]; then note clock accuracy "not available: $MEMTIME_NA"; return; fi
  if ! "$PROGS/clock_events" $phases >/dev/null 2>"$BENCH_WORK/clock_events.err"; then
    note clock accuracy "not available: clock_events failed natively ($(head -1 "$BENCH_WORK/clock_events.err"))"
    return
  fi
  worst= mworst=
  printf '  %-8s %-32s ' clock accuracy >&2
  for ((rep = 1; rep <= BENCH_REPS; rep++)); do
    $MEMTIME --time-unit=ms --max-snapshots=1000 --memtime-out-file="$BENCH_WORK/acc.prof" \
      "$PROGS/clock_events" $phases >"$BENCH_WORK/acc.ev" 2>/dev/null
    worst="$worst $(perl "$BENCH_SRC/../tests/clock-compare.pl" "$BENCH_WORK/acc.ev" "$BENCH_WORK/acc.prof" \
                    | sed -n 's/^[a-zA-Z]*: worst error \([0-9.]*\) ms.*/\1/p')"
    valgrind -q --tool=massif --time-unit=ms --max-snapshots=1000 --massif-out-file="$BENCH_WORK/acc-massif.prof" \
      "$PROGS/clock_events" $phases >"$BENCH_WORK/acc-massif.ev" 2>/dev/null
    mworst="$mworst $(perl "$BENCH_SRC/../tests/clock-compare.pl" "$BENCH_WORK/acc-massif.ev" "$BENCH_WORK/acc-massif.prof" \
                     | sed -n 's/^[a-zA-Z]*: worst error \([0-9.]*\) ms.*/\1/p')"
    printf '.' >&2
  done
  printf '\n' >&2
  note clock accuracy "worst clock error over $BENCH_REPS runs of every phase: memtime$(printf ' %s' $worst) ms; Massif --time-unit=ms$(printf ' %s' $mworst) ms (guarantee: max(10 ms, 5%))"
}
