//! The generated tables (`charfreq.txt`): per character, letter pair,
//! ASCII letter pair and escape, the bits in each language.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use super::langs::{lang_index, N};

pub(super) const ABSENT: u8 = u8::MAX;
/// A table row with no entry.
pub(super) static ABSENT_ROW: [u8; N] = [ABSENT; N];

/// A multiply-rotate hasher for the tables' small keys (characters and
/// pairs of them): SipHash's protection against crafted keys is not
/// needed for tables fixed at build time, and it is several times slower.
#[derive(Default)]
pub(super) struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

pub(super) type Map<K> = HashMap<K, [u8; N], BuildHasherDefault<FastHasher>>;

pub(super) struct Tables {
    pub(super) unigram: Map<char>,
    pub(super) bigram: Map<(char, char)>,
    /// ASCII letter pairs of the Latin-script languages.
    pub(super) ascii: Map<(u8, u8)>,
    /// Per letter (and `^`), what a follower never seen after it costs
    /// over its unigram (Witten-Bell escape).
    pub(super) escape: Map<char>,
    /// Frequent words with a non-ASCII letter (lowercase), with a bit for
    /// each language that writes them often (issue 50, third pass).
    pub(super) words: HashMap<String, u64, BuildHasherDefault<FastHasher>>,
    /// Pairs of adjacent CJK characters that a language's dictionary words
    /// hold often (`cjkpairs.txt`), with a bit per language (issue 50,
    /// fifth pass).
    pub(super) cjk_pairs: HashMap<(char, char), u64, BuildHasherDefault<FastHasher>>,
}

pub(super) fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Tables {
            unigram: Map::default(),
            bigram: Map::default(),
            ascii: Map::default(),
            escape: Map::default(),
            words: HashMap::default(),
            cjk_pairs: HashMap::default(),
        };
        for line in include_str!("../cjkpairs.txt").lines() {
            let mut parts = line.splitn(3, ' ');
            let (Some(lang), Some(_), Some(chars)) = (parts.next(), parts.next(), parts.next()) else {
                continue;
            };
            let Some(code) = lang.strip_suffix('8') else {
                continue;
            };
            let Some(lang) = lang_index(code) else {
                continue;
            };
            // Big5's traditional Chinese table ("zb") has zt's pairs.
            let mut bits = 1u64 << lang;
            if code == "zt" {
                bits |= lang_index("zb").map_or(0, |zb| 1u64 << zb);
            }
            let cs: Vec<char> = chars.chars().collect();
            for pair in cs.chunks_exact(2) {
                *t.cjk_pairs.entry((pair[0], pair[1])).or_insert(0) |= bits;
            }
        }
        for line in include_str!("../charfreq.txt").lines() {
            if line.starts_with('#') {
                continue;
            }
            let mut parts = line.splitn(3, ' ');
            let (Some(lang), Some(cost), Some(chars)) = (parts.next(), parts.next(), parts.next()) else {
                continue;
            };
            let Ok(cost) = cost.parse::<u8>() else { continue };
            if let Some(lang) = lang.strip_suffix('7').and_then(lang_index) {
                for w in chars.split(' ').filter(|w| !w.is_empty()) {
                    *t.words.entry(w.to_string()).or_insert(0) |= 1u64 << lang;
                }
            } else if let Some(lang) = lang.strip_suffix('4').and_then(lang_index) {
                for c in chars.chars() {
                    let row = t.escape.entry(c).or_insert([ABSENT; N]);
                    if let Some(slot) = row.get_mut(lang) {
                        *slot = (*slot).min(cost);
                    }
                }
            } else if let Some(lang) = lang.strip_suffix('3').and_then(lang_index) {
                let bs = chars.as_bytes();
                for pair in bs.chunks_exact(2) {
                    let row = t.ascii.entry((pair[0], pair[1])).or_insert([ABSENT; N]);
                    if let Some(slot) = row.get_mut(lang) {
                        *slot = (*slot).min(cost);
                    }
                }
            } else if let Some(lang) = lang.strip_suffix('2').and_then(lang_index) {
                let cs: Vec<char> = chars.chars().collect();
                for pair in cs.chunks_exact(2) {
                    let row = t.bigram.entry((pair[0], pair[1])).or_insert([ABSENT; N]);
                    if let Some(slot) = row.get_mut(lang) {
                        *slot = (*slot).min(cost);
                    }
                }
            } else if let Some(lang) = lang_index(lang) {
                for c in chars.chars() {
                    let row = t.unigram.entry(c).or_insert([ABSENT; N]);
                    if let Some(slot) = row.get_mut(lang) {
                        *slot = (*slot).min(cost);
                    }
                }
            }
        }
        legacy_romanian(&mut t);
        t
    })
}

/// Romanian's `ș` `ț` (comma below, what CLDR and today's text use) are in
/// no legacy charset: windows-1250 and ISO-8859-2 wrote the cedilla `ş`
/// `ţ` (`BA`, `FE`) in their place. Romanian prices a cedilla letter as
/// its comma-below letter, alone and in every pair (issue 50: they cost
/// 14 bits and had no pairs, so `ţ` was read as windows-1254's Turkish
/// `ş`).
fn legacy_romanian(t: &mut Tables) {
    let Some(ro) = lang_index("ro") else {
        return;
    };
    let swap = |c: char| match c {
        'ș' => 'ş',
        'ț' => 'ţ',
        'Ș' => 'Ş',
        'Ț' => 'Ţ',
        other => other,
    };
    fn alias<K: Copy + Eq + std::hash::Hash>(map: &mut Map<K>, ro: usize, key: impl Fn(K) -> K) {
        let from: Vec<(K, u8)> = map
            .iter()
            .filter_map(|(k, row)| row.get(ro).filter(|&&c| c != ABSENT).map(|&c| (*k, c)))
            .filter(|(k, _)| key(*k) != *k)
            .collect();
        for (k, cost) in from {
            let row = map.entry(key(k)).or_insert([ABSENT; N]);
            if let Some(slot) = row.get_mut(ro) {
                *slot = (*slot).min(cost);
            }
        }
    }
    alias(&mut t.unigram, ro, swap);
    alias(&mut t.escape, ro, swap);
    alias(&mut t.bigram, ro, |(a, b)| (swap(a), swap(b)));
}
