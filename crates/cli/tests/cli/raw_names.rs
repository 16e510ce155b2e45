//! The `babelftp` client commands against a real babelftp server whose
//! disk holds raw Shift_JIS and CP1251 names (mirror mode: the server
//! announces UTF8 but sends the bytes as they are, as vsftpd does).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use common::babelftp;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::process::Command;
use std::time::Duration;

use babelftp_test_support::TestServer;

/// Our server in mirror mode (the names go out as the bytes on disk) over
/// `sjis/` and `cyr/`, three raw Shift_JIS and three raw CP1251 names.
fn start() -> TestServer {
    let srv = babelftp_test_support::start(|c| {
        c.login_fail_delay = Duration::from_millis(10);
        c.mirror = true;
    });
    let root = srv.root.path();
    std::fs::create_dir(root.join("sjis")).unwrap();
    std::fs::create_dir(root.join("cyr")).unwrap();
    for (name, body) in [
        (
            &b"\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x74\x83\x40\x83\x43\x83\x8b.txt"[..],
            &b"nihongo"[..],
        ), // 日本語のファイル.txt
        (b"\x95\xf1\x8d\x90\x8f\x91.doc", b"report"), // 報告書.doc
        (b"\x8e\xca\x90\x5e\x83\x74\x83\x48\x83\x8b\x83\x5f", b"photos"), // 写真フォルダ
    ] {
        std::fs::write(root.join("sjis").join(OsStr::from_bytes(name)), body).unwrap();
    }
    for (name, body) in [
        (&b"\xce\xf2\xf7\xb8\xf2 \xe7\xe0 \xe3\xee\xe4.doc"[..], &b"otchet"[..]), // Отчёт за год.doc
        (b"\xcd\xee\xe2\xe0\xff \xef\xe0\xef\xea\xe0", b"papka"),                 // Новая папка
        (b"\xd1\xef\xe8\xf1\xee\xea \xe4\xe5\xeb.txt", b"spisok"),                // Список дел.txt
    ] {
        std::fs::write(root.join("cyr").join(OsStr::from_bytes(name)), body).unwrap();
    }
    srv
}

#[test]
fn detects_legacy_charsets_shows_unicode_downloads_by_name_and_remembers() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let base = format!("ftp://bob:secret@127.0.0.1:{}", srv.port());
    let (ok, out, err) = babelftp(state.path(), &["ls", "-v", &format!("{base}/sjis/")]);
    assert!(ok, "{err}");
    assert_eq!(out, "写真フォルダ\n日本語のファイル.txt\n報告書.doc\n", "{err}");
    assert!(err.contains("> FEAT") && err.contains("> OPTS UTF8 ON"), "{err}");
    assert!(err.contains("* charset: Shift_JIS (guessed from 3 names)"), "{err}");
    // Remembered: the next run knows the charset before listing.
    let remembered = std::fs::read_to_string(state.path().join("babelftp/charsets")).unwrap();
    assert_eq!(
        remembered,
        format!("127.0.0.1:{} ev1 utf8=0 raw=0 Shift_JIS=3\n", srv.port())
    );
    let dest = tempfile::tempdir().unwrap();
    let (ok, _, err) = babelftp(
        state.path(),
        &[
            "get",
            "-q",
            &format!("{base}/sjis/日本語のファイル.txt"),
            dest.path().to_str().unwrap(),
        ],
    );
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read(dest.path().join("日本語のファイル.txt")).unwrap(),
        b"nihongo"
    );
    // The same by %HH URL.
    let (ok, _, err) = babelftp(
        state.path(),
        &[
            "get",
            "-q",
            &format!("{base}/sjis/%E5%A0%B1%E5%91%8A%E6%9B%B8.doc"),
            dest.path().to_str().unwrap(),
        ],
    );
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(dest.path().join("報告書.doc")).unwrap(), b"report");
    // --raw prints the bytes as they came.
    let out = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(["ls", "--raw", &format!("{base}/sjis/")])
        .env("XDG_STATE_HOME", state.path())
        .output()
        .unwrap();
    assert!(out.stdout.starts_with(b"\x8e\xca\x90\x5e"), "{:?}", out.stdout);
    // --forget, then an explicit charset.
    let (ok, out, err) = babelftp(
        state.path(),
        &["ls", "--forget", "--charset", "windows-1251", &format!("{base}/cyr/")],
    );
    assert!(ok, "{err}");
    assert_eq!(out, "Новая папка\nОтчёт за год.doc\nСписок дел.txt\n");
    assert_eq!(
        std::fs::read_to_string(state.path().join("babelftp/charsets")).unwrap(),
        ""
    );
    // Auto-detection of CP1251 from the listing, then a download by name.
    let (ok, out, err) = babelftp(state.path(), &["ls", &format!("{base}/cyr/")]);
    assert!(ok, "{err}");
    assert_eq!(out, "Новая папка\nОтчёт за год.doc\nСписок дел.txt\n");
    let (ok, _, err) = babelftp(
        state.path(),
        &[
            "get",
            "-q",
            &format!("{base}/cyr/Список%20дел.txt"),
            dest.path().to_str().unwrap(),
        ],
    );
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(dest.path().join("Список дел.txt")).unwrap(), b"spisok");
}

