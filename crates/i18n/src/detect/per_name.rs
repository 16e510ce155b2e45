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
//! 3. For the other names every legacy charset of [`CANDIDATES`](super::CANDIDATES) that
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
//!    else Raw. FEAT UTF8 only keeps every valid UTF-8 name UTF-8: the
//!    other names are decided as without it (issue 50).
//!
//! docs/dev/charset-detection.md has the details and the measurements.

mod big_listing;
mod decision;
mod directory;
mod evidence;
mod explain;
mod readings;

use big_listing::{in_threads, quick_contest, MAX_THREADS, PARALLEL_MIN};
use decision::percent;
use directory::{directory_charsets, evidence_weights, Chosen, SWITCH};
use readings::{broken_utf8, contest, full_contest, readings_in, structural, Contest};

use super::candidates::{candidates, prior, utf8_index};
use super::model;
use super::rough::Ranker;
use crate::Charset;

pub use decision::{shown, typed_to_name, Decision};
pub use evidence::Evidence;
pub use explain::{explain, explain_listing, plausible_in};

/// What one decision needs to know besides the name.
pub struct Context<'a> {
    /// A charset the user chose: overrides detection.
    pub explicit: Option<Charset>,
    /// The server's FEAT listed UTF8.
    pub feat_utf8: bool,
    /// What earlier listings of this server showed.
    pub evidence: &'a Evidence,
}

/// How many names of a listing choose its charsets (an even sample of a
/// bigger listing).
const SAMPLE: usize = 48;
/// How much cheaper than random bytes a name's own reading must be for the
/// name to leave a directory none of whose charsets reads it.
const LEAVE_MIN: f64 = 6.0;
/// Margin over the runner-up for a confident decision.
const CONFIDENT_MARGIN: f64 = 8.0;

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
    let utf8_seen = pre.contains(&Some(Decision::Utf8));
    let open: Vec<usize> = (0..names.len())
        .filter(|&i| pre.get(i).is_some_and(Option::is_none))
        .collect();
    // The directory's charsets are chosen on every open name of a listing,
    // or on an even sample of a big one.
    let step = open.len().div_ceil(SAMPLE).max(1);
    let mut full: Vec<Option<Result<Contest, Decision>>> = (0..names.len()).map(|_| None).collect();
    for &i in open.iter().step_by(step) {
        if let (Some(slot), Some(name)) = (full.get_mut(i), names.get(i)) {
            *slot = Some(full_contest(name));
        }
    }
    evidence_weights(names, &mut full);
    let chosen = directory_charsets(full.iter().flatten(), utf8_seen, cx.evidence);
    // Each name on its own now that the directory's charsets are chosen.
    // A name judged Raw by its shape alone may still be read in a charset
    // the directory's other names established: in a legacy directory,
    // when the name is not UTF-8 (`choose_broken`, never confident).
    let legacy_dir = !chosen.utf8;
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
            None => quick_contest(name, &chosen, memo),
        };
        match k {
            Ok(k) => choose(&k, &chosen),
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
    let mut k = contest(name, readings_in(name, Some(&established), None), false);
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
    match choose(&k, chosen) {
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

fn choose(k: &Contest, chosen: &Chosen) -> Decision {
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
    // (Not in a UTF-8 directory: leaving one for clear text of the
    // charset's languages 8 bits from random bytes was tried for issue 50,
    // +8 legacy names and -5 invalid ones on the validation part.)
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
    match candidates().get(charset_idx).map(|c| c.charset) {
        Some(charset) => Decision::Decoded {
            charset,
            text: reading.text.clone(),
            confident,
        },
        None => Decision::Raw,
    }
}

#[cfg(test)]
mod tests;
