//! Logins decided outside babelftp (issue 28): a real OpenLDAP `slapd`
//! (unpacked by scripts/slapd.sh) checks the passwords, its groups map to
//! babelftp groups of the store; an HTTP auth hook (a small server here)
//! allows a login and sets the account. ftplib and curl log in.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::sync::{Arc, Mutex};

use babelftp_test_support::certificate;
use babelftp_test_support::slapd::{ssha, Slapd};

use crate::common;
use common::serve::Serve;

const BASE: &str = "dc=example,dc=org";

fn ldif() -> String {
    format!(
        "dn: ou=people,{BASE}
objectClass: organizationalUnit
ou: people

dn: ou=groups,{BASE}
objectClass: organizationalUnit
ou: groups

dn: uid=alice,ou=people,{BASE}
objectClass: inetOrgPerson
uid: alice
cn: Alice
sn: Liddell
userPassword: {alice}

dn: uid=bob,ou=people,{BASE}
objectClass: inetOrgPerson
uid: bob
cn: Bob
sn: Builder
userPassword: bobs-secret

dn: cn=ftp-staff,ou=groups,{BASE}
objectClass: groupOfNames
cn: ftp-staff
member: uid=alice,ou=people,{BASE}
",
        alice = ssha("wonderland")
    )
}

/// `babelftp ARGS` (must succeed).
fn admin(args: &[&str]) {
    let (code, out, err) = common::serve::run(args, "");
    assert_eq!(code, 0, "babelftp {args:?}: {out}{err}");
}

fn ftplib(addr: SocketAddr, user: &str, password: &str, script: &str) -> String {
    common::serve::ftplib(addr, user, password, "utf-8", script)
}

const WRITE: &str = r#"
try:
    ftp.storbinary('STOR /staff/x.txt', io.BytesIO(b'x')); print('STORED')
except ftplib.error_perm as e:
    print('REFUSED', e)
print('ROOT', sorted(ftp.nlst('/')))
ftp.quit()
"#;

#[test]
fn ldap_users_log_in_with_their_directory_password_and_get_their_groups_settings() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = certificate(dir.path());
    let slapd = Slapd::start(BASE, &ldif(), Some((&cert, &key)));
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("staff")).unwrap();
    std::fs::write(root.join("readme.txt"), b"hi").unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    // The store holds the babelftp group LDAP's ftp-staff maps to.
    admin(&["group", "add", "staff", "--db", &db]);
    admin(&["group", "perm", "staff", "/", "all", "--db", &db]);

    // A DN template over StartTLS, and search-then-bind over ldaps://,
    // both checking slapd's certificate against ca_file.
    let modes = [
        format!(
            "url = {:?}\nstarttls = true\nuser_dn = \"uid={{user}},ou=people,{BASE}\"",
            slapd.url
        ),
        format!(
            "url = {:?}\nsearch_base = \"ou=people,{BASE}\"\nsearch_filter = \"(uid={{user}})\"",
            slapd.ldaps_url.clone().unwrap()
        ),
    ];
    for (i, mode) in modes.iter().enumerate() {
        let conf = dir.path().join(format!("babelftp-{i}.toml"));
        std::fs::write(
            &conf,
            format!(
                "db = {db:?}\n[ldap]\n{mode}\nca_file = {:?}\ngroup_base = \"ou=groups,{BASE}\"\ngroups = {{ ftp-staff = \"staff\" }}\n",
                cert.display().to_string()
            ),
        )
        .unwrap();
        let log = dir.path().join(format!("serve-{i}.log"));
        let srv = Serve::start_logged(
            &root,
            &["--config", conf.to_str().unwrap()],
            &[("BABELFTP_LOG", "debug")],
            Some(&log),
        );
        let accounts = srv.wait_for("accounts:");
        assert!(accounts.contains("LDAP"), "{accounts}");
        // alice: the directory's password, the staff group's rights.
        let seen = ftplib(srv.addr, "alice", "wonderland", WRITE);
        assert!(seen.contains("STORED"), "mode {i}: {seen}");
        // bob: in no mapped group, no account of his own: read only.
        let seen = ftplib(srv.addr, "bob", "bobs-secret", WRITE);
        assert!(seen.contains("REFUSED 550"), "mode {i}: {seen}");
        assert!(seen.contains("ROOT ['readme.txt', 'staff']"), "mode {i}: {seen}");
        // Wrong passwords, unknown names and filter tricks are 530.
        for (user, pw) in [("alice", "wrong"), ("carol", "x"), ("*", "wonderland"), ("alice", "")] {
            let seen = ftplib(srv.addr, user, pw, "print('IN')");
            assert!(seen.contains("LOGIN-REFUSED 530"), "mode {i}: {user}: {seen}");
        }
        std::fs::remove_file(root.join("staff/x.txt")).unwrap();
        drop(srv);
        // Passwords, right or wrong, never reach the log (at debug).
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.contains("LDAP login"), "the log is the server's: {text}");
        for pw in ["wonderland", "bobs-secret"] {
            assert!(!text.contains(pw), "mode {i}: {pw} in the log");
        }
    }
    // A store account of an LDAP user gives it its settings, never a
    // second password; disabled in the store, it stays out.
    let (code, out, err) = common::serve::run(
        &["user", "add", "bob", "--group", "staff", "--db", &db],
        "store-password\n",
    );
    assert_eq!(code, 0, "{out}{err}");
    let conf = dir.path().join("babelftp-0.toml");
    let srv = Serve::start(&root, &["--config", conf.to_str().unwrap()]);
    let seen = ftplib(srv.addr, "bob", "bobs-secret", WRITE);
    assert!(seen.contains("STORED"), "bob in staff through the store: {seen}");
    let seen = ftplib(srv.addr, "bob", "store-password", "print('IN')");
    assert!(
        seen.contains("LOGIN-REFUSED 530"),
        "the store's password is not LDAP's: {seen}"
    );
    admin(&["user", "set", "bob", "--disable", "--db", &db]);
    let seen = ftplib(srv.addr, "bob", "bobs-secret", "print('IN')");
    assert!(seen.contains("LOGIN-REFUSED 530"), "disabled: {seen}");
}

