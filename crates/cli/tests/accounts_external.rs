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

mod common;
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
