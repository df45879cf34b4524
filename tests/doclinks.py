#!/usr/bin/env python3
"""doclinks.py ROOT FILE.md...: every relative link and image of the given
Markdown files resolves. A link is [text](target) or ![alt](target) outside
fenced code blocks and code spans; http(s) and mailto targets are not
followed (the suite runs offline). A target's path is relative to the file
that holds it and must exist under ROOT; a #fragment, alone or after a
Markdown file, must be one of that file's headings as GitHub turns them
into anchors (lower case, punctuation dropped, spaces to hyphens, repeats
numbered -1, -2). Prints one line per broken link, FILE:LINE: what was
expected, what was found, and exits 1 if there was any."""
import os
import re
import sys

LINK = re.compile(r'!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')


def strip_code_spans(line):
    return re.sub(r'`+[^`]*`+', '', line)


def lines_outside_fences(path):
    fence = None
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            m = re.match(r'^\s*(`{3,}|~{3,})', line)
            if m:
                mark = m.group(1)[0] * 3
                if fence is None:
                    fence = mark
                elif mark == fence:
                    fence = None
                continue
            if fence is None:
                yield n, line.rstrip('\n')


def anchors(path):
    seen = {}
    out = set()
    for _, line in lines_outside_fences(path):
        m = re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
        if not m:
            continue
        text = re.sub(r'`', '', m.group(1))
        text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)
        slug = re.sub(r'[^\w\- ]', '', text.lower()).replace(' ', '-')
        k = seen.get(slug, 0)
        seen[slug] = k + 1
        out.add(slug if k == 0 else '%s-%d' % (slug, k))
    return out


def main():
    root = os.path.realpath(sys.argv[1])
    bad = 0
    cache = {}
    for doc in sys.argv[2:]:
        base = os.path.dirname(doc)
        for n, line in lines_outside_fences(doc):
            for m in LINK.finditer(strip_code_spans(line)):
                target = m.group(1)
                if re.match(r'^(https?|mailto):', target):
                    continue
                path, _, frag = target.partition('#')
                full = os.path.realpath(os.path.join(base, path)) if path else os.path.realpath(doc)
                rel = os.path.relpath(doc, root)
                if not (full == root or full.startswith(root + os.sep)):
                    print('%s:%d: a link inside the source tree expected, found %s' % (rel, n, target))
                    bad += 1
                elif not os.path.exists(full):
                    print('%s:%d: an existing file expected, found %s' % (rel, n, target))
                    bad += 1
                elif frag:
                    if not full.endswith('.md'):
                        print('%s:%d: a fragment only on a Markdown file expected, found %s' % (rel, n, target))
                        bad += 1
                    else:
                        if full not in cache:
                            cache[full] = anchors(full)
                        if frag not in cache[full]:
                            print('%s:%d: a heading for #%s expected in %s, found none' % (rel, n, frag, path or os.path.basename(doc)))
                            bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
