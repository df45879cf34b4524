#!/usr/bin/env python3
"""tests/htmlcheck.py: the HTML report test's oracle (t625), independent of
memtime-vis: reads Massif-format files and the DOM Chromium dumped.

  htmlcheck.py sites PROFILE N [JSON] the root's children of snapshot N's tree
                                      at >= 1% of its total, as "bytes<TAB>name"
                                      (name without its address; with JSON, the
                                      output of --json, the "name" it gives the
                                      site at that address), largest first
  htmlcheck.py dom DOM                what the dumped DOM shows: the selected
                                      snapshot's title, the #top-sites rows
                                      ("bytes<TAB>name", bytes without commas)
  htmlcheck.py tags HTMLFILE          every element name in the file, one per
                                      line with its count (an HTML parser's view)
  htmlcheck.py json HTMLFILE KEY...   the embedded JSON document, parsed, then
                                      the value at KEY... printed as JSON
"""
import html.parser
import json
import re
import sys


def json_names(path):
    """Code address -> the short name --json gives the site there."""
    d = json.load(open(path, encoding="utf-8"))
    rows = d["peak"]["sites"] + d["growth"] + (d.get("at_exit") or []) + (d.get("sites") or [])
    out = {}
    for r in rows:
        m = re.match(r"^(0x[0-9A-Fa-f]+): ", r.get("label") or "")
        if m:
            out[m.group(1)] = r["name"]
    return out


def sites(path, n, names=None):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    i = lines.index("snapshot=%d" % n)
    vals = {}
    j = i + 1
    while j < len(lines) and not lines[j].startswith("snapshot="):
        m = re.match(r"^(mem_heap_B|mem_heap_extra_B|mem_stacks_B)=(\d+)$", lines[j])
        if m:
            vals[m.group(1)] = int(m.group(2))
        m = re.match(r"^ n\d+: (\d+) (.*)$", lines[j])
        if m:
            b = int(m.group(1))
            total = sum(vals.values())
            if total and 100.0 * b / total >= 1.0:
                name = re.sub(r"^0x[0-9A-Fa-f]+: ", "", m.group(2))
                a = re.match(r"^(0x[0-9A-Fa-f]+): ", m.group(2))
                if names is not None and a and a.group(1) in names:
                    name = names[a.group(1)]
                print("%d\t%s" % (b, name))
        j += 1


class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack = []
        self.title = ""
        self.in_title = False
        self.in_top = 0
        self.rows = []
        self.cell = None
        self.tags = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if a.get("id") == "snapshot-title":
            self.in_title = True
        if tag == "table" and a.get("id") == "top-sites":
            self.in_top = 1
        elif tag == "table" and self.in_top:
            self.in_top += 1
        if self.in_top and tag == "tr":
            self.rows.append([])
        if self.in_top and tag == "td":
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "h3":
            self.in_title = False
        if tag == "table" and self.in_top:
            self.in_top -= 1
        if tag == "td" and self.cell is not None:
            self.rows[-1].append(self.cell)
            self.cell = None

    def handle_data(self, data):
        if self.in_title:
            self.title += data
        if self.cell is not None:
            self.cell += data


def main():
    cmd = sys.argv[1]
    if cmd == "sites":
        sites(sys.argv[2], int(sys.argv[3]), json_names(sys.argv[4]) if len(sys.argv) > 4 else None)
    elif cmd in ("dom", "tags"):
        d = Dom()
        d.feed(open(sys.argv[2], encoding="utf-8").read())
        if cmd == "tags":
            for t in sorted(d.tags):
                print("%s %d" % (t, d.tags[t]))
            return
        print(d.title)
        for r in d.rows:
            if r:
                print("%s\t%s" % (r[1].replace(",", "").replace(" B", ""), r[0]))
    elif cmd == "json":
        s = open(sys.argv[2], encoding="utf-8").read()
        m = re.search(r'<script id="memtime-data" type="application/json">(.*?)</script>', s, re.S)
        v = json.loads(m.group(1))
        for k in sys.argv[3:]:
            v = v[int(k)] if isinstance(v, list) else v[k]
        print(json.dumps(v))


main()
