//! What the client tests share.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

/// Runs the `babelftp` binary with its state in `state` and the C locale
/// (English messages, whatever the machine's); returns (success, stdout,
/// stderr).
pub fn babelftp(state: &Path, args: &[&str]) -> (bool, String, String) {
    let (code, out, err) = babelftp_code(state, args);
    (code == 0, out, err)
}

/// [`babelftp`] with the exit code (-1 when a signal ended it).
pub fn babelftp_code(state: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(args)
        .env("XDG_STATE_HOME", state)
        .env("LC_ALL", "C")
        .env_remove("LANG")
        .env_remove("LC_MESSAGES")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
