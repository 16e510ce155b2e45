//! The HTTP doors admit connections as FTP does, driven with real sockets,
//! curl and ftplib against `babelftp serve --http-listen`: `max_per_ip`
//! per address (a 503 over it, the slot back when a connection closes), a
//! connection flood bans the address from the web view and from FTP, and a
//! client that sends no request, or a header a byte at a time, or stays
//! idle after its answer, is closed by the server, and so is an HTTP/2
//! client that never opens its flow-control window.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Read;
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common;
use common::serve::{python, Serve};

/// curl from `source`: (status, body); status 0 when the connection was
/// closed without an answer.
fn curl_from(source: &str, url: &str) -> (u16, String) {
    let out = Command::new("curl")
        .args([
            "-sS",
            "--max-time",
            "30",
            "--interface",
            source,
            "-w",
            "\n%{http_code}",
            url,
        ])
        .output()
        .expect("curl must be installed (scripts/test.sh installs it)");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (body, code) = text.rsplit_once('\n').unwrap_or(("", &text));
    (code.trim().parse().unwrap_or(0), body.to_owned())
}

/// The server with the web view, anonymous; (server, base URL).
fn start(root: &Path, args: &[&str]) -> (Serve, String) {
    let mut all = vec!["--http-listen", "127.0.0.1:0", "--anonymous"];
    all.extend_from_slice(args);
    let srv = Serve::start(root, &all);
    let url = srv.url_after("web view: ");
    (srv, url)
}

/// A web view of a `root` holding `hello.txt`, with `toml` as its
/// configuration file (both in the returned directory).
fn with_config(toml: &str, args: &[&str]) -> (tempfile::TempDir, Serve, String) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(root.join("hello.txt"), "hi\n").unwrap();
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(&conf, toml).unwrap();
    let mut all = vec!["--config", conf.to_str().unwrap()];
    all.extend_from_slice(args);
    let (srv, base) = start(&root, &all);
    (dir, srv, base)
}

/// A connection that sends nothing, reading until the server closes it
/// (an error once `limit` passes without that).
fn silent_connection(addr: &str, limit: Duration) -> std::thread::JoinHandle<std::io::Result<Vec<u8>>> {
    let addr = addr.to_owned();
    std::thread::spawn(move || {
        let mut s = TcpStream::connect(&addr)?;
        s.set_read_timeout(Some(limit))?;
        let mut buf = Vec::new();
        s.read_to_end(&mut buf).map(|_| buf)
    })
}

/// A keep-alive connection that asks for `hello.txt` once, then reads
/// until the server closes it (an error once `limit` passes without that).
fn idle_connection(addr: &str, limit: Duration) -> std::thread::JoinHandle<std::io::Result<Vec<u8>>> {
    let addr = addr.to_owned();
    std::thread::spawn(move || {
        use std::io::Write;
        let mut s = TcpStream::connect(&addr)?;
        s.write_all(b"GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n")?;
        s.set_read_timeout(Some(limit))?;
        let mut buf = Vec::new();
        s.read_to_end(&mut buf).map(|_| buf)
    })
}

/// Waits, up to 30 s, until 127.0.0.1 is served `hello.txt` again; every
/// answer until then is 503 (its slots are full).
fn served_again(base: &str, why_not: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (code, body) = curl_from("127.0.0.1", &format!("{base}/hello.txt"));
        if code == 200 {
            assert_eq!(body, "hi\n");
            return;
        }
        assert_eq!(code, 503, "{body}");
        assert!(Instant::now() < deadline, "{why_not}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn max_per_ip_holds_on_the_web_view_and_a_closed_connection_gives_its_slot_back() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hello.txt"), "hi\n").unwrap();
    let (_srv, base) = start(dir.path(), &["--max-per-ip", "2"]);
    let addr = base.trim_start_matches("http://").to_owned();

    // Two connections that ask nothing hold 127.0.0.1's two slots.
    let held: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(&addr).unwrap()).collect();
    let (code, body) = curl_from("127.0.0.1", &format!("{base}/hello.txt"));
    assert_eq!(code, 503, "{body}");
    assert!(body.contains("Too many connections"), "{body}");
    // Another address has slots of its own.
    let (code, body) = curl_from("127.0.0.2", &format!("{base}/hello.txt"));
    assert_eq!((code, body.as_str()), (200, "hi\n"));

    // Closed, they give their slots back (once the server has seen them
    // go).
    drop(held);
    served_again(&base, "127.0.0.1 is never served again");
}

