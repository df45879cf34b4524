# bench/lib.sh: measurement helpers shared by the bench/b-*.sh benchmarks.
# A "group" is one benchmark configuration run by several tools. Its runs are
# interleaved (A B C A B C ...) so that a noisy neighbour or a frequency
# change hits every tool alike, and each tool's figure is the median of
# $BENCH_REPS runs: wall seconds (date, ns), max RSS (GNU time's %M), and
# user+sys CPU seconds, which a loaded machine disturbs less than wall time.
# Results go to two TSV files read by run.sh's final tables:
#   $BENCH_ROWS:    bench config tool median_s range_s cpu_s rss_mb ratio_vs_ref status
#   $BENCH_TARGETS: bench config measure value target result

# group_begin BENCH CONFIG: starts a group; the first tool added is the reference.
group_begin() {
  G_BENCH=$1 G_CONFIG=$2
  G_LABELS=() G_CMDS=()
  unset G_MED G_RSS G_STATUS G_TIMES G_CPU
  declare -gA G_MED=() G_RSS=() G_STATUS=() G_TIMES=() G_CPU=()
}

# group_tool LABEL COMMAND: COMMAND is a shell string run with eval, stdout and
# stderr to $BENCH_WORK/LABEL.{out,err}. An empty COMMAND with a REASON as third
# argument marks the tool "not available" instead.
group_tool() {
  G_LABELS+=("$1")
  G_CMDS+=("$2")
  if [ -z "$2" ]; then G_STATUS[$1]="not available: ${3:-unknown}"; else G_STATUS[$1]=ok; fi
}

# group_heap_tools SETTINGS COMMAND: the four tools of a heap comparison,
# Massif (the reference), memtime in its default mode and with
# --allocator=program (the program's own allocator, wrapped), and
# --tool=none, each running COMMAND with the tool options SETTINGS (none gets
# no options) and writing its profile into $BENCH_WORK.
group_heap_tools() {
  group_tool massif "valgrind -q --tool=massif $1 --massif-out-file=$BENCH_WORK/massif.prof $2"
  if [ -n "$MEMTIME_NA" ]; then
    group_tool memtime "" "$MEMTIME_NA"
    group_tool memtime-program "" "$MEMTIME_NA"
  else
    group_tool memtime "$MEMTIME $1 --memtime-out-file=$BENCH_WORK/memtime.prof $2"
    group_tool memtime-program "$MEMTIME $1 --allocator=program --memtime-out-file=$BENCH_WORK/memtime-program.prof $2"
  fi
  group_tool none "valgrind -q --tool=none $2"
}

# _run_once LABEL COMMAND: one timed run; prints "seconds rss_kb cpu_seconds",
# or returns 1.
_run_once() {
  local label=$1 cmd=$2 t0 t1
  t0=$(date +%s%N)
  if ! eval "/usr/bin/time -f '%M %U %S' -o \"\$BENCH_WORK/$label.rss\" $cmd" \
       >"$BENCH_WORK/$label.out" 2>"$BENCH_WORK/$label.err"; then
    return 1
  fi
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" '{ m = $1; c = $2 + $3 }
    END { printf "%.3f %s %.2f\n", (b - a) / 1e9, m, c }' "$BENCH_WORK/$label.rss"
}

