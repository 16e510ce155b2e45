//! The PROXY protocol (issue 14): behind a load balancer the server sees
//! the client's own address, in the xferlog, the session's logs and the
//! check that a passive data connection comes from the control
//! connection's peer; only configured proxies are believed.
//!
//! The balancer here is a real TCP relay (a thread) on 127.0.0.1 that
//! sends a v1 or v2 header naming the client, as HAProxy's `send-proxy`
//! does; the clients are Python's ftplib bound to 127.0.0.2 (another
//! loopback address, so the real and the proxy's addresses differ) and
//! curl's own `--haproxy-protocol`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

use common::*;

/// A PROXY header for a TCP connection from `src` to `dst`.
fn header(src: SocketAddr, dst: SocketAddr, v2: bool) -> Vec<u8> {
    let (SocketAddr::V4(s), SocketAddr::V4(d)) = (src, dst) else {
        panic!("IPv4 only here")
    };
    if !v2 {
        return format!("PROXY TCP4 {} {} {} {}\r\n", s.ip(), d.ip(), s.port(), d.port()).into_bytes();
    }
    let mut h = b"\r\n\r\n\x00\r\nQUIT\n\x21\x11\x00\x0c".to_vec();
    h.extend_from_slice(&s.ip().octets());
    h.extend_from_slice(&d.ip().octets());
    h.extend_from_slice(&s.port().to_be_bytes());
    h.extend_from_slice(&d.port().to_be_bytes());
    h
}

/// Copies one way until either side closes.
fn pipe(mut from: TcpStream, mut to: TcpStream) {
    let mut buf = [0u8; 16384];
    loop {
        match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if to.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
        }
    }
    let _ = to.shutdown(std::net::Shutdown::Write);
}

/// A load balancer on 127.0.0.1 in front of `backend`: each connection is
/// relayed from 127.0.0.1 after a header naming the client.
fn balancer(backend: SocketAddr, v2: bool) -> SocketAddr {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    std::thread::spawn(move || {
        for c in l.incoming() {
            let Ok(client) = c else { continue };
            let Ok(mut server) = TcpStream::connect(backend) else {
                continue;
            };
            let from = client.peer_addr().unwrap();
            server.write_all(&header(from, addr, v2)).unwrap();
            let (c2, s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || pipe(client, server));
            std::thread::spawn(move || pipe(s2, c2));
        }
    });
    addr
}

fn backend(srv: &TestServer) -> SocketAddr {
    *srv.addrs.iter().find(|a| a.is_ipv4()).unwrap()
}

fn proxied_server(log: &std::path::Path) -> TestServer {
    let log = log.to_path_buf();
    start(move |c| {
        c.proxy_protocol_from = vec!["127.0.0.1".parse().unwrap()];
        c.xferlog = Some(log);
        c.data_timeout = Duration::from_secs(3);
    })
}

/// ftplib from 127.0.0.2 through `lb`: upload, list, download.
const THROUGH: &str = r#"
ftp = ftplib.FTP(source_address=('127.0.0.2', 0), timeout=20)
ftp.connect(HOST, PORT)
ftp.login('bob', 'secret')
ftp.encoding = 'utf-8'
ftp.storbinary('STOR отчёт.txt', io.BytesIO(b'through the balancer'))
print(ftp.nlst())
got = io.BytesIO()
ftp.retrbinary('RETR отчёт.txt', got.write)
assert got.getvalue() == b'through the balancer', got.getvalue()
ftp.quit()
"#;

#[test]
fn behind_a_balancer_v1_and_v2_the_client_address_is_the_one_seen() {
    for v2 in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("xferlog");
        let srv = proxied_server(&log);
        let lb = balancer(backend(&srv), v2);
        // The data connections go straight to the server from 127.0.0.2:
        // they pass the peer check only if the session's peer is the
        // client named in the header, not the balancer.
        let out = python_at(&srv, &lb, THROUGH);
        assert!(out.contains("отчёт.txt"), "v2={v2}: {out}");
        let lines = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<&str> = lines.lines().collect();
        assert_eq!(lines.len(), 2, "v2={v2}: {lines:?}");
        for l in &lines {
            assert!(l.contains(" 127.0.0.2 ") && l.contains("отчёт.txt"), "v2={v2}: {l}");
        }
    }
}

#[test]
fn passive_data_through_the_balancer_must_name_the_same_client() {
    let dir = tempfile::tempdir().unwrap();
    let srv = proxied_server(&dir.path().join("xferlog"));
    let lb = balancer(backend(&srv), true);
    // Control through the balancer as 127.0.0.2; the data connection from
    // 127.0.0.1 (the balancer's address) with its own v2 header: naming
    // the same client it is served, naming another it is refused.
    let script = format!(
        r#"
{PY_RAW_FTP}
def hdr(src, dport):
    a = bytes(int(x) for x in src.split('.'))
    return b'\r\n\r\n\x00\r\nQUIT\n\x21\x11\x00\x0c' + a + bytes([127, 0, 0, 1]) + (40000).to_bytes(2, 'big') + dport.to_bytes(2, 'big')
s = socket.create_connection((HOST, PORT), timeout=20, source_address=('127.0.0.2', 0))
f = s.makefile('rb')
assert f.readline().startswith(b'220')
login(s, f)
port = epsv(s, f)
d = socket.create_connection(('127.0.0.1', port), timeout=20, source_address=('127.0.0.1', 0))
d.sendall(hdr('127.0.0.2', port))
r = cmd(s, f, b'NLST')
assert r.startswith(b'150'), r
data = b''
while True:
    b = d.recv(4096)
    if not b: break
    data += b
assert b'readme.txt' in data, data
assert reply(f).startswith(b'226')
port = epsv(s, f)
d = socket.create_connection(('127.0.0.1', port), timeout=20, source_address=('127.0.0.1', 0))
d.sendall(hdr('127.0.0.3', port))
s.sendall(b'NLST\r\n')
r = reply(f)
if r.startswith(b'150'):
    r = reply(f)
assert r.startswith(b'425'), r
assert d.recv(4096) == b''
print('ok')
"#
    );
    assert_eq!(python_at(&srv, &lb, &script).trim(), "ok");
}

