//! Measures per-name charset detection on the labelled corpus
//! (`tests/corpus/names.txt`) in the four cases of issue 13, per case and
//! per charset, on the names used while tuning and on held-out names (every
//! fourth name of each language, never looked at while tuning), and
//! asserts the targets. Print the tables with:
//!
//! ```text
//! cargo test -p babelftp-i18n --test detection -- --nocapture
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use babelftp_i18n::detect::{decide_listing, decide_name, shown, typed_to_name, Context, Decision, Evidence};
use babelftp_i18n::Charset;

struct Entry {
    lang: String,
    short: bool,
    text: String,
    held_out: bool,
}

fn corpus() -> Vec<Entry> {
    let mut per_lang: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for line in include_str!("corpus/names.txt").lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut f = line.split('\t');
        let (lang, kind, text) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
        let i = per_lang.entry(lang.to_string()).or_default();
        out.push(Entry {
            lang: lang.into(),
            short: kind == "s",
            text: text.into(),
            held_out: *i % 4 == 3,
        });
        *i += 1;
    }
    out
}

/// The legacy charsets each language is written in (26 in all).
fn charsets_for(lang: &str) -> &'static [&'static str] {
    match lang {
        "ja" => &["Shift_JIS", "EUC-JP"],
        "zh" => &["GBK", "gb18030"],
        "zt" => &["Big5"],
        "ko" => &["EUC-KR"],
        "ru" => &["windows-1251", "KOI8-R", "ISO-8859-5", "IBM866", "x-mac-cyrillic"],
        "uk" => &["windows-1251", "KOI8-U", "x-mac-cyrillic"],
        "bg" => &["windows-1251", "ISO-8859-5", "KOI8-R"],
        "el" => &["windows-1253", "ISO-8859-7"],
        "ar" | "fa" => &["windows-1256"],
        "he" => &["windows-1255", "ISO-8859-8"],
        "th" => &["windows-874"],
        "tr" => &["windows-1254"],
        "vi" => &["windows-1258"],
        "pl" | "cs" => &["windows-1250", "ISO-8859-2"],
        "de" => &["windows-1252", "ISO-8859-15", "macintosh", "windows-1250"],
        "fr" | "es" => &["windows-1252", "ISO-8859-15", "macintosh"],
        "pt" => &["windows-1252", "ISO-8859-15"],
        "lt" | "lv" => &["windows-1257"],
        other => panic!("no charsets for {other}"),
    }
}

#[derive(Clone)]
struct Sample {
    bytes: Vec<u8>,
    expected: String,
    /// charset label, or "invalid"
    label: String,
    held_out: bool,
}

fn percent(b: &[u8]) -> String {
    b.iter()
        .map(|&c| {
            if (0x20..0x7F).contains(&c) && c != b'%' {
                (c as char).to_string()
            } else {
                format!("%{c:02X}")
            }
        })
        .collect()
}

/// Every corpus name in every charset that holds it, grouped by charset.
fn encoded(entries: &[Entry]) -> BTreeMap<String, Vec<(Sample, bool)>> {
    let mut out: BTreeMap<String, Vec<(Sample, bool)>> = BTreeMap::new();
    for e in entries {
        for label in charsets_for(&e.lang) {
            let cs = Charset::for_label(label).unwrap();
            let Some(bytes) = cs.from_utf8(&e.text) else { continue };
            out.entry(label.to_string()).or_default().push((
                Sample {
                    bytes,
                    expected: e.text.clone(),
                    label: label.to_string(),
                    held_out: e.held_out,
                },
                e.short,
            ));
        }
    }
    out
}

