//! The rough rank of a big listing's names (docs/dev/charset-detection.md,
//! "Big listings"): before a name outside the sample is scored in full,
//! the 27 charsets are ordered by what its high bytes cost in each, from
//! tables built once (per single-byte charset and high byte: the
//! character, its unigram bits, its class) and memos that big listings
//! fill as they meet byte pairs, kept for the process (what a byte adds
//! after the byte before it; a double-byte charset's units, `dbcs.rs`).
//! Only the bytes at and after a high byte are looked at: an ASCII byte
//! after an ASCII byte adds nothing to the rank.

use std::sync::atomic::{AtomicU16, Ordering};

use super::candidates::{candidates, DOUBLE_BYTE};
use super::dbcs;
use super::model;

/// Per single-byte candidate and high byte: its character, the
/// character's unigram bits in the cheapest language of the charset
/// (`u8::MAX`: the byte is not decoded losslessly, or to a character no
/// name holds), and whether it is a letter, a capital one.
pub(super) struct ByteTable {
    /// `None`: the byte is not decoded losslessly.
    pub chars: [Option<char>; 128],
    cost: [u8; 128],
    class: [model::Rough; 128],
    /// The high bytes whose `cost` is not `u8::MAX` (bit `b - 0x80`).
    valid: u128,
    /// The high bytes decoded losslessly (`chars` is not `None`).
    decodable: u128,
}

pub(super) fn byte_tables() -> &'static [Option<ByteTable>] {
    static T: std::sync::OnceLock<Vec<Option<ByteTable>>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        candidates()
            .iter()
            .enumerate()
            .map(|(idx, cand)| {
                if idx < DOUBLE_BYTE {
                    return None;
                }
                let mut t = ByteTable {
                    chars: [None; 128],
                    cost: [u8::MAX; 128],
                    class: [model::rough_class('\0'); 128],
                    valid: 0,
                    decodable: 0,
                };
                for b in 0x80..=0xFFu8 {
                    let i = usize::from(b - 0x80);
                    let Some(text) = cand.charset.to_utf8(&[b]) else {
                        continue;
                    };
                    let mut cs = text.chars();
                    let (Some(c), None) = (cs.next(), cs.next()) else {
                        continue;
                    };
                    t.chars[i] = Some(c);
                    t.decodable |= 1u128 << i;
                    if model::impossible(c) {
                        continue;
                    }
                    t.cost[i] = u8::try_from(model::unigram_min(c, &cand.langs, &cand.price)).unwrap_or(u8::MAX - 1);
                    t.class[i] = model::rough_class(c);
                    if t.cost[i] != u8::MAX {
                        t.valid |= 1u128 << i;
                    }
                }
                Some(t)
            })
            .collect()
    })
}

/// A name read losslessly in candidate `c` (a single-byte charset through
/// its byte table: byte by byte, which is what its decoder does).
pub(super) fn decode(name: &[u8], c: usize) -> Option<String> {
    match byte_tables().get(c) {
        Some(Some(t)) => {
            let mut out = String::with_capacity(name.len() * 3);
            for &b in name {
                if b < 0x80 {
                    out.push(char::from(b));
                } else {
                    out.push((*t.chars.get(usize::from(b - 0x80))?)?);
                }
            }
            Some(out)
        }
        _ => candidates().get(c)?.charset.to_utf8(name),
    }
}

/// The characters of a name read in single-byte candidate `c` (what
/// [`decode`] gives, without building it); `None` for a double-byte
/// charset, `Some(None)` when a byte is not decoded.
pub(super) fn table_chars(name: &[u8], c: usize) -> Option<Option<impl Iterator<Item = char> + Clone + '_>> {
    let t = byte_tables().get(c)?.as_ref()?;
    let high = name
        .iter()
        .filter(|&&b| b >= 0x80)
        .fold(0u128, |m, &b| m | 1u128 << (b - 0x80));
    if high & !t.decodable != 0 {
        return Some(None);
    }
    Some(Some(name.iter().map(move |&b| {
        if b < 0x80 {
            char::from(b)
        } else {
            t.chars.get(usize::from(b - 0x80)).copied().flatten().unwrap_or('\0')
        }
    })))
}

