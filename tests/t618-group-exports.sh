#!/usr/bin/env bash
# t618-group-exports: the exports of one tree (--flamegraph, --pprof,
# --collapsed) follow --group-by (model/stack_groups.h), on programs whose
# heap at the peak is known by construction:
#  - tests/progs/ns_layers.cc (t616) at every grouping: each group is one
#    tower whose bytes are the program's constants. The SVG is read with
#    python's XML parser (a tower's width is its share of 1180 px, its
#    title its bytes), pprof's file with `go tool pprof -raw` (each
#    sample's outermost frame and its label are its group) and -top (the
#    group's cumulative bytes), the folded stacks by their first frame;
#  - --threshold: the groups below it share one tower, as in the summary;
#  - tests/progs/rust_crates (t616) by crate: alpha 300000 B, beta 200000 B;
#  - a crafted file with mangled names beside their demangled twins (C++,
#    Rust legacy and v0): they group together, in the JSON and the exports;
#    names with markup stay data in the SVG and pprof.
. "$(dirname "$0")/lib.sh"
need c++ python3 go rustc
plan 21
cd "$T" || exit 1

GO=$(command -v go || echo /usr/lib/go/bin/go)

# towers KIND FILE [BY]: "key=bytes" of the groups, sorted, leaving out what
# the program does not decide (the C++ runtime's pool "(in ...)", Massif's
# "in N places", an unnamed function told by its caller, libstdc++ itself).
cat >towers.py <<'PY'
import re, subprocess, sys
import xml.etree.ElementTree as ET
kind, path = sys.argv[1], sys.argv[2]
acc = {}
if kind == 'svg':
    ns = {'s': 'http://www.w3.org/2000/svg'}
    root = ET.parse(path).getroot()
    frames = root.find(".//s:g[@id='frames']", ns)
    rows = []
    for g in frames.findall('s:g', ns):
        title = g.find('s:title', ns).text
        r = g.find('s:rect', ns)
        rows.append((title, float(r.get('y')), float(r.get('x')), float(r.get('width'))))
    all_row = [r for r in rows if r[0].startswith('all \u2014')]
    assert len(all_row) == 1, 'one "all" frame'
    total = int(re.search(r'\(([\d,]+) bytes\)', all_row[0][0]).group(1).replace(',', ''))
    y0 = all_row[0][1] - 16
    for title, y, x, w in rows:
        if y != y0:
            continue
        name, rest = title.rsplit(' \u2014 ', 1)
        b = int(re.search(r'\(([\d,]+) bytes\)', rest).group(1).replace(',', ''))
        # The width is the bytes' share of the plot's 1180 px, to the
        # hundredth written.
        assert abs(w - b * 1180.0 / total) <= 0.006, (name, w, b, total)
        assert name not in acc, 'two towers for ' + name
        acc[name] = b
elif kind == 'folded':
    for line in open(path):
        stack, b = line.rsplit(' ', 1)
        g = re.sub(r'%([0-9A-F]{2})', lambda m: chr(int(m.group(1), 16)), stack.split(';')[0])
        acc[g] = acc.get(g, 0) + int(b)
elif kind == 'pprof':
    by, go = sys.argv[3], sys.argv[4]
    raw = subprocess.run([go, 'tool', 'pprof', '-raw', path], capture_output=True, text=True,
                         check=True).stdout
    samples, locs = raw.split('\nLocations\n', 1)
    names = {}
    for l in locs.splitlines():
        m = re.match(r'\s+(\d+): 0x[0-9a-f]+ M=\d+ (.*?) :0 s=0(?:\((.*)\))?$', l)
        if m:
            names[m.group(1)] = m.group(3) or m.group(2)
    cur = None
    for l in samples.split('Samples:\n', 1)[1].splitlines():
        m = re.match(r'\s+(\d+): ([\d ]+)$', l)
        if m:
            cur = (int(m.group(1)), m.group(2).split()[-1])
            continue
        m = re.match(r'\s+' + by + r':\[(.*)\]$', l)
        if m and cur:
            # The label is the group, and so is the outermost frame.
            assert names.get(cur[1]) == m.group(1), (names.get(cur[1]), m.group(1))
            acc[m.group(1)] = acc.get(m.group(1), 0) + cur[0]
            cur = None
    assert cur is None, 'a sample without its group label'
import json, os
if os.environ.get('ALL'):   # every group, as JSON
    print(json.dumps(acc))
    sys.exit(0)