#[test]
fn a_connection_flood_bans_the_address_from_the_web_view_and_from_ftp() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hello.txt"), "hi\n").unwrap();
    // 127.0.0.9 is scored (loopback is allowed by default); more than one
    // connection a second scores 1 each, 3 ban.
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(
        &conf,
        "[defender]\nallow = [\"127.0.0.1/32\"]\nconnections_per_second = 1\nthreshold = 3\n",
    )
    .unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(root.join("hello.txt"), "hi\n").unwrap();
    let (srv, base) = start(&root, &["--config", conf.to_str().unwrap()]);
    let (code, _) = curl_from("127.0.0.9", &format!("{base}/hello.txt"));
    assert_eq!(code, 200, "one connection is no flood");

    // A burst of 20 connections: the server closes the last ones unanswered.
    let port = base.rsplit(':').next().unwrap();
    let out = python(&format!(
        "import socket\nsocks = []\nfor i in range(20):\n    s = socket.socket()\n    s.bind(('127.0.0.9', 0))\n    s.connect(('127.0.0.1', {port}))\n    socks.append(s)\nlast = socks[-1]\nlast.settimeout(20)\ntry:\n    last.sendall(b'GET /hello.txt HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n')\n    print('ANSWER', last.recv(100))\nexcept OSError as e:\n    print('CLOSED', e)\n"
    ));
    assert!(
        out.starts_with("CLOSED") || out.starts_with("ANSWER b''"),
        "the flood's last connection: {out}"
    );
    // Banned: closed at accept, on this door and on FTP; another address
    // is served.
    let (code, _) = curl_from("127.0.0.9", &format!("{base}/hello.txt"));
    assert_eq!(code, 0, "a banned address is not answered");
    let ftp = python(&format!(
        "import ftplib\ntry:\n    ftp = ftplib.FTP(source_address=('127.0.0.9', 0))\n    ftp.connect('127.0.0.1', {}, timeout=10)\n    ftp.login('anonymous', 'x@y')\n    print('IN')\nexcept Exception as e:\n    print('REFUSED', e)\n",
        srv.addr.port()
    ));
    assert!(ftp.starts_with("REFUSED"), "{ftp}");
    let (code, body) = curl_from("127.0.0.1", &format!("{base}/hello.txt"));
    assert_eq!((code, body.as_str()), (200, "hi\n"));
}

#[test]
fn silent_slow_and_idle_http_connections_are_closed_by_the_server() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hello.txt"), "hi\n").unwrap();
    let (_srv, base) = start(dir.path(), &[]);
    let addr = base.trim_start_matches("http://").to_owned();

    // A connection that sends nothing: the server closes it (within the
    // 20 s header timeout; the test waits up to 60 s).
    let silent = silent_connection(&addr, Duration::from_secs(60));
    // A header sent a byte every half second, never finished: closed,
    // unanswered.
    let slow = std::thread::spawn({
        let addr = addr.clone();
        move || {
            use std::io::Write;
            let mut s = TcpStream::connect(&addr).unwrap();
            s.set_read_timeout(Some(Duration::from_millis(500))).unwrap();
            let header = b"GET /hello.txt HTTP/1.1\r\nHost: x\r\nX-Slow: ";
            let started = Instant::now();
            let mut got = Vec::new();
            let mut i = 0;
            while started.elapsed() < Duration::from_secs(60) {
                let byte = header.get(i).copied().unwrap_or(b'a');
                i += 1;
                if s.write_all(&[byte]).is_err() {
                    return Some(got);
                }
                let mut buf = [0u8; 256];
                match s.read(&mut buf) {
                    Ok(0) => return Some(got),
                    Ok(n) => got.extend_from_slice(&buf[..n]),
                    Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
                    Err(_) => return Some(got),
                }
            }
            None
        }
    });
    // A keep-alive connection, answered, then idle: closed too.
    let idle = idle_connection(&addr, Duration::from_secs(60));

    let got = silent.join().unwrap().expect("closed, not timed out after 60 s");
    assert!(got.is_empty(), "{}", String::from_utf8_lossy(&got));
    let got = slow.join().unwrap().expect("closed within 60 s");
    let text = String::from_utf8_lossy(&got);
    assert!(text.is_empty(), "{text}");
    let got = idle.join().unwrap().expect("closed, not timed out after 60 s");
    let text = String::from_utf8_lossy(&got);
    assert!(
        text.starts_with("HTTP/1.1 200 OK\r\n") && text.ends_with("\r\n\r\nhi\n"),
        "{text}"
    );
}

