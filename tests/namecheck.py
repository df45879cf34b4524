#!/usr/bin/env python3
"""tests/namecheck.py: the names memtime-vis prints for allocation sites,
read back from its outputs apart from its C code, for t617.

    namecheck.py KIND FILE

KIND says how FILE is read into sections, each a list of (name, identity)
rows (identity: the site's address where the output carries it, else None):
  summary   the text summary: the peak list, the sites that held 5%, the
            growth rows, still live at exit, most allocations, most
            temporary allocations
  growth    --growth's rows
  diff      diff's text rows
  json      --json (peak, growth, at_exit, sites, last_moments): "name",
            "site" and "label" of each row
  djson     diff --json's rows
  html      the report page's embedded JSON (as json, plus the timeline's
            bands and the trees' sites)
  csv       a CSV header's site columns
  legend    the PNG legend from MEMTIME_VIS_DEBUG_LAYOUT=1's layout

and checks, printing one line per failure (exit 1 if any):
  - in each section no two rows print the same name (a section lists each
    site once), and where the output identifies sites (JSON's "label"), no
    two sites share a name and no site has two, across every section;
  - short names (everything but CSV and JSON's "site", the full names)
    carry no Rust hash (legacy "::h" + 16 hex digits, mangled "17h...E",
    v0's "crate[hex]") and no library build hash ("-" + 12 or more hex
    digits before ".so"); full names no Rust hash;
  - every "…" in a short name stands for whole words: it sits between
    "<" or "(" or "::" or a space and ">" or ")" or "::";
  - with --names FILE2 (a "ADDR<TAB>NAME" line each), the short names the
    output gives those sites are exactly these (JSON and html only);
  - with --known FILE3, every short name printed is one of FILE3's lines
    (the names --json gave: every output uses the one naming).
"""
import json
import re
import sys

ELL = "\u2026"
RUST_HASH = re.compile(r"::h[0-9a-f]{16}(?![0-9A-Za-z_$])|17h[0-9a-f]{16}E|[A-Za-z0-9_]\[[0-9a-f]{5,16}\]")
BUILD_HASH = re.compile(r"-[0-9a-f]{12,}(\.so|\b)")
ADDR = re.compile(r"^(0x[0-9A-Fa-f]+): ")


def addr_of(label):
    m = ADDR.match(label or "")
    return m.group(1) if m else None


def text_sections(lines):
    """The summary's sections: [(title, [name, ...])]."""
    secs, cur = [], None
    rules = [
        ("peak", re.compile(r"^Top allocation sites"), re.compile(r"^ +\d+\. +\S+ \S+ +[\d.]+%  (\S.*)$")),
        ("big", re.compile(r"^Other sites that held"), re.compile(r"^ +\S+ \S+ +[\d.]+%  at .* \(snapshot \d+\)  (\S.*)$")),
        ("growing", re.compile(r"^(Growing|Growth by site|  What grew)"), None),
        ("live", re.compile(r"^Still live at"), re.compile(r"^ +\S+ \S+ in +\d+ blocks? +(\S.*)$")),
        ("allocs", re.compile(r"^Most allocations"), re.compile(r"^ +\d+ calls +\S+ \S+ allocated  (\S.*)$")),
        ("temps", re.compile(r"^Most temporary"), re.compile(r"^ +\d+ of +\d+ calls  (\S.*)$")),
    ]
    for line in lines:
        line = line.rstrip("\n")
        hit = [r for r in rules if r[1].match(line)]
        if hit:
            cur = (hit[0][0], hit[0][2], [])
            secs.append(cur)
            continue
        if cur is None:
            continue
        if line == "":
            cur = None if cur[0] != "growing" else cur
            continue
        if cur[0] == "growing":
            m = re.match(r"^  (steady|plateau|burst|shrinking|flat) ", line)
            if m:
                cur[2].append(re.sub(r" \[\*\]$", "", line[65:]))
            elif not line.startswith("  "):
                cur = None
            continue
        m = cur[1].match(line)
        if m and not re.match(r"^in \d+ places?, ", m.group(1)):
            cur[2].append(m.group(1))
    return [(t, [(n, None) for n in rows]) for t, _, rows in secs]


def json_sections(d, html=False):
    secs = []

    def rows(title, arr):
        if arr is None:
            return
        out = []
        for r in arr:
            if r.get("label") is None:      # the "in N places" line
                continue
            if re.match(r"^in \d+ places?, ", r["label"]):
                continue
            out.append((r["name"], addr_of(r["label"]), r["site"]))
        secs.append((title, out))

    rows("peak", d["peak"]["sites"])
    rows("growth", d["growth"])
    rows("at_exit", d.get("at_exit"))
    rows("sites", d.get("sites"))
    if d.get("last_moments"):
        rows("last_moments", d["last_moments"]["growth"])
    if html:
        bands = [(b["name"], None, b.get("full")) for b in d["timeline"]["bands"] if b["kind"] == "site"]
        secs.append(("bands", bands))
        for t in d["trees"]["snapshots"]:
            sites = [(n[3], None, n[4] if len(n) > 4 else None) for n in t["nodes"]
                     if n[0] == 1 and not re.match(r"^in \d+ places?, ", n[3])]
            secs.append(("tree %d" % t["snapshot"], sites))
    return secs


