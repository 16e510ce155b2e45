//! The double-byte candidates (Shift_JIS, EUC-JP, GBK, gb18030, Big5,
//! EUC-KR) in a big listing: what each byte, or lead byte and trail byte,
//! decodes to, learnt once per process and byte pair, so a name is ranked
//! and decoded without running the decoder and the encoder (for the round
//! trip) over every name. These decoders read a name unit by unit — an
//! ASCII byte, a single high byte, or a lead byte and the byte after it —
//! and a name decodes, and encodes back to its bytes, exactly when each of
//! its units does; the rare longer units (gb18030's four bytes, EUC-JP's
//! `8F` three) and units of two characters (Big5's `Ê̄`) go to the decoder.

use std::sync::atomic::{AtomicU32, Ordering};

use super::candidates::{candidates, DOUBLE_BYTE};
use super::model;

/// A unit, packed in 32 bits (small memos stay in the cache): its kind
/// (bits 0..3), a character no name holds (bit 3), a lossless round trip
/// (bit 4), the unigram bits of its characters (bits 6..16) and its
/// character (bits 16..32; 0 when it is more than one, or outside the
/// Basic Multilingual Plane: the decoder reads those).
type Unit = u32;
const UNKNOWN: u32 = 0;
const INVALID: u32 = 1;
const LONGER: u32 = 2;
const CHAR: u32 = 3;
const LEAD: u32 = 4;
const KIND: u32 = 7;
const IMPOSSIBLE: u32 = 1 << 3;
const LOSSLESS: u32 = 1 << 4;
/// [`LOSSLESS`] was asked (the encoder is slow: a rank does not ask).
const ASKED: u32 = 1 << 5;
/// Most bits a unit records (two characters cost at most 2 x 254).
const MAX_BITS: u32 = 0x3FF;

fn kind(u: Unit) -> u32 {
    u & KIND
}

fn bits(u: Unit) -> u32 {
    u >> 6 & MAX_BITS
}

fn ch(u: Unit) -> Option<char> {
    char::from_u32(u >> 16).filter(|&c| c != '\0')
}

/// The unit `bytes` decode to in candidate `c` (`None`: the decoder
/// rejects them alone), without [`LOSSLESS`].
fn unit(c: usize, bytes: &[u8]) -> Option<Unit> {
    let cand = candidates().get(c)?;
    let text = cand
        .charset
        .encoding()?
        .decode_without_bom_handling_and_without_replacement(bytes)?;
    let mut u = CHAR;
    let mut sum = 0u32;
    for x in text.chars() {
        if model::impossible(x) {
            u |= IMPOSSIBLE;
        } else if !x.is_ascii() {
            sum += model::unigram_min(x, &cand.langs, &cand.price);
        }
    }
    let mut cs = text.chars();
    if let (Some(x), None) = (cs.next(), cs.next()) {
        if u32::from(x) <= 0xFFFF {
            u |= u32::from(x) << 16;
        }
    }
    Some(u | sum.min(MAX_BITS) << 6)
}

/// [`ASKED`] and [`LOSSLESS`] of a unit's bytes.
fn asked(c: usize, bytes: &[u8]) -> Unit {
    let lossless = candidates().get(c).is_some_and(|x| x.charset.to_utf8(bytes).is_some());
    ASKED | if lossless { LOSSLESS } else { 0 }
}

/// Builds the double-byte candidates' byte table now.
pub(super) fn prepare() {
    singles();
}

