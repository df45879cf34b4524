// rust_jemalloc.rs: a Rust program whose #[global_allocator] calls
// jemalloc's `_rjem_`-prefixed extended API the way tikv-jemallocator does
// (alloc -> mallocx with MALLOCX_LG_ALIGN only when the alignment needs it,
// alloc_zeroed -> mallocx | MALLOCX_ZERO, realloc -> rallocx, dealloc ->
// sdallocx), linked against libjemalloc_pic.a renamed `_rjem_*` (see
// jemalloc_build.sh). For t403.
//
// build_index() builds a Vec of 20,000 boxed records of 64 bytes (Box),
// a HashMap of 20,000 u64 -> Vec<u8> of 16 bytes, and a Vec<u64> grown by
// push to 100,000 elements (RawVec's doubling goes through rallocx): all of
// it live at the peak, then dropped. It prints the bytes it knows it asked
// for, so the test can compare with memtime's tree.
use std::alloc::{GlobalAlloc, Layout};
use std::collections::HashMap;
use std::os::raw::{c_int, c_void};

extern "C" {
    fn _rjem_mallocx(size: usize, flags: c_int) -> *mut c_void;
    fn _rjem_rallocx(ptr: *mut c_void, size: usize, flags: c_int) -> *mut c_void;
    fn _rjem_sdallocx(ptr: *mut c_void, size: usize, flags: c_int);
}

const MALLOCX_ZERO: c_int = 0x40;
// The alignment every jemalloc size class already has on x86_64.
const MIN_ALIGN: usize = 16;

fn layout_to_flags(align: usize, size: usize) -> c_int {
    if align <= MIN_ALIGN && align <= size {
        0
    } else {
        align.trailing_zeros() as c_int // MALLOCX_LG_ALIGN
    }
}

struct Jemalloc;

unsafe impl GlobalAlloc for Jemalloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let flags = layout_to_flags(layout.align(), layout.size());
        _rjem_mallocx(layout.size(), flags) as *mut u8
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let flags = layout_to_flags(layout.align(), layout.size()) | MALLOCX_ZERO;
        _rjem_mallocx(layout.size(), flags) as *mut u8
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let flags = layout_to_flags(layout.align(), layout.size());
        _rjem_sdallocx(ptr as *mut c_void, layout.size(), flags)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let flags = layout_to_flags(layout.align(), new_size);
        _rjem_rallocx(ptr as *mut c_void, new_size, flags) as *mut u8
    }
}

#[global_allocator]
static GLOBAL: Jemalloc = Jemalloc;

struct Record {
    id: u64,
    payload: [u8; 56],
}

struct Index {
    records: Vec<Box<Record>>,
    by_id: HashMap<u64, Vec<u8>>,
    log: Vec<u64>,
}

#[inline(never)]
fn build_index(n: u64) -> Index {
    let mut records = Vec::with_capacity(n as usize);
    let mut by_id = HashMap::with_capacity(n as usize);
    for i in 0..n {
        records.push(Box::new(Record { id: i, payload: [i as u8; 56] }));
        by_id.insert(i, vec![i as u8; 16]);
    }
    let mut log = Vec::new();
    for i in 0..5 * n {
        log.push(i);
    }
    Index { records, by_id, log }
}

fn main() {
    let n = 20_000u64;
    let index = build_index(n);
    let sum: u64 = index.records.iter().map(|r| r.id + r.payload[0] as u64).sum::<u64>()
        + index.by_id.len() as u64
        + index.log.len() as u64;
    // Boxes, HashMap values and the two Vecs' final buffers (the table of the
    // HashMap itself is extra and allocator-dependent).
    let known = n * 64 + n * 16 + n * 8 + index.log.capacity() as u64 * 8;
    println!("known_bytes {}", known);
    println!("checksum {}", sum);
    drop(index);
}
