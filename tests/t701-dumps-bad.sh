#!/usr/bin/env bash
# t701: heap dumps that are wrong in one way each, made from real ones:
# cut short, a dump of another process in the series, a program that moved
# (found again with --binary or --search-path), another build of it given
# (an error, never its names), an address in no object, broken lines. Each
# is one "file:line: expected ..." line or a stated gap, exit status 1 for
# errors, and no output file left behind.
. "$(dirname "$0")/lib.sh"

[ -f "$(cc -print-file-name=libjemalloc.so)" ] || plan_skip "libjemalloc-dev not installed"
prog=$(build_prog dumps_sites.c -ljemalloc) || plan_skip "cannot build dumps_sites.c against jemalloc"
other=$(build_prog dumps_sites.c -ljemalloc -O2) || plan_skip "cannot build a second dumps_sites"

plan 20

# The program runs from a directory of its own, so that it can be moved.
mkdir "$T/bin" "$T/d" "$T/moved"
cp "$prog" "$T/bin/ds"
MALLOC_CONF=prof:true,lg_prof_interval:23,lg_prof_sample:16,prof_prefix:$T/d/jp "$T/bin/ds"
mapfile -t dumps < <(cd "$T/d" && ls jp.*.heap | sort -t. -k3,3n | sed "s|^|$T/d/|")
one=${dumps[1]}
check "a few dumps to spoil (${#dumps[@]})" test "${#dumps[@]}" -ge 3

# run_err NAME ARGS...: memtime-vis convert ARGS -o $T/NAME.out; its stderr
# in $err, its status in $st.
run_err() {
  local name=$1; shift
  err=$(vis convert "$@" -o "$T/$name.out" 2>&1); st=$?
}
gone() { [ ! -e "$T/$1.out" ] && [ ! -e "$T/$1.out.memtime" ]; }

# --- cut short: in the stacks, in the maps ---
lines=$(grep -n '^MAPPED_LIBRARIES:' "$one" | cut -d: -f1)
head -n 4 "$one" >"$T/cut1.heap"
run_err cut1 "$T/cut1.heap"
is "$err" "memtime-vis: $T/cut1.heap:5: expected the stack's '  t*:' counts (the dump is cut short), found end of file" \
  "a dump cut after a stack's address line"
check "... exit status 1, no file written" sh -c "[ $st = 1 ] && [ ! -e '$T/cut1.out' ]"
head -c -3 "$one" >"$T/cut2.heap"
run_err cut2 "$T/cut2.heap"
total=$(wc -l <"$one")
case $err in "memtime-vis: $T/cut2.heap:$total: expected a complete line (the dump is cut short in its maps), found '"*)
  ok "a dump cut inside its maps names the last line" ;; *) not_ok "a dump cut inside its maps names the last line"; diag "$err" ;; esac
head -n $((lines - 1)) "$one" >"$T/cut3.heap"
run_err cut3 "$T/cut3.heap"
is "$err" "memtime-vis: $T/cut3.heap:$lines: expected 'MAPPED_LIBRARIES:' (the dump is cut short), found end of file" \
  "a dump that ends before its maps"
cp "${dumps[0]}" "${dumps[2]}" "$T/"
cp "$T/cut1.heap" "$T/$(basename "$one")"
run_err series "$T"/jp.*.heap
check "one cut dump in a series: the error names it" sh -c "case \"\$1\" in *\"$T/$(basename "$one"):5: expected\"*) exit 0;; esac; exit 1" _ "$err"
check "... and nothing is written" gone series

