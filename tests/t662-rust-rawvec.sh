#!/usr/bin/env bash
# t662-rust-rawvec: Rust's allocation plumbing as a wrapper with eight
# callers (tests/progs/wrap_rawvec.rs: eight functions, each one Vec grown
# by RawVec's grow_exact and finish_grow to exactly k * 8000 B, held to the
# end). Under memtime the plumbing never is the site: the eight functions
# hold their bytes in the default view (by crate, the program's crate by
# function: it holds all the heap), by function and by site, in the
# summary, the JSON's peak and growth and the chart's CSV
# (tests/wrapcheck.py), and no wrapper is left for memtime-vis to list.
. "$(dirname "$0")/lib.sh"
need rustc python3
RUSTC=$(test_rustc)
plan 5
cd "$T" || exit 1
"$RUSTC" --edition 2021 -g -C opt-level=0 -o rawvec "$MT_SRC/tests/progs/wrap_rawvec.rs" 2>rustc.err
check "rustc builds wrap_rawvec" test -x rawvec
memtime -q --memtime-out-file=r.out ./rawvec >run.txt 2>err
is "$(cat run.txt)" 288000 "the program runs under memtime (its own sum of the capacities)"
WANT="wrap_rawvec::load_index=8000,wrap_rawvec::read_blocks=16000,wrap_rawvec::parse_headers=24000,wrap_rawvec::build_trie=32000"
WANT="$WANT,wrap_rawvec::decode_frames=40000,wrap_rawvec::merge_runs=48000,wrap_rawvec::sort_keys=56000,wrap_rawvec::hash_rows=64000"
RUNTIME='(?!wrap_rawvec::).*|wrap_rawvec::main'   # the runtime's own groups: not compared
for view in default function site; do
  a=(); [ $view = default ] || a=(--group-by=$view --threshold=0)
  vis --json --top=20 "${a[@]}" r.out >$view.json && vis --top=20 "${a[@]}" r.out -o $view.csv &&
    vis --summary-only --top=20 "${a[@]}" r.out >$view.txt
  python3 "$MT_SRC/tests/wrapcheck.py" "$WANT" $view.json $view.csv $view.txt "$RUNTIME" >$view.diff
  case $view in
  default) check "the default view: the eight functions with their bytes, no wrapper listed (summary, JSON, growth, CSV)" \
             bash -c "cat $view.diff; test ! -s $view.diff && ! grep -q '^Allocation wrappers' $view.txt" ;;
  *) check "--group-by=$view: the eight functions with their bytes (summary, JSON, growth, CSV)" \
       bash -c "cat $view.diff; test ! -s $view.diff" ;;
  esac
done
finish
