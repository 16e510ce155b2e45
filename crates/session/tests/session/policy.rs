//! Per-directory permissions as the session applies them (issue 28): each
//! command asks the account's rules before the storage; a refusal is 550
//! naming the permission; listings show only what the account may list;
//! the account's language and legacy charset take effect at login.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use babelftp_i18n::Charset;
use babelftp_policy::{Perms, Rules};
use babelftp_proto::lang::LangTag;
use babelftp_session::testing::Harness;
use babelftp_session::Account;

fn perms(s: &str) -> Perms {
    s.parse().unwrap()
}

/// `/` list only, `/pub` read, `/incoming` a drop box (upload and mkdir,
/// no list, no overwrite, no delete), `/pub/private` nothing.
fn rules() -> Rules {
    Rules::new([
        (&b"/"[..], perms("list")),
        (b"/pub", perms("read")),
        (b"/pub/private", perms("none")),
        (b"/incoming", perms("upload,mkdir")),
    ])
    .unwrap()
}

fn session(account: Account) -> Harness {
    let mut h = Harness::new();
    h.fs.add_file(b"/pub/a.txt", b"hello");
    h.fs.add_file(b"/pub/private/secret.txt", b"s");
    h.fs.add_dir(b"/incoming");
    h.fs.accounts.push((b"carol".to_vec(), b"pw".to_vec(), account));
    h.take();
    assert_eq!(h.codes(b"USER carol"), [331]);
    assert_eq!(h.codes(b"PASS pw"), [230]);
    h
}

fn account() -> Account {
    Account {
        home: b"/".to_vec(),
        rules: Arc::new(rules()),
        lang: None,
        charset: None,
        name: None,
    }
}

fn text(h: &Harness) -> String {
    String::from_utf8_lossy(&h.replies().last().unwrap().text()).into_owned()
}

#[test]
fn each_command_is_refused_with_the_permission_it_lacks() {
    let mut h = session(account());
    // Read in /pub, nothing more.
    h.codes(b"PASV");
    assert_eq!(h.codes(b"RETR /pub/a.txt"), [150, 226]);
    assert_eq!(h.sent.last().unwrap(), b"hello");
    for (cmd, perm) in [
        (&b"STOR /pub/b.txt"[..], "upload"),
        (b"APPE /pub/a.txt", "overwrite"),
        (b"DELE /pub/a.txt", "delete"),
        (b"MKD /pub/d", "mkdir"),
        (b"RMD /pub/private", "rmdir"),
        (b"RNFR /pub/a.txt", "rename"),
        (b"SITE CHMOD 644 /pub/a.txt", "chmod"),
        (b"MFMT 20200102030405 /pub/a.txt", "chmod"),
        (b"RETR /pub/private/secret.txt", "download"),
        (b"SIZE /pub/private/secret.txt", "list"),
        (b"MLST /pub/private", "list"),
        (b"STAT /pub/private", "list"),
        (b"LIST /incoming", "list"),
    ] {
        assert_eq!(h.codes(cmd), [550], "{}", String::from_utf8_lossy(cmd));
        let t = text(&h);
        assert!(
            t.contains(&format!("“{perm}”")),
            "{}: {t}",
            String::from_utf8_lossy(cmd)
        );
    }
    assert_eq!(h.fs.file(b"/pub/a.txt"), Some(&b"hello"[..]), "nothing changed");
    // CWD needs no permission: a drop box can be entered.
    assert_eq!(h.codes(b"CWD /incoming"), [250]);
}

#[test]
fn a_drop_box_takes_new_files_but_never_replaces_one() {
    let mut h = session(account());
    h.upload = b"first".to_vec();
    h.codes(b"PASV");
    assert_eq!(h.codes(b"STOR /incoming/report.pdf"), [150, 226]);
    h.upload = b"second".to_vec();
    h.codes(b"PASV");
    assert_eq!(h.codes(b"STOR /incoming/report.pdf"), [550]);
    assert!(text(&h).contains("“overwrite”"), "{}", text(&h));
    assert_eq!(h.fs.file(b"/incoming/report.pdf"), Some(&b"first"[..]));
    assert_eq!(h.codes(b"MKD /incoming/2026"), [257]);
    assert_eq!(h.codes(b"DELE /incoming/report.pdf"), [550]);
    // Renaming needs the right at both ends.
    assert_eq!(h.codes(b"RNFR /incoming/report.pdf"), [550]);
}

#[test]
fn renaming_onto_a_file_needs_overwrite_at_the_target() {
    let mut a = account();
    a.rules = Arc::new(Rules::new([(&b"/"[..], perms("list,download,upload,rename"))]).unwrap());
    let mut h = session(a);
    assert_eq!(h.codes(b"RNFR /pub/a.txt"), [350]);
    h.fs.add_file(b"/pub/b.txt", b"other");
    assert_eq!(h.codes(b"RNTO /pub/b.txt"), [550]);
    assert!(text(&h).contains("“overwrite”"), "{}", text(&h));
    assert_eq!(h.fs.file(b"/pub/b.txt"), Some(&b"other"[..]));
    assert_eq!(h.codes(b"RNFR /pub/a.txt"), [350]);
    assert_eq!(h.codes(b"RNTO /pub/c.txt"), [250]);
}

