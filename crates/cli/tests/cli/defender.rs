//! The defender (issue 29): wrong passwords from one address ban it on
//! every node of the store while another address still logs in; a banned
//! address's connections are closed before the banner; bans are listed,
//! expire, and are lifted with `babelftp ban rm`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;
use std::process::Command;
use std::time::Duration;

use crate::common;
use common::serve::{run, Serve};

/// From `source` (a loopback address): `tries` wrong passwords on as few
/// connections as the server allows; prints what happened (`BANNER` once
/// per connection that got one, `CLOSED` when a connection was closed
/// before its banner, `530` per refused PASS).
fn hammer(addr: SocketAddr, source: &str, tries: u32) -> String {
    let script = format!(
        r#"
import socket
def conn():
    s = socket.socket()
    s.settimeout(10)
    s.bind(({source:?}, 0))
    s.connect(({ip:?}, {port}))
    f = s.makefile('rb')
    line = f.readline()
    if not line:
        print('CLOSED'); return None, None
    assert line.startswith(b'220'), line
    print('BANNER')
    return s, f
left = {tries}
while True:
    s, f = conn()
    if s is None or left == 0:
        break
    while left > 0:
        s.sendall(b'USER victim\r\n')
        if not f.readline().startswith(b'331'):
            break
        s.sendall(b'PASS wrong-' + str(left).encode() + b'\r\n')
        r = f.readline()
        left -= 1
        if r.startswith(b'530'):
            print('530')
        else:
            print('OTHER', r.decode(errors='replace').strip()); break
    s.close()
"#,
        ip = addr.ip().to_string(),
        port = addr.port()
    );
    let out = Command::new("python3").arg("-c").arg(script).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Whether a connection from `source` gets the banner.
fn greeted(addr: SocketAddr, source: &str) -> bool {
    hammer(addr, source, 0).contains("BANNER")
}

/// ftplib logs in as good/good-secret from `source`.
fn logs_in(addr: SocketAddr, source: &str) -> bool {
    let script = format!(
        "import ftplib\nftp = ftplib.FTP(source_address=({source:?}, 0))\nftp.connect({:?}, {}, timeout=10)\nftp.login('good', 'good-secret')\nprint('IN')\nftp.quit()",
        addr.ip().to_string(),
        addr.port()
    );
    let out = Command::new("python3").arg("-c").arg(script).output().unwrap();
    String::from_utf8_lossy(&out.stdout).contains("IN")
}

fn until<T>(what: &str, f: impl FnMut() -> Option<T>) -> T {
    babelftp_test_support::wait_until(Duration::from_secs(15), what, f)
}

#[test]
fn wrong_passwords_ban_an_address_on_every_node_and_the_ban_is_listed_expires_and_is_lifted() {
    let pg = babelftp_test_support::postgres::start();
    let db = pg.url.clone();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let (code, out, err) = run(&["user", "add", "good", "--db", &db], "good-secret\n");
    assert_eq!(code, 0, "{out}{err}");
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(
        &conf,
        // Loopback is allowed by default: this test scores it.
        format!("db = {db:?}\nlogin_fail_delay_ms = 10\n[defender]\nthreshold = 10\nban_time = 4\nallow = []\n"),
    )
    .unwrap();
    let args = ["--config", conf.to_str().unwrap()];
    let one = Serve::start(&root, &args);
    let two = Serve::start(&root, &args);

    // 50 wrong passwords from 127.0.0.1: the 10th bans it; that session
    // ends with 421, and the next connection is closed before the banner.
    let seen = hammer(one.addr, "127.0.0.1", 50);
    assert!(seen.contains("OTHER 421"), "{seen}");
    assert!(seen.contains("CLOSED"), "{seen}");
    assert_eq!(seen.matches("530").count(), 9, "{seen}");
    assert!(!greeted(one.addr, "127.0.0.1"));
    // 127.0.0.2 still logs in, on both nodes.
    assert!(logs_in(one.addr, "127.0.0.2"));
    assert!(logs_in(two.addr, "127.0.0.2"));
    // The other node follows the store within seconds.
    until("the second node to refuse 127.0.0.1", || {
        (!greeted(two.addr, "127.0.0.1")).then_some(())
    });
    let (code, listed, _) = run(&["ban", "list", "--db", &db], "");
    assert_eq!(code, 0);
    assert!(listed.starts_with("127.0.0.1\t"), "{listed}");
    assert!(listed.contains("failed logins"), "{listed}");
    // It expires (4 s) on both nodes.
    until("the ban to expire", || {
        (greeted(one.addr, "127.0.0.1") && greeted(two.addr, "127.0.0.1")).then_some(())
    });
    assert!(logs_in(one.addr, "127.0.0.1"));

    // An admin's ban, and its lifting, reach both nodes.
    let (code, out, err) = run(&["ban", "add", "127.0.0.3", "--for", "1h", "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("127.0.0.3"), "{out}");
    until("both nodes to refuse 127.0.0.3", || {
        (!greeted(one.addr, "127.0.0.3") && !greeted(two.addr, "127.0.0.3")).then_some(())
    });
    let (code, out, err) = run(&["ban", "rm", "127.0.0.3", "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");
    until("both nodes to let 127.0.0.3 in", || {
        (greeted(one.addr, "127.0.0.3") && greeted(two.addr, "127.0.0.3")).then_some(())
    });
    // Mistakes are said.
    let (code, _, err) = run(&["ban", "rm", "127.0.0.3", "--db", &db], "");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not banned"), "{err}");
    let (code, _, err) = run(&["ban", "add", "not-an-ip", "--db", &db], "");
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["ban", "add", "127.0.0.4", "--for", "soon", "--db", &db], "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn without_a_store_the_defender_still_bans_on_its_node_and_allowed_networks_are_never_banned() {
    // (By default all of loopback is allowed; here one address of it.)
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(
        &conf,
        "login_fail_delay_ms = 10\n[defender]\nthreshold = 5\nallow = [\"127.0.0.5/32\"]\n",
    )
    .unwrap();
    let srv = Serve::start(
        &root,
        &["--config", conf.to_str().unwrap(), "--user", "good:good-secret"],
    );
    let seen = hammer(srv.addr, "127.0.0.6", 20);
    assert!(seen.contains("OTHER 421") && seen.contains("CLOSED"), "{seen}");
    assert!(!greeted(srv.addr, "127.0.0.6"));
    let seen = hammer(srv.addr, "127.0.0.5", 30);
    assert!(!seen.contains("CLOSED"), "an allowed network is never banned: {seen}");
    assert_eq!(seen.matches("530").count(), 30, "{seen}");
    assert!(logs_in(srv.addr, "127.0.0.5"));
}

/// From `source`: the banner, then each of `lines` with its reply; prints
/// `CLOSED` for a connection closed before its banner, each reply's code,
/// and `EOF` when the server closes the connection.
fn converse(addr: SocketAddr, source: &str, lines: &[&str]) -> String {
    let script = format!(
        r#"
import socket, sys
s = socket.socket()
s.settimeout(10)
s.bind(({source:?}, 0))
s.connect(({ip:?}, {port}))
f = s.makefile('rb')
def reply():
    while True:
        line = f.readline()
        if not line:
            return None
        if line[:3].isdigit() and line[3:4] == b' ':
            return line[:3].decode()
if reply() is None:
    print('CLOSED'); sys.exit(0)
for l in {lines:?}:
    try:
        s.sendall(l.encode() + b'\r\n')
    except OSError:
        print('EOF'); break
    code = reply()
    if code is None:
        print('EOF'); break
    print(code)
"#,
        ip = addr.ip().to_string(),
        port = addr.port(),
    );
    let out = Command::new("python3").arg("-c").arg(script).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn hostile_commands_ban_the_address_that_sent_them() {
    // Issue 29: PORT to a foreign host, an over-long line, a passive data
    // connection from another host score 5 each; 15 ban.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(&conf, "[defender]\nthreshold = 15\nallow = []\n").unwrap();
    let srv = Serve::start(
        &root,
        &["--config", conf.to_str().unwrap(), "--user", "good:good-secret"],
    );
    let login = ["USER good", "PASS good-secret"];

    // Three PORTs to 10.0.0.1 from 127.0.0.1: each refused (504), the
    // third bans, and its session is closed after the refusal.
    let bounce = "PORT 10,0,0,1,200,10";
    let seen = converse(srv.addr, "127.0.0.1", &[login[0], login[1], bounce, bounce, "NOOP"]);
    assert_eq!(seen, "331\n230\n504\n504\n200\n", "two bounces do not ban");
    let seen = converse(srv.addr, "127.0.0.1", &[login[0], login[1], bounce, "NOOP"]);
    assert_eq!(seen, "331\n230\n504\nEOF\n", "the third does");
    assert_eq!(converse(srv.addr, "127.0.0.1", &["NOOP"]), "CLOSED\n");
    assert!(greeted(srv.addr, "127.0.0.2"), "another address is not banned");

    // Over-long lines (max_line 4096), before any login: the same.
    let long = "NOOP ".to_string() + &"x".repeat(5000);
    let long = long.as_str();
    let seen = converse(srv.addr, "127.0.0.3", &[long, long, "NOOP", long, "NOOP"]);
    assert_eq!(seen, "500\n500\n200\n500\nEOF\n");
    assert_eq!(converse(srv.addr, "127.0.0.3", &["NOOP"]), "CLOSED\n");

    // A passive port of 127.0.0.4's session, reached three times from
    // 127.0.0.5: 127.0.0.5 is banned, and 127.0.0.4 still gets its listing.
    let script = format!(
        r#"
import ftplib, socket
ftp = ftplib.FTP(source_address=('127.0.0.4', 0))
ftp.connect({ip:?}, {port}, timeout=10)
ftp.login('good', 'good-secret')
host, port = ftplib.parse227(ftp.sendcmd('PASV'))
for _ in range(3):
    t = socket.socket()
    t.settimeout(10)
    t.bind(('127.0.0.5', 0))
    t.connect((host, port))
    # Dropped by the server: EOF (or a reset).
    try:
        assert t.recv(1) == b''
    except ConnectionResetError:
        pass
    t.close()
d = socket.create_connection((host, port), timeout=10, source_address=('127.0.0.4', 0))
print(ftp.sendcmd('LIST')[:3])
while d.recv(4096):
    pass
d.close()
print(ftp.voidresp()[:3])
ftp.quit()
"#,
        ip = srv.addr.ip().to_string(),
        port = srv.addr.port(),
    );
    let out = Command::new("python3").arg("-c").arg(script).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "150\n226\n");
    assert!(!greeted(srv.addr, "127.0.0.5"), "the port thief is banned");
    assert!(greeted(srv.addr, "127.0.0.4"), "the session's client is not");
}

#[test]
fn hostile_commands_from_allowed_addresses_are_never_scored() {
    // The default allow list: loopback.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let srv = Serve::start(&root, &["--user", "good:good-secret"]);
    let bounce = "PORT 10,0,0,1,200,10";
    let mut lines = vec!["USER good", "PASS good-secret"];
    lines.extend([bounce; 10]);
    lines.push("NOOP");
    let seen = converse(srv.addr, "127.0.0.1", &lines);
    assert_eq!(seen, format!("331\n230\n{}200\n", "504\n".repeat(10)));
    assert!(greeted(srv.addr, "127.0.0.1"));
}

/// Whether the web view at `base` answers `source` (curl's status, 0 when
/// the connection was closed before an answer).
fn web_status(base: &str, source: &str, jar: &std::path::Path) -> u16 {
    common::web::curl_from(source, jar, &format!("{base}/?login"), &[]).status
}

#[test]
fn a_network_banned_with_babelftp_ban_refuses_every_address_in_it_on_ftp_and_the_web_until_lifted() {
    // Issue 48 item 9: `babelftp ban add 10.0.0.0/8` and its kin. A /24 of
    // loopback holds 127.0.0.1 and 127.0.0.9 but not 127.1.0.1.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let (code, out, err) = run(&["user", "add", "good", "--home", "/", "--db", &db], "good-secret\n");
    assert_eq!(code, 0, "{out}{err}");
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(
        &conf,
        format!("db = {db:?}\n[defender]\nallow = []\nconnections_per_second = 1000\n"),
    )
    .unwrap();
    let srv = Serve::start(
        &root,
        &["--config", conf.to_str().unwrap(), "--http-listen", "127.0.0.1:0"],
    );
    let web = srv.url_after("web view: ");
    let jar = dir.path().join("jar");
    assert!(logs_in(srv.addr, "127.0.0.1"));
    assert_eq!(web_status(&web, "127.0.0.1", &jar), 200);

    // The network of the issue, as written, listed as a network.
    let (code, out, err) = run(&["ban", "add", "10.0.0.0/8", "--for", "1h", "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("10.0.0.0/8 is banned"), "{out}");
    // An address inside a network names the network (masked).
    let (code, out, err) = run(&["ban", "add", "127.0.0.77/24", "--for", "1h", "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("127.0.0.0/24 is banned"), "{out}");
    let (code, listed, _) = run(&["ban", "list", "--db", &db], "");
    assert_eq!(code, 0);
    let nets: Vec<&str> = listed.lines().filter_map(|l| l.split('\t').next()).collect();
    assert_eq!(nets, ["10.0.0.0/8", "127.0.0.0/24"], "{listed}");

    // Every address of the /24 is refused, on FTP (ftplib) and the web
    // (curl); an address outside it is not.
    until("the server to refuse 127.0.0.0/24", || {
        (!greeted(srv.addr, "127.0.0.1")).then_some(())
    });
    assert!(!logs_in(srv.addr, "127.0.0.1"));
    assert!(!greeted(srv.addr, "127.0.0.9"));
    assert_eq!(
        web_status(&web, "127.0.0.1", &jar),
        0,
        "the web view closes a banned address"
    );
    assert_eq!(web_status(&web, "127.0.0.9", &jar), 0);
    assert!(logs_in(srv.addr, "127.1.0.1"));
    assert_eq!(web_status(&web, "127.1.0.1", &jar), 200);

    // `ban rm` of the network lifts it; the other network stays.
    let (code, out, err) = run(&["ban", "rm", "127.0.0.0/24", "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("127.0.0.0/24 is no longer banned"), "{out}");
    until("the server to let 127.0.0.1 in", || {
        (greeted(srv.addr, "127.0.0.1")).then_some(())
    });
    assert!(logs_in(srv.addr, "127.0.0.1"));
    assert_eq!(web_status(&web, "127.0.0.1", &jar), 200);
    let (_, listed, _) = run(&["ban", "list", "--db", &db], "");
    assert!(
        listed.starts_with("10.0.0.0/8\t") && listed.lines().count() == 1,
        "{listed}"
    );
    // `ban rm` of an address lifts the network that covers it.
    let (code, out, err) = run(&["ban", "rm", "10.20.30.40", "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("10.0.0.0/8 is no longer banned"), "{out}");
    // A prefix longer than the address is a usage error.
    let (code, _, err) = run(&["ban", "add", "10.0.0.0/33", "--db", &db], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("10.0.0.0/33"), "{err}");
}
