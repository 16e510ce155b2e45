//! Issue 45, items 3 and 4, on every door they concern: FTP, FTPS, and
//! the web view over HTTPS with HTTP/1.1 and with HTTP/2.
//!
//! - A rename (or removal) of a directory with a stricter rule below it is
//!   refused, naming the folder whose rule refuses: `RNFR /projects` +
//!   `RNTO /moved` once took `/projects/locked` (rule `none`) out from
//!   under its rule.
//! - An upload racing another session's rename of the file it replaces is
//!   credited only with what it really replaces when it takes its name:
//!   the usage equals what is stored and never passes the quota (it once
//!   said 800 KiB with 3.3 MB on disk). Folders count against a file
//!   quota.
//! - A folder where an overwrite just left its replaced file (kept for a
//!   second) is removed at once by another session or door.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;
use std::path::Path;

use crate::common;
use common::serve::{admin, python, run, usage, Serve};
use common::web::{login_from, Answer};

/// curl speaking `http` (`--http1.1` or `--http2`) with a cookie jar.
fn curl(jar: &Path, http: &str, url: &str, extra: &[&str]) -> Answer {
    let mut args = vec![http];
    args.extend_from_slice(extra);
    common::web::curl(jar, url, &args)
}

/// Logs `user` in through the web form over `http`; the token of the
/// logged-in pages.
fn web_login(jar: &Path, http: &str, base: &str, user: &str, password: &str) -> String {
    let r = login_from("127.0.0.1", jar, base, "/", user, password, &[http]);
    assert_eq!(r.status, 200, "login as {user}: {}", r.body);
    let want = if http == "--http2" { "HTTP/2" } else { "HTTP/1.1" };
    assert!(r.headers.contains(want), "{http}: {}", r.headers);
    r.token("logout")
}

/// A POST of a form with the session's token, over `http`.
fn post(jar: &Path, http: &str, url: &str, token: &str, fields: &[&str]) -> Answer {
    common::web::post(jar, url, token, fields, &[http])
}

