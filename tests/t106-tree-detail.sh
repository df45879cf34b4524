#!/usr/bin/env bash
# t106-tree-detail: the companion's unpruned detail of the trees (detail:,
# frame:, dtree:; docs/file-format.md) holds what --threshold merged away.
# Checked by a python reader written here from the format's text, apart
# from the C code, against the profile written beside it and against
# programs whose heap is known by construction:
# - tests/progs/detail_sites.c: 300 sites of 1000 bytes (0.1% each), an
#   allocation wrapper take_bytes called by caller_0 .. caller_49 (3000 +
#   40 i bytes each), one big site of 500,000 bytes;
# - with --threshold=0 the profile is unpruned, so the detail must be its
#   tree cut at --detail-depth call levels, node for node (labels, bytes,
#   order), also where inlined frames make several lines of one address
#   and allocator plumbing is hidden at the top (C at -O2, Rust at -O2).
# The profile itself never changes: with --detail-depth=0 it is the same
# file, and B-mode parity with Massif is t100's and t102's.
. "$(dirname "$0")/lib.sh"
need python3 rustc
plan 23

cat >"$T/detail.py" <<'EOF'
import re, sys

def parse_profile(path):
    """snapshot number -> dict(time, heap, tree: [(depth, bytes, label)] or None)"""
    snaps, cur, n = {}, None, None
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        line = line.rstrip("\n")
        m = re.match(r"snapshot=(\d+)$", line)
        if m:
            n = int(m.group(1)); cur = snaps[n] = {"tree": None}; continue
        if cur is None or line.startswith("#"):
            continue
        m = re.match(r"(time|mem_heap_B)=(-?\d+)$", line)
        if m:
            cur["time" if m.group(1) == "time" else "heap"] = int(m.group(2)); continue
        if line in ("heap_tree=detailed", "heap_tree=peak"):
            cur["tree"] = []; cur["peak"] = line.endswith("peak"); continue
        m = re.match(r"( *)n(\d+): (\d+) (.*)$", line)
        if m and cur["tree"] is not None:
            cur["tree"].append((len(m.group(1)), int(m.group(3)), m.group(4)))
    return snaps

def parse_companion(path):
    """(header dict, [labels], {snapshot: (time, [(depth, label, bytes)])}, problems)"""
    header, frames, trees, bad = None, [], {}, []
    for no, line in enumerate(open(path, encoding="utf-8", errors="surrogateescape"), 1):
        line = line.rstrip("\n")
        if line.startswith("detail: "):
            if header is not None: bad.append("%d: a second detail: line" % no)
            header = dict(kv.split("=") for kv in line[8:].split(" "))
            header = {k: int(v) for k, v in header.items()}
        elif line.startswith("frame: "):
            m = re.match(r"frame: (\d+) (.*)$", line)
            if not m or int(m.group(1)) != len(frames):
                bad.append("%d: frame ids must count from 0: %r" % (no, line[:80])); continue
            frames.append(m.group(2))
        elif line.startswith("dtree: "):
            f = line.split(" ")
            ms, mt = re.match(r"snapshot=(\d+)$", f[1]), re.match(r"time=(-?\d+)$", f[2])
            if not ms or not mt:
                bad.append("%d: bad dtree head" % no); continue
            nodes = []
            for tok in f[3:]:
                d, i, b = (int(x) for x in tok.split("."))
                if i >= len(frames):
                    bad.append("%d: frame id %d not in the table" % (no, i)); continue
                nodes.append((d, frames[i], b))
            trees[int(ms.group(1))] = (int(mt.group(1)), nodes)
    return header, frames, trees, bad

