#!/usr/bin/env bash
# t615-group-by: memtime-vis --group-by, the view's --threshold and the
# allocation wrappers found (model/groups.h), on a profile crafted by
# tests/detail-gen.py whose every group is known by construction (Rust
# crates of our own with impls, closures, hashes and v0 disambiguators, C++
# namespaces, C libraries, an unnamed function, my_malloc with 50 callers):
#  - the keys of single labels (tests/groups-unit.c, built against the
#    visualizer's sources under the sanitizers);
#  - every grouping's bytes per group at the peak in --json, and at every
#    detailed snapshot in the CSV series, equal the generator's answers
#    (checked by a python reader that shares nothing with the C code);
#  - the wrapper's callers are the sites, my_malloc is listed in the
#    summary and the JSON; --keep-wrappers keeps it as a site;
#  - --threshold=P merges exactly the groups below P% into one line;
#  - that line, when it holds more than 5% of the heap, names its three
#    largest parts by a coarser grouping (crate for Rust, namespace for
#    C++, object; object by itself), in the summary and in --json's rest_by;
#  - without the detail (--no-companion) the file's "in N places" stays;
#  - no two groups print as the same text; diff, check and --growth group
#    alike (the growth rows' bytes are the crates' as constructed);
#  - the companion's detail records are checked (bad ones: one line).
. "$(dirname "$0")/lib.sh"
need python3
plan 37
cd "$T" || exit 1
B=$MT_BUILD

# 1. The keys of single labels.
if cc -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -fsanitize=address,undefined \
     -I "$MT_SRC/visualizer" -I "$B/visualizer" -I "$B" "$MT_SRC/tests/groups-unit.c" \
     "$MT_SRC/visualizer/model/groups.c" "$MT_SRC/visualizer/model/group_cut.c" "$MT_SRC/visualizer/model/group_default.c" "$MT_SRC/visualizer/model/group_keys.c" "$MT_SRC/visualizer/model/wrappers.c" "$MT_SRC/visualizer/model/sites.c" \
     "$MT_SRC/visualizer/model/names.c" "$MT_SRC/visualizer/model/label.c" "$MT_SRC/visualizer/model/full_name.c" "$MT_SRC/visualizer/model/short_name.c" "$MT_SRC/visualizer/base/strbuf.c" "$MT_SRC/visualizer/model/demangle.c" \
     "$MT_SRC/visualizer/model/profile.c" "$MT_SRC/visualizer/base/grow.c" "$MT_SRC/visualizer/base/ptrmap.c" -liberty -lm -o unit 2>unit.err &&
   ./unit >unit.out 2>&1; then
  ok "group keys: $(grep -c '^ok' unit.out) labels with known keys"
else
  not_ok "group keys"; diag "$(cat unit.err; grep -v '^ok' unit.out)"
fi

python3 "$MT_SRC/tests/detail-gen.py" p.out ans.json || exit 1

# 2. Every grouping at the peak (JSON) and at every detailed snapshot (CSV).
# A group's or site's full name (--json's "site", the CSV header) is its key
# without Rust hashes ("::h<16 hex>", v0's "[hex]" after a crate): the
# naming's rules (model/names.h), checked on their own by t617.
cat >full.py <<'PY'
import re
def full(key):
    return re.sub(r'\[[0-9a-f]+\]', '', re.sub(r'::h[0-9a-f]{16}\b', '', key))
PY
cat >oracle.py <<'PY'
import csv, json, sys
from full import full
ans = json.load(open(sys.argv[1]))
group, mode, path = sys.argv[2], sys.argv[3], sys.argv[4]
want_by_snap = {s: {full(k): v for k, v in g.items()} for s, g in ans[group].items()}
if mode == 'json':
    d = json.load(open(path))
    snap = str(d['peak']['sites_snapshot'])
    got = {s['site']: s['bytes'] for s in d['peak']['sites']}
    if len(got) != len(d['peak']['sites']):
        sys.exit('two sites print as the same text')
    want = {k: v for k, v in want_by_snap[snap].items() if v}
    if got != want:
        sys.exit('snapshot %s: got %s, want %s' % (snap, sorted(got.items()), sorted(want.items())))
