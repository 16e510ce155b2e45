//! One name on its own: its shape, its readings in the candidate
//! charsets (scored by the model), and the contest between them.

use super::decision::Decision;
use crate::detect::candidates::{candidates, utf8_index, Candidate, DOUBLE_BYTE};
use crate::detect::model::{self, Score};
use crate::detect::rough::{decode, Ranker};

/// The "random bytes" hypothesis: bits per high byte, and its prior.
const GARBAGE_BITS_PER_BYTE: f64 = 8.0;
const GARBAGE_PRIOR: f64 = 3.0;
/// ... and for every high byte that touches an ASCII letter.
const GARBAGE_IN_WORD: f64 = 8.0;
/// How far under its script's limit the head of a cut double-byte name must
/// be (bits per character).
const TRUNCATED_MARGIN: f64 = 2.0;
/// Weight of the ASCII words' fit to a language (`model::ascii_fit`).
const ASCII_FIT_WEIGHT: f64 = 0.5;
/// A valid UTF-8 name with at most this many high bytes lets the legacy
/// readings compete (without FEAT UTF8).
const WEAK_UTF8_BYTES: usize = 6;
/// What an ASCII byte costs in the "random bytes" hypothesis (as in a
/// reading: model.rs charges ASCII 3 bits).
const ASCII_BITS: f64 = 3.0;
/// How far over its script's limit (bits per non-ASCII character) a
/// reading in a directory's established charset may be.
const LENIENT_EXCESS: f64 = 6.0;
/// ... for a single-byte charset (issue 50, fourth pass): a rare kanji is
/// one character over the limit, but an alphabet's reading that far over
/// it is random bytes (`ýź°`, `îôéťó` beside Czech and French names).
/// Chosen on the three validation parts: at 4 / 3 / 2 / 1 / 0 bits
/// (against 6) invalid names +9 / +9 / +10 / +11 / +13, the other names
/// of rows 1-3 0 / -1 / -3 / -16 / -45, row 7 0 / -1 / -3 / -12 / -25.
const LENIENT_EXCESS_ALPHABET: f64 = 4.0;
/// Most structure penalty a lenient reading may have: it is over the limit
/// for rare letters (a kanji of a person's name), not for symbols between
/// letters or a jumble of capitals.
const LENIENT_PENALTY: f64 = 10.0;
/// The prior a reading pays in the "is it a decoding at all" test.
const PLAUSIBLE_PRIOR: f64 = 1.0;

/// One text a name can be read as, and the candidate charsets that read it.
#[derive(Debug, Clone)]
pub(super) struct Reading {
    pub(super) text: String,
    /// Indices into [`candidates`].
    pub(super) charsets: Vec<usize>,
    /// Bits of the text under each of `charsets` (their language fit).
    pub(super) bits: Vec<f64>,
    pub(super) score: Score,
    /// Its bits in each language it was scored in (infinite in the others),
    /// with the price of the charsets that read it in that language
    /// (`Candidate::price`: the same for every charset of a language).
    pub(super) lang: [f64; model::LANG_COUNT],
}

/// The structural kinds of names, before any scoring.
enum Shape {
    Ascii,
    Utf8,
    BrokenUtf8,
    Legacy(Vec<Reading>),
    /// Valid UTF-8 that legacy readings compete for; `true` when the UTF-8
    /// reading itself is a candidate (it is not absurd).
    WeakUtf8(Vec<Reading>, bool),
}

fn shape(name: &[u8]) -> Shape {
    if name.is_ascii() {
        return if name.iter().all(|b| (0x20..0x7F).contains(b)) {
            Shape::Ascii
        } else {
            Shape::BrokenUtf8
        };
    }
    if let Ok(s) = std::str::from_utf8(name) {
        if s.chars().any(model::impossible) {
            return Shape::BrokenUtf8;
        }
        // Legacy bytes are rarely valid UTF-8, but short GBK or Big5 names
        // can be (图片 is CD BC C6 AC, U+0368 U+05AA): when the UTF-8
        // reading is structurally absurd (a combining mark with no base of
        // its script, two scripts inside a word) and the server did not
        // claim UTF-8, the legacy readings compete instead.
        //
        // Short UTF-8 names (a few high bytes: "λ" is GBK 位, "չ" GBK 展)
        // compete with the legacy readings too, the UTF-8 reading as one
        // more candidate: the directory decides.
        let absurd = model::absurd(s);
        let high = name.iter().filter(|b| **b >= 0x80).count();
        if !absurd && high > WEAK_UTF8_BYTES {
            return Shape::Utf8;
        }
        let rs = readings(name);
        return if rs.is_empty() {
            Shape::Utf8
        } else {
            Shape::WeakUtf8(rs, !absurd)
        };
    }
    if broken_utf8(name) {
        return Shape::BrokenUtf8;
    }
    let rs = readings(name);
    let best_excess = rs.iter().map(|r| r.score.excess).fold(f64::INFINITY, f64::min);
    if truncated_double_byte(name, best_excess) {
        return Shape::BrokenUtf8;
    }
    Shape::Legacy(rs)
}