/// An auth hook: allows `hooky`/`hook-pw` read-only with German replies;
/// every request body is kept.
fn hook_server() -> (String, Arc<Mutex<Vec<String>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/auth", l.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for conn in l.incoming() {
            let Ok(mut conn) = conn else { break };
            let mut r = BufReader::new(conn.try_clone().unwrap());
            let mut len = 0usize;
            loop {
                let mut line = String::new();
                if r.read_line(&mut line).unwrap_or(0) == 0 {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap_or(0);
                }
                if line == "\r\n" {
                    break;
                }
            }
            let mut body = vec![0; len];
            if r.read_exact(&mut body).is_err() {
                continue;
            }
            let body = String::from_utf8_lossy(&body).into_owned();
            let allow = body.contains("\"user\":\"hooky\"") && body.contains("\"password\":\"hook-pw\"");
            log.lock().unwrap().push(body);
            let (status, json) = if allow {
                (
                    "200 OK",
                    r#"{"allow": true, "permissions": {"/": "read"}, "lang": "de"}"#,
                )
            } else {
                ("403 Forbidden", r#"{"allow": false}"#)
            };
            let _ = write!(
                conn,
                "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{json}",
                json.len()
            );
        }
    });
    (url, seen)
}

#[test]
fn the_auth_hook_decides_logins_and_sets_the_account() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("staff")).unwrap();
    std::fs::write(root.join("readme.txt"), b"hi").unwrap();
    let (url, requests) = hook_server();
    let log = dir.path().join("serve.log");
    let srv = Serve::start_logged(&root, &["--auth-hook", &url], &[("BABELFTP_LOG", "debug")], Some(&log));
    assert!(srv.wait_for("accounts:").contains("auth hook"));
    let seen = ftplib(
        srv.addr,
        "hooky",
        "hook-pw",
        &format!("print('NOOP', ftp.sendcmd('NOOP'))\n{WRITE}"),
    );
    assert!(seen.contains("REFUSED 550"), "read only: {seen}");
    assert!(seen.contains("NOOP 200 Befehl"), "German replies: {seen}");
    assert!(seen.contains("ROOT ['readme.txt', 'staff']"), "{seen}");
    let seen = ftplib(srv.addr, "hooky", "wrong", "print('IN')");
    assert!(seen.contains("LOGIN-REFUSED 530"), "{seen}");
    // A name that is not UTF-8 (the octet FF) is refused without asking
    // the hook: as text it would be another name.
    let seen = common::serve::ftplib(srv.addr, "hooky\u{ff}", "hook-pw", "latin-1", "print('IN')");
    assert!(seen.contains("LOGIN-REFUSED 530"), "{seen}");
    let bodies = requests.lock().unwrap().clone();
    assert_eq!(bodies.len(), 2, "{bodies:?}");
    assert!(bodies[0].contains("\"client_address\":\"127.0.0.1\""), "{}", bodies[0]);
    assert!(bodies[0].contains("\"protocol\":\"ftp\""), "{}", bodies[0]);
    drop(srv);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("PASS ****"), "the log has the commands: {text}");
    assert!(!text.contains("hook-pw"), "the password is not in the log");
    // A hook that is not there refuses logins (530), it does not let in.
    let srv = Serve::start(&root, &["--auth-hook", "http://127.0.0.1:9/none"]);
    let seen = ftplib(srv.addr, "hooky", "hook-pw", "print('IN')");
    assert!(seen.contains("LOGIN-REFUSED 530"), "{seen}");
}

