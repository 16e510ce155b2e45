//! Issue 13, CLI items 4, 10 (part) and 11, and issue 25.12: `mv`
//! resolves the new name as its help says and never sends a URL (or its
//! password) in RNTO, no password in any output, `ls -l` times as `ls`
//! writes them, `check` survives a server that drops the connection, and a
//! `get` ended by a signal or a kill leaves no part file behind. Real
//! binary, real servers (ours and `scripted_ftp.py`), real sockets.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use babelftp_test_support::TestServer;

use crate::common;
use crate::common::scripted::Scripted;

fn start() -> TestServer {
    babelftp_test_support::start(|c| {
        c.login_fail_delay = Duration::from_millis(10);
    })
}

/// Runs the binary: (exit code, stdout, stderr).
fn babelftp(state: &Path, args: &[&str]) -> (i32, String, String) {
    common::babelftp_code(state, args)
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
    // A directory named with its trailing /: renamed in its own directory.
    let (code, _, err) = babelftp(state.path(), &["mv", &format!("{base}/dir/sub/"), "renamed"]);
    assert_eq!(code, 0, "{err}");
    assert!(root.join("dir/renamed").is_dir(), "{err}");
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

// ---- item 10 (part): ls -l times, passwords ----

#[test]
fn ls_long_shows_times_as_ls_does() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let root = srv.root.path();
    let now = std::time::SystemTime::now();
    let yesterday = now - Duration::from_secs(86_400);
    let f = std::fs::File::create(root.join("recent.txt")).unwrap();
    f.set_modified(yesterday).unwrap();
    let f = std::fs::File::create(root.join("old.txt")).unwrap();
    // 2020-01-05 12:34:00 UTC.
    f.set_modified(std::time::UNIX_EPOCH + Duration::from_secs(1_578_227_640))
        .unwrap();
    let (code, out, err) = babelftp(state.path(), &["ls", "-l", &format!("ftp://127.0.0.1:{}/", srv.port())]);
    assert_eq!(code, 0, "{err}");
    let secs = yesterday.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let c = babelftp_proto::listing::Civil::from_unix(secs);
    let month = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ][c.month as usize - 1];
    let recent = format!("{month} {:>2} {:02}:{:02} recent.txt", c.day, c.hour, c.minute);
    assert!(out.lines().any(|l| l.ends_with(&recent)), "{recent:?} in\n{out}");
    assert!(out.lines().any(|l| l.ends_with("Jan  5  2020 old.txt")), "{out}");
}

#[test]
fn no_password_in_errors_or_the_dialogue() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    // A URL that does not parse is echoed without its password.
    for bad in [
        "ftp://bob:hunter2@127.0.0.1:notaport/",
        "ftp://bob:hun/ter2@127.0.0.1/",
        "ftp://bob:hun%zter2@127.0.0.1/",
    ] {
        let (code, _, err) = babelftp(state.path(), &["ls", bad]);
        assert_ne!(code, 0);
        assert!(err.contains("bad URL ftp://bob:****@"), "{err}");
        assert!(!err.contains("hunter2") && !err.contains("hun"), "{err}");
    }
    // Nothing listening.
    let (code, _, err) = babelftp(state.path(), &["ls", "-v", "ftp://bob:hunter2@127.0.0.1:1/"]);
    assert_ne!(code, 0);
    assert!(!err.contains("hunter2"), "{err}");
    // The dialogue, a good and a refused login, from the URL and from -u.
    let url = format!("ftp://bob:secret@127.0.0.1:{}/", srv.port());
    let (code, _, err) = babelftp(state.path(), &["ls", "-v", &url]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("> PASS ****"), "{err}");
    assert!(!err.contains("secret"), "{err}");
    let url = format!("ftp://127.0.0.1:{}/", srv.port());
    let (code, _, err) = babelftp(state.path(), &["ls", "-v", "-u", "bob:hunter2", &url]);
    assert_ne!(code, 0);
    assert!(err.contains("> PASS ****") && err.contains("530"), "{err}");
    assert!(!err.contains("hunter2"), "{err}");
}
// ---- item 11: check against a server that drops the connection ----