# --- another process in the series ---
pid=$(basename "$one" | cut -d. -f2)
cp "$one" "$T/d2.heap"
mkdir "$T/mix"; cp "${dumps[0]}" "${dumps[2]}" "$T/mix/"
cp "$one" "$T/mix/jp.$((pid + 1)).1.i1.heap"
run_err mix "$T"/mix/*.heap
is "$err" "memtime-vis: $T/mix/jp.$((pid + 1)).1.i1.heap: a dump of process $((pid + 1)), but $T/mix/$(basename "${dumps[0]}") is of process $pid: a series is the dumps of one process" \
  "a dump of another process in the series"

# --- the program moved: a stated gap, then found again ---
mv "$T/bin/ds" "$T/moved/ds"
run_err moved "${dumps[@]}"
case $err in *"warning: $T/bin/ds: "*" left without a name (not found; --binary or --search-path find moved objects)"*)
  ok "the moved program: a warning names it and the options" ;; *) not_ok "the moved program: a warning names it and the options"; diag "$err" ;; esac
check "... its frames read ??? (in the path the process had)" grep -q "^ *n[0-9]*: [0-9]* 0x[0-9A-F]*: ??? (in $T/bin/ds)$" "$T/moved.out"
vis --summary-only "${dumps[0]}" >"$T/moved.txt" 2>/dev/null
check "... and the summary states the gap" grep -q "gap: [0-9]* address.* in $T/bin/ds without a name (not found)" "$T/moved.txt"
run_err binary --binary="$T/moved/ds" "${dumps[@]}"
check "--binary finds it: the leak has its name and line again" grep -q 'leak_site (dumps_sites.c:' "$T/binary.out"
run_err search --search-path="$T/nothing:$T/moved" "${dumps[@]}"
check "--search-path finds it by its name in a directory" grep -q 'leak_site (dumps_sites.c:' "$T/search.out"
mkdir -p "$T/root$T/bin"; cp "$T/moved/ds" "$T/root$T/bin/ds"
run_err root --search-path="$T/root" "${dumps[@]}"
check "--search-path finds it under a root (a container's)" grep -q 'leak_site (dumps_sites.c:' "$T/root.out"

# --- another build given: an error, never its names ---
run_err wrong --binary="$other" "${dumps[@]}"
case $err in *"memtime-vis: ${dumps[0]}: $other is not the object the profiled process mapped: "*" return addresses in it (the first 0x"*") follow no call instruction there (another build? give the right file with --binary or --search-path)")
  ok "another build of the program is an error" ;; *) not_ok "another build of the program is an error"; diag "$err" ;; esac
check "... exit status 1, nothing written" sh -c "[ $st = 1 ] && [ ! -e '$T/wrong.out' ]"

# --- an address in no object ---
awk '/^MAPPED_LIBRARIES:/ && !done { print "@ 0x1 0xdeadbeef"; print "  t*: 1: 524288 [0: 0]"; print "  t0: 1: 524288 [0: 0]"; print ""; done=1 } { print }' \
  "${dumps[0]}" | sed '/^$/{N;/^\n@/s/^\n//}' >"$T/jp.$pid.0.i0.heap"
run_err noobj --binary="$T/moved/ds" "$T/jp.$pid.0.i0.heap"
check "an address in no object is a site of its own, 0xDEADBEEF: ???" grep -q '^ n0: [0-9]* 0xDEADBEEF: ???$' "$T/noobj.out"

# --- broken lines: one message each ---
printf 'heap_v3/524288\n' >"$T/b1.heap"
run_err b1 "$T/b1.heap"
is "$err" "memtime-vis: $T/b1.heap:1: expected 'heap_v2/<sampling period>', the first line of a jemalloc heap dump, found 'heap_v3/524288'" \
  "convert: a file that is not a dump"
printf 'heap_v2/524288\n  t*: 1: 10 [0: 0]\n  t0: 1: 10 [0: 0]\n@ 0x1 0xzz\n' >"$T/b2.heap"
run_err b2 "$T/b2.heap"
is "$err" "memtime-vis: $T/b2.heap:4: expected '@ 0x<address> ...', a stack of hexadecimal addresses, found '@ 0x1 0xzz'" \
  "a stack line that is not hexadecimal"
printf 'heap_v2/0\n' >"$T/b3.heap"
run_err b3 "$T/b3.heap"
is "$err" "memtime-vis: $T/b3.heap:1: expected 'heap_v2/<sampling period>', the first line of a jemalloc heap dump, found 'heap_v2/0'" \
  "a sampling period of 0"
finish
