//! Charset decisions for the names of a listing (RFC 2640 A.1, client
//! side; issues 13 and 26).
//!
//! 1. An explicit charset wins over everything: a name it decodes is shown
//!    decoded (even when the bytes happen to be valid UTF-8), any other
//!    name is [`Decision::Raw`].
//! 2. Structure settles most names: printable ASCII is [`Decision::Ascii`];
//!    UTF-8 with many high bytes (or under FEAT UTF8) is [`Decision::Utf8`];
//!    UTF-8 gone wrong (a cut tail, a surrogate, an overlong form) and a
//!    double-byte name cut inside its last character are Raw.
//! 3. For the other names every legacy charset of [`CANDIDATES`] that
//!    decodes them *losslessly* proposes a text, scored by the model
//!    (`model.rs`); a short valid UTF-8 name's UTF-8 reading competes too.
//! 4. The directory's charsets are chosen first, as the fewest bits that
//!    describe the whole listing: a charset's prior is paid once per
//!    directory, and each charset after the first costs [`SWITCH`] more
//!    (UTF-8 is the first of a listing with UTF-8 names). So a name leaves
//!    its directory's charset only on strong evidence of its own.
//! 5. Each name takes its cheapest plausible reading in the directory's
//!    charsets; failing that, a lenient reading in an established one, or
//!    (in a legacy directory) its own reading if clearly not random bytes;
//!    else Raw. With FEAT UTF8 only clearly legacy text is decoded.
//!
//! docs/dev/charset-detection.md has the details and the measurements.

use std::collections::BTreeMap;

use super::model::{self, lang_index, Score};
use super::rough::{decode, same_text, table_chars, Ranker};
use crate::Charset;

/// What the client decided to show for one name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Printable ASCII: shown as it is.
    Ascii,
    /// Valid UTF-8: shown as it is.
    Utf8,
    /// Decoded losslessly with a legacy charset. `confident` when the
    /// runner-up text was far behind.
    Decoded {
        charset: Charset,
        text: String,
        confident: bool,
    },
    /// Shown as `%HH` of the server's bytes (printable ASCII kept).
    Raw,
}

/// What one decision needs to know besides the name.
pub struct Context<'a> {
    /// A charset the user chose: overrides detection.
    pub explicit: Option<Charset>,
    /// The server's FEAT listed UTF8.
    pub feat_utf8: bool,
    /// What earlier listings of this server showed.
    pub evidence: &'a Evidence,
}

/// The legacy charsets detection considers, with a prior in bits (how rare
/// the charset is on servers: windows-1251 is common, ISO-8859-5 rare) and
/// the languages each one is written in (a reading in another language
/// pays [`OFF_LANGUAGE`] bits).
/// Among charsets that give the same text, the first one listed is named.
pub const CANDIDATES: &[(&str, u8, &[&str])] = &[
    ("Shift_JIS", 2, &["ja"]),
    ("EUC-JP", 3, &["ja"]),
    ("GBK", 2, &["zh", "zt"]),
    ("gb18030", 3, &["zh", "zt"]),
    ("Big5", 2, &["zt"]),
    ("EUC-KR", 2, &["ko"]),
    (
        "windows-1252",
        1,
        &["de", "fr", "es", "pt", "it", "nl", "ca", "sv", "da", "nb", "fi", "is"],
    ),
    (
        "ISO-8859-15",
        3,
        &[
            "de", "fr", "es", "pt", "it", "nl", "ca", "sv", "da", "nb", "fi", "is", "et",
        ],
    ),
    (
        "macintosh",
        5,
        &["de", "fr", "es", "pt", "it", "nl", "ca", "sv", "da", "nb", "fi", "is"],
    ),
    ("windows-1250", 2, &["pl", "cs", "sk", "sl", "hu", "ro", "hr", "de"]),
    ("ISO-8859-2", 3, &["pl", "cs", "sk", "sl", "hu", "ro", "hr", "de"]),
    ("windows-1251", 1, &["ru", "uk", "bg", "mk"]),
    ("KOI8-R", 3, &["ru", "bg"]),
    ("KOI8-U", 4, &["uk", "ru", "bg"]),
    ("ISO-8859-5", 6, &["ru", "bg", "mk"]),
    ("IBM866", 4, &["ru"]),
    ("x-mac-cyrillic", 6, &["ru", "uk", "bg"]),
    ("windows-1253", 2, &["el"]),
    ("ISO-8859-7", 3, &["el"]),
    ("windows-1254", 2, &["tr"]),
    ("windows-1255", 2, &["he"]),
    ("ISO-8859-8", 3, &["he"]),
    ("windows-1256", 2, &["ar", "fa"]),
    ("ISO-8859-6", 4, &["ar"]),
    ("windows-1257", 3, &["lt", "lv", "et"]),
    ("windows-1258", 3, &["vi"]),
    ("windows-874", 2, &["th"]),
];

/// The "random bytes" hypothesis: bits per high byte, and its prior.
const GARBAGE_BITS_PER_BYTE: f64 = 8.0;
const GARBAGE_PRIOR: f64 = 3.0;
/// ... and for every high byte that touches an ASCII letter.
const GARBAGE_IN_WORD: f64 = 8.0;
/// How far under its script's limit the head of a cut double-byte name must
/// be (bits per character).
const TRUNCATED_MARGIN: f64 = 2.0;
/// The first entries of [`CANDIDATES`] are the double-byte charsets.
pub(super) const DOUBLE_BYTE: usize = 6;
/// Weight of the ASCII words' fit to a language (`model::ascii_fit`).
const ASCII_FIT_WEIGHT: f64 = 0.5;
/// Bits a directory pays for each charset after its first: what a name's
/// own evidence must be worth for it to leave the directory's charset.
/// (12 until round 3's eighth stop, when only the second charset really
/// paid it: `directory_charsets` compared a bigger set's price with the
/// smaller set's names alone. Chosen again on the validation part with
/// that mended.)
const SWITCH: f64 = 6.0;
/// Bits the server's history takes off a charset's price in a directory
/// (times the charset's share of the history).
const HISTORY_BONUS: f64 = 8.0;
/// The index of "UTF-8" beside the candidates in a directory's charsets.
fn utf8_index() -> usize {
    candidates().len()
}
/// Its prior: UTF-8 is the commonest charset of names today.
const UTF8_PRIOR: f64 = 1.0;
/// A valid UTF-8 name with at most this many high bytes lets the legacy
/// readings compete (without FEAT UTF8).
const WEAK_UTF8_BYTES: usize = 6;
/// How many names of a listing choose its charsets (an even sample of a
/// bigger listing).
const SAMPLE: usize = 48;
/// What an ASCII byte costs in the "random bytes" hypothesis (as in a
/// reading: model.rs charges ASCII 3 bits).
const ASCII_BITS: f64 = 3.0;
/// How far over its script's limit (bits per non-ASCII character) a
/// reading in a directory's established charset may be.
const LENIENT_EXCESS: f64 = 6.0;
/// Most structure penalty a lenient reading may have: it is over the limit
/// for rare letters (a kanji of a person's name), not for symbols between
/// letters or a jumble of capitals.
const LENIENT_PENALTY: f64 = 10.0;
/// What a lenient reading costs over its bits when it keeps a directory
/// from choosing one more charset.
const LENIENT_BITS: f64 = 4.0;
/// Names a charset must explain in a directory to carry the others (a
/// lenient reading, a name cut like UTF-8): two, as a mixed directory holds
/// few names of each of its charsets (was three, with every other name of
/// a small directory; round 3).
const ESTABLISHED: f64 = 2.0;
/// Names the top charset of a big listing's sample must explain for a
/// name outside the sample to be read in it without scoring.
const CARRIES: f64 = 3.0;
/// How much cheaper than random bytes a name's own reading must be for the
/// name to leave a directory none of whose charsets reads it.
const LEAVE_MIN: f64 = 6.0;
/// The prior a reading pays in the "is it a decoding at all" test.
const PLAUSIBLE_PRIOR: f64 = 1.0;
/// With FEAT UTF8 a non-UTF-8 name must be this much more plausible (bits
/// per non-ASCII character below the script's limit) to be decoded.
const FEAT_STRICTER: f64 = 2.5;
/// Margin over the runner-up for a confident decision.
const CONFIDENT_MARGIN: f64 = 8.0;

pub(super) struct Candidate {
    pub charset: Charset,
    prior: f64,
    pub langs: Vec<usize>,
}

pub(super) fn candidates() -> &'static [Candidate] {
    static C: std::sync::OnceLock<Vec<Candidate>> = std::sync::OnceLock::new();
    C.get_or_init(|| {
        CANDIDATES
            .iter()
            .filter_map(|(label, prior, langs)| {
                Some(Candidate {
                    charset: Charset::for_label(label)?,
                    prior: f64::from(*prior),
                    langs: langs.iter().filter_map(|l| lang_index(l)).collect(),
                })
            })
            .collect()
    })
}

