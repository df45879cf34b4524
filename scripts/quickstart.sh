#!/usr/bin/env bash
# Quick start: installs what is missing, builds memtime (optimised), installs it
# system-wide (the tool where `valgrind` looks, memtime-vis, man pages, memtime.h),
# then profiles the bundled example (examples/node_sim.c) and writes its timeline
# PNG, HTML report and text report into examples/out/.
set -eu
cd "$(dirname "$0")/.."
top=$PWD
SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo

step() { printf '\n==> %s\n' "$*"; }

step "Installing missing packages"
scripts/deps.sh
step "Building (optimised) in _build/release"
[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
mkdir -p _build/release
( cd _build/release
  if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
    "$top/configure" CFLAGS="-O2 -g" >configure.log 2>&1 || { tail -20 configure.log; exit 1; }
  fi
  make -j2 >make.log 2>&1 || { tail -40 make.log; exit 1; }
  step "Installing"
  $SUDO make install >install.log 2>&1 || { tail -20 install.log; exit 1; }
  grep -E 'memtime installed into' install.log || true )
command -v memtime-vis >/dev/null || { echo "memtime-vis is not on PATH after install" >&2; exit 1; }
incdir=$(sed -n 's/^includedir = //p' _build/release/Makefile | head -1)
prefix=$(sed -n 's/^prefix = //p' _build/release/Makefile | head -1)
incdir=${incdir/\$\{prefix\}/$prefix}

step "Profiling the example (a node-like program: sync, mempool burst, verify, prune, serve)"
out=examples/out
mkdir -p "$out"
cc -g -O1 -Wall -I"$incdir" -DMEMTIME_EXAMPLE_MARKS -o "$out/node_sim" examples/node_sim.c
rm -f "$out"/memtime.out "$out"/memtime.out.memtime
valgrind --tool=memtime --memtime-out-file="$out/memtime.out" "$out/node_sim" 2>"$out/valgrind.log" \
  || { cat "$out/valgrind.log" >&2; exit 1; }
memtime-vis "$out/memtime.out" -o "$out/timeline.png" --report "$out/report.txt"
memtime-vis "$out/memtime.out" -o "$out/report.html"

step "Summary of the report"
awk '/^-----/{exit} {print}' "$out/report.txt" | head -40
cat <<MSG

Profile:      $top/$out/memtime.out   (Massif format: ms_print and massif-visualizer read it)
Timeline PNG: $top/$out/timeline.png
HTML report:  $top/$out/report.html   (open it in any browser)
Text report:  $top/$out/report.txt
Try it on your own program:  valgrind --tool=memtime ./your-program && memtime-vis memtime.out.<pid> -o timeline.png
MSG
