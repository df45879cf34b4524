# Shared helpers for tests/t*.sh: TAP output, a scratch directory, ways to
# run the tool and the visualizer from the build tree (never installed
# copies), background runs whose pid is the program's own, the readers every
# profile is held against, and a clean-up that leaves no process running.
# Each test script sources this, calls plan N (or plan_skip "reason"), then
# ok/not_ok/is, and ends with finish. tests/README.md says what is where.
set -u

# Every process a script starts carries MT_TEST_SCRIPT=<pid>:<stamp> in its
# environment, read at exit from /proc/PID/environ to kill what is left
# (see _mt_exit). The script re-executes itself once with the marker set so
# that its own environment holds it too: then even a subshell it forks (a
# loop in the background, the subshell of a function run with &) is found,
# not only what it executes. A script run from another keeps its own marker
# (the pid differs).
_mt_id=${MT_TEST_SCRIPT:-}
if [ "${_mt_id%%:*}" != "$$" ]; then
  MT_TEST_SCRIPT="$$:$(date +%s%N)"
  export MT_TEST_SCRIPT
  case $- in *x*) exec "$BASH" -x "$0" "$@";; esac   # bash -x tNNN.sh keeps tracing
  exec "$BASH" "$0" "$@"
fi
MT_SRC=${MT_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
MT_BUILD=${MT_BUILD:-$MT_SRC/_build/check}
MT_VIS=${MT_VIS:-$MT_BUILD/visualizer/memtime-vis}
MT_INPLACE="$MT_BUILD/memtime/inplace"
MT_PROGS=${MT_PROGS:-$MT_BUILD/tests-progs}   # compiled test programs, shared by all scripts
mkdir -p "$MT_PROGS"
# python3 as the interpreter itself, first on PATH: where python3 is a
# version manager's shim (pyenv's is a shell script that runs pyenv, 0.3 s
# a call) the suite's many hundred calls would spend minutes there. The
# shim is asked once per build tree; a link swapped in by rename, so a
# script starting beside another never finds it half made.
_mt_py="$MT_PROGS/python-bin"
if [ ! -e "$_mt_py/python3" ] && _mt_exe=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) \
   && [ -x "$_mt_exe" ]; then
  mkdir -p "$_mt_py" && ln -sfn "$_mt_exe" "$_mt_py/python3.$$" && mv -f "$_mt_py/python3.$$" "$_mt_py/python3"
fi
[ -e "$_mt_py/python3" ] && PATH="$_mt_py:$PATH"
T=$(mktemp -d "${TMPDIR:-/tmp}/memtime-test.XXXXXX")
trap _mt_exit EXIT
_tap_n=0
_tap_fail=0

# Under CI (CI=true) a skip is a failure: scripts/deps.sh --test installs
# everything a test needs, so a missing dependency must turn CI red, never
# green. Elsewhere a skip is reported as one (prove counts them).
_tap_ci() { [ "${CI:-}" = true ]; }
_tap_plan=
plan()      { _tap_plan=$1; echo "1..$1"; }
# plan_skip REASON: the whole script is skipped. Meant before plan (need
# calls it); after plan it skips every check not yet run, so the TAP stays
# one plan whatever the script did before.
plan_skip() {
  if [ -n "$_tap_plan" ]; then
    while [ "$_tap_n" -lt "$_tap_plan" ]; do skip "$*"; done
    _tap_plan=; exit "$(( _tap_fail > 0 ))"
  fi
  if _tap_ci; then echo "1..1"; echo "not ok 1 - skipped under CI=true (a skip is a failure there): $*"; exit 1; fi
  echo "1..0 # SKIP $*"; exit 0
}
ok()        { _tap_n=$((_tap_n+1)); echo "ok $_tap_n - $*"; }
not_ok()    { _tap_n=$((_tap_n+1)); _tap_fail=$((_tap_fail+1)); echo "not ok $_tap_n - $*"; }
skip()      {
  if _tap_ci; then not_ok "skipped under CI=true (a skip is a failure there): $*"; return; fi
  _tap_n=$((_tap_n+1)); echo "ok $_tap_n # SKIP $*"
}
diag()      { printf '%s\n' "$@" | sed 's/^/# /'; }
# check DESCRIPTION COMMAND...: ok if the command succeeds.
check()     { local d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }
# is GOT EXPECTED DESCRIPTION
is() {
  if [ "$1" = "$2" ]; then ok "$3"; else not_ok "$3"; diag "got:      $1" "expected: $2"; fi
}
# is_file GOTFILE EXPECTEDFILE DESCRIPTION: diff -u on failure
is_file() {
  if diff -u "$2" "$1" >"$T/.diff" 2>&1; then ok "$3"; else not_ok "$3"; head -40 "$T/.diff" | diag "$(cat)"; fi
}