/// One text a name can be read as, and the candidate charsets that read it.
#[derive(Debug, Clone)]
struct Reading {
    text: String,
    /// Indices into [`candidates`].
    charsets: Vec<usize>,
    /// Bits of the text under each of `charsets` (their language fit).
    bits: Vec<f64>,
    score: Score,
    /// Its bits in each language it was scored in (infinite in the others).
    lang: [f64; model::LANG_COUNT],
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

fn shape(name: &[u8], feat_utf8: bool) -> Shape {
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
        if feat_utf8 || (!absurd && high > WEAK_UTF8_BYTES) {
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
            .and_then(|text| model::score_in(&text, Some(c.langs.as_slice()), |_| 0.0))
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
fn broken_utf8(b: &[u8]) -> bool {
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

fn readings(name: &[u8]) -> Vec<Reading> {
    readings_in(name, None, None)
}

/// The readings of a name in the candidates `only` (all when `None`);
/// a big listing decodes through its memo.
fn readings_in(name: &[u8], only: Option<&[usize]>, mut memo: Option<&mut Ranker>) -> Vec<Reading> {
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
                .find(|(c, _)| candidates().get(**c).is_some_and(|x| x.langs == cand.langs))
                .map(|(_, b)| *b);
            if let Some(b) = same_langs {
                r.charsets.push(idx);
                r.bits.push(b);
                continue;
            }
            if let Some(s) = model::score_langs(&r.text, langs, compat, Some(&mut r.lang)) {
                r.charsets.push(idx);
                r.bits.push(s.bits);
                if s.bits < r.score.bits {
                    r.score = s;
                }
            }
            continue;
        }
        let mut lang = [f64::INFINITY; model::LANG_COUNT];
        let Some(score) = model::score_langs(&text, langs, compat, Some(&mut lang)) else {
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
struct Contest {
    readings: Vec<Reading>,
    /// Per candidate: (bits, index into `readings`).
    cost: Vec<(f64, usize)>,
    /// Per candidate, readings that are no decoding alone but would be in a
    /// directory of that charset (within [`LENIENT_EXCESS`]).
    lenient: Vec<(f64, usize)>,
    garbage: f64,
    /// The name is valid UTF-8: shown as UTF-8 when nothing else fits.
    utf8: bool,
    /// The name's only high byte is its last, `C2..DF`: perhaps UTF-8 cut.
    cut_utf8: bool,
    /// ... and it follows an ASCII letter: UTF-8 cut inside a word.
    cut_in_word: bool,
    /// How much the name weighs in choosing the directory's charsets: 1,
    /// shared with the other names of its words (`evidence_weights`).
    weight: f64,
}

fn contest(name: &[u8], mut readings: Vec<Reading>, feat_utf8: bool, utf8: bool) -> Contest {
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
        let table = if plausible(r, name.len(), in_word, feat_utf8) {
            &mut cost
        } else if r.score.excess <= if feat_utf8 { 0.0 } else { LENIENT_EXCESS } && r.score.penalty <= LENIENT_PENALTY {
            // Under FEAT UTF8: what would be plausible without it, for a
            // directory whose other names establish the charset.
            &mut lenient
        } else {
            continue;
        };
        for (&c, &b) in r.charsets.iter().zip(&r.bits) {
            if let Some(slot) = table.get_mut(c) {
                if b < slot.0 {
                    *slot = (b, ri);
                }
            }
        }
    }
    Contest {
        utf8: std::str::from_utf8(name).is_ok(),
        cut_utf8: high == 1 && name.last().is_some_and(|b| (0xC2..=0xDF).contains(b)),
        // (Cut inside a Latin word: the lead byte of a Latin letter,
        // U+00C0..U+027F; not D2, a Vietnamese tone mark in windows-1258.)
        cut_in_word: high == 1
            && name.len() >= 2
            && name.last().is_some_and(|b| (0xC3..=0xC9).contains(b))
            && name.get(name.len() - 2).is_some_and(u8::is_ascii_alphabetic),
        readings,
        cost,
        lenient,
        garbage: garbage + ASCII_BITS * ascii as f64,
        weight: 1.0,
    }
}

/// A charset's prior in bits; `utf8_index()` is the UTF-8 reading.
fn prior(c: usize) -> f64 {
    if c == utf8_index() {
        return UTF8_PRIOR;
    }
    candidates().get(c).map_or(f64::INFINITY, |x| x.prior)
}

/// High bytes touching ASCII letters: junk rarely lands inside a word.
fn in_word(name: &[u8]) -> usize {
    name.windows(2)
        .filter(|w| (w[0] >= 0x80 && w[1].is_ascii_alphabetic()) || (w[0].is_ascii_alphabetic() && w[1] >= 0x80))
        .count()
}

/// Decides every name of one listing; the listing is the prior.
///
/// The directory's charsets are chosen first, as a description of the
/// whole listing in the fewest bits: each legacy name costs the bits of its
/// reading in the cheapest chosen charset (or of random bytes), and each
/// charset chosen costs its prior, plus [`SWITCH`] bits for every charset
/// after the first (a listing that holds UTF-8 names, or comes from a
/// server that claims UTF-8, has UTF-8 as its first). So the letters that
/// differ between close relatives (ISO-8859-2 and windows-1250, KOI8-U and
/// KOI8-R) are weighed over the whole listing, and a single name leaves the
/// directory's charset only when its own evidence is worth [`SWITCH`] bits.
///
/// A listing with [`PARALLEL_MIN`] names or more to score has them decided
/// on the machine's cores (at most [`MAX_THREADS`]) once the charsets are
/// chosen: the same decisions as on one thread.
pub fn decide_listing(names: &[&[u8]], cx: &Context) -> Vec<Decision> {
    decide_in(names, cx, None)
}

/// [`decide_listing`], its names decided on `threads` threads (`None`: the
/// machine's cores, at most [`MAX_THREADS`]) once the directory's charsets
/// are chosen; on one when fewer than [`PARALLEL_MIN`] names are left to
/// score.
fn decide_in(names: &[&[u8]], cx: &Context, threads: Option<usize>) -> Vec<Decision> {
    if let Some(charset) = cx.explicit {
        return names.iter().map(|n| explicit(n, charset)).collect();
    }
    // Names decided by their structure alone, and the others.
    let pre: Vec<Option<Decision>> = names.iter().map(|n| structural(n, cx.feat_utf8)).collect();
    let utf8_seen = cx.feat_utf8 || pre.contains(&Some(Decision::Utf8));
    let open: Vec<usize> = (0..names.len())
        .filter(|&i| pre.get(i).is_some_and(Option::is_none))
        .collect();
    // The directory's charsets are chosen on every open name of a listing,
    // or on an even sample of a big one.
    let step = open.len().div_ceil(SAMPLE).max(1);
    let mut full: Vec<Option<Result<Contest, Decision>>> = (0..names.len()).map(|_| None).collect();
    for &i in open.iter().step_by(step) {
        if let (Some(slot), Some(name)) = (full.get_mut(i), names.get(i)) {
            *slot = Some(full_contest(name, cx.feat_utf8));
        }
    }
    evidence_weights(names, &mut full);
    let chosen = directory_charsets(full.iter().flatten(), utf8_seen, cx.evidence);
    // Each name on its own now that the directory's charsets are chosen.
    // A name judged Raw by its shape alone may still be read in a charset
    // the directory's other names established: in a legacy directory,
    // when the name is not UTF-8 (`choose_broken`, never confident).
    let legacy_dir = !cx.feat_utf8 && !chosen.utf8;
    let broken = |name: &[u8]| choose_broken(name, &chosen, cx.evidence.likely());
    let one = |((p, f), name): Item<'_>, memo: &mut Ranker| {
        let not_utf8 = || std::str::from_utf8(name).is_err();
        if let Some(d) = p {
            // Shaped like UTF-8 gone wrong.
            if d == Decision::Raw && legacy_dir && not_utf8() && broken_utf8(name) {
                return broken(name);
            }
            return d;
        }
        let k = match f {
            Some(k) => k,
            // Outside the sample: the directory's charsets first.
            None => quick_contest(name, &chosen, cx.feat_utf8, memo),
        };
        match k {
            Ok(k) => choose(&k, &chosen, cx.feat_utf8),
            // Shaped like a double-byte name cut inside its last
            // character (`truncated_double_byte`, judged on the name
            // alone): Thai `ตราชู` is GBK `得要` + `D9`.
            Err(Decision::Raw) if legacy_dir && not_utf8() => broken(name),
            Err(d) => d,
        }
    };
    // Threads pay off for the names still to be scored, not for those
    // their shape decided, nor in a UTF-8 directory (whose short UTF-8
    // names are UTF-8 without scoring).
    let to_score = pre
        .iter()
        .zip(&full)
        .filter(|(p, f)| p.is_none() && f.is_none())
        .count();
    let utf8_only = chosen.utf8 && chosen.members.len() == 1;
    let threads = if to_score >= PARALLEL_MIN && !utf8_only {
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS)))
    } else {
        1
    };
    let items: Vec<_> = pre.into_iter().zip(full).zip(names.iter().copied()).collect();
    let mut out = in_threads(items, threads, one);
    unclash(names, &mut out);
    out
}

/// A name of a listing on its way to its decision: decided by its shape,
/// its contest if it was in the sample, and its bytes.
type Item<'a> = ((Option<Decision>, Option<Result<Contest, Decision>>), &'a [u8]);

/// A listing with this many names to score (not decided by their shape
/// alone, nor in the sample) has them decided on several threads (each
/// name's decision is its own once the directory's charsets are chosen;
/// the decisions are the same on one thread).
const PARALLEL_MIN: usize = 2048;
/// At most this many threads decide one listing.
const MAX_THREADS: usize = 8;

