#!/usr/bin/env bash
# t660-wrapper-corpus: allocation wrappers by what they are, on programs
# whose every byte is known by construction (their header comments):
#  - tests/progs/wrap_false.c, built with -O2: functions a rule counting
#    return addresses takes for wrappers, and which are not: a cache insert
#    called from one line of main in a loop unrolled 8 times, a factory
#    called from 8 lines of one function, a function called through a
#    helper inlined at 8 places of one caller, a recursive allocator with 8
#    recursive call sites. Each is one site holding all its bytes, at site
#    and function grouping, in the summary, the JSON (peak and growth) and
#    the chart's CSV; none is listed as a wrapper. Counting callers by
#    address splits every one of them into "main @0x..." sites: these
#    checks fail then.
#  - tests/progs/wrap_true.cc: true wrappers (pool_get and the template
#    make_array<char>, 8 calling functions each, found by their shape;
#    my_malloc known by name): their callers are the sites, with the
#    program's bytes, and the summary and the JSON say why each was taken.
# tests/wrapcheck.py compares the outputs with the answer.
. "$(dirname "$0")/lib.sh"
need c++ python3
plan 13
cd "$T" || exit 1

# outputs FILE PREFIX ARGS...: JSON, chart CSV and summary of FILE.
outputs() {
  local f=$1 p=$2; shift 2
  vis --json --top=30 "$@" "$f" >"$p.json" && vis --top=30 "$@" "$f" -o "$p.csv" &&
    vis --summary-only --top=30 "$@" "$f" >"$p.txt"
}
wrapcheck() { python3 "$MT_SRC/tests/wrapcheck.py" "$@"; }

P=$(build_prog wrap_false.c -O2 -fno-optimize-sibling-calls) || { not_ok "build wrap_false.c"; exit 1; }
memtime -q --memtime-out-file=f.out "$P" 2>err.f
check "memtime profiles wrap_false (all its blocks held at exit)" test -s f.out
FALSE="lru_insert=1572864,rec_store=40000,parse=37376,make_widget=36000"
outputs f.out fs --group-by=site --threshold=0
check "by site: each look-alike is one site with all its bytes (summary, JSON, growth, CSV)" \
  wrapcheck "$FALSE" fs.json fs.csv fs.txt
check "by site: no wrapper found, none listed" \
  python3 -c 'import json,sys; w=json.load(open("fs.json"))["grouping"]["wrappers"]; sys.exit(repr(w) if w else 0)'
check "by site: the summary lists no allocation wrapper" bash -c "! grep -q '^Allocation wrappers' fs.txt"
outputs f.out ff --group-by=function --threshold=0
check "by function: the same four functions, the same bytes" \
  wrapcheck "$FALSE" ff.json ff.csv ff.txt
outputs f.out fd
check "the default view (a C program: by site) names the four sites" \
  wrapcheck "$FALSE" fd.json fd.csv fd.txt

P=$(build_prog wrap_true.cc) || { not_ok "build wrap_true.cc"; exit 1; }
memtime -q --known-alloc-fns=no --memtime-out-file=t.out "$P" 2>err.t
check "memtime profiles wrap_true (my_malloc left to memtime-vis)" test -s t.out
TRUE="open_table()=10000,read_row()=20000,sort_rows()=30000,build_index()=40000,join_rows()=50000,group_rows()=60000,write_log()=70000,send_reply()=80000"
TRUE="$TRUE,lex_token()=8000,parse_expr()=16000,plan_query()=24000,bind_params()=32000,eval_filter()=40000,fetch_page()=48000,encode_row()=56000,cache_plan()=64000"
TRUE="$TRUE,conn_open()=30000,conn_auth()=20000,conn_close()=10000"
outputs t.out ts --group-by=site --threshold=0
check "by site: the wrappers' callers are the sites, with the program's bytes (summary, JSON, growth, CSV)" \
  wrapcheck "$TRUE" ts.json ts.csv ts.txt
check "the JSON says why each wrapper was taken and which bytes went to its callers" python3 - ts.json <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))['grouping']['wrappers']
got = [(x['alloc_fn'], x['reason'], x['callers'], round(x['largest_caller_percent']), x['bytes'],
        x['bytes_to_callers'], x['callers_are_sites']) for x in w]
want = [('pool_get(unsigned long)', 'shape', 8, 22, 360000, 360000, True),
        ('char* make_array<char>(unsigned long)', 'shape', 8, 22, 288000, 288000, True),
        ('my_malloc', 'known name', 3, 50, 60000, 60000, True)]
assert got == want, got
PY
check "the summary: pool_get by its shape, 8 distinct calling functions, the largest 22%" \
  grep -qE '^ +[0-9.]+ KiB  pool_get\(unsigned long\) \(wrap_true\.cc:[0-9]+\): by its shape: 8 distinct calling functions, the largest 22% of its bytes; its callers are the sites' ts.txt
check "the summary: make_array<char> by its shape; my_malloc known by name, 3 calling functions" \
  bash -c "grep -qE 'make_array<char>.*: by its shape: 8 distinct calling functions, the largest 22% of its bytes; its callers are the sites' ts.txt &&
           grep -qE 'my_malloc \(wrap_true\.cc:[0-9]+\): known by name, 3 distinct calling functions; its callers are the sites' ts.txt"
outputs t.out tf --group-by=function --threshold=0
check "by function: the nineteen callers, no wrapper among them" \
  wrapcheck "$TRUE" tf.json tf.csv tf.txt
vis --json --group-by=function --threshold=0 --keep-wrappers t.out >tk.json
check "--keep-wrappers: the three wrappers hold their callers' bytes" python3 - tk.json <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
s = {re.sub(r' \(.*:[0-9]+\)$', '', x['site']): x['bytes'] for x in d['peak']['sites']}
assert s.get('pool_get(unsigned long)') == 360000 and s.get('char* make_array<char>(unsigned long)') == 288000 \
    and s.get('my_malloc') == 60000, s
assert all(not x['callers_are_sites'] for x in d['grouping']['wrappers'])
PY
finish
