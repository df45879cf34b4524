#!/usr/bin/env bash
# t600-exports: --flamegraph, --collapsed and --pprof agree with the tree in
# the file, checked by independent readers: tests/check-exports.py (its own
# Massif parser; Python's XML parser for the SVG), go tool pprof for the
# pprof files (every one written is read back with -raw and -top), headless
# Chromium for the flamegraph's script. On Massif's files and memtime's (the
# fixtures, and fresh runs of a C++ program cut by --depth and --threshold),
# and on a hand-written profile with hostile names.
. "$(dirname "$0")/lib.sh"
need c++ python3 go chromium
[ -x "$MT_VIS" ] || plan_skip "memtime-vis not built ($MT_VIS)"
CK="python3 $MT_SRC/tests/check-exports.py"
export HOME="$T"   # go tool pprof may keep state under $HOME/pprof
pprof() { go tool pprof -symbolize=none "$@"; }

# ---------------------------------------------------------------- fixtures
# A profile with hostile names: markup, quotes, '&', ';' (Rust's [u8; 8]), a
# literal "%3B", control characters, a byte that is not UTF-8; a node whose
# children hold less than it (a tree cut by --depth) and Massif's "in N
# places" line.
printf '%b' 'desc: --depth=3 (hand-written: hostile names)
cmd: ./prog "quoted" & <b>bold</b>
time_unit: ms
#-----------
snapshot=0
#-----------
time=0
mem_heap_B=0
mem_heap_extra_B=0
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=1
#-----------
time=100
mem_heap_B=10000
mem_heap_extra_B=80
mem_stacks_B=0
heap_tree=peak
n4: 10000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 4000 0x401000: </script><script>document.title="pwned"</script> (evil.c:1)
  n0: 4000 0x402000: main (evil.c:10)
 n2: 3000 0x401100: <alloc::vec::Vec<[u8; 8]> as core::clone::Clone>::clone (vec.rs:3)
  n1: 2000 0x402100: a&b "q" \x27r\x27 100% %3B %zz (x.c:2)
   n0: 2000 0x402200: main (evil.c:11)
  n0: 1000 0x402300: ctl\x01\x1b\x7f bad\xff utf8 \xc3\xbcn\xc3\xaf (x.c:3)
 n0: 1500 0x401200: cut by depth (x.c:4)
 n1: 1500 0x401300: std::map<int, std::string>::operator[](int const&) (stl_map.h:511)
  n0: 1000 in 2 places, all below massif\x27s threshold (1.00%)
' >"$T/hostile.out"

files="$MT_SRC/tests/data/massif-B.out $MT_SRC/tests/data/massif-cxx.out
  $MT_SRC/tests/data/massif-i.out $MT_SRC/tests/data/massif-inline.out
  $MT_SRC/tests/data/massif-ms.out $MT_SRC/tests/data/massif-pages.out
  $MT_SRC/tests/data/small.out $MT_SRC/tests/data/chart-steps.massif $T/hostile.out
  $MT_SRC/tests/data/fuzz-regress/wide-tree-equal-times.out"   # 3,000 sites under one node

# Fresh profiles of a C++ program (names with spaces, parentheses, templates),
# trees cut by --depth=3 and --threshold=5, from Massif and from memtime.
PROG=$(build_prog vis_names.cc) || { not_ok "build tests/progs/vis_names.cc"; PROG=; }
if [ -n "$PROG" ]; then
  (cd "$T" && massif --depth=3 --threshold=5 --detailed-freq=3 --massif-out-file="$T/run-massif.out" \
     "$PROG" >/dev/null 2>"$T/massif.log") \
    && files="$files $T/run-massif.out" || not_ok "massif runs vis_names"
  if [ -x "$MT_INPLACE/memtime-amd64-linux" ]; then
    (cd "$T" && memtime --time-unit=B --depth=3 --threshold=5 --detailed-freq=3 \
       --memtime-out-file="$T/run-memtime.out" "$PROG" >/dev/null 2>"$T/memtime.log") \
      && files="$files $T/run-memtime.out" || not_ok "memtime runs vis_names"
  else
    not_ok "the memtime tool is built ($MT_INPLACE)"
  fi
