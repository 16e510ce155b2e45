//! The whole-session invariants (see `babelftp_session::testing::fuzz_session`)
//! over random inputs, on the stable toolchain: no panic, one final reply
//! per command in order, a 1xx always followed by a final reply, at most
//! one transfer and one operation at a time, no path outside the root, no
//! commit after the client is gone or ABOR, nothing emitted after close,
//! nothing outstanding at the end. `cargo fuzz run session` explores the
//! same function with coverage guidance.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn every_session_keeps_its_invariants(data in proptest::collection::vec(any::<u8>(), 0..400)) {
        babelftp_session::testing::fuzz_session(&data);
    }
}

/// Inputs the fuzzer found worth keeping (fuzz/regressions/session).
#[test]
fn fuzz_regressions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/session");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = e.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        babelftp_session::testing::fuzz_session(&data);
        n += 1;
    }
    assert!(n > 0, "no regression inputs in {}", dir.display());
}
