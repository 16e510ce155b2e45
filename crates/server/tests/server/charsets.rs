//! RFC 2640 Annex A and B.3: a translating server (per-directory local
//! charsets), a legacy client charset, and mirror mode — each driven by
//! Python's ftplib with an explicit encoding, names checked on disk.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::os::unix::ffi::OsStrExt;

use common::{python, start};

fn names_on_disk(dir: &std::path::Path) -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().as_bytes().to_vec())
        .collect();
    v.sort();
    v
}

fn raw_file(dir: &std::path::Path, name: &[u8], body: &[u8]) {
    std::fs::write(dir.join(std::ffi::OsStr::from_bytes(name)), body).unwrap();
}

#[test]
fn translating_server_lists_retrieves_and_stores_in_each_directory_charset() {
    let srv = start(|c| {
        c.dir_charsets = vec![
            ("/ru".into(), "koi8-r".into()),
            ("/jp".into(), "shift_jis".into()),
            ("/he".into(), "iso-8859-8".into()),
            ("/th".into(), "tis-620".into()),
        ];
    });
    for d in ["ru", "jp", "he", "th"] {
        std::fs::create_dir(srv.path(d)).unwrap();
    }
    raw_file(&srv.path("ru"), b"\xc6\xc1\xca\xcc.txt", b"koi8"); // файл.txt
    raw_file(&srv.path("jp"), b"\x93\xfa\x96\x7b\x8c\xea.txt", b"sjis"); // 日本語.txt
    raw_file(&srv.path("he"), b"\xf9\xec\xe5\xed.txt", b"hebrew"); // שלום.txt
    raw_file(&srv.path("th"), b"\xe4\xb7\xc2.txt", b"thai"); // ไทย.txt
    let out = python(
        &srv,
        r#"
f = ftplib.FTP(encoding='utf-8')
f.connect(HOST, PORT)
f.login('bob', 'secret')
for d in ['ru', 'jp', 'he', 'th']:
    print(d, f.nlst(d))
for p in ['ru/файл.txt', 'jp/日本語.txt', 'he/שלום.txt', 'th/ไทย.txt']:
    b = io.BytesIO(); f.retrbinary('RETR ' + p, b.write)
    print('got', p, b.getvalue(), f.size(p))
f.storbinary('STOR ru/новый.txt', io.BytesIO(b'new'))
f.storbinary('STOR jp/新しい.txt', io.BytesIO(b'new'))
f.storbinary('STOR he/חדש.txt', io.BytesIO(b'new'))
f.storbinary('STOR th/ใหม่.txt', io.BytesIO(b'new'))
print(f.rename('ru/файл.txt', 'ru/документ.txt'))
print(f.mkd('ru/папка'))
print(f.sendcmd('MLST jp/日本語.txt'))
print(f.delete('he/שלום.txt'))
try:
    f.storbinary('STOR ru/日本.txt', io.BytesIO(b'x'))
except ftplib.error_perm as e:
    print('untranslatable', str(e))
# MKD and RNTO of a name the directory's charset cannot hold: the same.
for c in ['MKD jp/שלום', 'RNFR he/חדש.txt', 'RNTO he/日本.txt', 'LANG fr', 'MKD ru/日本']:
    try:
        print('reply', f.sendcmd(c))
    except ftplib.error_perm as e:
        print('refused', str(e))
f.quit()
"#,
    );
    assert!(out.contains("ru ['файл.txt']"), "{out}");
    assert!(out.contains("日本語.txt'"), "{out}");
    assert!(out.contains("שלום.txt'"), "{out}");
    assert!(out.contains("ไทย.txt'"), "{out}");
    assert!(out.contains("got ru/файл.txt b'koi8' 4"), "{out}");
    assert!(out.contains("got jp/日本語.txt b'sjis' 4"), "{out}");
    assert!(out.contains("got he/שלום.txt b'hebrew' 6"), "{out}");
    assert!(out.contains("got th/ไทย.txt b'thai' 4"), "{out}");
    assert!(out.contains(" /jp/日本語.txt"), "{out}");
    // Issue 25.9: the refusal says which charset cannot hold the name.
    assert!(
        out.contains("untranslatable 553 The name cannot be stored in the server's character set (KOI8-R)."),
        "{out}"
    );
    assert!(
        out.contains("refused 553 The name cannot be stored in the server's character set (Shift_JIS)."),
        "{out}"
    );
    assert!(
        out.contains("refused 553 The name cannot be stored in the server's character set (ISO-8859-8)."),
        "{out}"
    );
    assert!(
        out.contains("refused 553 Le nom ne peut pas être enregistré dans le jeu de caractères du serveur (KOI8-R)."),
        "{out}"
    );
    // On disk, every new name is in its directory's charset.
    assert_eq!(
        names_on_disk(&srv.path("ru")),
        vec![
            b"\xc4\xcf\xcb\xd5\xcd\xc5\xce\xd4.txt".to_vec(), // документ.txt
            b"\xce\xcf\xd7\xd9\xca.txt".to_vec(),             // новый.txt
            b"\xd0\xc1\xd0\xcb\xc1".to_vec(),                 // папка
        ]
    );
    assert!(srv
        .path("jp")
        .join(std::ffi::OsStr::from_bytes(b"\x90\x56\x82\xb5\x82\xa2.txt"))
        .exists()); // 新しい
    assert_eq!(names_on_disk(&srv.path("he")), vec![b"\xe7\xe3\xf9.txt".to_vec()]); // חדש
    assert!(srv
        .path("th")
        .join(std::ffi::OsStr::from_bytes(b"\xe3\xcb\xc1\xe8.txt"))
        .exists()); // ใหม่
}