#[test]
fn put_mkdir_mv_rm_and_resume() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let base = format!("ftp://bob:secret@127.0.0.1:{}", srv.port());
    let local = tempfile::tempdir().unwrap();
    let src = local.path().join("データ.bin");
    let data: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&src, &data).unwrap();
    let run = |args: &[&str]| {
        let (ok, out, err) = babelftp(state.path(), args);
        assert!(ok, "{args:?}: {err}");
        out
    };
    run(&["mkdir", &format!("{base}/新しい")]);
    run(&["put", "-q", src.to_str().unwrap(), &format!("{base}/新しい/")]);
    assert_eq!(std::fs::read(srv.root.path().join("新しい/データ.bin")).unwrap(), data);
    // Resume an upload the server has half of.
    std::fs::write(srv.root.path().join("新しい/half.bin"), &data[..100_000]).unwrap();
    run(&[
        "put",
        "-q",
        "-c",
        src.to_str().unwrap(),
        &format!("{base}/新しい/half.bin"),
    ]);
    assert_eq!(std::fs::read(srv.root.path().join("新しい/half.bin")).unwrap(), data);
    // Resume a download we have half of; active mode this time.
    let partial = local.path().join("partial.bin");
    std::fs::write(&partial, &data[..123_456]).unwrap();
    run(&[
        "get",
        "-q",
        "-c",
        "--active",
        &format!("{base}/新しい/データ.bin"),
        partial.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&partial).unwrap(), data);
    run(&["mv", &format!("{base}/新しい/データ.bin"), "/新しい/renamed.bin"]);
    assert!(srv.root.path().join("新しい/renamed.bin").is_file());
    run(&["rm", &format!("{base}/新しい/renamed.bin")]);
    run(&["rm", &format!("{base}/新しい/half.bin")]);
    run(&["rm", &format!("{base}/新しい/")]);
    assert!(!srv.root.path().join("新しい").exists());
    // A refused command exits non-zero with the server's reply, the
    // surrounding words in the user's language.
    let (ok, _, err) = babelftp(state.path(), &["rm", &format!("{base}/nothing-here")]);
    assert!(!ok);
    assert!(err.contains("server refused: 550 "), "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(["rm", &format!("{base}/nothing-here")])
        .env("XDG_STATE_HOME", state.path())
        .env("LC_ALL", "fr_FR.UTF-8")
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("refus du serveur : 550 "), "{err}");
    // Text mode both ways: LF locally, CR LF on the wire.
    std::fs::write(local.path().join("notes.txt"), b"one\ntwo\n").unwrap();
    run(&[
        "put",
        "-q",
        "-a",
        local.path().join("notes.txt").to_str().unwrap(),
        &format!("{base}/notes.txt"),
    ]);
    assert_eq!(std::fs::read(srv.root.path().join("notes.txt")).unwrap(), b"one\ntwo\n");
    let back = local.path().join("back.txt");
    run(&[
        "get",
        "-q",
        "--ascii",
        &format!("{base}/notes.txt"),
        back.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&back).unwrap(), b"one\ntwo\n");
}

