//! Issue 48, what an administrator sees of `babelftp serve`: an explicit
//! passive cap that wins, a banner that lists the accounts store's users
//! and what the server enforces, `serve --check`, what a SIGHUP reloaded
//! and what needs a restart, TLS files without PEM items, and a full
//! server's 421 as real clients (curl, lftp) show it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

use babelftp_test_support::Control;

use crate::common;
use common::serve::{python, run, Serve};

/// Eight free ports in a row, below the kernel's ephemeral range, so that
/// no connection of another test takes one as its local port.
fn eight_free_ports() -> u16 {
    (20_000u16..32_000)
        .step_by(8)
        .find(|&p| (p..p + 8).all(|q| std::net::TcpListener::bind(("127.0.0.1", q)).is_ok()))
        .expect("eight free ports below 32000")
}

/// `babelftp serve --check ARGS` in `dir`: (exit code, stdout, stderr).
fn check(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .arg("serve")
        .arg("--check")
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", "C")
        .env_remove("LANG")
        .env_remove("LC_MESSAGES")
        .env_remove("BABELFTP_DB")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue 48.8: `--max-passive-per-ip 6` on a range of 8 ports lets one
/// address hold 6 passive ports at once (it was cut to a quarter, 2,
/// silently): six ftplib sessions from 127.0.0.1 each get 229 to EPSV, the
/// seventh 425. The banner says the cap; a cap above the range is warned
/// of.
#[test]
fn an_explicit_passive_cap_wins_over_a_quarter_of_the_range() {
    let dir = tempfile::tempdir().unwrap();
    let base = eight_free_ports();
    let range = format!("{base}-{}", base + 7);
    let srv = Serve::start(dir.path(), &["--passive-ports", &range, "--max-passive-per-ip", "6"]);
    srv.wait_for(&format!(
        "passive ports: {range}, at most 6 held by one address at once"
    ));
    let out = python(&format!(
        "import ftplib\nheld = []\nsaid = []\nfor i in range(7):\n    f = ftplib.FTP()\n    f.connect('127.0.0.1', {}, timeout=20)\n    f.login()\n    held.append(f)\n    try:\n        said.append(f.sendcmd('EPSV')[:3])\n    except ftplib.error_temp as e:\n        said.append(str(e))\nfor s in said:\n    print(s)\n",
        srv.addr.port()
    ));
    let said: Vec<&str> = out.lines().collect();
    assert_eq!(said[..6], ["229"; 6], "{out}");
    assert!(said[6].starts_with("425 "), "{out}");

    // Nothing written: a quarter of the range stays the default.
    let (code, banner, _) = check(dir.path(), &["--root", ".", "--passive-ports", &range]);
    assert_eq!(code, 0, "{banner}");
    assert!(
        banner.contains(&format!("passive ports: {range}, at most 2 held")),
        "{banner}"
    );
    // More than the range: said in the banner and the log.
    let (code, banner, log) = check(
        dir.path(),
        &["--root", ".", "--passive-ports", &range, "--max-passive-per-ip", "9"],
    );
    assert_eq!(code, 0, "a warning is no problem: {banner}");
    assert!(
        banner.contains("warning: max_passive_per_ip is 9, more than the 8 ports of passive_ports"),
        "{banner}"
    );
    assert!(log.contains("max_passive_per_ip exceeds the passive range"), "{log}");
}

/// A users file of `n` users `u01`… with one password, each at home in
/// `/uNN` (read-only), for `user import`.
fn many_users(path: &Path, n: usize) {
    let hash = babelftp_server::auth::hash_password(b"password1").unwrap();
    let mut text = String::new();
    for i in 1..=n {
        text.push_str(&format!(
            "[[user]]\nname = \"u{i:02}\"\npassword = \"{hash}\"\nhome = \"/u{i:02}\"\n\n"
        ));
    }
    std::fs::write(path, text).unwrap();
}

/// Issue 48.5: with an accounts store the banner lists its users (20,
/// then how many more) with their rights and home, warns of a home that
/// is missing (as it does for the configuration's users), and says the
/// hooks, the defender, the limits, the passive range and the xferlog.
#[test]
fn the_banner_lists_the_stores_users_and_what_the_server_enforces() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("u01")).unwrap();
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let users = dir.path().join("users.toml");
    many_users(&users, 21);
    common::serve::admin(&db, &["user", "import", users.to_str().unwrap()]);
    let (code, out, err) = run(
        &["user", "add", "carol", "--home", "/carol", "--db", &db],
        "password1\n",
    );
    assert_eq!(code, 0, "{out}{err}");
    common::serve::admin(&db, &["user", "perm", "carol", "/", "list"]);
    common::serve::admin(&db, &["user", "perm", "carol", "/incoming", "upload,mkdir"]);
    let xferlog = dir.path().join("xfer.log");
    let (code, banner, err) = check(
        dir.path(),
        &[
            "--root",
            root.to_str().unwrap(),
            "--db",
            &db,
            "--hook",
            "http://127.0.0.1:9/events",
            "--xferlog",
            xferlog.to_str().unwrap(),
            "--max-connections",
            "40",
            "--download-rate",
            "1MiB/s",
        ],
    );
    assert_eq!(code, 0, "{banner}{err}");
    let has = |want: &str| assert!(banner.contains(want), "no {want:?} in:\n{banner}");
    has("users: 22");
    has("access: user carol (accounts store), in /carol, rights: / list; /incoming upload,mkdir");
    has("warning: the home /carol of user carol is not a directory in");
    has("access: user u01 (accounts store), in /u01, rights: / read");
    assert!(!banner.contains("home /u01 of"), "u01's home is there:\n{banner}");
    // 20 listed (carol, u01…u19), then the rest counted.
    has("access: user u19 ");
    assert!(!banner.contains("user u20 "), "{banner}");
    has("access: … and 2 more users in the accounts store (babelftp user list)");
    has("passive ports: any the system gives, at most 32 held by one address at once");
    has("limits: 40 sessions at once, 32 from one address; idle sessions closed after 300 s; downloads 1 MiB/s");
    has("defender: an address that scores 15 points within 300 s is banned for 900 s");
    has("event hook: http://127.0.0.1:9/events (every event)");
    has(&format!("transfer log: {}", xferlog.display()));
}