def structure(header, frames, trees, snaps):
    """Problems with the records' own rules, and with their match to the profile."""
    bad = []
    if header is None:
        return ["no detail: line"]
    if header["frames"] != len(frames): bad.append("frames=%d, %d frame: lines" % (header["frames"], len(frames)))
    if header["snapshots"] != len(trees): bad.append("snapshots=%d, %d dtree: lines" % (header["snapshots"], len(trees)))
    if len(set(frames)) != len(frames): bad.append("a label twice in the frame table")
    used = set()
    detailed = {n for n, s in snaps.items() if s["tree"] is not None}
    if set(trees) != detailed:
        bad.append("dtree snapshots %s, the profile's detailed ones %s" % (sorted(trees), sorted(detailed)))
    for n, (time, nodes) in trees.items():
        if n in snaps and snaps[n]["time"] != time: bad.append("snapshot %d: time %d, profile %d" % (n, time, snaps[n]["time"]))
        prev = 0
        stack = []   # (depth, bytes, sum of children)
        for d, label, b in nodes:
            used.add(label)
            if d < 1 or d > prev + 1: bad.append("snapshot %d: depth %d after %d" % (n, d, prev))
            if b <= 0: bad.append("snapshot %d: a node of %d bytes" % (n, b))
            while stack and stack[-1][0] >= d:
                sd, sb, sk = stack.pop()
                if sk > sb: bad.append("snapshot %d: children hold more than their parent" % n)
            if stack: stack[-1][2] += b
            stack.append([d, b, 0])
            prev = d
        for sd, sb, sk in stack:
            if sk > sb: bad.append("snapshot %d: children hold more than their parent" % n)
    if used != set(frames): bad.append("%d labels in the table are never used" % len(set(frames) - used))
    return bad

MERGED = re.compile(r"in (\d+) places?,? (all )?below massif's threshold")

def against_profile(trees, snaps):
    """Depth 1 against the profile's sites: sums, labels, the merged line."""
    bad = []
    for n, (time, nodes) in trees.items():
        s = snaps[n]
        d1 = [(label, b) for d, label, b in nodes if d == 1]
        if sum(b for _, b in d1) != s["heap"]:
            bad.append("snapshot %d: depth 1 sums to %d, mem_heap_B=%d" % (n, sum(b for _, b in d1), s["heap"]))
        detail = dict(d1)
        if len(detail) != len(d1): bad.append("snapshot %d: one label twice at depth 1" % n)
        listed, merged = set(), None
        for depth, b, label in s["tree"]:
            if depth != 1: continue
            m = MERGED.match(label)
            if m:
                merged = (int(m.group(1)), b); continue
            listed.add(label)
            # A site holding 0 bytes is listed by the profile when the whole
            # heap is 0 (Massif's threshold is then 0); the detail leaves
            # out nodes of 0 bytes.
            if detail.get(label, 0 if b == 0 else None) != b:
                bad.append("snapshot %d: site %r: profile %d bytes, detail %s" % (n, label[:60], b, detail.get(label)))
        # The profile also merges sites holding 0 bytes at that moment,
        # which the detail leaves out: the count may be larger.
        rest = [b for label, b in d1 if label not in listed]
        if merged is None:
            if rest: bad.append("snapshot %d: %d detail sites the profile neither lists nor merges" % (n, len(rest)))
        elif merged[1] != sum(rest) or merged[0] < len(rest):
            bad.append("snapshot %d: merged 'in %d places' %d bytes, detail's unlisted sites: %d, %d bytes"
                       % (n, merged[0], merged[1], len(rest), sum(rest)))
    return bad

def addr(label):
    m = re.match(r"(0x[0-9A-F]+):", label)
    return m.group(1) if m else None

def cut(tree, levels):
    """An unpruned profile tree (root first) as the detail should hold it: the
    root's descendants down to `levels` call levels (a line with its parent
    line's address is an inlined frame of the same call level), 0-byte nodes
    left out with what is under them."""
    out, path = [], []   # path: (depth, call level, address) of the ancestors
    skip_below = None
    for depth, b, label in tree[1:]:
        if skip_below is not None and depth > skip_below: continue
        skip_below = None
        while path and path[-1][0] >= depth: path.pop()
        parent = path[-1] if path else (0, 0, None)
        level = parent[1] if parent[2] is not None and parent[2] == addr(label) else parent[1] + 1
        path.append((depth, level, addr(label)))
        if b == 0 or level > levels:
            skip_below = depth; continue
        out.append((depth, label, b))
    return out

