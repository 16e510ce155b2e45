//! The defender (issue 29): wrong passwords from one address ban it on
//! every node of the store while another address still logs in; a banned
//! address's connections are closed before the banner; bans are listed,
//! expire, and are lifted with `babelftp ban rm`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;
use std::process::Command;
use std::time::Duration;

mod common;
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

/// ftplib logs in as good/good-pw from `source`.
fn logs_in(addr: SocketAddr, source: &str) -> bool {
    let script = format!(
        "import ftplib\nftp = ftplib.FTP(source_address=({source:?}, 0))\nftp.connect({:?}, {}, timeout=10)\nftp.login('good', 'good-pw')\nprint('IN')\nftp.quit()",
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
    let (code, out, err) = run(&["user", "add", "good", "--db", &db], "good-pw\n");
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
    let srv = Serve::start(&root, &["--config", conf.to_str().unwrap(), "--user", "good:good-pw"]);
    let seen = hammer(srv.addr, "127.0.0.6", 20);
    assert!(seen.contains("OTHER 421") && seen.contains("CLOSED"), "{seen}");
    assert!(!greeted(srv.addr, "127.0.0.6"));
    let seen = hammer(srv.addr, "127.0.0.5", 30);
    assert!(!seen.contains("CLOSED"), "an allowed network is never banned: {seen}");
    assert_eq!(seen.matches("530").count(), 30, "{seen}");
    assert!(logs_in(srv.addr, "127.0.0.5"));
}