print(' '.join('%s=%d' % kv for kv in sorted(acc.items())
               if not re.match(r"(\(in (?!ns_layers\.cc\))|in \d+ place|0x[0-9A-F]+: \?\?\?|libstdc\+\+)", kv[0])))
PY
towers() { python3 towers.py "$@" "$GO" 2>&1; }

P=$(build_prog ns_layers.cc) || { not_ok "build ns_layers.cc"; exit 1; }
memtime -q --memtime-out-file=ns.out "$P" 2>err
check "memtime profiles ns_layers" test -s ns.out

NS1="(anonymous namespace)=60000 (in ns_layers.cc)=40000 net=200000 store=500000"
declare -A want=(
  [namespace]=$NS1
  [crate]=$NS1
  [function]="(anonymous namespace)::scratch(unsigned long)=60000 net::http::Parser::buffer(unsigned long)=120000 net::tls::Session::key(unsigned long)=80000 plain_c_style=40000 store::cache::Lru::grow(unsigned long)=200000 store::disk::Page::alloc(unsigned long)=300000"
  [file]="ns_layers.cc=800000"
  [object]="(in ns_layers.cc)=800000"
)
for g in namespace function file object crate; do
  vis --group-by=$g --threshold=0 --flamegraph=$g.svg --pprof=$g.pb.gz --collapsed=$g.folded ns.out 2>err
  got="$(towers svg $g.svg) | $(towers pprof $g.pb.gz $g) | $(towers folded $g.folded)"
  is "$got" "${want[$g]} | ${want[$g]} | ${want[$g]}" \
     "--group-by=$g: one tower a group in the flamegraph, pprof and the folded stacks, the program's bytes"
done
vis --group-by=namespace --namespace-depth=2 --threshold=0 --flamegraph=ns2.svg --pprof=ns2.pb.gz ns.out
NS2="(anonymous namespace)=60000 (in ns_layers.cc)=40000 net::http=120000 net::tls=80000 store::cache=200000 store::disk=300000"
is "$(towers svg ns2.svg) | $(towers pprof ns2.pb.gz namespace)" "$NS2 | $NS2" \
   "--namespace-depth=2: store::disk, store::cache, net::http, net::tls towers"
check "the flamegraph says how it is grouped" grep -q 'grouped by namespace</text>' ns2.svg
is "$("$GO" tool pprof -unit=B -top namespace.pb.gz 2>/dev/null | awk '$NF == "store" || $NF == "net" { print $NF "=" $4 }' | sort | tr '\n' ' ')" \
   "net=200000B store=500000B " "go tool pprof -top: the groups' cumulative bytes"

# Without --group-by (the default grouping) or by site: the tree as it is.
vis --flamegraph=plain.svg --pprof=plain.pb.gz ns.out
check "by default the exports are the tree's: no group frames, no labels" sh -c \
  "! grep -q 'grouped by' plain.svg && ! '$GO' tool pprof -raw plain.pb.gz 2>/dev/null | grep -q 'namespace:\\['"

# The view's threshold: the groups below 15% of the heap share one tower,
# as the summary's one line; store (57%) and net (23%) keep theirs.
vis --group-by=namespace --threshold=15 --flamegraph=t15.svg --pprof=t15.pb.gz --collapsed=t15.folded ns.out
for k in svg pprof folded; do
  check "--threshold=15 ($k): store, net and one tower of the rest, the heap less theirs" python3 - $k <<PY
import os, re, subprocess, sys
k = sys.argv[1]
f = {'svg': 't15.svg', 'pprof': 't15.pb.gz', 'folded': 't15.folded'}[k]
out = subprocess.run(['python3', 'towers.py', k, f] + (['namespace', '$GO'] if k == 'pprof' else []),
                     env=dict(os.environ, ALL='1'), capture_output=True, text=True,
                     check=True).stdout
import json
got = json.loads(out)
heap = int(re.search(r'mem_heap_B=(\d+)', open('ns.out').read().split('heap_tree=peak')[0].rsplit('snapshot=', 1)[1]).group(1))
rest = [n for n in got if n.startswith('in ') and 'view' in n]
assert len(rest) == 1, got
small = [n for n in got if n not in ('store', 'net') and n != rest[0] and 'massif' not in n]
assert not small, got
m = re.match(r"in (\d+) groups below the view's threshold \(15\.00%\)$", rest[0])
assert m and int(m.group(1)) >= 3, rest[0]
massif = sum(int(v) for n, v in got.items() if 'massif' in n)
assert int(got['store']) == 500000 and int(got['net']) == 200000, got
assert int(got[rest[0]]) == heap - 700000 - massif, (got, heap)
PY
done

