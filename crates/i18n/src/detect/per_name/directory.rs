//! A listing's directory charsets, chosen as the fewest bits that describe
//! the whole listing, and the languages each is read in.

use super::decision::Decision;
use super::evidence::Evidence;
use super::readings::Contest;
use crate::detect::candidates::{candidates, prior, utf8_index};
use crate::detect::model;

/// Bits a directory pays for each charset after its first: what a name's
/// own evidence must be worth for it to leave the directory's charset.
/// (12 until round 3's eighth stop, when only the second charset really
/// paid it: `directory_charsets` compared a bigger set's price with the
/// smaller set's names alone. Chosen again on the validation part with
/// that mended.)
pub(super) const SWITCH: f64 = 6.0;
/// Bits the server's history takes off a charset's price in a directory
/// (times the charset's share of the history).
const HISTORY_BONUS: f64 = 8.0;
/// What a lenient reading costs over its bits when it keeps a directory
/// from choosing one more charset.
const LENIENT_BITS: f64 = 4.0;
/// Names a charset must explain in a directory to carry the others (a
/// lenient reading, a name cut like UTF-8): two, as a mixed directory holds
/// few names of each of its charsets (was three, with every other name of
/// a small directory; round 3).
const ESTABLISHED: f64 = 2.0;
// (A directory's languages are a bit mask.)
const _: () = assert!(model::LANG_COUNT <= 64);

