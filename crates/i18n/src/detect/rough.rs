//! The rough rank of a big listing's names (docs/charset-detection.md,
//! "Big listings"): before a name outside the sample is scored in full,
//! the 27 charsets are ordered by what its high bytes cost in each, from
//! tables built once (per single-byte charset and high byte: the
//! character, its unigram bits, its class) and memos a listing fills as it
//! meets byte pairs (a letter after a letter; a double-byte charset's
//! characters). Only the bytes at and after a high byte are looked at: an
//! ASCII byte after an ASCII byte adds nothing to the rank.

use super::model;
use super::per_name::{candidates, DOUBLE_BYTE};

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
                    if model::impossible(c) {
                        continue;
                    }
                    t.cost[i] = u8::try_from(model::unigram_min(c, &cand.langs)).unwrap_or(u8::MAX - 1);
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

/// [`decode`] without a double-byte charset's round trip (which
/// [`lossless`] checks): the same text when both succeed.
pub(super) fn decode_unchecked(name: &[u8], c: usize) -> Option<String> {
    match byte_tables().get(c) {
        Some(Some(_)) => decode(name, c),
        _ => candidates()
            .get(c)?
            .charset
            .encoding()?
            .decode_without_bom_handling_and_without_replacement(name)
            .map(std::borrow::Cow::into_owned),
    }
}

/// Whether [`decode`] reads a name in candidate `c` (a double-byte
/// charset's decoding encodes back to the same bytes).
pub(super) fn lossless(name: &[u8], c: usize) -> bool {
    match byte_tables().get(c) {
        Some(Some(_)) => decode(name, c).is_some(),
        _ => candidates().get(c).is_some_and(|x| x.charset.to_utf8(name).is_some()),
    }
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

/// A double-byte candidate's high bytes alone: the unigram bits of the
/// byte's character, or one of these.
const LEAD: u16 = u16::MAX;
const INVALID: u16 = u16::MAX - 1;

/// Per double-byte candidate and high byte: [`LEAD`] for a lead byte,
/// [`INVALID`] for a byte its decoder rejects (or decodes to a character
/// no name holds), else the bits of the byte's own character.
fn dbcs_singles() -> &'static [[u16; 128]] {
    static T: std::sync::OnceLock<Vec<[u16; 128]>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        candidates()
            .iter()
            .take(DOUBLE_BYTE)
            .map(|cand| {
                // The WHATWG decoders' lead bytes.
                let lead = |b: u8| match cand.charset.name() {
                    "Shift_JIS" => matches!(b, 0x81..=0x9F | 0xE0..=0xFC),
                    "EUC-JP" => matches!(b, 0x8E | 0x8F | 0xA1..=0xFE),
                    _ => (0x81..=0xFE).contains(&b),
                };
                let mut row = [INVALID; 128];
                for b in 0x80..=0xFFu8 {
                    let Some(slot) = row.get_mut(usize::from(b - 0x80)) else {
                        continue;
                    };
                    let bytes = [b];
                    let alone = cand
                        .charset
                        .encoding()
                        .and_then(|e| e.decode_without_bom_handling_and_without_replacement(&bytes));
                    *slot = match alone {
                        Some(text) => chars_bits(&text, &cand.langs).unwrap_or(INVALID),
                        None if lead(b) => LEAD,
                        None => INVALID,
                    };
                }
                row
            })
            .collect()
    })
}

/// Unigram bits of a decoded text's non-ASCII characters; `None` when one
/// is a character no name holds.
fn chars_bits(text: &str, langs: &[usize]) -> Option<u16> {
    let mut sum = 0u32;
    for ch in text.chars() {
        if model::impossible(ch) {
            return None;
        }
        if !ch.is_ascii() {
            sum += model::unigram_min(ch, langs);
        }
    }
    Some(u16::try_from(sum).unwrap_or(u16::MAX - 2).min(u16::MAX - 2))
}

