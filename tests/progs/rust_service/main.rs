// main.rs: the service's threads (t661). Three workers run ROUNDS rounds in
// step (a barrier between steps): the peers thread adds a peer (1000 B
// leaked), the cache thread imports a block (the cache keeps 4), then the
// batch thread runs a batch (800000 B) and frees it after the others have
// waited. So the heap is largest while the last batch runs: 800000 B in
// run_batch, 200000 B in BlockCache::import, ROUNDS x 1000 B in add_peer.
use rustnode::batch::run_batch;
use rustnode::cache::BlockCache;
use rustnode::peers::add_peer;
use std::sync::{Arc, Barrier};
use std::thread;

const ROUNDS: usize = 40;

fn main() {
    let step = Arc::new(Barrier::new(3));
    let (s1, s2, s3) = (step.clone(), step.clone(), step.clone());
    let peers = thread::spawn(move || {
        let mut sum = 0usize;
        for i in 0..ROUNDS {
            s1.wait();
            sum += add_peer(i as u8).len();
            s1.wait();
            s1.wait();
        }
        sum
    });
    let cache = thread::spawn(move || {
        let mut c = BlockCache::new();
        for i in 0..ROUNDS {
            s2.wait();
            c.import(i as u8);
            s2.wait();
            s2.wait();
        }
        c.held()
    });
    let batch = thread::spawn(move || {
        let mut last = 0usize;
        for i in 0..ROUNDS {
            s3.wait();
            s3.wait();
            let b = run_batch(i as u8);
            last = b.iter().map(|v| v.len()).sum();
            s3.wait();
            drop(b);
        }
        last
    });
    let (p, c, b) = (peers.join().unwrap(), cache.join().unwrap(), batch.join().unwrap());
    println!("{} {} {}", p, c, b);
}