/// A double-byte name cut inside its last character: no double-byte
/// charset reads the whole name plausibly, but one reads all of it except
/// a final lead byte as clearly plausible text of two or more characters
/// (EUC-JP お知ら + `A4`), better than any reading of the whole name
/// (`best_excess`, so an odd-length KOI8-R or Thai name is not "cut").
fn truncated_double_byte(name: &[u8], best_excess: f64) -> bool {
    let Some((_, head)) = name.split_last() else {
        return false;
    };
    let dbcs = candidates().get(..DOUBLE_BYTE).unwrap_or_default();
    let reads = |c: &Candidate, bytes: &[u8]| {
        c.charset
            .to_utf8(bytes)
            .and_then(|text| model::score_langs(&text, Some(c.langs.as_slice()), &c.price, |_| 0.0, None))
    };
    // A double-byte charset that reads the whole name plausibly: not cut.
    if dbcs.iter().any(|c| reads(c, name).is_some_and(|s| s.excess <= 0.0)) {
        return false;
    }
    dbcs.iter().any(|c| {
        reads(c, head).is_some_and(|s| {
            s.non_ascii >= 2
                && s.excess <= -TRUNCATED_MARGIN
                && s.excess < best_excess - TRUNCATED_MARGIN
                && best_excess > -1.0
        })
    })
}

/// UTF-8 structure with a defect: every non-ASCII byte sits in a lead +
/// continuation sequence of the right length, except that the sequences
/// may be overlong or surrogates or above U+10FFFF, or the last one cut
/// short; and at least one multi-byte sequence is complete or the cut one
/// kept a continuation byte (so `café` in Latin-1, `E9` at the end, is not
/// "truncated UTF-8").
pub(super) fn broken_utf8(b: &[u8]) -> bool {
    let mut i = 0;
    let mut complete = 0;
    while i < b.len() {
        let lead = b[i];
        let len = match lead {
            0x00..=0x7F => {
                i += 1;
                continue;
            }
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => return false,
        };
        let mut j = 1;
        while j < len && i + j < b.len() && (0x80..=0xBF).contains(&b[i + j]) {
            j += 1;
        }
        if j < len {
            // Cut short: only allowed at the very end.
            return i + j == b.len() && (complete > 0 || j >= 2);
        }
        complete += 1;
        i += len;
    }
    complete > 0
}

pub(super) fn readings(name: &[u8]) -> Vec<Reading> {
    readings_in(name, None, None)
}