/// What a big listing learns as it ranks its names: per single-byte
/// candidate and byte pair what the second byte adds to the rank after
/// the first, per double-byte candidate and byte pair the bits of its
/// characters; and the name being ranked.
#[derive(Default)]
pub(super) struct Ranker {
    /// Per single-byte candidate, 256 x 256 entries: 0 not computed yet,
    /// else 1 + the bits (zeroed memory: a listing allocates only the
    /// pages it touches).
    spots: Vec<Vec<u16>>,
    /// Per single-byte candidate, the letter pairs' bits the spots are
    /// made of (0 not computed yet, else 1 + the bits).
    pairs: Vec<Vec<u8>>,
    /// Per double-byte candidate, 256 x 256 entries: 0 not computed yet,
    /// else [`DBCS_INVALID`], [`DBCS_LONGER`] or 2 + the bits.
    dbcs: Vec<Vec<u16>>,
    /// The name's (previous byte, byte) at every position that holds a
    /// high byte or follows one (previous byte 0 at the start).
    name_spots: Vec<u16>,
    /// The name's high bytes (bit `b - 0x80`).
    high: u128,
    /// The name holds an ASCII control character.
    control: bool,
}

/// A double-byte memo's byte pair that starts no character; one that
/// starts a longer sequence (gb18030's four bytes, EUC-JP's `8F` three),
/// read by the decoder instead.
const DBCS_INVALID: u16 = 1;
const DBCS_LONGER: u16 = 2;

/// The memo row of candidate `c` (256 x 256 zeroes when first asked).
fn memo_row<T: Clone + Default>(rows: &mut Vec<Vec<T>>, c: usize) -> Option<&mut Vec<T>> {
    if rows.len() <= c {
        rows.resize_with(c + 1, Vec::new);
    }
    let row = rows.get_mut(c)?;
    if row.is_empty() {
        *row = vec![T::default(); 1 << 16];
    }
    Some(row)
}

impl Ranker {
    /// Readies the rank of `name` (before [`Ranker::rough`]).
    pub(super) fn load(&mut self, name: &[u8]) {
        self.name_spots.clear();
        self.high = 0;
        self.control = name.iter().any(|&b| b < 0x20 || b == 0x7F);
        let mut prev = 0u8;
        for &b in name {
            if b >= 0x80 {
                self.high |= 1u128 << (b - 0x80);
            }
            if b >= 0x80 || prev >= 0x80 {
                self.name_spots.push(u16::from(prev) << 8 | u16::from(b));
            }
            prev = b;
        }
    }

    /// A rough rank of the reading of `name` (the one [`Ranker::load`]
    /// readied) in candidate `c`: unigram bits of its non-ASCII characters,
    /// a letter after a letter its pair's bits, plus the structure
    /// penalties of neighbouring characters; `None` when the charset does
    /// not read the name. An ASCII byte after an ASCII byte adds nothing,
    /// and what a byte adds depends only on it and the byte before it.
    pub(super) fn rough(&mut self, name: &[u8], c: usize) -> Option<u32> {
        if c < DOUBLE_BYTE {
            return self.rough_dbcs(name, c);
        }
        let t = byte_tables().get(c)?.as_ref()?;
        if self.high & !t.valid != 0 {
            return None;
        }
        let row = memo_row(&mut self.spots, c)?;
        let mut sum = 0u32;
        for &spot in &self.name_spots {
            let v = row.get(usize::from(spot)).copied().unwrap_or(0);
            sum += if v != 0 {
                u32::from(v - 1)
            } else {
                let v = spot_bits(&mut self.pairs, c, t, spot);
                if let Some(slot) = row.get_mut(usize::from(spot)) {
                    *slot = u16::try_from(v + 1).unwrap_or(u16::MAX);
                }
                v
            };
        }
        Some(sum)
    }

    /// A double-byte candidate's rank: the unigram bits of its decoding's
    /// characters, byte pairs looked up in the memo.
    fn rough_dbcs(&mut self, name: &[u8], c: usize) -> Option<u32> {
        let singles = dbcs_singles().get(c)?;
        if self.control {
            return None;
        }
        let mut sum = 0u32;
        let mut i = 0;
        while i < name.len() {
            let Some(&b) = name.get(i) else { break };
            if b < 0x80 {
                i += 1;
                continue;
            }
            match *singles.get(usize::from(b - 0x80))? {
                INVALID => return None,
                LEAD => {
                    let &trail = name.get(i + 1)?;
                    match self.dbcs_pair(c, b, trail) {
                        DBCS_INVALID => return None,
                        DBCS_LONGER => return rough_decoded(name, c),
                        v => sum += u32::from(v - 2),
                    }
                    i += 2;
                }
                v => {
                    sum += u32::from(v);
                    i += 1;
                }
            }
        }
        Some(sum)
    }

