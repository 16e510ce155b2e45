//! UTF-8 validation throughput: babelftp's `utf8::validate` in both modes
//! against `std::str::from_utf8` and simdutf8's two validators, on the same
//! buffers.
//!
//! Run: `cargo bench -p babelftp-proto --bench utf8`
//!
//! Results of one run (the project's 2-core AMD EPYC with AVX2 and
//! AVX-512, rustc 1.95, bench profile; other builds were running, load
//! average about 3). Median throughput in GB/s, 100 samples each:
//!
//! | input        | validate Strict | validate Legacy | std from_utf8 | simdutf8 basic | simdutf8 compat |
//! |--------------|-----------------|-----------------|---------------|----------------|-----------------|
//! | ascii  1 MiB | 59.1            | 59.0            | 35.7          | 59.3           | 58.9            |
//! | mixed  1 MiB | 13.1            | 13.4            | 0.70          | 13.0           | 12.5            |
//! | heavy  1 MiB | 12.9            | 12.9            | 0.55          | 12.9           | 12.4            |
//! | ascii 16 MiB | 27.2            | 27.4            | 21.7          | 27.4           | 27.4            |
//! | mixed 16 MiB | 11.0            | 11.2            | 0.66          | 11.0           | 10.7            |
//! | heavy 16 MiB | 12.0            | 11.9            | 0.54          | 12.3           | 11.9            |
//!
//! Legacy-only input, `validate(Legacy)`, 1 MiB: `legacy31` 0.68 GB/s,
//! `cesu` 0.39 GB/s (the scalar decoder; strict UTF-8 rejects both).
//!
//! Reading: babelftp equals simdutf8::basic within noise (it *is*
//! simdutf8::basic on valid input); 1 MiB fits in L2, 16 MiB is bound by
//! memory. std is 17-24x slower than simdutf8 on non-ASCII input, and
//! slower than the 4.5 / 1.5 GB/s of research/deps-and-scale.md §2, because
//! these inputs put a non-ASCII character every few bytes in an
//! unpredictable order, which defeats std's ASCII word skipping and its
//! branch prediction.
//!
//! Inputs are words drawn pseudo-randomly (fixed seed) from word lists, so
//! branch predictors cannot learn a short repeating pattern:
//! - `ascii`: English words only.
//! - `mixed`: English plus Latin-1 accented, Cyrillic and CJK words, 21.5 %
//!   non-ASCII bytes.
//! - `heavy`: CJK, Thai and Cyrillic words separated by spaces, about 93 %
//!   non-ASCII bytes.
//! - `legacy31`: `mixed` with a five- or six-octet RFC 2279 sequence about
//!   every 100 bytes; only `validate(Legacy)` accepts it, and it measures the
//!   scalar fallback of legacy mode.
//! - `cesu`: encoded surrogates (D800..DFFF, three octets each) with a few
//!   short words between them: the worst case for legacy mode, which has to
//!   decode nearly all of it with the scalar decoder.

use std::fmt;
use std::sync::OnceLock;

use babelftp_proto::utf8::{self, Mode};
use divan::counter::BytesCount;
use divan::{black_box, Bencher};

fn main() {
    divan::main();
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    Ascii,
    Mixed,
    Heavy,
}

#[derive(Clone, Copy, Debug)]
struct Case {
    input: Input,
    mib: usize,
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.input {
            Input::Ascii => "ascii",
            Input::Mixed => "mixed",
            Input::Heavy => "heavy",
        };
        write!(f, "{name}/{:>2}MiB", self.mib)
    }
}

const CASES: [Case; 6] = [
    Case {
        input: Input::Ascii,
        mib: 1,
    },
    Case {
        input: Input::Mixed,
        mib: 1,
    },
    Case {
        input: Input::Heavy,
        mib: 1,
    },
    Case {
        input: Input::Ascii,
        mib: 16,
    },
    Case {
        input: Input::Mixed,
        mib: 16,
    },
    Case {
        input: Input::Heavy,
        mib: 16,
    },
];

const ENGLISH: &[&str] = &[
    "the",
    "file",
    "transfer",
    "protocol",
    "server",
    "client",
    "directory",
    "name",
    "reply",
    "command",
    "data",
    "connection",
    "passive",
    "port",
    "listing",
    "report",
    "2026",
    "final",
    "draft",
    "README.txt",
    "backup",
    "archive.tar.gz",
    "of",
    "and",
    "a",
    "to",
    "in",
    "is",
];
const LATIN: &[&str] = &[
    "Grüße",
    "café",
    "naïve",
    "señor",
    "Ærøskøbing",
    "façade",
    "München",
    "Zürich",
    "résumé",
    "crème",
    "brûlée",
    "São",
    "Paulo",
    "Øresund",
];
const CYRILLIC: &[&str] = &[
    "привет",
    "файл",
    "каталог",
    "отчёт",
    "Москва",
    "данные",
    "сервер",
    "список",
    "новый",
];
const CJK: &[&str] = &[
    "日本語",
    "東京",
    "報告書",
    "ファイル",
    "データ",
    "中文",
    "文件",
    "目录",
    "한국어",
    "서버",
];
const THAI: &[&str] = &["ภาษาไทย", "ไฟล์", "รายงาน", "ข้อมูล", "เซิร์ฟเวอร์", "กรุงเทพ"];

/// A small deterministic PRNG (64-bit LCG, high bits), so runs compare.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }

    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.below(words.len())]
    }
}

