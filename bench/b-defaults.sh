# bench/b-defaults.sh: memtime against Massif as users run them, each in its
# default mode (memtime: --time-unit=ms with samples and rewrites; Massif:
# --time-unit=i, its fastest), with --tool=none, the floor of any Valgrind
# tool, alongside. Issue 13's targets, each checked in this one run:
#   - memtime <= 0.9x Massif on every workload (time and CPU);
#   - peak RSS no higher than Massif's;
#   - start-up (/bin/true): memtime's CPU at most 20 ms above Massif's;
#   - per allocation (malloc/free loop): memtime's CPU above --tool=none at
#     most 0.7x Massif's.
# Workloads: /bin/true, progs/malloc_loop.c, progs/alloc_heavy.c, and
# python3 building dicts when python3 is installed (not available otherwise).

# _defaults_cpu_target MEASURE VALUE MAX: records a target computed here.
_defaults_cpu_target() {
  local result
  if [ -z "$2" ]; then result="not available (a tool failed)"
  else result=$(awk -v v="$2" -v m="$3" 'BEGIN { print (v <= m) ? "met" : "NOT MET" }'); fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$G_BENCH" "$G_CONFIG" "$1" "${2:--}" "<= $3" "$result" >>"$BENCH_TARGETS"
}

bench_defaults() {
  local loop_ops=2000000 alloc_ops=2000000 cfg name cmd v
  if [ "$QUICK" = 1 ]; then loop_ops=500000 alloc_ops=500000; fi
  local py="import random
random.seed(1)
keep = []
for i in range(200000):
    d = {'k%d' % j: j for j in range(i % 16)}
    if i % 7 == 0: keep.append(d)
print(len(keep))"
  for cfg in "startup /bin/true" "malloc_loop $PROGS/malloc_loop $loop_ops" \
             "alloc_heavy $PROGS/alloc_heavy $alloc_ops" "python3 python3 -c \"\$DEFAULTS_PY\""; do
    name=${cfg%% *} cmd=${cfg#* }
    export DEFAULTS_PY=$py
    group_begin defaults "$name"
    if [ "$name" = python3 ] && ! command -v python3 >/dev/null; then
      group_tool massif "" "python3 is not installed"
    else
      group_tool massif "valgrind -q --tool=massif --massif-out-file=$BENCH_WORK/massif.prof $cmd"
    fi
    if [ -n "$MEMTIME_NA" ]; then group_tool memtime "" "$MEMTIME_NA"
    else group_tool memtime "$MEMTIME --memtime-out-file=$BENCH_WORK/memtime.prof $cmd"; fi
    group_tool none "valgrind -q --tool=none $cmd"
    group_run
    group_target "memtime/massif time" memtime massif 0.90
    group_target "memtime/massif cpu" memtime massif 0.90 cpu
    group_target "memtime/massif maxRSS" memtime massif 1.00 rss
    v=
    if [ "$name" = startup ] && [ -n "${G_CPU[memtime]:-}" ] && [ -n "${G_CPU[massif]:-}" ]; then
      v=$(awk -v a="${G_CPU[memtime]}" -v b="${G_CPU[massif]}" 'BEGIN { printf "%.3f", a - b }')
      _defaults_cpu_target "memtime-massif cpu_s" "$v" 0.020
    elif [ "$name" = malloc_loop ]; then
      if [ -n "${G_CPU[memtime]:-}" ] && [ -n "${G_CPU[massif]:-}" ] && [ -n "${G_CPU[none]:-}" ]; then
        v=$(awk -v a="${G_CPU[memtime]}" -v b="${G_CPU[massif]}" -v n="${G_CPU[none]}" \
              'BEGIN { printf "%.2f", (b - n > 0 ? (a - n) / (b - n) : 0) }')
      fi
      _defaults_cpu_target "(memtime-none)/(massif-none) cpu" "$v" 0.70
    fi
  done
}
