//! `babelftp serve` run as one node of several (issue 14): it reads its
//! users again on SIGHUP (sessions already logged in go on, the next login
//! sees the new list, a file that no longer reads keeps the old list), and
//! it serves metrics and a health check that turns 503 while it drains.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use babelftp_test_support::Control;

use crate::common;
use common::serve::Serve;

fn serve(root: &Path, users: &Path) -> Serve {
    Serve::start(root, &["--users", users.to_str().unwrap()])
}

fn serve_with(root: &Path, args: &[&str]) -> Serve {
    Serve::start(root, args)
}

fn users_file(path: &Path, users: &[(&str, &str)]) {
    let mut text = String::new();
    for (name, pw) in users {
        let hash = babelftp_server::auth::hash_password(pw.as_bytes()).unwrap();
        text.push_str(&format!(
            "[[user]]\nname = \"{name}\"\npassword = \"{hash}\"\nwrite = true\n\n"
        ));
    }
    // Written beside and renamed, as a deployment tool does.
    let tmp = path.with_extension("new");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(tmp, path).unwrap();
}

fn login(addr: SocketAddr, user: &str, pw: &str) -> (Control, bool) {
    let (mut c, _) = Control::connect(addr);
    c.cmd(&format!("USER {user}"));
    let ok = c.cmd(&format!("PASS {pw}")).starts_with(b"230");
    (c, ok)
}

#[test]
fn sighup_reloads_the_users_and_keeps_logged_in_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let users = dir.path().join("users.toml");
    users_file(&users, &[("alice", "apw")]);
    let srv = serve(&root, &users);

    let (mut alice, ok) = login(srv.addr, "alice", "apw");
    assert!(ok);
    assert!(!login(srv.addr, "bob", "bpw").1);

    // alice leaves the file, bob comes in.
    users_file(&users, &[("bob", "bpw")]);
    srv.hangup();
    assert!(srv.wait_for("users reloaded").contains('1'));
    assert!(login(srv.addr, "bob", "bpw").1);
    assert!(!login(srv.addr, "alice", "apw").1);
    // alice's session did not notice.
    assert!(alice.cmd("NOOP").starts_with(b"200"));
    assert!(alice.cmd("PWD").starts_with(b"257"));

    // A broken file: the old list stays, and the server says why.
    std::fs::write(&users, "[[user]\nname = ").unwrap();
    srv.hangup();
    let line = srv.wait_for("users not reloaded");
    assert!(line.contains("users.toml"), "{line}");
    assert!(login(srv.addr, "bob", "bpw").1);
}

/// `curl` GET: (status, body).
fn get(url: &str) -> (u16, String) {
    let out = Command::new("curl")
        .args(["-s", "--max-time", "10", "-w", "\n%{http_code}", url])
        .output()
        .expect("curl (scripts/test.sh installs it)");
    let text = String::from_utf8(out.stdout).unwrap();
    let (body, code) = text.rsplit_once('\n').unwrap();
    (code.parse().unwrap(), body.to_owned())
}

fn python(addr: SocketAddr, script: &str) -> Child {
    Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import ftplib, io, sys\nHOST = '127.0.0.1'\nPORT = {}\n{script}",
            addr.port()
        ))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 (scripts/test.sh installs it)")
}