/// `one` over `items` in order, on `threads` threads (scoped: each takes an
/// equal run of the items, with its own [`Ranker`]). A thread the system
/// refuses leaves its run to the calling thread.
fn in_threads<T, F>(items: Vec<T>, threads: usize, one: F) -> Vec<Decision>
where
    T: Send,
    F: Fn(T, &mut Ranker) -> Decision + Sync,
{
    if threads <= 1 {
        let mut memo = Ranker::default();
        return items.into_iter().map(|x| one(x, &mut memo)).collect();
    }
    // Each run in a slot its thread takes it from: a run whose thread the
    // system refused is still in its slot for the calling thread.
    let per = items.len().div_ceil(threads).max(1);
    let mut rest = items.into_iter();
    let slots: Vec<std::sync::Mutex<Option<Vec<T>>>> = std::iter::from_fn(|| {
        let run: Vec<T> = rest.by_ref().take(per).collect();
        (!run.is_empty()).then(|| std::sync::Mutex::new(Some(run)))
    })
    .collect();
    let one = &one;
    let take_and_run = move |slot: &std::sync::Mutex<Option<Vec<T>>>| -> Vec<Decision> {
        let run = match slot.lock() {
            Ok(mut g) => g.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        let mut memo = Ranker::default();
        run.unwrap_or_default().into_iter().map(|x| one(x, &mut memo)).collect()
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = slots
            .iter()
            .skip(1)
            .map(|slot| {
                std::thread::Builder::new()
                    .name("babelftp-detect".into())
                    .spawn_scoped(s, move || take_and_run(slot))
                    .ok()
            })
            .collect();
        let mut out = slots.first().map(take_and_run).unwrap_or_default();
        for (slot, h) in slots.iter().skip(1).zip(handles) {
            match h.map(std::thread::ScopedJoinHandle::join) {
                Some(Ok(d)) => out.extend(d),
                Some(Err(panic)) => std::panic::resume_unwind(panic),
                None => out.extend(take_and_run(slot)),
            }
        }
        out
    })
}

/// Names that share their words with high bytes (`Ąžuolas (3).txt`,
/// `IMG_2426 Ąžuolas.jpg`) are one piece of evidence about the directory's
/// charsets, not several: each weighs 1 / how many names share them.
fn evidence_weights(names: &[&[u8]], full: &mut [Option<Result<Contest, Decision>>]) {
    let words = |name: &[u8]| -> Vec<Vec<u8>> {
        let mut w: Vec<Vec<u8>> = name
            .split(|b| !(*b >= 0x80 || b.is_ascii_alphabetic()))
            .filter(|w| w.iter().any(|b| *b >= 0x80))
            .map(<[u8]>::to_vec)
            .collect();
        w.sort_unstable();
        w.dedup();
        w
    };
    let keys: Vec<Option<Vec<Vec<u8>>>> = names
        .iter()
        .zip(full.iter())
        .map(|(n, f)| matches!(f, Some(Ok(_))).then(|| words(n)))
        .collect();
    let mut seen: std::collections::HashMap<&[Vec<u8>], f64> = std::collections::HashMap::new();
    for k in keys.iter().flatten() {
        *seen.entry(k.as_slice()).or_insert(0.0) += 1.0;
    }
    for (k, f) in keys.iter().zip(full.iter_mut()) {
        if let (Some(k), Some(Ok(c))) = (k, f) {
            c.weight = 1.0 / seen.get(k.as_slice()).copied().unwrap_or(1.0);
        }
    }
}

/// A name shaped like UTF-8 gone wrong (an overlong `C0 B4`, a sequence
/// cut at the end: `EA BB BC CE`) in a directory that is not UTF-8: the
/// bytes of a double-byte charset can have that shape (GBK `来`, `昊嘉`).
/// Decoded when a charset the directory's other names established (or the
/// server's history) reads it as plausible text (never confidently); else
/// `%HH`, as alone.
fn choose_broken(name: &[u8], chosen: &Chosen, server: Option<Charset>) -> Decision {
    let mut established: Vec<usize> = chosen
        .members
        .iter()
        .filter(|m| chosen.established(m.2))
        .map(|m| m.0)
        .collect();
    // ... or the server's history (`Evidence::likely`): a single name
    // (`ls 来`) is shown as its listing showed it.
    if let Some(c) = server.and_then(|cs| candidates().iter().position(|x| x.charset == cs)) {
        if !established.contains(&c) {
            established.push(c);
        }
    }
    if established.is_empty() || dots_or_slashes(name) {
        return Decision::Raw;
    }
    let mut k = contest(name, readings_in(name, Some(&established), None), false, false);
    // Only a plausible reading in an established charset (no lenient one,
    // no charset outside the directory).
    for (c, slot) in k.cost.iter_mut().enumerate() {
        if !established.contains(&c) {
            slot.0 = f64::INFINITY;
        }
    }
    // (A lenient reading was tried on the validation part: it read UTF-8
    // Chinese cut short as GBK mojibake, `鐨囧眳澶栬嫅`.)
    for slot in &mut k.lenient {
        slot.0 = f64::INFINITY;
    }
    match choose(&k, chosen, false) {
        Decision::Decoded { charset, text, .. } => Decision::Decoded {
            charset,
            text,
            confident: false,
        },
        _ => Decision::Raw,
    }
}

/// An overlong UTF-8 form of `.`, `/` or `\` (`C0 AE`, `E0 80 AF`): what a
/// path traversal is smuggled in (RFC 2279's warning), always `%HH`.
fn dots_or_slashes(name: &[u8]) -> bool {
    name.windows(2).any(|w| matches!(w, [0xC0, 0xAE | 0xAF] | [0xC1, 0x9C]))
        || name
            .windows(3)
            .any(|w| matches!(w, [0xE0, 0x80, 0xAE | 0xAF] | [0xE0, 0x81, 0x9C]))
        || name
            .windows(4)
            .any(|w| matches!(w, [0xF0, 0x80, 0x80, 0xAE | 0xAF] | [0xF0, 0x80, 0x81, 0x9C]))
}

