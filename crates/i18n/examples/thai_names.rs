#![allow(clippy::unwrap_used)]
//! Tuning aid (issue 50, thirteenth pass): the Thai validation sample
//! (`tests/corpus/thval.txt`: the SHA-256 validation quarter of PyThaiNLP's
//! CC0 word lists, never in a table; see `scripts/gen-detect-thai.py`) in
//! windows-874: each word alone in a folder (bare, and with an extension),
//! and in folders of three; how many are read right, shown as `%HH`, or
//! read as another text (by charset); and how many names of two, four and
//! six random high bytes are shown decoded as windows-874 or any legacy
//! charset (the cost side). `TH_VERBOSE=1` prints each miss, `TH_RANDOM=1`
//! the random names of four and six bytes read as Thai.
//!
//! `cargo run --release -p babelftp-i18n --example thai_names`
use std::collections::BTreeMap;

use babelftp_i18n::detect::Decision;
use babelftp_i18n::Charset;

mod support;

const SAMPLE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/thval.txt"));
const EXT: [&str; 5] = [".pdf", ".jpg", ".docx", ".mp3", ".txt"];

fn decide(names: &[&[u8]]) -> Vec<Decision> {
    support::first_visit(names, false)
}

#[derive(Default)]
struct Tally {
    ok: usize,
    raw: usize,
    n: usize,
    wrong: BTreeMap<String, usize>,
}

impl Tally {
    fn add(&mut self, want: &str, got: &Decision, verbose: bool, what: &str) {
        self.n += 1;
        match got {
            Decision::Decoded { text, .. } if text == want => self.ok += 1,
            Decision::Decoded { charset, text, .. } => {
                *self.wrong.entry(charset.name().to_owned()).or_default() += 1;
                if verbose {
                    println!("    {what}: {want} -> {} {text}", charset.name());
                }
            }
            _ => {
                self.raw += 1;
                if verbose {
                    println!("    {what}: {want} -> raw");
                }
            }
        }
    }

    fn print(&self, what: &str) {
        println!(
            "  {what}: {}/{} ({:.2} %) raw {}; {:?}",
            self.ok,
            self.n,
            100.0 * self.ok as f64 / self.n.max(1) as f64,
            self.raw,
            self.wrong
        );
    }
}

fn main() {
    let verbose = std::env::var_os("TH_VERBOSE").is_some();
    let show_random = std::env::var_os("TH_RANDOM").is_some();
    let cs = Charset::for_label("windows-874").unwrap();
    let mut names: Vec<(String, Vec<u8>, &str)> = Vec::new();
    for line in SAMPLE.lines().filter(|l| !l.starts_with('#')) {
        let mut f = line.splitn(3, ' ');
        let (Some("th"), Some(kind), Some(word)) = (f.next(), f.next(), f.next()) else {
            continue;
        };
        if let Some(b) = cs.from_utf8(word) {
            names.push((word.to_owned(), b, kind));
        }
    }
    let (mut bare, mut ext, mut three, mut places) =
        (Tally::default(), Tally::default(), Tally::default(), Tally::default());
    for (i, (word, b, kind)) in names.iter().enumerate() {
        let got = decide(&[b.as_slice()]).pop().unwrap();
        if *kind == "p" {
            places.add(word, &got, verbose, "place");
        } else {
            bare.add(word, &got, verbose, "alone");
        }
        let e = EXT[i % EXT.len()];
        let mut with = b.clone();
        with.extend_from_slice(e.as_bytes());
        let got = decide(&[with.as_slice()]).pop().unwrap();
        ext.add(&format!("{word}{e}"), &got, verbose, "alone+ext");
    }
    for chunk in names.chunks(3) {
        let files: Vec<(String, Vec<u8>)> = chunk
            .iter()
            .enumerate()
            .map(|(j, (w, b, _))| {
                let e = EXT[(j + 2) % EXT.len()];
                let mut v = b.clone();
                v.extend_from_slice(e.as_bytes());
                (format!("{w}{e}"), v)
            })
            .collect();
        let refs: Vec<&[u8]> = files.iter().map(|(_, v)| v.as_slice()).collect();
        for ((want, _), got) in files.iter().zip(decide(&refs)) {
            three.add(want, &got, verbose, "three");
        }
    }
    bare.print("words alone");
    places.print("provinces and countries alone");
    ext.print("alone with an extension");
    three.print("folders of three");
    let all_ok = bare.ok + places.ok + ext.ok + three.ok;
    let all_n = bare.n + places.n + ext.n + three.n;
    println!(
        "all: {all_ok}/{all_n} ({:.2} %)",
        100.0 * all_ok as f64 / all_n.max(1) as f64
    );
    // The cost side: random high bytes (two: every pair; four and six:
    // 20,000 each, a fixed draw) shown decoded.
    let thai = |d: &Decision| matches!(d, Decision::Decoded { charset, .. } if charset.name() == "windows-874");
    let legacy = |d: &Decision| matches!(d, Decision::Decoded { charset, .. } if charset.name() != "UTF-8");
    let (mut t2, mut l2) = (0, 0);
    for k in 0..128usize * 128 {
        let name = [0x80 | (k & 0x7F) as u8, 0x80 | ((k >> 7) & 0x7F) as u8];
        let d = decide(&[&name]).pop().unwrap();
        t2 += usize::from(thai(&d));
        l2 += usize::from(legacy(&d));
    }
    println!("2 random high bytes decoded: windows-874 {t2}, any legacy {l2} of 16384");
    let mut x = 874u64;
    for len in [4usize, 6] {
        let (mut t, mut l) = (0, 0);
        for _ in 0..20_000 {
            let name = support::random_high(&mut x, len);
            let d = decide(&[&name]).pop().unwrap();
            if show_random && thai(&d) {
                if let Decision::Decoded { text, .. } = &d {
                    println!("    random: {text}");
                }
            }
            t += usize::from(thai(&d));
            l += usize::from(legacy(&d));
        }
        println!("{len} random high bytes decoded: windows-874 {t}, any legacy {l} of 20000");
    }
}
