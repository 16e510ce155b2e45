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
    pub(super) words: HashMap<&'static str, u64, BuildHasherDefault<FastHasher>>,
    /// Pairs of adjacent CJK characters that a language's dictionary words
    /// hold often (`cjkpairs.txt`), with a bit per language (issue 50,
    /// fifth pass).
    pub(super) cjk_pairs: HashMap<(char, char), u64, BuildHasherDefault<FastHasher>>,
}

pub(super) fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let Letters {
            unigram,
            bigram,
            ascii,
            escape,
        } = letters();
        Tables {
            unigram,
            bigram,
            ascii,
            escape,
            words: words(),
            cjk_pairs: cjk_pairs(),
        }
    })
}

/// The lines of `charfreq.txt` whose language code ends in `suffix` (no
/// suffix: the unigram lines), as (language, cost, text).
fn lines(suffix: Option<char>) -> impl Iterator<Item = (usize, u8, &'static str)> {
    include_str!("../charfreq.txt").lines().filter_map(move |line| {
        if line.starts_with('#') {
            return None;
        }
        let mut parts = line.splitn(3, ' ');
        let (lang, cost, text) = (parts.next()?, parts.next()?, parts.next()?);
        let code = match suffix {
            Some(x) => lang.strip_suffix(x)?,
            None => lang,
        };
        Some((lang_index(code)?, cost.parse::<u8>().ok()?, text))
    })
}

/// The cost of `key` in `lang`: the lowest its lines give.
fn set<K: Eq + std::hash::Hash>(map: &mut Map<K>, key: K, lang: usize, cost: u8) {
    let row = map.entry(key).or_insert([ABSENT; N]);
    if let Some(slot) = row.get_mut(lang) {
        *slot = (*slot).min(cost);
    }
}

/// The tables of letters of [`Tables`].
struct Letters {
    unigram: Map<char>,
    bigram: Map<(char, char)>,
    ascii: Map<(u8, u8)>,
    escape: Map<char>,
}

/// The unigram, bigram, ASCII-pair and escape tables (sized for the
/// current `charfreq.txt`: a bigger one only grows them once more).
fn letters() -> Letters {
    let mut t = Letters {
        unigram: Map::with_capacity_and_hasher(9_000, Default::default()),
        bigram: Map::with_capacity_and_hasher(10_500, Default::default()),
        ascii: Map::with_capacity_and_hasher(800, Default::default()),
        escape: Map::with_capacity_and_hasher(400, Default::default()),
    };
    for (lang, cost, text) in lines(None) {
        for c in text.chars() {
            set(&mut t.unigram, c, lang, cost);
        }
    }
    for (lang, cost, text) in lines(Some('2')) {
        let mut cs = text.chars();
        while let (Some(a), Some(b)) = (cs.next(), cs.next()) {
            set(&mut t.bigram, (a, b), lang, cost);
        }
    }
    for (lang, cost, text) in lines(Some('3')) {
        for pair in text.as_bytes().chunks_exact(2) {
            set(&mut t.ascii, (pair[0], pair[1]), lang, cost);
        }
    }
    for (lang, cost, text) in lines(Some('4')) {
        for c in text.chars() {
            set(&mut t.escape, c, lang, cost);
        }
    }
    legacy_romanian(&mut t);
    t
}

/// The frequent words, each with a bit for every language that writes it.
fn words() -> HashMap<&'static str, u64, BuildHasherDefault<FastHasher>> {
    let mut words = HashMap::with_capacity_and_hasher(22_000, Default::default());
    for (lang, _, text) in lines(Some('7')) {
        for w in text.split(' ').filter(|w| !w.is_empty()) {
            *words.entry(w).or_insert(0) |= 1u64 << lang;
        }
    }
    words
}

/// The CJK pairs of `cjkpairs.txt`, each with a bit for every language
/// whose words hold it often (sized for the current table's 54,010
/// distinct pairs).
fn cjk_pairs() -> HashMap<(char, char), u64, BuildHasherDefault<FastHasher>> {
    let mut pairs = HashMap::with_capacity_and_hasher(56_000, Default::default());
    // Big5's traditional Chinese table ("zb") has zt's pairs, EUC-JP's
    // Japanese table ("je") ja's.
    let zb = lang_index("zb").map_or(0, |zb| 1u64 << zb);
    let je = lang_index("je").map_or(0, |je| 1u64 << je);
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
        let bits = (1u64 << lang)
            | match code {
                "zt" => zb,
                "ja" => je,
                _ => 0,
            };
        let mut cs = chars.chars();
        while let (Some(a), Some(b)) = (cs.next(), cs.next()) {
            *pairs.entry((a, b)).or_insert(0) |= bits;
        }
    }
    pairs
}

/// Romanian's `ș` `ț` (comma below, what CLDR and today's text use) are in
/// no legacy charset: windows-1250 and ISO-8859-2 wrote the cedilla `ş`
/// `ţ` (`BA`, `FE`) in their place. Romanian prices a cedilla letter as
/// its comma-below letter, alone and in every pair (issue 50: they cost
/// 14 bits and had no pairs, so `ţ` was read as windows-1254's Turkish
/// `ş`).
fn legacy_romanian(t: &mut Letters) {
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
