#!/usr/bin/env bash
# t619-wrapper-real: allocation wrappers and deep namespaces in a real C++
# program under memtime (tests/progs/ns_wrapped.cc, shaped like a database
# server): every byte goes through MariaDB's my_malloc (memtime strips it,
# --known-alloc-fns) or pool_take (a name nobody knows, 8 callers: a
# wrapper by its shape, which memtime-vis splits). The answers are the
# program's constants (its header comment), read from --json by python and
# from the text summary; t615 checks the same rules on a generated profile,
# t616 the grouping of a program without wrappers.
#  - the file itself: my_malloc's callers are the sites, ms_print agrees;
#  - the default view: namespace, db (73% of the heap) by its functions,
#    wrappers split; namespaces at depths 1, 2 and 3;
#  - every function's bytes; no two sites share a label (text and JSON);
#  - the summary names pool_take as found by its shape and gives the
#    --alloc-fn option; with it, the file and the allocation counts name
#    the callers; --known-alloc-fns=no leaves my_malloc to memtime-vis.
. "$(dirname "$0")/lib.sh"
need c++ python3
plan 16
cd "$T" || exit 1

P=$(build_prog ns_wrapped.cc) || { not_ok "build ns_wrapped.cc"; exit 1; }
memtime -q --memtime-out-file=a.out "$P" 2>err.a
check "memtime profiles ns_wrapped" test -s a.out

# in_tree FILE NAME: tree lines of FILE naming NAME (not its desc: line,
# which quotes the options).
in_tree() { grep -E '^ *n[0-9]+:' "$1" | grep -c "$2"; }
is "$(in_tree a.out my_malloc) $(($(in_tree a.out pool_take) > 0))" "0 1" \
   "the file: my_malloc stripped by --known-alloc-fns, pool_take kept (memtime cannot know it)"
ms_print a.out >ms.txt 2>&1
check "ms_print: db::engine::buf::Pool::grow holds 400,000 B in the file itself" \
  grep -qE '\(400,000B\) 0x[0-9A-F]+: db::engine::buf::Pool::grow' ms.txt

# The peak's groups (lib.sh's peak_sites) without the C and C++ libraries'
# own (a libstdc++ pool) and the merged rest.
OURS='^(?!in )(?!\(in lib)'
# db holds 73% of the heap by namespace: the default view tells it apart by
# its functions (more than half in one group explains nothing).
DEFAULT="(anonymous namespace)=80000 db::engine::buf::Page::frame(unsigned long)=40000 db::engine::buf::Pool::grow(unsigned long)=400000 db::engine::log::Rec::body(unsigned long)=50000 db::engine::log::Writer::reserve(unsigned long)=150000 db::sql::exec::Join::buffer(unsigned long)=120000 db::sql::exec::Sort::keys(unsigned long)=30000 db::sql::parse::Lexer::token(unsigned long)=10000 db::sql::parse::Parser::node(unsigned long)=20000 net=220000"
is "$(peak_sites a.out "$OURS")" "$DEFAULT" \
   "default view: by namespace, db (73%) by its functions, both wrappers' callers counted where they are"
is "$(vis --json a.out | json_get - 'd["grouping"]["by"], d["grouping"]["by_default"]')" \
   "namespace True" "the default grouping of a C++ program with namespaces is namespace, and says so"
is "$(peak_sites a.out "$OURS" --group-by=namespace --namespace-depth=2)" \
   "(anonymous namespace)=80000 db::engine=640000 db::sql=180000 net::proto=70000 net::vio=150000" \
   "namespace depth 2"
is "$(peak_sites a.out "$OURS" --group-by=namespace --namespace-depth=3)" \
   "(anonymous namespace)=80000 db::engine::buf=440000 db::engine::log=200000 db::sql::exec=150000 db::sql::parse=30000 net::proto::Packet=70000 net::vio::Socket=90000 net::vio::Ssl=60000" \
   "namespace depth 3: classes are scopes too"

FUNCS="(anonymous namespace)::scratch(unsigned long)=80000 db::engine::buf::Page::frame(unsigned long)=40000 db::engine::buf::Pool::grow(unsigned long)=400000 db::engine::log::Rec::body(unsigned long)=50000 db::engine::log::Writer::reserve(unsigned long)=150000 db::sql::exec::Join::buffer(unsigned long)=120000 db::sql::exec::Sort::keys(unsigned long)=30000 db::sql::parse::Lexer::token(unsigned long)=10000 db::sql::parse::Parser::node(unsigned long)=20000 net::proto::Packet::alloc(unsigned long)=70000 net::vio::Socket::read_buf(unsigned long)=90000 net::vio::Ssl::state(unsigned long)=60000"
is "$(peak_sites a.out "$OURS" --group-by=function --threshold=0)" "$FUNCS" \
   "by function: the twelve callers hold what they allocated, no wrapper among them"

