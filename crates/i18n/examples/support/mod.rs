//! What the tuning examples share (not an example itself: Cargo takes
//! only `examples/*.rs` and `examples/*/main.rs`). Each example takes
//! what it needs of it, so the rest is dead code there.
#![allow(dead_code)]
use babelftp_i18n::detect::{decide_listing, Context, Decision, Evidence};

/// `names` decided as one listing on a first visit to a server: no
/// charset configured, no history; `feat_utf8` as if the server announced
/// UTF8 in FEAT.
pub fn first_visit(names: &[&[u8]], feat_utf8: bool) -> Vec<Decision> {
    let evidence = Evidence::default();
    let cx = Context {
        explicit: None,
        feat_utf8,
        evidence: &evidence,
    };
    decide_listing(names, &cx)
}

/// A name of `len` high bytes (0x80-0xFF) from a fixed linear
/// congruential draw: `state` carries it from name to name, so a run
/// with the same seed draws the same names.
pub fn random_high(state: &mut u64, len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| {
            *state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            0x80 | (*state >> 57) as u8
        })
        .collect()
}
