#!/usr/bin/env bash
# t650: a real multi-threaded server from Debian's archive, memcached (four
# worker threads), end to end under memtime and under the same release's
# Massif: a fixed workload from four client threads over a Unix socket
# (tests/progs/mc_load.py: 4,000 sets of 100-3,100 bytes, gets, deletes),
# then the protocol's shutdown command, so both runs end normally and write
# their profiles at exit. The peak heaps agree within 1% (threads make the
# order of allocations vary from run to run, not what is live at the top);
# the profile is read by ms_print and memtime-vis, whose chart and HTML
# report are drawn. A version-sensitive test (tests/versions-lib.sh): it runs
# on every tested Valgrind.
. "$(dirname "$0")/lib.sh"
need memcached python3
plan 10

# Valgrind refuses any change to the client's hard limit of open files, and
# memcached sets both limits to its connection count (-c): so -c is the hard
# limit this Valgrind leaves the client.
nofile=$("$MT_VALGRIND" -q --tool=none bash -c 'ulimit -Hn')
# run_server NAME TOOL-RUNNER [tool options]: memcached under the tool, the
# workload, the shutdown; prints nothing, leaves $T/NAME.{out,err,load,rc}.
run_server() {
  local name=$1 runner=$2; shift 2
  local sock=$T/$name.sock
  bg_start "$runner" -q "$@" memcached -A -t 4 -m 256 -c "$nofile" -s "$sock" -u "$(id -un)" \
    2>"$T/$name.err"
  local pid=$!   # Valgrind's (bg_start), so the kill below reaches it
  # Wait for the socket (memcached's start under Valgrind), or the server's end.
  wait_until 600 "$pid" test -S "$sock"
  timeout 600 python3 "$MT_SRC/tests/progs/mc_load.py" "$sock" >"$T/$name.load" 2>&1 || kill -9 "$pid" 2>/dev/null
  wait "$pid"; echo $? >"$T/$name.rc"
}

run_server mt memtime --memtime-out-file="$T/mt.out" --time-unit=B --peak-inaccuracy=0.0
is "$(cat "$T/mt.rc")" 0 "memcached under memtime ends normally after the shutdown command"
check "the workload ran to its end under memtime" test ! -s "$T/mt.load"
check "ms_print reads memtime's profile" sh -c "ms_print '$T/mt.out' >'$T/mt.txt'"
run_server ms massif --massif-out-file="$T/ms.out" --time-unit=B --peak-inaccuracy=0.0
is "$(cat "$T/ms.rc")" 0 "memcached under Massif ends normally"
check "the workload ran to its end under Massif" test ! -s "$T/ms.load"
a=$(max_heap "$T/mt.out"); b=$(max_heap "$T/ms.out")
if [ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt 1000000 ] && within_pct "$a" "$b" 1; then
  ok "peak heap within 1% of Massif's ($a B against $b B)"
else
  not_ok "peak heap within 1% of Massif's"; diag "memtime: ${a:-none}, Massif: ${b:-none}"
  diag "$(tail -5 "$T/mt.err" "$T/ms.err" "$T/mt.load" "$T/ms.load" 2>/dev/null)"
fi
# The default mode, as users run it, reads as a report, a chart and a page.
run_server def memtime --memtime-out-file="$T/def.out"
is "$(cat "$T/def.rc")" 0 "memcached under memtime's defaults ends normally"
check "memtime-vis reports the peak" sh -c "'$MT_VIS' --summary-only '$T/def.out' | grep -q '^  Peak: '"
check "memtime-vis draws the chart" sh -c "'$MT_VIS' '$T/def.out' -o '$T/def.png' && test -s '$T/def.png'"
check "memtime-vis writes the HTML report" sh -c "'$MT_VIS' '$T/def.out' -o '$T/def.html' && grep -q '</html>' '$T/def.html'"
finish
