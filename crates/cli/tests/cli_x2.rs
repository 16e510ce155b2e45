//! Issue 13, CLI items 3, 4, 10 (part) and 11: `mirror` goes on after a
//! failure and resumes, `mv` resolves the new name as its help says and
//! never sends a URL (or its password) in RNTO, no password in any output,
//! `ls -l` times as `ls` writes them, and `check` survives a server that
//! drops the connection. Real binary, real servers, real sockets.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use babelftp_test_support::TestServer;

fn start() -> TestServer {
    babelftp_test_support::start(|c| {
        c.login_fail_delay = Duration::from_millis(10);
    })
}

/// Runs the binary: (exit code, stdout, stderr).
fn babelftp(state: &Path, args: &[&str]) -> (i32, String, String) {
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

// ---- item 4: mv ----

#[test]
fn mv_relative_new_name_is_in_the_old_ones_directory() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let root = srv.root.path();
    std::fs::create_dir_all(root.join("dir/sub")).unwrap();
    std::fs::write(root.join("dir/a.txt"), b"a").unwrap();
    let base = format!("ftp://bob:secret@127.0.0.1:{}", srv.port());
    let (code, _, err) = babelftp(state.path(), &["mv", &format!("{base}/dir/a.txt"), "b.txt"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(root.join("dir/b.txt")).unwrap(), b"a");
    assert!(!root.join("b.txt").exists(), "resolved against the root");
    // A relative path with a directory in it, and one ending in / (into it).
    let (code, _, err) = babelftp(state.path(), &["mv", &format!("{base}/dir/b.txt"), "sub/c.txt"]);
    assert_eq!(code, 0, "{err}");
    assert!(root.join("dir/sub/c.txt").is_file());
    let (code, _, err) = babelftp(state.path(), &["mv", &format!("{base}/dir/sub/c.txt"), "../"]);
    assert_eq!(code, 0, "{err}");
    assert!(root.join("dir/c.txt").is_file());
    // An absolute one is absolute.
    let (code, _, err) = babelftp(state.path(), &["mv", &format!("{base}/dir/c.txt"), "/top.txt"]);
    assert_eq!(code, 0, "{err}");
    assert!(root.join("top.txt").is_file());
}

#[test]
fn mv_to_a_url_takes_its_path_and_never_sends_the_password() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let root = srv.root.path();
    std::fs::create_dir_all(root.join("dir")).unwrap();
    std::fs::write(root.join("dir/a.txt"), b"a").unwrap();
    let base = format!("ftp://bob:secret@127.0.0.1:{}", srv.port());
    let (code, _, err) = babelftp(
        state.path(),
        &[
            "mv",
            "-v",
            &format!("{base}/dir/a.txt"),
            &format!("{base}/dir/renamed.txt"),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(root.join("dir/renamed.txt").is_file(), "{err}");
    assert!(err.contains("> RNTO dir/renamed.txt"), "{err}");
    assert!(!err.contains("secret"), "{err}");
    // Another server: refused before anything is sent, the password hidden.
    let other = format!("ftp://bob:secret@127.0.0.1:{}/dir/x.txt", srv.port() ^ 1);
    let (code, _, err) = babelftp(state.path(), &["mv", &format!("{base}/dir/renamed.txt"), &other]);
    assert_ne!(code, 0);
    assert!(err.contains("is not on the server of"), "{err}");
    assert!(err.contains("ftp://bob:****@127.0.0.1"), "{err}");
    assert!(!err.contains("secret"), "{err}");
    assert!(root.join("dir/renamed.txt").is_file());
}
