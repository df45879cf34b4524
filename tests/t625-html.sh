#!/usr/bin/env bash
# t625-html: memtime-vis -o report.html (one self-contained,
# interactive page for the ticket) opened in a real browser,
# Debian's chromium headless. Four profiles: memtime's with phase marks
# (mark_client.c), Massif's own (tests/data/massif-cxx.out), one whose
# program was killed (kill_grow.c, SIGKILL once two detailed snapshots are
# on disk), and a hand-written one whose names and marks are hostile markup.
# For each: the page logs nothing on the console (no script error, no
# blocked request) and its script runs to the end; the screenshot is
# decoded (tests/pngcheck.c) and shows the chart's first band; with
# #snapshot=N the DOM names snapshot N and lists the sites and bytes the
# file itself gives for N's tree (tests/htmlcheck.py reads the file). The
# hostile names appear as text, and no element they spell exists. Over the
# DevTools protocol (tests/cdp.py): Tab, arrow keys, clicks, hover and print
# media do what the man page says; dark mode follows the browser.
. "$(dirname "$0")/lib.sh"
need python3 chromium

CHROMIUM=$(command -v chromium || true)
plan 30

hc() { python3 "$MT_SRC/tests/htmlcheck.py" "$@"; }
# browse OUT ARGS... URL: chromium headless, a fresh profile each time, no
# network of its own; stderr (the console log) to OUT.err.
consoles() { grep -c 'CONSOLE' "$1.err"; }
PNGCHECK=$(build_pngcheck) || { not_ok "build pngcheck"; exit 1; }

# The console oracle notices an error: a page that throws logs one.
printf '<!DOCTYPE html><script>throw new Error("t625 probe")</script>\n' >"$T/throw.html"
browse "$T/throw.dom" --dump-dom "file://$T/throw.html"
check "oracle: chromium's console log shows a page's uncaught error" grep -q 'CONSOLE.*t625 probe' "$T/throw.dom.err"

# ---- the profiles ----
M=$(build_prog mark_client.c) || { not_ok "build mark_client.c"; exit 1; }
# Both runs in bytes (--time-unit=B): the chart's shape is the program's
# alone. In ms, Valgrind's start-up on a loaded machine can outlast the
# phases many times over and leave the first band a sliver in the
# screenshot.
memtime -q --detailed-freq=1 --time-unit=B --memtime-out-file="$T/marks.out" "$M" >/dev/null 2>"$T/marks.err"
check "memtime profile with marks" grep -q '^mark: ' "$T/marks.out.memtime"

K=$(build_prog kill_grow.c) || { not_ok "build kill_grow.c"; exit 1; }
memtime_bg -q --detailed-freq=2 --time-unit=B \
  --memtime-out-file="$T/killed.out" "$K" 30 1 >/dev/null 2>"$T/killed.err"
JOB=$!
# Waits for a state, not a time: three detailed snapshots of at least
# 100 kB of heap on disk. Eight call sites (DEPTH 1), so every one holds
# far more than the 1% threshold.
trees100k() { [ -f "$1" ] || { echo 0; return; }; awk '/^mem_heap_B=/{h=substr($0,12)} /^heap_tree=detailed/{if (h >= 100000) n++} END{print n+0}' "$1" 2>/dev/null; }
three_trees() { [ "$(trees100k "$T/killed.out")" -ge 3 ]; }
wait_until 300 "$JOB" three_trees
kill_wait "$JOB"
check "killed profile with three detailed snapshots over 100 kB" test "$(trees100k "$T/killed.out")" -ge 3

cp "$MT_SRC/tests/data/massif-cxx.out" "$T/massif.out"

