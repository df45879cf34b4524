// rust_inlined.rs: allocation sites an optimised build inlines deeply, with
// Rust's default (system) allocator, for t406. Each function below keeps
// its allocations live until the peak:
//  - make_names: an iterator chain whose closure calls format!, collected
//    into a Vec (the closure's Strings must stay charged to the closure,
//    the Vec's buffer to make_names);
//  - make_table: a HashMap filled by insert (hashbrown's tables inlined);
//  - make_boxes: Box::new in a loop (alloc::alloc inlined).
// It prints the bytes it asked for so the test can check the tree's sums.
use std::collections::HashMap;

#[inline(never)]
fn make_names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("name-{:024}", i)).collect()
}

#[inline(never)]
fn make_table(n: u64) -> HashMap<u64, u64> {
    let mut t = HashMap::new();
    for i in 0..n {
        t.insert(i, i * 3);
    }
    t
}

#[inline(never)]
fn make_boxes(n: usize) -> Vec<Box<[u64; 8]>> {
    let mut v = Vec::with_capacity(n);
    for i in 0..n {
        v.push(Box::new([i as u64; 8]));
    }
    v
}

fn main() {
    let names = make_names(10_000);
    let table = make_table(20_000);
    let boxes = make_boxes(10_000);
    println!("names_bytes {}", names.len() * 29);
    println!("boxes_bytes {}", boxes.len() * 64);
    println!("checksum {}", names.len() + table.len() + boxes.len());
    drop(names);
    drop(table);
    drop(boxes);
}
