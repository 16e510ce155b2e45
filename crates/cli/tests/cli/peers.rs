//! Our `babelftp` client against real FTP servers from Debian bookworm's
//! packages: vsftpd 3.0.3, ProFTPD 1.3.8 (mod_lang, so LANG is live) and
//! Pure-FTPd 1.0.50. `scripts/peers.sh` unpacks them into `target/peers`
//! (or `$PEERS_DIR`), never installing anything, and builds there the
//! locales ProFTPD's LANG needs; `babelftp_test_support::peers` starts each
//! one, as root, in the foreground on a free port of 127.0.0.1 with a
//! config file of its own in a temporary directory that also holds the tree
//! it serves, sessions running as `nobody`; the server is stopped when the
//! test ends.
//!
//! What each server is, as measured here:
//! - vsftpd (anonymous, chrooted in `anon_root`): FEAT lists ` UTF8` only
//!   with `utf8_filesystem=YES` (then `OPTS UTF8 ON` is "200 Always in UTF8
//!   mode."); no MLSD, LANG or HOST, so the client lists with LIST.
//! - ProFTPD (user `bob` from an AuthUserFile, chrooted in its home): MLSD,
//!   HOST; with `LangEngine on` FEAT lists ` UTF8` and ` LANG` with the
//!   languages whose catalog (in the package) and locale (built by
//!   `scripts/peers.sh`: fr_FR and ja_JP; de_DE has no catalog) both
//!   exist, none marked `*`. `LANG fr-FR` answers 200 but the replies stay
//!   English: it switches only on `LANG fr_FR`, which is not an RFC 1766
//!   tag. With `LangEngine off` FEAT lists neither UTF8 nor LANG and names
//!   go out as the bytes on disk: a legacy server.
//! - Pure-FTPd (virtual user `bob` from a PureDB, chrooted): MLSD; FEAT
//!   lists ` UTF8` but Debian's build answers `OPTS UTF8 ON` with 504.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use babelftp_test_support::peers::{self, proftpd, pure_ftpd, vsftpd, Peer};
use babelftp_test_support::{output_within, Control};

/// How long one client command may take before the test fails.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(60);

// ------------------------------------------------------------------ setup

/// 300,000 bytes that are not all alike.
fn payload() -> Vec<u8> {
    (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect()
}

/// `pub/` with UTF-8 names: a small file, a larger one and a directory
/// whose name has a space (given to the session user, as all below the
/// root, by the server's start).
fn fill_pub(root: &Path) -> PathBuf {
    let dir = root.join("pub");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("été.txt"), b"salut").unwrap();
    fs::write(dir.join("日本語.bin"), payload()).unwrap();
    fs::create_dir(dir.join("Ünïcödé dir")).unwrap();
    fs::write(dir.join("Ünïcödé dir/Ελληνικά.txt"), b"ellinika").unwrap();
    dir
}

// ------------------------------------------------------------------ client

struct Run {
    ok: bool,
    out: String,
    raw: Vec<u8>,
    err: String,
}