#[test]
fn a_client_that_stops_reading_its_download_gives_its_slot_back_after_stall_timeout() {
    let (dir, _srv, base) = with_config("stall_timeout = 2\n", &["--max-per-ip", "1"]);
    // Far more than the socket buffers hold.
    std::fs::write(dir.path().join("root/big.bin"), vec![1u8; 64 << 20]).unwrap();
    let addr = base.trim_start_matches("http://").to_owned();

    // Asks for the big file and reads nothing of it: its one slot is held.
    let mut stalled = TcpStream::connect(&addr).unwrap();
    std::io::Write::write_all(&mut stalled, b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let (code, body) = curl_from("127.0.0.1", &format!("{base}/hello.txt"));
    assert_eq!(code, 503, "the stalled download holds the address's slot: {body}");
    // After stall_timeout without a byte taken, the server gives up the
    // download and the slot comes back (the test waits up to 30 s).
    served_again(&base, "the stalled download keeps its slot");
    // What the stalled client gets is the start of the file, cut short.
    stalled.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut got = Vec::new();
    let _ = stalled.read_to_end(&mut got);
    assert!(
        got.starts_with(b"HTTP/1.1 200 OK\r\n"),
        "{:?}",
        &got[..got.len().min(40)]
    );
    assert!(got.len() < 64 << 20, "the download was cut");
}

/// One HTTP/2 frame: length, type, flags, stream, payload (RFC 9113 4.1).
fn h2_frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = u32::try_from(payload.len()).unwrap().to_be_bytes();
    let mut f = vec![len[1], len[2], len[3], kind, flags];
    f.extend_from_slice(&stream.to_be_bytes());
    f.extend_from_slice(payload);
    f
}

#[test]
fn an_http2_client_that_never_opens_its_window_gives_its_slot_back() {
    // HTTP/2 flow control: a client whose stream window is 0 and that
    // never sends WINDOW_UPDATE takes no byte of its answer, and the
    // server writes nothing to the socket for it, so no write waits.
    let (dir, _srv, base) = with_config("stall_timeout = 2\nhttp_header_timeout = 2\n", &["--max-per-ip", "1"]);
    std::fs::write(dir.path().join("root/big.bin"), vec![1u8; 1 << 20]).unwrap();
    let addr = base.trim_start_matches("http://").to_owned();

    let mut h2 = TcpStream::connect(&addr).unwrap();
    let mut hello = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    // SETTINGS: SETTINGS_INITIAL_WINDOW_SIZE (4) = 0
    hello.extend(h2_frame(4, 0, 0, &[0, 4, 0, 0, 0, 0]));
    // HEADERS, END_STREAM | END_HEADERS, stream 1: GET http://x/big.bin
    // (HPACK: :method GET and :scheme http from the static table, :path
    // and :authority as literals with indexed names)
    let mut block = vec![0x82, 0x86, 0x44, 8];
    block.extend_from_slice(b"/big.bin");
    block.extend_from_slice(&[0x41, 1, b'x']);
    hello.extend(h2_frame(1, 0x5, 1, &block));
    std::io::Write::write_all(&mut h2, &hello).unwrap();
    // The server's SETTINGS acknowledged, as a client does.
    h2.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut first = [0u8; 9];
    h2.read_exact(&mut first).unwrap();
    assert_eq!(first[3], 4, "the server's first frame is SETTINGS: {first:?}");
    std::io::Write::write_all(&mut h2, &h2_frame(4, 1, 0, &[])).unwrap();
    let (code, body) = curl_from("127.0.0.1", &format!("{base}/hello.txt"));
    assert_eq!(code, 503, "the starved stream holds the address's slot: {body}");
    // Idle (no new request) for http_header_timeout, then nothing written
    // for stall_timeout: the server gives up the connection (the test
    // waits up to 30 s).
    served_again(&base, "the HTTP/2 connection with no window keeps its slot");
    // ... and closes it: the client reads to its end.
    h2.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut rest = Vec::new();
    h2.read_to_end(&mut rest).expect("closed by the server");
    assert!(rest.len() < 1 << 20, "no window, no body");
}

#[test]
fn http_header_timeout_from_the_config_closes_silent_and_idle_connections_sooner() {
    let (_dir, _srv, base) = with_config("http_header_timeout = 2\n", &[]);
    let addr = base.trim_start_matches("http://").to_owned();
    // With the default (20 s) neither connection would be closed before
    // the clients' 12 s read timeouts end; with 2 s both are.
    let silent = silent_connection(&addr, Duration::from_secs(12));
    let idle = idle_connection(&addr, Duration::from_secs(12));
    let got = silent.join().unwrap().expect("closed by the server within 12 s");
    assert!(got.is_empty(), "{}", String::from_utf8_lossy(&got));
    let got = idle.join().unwrap().expect("closed by the server within 12 s");
    let text = String::from_utf8_lossy(&got);
    assert!(
        text.starts_with("HTTP/1.1 200 OK\r\n") && text.ends_with("\r\n\r\nhi\n"),
        "{text}"
    );
}