fi

# ------------------------------------------ every export agrees with the tree
# For each file: the default snapshot (the peak's tree), and --snapshot '#N'
# for the first and the last detailed snapshot.
n=0
for f in $files; do
  base=$(basename "$f")
  peak=$($CK "$f" peak)
  detailed=$(awk '/^snapshot=/{n=substr($0,10)} /^heap_tree=(detailed|peak)/{print n}' "$f")
  first=$(echo "$detailed" | head -n 1)
  last=$(echo "$detailed" | tail -n 1)
  for want in default:$peak "#$first:$first" "#$last:$last"; do
    n=$((n + 1))
    when=${want%%:*} snap=${want#*:}
    opt=; [ "$when" = default ] || opt="--snapshot=$when"
    d="$T/x$n"; mkdir -p "$d"
    if ! vis "$f" $opt --flamegraph "$d/fg.svg" --collapsed "$d/c.txt" --pprof "$d/p.pb.gz" 2>"$d/err"; then
      not_ok "$base $when: memtime-vis writes the three exports"; diag "$(cat "$d/err")"; continue
    fi
    check "$base $when (snapshot $snap): the flamegraph SVG parses and its frames are the tree's bytes" \
      $CK "$f" "$snap" svg "$d/fg.svg"
    check "$base $when: the collapsed stacks are the tree's, adding up to the heap" \
      $CK "$f" "$snap" collapsed "$d/c.txt"
    if pprof -raw "$d/p.pb.gz" >"$d/raw" 2>"$d/raw.err"; then
      check "$base $when: go tool pprof -raw reads the same stacks and bytes" \
        $CK "$f" "$snap" pprof-raw "$d/raw"
    else
      not_ok "$base $when: go tool pprof -raw reads the file"; diag "$(head -5 "$d/raw.err")"
    fi
    pprof -top "$d/p.pb.gz" >"$d/top" 2>&1
    check "$base $when: go tool pprof -top reads it as inuse_space" grep -q '^Type: inuse_space$' "$d/top"
  done
done

# ------------------------------------------------------- hostile names
d="$T/x-hostile"; mkdir -p "$d"
vis "$T/hostile.out" --flamegraph "$d/fg.svg" --collapsed "$d/c.txt" --pprof "$d/p.pb.gz"
grep -q ';<alloc::vec::Vec<\[u8%3B 8\]> as core::clone::Clone>::clone (vec.rs:3) ' "$d/c.txt"
check "collapsed: ';' inside a name is written %3B" test $? = 0
grep -q '^main (evil.c:11);a&b "q" '"'r'"' 100% %253B %zz (x.c:2);<alloc' "$d/c.txt"
check "collapsed: a literal %3B is written %253B, other '%' as they are" test $? = 0
grep -q '^ctl%01%1B%7F bad'$'\xff'' utf8 ünï (x.c:3);' "$d/c.txt"
check "collapsed: control characters are written %XX" test $? = 0
is "$(python3 -c 'import sys, xml.etree.ElementTree as E
t = E.parse(sys.argv[1]); print(len(t.findall(".//{http://www.w3.org/2000/svg}script")))' "$d/fg.svg")" 1 \
  "flamegraph: the markup in a name stays text (one script element, ours)"
grep -q '<title>ctl\\x01\\x1B\\x7F bad\\xFF utf8 ünï (x.c:3) ' "$d/fg.svg"
check "flamegraph: control characters and a non-UTF-8 byte show as \\xNN" test $? = 0
grep -q 'Heap flamegraph: ./prog &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;</text>' "$d/fg.svg"
check "flamegraph: the command is escaped in the title" test $? = 0
pprof -raw "$d/p.pb.gz" >"$d/raw" 2>&1
grep -q '^Comment: ./prog "quoted" & <b>bold</b>$' "$d/raw"
check "pprof: the command is a comment" test $? = 0
python3 - "$d/p.pb.gz" <<'EOF'
import gzip, sys
# time_nanos (field 9, varint) = 100 ms: the snapshot's time since the start.
b = gzip.open(sys.argv[1]).read()
want = bytes([9 << 3]) + bytes([0x80, 0xc2, 0xd7, 0x2f])   # varint(100,000,000)
sys.exit(0 if want in b else 1)
EOF
check "pprof: the snapshot's time (100 ms) is the profile's time" test $? = 0

# ------------------------------------------------------- --snapshot WHEN
f="$MT_SRC/tests/data/chart-steps.massif"   # memtime's, marks 'phase b: state rebuild' (250), 'serving' (650)
want=$(awk '/^snapshot=/{n=substr($0,10)} /^time=/{t=substr($0,6)} /^heap_tree=(detailed|peak)/{ if (t <= 650) s=n } END {print s}' "$f")
wt=$(awk -v n="$want" '/^snapshot=/{s=substr($0,10)} /^time=/{ if (s == n) print substr($0,6)}' "$f")
vis "$f" --snapshot serving --collapsed "$T/w.txt" --flamegraph "$T/w.svg" 2>"$T/w.err"
grep -q ">snapshot $want at $wt ms, the last detailed one at or before mark &#39;serving&#39; (650 ms): heap " "$T/w.svg"
check "--snapshot MARK: the last detailed snapshot at or before the mark, said in the subtitle" test $? = 0
check "--snapshot MARK: the stacks are that snapshot's" $CK "$f" "$want" collapsed "$T/w.txt"
vis "$f" --snapshot 0.6s --collapsed "$T/w2.txt" && vis "$f" --snapshot 600 --collapsed "$T/w3.txt"
want6=$(awk '/^snapshot=/{n=substr($0,10)} /^time=/{t=substr($0,6)} /^heap_tree=(detailed|peak)/{ if (t <= 600) s=n } END {print s}' "$f")
check "--snapshot 0.6s and 600 (the file's unit) name the same moment" cmp -s "$T/w2.txt" "$T/w3.txt"
check "--snapshot 0.6s: the last detailed snapshot at or before 600 ms" $CK "$f" "$want6" collapsed "$T/w2.txt"
vis "$f" --snapshot end --collapsed "$T/w4.txt"
last=$(awk '/^snapshot=/{n=substr($0,10)} /^heap_tree=(detailed|peak)/{s=n} END {print s}' "$f")
check "--snapshot end: the last detailed snapshot" $CK "$f" "$last" collapsed "$T/w4.txt"
out=$(vis "$f" --snapshot nosuchmark --collapsed "$T/w5.txt" 2>&1); rc=$?
is "$rc:$(test -e "$T/w5.txt" && echo written)" "2:" "--snapshot with an unknown name: usage error, nothing written"
case $out in *"'nosuchmark' is not understood; expected #N (0 to 10), peak, end, a time (250ms, 1.5s, 2min, 3h), or a phase mark's label ('phase b: state rebuild', 'serving')"*)
  ok "--snapshot: the message lists the forms and the file's marks";;
  *) not_ok "--snapshot: the message lists the forms and the file's marks"; diag "$out";; esac