else:
    rows = list(csv.reader(open(path)))
    head = rows[0]
    checked = 0
    for r in rows[1:]:
        snap = r[0]
        if snap not in want_by_snap:
            continue
        want = want_by_snap[snap]
        for k, name in enumerate(head[3:head.index('other')], start=3):
            if name not in want:
                sys.exit('column %r is not a group' % name)
            if int(r[k]) != want[name]:
                sys.exit('snapshot %s, %s: %s, want %s' % (snap, name, r[k], want[name]))
            checked += 1
        # The rest (other) is every group not shown.
        shown = set(head[3:head.index('other')])
        rest = sum(v for n, v in want.items() if n not in shown)
        if int(r[head.index('other')]) != rest:
            sys.exit('snapshot %s: other %s, want %s' % (snap, r[head.index('other')], rest))
    if checked == 0:
        sys.exit('no group column checked')
PY
for g in function object crate namespace site; do
  vis --json --group-by=$g --threshold=0 p.out >$g.json 2>err
  check "--group-by=$g: every group's bytes at the peak, as constructed" python3 oracle.py ans.json $g json $g.json
done
vis --json --group-by=namespace --namespace-depth=2 --threshold=0 p.out >ns2.json 2>err
check "--group-by=namespace --namespace-depth=2: app::net, std::vector, ..." python3 oracle.py ans.json namespace2 json ns2.json
for g in crate object; do
  vis --group-by=$g --threshold=0 --top=20 p.out -o $g.csv 2>err
  check "--group-by=$g: the CSV series at every detailed snapshot, as constructed" python3 oracle.py ans.json $g csv $g.csv
done

# 3. The default: Rust holds most of the named heap -> crate.
vis --json p.out >auto.json
is "$(json_get auto.json 'd["grouping"]["by"], d["grouping"]["by_default"]')" \
   "crate True" "the default grouping of a Rust-heavy profile is crate, and says so"

# 4. The wrapper.
vis --summary-only --group-by=function p.out >sum.txt
check "the summary lists my_malloc as a wrapper whose callers are the sites" \
  grep -q 'my_malloc (in noded): known by name, 50 distinct calling functions; its callers are the sites' sum.txt
check "my_malloc is not a site; its callers are" \
  python3 -c 'import json; s=[x["site"] for x in json.load(open("function.json"))["peak"]["sites"]]; assert not any("my_malloc" in x for x in s) and "caller_49" in s'
vis --json --group-by=function --keep-wrappers --threshold=0 p.out >keep.json
check "--keep-wrappers: my_malloc is a site holding all its callers' bytes" \
  python3 -c 'import json; d=json.load(open("keep.json")); s={x["site"]: x["bytes"] for x in d["peak"]["sites"]}; assert s["my_malloc"] == sum((k+1)*100*4 for k in range(50)), s; assert not any(x.startswith("caller_") for x in s)'

# 5. The view's threshold, and the fallback groups of function and file
# groupings (groups.h): the groups below P% of the heap, by the coarser
# grouping of the program's code (crate for this Rust-heavy profile,
# namespace for the C++ one; crate, then object, for files), then what is
# left by the second level (file; object for files), become "other
# functions in KEY" where they hold P% together; the rest, two or more, is
# one line with their sum. Summed here from the generator's table of each
# function's groups (groups_of).
cat >fallback.py <<'PY'
import json, sys
from full import full
ans, group, levels, thr, path = sys.argv[1:6]
ans = json.load(open(ans)); d = json.load(open(path))
snap = str(d['peak']['sites_snapshot'])
heap = d['peak']['heap_bytes']
of = {full(k): v for k, v in ans['groups_of'].items()}
fns = {full(k): v for k, v in ans['function'][snap].items() if v}
key = (lambda f: f) if group == 'function' else (lambda f: of[f][group])
totals = {}
for f, b in fns.items():
    totals[key(f)] = totals.get(key(f), 0) + b
cut = float(thr) * heap / 100
want = {g: b for g, b in totals.items() if b >= cut}
small = {g for g, b in totals.items() if b < cut}
what = 'files' if group == 'file' else 'functions'
for coarse in levels.split(','):
    parts = {}
    for g in small:
        c = of[next(f for f in fns if key(f) == g)][coarse]
        parts.setdefault(c, []).append(g)
    for c, gs in parts.items():
        if sum(totals[g] for g in gs) >= cut:
            label = 'other %s %s' % (what, c) if c.startswith('(') else 'other %s in %s' % (what, c)
            want[label] = sum(totals[g] for g in gs)
            small -= set(gs)
