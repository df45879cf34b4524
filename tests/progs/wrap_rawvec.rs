// wrap_rawvec.rs (t662): eight functions each fill a Vec<u64> that grows
// through RawVec's grow (Vec::reserve_exact from empty: RawVec::grow_exact,
// finish_grow; one block of exactly k * 8000 bytes, no reallocation), all
// held until the end: Rust's allocation plumbing with eight callers. The
// k of each function is its place in this file (load_index 1 .. hash_rows
// 8); main's own Vec of them holds 8 * 24 bytes.

#[inline(never)]
fn load_index(keep: &mut Vec<Vec<u64>>) {
    let mut v: Vec<u64> = Vec::new();
    v.reserve_exact(1000);
    v.extend((0..1000u64).map(|x| x | 1));
    keep.push(v);
}

#[inline(never)]
fn read_blocks(keep: &mut Vec<Vec<u64>>) {
    let mut v: Vec<u64> = Vec::new();
    v.reserve_exact(2000);
    v.extend((0..2000u64).map(|x| x | 1));
    keep.push(v);
}

#[inline(never)]
fn parse_headers(keep: &mut Vec<Vec<u64>>) {
    let mut v: Vec<u64> = Vec::new();
    v.reserve_exact(3000);
    v.extend((0..3000u64).map(|x| x | 1));
    keep.push(v);
}

#[inline(never)]
fn build_trie(keep: &mut Vec<Vec<u64>>) {
    let mut v: Vec<u64> = Vec::new();
    v.reserve_exact(4000);
    v.extend((0..4000u64).map(|x| x | 1));
    keep.push(v);
}

#[inline(never)]
fn decode_frames(keep: &mut Vec<Vec<u64>>) {
    let mut v: Vec<u64> = Vec::new();
    v.reserve_exact(5000);
    v.extend((0..5000u64).map(|x| x | 1));
    keep.push(v);
}

#[inline(never)]
fn merge_runs(keep: &mut Vec<Vec<u64>>) {
    let mut v: Vec<u64> = Vec::new();
    v.reserve_exact(6000);
    v.extend((0..6000u64).map(|x| x | 1));
    keep.push(v);
}

#[inline(never)]
fn sort_keys(keep: &mut Vec<Vec<u64>>) {
    let mut v: Vec<u64> = Vec::new();
    v.reserve_exact(7000);
    v.extend((0..7000u64).map(|x| x | 1));
    keep.push(v);
}

#[inline(never)]
fn hash_rows(keep: &mut Vec<Vec<u64>>) {
    let mut v: Vec<u64> = Vec::new();
    v.reserve_exact(8000);
    v.extend((0..8000u64).map(|x| x | 1));
    keep.push(v);
}

fn main() {
    let mut keep: Vec<Vec<u64>> = Vec::with_capacity(8);
    load_index(&mut keep);
    read_blocks(&mut keep);
    parse_headers(&mut keep);
    build_trie(&mut keep);
    decode_frames(&mut keep);
    merge_runs(&mut keep);
    sort_keys(&mut keep);
    hash_rows(&mut keep);
    let total: usize = keep.iter().map(|v| v.capacity() * 8).sum();
    println!("{}", total);
}