def main():
    mode, prof, comp = sys.argv[1], sys.argv[2], sys.argv[3]
    snaps = parse_profile(prof)
    header, frames, trees, bad = parse_companion(comp)
    if mode == "none":
        print("detail records present" if header or frames or trees else "none")
        return
    bad += structure(header, frames, trees, snaps)
    if mode == "sites":
        bad += against_profile(trees, snaps)
    elif mode == "unpruned":
        for n, (time, nodes) in trees.items():
            want = cut(snaps[n]["tree"], header["depth"])
            if nodes != want:
                i = next((k for k in range(min(len(nodes), len(want))) if nodes[k] != want[k]), min(len(nodes), len(want)))
                bad.append("snapshot %d: node %d: detail %r, profile %r (%d and %d nodes)"
                           % (n, i, nodes[i] if i < len(nodes) else None, want[i] if i < len(want) else None, len(nodes), len(want)))
    elif mode == "known":
        # detail_sites.c's peak, by construction.
        peak = [n for n, s in snaps.items() if s["tree"] is not None and s.get("peak")]
        if len(peak) != 1: bad.append("no peak"); 
        else:
            nodes = trees[peak[0]][1]
            name = lambda l: re.sub(r"^0x[0-9A-F]+: (\w+) .*$", r"\1", l)
            d1 = {name(l): b for d, l, b in nodes if d == 1}
            sites = {k: v for k, v in d1.items() if k.startswith("site_")}
            if sorted(sites) != sorted("site_%d" % i for i in range(300)) or set(sites.values()) != {1000}:
                bad.append("want site_0 .. site_299 at 1000 bytes each, found %d sites %s" % (len(sites), sorted(set(sites.values()))))
            if d1.get("big_site") != 500000: bad.append("big_site: %s" % d1.get("big_site"))
            if d1.get("take_bytes") != 199000: bad.append("take_bytes: %s" % d1.get("take_bytes"))
            callers, inside = {}, False
            for d, l, b in nodes:
                if d == 1: inside = name(l) == "take_bytes"
                elif d == 2 and inside: callers[name(l)] = b
            want = {"caller_%d" % i: 3000 + 40 * i for i in range(50)}
            if callers != want:
                bad.append("take_bytes's callers: %d found, %d differ from 3000+40i"
                           % (len(callers), sum(1 for k in want if callers.get(k) != want[k])))
            mains = [(d, name(l), b) for d, l, b in nodes if d == 3]
            print("depth-3 nodes:", len(mains), "all main:", all(x[1] == "main" for x in mains))
    for b in bad[:10]:
        print("BAD:", b)
    print("problems:", len(bad))
    sys.exit(1 if bad else 0)

main()
EOF
rd() { python3 "$T/detail.py" "$@"; }

ds=$(build_prog detail_sites.c) || { not_ok "build detail_sites.c"; exit 1; }
B="--time-unit=B --peak-inaccuracy=0.0"

# Default options, B: the profile prunes at 1%, the detail keeps it all.
memtime -q $B --memtime-out-file="$T/d.out" "$ds" >/dev/null 2>"$T/d.err"
is "$?" 0 "detail_sites runs under memtime"
check "the profile merges the 300 small sites and the 50 callers" \
  sh -c "grep -q 'in 300 places' '$T/d.out' && grep -q 'in 50 places' '$T/d.out'"
