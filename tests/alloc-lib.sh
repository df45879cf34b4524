# tests/alloc-lib.sh: what the --allocator=program tests (t411-t416) share,
# sourced after lib.sh: a program prints "phase NAME VmRSS=<kB> heap=<B>"
# natively and marks each phase under memtime (a mark, a snapshot with a
# resident-memory reading, then an allocator call at which memtime reads the
# allocator's statistics); these read both sides at a phase and compare.

# gap_run NAME ENV BIN ARG [OPTION...]: BIN ARG natively (its phases into
# $T/NAME.native), then under memtime --allocator=program --time-unit=i with
# the OPTIONs (the profile $T/NAME.out, its companion beside it); ENV (words
# VAR=VALUE, or empty) is the environment of both runs.
gap_run() {
  local name=$1 e=$2 bin=$3 arg=$4; shift 4
  env $e "$bin" "$arg" >"$T/$name.native" || not_ok "$name: native run"
  env $e VALGRIND_LIB="$MT_INPLACE" "$MT_VALGRIND" --tool=memtime --allocator=program --time-unit=i "$@" \
    --memtime-out-file="$T/$name.out" "$bin" "$arg" >"$T/$name.txt" 2>"$T/$name.err"
  is "$?" 0 "$name: runs under memtime --allocator=program"
}

# native FILE PHASE FIELD: the native run's figure for PHASE.
native() { sed -n "s/^phase $2 .*\\b$3=\\([0-9]*\\).*/\\1/p" "$1"; }
# mark_time COMPANION PHASE
mark_time() { awk -v ph="$2" '$1 == "mark:" && $3 == ph { split($2, a, "="); print a[2]; exit }' "$1"; }
# mt_stat COMPANION PHASE KEY: the allocator's KEY at the first reading of its
# statistics at or after the phase's mark; KEY may be a sum or difference of
# keys, a+b-c (every key read, or nothing).
mt_stat() {
  local t; t=$(mark_time "$1" "$2")
  awk -v t="${t:-x}" -v k="$3" '$1 == "alloc-stats:" { split($2, tm, "="); if (t == "x" || tm[2] + 0 < t + 0) next
      n = 0; rest = "+" k
      while (match(rest, /^[-+][a-z_]+/)) { n++; sign[n] = substr(rest, 1, 1); want[n] = substr(rest, 2, RLENGTH - 1); rest = substr(rest, RLENGTH + 1) }
      s = 0; got = 0
      for (i = 3; i <= NF; i++) { split($i, kv, "="); for (j = 1; j <= n; j++) if (kv[1] == want[j]) { s += (sign[j] == "-" ? -kv[2] : kv[2]); got++ } }
      if (n > 0 && rest == "" && got == n) printf "%d\n", s
      exit }' "$1"
}
# rss_ok WHAT GOT_KB WANT_KB [ALLOW_KB]: within 15% of the native figure
# (plus ALLOW).
rss_ok() {
  local d=$(( $2 > $3 ? $2 - $3 : $3 - $2 ))
  if [ "$d" -le $(( $3 * 15 / 100 + ${4:-0} )) ]; then ok "$1: memtime $2 kB, native $3 kB"
  else not_ok "$1: memtime $2 kB, native $3 kB (more than 15% apart)"; fi
}
heap_ok() {
  if [ -n "$2" ] && within_pct "$2" "$3" 2; then ok "$1: memtime's heap $2 B, the program's $3 B"
  else not_ok "$1: memtime's heap ${2:-none} B, the program's $3 B (more than 2% apart)"; fi
}
# With --time-unit=i and a program that holds still (no allocation) for
# millions of instructions around each mark, the exact outline's bucket that
# holds the mark has the phase's figures alone, whatever snapshots were culled:
# o_heap COMPANION PHASE: the heap (B) there: the last change's at or before
# the mark (its bucket's last heap value).
o_heap() {
  local t; t=$(mark_time "$1" "$2")
  awk -v t="${t:-x}" '$1 == "o:" && t != "x" && $2 + 0 <= t + 0 { h = $8 } END { if (h != "") print h }' "$1"
}
# o_rss COMPANION PHASE: the client's RSS (kB) read in the mark's bucket (the
# phase's MEMTIME_SNAPSHOT reading, just after the mark).
o_rss() {
  local t; t=$(mark_time "$1" "$2")
  awk -v t="${t:-x}" '$1 == "outline:" { split($2, w, "="); W = w[2] }
      $1 == "o-rss:" && t != "x" && $2 + W > t + 0 { print int($5 / 1024); exit }' "$1"
}
# o_gap_ok WHAT COMPANION PHASE KEY: the allocator's KEY is RSS - heap at
# the phase (by o_rss and o_heap) within 25%.
o_gap_ok() {
  local rss heap v gap
  rss=$(o_rss "$2" "$3"); heap=$(o_heap "$2" "$3"); v=$(mt_stat "$2" "$3" "$4")
  gap=$(( ${rss:-0} * 1024 - ${heap:-0} ))
  if [ -n "$v" ] && [ "$gap" -gt 0 ] && within_pct "$v" "$gap" 25; then
    ok "$1: $4 $v B names the gap RSS - heap = $gap B"
  else not_ok "$1: $4 ${v:-none} B is not the gap RSS - heap = $gap B within 25%"; fi
}