/// The server with a store, FTPS and the web view over HTTPS; (server,
/// web base URL).
fn start(dir: &Path, root: &Path, db: &str) -> (Serve, String) {
    let (cert, key) = babelftp_test_support::certificate(dir);
    let srv = Serve::start(
        root,
        &[
            "--db",
            db,
            "--http-listen",
            "127.0.0.1:0",
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    let base = srv.url_after("web view: ");
    assert!(base.starts_with("https://"), "{base}");
    (srv, base)
}

fn user(db: &str, name: &str, password: &str) {
    let (code, out, err) = run(&["user", "add", name, "--db", db], &format!("{password}\n"));
    assert_eq!(code, 0, "user add: {out}{err}");
}

/// A store in `dir` with the user `name` (password `NAME-secret`) and its
/// rules (path, permissions): its URL.
fn user_with_rules(dir: &Path, name: &str, rules: &[(&str, &str)]) -> String {
    let db = format!("sqlite:{}", dir.join("users.db").display());
    user(&db, name, &format!("{name}-secret"));
    for (path, perms) in rules {
        admin(&db, &["user", "perm", name, path, perms]);
    }
    db
}

/// Python prelude: `session(tls)` logs `USER` in over FTP or FTPS
/// (explicit, AUTH TLS, PROT P with the control connection's TLS session
/// resumed on data connections, as the server requires).
fn prelude(addr: SocketAddr, user: &str, password: &str) -> String {
    format!(
        r#"
import ftplib, ssl, json, socket, threading, time
HOST, PORT = {host:?}, {port}
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
ctx.check_hostname = False
ctx.verify_mode = ssl.CERT_NONE
class Reusing(ftplib.FTP_TLS):
    def ntransfercmd(self, cmd, rest=None):
        conn, size = ftplib.FTP.ntransfercmd(self, cmd, rest)
        if self._prot_p:
            conn = self.context.wrap_socket(conn, server_hostname=self.host, session=self.sock.session)
        return conn, size
def session(tls):
    f = Reusing(context=ctx) if tls else ftplib.FTP()
    f.connect(HOST, PORT, timeout=30)
    f.login({user:?}, {password:?})
    if tls:
        f.prot_p()
    return f
def answer(f, cmd):
    try:
        return f.sendcmd(cmd)
    except ftplib.all_errors as e:
        return str(e)
"#,
        host = addr.ip().to_string(),
        port = addr.port()
    )
}

#[test]
fn a_folder_with_a_stricter_rule_inside_is_neither_moved_nor_removed_on_any_door() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("projects/locked")).unwrap();
    std::fs::write(root.join("projects/locked/secret.txt"), "secret").unwrap();
    std::fs::write(root.join("projects/readme.txt"), "readme").unwrap();
    let db = user_with_rules(dir.path(), "alice", &[("/", "all"), ("/projects/locked", "none")]);
    let (srv, base) = start(dir.path(), &root, &db);

    // FTP and FTPS: RNTO and RMD refused with 550 naming the folder inside.
    let script = prelude(srv.addr, "alice", "alice-secret")
        + r#"
out = {}
for tls in (False, True):
    f = session(tls)
    r = {}
    r['rnfr'] = answer(f, 'RNFR /projects')
    r['rnto'] = answer(f, 'RNTO /moved')
    r['rmd'] = answer(f, 'RMD /projects')
    # Into the guarded folder's parent: /projects would hold it.
    d = '/other-%d' % tls
    r['mkd'] = answer(f, 'MKD ' + d)
    answer(f, 'RNFR ' + d)
    r['into'] = answer(f, 'RNTO /projects/locked/x')
    # A folder without rules inside moves as before.
    answer(f, 'RNFR ' + d)
    r['plain'] = answer(f, 'RNTO ' + d + '-moved')
    r['size'] = answer(f, 'SIZE /projects/locked/secret.txt')
    out['ftps' if tls else 'ftp'] = r
    f.quit()
print(json.dumps(out))
"#;
    let out: serde_json::Value = serde_json::from_str(python(&script).trim()).unwrap();
    for door in ["ftp", "ftps"] {
        let r = &out[door];
        assert!(r["rnfr"].as_str().unwrap().starts_with("350"), "{door}: {r}");
        let rnto = r["rnto"].as_str().unwrap();
        assert!(
            rnto.starts_with("550 \"/projects/locked\"") && rnto.contains("“rename”"),
            "{door}: {rnto}"
        );
        let rmd = r["rmd"].as_str().unwrap();
        assert!(
            rmd.starts_with("550 \"/projects/locked\"") && rmd.contains("“rmdir”"),
            "{door}: {rmd}"
        );
        assert!(r["mkd"].as_str().unwrap().starts_with("257"), "{door}: {r}");
        assert!(r["into"].as_str().unwrap().starts_with("550"), "{door}: {r}");
        assert!(r["plain"].as_str().unwrap().starts_with("250"), "{door}: {r}");
        assert!(r["size"].as_str().unwrap().starts_with("550"), "{door}: {r}");
    }
    assert!(root.join("projects/locked/secret.txt").is_file());
    assert!(!root.join("moved").exists());

    // The web view, over HTTPS with HTTP/1.1 and with HTTP/2: the rename
    // form and the delete button of /projects answer 403 naming the folder.
    for http in ["--http1.1", "--http2"] {
        let jar = dir.path().join(format!("jar{http}"));
        let token = web_login(&jar, http, &base, "alice", "alice-secret");
        let r = post(&jar, http, &format!("{base}/projects?rename"), &token, &["to=moved"]);
        assert_eq!(r.status, 403, "{http}: {}", r.body);
        assert!(
            r.body.contains("/projects/locked") && r.body.contains("“rename”"),
            "{http}: {}",
            r.body
        );
        let r = post(&jar, http, &format!("{base}/projects?delete"), &token, &[]);
        assert_eq!(r.status, 403, "{http}: {}", r.body);
        assert!(r.body.contains("/projects/locked"), "{http}: {}", r.body);
        // The guarded file is still out of reach.
        let r = curl(&jar, http, &format!("{base}/projects/locked/secret.txt"), &[]);
        assert!(r.status == 403 || r.status == 404, "{http}: {}", r.status);
        // A file beside it renames as before.
        let r = post(
            &jar,
            http,
            &format!("{base}/projects/readme.txt?rename"),
            &token,
            &["to=readme-2.txt"],
        );
        assert_eq!(r.status, 303, "{http}: {}", r.body);
        let r = post(
            &jar,
            http,
            &format!("{base}/projects/readme-2.txt?rename"),
            &token,
            &["to=readme.txt"],
        );
        assert_eq!(r.status, 303, "{http}: {}", r.body);
    }
    assert!(root.join("projects/locked/secret.txt").is_file());
    assert!(!root.join("moved").exists());
}

