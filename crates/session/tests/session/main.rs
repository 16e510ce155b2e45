//! The session's integration tests, in one test binary: whole sessions
//! through the sans-IO harness (no sockets, time simulated), one module
//! per topic. Run one topic with
//! `cargo test -p babelftp-session --test session -- transcripts::`.

mod ftps;
mod policy;
mod properties;
mod transcripts;
