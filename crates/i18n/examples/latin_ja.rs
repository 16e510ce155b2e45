#![allow(clippy::unwrap_used)]
//! Tuning aid (issue 50, sixteenth pass): how often a Latin-script name of
//! the development and validation parts (Faker's `dev` and `val`, Django's `djval`, Wagtail's
//! `wtval`; never a held-out part) is read as Japanese (EUC-JP or
//! Shift_JIS). Each name that is not ASCII is written in every
//! single-byte charset its language is tested in (macintosh,
//! windows-1250/1252/1254/1257, ISO-8859-2/15) that can hold it, and
//! decided alone in a folder and in folders of 3 names of the one
//! language and charset, and in folders of 3 beside 2 Japanese names of
//! the development part in Shift_JIS or EUC-JP, as
//! the mixed folders of row 2 hold them. Printed per charset: names read as Japanese,
//! names shown right, of all. `LATIN_JA_VERBOSE=1` prints the names read
//! as Japanese.
//!
//! `cargo run --release -p babelftp-i18n --example latin_ja`
use babelftp_i18n::detect::Decision;
use babelftp_i18n::Charset;

mod support;

const FAKER: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/generated.txt"));
const DJANGO: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/django.txt"));
const WAGTAIL: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/wagtail.txt"));

/// The single-byte Latin charsets a language is tested in (as the
/// detection test's `charsets_for`).
fn charsets(lang: &str) -> &'static [&'static str] {
    match lang {
        "pl" | "cs" | "sk" | "hu" | "sl" | "ro" | "hr" => &["windows-1250", "ISO-8859-2"],
        "de" => &["windows-1252", "ISO-8859-15", "macintosh", "windows-1250"],
        "fr" | "es" | "it" | "da" | "sv" | "nb" | "fi" | "nl" | "is" => &["windows-1252", "ISO-8859-15", "macintosh"],
        "pt" => &["windows-1252", "ISO-8859-15"],
        "lt" | "lv" => &["windows-1257"],
        "et" => &["windows-1257", "ISO-8859-15"],
        "tr" => &["windows-1254"],
        _ => &[],
    }
}

fn japanese(d: &Decision) -> bool {
    matches!(d, Decision::Decoded { charset, .. } if matches!(charset.name(), "EUC-JP" | "Shift_JIS"))
}

fn right(d: &Decision, name: &str) -> bool {
    matches!(d, Decision::Decoded { text, .. } if text == name)
}

fn main() {
    let verbose = std::env::var_os("LATIN_JA_VERBOSE").is_some();
    // (lang, name) of the validation parts, names with a non-ASCII letter.
    let mut names: Vec<(&str, &str)> = Vec::new();
    for text in [FAKER, DJANGO, WAGTAIL] {
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() == 4 && matches!(f[1], "dev" | "val" | "djval" | "wtval") && !f[3].is_ascii() {
                names.push((f[0], f[3]));
            }
        }
    }
    let labels = [
        "macintosh",
        "windows-1252",
        "ISO-8859-15",
        "windows-1250",
        "ISO-8859-2",
        "windows-1254",
        "windows-1257",
    ];
    // The Japanese neighbours: the development part's Japanese names
    // (their words are in the tables, so main and a variant both read them
    // right nearly always, and a difference is the Latin name's own).
    let ja_names: Vec<&str> = FAKER
        .lines()
        .filter(|l| l.starts_with("ja\tdev\t"))
        .filter_map(|l| l.rsplit('\t').next())
        .filter(|n| !n.is_ascii())
        .collect();
    let (mut all_ja, mut all_ok, mut all_n) = (0, 0, 0);
    let (mut mix_ja, mut mix_ok, mut mix_n) = (0, 0, 0);
    for label in labels {
        let cs = Charset::for_label(label).unwrap();
        let enc: Vec<(&str, &str, Vec<u8>)> = names
            .iter()
            .filter(|(lang, _)| charsets(lang).contains(&label))
            .filter_map(|(lang, n)| cs.from_utf8(n).map(|b| (*lang, *n, b.to_vec())))
            .collect();
        let (mut ja, mut ok) = ([0usize; 2], [0usize; 2]);
        for (_, n, b) in &enc {
            let d = support::first_visit(&[b.as_slice()], false).pop().unwrap();
            ja[0] += usize::from(japanese(&d));
            ok[0] += usize::from(right(&d, n));
            if verbose && japanese(&d) {
                if let Decision::Decoded { charset, text, .. } = &d {
                    println!("    alone {label} {n} -> {} {text}", charset.name());
                }
            }
        }
        // Folders of 3 names of one language.
        let mut i = 0;
        while i < enc.len() {
            let lang = enc[i].0;
            let mut j = i;
            while j < enc.len() && enc[j].0 == lang && j - i < 3 {
                j += 1;
            }
            let refs: Vec<&[u8]> = enc[i..j].iter().map(|(_, _, b)| b.as_slice()).collect();
            for ((_, n, _), d) in enc[i..j].iter().zip(support::first_visit(&refs, false)) {
                ja[1] += usize::from(japanese(&d));
                ok[1] += usize::from(right(&d, n));
                if verbose && japanese(&d) {
                    if let Decision::Decoded { charset, text, .. } = &d {
                        println!("    folder {label} {n} -> {} {text}", charset.name());
                    }
                }
            }
            i = j;
        }
        // Beside 2 Japanese names (Shift_JIS, then EUC-JP).
        let (mut mja, mut mok) = (0, 0);
        for (k, jcs) in ["Shift_JIS", "EUC-JP"].into_iter().enumerate() {
            let jc = Charset::for_label(jcs).unwrap();
            for (i, (_, n, b)) in enc.iter().enumerate() {
                let mut folder: Vec<Vec<u8>> = (0..2)
                    .filter_map(|j| {
                        jc.from_utf8(ja_names[(i * 7 + j * 131 + k) % ja_names.len()])
                            .map(|x| x.to_vec())
                    })
                    .collect();
                let pos = i % (folder.len() + 1);
                folder.insert(pos, b.clone());
                let refs: Vec<&[u8]> = folder.iter().map(|x| x.as_slice()).collect();
                let d = support::first_visit(&refs, false).swap_remove(pos);
                mja += usize::from(japanese(&d));
                mok += usize::from(right(&d, n));
                if verbose && japanese(&d) {
                    if let Decision::Decoded { charset, text, .. } = &d {
                        println!("    beside {jcs} {label} {n} -> {} {text}", charset.name());
                    }
                }
            }
        }
        let n = enc.len();
        mix_ja += mja;
        mix_ok += mok;
        mix_n += 2 * n;
        println!(
            "{label}: beside 2 Japanese names read as Japanese {mja}/{}, right {mok}",
            2 * n
        );
        all_ja += ja[0] + ja[1];
        all_ok += ok[0] + ok[1];
        all_n += 2 * n;
        println!(
            "{label}: alone read as Japanese {}/{n}, right {}; folders of 3 read as Japanese {}/{n}, right {}",
            ja[0], ok[0], ja[1], ok[1]
        );
    }
    println!("all: read as Japanese {all_ja}/{all_n}, right {all_ok}/{all_n}");
    println!("all beside Japanese names: read as Japanese {mix_ja}/{mix_n}, right {mix_ok}/{mix_n}");
}
