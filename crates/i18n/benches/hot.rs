//! The server's per-command and per-entry hot paths, wall time (divan):
//! command parsing, UTF-8 validation, charset translation of a 10k
//! listing both ways, LIST and MLSD formatting of 10k entries. The same
//! workloads are counted in instructions by `examples/icount.rs`
//! (`python3 bench/icount.py`), which CI checks against a baseline.
//!
//! Run: `cargo bench -p babelftp-i18n --bench hot`

#[path = "workloads.rs"]
mod workloads;

use divan::{black_box, Bencher};

fn main() {
    divan::main();
}

#[divan::bench]
fn parse_10k_commands(b: Bencher) {
    let lines = workloads::command_lines();
    b.bench(|| workloads::parse(black_box(&lines)));
}

#[divan::bench]
fn validate_1mib_mixed(b: Bencher) {
    let text = workloads::mixed_text();
    b.bench(|| workloads::validate(black_box(&text)));
}

#[divan::bench]
fn names_10k_to_windows_1252(b: Bencher) {
    let names = workloads::names();
    b.bench(|| workloads::legacy(black_box(&names)));
}

#[divan::bench]
fn names_10k_from_koi8_r(b: Bencher) {
    let names = workloads::koi8_names();
    b.bench(|| workloads::from_disk(black_box(&names)));
}

#[divan::bench]
fn list_10k_lines(b: Bencher) {
    let entries = workloads::entries();
    let mut out = Vec::new();
    b.bench_local(|| workloads::list(black_box(&entries), &mut out));
}

#[divan::bench]
fn mlsd_10k_lines(b: Bencher) {
    let entries = workloads::entries();
    let mut out = Vec::new();
    b.bench_local(|| workloads::mlsd(black_box(&entries), &mut out));
}
