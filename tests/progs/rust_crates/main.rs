// main: t616's Rust program over crates alpha and beta: at the peak alpha
// holds 300000 B, beta 200000 B, the main crate the rest.
fn main() {
    let a = alpha::Store::fill(300_000);
    let b = beta::codec::frame(200_000);
    let c: Vec<String> = (0..1000).map(|i| format!("{:0100}", i)).collect();
    println!("{} {} {}", a.data.len(), b.len(), c.len());
}
