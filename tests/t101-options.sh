#!/usr/bin/env bash
# t101-options: bad values and unknown options are rejected through Valgrind's
# bad-option message before the program runs; an unwritable output path is
# reported in one line before the program runs; output names expand %p, %q{VAR}
# and %%; --massif-out-file is a synonym; the default name is memtime.out.<pid>;
# no temporary file is left behind.
. "$(dirname "$0")/lib.sh"
plan 30

prog=$(build_prog heap_c.c) || { not_ok "build heap_c.c"; exit 1; }

# rejected OPTION EXPECTED-TEXT: exit status 1, the text on stderr, program not run.
rejected() {
  local opt=$1 text=$2 rc=0
  memtime "$opt" --memtime-out-file="$T/never.out" "$prog" >"$T/rej.out" 2>"$T/rej.err" || rc=$?
  if [ "$rc" -ne 0 ] && grep -qF -- "$text" "$T/rej.err" && ! grep -q usable "$T/rej.out"; then
    ok "$opt rejected: $text"
  else
    not_ok "$opt rejected: $text"; diag "exit $rc" "$(head -5 "$T/rej.err")"
  fi
}
rejected --depth=0                 "Bad option: --depth=0"
rejected --depth=201               "Bad option: --depth=201"
rejected --heap-admin=1025         "Bad option: --heap-admin=1025"
rejected --threshold=100.5         "--threshold must be between 0.0 and 100.0"
rejected --threshold=abc           "Bad option: --threshold=abc"
rejected --peak-inaccuracy=-1      "Bad option: --peak-inaccuracy=-1"
rejected --time-unit=s             "Bad option: --time-unit=s"
rejected --detailed-freq=0         "Bad option: --detailed-freq=0"
rejected --max-snapshots=9         "Bad option: --max-snapshots=9"
rejected --max-snapshots=1001      "Bad option: --max-snapshots=1001"
rejected --heap=maybe              "Bad option: --heap=maybe"
rejected --sample-interval=-5      "Bad option: --sample-interval=-5"
rejected --no-such-option=1        "Unknown option: --no-such-option=1"
rc=0
memtime --stacks=yes --pages-as-heap=yes --memtime-out-file="$T/never.out" "$prog" >"$T/rej.out" 2>"$T/rej.err" || rc=$?
if [ "$rc" -ne 0 ] && grep -q "Cannot be used together with --stacks=yes" "$T/rej.err" && [ ! -s "$T/rej.out" ]; then
  ok "--stacks=yes with --pages-as-heap=yes rejected, program not run"
else not_ok "--stacks=yes with --pages-as-heap=yes rejected, program not run"; diag "exit $rc" "$(cat "$T/rej.err")"; fi
check "no output file from rejected runs" test ! -e "$T/never.out"

# Unwritable output: one line naming the file, status 1, program not run.
rc=0
memtime -q --memtime-out-file="$T/no/such/dir/out" "$prog" >"$T/unw.out" 2>"$T/unw.err" || rc=$?
is "$rc" 1 "unwritable output: exit status 1"
is "$(wc -l <"$T/unw.err")" 1 "unwritable output: reported in one line"
check "unwritable output: the line names the file and the reason" \
  grep -q "cannot write the output file $T/no/such/dir/out: No such file or directory" "$T/unw.err"
check "unwritable output: program did not run" test ! -s "$T/unw.out"

# Name expansion.
MT_TEST_VAR=hello memtime -q --memtime-out-file="$T/exp.%q{MT_TEST_VAR}.%p.100%%" "$prog" >/dev/null 2>&1
n=$(ls "$T" | grep -c '^exp\.hello\.[0-9][0-9]*\.100%$')
is "$n" 1 "%q{VAR}, %p and %% expanded"
# The default name, in the start-up directory.
(cd "$T" && mkdir -p dflt && cd dflt && memtime -q "$prog" >/dev/null 2>&1)
n=$(ls "$T/dflt" | grep -c '^memtime\.out\.[0-9][0-9]*$')
is "$n" 1 "default output name memtime.out.<pid>"
is "$(ls -A "$T/dflt" | grep -v '^memtime\.out\.[0-9]*\.memtime$' | wc -l)" 1 "nothing else in the directory but the companion (no temporary file left)"
# The synonym.
memtime -q --time-unit=B --massif-out-file="$T/syn.out" "$prog" >/dev/null 2>&1
check "--massif-out-file is a synonym" test -s "$T/syn.out"
check "--massif-out-file output is valid" grammar "$T/syn.out"
is "$(sed -n 3p "$T/syn.out")" "time_unit: B" "--time-unit=B is honoured"
memtime -q --memtime-out-file="$T/ms.out" "$prog" >/dev/null 2>&1
is "$(sed -n 3p "$T/ms.out")" "time_unit: ms" "ms is the default time unit"
is "$(head -1 "$T/ms.out")" "desc: --memtime-out-file=$T/ms.out" "desc: lists the options given"
# --heap=no: no heap at all.
memtime -q --heap=no --time-unit=B --memtime-out-file="$T/noheap.out" "$prog" >/dev/null 2>&1
is "$(grep '^mem_heap_B=' "$T/noheap.out" | sort -u)" "mem_heap_B=0" "--heap=no: heap never counted"
# --heap-admin changes the extra bytes: 0 admin gives less extra than 8.
memtime -q --heap-admin=0 --time-unit=B --memtime-out-file="$T/adm0.out" "$prog" >/dev/null 2>&1
memtime -q --heap-admin=64 --time-unit=B --memtime-out-file="$T/adm64.out" "$prog" >/dev/null 2>&1
massif -q --heap-admin=64 --time-unit=B --massif-out-file="$T/adm64.ms" "$prog" >/dev/null 2>&1
x0=$(grep -m3 '^mem_heap_extra_B=' "$T/adm0.out" | tail -1 | cut -d= -f2)
x64=$(grep -m3 '^mem_heap_extra_B=' "$T/adm64.out" | tail -1 | cut -d= -f2)
check "--heap-admin: more admin bytes, more extra ($x0 < $x64)" test "$x0" -lt "$x64"
is "$(grep '^mem_heap_extra_B=' "$T/adm64.out" | md5sum)" "$(grep '^mem_heap_extra_B=' "$T/adm64.ms" | md5sum)" \
   "--heap-admin=64: same extra bytes as Massif"
finish
