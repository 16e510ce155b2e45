//! The accounts store's integration tests, in one test binary: on SQLite
//! in a temporary directory, and on a real PostgreSQL (a cluster of its
//! own per test); the event outbox checks run on both. Run one with
//! `cargo test -p babelftp-accounts --test store -- postgres::`.

mod outbox;
mod postgres;
mod shares;
mod sqlite;
