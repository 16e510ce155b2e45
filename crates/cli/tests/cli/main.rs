//! The integration tests of the `babelftp` binary, in one test binary:
//! each module is one topic (they were once a binary each, every one of
//! them linking the whole stack). Run one topic with
//! `cargo test -p babelftp --test cli -- web_view::`.
//!
//! Every test starts what it talks to on its own (a `babelftp serve`
//! child, a server on a thread of this process over its own temporary
//! root, a peer server, moto, slapd, PostgreSQL) on a port the kernel
//! chose, with its own temporary directories; none changes this process's
//! environment, current directory or limits (children get theirs through
//! `Command`), so they may run side by side.

mod common;

// The client (`babelftp ls|get|put|mv|mirror|check|shell`).
mod client_commands;
mod ftps;
mod interactive;
mod legacy_names;
mod mirror;
mod peers;
mod raw_names;
mod terminal;
mod transfers;
mod url_and_passwd;

// The server (`babelftp serve`) and its doors.
mod admin_api;
mod defender;
mod doors_rules_quota;
mod events;
mod http_limits;
mod limits_quota;
mod limits_rate;
mod passive_nat;
mod s3;
mod security;
mod serve_operate;
mod serve_ops;
mod serve_startup;
mod server_correctness;
mod shares;
mod web_a11y;
mod web_browser;
mod web_preview;
mod web_upload;
mod web_view;
mod web_zip;

// Accounts (`babelftp user|group`, the store, LDAP and the auth hook).
mod accounts_cli;
mod accounts_external;
mod accounts_serve;