if len(small) >= 2:
    want["in %d groups below the view's threshold (%.2f%%)" % (len(small), float(thr))] = \
        sum(totals[g] for g in small)
else:
    want.update({g: totals[g] for g in small})
got = {s['site']: s['bytes'] for s in d['peak']['sites']}
assert got == want, (sorted(got.items()), sorted(want.items()))
assert group != 'function' or any(k.startswith('other ') for k in want), 'the test wants a fallback group'
PY
python3 "$MT_SRC/tests/detail-gen.py" cxx.out anscxx.json 0 || exit 1   # no alpha: C++-heavy
fallback() {  # FILE ANSWERS GROUP LEVELS THRESHOLD
  vis --json --group-by=$3 --threshold=$5 $1 >fb-$3-$5.json && python3 fallback.py $2 $3 $4 $5 fb-$3-$5.json
}
check "--group-by=function of Rust, --threshold=5: fallback groups by crate, then file; the rest one line" \
  fallback p.out ans.json function crate,file 5
check "--group-by=function of C++ (no Rust): fallback groups by namespace, then file" \
  fallback cxx.out anscxx.json function namespace,file 5
check "--group-by=file: no two files' groups of one crate or object hold 1%: the rest one line" \
  fallback p.out ans.json file crate,object 1

# 5b. A remainder holding more than 5% of the heap says what it holds, by a
# coarser grouping, in the summary (the line under it) and the JSON
# (rest_by); its parts are summed here from the generator's table of each
# function's object, crate and namespace (groups_of).
cat >rest.py <<'PY'
import json, sys
from full import full
ans, group, coarse, thr, jpath, tpath = sys.argv[1:7]
ans = json.load(open(ans)); d = json.load(open(jpath)); text = open(tpath).read().split('\n')
snap = str(d['peak']['sites_snapshot'])
assert snap == str(d['peak']['snapshot']), 'the peak has its tree'
heap, total = d['peak']['heap_bytes'], d['peak']['total_bytes']
of = {full(k): v for k, v in ans['groups_of'].items()}
fns = {full(k): v for k, v in ans['function'][snap].items() if v}
totals = {}
for f, b in fns.items():
    g = f if group == 'function' else of[f][group]
    totals[g] = totals.get(g, 0) + b
small = {g for g, b in totals.items() if b * 100 < float(thr) * heap}
parts = {}
for f, b in fns.items():
    if (f if group == 'function' else of[f][group]) in small:
        parts[of[f][coarse]] = parts.get(of[f][coarse], 0) + b
want = sorted(parts.items(), key=lambda x: (-x[1], x[0]))[:3]
rest = [s for s in d['peak']['sites'] if s['site'].startswith('in %d groups below' % len(small))]
assert len(rest) == 1, d['peak']['sites']
assert rest[0]['bytes'] * 100 > 5 * heap, 'the test wants a remainder above 5%'
got = rest[0]['rest_by']
assert got == {'by': coarse, 'groups': [{'name': n, 'bytes': b} for n, b in want]}, (got, want)
line = ' ' * 25 + 'by %s%s, largest: ' % (coarse, ' (nothing coarser)' if coarse == group else '') + \
    ', '.join('%s %.1f%%' % (n, 100.0 * b / total) for n, b in want)
at = [i for i, l in enumerate(text) if l.endswith(rest[0]['site'])]
assert len(at) == 1 and text[at[0] + 1] == line, (text[at[0]:at[0] + 2], line)
PY
rest() {  # FILE ANSWERS GROUP COARSE THRESHOLD: the remainder read by COARSE
  vis --json --group-by=$3 --threshold=$5 $1 >rest-$3.json &&
    vis --summary-only --group-by=$3 --threshold=$5 $1 >rest-$3.txt &&
    python3 rest.py $2 $3 $4 $5 rest-$3.json rest-$3.txt
}
check "--group-by=crate: its remainder by object" rest p.out ans.json crate object 10
check "--group-by=object: nothing coarser, its remainder's largest objects, and says so" \
  rest p.out ans.json object object 10