vis --json --group-by=site --threshold=0 a.out >site.json
check "by site (JSON): twelve distinct sites, none a wrapper, each with the program's bytes" python3 - site.json <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
s = [x for x in d['peak']['sites'] if not x['site'].startswith('in ') and '(in lib' not in x['site']]
assert len({x['site'] for x in s}) == len(s) == 12, [x['site'] for x in s]
assert len({x['label'] for x in s}) == 12
assert not any('pool_take' in x['site'] or 'my_malloc' in x['site'] for x in s)
got = {re.sub(r'\(unsigned long\).*', '', x['site']): x['bytes'] for x in s}
assert got['db::engine::buf::Pool::grow'] == 400000 and got['(anonymous namespace)::scratch'] == 80000, got
w = d['grouping']['wrappers']
assert [(x['alloc_fn'], x['callers'], x['by_name'], x['callers_are_sites'], x['bytes']) for x in w] == \
    [('pool_take', 8, False, True, 360000)], w
PY

vis --summary-only --group-by=site --threshold=0 --top=30 a.out >sum.txt
check "summary: no two lines of the peak list read the same" bash -c \
  "sed -n '/^Top allocation sites/,/^Allocation/p' sum.txt | grep -E '^ +[0-9]+\\.' | sed -E 's/^ +[0-9]+\\. +[^ ]+ [^ ]+ +[^ ]+ +//' | sort | uniq -d | grep -q . && exit 1 || exit 0"
check "summary: pool_take found by its shape, 8 distinct calling functions, the largest 22%, its callers the sites" \
  grep -qE '^ +[0-9.]+ KiB  pool_take \(ns_wrapped\.cc:[0-9]+\): by its shape: 8 distinct calling functions, the largest 22% of its bytes; its callers are the sites' sum.txt
check "summary: the hint gives memtime's --alloc-fn=pool_take" \
  bash -c "grep -A1 \"profile with memtime's --alloc-fn\" sum.txt | grep -qx '      --alloc-fn=pool_take'"

# What the hint says: with --alloc-fn=pool_take the file and the counts
# name the callers.
memtime -q --alloc-fn=pool_take --memtime-out-file=c.out "$P" 2>err.c
is "$(in_tree c.out pool_take) $(vis --summary-only c.out | grep -c '^Allocation wrappers')" "0 0" \
   "--alloc-fn=pool_take: the file's tree has no pool_take, the summary no wrapper"
is "$(vis --json --group-by=function c.out | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join("%s=%d" % (x["site"].split("(")[0] if not x["site"].startswith("(anon") else x["site"], x["allocations"])
               for x in sorted(d["sites"], key=lambda x: x["site"]) if "(in lib" not in x["site"]))')" \
   "(anonymous namespace)::scratch(unsigned long)=1 db::engine::buf::Page::frame=1 db::engine::buf::Pool::grow=4 db::engine::log::Rec::body=1 db::engine::log::Writer::reserve=1 db::sql::exec::Join::buffer=3 db::sql::exec::Sort::keys=1 db::sql::parse::Lexer::token=1 db::sql::parse::Parser::node=1 net::proto::Packet::alloc=1 net::vio::Socket::read_buf=1 net::vio::Ssl::state=1" \
   "--alloc-fn=pool_take: the allocation counts are the callers' (Pool::grow 4 calls, Join::buffer 3)"

# Without memtime's list, memtime-vis splits my_malloc by its name.
memtime -q --known-alloc-fns=no --memtime-out-file=b.out "$P" 2>err.b
vis --summary-only b.out >sum.b
is "$(($(in_tree b.out my_malloc) > 0)) $(grep -cE 'my_malloc \(ns_wrapped\.cc:[0-9]+\): known by name, 4 distinct calling functions; its callers are the sites' sum.b)" "1 1" \
   "--known-alloc-fns=no: my_malloc in the file; memtime-vis splits it by name, 4 callers"
is "$(peak_sites b.out "$OURS")" "$DEFAULT" \
   "--known-alloc-fns=no: the default view is still by namespace, with the same bytes"
finish