# Hostile names: markup, quotes, '&', an entity, ';' in [u8; 8], U+2028.
EVIL='</script><img src=x onerror=alert(1)>'
LS=$(printf '\342\200\250')
{
  printf 'desc: --evil\ncmd: ./prog "%s" & '"'"'q'"'"'\ntime_unit: i\n' "$EVIL"
  printf '#-----------\nsnapshot=0\n#-----------\ntime=0\nmem_heap_B=0\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=empty\n'
  printf '#-----------\nsnapshot=1\n#-----------\ntime=1000\nmem_heap_B=3000\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=detailed\n'
  printf 'n2: 3000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n'
  printf ' n1: 2000 0x401000: %s (evil.c:1)\n' "$EVIL"
  printf '  n0: 2000 0x402000: main "quoted" & '"'"'single'"'"' &amp; (evil.c:9)\n'
  printf ' n0: 1000 0x403000: fn<[u8; 8]>%s</title><svg onload=alert(2)> (x.c:2)\n' "$LS"
  printf '#-----------\nsnapshot=2\n#-----------\ntime=2000\nmem_heap_B=1000\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=empty\n'
} >"$T/evil.out"
printf 'memtime-companion: 1\ntime_unit: i\nmark: time=500 %s\n' "$EVIL" >"$T/evil.out.memtime"

# ---- each report in the browser ----
for name in marks massif killed evil; do
  args=
  [ $name = massif ] && args=--no-companion
  # grow() has eight callers and holds nothing itself: an allocation
  # wrapper, whose callers the page's sites would be (t627); kept here so
  # that the page's top sites are the file's tree's.
  [ $name = killed ] && args=--keep-wrappers
  if ! vis $args -o "$T/$name.html" "$T/$name.out" 2>"$T/$name.vis.err"; then
    not_ok "$name: memtime-vis -o $name.html"; cat "$T/$name.vis.err" | diag "$(cat)"; continue
  fi
  browse "$T/$name.dom" --dump-dom "file://$T/$name.html"
  if [ "$(consoles "$T/$name.dom")" = 0 ] && grep -q 'data-drawn-ms="[0-9]*"' "$T/$name.dom"; then
    ok "$name: the page draws itself with nothing on the console ($(stat -c %s "$T/$name.html") bytes)"
  else
    not_ok "$name: the page draws itself with nothing on the console"; grep CONSOLE "$T/$name.dom.err" | head -5 | diag "$(cat)"
  fi
  browse "$T/$name.shot" --screenshot="$T/$name.png" --window-size=1200,900 "file://$T/$name.html"
  colour=$(hc json "$T/$name.html" timeline bands 0 colour | tr -d '"#')
  size=$("$PNGCHECK" "$T/$name.png" size 2>&1)
  n=$("$PNGCHECK" "$T/$name.png" count "$colour" 2>/dev/null || echo 0)
  if [ "$size" = "1200 900" ] && [ "$n" -ge 400 ]; then
    ok "$name: the screenshot decodes ($size) and shows the first band, #$colour, in $n pixels"
  else
    not_ok "$name: the screenshot decodes and shows the first band (#$colour)"; diag "size '$size', $n pixels"
  fi
done

# ---- #snapshot=N selects N: its title, its top sites and bytes ----
# N: the detailed snapshot with the most heap that is not the peak (the
# page's default).
for name in marks massif killed; do
  peak=$(hc json "$T/$name.html" peak snapshot)
  N=$(awk '/^snapshot=/{n=substr($0,10)} /^mem_heap_B=/{h=substr($0,12)} /^heap_tree=detailed/{print h, n}' \
      "$T/$name.out" | awk -v p="$peak" '$2 != p' | sort -n | tail -1 | cut -d' ' -f2)
  browse "$T/$name.sel" --dump-dom "file://$T/$name.html#snapshot=$N"
  hc dom "$T/$name.sel" >"$T/$name.sel.txt"
  case $(head -1 "$T/$name.sel.txt") in
    "Snapshot $N at "*) ok "$name: #snapshot=$N selects snapshot $N";;
    *) not_ok "$name: #snapshot=$N selects snapshot $N"; diag "title: $(head -1 "$T/$name.sel.txt")";;
  esac
  # named as everywhere else (memtime-vis.1, NAMES): --json's name for the
  # site at each address
  vis --json "$T/$name.out" >"$T/$name.json"
  hc sites "$T/$name.out" "$N" "$T/$name.json" >"$T/$name.want"
  tail -n +2 "$T/$name.sel.txt" >"$T/$name.got"
  if [ -s "$T/$name.want" ] && cmp -s "$T/$name.want" "$T/$name.got"; then
    ok "$name: the DOM lists snapshot $N's $(wc -l <"$T/$name.want") top sites with the file's bytes"
  else
    not_ok "$name: the DOM lists snapshot $N's top sites with the file's bytes"; diff "$T/$name.want" "$T/$name.got" | head -10 | diag "$(cat)"
  fi
