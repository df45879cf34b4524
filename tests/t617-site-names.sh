#!/usr/bin/env bash
# t617-site-names: names a person can read, and never two sites printed
# alike. tests/data/gen/names.py writes a profile of the hard
# cases of big Rust and C++ programs (Rust legacy and v0 hashes, a mangled
# name that leaked through, deep generics, libstdc++'s vector internals, a
# qualified path, libraries with build hashes, five stripped sites in
# libLLVM, two in mariadbd called by one function, counts for sites no tree
# shows) and a second one for diff. tests/namecheck.py reads every output
# apart from memtime-vis's C code: in each section no two rows read the
# same, one name per site and one site per name across sections (JSON
# identifies sites by label), no Rust or build hash, every "…" stands for
# whole words, known names exactly as the rules give them, and every text
# output uses the names --json gives. Then a real Rust program compiled
# with rustc (legacy and v0 symbol mangling) under memtime: no hash anywhere.
. "$(dirname "$0")/lib.sh"
need python3 rustc
plan 25
[ -x "$MT_VIS" ] || { for i in $(seq 25); do skip "memtime-vis not built"; done; finish; exit; }

CHECK="python3 $MT_SRC/tests/namecheck.py"
GEN="$MT_SRC/tests/data/gen/names.py"
python3 "$GEN" "$T/n.out" && python3 "$GEN" "$T/n2.out" --new
cd "$T" || exit 1

# namecheck KIND FILE DESC [ARGS]: the checker's verdict as a test.
namecheck() {
  local kind=$1 file=$2 d=$3; shift 3
  if $CHECK "$kind" "$file" "$@" >"$T/nc.out" 2>/dev/null; then ok "$d"
  else not_ok "$d"; diag "$(head -20 "$T/nc.out")"; fi
}

