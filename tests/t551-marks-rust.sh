#!/usr/bin/env bash
# t551-marks-rust: the Rust example of docs/client-requests.md, taken from
# the document itself (so the docs cannot drift), compiled with rustc and a
# small main. Natively its requests return false; under memtime they return
# true, the mark lands in the companion file and the snapshot is detailed.
. "$(dirname "$0")/lib.sh"
need rustc

RUSTC=$(test_rustc)   # lib.sh: Debian's rustc first, as on a fresh machine
plan 8

doc=$MT_SRC/docs/client-requests.md
# The first ```rust block of the document, verbatim.
awk '/^```rust$/ {on=1; next} on && /^```$/ {exit} on {print}' "$doc" >"$T/example.rs"
check "docs/client-requests.md has a Rust example" grep -q 'fn memtime_request' "$T/example.rs"
cat >>"$T/example.rs" <<'RS'

fn main() {
    let big = vec![7u8; 100_000];
    println!("mark {}", memtime_mark(CStr::from_bytes_with_nul(b"state sync\0").unwrap()));
    println!("snapshot {}", memtime_snapshot());
    println!("mark {}", memtime_mark(CStr::from_bytes_with_nul(b"after sync\0").unwrap()));
    println!("kept {}", big.iter().map(|&b| b as u64).sum::<u64>());
}
RS
"$RUSTC" --edition 2021 -g -C opt-level=1 -o "$T/example" "$T/example.rs" 2>"$T/rustc.err"
check "rustc compiles the example (edition 2021)" test -x "$T/example"
[ -x "$T/example" ] || head -20 "$T/rustc.err" | diag "$(cat)"

is "$("$T/example" 2>&1 | tr '\n' ' ')" "mark false snapshot false mark false kept 700000 " \
  "natively the requests return false"
out=$T/rust.out
memtime -q --detailed-freq=1000000 --memtime-out-file="$out" "$T/example" >"$T/run.txt" 2>"$T/run.err"
is "$(tr '\n' ' ' <"$T/run.txt")" "mark true snapshot true mark true kept 700000 " \
  "under memtime the requests return true"
is "$(sed -n 's/^mark: time=[0-9]* //p' "$out.memtime" | tr '\n' '|')" "state sync|after sync|" \
  "both marks in the companion file, in order"
check "profile: strict grammar" grammar "$out"
# The requested snapshot holds the 100000-byte vector.
check "the requested snapshot is detailed and holds the vector" \
  sh -c "awk '/^mem_heap_B=/{h=substr(\$0,12)} /^heap_tree=detailed/{if (h >= 100000) n++} END{exit !(n >= 1)}' '$out'"
check "ms_print reads it" sh -c "ms_print '$out' >/dev/null"
finish