/// Runs our client with `XDG_STATE_HOME` (and `HOME`, for ~/.netrc) in
/// `state`, the C locale unless `env` says otherwise; fails the test when it
/// takes longer than `CLIENT_TIMEOUT`.
fn babelftp_env(state: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_babelftp"));
    cmd.args(args)
        .env("XDG_STATE_HOME", state)
        .env("HOME", state)
        .env("LC_ALL", "C")
        .env_remove("LANG")
        .env_remove("LC_MESSAGES")
        .env_remove("LANGUAGE")
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = output_within(&mut cmd, CLIENT_TIMEOUT);
    Run {
        ok: out.status.success(),
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        raw: out.stdout,
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn babelftp(state: &Path, args: &[&str]) -> Run {
    babelftp_env(state, args, &[])
}

/// Sorted lines (servers list in their own order).
fn sorted_lines(text: &str) -> Vec<&str> {
    let mut v: Vec<&str> = text.lines().collect();
    v.sort_unstable();
    v
}

/// What the client remembered: the charsets file, empty if there is none.
fn remembered(state: &Path) -> String {
    fs::read_to_string(state.join("babelftp/charsets")).unwrap_or_default()
}

/// The part every server goes through: UTF-8 names listed, downloaded
/// (by name, by %HH, resumed, active mode), uploaded (new, resumed),
/// mkdir, mv, rm, and a refusal. `login` is added to every command.
fn exercise(peer: &Peer, base: &str, login: &[&str]) {
    let state = tempfile::tempdir().unwrap();
    let local = tempfile::tempdir().unwrap();
    let data = payload();
    let pubdir = peer.root.join("pub");
    let run = |args: &[&str]| -> Run {
        let mut all: Vec<&str> = args.to_vec();
        all.extend_from_slice(login);
        let started = Instant::now();
        let r = babelftp(state.path(), &all);
        eprintln!("{}: babelftp {} ({:?})", peer.name, args[0], started.elapsed());
        assert!(
            r.ok,
            "{}: babelftp {all:?} failed:\n{}\n{}",
            peer.name,
            r.err,
            peer.logs()
        );
        r
    };
    let url = |path: &str| format!("{base}{path}");

    // A listing with UTF-8 names, one of them with a space.
    let r = run(&["ls", &url("/pub/")]);
    assert_eq!(
        sorted_lines(&r.out),
        ["Ünïcödé dir/", "été.txt", "日本語.bin"],
        "{}: {}",
        peer.name,
        r.err
    );

    // Mirror the tree down: every file arrives; a second run copies nothing.
    let mirror = local.path().join("mirror");
    let m = mirror.to_str().unwrap();
    let r = run(&["mirror", &url("/pub/"), m]);
    assert!(r.err.contains("3 copied"), "{}: {}", peer.name, r.err);
    for f in ["été.txt", "日本語.bin"] {
        assert_eq!(
            fs::read(mirror.join(f)).unwrap(),
            fs::read(pubdir.join(f)).unwrap(),
            "{}: {f}",
            peer.name
        );
    }
    let r = run(&["mirror", &url("/pub/"), m]);
    assert!(r.err.contains("0 copied"), "{}: {}", peer.name, r.err);
    // Issue 25.16: a missing source, or a file given as the source, is an
    // error (vsftpd lists a missing directory as empty, with 226), and no
    // local directory is made for it.
    for missing in ["/pub/nosuchdir/", "/pub/été.txt/"] {
        let dest = local.path().join("never");
        let source = url(missing);
        let mut args = vec!["mirror", source.as_str(), dest.to_str().unwrap()];
        args.extend_from_slice(login);
        let r = babelftp(state.path(), &args);
        assert!(!r.ok, "{}: mirror of {missing} succeeded: {}", peer.name, r.err);
        assert!(
            r.err.contains("cannot be mirrored") && r.err.contains("550"),
            "{}: {}",
            peer.name,
            r.err
        );
        assert!(!r.err.contains("copied"), "{}: {}", peer.name, r.err);
        assert!(!dest.exists(), "{}", peer.name);
    }
    let r = run(&["ls", "-l", &url("/pub/")]);
    let big = r.out.lines().find(|l| l.ends_with(" 日本語.bin")).unwrap_or_default();
    assert!(
        big.starts_with('-') && big.contains(" 300000 "),
        "{}: {}",
        peer.name,
        r.out
    );
    let r = run(&["ls", &url("/pub/%C3%9Cn%C3%AFc%C3%B6d%C3%A9%20dir/")]);
    assert_eq!(r.out, "Ελληνικά.txt\n", "{}", peer.name);

    // Downloads: by name, by %HH, in a directory with a space, active mode.
    let dest = local.path();
    run(&["get", &url("/pub/été.txt"), dest.to_str().unwrap()]);
    assert_eq!(fs::read(dest.join("été.txt")).unwrap(), b"salut", "{}", peer.name);
    run(&[
        "get",
        "-q",
        &url("/pub/%E6%97%A5%E6%9C%AC%E8%AA%9E.bin"),
        dest.to_str().unwrap(),
    ]);
    assert_eq!(fs::read(dest.join("日本語.bin")).unwrap(), data, "{}", peer.name);
    run(&[
        "get",
        "-q",
        &url("/pub/Ünïcödé%20dir/Ελληνικά.txt"),
        dest.to_str().unwrap(),
    ]);
    assert_eq!(
        fs::read(dest.join("Ελληνικά.txt")).unwrap(),
        b"ellinika",
        "{}",
        peer.name
    );
    let active = dest.join("active.bin");
    run(&[
        "get",
        "-q",
        "--active",
        &url("/pub/日本語.bin"),
        active.to_str().unwrap(),
    ]);
    assert_eq!(fs::read(&active).unwrap(), data, "{}", peer.name);

    // Resumed downloads (REST + RETR), passive then active.
    let partial = dest.join("partial.bin");
    fs::write(&partial, &data[..123_456]).unwrap();
    run(&["get", "-q", "-c", &url("/pub/日本語.bin"), partial.to_str().unwrap()]);
    assert_eq!(fs::read(&partial).unwrap(), data, "{}: resumed download", peer.name);
    fs::write(&partial, &data[..7]).unwrap();
    run(&[
        "get",
        "-q",
        "-c",
        "--active",
        &url("/pub/日本語.bin"),
        partial.to_str().unwrap(),
    ]);
    assert_eq!(
        fs::read(&partial).unwrap(),
        data,
        "{}: resumed active download",
        peer.name
    );

    // Uploads: a new file with a UTF-8 name into a directory URL, then a
    // resumed one the server has the first part of (REST + STOR).
    let src = local.path().join("データ.bin");
    fs::write(&src, &data).unwrap();
    let r = run(&["put", src.to_str().unwrap(), &url("/pub/")]);
    assert!(r.err.contains("300000 bytes"), "{}: {}", peer.name, r.err);
    assert_eq!(
        fs::read(pubdir.join("データ.bin")).unwrap(),
        data,
        "{}: upload",
        peer.name
    );
    fs::write(pubdir.join("half.bin"), &data[..100_000]).unwrap();
    peer.give(&pubdir.join("half.bin"));
    run(&["put", "-q", "-c", src.to_str().unwrap(), &url("/pub/half.bin")]);
    assert_eq!(
        fs::read(pubdir.join("half.bin")).unwrap(),
        data,
        "{}: resumed upload",
        peer.name
    );
    // Replacing a file the server has (STOR over it).
    run(&["put", "-q", "--active", src.to_str().unwrap(), &url("/pub/half.bin")]);
    assert_eq!(
        fs::read(pubdir.join("half.bin")).unwrap(),
        data,
        "{}: replaced",
        peer.name
    );

    // mkdir, mv into it, rm, rmdir.
    run(&["mkdir", &url("/pub/新しい")]);
    assert!(pubdir.join("新しい").is_dir(), "{}: mkdir", peer.name);
    run(&["mv", &url("/pub/データ.bin"), "/pub/新しい/名前 2.bin"]);
    assert!(!pubdir.join("データ.bin").exists(), "{}: mv", peer.name);
    assert_eq!(
        fs::read(pubdir.join("新しい/名前 2.bin")).unwrap(),
        data,
        "{}: mv",
        peer.name
    );
    run(&["rm", &url("/pub/新しい/名前%202.bin")]);
    assert!(!pubdir.join("新しい/名前 2.bin").exists(), "{}: rm", peer.name);
    run(&["rm", &url("/pub/half.bin")]);
    assert!(!pubdir.join("half.bin").exists(), "{}: rm", peer.name);
    run(&["rm", &url("/pub/新しい/")]);
    assert!(!pubdir.join("新しい").exists(), "{}: rmdir", peer.name);

    // A refused command exits non-zero with the server's 550.
    let mut args = vec!["rm", "-v"];
    let missing = url("/pub/nothing-here");
    args.push(&missing);
    args.extend_from_slice(login);
    let r = babelftp(state.path(), &args);
    assert!(!r.ok, "{}: rm of a missing file succeeded", peer.name);
    assert!(r.err.contains("550"), "{}: {}", peer.name, r.err);

    // All names were UTF-8: no charset remembered for this server.
    assert!(
        !remembered(state.path()).contains(&peer.key()),
        "{}: {}",
        peer.name,
        remembered(state.path())
    );
}

// ------------------------------------------------------------------- tests

#[test]
fn vsftpd_anonymous_utf8_names_transfers_and_changes() {
    let peer = vsftpd(|root| {
        fill_pub(root);
    });
    let state = tempfile::tempdir().unwrap();
    // What the client negotiates with vsftpd: FEAT, OPTS UTF8 ON, anonymous.
    let r = babelftp(state.path(), &["ls", "-v", &peer.url("/pub/")]);
    assert!(r.ok, "{}\n{}", r.err, peer.logs());
    for want in [
        "> FEAT",
        "<  UTF8",
        "> OPTS UTF8 ON",
        "< 200 Always in UTF8 mode.",
        "> USER anonymous",
        "> LIST pub/",
    ] {
        assert!(r.err.contains(want), "no {want:?} in:\n{}", r.err);
    }
    assert!(!r.err.contains("> LANG") && !r.err.contains("> MLSD"), "{}", r.err);
    exercise(&peer, &peer.url(""), &[]);
}

/// Issue 25.17: `mirror --parallel 4` from vsftpd and back into it: 120
/// files with mixed-script names (some in a subdirectory), every file's
/// contents checked both ways.
#[test]
fn vsftpd_mirror_parallel_both_ways() {
    let peer = vsftpd(|root| {
        common::mixed_tree(&root.join("src"), 120);
        fs::create_dir(root.join("up")).unwrap();
    });
    let state = tempfile::tempdir().unwrap();
    let local = tempfile::tempdir().unwrap();
    let copy = local.path().join("copy");
    let r = babelftp(
        state.path(),
        &["mirror", "--parallel", "4", &peer.url("/src/"), copy.to_str().unwrap()],
    );
    assert!(r.ok, "{}\n{}", r.err, peer.logs());
    assert!(r.err.contains("120 copied"), "{}", r.err);
    common::assert_same_tree(&peer.root.join("src"), &copy);
    let r = babelftp(
        state.path(),
        &[
            "mirror",
            "-R",
            "--parallel",
            "4",
            copy.to_str().unwrap(),
            &peer.url("/up/back/"),
        ],
    );
    assert!(r.ok, "{}\n{}", r.err, peer.logs());
    assert!(r.err.contains("120 copied"), "{}", r.err);
    common::assert_same_tree(&copy, &peer.root.join("up/back"));
}

#[test]
fn proftpd_lang_utf8_names_transfers_and_changes() {
    let peer = proftpd(true, |root| {
        fill_pub(root);
    });
    let state = tempfile::tempdir().unwrap();
    let base = peer.url("");

    // LANG is live: FEAT offers exactly the languages that have both a
    // catalog in the package and a locale built by scripts/peers.sh.
    let built = peers::proftpd_languages();
    assert!(
        built.iter().any(|t| t == "fr-FR") && built.iter().any(|t| t == "ja-JP"),
        "fr-FR and ja-JP must be offerable ({built:?}): run `bash scripts/peers.sh`"
    );
    let r = babelftp(
        state.path(),
        &["ls", "-v", "--lang", "fr", "--user", "bob:secret", &peer.url("/pub/")],
    );
    assert!(r.ok, "{}\n{}", r.err, peer.logs());
    assert_eq!(feat_langs(&r.err), built, "{}\n{}", r.err, peer.logs());
    for want in [
        "<  UTF8",
        "> LANG fr-FR",
        "< 200 Using language fr-FR",
        "* language: asked fr, server serves fr-FR",
        "> OPTS UTF8 ON",
        "< 200 UTF8 set to on",
        "> MLSD pub/",
    ] {
        assert!(r.err.contains(want), "no {want:?} in:\n{}", r.err);
    }
    // ProFTPD 1.3.8 accepts `LANG fr-FR` but keeps replying in English
    // (it switches only on `fr_FR`, which is not an RFC 1766 tag).
    assert!(r.err.contains("< 230 User bob logged in"), "{}", r.err);
    assert_eq!(sorted_lines(&r.out), ["Ünïcödé dir/", "été.txt", "日本語.bin"]);

    // The tag from the locale, and a language the server does not offer.
    let r = babelftp_env(
        state.path(),
        &["ls", "-v", "--user", "bob:secret", &peer.url("/pub/")],
        &[("LC_ALL", "ja_JP.UTF-8")],
    );
    assert!(r.ok, "{}", r.err);
    assert!(
        r.err.contains("> LANG ja-JP") && r.err.contains("< 200 Using language ja-JP"),
        "{}",
        r.err
    );
    assert!(
        !built.iter().any(|t| t.starts_with("de-")),
        "ProFTPD 1.3.8 has no German catalog: {built:?}"
    );
    let r = babelftp(
        state.path(),
        &["ls", "-v", "--lang", "de", "--user", "bob:secret", &peer.url("/pub/")],
    );
    assert!(r.ok, "{}", r.err);
    assert!(!r.err.contains("> LANG"), "{}", r.err);
    assert!(
        r.err.contains("* language: server offers none matching de"),
        "{}",
        r.err
    );

    // LANG with a locale name switches the replies (to French in UTF-8
    // here; a bare LANG does not switch back: there is no en_US locale).
    let (mut c, greeting) = Control::connect(peer.addr());
    assert!(greeting.starts_with(b"220 "), "{}", String::from_utf8_lossy(&greeting));
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    let english = text(c.cmd("LANG xx_XX"));
    assert!(english.starts_with("504 ") && english.contains("xx_XX"), "{english}");
    for tag in &built {
        let name = tag.replace('-', "_");
        let r = text(c.cmd(&format!("LANG {name}")));
        assert!(
            r.starts_with("200 ") && r.contains(&name),
            "LANG {name}: {r}\n{}",
            peer.logs()
        );
    }
    let r = text(c.cmd("LANG fr_FR"));
    assert!(r.starts_with("200 ") && !r.contains("Using language"), "{r}");
    let french = c.cmd("LANG xx_XX");
    let french = String::from_utf8(french).expect("French replies in UTF-8");
    assert!(french.starts_with("504 ") && french != english, "{english} / {french}");

    // Credentials by --user on every command.
    exercise(&peer, &base, &["--user", "bob:secret"]);
}

/// The tags of the ` LANG` line of FEAT in a `-v` transcript, without the
/// `*` marking the current one, sorted.
fn feat_langs(transcript: &str) -> Vec<String> {
    let line = transcript
        .lines()
        .find_map(|l| l.strip_prefix("<  LANG "))
        .unwrap_or_else(|| panic!("no LANG line in FEAT:\n{transcript}"));
    let mut tags: Vec<String> = line
        .trim()
        .split(';')
        .map(|t| t.trim_end_matches('*').to_string())
        .collect();
    tags.sort();
    tags
}

#[test]
fn pure_ftpd_utf8_names_transfers_and_changes() {
    let peer = pure_ftpd(|root| {
        fill_pub(root);
    });
    let state = tempfile::tempdir().unwrap();
    let base = format!("ftp://bob:secret@127.0.0.1:{}", peer.port);
    let r = babelftp(state.path(), &["ls", "-v", &format!("{base}/pub/")]);
    assert!(r.ok, "{}\n{}", r.err, peer.logs());
    // FEAT lists UTF8, but Debian's build refuses OPTS UTF8 ON; the client
    // goes on (names on disk are UTF-8 anyway) and lists with MLSD.
    for want in ["<  UTF8", "> OPTS UTF8 ON", "< 504", "> USER bob", "> MLSD pub/"] {
        assert!(r.err.contains(want), "no {want:?} in:\n{}", r.err);
    }
    // Credentials in the URL.
    exercise(&peer, &base, &[]);
}

// ------------------------------------------------------------------- FTPS

/// The FTPS checks every peer that requires TLS and session reuse goes
/// through, `login` added to every command: plain FTP is refused; `--tls`
/// negotiates TLS 1.2 by default; and with TLS 1.3 forced, 20 uploads then
/// 20 downloads in one session each arrive whole (the ticket race on
/// upload data connections, and running out of single-use TLS 1.3
/// tickets, are both what this catches).
fn ftps_checks(peer: &Peer, base: &str, cacert: &str, login: &[&str]) {
    let state = tempfile::tempdir().unwrap();
    let with = |args: &[&str]| -> Vec<String> { args.iter().chain(login).map(|s| s.to_string()).collect() };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        babelftp_env(state.path(), &args, &[])
    };
    let url = format!("{base}/pub/");

    let r = run(with(&["ls", "-v", &url]));
    assert!(!r.ok, "{}: plain FTP accepted:\n{}", peer.name, r.err);
    let r = run(with(&["ls", "-v", "--tls", "--cacert", cacert, &url]));
    assert!(r.ok, "{}:\n{}\n{}", peer.name, r.err, peer.logs());
    assert!(
        r.err.contains("* TLS 1.2 (AUTH TLS), data connections PROT P"),
        "{}: {}",
        peer.name,
        r.err
    );
    assert!(r.out.contains("日本語.bin"), "{}: {}", peer.name, r.out);

    let local = tempfile::tempdir().unwrap();
    let up = local.path().join("up");
    fs::create_dir(&up).unwrap();
    let files: Vec<(String, Vec<u8>)> = (0..20)
        .map(|i| {
            let name = format!("ticket-{i:02}-éè.bin");
            let data: Vec<u8> = (0..(200_000 + i * 37_000) as u32)
                .map(|b| (b * 31 % 253) as u8)
                .collect();
            fs::write(up.join(&name), &data).unwrap();
            (name, data)
        })
        .collect();
    // `mirror` over explicit FTPS, TLS 1.3 forced.
    let mirror13 = |extra: &[&str], from: &str, to: &str| {
        let mut args = vec!["mirror", "-v", "--tls", "--tls-version", "1.3", "--cacert", cacert];
        args.extend_from_slice(extra);
        args.extend([from, to]);
        run(with(&args))
    };
    let r = mirror13(&["-R"], up.to_str().unwrap(), &format!("{base}/up/"));
    assert!(r.ok, "{}:\n{}\n{}", peer.name, r.err, peer.logs());
    assert!(r.err.contains("* TLS 1.3 (AUTH TLS)"), "{}: {}", peer.name, r.err);
    for (name, data) in &files {
        let got = fs::read(peer.root.join("up").join(name)).unwrap();
        assert!(
            &got == data,
            "{}: {name}: {} of {} bytes arrived",
            peer.name,
            got.len(),
            data.len()
        );
    }
    let down = local.path().join("down");
    let r = mirror13(&[], &format!("{base}/up/"), down.to_str().unwrap());
    assert!(r.ok, "{}:\n{}\n{}", peer.name, r.err, peer.logs());
    for (name, data) in &files {
        assert_eq!(&fs::read(down.join(name)).unwrap(), data, "{}: {name}", peer.name);
    }
}

/// A peer started by `start(cert, key, fill)` with a fresh certificate,
/// `pub/` and an empty `up/`: [`ftps_checks`], then the whole [`exercise`]
/// over explicit FTPS, `login` added to every command.
fn ftps_peer(start: impl FnOnce(&Path, &Path, fn(&Path)) -> Peer, login: &[&str]) {
    let certs = tempfile::tempdir().unwrap();
    let (cert, key) = babelftp_test_support::certificate(certs.path());
    let peer = start(&cert, &key, |root| {
        fill_pub(root);
        fs::create_dir(root.join("up")).unwrap();
    });
    let ca = cert.to_str().unwrap();
    ftps_checks(&peer, &peer.url(""), ca, login);
    let mut tls = vec!["--tls", "--cacert", ca];
    tls.extend_from_slice(login);
    exercise(&peer, &peer.url(""), &tls);
}

#[test]
fn vsftpd_ftps_with_ssl_reuse_required() {
    ftps_peer(|c, k, fill| peers::vsftpd_tls(c, k, fill), &[]);
}

#[test]
fn proftpd_mod_tls_with_session_reuse_required() {
    ftps_peer(|c, k, fill| peers::proftpd_tls(c, k, fill), &["--user", "bob:secret"]);
}

/// Raw Shift_JIS names (日本語のファイル.txt, 報告書.doc, 写真フォルダ).
const SJIS: [(&[u8], &[u8]); 3] = [
    (
        b"\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x74\x83\x40\x83\x43\x83\x8b.txt",
        b"nihongo",
    ),
    (b"\x95\xf1\x8d\x90\x8f\x91.doc", b"report"),
    (b"\x8e\xca\x90\x5e\x83\x74\x83\x48\x83\x8b\x83\x5f", b"photos"),
];
/// Raw CP1251 names (Отчёт за год.doc, Новая папка, Список дел.txt).
const CP1251: [(&[u8], &[u8]); 3] = [
    (b"\xce\xf2\xf7\xb8\xf2 \xe7\xe0 \xe3\xee\xe4.doc", b"otchet"),
    (b"\xcd\xee\xe2\xe0\xff \xef\xe0\xef\xea\xe0", b"papka"),
    (b"\xd1\xef\xe8\xf1\xee\xea \xe4\xe5\xeb.txt", b"spisok"),
];

fn raw(name: &[u8]) -> &Path {
    Path::new(OsStr::from_bytes(name))
}

#[test]
fn proftpd_without_lang_serves_legacy_names_the_client_detects_and_remembers() {
    let peer = proftpd(false, |root| {
        for (sub, names) in [("sjis", &SJIS), ("cyr", &CP1251)] {
            let dir = root.join(sub);
            fs::create_dir(&dir).unwrap();
            for (name, body) in names.iter() {
                fs::write(dir.join(raw(name)), body).unwrap();
            }
        }
    });
    let state = tempfile::tempdir().unwrap();
    let dest = tempfile::tempdir().unwrap();
    let d = dest.path().to_str().unwrap();
    let base = format!("ftp://bob:secret@127.0.0.1:{}", peer.port);
    let run = |args: &[&str]| -> Run {
        let r = babelftp(state.path(), args);
        assert!(r.ok, "babelftp {args:?} failed:\n{}\n{}", r.err, peer.logs());
        r
    };

    // A legacy server: neither UTF8 nor LANG in FEAT, names as on disk.
    let r = run(&["ls", "-v", &format!("{base}/sjis/")]);
    assert!(r.err.contains("> FEAT") && r.err.contains("> MLSD sjis/"), "{}", r.err);
    assert!(!r.err.contains("UTF8") && !r.err.contains("LANG"), "{}", r.err);
    assert_eq!(
        sorted_lines(&r.out),
        ["写真フォルダ", "報告書.doc", "日本語のファイル.txt"],
        "{}",
        r.err
    );
    assert!(
        r.err.contains("* charset: Shift_JIS (guessed from 3 names)"),
        "{}",
        r.err
    );
    assert_eq!(
        remembered(state.path()),
        format!("{} ev1 utf8=0 raw=0 Shift_JIS=3\n", peer.key())
    );

    // The next run knows it before listing, and finds files by their
    // Unicode name (raw UTF-8 in the URL, or %HH).
    let r = run(&["get", "-v", &format!("{base}/sjis/日本語のファイル.txt"), d]);
    assert!(
        r.err.contains("* charset: Shift_JIS (remembered for this server)"),
        "{}",
        r.err
    );
    assert_eq!(fs::read(dest.path().join("日本語のファイル.txt")).unwrap(), b"nihongo");
    run(&["get", "-q", &format!("{base}/sjis/%E5%A0%B1%E5%91%8A%E6%9B%B8.doc"), d]);
    assert_eq!(fs::read(dest.path().join("報告書.doc")).unwrap(), b"report");
    // The server's own bytes as %HH: the local file is named in Unicode.
    let other = tempfile::tempdir().unwrap();
    run(&[
        "get",
        "-q",
        &format!("{base}/sjis/%95%F1%8D%90%8F%91.doc"),
        other.path().to_str().unwrap(),
    ]);
    assert_eq!(fs::read(other.path().join("報告書.doc")).unwrap(), b"report");
    // --raw prints the bytes as they came.
    let r = run(&["ls", "--raw", &format!("{base}/sjis/")]);
    assert!(
        r.raw
            .split(|&b| b == b'\n')
            .any(|l| l == b"\x8e\xca\x90\x5e\x83\x74\x83\x48\x83\x8b\x83\x5f"),
        "{:?}",
        r.raw
    );
    // An upload with a Unicode name is stored under its Shift_JIS bytes (メモ.txt).
    let src = dest.path().join("メモ.txt");
    fs::write(&src, b"memo").unwrap();
    run(&["put", "-q", src.to_str().unwrap(), &format!("{base}/sjis/")]);
    assert_eq!(
        fs::read(peer.root.join("sjis").join(raw(b"\x83\x81\x83\x82.txt"))).unwrap(),
        b"memo"
    );

    // --forget, then an explicit charset (not remembered).
    let r = run(&["ls", "--forget", "--charset", "windows-1251", &format!("{base}/cyr/")]);
    assert_eq!(
        sorted_lines(&r.out),
        ["Новая папка", "Отчёт за год.doc", "Список дел.txt"]
    );
    assert!(
        !remembered(state.path()).contains(&peer.key()),
        "{}",
        remembered(state.path())
    );
    let r = run(&["ls", "-v", "--charset", "shift_jis", &format!("{base}/sjis/")]);
    assert!(r.err.contains("* charset: Shift_JIS (from --charset)"), "{}", r.err);
    assert!(
        !remembered(state.path()).contains(&peer.key()),
        "{}",
        remembered(state.path())
    );

    // CP1251 detected from the listing, remembered, then used both ways.
    let r = run(&["ls", &format!("{base}/cyr/")]);
    assert_eq!(
        sorted_lines(&r.out),
        ["Новая папка", "Отчёт за год.doc", "Список дел.txt"]
    );
    // After the --forget above the file was "\n"; it must hold exactly one
    // line now, not a blank one before it.
    assert_eq!(
        remembered(state.path()),
        format!("{} ev1 utf8=0 raw=0 windows-1251=3\n", peer.key()),
        "the charsets file keeps a blank line left by --forget"
    );
    run(&["get", "-q", &format!("{base}/cyr/Список%20дел.txt"), d]);
    assert_eq!(fs::read(dest.path().join("Список дел.txt")).unwrap(), b"spisok");
    let cyr = peer.root.join("cyr");
    let archive = cyr.join(raw(b"\xc0\xf0\xf5\xe8\xe2")); // Архив
    run(&["mkdir", &format!("{base}/cyr/Архив")]);
    assert!(archive.is_dir());
    run(&[
        "mv",
        &format!("{base}/cyr/Отчёт%20за%20год.doc"),
        "/cyr/Архив/Отчёт.doc",
    ]);
    let moved = archive.join(raw(b"\xce\xf2\xf7\xb8\xf2.doc")); // Отчёт.doc
    assert_eq!(fs::read(&moved).unwrap(), b"otchet");
    assert!(!cyr.join(raw(CP1251[0].0)).exists());
    run(&["rm", &format!("{base}/cyr/Архив/Отчёт.doc")]);
    assert!(!moved.exists());
    run(&["rm", &format!("{base}/cyr/Архив/")]);
    assert!(!archive.exists());
}

/// `babelftp check` against each peer: the report's shape, and a few facts
/// each server is known for. With `BABELFTP_REPORTS_DIR` set, the reports
/// are also written there (how `docs/dev/check-*.txt` are made).
#[test]
fn check_reports_of_each_peer() {
    let state = tempfile::tempdir().unwrap();
    let mut reports = Vec::new();
    {
        let peer = vsftpd(|root| {
            fill_pub(root);
        });
        let r = babelftp(state.path(), &["check", &peer.url("/pub/")]);
        reports.push((
            "vsftpd 3.0.3 (Debian bookworm, utf8_filesystem=YES, anonymous)",
            "vsftpd",
            r,
        ));
    }
    {
        let peer = proftpd(true, |root| {
            fill_pub(root);
        });
        let base = peer.url("").replace("ftp://", "ftp://bob:secret@");
        let r = babelftp(state.path(), &["check", &format!("{base}/pub/")]);
        reports.push((
            "ProFTPD 1.3.8 (Debian bookworm, LangEngine on, fr_FR/ja_JP locales)",
            "proftpd",
            r,
        ));
    }
    {
        let peer = proftpd(false, |root| {
            fill_pub(root);
        });
        let base = peer.url("").replace("ftp://", "ftp://bob:secret@");
        let r = babelftp(state.path(), &["check", &format!("{base}/pub/")]);
        reports.push((
            "ProFTPD 1.3.8 (Debian bookworm, LangEngine off)",
            "proftpd-langengine-off",
            r,
        ));
    }
    {
        let peer = pure_ftpd(|root| {
            fill_pub(root);
        });
        let r = babelftp(
            state.path(),
            &["check", &format!("ftp://bob:secret@127.0.0.1:{}/pub/", peer.port)],
        );
        reports.push(("Pure-FTPd 1.0.50 (Debian bookworm, virtual user)", "pure-ftpd", r));
    }
    for (what, name, r) in &reports {
        let last = r.out.lines().last().unwrap_or_default();
        let parts: Vec<&str> = last.split(", ").collect();
        assert!(
            parts.len() == 3 && parts[0].ends_with(" passed") && parts[2].ends_with(" skipped"),
            "{name}: {}\n{}",
            r.out,
            r.err
        );
        assert_eq!(r.out.lines().count(), 13, "{name}: {}", r.out);
        if let Some(dir) = std::env::var_os("BABELFTP_REPORTS_DIR") {
            let text = format!("# babelftp check against {what}\n\n{}", r.out);
            fs::write(PathBuf::from(dir).join(format!("check-{name}.txt")), text).unwrap();
        }
    }
    let out = |n: &str| &reports.iter().find(|(_, x, _)| *x == n).unwrap().2.out;
    assert!(
        out("vsftpd").contains("PASS feat-utf8") && out("vsftpd").contains("FAIL feat-lang"),
        "{}",
        out("vsftpd")
    );
    assert!(out("proftpd").contains("PASS feat-lang"), "{}", out("proftpd"));
    assert!(
        out("proftpd-langengine-off").contains("FAIL feat-utf8"),
        "{}",
        out("proftpd-langengine-off")
    );
    assert!(out("pure-ftpd").contains("PASS feat-utf8"), "{}", out("pure-ftpd"));
}