#[test]
fn metrics_count_what_clients_did_and_health_turns_503_while_draining() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(root.join("readme.txt"), b"hello\n").unwrap();
    let big = std::fs::File::create(root.join("big.bin")).unwrap();
    big.set_len(64 << 20).unwrap();
    let cfg = dir.path().join("babelftp.toml");
    std::fs::write(&cfg, "shutdown_grace = 30\n").unwrap();
    let srv = serve_with(
        &root,
        &[
            "--config",
            cfg.to_str().unwrap(),
            "--user",
            "bob:secret",
            "--anonymous",
            "--metrics-listen",
            "127.0.0.1:0",
        ],
    );
    let line = srv.wait_for("/health");
    let metrics_addr = line
        .split("http://")
        .nth(1)
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let url = |p: &str| format!("http://{metrics_addr}{p}");
    assert_eq!(get(&url("/health")), (200, "ok\n".into()));

    // A session in Japanese stays open while the metrics are read.
    let mut held = python(
        srv.addr,
        r#"
ftp = ftplib.FTP()
ftp.connect(HOST, PORT)
ftp.encoding = 'utf-8'
ftp.login('bob', 'secret')
assert ftp.sendcmd('LANG ja').startswith('200')
ftp.storbinary('STOR данные.txt', io.BytesIO(b'x' * 1000))
ftp.retrbinary('RETR readme.txt', lambda b: None)
try:
    ftp.retrbinary('RETR missing.txt', lambda b: None)
except ftplib.error_perm as e:
    assert str(e).startswith('550'), e
print('ready', flush=True)
sys.stdin.readline()
ftp.quit()
"#,
    );
    let mut out = std::io::BufReader::new(held.stdout.take().unwrap());
    let mut l = String::new();
    out.read_line(&mut l).unwrap();
    assert_eq!(l.trim(), "ready");
    let bad = python(
        srv.addr,
        r#"
ftp = ftplib.FTP()
ftp.connect(HOST, PORT)
try:
    ftp.login('bob', 'wrong')
    raise SystemExit('logged in')
except ftplib.error_perm as e:
    assert str(e).startswith('530'), e
ftp = ftplib.FTP()
ftp.connect(HOST, PORT)
ftp.login()
ftp.quit()
"#,
    )
    .wait_with_output()
    .unwrap();
    assert!(bad.status.success());

    let (code, text) = get(&url("/metrics"));
    assert_eq!(code, 200);
    for want in [
        "babelftp_sessions 1",
        "babelftp_sessions_by_language{language=\"ja\",charset=\"UTF-8\"} 1",
        "babelftp_logins_total{result=\"ok\"} 1",
        "babelftp_logins_total{result=\"failed\"} 1",
        "babelftp_logins_total{result=\"anonymous\"} 1",
        "babelftp_transfers_total{direction=\"upload\",outcome=\"complete\"} 1",
        "babelftp_transfers_total{direction=\"download\",outcome=\"complete\"} 1",
        "babelftp_transfer_bytes_total{direction=\"upload\"} 1000",
        "babelftp_transfer_bytes_total{direction=\"download\"} 6",
        "babelftp_error_replies_total{code=\"530\"} 1",
        "babelftp_error_replies_total{code=\"550\"} 1",
    ] {
        assert!(text.lines().any(|l| l == want), "{want} not in:\n{text}");
    }
    assert_eq!(get(&url("/nothing")).0, 404);
    // HEAD is GET without the body; other methods are 405.
    let head = Command::new("curl")
        .args(["-s", "--max-time", "10", "-I", &url("/health")])
        .output()
        .unwrap();
    let head = String::from_utf8_lossy(&head.stdout).into_owned();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.to_ascii_lowercase().contains("content-type: text/plain"), "{head}");
    let post = Command::new("curl")
        .args([
            "-s",
            "--max-time",
            "10",
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
            "-X",
            "POST",
            &url("/metrics"),
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&post.stdout), "405");
    held.stdin.take().unwrap().write_all(b"\n").unwrap();
    assert!(held.wait().unwrap().success());

    // A download runs (the client reads slowly); SIGTERM: the server stops
    // accepting, /health says 503 at once, and the download finishes.
    let mut slow = python(
        srv.addr,
        r#"
import time
ftp = ftplib.FTP()
ftp.connect(HOST, PORT)
ftp.login('bob', 'secret')
ftp.voidcmd('TYPE I')
conn = ftp.transfercmd('RETR big.bin')
got = len(conn.recv(65536))
print('started', flush=True)
sys.stdin.readline()
while True:
    b = conn.recv(1 << 20)
    if not b:
        break
    got += len(b)
conn.close()
ftp.voidresp()
print(got, flush=True)
"#,
    );
    let mut out = std::io::BufReader::new(slow.stdout.take().unwrap());
    let mut l = String::new();
    out.read_line(&mut l).unwrap();
    assert_eq!(l.trim(), "started");
    let ok = Command::new("kill")
        .args(["-TERM", &srv.pid().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let mut draining = false;
    for _ in 0..50 {
        if get(&url("/health")) == (503, "draining\n".into()) {
            draining = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(draining, "/health did not turn 503 after SIGTERM");
    // No new sessions meanwhile.
    assert!(std::net::TcpStream::connect(srv.addr).is_err());
    slow.stdin.take().unwrap().write_all(b"\n").unwrap();
    let mut l = String::new();
    out.read_line(&mut l).unwrap();
    assert_eq!(l.trim(), (64u64 << 20).to_string());
    assert!(slow.wait().unwrap().success());
}
