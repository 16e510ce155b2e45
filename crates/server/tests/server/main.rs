//! The server's integration tests, in one test binary: each module is one
//! topic (they were once a binary each, every one of them linking the
//! whole stack). Run one topic with
//! `cargo test -p babelftp-server --test server -- lifecycle::`.
//!
//! Each test starts its own server on a thread of this process
//! (`common::start`: its own tokio runtime, its own temporary root, ports
//! the kernel chose; `hardening` finds a free passive range below the
//! kernel's ephemeral ports, where no other test's connection lands) and
//! drives it with real clients in child processes; none changes this
//! process's environment, current directory or limits, so they may run
//! side by side.

mod common;

mod charsets;
mod clients;
mod events_outbox;
mod ftps;
mod hardening;
mod lang;
mod lifecycle;
mod listings;
mod proxy;
mod uploads;
