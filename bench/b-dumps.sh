# bench/b-dumps.sh: memtime-vis on a series of 1,000 jemalloc heap dumps of a
# big program: Debian's rustc (librustc_driver, 67 MB, and libLLVM-14, 110
# MB: rustc-sized symbol tables) compiling progs/rust_crate at opt-level=2
# with Debian's libjemalloc2 preloaded, a dump every 512 KiB allocated
# (lg_prof_interval:19; 250 dumps with --quick). Measured: the PNG chart of
# the first 1,000 dumps of the rustc process, and of the first quarter of
# them. Targets: the 1,000-dump chart in under 60 s of wall time (an
# absolute figure, checked here only), and bounded memory: max RSS for the
# whole series at most 2x that of its first quarter (one dump is held at a
# time; what grows is the symbols resolved and the model's snapshots).
bench_dumps() {
  local n=1000 dir=$BENCH_WORK/dumps pid list quarter na=
  [ "$QUICK" = 1 ] && n=250
  if [ ! -x /usr/bin/rustc ]; then na="no /usr/bin/rustc (apt-get install rustc)"
  elif [ ! -f /usr/lib/x86_64-linux-gnu/libjemalloc.so.2 ]; then na="no libjemalloc2"
  elif [ -n "$VIS_NA" ]; then na=$VIS_NA
  else
    mkdir -p "$dir"
    LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 \
      MALLOC_CONF=prof:true,lg_prof_interval:19,prof_prefix:$dir/jp \
      /usr/bin/rustc --edition 2021 -C opt-level=2 -o "$BENCH_WORK/rust_crate" \
      "$BENCH_SRC/progs/rust_crate/main.rs" >/dev/null 2>&1
    # rustc's own dumps (the linker it runs writes some too, under its pid).
    pid=$(ls "$dir" | cut -d. -f2 | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
    list=$(cd "$dir" && ls "jp.$pid".*.heap 2>/dev/null | sort -t. -k3,3n | head -n "$n" | sed "s|^|$dir/|" | tr '\n' ' ')
    quarter=$(echo "$list" | tr ' ' '\n' | head -n $((n / 4)) | tr '\n' ' ')
    [ "$(echo $list | wc -w)" -ge "$n" ] || na="rustc wrote $(echo $list | wc -w) dumps, fewer than $n"
  fi
  group_begin dumps "$n jemalloc dumps of rustc"
  if [ -n "$na" ]; then
    group_tool vis-png "" "$na"; group_tool vis-png-quarter "" "$na"
  else
    note dumps input "$n dumps of pid $pid, $(du -ch $list | tail -1 | cut -f1) in all; objects: $(sed -n '/^MAPPED_LIBRARIES:/,$p' $(echo $list | cut -d' ' -f1) | awk '$2 ~ /x/ && $6 ~ /^\// { print $6 }' | sort -u | wc -l) mapped executable files"
    group_tool vis-png "$VIS -o $BENCH_WORK/dumps.png $list"
    group_tool vis-png-quarter "$VIS -o $BENCH_WORK/dumps-quarter.png $quarter"
  fi
  group_run
  local t=${G_MED[vis-png]:-} result
  if [ -n "$t" ]; then result=$(awk -v v="$t" 'BEGIN { print (v < 60) ? "met" : "NOT MET" }')
  else t=- result="not available (vis-png ${G_STATUS[vis-png]:-missing})"; fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' dumps "$n jemalloc dumps of rustc" "vis-png wall seconds" "$t" \
    "< 60" "$result" >>"$BENCH_TARGETS"
  group_target "vis-png maxRSS, all / first quarter" vis-png vis-png-quarter 2.00 rss
}