/// Whether two single-byte candidates read a name as the same text.
pub(super) fn same_text(name: &[u8], a: usize, b: usize) -> bool {
    let t = byte_tables();
    let (Some(Some(ta)), Some(Some(tb))) = (t.get(a), t.get(b)) else {
        return false;
    };
    name.iter()
        .filter(|&&x| x >= 0x80)
        .all(|&x| ta.chars.get(usize::from(x - 0x80)) == tb.chars.get(usize::from(x - 0x80)))
}

/// Per spot key ([`spot_key`]) what the byte adds to each single-byte
/// candidate's rank, the candidates' entries side by side: 0 not met
/// yet, else 1 + the bits. Learnt as big listings meet the byte pairs and
/// kept for the process (each is a function of the tables alone).
fn spots() -> &'static [AtomicU16] {
    static S: std::sync::OnceLock<Vec<AtomicU16>> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        let single = candidates().len().saturating_sub(DOUBLE_BYTE);
        (0..PREV_KEYS * BYTE_KEYS * single).map(|_| AtomicU16::new(0)).collect()
    })
}

/// What a big listing's ranking needs: the name being ranked, and the
/// double-byte readings.
#[derive(Default)]
pub(super) struct Ranker {
    /// The double-byte candidates' units.
    dbcs: dbcs::Memo,
    /// The name's spots: (key, previous byte, byte) at every position that
    /// holds a high byte, or an ASCII letter after one.
    name_spots: Vec<(usize, u8, u8)>,
    /// The name's high bytes (bit `b - 0x80`).
    high: u128,
    /// The name holds an ASCII control character.
    control: bool,
    /// The ranks of the name, per candidate.
    ranks: Vec<Option<u32>>,
}

/// What a byte adds to a single-byte rank depends on the byte before it
/// only as no letter (nothing, an ASCII symbol or digit), an ASCII letter
/// of either case, or a high byte; and nothing is added for an ASCII byte
/// that is no letter. The key of (previous, byte) counts those cases, with
/// the two bytes it stands for (ASCII letters lowercased, no letter 0).
const PREV_KEYS: usize = 1 + 26 + 128;
const BYTE_KEYS: usize = 26 + 128;

fn spot_key(pb: u8, b: u8) -> Option<(usize, u8, u8)> {
    let (bk, b) = match b {
        0x80.. => (26 + usize::from(b - 0x80), b),
        _ if b.is_ascii_alphabetic() => {
            let l = b.to_ascii_lowercase();
            (usize::from(l - b'a'), l)
        }
        _ => return None,
    };
    let (pk, pb) = match pb {
        0x80.. => (27 + usize::from(pb - 0x80), pb),
        _ if pb.is_ascii_alphabetic() => {
            let l = pb.to_ascii_lowercase();
            (1 + usize::from(l - b'a'), l)
        }
        _ => (0, 0),
    };
    Some((pk * BYTE_KEYS + bk, pb, b))
}

impl Ranker {
    /// The rough rank of `name` in every candidate: unigram bits of its
    /// non-ASCII characters, a letter after a letter its pair's bits, plus
    /// (single-byte charsets) the structure penalties of neighbouring
    /// characters; `None` for a charset that does not read the name.
    pub(super) fn rough_all(&mut self, name: &[u8]) -> &[Option<u32>] {
        self.load(name);
        let n = candidates().len();
        let mut ranks = std::mem::take(&mut self.ranks);
        ranks.clear();
        for c in 0..n.min(DOUBLE_BYTE) {
            ranks.push(self.dbcs.rough(name, c, self.control));
        }
        // The single-byte charsets side by side, spot by spot.
        let tables = byte_tables().get(DOUBLE_BYTE..).unwrap_or_default();
        let single = tables.len();
        let mut valid = [None::<&ByteTable>; 32];
        let mut sums = [0u32; 32];
        // The charsets that read every high byte of the name.
        let mut live = [0usize; 32];
        let mut nlive = 0;
        for (j, (v, t)) in valid.iter_mut().zip(tables).enumerate() {
            *v = t.as_ref().filter(|t| self.high & !t.valid == 0);
            if let (Some(_), Some(slot)) = (v, live.get_mut(nlive)) {
                *slot = j;
                nlive += 1;
            }
        }
        let live = live.get(..nlive).unwrap_or_default();
        let memo = spots();
        for &(key, pb, b) in &self.name_spots {
            let Some(row) = memo.get(key * single..(key + 1) * single) else {
                continue;
            };
            for &j in live {
                let (Some(slot), Some(Some(t)), Some(sum)) = (row.get(j), valid.get(j), sums.get_mut(j)) else {
                    continue;
                };
                let mut v = slot.load(Ordering::Relaxed);
                if v == 0 {
                    let bits = spot_bits(DOUBLE_BYTE + j, t, pb, b);
                    v = u16::try_from(bits + 1).unwrap_or(u16::MAX);
                    slot.store(v, Ordering::Relaxed);
                }
                *sum += u32::from(v - 1);
            }
        }
        ranks.extend(valid.iter().zip(&sums).take(single).map(|(t, &s)| t.map(|_| s)));
        self.ranks = ranks;
        &self.ranks
    }