/// Names that share their words with high bytes (`Ąžuolas (3).txt`,
/// `IMG_2426 Ąžuolas.jpg`) are one piece of evidence about the directory's
/// charsets, not several: each weighs 1 / how many names share them.
pub(super) fn evidence_weights(names: &[&[u8]], full: &mut [Option<Result<Contest, Decision>>]) {
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

/// The charsets of a directory, with the bits each name pays for being in
/// it (`-log2` of its share of the legacy names).
pub(super) struct Chosen {
    /// (candidate index, bits, names it explains best)
    pub(super) members: Vec<(usize, f64, f64)>,
    /// Per member, the languages it is read in (`member_langs`).
    pub(super) langs: Vec<u64>,
    /// UTF-8 is one of the directory's charsets.
    pub(super) utf8: bool,
    /// Per candidate, what a name pays for being in it: its share's bits,
    /// or [`SWITCH`], its prior and the share bits of one name for a
    /// charset outside the directory.
    pub(super) price: Vec<f64>,
}

impl Chosen {
    /// Whether a charset that explains `support` names is one of the
    /// directory's own: [`ESTABLISHED`] names.
    pub(super) fn established(&self, support: f64) -> bool {
        support >= ESTABLISHED
    }
}

/// Bits of a listing's open names described with the charsets `set`: each
/// name in its cheapest charset of the set (a lenient reading for
/// [`LENIENT_BITS`] more) or as random bytes, plus [`SHARE_WEIGHT`] times
/// `-log2` of its charset's share of the names (which charset each name is
/// in: a second charset that explains a few names slightly better than the
/// first does not pay for itself). A name that several charsets of the set
/// read as the same text pays their shares together, each weighed by
/// 2^-(its bits over the cheapest) (issue 50, seventh pass): which of them
/// it is in says nothing about what it shows, so Estonian names that
/// ISO-8859-15 and windows-1257 read alike do not make the directory pay
/// for saying which of the two each is in. A name is read in its
/// charset's languages of the directory (`member_langs`), whose further
/// languages are paid here too.
pub(super) fn names_bits(live: &[&Contest], set: &[usize]) -> f64 {
    let langs = member_langs(live, set);
    let m = set.len();
    // Per name and member: its bits and the index of its reading.
    let mut bits: Vec<(f64, usize)> = Vec::with_capacity(live.len() * m);
    let mut best_of: Vec<Option<usize>> = Vec::with_capacity(live.len());
    let mut count = vec![0.5; m];
    let mut sum = 0.0;
    for k in live {
        let mut best = (k.garbage, None);
        for (j, &c) in set.iter().enumerate() {
            let ri = k.cost.get(c).map_or(usize::MAX, |x| x.1);
            let plain = (k.in_lang(c, langs.get(j).copied().unwrap_or(0)), ri);
            let lenient = k
                .lenient
                .get(c)
                .map_or((f64::INFINITY, usize::MAX), |x| (x.0 + LENIENT_BITS, x.1));
            let b = if plain.0 <= lenient.0 { plain } else { lenient };
            bits.push(b);
            if b.0 < best.0 {
                best = (b.0, Some(j));
            }
        }
        sum += k.weight * best.0;
        if let Some(n) = best.1.and_then(|j| count.get_mut(j)) {
            *n += k.weight;
        }
        best_of.push(best.1);
    }
    let total: f64 = count.iter().sum();
    let which: f64 = live
        .iter()
        .zip(&best_of)
        .enumerate()
        .filter_map(|(i, (k, b))| {
            let row = bits.get(i * m..(i + 1) * m)?;
            let &(bb, ri) = row.get((*b)?)?;
            let share: f64 = row
                .iter()
                .zip(&count)
                .filter(|((x, r), _)| *r == ri && x.is_finite())
                .map(|((x, _), n)| n / total * (bb - x).exp2())
                .sum();
            Some(k.weight * -share.log2())
        })
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
    pub(super) fn in_lang(&self, c: usize, langs: u64) -> f64 {
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
pub(super) fn switch(chosen: &[usize], c: usize) -> f64 {
    if chosen.is_empty() {
        0.0
    } else {
        SWITCH + if new_script(chosen, c) { NEW_SCRIPT } else { 0.0 }
    }
}

/// Bits taken off the price of one more charset `c` when a name reads as
/// a frequent word in it and in none of the `chosen` ones (issue 50,
/// fifth pass: Turkish `şimdi` beside windows-1257 names, Latvian `bāzes`
/// beside French ones: one such name's word bonus did not pay the
/// charset's [`SWITCH`], prior and share bits). Chosen on the validation
/// parts among 2, 3, 4, 6, 8 and 12 bits, taken once or for up to 2 or 3
/// such names: 4-8 won 6 names in row 2 and lost none, 8 one more in
/// row 7; 12 lost 2.
const WORD_DISCOUNT: f64 = 8.0;

fn word_discount(live: &[&Contest], chosen: &[usize], c: usize) -> f64 {
    if chosen.is_empty() {
        return 0.0;
    }
    let worded = |k: &Contest, m: usize| k.worded.get(m).copied().unwrap_or(false);
    if live
        .iter()
        .any(|k| worded(k, c) && !chosen.iter().any(|&m| worded(k, m)))
    {
        WORD_DISCOUNT
    } else {
        0.0
    }
}

/// Whether candidate `c` writes a script none of `chosen` writes.
fn new_script(chosen: &[usize], c: usize) -> bool {
    let Some(s) = cand_script(c) else { return false };
    !chosen.iter().any(|&m| cand_script(m) == Some(s))
}

/// The whole description of a listing with the charsets `set` in this
/// order: the names' bits (`names_bits`) and what each charset costs after
/// those before it (its prior, [`SWITCH`] and [`NEW_SCRIPT`], less the
/// server's history and [`WORD_DISCOUNT`]); the first `fixed` (UTF-8 in a
/// listing with UTF-8 names) are free.
fn description(live: &[&Contest], set: &[usize], fixed: usize, history: &[f64]) -> f64 {
    let mut t = names_bits(live, set);
    for k in fixed..set.len() {
        let (Some(before), Some(&c)) = (set.get(..k), set.get(k)) else {
            continue;
        };
        let h = history.get(c).copied().unwrap_or(0.0);
        t += prior(c) + switch(before, c) - HISTORY_BONUS * h - word_discount(live, before, c);
    }
    t
}

/// Rounds of [`improve`] at most.
const IMPROVE_ROUNDS: usize = 4;

/// After the greedy search, a local one (issue 50, seventh pass): a chosen
/// charset replaced by another, or dropped, or one more added, whichever
/// describes the listing in the fewest bits, while that is fewer than now.
/// The greedy search adds the charset that saves most at each step and
/// never takes one back: ISO-8859-15 reads French, German and Italian
/// names and the Estonian ones of windows-1257 alike, so it came first in
/// a folder of three windows-1252 names and three windows-1257 ones
/// (`täna`, `määrab`, Latvian `Mainīti`), and then neither windows-1257
/// (one name better) nor windows-1252 paid for itself; windows-1257 and
/// windows-1252 together describe the folder in 2.6 bits fewer.
fn improve(live: &[&Contest], chosen: &mut Vec<usize>, utf8_seen: bool, history: &[f64]) {
    let ncand = candidates().len() + 1;
    let fixed = usize::from(utf8_seen).min(chosen.len());
    let mut best = description(live, chosen, fixed, history);
    for _ in 0..IMPROVE_ROUNDS {
        let mut better: Option<(Vec<usize>, f64)> = None;
        let consider = |with: Vec<usize>, better: &mut Option<(Vec<usize>, f64)>| {
            let t = description(live, &with, fixed, history);
            if t < better.as_ref().map_or(best, |b| b.1) - 1e-9 {
                *better = Some((with, t));
            }
        };
        for i in fixed..chosen.len() {
            for c in (0..ncand).filter(|c| !chosen.contains(c)) {
                let mut with = chosen.clone();
                if let Some(slot) = with.get_mut(i) {
                    *slot = c;
                }
                consider(with, &mut better);
            }
            let mut with = chosen.clone();
            with.remove(i);
            consider(with, &mut better);
        }
        for c in (0..ncand).filter(|c| !chosen.contains(c)) {
            let mut with = chosen.clone();
            with.push(c);
            consider(with, &mut better);
        }
        let Some((with, t)) = better else { break };
        *chosen = with;
        best = t;
    }
}

pub(super) fn directory_charsets<'a>(
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
            let cost = prior(c) + switch(&chosen, c) - HISTORY_BONUS * h - word_discount(&live, &chosen, c);
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
    improve(&live, &mut chosen, utf8_seen, &history);
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
