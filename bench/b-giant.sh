# bench/b-giant.sh: giant heaps of small blocks. progs/giant_heap.c keeps 10
# million small blocks (16-47 bytes) alive and replaces half of them; the
# program alone (native, the reference), --tool=none, Massif, memtime as it
# comes (ms: the compact heap) and memtime --compact-heap=no (Valgrind's
# allocator, as with i and B) and memtime --allocator=program (the
# program's glibc malloc, wrapped) run interleaved in one group, all in their
# default time units. Targets, for memtime's default: max RSS at
# most 0.7x Massif's and 1.5x native; time at most 0.8x Massif's. Then the
# cost per allocation above --tool=none on progs/malloc_loop.c:
# (memtime - none) / (massif - none) <= 0.64 on CPU seconds.
# The notes give the tool's own memory per block (memtime -v).
bench_giant() {
  local blocks=10000000 loop_ops=4000000 v own
  if [ "$QUICK" = 1 ]; then blocks=2000000 loop_ops=1000000; fi
  group_begin giant "giant_heap $blocks blocks"
  group_tool native "$PROGS/giant_heap $blocks"
  group_tool none "valgrind -q --tool=none $PROGS/giant_heap $blocks"
  group_tool massif "valgrind -q --tool=massif --massif-out-file=$BENCH_WORK/massif.prof $PROGS/giant_heap $blocks"
  if [ -n "$MEMTIME_NA" ]; then
    group_tool memtime "" "$MEMTIME_NA"; group_tool memtime-arena "" "$MEMTIME_NA"
    group_tool memtime-program "" "$MEMTIME_NA"
  else
    group_tool memtime "$MEMTIME --memtime-out-file=$BENCH_WORK/memtime.prof $PROGS/giant_heap $blocks"
    if memtime_option --compact-heap=; then
      group_tool memtime-arena "$MEMTIME --compact-heap=no --memtime-out-file=$BENCH_WORK/memtime-c.prof $PROGS/giant_heap $blocks"
    else
      group_tool memtime-arena "" "--compact-heap is not implemented"
    fi
    if memtime_option --allocator=; then
      group_tool memtime-program "$MEMTIME --allocator=program --memtime-out-file=$BENCH_WORK/memtime-p.prof $PROGS/giant_heap $blocks"
    else
      group_tool memtime-program "" "--allocator is not implemented"
    fi
  fi
  group_run
  group_target "memtime/massif maxRSS" memtime massif 0.70 rss
  group_target "memtime/native maxRSS" memtime native 1.50 rss
  group_target "memtime/massif time" memtime massif 0.80
  group_target "memtime-arena/massif maxRSS (--compact-heap=no, no target)" memtime-arena massif 99 rss
  group_target "memtime-program/massif time (--allocator=program, no target)" memtime-program massif 99
  group_target "memtime-program/massif maxRSS (--allocator=program, no target)" memtime-program massif 99 rss
  # The tool's own memory per block at the high, from one extra run each.
  if [ -z "$MEMTIME_NA" ]; then
    for v in no yes; do
      # -v -v: $MEMTIME has -q, which the first -v only undoes.
      own=$($MEMTIME -v -v --compact-heap=$v --memtime-out-file="$BENCH_WORK/own.prof" $PROGS/giant_heap "$blocks" 2>&1 >/dev/null \
            | sed -n 's/.*memtime: own memory for them: .*, \([0-9]*\) bytes per block at the high$/\1/p')
      note giant "giant_heap $blocks blocks" "--compact-heap=$v: ${own:-?} bytes of the tool's own records per block at the high (memtime -v)"
    done
  fi

  group_begin giant "malloc_loop $loop_ops"
  group_tool none "valgrind -q --tool=none $PROGS/malloc_loop $loop_ops"
  group_tool massif "valgrind -q --tool=massif --massif-out-file=$BENCH_WORK/massif.prof $PROGS/malloc_loop $loop_ops"
  if [ -n "$MEMTIME_NA" ] || ! memtime_option --compact-heap=; then
    group_tool memtime-arena "" "${MEMTIME_NA:---compact-heap is not implemented}"
  else
    group_tool memtime-arena "$MEMTIME --compact-heap=no --memtime-out-file=$BENCH_WORK/memtime-c.prof $PROGS/malloc_loop $loop_ops"
  fi
  if [ -n "$MEMTIME_NA" ]; then group_tool memtime "" "$MEMTIME_NA"
  else group_tool memtime "$MEMTIME --memtime-out-file=$BENCH_WORK/memtime.prof $PROGS/malloc_loop $loop_ops"; fi
  group_run
  v=
  if [ -n "${G_CPU[memtime]:-}" ] && [ -n "${G_CPU[massif]:-}" ] && [ -n "${G_CPU[none]:-}" ]; then
    v=$(awk -v a="${G_CPU[memtime]}" -v b="${G_CPU[massif]}" -v n="${G_CPU[none]}" \
          'BEGIN { printf "%.4f", (b - n > 0 ? (a - n) / (b - n) : 0) }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' giant "malloc_loop $loop_ops" "(memtime-none)/(massif-none) cpu" \
      "$(awk -v v="$v" 'BEGIN { printf "%.3f", v }')" "<= 0.64" \
      "$(awk -v v="$v" 'BEGIN { print (v <= 0.64) ? "met" : "NOT MET" }')" >>"$BENCH_TARGETS"
  else
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' giant "malloc_loop $loop_ops" "(memtime-none)/(massif-none) cpu" \
      - "<= 0.64" "not available" >>"$BENCH_TARGETS"
  fi
}
