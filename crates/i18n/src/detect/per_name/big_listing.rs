//! The names of a big listing: those outside its sample decided in the
//! directory's charsets without scoring each in full, and many names
//! decided on several threads.

use super::decision::Decision;
use super::directory::Chosen;
use super::readings::{contest, readings_in, Contest};
use crate::detect::candidates::{candidates, utf8_index, CANDIDATES};
use crate::detect::model;
use crate::detect::rough::{decode, same_text, table_chars, Ranker};

/// Names the top charset of a big listing's sample must explain for a
/// name outside the sample to be read in it without scoring.
const CARRIES: f64 = 3.0;

/// A listing with this many names to score (not decided by their shape
/// alone, nor in the sample) has them decided on several threads (each
/// name's decision is its own once the directory's charsets are chosen;
/// the decisions are the same on one thread).
pub(super) const PARALLEL_MIN: usize = 2048;
/// At most this many threads decide one listing.
pub(super) const MAX_THREADS: usize = 8;

/// `one` over `items` in order, on `threads` threads (scoped: each takes an
/// equal run of the items, with its own [`Ranker`]). A thread the system
/// refuses leaves its run to the calling thread.
pub(super) fn in_threads<T, F>(items: Vec<T>, threads: usize, one: F) -> Vec<Decision>
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

/// A name of a big listing outside its sample: the directory's charsets
/// first, by the cheapest test (`clear_in_top`); else the name is scored
/// in full in the [`ROUGH_TOP`] charsets whose rough rank (unigram bits,
/// plus what the charset costs in this directory) is best, not in all 27:
/// a mixed listing of many charsets stays fast.
pub(super) fn quick_contest(name: &[u8], chosen: &Chosen, memo: &mut Ranker) -> Result<Contest, Decision> {
    // A UTF-8 directory: its short UTF-8 names are UTF-8.
    if chosen.members.len() == 1 && chosen.utf8 && std::str::from_utf8(name).is_ok() {
        return Err(Decision::Utf8);
    }
    // The charset that explains most of the sample reads the name as clear
    // text, and no other charset of the directory reads it as clear text
    // otherwise: that reading, without scoring.
    if let Some(d) = clear_in_top(name, chosen, memo) {
        return Err(d);
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
    if let (false, Some(&(_, best))) = (std::str::from_utf8(name).is_ok(), ranked.first()) {
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
    Ok(contest(name, rs, utf8))
}

/// Room for the candidates' ranks of one name.
const MAX_CANDIDATES: usize = 32;
const _: () = assert!(CANDIDATES.len() <= MAX_CANDIDATES);
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
                if o != text && model::clear(o, all_langs(), &model::Price::NONE) {
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
                if !o.clone().eq(text.chars()) && model::clear_chars(o, &other.langs, &other.price) {
                    return None;
                }
            }
            Some(None) => {}
            None => {
                if let Some((o, lossless)) = memo.decode_unchecked(name, c) {
                    if lossless && o != text && model::clear(&o, &other.langs, &other.price) {
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
            .filter(|chars| model::clear_chars(chars.clone(), &cand.langs, &cand.price))
            .and_then(|_| decode(name, c)),
        None => {
            let (text, lossless) = memo.decode_unchecked(name, c)?;
            (lossless && model::clear(&text, &cand.langs, &cand.price)).then_some(text)
        }
    }
}

/// Every language of the tables (a UTF-8 reading's).
fn all_langs() -> &'static [usize] {
    static L: std::sync::OnceLock<Vec<usize>> = std::sync::OnceLock::new();
    L.get_or_init(|| (0..model::LANGS.len()).collect())
}
