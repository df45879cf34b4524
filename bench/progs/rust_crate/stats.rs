// stats.rs: generic summaries and histograms for bench/progs/rust_crate.
use std::collections::HashMap;
use std::fmt;
use std::ops::{Add, Div};

pub struct Summary<T> {
    n: usize,
    sum: T,
    min: Option<T>,
    max: Option<T>,
}

impl<T> FromIterator<T> for Summary<T>
where
    T: Copy + Default + PartialOrd + Add<Output = T>,
{
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut s = Summary { n: 0, sum: T::default(), min: None, max: None };
        for v in iter {
            s.n += 1;
            s.sum = s.sum + v;
            s.min = Some(match s.min { Some(m) if m <= v => m, _ => v });
            s.max = Some(match s.max { Some(m) if m >= v => m, _ => v });
        }
        s
    }
}

impl<T> fmt::Display for Summary<T>
where
    T: Copy + fmt::Debug + Div<Output = T> + From<u32>,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mean = if self.n > 0 { Some(self.sum / T::from(self.n as u32)) } else { None };
        write!(f, "n={} min={:?} max={:?} mean={:?}", self.n, self.min, self.max, mean)
    }
}

pub struct Histogram<T> {
    buckets: usize,
    counts: HashMap<usize, T>,
}

impl<T> Histogram<T>
where
    T: Copy + Default + Add<Output = T> + From<u8> + Into<u64>,
{
    pub fn with_buckets(buckets: usize) -> Self {
        Histogram { buckets, counts: HashMap::new() }
    }
    pub fn add(&mut self, v: T) {
        let b = (v.into() as usize).min(self.buckets - 1);
        let c = self.counts.entry(b).or_default();
        *c = *c + T::from(1);
    }
}

impl<T: Copy + Default + Into<u64>> fmt::Display for Histogram<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in 0..self.buckets {
            let n: u64 = self.counts.get(&b).copied().unwrap_or_default().into();
            writeln!(f, "{:2} {}", b, "#".repeat(n as usize))?;
        }
        Ok(())
    }
}