    fn dbcs_pair(&mut self, c: usize, lead: u8, trail: u8) -> u16 {
        let Some(row) = memo_row(&mut self.dbcs, c) else {
            return DBCS_INVALID;
        };
        let idx = usize::from(lead) << 8 | usize::from(trail);
        if let Some(&v) = row.get(idx).filter(|&&v| v != 0) {
            return v;
        }
        let Some(cand) = candidates().get(c) else {
            return DBCS_INVALID;
        };
        let bytes = [lead, trail];
        let decoded = cand
            .charset
            .encoding()
            .and_then(|e| e.decode_without_bom_handling_and_without_replacement(&bytes));
        let name = cand.charset.name();
        let v = match decoded {
            Some(text) => chars_bits(&text, &cand.langs).map_or(DBCS_INVALID, |b| b.saturating_add(2)),
            None if (name == "EUC-JP" && lead == 0x8F)
                || (matches!(name, "GBK" | "gb18030") && (0x30..=0x39).contains(&trail)) =>
            {
                DBCS_LONGER
            }
            None => DBCS_INVALID,
        };
        if let Some(slot) = row.get_mut(idx) {
            *slot = v;
        }
        v
    }
}

/// What byte `b` adds to a single-byte candidate's rank after byte `pb`
/// (`spot` = `pb << 8 | b`): a high byte its unigram bits, or after a
/// letter the pair's; an ASCII letter after a non-ASCII one its pair's
/// surcharge; the structure penalty of the two characters.
fn spot_bits(pairs: &mut Vec<Vec<u8>>, c: usize, t: &ByteTable, spot: u16) -> u32 {
    let [pb, b] = spot.to_be_bytes();
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
            pair(pairs, c, t, pb, b)
        } else {
            u32::from(cost)
        };
    } else if after_letter && pb >= 0x80 {
        // An ASCII letter after a non-ASCII one: its pair's surcharge.
        sum += pair(pairs, c, t, pb, b).saturating_sub(3);
    }
    if let (Some(p), Some(h)) = (prev, here) {
        sum += model::rough_pair(p, h);
    }
    sum
}

/// Letter `b` after letter `a` in candidate `c`: its bits in the cheapest
/// language of the charset (the bigram, or the unigram plus the escape).
fn pair(pairs: &mut Vec<Vec<u8>>, c: usize, t: &ByteTable, a: u8, b: u8) -> u32 {
    let Some(row) = memo_row(pairs, c) else {
        return 254;
    };
    let idx = usize::from(a) << 8 | usize::from(b);
    if let Some(&v) = row.get(idx).filter(|&&v| v != 0) {
        return u32::from(v - 1);
    }
    let ch = |x: u8| {
        if x < 0x80 {
            Some(char::from(x))
        } else {
            t.chars.get(usize::from(x - 0x80)).copied().flatten()
        }
    };
    let langs = candidates().get(c).map_or(&[][..], |x| x.langs.as_slice());
    let v = match (ch(a), ch(b)) {
        (Some(x), Some(y)) => model::pair_min(x, y, langs).min(254),
        _ => 254,
    };
    if let Some(slot) = row.get_mut(idx) {
        *slot = u8::try_from(v + 1).unwrap_or(u8::MAX);
    }
    v
}

/// A double-byte rank through the decoder (names with a longer sequence).
fn rough_decoded(name: &[u8], c: usize) -> Option<u32> {
    let cand = candidates().get(c)?;
    let text = cand
        .charset
        .encoding()?
        .decode_without_bom_handling_and_without_replacement(name)?;
    if text.chars().any(model::impossible) {
        return None;
    }
    Some(
        text.chars()
            .filter(|ch| !ch.is_ascii())
            .map(|ch| model::unigram_min(ch, &cand.langs))
            .sum(),
    )
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
