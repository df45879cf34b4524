#!/usr/bin/env bash
# t555-monitor: memtime's monitor commands through the real vgdb, against a
# running program (tests/progs/mark_vgdb.c computes, so the gdbserver polls
# for vgdb without ptrace): help, mark <label>, snapshot [file],
# detailed_snapshot [file], all_snapshots [file]. Massif is the oracle for
# the one-snapshot files: with --time-unit=B, its detailed_snapshot file
# and memtime's agree line for line past the desc:/cmd: header.
. "$(dirname "$0")/lib.sh"
command -v vgdb >/dev/null || plan_skip "vgdb is not installed"
plan 22

P=$(build_prog mark_vgdb.c) || { not_ok "build mark_vgdb.c"; exit 1; }

# start TOOLCMD NAME ARGS...: runs the program under a tool in $T/NAME (its
# current directory), with its own vgdb prefix; sets PID (the program's,
# which is Valgrind's) once it is ready, and JOB (Valgrind's pid as
# bg_start gave it, to wait for).
start() {
  local run=$1 name=$2; shift 2
  mkdir -p "$T/$name"
  bg_start -C "$T/$name" "$run" -q --vgdb=yes --vgdb-prefix="$T/$name/vgdb" "$@" "$P" "$T/$name/stop" \
    >"$T/$name.stdout" 2>"$T/$name.stderr"
  JOB=$! PID=
  # Polls for the ready file (renamed into place whole by the program).
  # The limit only decides failure: the program waits for its stop file,
  # not for a clock.
  local end=$(( SECONDS + 300 ))
  while [ "$SECONDS" -lt "$end" ]; do
    PID=$(sed -n '/^[0-9][0-9]*$/p' "$T/$name/stop.ready" 2>/dev/null)
    [ -n "$PID" ] && return 0
    kill -0 "$JOB" 2>/dev/null || break
    sleep 0.1
  done
  return 1
}
# cmd NAME COMMAND...: one monitor command to that program; its output.
# vgdb returns when the command is done; the timeout is failure-only.
cmd() { local name=$1; shift; timeout 300 vgdb --vgdb-prefix="$T/$name/vgdb" --pid="$PID" "$@" 2>/dev/null; }
stop() { touch "$T/$1/stop"; wait "$JOB"; }

# --- memtime, default ms unit --------------------------------------------
if ! start memtime mt --memtime-out-file="$T/mt/profile.out"; then
  not_ok "memtime starts the program"; cat "$T/mt.stderr" | diag "$(cat)"; exit 1
fi
ok "memtime starts the program under the gdbserver"
out=$(cmd mt help)
check "help lists memtime's commands" grep -q '^memtime monitor commands:' <<<"$out"
out=$(cmd mt mark phase two)
check "mark: acknowledged ($out)" grep -q 'mark at time [0-9]*: phase two' <<<"$out"
out=$(cmd mt mark)
check "mark without a label is refused" grep -q 'error: mark needs a label' <<<"$out"

cmd mt detailed_snapshot "$T/mt/detailed.out" >/dev/null
check "detailed_snapshot FILE: strict grammar" grammar "$T/mt/detailed.out"
check "detailed_snapshot FILE: ms_print reads it" sh -c "ms_print '$T/mt/detailed.out' >/dev/null"
is "$(grep -c '^snapshot=' "$T/mt/detailed.out")" 1 "detailed_snapshot FILE: one snapshot"
is "$(sed -n 's/^heap_tree=//p' "$T/mt/detailed.out")" detailed "detailed_snapshot FILE: with its tree"
is "$(sed -n 's/^mem_heap_B=//p' "$T/mt/detailed.out")" 100000 "detailed_snapshot FILE: the live 100000 bytes"
check "detailed_snapshot FILE: charged to main" grep -qE '^ n0: 100000 0x[0-9A-F]+: main \(mark_vgdb.c:[0-9]+\)$' "$T/mt/detailed.out"

cmd mt snapshot >/dev/null
f=$T/mt/memtime.vgdb.out
check "snapshot: default file memtime.vgdb.out in the program's directory" test -f "$f"
is "$(sed -n 's/^heap_tree=//p' "$f" 2>/dev/null)" empty "snapshot: no tree"
check "snapshot: strict grammar" grammar "$f"

cmd mt all_snapshots "$T/mt/all.out" >/dev/null
check "all_snapshots FILE: strict grammar" grammar "$T/mt/all.out"
is "$(sed -n 's/^mark: time=[0-9]* //p' "$T/mt/all.out.memtime" 2>/dev/null)" "phase two" \
  "all_snapshots FILE: its companion holds the mark"
n_all=$(grep -c '^snapshot=' "$T/mt/all.out")
stop mt; rc=$?
is "$rc" 0 "the program ran to its end"
check "the profile at exit: strict grammar" grammar "$T/mt/profile.out"
is "$(sed -n 's/^mark: time=[0-9]* //p' "$T/mt/profile.out.memtime" 2>/dev/null)" "phase two" \
  "the profile's companion holds the vgdb mark"
check "the profile went on after all_snapshots copied it ($n_all then $(grep -c '^snapshot=' "$T/mt/profile.out"))" \
  test "$(grep -c '^snapshot=' "$T/mt/profile.out")" -gt "$n_all"
ls -A "$T/mt" | grep '\.tmp\.' >"$T/tmps" || true
is "$(cat "$T/tmps")" "" "no temporary file left"

# --- Massif as the oracle, --time-unit=B ----------------------------------
if start memtime mtb --time-unit=B && cmd mtb detailed_snapshot "$T/mtb/d.out" >/dev/null; then
  stop mtb
  if start massif msb --time-unit=B && cmd msb detailed_snapshot "$T/msb/d.out" >/dev/null; then
    stop msb
    is_file <(tail -n +3 "$T/mtb/d.out") <(tail -n +3 "$T/msb/d.out") \
      "B unit: detailed_snapshot file identical to Massif's past desc:/cmd:"
  else
    not_ok "Massif's detailed_snapshot through vgdb"; stop msb
  fi
  is "$(sed -n 's/^time_unit: //p' "$T/mtb/d.out")" B "B unit: the file says so"
else
  not_ok "memtime --time-unit=B under vgdb"; not_ok "B unit file"; stop mtb
fi
finish
