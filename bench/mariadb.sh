#!/usr/bin/env bash
# bench/mariadb.sh: Debian's MariaDB server (mariadbd, stripped to its
# exported symbols) under memtime with default options and a mixed
# mariadb-slap load (a stripped C++ server's allocation wrappers seen
# through), never in the test suite (it needs
# mariadb-server and mariadb-client, and the figures depend on the build).
# Prints the peak, the top sites with their shares, the namespace and
# function groupings, the wrappers found, and a verdict on its
# goals: no MariaDB allocation wrapper (my_malloc, my_multi_malloc_large,
# alloc_root, ...) is a site, in the peak list or the allocation counts; no
# two sites share a label in the text summary or in --json.
#
#   bench/mariadb.sh                 the tool and memtime-vis of _build/bench
#   MT_BUILD=_build/o2 bench/mariadb.sh
#   MDB_QUERIES=20000 MDB_KEEP=1 bench/mariadb.sh
#
# Settings (environment): MT_BUILD (a configured and built tree, default
# _build/bench, built with -O2 -g when missing), MDB_QUERIES (queries of the
# load, default 4000), MDB_CONCURRENCY (clients, default 4), MDB_KEEP=1
# (keep the working directory: profile, summary, JSON, PNG, HTML).
# InnoDB under Valgrind: MariaDB 10.11.19 reserves address space for
# innodb_buffer_pool_size_max (8 TiB by default), which Valgrind cannot map,
# and its io_uring thread blocks every other thread under Valgrind's lock;
# hence --innodb-buffer-pool-size-max=64M and --innodb-use-native-aio=0.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${MT_BUILD:-$SRC/_build/bench}
case $B in /*) ;; *) B=$SRC/$B ;; esac
NQ=${MDB_QUERIES:-4000}
CONC=${MDB_CONCURRENCY:-4}

for p in /usr/sbin/mariadbd mariadb-install-db mariadb-slap mariadb-admin; do
  command -v "$p" >/dev/null || { echo "mariadb.sh: no $p (apt-get install mariadb-server mariadb-client)" >&2; exit 2; }
done
if [ ! -x "$B/visualizer/memtime-vis" ]; then
  mkdir -p "$B" && (cd "$B" && "$SRC/configure" CFLAGS='-O2 -g' >configure.log 2>&1 && make -j2 >make.log 2>&1) ||
    { echo "mariadb.sh: the build in $B failed (see its make.log)" >&2; exit 2; }
fi
VIS=$B/visualizer/memtime-vis
W=$(mktemp -d /tmp/memtime-mariadb.XXXXXX)
[ -n "${MDB_KEEP:-}" ] || trap 'rm -rf "$W"' EXIT
D=$W/data S=$W/sock OUT=$W/mariadbd.out

mariadb-install-db --no-defaults --datadir="$D" --user="$(id -un)" \
  --auth-root-authentication-method=normal >"$W/install.log" 2>&1 ||
  { echo "mariadb.sh: mariadb-install-db failed (see $W/install.log)" >&2; exit 2; }
t0=$(date +%s%N)
VALGRIND_LIB=$B/memtime/inplace valgrind --tool=memtime -q --memtime-out-file="$OUT" \
  /usr/sbin/mariadbd --no-defaults --datadir="$D" --socket="$S" --skip-networking \
  --user="$(id -un)" --pid-file="$W/pid" --log-error="$W/err.log" \
  --innodb-buffer-pool-size=32M --innodb-buffer-pool-size-max=64M \
  --innodb-use-native-aio=0 2>"$W/memtime.err" &
VP=$!
admin() { mariadb-admin --no-defaults -uroot --socket="$S" "$@"; }
until admin ping >/dev/null 2>&1; do
  kill -0 "$VP" 2>/dev/null || { echo "mariadb.sh: mariadbd ended before it answered (see $W/err.log)" >&2; exit 2; }
  sleep 0.5
done
t1=$(date +%s%N)
mariadb-slap --no-defaults -uroot --socket="$S" --auto-generate-sql \
  --auto-generate-sql-load-type=mixed --concurrency="$CONC" --number-of-queries="$NQ" \
  --iterations=1 >"$W/slap.txt" 2>&1 || echo "mariadb.sh: mariadb-slap failed (see $W/slap.txt)" >&2
t2=$(date +%s%N)
admin shutdown
wait "$VP"; rc=$?
t3=$(date +%s%N)
ms() { echo $((($2 - $1) / 1000000)); }
echo "mariadbd $(/usr/sbin/mariadbd --version | awk '{print $3}'): start $(ms "$t0" "$t1") ms," \
     "load ($NQ queries, $CONC clients) $(ms "$t1" "$t2") ms, shutdown $(ms "$t2" "$t3") ms; memtime exit $rc"

"$VIS" --summary-only --top=10 "$OUT" >"$W/summary.txt"
"$VIS" --json "$OUT" >"$W/summary.json"
"$VIS" --summary-only --group-by=namespace --top=8 "$OUT" >"$W/namespace.txt"
"$VIS" --summary-only --group-by=function --top=8 "$OUT" >"$W/function.txt"
"$VIS" -o "$W/chart.png" "$OUT" && "$VIS" -o "$W/report.html" "$OUT"
sed -n '/^  Peak:/p;/^Grouping/,/^$/p' "$W/summary.txt"
sed -n '/^Top groups/,/^Allocation/p' "$W/namespace.txt" | sed '$d'
sed -n '/^Top groups/,/^Allocation/p' "$W/function.txt" | sed '$d'
sed -n '/^Most allocations/,/^$/p' "$W/summary.txt"

# The verdict.
python3 - "$W/summary.json" "$W/summary.txt" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1])); text = open(sys.argv[2]).read()
wrappers = re.compile(r'\b(my_malloc|my_realloc|my_multi_malloc(_large)?|my_strn?dup|my_memdup|'
                      r'my_once_\w+|alloc_root|multi_alloc_root|memdup_root|strdup_root|strmake_root)\b')
fails = []
peak = d['peak']['sites']; counts = d['sites']
for where, rows in (('peak', peak), ('counts', counts)):
    bad = [r['site'] for r in rows if wrappers.search(r['site']) and 'called by' not in r['site']]
    if bad:
        fails.append('a wrapper is a site in the JSON %s: %s' % (where, bad))
    for key in ('site', 'label'):
        names = [r[key] for r in rows]
        if len(set(names)) != len(names):
            fails.append('two JSON %s rows share a %s' % (where, key))
top = re.findall(r'^ +\d+\. +\S+ \S+ +\S+ +(.*)$', text.split('Top ')[1].split('\n\n')[0], re.M)
if len(set(top)) != len(top):
    fails.append('two lines of the text peak list read the same')
heap = d['peak']['heap_bytes']
print('top site: %.1f%% of the %.1f MiB heap at the peak; %d wrappers found by memtime-vis'
      % (100.0 * peak[0]['bytes'] / heap, heap / 1048576.0, len(d['grouping']['wrappers'])))
print('\n'.join(fails) if fails else 'goals met: no wrapper is a site, no two sites share a label (text, JSON)')
sys.exit(1 if fails else 0)
PY
ok=$?
[ -n "${MDB_KEEP:-}" ] && echo "kept: $W"
exit $ok
