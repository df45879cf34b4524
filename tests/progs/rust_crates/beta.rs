// beta: a crate of t616's Rust program; codec::frame holds n bytes (n / 8 u64s).
pub mod codec {
    #[inline(never)]
    pub fn frame(n: usize) -> Vec<u64> { let mut v = Vec::with_capacity(n / 8); for i in 0..n / 8 { v.push(i as u64); } v }
}