#[test]
fn lang_is_negotiated_from_the_option_or_the_locale() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let url = format!("ftp://127.0.0.1:{}/", srv.port());
    let (ok, _, err) = babelftp(state.path(), &["ls", "-v", "--lang", "fr-CA", &url]);
    assert!(ok, "{err}");
    assert!(
        err.contains("> LANG fr") && err.contains("* language: asked fr-CA, server serves fr"),
        "{err}"
    );
    // HOST goes before LANG, so the language holds for the login replies.
    assert!(err.find("> HOST").unwrap() < err.find("> LANG").unwrap(), "{err}");
    let cats = babelftp_i18n::lang::Catalogs::builtin().unwrap();
    let fr = cats.tags().position(|t| t == "fr").unwrap();
    assert!(
        err.contains(&format!("< 230 {}", cats.text(fr, "logged-in-anonymous", &[]))),
        "{err}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(["ls", "-v", &url])
        .env("XDG_STATE_HOME", state.path())
        .env("LC_ALL", "pt_BR.UTF-8")
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("> LANG pt-BR"), "{err}");
}

#[test]
fn mirror_both_ways_new_and_changed_only_with_delete_and_nfc() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let base = format!("ftp://bob:secret@127.0.0.1:{}", srv.port());
    let local = tempfile::tempdir().unwrap();
    let down = local.path().join("down");
    // Down: the Shift_JIS tree arrives under Unicode names.
    let (ok, _, err) = babelftp(
        state.path(),
        &["mirror", &format!("{base}/sjis/"), down.to_str().unwrap()],
    );
    assert!(ok, "{err}");
    assert!(err.contains("3 copied"), "{err}");
    assert_eq!(std::fs::read(down.join("日本語のファイル.txt")).unwrap(), b"nihongo");
    assert_eq!(std::fs::read(down.join("写真フォルダ")).unwrap(), b"photos");
    // Again: nothing to do.
    let (ok, _, err) = babelftp(
        state.path(),
        &["mirror", &format!("{base}/sjis/"), down.to_str().unwrap()],
    );
    assert!(ok, "{err}");
    assert!(err.contains("0 copied") && err.contains("3 unchanged"), "{err}");
    // A local extra file goes with --delete.
    std::fs::write(down.join("extra.txt"), b"x").unwrap();
    let (ok, _, err) = babelftp(
        state.path(),
        &["mirror", "--delete", &format!("{base}/sjis/"), down.to_str().unwrap()],
    );
    assert!(ok, "{err}");
    assert!(err.contains("1 deleted") && !down.join("extra.txt").exists(), "{err}");

    // Up: a macOS-style NFD name whose NFC twin the server already has is
    // the same file, not a re-upload.
    let up = local.path().join("up");
    std::fs::create_dir_all(up.join("sub")).unwrap();
    let nfd = "Cafe\u{301}.txt";
    std::fs::write(up.join(nfd), b"same").unwrap();
    std::fs::write(up.join("sub/новый.txt"), b"new").unwrap();
    std::fs::create_dir(srv.root.path().join("site")).unwrap();
    std::fs::write(srv.root.path().join("site/Café.txt"), b"same").unwrap();
    std::fs::write(srv.root.path().join("site/stale.txt"), b"old").unwrap();
    // The server's copy has the same size and time (the server keeps the
    // times mirror -R sets, so the same time is the same file).
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for p in [up.join(nfd), srv.root.path().join("site/Café.txt")] {
        std::fs::File::options()
            .write(true)
            .open(p)
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    let (ok, _, err) = babelftp(
        state.path(),
        &[
            "mirror",
            "-R",
            "--delete",
            up.to_str().unwrap(),
            &format!("{base}/site/"),
        ],
    );
    assert!(ok, "{err}");
    assert!(
        err.contains("1 copied") && err.contains("1 unchanged") && err.contains("1 deleted"),
        "{err}"
    );
    let mut names: Vec<_> = std::fs::read_dir(srv.root.path().join("site"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["Café.txt", "sub"]);
    assert_eq!(
        std::fs::read(srv.root.path().join("site/sub/новый.txt")).unwrap(),
        b"new"
    );
}

#[test]
fn check_reports_our_server_fully_compliant() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let (ok, out, err) = babelftp(
        state.path(),
        &["check", &format!("ftp://bob:secret@127.0.0.1:{}/", srv.port())],
    );
    assert!(ok, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 13, "{out}");
    assert!(lines[..12].iter().all(|l| l.starts_with("PASS ")), "{out}");
    assert_eq!(lines[12], "12 passed, 0 failed, 0 skipped");
    if let Some(dir) = std::env::var_os("BABELFTP_REPORTS_DIR") {
        let text = format!("# babelftp check against babelftp serve (this repository, read/write user)\n\n{out}");
        std::fs::write(std::path::PathBuf::from(dir).join("check-babelftp.txt"), text).unwrap();
    }
    // Anonymous may not write: the write checks are skipped, not failed.
    let (ok, out, _) = babelftp(state.path(), &["check", &format!("ftp://127.0.0.1:{}/", srv.port())]);
    assert!(ok, "{out}");
    assert!(out.ends_with("9 passed, 0 failed, 3 skipped\n"), "{out}");
    assert!(out.contains("SKIP one-sp"), "{out}");
}

