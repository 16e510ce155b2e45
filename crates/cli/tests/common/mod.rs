//! What the client tests share.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

/// Runs the `babelftp` binary with its state in `state` and the C locale
/// (English messages, whatever the machine's); returns (success, stdout,
/// stderr).
pub fn babelftp(state: &Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(args)
        .env("XDG_STATE_HOME", state)
        .env("LC_ALL", "C")
        .env_remove("LANG")
        .env_remove("LC_MESSAGES")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
