//! The client against a server without FEAT UTF8 whose disk holds names in
//! several legacy charsets (issue 13, RFC 2640 A.1): each name is shown in
//! its own charset, a name no charset explains as `%HH` of the server's
//! bytes, `--charset` overrides everything, what is shown can be typed back,
//! and one listing does not change how the server's names read.
//!
//! The server is `legacy_ftpd.py`, a scripted FTP server run with python3
//! on a real socket that sends the names as the bytes on disk.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use common::babelftp;

use std::ffi::OsStr;
use std::io::BufRead;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};

struct Server {
    child: Child,
    port: u16,
    _root: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

fn put(root: &Path, dir: &str, name: &[u8], body: &[u8]) {
    let d = root.join(dir);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join(OsStr::from_bytes(name)), body).unwrap();
}

/// `mixed/`: Shift_JIS, CP1251, Latin-1, UTF-8, ASCII and two names no
/// charset explains; `gbk/`: GBK 通知 (CD A8 D6 AA, valid UTF-8 too);
/// `sjis/` and `cyr/`: three names each in one charset.
fn start() -> Server {
    let root = tempfile::tempdir().unwrap();
    let r = root.path();
    put(
        r,
        "mixed",
        b"\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x74\x83\x40\x83\x43\x83\x8b.txt", // 日本語のファイル.txt
        b"nihongo",
    );
    put(r, "mixed", b"\xce\xf2\xf7\xb8\xf2 \xe7\xe0 \xe3\xee\xe4.doc", b"otchet"); // Отчёт за год.doc
    put(r, "mixed", b"R\xe9sum\xe9 de la r\xe9union.txt", b"resume"); // Résumé de la réunion.txt (Latin-1)
    put(r, "mixed", "über.txt".as_bytes(), b"utf8");
    put(r, "mixed", b"readme.txt", b"ascii");
    put(r, "mixed", b"caf\xc3", b"truncated"); // UTF-8 cut inside its last character
    put(r, "mixed", b"x\xed\xa0\x80y", b"surrogate"); // a UTF-16 surrogate in UTF-8 form
    put(r, "gbk", b"\xcd\xa8\xd6\xaa.txt", b"tongzhi"); // 通知.txt in GBK
    put(r, "sjis", b"\x95\xf1\x8d\x90\x8f\x91.doc", b"report"); // 報告書.doc
    put(r, "sjis", b"\x8e\xca\x90\x5e\x83\x74\x83\x48\x83\x8b\x83\x5f", b""); // 写真フォルダ
    put(r, "sjis", b"\x93\xfa\x96\x7b\x8c\xea.txt", b"nihongo"); // 日本語.txt
    put(r, "cyr", b"\xcd\xee\xe2\xe0\xff \xef\xe0\xef\xea\xe0", b""); // Новая папка
    put(r, "cyr", b"\xd1\xef\xe8\xf1\xee\xea \xe4\xe5\xeb.txt", b"spisok"); // Список дел.txt
    put(r, "cyr", b"\xce\xf2\xf7\xb8\xf2.doc", b"otchet"); // Отчёт.doc
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/legacy_ftpd.py");
    let mut child = Command::new("python3")
        .arg(script)
        .arg(r)
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs the scripted server (scripts/test.sh installs it)");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line.trim().parse().unwrap();
    Server {
        child,
        port,
        _root: root,
    }
}

