# bench/b-outline.sh: what the exact outline (memtime/mt_outline.c: the
# lowest, highest and last totals per bucket of time, kept at every heap
# change) costs. Reference: memtime --outline=no (a debugging option: the
# same tool without the outline); against it, memtime with its defaults, on
# the allocation-heavy workloads (progs/malloc_loop.c: nothing but
# malloc/free; progs/alloc_heavy.c). Target: CPU <= 1.01x the
# reference. --burst-threshold=100 on both: the burst trees are snapshots,
# counted by the schedule's own figures, not the outline's.
bench_outline() {
  local ops=4000000 cfg
  if [ "$QUICK" = 1 ]; then ops=1000000; fi
  for cfg in "malloc_loop $ops" "alloc_heavy $ops"; do
    group_begin outline "$cfg"
    if [ -n "$MEMTIME_NA" ]; then
      group_tool memtime-nooutline "" "$MEMTIME_NA"; group_tool memtime "" "$MEMTIME_NA"
    elif ! VALGRIND_LIB=$INPLACE valgrind --tool=memtime --help-debug 2>&1 | grep -q -e '--outline='; then
      group_tool memtime-nooutline "" "memtime has no --outline option"
      group_tool memtime "" "memtime has no --outline option"
    else
      group_tool memtime-nooutline "$MEMTIME --outline=no --burst-threshold=100 --memtime-out-file=$BENCH_WORK/noout.prof $PROGS/$cfg"
      group_tool memtime "$MEMTIME --burst-threshold=100 --memtime-out-file=$BENCH_WORK/out.prof $PROGS/$cfg"
    fi
    group_run
    group_target "memtime/memtime-nooutline cpu" memtime memtime-nooutline 1.01 cpu
  done
}
