#!/usr/bin/env bash
# bench/soak.sh: a long run of allocation churn under memtime (never in the
# test suite), to show what a short benchmark cannot: over a long run the
# tool's resident memory stays flat, the profile's size stays bounded by
# --max-snapshots, and the periodic rewrites stay within their share of the
# run (memtime aims at about 5% at most, docs/memtime.1 --flush-interval).
#
#   bench/soak.sh            30 minutes (SOAK_SECONDS=1800)
#   SOAK_SECONDS=300 bench/soak.sh
#
# Settings (environment): SOAK_SECONDS (run length, default 1800),
# SOAK_SAMPLE (seconds between samples, default 5), SOAK_MAX_SNAPSHOTS
# (default 100), SOAK_FLUSH_MS (--flush-interval, default 1000 = 1 s),
# SOAK_CYCLE (seconds of one swing of the program's working set, default
# 60), SOAK_KEEP=1 (keep the working directory). Builds the tree into
# _build/bench (-O2 -g, as bench/run.sh does) and runs the workload
# bench/progs/soak_churn.c under the build-tree tool, with strace tracing
# only open and rename (seccomp-bpf: the other system calls run untraced)
# to time each rewrite: from the open of the hidden temporary profile to
# its rename onto the real name. Every SOAK_SAMPLE seconds it records the
# Valgrind process's VmRSS (tool and program in one process; the program's
# own working set swings the same way every SOAK_CYCLE seconds, so the
# largest RSS of each cycle should not grow: growth is the tool's), the
# profile's size and its snapshot count. Prints the figures and a verdict
# for each goal; RSS is judged on the second cycle against the last (the
# first holds start-up).
set -eu
BENCH_SRC=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$BENCH_SRC/.." && pwd)
BUILD=${BENCH_BUILD:-$TOP/_build/bench}
SECS=${SOAK_SECONDS:-1800}
SAMPLE=${SOAK_SAMPLE:-5}
MAXS=${SOAK_MAX_SNAPSHOTS:-100}
FLUSH=${SOAK_FLUSH_MS:-1000}
CYCLE=${SOAK_CYCLE:-60}

missing=
for c in strace perl; do command -v $c >/dev/null || missing="$missing $c"; done
if [ -n "$missing" ]; then
  echo "soak: installing$missing" >&2
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

mkdir -p "$BUILD"
LOG=$BUILD/soak-build.log
if [ ! -x "$TOP/configure" ]; then (cd "$TOP" && autoreconf -fi) >>"$LOG" 2>&1; fi
if [ ! -f "$BUILD/Makefile" ] || [ "$TOP/configure" -nt "$BUILD/Makefile" ]; then
  (cd "$BUILD" && "$TOP/configure" CFLAGS='-O2 -g') >>"$LOG" 2>&1 \
    || { echo "soak: configure failed, see $LOG" >&2; exit 1; }
fi
(cd "$BUILD/memtime" && make -j2) >>"$LOG" 2>&1 || { echo "soak: the tool did not build, see $LOG" >&2; exit 1; }
mkdir -p "$BUILD/bench-progs"
PROG=$BUILD/bench-progs/soak_churn
if [ ! -x "$PROG" ] || [ "$BENCH_SRC/progs/soak_churn.c" -nt "$PROG" ]; then
  cc -O1 -g -fno-optimize-sibling-calls -Wall -Wextra -o "$PROG" "$BENCH_SRC/progs/soak_churn.c"
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/memtime-soak.XXXXXX")
[ "${SOAK_KEEP:-0}" = 1 ] || trap 'rm -rf "$W"' EXIT
PROF=$W/soak.prof
echo "soak: ${SECS} s of churn under memtime --flush-interval=$FLUSH --max-snapshots=$MAXS (work dir $W)" >&2

t0=$(date +%s.%N)
strace -f -qq --seccomp-bpf -ttt -e trace=open,openat,rename,renameat,renameat2 -o "$W/strace.txt" \
  env VALGRIND_LIB="$BUILD/memtime/inplace" valgrind -q --tool=memtime \
  --flush-interval="$FLUSH" --max-snapshots="$MAXS" --memtime-out-file="$PROF" \
  "$PROG" "$SECS" "$W/pid" "$CYCLE" >"$W/out.txt" 2>"$W/err.txt" &
job=$!
pid=
while [ -z "$pid" ] && kill -0 "$job" 2>/dev/null; do
  pid=$(sed -n '/^[0-9][0-9]*$/p' "$W/pid" 2>/dev/null || true); sleep 0.2
done
printf 'elapsed_s\trss_kb\tprofile_bytes\tsnapshots\n' >"$W/samples.tsv"
while kill -0 "$job" 2>/dev/null; do
  rss=$(awk '/^VmRSS:/{print $2}' "/proc/$pid/status" 2>/dev/null || true)
  [ -n "$rss" ] || break
  size=$(stat -c %s "$PROF" 2>/dev/null || echo 0)
  snaps=$(grep -c '^snapshot=' "$PROF" 2>/dev/null || true)
  printf '%s\t%s\t%s\t%s\n' "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.0f", b - a}')" \
    "$rss" "$size" "${snaps:-0}" >>"$W/samples.tsv"
  sleep "$SAMPLE"