/// The readings of a name in the candidates `only` (all when `None`);
/// a big listing decodes through its memo.
pub(super) fn readings_in(name: &[u8], only: Option<&[usize]>, mut memo: Option<&mut Ranker>) -> Vec<Reading> {
    let mut out: Vec<Reading> = Vec::new();
    // The ASCII words' fit, computed when a Latin-script language needs it
    // (it is 0 for the other languages).
    let mut latin_fit: Option<[f64; model::LANG_COUNT]> = None;
    for (idx, cand) in candidates().iter().enumerate() {
        if only.is_some_and(|o| !o.contains(&idx)) {
            continue;
        }
        let text = match memo.as_deref_mut() {
            Some(m) => m.decode(name, idx),
            None => decode(name, idx),
        };
        let Some(text) = text else {
            continue;
        };
        // The charset's own prior is paid once per directory (see
        // `decide_listing`), not per name: a reading is scored in the
        // languages its charset is written in, with the ASCII words' fit.
        let fit = if cand.langs.iter().any(|&l| model::latin(l)) {
            *latin_fit.get_or_insert_with(|| model::ascii_fit(name))
        } else {
            [0.0; model::LANG_COUNT]
        };
        let compat = |lang: usize| ASCII_FIT_WEIGHT * fit.get(lang).copied().unwrap_or(0.0);
        let langs = Some(cand.langs.as_slice());
        if let Some(r) = out.iter_mut().find(|r| r.text == text) {
            // A text several charsets read: each charset's fit of it (the
            // same when they are written in the same languages).
            let same_langs = r
                .charsets
                .iter()
                .zip(&r.bits)
                .find(|(c, _)| {
                    candidates()
                        .get(**c)
                        .is_some_and(|x| x.langs == cand.langs && x.price == cand.price)
                })
                .map(|(_, b)| *b);
            if let Some(b) = same_langs {
                r.charsets.push(idx);
                r.bits.push(b);
                continue;
            }
            if let Some(s) = model::score_langs(&r.text, langs, &cand.price, compat, Some(&mut r.lang)) {
                r.charsets.push(idx);
                r.bits.push(s.bits);
                if s.bits < r.score.bits {
                    r.score = s;
                }
            }
            continue;
        }
        let mut lang = [f64::INFINITY; model::LANG_COUNT];
        let Some(score) = model::score_langs(&text, langs, &cand.price, compat, Some(&mut lang)) else {
            continue;
        };
        out.push(Reading {
            text,
            charsets: vec![idx],
            bits: vec![score.bits],
            score,
            lang,
        });
    }
    out
}

/// One name that legacy charsets compete for: per candidate charset the
/// bits of its plausible reading (infinite when it has none), and what the
/// name costs as random bytes.
pub(super) struct Contest {
    pub(super) readings: Vec<Reading>,
    /// Per candidate: (bits, index into `readings`).
    pub(super) cost: Vec<(f64, usize)>,
    /// Per candidate, readings that are no decoding alone but would be in a
    /// directory of that charset (within [`LENIENT_EXCESS`], or
    /// [`LENIENT_EXCESS_ALPHABET`] for a single-byte charset).
    pub(super) lenient: Vec<(f64, usize)>,
    pub(super) garbage: f64,
    /// The name is valid UTF-8: shown as UTF-8 when nothing else fits.
    pub(super) utf8: bool,
    /// The name's only high byte is its last, `C2..DF`: perhaps UTF-8 cut.
    pub(super) cut_utf8: bool,
    /// ... and it follows an ASCII letter: UTF-8 cut inside a word (or it
    /// is `C3` after a non-letter or alone: UTF-8 cut, whatever the
    /// directory).
    pub(super) cut_in_word: bool,
    /// Per candidate: its plausible reading holds a frequent word
    /// (issue 50, fifth pass).
    pub(super) worded: Vec<bool>,
    /// How much the name weighs in choosing the directory's charsets: 1,
    /// shared with the other names of its words (`evidence_weights`).
    pub(super) weight: f64,
}