    /// Readies the rank of `name`.
    fn load(&mut self, name: &[u8]) {
        self.name_spots.clear();
        self.high = 0;
        self.control = name.iter().any(|&b| b < 0x20 || b == 0x7F);
        let mut prev = 0u8;
        for &b in name {
            if b >= 0x80 {
                self.high |= 1u128 << (b - 0x80);
            }
            if b >= 0x80 || prev >= 0x80 {
                if let Some(spot) = spot_key(prev, b) {
                    self.name_spots.push(spot);
                }
            }
            prev = b;
        }
    }

    /// A name decoded losslessly in candidate `c` (what [`decode`]
    /// gives, a double-byte charset's units from the memo).
    pub(super) fn decode(&mut self, name: &[u8], c: usize) -> Option<String> {
        if c >= DOUBLE_BYTE {
            return decode(name, c);
        }
        self.dbcs
            .decode(name, c)
            .and_then(|(text, lossless)| lossless.then_some(text))
    }

    /// A name decoded in candidate `c`, and whether [`Ranker::decode`]
    /// reads it (a double-byte decoding encodes back to the same bytes).
    pub(super) fn decode_unchecked(&mut self, name: &[u8], c: usize) -> Option<(String, bool)> {
        if c >= DOUBLE_BYTE {
            return decode(name, c).map(|text| (text, true));
        }
        self.dbcs.decode(name, c)
    }
}

/// What byte `b` adds to a single-byte candidate's rank after byte `pb`:
/// a high byte its unigram bits, or after a letter the pair's; an ASCII
/// letter after a non-ASCII one its pair's surcharge; the structure
/// penalty of the two characters.
fn spot_bits(c: usize, t: &ByteTable, pb: u8, b: u8) -> u32 {
    let class = |x: u8| {
        if x < 0x80 {
            ascii_rough(x)
        } else {
            t.class.get(usize::from(x - 0x80)).copied()
        }
    };
    let here = class(b);
    let prev = class(pb);
    let after_letter = prev.is_some_and(|p| p.letter) && here.is_some_and(|h| h.letter);
    let mut sum = 0;
    if b >= 0x80 {
        let cost = t.cost.get(usize::from(b - 0x80)).copied().unwrap_or(u8::MAX);
        sum += if after_letter {
            pair(c, t, pb, b)
        } else {
            u32::from(cost)
        };
    } else if after_letter && pb >= 0x80 {
        // An ASCII letter after a non-ASCII one: its pair's surcharge.
        sum += pair(c, t, pb, b).saturating_sub(3);
    }
    if let (Some(p), Some(h)) = (prev, here) {
        sum += model::rough_pair(p, h);
    }
    sum
}

/// Letter `b` after letter `a` in candidate `c`: its bits in the cheapest
/// language of the charset (the bigram, or the unigram plus the escape).
fn pair(c: usize, t: &ByteTable, a: u8, b: u8) -> u32 {
    let ch = |x: u8| {
        if x < 0x80 {
            Some(char::from(x))
        } else {
            t.chars.get(usize::from(x - 0x80)).copied().flatten()
        }
    };
    let (langs, price) = candidates()
        .get(c)
        .map_or((&[][..], &model::Price::NONE), |x| (x.langs.as_slice(), &x.price));
    match (ch(a), ch(b)) {
        (Some(x), Some(y)) => model::pair_min(x, y, langs, price).min(254),
        _ => 254,
    }
}

/// The rough class of an ASCII byte: a Latin letter, or nothing.
fn ascii_rough(b: u8) -> Option<model::Rough> {
    b.is_ascii_alphabetic().then_some(model::Rough {
        letter: true,
        upper: false,
        sym: false,
        script: model::Script::Latin,
    })
}
