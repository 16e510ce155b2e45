//! What the tuning examples share (not an example itself: Cargo takes
//! only `examples/*.rs` and `examples/*/main.rs`).
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