/// Octets and entries (files and folders) below `dir`.
fn on_disk(dir: &Path) -> (u64, u64) {
    let (mut bytes, mut entries) = (0, 0);
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let md = e.metadata().unwrap();
        entries += 1;
        if md.is_dir() {
            let (b, n) = on_disk(&e.path());
            bytes += b;
            entries += n;
        } else {
            bytes += md.len();
        }
    }
    (bytes, entries)
}

const KIB800: usize = 800 << 10;

#[test]
fn an_upload_racing_a_rename_of_the_file_it_replaces_never_takes_the_usage_past_the_quota() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let home = root.join("bob");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("F"), vec![b'f'; KIB800]).unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    user(&db, "bob", "bob-secret");
    admin(
        &db,
        &[
            "user",
            "set",
            "bob",
            "--home",
            "/bob",
            "--quota-bytes",
            "1MiB",
            "--quota-files",
            "none",
        ],
    );
    let (srv, base) = start(dir.path(), &root, &db);

    // Session 1 sends 800 KiB over F in two halves; between them, session
    // 2 renames F away. Three rounds, on FTP then FTPS: each STOR replaces
    // nothing when it takes the name, so it would add 800 KiB past the
    // 1 MiB quota: 552, and F is not stored again.
    let script = prelude(srv.addr, "bob", "bob-secret")
        + r#"
half = b'u' * (400 << 10)
out = []
for tls in (False, True):
    for i in range(3):
        s1, s2 = session(tls), session(tls)
        s1.voidcmd('TYPE I')
        conn = s1.transfercmd('STOR F')
        conn.sendall(half)
        time.sleep(0.3)
        rn = answer(s2, 'RNFR F')
        if rn.startswith('350'):
            rn = answer(s2, 'RNTO G-%d-%d' % (tls, i))
        time.sleep(0.3)
        conn.sendall(half)
        if tls:
            try:
                conn.unwrap()
            except (OSError, ssl.SSLError):
                pass
        conn.close()
        try:
            end = s1.voidresp()
        except ftplib.all_errors as e:
            end = str(e)
        out.append({'tls': tls, 'rename': rn, 'stor': end, 'quota': answer(s1, 'SITE QUOTA')})
        s1.quit(); s2.quit()
