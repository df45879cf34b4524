#!/usr/bin/env bash
# t586-clock-dlopen: the ms clock stays true across dynamic loading. After
# 100 ms of computing (the clock has long caught up with start-up),
# clock_events allocates, dlopens libstdc++ (2 MB: Valgrind reads its
# symbols, ld.so relocates it and runs its constructors), allocates,
# demangles C++ names with the library's __cxa_demangle (code never run
# before: translated as it goes), allocates, computes 20 ms and allocates.
# Every snapshot and mark time must agree with the program's own clock
# within max(10 ms, 5%). A clock re-read only every 50,000 blocks was
# 25-60 ms off after the demangling here; Massif --time-unit=ms (the
# oracle) shows the test is fair. libstdc++6 comes with
# scripts/deps.sh --test.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/clock-lib.sh"
plan 3

phases="compute=100 event dlopen=libstdc++.so.6 demangle compute=20"
if ! "$CE" $phases >"$T/native.ev" 2>"$T/native.err"; then
  echo "Bail out! clock_events cannot dlopen libstdc++ ($(cat "$T/native.err")): run scripts/deps.sh --test"
  exit 1
fi
ok "natively the program dlopens libstdc++.so.6 and demangles"
clock_check massif dlopen-massif "Massif --time-unit=ms (the oracle) agrees with the program's clock" $phases
clock_check memtime dlopen "memtime's snapshot and mark times agree with the program's clock" $phases
finish
