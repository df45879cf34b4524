# bench/b-defaults.sh: memtime against Massif as users run them, each in its
# default mode (memtime: --time-unit=ms with samples and rewrites; Massif:
# --time-unit=i, its fastest), with --tool=none, the floor of any Valgrind
# tool, alongside. The targets of memtime as users run it, each checked in
# this one run:
#   - memtime <= 0.9x Massif on every workload (time and CPU);
#   - peak RSS no higher than Massif's;
#   - start-up (/bin/true): memtime's CPU at most 20 ms above Massif's;
#   - per allocation (malloc/free loop): memtime's CPU above --tool=none at
#     most 0.7x Massif's;
#   - memtime --stacks=yes <= 1.2x heap-only memtime on a deep recursion.
# Workloads: /bin/true, progs/malloc_loop.c, progs/alloc_heavy.c, python3
# building dicts, sqlite3 inserting 40,000 indexed rows, jq over a generated
# 20 MB JSON file (4 MB with --quick), progs/threads4.c (4 threads), and
# progs/deep_recursion.c for --stacks=yes. python3, sqlite3 and jq are
# installed with apt-get when missing ("not available" if that fails).

# _defaults_find NAME: prints the first NAME on $PATH (then /usr/bin, /bin)
# that is an ELF executable. Valgrind must run the program itself: under a
# wrapper script (pyenv's python3 shim) it would profile the shell, and the
# program the script execs would run outside the tool.
_defaults_find() {
  local dir dirs
  IFS=: read -ra dirs <<<"$PATH:/usr/bin:/bin"
  for dir in "${dirs[@]}"; do
    if [ -n "$dir" ] && [ -f "$dir/$1" ] && [ -x "$dir/$1" ] \
       && [ "$(head -c 4 "$dir/$1" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; then
      echo "$dir/$1"
      return 0
    fi
  done
  return 1
}

# _defaults_programs: sets DEFAULTS_BIN[NAME] for python3, sqlite3 and jq
# (installing the Debian packages of those missing), or DEFAULTS_NA[NAME].
_defaults_programs() {
  local name path missing= sudo=
  declare -gA DEFAULTS_BIN=() DEFAULTS_NA=()
  for name in python3 sqlite3 jq; do
    _defaults_find "$name" >/dev/null || missing="$missing $name"
  done
  if [ -n "$missing" ]; then
    echo "bench: installing$missing" >&2
    [ "$(id -u)" = 0 ] || sudo=sudo
    DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq \
      && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null \
      || echo "bench: could not install$missing" >&2
  fi
  for name in python3 sqlite3 jq; do
    if path=$(_defaults_find "$name"); then DEFAULTS_BIN[$name]=$path
    else DEFAULTS_NA[$name]="no $name executable (apt-get install $name failed)"; fi
  done
}

# _defaults_cpu_target MEASURE VALUE MAX: records a target computed here.
_defaults_cpu_target() {
  local result
  if [ -z "$2" ]; then result="not available (a tool failed)"
  else result=$(awk -v v="$2" -v m="$3" 'BEGIN { print (v <= m) ? "met" : "NOT MET" }'); fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$G_BENCH" "$G_CONFIG" "$1" "${2:--}" "<= $3" "$result" >>"$BENCH_TARGETS"
}

# _defaults_workload CONFIG COMMAND [REASON]: Massif, memtime and
# --tool=none on COMMAND, interleaved, with the targets every workload has.
# A REASON makes all three "not available" (the program is missing).
_defaults_workload() {
  local config=$1 cmd=$2 na=${3:-}
  group_begin defaults "$config"
  if [ -n "$na" ]; then
    group_tool massif "" "$na"; group_tool memtime "" "$na"; group_tool none "" "$na"
  else
    group_heap_tools "" "$cmd"
  fi
  group_run
  group_target "memtime/massif time" memtime massif 0.90
  group_target "memtime/massif cpu" memtime massif 0.90 cpu
  group_target "memtime/massif maxRSS" memtime massif 1.00 rss
}

bench_defaults() {
  local loop_ops=2000000 alloc_ops=2000000 thread_ops=500000 json_mb=20 rounds=1000 v
  local json=$BENCH_WORK/defaults.json sql=$BENCH_WORK/defaults-insert.sql json_na= stacks_na=
  if [ "$QUICK" = 1 ]; then loop_ops=500000 alloc_ops=500000 thread_ops=125000 json_mb=4 rounds=300; fi
  _defaults_programs

  _defaults_workload startup /bin/true
  v=
  if [ -n "${G_CPU[memtime]:-}" ] && [ -n "${G_CPU[massif]:-}" ]; then
    v=$(awk -v a="${G_CPU[memtime]}" -v b="${G_CPU[massif]}" 'BEGIN { printf "%.3f", a - b }')
  fi
  _defaults_cpu_target "memtime-massif cpu_s" "$v" 0.020

  # The start-up of a large executable (40,000 functions, no debug info),
  # where every interception of the preload costs a walk over the symbol
  # table. Not among the targeted workloads: its ratios are a note, no target.
  group_begin defaults "startup, 40,000 functions"
  group_heap_tools "" "$PROGS/symbols40k"
  group_run
  if [ -n "${G_CPU[memtime]:-}" ] && [ -n "${G_CPU[massif]:-}" ]; then
    note defaults "startup, 40,000 functions" "$(awk -v a="${G_CPU[memtime]}" -v b="${G_CPU[massif]}" \
      -v ra="${G_RSS[memtime]:-0}" -v rb="${G_RSS[massif]:-0}" 'BEGIN {
        printf "memtime/massif CPU %.3f (%+.0f ms)", a / b, (a - b) * 1000
        if (rb > 0) printf ", max RSS %.3f", ra / rb }')"
  fi

  _defaults_workload malloc_loop "$PROGS/malloc_loop $loop_ops"
  v=
  if [ -n "${G_CPU[memtime]:-}" ] && [ -n "${G_CPU[massif]:-}" ] && [ -n "${G_CPU[none]:-}" ]; then
    v=$(awk -v a="${G_CPU[memtime]}" -v b="${G_CPU[massif]}" -v n="${G_CPU[none]}" \
          'BEGIN { printf "%.3f", (b - n > 0 ? (a - n) / (b - n) : 0) }')
  fi
  _defaults_cpu_target "(memtime-none)/(massif-none) cpu" "$v" 0.70

  _defaults_workload alloc_heavy "$PROGS/alloc_heavy $alloc_ops"

  # python3: 200,000 small dicts, one in seven kept.
  export DEFAULTS_PY="import random
random.seed(1)
keep = []
for i in range(200000):
    d = {'k%d' % j: j for j in range(i % 16)}
    if i % 7 == 0: keep.append(d)
print(len(keep))"
  _defaults_workload python3 "${DEFAULTS_BIN[python3]:-} -c \"\$DEFAULTS_PY\"" "${DEFAULTS_NA[python3]:-}"

  # sqlite3: 40,000 rows with pseudo-random names (MINSTD, exact in awk's
  # doubles) into an indexed table, in one transaction, without fsync. The
  # script's .open --new empties the database file, so every run does the
  # same work.
  awk -v n=40000 -v db="$BENCH_WORK/defaults.db" 'BEGIN {
    printf ".open --new \"%s\"\nPRAGMA synchronous=OFF;\n", db
    print "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL, grp INTEGER, body TEXT);"
    print "CREATE INDEX t_name ON t(name);"
    print "BEGIN;"
    x = 12345
    for (i = 1; i <= n; i++) {
      x = (x * 48271) % 2147483647
      printf "INSERT INTO t(name, grp, body) VALUES(%cn%08x-%d%c, %d, %cbody %d %d%c);\n", 39, x, i, 39, x % 97, 39, i, x, 39
    }
    print "COMMIT;"
    print "SELECT count(*), count(DISTINCT grp) FROM t;" }' >"$sql"
  _defaults_workload "sqlite3 40k indexed rows" \
    "${DEFAULTS_BIN[sqlite3]:-} -batch -bail -init /dev/null :memory: \".read $sql\"" "${DEFAULTS_NA[sqlite3]:-}"

  # jq: a filter building a new object per element (upper-cased name, a
  # sum, the words of a sentence split into an array), over generated JSON.
  export DEFAULTS_JQ='[.[] | {id, name: (.name|ascii_upcase), tags: (.tags|length), sum: (.attrs.vals|add), words: (.text|split(" ")|length)}] | length'
  json_na=${DEFAULTS_NA[jq]:-}
  if [ -z "$json_na" ] && ! "$PROGS/gen-json" "$json" "$json_mb" 2>"$BENCH_WORK/gen-json.err"; then
    json_na="gen-json failed: $(head -c 200 "$BENCH_WORK/gen-json.err")"
  fi
  _defaults_workload "jq ${json_mb}MB JSON" "${DEFAULTS_BIN[jq]:-} -c \"\$DEFAULTS_JQ\" $json" "$json_na"

  _defaults_workload "4 threads" "$PROGS/threads4 $thread_ops 4"

  # --stacks=yes on a deep recursion, against memtime's own heap-only run,
  # both in memtime's default (ms) mode. An option can be listed before it
  # works: require a non-zero stack figure first.
  if [ -n "$MEMTIME_NA" ]; then stacks_na=$MEMTIME_NA
  elif ! memtime_option '--stacks='; then stacks_na="memtime has no --stacks option"
  elif ! $MEMTIME --stacks=yes --memtime-out-file="$BENCH_WORK/probe.prof" "$PROGS/deep_recursion" 5 >/dev/null 2>&1 \
       || ! grep -q '^mem_stacks_B=[1-9]' "$BENCH_WORK/probe.prof"; then
    stacks_na="memtime --stacks=yes records no stack bytes"
  fi
  group_begin defaults "deep_recursion --stacks=yes"
  if [ -n "$MEMTIME_NA" ]; then group_tool memtime "" "$MEMTIME_NA"
  else group_tool memtime "$MEMTIME --memtime-out-file=$BENCH_WORK/memtime.prof $PROGS/deep_recursion $rounds"; fi
  if [ -n "$stacks_na" ]; then group_tool memtime-stacks "" "$stacks_na"
  else group_tool memtime-stacks "$MEMTIME --stacks=yes --memtime-out-file=$BENCH_WORK/memtime-stacks.prof $PROGS/deep_recursion $rounds"; fi
  group_tool none "valgrind -q --tool=none $PROGS/deep_recursion $rounds"
  group_run
  group_target "memtime-stacks/memtime time" memtime-stacks memtime 1.20
  group_target "memtime-stacks/memtime cpu" memtime-stacks memtime 1.20 cpu
}