print(json.dumps(out))
"#;
    let out: serde_json::Value = serde_json::from_str(python(&script).trim()).unwrap();
    let rounds = out.as_array().unwrap();
    // The first round renames F away while it is replaced: refused.
    assert!(rounds[0]["rename"].as_str().unwrap().starts_with("250"), "{out}");
    assert!(rounds[0]["stor"].as_str().unwrap().starts_with("552"), "{out}");
    // The next rounds find no F to rename: each STOR makes a new file,
    // which the quota refuses too.
    for r in &rounds[1..] {
        assert!(r["stor"].as_str().unwrap().starts_with("552"), "{out}");
    }
    let (bytes, files) = usage(&db, "bob");
    assert_eq!((bytes, files), on_disk(&home), "usage against the disk: {out}");
    assert!(bytes <= 1 << 20, "{out}");

    // The web door, HTTP/1.1 and HTTP/2: an upload of 800 KiB over F,
    // slowed down, while FTP renames F away; then the usage is what is
    // stored. Each round starts from F alone, counted by quota-scan.
    let local = dir.path().join("F");
    std::fs::write(&local, vec![b'w'; KIB800]).unwrap();
    for (i, http) in ["--http1.1", "--http2"].into_iter().enumerate() {
        std::fs::remove_dir_all(&home).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(home.join("F"), vec![b'f'; KIB800]).unwrap();
        let (code, scanned, err) = run(
            &[
                "user",
                "quota-scan",
                "bob",
                "--root",
                root.to_str().unwrap(),
                "--db",
                &db,
            ],
            "",
        );
        assert_eq!(code, 0, "{scanned}{err}");
        assert_eq!(usage(&db, "bob"), (KIB800 as u64, 1));
        let jar = dir.path().join(format!("jar{http}"));
        let token = web_login(&jar, http, &base, "bob", "bob-secret");
        let renamer = {
            let script = prelude(srv.addr, "bob", "bob-secret")
                + &format!(
                    "time.sleep(1.0)\nf = session(False)\nprint(answer(f, 'RNFR F'), answer(f, 'RNTO W-{i}'))\n"
                );
            std::thread::spawn(move || python(&script))
        };
        let r = curl(
            &jar,
            http,
            &format!("{base}/?upload"),
            &[
                "--limit-rate",
                "300K",
                "-F",
                &format!("csrf={token}"),
                "-F",
                &format!("file=@{}", local.display()),
            ],
        );
        let renamed = renamer.join().unwrap();
        assert!(renamed.contains("250"), "{http}: {renamed}");
        assert_eq!(
            r.status, 507,
            "{http}: the upload now replaces nothing and passes the quota: {}",
            r.body
        );
        let (bytes, files) = usage(&db, "bob");
        assert_eq!((bytes, files), on_disk(&home), "{http}: usage against the disk");
        assert!(bytes <= 1 << 20, "{http}: {bytes}");
    }
}

#[test]
fn folders_count_against_a_file_quota_on_ftp_and_on_the_web() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("carol")).unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    user(&db, "carol", "carol-pw");
    admin(&db, &["user", "set", "carol", "--home", "/carol", "--quota-files", "3"]);
    let (srv, base) = start(dir.path(), &root, &db);
    let script = prelude(srv.addr, "carol", "carol-pw")
        + r#"
out = {}
for tls in (False, True):
    f = session(tls)
    out['tls' if tls else 'plain'] = [answer(f, 'MKD d-%d-%d' % (tls, i)) for i in range(3)]
    f.quit()
