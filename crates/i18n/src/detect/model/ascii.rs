//! How well each language explains the ASCII words of a name.

use std::sync::OnceLock;

use super::langs::{lang_script, Script, N};
use super::tables::{tables, ABSENT};

/// Cost of an ASCII letter pair a Latin-script language's table lacks.
const ASCII_UNSEEN: u32 = 16;

/// How well each language explains the ASCII words of a name, in bits
/// above the best-fitting Latin-script language (0 for the languages of
/// other scripts, whose names hold ASCII words of any language): the
/// ASCII part of `Antonioni complotter?.jpg` is Italian, so the reading
/// that makes the last letter Italian is the likelier one. The extension
/// does not count.
pub(crate) fn ascii_fit(name: &[u8]) -> [f64; N] {
    let dense = ascii_dense();
    let body = match name.iter().rposition(|&b| b == b'.') {
        Some(dot) if name.len() - dot <= 6 && dot > 0 => name.get(..dot).unwrap_or(name),
        _ => name,
    };
    let mut sums = [0u32; N];
    let mut add = |a: usize, b: usize| {
        if let Some(row) = dense.get(a * ASCII_SYMBOLS + b) {
            for (s, &c) in sums.iter_mut().zip(row) {
                *s += u32::from(c);
            }
        }
    };
    let mut i = 0;
    let mut any = false;
    while i < body.len() {
        if !body[i].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let start = i;
        while i < body.len() && body[i].is_ascii_alphabetic() {
            i += 1;
        }
        let word = &body[start..i];
        let open = start == 0 || body.get(start - 1).is_some_and(|&b| b < 0x80);
        let close = body.get(i).is_none_or(|&b| b < 0x80);
        // The word's letters (and "^", "$" when it starts or ends at an
        // ASCII byte or the name's ends) as pairs of symbols.
        let mut prev = open.then_some(ASCII_START);
        for &b in word {
            let here = usize::from(b.to_ascii_lowercase() - b'a');
            if let Some(p) = prev {
                add(p, here);
                any = true;
            }
            prev = Some(here);
        }
        if let (true, Some(p)) = (close, prev) {
            add(p, ASCII_END);
            any = true;
        }
    }
    let mut out = [0.0; N];
    if !any {
        return out;
    }
    let latin = (0..N).filter(|&l| lang_script(l) == Script::Latin);
    let min = latin.clone().filter_map(|l| sums.get(l)).copied().min().unwrap_or(0);
    for l in latin {
        if let (Some(o), Some(&s)) = (out.get_mut(l), sums.get(l)) {
            *o = f64::from(s - min);
        }
    }
    out
}

/// The symbols of [`ascii_dense`]: `a`..`z`, word start, word end.
const ASCII_SYMBOLS: usize = 28;
const ASCII_START: usize = 26;
const ASCII_END: usize = 27;

/// Builds the dense ASCII table now (and so the tables).
pub(super) fn prepare() {
    ascii_dense();
}

/// The ASCII letter pairs' bits per Latin-script language (0 for the
/// others), [`ASCII_UNSEEN`] for a pair the table lacks, as a dense table
/// of [`ASCII_SYMBOLS`] x [`ASCII_SYMBOLS`] rows.
fn ascii_dense() -> &'static [[u8; N]] {
    static D: OnceLock<Vec<[u8; N]>> = OnceLock::new();
    D.get_or_init(|| {
        let t = tables();
        let byte = |s: usize| match s {
            ASCII_START => b'^',
            ASCII_END => b'$',
            _ => b'a' + u8::try_from(s).unwrap_or(0),
        };
        let mut out = Vec::with_capacity(ASCII_SYMBOLS * ASCII_SYMBOLS);
        for a in 0..ASCII_SYMBOLS {
            for b in 0..ASCII_SYMBOLS {
                let row = t.ascii.get(&(byte(a), byte(b)));
                let mut dense = [0u8; N];
                for (l, d) in dense.iter_mut().enumerate() {
                    if lang_script(l) != Script::Latin {
                        continue;
                    }
                    let c = row
                        .and_then(|r| r.get(l))
                        .copied()
                        .filter(|&v| v != ABSENT)
                        .map_or(ASCII_UNSEEN, u32::from);
                    *d = u8::try_from(c).unwrap_or(u8::MAX);
                }
                out.push(dense);
            }
        }
        out
    })
}