done

# ---- the colour scheme follows the browser's preference ----
browse "$T/dark.shot" --force-dark-mode --screenshot="$T/dark.png" --window-size=1200,900 "file://$T/marks.html"
is "$("$PNGCHECK" "$T/marks.png" at 3 3):$("$PNGCHECK" "$T/dark.png" at 3 3)" "FFFFFF:16181B" \
  "light page by default, dark when the browser prefers dark"

# ---- a user's keys, clicks, hover and print (DevTools protocol, tests/cdp.py) ----
peak=$(hc json "$T/marks.html" peak snapshot)
last=$(( $(hc json "$T/marks.html" snapshots) - 1 ))
timeout 300 python3 "$MT_SRC/tests/cdp.py" "$T/marks.html" >"$T/cdp.txt" 2>"$T/cdp.err"
cdp() { sed -n "s/^$1 //p" "$T/cdp.txt" | sed -n "${2:-1}p"; }
is "$(cdp focus)" "svg.timeline" "Tab focuses the chart"
is "$(sed -n 's/^key \([A-Za-z]*\) Snapshot \([0-9]*\) at .*/\1 \2/p' "$T/cdp.txt" | tr '\n' ' ')" \
  "ArrowRight $((peak + 1)) ArrowLeft $peak ArrowLeft $((peak - 1)) End $last Home 0 " \
  "arrow keys move between snapshots from the peak, End and Home jump to the ends"
is "$(sed -n 's/^click \([a-z]*\) Snapshot \([0-9]*\) at .* \(#.*\)$/\1 \2 \3/p' "$T/cdp.txt" | tr '\n' ' ')" \
  "right $last #snapshot=$last left 0 #snapshot=0 " "a click selects the nearest snapshot and the URL follows"
case $(cdp hover) in
  "snapshot "*" at "*"total "*) ok "hovering shows the read-out: $(cdp hover | cut -c1-60)";;
  *) not_ok "hovering shows the read-out"; diag "$(cat "$T/cdp.txt" "$T/cdp.err")";;
esac
is "$(cdp print)" "none block" "printed: no controls, every tree level shown"
is "$(cdp errors)" 0 "no exception or console message while used"

# ---- hostile names are text ----
hc tags "$T/evil.html" >"$T/evil.tags"
is "$(grep -E '^(img|svg|title|script) ' "$T/evil.tags" | tr '\n' ' ')" "script 4 title 1 " \
  "evil: the file holds its four scripts (data, columns, groupings, code) and one title, no element from the names"
hc tags "$T/evil.dom" >"$T/evil.domtags"
check "evil: after the script ran, no img element exists" sh -c "! grep -q '^img ' '$T/evil.domtags'"
hc dom "$T/evil.dom" >"$T/evil.dom.txt"
check "evil: the hostile site name is listed as text with its bytes" \
  grep -qxF "2000	$EVIL (evil.c:1)" "$T/evil.dom.txt"
check "evil: the name with quotes and '&amp;' reaches the tree as text" \
  grep -qF '">main "quoted" &amp; '"'"'single'"'"' &amp;amp; (evil.c:9)</span>' "$T/evil.dom"
is "$(hc json "$T/evil.html" trees snapshots 0 nodes 3 3)" "$(printf '%s' "fn<[u8; 8]>$LS</title><svg onload=alert(2)> (x.c:2)" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))')" \
  "evil: U+2028 and markup survive the JSON round trip exactly"
check "evil: the mark's label is drawn as text" \
  grep -qE '<text x="[0-9.]+" y="[0-9.]+">&lt;/script&gt;&lt;img src=x onerror=alert\(1\)&gt;<title>' "$T/evil.dom"
finish