rd sites "$T/d.out" "$T/d.out.memtime" >"$T/d.chk"; rc=$?
diag "$(cat "$T/d.chk")"
is "$rc" 0 "every detailed snapshot: depth 1 sums to mem_heap_B, the profile's sites have the detail's labels and bytes, its 'in N places' lines are the detail's other sites"
rd known "$T/d.out" "$T/d.out.memtime" >"$T/d.known"; rc=$?
diag "$(cat "$T/d.known")"
is "$rc" 0 "at the peak: site_0 .. site_299 with 1000 bytes each, big_site 500000, take_bytes 199000 with caller_i 3000+40i at depth 2"
check "the default depth is 2 call levels: no depth-3 node" grep -q "depth-3 nodes: 0 " "$T/d.known"
check "detail: says depth=2" grep -q '^detail: depth=2 snapshots=[0-9]* frames=[0-9]*$' "$T/d.out.memtime"
check "the detail comes after the outline, last (the companion's record order)" \
  sh -c "tail -n 1 '$T/d.out.memtime' | grep -q '^dtree: '"

# --detail-depth=3: the callers' callers (main) appear; the rest is the same.
memtime -q $B --detail-depth=3 --memtime-out-file="$T/d3.out" "$ds" >/dev/null 2>&1
rd known "$T/d3.out" "$T/d3.out.memtime" >"$T/d3.known"; rc=$?
is "$rc" 0 "--detail-depth=3: the same sites and callers"
check "--detail-depth=3: main under each of the 50 callers (50 depth-3 nodes, all main)" \
  grep -q "depth-3 nodes: 50 all main: True" "$T/d3.known"

# --detail-depth=0: no detail; the profile is the same file either way.
memtime -q $B --detail-depth=0 --memtime-out-file="$T/d0.out" "$ds" >/dev/null 2>&1
is "$(rd none "$T/d0.out" "$T/d0.out.memtime")" "none" "--detail-depth=0: no detail:, frame: or dtree: record"
is_file <(sed 1d "$T/d0.out") <(sed 1d "$T/d.out") "the profile does not change with the detail (apart from desc:)"
# (Resident memory is read from the kernel and varies from run to run, as
# the pid does.)
others() { grep -vE '^(detail|frame|dtree|rss|o-rss|rss-peak|rss-mapping|rss-mapping-frame|profile|process): ' "$1"; }
is_file <(others "$T/d.out.memtime") <(others "$T/d0.out.memtime") "the companion's other records do not change with the detail"
memtime -q --detail-depth=201 --memtime-out-file="$T/bad.out" "$ds" >/dev/null 2>"$T/bad.err"
rc=$?
check "--detail-depth=201 is refused (0..200)" sh -c "[ $rc -ne 0 ] && grep -q 'detail-depth' '$T/bad.err'"

# --threshold=0: the profile is unpruned; the detail is its tree, cut.
memtime -q $B --threshold=0 --memtime-out-file="$T/u.out" "$ds" >/dev/null 2>&1
rd unpruned "$T/u.out" "$T/u.out.memtime" >"$T/u.chk"; rc=$?
diag "$(cat "$T/u.chk")"
is "$rc" 0 "--threshold=0: the detail is the profile's tree cut at 2 call levels, node for node"
memtime -q $B --threshold=0 --detail-depth=5 --memtime-out-file="$T/u5.out" "$ds" >/dev/null 2>&1
rd unpruned "$T/u5.out" "$T/u5.out.memtime" >"$T/u5.chk"; rc=$?
is "$rc" 0 "--threshold=0 --detail-depth=5: the same, cut at 5 (the whole tree)"

