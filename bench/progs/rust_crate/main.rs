// bench/progs/rust_crate: a small crate of a few files (this one and its
// modules words.rs and stats.rs) for bench/b-rust.sh, which times Debian's
// rustc compiling it at opt-level=2 under each tool. What is measured is
// rustc (LLVM inside: deep stacks of long, mangled, inlined Rust and C++
// names), not this program, which is never run; it uses generics, traits,
// closures, iterators, collections and formatting so that the compiler
// does real work on each.
mod stats;
mod words;

use stats::{Histogram, Summary};
use words::{Index, Tokenizer};

fn main() {
    let text = "the quick brown fox jumps over the lazy dog and the dog sleeps";
    let index: Index = Tokenizer::new(text).collect();
    let mut hist = Histogram::<u32>::with_buckets(8);
    for (word, positions) in index.iter() {
        hist.add(word.len() as u32);
        println!("{:>8} {:?}", word, positions);
    }
    let summary: Summary<f64> = index.lengths().map(|n| n as f64).collect();
    println!("{}", summary);
    println!("{}", hist);
}
