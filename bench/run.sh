#!/usr/bin/env bash
# bench/run.sh: runs memtime's benchmarks on demand (never in the test suite)
# and prints, for each, the median time and max RSS of every tool measured in
# the same run, the ratios against the reference, and whether the project's
# target is met. See bench/README.md for what each benchmark measures.
#
#   bench/run.sh [--quick] [--reps N] [--keep] [--head] [defaults] [heap] [stacks] [rewrite] [vis] [clock] [giant] [detail] [outline] [rust] [dumps]
#
# Builds the tree into _build/bench (-O2 -g, no sanitizers) and runs the tool
# from there (VALGRIND_LIB=_build/bench/memtime/inplace), never an installed copy.
# --head builds the last commit instead of the working tree (into
# _build/bench-head), for when uncommitted work in the tree does not build.
set -eu
BENCH_SRC=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$BENCH_SRC/.." && pwd)
BUILD=${BENCH_BUILD:-$TOP/_build/bench}
SRCTREE=$TOP
HEAD=0
BENCH_REPS=5
QUICK=0
KEEP=0
names=()
# usage [STATUS]: the header above; to stderr unless asked for with --help.
usage() {
  if [ "${1:-2}" = 0 ]; then sed -n '2,/^set -eu/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0; fi
  sed -n '2,/^set -eu/{/^#/s/^# \{0,1\}//p}' "$0" >&2; exit 2
}
while [ $# -gt 0 ]; do
  case $1 in
    --quick) QUICK=1; BENCH_REPS=3 ;;
    --reps) [ $# -ge 2 ] || usage; BENCH_REPS=$2; shift ;;
    --reps=*) BENCH_REPS=${1#--reps=} ;;
    --keep) KEEP=1 ;;
    --head) HEAD=1 ;;
    defaults|heap|stacks|rewrite|vis|clock|giant|detail|outline|rust|dumps) names+=("$1") ;;
    -h|--help) usage 0 ;;
    *) echo "bench/run.sh: unknown argument '$1'" >&2; usage ;;
  esac
  shift
done
case $BENCH_REPS in ''|*[!0-9]*|0) echo "bench/run.sh: --reps wants a positive number" >&2; exit 2 ;; esac
[ ${#names[@]} -gt 0 ] || names=(defaults heap stacks rewrite vis clock detail outline rust dumps)

# What the benchmarks need besides the project's own dependencies (strace
# only counts rewrites; the rewrite benchmark says so if it is missing).
missing=
for cmd in /usr/bin/time valgrind ms_print cc strace; do
  if ! command -v "$cmd" >/dev/null; then
    case $cmd in
      /usr/bin/time) missing="$missing time" ;; ms_print|valgrind) missing="$missing valgrind" ;;
      cc) missing="$missing gcc" ;; *) missing="$missing $cmd" ;;
    esac
  fi
done
if [ -n "$missing" ]; then
  echo "bench: installing$missing" >&2
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null \
    || echo "bench: could not install$missing" >&2
fi
for cmd in /usr/bin/time valgrind ms_print cc; do
  command -v "$cmd" >/dev/null || { echo "bench: $cmd is required" >&2; exit 1; }
done

source "$BENCH_SRC/lib.sh"

# --- Build (optimised, no sanitizers) -----------------------------------
# The tool and the visualizer are built separately so one failing to build
# only makes its own benchmarks "not available".
if [ "$HEAD" = 1 ]; then
  # A fresh export of HEAD each time: a stale build tree would hide changes.
  BUILD=$TOP/_build/bench-head SRCTREE=$TOP/_build/bench-head-src
  rm -rf "$BUILD" "$SRCTREE" && mkdir -p "$SRCTREE"
  git -C "$TOP" archive HEAD | tar -x -C "$SRCTREE"
  echo "bench: benchmarking commit $(git -C "$TOP" rev-parse --short HEAD)" >&2
fi
mkdir -p "$BUILD"
BUILD_LOG=$BUILD/bench-build.log
: >"$BUILD_LOG"
echo "bench: building into $BUILD (log: $BUILD_LOG)" >&2
if [ ! -x "$SRCTREE/configure" ]; then (cd "$SRCTREE" && autoreconf -fi) >>"$BUILD_LOG" 2>&1; fi
if [ ! -f "$BUILD/Makefile" ] || [ "$SRCTREE/configure" -nt "$BUILD/Makefile" ]; then
  (cd "$BUILD" && "$SRCTREE/configure" CFLAGS='-O2 -g') >>"$BUILD_LOG" 2>&1 \
    || { echo "bench: configure failed, see $BUILD_LOG" >&2; exit 1; }
fi
MEMTIME_NA= VIS_NA=
(cd "$BUILD/memtime" && make -j2) >>"$BUILD_LOG" 2>&1 || MEMTIME_NA="the tool did not build (see $BUILD_LOG)"
(cd "$BUILD/visualizer" && make -j2) >>"$BUILD_LOG" 2>&1 || VIS_NA="memtime-vis did not build (see $BUILD_LOG)"
INPLACE=$BUILD/memtime/inplace
VIS=$BUILD/visualizer/memtime-vis
# Never --memtime-out-file=/dev/null: the tool renames its temporary file onto
# the output name, which as root replaces /dev/null with a regular file.
if [ -z "$MEMTIME_NA" ] && ! VALGRIND_LIB=$INPLACE valgrind -q --tool=memtime \
     --memtime-out-file="$BUILD/bench-probe.prof" true >>"$BUILD_LOG" 2>&1; then
  MEMTIME_NA="the tool does not run 'true' (see $BUILD_LOG)"
