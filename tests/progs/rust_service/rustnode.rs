// rustnode.rs: the crate of a small multi-threaded Rust service (t661) that
// holds its heap: three modules, each allocating a known number of bytes
// with vec![0; n] (one block of exactly n bytes each, no growth):
//   batch::run_batch          8 x 100000 B held while a batch runs
//   cache::BlockCache::import 50000 B blocks, at most 4 kept (200000 B)
//   peers::add_peer           1000 B leaked per peer (the leak)
// main.rs says when each runs; t661 reads the answers from these constants.

pub mod batch {
    pub const BUFS: usize = 8;
    pub const BUF: usize = 100_000;

    /// Allocates a batch's buffers and returns them (the caller frees them).
    #[inline(never)]
    pub fn run_batch(round: u8) -> [Vec<u8>; BUFS] {
        let mut v: [Vec<u8>; BUFS] = Default::default();
        for (k, b) in v.iter_mut().enumerate() {
            *b = vec![round.wrapping_add(k as u8) | 1; BUF];
        }
        v
    }
}

pub mod cache {
    pub const BLOCK: usize = 50_000;
    pub const KEEP: usize = 4;

    /// A bounded cache of blocks: the oldest is dropped past KEEP.
    pub struct BlockCache {
        slots: [Option<Vec<u8>>; KEEP],
        next: usize,
    }

    impl BlockCache {
        pub const fn new() -> BlockCache {
            BlockCache { slots: [None, None, None, None], next: 0 }
        }

        /// The oldest block is dropped before the new one is allocated, so
        /// the cache never holds more than KEEP blocks.
        #[inline(never)]
        pub fn import(&mut self, id: u8) {
            let slot = &mut self.slots[self.next % KEEP];
            drop(slot.take());
            *slot = Some(vec![id | 1; BLOCK]);
            self.next += 1;
        }

        pub fn held(&self) -> usize {
            self.slots.iter().flatten().map(|b| b.len()).sum()
        }
    }
}

pub mod peers {
    pub const PEER: usize = 1000;

    /// Registers a peer: its record is never freed (the leak).
    #[inline(never)]
    pub fn add_peer(id: u8) -> &'static [u8] {
        Box::leak(vec![id | 1; PEER].into_boxed_slice())
    }
}
