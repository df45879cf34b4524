// words.rs: a tokenizer and a word index for bench/progs/rust_crate.
use std::collections::BTreeMap;

pub struct Tokenizer<'a> {
    rest: &'a str,
    pos: usize,
}

impl<'a> Tokenizer<'a> {
    pub fn new(text: &'a str) -> Self {
        Tokenizer { rest: text, pos: 0 }
    }
}

impl<'a> Iterator for Tokenizer<'a> {
    type Item = (String, usize);
    fn next(&mut self) -> Option<Self::Item> {
        let trimmed = self.rest.trim_start_matches(|c: char| !c.is_alphanumeric());
        if trimmed.is_empty() {
            return None;
        }
        let end = trimmed.find(|c: char| !c.is_alphanumeric()).unwrap_or(trimmed.len());
        let word = trimmed[..end].to_lowercase();
        self.rest = &trimmed[end..];
        self.pos += 1;
        Some((word, self.pos))
    }
}

#[derive(Default, Debug)]
pub struct Index {
    map: BTreeMap<String, Vec<usize>>,
}

impl Index {
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Vec<usize>)> + '_ {
        self.map.iter()
    }
    pub fn lengths(&self) -> impl Iterator<Item = usize> + '_ {
        self.map.keys().map(|w| w.chars().count())
    }
}

impl FromIterator<(String, usize)> for Index {
    fn from_iter<I: IntoIterator<Item = (String, usize)>>(iter: I) -> Self {
        let mut index = Index::default();
        for (word, pos) in iter {
            index.map.entry(word).or_insert_with(Vec::new).push(pos);
        }
        index
    }
}