vis --json cxx.out >small-rest.json && vis --summary-only cxx.out >small-rest.txt
check "a remainder of at most 5% of the heap (1.4%) is not broken down" python3 - small-rest.json small-rest.txt <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); text = open(sys.argv[2]).read()
rest = [s for s in d['peak']['sites'] if s['site'].startswith('in ')]
assert len(rest) == 1 and 0 < rest[0]['bytes'] * 100 <= 5 * d['peak']['heap_bytes'], rest
assert 'rest_by' not in rest[0] and ', largest: ' not in text, rest
PY

# 6. Without the detail: the file's top level, its remainder as it was.
vis --json --no-companion --group-by=crate p.out >nodetail.json
check "without detail: groups from the file's trees, Massif's 'in N places' kept" python3 - nodetail.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = {x['site']: x['bytes'] for x in d['peak']['sites']}
assert d['grouping']['from_detail'] is False
assert any(k.startswith('in ') and 'places' in k for k in s), s
# At the peak (scale 4) the file keeps alpha's two functions and app's three
# above 1% (Conn::read, the two Cursor::fetch); the rest is 'in N places'.
assert s['alpha'] == 4 * 420000 and s['app'] == 4 * 290000, s
PY
vis --summary-only --no-companion p.out >nd.txt
check "without detail: my_malloc is found by name and kept, the summary says why" \
  grep -q "my_malloc (in noded): known by name, its callers not in the file; kept" nd.txt

# 7. Distinct labels in every section.
vis --group-by=function --threshold=0 --top=50 p.out >full.txt
check "no two lines of the peak list print the same name" bash -c \
  "sed -n '/^Top groups/,/^\$/p' full.txt | grep -E '^ +[0-9]+\\.' | sed -E 's/^ +[0-9]+\\. +[^ ]+ [^ ]+ +[^ ]+ +//' | sort | uniq -d | grep -q . && exit 1 || exit 0"

vis --group-by=function --threshold=0 --top=50 p.out -o fn.csv
check "no two CSV columns (the chart's legend names) read the same, two Cursor<...>::fetch included" python3 - fn.csv <<'PY'
import csv, sys
head = next(csv.reader(open(sys.argv[1])))
assert len(head) == len(set(head)), [h for h in head if head.count(h) > 1]
assert sum('Cursor' in h and 'fetch' in h for h in head) == 2, head
PY

for g in function crate; do
  check "--group-by=$g: the allocation counts (JSON sites) summed by group, two unnamed functions apart" \
    python3 -c '
import json, sys
from full import full
ans = {full(k): v for k, v in json.load(open("ans.json"))["counts"][sys.argv[1]].items()}
d = json.load(open(sys.argv[1] + ".json"))
got = {s["site"]: s["allocations"] for s in d["sites"]}
assert len(got) == len(d["sites"]), "two count rows read the same"
assert got == ans, (sorted(got.items()), sorted(ans.items()))' $g
done
vis --summary-only --group-by=function --top=50 p.out >counts.txt
check "summary: no two lines of 'Most allocations' read the same" bash -c \
  "sed -n '/^Most allocations/,/^\$/p' counts.txt | sed 1d | sed -E 's/^ +[0-9]+ calls +[^ ]+ [^ ]+ allocated  //' | sort | uniq -d | grep -q . && exit 1 || exit 0"
check "summary: the two unnamed functions of libbar print with their addresses" \
  grep -q '??? @0xBA0000 (in libbar.so.1)' counts.txt

# 8. diff and check group alike.
python3 "$MT_SRC/tests/detail-gen.py" q.out ans2.json 2 || exit 1
vis diff --group-by=crate --json q.out p.out >diff.json 2>err
check "diff --group-by=crate: crate alpha halves, the others do not change" python3 - diff.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
text = json.dumps(d)
assert '"alpha"' in text and 'alpha::store' not in text, text[:400]
PY
check "--growth --group-by=crate: each crate's bytes at the window's first and last trees and its largest, as constructed" \
  python3 - ans.json crate.json <<'PY'