/// The decision of a name its structure settles (ASCII, UTF-8 with many
/// high bytes or under FEAT UTF8, UTF-8 gone wrong); `None` for the names
/// legacy charsets compete for.
fn structural(name: &[u8], feat_utf8: bool) -> Option<Decision> {
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

fn full_contest(name: &[u8], feat_utf8: bool) -> Result<Contest, Decision> {
    match shape(name, feat_utf8) {
        Shape::Ascii => Err(Decision::Ascii),
        Shape::Utf8 => Err(Decision::Utf8),
        Shape::BrokenUtf8 => Err(Decision::Raw),
        Shape::Legacy(rs) => Ok(contest(name, rs, feat_utf8, false)),
        Shape::WeakUtf8(rs, reading) => Ok(contest(name, rs, feat_utf8, reading)),
    }
}

/// A name of a big listing outside its sample: the directory's charsets
/// first, by the cheapest test (`clear_in_top`); else the name is scored
/// in full in the [`ROUGH_TOP`] charsets whose rough rank (unigram bits,
/// plus what the charset costs in this directory) is best, not in all 27:
/// a mixed listing of many charsets stays fast.
fn quick_contest(name: &[u8], chosen: &Chosen, feat_utf8: bool, memo: &mut Ranker) -> Result<Contest, Decision> {
    // A UTF-8 directory: its short UTF-8 names are UTF-8.
    if chosen.members.len() == 1 && chosen.utf8 && std::str::from_utf8(name).is_ok() {
        return Err(Decision::Utf8);
    }
    // The charset that explains most of the sample reads the name as clear
    // text, and no other charset of the directory reads it as clear text
    // otherwise: that reading, without scoring.
    if !feat_utf8 {
        if let Some(d) = clear_in_top(name, chosen, memo) {
            return Err(d);
        }
    }
    // Each charset's rough rank plus what it costs in this directory, in
    // order (a stable insertion sort of at most 27: ties keep the order of
    // the candidates).
    let ranks = memo.rough_all(name);
    let mut ranked = [(0.0f64, 0usize); MAX_CANDIDATES];
    let mut n = 0;
    for (c, r) in ranks.iter().enumerate() {
        let (Some(r), Some(&price)) = (r, chosen.price.get(c)) else {
            continue;
        };
        let x = f64::from(*r) + price;
        let mut i = n;
        while i > 0 && ranked.get(i - 1).is_some_and(|p| p.0.total_cmp(&x).is_gt()) {
            ranked.swap(i - 1, i);
            i -= 1;
        }
        if let Some(slot) = ranked.get_mut(i) {
            *slot = (x, c);
        }
        n += 1;
    }
    let ranked = ranked.get(..n).unwrap_or_default();
    let first = ranked.first().map_or(0.0, |x| x.0);
    // Far ahead of every other text in the rough rank, and clear text in
    // its charset's languages: that reading, without scoring.
    if let (false, Some(&(_, best))) = (feat_utf8 || std::str::from_utf8(name).is_ok(), ranked.first()) {
        let lead = ranked
            .iter()
            .skip(1)
            .find(|x| !same_text(name, best, x.1))
            .map_or(f64::INFINITY, |x| x.0 - first);
        if lead >= ROUGH_DECISIVE {
            if let (Some(cand), Some(text)) = (candidates().get(best), clear_reading(name, best, memo)) {
                return Err(Decision::Decoded {
                    charset: cand.charset,
                    text,
                    confident: true,
                });
            }
        }
    }
    let mut top = [0usize; ROUGH_TOP];
    let mut ntop = 0;
    for (slot, x) in top
        .iter_mut()
        .zip(ranked.iter().take_while(|x| x.0 <= first + ROUGH_MARGIN))
    {
        *slot = x.1;
        ntop += 1;
    }
    let top = top.get(..ntop).unwrap_or_default();
    let rs = readings_in(name, Some(top), Some(memo));
    let utf8 = std::str::from_utf8(name).is_ok_and(|s| !model::absurd(s));
    Ok(contest(name, rs, feat_utf8, utf8))
}

/// Room for the candidates' ranks of one name.
const MAX_CANDIDATES: usize = 32;
const _: () = assert!(CANDIDATES.len() <= MAX_CANDIDATES);
// (A directory's languages are a bit mask.)
const _: () = assert!(model::LANG_COUNT <= 64);
// (The rough rank keeps the single-byte charsets' sums in arrays of 32.)
const _: () = assert!(CANDIDATES.len() - DOUBLE_BYTE <= 32);

/// How many charsets a big listing's name outside the sample is scored in:
/// at most [`ROUGH_TOP`], those within [`ROUGH_MARGIN`] bits of the best
/// rough rank.
const ROUGH_TOP: usize = 2;
const ROUGH_MARGIN: f64 = 8.0;
/// How far ahead of every other text a reading must be in the rough rank
/// to be taken without scoring (when it is clear text).
const ROUGH_DECISIVE: f64 = 8.0;

fn clear_in_top(name: &[u8], chosen: &Chosen, memo: &mut Ranker) -> Option<Decision> {
    let &(top, _, support) = chosen.members.iter().max_by(|a, b| a.2.total_cmp(&b.2))?;
    if support < CARRIES {
        return None;
    }
    let cand = candidates().get(top)?;
    let text = clear_reading(name, top, memo)?;
    for &(c, _, _) in &chosen.members {
        if c == top {
            continue;
        }
        if c == utf8_index() {
            if let Ok(o) = std::str::from_utf8(name) {
                if o != text && model::clear(o, all_langs()) {
                    return None;
                }
            }
            continue;
        }
        let Some(other) = candidates().get(c) else {
            continue;
        };
        match table_chars(name, c) {
            Some(Some(o)) => {
                if !o.clone().eq(text.chars()) && model::clear_chars(o, &other.langs) {
                    return None;
                }
            }
            Some(None) => {}
            None => {
                if let Some((o, lossless)) = memo.decode_unchecked(name, c) {
                    if lossless && o != text && model::clear(&o, &other.langs) {
                        return None;
                    }
                }
            }
        }
    }
    Some(Decision::Decoded {
        charset: cand.charset,
        text,
        confident: true,
    })
}

/// A name's lossless reading in candidate `c` when it is clear text of
/// the charset's languages (`model::clear`); a single-byte reading is
/// tested before it is built.
fn clear_reading(name: &[u8], c: usize, memo: &mut Ranker) -> Option<String> {
    let cand = candidates().get(c)?;
    match table_chars(name, c) {
        Some(chars) => chars
            .filter(|chars| model::clear_chars(chars.clone(), &cand.langs))
            .and_then(|_| decode(name, c)),
        None => {
            let (text, lossless) = memo.decode_unchecked(name, c)?;
            (lossless && model::clear(&text, &cand.langs)).then_some(text)
        }
    }
}

/// Every language of the tables (a UTF-8 reading's).
fn all_langs() -> &'static [usize] {
    static L: std::sync::OnceLock<Vec<usize>> = std::sync::OnceLock::new();
    L.get_or_init(|| (0..model::LANGS.len()).collect())
}

/// The charsets of a directory, with the bits each name pays for being in
/// it (`-log2` of its share of the legacy names).
struct Chosen {
    /// (candidate index, bits, names it explains best)
    members: Vec<(usize, f64, f64)>,
    /// Per member, the languages it is read in (`member_langs`).
    langs: Vec<u64>,
    /// UTF-8 is one of the directory's charsets.
    utf8: bool,
    /// Per candidate, what a name pays for being in it: its share's bits,
    /// or [`SWITCH`], its prior and the share bits of one name for a
    /// charset outside the directory.
    price: Vec<f64>,
}

impl Chosen {
    /// Whether a charset that explains `support` names is one of the
    /// directory's own: [`ESTABLISHED`] names.
    fn established(&self, support: f64) -> bool {
        support >= ESTABLISHED
    }
}

/// Bits of a listing's open names described with the charsets `set`: each
/// name in its cheapest charset of the set (a lenient reading for
/// [`LENIENT_BITS`] more) or as random bytes, plus [`SHARE_WEIGHT`] times
/// `-log2` of its charset's share of the names (which charset each name is
/// in: a second charset that explains a few names slightly better than the
/// first does not pay for itself). A name is read in its charset's
/// languages of the directory (`member_langs`), whose further languages
/// are paid here too.
fn names_bits(live: &[&Contest], set: &[usize]) -> f64 {
    let langs = member_langs(live, set);
    let mut count = vec![0.5; set.len()];
    let mut sum = 0.0;
    let mut assigned: Vec<Option<usize>> = Vec::with_capacity(live.len());
    for k in live {
        let mut best = (k.garbage, None);
        for (j, &c) in set.iter().enumerate() {
            let plain = k.in_lang(c, langs.get(j).copied().unwrap_or(0));
            let lenient = k.lenient.get(c).map_or(f64::INFINITY, |x| x.0 + LENIENT_BITS);
            let b = plain.min(lenient);
            if b < best.0 {
                best = (b, Some(j));
            }
        }
        sum += k.weight * best.0;
        if let Some(n) = best.1.and_then(|j| count.get_mut(j)) {
            *n += k.weight;
        }
        assigned.push(best.1);
    }
    let total: f64 = count.iter().sum();
    let which: f64 = live
        .iter()
        .zip(&assigned)
        .filter_map(|(k, j)| Some(k.weight * -(count.get((*j)?)? / total).log2()))
        .sum();
    // ... and what the charsets' further languages cost.
    let languages: f64 = langs
        .iter()
        .map(|m| f64::from(m.count_ones().saturating_sub(1)) * LANG_ADD)
        .sum();
    sum + SHARE_WEIGHT * which + languages
}

/// Weight of the bits that say which charset each name is in.
const SHARE_WEIGHT: f64 = 1.0;

/// Bits a name pays for being in another language than those its charset
/// has in the directory: the names of one directory are mostly in one
/// language or a few, so beside Czech names `Lâce` is no Romanian word but
/// a windows-1257 `Lāce`, and `sloľka` no Slovak one but ISO-8859-2
/// `složka` (chosen on the validation part: 1, 2, 3, 4, 5 and 8 bits
/// tried, and none).
const LANG_SWITCH: f64 = 3.0;

/// What a directory pays once for each language of a charset after its
/// first (chosen on the validation part: 3, 6, 10 bits, and one language
/// only; one language only read a big ISO-8859-2 listing of Polish and
/// Slovenian names as windows-1250 Slovak for its Slovenian names).
const LANG_ADD: f64 = 10.0;

/// The languages of each of the charsets `set` in a directory (a bit per
/// language; 0: not restricted): for a charset written in several, chosen
/// greedily as the charsets are, each language after the first paying
/// [`LANG_ADD`], each name its bits in the cheapest of them or in its own
/// best language + [`LANG_SWITCH`].
fn member_langs(live: &[&Contest], set: &[usize]) -> Vec<u64> {
    let mut out = vec![0u64; set.len()];
    let mut mine: Vec<Vec<&Contest>> = vec![Vec::new(); set.len()];
    for k in live {
        let mut top: Option<(usize, f64)> = None;
        for (j, &c) in set.iter().enumerate() {
            let b = k.cost.get(c).map_or(f64::INFINITY, |x| x.0);
            if b.is_finite() && top.is_none_or(|(_, t)| b < t) {
                top = Some((j, b));
            }
        }
        if let Some(v) = top.and_then(|(j, _)| mine.get_mut(j)) {
            v.push(k);
        }
    }
    for ((slot, &c), names) in out.iter_mut().zip(set).zip(&mine) {
        let Some(cand) = candidates().get(c) else { continue };
        if cand.langs.len() < 2 || names.is_empty() {
            continue;
        }
        let mut mask = 0u64;
        let mut current = f64::INFINITY;
        loop {
            let mut pick: Option<(u64, f64)> = None;
            for &l in &cand.langs {
                let bit = 1u64 << l;
                if mask & bit != 0 {
                    continue;
                }
                let with = mask | bit;
                let price = if mask == 0 { 0.0 } else { LANG_ADD };
                let sum: f64 = names.iter().map(|k| k.in_lang(c, with)).sum::<f64>() + price;
                if sum < current && pick.is_none_or(|(_, b)| sum < b) {
                    pick = Some((with, sum));
                }
            }
            let Some((with, sum)) = pick else { break };
            mask = with;
            current = sum;
        }
        *slot = mask;
    }
    out
}