fi

# The command prefix running the build-tree tool.
MEMTIME="env VALGRIND_LIB=$INPLACE valgrind -q --tool=memtime"
# memtime_option OPTION: true if memtime --help lists OPTION (e.g. --stacks=).
memtime_option() {
  [ -z "$MEMTIME_NA" ] && VALGRIND_LIB=$INPLACE valgrind --tool=memtime --help 2>&1 | grep -q -e "$1"
}

# --- Workloads ------------------------------------------------------------
PROGS=$BUILD/bench-progs
mkdir -p "$PROGS"
# build_workload NAME SRC [cc args]: -O1 keeps real calls and frames, without
# sibling calls that would flatten the allocation trees.
build_workload() {
  local name=$1 src=$2; shift 2
  if [ ! -x "$PROGS/$name" ] || [ "$src" -nt "$PROGS/$name" ]; then
    cc -O1 -g -fno-optimize-sibling-calls -Wall -Wextra -o "$PROGS/$name" "$src" "$@" \
      || { echo "bench: cannot build $src" >&2; exit 1; }
  fi
}
build_workload alloc_heavy "$BENCH_SRC/progs/alloc_heavy.c"
build_workload compute_heavy "$BENCH_SRC/progs/compute_heavy.c"
build_workload fib "$BENCH_SRC/progs/fib.c" -pthread
build_workload malloc_loop "$BENCH_SRC/progs/malloc_loop.c"
build_workload giant_heap "$BENCH_SRC/progs/giant_heap.c"
build_workload threads4 "$BENCH_SRC/progs/threads4.c" -pthread
build_workload deep_recursion "$BENCH_SRC/progs/deep_recursion.c"
build_workload gen-json "$BENCH_SRC/progs/gen-json.c"
# The clock's accuracy workload is the tests' (tests/t58x-clock-*.sh).
build_workload clock_events "$TOP/tests/progs/clock_events.c" -I"$TOP/memtime" -pthread -ldl -lm
if [ ! -f "$PROGS/sites.c" ] || [ "$BENCH_SRC/gen-sites.sh" -nt "$PROGS/sites.c" ]; then
  "$BENCH_SRC/gen-sites.sh" 2000 >"$PROGS/sites.c"
fi
build_workload sites "$PROGS/sites.c"
build_workload gen-big-profile "$BENCH_SRC/gen-big-profile.c" -lm
# A symbol table of 40,000 functions without debug info: -O0, no -g (about
# 10 s to compile, once).
if [ ! -x "$PROGS/symbols40k" ] || [ "$BENCH_SRC/gen-symbols.sh" -nt "$PROGS/symbols40k" ]; then
  "$BENCH_SRC/gen-symbols.sh" 40000 >"$PROGS/symbols40k.c"
  cc -O0 -o "$PROGS/symbols40k" "$PROGS/symbols40k.c" || { echo "bench: cannot build symbols40k" >&2; exit 1; }
fi

# --- Run ------------------------------------------------------------------
BENCH_WORK=$(mktemp -d "${TMPDIR:-/tmp}/memtime-bench.XXXXXX")
if [ "$KEEP" = 0 ]; then trap 'rm -rf "$BENCH_WORK"' EXIT; fi
BENCH_ROWS=$BENCH_WORK/rows.tsv BENCH_TARGETS=$BENCH_WORK/targets.tsv BENCH_NOTES=$BENCH_WORK/notes.tsv
: >"$BENCH_ROWS"; : >"$BENCH_TARGETS"; : >"$BENCH_NOTES"
echo "bench: $BENCH_REPS interleaved repetitions per tool, medians reported$([ "$QUICK" = 1 ] && echo ', quick sizes')" >&2
[ -z "$MEMTIME_NA" ] || echo "bench: memtime not available: $MEMTIME_NA" >&2
[ -z "$VIS_NA" ] || echo "bench: memtime-vis not available: $VIS_NA" >&2
for name in "${names[@]}"; do
  source "$BENCH_SRC/b-$name.sh"
  "bench_$name"
done

# --- Report -----------------------------------------------------------------
echo
echo "Measurements (median of $BENCH_REPS wall-clock runs, cpu_s = median user+sys; ratio = median / the config's first tool)"
{
  printf 'benchmark\tconfig\ttool\tmedian_s\tmin-max_s\tcpu_s\tmaxRSS_MB\tratio\tstatus\n'
  cat "$BENCH_ROWS"
} | table
echo
echo "Targets (time: median of the per-repetition ratios; RSS: ratio of medians)"
{
  printf 'benchmark\tconfig\tmeasure\tvalue\ttarget\tresult\n'
  cat "$BENCH_TARGETS"
} | table
if [ -s "$BENCH_NOTES" ]; then
  echo
  echo "Notes"
  table <"$BENCH_NOTES"
fi
[ "$KEEP" = 0 ] || echo "bench: outputs kept in $BENCH_WORK" >&2