/// A web login through the form (`?login`) with Python's urllib and a
/// cookie jar, then `GET /`: (the login's final status, the page of `/`).
fn web_login(base: &str, user: &str, password: &str) -> (u16, String) {
    let script = format!(
        r#"
import http.cookiejar, re, urllib.parse, urllib.request, urllib.error
jar = http.cookiejar.CookieJar()
op = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
page = op.open({base:?} + '/?login', timeout=20).read().decode()
form = page[page.index('<form id="login"'):]
token = re.search(r'name="csrf" value="([^"]*)"', form).group(1)
data = urllib.parse.urlencode({{'csrf': token, 'user': {user:?}, 'password': {password:?}}}).encode()
try:
    r = op.open({base:?} + '/?login', data=data, timeout=20)
    status = r.status
except urllib.error.HTTPError as e:
    status = e.code
print('STATUS', status)
try:
    print(op.open({base:?} + '/', timeout=20).read().decode())
except urllib.error.HTTPError as e:
    print('PAGE', e.code)
"#
    );
    let out = common::serve::python(&script);
    let status = out
        .lines()
        .find_map(|l| l.strip_prefix("STATUS "))
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    (status, out)
}

fn lbob_ldif() -> String {
    format!(
        "dn: ou=people,{BASE}
objectClass: organizationalUnit
ou: people

dn: uid=lbob,ou=people,{BASE}
objectClass: inetOrgPerson
uid: lbob
cn: Bob
sn: Lbob
userPassword: {pw}
",
        pw = ssha("lbob-secret")
    )
}

/// Issue 45, item 2: the directory matches `LBOB`, `Lbob` and `lbob ` as
/// `lbob`; the account is the name the directory holds, so the store's
/// `lbob` (home, rules, disabled, max-sessions) applies to every spelling,
/// over FTP and the web view, with a DN template and with a search.
#[test]
fn ldap_another_spelling_of_the_name_is_the_directory_s_account() {
    let dir = tempfile::tempdir().unwrap();
    let slapd = Slapd::start(BASE, &lbob_ldif(), None);
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("lbob")).unwrap();
    std::fs::write(root.join("lbob/mine.txt"), b"lbob's").unwrap();
    std::fs::write(root.join("secret.txt"), b"not lbob's").unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    // lbob: its home /lbob, everything there, one session at a time.
    let (code, out, err) = common::serve::run(&["user", "add", "lbob", "--home", "/lbob", "--db", &db], "unused-pw\n");
    assert_eq!(code, 0, "{out}{err}");
    admin(&["user", "perm", "lbob", "/", "all", "--db", &db]);
    admin(&["user", "set", "lbob", "--max-sessions", "1", "--db", &db]);
    let modes = [
        format!("url = {:?}\nuser_dn = \"uid={{user}},ou=people,{BASE}\"", slapd.url),
        format!(
            "url = {:?}\nsearch_base = \"ou=people,{BASE}\"\nsearch_filter = \"(&(objectClass=inetOrgPerson)(uid={{user}}))\"",
            slapd.url
        ),
    ];
    const SPELLINGS: [&str; 3] = ["LBOB", "Lbob", "lbob "];
    for (i, mode) in modes.iter().enumerate() {
        admin(&["user", "set", "lbob", "--enable", "--db", &db]);
        let conf = dir.path().join(format!("spell-{i}.toml"));
        std::fs::write(&conf, format!("db = {db:?}\n[ldap]\n{mode}\n")).unwrap();
        let log = dir.path().join(format!("spell-{i}.log"));
        let srv = Serve::start_logged(
            &root,
            &["--config", conf.to_str().unwrap(), "--http-listen", "127.0.0.1:0"],
            &[],
            Some(&log),
        );
        let base = srv.url_after("web view: ");
        for user in SPELLINGS {
            // lbob's home (not the root) and lbob's rules (all: the
            // upload goes through; a user without an account reads only).
            let seen = ftplib(
                srv.addr,
                user,
                "lbob-secret",
                "print('LIST', sorted(ftp.nlst()))\nftp.storbinary('STOR up.txt', io.BytesIO(b'u')); print('STORED')\nftp.quit()",
            );
            assert!(seen.contains("LIST ['mine.txt']"), "mode {i}: {user:?}: {seen}");
            assert!(seen.contains("STORED"), "mode {i}: {user:?}: {seen}");
            assert!(
                root.join("lbob/up.txt").is_file(),
                "mode {i}: {user:?}: stored in lbob's home"
            );
            std::fs::remove_file(root.join("lbob/up.txt")).unwrap();
            let (status, page) = web_login(&base, user, "lbob-secret");
            assert_eq!(status, 200, "mode {i}: {user:?}: {page}");
            assert!(page.contains("mine.txt"), "mode {i}: {user:?}: lbob's home: {page}");
            assert!(!page.contains("secret.txt"), "mode {i}: {user:?}: the root: {page}");
        }
        // lbob's max-sessions counts every spelling: with lbob in, LBOB
        // is one too many.
        let seen = ftplib(
            srv.addr,
            "lbob",
            "lbob-secret",
            &format!(
                "two = ftplib.FTP()\ntwo.connect({:?}, {}, timeout=20)\ntry:\n    two.login('LBOB', 'lbob-secret'); print('SECOND IN')\nexcept (ftplib.error_perm, ftplib.error_temp) as e:\n    print('SECOND', e)\n",
                srv.addr.ip().to_string(),
                srv.addr.port()
            ),
        );
        assert!(seen.contains("SECOND 421"), "mode {i}: {seen}");
        // Disabled in the store, lbob stays out under every spelling.
        admin(&["user", "set", "lbob", "--disable", "--db", &db]);
        for user in SPELLINGS.iter().chain(&["lbob"]) {
            let seen = ftplib(srv.addr, user, "lbob-secret", "print('IN')");
            assert!(
                seen.contains("LOGIN-REFUSED 530"),
                "mode {i}: disabled, {user:?}: {seen}"
            );
            let (status, page) = web_login(&base, user, "lbob-secret");
            assert_eq!(status, 401, "mode {i}: disabled, {user:?}: {page}");
            assert!(!page.contains("mine.txt"), "mode {i}: disabled, {user:?}: {page}");
        }
        drop(srv);
        // The log's logins name the account, not the spelling.
        let text = std::fs::read_to_string(&log).unwrap();
        let logins: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("results: login peer") || l.contains("web login peer"))
            .collect();
        assert!(logins.len() >= 7, "mode {i}: {text}");
        for l in logins {
            // `user=NAME` ends the line, or comes before the web's `session=`.
            let name = l
                .split(" user=")
                .nth(1)
                .map(|r| r.split(" session=").next().unwrap_or(r));
            assert_eq!(name, Some("lbob"), "mode {i}: {l}");
        }
    }
}