impl Contest {
    /// The bits of the name's plausible reading in candidate `c` when the
    /// directory reads `c` in the languages `langs` (0: any): in the
    /// cheapest of them, or in its best language for [`LANG_SWITCH`] more
    /// (infinite when `c` has no plausible reading).
    fn in_lang(&self, c: usize, langs: u64) -> f64 {
        let Some(&(b, ri)) = self.cost.get(c) else {
            return f64::INFINITY;
        };
        if !b.is_finite() || langs == 0 {
            return b;
        }
        let Some(r) = self.readings.get(ri) else {
            return b;
        };
        let mut best = b + LANG_SWITCH;
        let mut rest = langs;
        while rest != 0 {
            let l = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if let Some(&x) = r.lang.get(l) {
                best = best.min(x);
            }
        }
        best
    }
}

/// Bits a directory pays more for a charset of a script none of its
/// charsets writes: a directory's names are mostly of one script, so a
/// Cyrillic acronym (`КНР`) beside Cyrillic names is no Arabic `تحذ`
/// (chosen on the validation part: 2, 3, 4, 5 and 8 tried; 3 and more
/// read Hebrew names beside x-mac-cyrillic ones as Cyrillic, row 2 -2).
const NEW_SCRIPT: f64 = 2.0;

/// The script of a candidate (UTF-8: none).
fn cand_script(c: usize) -> Option<model::Script> {
    candidates()
        .get(c)
        .and_then(|x| x.langs.first())
        .map(|&l| model::lang_script(l))
}

/// What a directory whose charsets are `chosen` pays for one more, `c`,
/// besides its prior: nothing for its first; [`SWITCH`] for another, and
/// [`NEW_SCRIPT`] more for one of a script none of them writes.
fn switch(chosen: &[usize], c: usize) -> f64 {
    if chosen.is_empty() {
        0.0
    } else {
        SWITCH + if new_script(chosen, c) { NEW_SCRIPT } else { 0.0 }
    }
}

/// Whether candidate `c` writes a script none of `chosen` writes.
fn new_script(chosen: &[usize], c: usize) -> bool {
    let Some(s) = cand_script(c) else { return false };
    !chosen.iter().any(|&m| cand_script(m) == Some(s))
}

fn directory_charsets<'a>(
    contests: impl Iterator<Item = &'a Result<Contest, Decision>>,
    utf8_seen: bool,
    evidence: &Evidence,
) -> Chosen {
    let ncand = candidates().len() + 1;
    let history = evidence.weights(ncand);
    let live: Vec<&Contest> = contests.filter_map(|c| c.as_ref().ok()).collect();
    let mut chosen: Vec<usize> = if utf8_seen { vec![utf8_index()] } else { Vec::new() };
    // The whole description: the names' bits in the chosen charsets, plus
    // what choosing them cost (`set_bits`: each one's prior, and
    // [`SWITCH`] for every one after the first).
    let mut set_bits = 0.0;
    let mut current = names_bits(&live, &chosen);
    loop {
        let mut pick: Option<(usize, f64, f64)> = None;
        for c in 0..ncand {
            if chosen.contains(&c) {
                continue;
            }
            let mut with = chosen.clone();
            with.push(c);
            let h = history.get(c).copied().unwrap_or(0.0);
            let cost = prior(c) + switch(&chosen, c) - HISTORY_BONUS * h;
            let net = current - (names_bits(&live, &with) + set_bits + cost);
            if net > 0.0 && pick.is_none_or(|(_, n, _)| net > n) {
                pick = Some((c, net, cost));
            }
        }
        let Some((c, net, cost)) = pick else { break };
        chosen.push(c);
        set_bits += cost;
        current -= net;
    }
    // Shares of the chosen charsets among the names they explain best.
    let langs = member_langs(&live, &chosen);
    let mut count = vec![0.5; chosen.len()];
    for k in &live {
        let mut top: Option<(usize, f64)> = None;
        for (j, &c) in chosen.iter().enumerate() {
            let b = k.in_lang(c, langs.get(j).copied().unwrap_or(0));
            if b.is_finite() && top.is_none_or(|(_, t)| b < t) {
                top = Some((j, b));
            }
        }
        if let Some((j, _)) = top {
            if let Some(n) = count.get_mut(j) {
                *n += 1.0;
            }
        }
    }
    let total: f64 = count.iter().sum();
    let members: Vec<(usize, f64, f64)> = chosen
        .iter()
        .zip(&count)
        .map(|(&c, &n)| (c, -(n / total).log2(), n - 0.5))
        .collect();
    // A charset outside the directory: its price, and the share bits of
    // the one name it would explain.
    let outside = -(1.5 / (total + 1.5)).log2();
    let price = (0..ncand)
        .map(|c| {
            members
                .iter()
                .find(|m| m.0 == c)
                .map_or(SWITCH + prior(c) + outside, |m| m.1)
        })
        .collect();
    Chosen {
        members,
        langs,
        utf8: chosen.contains(&utf8_index()),
        price,
    }
}

