#!/usr/bin/env bash
# t582: names in an executable stripped to its exported symbols, as Debian
# ships postgres. tests/progs/stripped_palloc.c, built as a PIE with
# -rdynamic and `strip --strip-unneeded`: malloc's caller is a static
# function with no name, under an exported palloc. The known answers: the
# last tree holds build_index 1,200,000 B and load_cache 500,000 B.
# - by default (palloc is a known wrapper) and with --known-alloc-fns=no
#   --alloc-fn=palloc, stripping goes through the unnamed frame: the sites
#   are build_index and load_cache;
# - with --known-alloc-fns=no the site is the unnamed frame, and memtime-vis
#   labels it by its nearest named caller and its object.
. "$(dirname "$0")/lib.sh"
plan 8

prog="$T/stripped"
cc -O0 -g0 -fPIE -pie -rdynamic -fno-omit-frame-pointer -o "$prog" \
   "$MT_SRC/tests/progs/stripped_palloc.c" && strip --strip-unneeded "$prog" \
  || { not_ok "build and strip stripped_palloc.c"; exit 1; }
if ! readelf -S "$prog" | grep -q "\.symtab" && nm -D "$prog" | grep -q ' T palloc$'; then
  ok "the oracle: no symbol table, palloc exported"
else not_ok "the oracle: no symbol table, palloc exported"; fi

# The last snapshot's top-level sites as "bytes name" lines, sorted.
last_sites() {
  tac "$1" | awk '/^snapshot=/{exit} {print}' | tac \
    | sed -n 's/^ n[0-9]*: \([0-9]*\) 0x[0-9A-F]*: \([^ ]*\) .*/\1 \2/p' | sort
}
run() { local out=$1; shift
  memtime -q --time-unit=B --detailed-freq=1 "$@" --memtime-out-file="$T/$out" "$prog" 2>"$T/$out.err"; }

want=$'1200000 build_index\n500000 load_cache'
run def.mt
is "$(last_sites "$T/def.mt")" "$want" "default: palloc's callers are the sites"
run fn.mt --known-alloc-fns=no --alloc-fn=palloc
is "$(last_sites "$T/fn.mt")" "$want" "--alloc-fn=palloc strips the unnamed frame above it"
run off.mt --known-alloc-fns=no
is "$(last_sites "$T/off.mt")" "1700000 ???" "--known-alloc-fns=no: the unnamed frame is the site"
check "  ... with palloc under it" grep -q '^  n2: 1700000 0x[0-9A-F]*: palloc ' "$T/off.mt"
check "massif-visualizer's grammar" grammar "$T/off.mt"
vis "$T/off.mt" >"$T/off.txt"
check "memtime-vis: labelled by its nearest named caller and its object" \
  grep -q "^   1\. .*100\.0%  ??? called by palloc (in ${prog##*/})\$" "$T/off.txt"
vis "$T/def.mt" >"$T/def.txt"
check "memtime-vis: named sites keep their names" grep -q '^   1\. .*build_index (in ' "$T/def.txt"
finish
