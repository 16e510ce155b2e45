#![allow(clippy::unwrap_used)]
//! Tuning aid (issue 50, twelfth pass): the Japanese validation sample
//! (`tests/corpus/javal.txt`: names made from the SHA-256 validation half
//! of gimei's person and place names; see `scripts/gen-gimei.py`) in
//! EUC-JP and Shift_JIS: each name alone in a folder, in folders of 3
//! and of 8 names of the one charset, and in folders of 4 where it sits
//! beside 3 Chinese (GBK) or Korean (EUC-KR) names of the CJK validation
//! sample. A name counts as right when its text is shown. `JA_VERBOSE=1`
//! prints the misses of names alone.
//!
//! `cargo run --release -p babelftp-i18n --example ja_names`
use babelftp_i18n::detect::Decision;
use babelftp_i18n::Charset;

mod support;

const SAMPLE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/javal.txt"));
const CJK: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/cjkval.txt"));

fn decide(names: &[Vec<u8>]) -> Vec<Decision> {
    let refs: Vec<&[u8]> = names.iter().map(|n| n.as_slice()).collect();
    support::first_visit(&refs, false)
}

fn right(d: &Decision, name: &str) -> bool {
    matches!(d, Decision::Decoded { text, .. } if text == name)
}

fn main() {
    let verbose = std::env::var_os("JA_VERBOSE").is_some();
    let names: Vec<&str> = SAMPLE
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.rsplit('\t').next())
        .filter(|n| !n.is_ascii())
        .collect();
    // Chinese names of 2-3 characters for the mixed folders (GBK), and
    // Korean hangul syllables of the table for EUC-KR: fixed draws.
    let zh: Vec<&str> = CJK
        .lines()
        .filter_map(|l| l.strip_prefix("zh "))
        .filter(|n| n.chars().count() >= 2)
        .collect();
    let ko: Vec<String> = (0..64u32)
        .map(|i| {
            let a = char::from_u32(0xAC00 + (i * 397) % 2350).unwrap();
            let b = char::from_u32(0xAC00 + (i * 911 + 13) % 2350).unwrap();
            format!("{a}{b}")
        })
        .collect();
    let (mut all_ok, mut all_n) = (0, 0);
    for label in ["EUC-JP", "Shift_JIS"] {
        let cs = Charset::for_label(label).unwrap();
        let enc: Vec<(&str, Vec<u8>)> = names
            .iter()
            .filter_map(|n| cs.from_utf8(n).map(|b| (*n, b.to_vec())))
            .collect();
        let (mut alone, mut raw) = (0, 0);
        for (n, b) in &enc {
            let d = decide(std::slice::from_ref(b)).pop().unwrap();
            if right(&d, n) {
                alone += 1;
            } else {
                if matches!(d, Decision::Raw) {
                    raw += 1;
                }
                if verbose {
                    let shown = match &d {
                        Decision::Decoded { charset, text, .. } => format!("{} {text}", charset.name()),
                        other => format!("{other:?}"),
                    };
                    println!("    {label} {n} -> {shown}");
                }
            }
        }
        let mut folders = [0usize; 2];
        for (k, size) in [3usize, 8].into_iter().enumerate() {
            for chunk in enc.chunks(size) {
                let bytes: Vec<Vec<u8>> = chunk.iter().map(|(_, b)| b.clone()).collect();
                for ((n, _), d) in chunk.iter().zip(decide(&bytes)) {
                    folders[k] += usize::from(right(&d, n));
                }
            }
        }
        let mut mixed = [0usize; 2];
        for (i, (n, b)) in enc.iter().enumerate() {
            let gbk = Charset::for_label("GBK").unwrap();
            let kr = Charset::for_label("EUC-KR").unwrap();
            let zh_names: Vec<Vec<u8>> = (0..3)
                .filter_map(|j| gbk.from_utf8(zh[(i * 7 + j * 131) % zh.len()]).map(|x| x.to_vec()))
                .collect();
            let ko_names: Vec<Vec<u8>> = (0..3)
                .filter_map(|j| kr.from_utf8(&ko[(i * 5 + j * 17) % ko.len()]).map(|x| x.to_vec()))
                .collect();
            for (k, others) in [zh_names, ko_names].into_iter().enumerate() {
                let mut folder = others;
                folder.insert(i % (folder.len() + 1), b.clone());
                let pos = i % folder.len();
                let d = decide(&folder).swap_remove(pos);
                mixed[k] += usize::from(right(&d, n));
                if verbose && k == 0 && !right(&d, n) {
                    if let Decision::Decoded { charset, text, .. } = &d {
                        println!("    beside GBK: {label} {n} -> {} {text}", charset.name());
                    } else {
                        println!("    beside GBK: {label} {n} -> {d:?}");
                    }
                }
            }
        }
        let n = enc.len();
        all_ok += alone + folders[0] + folders[1] + mixed[0] + mixed[1];
        all_n += 5 * n;
        println!(
            "ja {label}: alone {alone}/{n} (raw {raw}), folders of 3 {}/{n}, of 8 {}/{n}, beside GBK {}/{n}, beside EUC-KR {}/{n}",
            folders[0], folders[1], mixed[0], mixed[1]
        );
    }
    println!("all: {all_ok}/{all_n}");
}
