// alpha: a crate of t616's Rust program; Store::fill holds n bytes.
pub struct Store { pub data: Vec<u8> }
impl Store {
    #[inline(never)]
    pub fn fill(n: usize) -> Store { Store { data: vec![1u8; n] } }
}
