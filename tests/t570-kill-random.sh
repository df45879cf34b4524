#!/usr/bin/env bash
# t570-kill-random: SIGKILL from outside, as the OOM killer sends it, at
# random moments while a program grows a wide allocation tree
# (tests/progs/kill_grow.c, --threshold=0 so each detailed snapshot holds
# every site: a profile of a few MB), and at the moment memtime is in the
# middle of rewriting it (the temporary file exists and is already big).
# After every kill: each file memtime left under a visible name passes
# both readers (ms_print, and massif-visualizer's grammar for the profile;
# memtime-vis for the profile with its companion); the only other files are
# hidden temporaries (".<name>.tmp.<pid>"), which no glob of the profile's
# name matches. A kill more than 1.5 s after launch must find a profile
# (the first write comes as soon as the program runs).
# The kill moments come from a seed printed below: MT_KILL_SEED=<seed>
# replays a run.
. "$(dirname "$0")/lib.sh"
N_RANDOM=${MT_KILL_RUNS:-6}
N_MIDWRITE=3
plan $(( N_RANDOM * 3 + N_MIDWRITE * 5 ))

seed=${MT_KILL_SEED:-$(( $$ % 32768 ))}
RANDOM=$seed
diag "seed $seed (MT_KILL_SEED=$seed replays these kill moments)"
P=$(build_prog kill_grow.c) || { not_ok "build kill_grow.c"; exit 1; }
SETTINGS="--threshold=0 --detailed-freq=2"

# launch DIR: the program under memtime in the background, writing
# DIR/k.out; sets JOB (the shell job) and waits until valgrind is the job.
launch() {
  mkdir -p "$1"
  VALGRIND_LIB="$MT_INPLACE" valgrind --tool=memtime -q $SETTINGS \
    --memtime-out-file="$1/k.out" "$P" 30 3 >/dev/null 2>"$1.err" &
  JOB=$!
}
kill9() { kill -KILL "$JOB" 2>/dev/null; wait "$JOB" 2>/dev/null; }
trap '[ -n "${JOB:-}" ] && kill -KILL "$JOB" 2>/dev/null; rm -rf "$T"' EXIT

# judge DIR WHAT MUST_EXIST: the checks after one kill (3 tests).
judge() {
  local d=$1 what=$2 must=$3 visible bad=
  visible=$(ls "$d" | tr '\n' ' ')
  if [ -z "$visible" ] && [ "$must" = no ]; then
    ok "$what: killed before the first write, no file at all"
    ok "$what: (no profile to read)"
    ok "$what: (no companion to read)"
    return
  fi
  # The companion appears with the first mark, so it may not exist yet.
  case $visible in
    "k.out "|"k.out k.out.memtime ") ok "$what: visible files: $visible(the profile, and its companion if any)";;
    *) not_ok "$what: visible files are the profile and its companion"; diag "got: $visible";;
  esac
  if perl "$MT_SRC/tests/check-strict-grammar.pl" "$d/k.out" 2>"$T/gram.err" \
     && ms_print "$d/k.out" >/dev/null 2>"$T/msp.err"; then
    ok "$what: the profile passes both readers ($(stat -c %s "$d/k.out") bytes, $(grep -c '^snapshot=' "$d/k.out") snapshots)"
  else
    not_ok "$what: the profile passes both readers"; cat "$T/gram.err" "$T/msp.err" | head -5 | diag "$(cat)"
  fi
  if [ -e "$d/k.out.memtime" ]; then
    check "$what: memtime-vis reads the profile with its companion" \
      sh -c "'$MT_VIS' --summary-only '$d/k.out' 2>&1 | grep -q 'Phase marks:'"
  else
    check "$what: memtime-vis reads the profile" sh -c "'$MT_VIS' --summary-only '$d/k.out' >/dev/null"
  fi
}

# --- kills at random moments --------------------------------------------------
for i in $(seq "$N_RANDOM"); do
  ms=$(( 200 + RANDOM % 3800 ))
  d=$T/random$i
  launch "$d"
  sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
  kill9
  # Hidden temporaries may be left (a kill during a rewrite): not judged
  # here, see below.
  judge "$d" "kill at $ms ms" "$([ "$ms" -ge 1500 ] && echo yes || echo no)"
done

# --- kills in the middle of a rewrite ----------------------------------------
for i in $(seq "$N_MIDWRITE"); do
  d=$T/mid$i
  launch "$d"
  tmp= size=0
  # Wait (up to 40 s) until a temporary profile holds 256 KB: the rewrite
  # is under way and well past its start.
  for step in $(seq 8000); do
    for f in "$d"/.k.out.tmp.*; do [ -e "$f" ] && tmp=$f; done
    if [ -n "$tmp" ]; then
      size=$(stat -c %s "$tmp" 2>/dev/null || echo 0)
      [ "$size" -ge 262144 ] && break
      tmp=
    fi
    kill -0 "$JOB" 2>/dev/null || break
    sleep 0.005
  done
  kill9
  if [ -n "$tmp" ] && [ -e "$tmp" ]; then
    ok "mid-rewrite $i: killed while $(basename "$tmp") held $size bytes (and it was left behind)"
  else
    not_ok "mid-rewrite $i: caught memtime rewriting the profile"
  fi
  judge "$d" "mid-rewrite $i" yes
  # What is left besides the profile: hidden and named as temporaries.
  others=$(ls -A "$d" | grep -v -x -e k.out -e k.out.memtime | grep -v -E '^\.k\.out(\.memtime)?\.tmp\.[0-9]+$' | tr '\n' ' ')
  is "$others" "" "mid-rewrite $i: every other file is a hidden .k.out[.memtime].tmp.<pid>"
done
finish
