#!/usr/bin/env bash
# t683-follow-group-by: memtime-vis --follow --group-by: the live
# view regroups each read of the profile, so its top sites are the groups.
# The profile is tests/detail-gen.py's (every group's bytes known by
# construction). Without a terminal the one line per change names the
# largest group of the latest tree with its bytes; in a tmux pane the
# view's list of sites shows the largest groups with their bytes. Without
# --group-by the view lists the sites, as before. Waits are on output,
# never on time.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/follow-lib.sh"
need python3
plan 6
cd "$T" || exit 1
python3 "$MT_SRC/tests/detail-gen.py" p.out ans.json || exit 1
# The run is over (end: exit): the plain mode prints its line and ends by
# itself, and the view shows the peak's tree.
sed -i '1a end: exit' p.out.memtime
# The peak tree's largest group and its bytes, as the view prints them
# (three significant digits).
want() {
  python3 - "$1" <<'PY'
import json, sys
a = json.load(open('ans.json'))[sys.argv[1]]
peak = a[max(a, key=lambda s: sum(a[s].values()))]
k = max(peak, key=lambda g: peak[g])
b, u = float(peak[k]), 'B'
for unit in ('KiB', 'MiB'):
    if b >= 1024:
        b, u = b / 1024, unit
print('%s %s %s' % ('%.2f' % b if b < 10 else '%.1f' % b if b < 100 else '%.0f' % b, u, k))
PY
}
for g in crate object; do
  timeout 120 "$MT_VIS" --follow --group-by=$g p.out </dev/null >$g.lines 2>$g.err
  w=$(want $g)
  check "--follow --group-by=$g: the line names the largest group, $w" grep -qF " top $w [" $g.lines
done
timeout 120 "$MT_VIS" --follow p.out </dev/null >site.lines 2>site.err
check "--follow without --group-by: the largest site, as before" \
  grep -qF ' top 1.14 MiB alpha::store::Store::insert (in noded) [' site.lines
timeout 120 "$MT_VIS" --follow --group-by=function p.out </dev/null >fn.lines 2>fn.err
check "--follow --group-by=function: the function without its hash, object and address" \
  grep -qF ' top 1.14 MiB alpha::store::Store::insert [' fn.lines

# The terminal view: the list of sites is the list of groups.
view_start 160 40 --follow --group-by=crate p.out
wait_pane 'alpha'
check "pane: the view lists the crates (alpha, app, beta) as its sites" \
  eval 'pane_has "1[.]60 MiB.*alpha" && pane_has "1[.]12 MiB.*app" && pane_has "375 KiB.*beta"'
check "pane: no site of the file is listed under crate" sh -c "! tmux -L '$_follow_sock' -f /dev/null capture-pane -p -t follow | grep -q 'Store::insert'"
view_end
follow_done
finish
