#!/usr/bin/env bash
# t640-stack-cache: the stack cache (memtime/mt_unwind.c) never hands out a
# stack the core's unwinder would not find. The oracle is the unwinder
# itself: --stack-cache=verify unwinds at every cache hit too and counts
# the differences, over programs built to confuse a cache
# (tests/progs/stack_paths.c: one helper reached from two callers at the
# same depth, frames sized at run time, recursion, signal handlers on
# both stacks, a coroutine, longjmp, threads), at -O2 and with frame
# pointers, plus C++, python3 and sqlite3. And the profile is the same
# with the cache as without it, byte for byte in --time-unit=B.
. "$(dirname "$0")/lib.sh"
need c++ python3 sqlite3
plan 21

# verified LOG: "CHECKED DIFFERED" from the verify line.
verified() { sed -n 's/.*--stack-cache=verify: \([0-9]*\) cached stacks checked, \([0-9]*\) differed.*/\1 \2/p' "$1"; }
# hits LOG: the hit count -v -v prints.
hits() { sed -n 's/.*stack cache: \([0-9]*\) hits.*/\1/p' "$1"; }

fp=$(build_prog stack_paths.c) || { not_ok "build stack_paths.c (frame pointers)"; exit 1; }
o2=$(build_prog stack_paths.c -O2 -fomit-frame-pointer) || { not_ok "build stack_paths.c -O2"; exit 1; }

for v in fp o2; do
  prog=${!v}
  memtime -v -v --stack-cache=verify --memtime-out-file="$T/$v.out" "$prog" 120 4 >"$T/$v.stdout" 2>"$T/$v.log"
  is "$?/$(cat "$T/$v.stdout")" "0/120 rounds" "$v: the program runs to its end under --stack-cache=verify"
  set -- $(verified "$T/$v.log")
  check "$v: the cache was used (${1:-no} hits checked)" test "${1:-0}" -gt 1000
  is "${2:-none}" 0 "$v: no cached stack differs from the unwound one"
  # Single-threaded, so that both runs see the same sequence of events.
  for m in yes no; do
    memtime -q --time-unit=B --stack-cache=$m --memtime-out-file="$T/$v.$m.out" "$prog" 60 0 >/dev/null 2>&1
    sed 1d "$T/$v.$m.out" >"$T/$v.$m.body"
  done
  is_file "$T/$v.yes.body" "$T/$v.no.body" "$v: the B-mode profile with the cache is the one without it"
  check "$v: ... and it holds detailed trees" grep -q '^heap_tree=detailed' "$T/$v.yes.out"
done

# Without the cache nothing is cached; with it, -v -v counts hits.
memtime -v -v --stack-cache=no --memtime-out-file="$T/no.out" "$o2" 20 0 >/dev/null 2>"$T/no.log"
is "$(hits "$T/no.log")" 0 "--stack-cache=no: no hits"
memtime -v -v --memtime-out-file="$T/yes.out" "$o2" 20 0 >/dev/null 2>"$T/yes.log"
check "default: the cache is on ($(hits "$T/yes.log") hits)" test "$(hits "$T/yes.log")" -gt 100
memtime -q --stack-cache=maybe /bin/true >/dev/null 2>"$T/bad.log"
is "$?" 1 "--stack-cache=maybe is refused"
check "... saying what it takes" grep -q 'stack-cache must be yes, no or verify' "$T/bad.log"

# C++ (exceptions unwind through frames between allocations).
cxx=$(build_prog heap_cxx.cc) || { not_ok "build heap_cxx.cc"; exit 1; }
memtime --stack-cache=verify --memtime-out-file="$T/cxx.out" "$cxx" >/dev/null 2>"$T/cxx.log"
set -- $(verified "$T/cxx.log")
check "C++: checked ${1:-no} cached stacks" test -n "${1:-}"
is "${2:-none}" 0 "C++: none differs"

# Real programs: Debian's python3 and sqlite3 (optimised, no frame pointers).
/usr/bin/python3 -c 1 2>/dev/null || { not_ok "python3 is needed (scripts/deps.sh --test installs it)"; }
memtime --stack-cache=verify --memtime-out-file="$T/py.out" /usr/bin/python3 -c \
  "import json; d = [{'k%d' % j: [j] * (j % 5) for j in range(i % 9)} for i in range(3000)]; print(len(json.dumps(d)))" \
  >"$T/py.stdout" 2>"$T/py.log"
set -- $(verified "$T/py.log")
check "python3: checked ${1:-no} cached stacks" test "${1:-0}" -gt 100
is "${2:-none}" 0 "python3: none differs"
if command -v sqlite3 >/dev/null; then
  { echo "create table t(a integer primary key, b text); create index tb on t(b); begin;"
    for i in $(seq 2000); do echo "insert into t(b) values('k$((i * 7919 % 2000))');"; done
    echo "commit; select count(*) from t;"; } >"$T/ins.sql"
  memtime --stack-cache=verify --memtime-out-file="$T/sq.out" sqlite3 "$T/t.db" <"$T/ins.sql" >"$T/sq.stdout" 2>"$T/sq.log"
  set -- $(verified "$T/sq.log")
  check "sqlite3: checked ${1:-no} cached stacks" test "${1:-0}" -gt 1000
  is "${2:-none}" 0 "sqlite3: none differs"
  is "$(cat "$T/sq.stdout")" 2000 "sqlite3: the inserts all happened"
else
  skip "sqlite3 is not installed (scripts/deps.sh --test installs it)"
  skip "sqlite3"; skip "sqlite3"
fi
finish