# median: of the numbers on stdin.
median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1;
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# group_run: runs every available tool $BENCH_REPS times, interleaved, then
# records one row per tool with its ratio against the reference (first) tool.
group_run() {
  local rep i label res
  declare -A times=() rsss=() ranges=() cpus=() cpu=()
  printf '  %-8s %-32s ' "$G_BENCH" "$G_CONFIG" >&2
  for ((rep = 1; rep <= BENCH_REPS; rep++)); do
    for i in "${!G_LABELS[@]}"; do
      label=${G_LABELS[$i]}
      [ "${G_STATUS[$label]}" = ok ] || continue
      if res=$(_run_once "$label" "${G_CMDS[$i]}"); then
        set -- $res
        times[$label]+="$1 "
        rsss[$label]+="$2 "
        cpus[$label]+="$3 "
      else
        # Keep the evidence: the next group reuses the label's file names.
        cp "$BENCH_WORK/$label.err" "$BENCH_WORK/$G_BENCH-$label.failed.err"
        G_STATUS[$label]="failed (see $BENCH_WORK/$G_BENCH-$label.failed.err)"
      fi
    done
    printf '.' >&2
  done
  printf '\n' >&2
  local ref=${G_LABELS[0]} ref_med=
  for label in "${G_LABELS[@]}"; do
    if [ "${G_STATUS[$label]}" = ok ]; then
      G_MED[$label]=$(printf '%s\n' ${times[$label]} | median)
      G_TIMES[$label]=${times[$label]}
      cpu[$label]=$(printf '%s\n' ${cpus[$label]} | median)
      G_CPU[$label]=${cpu[$label]}
      # min-max of the runs: how much to trust a ratio near its target.
      ranges[$label]=$(printf '%s\n' ${times[$label]} | sort -g | sed -n '1h;${H;x;s/\n/-/;p}')
      G_RSS[$label]=$(printf '%s\n' ${rsss[$label]} | median | awk '{ printf "%.1f", $1 / 1024 }')
    fi
  done
  ref_med=${G_MED[$ref]:-}
  for label in "${G_LABELS[@]}"; do
    local ratio=-
    if [ -n "${G_MED[$label]:-}" ] && [ -n "$ref_med" ]; then
      ratio=$(awk -v a="${G_MED[$label]}" -v b="$ref_med" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$G_BENCH" "$G_CONFIG" "$label" "${G_MED[$label]:--}" \
      "${ranges[$label]:--}" "${cpu[$label]:--}" "${G_RSS[$label]:--}" "$ratio" "${G_STATUS[$label]}" >>"$BENCH_ROWS"
  done
}

# group_target MEASURE NUM DEN MAX [FIELD]: checks NUM against DEN and
# records met / not met / not available. For time, the value is the median of
# the per-repetition ratios NUM_k / DEN_k: runs k of both tools were
# neighbours in time, so pairing them cancels most of the load drift of a
# shared machine. For FIELD=rss it is the ratio of the median max RSS, for
# FIELD=cpu the ratio of the median user+sys CPU seconds (what a tool costs
# when the machine is too loaded for wall time to mean much).
group_target() {
  local measure=$1 num=$2 den=$3 max=$4 field=${5:-time} value result
  if [ -z "${G_MED[$num]:-}" ] || [ -z "${G_MED[$den]:-}" ]; then
    value=-
    if [ -z "${G_MED[$num]:-}" ]; then result="not available ($num ${G_STATUS[$num]:-missing})"
    else result="not available ($den ${G_STATUS[$den]:-missing})"; fi
  else
    if [ "$field" = rss ]; then
      value=$(awk -v a="${G_RSS[$num]}" -v b="${G_RSS[$den]}" 'BEGIN { printf "%.4f", (b > 0 ? a / b : 0) }')
    elif [ "$field" = cpu ]; then
      value=$(awk -v a="${G_CPU[$num]}" -v b="${G_CPU[$den]}" 'BEGIN { printf "%.4f", (b > 0 ? a / b : 0) }')
    else
      value=$(paste -d' ' <(printf '%s\n' ${G_TIMES[$num]}) <(printf '%s\n' ${G_TIMES[$den]}) \
        | awk '{ printf "%.4f\n", ($2 > 0 ? $1 / $2 : 0) }' | median)
    fi
    # Judged unrounded, shown to three decimals: 0.0249 is not "0.02".
    result=$(awk -v v="$value" -v m="$max" 'BEGIN { print (v <= m) ? "met" : "NOT MET" }')
    value=$(awk -v v="$value" 'BEGIN { printf "%.3f", v }')
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$G_BENCH" "$G_CONFIG" "$measure" "$value" "<= $max" "$result" \
    >>"$BENCH_TARGETS"
}

# note BENCH CONFIG TEXT: a free-form line printed under the tables (profile
# sizes, rewrite counts).
note() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$BENCH_NOTES"; }

# table: aligns tab-separated stdin into columns (no dependency on column(1)).
table() {
  awk -F'\t' '{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) }
                if (NF > nf) nf = NF; n[NR] = NF }
    END { for (r = 1; r <= NR; r++) { line = "";
            for (i = 1; i <= n[r]; i++) line = line (i < n[r] ? sprintf("%-" w[i] "s  ", c[r, i]) : c[r, i]);
            print line } }'
}