# Inlined frames (one address, several lines): an always_inline wrapper at
# -O2, kept (two lines per site), then hidden by --alloc-fn (the trees hide
# the plumbing inlined at a site's top: so must the detail).
iw=$(build_prog inline_wrapper.c -O2) || { not_ok "build inline_wrapper.c"; exit 1; }
memtime -q $B --threshold=0 --memtime-out-file="$T/iw.out" "$iw" >/dev/null 2>&1
rd unpruned "$T/iw.out" "$T/iw.out.memtime" >"$T/iw.chk"; rc=$?
diag "$(cat "$T/iw.chk")"
is "$rc" 0 "inline_wrapper -O2: the detail is the profile's tree cut at 2 call levels"
check "inline_wrapper's sites are inlined lines (xmalloc_inline, then its caller at the same address)" \
  sh -c "grep -q '^ n1: [0-9]* 0x[0-9A-F]*: xmalloc_inline' '$T/iw.out' && awk '/^ +n[0-9]+: [0-9]+ 0x/ { a = \$3; if (a == prev) f = 1; prev = a } END { exit !f }' '$T/iw.out'"
memtime -q $B --threshold=0 --alloc-fn=xmalloc_inline --memtime-out-file="$T/iwh.out" "$iw" >/dev/null 2>&1
rd unpruned "$T/iwh.out" "$T/iwh.out.memtime" >"$T/iwh.chk"; rc=$?
diag "$(cat "$T/iwh.chk")"
check "inline_wrapper -O2 --alloc-fn=xmalloc_inline: the detail is the profile's tree cut, the hidden frame in neither" \
  sh -c "[ $rc = 0 ] && ! grep -q xmalloc_inline '$T/iwh.out.memtime' && ! sed 1d '$T/iwh.out' | grep -q xmalloc_inline"

# Rust at -O2: allocator plumbing inlined into the sites is hidden in the
# trees; the detail's labels must be the same lines.
RUSTC=$(test_rustc)
if [ -z "$RUSTC" ]; then
  for i in 1 2 3; do skip "no rustc on PATH nor in ~/.cargo/bin (apt-get install rustc)"; done
else
  ro=$(rust_prog rust_inlined.rs 2 2>"$T/rs.err")
  check "rustc builds rust_inlined.rs at opt-level=2" test -x "$ro"
  memtime -q $B --threshold=0 --memtime-out-file="$T/r.out" "$ro" >/dev/null 2>&1
  rd unpruned "$T/r.out" "$T/r.out.memtime" >"$T/r.chk"; rc=$?
  diag "$(cat "$T/r.chk")"
  is "$rc" 0 "Rust -O2 --threshold=0: the detail is the profile's tree cut at 2 call levels"
  memtime -q --memtime-out-file="$T/rd.out" "$ro" >/dev/null 2>&1
  rd sites "$T/rd.out" "$T/rd.out.memtime" >"$T/rd.chk"; rc=$?
  is "$rc" 0 "Rust -O2, default options (ms): depth 1 against the profile's sites"
fi

# Culling and periodic rewrites (ms, every snapshot detailed, a small list):
# whatever rewrites happened, the last files agree with each other.
cp=$(build_prog chart_phases.c) || { not_ok "build chart_phases.c"; exit 1; }
memtime -q --detailed-freq=1 --max-snapshots=12 --flush-interval=1 --test-hook-log="$T/c.log" \
  --memtime-out-file="$T/c.out" "$cp" >/dev/null 2>&1
diag "rewrites: $(wc -l <"$T/c.log" 2>/dev/null)"
rd sites "$T/c.out" "$T/c.out.memtime" >"$T/c.chk"; rc=$?
diag "$(cat "$T/c.chk")"
is "$rc" 0 "ms, --detailed-freq=1 --max-snapshots=12 (culled): every snapshot's detail against the profile"

# Pages as heap: the same records, from mapped pages.
memtime -q --pages-as-heap=yes $B --memtime-out-file="$T/p.out" "$ds" >/dev/null 2>&1
rd sites "$T/p.out" "$T/p.out.memtime" >"$T/p.chk"; rc=$?
diag "$(cat "$T/p.chk")"
is "$rc" 0 "--pages-as-heap=yes: depth 1 against the profile's sites"
finish
