//! Debugging and measuring aids (not API): what the model makes of a
//! listing or of a name.

use super::decision::Decision;
use super::directory::{directory_charsets, evidence_weights, names_bits, switch};
use super::evidence::Evidence;
use super::readings::{contest, full_contest, in_word, plausible, readings, structural, Contest};
use crate::detect::candidates::{candidates, prior};
use crate::detect::model;
use crate::detect::rough::Ranker;
use crate::Charset;

/// Debugging aid (not API): the charsets a listing's directory chose.
#[doc(hidden)]
pub fn explain_listing(names: &[&[u8]]) -> String {
    let mut full: Vec<Option<Result<Contest, Decision>>> = names
        .iter()
        .map(|n| structural(n, false).is_none().then(|| full_contest(n)))
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
    let k = contest(name, readings(name), false);
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
    let k = contest(name, rs.clone(), std::str::from_utf8(name).is_ok());
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
        // The three cheapest languages of the reading (bits with the
        // ASCII fit), to see where a reading wins or loses in the model.
        let mut langs: Vec<(f64, &str)> = r
            .lang
            .iter()
            .zip(model::LANGS)
            .filter(|(b, _)| b.is_finite())
            .map(|(b, l)| (*b, *l))
            .collect();
        langs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let langs: Vec<String> = langs.iter().take(3).map(|(b, l)| format!("{l}={b:.1}")).collect();
        out.push_str(&format!(
            "{:?} excess {:.1} na {:.1} [{}] langs [{}] plausible {}\n",
            r.text,
            r.score.excess,
            r.score.non_ascii_bits,
            cs.join(" "),
            langs.join(" "),
            plausible(r, name.len(), in_word(name))
        ));
    }
    out
}