# The Rust program, by crate.
RUSTC=$(test_rustc)
if [ -z "$RUSTC" ]; then
  if [ "${CI:-}" = true ]; then not_ok "rustc is needed (apt-get install rustc)"; else skip "no rustc"; fi
else
  src=$MT_SRC/tests/progs/rust_crates
  r() { "$RUSTC" --edition 2021 -g -C opt-level=0 "$@" 2>>rustc.err; }
  r --crate-type=rlib --crate-name alpha "$src/alpha.rs" && r --crate-type=rlib --crate-name beta "$src/beta.rs" &&
    r --extern alpha=libalpha.rlib --extern beta=libbeta.rlib -L . -o crates "$src/main.rs"
  memtime -q --memtime-out-file=rs.out ./crates >/dev/null 2>err
  vis --group-by=crate --threshold=0 --flamegraph=rs.svg --pprof=rs.pb.gz --collapsed=rs.folded rs.out
  pick() { tr ' ' '\n' | grep -E '^(alpha|beta)=' | tr '\n' ' '; }
  is "$(towers svg rs.svg | pick)| $(towers pprof rs.pb.gz crate | pick)| $(towers folded rs.folded | pick)" \
     "alpha=300000 beta=200000 | alpha=300000 beta=200000 | alpha=300000 beta=200000 " \
     "Rust by crate: alpha 300000 B, beta 200000 B in all three exports"
fi

# Mangled names beside their demangled twins, and names with markup.
# Sites above Massif's 1% so the file's tree holds each; the answers by hand.
cat >m.out <<'EOF'
desc: crafted by t618
cmd: ./mangled
time_unit: i
#-----------
snapshot=0
#-----------
time=100
mem_heap_B=100000
mem_heap_extra_B=0
mem_stacks_B=0
heap_tree=peak
n8: 100000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n0: 30000 0x401000: alpha::store::Store::insert (store.rs:10)
 n0: 20000 0x401100: _ZN5alpha5store5Store6insert17h0123456789abcdefE (in /opt/app/noded)
 n0: 15000 0x401200: app::net::Conn::read(int) (conn.cc:5)
 n0: 10000 0x401300: _ZN3app3net4Conn4readEi (in /usr/lib/libsvc.so.3)
 n0: 9000 0x401400: gamma::net::Peer::recv (peer.rs:4)
 n0: 6000 0x401500: _RNvNtNtCs1a2b3c4d_5gamma3net4Peer4recv (in /opt/app/noded)
 n0: 6000 0x401600: std::vector<int, std::allocator<int> >::push_back(int const&) (vec.h:3)
 n0: 4000 0x401700: _ZNSt6vectorIiSaIiEE9push_backERKi (in /usr/lib/libsvc.so.3)
EOF
jgroups() { vis --json "$@" m.out | python3 -c '
import json, sys
print(" ".join("%s=%d" % (s["site"], s["bytes"]) for s in sorted(json.load(sys.stdin)["peak"]["sites"], key=lambda s: s["site"])))'; }
is "$(jgroups --group-by=function --threshold=0)" \
   "alpha::store::Store::insert=50000 app::net::Conn::read(int)=25000 gamma::net::Peer::recv=15000 std::vector<int, std::allocator<int> >::push_back(int const&)=10000" \
   "function: each mangled name (C++, Rust legacy, Rust v0) in its demangled twin's group"
is "$(jgroups --group-by=crate --threshold=0)" "alpha=50000 app=25000 gamma=15000 std=10000" \
   "crate: the mangled names in their crates"
is "$(jgroups --group-by=namespace --namespace-depth=2 --threshold=0)" \
   "alpha::store=50000 app::net=25000 gamma::net=15000 std::vector=10000" "namespace depth 2: likewise"
is "$(vis --json m.out | json_get - 'd["grouping"]["by"], d["grouping"]["by_default"]')" \
   "site True" "a file without memtime's detail keeps its sites by default"
vis --group-by=function --threshold=0 --flamegraph=m.svg --pprof=m.pb.gz --collapsed=m.folded m.out
MF="alpha::store::Store::insert=50000 app::net::Conn::read(int)=25000 gamma::net::Peer::recv=15000 std::vector<int, std::allocator<int> >::push_back(int const&)=10000"
is "$(towers svg m.svg)" "$MF" "the flamegraph: four towers, the template's <, > and & escaped (the SVG parses)"
is "$(towers pprof m.pb.gz function)" "$MF" "pprof: four groups, named as data"
is "$(towers folded m.folded)" "$MF" "folded stacks: four groups"
finish