#[test]
fn a_foreign_passive_connection_through_the_balancer_scores_the_client_it_names() {
    // Issue 29: the defender scores the client the header names (one
    // foreign connection bans it here), never the balancer, nor the
    // session's own client.
    let dir = tempfile::tempdir().unwrap();
    let srv = start(|c| {
        c.proxy_protocol_from = vec!["127.0.0.1".parse().unwrap()];
        c.xferlog = Some(dir.path().join("xferlog"));
        c.defender.allow = Vec::new();
        c.defender.score_foreign_data = c.defender.threshold;
    });
    let lb = balancer(backend(&srv), true);
    let direct = backend(&srv);
    let script = format!(
        r#"
{PY_RAW_FTP}
def hdr(src, dport):
    a = bytes(int(x) for x in src.split('.'))
    return b'\r\n\r\n\x00\r\nQUIT\n\x21\x11\x00\x0c' + a + bytes([127, 0, 0, 1]) + (40000).to_bytes(2, 'big') + dport.to_bytes(2, 'big')
def greeted(src, to=({ip:?}, {port})):
    c = socket.create_connection(to, timeout=20, source_address=(src, 0))
    line = c.makefile('rb').readline()
    c.close()
    return line.startswith(b'220')
s = socket.create_connection((HOST, PORT), timeout=20, source_address=('127.0.0.2', 0))
f = s.makefile('rb')
assert f.readline().startswith(b'220')
login(s, f)
port = epsv(s, f)
d = socket.create_connection(('127.0.0.1', port), timeout=20, source_address=('127.0.0.1', 0))
d.sendall(hdr('127.0.0.3', port))
assert d.recv(4096) == b''
assert not greeted('127.0.0.3'), 'the named client is banned'
assert not greeted('127.0.0.3', (HOST, PORT)), 'through the balancer too'
assert greeted('127.0.0.4', (HOST, PORT)), 'other clients of the balancer are served'
assert cmd(s, f, b'NOOP').startswith(b'200'), 'nor the session'
print('ok')
"#,
        ip = direct.ip().to_string(),
        port = direct.port(),
    );
    assert_eq!(python_at(&srv, &lb, &script).trim(), "ok");
}

#[test]
fn only_configured_proxies_are_believed() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("xferlog");
    let srv = proxied_server(&log);
    let addr = backend(&srv);
    // From 127.0.0.3, which is no proxy: a header is an unknown command (502)
    // and the transfer is logged under the real address.
    let script = format!(
        r#"
{PY_RAW_FTP}
s = socket.create_connection((HOST, PORT), timeout=20, source_address=('127.0.0.3', 0))
f = s.makefile('rb')
r = f.readline()
assert r.startswith(b'220'), r
r = cmd(s, f, b'PROXY TCP4 203.0.113.9 127.0.0.1 5000 21')
assert r.startswith(b'502'), r
login(s, f)
d = socket.create_connection((HOST, epsv(s, f)), timeout=20, source_address=('127.0.0.3', 0))
r = cmd(s, f, b'RETR readme.txt')
assert r.startswith(b'150'), r
while d.recv(4096): pass
r = reply(f)
assert r.startswith(b'226'), r
print('ok')
"#
    );
    assert_eq!(python_at(&srv, &addr, &script).trim(), "ok");
    let lines = std::fs::read_to_string(&log).unwrap();
    assert!(
        lines.contains(" 127.0.0.3 ") && !lines.contains("203.0.113.9"),
        "{lines}"
    );

    // From the proxy's address without a header: closed, nothing served.
    let mut c = TcpStream::connect(addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    c.write_all(b"USER bob\r\n").unwrap();
    let mut got = Vec::new();
    let _ = c.read_to_end(&mut got);
    assert!(got.is_empty(), "{:?}", String::from_utf8_lossy(&got));

    // The same server without proxies configured reads no header.
    let plain = start(|_| {});
    let script = format!(
        r#"
{PY_RAW_FTP}
s, f = connect()
r = cmd(s, f, b'PROXY TCP4 203.0.113.9 127.0.0.1 5000 21')
assert r.startswith(b'502'), r
print('ok')
"#
    );
    assert_eq!(python(&plain, &script).trim(), "ok");
}

#[test]
fn curl_with_its_own_proxy_header_transfers() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("xferlog");
    let srv = proxied_server(&log);
    let addr = backend(&srv);
    // curl sends a v1 header on the control and on the data connection.
    let (rc, body) = curl(&[
        "--haproxy-protocol",
        &format!("ftp://bob:secret@127.0.0.1:{}/readme.txt", addr.port()),
    ]);
    assert_eq!(rc, 0);
    assert_eq!(body, b"hello from babelftp\n");
    assert!(std::fs::read_to_string(&log).unwrap().contains(" 127.0.0.1 "));
}
