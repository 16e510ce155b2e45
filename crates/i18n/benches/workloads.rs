//! The hot paths measured by `benches/hot.rs` (wall time, divan) and by
//! `examples/icount.rs` (instruction counts under callgrind, checked in CI
//! against `bench/icount-baseline.json`). Each input is made once, from a
//! fixed seed; each workload runs over the whole input and returns a value
//! that depends on all of it (so nothing is optimized away).
#![allow(dead_code, clippy::expect_used)] // fixed inputs, not network data

use babelftp_i18n::names::{legacy_out, local_to_wire};
use babelftp_i18n::Charset;
use babelftp_proto::command::Command;
use babelftp_proto::listing::{list_line, mlsd_line, Entry, EntryKind, MLST_FACTS};
use babelftp_proto::utf8::{self, Mode};

/// How many names a listing workload has.
pub const NAMES: usize = 10_000;

const STEMS: [&str; 8] = [
    "名前",
    "Игра",
    "كتاب",
    "plain",
    "Ελληνικά",
    "हिन्दी",
    "한국어",
    "français-été",
];

/// A small deterministic generator (xorshift), so inputs are the same on
/// every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// 10,000 UTF-8 names in eight scripts.
pub fn names() -> Vec<Vec<u8>> {
    (0..NAMES)
        .map(|i| format!("{}-{i:07}.txt", STEMS[i % STEMS.len()]).into_bytes())
        .collect()
}

/// 10,000 names as a KOI8-R disk holds them (Cyrillic and ASCII).
pub fn koi8_names() -> Vec<Vec<u8>> {
    let koi8 = Charset::for_label("koi8-r").expect("koi8-r is a WHATWG label");
    (0..NAMES)
        .map(|i| {
            let name = format!("Игра-{i:07}.txt");
            koi8.from_utf8(&name).expect("Cyrillic fits KOI8-R")
        })
        .collect()
}

/// 10,000 directory entries with varied sizes, times and modes.
pub fn entries() -> Vec<Entry> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    names()
        .into_iter()
        .enumerate()
        .map(|(i, name)| Entry {
            name,
            kind: if i % 10 == 0 { EntryKind::Dir } else { EntryKind::File },
            size: rng.next() % 10_000_000_000,
            modified: Some(1_700_000_000 + (rng.next() % 100_000_000) as i64),
            mode: 0o644 | ((i as u32 % 2) * 0o111),
            nlink: 1 + rng.next() % 3,
            unique: Some((0x803, rng.next() % 1_000_000_000)),
            perm: "adfrw".into(),
        })
        .collect()
}

/// 10,000 control lines a session sees: logins, paths in scripts,
/// transfers, options.
pub fn command_lines() -> Vec<Vec<u8>> {
    let names = names();
    (0..NAMES)
        .map(|i| {
            let n = String::from_utf8_lossy(&names[i]).into_owned();
            match i % 10 {
                0 => "USER anonymous".to_string(),
                1 => "PASS guest@example.org".to_string(),
                2 => format!("CWD /pub/{n}"),
                3 => format!("RETR {n}"),
                4 => format!("STOR {n}"),
                5 => "EPSV".to_string(),
                6 => "PORT 127,0,0,1,195,80".to_string(),
                7 => format!("MLST {n}"),
                8 => "OPTS UTF8 ON".to_string(),
                _ => "LANG fr".to_string(),
            }
            .into_bytes()
        })
        .collect()
}

/// 1 MiB of text: English, Latin-1 accented, Cyrillic and CJK words.
pub fn mixed_text() -> Vec<u8> {
    let words = [
        "file",
        "names",
        "été",
        "garçon",
        "привет",
        "мир",
        "日本語",
        "文件",
        "the",
        "and",
    ];
    let mut rng = Rng(42);
    let mut out = Vec::with_capacity(1 << 20);
    while out.len() < 1 << 20 {
        out.extend_from_slice(words[(rng.next() % words.len() as u64) as usize].as_bytes());
        out.push(b' ');
    }
    out.truncate(1 << 20);
    while std::str::from_utf8(&out).is_err() {
        out.pop();
    }
    out
}

/// Parses every line; returns how many parsed.
pub fn parse(lines: &[Vec<u8>]) -> usize {
    lines.iter().filter(|l| Command::parse(l).is_ok()).count()
}

/// Validates the text as strict UTF-8.
pub fn validate(text: &[u8]) -> bool {
    utf8::validate(text, Mode::Strict).is_ok()
}

/// The names as a windows-1252 client gets them (RFC 2640 A.2: what does
/// not fit is `%HH`); returns the octets written.
pub fn legacy(names: &[Vec<u8>]) -> usize {
    let cs = Charset::for_label("windows-1252").expect("a WHATWG label");
    names.iter().map(|n| legacy_out(n, cs).len()).sum()
}

/// KOI8-R names from disk to the wire (UTF-8); returns the octets.
pub fn from_disk(names: &[Vec<u8>]) -> usize {
    let cs = Charset::for_label("koi8-r");
    names.iter().map(|n| local_to_wire(n, cs).len()).sum()
}

/// The LIST lines of the entries; returns the octets.
pub fn list(entries: &[Entry], out: &mut Vec<u8>) -> usize {
    out.clear();
    for e in entries {
        list_line(e, 1_795_000_000, out);
    }
    out.len()
}

/// The MLSD lines of the entries; returns the octets.
pub fn mlsd(entries: &[Entry], out: &mut Vec<u8>) -> usize {
    out.clear();
    for e in entries {
        mlsd_line(e, MLST_FACTS, out);
    }
    out.len()
}
