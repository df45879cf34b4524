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
# name matches; and the profile is not stale: memtime's test hooks
# (docs/memtime.1, FOR TESTS) say what each completed rewrite held, and the
# profile left is the latest one (never an older one), whose last snapshot
# is at most one --sample-interval before the moment it was written.
# The random kills use --test-hook-log (a line after each rewrite, no
# waiting); the mid-rewrite kills stop memtime with --test-hook-pause at the
# moment the new temporary is complete and not yet renamed, so catching
# memtime there never depends on the machine's load.
# The kill moments come from a seed printed below: MT_KILL_SEED=<seed>
# replays a run.
. "$(dirname "$0")/lib.sh"
N_RANDOM=${MT_KILL_RUNS:-6}
N_MIDWRITE=3
plan $(( N_RANDOM * 4 + N_MIDWRITE * 6 ))

seed=${MT_KILL_SEED:-$(( $$ % 32768 ))}
RANDOM=$seed
diag "seed $seed (MT_KILL_SEED=$seed replays these kill moments)"
P=$(build_prog kill_grow.c) || { not_ok "build kill_grow.c"; exit 1; }
SETTINGS="--threshold=0 --detailed-freq=2 --sample-interval=100"
SAMPLE_MS=100

# launch DIR HOOK: the program under memtime in the background, writing
# DIR/k.out, with the test hook option HOOK; sets JOB (Valgrind's pid).
launch() {
  mkdir -p "$1"
  memtime_bg -q $SETTINGS "$2" --memtime-out-file="$1/k.out" "$P" 30 3 >/dev/null 2>"$1.err"
  JOB=$!
}
# field NAME LINE: the value of NAME=... in a hook line.
field() { printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
last_time() { grep '^time=' "$1" | tail -1 | cut -d= -f2; }
kill9() { kill_wait "$JOB"; }

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
  # The companion appears with the first resident-memory reading or mark, so
  # it may not exist yet.
  case $visible in
    "k.out "|"k.out k.out.memtime ") ok "$what: visible files: $visible(the profile, and its companion if any)";;
    *) not_ok "$what: visible files are the profile and its companion"; diag "got: $visible";;
  esac
  if grammar "$d/k.out" 2>"$T/gram.err" \
     && ms_print "$d/k.out" >/dev/null 2>"$T/msp.err"; then
    ok "$what: the profile passes both readers ($(stat -c %s "$d/k.out") bytes, $(grep -c '^snapshot=' "$d/k.out") snapshots)"
  else
    not_ok "$what: the profile passes both readers"; cat "$T/gram.err" "$T/msp.err" | head -5 | diag "$(cat)"
  fi
  if [ -e "$d/k.out.memtime" ]; then
    check "$what: memtime-vis reads the profile with its companion" \
      sh -c "'$MT_VIS' --summary-only '$d/k.out' 2>&1 | grep -q '^  Companion:  '"
  else
    check "$what: memtime-vis reads the profile" sh -c "'$MT_VIS' --summary-only '$d/k.out' >/dev/null"
  fi
}

# --- kills at random moments --------------------------------------------------
for i in $(seq "$N_RANDOM"); do
  ms=$(( 200 + RANDOM % 3800 ))
  d=$T/random$i
  launch "$d" "--test-hook-log=$d.log"
  sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
  kill9
  # Hidden temporaries may be left (a kill during a rewrite): not judged
  # here, see below. A rewrite the log reports was renamed into place
  # before its line was written: then the profile must exist.
  line=$(tail -n 1 "$d.log" 2>/dev/null)
  judge "$d" "kill at $ms ms" "$([ -n "$line" ] && echo yes || echo no)"
  if [ -z "$line" ]; then
    ok "kill at $ms ms: no rewrite was complete, nothing to be stale"
  else
    # The profile is the last logged rewrite or a later one (killed
    # between its rename and its log line), never an older one, and that
    # rewrite ended at most one sample interval before its moment.
    t=$(field time "$line") l=$(field last "$line") got=$(last_time "$d/k.out")
    if [ -n "$got" ] && [ "$got" -ge "$l" ] && [ $((t - l)) -le $SAMPLE_MS ]; then
      ok "kill at $ms ms: the profile is the latest rewrite ($(wc -l <"$d.log") rewrites; last snapshot at $got ms, written at $t ms)"
    else
      not_ok "kill at $ms ms: the profile is the latest rewrite, recent when written"
      diag "last rewrite logged: $line" "profile's last snapshot: ${got:-none}"
    fi
  fi
done

# --- kills in the middle of a rewrite ----------------------------------------
# memtime stops at each rewrite (the temporary complete, nothing renamed)
# until the pause file is removed: the test lets the small early rewrites
# go on and kills memtime, still paused, in the first one whose temporary
# holds 256 KB.
for i in $(seq "$N_MIDWRITE"); do
  d=$T/mid$i pause=$T/mid$i.pause
  launch "$d" "--test-hook-pause=mid-rewrite:$pause"
  tmp= size=0 prev= caught=
  while kill -0 "$JOB" 2>/dev/null; do
    if [ ! -e "$pause" ]; then sleep 0.01; continue; fi
    line=$(cat "$pause")
    case $line in *last=*) ;; *) sleep 0.01; continue;; esac   # being written
    tmp=$(ls -d "$d"/.k.out.tmp.* 2>/dev/null | head -1)
    size=$(stat -c %s "$tmp" 2>/dev/null || echo 0)
    if [ "$size" -ge 262144 ] && [ -n "$prev" ]; then caught=$line; break; fi
    prev=$line
    rm -f "$pause"
  done
  kill9
  if [ -n "$caught" ] && [ -e "$tmp" ]; then
    ok "mid-rewrite $i: killed while $(basename "$tmp") held $size bytes (and it was left behind)"
  else
    not_ok "mid-rewrite $i: caught memtime rewriting the profile"
  fi
  judge "$d" "mid-rewrite $i" yes
  # The profile is exactly the previous rewrite, the one memtime completed
  # before it stopped: its last snapshot is the one that rewrite wrote.
  got=$(last_time "$d/k.out")
  is "${got:-none}" "$(field last "$prev")" "mid-rewrite $i: the profile is the previous rewrite (last snapshot at ${got:-none} ms; this one was written at $(field time "$caught") ms)"
  # What is left besides the profile: hidden and named as temporaries.
  others=$(ls -A "$d" | grep -v -x -e k.out -e k.out.memtime | grep -v -E '^\.k\.out(\.memtime)?\.tmp\.[0-9]+$' | tr '\n' ' ')
  is "$others" "" "mid-rewrite $i: every other file is a hidden .k.out[.memtime].tmp.<pid>"
done
finish
