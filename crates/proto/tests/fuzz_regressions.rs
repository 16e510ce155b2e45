//! Every input kept under `fuzz/regressions/<target>/` (crashes the fuzzers
//! found, and seeds worth keeping) runs through the same entry points as
//! the fuzz targets, on every `cargo test`.

#![allow(clippy::unwrap_used)]

use std::path::Path;

fn run(target: &str, f: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/regressions")
        .join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        f(&data);
        n += 1;
    }
    n
}

#[test]
fn control_regressions() {
    assert!(run("control", babelftp_proto::command::fuzz_control) > 0);
}

#[test]
fn utf8_regressions() {
    assert!(run("utf8", babelftp_proto::utf8::fuzz_validate) > 0);
}

#[test]
fn url_regressions() {
    assert!(run("url", babelftp_proto::url::fuzz_url) > 0);
}