/// A small deterministic generator (no dependency, reproducible runs).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Invalid names: truncated multi-byte names (legacy and UTF-8), random
/// garbage, CESU-8 surrogates, overlong forms.
fn invalid(entries: &[Entry]) -> Vec<Sample> {
    let mut out = Vec::new();
    let mut push = |bytes: Vec<u8>, held_out: bool| {
        out.push(Sample {
            expected: percent(&bytes),
            bytes,
            label: "invalid".into(),
            held_out,
        });
    };
    for (i, e) in entries.iter().enumerate().filter(|(i, _)| i % 5 == 0) {
        let Some((cut, last)) = e.text.char_indices().rfind(|(_, c)| !c.is_ascii()) else {
            continue;
        };
        let head = &e.text[..cut];
        for label in ["Shift_JIS", "EUC-JP", "GBK", "Big5", "EUC-KR", "UTF-8"] {
            let cs = Charset::for_label(label).unwrap();
            let (Some(mut b), Some(tail)) = (cs.from_utf8(head), cs.from_utf8(&last.to_string())) else {
                continue;
            };
            if tail.len() < 2 {
                continue;
            }
            let keep = if label == "UTF-8" { 1 + i % (tail.len() - 1) } else { 1 };
            b.extend_from_slice(&tail[..keep]);
            push(b, e.held_out);
        }
    }
    let mut rng = Lcg(0x5eed);
    for k in 0..40 {
        let len = 3 + rng.below(8);
        let mut b: Vec<u8> = (0..len).map(|_| 0x80 + rng.below(0x80) as u8).collect();
        match k % 4 {
            1 => b.extend_from_slice(b".dat"),
            2 => b.splice(0..0, b"file_".iter().copied()).for_each(drop),
            _ => {}
        }
        push(b, k % 4 == 3);
    }
    for (k, b) in [
        &b"file\xED\xA0\x80.txt"[..],
        b"\xED\xA0\xBD\xED\xB8\x80 smile",
        b"report\xED\xB0\x80",
        b"\xED\xA0\x81\xED\xB0\x81",
        b"\xC0\xAE\xC0\xAE",
        b"dir\xC0\xAF",
        b"\xE0\x80\xAFetc",
        b"\xF0\x82\x82\xAC.txt",
        b"\xC1\x81\xC1\x82",
        b"x\xF4\x90\x80\x80",
        b"ok\x01\x02",
        b"tab\there",
    ]
    .iter()
    .enumerate()
    {
        push(b.to_vec(), k % 4 == 3);
    }
    out
}

#[derive(Default, Clone, Copy)]
struct Tally {
    ok: usize,
    n: usize,
}
impl Tally {
    fn add(&mut self, ok: bool) {
        self.n += 1;
        self.ok += usize::from(ok);
    }
    fn pct(&self) -> f64 {
        if self.n == 0 {
            100.0
        } else {
            100.0 * self.ok as f64 / self.n as f64
        }
    }
}

#[derive(Default)]
struct Report {
    /// case -> (tuned, held-out)
    cases: BTreeMap<&'static str, (Tally, Tally)>,
    /// charset -> case -> tally (all names)
    per_charset: BTreeMap<String, BTreeMap<&'static str, Tally>>,
    failures: Vec<String>,
}

impl Report {
    fn run_dir(&mut self, case: &'static str, dir: &[Sample], feat_utf8: bool) {
        let ev = Evidence::default();
        let cx = Context {
            explicit: None,
            feat_utf8,
            evidence: &ev,
        };
        let names: Vec<&[u8]> = dir.iter().map(|s| s.bytes.as_slice()).collect();
        let ds = decide_listing(&names, &cx);
        for (s, d) in dir.iter().zip(&ds) {
            let got = shown(&s.bytes, d);
            let ok = got == s.expected;
            let (tuned, held) = self.cases.entry(case).or_default();
            if s.held_out {
                held.add(ok)
            } else {
                tuned.add(ok)
            }
            self.per_charset
                .entry(s.label.clone())
                .or_default()
                .entry(case)
                .or_default()
                .add(ok);
            if !ok {
                self.failures.push(format!(
                    "[{case}] {}: expected {:?}, shown {:?} ({d:?})",
                    s.label, s.expected, got
                ));
            }
            // What is shown can be typed back.
            assert_eq!(typed_to_name(&got, &names, &ds).as_deref(), Some(s.bytes.as_slice()));
        }
    }
}

const SINGLE: &str = "A single-charset dirs";
const MIXED: &str = "B mixed dirs (2-3 charsets + invalid)";
const SHORT: &str = "C one short name";
const INVALID: &str = "D invalid names, no FEAT UTF8";
const INVALID_FEAT: &str = "D' invalid names, FEAT UTF8";

