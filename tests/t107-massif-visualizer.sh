#!/usr/bin/env bash
# t107-massif-visualizer: massif-visualizer itself (Debian's package) reads
# memtime's profiles unchanged, as the README promises. It runs headless under
# xvfb-run with four profiles (the default ms unit; --stacks=yes with
# --time-unit=B from C++; --pages-as-heap=yes; a profile left by a program
# killed with SIGKILL) and one profile cut short as a control. For each file
# it logs what its parser read ("loaded massif file", the command, time
# unit, snapshot count, peak snapshot and cost) or "invalid line N": the
# test waits for those lines (a failure-only timeout, no sleep decides
# anything), compares them with the files, then takes a screenshot of the
# window with ImageMagick's import once it is drawn (polled, same timeout)
# and checks it decodes to a drawn screen.
. "$(dirname "$0")/lib.sh"
need c++ massif-visualizer xvfb-run xauth import
plan 22

PNGCHECK=$(build_pngcheck) || { not_ok "build tests/pngcheck.c"; exit 1; }
hc=$(build_prog heap_c.c) || { not_ok "build heap_c.c"; exit 1; }
hx=$(build_prog heap_cxx.cc) || { not_ok "build heap_cxx.cc"; exit 1; }
pu=$(build_prog pages_unmap.c) || { not_ok "build pages_unmap.c"; exit 1; }
cr=$(build_prog heap_crash.c) || { not_ok "build heap_crash.c"; exit 1; }
memtime -q --memtime-out-file="$T/ms.out" "$hc" >/dev/null 2>&1
memtime -q --stacks=yes --time-unit=B --memtime-out-file="$T/stacks.out" "$hx" >/dev/null 2>&1
memtime -q --pages-as-heap=yes --memtime-out-file="$T/pages.out" "$pu" 1234 >/dev/null 2>&1
mkdir -p "$T/k"
memtime -q --memtime-out-file="$T/k/killed.out" "$cr" kill >/dev/null 2>&1
cp "$T/k/killed.out" "$T/killed.out"
files="ms stacks pages killed"
# The control: the default profile cut in the middle of its first tree line
# ("nK: <bytes> (heap allocation functions)...", cut to 8 characters).
{ sed -n '1,/^heap_tree=detailed$/p' "$T/ms.out"
  sed -n '/^heap_tree=detailed$/{n;p;q}' "$T/ms.out" | head -c 8; } >"$T/cut.out"

# Inside the virtual display: start the viewer on every file, wait until its
# log accounts for each of them and its window is drawn (screenshots until
# less than 90% of the screen is black), stop the viewer.
cat >"$T/run.sh" <<'SH'
cd "$1" || exit 1
pngcheck=$2
massif-visualizer cut.out ms.out stacks.out pages.out killed.out >viewer.log 2>&1 &
v=$!
end=$(( SECONDS + 300 ))
until [ "$(grep -c -e '^peak cost:' -e '^invalid line' viewer.log)" -ge 5 ]; do
  kill -0 "$v" 2>/dev/null && [ "$SECONDS" -lt "$end" ] || break
  sleep 0.2
done
until import -window root screen.png 2>/dev/null \
      && [ "$("$pngcheck" screen.png count 000000)" -lt $((1280 * 900 * 9 / 10)) ]; do
  kill -0 "$v" 2>/dev/null && [ "$SECONDS" -lt "$end" ] || break
  sleep 0.5
done
kill "$v" 2>/dev/null; wait "$v" 2>/dev/null
exit 0
SH
xvfb-run -a -s "-screen 0 1280x900x24" bash "$T/run.sh" "$T" "$PNGCHECK" >"$T/xvfb.log" 2>&1
log=$T/viewer.log
[ -s "$log" ] || { diag "$(cat "$T/xvfb.log")"; }

