#!/usr/bin/env bash
# t702: a series of pprof heap profiles written by a Go program with
# runtime/pprof (tests/progs/dumps_heap.go: a leak, a bounded cache, a
# burst, every allocation sampled), read by memtime-vis as one timeline.
# Oracles: go tool pprof, which reads each profile on its own (totals,
# the functions' bytes, each profile's time); the program's construction
# (growth kinds, the top site at the peak); ms_print and the strict grammar
# for the converted file.
. "$(dirname "$0")/lib.sh"

command -v go >/dev/null || plan_skip "go not installed (golang-go)"
src=$MT_SRC/tests/progs/dumps_heap.go
prog=$MT_PROGS/dumps_heap
export GOCACHE=${GOCACHE:-$MT_PROGS/gocache} GOFLAGS=
if [ ! -x "$prog" ] || [ "$src" -nt "$prog" ]; then
  (cd "$T" && go build -o "$prog.tmp.$$" "$src") >&2 && mv -f "$prog.tmp.$$" "$prog" \
    || plan_skip "cannot build dumps_heap.go"
fi
line_of() { grep -n "$1" "$src" | head -1 | cut -d: -f1; }
LEAK=$(line_of '^func leakSite') CACHE=$(line_of '^func cachePut')
BURST=$(( $(line_of '^func burstSite') + 3 ))

plan 12

mkdir "$T/d"
"$prog" "$T/d" || diag "dumps_heap exited with $?"
profiles=()
for i in $(seq 0 19); do profiles+=("$T/d/heap.$i.pb.gz"); done
check "the program wrote 20 profiles" test -f "${profiles[19]}"

check "convert writes the series" vis convert --threshold=0 "${profiles[@]}" -o "$T/all.out"
check "ms_print and the strict grammar read it" both_readers "$T/all.out"
mapfile -t heaps < <(sed -n 's/^mem_heap_B=//p' "$T/all.out")
top() { go tool pprof -sample_index=inuse_space -top -unit=B -nodefraction=0 "$1" 2>/dev/null; }
bad=0
for i in "${!profiles[@]}"; do
  want=$(top "${profiles[i]}" | sed -n 's/.* of \([0-9]*\)B total$/\1/p')
  [ "${heaps[i]}" = "$want" ] || { bad=$((bad + 1)); diag "${profiles[i]}: ${heaps[i]} vs go tool pprof's ${want:-none}"; }
done
is "$bad" 0 "each profile's total is go tool pprof's (every allocation sampled: exact)"

# Per function on the profile the file marks as the peak.
peak=$(awk -F= '/^snapshot=/{n=$2} /^heap_tree=peak/{print n}' "$T/all.out")
sites=$(awk -v s="$peak" '/^snapshot=/{cur=($0 == "snapshot=" s)}
  cur && /^ n[0-9]+: / { b=$2; sub(/^ n[0-9]+: [0-9]+ 0x[0-9A-F]+: /, ""); sub(/ \(.*$/, ""); f[$0]+=b }
  END { for (k in f) print k, f[k] }' "$T/all.out" | sort)
want=$(top "${profiles[peak]}" | awk '$1 ~ /B$/ && $1 != "0" && $6 ~ /^main\./ { sub(/B$/, "", $1); print $6, $1 }' | sort)
got=$(echo "$sites" | grep '^main\.')
is "$got" "$want" "the main package's functions' bytes at the peak equal go tool pprof -top's"

# The clock: each profile's own time_nanos, in ms since the first (or, if
# two fell in one millisecond, their order).
ns=()
for f in "${profiles[@]}"; do
  ns+=("$(date -d "$(go tool pprof -raw "$f" 2>/dev/null | sed -n 's/^Time: \(.*\) [A-Z]*$/\1/p')" +%s%N)")
done
distinct=1; want=""
for i in "${!ns[@]}"; do
  [ "$i" -gt 0 ] && [ $(( ns[i] / 1000000 )) -le $(( ns[i-1] / 1000000 )) ] && distinct=0
  want="$want$(( (ns[i] - ns[0]) / 1000000 )) "
done
[ "$distinct" = 1 ] || want="$(seq 0 19 | tr '\n' ' ')"
is "$(sed -n 's/^time=//p' "$T/all.out" | tr '\n' ' ')" "$want" "the times are the profiles' time_nanos (go tool pprof's Time), in ms since the first"

vis --growth "${profiles[@]}" >"$T/growth.txt" 2>&1
kind() { awk -v s="$1" 'index($0, s) {print $1; exit}' "$T/growth.txt"; }
is "$(kind "main.leakSite (dumps_heap.go:$LEAK)")" steady "the growth analysis calls the leak steady"
is "$(kind "main.cachePut (dumps_heap.go:$CACHE)")" plateau "... the cache a plateau"
is "$(kind "main.burstSite (dumps_heap.go:$BURST)")" burst "... and the burst a burst"
vis --summary-only "${profiles[@]}" >"$T/sum.txt" 2>&1
top1=$(awk '/^Top allocation sites at the peak/{getline; print; exit}' "$T/sum.txt")
case $top1 in *"main.burstSite (dumps_heap.go:$BURST)") ok "the top site at the peak is the burst, with its file:line" ;;
  *) not_ok "the top site at the peak is the burst, with its file:line"; diag "$top1" ;; esac
check "the summary states the sampling (every allocation: exact)" grep -q 'sampling: every allocation recorded (period 1): the values are exact' "$T/sum.txt"
mkdir "$T/mix"; cp "${profiles[0]}" "$T/mix/"; printf 'heap_v2/524288\n' >"$T/mix/jp.1.0.i0.heap"
err=$(vis convert "$T/mix/heap.0.pb.gz" "$T/mix/jp.1.0.i0.heap" -o "$T/mix.out" 2>&1)
is "$err" "memtime-vis: $T/mix/jp.1.0.i0.heap: a jemalloc heap dump in a series of pprof profiles: a series is one kind" \
  "a jemalloc dump among pprof profiles is refused"
finish