/// Runs the four cases over the corpus and prints the tables.
fn measure() -> Report {
    let entries = corpus();
    let langs: std::collections::BTreeSet<&str> = entries.iter().map(|e| e.lang.as_str()).collect();
    assert!(langs.len() >= 17, "{langs:?}");
    let by_charset = encoded(&entries);
    assert!(by_charset.len() >= 26, "{:?}", by_charset.keys().collect::<Vec<_>>());
    let bad = invalid(&entries);
    let mut r = Report::default();

    // A: each charset's names, per language, in directories of 6.
    for samples in by_charset.values() {
        let mut by_lang: BTreeMap<usize, Vec<Sample>> = BTreeMap::new();
        for (i, (s, _)) in samples.iter().enumerate() {
            // group consecutive names of one language (corpus order)
            let key = i / 6;
            by_lang.entry(key).or_default().push(s.clone());
        }
        for dir in by_lang.values() {
            r.run_dir(SINGLE, dir, false);
        }
    }

    // B: 150 directories mixing 2 or 3 charsets of different scripts, 3
    // names each, plus 0-2 invalid names.
    let labels: Vec<&String> = by_charset.keys().collect();
    let mut rng = Lcg(2640);
    for _ in 0..150 {
        let k = 2 + rng.below(2);
        let mut chosen: Vec<&String> = Vec::new();
        while chosen.len() < k {
            let l = labels[rng.below(labels.len())];
            if !chosen.contains(&l) {
                chosen.push(l);
            }
        }
        let mut dir = Vec::new();
        for l in chosen {
            let pool = &by_charset[l];
            for _ in 0..3 {
                let s = &pool[rng.below(pool.len())].0;
                // two names shown alike are %HH by design: keep texts distinct
                if !dir.iter().any(|d: &Sample| d.expected == s.expected) {
                    dir.push(s.clone());
                }
            }
        }
        for _ in 0..rng.below(3) {
            dir.push(bad[rng.below(bad.len())].clone());
        }
        r.run_dir(MIXED, &dir, false);
    }

    // C: one short name alone in a directory, in every charset holding it.
    for samples in by_charset.values() {
        for (s, short) in samples {
            if *short {
                r.run_dir(SHORT, std::slice::from_ref(s), false);
            }
        }
    }

    // D: every invalid name alone, without and with FEAT UTF8.
    for s in &bad {
        r.run_dir(INVALID, std::slice::from_ref(s), false);
        r.run_dir(INVALID_FEAT, std::slice::from_ref(s), true);
    }

    println!("\n| case | tuned names | held-out names | all |\n|---|---|---|---|");
    for (case, (t, h)) in &r.cases {
        let all = Tally {
            ok: t.ok + h.ok,
            n: t.n + h.n,
        };
        println!(
            "| {case} | {:.1} % ({}/{}) | {:.1} % ({}/{}) | {:.1} % |",
            t.pct(),
            t.ok,
            t.n,
            h.pct(),
            h.ok,
            h.n,
            all.pct()
        );
    }
    println!(
        "\n| charset | A single | B mixed | C short | D invalid | D' invalid, FEAT UTF8 |\n|---|---|---|---|---|---|"
    );
    for (cs, m) in &r.per_charset {
        let cell = |c: &str| {
            m.get(c)
                .map_or("–".to_string(), |t| format!("{:.1} % ({}/{})", t.pct(), t.ok, t.n))
        };
        println!(
            "| {cs} | {} | {} | {} | {} | {} |",
            cell(SINGLE),
            cell(MIXED),
            cell(SHORT),
            cell(INVALID),
            cell(INVALID_FEAT)
        );
    }
    println!("\nfailures ({}):", r.failures.len());
    for f in &r.failures {
        println!("  {f}");
    }
    r
}

impl Report {
    fn all(&self, case: &str) -> f64 {
        let (t, h) = self.cases.get(case).copied().unwrap_or_default();
        Tally {
            ok: t.ok + h.ok,
            n: t.n + h.n,
        }
        .pct()
    }
}

/// The targets of issue 13 on this repository's corpus, every case.
#[test]
fn detection_accuracy() {
    let r = measure();
    assert!(r.all(SINGLE) >= 99.5, "single {}", r.all(SINGLE));
    assert!(r.all(MIXED) >= 98.0, "mixed {}", r.all(MIXED));
    assert!(r.all(SHORT) >= 95.0, "short {}", r.all(SHORT));
    assert!(r.all(INVALID) >= 95.0, "invalid {}", r.all(INVALID));
    assert!(
        r.all(INVALID_FEAT) >= 95.0,
        "invalid, FEAT UTF8 {}",
        r.all(INVALID_FEAT)
    );
}

#[test]
fn evidence_carries_a_server_across_listings() {
    // `ls /` (two Shift_JIS names) then a directory holding one short
    // EUC-JP-or-GBK-ambiguous name: the history decides, and one listing of
    // another charset does not flip the server.
    let sjis = Charset::for_label("Shift_JIS").unwrap();
    let mut ev = Evidence::default();
    let root: Vec<Vec<u8>> = ["日本語のファイル.txt", "会議資料", "写真フォルダ"]
        .iter()
        .map(|n| sjis.from_utf8(n).unwrap())
        .collect();
    let refs: Vec<&[u8]> = root.iter().map(Vec::as_slice).collect();
    let ds = decide_listing(
        &refs,
        &Context {
            explicit: None,
            feat_utf8: false,
            evidence: &ev,
        },
    );
    ev.observe(&ds);
    let line = ev.to_line();
    let ev = Evidence::from_line(&line);
    assert_eq!(ev.likely(), Some(sjis), "{line}");
    let one = sjis.from_utf8("資料").unwrap();
    let d = decide_name(
        &one,
        &Context {
            explicit: None,
            feat_utf8: false,
            evidence: &ev,
        },
    );
    assert_eq!(shown(&one, &d), "資料");
    assert!(matches!(d, Decision::Decoded { charset, .. } if charset == sjis));
}