import json, sys
from full import full
ans = json.load(open(sys.argv[1]))['crate']; d = json.load(open(sys.argv[2]))
snaps = sorted(int(k) for k in ans)
at = lambda s: {full(k): v for k, v in ans[str(s)].items()}
rows = {r['site']: r for r in d['growth']}
assert set(rows) == {k for s in snaps for k, v in at(s).items() if v}, sorted(rows)
for k, r in rows.items():
    assert r['start_bytes'] == at(snaps[0]).get(k, 0), (k, r)
    assert r['end_bytes'] == at(snaps[-1]).get(k, 0), (k, r)
    assert r['max_bytes'] == max(at(s).get(k, 0) for s in snaps), (k, r)
PY
vis --growth --group-by=crate p.out >growth.txt 2>&1
check "--growth --group-by=crate: the text says its rows are crates" \
  eval 'grep -q "^Growth by crate, from " growth.txt && grep -Eq "^  kind .* crate\$" growth.txt && ! grep -q "site" growth.txt'
vis check --group-by=crate --baseline=p.out --max-increase=10 q.out >check.txt 2>&1
is "$? $(grep -c alpha check.txt)" "3 1" "check --baseline: the increase is told by crate (alpha)"
vis --group-by=nonsense p.out >/dev/null 2>err
is "$?" 2 "--group-by=nonsense is a usage error"

# 9. Bad detail records: one line, FILE:LINE: expected ..., found ...
bad() {  # NAME LINE...: the generated companion with LINE... appended
  local name=$1; shift
  cp p.out $name.out; cp p.out.memtime $name.out.memtime
  printf '%s\n' "$@" >>$name.out.memtime
  vis --summary-only $name.out >/dev/null 2>$name.err
  echo "$? $(cat $name.err)"
}
n=$(($(wc -l <p.out.memtime) + 1))
is "$(bad frameorder 'frame: 900 x')" \
   "1 memtime-vis: frameorder.out.memtime:$n: expected frame id $(grep -c '^frame:' p.out.memtime) (ids count from 0 in order), found 'frame: 900 x' (use --no-companion to ignore it)" \
   "a frame id out of order"
is "$(bad depth 'dtree: snapshot=1 time=1000 1.0.10 3.1.5')" \
   "1 memtime-vis: depth.out.memtime:$n: expected node depths from 1, each at most one below the node before (at most 4096), found 'dtree: snapshot=1 time=1000 1.0.10 3.1.5' (use --no-companion to ignore it)" \
   "a node two levels below the one before"
PY_DT=$(grep '^dtree: snapshot=1 ' p.out.memtime)
is "$(bad bytes 'dtree: snapshot=2 time=2000 1.0.10 2.1.11')" \
   "1 memtime-vis: bytes.out.memtime:$n: expected a node's callers holding together at most its bytes, found 'dtree: snapshot=2 time=2000 1.0.10 2.1.11' (use --no-companion to ignore it)" \
   "callers holding more than their site"
# The view's threshold without --threshold: lowered from 1% until what
# merges holds at most 5% of the peak (tests/threshold-check.py: the rule
# again, on every group of the peak's tree from --threshold=0).
python3 "$MT_SRC/tests/detail-gen.py" many.out ansmany.json 1 12 || exit 1   # 12 small crates
for f in p cxx many; do
  for g in crate namespace object function; do
    vis --json --group-by=$g --threshold=0 $f.out >thr-all-$f-$g.json 2>/dev/null &&
      vis --json --group-by=$g $f.out >thr-view-$f-$g.json 2>/dev/null &&
      python3 "$MT_SRC/tests/threshold-check.py" thr-all-$f-$g.json thr-view-$f-$g.json >thr-$f-$g.txt 2>&1 ||
      echo "$f $g: $(cat thr-$f-$g.txt)" >>thr-bad.txt
  done
done
diag "$(grep -h . thr-*.txt | sort | uniq -c | head -8)"
check "without --threshold a grouping's view threshold follows the rule (12 views)" test ! -s thr-bad.txt
check "... and is lowered where the remainder held over 5% ($(grep -l 'adapted True' thr-*.txt | wc -l) views)" \
  eval 'grep -q "adapted True" thr-*.txt'
finish