#[test]
fn a_name_that_does_not_translate_stays_reachable_as_raw_bytes() {
    let srv = start(|c| c.dir_charsets = vec![("/jp".into(), "shift_jis".into())]);
    std::fs::create_dir(srv.path("jp")).unwrap();
    // Shift_JIS user-defined area: decodes to a private-use character that
    // does not encode back, so it must go out raw.
    raw_file(&srv.path("jp"), b"\xf0\x40.bin", b"raw");
    raw_file(&srv.path("jp"), b"\x93\xfa.txt", b"ok"); // 日.txt
    let out = python(
        &srv,
        r#"
f = ftplib.FTP(encoding='latin-1')
f.connect(HOST, PORT)
f.login('bob', 'secret')
names = f.nlst('jp')
print([n.encode('latin-1') for n in names])
raw = 'jp/' + [n for n in names if n.encode('latin-1').endswith(b'\xf0\x40.bin')][0]
b = io.BytesIO(); f.retrbinary('RETR ' + raw, b.write)
print('raw-get', b.getvalue())
print(f.rename(raw, 'jp/renamed.bin'))
f.quit()
"#,
    );
    // NLST of a directory gives bare names here.
    assert!(out.contains(r"b'\xf0@.bin'"), "{out}");
    // 日 goes out as UTF-8 (E6 97 A5).
    assert!(out.contains(r"\xe6\x97\xa5.txt"), "{out}");
    assert!(out.contains("raw-get b'raw'"), "{out}");
    assert!(srv.path("jp/renamed.bin").exists());
}

#[test]
fn legacy_client_charset_until_the_client_shows_it_speaks_utf8() {
    let srv = start(|c| c.legacy_client_charset = Some("windows-1251".into()));
    let out = python(
        &srv,
        r#"
f = ftplib.FTP(encoding='cp1251')
f.connect(HOST, PORT)
f.login('bob', 'secret')
f.storbinary('STOR привет.txt', io.BytesIO(b'hi'))
print('old', f.nlst())
print(f.mkd('папка'))
print(f.sendcmd('OPTS UTF8 ON'))
f.encoding = 'utf-8'
print('new', f.nlst())
f.storbinary('STOR 日本.txt', io.BytesIO(b'jp'))
f.quit()
"#,
    );
    assert!(out.contains("old ['readme.txt', 'привет.txt']"), "{out}");
    assert!(out.contains("\n/папка\n"), "{out}");
    assert!(out.contains("new ['readme.txt', 'папка', 'привет.txt']"), "{out}");
    // On disk (no fs charset): UTF-8 names.
    assert!(srv.path("привет.txt").is_file());
    assert!(srv.path("папка").is_dir());
    assert!(srv.path("日本.txt").is_file());
}

#[test]
fn mirror_mode_keeps_exact_bytes_and_refuses_charsets() {
    let srv = start(|c| c.mirror = true);
    raw_file(srv.root.path(), b"\xc6\xc1\xca\xcc", b"koi8");
    let out = python(
        &srv,
        r#"
f = ftplib.FTP(encoding='latin-1')
f.connect(HOST, PORT)
f.login('bob', 'secret')
print([n.encode('latin-1') for n in f.nlst()])
f.storbinary('STOR ' + b'\x93\xfa\x96\x7b'.decode('latin-1'), io.BytesIO(b'sjis'))
f.quit()
"#,
    );
    assert!(out.contains(r"b'\xc6\xc1\xca\xcc'"), "{out}");
    assert!(srv
        .path("x")
        .parent()
        .unwrap()
        .join(std::ffi::OsStr::from_bytes(b"\x93\xfa\x96\x7b"))
        .is_file());
    let mut cfg = babelftp_server::Config {
        root: srv.root.path().to_path_buf(),
        mirror: true,
        fs_charset: Some("koi8-r".into()),
        ..babelftp_server::Config::default()
    };
    assert!(babelftp_server::config::charsets(&cfg).is_err());
    cfg.mirror = false;
    cfg.fs_charset = Some("no-such-charset".into());
    assert!(babelftp_server::config::charsets(&cfg)
        .unwrap_err()
        .contains("no-such-charset"));
}