out=$(vis "$MT_SRC/tests/data/massif-B.out" --snapshot 2s --pprof "$T/w6.pb.gz" 2>&1); rc=$?
case "$rc:$out" in "2:"*"'2s' has a unit, but this profile's time unit is B (bytes)"*) ok "--snapshot: a time unit on a B profile is refused";;
  *) not_ok "--snapshot: a time unit on a B profile is refused"; diag "$out";; esac
out=$(vis "$f" --snapshot peak 2>&1); rc=$?
is "$rc" 2 "--snapshot without an export is a usage error"

# ------------------------------------------------------- growth window
# --from/--to: the exports show --to's moment; the flamegraph is coloured by
# each frame's change since --from (red grew, blue shrank).
f="$MT_SRC/tests/data/chart-steps.massif"
det_at() { awk -v t="$2" '/^snapshot=/{n=substr($0,10)} /^time=/{tm=substr($0,6)} /^heap_tree=(detailed|peak)/{ if (tm+0 <= t+0) s=n } END {print s}' "$1"; }
b=$(det_at "$f" 150) a=$(det_at "$f" 650)
vis "$f" --from 150ms --to 650ms --flamegraph "$T/g.svg" --collapsed "$T/g.txt" 2>"$T/g.err"
check "window (memtime's file): widths are --to's bytes, colours and titles each frame's change since --from" \
  $CK "$f" "$a" svg-diff "$T/g.svg" "$b"