/// Issue 48.6: `serve --check` reads everything, binds nothing (a port
/// another socket holds is no problem), exits 0 when all is well; a
/// configuration with mistakes gives each with its file and line, and
/// exit 1; a key file with no key (48 smaller) says so, naming the file.
#[test]
fn serve_check_reads_everything_binds_nothing_and_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("root")).unwrap();
    let (cert, _key) = babelftp_test_support::certificate(dir.path());
    let held = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = held.local_addr().unwrap().port();
    let good = dir.path().join("good.toml");
    std::fs::write(
        &good,
        format!("root = \"root\"\nlisten = [\"127.0.0.1:{port}\"]\ntls_cert = \"cert.pem\"\ntls_key = \"key.pem\"\n"),
    )
    .unwrap();
    let (code, out, err) = check(dir.path(), &["--config", good.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("ftp://127.0.0.1:{port}/")), "{out}");
    assert!(out.contains("tls: FTPS (AUTH TLS)"), "{out}");
    assert!(out.trim_end().ends_with("check: no problems found"), "{out}");
    // The real start, on the same port, is refused: the check bound nothing.
    let (code, _, err) = run(&["serve", "--config", good.to_str().unwrap()], "");
    assert_ne!(code, 0);
    assert!(err.contains(&format!("127.0.0.1:{port}")), "{err}");
    drop(held);

    // Two unknown keys (each with its line) in one run.
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "root = \"root\"\nno_such_option = 1\n[limits]\nbogus = 2\n").unwrap();
    let (code, out, err) = check(dir.path(), &["--config", bad.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("bad.toml:2: unknown field `no_such_option`"), "{err}");
    assert!(err.contains("bad.toml:4: unknown field `bogus`"), "{err}");
    assert!(err.contains("check: problems found: 2"), "{err}");
    // A value out of range: the line of its key.
    std::fs::write(&bad, "root = \"root\"\n\npassive_ports = \"9-1\"\n").unwrap();
    let (code, _, err) = check(dir.path(), &["--config", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.toml:3: passive_ports"), "{err}");
    // A key file that holds no key, and a missing root, found together.
    let not_a_key = dir.path().join("hostname");
    std::fs::write(&not_a_key, "ftp.example.org\n").unwrap();
    let (code, _, err) = check(
        dir.path(),
        &[
            "--root",
            "missing",
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            not_a_key.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!("{}: the file holds no PEM private key", not_a_key.display())),
        "{err}"
    );
    assert!(err.contains("the root directory missing does not exist"), "{err}");
    // A certificate file with no certificate, likewise.
    let (code, _, err) = check(
        dir.path(),
        &[
            "--root",
            "root",
            "--tls-cert",
            not_a_key.to_str().unwrap(),
            "--tls-key",
            not_a_key.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!("{}: the file holds no PEM certificate", not_a_key.display())),
        "{err}"
    );
    assert!(!err.contains("no items found"), "{err}");

    // What a start would make (the default root, a new SQLite store) is no
    // problem, and a check makes neither.
    let fresh = dir.path().join("fresh");
    std::fs::create_dir(&fresh).unwrap();
    let (code, out, err) = check(&fresh, &["--db", "sqlite:new.db"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("accounts store new.db: not there yet"), "{out}");
    assert!(out.contains("accounts: SQLite new.db, users: 0"), "{out}");
    assert_eq!(std::fs::read_dir(&fresh).unwrap().count(), 0, "the check made files");
}

/// Issue 48.7: SIGHUP says what it reloaded (the configuration's users,
/// the store read at each login) and, for each setting changed in the file
/// that only a restart applies, that it needs one (stdout and the log).
#[test]
fn sighup_says_what_was_reloaded_and_what_needs_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let (code, out, err) = run(&["user", "add", "dora", "--db", &db], "password1\n");
    assert_eq!(code, 0, "{out}{err}");
    let hash = babelftp_server::auth::hash_password(b"password1").unwrap();
    let conf = dir.path().join("server.toml");
    let user = |name: &str| format!("[[user]]\nname = \"{name}\"\npassword = \"{hash}\"\n");
    std::fs::write(&conf, format!("max_connections = 100\n{}", user("alice"))).unwrap();
    let log = dir.path().join("serve.log");
    let srv = Serve::start_logged(
        &root,
        &["--config", conf.to_str().unwrap(), "--db", &db],
        &[],
        Some(&log),
    );
    srv.wait_for("ready.");
    // A restart-only setting and a user change.
    std::fs::write(&conf, format!("max_connections = 50\n{}{}", user("alice"), user("bob"))).unwrap();
    srv.hangup();
    assert!(srv.wait_for("users reloaded").contains(": 2 named users"));
    let store = srv.wait_for("accounts store");
    assert!(store.contains(": 1 users, read at each login"), "{store}");
    let warned = srv.wait_for("warning: max_connections changed");
    assert!(
        warned.contains(&format!(
            "changed in {} but takes effect only after a restart",
            conf.display()
        )),
        "{warned}"
    );
    // bob logs in now (ftplib).
    let said = common::serve::ftplib(srv.addr, "bob", "password1", "utf-8", "print(ftp.pwd())");
    assert_eq!(said.trim(), "/", "{said}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("setting changed: it takes effect only after a restart key=\"max_connections\""),
        "{text}"
    );
    assert!(!text.contains("key=\"listen\""), "{text}");
    assert!(
        text.contains("users reloaded (SIGHUP)") && text.contains("store_users=1"),
        "{text}"
    );
}

/// Issue 48 (smaller): a client over `--max-connections` or
/// `--max-per-ip` gets 421 in place of the greeting, naming the limit.
/// lftp shows it in its error; curl always calls a 421 "Timeout was
/// reached" (exit 28, lib/ftp.c treats every 421 as an idle timeout) and
/// shows the line with -v.
#[test]
fn a_full_server_says_which_limit_in_its_421() {
    let dir = tempfile::tempdir().unwrap();
    let srv = Serve::start(dir.path(), &["--max-connections", "1"]);
    let (_held, greeting) = Control::connect(srv.addr);
    assert!(greeting.starts_with(b"220"));
    let url = format!("ftp://{}/", srv.addr);
    let curl = Command::new("curl")
        .args(["-v", "--max-time", "20", &url])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&curl.stderr);
    assert!(
        said.contains("< 421 The server has as many sessions open as it allows (1): try again later."),
        "{said}"
    );
    let lftp = Command::new("lftp")
        .args(["-c", &format!("set net:max-retries 1; open {url}; ls")])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&lftp.stderr);
    assert!(
        said.contains("421 The server has as many sessions open as it allows (1)"),
        "{said}"
    );
    drop(srv);

    let srv = Serve::start(dir.path(), &["--max-per-ip", "1"]);
    let (_held, _) = Control::connect(srv.addr);
    let url = format!("ftp://{}/", srv.addr);
    let lftp = Command::new("lftp")
        .args(["-c", &format!("set net:max-retries 1; open {url}; ls")])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&lftp.stderr);
    assert!(
        said.contains("421 Your address has as many sessions open as this server allows from one address (1)"),
        "{said}"
    );
    drop(srv);

    // An account's own limit (`user set --max-sessions`): 421 to PASS,
    // which FileZilla and lftp take as "try again" (a 530 would make
    // FileZilla forget the password as wrong); curl -v shows the reason.
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let (code, out, err) = run(&["user", "add", "dora", "--db", &db], "password1\n");
    assert_eq!(code, 0, "{out}{err}");
    common::serve::admin(&db, &["user", "set", "dora", "--max-sessions", "1"]);
    let srv = Serve::start(&root, &["--db", &db]);
    let (mut held, _) = Control::connect(srv.addr);
    held.cmd("USER dora");
    assert!(held.cmd("PASS password1").starts_with(b"230"));
    let curl = Command::new("curl")
        .args(["-v", "--max-time", "20", &format!("ftp://dora:password1@{}/", srv.addr)])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&curl.stderr);
    assert!(
        said.contains("< 421 This account has as many sessions open as it may"),
        "{said}"
    );
}