# Valgrind with the tool from the build tree. MT_VALGRIND is the launcher of
# the Valgrind the build tree was configured against (scripts/check.sh and
# scripts/test-valgrind-versions.sh set it for the other releases); Massif,
# the oracle, is that same release's.
MT_VALGRIND=${MT_VALGRIND:-valgrind}
# The same release's vgdb, ms_print and launcher come first on PATH.
case $MT_VALGRIND in */*) PATH=$(dirname "$MT_VALGRIND"):$PATH ;; esac
memtime() { VALGRIND_LIB="$MT_INPLACE" "$MT_VALGRIND" --tool=memtime "$@"; }
massif()  { "$MT_VALGRIND" --tool=massif "$@"; }
vis()     { "$MT_VIS" "$@"; }

# bg_start [-C DIR] COMMAND ARGS...: runs COMMAND in the background (in DIR
# if given) so that $! is the pid of the program itself. COMMAND may be
# memtime or massif: they are run as Valgrind, not as the shell functions
# above, because `memtime ... &` forks a subshell that runs Valgrind as its
# child: $! is then the subshell's, and a kill of $! leaves Valgrind
# running. Redirections given to bg_start apply to the program.
bg_start() {
  local dir=.
  if [ "$1" = -C ]; then dir=$2; shift 2; fi
  case $1 in
    memtime) shift; set -- env VALGRIND_LIB="$MT_INPLACE" "$MT_VALGRIND" --tool=memtime "$@" ;;
    massif)  shift; set -- "$MT_VALGRIND" --tool=massif "$@" ;;
  esac
  (cd "$dir" && exec "$@") &
}
# memtime_bg ARGS...: memtime in the background; $! is Valgrind's pid.
memtime_bg() { bg_start memtime "$@"; }
# kill_wait PID: SIGKILL to a program bg_start started, then reaps it (its
# status is not wanted: it was killed).
kill_wait() { kill -KILL "$1" 2>/dev/null; wait "$1" 2>/dev/null; return 0; }
# wait_until SECONDS PID COMMAND...: polls COMMAND (every 0.02 s) until it
# succeeds; when PID is gone, COMMAND gets one last try. SECONDS only turns
# a wait that never ends into a failure: nothing is decided by how long it
# took, so give it minutes.
wait_until() {
  local end=$(( SECONDS + $1 )) pid=$2; shift 2
  until "$@"; do
    kill -0 "$pid" 2>/dev/null || { "$@"; return; }
    [ "$SECONDS" -lt "$end" ] || return 1
    sleep 0.02
  done
}

# test_rustc: prints the rustc the Rust tests compile with, or nothing.
# $RUSTC if set; else the one scripts/deps.sh --test installs (Debian's,
# /usr/bin/rustc) when present, so that a machine whose PATH finds a newer
# rustup toolchain first still tests what a fresh bookworm machine does
# (their debug info differs: source paths, inlined frames' names); else
# rustc on PATH, else ~/.cargo/bin/rustc.
test_rustc() {
  if [ -n "${RUSTC:-}" ]; then echo "$RUSTC"
  elif [ -x /usr/bin/rustc ]; then echo /usr/bin/rustc
  elif command -v rustc; then :
  elif [ -x "$HOME/.cargo/bin/rustc" ]; then echo "$HOME/.cargo/bin/rustc"
  fi
}

# build_prog SRC [extra cc args...]: compiles tests/progs/SRC once into $MT_PROGS,
# prints the binary's path. C++ for .cc/.cpp files. -O0 -g so frames are stable.
build_prog() {
  local src=$1; shift
  local base; base=$(basename "$src"); base=${base%.*}
  local tag; tag=$(printf '%s' "$*" | md5sum | cut -c1-8)
  local out="$MT_PROGS/$base-$tag"
  local path="$MT_SRC/tests/progs/$src"
  if [ ! -x "$out" ] || [ "$path" -nt "$out" ] || [ "$MT_SRC/memtime/memtime.h" -nt "$out" ]; then
    local cc=cc; case $src in *.cc|*.cpp) cc=c++;; esac
    $cc -g -O0 -fno-omit-frame-pointer -fno-inline -I"$MT_SRC/memtime" -o "$out.tmp.$$" "$path" "$@" -lpthread >&2 \
      && mv -f "$out.tmp.$$" "$out" || return 1
  fi
  echo "$out"
}

# rust_prog SRC OPT [rustc args...]: compiles tests/progs/SRC (Rust) once
# into $MT_PROGS with test_rustc's compiler at -C opt-level=OPT with -g,
# prints the binary's path. Cached per compiler version (a rustup and a
# Debian rustc differ in debug info) and per extra arguments (link args,
# symbol-mangling-version).
rust_prog() {
  local src="$MT_SRC/tests/progs/$1" opt=$2; shift 2
  local rustc; rustc=${RUSTC:-$(test_rustc)}
  [ -n "$rustc" ] || { echo "rust_prog: no rustc" >&2; return 1; }
  local tag; tag=$(printf '%s' "$*" | md5sum | cut -c1-8)
  local out; out="$MT_PROGS/$(basename "$src" .rs)-O$opt-$tag-$("$rustc" --version | md5sum | cut -c1-8)"
  if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
    "$rustc" -g -C opt-level="$opt" -o "$out.tmp.$$" "$src" "$@" >&2 \
      && mv -f "$out.tmp.$$" "$out" || return 1
  fi
  echo "$out"
}

# --- What a script needs beyond the build -------------------------------------
# need DEP...: declares, before plan, what the script uses that building
# memtime does not need (scripts/deps.sh --test installs all of it). When
# one is missing the whole script is skipped, naming the packages to
# install; under CI=true that skip is a failure. This is the one way a test
# meets a missing dependency: declared first, so that it is a clean skip,
# never a failure or a crash halfway. A DEP is
#   a command:  python3 gnuplot chromium go rustc tmux memcached clang sqlite3
#               xvfb-run xauth convert massif-visualizer man lintian ...
#   c++         a C++ compiler (build_prog of a .cc file)
#   lib:NAME    a library cc links with -lNAME (lib:jemalloc, lib:mimalloc,
#               lib:tcmalloc_minimal)
#   file:NAME   a file cc finds (libjemalloc_pic.a, libc.a)
need() {
  local d miss=
  for d in "$@"; do _mt_have "$d" || miss="$miss $(_mt_package "$d")"; done
  [ -z "$miss" ] || plan_skip "not installed:$miss (scripts/deps.sh --test installs them)"
}
# _mt_have DEP: the dependency is there.
_mt_have() {
  local f
  case $1 in
    c++)      _mt_cmd c++ && c++ --version >/dev/null 2>&1 ;;
    lib:*)    f=$(cc -print-file-name="lib${1#lib:}.so"); [ -f "$f" ] ||
                { f=$(cc -print-file-name="lib${1#lib:}.a"); [ -f "$f" ]; } ;;
    file:*)   f=$(cc -print-file-name="${1#file:}"); [ -f "$f" ] ;;
    rustc)    f=$(test_rustc); [ -n "$f" ] && "$f" --version >/dev/null 2>&1 ;;
    # The cargo that goes with test_rustc's rustc (je_tokio_prog's choice).
    cargo)    f=$(test_rustc); if [ "$f" = /usr/bin/rustc ]; then [ -x /usr/bin/cargo ]; else _mt_cmd cargo; fi ;;
    # Debian's tokio crate sources, for offline cargo builds.
    tokio-src) compgen -G '/usr/share/cargo/registry/tokio-1.*' >/dev/null ;;
    go)       _mt_cmd go || [ -x /usr/lib/go/bin/go ] ;;
    chromium) _mt_cmd chromium || _mt_cmd chromium-browser ;;
    *)        _mt_cmd "$1" ;;
  esac
}
# _mt_cmd NAME: an executable NAME on PATH (bash's command -v also names a
# file that is not executable when no other is found).
_mt_cmd() { local f; f=$(command -v "$1") && [ -x "$f" ]; }
# _mt_package DEP: the Debian package that provides it.
_mt_package() {
  case $1 in
    c++) echo g++ ;;
    lib:jemalloc|file:libjemalloc_pic.a) echo libjemalloc-dev ;;
    lib:mimalloc) echo libmimalloc-dev ;;
    lib:tcmalloc*) echo libgoogle-perftools-dev ;;
    file:libc.a) echo libc6-dev ;;
    lib:*|file:*) echo "${1#*:}" ;;
    gnuplot) echo gnuplot-nox ;;
    go) echo golang-go ;;
    man) echo man-db ;;
    xvfb-run) echo xvfb ;;
    convert|import) echo imagemagick ;;
    dh|dh_*) echo debhelper ;;
    dpkg-buildpackage|dpkg-source) echo dpkg-dev ;;
    objcopy|objdump|nm|strip|readelf) echo binutils ;;
    xz) echo xz-utils ;;
    flock) echo util-linux ;;
    ms_print|vgdb) echo valgrind ;;
    redis-cli) echo redis-tools ;;
    tokio-src) echo librust-tokio-dev ;;
    *) echo "$1" ;;
  esac
}

# browse OUT ARGS...: headless Chromium ($CHROMIUM, which the caller found)
# with ARGS (--dump-dom URL, --screenshot=FILE URL, ...): stdout to OUT, its
# log (console messages: CONSOLE lines) to OUT.err. The flags keep it off
# the network this machine does not have, in a profile of its own.
browse() {
  local out=$1; shift
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d "$T/chr.XXXXXX")" --enable-logging=stderr --v=0 "$@" \
    >"$out" 2>"$out.err"
}

# build_pngcheck: compiles tests/pngcheck.c (a libpng decoder, with ASan)
# once into $MT_PROGS, prints its path.
build_pngcheck() {
  local out="$MT_PROGS/pngcheck"
  if [ ! -x "$out" ] || [ "$MT_SRC/tests/pngcheck.c" -nt "$out" ]; then
    cc -g -O1 -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=undefined \
      -o "$out.tmp.$$" "$MT_SRC/tests/pngcheck.c" $(pkg-config --cflags --libs libpng) >&2 \
      && mv -f "$out.tmp.$$" "$out" || return 1
  fi
  echo "$out"
}

# --- Reading profiles --------------------------------------------------------
# grammar FILE: massif-visualizer's strict reading of the format
# (tests/check-strict-grammar.pl) accepts FILE.
grammar() { perl "$MT_SRC/tests/check-strict-grammar.pl" "$1"; }
# both_readers FILE: the strict grammar and ms_print both accept FILE.
both_readers() { grammar "$1" && ms_print "$1" >/dev/null; }
# normalised FILE: FILE without its desc: line (it names the output option,
# which differs between memtime and Massif) and with code addresses as
# "0x:" (the two preloads differ in size, so libraries load elsewhere).
normalised() { sed -e 1d -e 's/0x[0-9A-F]*: /0x: /' "$1"; }
# snapshots FILE: one "n time heap extra stacks kind" line per snapshot.
snapshots() {
  awk -F= '/^snapshot=/{n=$2} /^time=/{t=$2} /^mem_heap_B=/{h=$2} /^mem_heap_extra_B=/{x=$2}
           /^mem_stacks_B=/{s=$2} /^heap_tree=/{print n, t, h, x, s, $2}' "$1"
}
# last_heap FILE: mem_heap_B of the last snapshot (0 if there is none;
# nothing if FILE cannot be read).
last_heap() { awk -F= '/^mem_heap_B=/{h=$2} END{print h+0}' "$1" 2>/dev/null; }
# max_heap FILE: the largest mem_heap_B (nothing if there is none).
max_heap() { sed -n 's/^mem_heap_B=//p' "$1" | sort -n | tail -n 1; }
# peak_stacks FILE: the largest mem_stacks_B.
peak_stacks() { sed -n 's/^mem_stacks_B=//p' "$1" | sort -n | tail -1; }
# within_pct A B PCT: |A-B| <= PCT% of B (B > 0).
within_pct() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d * 100 <= p * b) }'; }

# --- Reading memtime-vis's JSON ------------------------------------------------
# json_get FILE EXPR: prints the Python expression EXPR evaluated with d, the
# JSON document in FILE ("-": stdin); a tuple prints as print's arguments
# (json_get f.json 'd["a"], d["b"]' prints "A B"). Fails, naming the file,
# when FILE is not JSON or EXPR does not hold.
json_get() {
  python3 -c '
import json, sys
f, expr = sys.argv[1], sys.argv[2]
try:
    d = json.load(sys.stdin if f == "-" else open(f))
    v = eval(expr, {"d": d})
except Exception as e:
    sys.exit("json_get %s: %s: %r" % (f, expr, e))
print(*v) if isinstance(v, tuple) else print(v)' "$1" "$2"
}
# peak_sites FILE REGEX [vis args...]: "label=bytes" of the sites (or
# groups) at the peak in memtime-vis's --json of FILE whose label matches
# REGEX (Python's re.search), sorted by label, on one line. Fails if two
# sites share a label: the report never prints two alike.
peak_sites() {
  local f=$1 keys=$2; shift 2
  vis --json "$@" "$f" | python3 -c '
import json, re, sys
s = json.load(sys.stdin)["peak"]["sites"]
if len({x["site"] for x in s}) != len(s):
    sys.exit("peak_sites: two sites share a label")
print(" ".join("%s=%d" % (x["site"], x["bytes"]) for x in sorted(s, key=lambda x: x["site"])
               if re.search(sys.argv[1], x["site"])))' "$keys"
}

# --- The end ------------------------------------------------------------------
# at_exit COMMAND: COMMAND (a string for eval) runs when the script ends,
# after every process it started is gone (so a file system they held can be
# unmounted) and before the scratch directory is removed. Use it instead of
# `trap ... EXIT`, which would replace the clean-up below.
_mt_at_exit=()
at_exit() { _mt_at_exit+=("$1"); }

# _mt_strays: sets _mt_pids to the pids, other than this shell's, of the
# live processes whose environment carries this script's marker: all it
# started, however deep, that still runs (a zombie's environment reads
# empty). grep runs without the marker; a pid gone by the time grep is done
# (the subshell that ran it) is left out.
_mt_strays() {
  local f pid
  _mt_pids=
  for f in $(env -u MT_TEST_SCRIPT grep -lzxF "MT_TEST_SCRIPT=$MT_TEST_SCRIPT" /proc/[0-9]*/environ 2>/dev/null); do
    pid=${f#/proc/}; pid=${pid%/environ}
    [ "$pid" != $$ ] && [ -e "/proc/$pid" ] && _mt_pids="$_mt_pids $pid"
  done
}
# _mt_exit (the EXIT trap): kills whatever the script started that still
# runs, a failure path's leftovers or a program it lost track of, and says
# which on stderr; then the at_exit commands; then removes $T. The exit
# status stays the script's. (The 500 rounds only bound a process that
# cannot die.) A process killed stops showing its environment as soon as
# its memory is released, before it is dead: the at_exit commands wait
# until each one killed is gone or a zombie, which on a loaded machine
# can be a while later.
_mt_exit() {
  local rc=$? pid round c said= killed=
  _mt_unfinished "$rc"
  for round in $(seq 500); do
    _mt_strays
    [ -n "$_mt_pids" ] || break
    if [ -z "$said" ]; then
      for pid in $_mt_pids; do
        echo "# lib.sh: killing $pid, still running at exit: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-200)" >&2
      done
      said=yes
    fi
    for pid in $_mt_pids; do kill -KILL "$pid" 2>/dev/null; done
    for pid in $_mt_pids; do wait "$pid" 2>/dev/null; done
    killed="$killed$_mt_pids"
    sleep 0.02
  done
  for pid in $killed; do
    for round in $(seq 500); do
      grep -q '^[0-9]* (.*) [ZX] ' "/proc/$pid/stat" 2>/dev/null || [ ! -e "/proc/$pid" ] && break
      sleep 0.02
    done
  done
  for c in ${_mt_at_exit[@]+"${_mt_at_exit[@]}"}; do eval "$c"; done
  rm -rf "$T"
  return "$rc"
}

# _mt_unfinished RC (from the EXIT trap): a script that stops before its
# last planned check (a command it needed failed, a bug in the script)
# says so on a line for each check it did not run, so that the report says
# where it stopped rather than only that the plan was not met.
_mt_unfinished() {
  [ -n "$_tap_plan" ] || return 0
  while [ "$_tap_n" -lt "$_tap_plan" ]; do
    not_ok "not run: the script stopped before this check (exit status $1)"
  done
}

# finish: exit status reflects failures (prove reads the TAP anyway).
finish() { [ "$_tap_fail" -eq 0 ]; }
