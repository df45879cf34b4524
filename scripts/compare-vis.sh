#!/usr/bin/env bash
# compare-vis.sh [--keep DIR] OLD NEW [PROFILE...]: runs two memtime-vis
# binaries (a build before a change, one after) over profiles with every
# output memtime-vis writes, and compares each (file, command) pair byte
# for byte: stdout, stderr, the exit status and the file written. Without
# PROFILE, every profile in tests/data (a companion beside one is read as
# memtime-vis reads it). Prints one line per pair that differs, then the
# count; exits 1 when any differ. A refactor that must not change
# behaviour is checked so, and a deliberate change is seen exactly where
# it shows. --keep DIR keeps both sides' outputs there (DIR/FILE/COMMAND/
# old and new) to diff; otherwise they go to a temporary directory.
set -u
keep=
if [ "${1:-}" = --keep ]; then keep=$2; shift 2; fi
if [ $# -lt 2 ]; then
  echo "usage: $0 [--keep DIR] OLD-MEMTIME-VIS NEW-MEMTIME-VIS [PROFILE...]" >&2
  exit 2
fi
abs() { case $1 in /*) echo "$1";; *) echo "$PWD/$1";; esac; }
old=$(abs "$1") new=$(abs "$2"); shift 2
[ -x "$old" ] && [ -x "$new" ] || { echo "$0: OLD and NEW must be executables" >&2; exit 2; }
if [ $# -eq 0 ]; then
  top=$(cd "$(dirname "$0")/.." && pwd)
  set -- "$top"/tests/data/*.out "$top"/tests/data/*.massif
fi
if [ -n "$keep" ]; then out=$(abs "$keep"); mkdir -p "$out"
else out=$(mktemp -d "${TMPDIR:-/tmp}/compare-vis.XXXXXX"); trap 'rm -rf "$out"' EXIT; fi

# name|arguments: every report and every file format memtime-vis writes.
cmds=(
  "text|" "summary|--summary-only" "ms-print|--ms-print-only" "json|--json" "growth|--growth"
  "by-function|--group-by=function --summary-only" "by-crate|--group-by=crate --summary-only"
  "by-namespace|--group-by=namespace --summary-only" "by-file|--group-by=file --summary-only"
  "by-object|--group-by=object --summary-only" "by-site|--group-by=site --summary-only"
  "json-by-function|--group-by=function --json"
  "png|-o x.png" "svg|-o x.svg" "gnuplot|--gnuplot=x.gp" "csv|-o x.csv" "html|-o x.html"
  "pprof|--pprof=x.pb.gz" "collapsed|--collapsed=x.txt" "flamegraph|--flamegraph=x.svg"
)
total=0 same=0
for f in "$@"; do
  f=$(abs "$f")
  for c in "${cmds[@]}"; do
    name=${c%%|*} args=${c#*|}
    for side in old new; do
      d="$out/$(basename "$f")/$name/$side"
      mkdir -p "$d"
      bin=$old; [ "$side" = new ] && bin=$new
      # shellcheck disable=SC2086  # the arguments are words
      (cd "$d" && "$bin" $args "$f" >stdout 2>stderr; echo $? >status)
    done
    total=$((total + 1))
    if diff -r "$out/$(basename "$f")/$name/old" "$out/$(basename "$f")/$name/new" >/dev/null; then
      same=$((same + 1))
    else
      echo "differs: $(basename "$f") $name ($args)"
    fi
  done
done
echo "$total pairs, $same byte-identical, $((total - same)) differ"
[ "$same" -eq "$total" ]
