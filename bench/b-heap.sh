# bench/b-heap.sh: heap profiling cost. memtime against Massif (the
# reference) and --tool=none (the floor: Valgrind's JIT alone) at equal
# settings, on an allocation-heavy and a compute-heavy program, for each time
# unit. Target: memtime at least as fast as Massif (ratio <= 1.00); memtime
# --allocator=program (the program's own malloc, wrapped) is measured beside
# it, without a target.
bench_heap() {
  local alloc_ops=4000000 rounds=30 prog unit args settings
  if [ "$QUICK" = 1 ]; then alloc_ops=1000000 rounds=10; fi
  for prog in "alloc_heavy $alloc_ops" "compute_heavy $rounds"; do
    for unit in ms i B; do
      # Massif's defaults spelled out, so both tools run the same schedule
      # whatever memtime's own defaults are.
      settings="--time-unit=$unit --detailed-freq=10 --depth=30 --max-snapshots=100 --threshold=1.0 --peak-inaccuracy=1.0 --heap-admin=8"
      args="$PROGS/$prog"
      group_begin heap "${prog%% *} --time-unit=$unit"
      group_heap_tools "$settings" "$args"
      group_run
      group_target "memtime/massif time" memtime massif 1.00
      group_target "memtime-program/massif time (--allocator=program, no target)" memtime-program massif 99
    done
  done
}