#[test]
fn a_mixed_directory_shows_each_name_in_its_own_charset_and_the_rest_as_hh() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let base = format!("ftp://127.0.0.1:{}", srv.port);
    let (ok, out, err) = babelftp(state.path(), &["ls", &format!("{base}/mixed/")]);
    assert!(ok, "{err}");
    let mut lines: Vec<&str> = out.lines().collect();
    lines.sort_unstable();
    assert_eq!(
        lines,
        [
            "Résumé de la réunion.txt",
            "caf%C3",
            "readme.txt",
            "x%ED%A0%80y",
            "über.txt",
            "Отчёт за год.doc",
            "日本語のファイル.txt",
        ],
        "{err}"
    );
    // Said once, in normal output, with how to pin it.
    assert_eq!(err.matches("by a guess").count(), 1, "{err}");
    assert!(err.contains("--charset"), "{err}");
    // -q says nothing.
    let (ok, _, err) = babelftp(state.path(), &["ls", "-q", &format!("{base}/mixed/")]);
    assert!(ok && err.is_empty(), "{err}");

    // Typed back as shown, the text and the %HH form reach the same files.
    let dest = tempfile::tempdir().unwrap();
    let d = dest.path().to_str().unwrap();
    for (typed, local, body) in [
        ("Отчёт за год.doc", "Отчёт за год.doc", &b"otchet"[..]),
        ("Résumé de la réunion.txt", "Résumé de la réunion.txt", b"resume"),
        ("日本語のファイル.txt", "日本語のファイル.txt", b"nihongo"),
    ] {
        let url = format!("{base}/mixed/{}", typed.replace(' ', "%20"));
        let (ok, _, err) = babelftp(state.path(), &["get", "-q", &url, d]);
        assert!(ok, "{typed}: {err}");
        assert_eq!(std::fs::read(dest.path().join(local)).unwrap(), body, "{typed}");
    }
    let (ok, _, err) = babelftp(
        state.path(),
        &[
            "get",
            "-q",
            &format!("{base}/mixed/x%ED%A0%80y"),
            &format!("{d}/surrogate"),
        ],
    );
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(dest.path().join("surrogate")).unwrap(), b"surrogate");
}

#[test]
fn an_explicit_charset_overrides_names_that_are_valid_utf8() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let base = format!("ftp://127.0.0.1:{}", srv.port);
    // CD A8 D6 AA is valid UTF-8 (two Greek/Armenian-range letters), so
    // detection shows it as UTF-8; --charset gbk shows the GBK text.
    let (ok, out, err) = babelftp(state.path(), &["ls", "--charset", "gbk", &format!("{base}/gbk/")]);
    assert!(ok, "{err}");
    assert_eq!(out, "通知.txt\n", "{err}");
    let dest = tempfile::tempdir().unwrap();
    let (ok, _, err) = babelftp(
        state.path(),
        &[
            "get",
            "-q",
            "--charset",
            "gbk",
            &format!("{base}/gbk/通知.txt"),
            dest.path().to_str().unwrap(),
        ],
    );
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(dest.path().join("通知.txt")).unwrap(), b"tongzhi");
}

#[test]
fn what_one_server_showed_is_remembered_and_one_listing_does_not_flip_it() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let base = format!("ftp://127.0.0.1:{}", srv.port);
    let sjis = format!("{base}/sjis/");
    let (ok, first, err) = babelftp(state.path(), &["ls", &sjis]);
    assert!(ok, "{err}");
    // In the server's order (its bytes, sorted).
    assert_eq!(first, "写真フォルダ\n日本語.txt\n報告書.doc\n", "{err}");
    let charsets = state.path().join("babelftp/charsets");
    let line = std::fs::read_to_string(&charsets).unwrap();
    assert!(
        line.starts_with(&format!("127.0.0.1:{} ev1 ", srv.port)) && line.contains("Shift_JIS=3"),
        "{line}"
    );
    // The server's likely charset now encodes a typed name: one SIZE, no
    // listing needed.
    let dest = tempfile::tempdir().unwrap();
    let (ok, _, err) = babelftp(
        state.path(),
        &["get", "-v", &format!("{sjis}報告書.doc"), dest.path().to_str().unwrap()],
    );
    assert!(ok, "{err}");
    assert!(!err.contains("> LIST"), "{err}");
    assert_eq!(std::fs::read(dest.path().join("報告書.doc")).unwrap(), b"report");
    // A directory in another charset is shown in its own...
    let (ok, out, err) = babelftp(state.path(), &["ls", &format!("{base}/cyr/")]);
    assert!(ok, "{err}");
    assert_eq!(out, "Новая папка\nОтчёт.doc\nСписок дел.txt\n", "{err}");
    // ...and the first one still reads as it did.
    let (ok, again, err) = babelftp(state.path(), &["ls", &sjis]);
    assert!(ok, "{err}");
    assert_eq!(again, first, "{err}");
    // --forget drops what was learned.
    let (ok, _, err) = babelftp(state.path(), &["ls", "--forget", "--charset", "utf-8", &sjis]);
    assert!(ok, "{err}");
    assert_eq!(std::fs::read_to_string(&charsets).unwrap(), "");
}