vis --json n.out >n.json
if $CHECK json n.json 2>known.txt >"$T/nc.out"; then ok "--json: distinct names, one per site across peak, growth, at_exit, sites"
else not_ok "--json: distinct names"; diag "$(head -20 "$T/nc.out")"; fi
# The names the rules give, by construction (docs/memtime-vis.1, NAMES).
E=$'\u2026'
cat >want.tsv <<EOF
0x4A1000	${E}::Vec<${E}::Option<${E}::Box<${E}::TyS>>>::push (in librustc_driver.so)
0x4A1100	${E}::Vec<${E}::Option<${E}::Box<${E}::Body>>>::push (in librustc_driver.so)
0x4A1200	std::${E}::_M_realloc_insert<${E}>(${E}) (in libLLVM-14.so.1)
0x4A1300	<${E}::DroplessArena>::grow (in librustc_driver.so)
0x4A1400	std::rt::lang_start_internal::{closure#2} (in rustc)
0x4A1500	core::ptr::drop_in_place @0x4A1500 (in prog)
0x4A1600	core::ptr::drop_in_place @0x4A1600 (in prog)
0x4A1700	<${E}::Vec<${E}> as ${E}::Drop>::drop (vec.rs:3011)
0x4A1800	${E}::intern_ty::{closure#0} (in librustc_driver.so)
0x4A1900	HashMap<u64, Vec<Option<Box<${E}>>>>::insert (in prog)
0x4A1A00	hashbrown::HashMap<u64, Vec<${E}>>::insert (in prog)
0x500010	??? called by llvm::${E}::run(${E}) (in libLLVM-14.so.1)
0x500020	??? @0x500020 called by ${E}::runOnFunction(${E}) (in libLLVM-14.so.1)
0x500050	??? @0x500050 (in libLLVM-14.so.1)
0x600010	??? @0x600010 called by ha_initialize_handlerton(${E}) (in mariadbd)
0x600020	??? @0x600020 called by ha_initialize_handlerton(${E}) (in mariadbd)
0x700010	??? @0x700010 (in libLLVM-14.so.1)
0x4A2000	main (prog.c:10)
EOF
namecheck json n.json "known names: hashes gone, generics inside out (HashMap<u64, Vec<Option<Box<…>>>>), then argument lists, whole :: segments, a qualified path's type kept, ??? called by, addresses where callers are alike" --names want.tsv
is "$(grep -c "$E" known.txt) $(wc -l <known.txt)" "13 22" "22 sites named, 13 of them shortened"

vis --summary-only --top=30 n.out >sum.txt
namecheck summary sum.txt "summary: every section (peak, 5%, growing, still live, most allocations, temporaries) distinct, --json's names" --known known.txt
for sec in "Top allocation sites" "Growing over" "Still live at exit" "Most allocations" "Most temporary"; do
  is "$(sed -n "/^$sec/,/^\$/p" sum.txt | grep -c "???")" \
     "$(case $sec in Top*) echo 7;; Growing*) echo 2;; *) echo 10;; esac)" \
     "summary: '$sec' lists the ??? sites (called by, or by address)"
done
check "summary: five libLLVM sites under ??? read differently" \
  sh -c "[ \$(sed -n '/^Still live/,/^\$/p' sum.txt | grep -o '??? .*libLLVM.*' | sort -u | wc -l) = 8 ]"
vis --growth n.out >growth.txt
namecheck growth growth.txt "--growth: distinct, --json's names" --known known.txt
vis diff --top=30 n.out n2.out >diff.txt
namecheck diff diff.txt "diff: distinct rows, short names, no hash"
vis diff --json n.out n2.out >diff.json
namecheck djson diff.json "diff --json: name and site distinct per row"
vis n.out -o n.csv
namecheck csv n.csv "CSV header: the full names, distinct, no Rust hash"
check "CSV header: a full name keeps its path and arguments" \
  grep -q '"??? @0x600010 called by ha_initialize_handlerton(void\*) (in /usr/sbin/mariadbd)"\|??? @0x600010 called by ha_initialize_handlerton(void\*) (in /usr/sbin/mariadbd)' n.csv
vis n.out -o n.html
namecheck html n.html "HTML's JSON: rows, bands and the trees' sites distinct, one name per site" --names want.tsv
MEMTIME_VIS_DEBUG_LAYOUT=1 "$MT_VIS" n.out -o n.png 2>n.layout
namecheck legend n.layout "PNG legend (default --top): distinct, whole words, no hash (where a name does not fit, its whole-word shortening)"
MEMTIME_VIS_DEBUG_LAYOUT=1 "$MT_VIS" n.out -o n30.png --top=30 2>n30.layout
namecheck legend n30.layout "PNG legend at --top=30 (two columns, less room): distinct, whole words"

# The checker is not blind: a summary with two rows alike, a hash, a cut word.
sed '/^Most allocations/{n;p}' sum.txt >dup.txt
! $CHECK summary dup.txt >/dev/null 2>&1; is "$?" 0 "namecheck: a row printed twice fails"
sed '0,/main (prog.c:10)/s//main::h0123456789abcdef (prog.c:10)/' sum.txt >hash.txt
! $CHECK summary hash.txt >/dev/null 2>&1; is "$?" 0 "namecheck: a Rust hash fails"
sed "0,/intern_ty/s//inte${E}ty/" sum.txt >cut.txt
! $CHECK summary cut.txt >/dev/null 2>&1; is "$?" 0 "namecheck: a cut inside a word fails"

# A real Rust program, legacy and v0 mangling, under memtime.
RUSTC=$(test_rustc)
for v in legacy v0; do
  if [ -z "$RUSTC" ]; then skip "no rustc"; skip "no rustc"; continue; fi
  args=(); [ $v = v0 ] && args=(-C symbol-mangling-version=v0)
  prog=$(rust_prog rust_names.rs 0 "${args[@]}" 2>"$T/rustc.err") || { not_ok "rustc builds rust_names.rs ($v)"; diag "$(head "$T/rustc.err")"; skip "no program"; continue; }
  memtime -q --time-unit=B --memtime-out-file="$T/r$v.out" "$prog" >/dev/null 2>"$T/r$v.err"
  # The program's own sites: a Rust program is grouped by crate by default,
  # and Arena::grow is a wrapper by its name (model/groups.h), whose two
  # instances are the names to tell apart here.
  G=(--group-by=site --keep-wrappers)
  vis "${G[@]}" --summary-only --top=30 "r$v.out" >"r$v.sum"; vis "${G[@]}" --json "r$v.out" >"r$v.json"
  vis "${G[@]}" --growth "r$v.out" >"r$v.growth"; vis "${G[@]}" "r$v.out" -o "r$v.csv"
  MEMTIME_VIS_DEBUG_LAYOUT=1 "$MT_VIS" "${G[@]}" "r$v.out" -o "r$v.png" 2>"r$v.layout"
  fails=""
  $CHECK json "r$v.json" 2>"r$v.known" >"nc.out" || fails+=" json:$(head -3 nc.out)"
  for k in summary:sum growth:growth csv:csv legend:layout; do
    $CHECK "${k%%:*}" "r$v.${k#*:}" >nc.out 2>/dev/null || fails+=" ${k%%:*}:$(head -3 nc.out)"
  done
  is "${fails:-none}" none "rustc ($v): every output distinct, whole words, no hash (namecheck)"
  # No hash anywhere but the JSON's verbatim labels.
  python3 - "r$v.json" >"r$v.json.nolabel" <<'PY'
import json, sys
def strip(x):
    if isinstance(x, dict): return {k: strip(v) for k, v in x.items() if k != "label"}
    if isinstance(x, list): return [strip(v) for v in x]
    return x
print(json.dumps(strip(json.load(open(sys.argv[1]))), ensure_ascii=False))
PY
  hits=$(grep -aEo '::h[0-9a-f]{16}\b|17h[0-9a-f]{16}E|[A-Za-z0-9_]\[[0-9a-f]{5,16}\]' "r$v.sum" "r$v.growth" "r$v.csv" "r$v.layout" "r$v.json.nolabel" | head -3)
  is "${hits:-none} $(sed -n '/^Top allocation sites/,/^$/p' "r$v.sum" | grep -E '^ +[0-9]+\. ' | grep -c 'rust_names.rs')" "none 3" "rustc ($v): no ::h<16 hex> hash printed anywhere; the program's 3 sites in the peak list"
done
finish