/// Per double-byte candidate and high byte: the byte's own unit, a lead
/// byte ([`LEAD`]), or [`INVALID`].
fn singles() -> &'static [[Unit; 128]] {
    static T: std::sync::OnceLock<Vec<[Unit; 128]>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        candidates()
            .iter()
            .take(DOUBLE_BYTE)
            .enumerate()
            .map(|(c, cand)| {
                // The WHATWG decoders' lead bytes.
                let lead = |b: u8| match cand.charset.name() {
                    "Shift_JIS" => matches!(b, 0x81..=0x9F | 0xE0..=0xFC),
                    "EUC-JP" => matches!(b, 0x8E | 0x8F | 0xA1..=0xFE),
                    _ => (0x81..=0xFE).contains(&b),
                };
                let mut row = [INVALID; 128];
                for (slot, b) in row.iter_mut().zip(0x80..=0xFFu8) {
                    *slot = match unit(c, &[b]) {
                        Some(u) => u | asked(c, &[b]),
                        None if lead(b) => LEAD,
                        None => INVALID,
                    };
                }
                row
            })
            .collect()
    })
}

/// The memo's entries per candidate: lead bytes 0x80.., any trail byte.
const PAIRS: usize = 128 * 256;

fn pair_index(lead: u8, trail: u8) -> Option<usize> {
    (lead >= 0x80).then(|| usize::from(lead - 0x80) << 8 | usize::from(trail))
}

/// The unit of a lead byte and a trail byte.
fn pair_unit(c: usize, lead: u8, trail: u8) -> Unit {
    let name = candidates().get(c).map_or("", |x| x.charset.name());
    match unit(c, &[lead, trail]) {
        Some(u) => u,
        None if (name == "EUC-JP" && lead == 0x8F)
            || (matches!(name, "GBK" | "gb18030") && (0x30..=0x39).contains(&trail)) =>
        {
            LONGER
        }
        None => INVALID,
    }
}

/// The units of lead and trail bytes per double-byte candidate, learnt as
/// big listings meet them and kept for the process: each is a function of
/// the charset tables alone ([`UNKNOWN`]: not met yet).
fn pairs() -> &'static [AtomicU32] {
    static P: std::sync::OnceLock<Vec<AtomicU32>> = std::sync::OnceLock::new();
    P.get_or_init(|| (0..DOUBLE_BYTE * PAIRS).map(|_| AtomicU32::new(UNKNOWN)).collect())
}

fn pair_slot(c: usize, lead: u8, trail: u8) -> Option<&'static AtomicU32> {
    let idx = pair_index(lead, trail)?;
    pairs().get(c.checked_mul(PAIRS)?.checked_add(idx)?)
}

/// The double-byte readings of a big listing's names, through the units.
#[derive(Default)]
pub(super) struct Memo;

impl Memo {
    fn pair(&mut self, c: usize, lead: u8, trail: u8) -> Unit {
        let Some(slot) = pair_slot(c, lead, trail) else {
            return pair_unit(c, lead, trail);
        };
        let u = slot.load(Ordering::Relaxed);
        if u != UNKNOWN {
            return u;
        }
        let u = pair_unit(c, lead, trail);
        slot.store(u, Ordering::Relaxed);
        u
    }

    /// The unit at `name[i..]` in candidate `c`, and its length.
    fn unit_at(&mut self, name: &[u8], i: usize, c: usize) -> (Unit, usize) {
        let Some(&b) = name.get(i) else {
            return (INVALID, 1);
        };
        let u = singles()
            .get(c)
            .and_then(|row| row.get(usize::from(b.wrapping_sub(0x80))))
            .copied()
            .unwrap_or(INVALID);
        if kind(u) != LEAD {
            return (u, 1);
        }
        match name.get(i + 1) {
            Some(&trail) => (self.pair(c, b, trail), 2),
            // A lead byte at the end: cut short.
            None => (INVALID, 1),
        }
    }

    /// A pair unit with [`LOSSLESS`] asked (and remembered).
    fn ask(&mut self, name: &[u8], i: usize, len: usize, c: usize, u: Unit) -> Unit {
        let Some(bytes) = name.get(i..i + len) else {
            return u;
        };
        let u = u | asked(c, bytes);
        if let &[lead, trail] = bytes {
            if let Some(slot) = pair_slot(c, lead, trail) {
                slot.store(u, Ordering::Relaxed);
            }
        }
        u
    }

