//! `babelftp url` and `babelftp passwd` as a user runs them, and the
//! CLI's messages in the user's locale.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Stdio};

fn babelftp() -> Command {
    Command::new(env!("CARGO_BIN_EXE_babelftp"))
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = babelftp().args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn url_encode_and_decode_masinter_draft() {
    let (ok, out, _) = run(&["url", "encode", "ftp://host/日本語.txt"]);
    assert!(ok);
    assert_eq!(out, "ftp://host/%E6%97%A5%E6%9C%AC%E8%AA%9E.txt\n");
    let (ok, out, _) = run(&["url", "decode", "ftp://host/%E6%97%A5%E6%9C%AC%E8%AA%9E.txt"]);
    assert!(ok);
    assert_eq!(out, "ftp://host/日本語.txt\n");
    let (ok, out, _) = run(&["url", "encode", "/pub/日本語"]);
    assert!(ok);
    assert_eq!(out, "/pub/%E6%97%A5%E6%9C%AC%E8%AA%9E\n");
    // A Shift_JIS escape is not UTF-8: it stays escaped.
    let (ok, out, _) = run(&["url", "decode", "ftp://h/%93%FA%96%7B"]);
    assert!(ok);
    assert_eq!(out, "ftp://h/%93%FA%96%7B\n");
}

/// `url encode` takes a URL as a person writes it; `url decode` gives it back.
fn encode_then_decode(written: &str, encoded: &str) {
    let (ok, out, err) = run(&["url", "encode", written]);
    assert!(ok, "{err}");
    assert_eq!(out, format!("{encoded}\n"));
    let (ok, out, err) = run(&["url", "decode", encoded]);
    assert!(ok, "{err}");
    assert_eq!(out, format!("{written}\n"));
}

#[test]
fn url_encode_escapes_a_space_and_decode_restores_it() {
    encode_then_decode("ftp://u@h/דוד/a b.txt", "ftp://u@h/%D7%93%D7%95%D7%93/a%20b.txt");
}

#[test]
fn url_encode_escapes_a_hash_and_decode_restores_it() {
    encode_then_decode("ftp://h/C# notes/#1.txt", "ftp://h/C%23%20notes/%231.txt");
}

#[test]
fn url_errors_exit_nonzero_with_a_reason() {
    let (ok, out, err) = run(&["url", "decode", "ftp://host:99999/"]);
    assert!(!ok);
    assert!(out.is_empty());
    assert!(err.starts_with("babelftp: "), "{err}");
    assert!(err.contains("99999"), "{err}");
}

#[test]
fn passwd_prints_an_argon2_hash() {
    use std::io::Write;
    let mut child = babelftp()
        .arg("passwd")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"s3cret\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let hash = String::from_utf8(out.stdout).unwrap();
    assert!(hash.starts_with("$argon2id$v=19$"), "{hash}");
    assert!(babelftp_server::auth::Secret::Hash(hash.trim().to_string()).verify(b"s3cret"));
}

/// CLI messages come from the catalogs, in the user's locale.
#[test]
fn cli_messages_follow_the_locale() {
    for (locale, want) in [
        ("fr_FR.UTF-8", "URL invalide"),
        ("ja_JP.UTF-8", "不正な URL"),
        ("C", "bad URL"),
    ] {
        let out = babelftp()
            .args(["ls", "ftp://host:99999/"])
            .env("LC_ALL", locale)
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(want), "{locale}: {err}");
    }
}

/// Issue 48: a URL with a scheme that is not ftp:// or ftps:// (a typo) is a
/// usage error (exit 2) naming that scheme; it was taken for a host name
/// and `babelftp ls htp://x` tried to connect to htp:21 (exit 7).
#[test]
fn an_unknown_scheme_is_a_usage_error_naming_it() {
    for (url, scheme) in [
        ("htp://x", "htp"),
        ("http://example.invalid/a", "http"),
        ("sftp://h/", "sftp"),
    ] {
        let out = babelftp()
            .args(["ls", url])
            .env("LC_ALL", "C")
            .env_remove("LANG")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{url}: {err}");
        assert!(err.contains(&format!("\"{scheme}\"")), "{url}: {err}");
        assert!(!err.contains("connecting"), "{url}: {err}");
    }
}