check "window: the folded stacks are --to's snapshot" $CK "$f" "$a" collapsed "$T/g.txt"
grep -q "; colour: change since snapshot $b at 100 ms (red grew, blue shrank)</text>" "$T/g.svg"
check "window: the subtitle names the earlier snapshot" test $? = 0
f="$MT_SRC/tests/data/massif-cxx.out"
first=$(awk '/^snapshot=/{n=substr($0,10)} /^mem_heap_B=/{h=substr($0,12)} /^heap_tree=(detailed|peak)/{ if (h > 0) {print n; exit} }' "$f")
vis "$f" --from "#$first" --to peak --flamegraph "$T/g2.svg" 2>"$T/g2.err"
check "window (Massif's file, #N to peak): the differential flamegraph agrees with both trees" \
  $CK "$f" "$($CK "$f" peak)" svg-diff "$T/g2.svg" "$first"
vis "$f" --to "#$first" --flamegraph "$T/g3.svg" 2>"$T/g3.err"
check "window without --from: the change since snapshot 0 (an empty heap)" \
  $CK "$f" "$first" svg-diff "$T/g3.svg" -1
out=$(vis "$f" --from "#$first" --snapshot peak --flamegraph "$T/g4.svg" 2>&1); rc=$?
is "$rc:$(test -e "$T/g4.svg" && echo written)" "2:" "--snapshot with --from/--to: usage error, nothing written"

# diff OLD NEW --flamegraph: NEW's tree, coloured by the change since OLD's.
sed 's/^n4: 10000/n4: 9000/; s/^mem_heap_B=10000/mem_heap_B=9000/; s/^ n0: 1500 0x401200/ n0: 500 0x401200/' \
  "$T/hostile.out" >"$T/old.out"
vis diff "$T/old.out" "$T/hostile.out" --flamegraph "$T/d.svg" >"$T/d.txt" 2>"$T/d.err"
check "diff --flamegraph: every frame's width is NEW's bytes, its change NEW minus OLD's, red where it grew" \
  $CK "$T/hostile.out" 1 svg-diff "$T/d.svg" "$T/old.out:1"
grep -q '<title>cut by depth (x.c:4) .*; grew 1000 B (+1,000 bytes)</title>' "$T/d.svg"
check "diff --flamegraph: the frame that grew says by how much" test $? = 0
f="$MT_SRC/tests/data"
vis diff "$f/massif-i.out" "$f/massif-B.out" --flamegraph "$T/d2.svg" >/dev/null 2>"$T/d2.err"
check "diff --flamegraph on two Massif files (i and B units), each at its peak" \
  $CK "$f/massif-B.out" "$($CK "$f/massif-B.out" peak)" svg-diff "$T/d2.svg" \
  "$f/massif-i.out:$($CK "$f/massif-i.out" peak)"