#[test]
fn check_reports_a_dropped_connection_goes_on_and_cleans_up() {
    let remote = tempfile::tempdir().unwrap();
    // Closes the connection on a CR NUL in a command, as pyftpdlib does on
    // `MKD a<CR>b`.
    let srv = Scripted::start(remote.path(), &["--close-on", "0d00"]);
    let state = tempfile::tempdir().unwrap();
    let (code, out, err) = babelftp(state.path(), &["check", &format!("ftp://u:pw@127.0.0.1:{}/", srv.port)]);
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 13, "{out}{err}");
    let cr_nul = lines.iter().find(|l| l.starts_with("FAIL cr-nul ")).expect(&out);
    assert!(cr_nul.contains("the server dropped the connection"), "{out}");
    // The checks after the drop ran, over a new connection.
    assert!(out.contains("PASS utf8-roundtrip "), "{out}{err}");
    assert!(err.contains("the connection was lost; connecting again"), "{err}");
    assert_eq!(lines[12], "5 passed, 2 failed, 5 skipped", "{out}");
    // Nothing left behind on the server.
    let left: Vec<_> = std::fs::read_dir(remote.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}\n{out}{err}");
}

/// Issue 25.12: SIGTERM or SIGHUP during `get` cleans up as Ctrl-C does (the
/// `.NAME.babelftp-PID.part` stayed, 570 MB in the trial), and a part left
/// by a process that was killed outright is removed by the next `get` of
/// the same file.
#[test]
fn get_ended_by_a_signal_or_a_kill_leaves_no_part_file() {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("big.bin"), vec![7u8; 1 << 20]).unwrap();
    let srv = Scripted::start(root.path(), &["--stall", "big.bin:65536"]);
    let dest = tempfile::tempdir().unwrap();
    let url = format!("ftp://127.0.0.1:{}/big.bin", srv.port);
    let part_files = |d: &Path| -> Vec<String> {
        std::fs::read_dir(d)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".part"))
            .collect()
    };
    for sig in ["TERM", "HUP", "KILL"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_babelftp"))
            .args(["get", "-q", &url, dest.path().to_str().unwrap()])
            .env("LC_ALL", "C")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // The part file, holding the 65,536 octets sent before the stall:
        // the get is in the middle of its transfer.
        babelftp_test_support::wait_until(Duration::from_secs(20), "the part file up to the stall", || {
            let part = part_files(dest.path()).pop()?;
            let len = std::fs::metadata(dest.path().join(part)).ok()?.len();
            (len >= 65_536).then_some(())
        });
        assert!(babelftp_test_support::signal(child.id(), sig));
        let status = babelftp_test_support::wait_child(&mut child, Duration::from_secs(10)).expect("get ended");
        assert!(!status.success(), "{sig}");
        if sig == "KILL" {
            // Nothing ran to clean up: the next get of the file does.
            assert_eq!(part_files(dest.path()).len(), 1, "{sig}");
        } else {
            assert!(
                part_files(dest.path()).is_empty(),
                "{sig}: {:?}",
                part_files(dest.path())
            );
        }
    }
    // The next get (cut short by a signal too) removes the killed one's.
    let mut child = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(["get", "-q", &url, dest.path().to_str().unwrap()])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mine = format!(".big.bin.babelftp-{}.part", child.id());
    babelftp_test_support::wait_until(Duration::from_secs(20), "only the new part file", || {
        (part_files(dest.path()) == vec![mine.clone()]).then_some(())
    });
    assert!(babelftp_test_support::signal(child.id(), "TERM"));
    babelftp_test_support::wait_child(&mut child, Duration::from_secs(10)).expect("get ended");
    assert!(part_files(dest.path()).is_empty());
    assert!(!dest.path().join("big.bin").exists());
}