#[test]
fn shell_runs_commands_from_its_input() {
    use std::io::Write;
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("up one.txt"), b"one").unwrap();
    std::fs::write(work.path().join("up two.txt"), b"two").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(["shell", &format!("ftp://bob:secret@127.0.0.1:{}/", srv.port())])
        .current_dir(work.path())
        .env("XDG_STATE_HOME", state.path())
        .env("LC_ALL", "C")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            "pwd\ncd sjis\nls\nget 報告書.doc\nmget *.txt\ncd /\nmkdir-nope\nmput up*\nls\nlang ja\nquote NOOP\nfeat\nbye\n"
                .as_bytes(),
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    // `mkdir-nope` failed: the rest ran, and the piped shell exits 1.
    assert!(!out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("\n/sjis\n") || stdout.starts_with("/\n"), "{stdout}");
    assert!(
        stdout.contains("写真フォルダ\n日本語のファイル.txt\n報告書.doc\n"),
        "{stdout}"
    );
    assert_eq!(std::fs::read(work.path().join("報告書.doc")).unwrap(), b"report");
    assert_eq!(
        std::fs::read(work.path().join("日本語のファイル.txt")).unwrap(),
        b"nihongo"
    );
    assert!(stderr.contains("unknown command \"mkdir-nope\""), "{stderr}");
    assert_eq!(std::fs::read(srv.root.path().join("up one.txt")).unwrap(), b"one");
    assert_eq!(std::fs::read(srv.root.path().join("up two.txt")).unwrap(), b"two");
    assert!(stdout.contains("200 "), "{stdout}");
    assert!(stdout.contains(" UTF8\n"), "{stdout}");
}

#[test]
fn credentials_from_netrc() {
    let srv = start();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join(".netrc"),
        "machine example.org login nobody password x\nmachine 127.0.0.1 login bob password secret\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(["mkdir", &format!("ftp://127.0.0.1:{}/from-netrc", srv.port())])
        .env("HOME", home.path())
        .env("XDG_STATE_HOME", home.path())
        .env("LC_ALL", "C")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Anonymous could not have made it: the login came from ~/.netrc.
    assert!(srv.root.path().join("from-netrc").is_dir());
}
