# tests/clock-lib.sh: shared by the t58x-clock-*.sh tests, sourced after
# lib.sh. They run tests/progs/clock_events.c, which stamps its own events
# with CLOCK_MONOTONIC, under memtime and under Massif --time-unit=ms (the
# oracle showing the comparison is fair: Massif reads the clock at every
# allocation), and hold each profile's times against the program's with
# tests/clock-compare.pl. Each event is bracketed by two clock reads of the
# program, so the comparison does not depend on the machine's load.
CE=$(build_prog clock_events.c -ldl -lm) || { echo "Bail out! cannot build clock_events.c"; exit 1; }

# clock_run TOOL NAME PHASES...: runs clock_events PHASES under TOOL
# (memtime or massif), 1000 snapshots so none is culled, then compares;
# the comparison's report is in $T/NAME.cmp. Returns the comparison's
# status (2 if the run itself failed).
clock_run() {
  local tool=$1 name=$2 t0 t1; shift 2
  t0=$(date +%s%N)
  case $tool in
    memtime) memtime -q --time-unit=ms --max-snapshots=1000 --memtime-out-file="$T/$name.out" \
               "$CE" "$@" >"$T/$name.ev" 2>"$T/$name.err" ;;
    massif)  massif -q --time-unit=ms --max-snapshots=1000 --massif-out-file="$T/$name.out" \
               "$CE" "$@" >"$T/$name.ev" 2>"$T/$name.err" ;;
  esac || { echo "$tool failed: $(head -5 "$T/$name.err")" >"$T/$name.cmp"; return 2; }
  t1=$(date +%s%N)
  # The run's wall time bounds the last snapshot's time from above.
  perl "$MT_SRC/tests/clock-compare.pl" "$T/$name.ev" "$T/$name.out" $(( (t1 - t0) / 1000000 )) \
    >"$T/$name.cmp"
}

# clock_check TOOL NAME DESCRIPTION PHASES...: ok if every time of TOOL's
# profile agrees with the program's clock; the report goes to the TAP
# output either way, so a failure shows which event was off and by how much.
clock_check() {
  local tool=$1 name=$2 desc=$3; shift 3
  if clock_run "$tool" "$name" "$@"; then ok "$desc ($(tail -1 "$T/$name.cmp"))"
  else not_ok "$desc"; fi
  diag "$(cat "$T/$name.cmp")"
}

# between NAME I: the number of snapshots between events I and I+1.
between() {
  sed -n "s/^between events $2 and $(( $2 + 1 )): \([0-9]*\) snapshots.*/\1/p" "$T/$1.cmp"
}
