//! Writes the decisions of ten 10,000-name listings (one legacy charset,
//! 27 charsets mixed with and without FEAT UTF8, UTF-8, and mixes with
//! random bytes and cut names) to files in a directory, one line a name:
//! run it before and after a change meant to be an exact speed-up and
//! compare the files (`cmp`).
//!
//! ```text
//! cargo run --release -p babelftp-i18n --example dump_decisions -- DIR
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::manual_is_multiple_of)]

use babelftp_i18n::Charset;
use std::io::Write;

mod support;

fn corpus(langs: &[&str]) -> Vec<String> {
    include_str!("../tests/corpus/generated.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[1] != "held" && (langs.is_empty() || langs.contains(&f[0]))).then(|| f[3].to_string())
        })
        .collect()
}
const ALL: [&str; 27] = [
    "Shift_JIS",
    "EUC-JP",
    "GBK",
    "gb18030",
    "Big5",
    "EUC-KR",
    "windows-1252",
    "ISO-8859-15",
    "macintosh",
    "windows-1250",
    "ISO-8859-2",
    "windows-1251",
    "KOI8-R",
    "KOI8-U",
    "ISO-8859-5",
    "IBM866",
    "x-mac-cyrillic",
    "windows-1253",
    "ISO-8859-7",
    "windows-1254",
    "windows-1255",
    "ISO-8859-8",
    "windows-1256",
    "ISO-8859-6",
    "windows-1257",
    "windows-1258",
    "windows-874",
];
fn listing(texts: &[String], labels: &[&str], junk: bool) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut i = 0usize;
    let mut seed = 12345u64;
    while out.len() < 10_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        if junk && seed % 5 == 0 {
            let n = (seed >> 8) % 12 + 1;
            let mut v = Vec::new();
            let mut s = seed;
            for _ in 0..n {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let b = (s >> 33) as u8;
                v.push(if s % 3 == 0 {
                    b | 0x80
                } else if s % 7 == 0 {
                    b'a' + (b % 26)
                } else {
                    b
                });
            }
            out.push(v);
            i += 1;
            continue;
        }
        let text = format!("{} {}", texts[i % texts.len()], i);
        let label = labels[i % labels.len()];
        i += 1;
        if label == "UTF-8" {
            out.push(text.into_bytes());
            continue;
        }
        if let Some(mut b) = Charset::for_label(label).unwrap().from_utf8(&text) {
            if junk && seed % 7 == 1 {
                let at = b.iter().rposition(|&x| x >= 0x80).unwrap_or(0);
                b.truncate(at + 1);
            }
            if junk && seed % 11 == 2 {
                b.truncate(b.len() / 2);
            }
            if !b.is_empty() {
                out.push(b);
            }
        }
    }
    out
}
fn main() {
    let dir = std::env::args().nth(1).unwrap();
    let mut all: Vec<&str> = ALL.to_vec();
    let mut with_utf8 = all.clone();
    with_utf8.push("UTF-8");
    let cases: Vec<(&str, Vec<Vec<u8>>, bool)> = vec![
        ("ru", listing(&corpus(&["ru"]), &["windows-1251"], false), false),
        ("ja", listing(&corpus(&["ja"]), &["Shift_JIS"], false), false),
        (
            "w1252",
            listing(&corpus(&["fr", "es", "it"]), &["windows-1252"], false),
            false,
        ),
        ("mixed", listing(&corpus(&[]), &all, false), false),
        ("mixed_feat", listing(&corpus(&[]), &all, false), true),
        ("utf8", listing(&corpus(&[]), &["UTF-8"], false), false),
        ("junk", listing(&corpus(&[]), &with_utf8, true), false),
        ("junk_feat", listing(&corpus(&[]), &with_utf8, true), true),
        (
            "junk_ko",
            listing(
                &corpus(&["ko", "zh", "ja"]),
                &["EUC-KR", "GBK", "gb18030", "EUC-JP", "Big5"],
                true,
            ),
            false,
        ),
        (
            "junk_cyr",
            listing(
                &corpus(&["ru", "uk", "bg"]),
                &["KOI8-U", "windows-1251", "IBM866"],
                true,
            ),
            false,
        ),
    ];
    all.clear();
    for (name, names, feat) in &cases {
        let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
        let d = support::first_visit(&refs, *feat);
        let mut f = std::fs::File::create(format!("{dir}/{name}")).unwrap();
        for (n, d) in refs.iter().zip(&d) {
            writeln!(f, "{n:02X?}\t{d:?}").unwrap();
        }
    }
}
