#!/usr/bin/env bash
# t302: end to end. A real program (tests/progs/chart_phases.c) runs under
# Massif (the oracle's own file) and under memtime when its tool is built;
# memtime-vis draws each file, and the PNG's pixels must agree with the file:
# the peak line at the snapshot with the largest total, the top-ranked
# site's band at its detailed snapshots, the total line at every step (at
# every snapshot's own column for memtime's file, drawn from its outline).
. "$(dirname "$0")/lib.sh"
need gnuplot
[ -x "$MT_VIS" ] || plan_skip "memtime-vis not built ($MT_VIS)"
command -v valgrind >/dev/null || plan_skip "valgrind not installed"
PNGCHECK=$(build_pngcheck) || plan_skip "cannot build tests/pngcheck.c"
PROG=$(build_prog chart_phases.c) || plan_skip "cannot build chart_phases.c"
tools="massif"
[ -x "$MT_INPLACE/memtime-amd64-linux" ] && tools="$tools memtime"
plan 12

for tool in massif memtime; do
  case " $tools " in *" $tool "*) ;; *)
    for i in 1 2 3 4 5 6; do skip "memtime tool not built"; done; continue;; esac
  out="$T/$tool.out"
  # memtime without its RSS line: this test reads the bands and the total
  # line from the pixels, and the RSS line (t595, t596, t305), whose steps
  # fall where the readings' pacing puts them, would cross them anywhere.
  extra=; [ $tool = memtime ] && extra=--rss=no
  $tool $extra --time-unit=B --detailed-freq=2 --massif-out-file="$out" "$PROG" 2>"$T/$tool.log" \
    || { for i in 1 2 3 4 5 6; do not_ok "$tool ran"; done; continue; }
  MEMTIME_VIS_DEBUG_LAYOUT=1 "$MT_VIS" "$out" -o "$T/$tool.png" 2>"$T/$tool.layout"
  check "$tool: memtime-vis draws its file" test -s "$T/$tool.png"
  read -r X0 Y0 X1 Y1 <<<"$(awk '$2=="plot"{print $3,$4,$5,$6}' "$T/$tool.layout")"
  read -r T0 T1 <<<"$(awk '$2=="x"{print $3,$4}' "$T/$tool.layout")"
  YMAX=$(awk '$2=="y"{print $3}' "$T/$tool.layout")
  PEAKX=$(awk '$2=="peak"{print $3}' "$T/$tool.layout")
  TOP=$(awk '$2=="band" && $3==0 {print $4; exit}' "$T/$tool.layout")
  grep -q 'layout band 0 4E79A7 cache_alloc (chart_phases.c:' "$T/$tool.layout"
  check "$tool: the top-ranked site is cache_alloc, named by function and file:line" test $? = 0
  # Per snapshot from the file: time total top-site-bytes(detailed) kind
  awk '/^time=/{t=substr($0,6)} /^mem_heap_B=/{h=substr($0,12)} /^mem_heap_extra_B=/{e=substr($0,18)}
       /^mem_stacks_B=/{s=substr($0,14)} /^heap_tree=/{k=substr($0,11); if (k=="empty") print t, h+e+s, -1, k}
       /^ n[0-9]+: [0-9]+ 0x[0-9A-F]+: cache_alloc /{ if (!done[t]++) print t, h+e+s, $2, k }
       /^heap_tree=(detailed|peak)/{ pend=1 } ' "$out" >"$T/$tool.snaps"
  # map TIME BYTES -> "X Y"
  map() { awk -v t="$1" -v v="$2" -v a="$T0" -v b="$T1" -v x0="$X0" -v x1="$X1" -v y0="$Y0" -v y1="$Y1" -v m="$YMAX" \
            'BEGIN{ x = x0 + (t-a)*(x1-x0)/(b-a); printf "%d %d\n", int(x+0.5), y1 - int(v*(y1-y0)/m + 0.5) }'; }
  # The peak: the first snapshot with the largest total.
  read -r pt ptot <<<"$(awk '/^time=/{t=substr($0,6)} /^mem_heap_B=/{h=substr($0,12)} /^mem_heap_extra_B=/{e=substr($0,18)}
       /^mem_stacks_B=/{ v=h+e+substr($0,14); if (v>best){best=v; bt=t} } END{print bt, best}' "$out")"
  read -r px py <<<"$(map "$pt" "$ptot")"
  is "$PEAKX" "$px" "$tool: the peak line at the largest total's time"
  # Check the band at every detailed snapshot whose step is at least 3 px wide.
  times=$(awk '/^time=/{print substr($0,6)}' "$out" | tr '\n' ' ')
  bad=0 n=0
  while read -r t tot site kind; do
    [ "$site" -gt 0 ] 2>/dev/null || continue
    next=$(for x in $times; do [ "$x" -gt "$t" ] && { echo "$x"; break; }; done)
    [ -n "$next" ] || continue
    read -r xa _ <<<"$(map "$t" 0)"; read -r xb _ <<<"$(map "$next" 0)"
    [ $((xb - xa)) -ge 3 ] || continue
    read -r _ yt <<<"$(map "$t" "$site")"
    [ $((Y1 - yt)) -ge 6 ] || continue
    x=$(( (xa + xb) / 2 )); y=$(( (yt + Y1) / 2 ))
    n=$((n+1))
    # A 1-px horizontal gridline may cross the spot: one of two rows is enough.
    c=$("$PNGCHECK" "$T/$tool.png" at "$x" "$y")
    [ "$c" = 4E79A7 ] || c=$("$PNGCHECK" "$T/$tool.png" at "$x" $((y + 1)))
    [ "$c" = 4E79A7 ] || { bad=$((bad+1)); diag "t=$t x=$x y=$y got $c"; }
  done <"$T/$tool.snaps"
  check "$tool: cache_alloc's band where the file puts it ($n snapshots checked)" test "$n" -ge 5 -a "$bad" = 0
  # The total line at the top of the stack at the same places. Massif's
  # file is drawn from its snapshots: the line holds each total until the
  # next one. memtime's carries the exact outline, which the line follows
  # between snapshots (t305), so there the line passes through each
  # snapshot's total in the snapshot's own column.
  bad=0
  while read -r t tot site kind; do
    next=$(for x in $times; do [ "$x" -gt "$t" ] && { echo "$x"; break; }; done)
    [ -n "$next" ] || continue
    read -r xa _ <<<"$(map "$t" 0)"; read -r xb yt <<<"$(map "$next" "$tot")"
    [ $((xb - xa)) -ge 3 ] || continue
    x=$(( (xa + xb) / 2 ))
    [ $tool = memtime ] && x=$xa
    c=$("$PNGCHECK" "$T/$tool.png" at "$x" "$yt")
    # In its own column the peak's red line (test 9) stands over the total.
    [ $tool = memtime ] && [ "$c" = D62728 ] && continue
    [ "$c" = 1A1A1A ] || { bad=$((bad+1)); diag "t=$t x=$x y=$yt got $c"; }
  done <"$T/$tool.snaps"
  is "$bad" 0 "$tool: the total line at every snapshot's total"
  "$MT_VIS" "$out" --gnuplot "$T/$tool.gp" 2>/dev/null
  check "$tool: gnuplot script written" test -s "$T/$tool.gp"
done
finish