    /// The rough rank of a name in candidate `c`: the unigram bits of its
    /// non-ASCII characters; `None` when the charset does not decode it to
    /// characters a name holds (`control`: it holds an ASCII control).
    pub(super) fn rough(&mut self, name: &[u8], c: usize, control: bool) -> Option<u32> {
        if control {
            return None;
        }
        let mut sum = 0u32;
        let mut i = 0;
        while let Some(&b) = name.get(i) {
            if b < 0x80 {
                i += 1;
                continue;
            }
            let (u, len) = self.unit_at(name, i, c);
            match kind(u) {
                CHAR if u & IMPOSSIBLE == 0 => sum += bits(u),
                LONGER => return rough_decoded(name, c),
                _ => return None,
            }
            i += len;
        }
        Some(sum)
    }

    /// A name decoded in candidate `c` (`None`: the decoder rejects it),
    /// and whether it encodes back to the same bytes (what
    /// `Charset::to_utf8` asks).
    pub(super) fn decode(&mut self, name: &[u8], c: usize) -> Option<(String, bool)> {
        let charset = candidates().get(c)?.charset;
        let mut out = String::with_capacity(name.len() * 3);
        let mut lossless = true;
        let mut i = 0;
        while let Some(&b) = name.get(i) {
            if b < 0x80 {
                out.push(char::from(b));
                i += 1;
                continue;
            }
            let (mut u, len) = self.unit_at(name, i, c);
            if u & ASKED == 0 && kind(u) == CHAR {
                u = self.ask(name, i, len, c, u);
            }
            match (kind(u), ch(u)) {
                (CHAR, Some(x)) => {
                    out.push(x);
                    lossless &= u & LOSSLESS != 0;
                }
                // A longer unit, or one of two characters: the decoder.
                (CHAR | LONGER, _) => {
                    let text = charset
                        .encoding()?
                        .decode_without_bom_handling_and_without_replacement(name)?
                        .into_owned();
                    return Some((text, charset.to_utf8(name).is_some()));
                }
                _ => return None,
            }
            i += len;
        }
        // Every unit round trips: the name does. Else the encoder says.
        Some((out, lossless || charset.to_utf8(name).is_some()))
    }
}

/// A double-byte rank through the decoder (names with a longer unit).
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
            .map(|ch| model::unigram_min(ch, &cand.langs, &cand.price))
            .sum(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference_rough(name: &[u8], c: usize) -> Option<u32> {
        if name.iter().any(|&b| b < 0x20 || b == 0x7F) {
            return None;
        }
        rough_decoded(name, c)
    }

    proptest::proptest! {
        /// The memo ranks and decodes as the decoder and the encoder do.
        #[test]
        fn memo_reads_as_the_decoder(
            names in proptest::collection::vec(proptest::collection::vec(proptest::prelude::any::<u8>(), 1..10), 1..40),
        ) {
            let mut memo = Memo;
            for name in &names {
                // Mostly high bytes, some ASCII.
                let name: Vec<u8> = name.iter().map(|&b| if b % 5 == 0 { b & 0x7F } else { b | 0x80 }).collect();
                for c in 0..DOUBLE_BYTE {
                    let cand = &candidates()[c];
                    let control = name.iter().any(|&b| b < 0x20 || b == 0x7F);
                    proptest::prop_assert_eq!(memo.rough(&name, c, control), reference_rough(&name, c));
                    let plain = cand
                        .charset
                        .encoding()
                        .and_then(|e| e.decode_without_bom_handling_and_without_replacement(&name))
                        .map(|t| t.into_owned());
                    let got = memo.decode(&name, c);
                    proptest::prop_assert_eq!(got.as_ref().map(|g| g.0.clone()), plain);
                    proptest::prop_assert_eq!(
                        got.is_some_and(|g| g.1),
                        cand.charset.to_utf8(&name).is_some()
                    );
                }
            }
        }
    }
}