/// A tiny HTTP server on 127.0.0.1: every request (head and body, as
/// read) is kept; each is answered with `answer(...)`'s text.
fn http_server(answer: impl Fn() -> String + Send + 'static) -> (String, Arc<Mutex<Vec<String>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", l.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for conn in l.incoming() {
            let Ok(mut conn) = conn else { break };
            let mut r = BufReader::new(conn.try_clone().unwrap());
            let (mut head, mut len) = (String::new(), 0usize);
            loop {
                let mut line = String::new();
                if r.read_line(&mut line).unwrap_or(0) == 0 {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap_or(0);
                }
                head.push_str(&line);
                if line == "\r\n" {
                    break;
                }
            }
            let mut body = vec![0; len];
            let _ = r.read_exact(&mut body);
            log.lock()
                .unwrap()
                .push(format!("{head}{}", String::from_utf8_lossy(&body)));
            let _ = conn.write_all(answer().as_bytes());
        }
    });
    (base, seen)
}

/// Issue 45, item 7: the auth hook never follows a redirect: a `307` to
/// another place would POST the password there again. The login is
/// refused (FTP and web), and the other place hears nothing.
#[test]
fn the_auth_hook_does_not_follow_redirects_with_the_password() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let ok = r#"{"allow": true, "permissions": {"/": "read"}}"#;
    let (elsewhere, heard) = http_server(move || {
        format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{ok}",
            ok.len()
        )
    });
    let target = format!("{elsewhere}/steal");
    for status in ["307 Temporary Redirect", "308 Permanent Redirect", "302 Found"] {
        let to = target.clone();
        let (hook, asked) = http_server(move || {
            format!("HTTP/1.1 {status}\r\nlocation: {to}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        });
        let log = dir.path().join("hook.log");
        let srv = Serve::start_logged(
            &root,
            &["--auth-hook", &format!("{hook}/auth"), "--http-listen", "127.0.0.1:0"],
            &[],
            Some(&log),
        );
        let base = srv.url_after("web view: ");
        let seen = ftplib(srv.addr, "hooky", "the-password", "print('IN')");
        assert!(seen.contains("LOGIN-REFUSED 530"), "{status}: {seen}");
        let (code, page) = web_login(&base, "hooky", "the-password");
        assert_eq!(code, 401, "{status}: {page}");
        drop(srv);
        let asked = asked.lock().unwrap().clone();
        assert_eq!(
            asked.len(),
            2,
            "{status}: the hook was asked, once per login: {asked:?}"
        );
        assert!(asked[0].contains("the-password"), "{asked:?}");
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.contains("redirect"), "{status}: the refusal is logged: {text}");
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let heard = heard.lock().unwrap().clone();
    assert!(heard.is_empty(), "the redirect's target was sent {heard:?}");
}
