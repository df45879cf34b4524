#!/usr/bin/env bash
# Runs the whole test suite from a fresh clone: installs missing packages, builds
# a test tree (visualizer with ASan/UBSan, warnings as errors) in _build/check
# and checks the optimised build compiles warning-free (_build/check-O2), then
# runs every tests/t*.sh through prove against _build/check. Nothing installed
# is used, and nothing is written into the clone outside _build. The suite must leave nothing running: every process it starts
# carries MT_TEST_RUN=<this run> in its environment, and one still running
# after prove fails the suite (and is killed).
set -eu
cd "$(dirname "$0")/.."
top=$PWD
scripts/deps.sh --test
mkdir -p _build/check
# The whole suite ends with the other Valgrind releases (t990-t991), taken
# once per machine from Debian's archive: a download, or, where Debian's
# package does not run here, minutes of compiling that would hold both of
# prove's slots. Started here, at the lowest priority, that work takes only
# the cores the suite leaves idle; the two scripts then find the releases
# ready, or wait for them on the cache's lock. What fails here is redone, and
# its failure reported, by its script. Not for a run of chosen scripts.
prebuilt=
case " $* " in *t[0-9][0-9][0-9]-*.sh*) ;; *)
  for suite in trixie sid; do
    nice -n 19 scripts/valgrind-cache.sh "$suite" >"_build/check/valgrind-$suite.log" 2>&1 &
    prebuilt="$prebuilt $!"
  done ;;
esac
[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
cd _build/check
if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
  "$top/configure" --enable-werror --enable-sanitizers --prefix="$top/_build/check/_prefix" >configure.log 2>&1 \
    || { tail -20 configure.log; exit 1; }
fi
make -j2 >make.log 2>&1 || { tail -40 make.log; exit 1; }
# The optimised build users install must compile warning-free too (-O2 finds
# warnings the sanitizer build does not); it is built, not tested.
mkdir -p "$top/_build/check-O2"
cd "$top/_build/check-O2"
if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
  "$top/configure" --enable-werror CFLAGS="-O2 -g" >configure.log 2>&1 || { tail -20 configure.log; exit 1; }
fi
make -j2 >make.log 2>&1 || { echo "optimised -Werror build failed:"; grep -E 'error|warning' make.log | head -20; exit 1; }
cd "$top"
export MT_BUILD="$top/_build/check" MT_SRC="$top"
MT_TEST_RUN="check.$$.$(date +%s%N)"
export MT_TEST_RUN
rc=0
# What the clone holds untracked before the suite: a script that writes into
# the clone (a profile under its default name in the working directory)
# is found after it.
untracked() { git ls-files --others --exclude-standard 2>/dev/null | sort; }
untracked >"_build/check/untracked.before"
prove -j2 --timer "$@" tests/t*.sh || rc=$?
# That work has ended by now (its scripts waited for it), unless a script
# was not run; none of it is left running behind the suite.
[ -z "$prebuilt" ] || wait $prebuilt || true
untracked >"_build/check/untracked.after"
if [ -n "$(comm -13 _build/check/untracked.before _build/check/untracked.after)" ]; then
  echo "check.sh: the suite wrote into the clone:"
  comm -13 _build/check/untracked.before _build/check/untracked.after | sed 's/^/  /'
  rc=1
fi
# Each script kills what it left at its end (tests/lib.sh); what is found
# here escaped that: a script that replaced lib.sh's EXIT trap, or a
# program that cleared its environment's marker of the script but kept
# the run's. grep runs without the marker, so it does not find itself.
pids=
for f in $(env -u MT_TEST_RUN grep -lzxF "MT_TEST_RUN=$MT_TEST_RUN" /proc/[0-9]*/environ 2>/dev/null || true); do
  pid=${f#/proc/}; pid=${pid%/environ}
  [ -e "/proc/$pid" ] && pids="$pids $pid"
done
if [ -n "$pids" ]; then
  echo "check.sh: the suite left these processes running (now killed):"
  ps -o pid=,etime=,rss=,args= -p "${pids# }" | sed 's/^/  /'
  kill -KILL $pids 2>/dev/null || true
  [ "$rc" != 0 ] || rc=1
fi
exit "$rc"