def main():
    args = sys.argv[1:]
    names_file = known_file = None
    if "--names" in args:
        i = args.index("--names")
        names_file = args[i + 1]
        del args[i:i + 2]
    if "--known" in args:
        i = args.index("--known")
        known_file = args[i + 1]
        del args[i:i + 2]
    kind, path = args
    bad = []
    secs = []          # (title, [(short, identity, full or None)])
    text = open(path, encoding="utf-8").read()
    if kind in ("summary", "growth"):
        secs = [(t, [(n, None, None) for n, _ in rows]) for t, rows in text_sections(text.splitlines())]
    elif kind == "diff":
        rows = []
        started = False
        for line in text.splitlines():
            if re.match(r"^ +delta +old +new +site$", line):
                started = True
                continue
            if started and re.match(r"^ +[-+]?\S+ \S+ ", line) and len(line) > 37:
                rows.append((re.sub(r"  \[(new|gone)\]$", "", line[37:]), None, None))
        secs = [("diff", rows)]
    elif kind == "djson":
        d = json.loads(text)
        secs = [("diff", [(r["name"], None, r["site"]) for r in d["sites"]])]
    elif kind == "json":
        secs = json_sections(json.loads(text))
    elif kind == "html":
        m = re.search(r'<script id="memtime-data" type="application/json">(.*?)</script>', text, re.S)
        secs = json_sections(json.loads(m.group(1)), html=True)
    elif kind == "csv":
        head = text.splitlines()[0].split(",")
        fixed = {"snapshot", "time", "total", "other", "unattributed", "extra_heap", "stacks",
                 "rss", "rss_anon", "rss_file", "rss_shmem"}
        secs = [("csv", [(None, None, h) for h in head if h not in fixed])]
    elif kind == "legend":
        rows = []
        for line in text.splitlines():
            m = re.match(r"^layout legend \d+ (.*)$", line)
            if m and m.group(1) not in ("other sites", "unattributed (between trees)",
                                        "extra heap (admin + slop)", "stacks",
                                        "heap (no tree: not broken down)"):
                rows.append((m.group(1), None, None))
        secs = [("legend", rows)]
    else:
        sys.exit("namecheck.py: unknown kind " + kind)

    n_rows = 0
    by_id, by_name = {}, {}
    for title, rows in secs:
        seen = {}
        for short, ident, full in rows:
            n_rows += 1
            for what, v in (("name", short), ("full name", full)):
                if v is None:
                    continue
                if (what, v) in seen:
                    bad.append("%s: %s '%s' printed for two rows" % (title, what, v))
                seen[(what, v)] = 1
                if RUST_HASH.search(v):
                    bad.append("%s: %s '%s' carries a Rust hash" % (title, what, v))
            if short is None:
                continue
            if BUILD_HASH.search(short):
                bad.append("%s: '%s' carries a library build hash" % (title, short))
            for m in re.finditer(ELL, short):
                l, r = short[:m.start()], short[m.end():]
                if not (l == "" or l.endswith(("<", "(", "::", " "))) or not r.startswith((">", ")", "::")):
                    bad.append("%s: '%s' cuts inside a word" % (title, short))
            if ident is not None:
                if by_id.setdefault(ident, short) != short:
                    bad.append("%s: site %s named '%s' and '%s'" % (title, ident, short, by_id[ident]))
                if by_name.setdefault(short, ident) != ident:
                    bad.append("%s: '%s' names %s and %s" % (title, short, ident, by_name[short]))
    if names_file:
        for line in open(names_file, encoding="utf-8"):
            a, want = line.rstrip("\n").split("\t")
            if by_id.get(a) != want:
                bad.append("site %s: named '%s', expected '%s'" % (a, by_id.get(a), want))
    if known_file:
        known = set(l.rstrip("\n") for l in open(known_file, encoding="utf-8"))
        for title, rows in secs:
            for short, _, _ in rows:
                if short is not None and short not in known:
                    bad.append("%s: '%s' is not the name --json gives any site" % (title, short))
    if n_rows == 0:
        bad.append("no site read from %s" % path)
    for b in bad:
        print(b)
    if kind == "json" and not bad:
        for short in sorted(by_name):
            print(short, file=sys.stderr)
    sys.exit(1 if bad else 0)


main()
