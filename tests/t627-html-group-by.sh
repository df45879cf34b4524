#!/usr/bin/env bash
# t627-html-group-by: the HTML report's grouping selector (every byte
# named at a level a person can act on, in the browser too), in
# Debian's headless chromium driven over the DevTools protocol
# (tests/cdp-groups.py clicks each grouping's radio button as a user
# would). The profile is tests/detail-gen.py's, whose bytes per group at
# every snapshot are known by construction (the same answers as t615):
#  - the page offers site, function, file, object, crate and namespace
#    (the profile has Rust and C++ functions); a C profile without them
#    offers no crate or namespace;
#  - the grouping first shown is the command line's --group-by, else the
#    default rule's (crate here, as --json says);
#  - each click switches the page to that grouping without a reload (a
#    marker set in the page survives), the checked button follows, the
#    legend and the chart's bands name that grouping's groups (the CSV of
#    the same grouping names the same columns), and the selected snapshot's
#    table lists exactly that grouping's groups with the bytes the
#    generator built;
#  - group names that are markup, quotes, '&' or control characters stay
#    text: no element from them, the names exactly as --json gives them.
. "$(dirname "$0")/lib.sh"
need python3 chromium

CHROMIUM=$(command -v chromium || true)
plan 17
cd "$T" || exit 1

python3 "$MT_SRC/tests/detail-gen.py" p.out ans.json || exit 1
vis --threshold=0 -o auto.html p.out 2>err || { not_ok "memtime-vis -o auto.html"; diag "$(cat err)"; }
vis --threshold=0 --group-by=object -o object.html p.out 2>>err || not_ok "memtime-vis --group-by=object -o object.html"
drive() { timeout 300 python3 "$MT_SRC/tests/cdp-groups.py" "$1" >"$1.txt" 2>"$1.err"; }
drive auto.html
drive object.html

# The oracle: reads the driver's observations, the generator's answers and
# memtime-vis's CSV of each grouping (its legend's names); shares nothing
# with the page's script.
for g in site function file object crate namespace; do
  vis --threshold=0 --group-by=$g -o $g.csv p.out 2>>err
done
cat >judge.py <<'PY'
import csv, json, re, sys
what, obs_path = sys.argv[1], sys.argv[2]
def full(key):
    # A group's full name is its key without Rust hashes (::h<16 hex>, v0's
    # [hex]): the naming's rules, checked on their own by t617-site-names.
    return re.sub(r'\[[0-9a-f]+\]', '', re.sub(r'::h[0-9a-f]{16}\b', '', key))
ans = json.load(open('ans.json'))
obs = [json.loads(l) for l in open(obs_path)]
steps = [o for o in obs if 'step' in o]
errors = [o for o in obs if 'errors' in o]
if what == 'radios':
    print(' '.join(steps[0]['radios']))
elif what == 'initial':
    print(steps[0]['by'], steps[0]['checked'])
elif what == 'reload':
    bad = [s['clicked'] for s in steps if s['marker'] != 'same page']
    print('reloaded after ' + ' '.join(bad) if bad else 'none', len(steps) - 1)
elif what == 'checked':
    bad = [(s['clicked'], s['by'], s['checked']) for s in steps[1:] if not s['clicked'] == s['by'] == s['checked']]
    print(bad or 'all')
elif what == 'legend':
    # Each grouping's legend and bands: the CSV's band columns of that grouping.
    bad = []
    for s in steps[1:]:
        head = next(csv.reader(open(s['clicked'] + '.csv')))
        want = [h for h in head[3:] if h not in ('other', 'unattributed', 'extra_heap', 'stacks')]
        # The band of what is past --top (the CSV's "other" column):
        # "other crates", or "N more groups (past --top)" where function
        # groups fall back to their code ("other functions in app" is a group).
        past = re.compile(r'^(other (sites|functions|files|objects|crates|namespaces)|\d+ more groups? \(past --top\))$')
        got = [n for n in s['legend'] if not past.match(n) and not n.startswith('extra heap')]
        if got != want[:len(got)] or not got or s['bands'] != s['legend']:
            bad.append((s['clicked'], got, want))
    print(bad or 'all')
elif what == 'bytes':
    # The selected snapshot's table: every group the generator built, its bytes.
    bad, n = [], 0
    for s in steps[1:]:
        g = s['clicked']
        if g not in ans:
            continue
        snap = s['snapshot'].split()[1]
        want = {full(k): v for k, v in ans[g][snap].items() if v}
        got = {t[0]: t[2] for t in s['top']}
        if got != want or len(got) != len(s['top']):
            bad.append((g, snap, sorted(set(got.items()) ^ set(want.items()))[:6]))
        n += 1
    print(bad or 'all %d' % n)