#[test]
fn listings_show_what_the_account_may_use_and_a_drop_box_keeps_its_contents() {
    let mut h = session(account());
    h.fs.add_file(b"/incoming/theirs.pdf", b"x");
    h.codes(b"PASV");
    assert_eq!(h.codes(b"NLST /"), [150, 226]);
    let mut names: Vec<String> = String::from_utf8(h.sent.last().unwrap().clone())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["incoming", "pub"],
        "the drop box shows in /, where carol may list"
    );
    // Its own entries stay hidden; one goes in there all the same.
    h.codes(b"PASV");
    assert_eq!(h.codes(b"NLST /incoming"), [550]);
    assert_eq!(h.codes(b"CWD /incoming"), [250]);
    assert_eq!(h.codes(b"CWD /"), [250]);
    h.codes(b"PASV");
    assert_eq!(h.codes(b"MLSD /pub"), [150, 226]);
    let lines = String::from_utf8(h.sent.last().unwrap().clone()).unwrap();
    assert!(
        lines.contains("perm=r; a.txt") || lines.contains("perm=r;") && lines.contains("a.txt"),
        "{lines}"
    );
    assert!(!lines.contains("private"), "{lines}");
    assert_eq!(h.codes(b"STAT /pub"), [213]);
    assert!(!text(&h).contains("private"));
}

#[test]
fn the_account_sets_the_reply_language_and_the_legacy_charset_at_login() {
    let mut a = account();
    a.rules = Arc::new(Rules::everywhere(Perms::ALL));
    a.lang = Some(LangTag::parse(b"fr").unwrap());
    a.charset = Charset::for_label("windows-1251");
    let mut h = session(a);
    h.fs.add_file("/pub/Привет.txt".as_bytes(), b"x");
    assert_eq!(h.codes(b"NOOP"), [200]);
    let t = text(&h);
    let mut fr = Harness::new();
    fr.take();
    fr.codes(b"LANG fr");
    fr.codes(b"NOOP");
    assert_eq!(t, text(&fr), "French after login");
    let mut en = Harness::new();
    en.take();
    en.codes(b"NOOP");
    assert_ne!(t, text(&en), "not English");
    h.codes(b"PASV");
    assert_eq!(h.codes(b"NLST /pub"), [150, 226]);
    let names = h.sent.last().unwrap().clone();
    assert!(
        names.windows(6).any(|w| w == b"\xcf\xf0\xe8\xe2\xe5\xf2"),
        "CP1251 names: {names:?}"
    );
    // A client that chose its language keeps it.
    let mut a = account();
    a.lang = Some(LangTag::parse(b"fr").unwrap());
    let mut h = Harness::new();
    h.fs.accounts.push((b"dan".to_vec(), b"pw".to_vec(), a));
    h.take();
    assert_eq!(h.codes(b"LANG de"), [200]);
    h.codes(b"USER dan");
    h.codes(b"PASS pw");
    h.send(b"NOOP");
    let de = text(&h);
    let mut g = Harness::new();
    g.take();
    g.codes(b"LANG de");
    g.send(b"NOOP");
    assert_eq!(de, text(&g), "LANG de before login wins over the account's fr");
}

/// Issue 48: a bare LANG (lftp sends one before login) asks for no
/// language: the account's applies at login, and after login a bare LANG
/// returns to it, saying so.
#[test]
fn a_bare_lang_returns_to_the_accounts_language() {
    let french_noop = || {
        let mut fr = Harness::new();
        fr.take();
        fr.codes(b"LANG fr");
        fr.codes(b"NOOP");
        text(&fr)
    };
    let mut a = account();
    a.lang = Some(LangTag::parse(b"fr").unwrap());
    let mut h = Harness::new();
    h.fs.accounts.push((b"dan".to_vec(), b"pw".to_vec(), a));
    h.take();
    assert_eq!(h.codes(b"LANG"), [200]);
    assert!(text(&h).contains("at login"), "{}", text(&h));
    h.codes(b"USER dan");
    h.codes(b"PASS pw");
    h.codes(b"NOOP");
    assert_eq!(text(&h), french_noop(), "French after login despite the bare LANG");
    assert_eq!(h.codes(b"LANG de"), [200]);
    assert_eq!(h.codes(b"LANG"), [200]);
    assert!(text(&h).contains("votre compte"), "{}", text(&h));
    h.codes(b"NOOP");
    assert_eq!(text(&h), french_noop(), "back to the account's French");
}