print(json.dumps(out))
"#;
    let out: serde_json::Value = serde_json::from_str(python(&script).trim()).unwrap();
    let plain: Vec<&str> = out["plain"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(plain[..3].iter().all(|r| r.starts_with("257")), "{out}");
    // The fourth folder: 552, said as a quota of entries.
    let tls: Vec<&str> = out["tls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(tls.iter().all(|r| r.starts_with("552")), "{out}");
    assert!(tls[0].contains("folders"), "{out}");
    assert_eq!(usage(&db, "carol"), (0, 3));
    assert_eq!(on_disk(&root.join("carol")), (0, 3));
    // The web view's new folder: refused too (507), over HTTP/1.1 and /2.
    for http in ["--http1.1", "--http2"] {
        let jar = dir.path().join(format!("jar{http}"));
        let token = web_login(&jar, http, &base, "carol", "carol-pw");
        let r = post(&jar, http, &format!("{base}/?mkdir"), &token, &["name=web"]);
        assert_eq!(r.status, 507, "{http}: {}", r.body);
        assert!(r.body.contains("folders"), "{http}: {}", r.body);
    }
    assert!(!root.join("carol/web").exists());
    // RMD gives the place back: a new folder fits again, on the web.
    let script = prelude(srv.addr, "carol", "carol-pw") + "f = session(False)\nprint(answer(f, 'RMD d-0-0'))\n";
    assert!(python(&script).starts_with("250"));
    assert_eq!(usage(&db, "carol"), (0, 2));
    let jar = dir.path().join("jar-again");
    let token = web_login(&jar, "--http2", &base, "carol", "carol-pw");
    let r = post(&jar, "--http2", &format!("{base}/?mkdir"), &token, &["name=web"]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(usage(&db, "carol"), (0, 3));
    assert_eq!(on_disk(&root.join("carol")), (0, 3));
}

#[test]
fn a_symlink_inside_the_root_reaches_nothing_the_rules_refuse_at_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("pub")).unwrap();
    std::fs::create_dir_all(root.join("private")).unwrap();
    std::fs::create_dir_all(root.join("shared")).unwrap();
    std::fs::write(root.join("private/secret.txt"), "the private words").unwrap();
    std::fs::write(root.join("shared/notes.txt"), "notes").unwrap();
    std::os::unix::fs::symlink("../private", root.join("pub/privlink")).unwrap();
    std::os::unix::fs::symlink("../private/secret.txt", root.join("pub/secret-link.txt")).unwrap();
    std::os::unix::fs::symlink("../shared", root.join("pub/sharedlink")).unwrap();
    let db = user_with_rules(dir.path(), "dave", &[("/", "all"), ("/private", "none")]);
    let (srv, base) = start(dir.path(), &root, &db);

    let script = prelude(srv.addr, "dave", "dave-secret")
        + r#"
import io
def retr(f, path):
    b = io.BytesIO()
    try:
        f.retrbinary('RETR ' + path, b.write)
        return b.getvalue().decode()
    except ftplib.all_errors as e:
        return str(e)
def stor(f, path):
    try:
        return f.storbinary('STOR ' + path, io.BytesIO(b'x'))
    except ftplib.all_errors as e:
        return str(e)
def nlst(f, path):
    try:
        return f.nlst(path)
    except ftplib.all_errors as e:
        return str(e)
out = {}
for tls in (False, True):
    f = session(tls)
    out['ftps' if tls else 'ftp'] = {
        'direct': retr(f, '/private/secret.txt'),
        'through_dir': retr(f, '/pub/privlink/secret.txt'),
        'through_file': retr(f, '/pub/secret-link.txt'),
        'list': nlst(f, '/pub/privlink'),
        'stor': stor(f, '/pub/privlink/new-%d.txt' % tls),
        'size': answer(f, 'SIZE /pub/privlink/secret.txt'),
        'allowed': retr(f, '/pub/sharedlink/notes.txt'),
    }
    f.quit()
print(json.dumps(out))
"#;
    let out: serde_json::Value = serde_json::from_str(python(&script).trim()).unwrap();
    for door in ["ftp", "ftps"] {
        let r = &out[door];
        for k in ["direct", "through_dir", "through_file", "stor", "size"] {
            assert!(r[k].as_str().unwrap().starts_with("550"), "{door} {k}: {r}");
        }
        assert!(!r["list"].to_string().contains("secret.txt"), "{door}: {r}");
        assert_eq!(r["allowed"], "notes", "{door}: {r}");
    }
    assert!(!root.join("private/new-0.txt").exists() && !root.join("private/new-1.txt").exists());
    for http in ["--http1.1", "--http2"] {
        let jar = dir.path().join(format!("jar{http}"));
        web_login(&jar, http, &base, "dave", "dave-secret");
        for path in ["/pub/privlink/secret.txt", "/pub/secret-link.txt", "/pub/privlink/"] {
            let r = curl(&jar, http, &format!("{base}{path}"), &[]);
            assert!(
                r.status == 403 || r.status == 404,
                "{http} {path}: {} {}",
                r.status,
                r.body
            );
            // The refusal page names the path asked for (its header and
            // way back), never what is there.
            assert!(!r.body.contains("the private words"), "{http} {path}: {}", r.body);
        }
        let r = curl(&jar, http, &format!("{base}/pub/sharedlink/notes.txt"), &[]);
        assert_eq!((r.status, r.body.as_str()), (200, "notes"), "{http}");
    }
}

