//! `babelftp user …` and `babelftp group …`: the accounts store (SQLite or
//! PostgreSQL, `babelftp_accounts`) from the command line.
//!
//! Every command takes `--db URL` (else `$BABELFTP_DB`, else
//! `sqlite:babelftp.db` in the working directory). `list` and `show` print
//! tab-separated lines that scripts can read (`cut -f2`), with fixed
//! English keys; confirmations and errors come from the catalogs. Exit
//! codes (exit.rs): 2 for a value that is wrong in itself (a name, a tag, a
//! charset, a path, permissions, a source), 1 for everything else (no such
//! user, already there, the store failing).
//!
//! A home or virtual folder outside the served tree (`file:///DIR`, `/DIR`
//! as a mount, `s3://…`) must lie under the server's `allowed_sources`
//! (issue 45): those of `--config FILE` (read as `serve` reads it: its
//! `allowed_sources`, else its root or S3 storage and its hosts'), else the
//! root `--root DIR`, else serve's default root `ftp-root` of the working
//! directory. Refused otherwise (exit 1), naming the allowed ones.

mod args;
mod group;
mod shared;
mod store;
mod user;

pub use args::{GroupArgs, UserArgs};
pub use group::group;
pub(crate) use shared::read_password;
pub(crate) use store::{explain, open};
pub use user::user;