pub(super) fn contest(name: &[u8], mut readings: Vec<Reading>, utf8: bool) -> Contest {
    let ncand = candidates().len() + 1;
    // The UTF-8 reading of a short valid UTF-8 name, as one more candidate.
    if let (true, Ok(text)) = (utf8, std::str::from_utf8(name)) {
        if let Some(score) = model::score(text, |_| 0.0) {
            readings.push(Reading {
                text: text.to_owned(),
                charsets: vec![utf8_index()],
                bits: vec![score.bits],
                score,
                lang: [f64::INFINITY; model::LANG_COUNT],
            });
        }
    }
    let in_word = in_word(name);
    let high = name.iter().filter(|b| **b >= 0x80).count();
    let ascii = name.len() - high;
    let garbage = GARBAGE_BITS_PER_BYTE * high as f64 + GARBAGE_PRIOR + GARBAGE_IN_WORD * in_word as f64;
    let mut cost = vec![(f64::INFINITY, 0); ncand];
    let mut lenient = vec![(f64::INFINITY, 0); ncand];
    for (ri, r) in readings.iter().enumerate() {
        let table = if plausible(r, name.len(), in_word) {
            &mut cost
        } else if r.score.excess <= LENIENT_EXCESS && r.score.penalty <= LENIENT_PENALTY {
            &mut lenient
        } else {
            continue;
        };
        let alphabet_lenient = r.score.excess > LENIENT_EXCESS_ALPHABET && !plausible(r, name.len(), in_word);
        for (&c, &b) in r.charsets.iter().zip(&r.bits) {
            // (A single-byte charset's lenient reading is held closer to
            // the limit: see `LENIENT_EXCESS_ALPHABET`.)
            if alphabet_lenient && c >= DOUBLE_BYTE {
                continue;
            }
            if let Some(slot) = table.get_mut(c) {
                if b < slot.0 {
                    *slot = (b, ri);
                }
            }
        }
    }
    let worded = cost
        .iter()
        .map(|&(b, ri)| b.is_finite() && readings.get(ri).is_some_and(|r| r.score.words > 0))
        .collect();
    Contest {
        worded,
        utf8: std::str::from_utf8(name).is_ok(),
        cut_utf8: high == 1 && name.last().is_some_and(|b| (0xC2..=0xDF).contains(b)),
        // (Cut inside a Latin word: the lead byte of a Latin letter,
        // U+00C0..U+027F; not D2, a Vietnamese tone mark in windows-1258.
        // Or C3, the lead byte of U+00C0..U+00FF, alone as the last word:
        // read alone it is `Ã`, `Ă`, `Ć`, `Г`, `Γ`, no word of any
        // language; issue 50, fourth pass: +3 invalid names on the
        // validation parts, no other name lost. Every lead byte alone as a
        // word, C2..DF, lost 31 valid names (`Ø`, `Ä`, `É`, `Ю`) to win 9.)
        cut_in_word: high == 1
            && name.last().is_some_and(|b| (0xC3..=0xC9).contains(b))
            && match name.len().checked_sub(2).and_then(|i| name.get(i)) {
                Some(prev) => {
                    prev.is_ascii_alphabetic() || (name.last() == Some(&0xC3) && !prev.is_ascii_alphanumeric())
                }
                None => name.last() == Some(&0xC3),
            },
        readings,
        cost,
        lenient,
        garbage: garbage + ASCII_BITS * ascii as f64,
        weight: 1.0,
    }
}

/// High bytes touching ASCII letters: junk rarely lands inside a word.
pub(super) fn in_word(name: &[u8]) -> usize {
    name.windows(2)
        .filter(|w| (w[0] >= 0x80 && w[1].is_ascii_alphabetic()) || (w[0].is_ascii_alphabetic() && w[1] >= 0x80))
        .count()
}

/// The decision of a name its structure settles (ASCII, UTF-8 with many
/// high bytes or under FEAT UTF8, UTF-8 gone wrong); `None` for the names
/// legacy charsets compete for.
pub(super) fn structural(name: &[u8], feat_utf8: bool) -> Option<Decision> {
    if name.is_ascii() {
        return Some(if name.iter().all(|b| (0x20..0x7F).contains(b)) {
            Decision::Ascii
        } else {
            Decision::Raw
        });
    }
    if let Ok(s) = std::str::from_utf8(name) {
        if s.chars().any(model::impossible) {
            return Some(Decision::Raw);
        }
        let high = name.iter().filter(|b| **b >= 0x80).count();
        if feat_utf8 || (high > WEAK_UTF8_BYTES && !model::absurd(s)) {
            return Some(Decision::Utf8);
        }
        return None;
    }
    broken_utf8(name).then_some(Decision::Raw)
}

pub(super) fn full_contest(name: &[u8]) -> Result<Contest, Decision> {
    match shape(name) {
        Shape::Ascii => Err(Decision::Ascii),
        Shape::Utf8 => Err(Decision::Utf8),
        Shape::BrokenUtf8 => Err(Decision::Raw),
        Shape::Legacy(rs) => Ok(contest(name, rs, false)),
        Shape::WeakUtf8(rs, reading) => Ok(contest(name, rs, reading)),
    }
}

/// Whether a reading is a decoding at all: its non-ASCII part within its
/// script's limit, and cheaper than the
/// hypothesis "random bytes": 8 bits for every byte not read as ASCII, plus
/// what a garbage name costs a priori.
pub(super) fn plausible(r: &Reading, name_len: usize, in_word: usize) -> bool {
    let ascii_chars = r.text.chars().filter(char::is_ascii).count();
    let bytes = name_len.saturating_sub(ascii_chars);
    let random = GARBAGE_BITS_PER_BYTE * bytes as f64 + GARBAGE_PRIOR + GARBAGE_IN_WORD * in_word as f64;
    r.score.excess <= 0.0 && r.score.non_ascii_bits + PLAUSIBLE_PRIOR < random
}