#[test]
fn an_older_state_file_with_a_charset_label_still_counts() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(state.path().join("babelftp")).unwrap();
    std::fs::write(
        state.path().join("babelftp/charsets"),
        format!("127.0.0.1:{} windows-1251\n", srv.port),
    )
    .unwrap();
    let dest = tempfile::tempdir().unwrap();
    // Encoded with the remembered charset straight away: no listing.
    let (ok, _, err) = babelftp(
        state.path(),
        &[
            "get",
            "-v",
            &format!("ftp://127.0.0.1:{}/cyr/Отчёт.doc", srv.port),
            dest.path().to_str().unwrap(),
        ],
    );
    assert!(ok, "{err}");
    assert!(!err.contains("> LIST"), "{err}");
    assert_eq!(std::fs::read(dest.path().join("Отчёт.doc")).unwrap(), b"otchet");
}

/// Issue 48.15: `put` into a folder whose names are CP1251 (a babelftp in
/// mirror mode serving the bytes on disk, no state remembered) writes the
/// new name in CP1251 and says so; into a folder of UTF-8 names, UTF-8; a
/// name CP1251 cannot write is refused (exit 2), naming the charset.
#[test]
fn put_writes_a_new_name_in_the_charset_of_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    put(&root, "cyr", b"\xcd\xee\xe2\xe0\xff \xef\xe0\xef\xea\xe0", b""); // Новая папка
    put(&root, "cyr", b"\xd1\xef\xe8\xf1\xee\xea \xe4\xe5\xeb.txt", b"spisok"); // Список дел.txt
    put(&root, "utf", "Список.txt".as_bytes(), b"utf8");
    let src = dir.path().join("Привет.txt");
    std::fs::write(&src, b"privet").unwrap();
    let jp = dir.path().join("日本語.txt");
    std::fs::write(&jp, b"nihongo").unwrap();
    let srv = common::serve::Serve::start(&root, &["--mirror", "--user", "bob:pw"]);
    let base = format!("ftp://bob:pw@{}", srv.addr);
    let state = tempfile::tempdir().unwrap();
    let (ok, _, err) = babelftp(state.path(), &["put", src.to_str().unwrap(), &format!("{base}/cyr/")]);
    assert!(ok, "{err}");
    assert!(err.contains("Привет.txt is sent in windows-1251"), "{err}");
    // Привет.txt in CP1251.
    let cp1251 = b"\xcf\xf0\xe8\xe2\xe5\xf2.txt";
    assert_eq!(
        std::fs::read(root.join("cyr").join(OsStr::from_bytes(cp1251))).unwrap(),
        b"privet"
    );
    assert!(!root.join("cyr/Привет.txt").exists());
    let (ok, _, err) = babelftp(state.path(), &["put", src.to_str().unwrap(), &format!("{base}/utf/")]);
    assert!(ok, "{err}");
    assert!(!err.contains("is sent in"), "{err}");
    assert_eq!(std::fs::read(root.join("utf/Привет.txt")).unwrap(), b"privet");
    let (code, _, err) = common::babelftp_code(state.path(), &["put", jp.to_str().unwrap(), &format!("{base}/cyr/")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("日本語.txt cannot be written in windows-1251"), "{err}");
}
