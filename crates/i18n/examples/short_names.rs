#![allow(clippy::unwrap_used)]
//! Tuning aid (issue 50, seventh pass): what the detector makes of very
//! short names alone in a folder, from the model's own tables, so no
//! corpus part is looked at.
//!
//! - Every Han character, kana and hangul of the `ja`, `zh`, `zt` and `ko`
//!   lines of `charfreq.txt`, alone, in its language's charsets: how many
//!   are read right (and weighted by the table's own frequency), and what
//!   the others are read as.
//! - Names of 1-3 such characters drawn by that frequency (2,000 each;
//!   independent draws, so mostly no dictionary word: like given names).
//! - Every name of two high bytes, and of one: how many are shown
//!   decoded, and in which charset (a name of random bytes should not be).
//!
//! `cargo run --release -p babelftp-i18n --example short_names`
use std::collections::BTreeMap;

use babelftp_i18n::detect::Decision;
use babelftp_i18n::Charset;

mod support;

const TABLE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/detect/charfreq.txt"));
const LANGS: [(&str, &[&str]); 4] = [
    ("zh", &["GBK", "gb18030"]),
    ("zt", &["Big5"]),
    ("ja", &["Shift_JIS", "EUC-JP"]),
    ("ko", &["EUC-KR"]),
];

fn decide(name: &[u8]) -> Decision {
    support::first_visit(&[name], false).pop().unwrap()
}

fn kind(d: &Decision) -> String {
    match d {
        Decision::Decoded { charset, .. } => charset.name().to_owned(),
        other => format!("{other:?}"),
    }
}

/// A small deterministic generator (reproducible runs).
struct Lcg(u64);
impl Lcg {
    fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn main() {
    // Per language: (character, probability 2^-cost) of its letters.
    let mut table: BTreeMap<&str, Vec<(char, f64)>> = BTreeMap::new();
    for line in TABLE.lines().filter(|l| !l.starts_with('#')) {
        let mut p = line.splitn(3, ' ');
        let (Some(lang), Some(cost), Some(chars)) = (p.next(), p.next(), p.next()) else {
            continue;
        };
        let Ok(cost) = cost.parse::<i32>() else { continue };
        if LANGS.iter().any(|(l, _)| *l == lang) {
            let row = table.entry(lang).or_default();
            row.extend(
                chars
                    .chars()
                    .filter(|c| c.is_alphabetic() && !c.is_ascii())
                    .map(|c| (c, 2f64.powi(-cost))),
            );
        }
    }
    println!("one character alone: right / all (weighted by frequency); read as");
    for (lang, labels) in LANGS {
        let chars = table.get(lang).map(Vec::as_slice).unwrap_or_default();
        for label in labels {
            let cs = Charset::for_label(label).unwrap();
            let (mut ok, mut n, mut wok, mut wn) = (0, 0, 0.0, 0.0);
            let mut wrong: BTreeMap<String, usize> = BTreeMap::new();
            for &(c, w) in chars {
                let Some(b) = cs.from_utf8(&c.to_string()) else {
                    continue;
                };
                let d = decide(&b);
                n += 1;
                wn += w;
                if matches!(&d, Decision::Decoded { text, .. } if text.chars().eq([c])) {
                    ok += 1;
                    wok += w;
                } else {
                    *wrong.entry(kind(&d)).or_default() += 1;
                }
            }
            println!(
                "  {lang} {label}: {ok}/{n} ({:.1} %); {wrong:?}",
                100.0 * wok / wn.max(f64::MIN_POSITIVE)
            );
        }
    }
    println!("names of 1-3 characters drawn by frequency: right / all; read as");
    let mut rng = Lcg(7);
    for (lang, labels) in LANGS {
        let chars = table.get(lang).map(Vec::as_slice).unwrap_or_default();
        let total: f64 = chars.iter().map(|x| x.1).sum();
        for len in 1..=3 {
            for label in labels {
                let cs = Charset::for_label(label).unwrap();
                let (mut ok, mut n) = (0, 0);
                let mut wrong: BTreeMap<String, usize> = BTreeMap::new();
                for _ in 0..2000 {
                    let mut s = String::new();
                    for _ in 0..len {
                        let mut r = rng.unit() * total;
                        if let Some(&(c, _)) = chars.iter().find(|x| {
                            r -= x.1;
                            r <= 0.0
                        }) {
                            s.push(c);
                        }
                    }
                    let Some(b) = cs.from_utf8(&s) else { continue };
                    let d = decide(&b);
                    n += 1;
                    if matches!(&d, Decision::Decoded { text, .. } if *text == s) {
                        ok += 1;
                    } else {
                        *wrong.entry(kind(&d)).or_default() += 1;
                    }
                }
                println!("  {lang} {label} {len}: {ok}/{n}; {wrong:?}");
            }
        }
    }
    // SHORT_NAMES_LIST=1: also each name of two high bytes and what it is
    // shown as (issue 50, thirty-first pass).
    let list = std::env::var_os("SHORT_NAMES_LIST").is_some();
    for len in [1usize, 2] {
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let all = 128usize.pow(len as u32);
        for k in 0..all {
            let name: Vec<u8> = (0..len).map(|i| 0x80 | ((k >> (7 * i)) & 0x7F) as u8).collect();
            let k = kind(&decide(&name));
            if len == 2 && list {
                println!("pair {:02X}{:02X} {k}", name[0], name[1]);
            }
            *seen.entry(k).or_default() += 1;
        }
        println!("every name of {len} high byte(s) ({all}): {seen:?}");
    }
}