/// An overwrite keeps the file it replaced, hidden in its folder, for up
/// to a second (to undo it, or for the session's next upload to write
/// into): another session's RMD of that folder, on FTP and FTPS, and the
/// web view's delete over HTTP/1.1 and HTTP/2, remove it with the folder
/// at once instead of answering "not empty" meanwhile. (The removing
/// session is logged in before the overwrite, so that it acts within the
/// second.)
#[test]
fn a_folder_where_an_overwrite_just_happened_is_removed_at_once_on_every_door() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let doors = ["ftp", "ftps", "--http1.1", "--http2"];
    for door in doors {
        std::fs::create_dir_all(root.join(format!("d{door}"))).unwrap();
        std::fs::write(root.join(format!("d{door}/a.txt")), "old").unwrap();
    }
    let db = user_with_rules(dir.path(), "erin", &[("/", "all")]);
    let (srv, base) = start(dir.path(), &root, &db);
    let mut webs = Vec::new();
    for http in &doors[2..] {
        let jar = dir.path().join(format!("jar{http}"));
        let token = web_login(&jar, http, &base, "erin", "erin-secret");
        webs.push(format!("({http:?}, {:?}, {token:?})", jar.display().to_string()));
    }
    let script = prelude(srv.addr, "erin", "erin-secret")
        + &format!(
            "ROOT, BASE, WEB = {:?}, {base:?}, [{}]\n",
            root.display().to_string(),
            webs.join(", ")
        )
        + r#"
import io, os, subprocess
def spares(d):
    return len([n for n in os.listdir(os.path.join(ROOT, d)) if n.endswith('.part')])
def web_delete(http, jar, token, path):
    return subprocess.run(['curl', '-sS', '-k', '-g', '--max-time', '60', http, '-c', jar, '-b', jar,
                           '-o', '/dev/null', '-w', '%{http_code}', '--data-urlencode', 'csrf=' + token,
                           BASE + path + '?delete'], capture_output=True, text=True).stdout.strip()
a = session(False)
out = {}
for door in ('ftp', 'ftps'):
    d = 'd' + door
    b = session(door == 'ftps')
    a.storbinary('STOR /%s/a.txt' % d, io.BytesIO(b'new'))
    r = {'spares': spares(d)}
    r['dele'] = answer(b, 'DELE /%s/a.txt' % d)
    r['rmd'] = answer(b, 'RMD /%s' % d)
    r['gone'] = not os.path.exists(os.path.join(ROOT, d))
    b.quit()
    out[door] = r
for http, jar, token in WEB:
    d = 'd' + http
    a.storbinary('STOR /%s/a.txt' % d, io.BytesIO(b'new'))
    r = {'spares': spares(d)}
    r['dele'] = web_delete(http, jar, token, '/%s/a.txt' % d)
    r['rmd'] = web_delete(http, jar, token, '/%s' % d)
    r['gone'] = not os.path.exists(os.path.join(ROOT, d))
    out[http] = r
# The overwriting session goes on: its next upload gets a file of its own.
os.makedirs(os.path.join(ROOT, 'dftp'), exist_ok=True)
out['again'] = answer(a, 'TYPE I')
a.storbinary('STOR /dftp/b.txt', io.BytesIO(b'b'))
out['quit'] = a.quit()
print(json.dumps(out))
"#;
    let out: serde_json::Value = serde_json::from_str(python(&script).trim()).unwrap();
    for door in doors {
        let r = &out[door];
        // The replaced file was there when the other door acted.
        assert_eq!(r["spares"], 1, "{door}: {out}");
        let (dele, rmd) = (r["dele"].as_str().unwrap(), r["rmd"].as_str().unwrap());
        if door.starts_with("ftp") {
            assert!(dele.starts_with("250") && rmd.starts_with("250"), "{door}: {out}");
        } else {
            assert!(dele == "303" && rmd == "303", "{door}: {out}");
        }
        assert_eq!(r["gone"], true, "{door}: {out}");
    }
    assert!(out["quit"].as_str().unwrap().starts_with("221"), "{out}");
    assert_eq!(std::fs::read(root.join("dftp/b.txt")).unwrap(), b"b");
    let left: Vec<_> = std::fs::read_dir(root.join("dftp")).unwrap().collect();
    assert_eq!(left.len(), 1, "{left:?}");
}
