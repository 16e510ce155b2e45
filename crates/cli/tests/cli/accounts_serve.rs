//! Issue 28's "done when", with the commands and nothing else: an admin
//! makes a user whose `/pub` is read-only, whose `/incoming` takes uploads
//! but no overwrite or delete, who sees a second directory at `/archive`,
//! and who gets French replies and CP1251 names after login; ftplib, curl
//! and lftp see exactly that; a change holds at the next login without a
//! restart or SIGHUP.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;

use crate::common;
use common::serve::Serve;

use babelftp_test_support::{curl, lftp};

use common::serve::{admin, run};

/// ftplib as carol, whose names are CP1251.
fn ftplib(addr: SocketAddr, script: &str) -> String {
    common::serve::ftplib(addr, "carol", "carol-pw", "cp1251", script)
}

#[test]
fn a_user_made_with_the_commands_sees_exactly_its_permissions_folders_language_and_charset() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let archive = dir.path().join("archive");
    std::fs::create_dir_all(root.join("pub")).unwrap();
    std::fs::create_dir_all(root.join("incoming")).unwrap();
    std::fs::create_dir_all(root.join("private")).unwrap();
    std::fs::create_dir_all(&archive).unwrap();
    std::fs::write(root.join("pub/readme.txt"), b"read me").unwrap();
    std::fs::write(root.join("pub").join("Привет.txt"), b"privet").unwrap();
    std::fs::write(root.join("private/secret.txt"), b"secret").unwrap();
    std::fs::write(archive.join("2019.txt"), b"old report").unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());

    // The admin's commands, and nothing else.
    let (code, out, err) = run(&["user", "add", "carol", "--db", &db], "carol-pw\n");
    assert_eq!(code, 0, "user add: {out}{err}");
    admin(&db, &["user", "perm", "carol", "/", "list"]);
    admin(&db, &["user", "perm", "carol", "/pub", "read"]);
    admin(&db, &["user", "perm", "carol", "/incoming", "upload,mkdir"]);
    admin(&db, &["user", "perm", "carol", "/archive", "read"]);
    // Below `/` everything inherits `list`, unless it says otherwise.
    admin(&db, &["user", "perm", "carol", "/private", "none"]);
    // The archive lies beside the root: allowed below their parent.
    admin(
        &db,
        &[
            "user",
            "mount",
            "carol",
            "/archive",
            archive.to_str().unwrap(),
            "--root",
            dir.path().to_str().unwrap(),
        ],
    );
    admin(
        &db,
        &["user", "set", "carol", "--lang", "fr", "--charset", "windows-1251"],
    );
    let shown = admin(&db, &["user", "show", "carol"]);
    assert!(shown.contains("/incoming") && shown.contains("windows-1251"), "{shown}");
    // The same store named by the server's configuration file.
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(&conf, format!("db = {db:?}\n")).unwrap();
    let (code, listed, err) = run(&["user", "list", "--config", conf.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    assert!(listed.starts_with("carol\t"), "{listed}");

    let srv = Serve::start(&root, &["--db", &db]);
    let store = srv.wait_for("accounts:");
    assert!(store.contains("SQLite") && store.contains("users: 1"), "{store}");

    // ftplib: French replies, CP1251 names, only what carol may list.
    let seen = ftplib(
        srv.addr,
        r#"
# Reply texts are UTF-8 (RFC 2640 3.2); ftplib read them as CP1251.
print('NOOP', ftp.sendcmd('NOOP').encode('cp1251').decode('utf-8'))
print('ROOT', sorted(ftp.nlst('/')))
# The drop box shows in /, where carol may list, in every listing.
print('MLSD', sorted((n, f.get('type'), f.get('perm')) for n, f in ftp.mlsd('/', ['type', 'perm'])))
lines = []; ftp.retrlines('LIST /', lines.append)
print('LIST', sorted(l.split()[-1] for l in lines), lines[0][:1])
ftp.cwd('/incoming'); print('CWD', ftp.pwd()); ftp.cwd('/')
print('PUB', sorted(ftp.nlst('/pub')))
buf = io.BytesIO(); ftp.retrbinary('RETR /pub/Привет.txt', buf.write); print('GOT', buf.getvalue())
buf = io.BytesIO(); ftp.retrbinary('RETR /archive/2019.txt', buf.write); print('ARCHIVE', buf.getvalue())
for cmd in ['STOR /pub/new.txt', 'STOR /archive/new.txt']:
    try:
        ftp.storbinary(cmd, io.BytesIO(b'x')); print('STORED', cmd)
    except ftplib.error_perm as e:
        print('REFUSED', cmd, e)
ftp.storbinary('STOR /incoming/report.pdf', io.BytesIO(b'first'))
try:
    ftp.storbinary('STOR /incoming/report.pdf', io.BytesIO(b'second')); print('OVERWROTE')
except ftplib.error_perm as e:
    print('NO-OVERWRITE', e)
try:
    ftp.delete('/incoming/report.pdf'); print('DELETED')
except ftplib.error_perm as e:
    print('NO-DELETE', e)
try:
    ftp.nlst('/incoming'); print('LISTED-INCOMING')
except ftplib.error_perm as e:
    print('NO-LIST', e)
try:
    ftp.nlst('/private'); print('LISTED-PRIVATE')
except ftplib.error_perm as e:
    print('NO-PRIVATE', e)
ftp.quit()
"#,
    );
    assert!(seen.contains("NOOP 200"), "{seen}");
    assert!(
        seen.contains("NOOP 200 Commande exécutée."),
        "replies in French: {seen}"
    );
    assert!(
        seen.contains("ROOT ['archive', 'incoming', 'pub']"),
        "the drop box is listed, private is not: {seen}"
    );
    assert!(
        seen.contains("MLSD [('archive', 'dir', 'el'), ('incoming', 'dir', 'cem'), ('pub', 'dir', 'el')]"),
        "{seen}"
    );
    assert!(seen.contains("LIST ['archive', 'incoming', 'pub']"), "{seen}");
    assert!(seen.contains("CWD /incoming"), "{seen}");
    assert!(
        seen.contains("'Привет.txt'"),
        "CP1251 names read back as Cyrillic: {seen}"
    );
    assert!(seen.contains("GOT b'privet'"), "{seen}");
    assert!(seen.contains("ARCHIVE b'old report'"), "{seen}");
    assert!(seen.contains("REFUSED STOR /pub/new.txt 550"), "{seen}");
    assert!(seen.contains("REFUSED STOR /archive/new.txt 550"), "{seen}");
    assert!(seen.contains("NO-OVERWRITE 550"), "{seen}");
    assert!(seen.contains("NO-DELETE 550"), "{seen}");
    assert!(seen.contains("NO-LIST 550"), "{seen}");
    assert!(seen.contains("NO-PRIVATE 550"), "{seen}");
    assert_eq!(std::fs::read(root.join("incoming/report.pdf")).unwrap(), b"first");
    assert!(!root.join("pub/new.txt").exists() && !archive.join("new.txt").exists());

    // curl: an upload into the drop box, and no second one over it.
    let url = |p: &str| format!("ftp://carol:carol-pw@{}{p}", srv.addr);
    let up = dir.path().join("up.bin");
    std::fs::write(&up, b"from curl").unwrap();
    let (code, _) = curl(&["-T", up.to_str().unwrap(), &url("/incoming/curl.bin")]);
    assert_eq!(code, 0);
    let (code, _) = curl(&["-T", up.to_str().unwrap(), &url("/incoming/report.pdf")]);
    assert_ne!(code, 0, "curl may not replace a file in the drop box");
    assert_eq!(std::fs::read(root.join("incoming/report.pdf")).unwrap(), b"first");
    let (code, body) = curl(&[&url("/archive/2019.txt")]);
    assert_eq!((code, body.as_slice()), (0, &b"old report"[..]));

    // lftp: the listing of / and a refused delete.
    let (code, out, err) = lftp(&format!("ftp://carol:carol-pw@{}", srv.addr), "cls -1 /");
    assert_eq!(code, 0, "{out}{err}");
    let mut names: Vec<&str> = out.lines().map(|l| l.trim_matches('/')).collect();
    names.sort();
    assert_eq!(names, ["archive", "incoming", "pub"], "{out}");
    // ... and in the drop box, nothing of what others left there.
    let (code, out, err) = lftp(&format!("ftp://carol:carol-pw@{}", srv.addr), "cls -1 /incoming/");
    assert_ne!(code, 0, "{out}{err}");
    assert!(!out.contains("report.pdf"), "{out}");
    let (code, _, _) = lftp(&format!("ftp://carol:carol-pw@{}", srv.addr), "rm /pub/readme.txt");
    assert_ne!(code, 0);
    assert!(root.join("pub/readme.txt").exists());

    // A change holds at the next login, on the running server.
    admin(&db, &["user", "perm", "carol", "/pub", "none"]);
    admin(&db, &["user", "set", "carol", "--lang", "en"]);
    let seen = ftplib(
        srv.addr,
        r#"
print('NOOP', ftp.sendcmd('NOOP'))
print('ROOT', sorted(ftp.nlst('/')))
"#,
    );
    assert!(seen.contains("NOOP 200 Command okay."), "English now: {seen}");
    assert!(seen.contains("ROOT ['archive', 'incoming']"), "/pub is gone: {seen}");
    // A disabled account is refused, as a wrong password is.
    admin(&db, &["user", "set", "carol", "--disable"]);
    let (code, _) = curl(&[&url("/archive/2019.txt")]);
    assert_eq!(code, 67, "curl: login denied");
}

#[test]
fn two_nodes_on_one_postgresql_store_see_every_change_at_the_next_login() {
    let pg = babelftp_test_support::postgres::start();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("pub")).unwrap();
    std::fs::write(root.join("pub/a.txt"), b"a").unwrap();
    let db = pg.url.clone();
    let (code, out, err) = run(&["user", "add", "carol", "--db", &db], "carol-pw\n");
    assert_eq!(code, 0, "user add: {out}{err}");
    admin(&db, &["user", "perm", "carol", "/", "read"]);
    let one = Serve::start(&root, &["--db", &db]);
    let banner = one.wait_for("accounts:");
    assert!(banner.contains("PostgreSQL") && banner.contains("users: 1"), "{banner}");
    let two = Serve::start(&root, &["--db", &db]);
    let probe = r#"
try:
    ftp.storbinary('STOR /pub/b.txt', io.BytesIO(b'b')); print('STORED')
    ftp.delete('/pub/b.txt')
except ftplib.error_perm as e:
    print('REFUSED', e)
"#;
    for node in [&one, &two] {
        assert!(ftplib(node.addr, probe).contains("REFUSED 550"));
    }
    // One command on the shared store; both nodes, no restart, no SIGHUP.
    admin(&db, &["user", "perm", "carol", "/pub", "all"]);
    for node in [&one, &two] {
        let seen = ftplib(node.addr, probe);
        assert!(seen.contains("STORED"), "{seen}");
    }
    let (code, out, err) = run(&["user", "passwd", "carol", "--db", &db], "new-secret\n");
    assert_eq!(code, 0, "passwd: {out}{err}");
    for node in [&one, &two] {
        let url = format!("ftp://carol:carol-pw@{}/pub/a.txt", node.addr);
        assert_eq!(curl(&[&url]).0, 67, "the old password is refused");
        let url = format!("ftp://carol:new-secret@{}/pub/a.txt", node.addr);
        assert_eq!(curl(&[&url]), (0, b"a".to_vec()));
    }
    // The store gone: a login is 421 (try later), never a 530 that would
    // call the right password wrong.
    drop(pg);
    let seen = common::serve::ftplib(one.addr, "carol", "new-secret", "utf-8", "print('IN')");
    assert!(seen.contains("LOGIN-REFUSED 421"), "{seen}");
}

/// Issue 45, item 7: `--home file:///DIR` is that directory (an
/// absolute source: here one inside the served root, which is allowed by
/// default), not ROOT/DIR.
#[test]
fn a_file_url_home_is_served_from_that_directory() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let elsewhere = root.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("real.txt"), b"real").unwrap();
    // What ROOT/DIR would show, were the home read as a path of the root.
    let inside = root.join(elsewhere.strip_prefix("/").unwrap());
    std::fs::create_dir_all(&inside).unwrap();
    std::fs::write(inside.join("wrong.txt"), b"wrong").unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(&conf, format!("db = {db:?}\nroot = \"root\"\n")).unwrap();
    let home = format!("file://{}", elsewhere.display());
    let (code, out, err) = run(
        &[
            "user",
            "add",
            "carol",
            "--home",
            &home,
            "--config",
            conf.to_str().unwrap(),
        ],
        "carol-pw\n",
    );
    assert_eq!(code, 0, "{out}{err}");
    let srv = Serve::start(&root, &["--config", conf.to_str().unwrap()]);
    let seen = ftplib(srv.addr, "print('LIST', sorted(ftp.nlst()))\nftp.quit()");
    assert!(seen.contains("LIST ['real.txt']"), "{seen}");
}