/// Two different names must never be shown alike (the user could not
/// tell them apart, nor type one of them): a decoded name whose text is
/// also another name's text is shown as `%HH` instead.
///
/// By sorting the texts, not hashing them: no allocation for a name whose
/// text is its bytes, and no hash a server could aim its names at. A
/// decoded text holds a non-ASCII character (every candidate reads a high
/// byte as one), so `%HH` forms, which are ASCII, matter only if one did
/// not.
fn unclash(names: &[&[u8]], ds: &mut [Decision]) {
    use std::borrow::Cow;
    let ascii_decoded = ds
        .iter()
        .any(|d| matches!(d, Decision::Decoded { text, .. } if text.is_ascii()));
    // (text, shown as decoded, index)
    let mut texts: Vec<(Cow<'_, str>, bool, usize)> = Vec::with_capacity(names.len());
    for (i, (name, d)) in names.iter().zip(ds.iter()).enumerate() {
        match d {
            Decision::Decoded { text, .. } => texts.push((Cow::Borrowed(text.as_str()), true, i)),
            Decision::Ascii | Decision::Utf8 => match std::str::from_utf8(name) {
                Ok(s) => texts.push((Cow::Borrowed(s), false, i)),
                Err(_) if ascii_decoded => texts.push((Cow::Owned(percent(name)), false, i)),
                Err(_) => {}
            },
            Decision::Raw if ascii_decoded => texts.push((Cow::Owned(percent(name)), false, i)),
            Decision::Raw => {}
        }
    }
    // Equal texts together; in each, the names shown as they are first,
    // then the decoded ones in listing order: the first keeps the text.
    texts.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut clash = Vec::new();
    let mut k = 0;
    while let Some((text, _, first)) = texts.get(k) {
        let owner = names.get(*first).copied().unwrap_or_default();
        let mut end = k + 1;
        while let Some((_, decoded, i)) = texts.get(end).filter(|e| e.0 == *text) {
            if *decoded && names.get(*i).copied().unwrap_or_default() != owner {
                clash.push(*i);
            }
            end += 1;
        }
        k = end;
    }
    for i in clash {
        if let Some(d) = ds.get_mut(i) {
            *d = Decision::Raw;
        }
    }
}

/// Decides one name outside any listing (the server's evidence is the
/// prior).
pub fn decide_name(name: &[u8], cx: &Context) -> Decision {
    decide_listing(&[name], cx).pop().unwrap_or(Decision::Raw)
}

fn explicit(name: &[u8], charset: Charset) -> Decision {
    if name.is_ascii() && name.iter().all(|b| (0x20..0x7F).contains(b)) {
        return Decision::Ascii;
    }
    match charset.to_utf8(name) {
        Some(text) if !text.chars().any(model::impossible) => {
            if charset == Charset::utf8() {
                Decision::Utf8
            } else {
                Decision::Decoded {
                    charset,
                    text,
                    confident: true,
                }
            }
        }
        _ => Decision::Raw,
    }
}

/// Whether a reading is a decoding at all: its non-ASCII part within its
/// script's limit (stricter under FEAT UTF8), and cheaper than the
/// hypothesis "random bytes": 8 bits for every byte not read as ASCII, plus
/// what a garbage name costs a priori.
fn plausible(r: &Reading, name_len: usize, in_word: usize, feat_utf8: bool) -> bool {
    let ascii_chars = r.text.chars().filter(char::is_ascii).count();
    let bytes = name_len.saturating_sub(ascii_chars);
    let random = GARBAGE_BITS_PER_BYTE * bytes as f64 + GARBAGE_PRIOR + GARBAGE_IN_WORD * in_word as f64;
    r.score.excess <= if feat_utf8 { -FEAT_STRICTER } else { 0.0 } && r.score.non_ascii_bits + PLAUSIBLE_PRIOR < random
}

fn choose(k: &Contest, chosen: &Chosen, feat_utf8: bool) -> Decision {
    // The cheapest reading in one of the directory's charsets ...
    let mut best: Option<(f64, usize, usize)> = None; // (bits, reading, candidate)
    for (j, &(c, share, _)) in chosen.members.iter().enumerate() {
        if let Some(&(_, ri)) = k.cost.get(c) {
            let total = k.in_lang(c, chosen.langs.get(j).copied().unwrap_or(0)) + share;
            if total.is_finite() && best.is_none_or(|(t, _, _)| total < t) {
                best = Some((total, ri, c));
            }
        }
    }
    // A name no chosen charset reads plausibly alone, but the directory's
    // established charset reads as text of its language: the directory's
    // evidence carries it (a rare kanji of a person's name).
    if best.is_none() {
        for &(c, share, support) in &chosen.members {
            if !chosen.established(support) {
                continue;
            }
            if let Some(&(b, ri)) = k.lenient.get(c) {
                let total = b + share;
                if total.is_finite() && best.is_none_or(|(t, _, _)| total < t) {
                    best = Some((total, ri, c));
                }
            }
        }
    }
    // A name that none of the directory's charsets reads at all leaves it
    // for its own best reading, if that is clearly not random bytes.
    if best.is_none() && !chosen.utf8 {
        for (c, &(b, ri)) in k.cost.iter().enumerate() {
            let total = b + SWITCH + prior(c);
            if b.is_finite() && k.garbage - b >= LEAVE_MIN && best.is_none_or(|(t, _, _)| total < t) {
                best = Some((total, ri, c));
            }
        }
    }
    let Some((best_cost, ri, charset_idx)) = best else {
        return if k.utf8 { Decision::Utf8 } else { Decision::Raw };
    };
    // One high byte, last, that could lead a two-byte UTF-8 sequence
    // ("Bevagna " + C3): a UTF-8 name cut short, unless the directory has
    // established the charset that reads it; always when it ends a word of
    // ASCII letters ("Nicol" + C3).
    if k.cut_in_word
        || (k.cut_utf8
            && !chosen
                .members
                .iter()
                .any(|&(c, _, n)| c == charset_idx && chosen.established(n)))
    {
        return Decision::Raw;
    }
    let Some(reading) = k.readings.get(ri) else {
        return Decision::Raw;
    };
    // ... against every other text, a charset outside the directory paying
    // what leaving it costs.
    let mut runner_up = f64::INFINITY;
    for (c, &(b, rj)) in k.cost.iter().enumerate() {
        if rj == ri || !b.is_finite() {
            continue;
        }
        let extra = match chosen.members.iter().find(|(m, _, _)| *m == c) {
            Some(&(_, share, _)) => share,
            None => SWITCH + prior(c),
        };
        runner_up = runner_up.min(b + extra);
    }
    let confident = runner_up - best_cost >= CONFIDENT_MARGIN;
    if charset_idx == utf8_index() {
        return Decision::Utf8;
    }
    if feat_utf8 && !clearly_legacy(reading, confident) {
        return Decision::Raw;
    }
    match candidates().get(charset_idx).map(|c| c.charset) {
        Some(charset) => Decision::Decoded {
            charset,
            text: reading.text.clone(),
            confident,
        },
        None => Decision::Raw,
    }
}

/// With FEAT UTF8 (vsftpd announces it over any disk) a non-UTF-8 name is
/// decoded only when it is clearly legacy text: confident, and either two
/// or more characters of a double-byte charset or four or more non-ASCII
/// characters of a single-byte one.
fn clearly_legacy(r: &Reading, confident: bool) -> bool {
    let double_byte = r.charsets.iter().any(|&c| c < DOUBLE_BYTE);
    confident && r.score.non_ascii >= if double_byte { 2 } else { 4 }
}

/// How a name is displayed: its text, or for [`Decision::Raw`] printable
/// ASCII kept and every other octet (and `%` itself) as uppercase `%HH` of
/// the server's byte.
pub fn shown(name: &[u8], d: &Decision) -> String {
    match d {
        Decision::Decoded { text, .. } => text.clone(),
        Decision::Ascii | Decision::Utf8 => match std::str::from_utf8(name) {
            Ok(s) => s.to_owned(),
            Err(_) => percent(name),
        },
        Decision::Raw => percent(name),
    }
}

fn percent(name: &[u8]) -> String {
    let mut out = String::with_capacity(name.len() * 3);
    for &b in name {
        if (0x20..0x7F).contains(&b) && b != b'%' {
            out.push(char::from(b));
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
    out
}

/// `%HH` escapes (and literal text) back to bytes; `None` if a `%` is not
/// followed by two hex digits.
fn unpercent(typed: &str) -> Option<Vec<u8>> {
    let b = typed.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = typed.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

/// Maps a name the user typed back to the server's bytes, through the
/// listing it was shown in: the displayed text of a name, or the `%HH` form
/// of its bytes (any name, whatever was decided), reaches that name.
pub fn typed_to_name(typed: &str, listing: &[&[u8]], decisions: &[Decision]) -> Option<Vec<u8>> {
    for (name, d) in listing.iter().zip(decisions) {
        if shown(name, d) == typed {
            return Some(name.to_vec());
        }
    }
    if typed.contains('%') {
        let bytes = unpercent(typed)?;
        if let Some(name) = listing.iter().find(|n| **n == bytes.as_slice()) {
            return Some(name.to_vec());
        }
    }
    None
}

/// What the client knows of one server's names, across listings.
///
/// Counts of names seen as UTF-8, as raw bytes and decoded confidently per
/// charset. One listing adds at most [`PER_LISTING`] to each count, so a
/// single odd directory does not flip what the server is taken to hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Evidence {
    utf8: u32,
    raw: u32,
    legacy: BTreeMap<&'static str, u32>,
}

/// Most a single listing adds to one count.
const PER_LISTING: u32 = 4;
/// Counts are halved past this, so old evidence fades.
const CAP: u32 = 200;
const LINE_TAG: &str = "ev1";

impl Evidence {
    /// A single line of printable ASCII: `ev1 utf8=N raw=N <charset>=N ...`.
    pub fn to_line(&self) -> String {
        let mut s = format!("{LINE_TAG} utf8={} raw={}", self.utf8, self.raw);
        for (name, n) in &self.legacy {
            s.push_str(&format!(" {name}={n}"));
        }
        s
    }

    /// Reads [`Evidence::to_line`]'s format back; anything else (garbage,
    /// an unknown charset, a newer version) gives empty evidence.
    pub fn from_line(s: &str) -> Evidence {
        Self::parse(s).unwrap_or_default()
    }

    fn parse(s: &str) -> Option<Evidence> {
        let mut parts = s.split_ascii_whitespace();
        if parts.next()? != LINE_TAG {
            return None;
        }
        let mut ev = Evidence::default();
        for part in parts {
            let (key, value) = part.split_once('=')?;
            let n: u32 = value.parse().ok()?;
            let n = n.min(CAP);
            match key {
                "utf8" => ev.utf8 = n,
                "raw" => ev.raw = n,
                _ => {
                    let cand = candidates().iter().find(|c| c.charset.name() == key)?;
                    ev.legacy.insert(cand.charset.name(), n);
                }
            }
        }
        Some(ev)
    }

    /// Learns from one listing's decisions.
    pub fn observe(&mut self, decisions: &[Decision]) {
        let mut utf8 = 0;
        let mut raw = 0;
        let mut legacy: BTreeMap<&'static str, u32> = BTreeMap::new();
        for d in decisions {
            match d {
                Decision::Utf8 => utf8 += 1,
                Decision::Raw => raw += 1,
                Decision::Decoded {
                    charset,
                    confident: true,
                    ..
                } => {
                    *legacy.entry(charset.name()).or_default() += 1;
                }
                Decision::Decoded { .. } | Decision::Ascii => {}
            }
        }
        self.utf8 += utf8.min(PER_LISTING);
        self.raw += raw.min(PER_LISTING);
        for (name, n) in legacy {
            *self.legacy.entry(name).or_default() += n.min(PER_LISTING);
        }
        if self
            .utf8
            .max(self.raw)
            .max(self.legacy.values().copied().max().unwrap_or(0))
            > CAP
        {
            self.utf8 /= 2;
            self.raw /= 2;
            for n in self.legacy.values_mut() {
                *n /= 2;
            }
            self.legacy.retain(|_, n| *n > 0);
        }
    }

    /// No legacy charset was ever seen: the server's names are UTF-8 (or
    /// ASCII) as far as anyone knows, and there is nothing worth keeping.
    pub fn no_legacy(&self) -> bool {
        self.legacy.is_empty()
    }

    /// The server's most likely legacy charset: at least 3 confident names
    /// and twice as many as the runner-up.
    pub fn likely(&self) -> Option<Charset> {
        let mut v: Vec<(&&str, &u32)> = self.legacy.iter().collect();
        v.sort_by(|a, b| b.1.cmp(a.1));
        let (name, &n) = *v.first()?;
        let second = v.get(1).map_or(0, |(_, &m)| m);
        (n >= 3 && n >= 2 * second).then(|| Charset::for_label(name)).flatten()
    }

    /// Shares of the candidate charsets in the history (sums to 1, or all
    /// zero without history).
    fn weights(&self, ncand: usize) -> Vec<f64> {
        let mut w = vec![0.0; ncand];
        let total: u32 = self.legacy.values().sum();
        if total == 0 {
            return w;
        }
        for (name, &n) in &self.legacy {
            if let Some(idx) = candidates().iter().position(|c| c.charset.name() == *name) {
                if let Some(slot) = w.get_mut(idx) {
                    *slot = f64::from(n) / f64::from(total);
                }
            }
        }
        w
    }
}

/// Debugging aid (not API): the charsets a listing's directory chose.
#[doc(hidden)]
pub fn explain_listing(names: &[&[u8]]) -> String {
    let mut full: Vec<Option<Result<Contest, Decision>>> = names
        .iter()
        .map(|n| structural(n, false).is_none().then(|| full_contest(n, false)))
        .collect();
    evidence_weights(names, &mut full);
    let chosen = directory_charsets(full.iter().flatten(), false, &Evidence::default());
    let m: Vec<String> = chosen
        .members
        .iter()
        .zip(&chosen.langs)
        .map(|(&(c, b, n), &langs)| {
            let names: Vec<&str> = (0..model::LANGS.len())
                .filter(|l| langs & (1u64 << l) != 0)
                .filter_map(|l| model::LANGS.get(l).copied())
                .collect();
            format!(
                "{}({b:.1},{n}{}{})",
                candidates().get(c).map_or("UTF-8", |x| x.charset.name()),
                if names.is_empty() { "" } else { "," },
                names.join("+")
            )
        })
        .collect();
    // What each other charset would have saved (net bits; negative: it
    // did not pay for itself).
    let live: Vec<&Contest> = full.iter().flatten().filter_map(|c| c.as_ref().ok()).collect();
    let set: Vec<usize> = chosen.members.iter().map(|m| m.0).collect();
    let now = names_bits(&live, &set);
    let mut nets: Vec<(f64, String)> = (0..candidates().len())
        .filter(|c| !set.contains(c))
        .map(|c| {
            let mut with = set.clone();
            with.push(c);
            let net = now - names_bits(&live, &with) - prior(c) - switch(&set, c);
            (net, candidates().get(c).map_or("?", |x| x.charset.name()).to_owned())
        })
        .collect();
    nets.sort_by(|a, b| b.0.total_cmp(&a.0));
    let near: Vec<String> = nets.iter().take(3).map(|(n, c)| format!("{c}:{n:.1}")).collect();
    format!("{} | next: {}", m.join(" "), near.join(" "))
}

/// Measuring aid (not API): the name's reading in `charset` when that is
/// a plausible decoding on its own (what any directory may choose it as).
#[doc(hidden)]
pub fn plausible_in(name: &[u8], charset: Charset) -> Option<String> {
    let k = contest(name, readings(name), false, false);
    let c = candidates().iter().position(|x| x.charset == charset)?;
    let &(b, ri) = k.cost.get(c)?;
    if b.is_finite() {
        k.readings.get(ri).map(|r| r.text.clone())
    } else {
        None
    }
}

/// Debugging aid (not API): every reading of a name with its score.
#[doc(hidden)]
pub fn explain(name: &[u8]) -> String {
    let mut out = String::new();
    let rs = readings(name);
    let k = contest(name, rs.clone(), false, std::str::from_utf8(name).is_ok());
    out.push_str(&format!("garbage {:.1}\n", k.garbage));
    let mut memo = Ranker::default();
    let rough = memo.rough_all(name);
    let mut ranks: Vec<(u32, &str)> = (0..candidates().len())
        .filter_map(|c| Some(((*rough.get(c)?)?, candidates().get(c)?.charset.name())))
        .collect();
    ranks.sort();
    out.push_str(&format!("rough {ranks:?}\n"));
    for r in &k.readings {
        let cs: Vec<String> = r
            .charsets
            .iter()
            .zip(&r.bits)
            .map(|(&c, b)| format!("{}={b:.1}", candidates().get(c).map_or("UTF-8", |x| x.charset.name())))
            .collect();
        out.push_str(&format!(
            "{:?} excess {:.1} na {:.1} [{}] plausible {}\n",
            r.text,
            r.score.excess,
            r.score.non_ascii_bits,
            cs.join(" "),
            plausible(r, name.len(), in_word(name), false)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cx(ev: &Evidence) -> Context<'_> {
        Context {
            explicit: None,
            feat_utf8: false,
            evidence: ev,
        }
    }

    fn enc(label: &str, s: &str) -> Vec<u8> {
        Charset::for_label(label).unwrap().from_utf8(s).unwrap()
    }

    #[test]
    fn gbk_bytes_shaped_like_broken_utf8_in_a_gbk_directory() {
        // GBK 来 is C0 B4, an overlong UTF-8 form: alone it is `%HH`, in a
        // directory of GBK names it is GBK; an overlong `.` (C0 AE, GBK 喇)
        // stays `%HH` everywhere.
        let ev = Evidence::default();
        let lai = enc("GBK", "来");
        assert_eq!(decide_name(&lai, &cx(&ev)), Decision::Raw);
        let dots = b"\xC0\xAE\xC0\xAE".to_vec();
        let others = ["新建文件夹", "会议记录.docx", "照片 2019", "合同范本", "财务报表.xlsx"];
        let mut names: Vec<Vec<u8>> = others.iter().map(|t| enc("GBK", t)).collect();
        names.push(lai.clone());
        names.push(dots);
        // (valid UTF-8 with a control character is no such shape: `%HH`)
        names.push("a\u{85}b".as_bytes().to_vec());
        let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
        let ds = decide_listing(&refs, &cx(&ev));
        let shown_all: Vec<String> = refs.iter().zip(&ds).map(|(n, d)| shown(n, d)).collect();
        assert_eq!(shown_all.get(5).map(String::as_str), Some("来"), "{ds:?}");
        assert_eq!(shown_all.get(6).map(String::as_str), Some("%C0%AE%C0%AE"), "{ds:?}");
        assert_eq!(ds.get(7), Some(&Decision::Raw));
        // A single name on a server whose history is GBK: as in its listing.
        let mut history = Evidence::default();
        history.observe(&ds);
        assert_eq!(history.likely(), Charset::for_label("GBK"));
        let alone = decide_name(&lai, &cx(&history));
        assert_eq!(shown(&lai, &alone), "来", "{alone:?}");
        assert_eq!(decide_name(b"\xC0\xAE\xC0\xAE", &cx(&history)), Decision::Raw);
        // ... and in a directory of UTF-8 names, `%HH`.
        let utf8: Vec<&[u8]> = vec!["新建文件夹".as_bytes(), "会议记录.docx".as_bytes(), &lai];
        let ds = decide_listing(&utf8, &cx(&ev));
        assert_eq!(ds.get(2), Some(&Decision::Raw));
    }

    #[test]
    fn a_big_listing_decided_on_threads_is_decided_as_on_one() {
        // Names of several charsets, random bytes and cut UTF-8 names, more
        // than one thread's share: the same decisions, in the same order,
        // on one thread, on two and on more threads than the machine has.
        let ev = Evidence::default();
        let words = [
            ("windows-1251", "Отчёт за год"),
            ("KOI8-R", "Письма домой"),
            ("windows-1252", "Résumé café"),
            ("Shift_JIS", "会議の記録"),
            ("GBK", "财务报表"),
            ("ISO-8859-7", "Φωτογραφίες"),
            ("windows-1250", "Nová složka"),
        ];
        let mut names: Vec<Vec<u8>> = Vec::new();
        let mut k = 0u32;
        while names.len() < PARALLEL_MIN + 500 {
            let (label, text) = words[k as usize % words.len()];
            let mut b = enc(label, &format!("{text} {k}"));
            match k % 11 {
                3 => b.extend_from_slice(&[0xFF, 0xFE, (k % 251) as u8 | 0x80]),
                7 => b = format!("Zürich {k}").into_bytes()[..7].to_vec(),
                _ => {}
            }
            names.push(b);
            k += 1;
        }
        let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
        let one = decide_in(&refs, &cx(&ev), Some(1));
        assert_eq!(one.len(), refs.len());
        assert!(
            one.iter().any(|d| matches!(d, Decision::Decoded { .. })),
            "{:?}",
            one.first()
        );
        assert!(one.contains(&Decision::Raw));
        for threads in [2, 3, 16] {
            assert!(decide_in(&refs, &cx(&ev), Some(threads)) == one, "{threads} threads");
        }
        assert!(decide_listing(&refs, &cx(&ev)) == one);
    }

    #[test]
    fn acronyms_read_as_acronyms() {
        // KOI8's capitals are windows-1251's small letters: `КНР` is `лот`
        // there, and `ОТП` `пфр`. An acronym's letters are first letters
        // of words, not letters of one word.
        let ev = Evidence::default();
        for (label, texts) in [
            ("KOI8-U", ["Звіт 2019.doc", "Київ", "КНР", "ОТП", "Бенін"]),
            ("windows-1251", ["Отчёт.doc", "Москва", "КНР", "ОТП", "Письма"]),
        ] {
            let names: Vec<Vec<u8>> = texts.iter().map(|t| enc(label, t)).collect();
            let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
            let ds = decide_listing(&refs, &cx(&ev));
            let shown_all: Vec<String> = refs.iter().zip(&ds).map(|(n, d)| shown(n, d)).collect();
            assert_eq!(shown_all, texts, "{label}: {ds:?}");
        }
        // Random capitals are no acronym: four bytes of ISO-8859-5's
        // capitals stay `%HH` alone.
        assert_eq!(decide_name(b"\xBE\xC8\xB8\xB6\xBB", &cx(&ev)), Decision::Raw);
    }

    #[test]
    fn no_two_names_shown_alike() {
        let gbk = Charset::for_label("GBK").unwrap_or_else(Charset::utf8);
        let dec = |t: &str| Decision::Decoded {
            charset: gbk,
            text: t.to_owned(),
            confident: true,
        };
        let utf8 = "通知".as_bytes();
        let names: [&[u8]; 6] = [
            b"\xCD\xA8\xD6\xAA",
            utf8,
            b"\xB0\xA1",
            b"\x81\x40",
            b"\xB0\xA1",
            b"\xFF",
        ];
        let mut ds = vec![
            dec("通知"),
            Decision::Utf8,
            dec("啊"),
            dec("啊"),
            dec("啊"),
            Decision::Raw,
        ];
        unclash(&names, &mut ds);
        // The decoded name that reads as the UTF-8 name's text is `%HH`;
        // of two decoded names alike the first keeps its text, and the
        // same bytes listed twice keep it too.
        assert_eq!(ds.first(), Some(&Decision::Raw));
        assert_eq!(ds.get(1), Some(&Decision::Utf8));
        assert_eq!(ds.get(2), Some(&dec("啊")));
        assert_eq!(ds.get(3), Some(&Decision::Raw));
        assert_eq!(ds.get(4), Some(&dec("啊")));
        // A decoded text that is ASCII (no charset reads one) against a
        // `%HH` form.
        let names: [&[u8]; 2] = [b"\xFF", b"\x80"];
        let mut ds = vec![Decision::Raw, dec("%FF")];
        unclash(&names, &mut ds);
        assert_eq!(ds.get(1), Some(&Decision::Raw));
    }

    #[test]
    fn a_name_shaped_like_a_cut_double_byte_name_in_its_directory() {
        // Thai ตราชู in windows-874 is B5 C3 D2 AA D9: GBK 得要 and a lead
        // byte cut off. Alone it is `%HH`; among Thai names it is Thai.
        let ev = Evidence::default();
        let name = enc("windows-874", "ตราชู");
        assert_eq!(decide_name(&name, &cx(&ev)), Decision::Raw);
        let names = [enc("windows-874", "จัต"), enc("windows-874", "ฟารินี"), name.clone()];
        let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
        let ds = decide_listing(&refs, &cx(&ev));
        assert_eq!(shown(&name, ds.get(2).unwrap_or(&Decision::Raw)), "ตราชู", "{ds:?}");
        // An EUC-JP name cut inside its last kanji stays `%HH` in its
        // directory.
        let mut cut = enc("EUC-JP", "お知らせ");
        cut.pop();
        let names = [enc("EUC-JP", "会議資料"), enc("EUC-JP", "写真"), cut.clone()];
        let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
        let ds = decide_listing(&refs, &cx(&ev));
        assert_eq!(ds.get(2), Some(&Decision::Raw), "{ds:?}");
    }

    #[test]
    fn common_kanji_and_common_hanzi_priced_by_their_language() {
        // 木村 in EUC-JP is GBK 腾录: with one flat price for every kanji
        // and hanzi both read the same (23 bits); a name's own language
        // prices its common characters lower.
        let ev = Evidence::default();
        for (label, text) in [("EUC-JP", "木村"), ("EUC-JP", "羽折町箪笥町"), ("GBK", "荆门")] {
            let name = enc(label, text);
            let d = decide_name(&name, &cx(&ev));
            assert_eq!(shown(&name, &d), text, "{label} {d:?}");
        }
    }

    #[test]
    fn a_repeated_word_is_one_piece_of_evidence() {
        // Six names share `Ąžuolas`, whose windows-1257 `Ąž` is EUC-JP's
        // `線`: counted six times, that one word made the directory
        // EUC-JP.
        let texts = [
            "Kairys Ąžuolas",
            "Ąžuolas Laurita",
            "IMG_2426 Ąžuolas.jpg",
            "Ąžuolas (9).xlsx",
            "Ąžuolas (3).txt",
            "Ąžuolas Orestas",
            "Vilnius 2019",
            "Šiauliai",
            "Gražina",
        ];
        let names: Vec<Vec<u8>> = texts.iter().map(|t| enc("windows-1257", t)).collect();
        let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
        let ev = Evidence::default();
        let ds = decide_listing(&refs, &cx(&ev));
        for ((n, d), t) in refs.iter().zip(&ds).zip(texts) {
            assert_eq!(shown(n, d), t, "{d:?}");
        }
    }

    #[test]
    fn explicit_gbk_overrides_valid_utf8() {
        let ev = Evidence::default();
        let name = enc("gbk", "通知");
        assert!(std::str::from_utf8(&name).is_ok());
        let gbk = Charset::for_label("gbk").unwrap();
        let c = Context {
            explicit: Some(gbk),
            feat_utf8: true,
            evidence: &ev,
        };
        assert_eq!(shown(&name, &decide_name(&name, &c)), "通知");
        // Without an explicit charset, FEAT UTF8 keeps valid UTF-8 as it is
        // (U+05AA U+0368 here) ...
        let feat = Context {
            explicit: None,
            feat_utf8: true,
            evidence: &ev,
        };
        assert_eq!(decide_name(&name, &feat), Decision::Utf8);
        // ... and without FEAT UTF8 a UTF-8 reading this absurd (combining
        // marks with no base) lets the legacy readings compete.
        assert_eq!(shown(&name, &decide_name(&name, &cx(&ev))), "通知");
        // A plausible UTF-8 name stays UTF-8 without FEAT UTF8 too.
        let utf8 = "Отчёт.txt".as_bytes();
        assert_eq!(decide_name(utf8, &cx(&ev)), Decision::Utf8);
    }

    #[test]
    fn c1_byte_is_server_byte_not_c2() {
        let ev = Evidence::default();
        let name = b"a\x8Db";
        let d = decide_name(
            name,
            &Context {
                explicit: None,
                feat_utf8: true,
                evidence: &ev,
            },
        );
        assert_eq!(d, Decision::Raw);
        assert_eq!(shown(name, &d), "a%8Db");
        assert_eq!(shown(b"100%\xFF", &Decision::Raw), "100%25%FF");
    }

    #[test]
    fn broken_utf8_shapes() {
        assert!(broken_utf8(b"a\xED\xA0\x80b"));
        assert!(broken_utf8("日本".as_bytes().split_last().unwrap().1));
        assert!(broken_utf8(b"\xC0\xAE\xC0\xAE"));
        assert!(!broken_utf8(b"caf\xE9"));
        assert!(!broken_utf8(&enc("windows-1251", "Игры")));
    }

    #[test]
    fn mixed_directory_each_name_in_its_charset() {
        let ev = Evidence::default();
        let names = [
            enc("shift_jis", "写真フォルダ"),
            enc("windows-1251", "Документы"),
            enc("windows-1252", "Café crème.txt"),
            b"\xFF\xFE\x01garbage".to_vec(),
        ];
        let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
        let ds = decide_listing(&refs, &cx(&ev));
        let shownv: Vec<String> = refs.iter().zip(&ds).map(|(n, d)| shown(n, d)).collect();
        assert_eq!(
            shownv,
            ["写真フォルダ", "Документы", "Café crème.txt", "%FF%FE%01garbage"]
        );
        for (n, s) in refs.iter().zip(&shownv) {
            assert_eq!(typed_to_name(s, &refs, &ds).as_deref(), Some(*n));
        }
        assert_eq!(typed_to_name("%93%FA", &refs, &ds), None);
        let sjis_pct: String = refs[0].iter().map(|b| format!("%{b:02X}")).collect();
        assert_eq!(typed_to_name(&sjis_pct, &refs, &ds).as_deref(), Some(refs[0]));
    }

    #[test]
    fn evidence_round_trips_and_accumulates() {
        let mut ev = Evidence::default();
        let sjis = Charset::for_label("shift_jis").unwrap();
        let d = Decision::Decoded {
            charset: sjis,
            text: "x".into(),
            confident: true,
        };
        ev.observe(&[d.clone(), d.clone(), d.clone(), Decision::Utf8]);
        assert_eq!(ev.likely(), Some(sjis));
        let line = ev.to_line();
        assert!(!line.contains('\n') && line.bytes().all(|b| (0x20..0x7F).contains(&b)));
        assert_eq!(Evidence::from_line(&line), ev);
        // one listing of another charset does not flip it
        let cp = Charset::for_label("windows-1251").unwrap();
        let e = Decision::Decoded {
            charset: cp,
            text: "y".into(),
            confident: true,
        };
        ev.observe(&vec![e; 10]);
        assert_ne!(ev.likely(), Some(cp));
        for garbage in [
            "",
            "ev1 utf8=x",
            "ev1 nosuch=3",
            "hello\nworld",
            "ev2 utf8=1",
            "ev1 utf8",
        ] {
            assert_eq!(Evidence::from_line(garbage), Evidence::default(), "{garbage}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_listing_is_shown_and_typed_back(
            names in proptest::collection::btree_set(proptest::collection::vec(proptest::prelude::any::<u8>(), 1..12), 1..5),
            feat_utf8 in proptest::prelude::any::<bool>(),
        ) {
            let ev = Evidence::default();
            let c = Context { explicit: None, feat_utf8, evidence: &ev };
            let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
            let ds = decide_listing(&refs, &c);
            proptest::prop_assert_eq!(ds.len(), refs.len());
            for (n, d) in refs.iter().zip(&ds) {
                let s = shown(n, d);
                if *d == Decision::Raw {
                    proptest::prop_assert!(s.bytes().all(|b| (0x20..0x7F).contains(&b)));
                }
                if let Decision::Decoded { charset, text, .. } = d {
                    let back = charset.from_utf8(text);
                    proptest::prop_assert_eq!(back.as_deref(), Some(*n));
                }
                let typed = typed_to_name(&s, &refs, &ds);
                proptest::prop_assert_eq!(typed.as_deref(), Some(*n));
            }
        }
    }
}
