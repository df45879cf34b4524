// tests/progs/rust_names.rs (t617): allocation sites whose Rust names carry
// what a reader must not see: two instances of one generic method (legacy
// mangling gives them one path and two hashes), a closure, std internals.
mod store {
    pub struct Arena<T> { pub items: Vec<T> }
    impl<T: Clone> Arena<T> {
        pub fn grow(&mut self, v: T, n: usize) { for _ in 0..n { self.items.push(v.clone()); } }
    }
}
fn main() {
    let mut a = store::Arena::<u64> { items: Vec::new() };
    let mut b = store::Arena::<String> { items: Vec::new() };
    a.grow(7, 100000);
    b.grow(String::from("x"), 20000);
    let keep: Vec<Box<[u8]>> = (0..200).map(|i| vec![i as u8; 4096].into_boxed_slice()).collect();
    println!("{} {} {}", a.items.len(), b.items.len(), keep.len());
}
