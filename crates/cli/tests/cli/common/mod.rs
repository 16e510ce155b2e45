//! What the client tests share.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod scripted;
pub mod serve;
pub mod web;

use std::path::Path;
use std::process::Command;

/// Runs the `babelftp` binary with its state in `state` and the C locale
/// (English messages, whatever the machine's); returns (success, stdout,
/// stderr).
pub fn babelftp(state: &Path, args: &[&str]) -> (bool, String, String) {
    let (code, out, err) = babelftp_code(state, args);
    (code == 0, out, err)
}

/// [`babelftp`] with the exit code (-1 when a signal ended it).
pub fn babelftp_code(state: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(args)
        .env("XDG_STATE_HOME", state)
        .env("LC_ALL", "C")
        .env_remove("LANG")
        .env_remove("LC_MESSAGES")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Name stems in eight scripts, as bench/listing.py and bench/mirror.py
/// use.
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

/// `n` files with mixed-script names and sizes from 0 to 20,000 octets
/// (contents differing from file to file) in `dir`, every fourth one in
/// the subdirectory `sous-dossier/子`.
pub fn mixed_tree(dir: &Path, n: usize) {
    let sub = dir.join("sous-dossier").join("子");
    std::fs::create_dir_all(&sub).unwrap();
    for i in 0..n {
        let name = format!("{}-{i:04}.bin", STEMS[i % STEMS.len()]);
        let path = if i % 4 == 3 { sub.join(name) } else { dir.join(name) };
        let data: Vec<u8> = (0..(i * 7919) % 20_001).map(|k| (k * 31 + i * 7) as u8).collect();
        std::fs::write(path, data).unwrap();
    }
}

/// Every file and directory below `dir` (relative paths, as bytes) with
/// each file's length and a checksum of its contents (`None` for a
/// directory).
pub fn tree_sums(dir: &Path) -> std::collections::BTreeMap<Vec<u8>, Option<(usize, u64)>> {
    use std::hash::{Hash, Hasher};
    use std::os::unix::ffi::OsStrExt;
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(dir).unwrap().as_os_str().as_bytes().to_vec();
            if std::fs::symlink_metadata(&p).unwrap().is_dir() {
                stack.push(p);
                out.insert(rel, None);
            } else {
                let data = std::fs::read(&p).unwrap();
                let mut h = std::collections::hash_map::DefaultHasher::new();
                data.hash(&mut h);
                out.insert(rel, Some((data.len(), h.finish())));
            }
        }
    }
    out
}

/// `b` holds exactly the tree `a` holds: the same names, every file with
/// the same length and checksum.
pub fn assert_same_tree(a: &Path, b: &Path) {
    let (x, y) = (tree_sums(a), tree_sums(b));
    assert!(!x.is_empty(), "{}: empty", a.display());
    if x != y {
        let only = |p: &std::collections::BTreeMap<Vec<u8>, _>, q: &std::collections::BTreeMap<Vec<u8>, _>| {
            p.keys()
                .filter(|k| !q.contains_key(*k))
                .map(|k| String::from_utf8_lossy(k).into_owned())
                .collect::<Vec<_>>()
        };
        let differ: Vec<String> = x
            .iter()
            .filter(|(k, v)| y.get(*k).is_some_and(|w| w != *v))
            .map(|(k, _)| String::from_utf8_lossy(k).into_owned())
            .collect();
        panic!(
            "{} and {} differ: only in the first {:?}, only in the second {:?}, different contents {:?}",
            a.display(),
            b.display(),
            only(&x, &y),
            only(&y, &x),
            differ
        );
    }
}