done
rc=0; wait "$job" || rc=$?
t1=$(date +%s.%N)
[ "$rc" = 0 ] || { echo "soak: the run failed (exit $rc):" >&2; tail -5 "$W/err.txt" >&2; exit 1; }

grammar=ok
perl "$TOP/tests/check-strict-grammar.pl" "$PROF" >/dev/null 2>&1 || grammar=FAILED
perl - "$W/samples.tsv" "$W/strace.txt" "$PROF" "$t0" "$t1" "$MAXS" "$SECS" "$grammar" \
  "$(sed -n 's/^ops //p' "$W/out.txt")" "$CYCLE" <<'PERL'
use strict; use warnings;
my ($samples, $strace, $prof, $t0, $t1, $maxs, $secs, $grammar, $ops, $cycle) = @ARGV;
my $wall = $t1 - $t0;
# --- samples
open my $s, '<', $samples or die; <$s>;
my @r = map { chomp; [ split /\t/ ] } <$s>;
close $s;
die "soak: too few samples\n" if @r < 8;
# The largest RSS of each whole cycle of the program's working set.
my @cmax;
for (@r) { my $c = int($_->[0] / $cycle); $cmax[$c] = $_->[1] if !defined $cmax[$c] || $_->[1] > $cmax[$c] }
pop @cmax if @cmax * $cycle > $wall;         # the last cycle is not whole
die "soak: the run is too short for two whole cycles after the first (SOAK_CYCLE=$cycle)\n" if @cmax < 3;
my ($first, $last) = ($cmax[1], $cmax[-1]);
my $growth = 100 * ($last - $first) / $first;
# The profile: its snapshot count at every sample, its largest size per cycle.
my ($smax, $nmax) = (0, 0);
my @csize;
for (@r) {
    my ($c, $sz, $n) = (int($_->[0] / $cycle), $_->[2], $_->[3]);
    $smax = $sz if $sz > $smax; $nmax = $n if $n > $nmax;
    $csize[$c] = $sz if !defined $csize[$c] || $sz > $csize[$c];
}
$#csize = $#cmax;
my $half = int(@csize / 2);
my ($early, $late) = (0, 0);
for (1 .. $half - 1) { $early = $csize[$_] if $csize[$_] > $early }
for ($half .. $#csize) { $late = $csize[$_] if $csize[$_] > $late }
$early = $csize[1] if $half < 2;
# --- rewrites: open of the hidden temporary profile .. rename onto the profile
my (%open, @dur);
open my $t, '<', $strace or die;
while (<$t>) {
    my ($p, $ts) = /^(\d+)\s+([\d.]+) / or next;
    if (/open(?:at)?\(.*"[^"]*\/\.soak\.prof\.tmp\.\d+"/ && !/= -1/) { $open{$p} //= $ts }
    elsif (/rename\w*\(.*"[^"]*\/\.soak\.prof\.tmp\.\d+", .*"[^"]*\/soak\.prof"/ && defined $open{$p}) {
        push @dur, $ts - delete $open{$p};
    }
}
close $t;
my $sum = 0; my $dmax = 0;
for (@dur) { $sum += $_; $dmax = $_ if $_ > $dmax }
my $share = 100 * $sum / $wall;
printf "memtime soak: %.0f s of churn (asked %d s; %s operations), --max-snapshots=%d\n", $wall, $secs, $ops // '?', $maxs;
printf "  samples:        %d, every %.1f s\n", scalar @r, $wall / @r;
printf "  RSS (tool+program), largest per %d-s cycle: %s MB; cycle 2 to cycle %d: %+.1f%%  %s\n",
    $cycle, join(' ', map { sprintf '%.1f', $_ / 1024 } @cmax), scalar @cmax, $growth,
    $growth <= 5 ? 'FLAT (within 5%)' : 'NOT FLAT';
printf "  profile:        at most %d snapshots at any sample (limit %d); largest size per cycle: %s KB; %.1f KB at the end, grammar %s  %s\n",
    $nmax, $maxs, join(' ', map { sprintf '%.0f', $_ / 1024 } @csize), (-s $prof) / 1024, $grammar,
    ($nmax <= $maxs && $late <= 1.5 * $early) ? 'BOUNDED (the later half of the cycles within 1.5x the earlier)' : 'NOT BOUNDED';
printf "  rewrites:       %d (one per %.2f s), %.1f ms on average, %.1f ms at most, %.2f s in all: %.2f%% of the run  %s\n",
    scalar @dur, @dur ? $wall / @dur : 0, @dur ? 1000 * $sum / @dur : 0, 1000 * $dmax, $sum, $share,
    $share <= 5 ? 'WITHIN 5%' : 'OVER 5%';
printf "  RSS samples (MB) by tenths of the run: %s\n",
    join ' ', map { sprintf '%.1f', $r[int($_ * $#r / 10)][1] / 1024 } 0 .. 10;
printf "  profile KB by tenths of the run:       %s\n",
    join ' ', map { sprintf '%.1f', $r[int($_ * $#r / 10)][2] / 1024 } 0 .. 10;
PERL