elif what == 'errors':
    print(errors[0]['errors'] if errors else 'no end')
PY
j() { python3 judge.py "$@" 2>&1; }
is "$(j radios auto.html.txt)" "site function file object crate namespace" \
  "the selector offers every grouping of a profile with Rust and C++ functions, in order"
is "$(vis --json p.out | json_get - 'd["grouping"]["by"]')" "crate" \
  "the default rule picks crate for this profile (--json)"
is "$(j initial auto.html.txt)" "crate crate" "without --group-by the page first shows the default grouping, its button checked"
is "$(j initial object.html.txt)" "object object" "with --group-by=object the page first shows object, its button checked"
is "$(j reload auto.html.txt)" "none 6" "six clicks switch the grouping with no reload"
is "$(j checked auto.html.txt)" "all" "after each click the page shows the grouping clicked, its button checked"
is "$(j legend auto.html.txt)" "all" "each grouping's legend and chart bands name that grouping's groups (as its CSV)"
is "$(j bytes auto.html.txt)" "all 5" \
  "site, function, object, crate, namespace: the snapshot's table lists exactly the groups built, with their bytes"
is "$(j bytes object.html.txt)" "all 5" "the same from the page that opened by object"
is "$(j errors auto.html.txt):$(j errors object.html.txt)" "0:0" "no exception or console message while switching"
is "$(python3 -c 'import json; print(json.loads(open("auto.html.txt").readline())["wrappers"])')" \
   "[['my_malloc (in noded)', 'my_malloc (in /opt/app/bin/noded)']]" \
   "the summary's wrappers: the short name as text, the full name on hover"

# A C profile (no Rust, no C++): crate and namespace would only repeat the
# objects, so the page does not offer them.
{
  printf 'desc: (none)\ncmd: ./c\ntime_unit: i\n'
  printf '#-----------\nsnapshot=0\n#-----------\ntime=100\nmem_heap_B=3000\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=peak\n'
  printf 'n2: 3000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n'
  printf ' n0: 2000 0x401000: make_table (table.c:10)\n'
  printf ' n0: 1000 0x402000: read_line (in /usr/lib/libfoo.so.1)\n'
} >c.out
vis -o c.html c.out 2>>err && drive c.html
is "$(j radios c.html.txt)" "site function file object" "a C profile: site, function, file and object only"

# Hostile group names: markup, quotes, '&', an entity, control characters.
EVIL='</script><img src=x onerror=alert(1)>'
{
  printf 'desc: (none)\ncmd: ./evil\ntime_unit: i\n'
  printf '#-----------\nsnapshot=0\n#-----------\ntime=100\nmem_heap_B=3000\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=peak\n'
  printf 'n2: 3000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n'
  printf ' n0: 2000 0x401000: %s"q" '"'"'a'"'"' &amp; \001\033[31m (evil.c:1)\n' "$EVIL"
  printf ' n0: 1000 0x402000: ok_fn<</style>&> (in /usr/lib/libfoo.so.1)\n'
} >evil.out
vis --group-by=function -o evil.html evil.out 2>>err && drive evil.html
vis --group-by=function --json evil.out >evil.json 2>>err
python3 "$MT_SRC/tests/htmlcheck.py" tags evil.html >evil.tags
is "$(grep -E '^(img|svg|title|script|style) ' evil.tags | sort | tr '\n' ' ')" "script 4 style 1 title 1 " \
  "hostile groups: the page holds its four scripts, one title, one style, no element from the names"
check "hostile groups: the selector works on that page (function first, then site)" \
  python3 -c 'import json,sys; s=[json.loads(l) for l in open("evil.html.txt")]; assert s[0]["by"]=="function" and s[1]["by"]=="site", s[:2]'
check "hostile groups: the table's names are the exact names --json gives, as text" python3 - <<'PY'
import json
obs = [json.loads(l) for l in open('evil.html.txt')]
want = {s['site']: s['bytes'] for s in json.load(open('evil.json'))['peak']['sites']}
fn = [o for o in obs if o.get('by') == 'function'][-1]
got = {t[0]: t[2] for t in fn['top']}
assert got == want, (got, want)
assert any('</script><img' in k and '\x01' in k for k in got), got
PY
# The legend shortens names (template arguments elided: "<img ...>" reads
# as one); what it keeps is text.
check "hostile groups: the legend shows the markup, '&amp;' and the control characters as text" \
  python3 -c 'import json; s=[json.loads(l) for l in open("evil.html.txt")]; L=s[0]["legend"]; assert any(n.startswith("</script><") and "&amp; \x01\x1b" in n for n in L) and "ok_fn<</style>&>" in L, L'
is "$(j errors evil.html.txt)" "0" "hostile groups: no exception, no console message (no alert ran)"
finish