# field FILE KEY: what the viewer logged for FILE after "KEY: ".
field() {
  awk -v f="file://$T/$1.out" -v k="$2: " '
    /^loaded massif file: / { on = index($0, "(\"" f "\")") > 0; next }
    on && index($0, k) == 1 { print substr($0, length(k) + 1); exit }' "$log"
}
unq() { sed 's/^"\(.*\)"$/\1/'; }
for f in $files; do
  out=$T/$f.out
  check "$f: massif-visualizer loaded it" grep -qF "loaded massif file: QUrl(\"file://$out\")" "$log"
  is "$(field $f command | unq)" "$(sed -n 's/^cmd: //p' "$out")" "$f: its command as in the file"
  is "$(field $f 'time unit' | unq)" "$(sed -n 's/^time_unit: //p' "$out")" "$f: its time unit as in the file"
  is "$(field $f snapshots)" "$(grep -c '^snapshot=' "$out")" "$f: all $(grep -c '^snapshot=' "$out") snapshots"
  # "peak: snapshot # N after T "unit"" and "peak cost: "X KiB" heap ...".
  # The viewer re-picks the peak itself (its parser.cpp: a killed run may
  # have marked a stale one): from the snapshot marked peak, any detailed
  # snapshot of larger cost replaces it. Its cost is heap + extra heap
  # (stacks perhaps too): both readings are computed, and where they differ
  # either is accepted. Checked: that snapshot, its time, and its heap to
  # the viewer's rounding.
  want=$(for rule in he hes; do awk -F= -v rule=$rule '/^snapshot=/{s=$2} /^time=/{t=$2}
      /^mem_heap_B=/{h=$2} /^mem_heap_extra_B=/{x=$2} /^mem_stacks_B=/{k=$2}
      /^heap_tree=/ { c = h + x + (rule == "hes" ? k : 0); n++; S[n] = s " " t " " h; C[n] = c; K[n] = $2
                      if ($2 == "peak") { best = S[n]; bc = c } }
      END { for (i = 1; i <= n; i++) if (K[i] != "empty" && (best == "" || C[i] > bc)) { best = S[i]; bc = C[i] }
            print best }' "$out"; done | sort -u)
  # (The viewer prints the time as a double: 6 significant digits.)
  got=$(field $f peak | sed -n 's/^snapshot # \([0-9]*\) after \([-+.e0-9]*\) .*/\1 \2/p')
  cost=$(field $f 'peak cost' | sed -n 's/^"\([0-9.]*\) \([KMG]*i*B\)" heap.*/\1 \2/p')
  match=$(printf '%s\n' "$want" | while read -r ws wt wh; do
    [ "${got% *}" = "$ws" ] && awk -v c="$cost" -v h="$wh" -v gt="${got#* }" -v wt="$wt" 'BEGIN { split(c, a, " ");
       if (gt == "" || (gt - wt) ^ 2 > (wt * 1e-5) ^ 2) exit 1;
       m = a[2] == "B" ? 1 : a[2] == "KiB" ? 1024 : a[2] == "MiB" ? 1048576 : 1073741824;
       d = index(a[1], ".") ? 10 ^ -(length(a[1]) - index(a[1], ".")) : 1;
       exit !(a[1] != "" && (a[1] * m - h) ^ 2 <= (d * m / 2 + 1) ^ 2) }' && echo yes
  done)
  if [ -n "$match" ]
  then ok "$f: its peak (snapshot, time, heap $cost) as in the file"
  else not_ok "$f: its peak"; diag "viewer: $(field $f peak) / $(field $f 'peak cost')" "file: snapshot, time, heap: $want"; fi
done
check "the control cut short is refused (invalid line), not loaded" \
  sh -c "grep -q '^invalid line' '$log' && ! grep -qF 'file://$T/cut.out' '$log'"
size=$("$PNGCHECK" "$T/screen.png" size 2>&1)
black=$("$PNGCHECK" "$T/screen.png" count 000000 2>&1)
check "the screenshot decodes ($size) and shows the window ($black of $((1280 * 900)) pixels black)" \
  test "$size" = "1280 900" -a "$black" -lt $((1280 * 900 * 9 / 10))
[ "${MT_KEEP_SCREENSHOT:-}" ] && cp "$T/screen.png" "$MT_KEEP_SCREENSHOT"
finish