/// Issue 25.7: under a legacy client charset, curl and ftplib (UTF-8 names,
/// no `OPTS UTF8 ON`) no longer have their names garbled: the first
/// non-ASCII pathname that is valid UTF-8 turns the layer off for that
/// session; a real CP1251 client (lftp with ftp:charset cp1251) keeps it.
#[test]
fn a_legacy_charset_session_turns_utf8_at_its_first_utf8_name() {
    let srv = start(|c| c.legacy_client_charset = Some("windows-1251".into()));
    let port = srv.addrs.iter().find(|a| a.is_ipv4()).unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src.txt");
    std::fs::write(&src, b"from curl").unwrap();
    // curl: a Cyrillic and an emoji name, percent-encoded UTF-8.
    for name in ["%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82.txt", "%F0%9F%98%80.txt"] {
        let (rc, _) = babelftp_test_support::curl(&[
            "-T",
            src.to_str().unwrap(),
            &format!("ftp://bob:secret@127.0.0.1:{port}/{name}"),
        ]);
        assert_eq!(rc, 0, "{name}");
    }
    assert_eq!(std::fs::read(srv.path("Привет.txt")).unwrap(), b"from curl");
    assert!(srv.path("😀.txt").is_file());
    let (rc, got) = babelftp_test_support::curl(&[&format!(
        "ftp://bob:secret@127.0.0.1:{port}/%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82.txt"
    )]);
    assert_eq!((rc, got.as_slice()), (0, &b"from curl"[..]));
    // ftplib in UTF-8, no OPTS: its names and the listings after them.
    let out = python(
        &srv,
        r#"
f = ftplib.FTP(encoding='utf-8')
f.connect(HOST, PORT)
f.login('bob', 'secret')
f.storbinary('STOR Ёлка.txt', io.BytesIO(b'tree'))
print('names', sorted(f.nlst()))
f.quit()
"#,
    );
    assert!(
        out.contains("'Ёлка.txt'") && out.contains("'Привет.txt'") && out.contains("'😀.txt'"),
        "{out}"
    );
    assert!(srv.path("Ёлка.txt").is_file());
    // lftp as a CP1251 client: its names are CP1251 on the wire, UTF-8 on
    // disk, and its listing comes back in CP1251 (shown right by lftp).
    let up = dir.path().join("Щука.txt");
    std::fs::write(&up, b"pike").unwrap();
    let (rc, out, err) = babelftp_test_support::lftp(
        &format!("ftp://bob:secret@127.0.0.1:{port}"),
        &format!(
            "set ftp:use-utf8 no; set ftp:charset cp1251; set file:charset utf-8; lcd {}; put Щука.txt; cls -1",
            dir.path().display()
        ),
    );
    assert_eq!(rc, 0, "{out}{err}");
    assert_eq!(std::fs::read(srv.path("Щука.txt")).unwrap(), b"pike");
    assert!(out.lines().any(|l| l == "Щука.txt"), "{out}");
    assert!(out.lines().any(|l| l == "Привет.txt"), "{out}");
}

/// Issue 25.9: a name the disk's charset cannot hold is refused with a
/// reply that says so (it was "553 Syntax error in parameters"), and CWD
/// to a missing directory says it is missing (it was "Not a directory").
#[test]
fn errors_say_what_is_wrong_with_the_name_or_the_directory() {
    let srv = start(|c| c.fs_charset = Some("windows-1252".into()));
    let out = python(
        &srv,
        r#"
f = ftplib.FTP(encoding='utf-8')
f.connect(HOST, PORT)
f.login('bob', 'secret')
f.sendcmd('OPTS UTF8 ON')
for cmd in ['MKD 日本語', 'CWD nosuchdir', 'CWD readme.txt']:
    try:
        f.sendcmd(cmd)
        print(cmd, 'accepted')
    except ftplib.error_perm as e:
        print(cmd, '->', e)
try:
    f.storbinary('STOR שלום.txt', io.BytesIO(b'x'))
except ftplib.error_perm as e:
    print('STOR ->', e)
print(f.mkd('café'))
f.quit()
"#,
    );
    assert!(
        out.contains("MKD 日本語 -> 553 The name cannot be stored in the server's character set (windows-1252)."),
        "{out}"
    );
    assert!(
        out.contains("STOR -> 553 The name cannot be stored in the server's character set (windows-1252)."),
        "{out}"
    );
    assert!(out.contains("CWD nosuchdir -> 550 No such file or directory."), "{out}");
    assert!(out.contains("CWD readme.txt -> 550 Not a directory."), "{out}");
    assert!(out.contains("/café"), "{out}");
}
