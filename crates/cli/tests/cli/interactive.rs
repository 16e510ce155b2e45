//! The `babelftp` client as a new user tries it (issue 13): what a pipe
//! receives, what a terminal receives.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use common::babelftp;

use std::process::Command;
use std::time::Duration;

/// Item 5: a right-to-left name piped into another program is the name,
/// without U+2068/U+2069 around it (those are for a terminal only).
#[test]
fn ls_into_a_pipe_prints_rtl_names_without_isolates() {
    let srv = babelftp_test_support::start(|c| {
        c.login_fail_delay = Duration::from_millis(10);
    });
    std::fs::write(srv.root.path().join("שלום.txt"), b"x").unwrap();
    let state = tempfile::tempdir().unwrap();
    let url = format!("ftp://bob:secret@127.0.0.1:{}/", srv.port());
    let (ok, out, err) = babelftp(state.path(), &["ls", &url]);
    assert!(ok, "{err}");
    assert!(out.lines().any(|l| l == "שלום.txt"), "{out:?} {err}");
    assert!(!out.contains(['\u{2068}', '\u{2069}']), "{out:?}");
}

/// Item 10: `-v` shows the dialogue with names as text and never a
/// password, also for a line typed with `quote`.
#[test]
fn verbose_dialogue_shows_names_as_text_and_hides_passwords() {
    use std::io::Write;
    let srv = babelftp_test_support::start(|c| {
        c.login_fail_delay = Duration::from_millis(10);
    });
    let state = tempfile::tempdir().unwrap();
    let url = format!("ftp://bob:secret@127.0.0.1:{}/", srv.port());
    let mut child = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(["shell", "-v", &url])
        .env("XDG_STATE_HOME", state.path())
        .env("LC_ALL", "C")
        .env_remove("LANG")
        .env_remove("LC_MESSAGES")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all("quote MKD 日本\nquote PASS hunter2\nbye\n".as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(all.contains("> MKD 日本"), "{all}");
    assert!(all.contains("> PASS ****"), "{all}");
    assert!(!all.contains("secret") && !all.contains("hunter2"), "{all}");
}

/// Runs `babelftp shell URL` with `input` piped into it.
fn piped_shell(state: &std::path::Path, url: &str, input: &str) -> (bool, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(["shell", url])
        .env("XDG_STATE_HOME", state)
        .env("LC_ALL", "C")
        .env_remove("LANG")
        .env_remove("LC_MESSAGES")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Item 8: a piped shell script whose command failed exits non-zero (as
/// `lftp -c` and `sftp -b` do), after running the rest; one that went well
/// exits 0; neither writes a history file (only a person at a terminal
/// has a history).
#[test]
fn piped_shell_fails_when_a_command_failed_and_keeps_no_history() {
    let srv = babelftp_test_support::start(|c| {
        c.login_fail_delay = Duration::from_millis(10);
    });
    let state = tempfile::tempdir().unwrap();
    let url = format!("ftp://bob:secret@127.0.0.1:{}/", srv.port());
    let (ok, out, err) = piped_shell(state.path(), &url, "pwd\nbye\n");
    assert!(ok, "{out}{err}");
    let (ok, out, err) = piped_shell(state.path(), &url, "cd no-such-dir\npwd\nbye\n");
    assert!(!ok, "{out}{err}");
    assert!(out.contains('/'), "the commands after the failed one ran: {out}{err}");
    assert!(
        !state.path().join("babelftp/history").exists(),
        "a piped shell wrote a history file"
    );
}

/// Item 6: curl's `-u USER:PASSWORD` logs in as `--user` does.
#[test]
fn short_u_flag_logs_in_like_curl() {
    let srv = babelftp_test_support::start(|c| {
        c.login_fail_delay = Duration::from_millis(10);
    });
    let state = tempfile::tempdir().unwrap();
    let url = format!("ftp://127.0.0.1:{}/", srv.port());
    let (ok, out, err) = babelftp(state.path(), &["ls", "-u", "bob:secret", &url]);
    assert!(ok, "{err}");
    assert!(out.lines().any(|l| l == "readme.txt"), "{out}{err}");
}

/// Issue 25.11: the shell prints the server's localized replies as text,
/// as the one-shot commands do (it printed `\xe3\x81\x9d…`).
#[test]
fn the_shell_prints_localized_replies_as_text() {
    let srv = babelftp_test_support::start(|c| {
        c.login_fail_delay = Duration::from_millis(10);
    });
    let state = tempfile::tempdir().unwrap();
    let url = format!("ftp://bob:secret@127.0.0.1:{}/", srv.port());
    let dir = tempfile::tempdir().unwrap();
    let (ok, out, err) = piped_shell(
        state.path(),
        &url,
        &format!("lang ja\nlcd {}\nget nosuch\ncd nosuchdir\nbye\n", dir.path().display()),
    );
    assert!(!ok, "{out}{err}");
    assert!(!err.contains("\\x"), "escaped octets: {err}");
    assert!(
        err.contains("550 そのようなファイルまたはディレクトリはありません。"),
        "{err}"
    );
}

/// Issue 25.15: the shell's cd and rm errors name the path; `mput ../dir/*`
/// reads the directory before the pattern; `mput nomatch*` says so.
#[test]
fn shell_errors_name_the_path_and_mput_takes_a_directory() {
    let srv = babelftp_test_support::start(|c| {
        c.login_fail_delay = Duration::from_millis(10);
    });
    let state = tempfile::tempdir().unwrap();
    let url = format!("ftp://bob:secret@127.0.0.1:{}/", srv.port());
    let local = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(local.path().join("dir")).unwrap();
    std::fs::create_dir_all(local.path().join("here")).unwrap();
    std::fs::write(local.path().join("dir/x1.txt"), b"one").unwrap();
    let (ok, out, err) = piped_shell(
        state.path(),
        &url,
        &format!(
            "lcd {}\ncd nosuchdir\nrm nosuch.txt\nmput nomatch*\nmput ../dir/*.txt\nbye\n",
            local.path().join("here").display()
        ),
    );
    assert!(!ok, "{out}{err}");
    assert!(err.contains("nosuchdir: server refused: 550"), "{err}");
    assert!(err.contains("nosuch.txt: server refused: 550"), "{err}");
    assert!(err.contains("no local file matches nomatch*"), "{err}");
    assert_eq!(std::fs::read(srv.path("x1.txt")).unwrap(), b"one");
}
