// rust_tokio_svc: a multi-threaded tokio service whose global allocator is
// jemalloc linked statically with the `_rjem_` prefix, called the way
// tikv-jemallocator calls it (mallocx, rallocx, sdallocx), as reth and other
// Rust services run. For t413.
//
// A runtime of 4 worker threads keeps a session table (20,000 sessions of
// 1 KiB: ~20 MiB) and serves two bursts of 1,024 requests, each answered by
// a task on whichever worker runs it with a 64 KiB response (64 MiB live
// at the burst's top), collected through a channel, then dropped. At each
// phase it prints "phase NAME VmRSS=<kB> heap=<B>": VmRSS from
// /proc/self/status (natively the oracle) and the bytes it holds by its own
// count (every allocation's size, kept by the global allocator), marks the
// phase for memtime (mt_phase.c), holding still around the mark, and makes
// one allocation, at which memtime reads jemalloc's statistics.
use std::alloc::{GlobalAlloc, Layout};
use std::collections::HashMap;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicUsize, Ordering};

extern "C" {
    fn _rjem_mallocx(size: usize, flags: c_int) -> *mut c_void;
    fn _rjem_rallocx(ptr: *mut c_void, size: usize, flags: c_int) -> *mut c_void;
    fn _rjem_sdallocx(ptr: *mut c_void, size: usize, flags: c_int);
    fn mt_phase(label: *const c_char);
}

const MALLOCX_ZERO: c_int = 0x40;
const MIN_ALIGN: usize = 16;

fn flags(align: usize, size: usize) -> c_int {
    if align <= MIN_ALIGN && align <= size {
        0
    } else {
        align.trailing_zeros() as c_int // MALLOCX_LG_ALIGN
    }
}

static HELD: AtomicUsize = AtomicUsize::new(0);

struct Jemalloc;

unsafe impl GlobalAlloc for Jemalloc {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = _rjem_mallocx(l.size(), flags(l.align(), l.size())) as *mut u8;
        if !p.is_null() {
            HELD.fetch_add(l.size(), Ordering::Relaxed);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = _rjem_mallocx(l.size(), flags(l.align(), l.size()) | MALLOCX_ZERO) as *mut u8;
        if !p.is_null() {
            HELD.fetch_add(l.size(), Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        HELD.fetch_sub(l.size(), Ordering::Relaxed);
        _rjem_sdallocx(p as *mut c_void, l.size(), flags(l.align(), l.size()))
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        let q = _rjem_rallocx(p as *mut c_void, new_size, flags(l.align(), new_size)) as *mut u8;
        if !q.is_null() {
            HELD.fetch_add(new_size, Ordering::Relaxed);
            HELD.fetch_sub(l.size(), Ordering::Relaxed);
        }
        q
    }
}

#[global_allocator]
static GLOBAL: Jemalloc = Jemalloc;

fn vmrss_kb() -> i64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(-1)
}

/// Some ten million instructions without an allocation: around each mark
/// the program holds still, so the exact outline's bucket that holds the
/// mark (memtime --time-unit=i) has the phase's heap alone.
fn hold_still() {
    let mut x = 0u64;
    for i in 0..2_000_000u64 {
        x = x.wrapping_add(unsafe { std::ptr::read_volatile(&i) });
    }
    unsafe { std::ptr::write_volatile(&mut x, x) };
}

fn phase(name: &str) {
    let label = std::ffi::CString::new(name).unwrap();
    println!("phase {} VmRSS={} heap={}", name, vmrss_kb(), HELD.load(Ordering::Relaxed));
    hold_still();
    unsafe { mt_phase(label.as_ptr()) };
    hold_still();
    // One allocator call: memtime reads jemalloc's statistics now.
    let mut b = vec![1u8; 32];
    unsafe { std::ptr::write_volatile(b.as_mut_ptr(), 2) };
    drop(b);
}

const RESPONSE: usize = 64 * 1024;
const REQUESTS: usize = 1024;

/// One burst: REQUESTS tasks spread over the workers, each building its
/// response; all are collected before any is dropped.
async fn burst(seed: u8) -> Vec<Vec<u8>> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    for i in 0..REQUESTS {
        let tx = tx.clone();
        tokio::spawn(async move {
            let mut body = Vec::with_capacity(RESPONSE);
            body.resize(RESPONSE, seed ^ (i as u8));
            let _ = tx.send(body);
        });
    }
    drop(tx);
    let mut out = Vec::with_capacity(REQUESTS);
    while let Some(b) = rx.recv().await {
        out.push(b);
    }
    out
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .build()
        .expect("runtime");
    rt.block_on(async {
        let mut sessions: HashMap<u64, Vec<u8>> = HashMap::with_capacity(20_000);
        for id in 0..20_000u64 {
            sessions.insert(id, vec![(id % 251) as u8; 1024]);
        }
        phase("sessions");
        for round in 0..2u8 {
            let responses = burst(round).await;
            assert_eq!(responses.len(), REQUESTS);
            phase(if round == 0 { "burst1" } else { "burst2" });
            drop(responses);
            phase(if round == 0 { "served1" } else { "served2" });
        }
        assert_eq!(sessions.len(), 20_000);
    });
    drop(rt);
    println!("done");
}
