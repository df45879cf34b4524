#!/usr/bin/env bash
# t611-growth-kinds: the growth kinds' rule (docs/memtime-vis.1, GROWTH
# KINDS) on synthetic one-site profiles: one series per kind and series
# exactly on each boundary, and one step past it. Also: --json escapes
# site names as data (quotes, '<', '&', '</script>', ';', a tab, a byte
# that is not UTF-8) and python3's json reads them back unchanged.
. "$(dirname "$0")/lib.sh"
need python3
cases=(
  "flat:1000 1000 1000 1000"
  "flat:1000 950 1000 960"            # range exactly 5% of the maximum
  "shrinking:1000 949"                # 5.1%: no longer flat; ends lower, starts at the max
  "steady:0 100 200 300 400 500"
  "steady:0 100 200 200 200 300"      # 3 rises of 5 steps (0.6 n), one in the last third
  "plateau:0 100 200 300 300 300"     # 3 rises but none in the last third: levelled
  "plateau:0 100 100 100 100 200"     # 2 rises of 5: too few for steady
  "steady:0 100 200 300 250 400 500 600 700 800 900"   # 1 fall in 10 steps (0.1 n)
  "plateau:0 100 50 300 250 400 500 600 700 800 900"   # 2 falls in 10 steps
  "steady:0 100 200 300 400 450 500 600 700 800 850 900 1000"
  "steady:1000 1005 1010 1015 2000 3000"   # every step rises, however little
  "shrinking:1000 900 800 700 600 500"
  "steady:0 $(seq -s ' ' 1000 10 1400)"   # 40 rises of 10, each under 1% of the max
  "plateau:0 1000 1000 1000 1000 1000 1000 1001"   # one rise in the last third, too few overall
  "burst:0 0 1000 0 0"
  "burst:0 1000 500"                  # fell back exactly half the range
  "plateau:0 1000 501"                # fell back less than half
  "burst:500 1000 500"
)
plan $(( ${#cases[@]} + 3 ))

mkprofile() {   # FILE LABEL VALUES...
  local f=$1 label=$2; shift 2
  { printf 'desc: (none)\ncmd: synthetic\ntime_unit: ms\n'
    local i=0 v
    for v in "$@"; do
      printf '#-----------\nsnapshot=%d\n#-----------\ntime=%d\nmem_heap_B=%d\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=detailed\n' "$i" $((i * 100)) "$v"
      if [ "$v" -gt 0 ]; then
        printf 'n1: %d (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n n0: %d 0x1: %s\n' "$v" "$v" "$label"
      else
        printf 'n0: 0 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n'
      fi
      i=$((i + 1))
    done; } >"$f"
}
kind_of() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join(g["kind"] for g in d["growth"]) or "none")'; }
for c in "${cases[@]}"; do
  want=${c%%:*}; series=${c#*:}
  mkprofile "$T/s.out" "f (a.c:1)" $series
  got=$(vis --json --no-companion "$T/s.out" | kind_of)
  is "$got" "$want" "$series -> $want"
done

# Names as data in the JSON.
name=$(printf 'ev<il> "q" & x;y [u8; 8] </script>\ttab \xff end (a.c:1)')
mkprofile "$T/n.out" "$name" 0 100 200 300
vis --json --no-companion "$T/n.out" >"$T/n.json"
is "$?" 0 "--json with a hostile name: exit 0"
check "no raw '<' or control character in the document" sh -c "! grep -q '[<>&]' '$T/n.json' && ! grep -qP '[\\x00-\\x08\\x0b-\\x1f]' '$T/n.json'"
want=$(printf '%s' "$name" | python3 -c 'import sys; print(repr(sys.stdin.buffer.read().decode("utf-8", "replace")))')
got=$(json_get "$T/n.json" 'repr(d["growth"][0]["site"])')
is "$got" "$want" "the name reads back unchanged (the stray byte as U+FFFD)"
finish
