#!/usr/bin/env bash
# t628: groups of a heap allocated in stripped code (every byte
# named at a level a person can act on). tests/progs/stripped_layers.cc: a
# C++ library stripped to its exported symbols, whose malloc is three
# unnamed static functions below the exported store::fill (300000 B at the
# peak) and net::frame (200000 B); both reach the same unnamed frames. The
# known answers, by construction:
# - the companion's detail (default --detail-depth=2) goes past level 2
#   only where a path has no name yet: to store::fill and net::frame at
#   level 4, while the main program's keep_local path stops at level 2;
# - --group-by=crate and =namespace: store 300000 B, net 200000 B (each
#   path counted for its own first named frame, not the largest caller's);
# - --group-by=function: "??? called by store::fill" 300000 B and
#   "??? called by net::frame" 200000 B;
# - the default grouping weighs the unnamed frames by their named callers
#   (C++ in namespaces), so it is namespace;
# - with stacks cut before any name (--depth=2), the bytes are one group
#   named by the library, "libstrl.so (no symbols)": 500000 B;
# - the PNG chart by crate, with the program's resident memory 60 MiB more
#   than its heap (a file mapped, as rustc's libraries are): the heap's
#   bands fill at least half of the main plot's height at the peak, measured
#   from the pixels (tests/pngcheck.c, the layout of chart-lib.sh).
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/chart-lib.sh"
need python3
plan 11
cd "$T" || exit 1

src=$MT_SRC/tests/progs/stripped_layers.cc
f="-O1 -fno-inline -fno-optimize-sibling-calls -fno-omit-frame-pointer"
c++ $f -g0 -DLIB -fPIC -shared -fvisibility=hidden -o libstrl.so "$src" && strip --strip-all libstrl.so &&
  c++ $f -g -o layers "$src" -L. -lstrl -Wl,-rpath,"$T" \
  || { not_ok "build stripped_layers.cc"; exit 1; }
if ! readelf -S libstrl.so | grep -q '\.symtab' && nm -DC libstrl.so | grep -q ' T store::fill(' &&
   nm -DC libstrl.so | grep -q ' T net::frame(' && ! nm -DC libstrl.so | grep -q layer; then
  ok "the oracle: libstrl.so has no symbol table; store::fill and net::frame exported, the layers not"
else not_ok "the oracle: libstrl.so has no symbol table; store::fill and net::frame exported, the layers not"; fi

memtime -q --time-unit=B --detailed-freq=1 --memtime-out-file=l.out ./layers >run.txt 2>err
is "$(cat run.txt)" "51" "the program runs under memtime"

# The peak's detail: the depth (in the dtree line) of each named frame.
python3 - l.out.memtime >depths.txt <<'PY'
import sys
frames, trees = {}, {}
for line in open(sys.argv[1]):
    if line.startswith('frame: '):
        i, l = line[7:].rstrip('\n').split(' ', 1)
        frames[int(i)] = l
    elif line.startswith('dtree: '):
        p = line.split()
        trees[int(p[1][9:])] = [tuple(map(int, n.split('.'))) for n in p[3:]]
tot = lambda t: sum(b for d, f, b in t if d == 1)
t = trees[max(trees, key=lambda s: tot(trees[s]))]
out = set()
for d, f, b in t:
    for name in ('store::fill', 'net::frame', 'keep_local', 'main'):
        if ': ' + name in frames[f]:
            out.add('%s@%d' % (name, d))
print(' '.join(sorted(out)))
PY
is "$(cat depths.txt)" "keep_local@1 main@2 net::frame@4 store::fill@4" \
   "the detail: unnamed paths go on to their first named frame (level 4), named ones stop at --detail-depth=2"

is "$(peak_sites l.out '^(store|net)$' --threshold=0 --group-by=crate)" "net=200000 store=300000" \
   "crate: store 300000 B, net 200000 B, each path by its own first named frame"
is "$(peak_sites l.out '^(store|net)$' --threshold=0 --group-by=namespace)" "net=200000 store=300000" \
   "namespace: the same"
vis --json --threshold=0 --group-by=function l.out | python3 -c '
import json, sys
acc = {}
for s in json.load(sys.stdin)["peak"]["sites"]:
    for f in ("store::fill", "net::frame"):
        if "??? called by " + f in s["site"]:
            acc[f] = acc.get(f, 0) + s["bytes"]
print(" ".join("%s=%d" % kv for kv in sorted(acc.items())))' >fn.txt
is "$(cat fn.txt)" "net::frame=200000 store::fill=300000" \
   "function: ??? called by store::fill 300000 B, ??? called by net::frame 200000 B"

is "$(vis --json l.out | json_get - 'd["grouping"]["by"], d["grouping"]["by_default"]')" \
   "namespace True" "the default grouping: namespace, the unnamed frames weighed by their named callers"

memtime -q --time-unit=B --detailed-freq=1 --depth=2 --memtime-out-file=d2.out ./layers >/dev/null 2>err
is "$(peak_sites d2.out 'libstrl' --threshold=0 --group-by=crate)" "libstrl.so (no symbols)=500000" \
   "stacks cut before any name: one group named by the library, 500000 B"
vis --group-by=crate --summary-only d2.out >d2.txt
check "  ... and the summary names it so" grep -q '^   1\. .*libstrl\.so (no symbols)$' d2.txt

# The chart by crate of a run whose RSS is far above its heap.
memtime -q --time-unit=i --detailed-freq=1 --memtime-out-file=big.out ./layers 60 >/dev/null 2>err
FIX=$T/big.out
render big --group-by=crate
load_plot big
check "the chart has the RSS panel (RSS over twice the heap)" grep -q '^layout panel ' "$T/big.layout"
# The peak's column (a few pixels left of the marker, whose disc covers it):
# the highest row of a band's colour (the first four groups') from the pixels.
X=$(( $(awk '$2=="peak"{print $3}' "$T/big.layout") - 3 ))
top=$("$PNGCHECK" "$T/big.png" runs "$X" "$Y0" "$Y1" |
  awk 'BEGIN{ split("4E79A7 F28E2B 59A14F B07AA1", a, " "); for (i in a) s[a[i]] = 1 } ($3 in s){ print $1; exit }')
check "the heap's bands fill >= half of the main plot at the peak (top row ${top:-none} of $Y0..$Y1)" \
  sh -c "[ -n '$top' ] && [ $(( 2 * (Y1 - ${top:-Y1}) )) -ge $(( Y1 - Y0 )) ]"
finish