/// Words joined by spaces up to `len` bytes, cut at a character boundary.
fn make_text(input: Input, len: usize) -> Vec<u8> {
    let mut rng = Lcg(0x00C0_FFEE ^ len as u64);
    let mut s = String::with_capacity(len + 64);
    while s.len() < len {
        let word = match input {
            Input::Ascii => rng.pick(ENGLISH),
            // Weights tuned for about 20 % non-ASCII bytes.
            Input::Mixed => match rng.below(100) {
                0..=74 => rng.pick(ENGLISH),
                75..=87 => rng.pick(LATIN),
                88..=95 => rng.pick(CYRILLIC),
                _ => rng.pick(CJK),
            },
            Input::Heavy => match rng.below(3) {
                0 => rng.pick(CJK),
                1 => rng.pick(THAI),
                _ => rng.pick(CYRILLIC),
            },
        };
        s.push_str(word);
        s.push(' ');
    }
    let mut cut = len;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
    s.into_bytes()
}

fn buffer(case: Case) -> &'static [u8] {
    static BUFFERS: [OnceLock<Vec<u8>>; 6] = [const { OnceLock::new() }; 6];
    let index = CASES
        .iter()
        .position(|c| c.input == case.input && c.mib == case.mib)
        .unwrap_or_default();
    BUFFERS[index].get_or_init(|| {
        let buf = make_text(case.input, case.mib << 20);
        let non_ascii = buf.iter().filter(|b| !b.is_ascii()).count();
        eprintln!(
            "{case}: {} bytes, {:.1} % non-ASCII",
            buf.len(),
            100.0 * non_ascii as f64 / buf.len() as f64
        );
        buf
    })
}

/// Encoded surrogates, densely, with a short word after about one in four.
fn cesu_buffer() -> &'static [u8] {
    static BUFFER: OnceLock<Vec<u8>> = OnceLock::new();
    BUFFER.get_or_init(|| {
        let mut out = Vec::with_capacity((1 << 20) + 16);
        let mut rng = Lcg(0xD800);
        while out.len() < 1 << 20 {
            let value = 0xD800 + rng.below(0x800) as u32;
            let _ = utf8::encode_ucs4(value, Mode::Legacy, &mut out);
            if rng.below(4) == 0 {
                out.extend_from_slice("ab я ".as_bytes());
            }
        }
        out
    })
}

/// `mixed` text with a five- or six-octet sequence about every 100 bytes.
fn legacy31_buffer() -> &'static [u8] {
    static BUFFER: OnceLock<Vec<u8>> = OnceLock::new();
    BUFFER.get_or_init(|| {
        let text = make_text(Input::Mixed, 1 << 20);
        let mut out = Vec::with_capacity(text.len() + text.len() / 16);
        let mut rng = Lcg(31);
        for word in text.split_inclusive(|&b| b == b' ') {
            out.extend_from_slice(word);
            if rng.below(12) == 0 {
                let value = 0x20_0000 + (rng.below(0x7FDF_FFFF) as u32);
                let _ = utf8::encode_ucs4(value, Mode::Legacy, &mut out);
            }
        }
        out
    })
}

fn run(bencher: Bencher, case: Case, validator: fn(&[u8]) -> bool) {
    let buf = buffer(case);
    assert!(validator(buf), "{case} must be valid");
    bencher
        .counter(BytesCount::of_slice(buf))
        .bench(|| validator(black_box(buf)));
}

#[divan::bench(args = CASES)]
fn babelftp_strict(bencher: Bencher, case: Case) {
    run(bencher, case, |b| utf8::validate(b, Mode::Strict).is_ok());
}

#[divan::bench(args = CASES)]
fn babelftp_legacy(bencher: Bencher, case: Case) {
    run(bencher, case, |b| utf8::validate(b, Mode::Legacy).is_ok());
}

#[divan::bench(args = CASES)]
fn std_from_utf8(bencher: Bencher, case: Case) {
    run(bencher, case, |b| std::str::from_utf8(b).is_ok());
}

#[divan::bench(args = CASES)]
fn simdutf8_basic(bencher: Bencher, case: Case) {
    run(bencher, case, |b| simdutf8::basic::from_utf8(b).is_ok());
}

#[divan::bench(args = CASES)]
fn simdutf8_compat(bencher: Bencher, case: Case) {
    run(bencher, case, |b| simdutf8::compat::from_utf8(b).is_ok());
}

/// The legacy slow path: input that strict UTF-8 rejects every ~100 bytes.
#[divan::bench]
fn babelftp_legacy_legacy31_1mib(bencher: Bencher) {
    let buf = legacy31_buffer();
    assert!(utf8::validate(buf, Mode::Legacy).is_ok());
    assert!(utf8::validate(buf, Mode::Strict).is_err());
    bencher
        .counter(BytesCount::of_slice(buf))
        .bench(|| utf8::validate(black_box(buf), Mode::Legacy).is_ok());
}

/// The legacy worst case: strict UTF-8 rejects it every few bytes.
#[divan::bench]
fn babelftp_legacy_cesu_1mib(bencher: Bencher) {
    let buf = cesu_buffer();
    assert!(utf8::validate(buf, Mode::Legacy).is_ok());
    assert!(utf8::validate(buf, Mode::Strict).is_err());
    bencher
        .counter(BytesCount::of_slice(buf))
        .bench(|| utf8::validate(black_box(buf), Mode::Legacy).is_ok());
}
