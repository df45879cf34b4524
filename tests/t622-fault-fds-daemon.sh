#!/usr/bin/env bash
# t622-fault-fds-daemon: a program that closes 0-2, dup2's one of its files
# over descriptors 1 to 9, changes directory, then calls daemon() (the
# parent exits, the child moves to / with 0-2 on /dev/null):
# tests/progs/fault_fds.c. memtime's relative output name is the directory
# memtime started in, whatever the program's directory later is; each of
# the two processes leaves a complete profile there with its own heap (30000
# bytes live in the parent at exit, 30000 + 50000 in the daemon, by
# construction); and no byte of memtime's lands in the program's files.
# The test waits for the daemon's pid file, then for the daemon to be gone.
. "$(dirname "$0")/lib.sh"
plan 9
P=$(build_prog fault_fds.c) || { not_ok "build fault_fds.c"; exit 1; }
mkdir -p "$T/start" "$T/elsewhere"
(cd "$T/start" && memtime -q --memtime-out-file=rel.%p "$P" "$T") >/dev/null 2>"$T/err"
is "$?" 0 "the program (the parent of daemon()) exits 0"
# (A daemon that never writes its pid is a failure: give up after 10 min.)
for i in $(seq 30000); do [ -s "$T/daemon.pid" ] && break; sleep 0.02; done
dpid=$(cat "$T/daemon.pid" 2>/dev/null); dpid=${dpid:-0}
while kill -0 "$dpid" 2>/dev/null; do sleep 0.02; done

profiles() { ls "$T/start" | grep -v '\.memtime$'; }
parent=$(profiles | grep -v -x "rel.$dpid")
is "$(profiles | wc -l)" 2 "two profiles, both where memtime started: $(profiles | tr '\n' ' ')"
check "the parent's profile is complete" both_readers "$T/start/$parent"
is "$(last_heap "$T/start/$parent")" 30000 "the parent ends with its 30000 bytes"
check "the daemon's profile (rel.$dpid) is complete" both_readers "$T/start/rel.$dpid"
is "$(last_heap "$T/start/rel.$dpid")" 80000 "the daemon ends with 30000 + 50000 bytes"
is "$(cat "$T/client.txt")" "client line" "the program's own file holds only its own line"
is "$(ls -A "$T/elsewhere")" "" "nothing written in the directory the program moved to"
check "nothing written in / (where the daemon moved)" sh -c "! ls / | grep -q '^rel\.'"
finish