# ------------------------------------------------------- bad trees
sed 's/^ n1: 4000 0x401000/ n1: 4001 0x401000/' "$T/hostile.out" >"$T/bad.out"
line=$(grep -n '^ n1: 1500 0x401300' "$T/bad.out" | cut -d: -f1)
out=$(vis "$T/bad.out" --flamegraph "$T/bad.svg" --collapsed "$T/bad.txt" 2>&1); rc=$?
is "$rc:$out" "1:memtime-vis: $T/bad.out:$line: expected the children of a node to add up to at most its 10000 bytes, found 1 more than that" \
  "a tree whose children hold more than their parent: one line FILE:LINE, exit 1"
is "$(ls "$T" | grep -c '^bad\.\(svg\|txt\)')" 0 "... and no output, not even a temporary"
sed 's/^mem_heap_B=10000/mem_heap_B=9000/; s/^mem_heap_extra_B=80/mem_heap_extra_B=2000/' "$T/hostile.out" >"$T/bad2.out"
line=$(grep -n '^n4: 10000' "$T/bad2.out" | cut -d: -f1)
out=$(vis "$T/bad2.out" --collapsed "$T/bad2.txt" 2>&1); rc=$?
is "$rc:$out" "1:memtime-vis: $T/bad2.out:$line: expected the tree's root to hold the snapshot's mem_heap_B (9000 bytes), found 10000" \
  "a root that is not the snapshot's heap: one line FILE:LINE, exit 1"

# ------------------------------------------------------- the script runs
if command -v chromium >/dev/null; then
  C="chromium --headless --no-sandbox --enable-logging=stderr --v=0"
  # ?s=RE searches, ?z=N zooms to the Nth frame (document order: 0 is "all").
  $C --virtual-time-budget=2000 --dump-dom "file://$d/fg.svg?s=%5Emain" >"$T/dom.txt" 2>"$T/chrome.log"
  grep -E 'CONSOLE|Uncaught' "$T/chrome.log" | grep -v 'dbus' >"$T/js-errors"
  is "$(cat "$T/js-errors")" "" "chromium: the flamegraph's script runs without errors"
  grep -q 'id="matched"[^>]*>Matched: 60.0%<' "$T/dom.txt"
  check "chromium: searching ^main paints the matches and covers 60.0% (6,000 of 10,000 bytes)" test $? = 0
  is "$(grep -o 'fill="rgb(230,0,230)"' "$T/dom.txt" | wc -l)" 2 "chromium: both main frames are painted"
  grep -q '<title>pwned' "$T/dom.txt"
  is $? 1 "chromium: a name's markup does not run"
  # Zoom to the frame 'a&b ...' (2,000 bytes): it fills the width; its
  # ancestors are dimmed, its siblings hidden.
  z=$(python3 -c 'import sys, xml.etree.ElementTree as E
gs = E.parse(sys.argv[1]).find(".//{http://www.w3.org/2000/svg}g[@id=\"frames\"]")
print([i for i, g in enumerate(gs) if g[0].text.startswith("a&b")][0])' "$d/fg.svg")
  $C --virtual-time-budget=2000 --dump-dom "file://$d/fg.svg?z=$z" >"$T/dom2.txt" 2>/dev/null
  python3 - "$T/dom2.txt" <<'EOF'
import re, sys
dom = open(sys.argv[1]).read()
gs = re.findall(r'<g( style="[^"]*")?><title>([^<]*)</title><rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', dom)
shown = {t.split(' \u2014 ')[0]: (s, float(x), float(w)) for s, t, x, w in gs}
ab = [v for k, v in shown.items() if k.startswith('a&amp;b')][0]
ok = abs(ab[1] - 10) < 0.01 and abs(ab[2] - 1180) < 0.01 and 'none' not in ab[0]
ok = ok and 'none' in shown['cut by depth (x.c:4)'][0]           # a sibling subtree: hidden
ok = ok and 'opacity' in shown['all'][0]                          # an ancestor: dimmed
sys.exit(0 if ok else 1)
EOF
  check "chromium: clicking a frame (?z=N) zooms it to the full width, hides the rest, dims its callers" test $? = 0
else
  not_ok "chromium is installed (scripts/deps.sh --test)"
fi

plan "$_tap_n"
finish
