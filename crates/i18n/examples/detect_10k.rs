//! Times `decide_listing` on 10,000-name listings (issue 26: under 50 ms).
//! Prints the median of 9 runs per listing, in milliseconds:
//!
//! ```text
//! cargo run --release -p babelftp-i18n --example detect_10k
//! ```
//!
//! Listings, made from the test corpus (`tests/corpus/generated.txt`, its
//! development and validation parts) with
//! a number appended so that every name is distinct: one legacy charset
//! (windows-1251, Shift_JIS, windows-1252), all 27 charsets mixed, and
//! UTF-8 names. `DETECT_10K_FEAT=1` decides them as from a server that
//! announces UTF8. The first listing of a fresh process also builds the
//! detector's tables: `DETECT_10K_RUNS=1 DETECT_10K_TIME_ONLY=1` times
//! that listing alone, and `DETECT_10K_PREPARE=1` builds the tables
//! before it (`detect::prepare`, as the CLI does while it connects).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use babelftp_i18n::detect::{decide_listing, shown, Context, Evidence};
use babelftp_i18n::Charset;

fn corpus(langs: &[&str]) -> Vec<String> {
    include_str!("../tests/corpus/generated.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            // (the held-out part's names are for the detection test only)
            (f[1] != "held" && (langs.is_empty() || langs.contains(&f[0]))).then(|| f[3].to_string())
        })
        .collect()
}

fn listing(texts: &[String], labels: &[&str]) -> (Vec<Vec<u8>>, Vec<String>) {
    let mut out = Vec::with_capacity(10_000);
    let mut expected = Vec::with_capacity(10_000);
    let mut i = 0usize;
    while out.len() < 10_000 {
        let text = format!("{} {}", texts[i % texts.len()], i);
        let label = labels[i % labels.len()];
        i += 1;
        if label == "UTF-8" {
            out.push(text.clone().into_bytes());
            expected.push(text);
            continue;
        }
        if let Some(b) = Charset::for_label(label).unwrap().from_utf8(&text) {
            out.push(b);
            expected.push(text);
        }
    }
    (out, expected)
}

fn time(name: &str, (names, expected): &(Vec<Vec<u8>>, Vec<String>)) {
    if std::env::args().nth(1).is_some_and(|f| !name.contains(&f)) {
        return;
    }
    let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let ev = Evidence::default();
    let cx = Context {
        explicit: None,
        // DETECT_10K_FEAT=1: as from a server announcing UTF8 (issue 50)
        feat_utf8: std::env::var_os("DETECT_10K_FEAT").is_some(),
        evidence: &ev,
    };
    let runs = std::env::var("DETECT_10K_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(9);
    // DETECT_10K_PREPARE=1: the tables built first, as the CLI has them
    // built while it connects (`detect::prepare`).
    if std::env::var_os("DETECT_10K_PREPARE").is_some() {
        babelftp_i18n::detect::prepare();
    }
    let mut ms: Vec<f64> = (0..runs)
        .map(|_| {
            let t = std::time::Instant::now();
            let d = decide_listing(std::hint::black_box(&refs), &cx);
            std::hint::black_box(d);
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    if std::env::var_os("DETECT_10K_TIME_ONLY").is_some() {
        println!(
            "{name:<28} {:>8.1} ms median ({:.1}..{:.1})",
            ms[ms.len() / 2],
            ms[0],
            ms[ms.len() - 1]
        );
        return;
    }
    // Shown right (as the text the name was made from), in this listing
    // and when the same names are decided in directories of 40.
    let big = decide_listing(&refs, &cx);
    let right = |ds: &[babelftp_i18n::detect::Decision], names: &[&[u8]], want: &[String]| {
        names
            .iter()
            .zip(ds)
            .zip(want)
            .filter(|((n, d), w)| shown(n, d) == **w)
            .count()
    };
    let in_big = right(&big, &refs, expected);
    let in_small: usize = refs
        .chunks(40)
        .zip(expected.chunks(40))
        .map(|(names, want)| right(&decide_listing(names, &cx), names, want))
        .sum();
    let pct = |n: usize| 100.0 * n as f64 / refs.len() as f64;
    println!(
        "{name:<28} {:>8.1} ms median ({:.1}..{:.1}); shown right {:.1} % (in directories of 40: {:.1} %)",
        ms[ms.len() / 2],
        ms[0],
        ms[ms.len() - 1],
        pct(in_big),
        pct(in_small)
    );
}

fn main() {
    time("windows-1251 (ru)", &listing(&corpus(&["ru"]), &["windows-1251"]));
    time("Shift_JIS (ja)", &listing(&corpus(&["ja"]), &["Shift_JIS"]));
    time(
        "windows-1252 (fr, es, it)",
        &listing(&corpus(&["fr", "es", "it"]), &["windows-1252"]),
    );
    let all = [
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
    time("27 charsets mixed", &listing(&corpus(&[]), &all));
    time("UTF-8", &listing(&corpus(&[]), &["UTF-8"]));
}
