//! The S3 storage (issue 14) against a real S3 server run here: moto's,
//! from PyPI, installed into target/moto by scripts/moto.sh (the test
//! command runs it). Two babelftp nodes share one bucket; curl, lftp,
//! ftplib and our client move UTF-8-named files through both; the storage
//! suite and `babelftp check` pass on S3 as on the local disk; a killed
//! upload leaves the old object; the store stopping mid-transfer is a
//! clear error, not a hang or a panic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use common::babelftp;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use babelftp_server::storage::s3::S3Config;
use babelftp_test_support::TestServer;

struct Moto {
    child: Child,
    port: u16,
    /// moto's request log (werkzeug's stderr: one line per request, with
    /// the request line as it arrived).
    log: tempfile::NamedTempFile,
}

impl Drop for Moto {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

fn moto_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/moto")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// moto's S3 server with an empty bucket `ftp`.
fn moto() -> Moto {
    let dir = moto_dir();
    assert!(
        dir.join("moto").is_dir(),
        "moto is not in {} (scripts/moto.sh installs it; scripts/test.sh runs it)",
        dir.display()
    );
    let port = free_port();
    let log = tempfile::NamedTempFile::new().unwrap();
    let child = Command::new("python3")
        .args(["-m", "moto.server", "-H", "127.0.0.1", "-p", &port.to_string()])
        .env("PYTHONPATH", &dir)
        .stdout(Stdio::null())
        .stderr(log.reopen().unwrap())
        .spawn()
        .expect("python3");
    let m = Moto { child, port, log };
    let ready = babelftp_test_support::poll(Duration::from_secs(60), || {
        http(m.port, "PUT", "/ftp").filter(|c| *c == 200)
    });
    assert!(ready.is_some(), "moto did not start on port {port}");
    m
}

/// Every key of the bucket `ftp`, as moto's ListObjectsV2 gives it (one
/// page: the tests store far fewer than 1,000 objects).
fn bucket_keys(m: &Moto) -> Vec<String> {
    let mut s = TcpStream::connect(("127.0.0.1", m.port)).unwrap();
    write!(
        s,
        "GET /ftp?list-type=2 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut body = Vec::new();
    s.read_to_end(&mut body).unwrap();
    let body = String::from_utf8(body).unwrap();
    assert!(body.contains("<IsTruncated>false</IsTruncated>"), "{body}");
    body.split("<Key>")
        .skip(1)
        .filter_map(|k| k.split("</Key>").next())
        .map(str::to_owned)
        .collect()
}

/// A bare HTTP request to moto: its status.
fn http(port: u16, method: &str, path: &str) -> Option<u16> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut r = String::new();
    s.read_to_string(&mut r).ok()?;
    r.split(' ').nth(1)?.parse().ok()
}

/// A babelftp node serving the bucket (prefix `site/`).
fn node(m: &Moto) -> TestServer {
    node_with(m, |_| {})
}

fn node_with(m: &Moto, tune: impl FnOnce(&mut babelftp_server::Config) + Send + 'static) -> TestServer {
    let endpoint = format!("http://127.0.0.1:{}", m.port);
    babelftp_test_support::start(move |c| {
        c.storage = babelftp_server::storage::Backend::S3(S3Config {
            bucket: "ftp".into(),
            endpoint: Some(endpoint),
            region: Some("us-east-1".into()),
            prefix: "site/".into(),
            access_key_id: Some("test".into()),
            secret_access_key: Some("test".into()),
        });
        c.login_fail_delay = Duration::from_millis(10);
        c.data_timeout = Duration::from_secs(5);
        c.metrics_listen = Some("127.0.0.1:0".parse().unwrap());
        tune(c);
    })
}

/// A node's /metrics, fetched with curl.
fn metrics(srv: &TestServer) -> String {
    let (rc, body) = babelftp_test_support::curl(&[&format!("http://{}/metrics", srv.metrics.unwrap())]);
    assert_eq!(rc, 0);
    String::from_utf8(body).unwrap()
}

/// The value of one metric line (0 when absent).
fn metric(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|v| v.strip_prefix(' ')))
        .map_or(0, |v| v.trim().parse().unwrap())
}

fn addr(srv: &TestServer) -> SocketAddr {
    *srv.addrs.iter().find(|a| a.is_ipv4()).unwrap()
}

fn url(srv: &TestServer, path: &str) -> String {
    format!("ftp://bob:secret@127.0.0.1:{}{path}", addr(srv).port())
}

/// The storage suite: what every back-end must do the same way, through
/// ftplib. `object_store`: APPE and REST+STOR are refused (504) instead
/// of done.
fn suite(srv: &TestServer, object_store: bool) {
    let script = format!(
        r#"
OBJECT = {object_store}
ftp = ftplib.FTP()
ftp.connect(HOST, PORT)
ftp.encoding = 'utf-8'
ftp.login('bob', 'secret')
ftp.mkd('папка')
ftp.mkd('папка/子目录')
try:
    ftp.mkd('папка')
    raise SystemExit('MKD twice')
except ftplib.error_perm as e:
    assert str(e).startswith('550'), e
ftp.storbinary('STOR папка/отчёт.txt', io.BytesIO(b'0123456789'))
ftp.storbinary('STOR 日本語.bin', io.BytesIO(b'x' * 3000))
assert ftp.size('папка/отчёт.txt') == 10
assert ftp.sendcmd('MDTM 日本語.bin').startswith('213 ')
# MFMT where times are kept; an object store keeps its write time, so it
# does not offer MFMT and answers 502.
feat = ftp.sendcmd('FEAT').splitlines()
assert (' MFMT' in feat) != OBJECT, feat
try:
    r = ftp.sendcmd('MFMT 20200102030405 日本語.bin')
    assert not OBJECT and r == '213 Modify=20200102030405; 日本語.bin', r
    assert ftp.sendcmd('MDTM 日本語.bin') == '213 20200102030405'
except ftplib.error_perm as e:
    assert OBJECT and str(e).startswith('502'), e
names = set(n.split('/')[-1] for n in ftp.nlst('папка'))
assert names == {{'子目录', 'отчёт.txt'}}, names
facts = dict((n, f['type']) for n, f in ftp.mlsd('папка'))
assert facts == {{'子目录': 'dir', 'отчёт.txt': 'file'}}, facts
lines = []
ftp.retrlines('LIST', lines.append)
assert any(l.endswith(' 日本語.bin') for l in lines), lines
got = io.BytesIO()
ftp.retrbinary('RETR папка/отчёт.txt', got.write, rest=4)
assert got.getvalue() == b'456789', got.getvalue()
ftp.rename('папка/отчёт.txt', 'папка/子目录/доклад.txt')
got = io.BytesIO()
ftp.retrbinary('RETR папка/子目录/доклад.txt', got.write)
assert got.getvalue() == b'0123456789'
ftp.rename('папка', 'folder')
assert ftp.size('folder/子目录/доклад.txt') == 10
for bad in ['RETR nothing.txt', 'DELE nothing.txt', 'RMD folder', 'RMD nothing', 'CWD nothing']:
    try:
        if bad.startswith('RETR'):
            ftp.retrbinary(bad, lambda b: None)
        else:
            ftp.sendcmd(bad)
        raise SystemExit(bad + ' succeeded')
    except ftplib.error_perm as e:
        assert str(e).startswith('550'), (bad, e)
ftp.cwd('folder/子目录')
assert ftp.pwd() == '/folder/子目录'
ftp.cwd('/')
resp = ftp.storbinary('STOU', io.BytesIO(b'u1'))
assert resp.startswith('226'), resp
# What the storage cannot do is not offered (issue 27): no SITE CHMOD,
# no `a` (append) in the perm fact.
try:
    ftp.sendcmd('SITE CHMOD 644 日本語.bin')
    assert not OBJECT, 'SITE CHMOD on an object store'
except ftplib.error_perm as e:
    assert OBJECT and str(e).startswith('502'), e
assert ('CHMOD' in ftp.sendcmd('SITE HELP')) != OBJECT
perm = dict(ftp.mlsd('', ['perm']))['日本語.bin']['perm']
assert ('a' in perm) != OBJECT, perm
try:
    ftp.storbinary('APPE 日本語.bin', io.BytesIO(b'more'))
    assert not OBJECT, 'APPE on an object store'
    assert ftp.size('日本語.bin') == 3004
except ftplib.error_perm as e:
    assert OBJECT and str(e).startswith('504'), e
try:
    ftp.storbinary('STOR 日本語.bin', io.BytesIO(b'yy'), rest=3000)
    assert not OBJECT, 'REST+STOR on an object store'
except ftplib.error_perm as e:
    assert OBJECT and str(e).startswith('504'), e
    assert ftp.size('日本語.bin') == 3000
ftp.delete('folder/子目录/доклад.txt')
ftp.rmd('folder/子目录')
ftp.rmd('folder')
ftp.delete('日本語.bin')
left = [n for n in ftp.nlst() if n != 'readme.txt']
assert len(left) == 1, left
ftp.delete(left[0])
ftp.quit()
print('ok')
"#,
        object_store = if object_store { "True" } else { "False" }
    );
    let out = babelftp_test_support::python_at(srv, &addr(srv), &script);
    assert_eq!(out.trim(), "ok");
}

#[test]
fn the_storage_suite_passes_on_the_local_disk_and_on_s3() {
    let local = babelftp_test_support::start(|c| c.login_fail_delay = Duration::from_millis(10));
    suite(&local, false);
    let m = moto();
    let s3 = node(&m);
    suite(&s3, true);
}

#[test]
fn two_nodes_on_one_bucket_serve_the_same_files_to_every_client() {
    let m = moto();
    let a = node(&m);
    let b = node(&m);
    let dir = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    // 20 MiB: a multipart upload of three parts, through node A by curl.
    let big = dir.path().join("big.bin");
    let data = babelftp_test_support::random_file(&big, 20 << 20);
    let (rc, _) = babelftp_test_support::curl(&["-T", big.to_str().unwrap(), &url(&a, "/%E5%A4%A7.bin")]);
    assert_eq!(rc, 0);
    // Node B lists and serves it: curl, lftp, our client.
    let (rc, listing) = babelftp_test_support::curl(&["--list-only", &url(&b, "/")]);
    assert_eq!(rc, 0);
    assert!(String::from_utf8(listing).unwrap().lines().any(|l| l == "大.bin"));
    let (rc, got) = babelftp_test_support::curl(&[&url(&b, "/%E5%A4%A7.bin")]);
    assert_eq!(rc, 0);
    assert!(got == data, "curl through node B: {} octets", got.len());
    let (rc, out, err) = babelftp_test_support::lftp(
        &url(&b, "/"),
        &format!("get 大.bin -o {}", dir.path().join("lftp.bin").display()),
    );
    assert_eq!(rc, 0, "{out}{err}");
    assert!(std::fs::read(dir.path().join("lftp.bin")).unwrap() == data);
    // Our client: up through B (a Unicode name), down through A.
    let src = dir.path().join("Отчёт.txt");
    std::fs::write(&src, b"through B").unwrap();
    let (ok, _, err) = babelftp(state.path(), &["put", "-q", src.to_str().unwrap(), &url(&b, "/")]);
    assert!(ok, "{err}");
    let down = dir.path().join("down");
    std::fs::create_dir(&down).unwrap();
    let (ok, _, err) = babelftp(
        state.path(),
        &["get", "-q", &url(&a, "/Отчёт.txt"), down.to_str().unwrap()],
    );
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(down.join("Отчёт.txt")).unwrap(), b"through B");
    let (ok, out, err) = babelftp(state.path(), &["ls", &url(&a, "/")]);
    assert!(ok, "{err}");
    assert_eq!(out, "Отчёт.txt\n大.bin\n");
    // Each node's metrics show its own traffic.
    let (ma, mb) = (metrics(&a), metrics(&b));
    let up = "babelftp_transfer_bytes_total{direction=\"upload\"}";
    let down = "babelftp_transfer_bytes_total{direction=\"download\"}";
    assert_eq!(metric(&ma, up), 20 << 20, "{ma}");
    assert_eq!(metric(&mb, up), 9, "{mb}");
    assert_eq!(metric(&ma, down), 9, "{ma}");
    assert_eq!(metric(&mb, down), 2 * (20 << 20), "{mb}");
    // `check` finds node A as compliant as the local disk.
    let (ok, out, err) = babelftp(state.path(), &["check", &url(&a, "/")]);
    assert!(ok, "{out}{err}");
    assert!(out.ends_with("12 passed, 0 failed, 0 skipped\n"), "{out}");
}

#[test]
fn a_gib_goes_up_in_parts_and_comes_back_whole() {
    let m = moto();
    let srv = node(&m);
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("gib.bin");
    // Sparse: zeros, read fast; the sizes and the hash prove the parts.
    std::fs::File::create(&big).unwrap().set_len(1 << 30).unwrap();
    // Not the 30 s of `curl()`: a GiB into moto took 33 s on two busy cores.
    let up = Command::new("curl")
        .args([
            "-s",
            "-S",
            "--max-time",
            "300",
            "-T",
            big.to_str().unwrap(),
            &url(&srv, "/gib.bin"),
        ])
        .status()
        .unwrap();
    assert!(up.success(), "{up}");
    let mut child = Command::new("curl")
        .args(["-s", "-S", "--max-time", "300", &url(&srv, "/gib.bin"), "-o", "-"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut n = 0u64;
    let mut nonzero = false;
    let mut buf = vec![0u8; 1 << 20];
    let mut r = child.stdout.take().unwrap();
    loop {
        let k = r.read(&mut buf).unwrap();
        if k == 0 {
            break;
        }
        nonzero |= buf[..k].iter().any(|&b| b != 0);
        n += k as u64;
    }
    assert!(child.wait().unwrap().success());
    assert_eq!(n, 1 << 30);
    assert!(!nonzero);
}

/// A raw FTP control connection that can be cut with a reset.
fn raw_login(srv: &TestServer) -> (TcpStream, std::io::BufReader<TcpStream>) {
    let s = TcpStream::connect(addr(srv)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut r = std::io::BufReader::new(s.try_clone().unwrap());
    let mut c = s.try_clone().unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut r, &mut line).unwrap();
    for cmd in ["USER bob", "PASS secret", "TYPE I"] {
        write!(c, "{cmd}\r\n").unwrap();
        line.clear();
        std::io::BufRead::read_line(&mut r, &mut line).unwrap();
    }
    assert!(line.starts_with("200"), "{line}");
    (s, r)
}

fn reply(r: &mut std::io::BufReader<TcpStream>) -> String {
    let mut line = String::new();
    std::io::BufRead::read_line(r, &mut line).unwrap();
    line
}

fn epsv(c: &mut TcpStream, r: &mut std::io::BufReader<TcpStream>) -> u16 {
    write!(c, "EPSV\r\n").unwrap();
    let l = reply(r);
    l.split("|||")
        .nth(1)
        .unwrap()
        .split('|')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn a_killed_upload_leaves_the_old_object_and_a_stopped_store_is_a_clear_error() {
    let mut m = moto();
    let srv = node(&m);
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.bin");
    let old_data = babelftp_test_support::random_file(&old, 1 << 20);
    let (rc, _) = babelftp_test_support::curl(&["-T", old.to_str().unwrap(), &url(&srv, "/file.bin")]);
    assert_eq!(rc, 0);

    // A replacing upload: 20 MiB sent (its first part reaches the store),
    // then the client dies: its kernel closes both connections at once,
    // and the data connection's end looks like a whole upload's.
    let (mut c, mut r) = raw_login(&srv);
    let port = epsv(&mut c, &mut r);
    let mut d = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(c, "STOR file.bin\r\n").unwrap();
    assert!(reply(&mut r).starts_with("150"));
    let chunk = vec![7u8; 1 << 20];
    for _ in 0..20 {
        d.write_all(&chunk).unwrap();
    }
    let part = || {
        let log = std::fs::read_to_string(m.log.path()).unwrap_or_default();
        log.lines().any(|l| l.contains("file.bin?partNumber=")).then_some(())
    };
    if babelftp_test_support::poll(Duration::from_secs(20), part).is_none() {
        panic!(
            "no part of the upload reached the store:\n{}",
            std::fs::read_to_string(m.log.path()).unwrap_or_default()
        );
    }
    for s in [&d, &c] {
        s.shutdown(std::net::Shutdown::Both).ok();
    }
    drop((d, c, r));
    std::thread::sleep(Duration::from_secs(1));
    let (rc, got) = babelftp_test_support::curl(&[&url(&srv, "/file.bin")]);
    assert_eq!(rc, 0);
    assert!(got == old_data, "the old object changed: {} octets", got.len());

    // The store goes away during a download: a 4xx on the control
    // connection, which stays usable, and no panic.
    let big = dir.path().join("big.bin");
    babelftp_test_support::random_file(&big, 64 << 20);
    let (rc, _) = babelftp_test_support::curl(&["-T", big.to_str().unwrap(), &url(&srv, "/big.bin")]);
    assert_eq!(rc, 0);
    let (mut c, mut r) = raw_login(&srv);
    let port = epsv(&mut c, &mut r);
    let mut d = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(c, "RETR big.bin\r\n").unwrap();
    assert!(reply(&mut r).starts_with("150"));
    let mut buf = vec![0u8; 1 << 16];
    d.read_exact(&mut buf).unwrap();
    m.child.kill().unwrap();
    m.child.wait().unwrap();
    // Drain what is in flight; the end comes early.
    let mut total = buf.len() as u64;
    loop {
        match d.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(k) => total += k as u64,
        }
    }
    let end = reply(&mut r);
    assert!(
        end.starts_with("451") || end.starts_with("426"),
        "{end} after {total} octets"
    );
    assert!(total < 64 << 20);
    write!(c, "NOOP\r\n").unwrap();
    assert!(reply(&mut r).starts_with("200"));
    // Anything else now fails cleanly too.
    write!(c, "SIZE big.bin\r\n").unwrap();
    let l = reply(&mut r);
    assert!(l.starts_with('4') || l.starts_with('5'), "{l}");
}

#[test]
fn the_store_stopping_mid_upload_is_451_not_226() {
    let mut m = moto();
    let srv = node(&m);
    let (mut c, mut r) = raw_login(&srv);
    let port = epsv(&mut c, &mut r);
    let mut d = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(c, "STOR half.bin\r\n").unwrap();
    assert!(reply(&mut r).starts_with("150"));
    let chunk = vec![1u8; 1 << 20];
    for _ in 0..16 {
        d.write_all(&chunk).unwrap();
    }
    m.child.kill().unwrap();
    m.child.wait().unwrap();
    // The rest, as far as the server takes it: it stops reading when a
    // part cannot be stored.
    for _ in 0..32 {
        if d.write_all(&chunk).is_err() {
            break;
        }
    }
    d.shutdown(std::net::Shutdown::Write).ok();
    let end = reply(&mut r);
    // The store failed, not the client: 451, as for a full disk.
    assert!(end.starts_with("451"), "{end}");
    write!(c, "NOOP\r\n").unwrap();
    assert!(reply(&mut r).starts_with("200"));
}

#[test]
fn a_legacy_clients_names_become_utf8_keys_and_any_other_octets_round_trip() {
    let m = moto();
    let srv = node_with(&m, |c| c.legacy_client_charset = Some("windows-1251".into()));
    // RFC 2640 A.2 on S3 as on disk: a CP1251 client's names are UTF-8
    // keys, and come back to it in CP1251.
    let out = babelftp_test_support::python_at(
        &srv,
        &addr(&srv),
        r#"
f = ftplib.FTP(encoding='cp1251')
f.connect(HOST, PORT)
f.login('bob', 'secret')
f.storbinary('STOR привет.txt', io.BytesIO(b'hi'))
print('old', f.nlst())
print(f.sendcmd('OPTS UTF8 ON'))
# With the layer off, a name that is no UTF-8 is octets like any other
# (issue 27): stored, listed and read back as sent.
f.encoding = 'latin-1'
f.storbinary('STOR caf\xe9.txt', io.BytesIO(b'latin'))
f.storbinary('STOR   ', io.BytesIO(b'two spaces'))
got = io.BytesIO(); f.retrbinary('RETR caf\xe9.txt', got.write)
print('latin', got.getvalue())
got = io.BytesIO(); f.retrbinary('RETR   ', got.write)
print('spaces', got.getvalue())
print('names', sorted(f.nlst()))
f.quit()
"#,
    );
    assert!(out.contains("old ['привет.txt']"), "{out}");
    assert!(out.contains("latin b'latin'"), "{out}");
    assert!(out.contains("spaces b'two spaces'"), "{out}");
    assert!(
        out.contains("names ['  ', 'café.txt', 'Ð¿Ñ\\x80Ð¸Ð²ÐµÑ\\x82.txt']"),
        "{out}"
    );
    // The keys: UTF-8, the stray octet and the edge spaces as %HH.
    let keys = bucket_keys(&m);
    for want in ["site/привет.txt", "site/caf%E9.txt", "site/%20%20"] {
        assert!(keys.iter().any(|k| k == want), "{want}: {keys:?}");
    }
}

#[test]
fn urgent_abor_during_s3_transfers_leaves_no_object_and_the_session_alive() {
    let m = moto();
    let srv = node(&m);
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.bin");
    babelftp_test_support::random_file(&big, 32 << 20);
    let (rc, _) = babelftp_test_support::curl(&["-T", big.to_str().unwrap(), &url(&srv, "/big.bin")]);
    assert_eq!(rc, 0);
    // ftplib's abort(): ABOR sent as urgent data (Telnet IP, Synch).
    let out = babelftp_test_support::python_at(
        &srv,
        &addr(&srv),
        r#"
f = ftplib.FTP()
f.connect(HOST, PORT)
f.login('bob', 'secret')
f.voidcmd('TYPE I')
def abort(what):
    first = f.abort()
    print('abor', what, first[:3])
    # 426 for the transfer, then ABOR's own 226 (RFC 959 4.1.3).
    if first.startswith('426'):
        print('then', f.getresp()[:3])
conn = f.transfercmd('RETR big.bin')
conn.recv(65536)
abort('retr')
conn.close()
conn = f.transfercmd('STOR half.bin')
conn.sendall(b'x' * (12 << 20))
abort('stor')
conn.close()
print('noop', f.voidcmd('NOOP')[:3])
print('names', sorted(f.nlst()))
f.quit()
"#,
    );
    assert!(out.contains("noop 200"), "{out}");
    assert!(out.contains("names ['big.bin']"), "{out}");
    for line in out.lines().filter(|l| l.starts_with("abor")) {
        let code = &line[line.len() - 3..];
        assert!(["225", "226", "426"].contains(&code), "{out}");
    }
}

/// Issue 24: a user whose home is `/a` on S3 (keys under `site/a/`) sends
/// every operation with names that start or end in each Unicode whitespace,
/// dot names, slashes and `%` sequences. Every request that reaches the
/// store (moto's request log) names a key under `site/a/`, nothing outside
/// it is created or removed, and names that differ only by whitespace are
/// different files.
#[test]
fn no_name_reaches_s3_outside_the_users_prefix() {
    let m = moto();
    let srv = node_with(&m, |c| {
        let mut eve = babelftp_server::config::User::plain("eve", "pw");
        eve.home = b"/a".to_vec();
        c.users.push(eve);
    });
    // The home, and a file beside it that must survive.
    let out = babelftp_test_support::python_at(
        &srv,
        &addr(&srv),
        r#"
f = ftplib.FTP(); f.connect(HOST, PORT); f.encoding = 'utf-8'; f.login('bob', 'secret')
f.mkd('a')
f.storbinary('STOR outside.txt', io.BytesIO(b'keep me'))
f.quit()
print('ok')
"#,
    );
    assert_eq!(out.trim(), "ok");
    std::thread::sleep(Duration::from_millis(300));
    let log_start = std::fs::read_to_string(m.log.path()).unwrap().len();
    let out = babelftp_test_support::python_at(
        &srv,
        &addr(&srv),
        r#"
import unicodedata
WS = [chr(c) for c in range(0x110000) if chr(c).isspace() and chr(c) not in '\r\n' and not (0x1c <= c <= 0x1f)]
# Python's isspace is wider than Unicode White_Space (it has 1C-1F): the
# White_Space ones, as Rust's trim sees them, are all here.
names = ['..', '...', '. ', ' .', '%2e%2e', '%2E%2E%20', '..%20', '%2f..', '..\\', 'a/../..', '../../..', '/..']
for w in WS:
    names += ['..' + w, w + '..', '.' + w, 'in.txt' + w, w + 'in.txt', w]
f = ftplib.FTP(); f.connect(HOST, PORT); f.encoding = 'utf-8'; f.login('eve', 'pw')
f.storbinary('STOR in.txt', io.BytesIO(b'real'))
codes = {}
def tr(cmd, *a):
    try:
        r = cmd(*a)
        return (r if isinstance(r, str) else '200')[:3]
    except ftplib.all_errors as e:
        return str(e)[:3]
for n in names:
    got = io.BytesIO()
    row = [
        tr(f.storbinary, 'STOR ' + n, io.BytesIO(b'x' + n.encode())),
        tr(f.retrbinary, 'RETR ' + n, got.write),
        tr(f.sendcmd, 'SIZE ' + n),
        tr(f.sendcmd, 'MDTM ' + n),
        tr(f.sendcmd, 'MLST ' + n),
        tr(f.nlst, n),
        tr(f.sendcmd, 'RNFR ' + n), tr(f.sendcmd, 'RNTO ' + n + 'z'),
        tr(f.sendcmd, 'RNFR ' + n + 'z'), tr(f.sendcmd, 'RNTO ' + n),
        tr(f.sendcmd, 'DELE ' + n),
        tr(f.sendcmd, 'MKD ' + n),
        tr(f.sendcmd, 'CWD ' + n), tr(f.sendcmd, 'CWD /'),
        tr(f.sendcmd, 'RMD ' + n),
    ]
    for c in row:
        assert c[0] in '235', (n, row)
    if row[0] == '226':
        # What was stored under the name comes back under it, not another's.
        assert got.getvalue() == b'x' + n.encode(), (repr(n), got.getvalue())
    codes[n] = row
# Whitespace is part of a name: in.txt is untouched by all of the above.
got = io.BytesIO()
f.retrbinary('RETR in.txt', got.write)
assert got.getvalue() == b'real', got.getvalue()
f.storbinary('STOR in.txt ', io.BytesIO(b'other'))
f.storbinary('STOR in.txt\u3000', io.BytesIO(b'third'))
got = io.BytesIO(); f.retrbinary('RETR in.txt', got.write)
assert got.getvalue() == b'real', got.getvalue()
got = io.BytesIO(); f.retrbinary('RETR in.txt ', got.write)
assert got.getvalue() == b'other', got.getvalue()
listed = set(f.nlst())
assert {'in.txt', 'in.txt ', 'in.txt\u3000'} <= listed, listed
# '.. ' at the top of the home is a name like any other.
f.storbinary('STOR .. ', io.BytesIO(b'dotdot'))
assert '.. ' in f.nlst(), f.nlst()
print('stored', sum(1 for r in codes.values() if r[0] == '226'), 'of', len(codes))
f.quit()
"#,
    );
    assert!(out.contains("stored"), "{out}");
    std::thread::sleep(Duration::from_millis(500));
    let log = std::fs::read_to_string(m.log.path()).unwrap();
    let requests: Vec<&str> = log[log_start..].lines().filter(|l| l.contains("HTTP/1.1\"")).collect();
    assert!(requests.len() > 500, "{} requests", requests.len());
    let outside: Vec<&&str> = requests.iter().filter(|l| !under_prefix(l, "site/a/")).collect();
    assert!(outside.is_empty(), "requests outside site/a/: {outside:#?}");
    // The whole bucket: outside.txt and the home marker stay, nothing new
    // appeared beside them.
    let keys = bucket_keys(&m);
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    assert!(keys.contains(&"site/outside.txt"), "{keys:?}");
    assert!(keys.contains(&"site/a/in.txt%20"), "{keys:?}");
    assert!(keys.contains(&"site/a/..%20"), "{keys:?}");
    let strays: Vec<&&str> = keys
        .iter()
        .filter(|k| !k.starts_with("site/a/") && **k != "site/outside.txt" && **k != "site/a/")
        .collect();
    assert!(strays.is_empty(), "{strays:?}");
}

/// Whether a werkzeug request-log line names an object at or below
/// `prefix` of bucket `ftp`: the path (percent-decoded once, as the store
/// reads it) is `/ftp/<prefix>…` with no `.` or `..` segment, or a bucket
/// request's `prefix=` parameter starts with `prefix`.
fn under_prefix(line: &str, prefix: &str) -> bool {
    let Some(target) = line.split('"').nth(1).and_then(|r| r.split(' ').nth(1)) else {
        return false;
    };
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let path = percent_decode(path);
    if let Some(key) = path.strip_prefix("/ftp/") {
        return key.starts_with(prefix) && !key.split('/').any(|s| s == "." || s == "..");
    }
    if path == "/ftp" {
        return query
            .split('&')
            .filter_map(|kv| kv.strip_prefix("prefix="))
            .any(|p| percent_decode(p).starts_with(prefix));
    }
    false
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let hex = |c: u8| (c as char).to_digit(16);
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match (
            b[i],
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Issue 25.3: a broken S3 setup is said at start, with the store's own
/// reason, instead of a healthy-looking server whose users get 451; with
/// --allow-degraded it starts, says so in the banner and in /health (503)
/// until the bucket answers, then /health is 200 again.
#[test]
fn a_broken_s3_setup_is_refused_at_start_or_served_degraded_and_said() {
    let m = moto();
    let dir = tempfile::tempdir().unwrap();
    let serve = |bucket: &str, endpoint: &str, extra: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_babelftp"));
        c.args(["serve", "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0"])
            .args(["--s3", &format!("s3://{bucket}/site/"), "--s3-endpoint", endpoint])
            .args(extra)
            .env("AWS_ACCESS_KEY_ID", "test")
            .env("AWS_SECRET_ACCESS_KEY", "test")
            .env("LC_ALL", "C")
            .current_dir(dir.path())
            .stdin(Stdio::null());
        c
    };
    let endpoint = format!("http://127.0.0.1:{}", m.port);
    // A bucket that does not exist.
    let out = serve("nobucket", &endpoint, &[]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the storage does not answer"), "{err}");
    assert!(err.contains("\"nobucket\"") && err.contains("NoSuchBucket"), "{err}");
    // An endpoint where nothing listens.
    let closed = format!("http://127.0.0.1:{}", free_port());
    let out = serve("ftp", &closed, &[]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the storage does not answer") && err.contains(&closed),
        "{err}"
    );
    // Degraded, then healthy once the bucket is there.
    let mut child = babelftp_test_support::ChildGuard(
        serve("later", &endpoint, &["--allow-degraded"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.0.stdout.take().unwrap()));
    let mut banner = Vec::new();
    let metrics = loop {
        let l = lines.next().unwrap().unwrap();
        banner.push(l.clone());
        if let Some(rest) = l.strip_prefix("metrics: http://") {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    let l = lines.next().unwrap().unwrap();
    assert!(
        l.starts_with("warning: serving degraded") && l.contains("NoSuchBucket"),
        "{banner:?} {l}"
    );
    let health = |want: &str| {
        babelftp_test_support::poll(Duration::from_secs(20), || {
            let (_, body) = babelftp_test_support::curl(&["-i", &format!("http://{metrics}/health")]);
            let body = String::from_utf8_lossy(&body).into_owned();
            body.contains(want).then_some(body)
        })
    };
    let h = health("503 Service Unavailable").expect("503 while degraded");
    assert!(h.contains("degraded: storage unreachable"), "{h}");
    assert_eq!(http(m.port, "PUT", "/later"), Some(200));
    health("200 OK").expect("/health 200 once the bucket answers");
}

/// Virtual hosts (RFC 7151) on any back-end (issue 27): a node whose root
/// is the bucket's `site/` serves `disk.test` from a local directory and
/// `drop.test` from the same bucket's `drop/`; each HOST sees its own tree,
/// and the objects land under the host's prefix, nowhere else.
#[test]
fn virtual_hosts_are_served_from_s3_and_from_the_disk_alike() {
    let m = moto();
    let disk = tempfile::tempdir().unwrap();
    let disk_root = disk.path().to_path_buf();
    let endpoint = format!("http://127.0.0.1:{}", m.port);
    let srv = node_with(&m, move |c| {
        c.hosts.push(babelftp_server::config::VirtualHost {
            name: "disk.test".into(),
            root: disk_root,
            storage: babelftp_server::storage::Backend::Local,
            default_lang: None,
        });
        c.hosts.push(babelftp_server::config::VirtualHost {
            name: "drop.test".into(),
            root: PathBuf::new(),
            storage: babelftp_server::storage::Backend::S3(S3Config {
                bucket: "ftp".into(),
                endpoint: Some(endpoint),
                region: Some("us-east-1".into()),
                prefix: "drop/".into(),
                access_key_id: Some("test".into()),
                secret_access_key: Some("test".into()),
            }),
            default_lang: Some(babelftp_proto::lang::LangTag::parse(b"fr").unwrap()),
        });
    });
    let out = babelftp_test_support::python_at(
        &srv,
        &addr(&srv),
        r#"
def session(host, name, body):
    f = ftplib.FTP(); f.connect(HOST, PORT); f.encoding = 'utf-8'
    if host:
        print(host, f.sendcmd('HOST ' + host)[:3])
    f.login('bob', 'secret')
    f.storbinary('STOR ' + name, io.BytesIO(body))
    print(host, sorted(f.nlst()))
    f.quit()
session('drop.test', 'заявка.txt', b'to the drop prefix')
session('disk.test', 'ディスク.txt', b'to the disk')
session(None, 'site.txt', b'to the root')
session('drop.test', 'второй.txt', b'again')
"#,
    );
    assert!(out.contains("drop.test 220"), "{out}");
    assert!(out.contains("drop.test ['заявка.txt']"), "{out}");
    assert!(out.contains("disk.test ['ディスク.txt']"), "{out}");
    assert!(out.contains("None ['site.txt']"), "{out}");
    assert!(out.contains("drop.test ['второй.txt', 'заявка.txt']"), "{out}");
    assert_eq!(std::fs::read(disk.path().join("ディスク.txt")).unwrap(), b"to the disk");
    let mut keys = bucket_keys(&m);
    keys.sort();
    assert_eq!(keys, ["drop/второй.txt", "drop/заявка.txt", "site/site.txt"]);
}

/// RFC 2640 on both back-ends (issue 27): the same transcript, byte for
/// byte, on the local disk and on S3: FEAT's UTF8 and LANG lines, names in
/// several scripts, with spaces at either end, a CR sent as CR NUL (3.1),
/// a `"` doubled in 257 (RFC 959), and octets that are no UTF-8.
fn rfc2640_transcript(srv: &TestServer) -> String {
    let script = format!(
        "{}{}",
        babelftp_test_support::PY_RAW_FTP,
        r#"
def full(s, f, line):
    s.sendall(line + b'\r\n')
    lines = [readline(f)]
    if lines[0][3:4] == b'-':
        while True:
            l = readline(f); lines.append(l)
            if l[:3] == lines[0][:3] and l[3:4] == b' ':
                break
    return b''.join(lines)
def wire(n):
    return n.replace(b'\r', b'\r\x00')
def data(s, f, line, body=None):
    d = pasv(s, f)
    r = cmd(s, f, line)
    assert r[:3] in (b'125', b'150'), (line, r)
    got = b''
    if body is None:
        while True:
            b = d.recv(65536)
            if not b:
                break
            got += b
    else:
        d.sendall(body)
    d.close()
    end = reply(f)
    assert end.startswith(b'226'), (line, end)
    return got
s, f = connect()
feat = full(s, f, b'FEAT')
assert b'\r\n UTF8\r\n' in feat, feat
assert b'\r\n LANG ' in feat, feat
login(s, f)
print(cmd(s, f, b'OPTS UTF8 ON')[:3])
names = ['日本語 報告.txt', ' lead', 'trail ', '  ', 'emoji 😀.png', 'ελληνικά', 'עברית.doc', 'a\rb']
raw = [n.encode('utf-8') for n in names] + [b'caf\xe9.txt', b'\x8e\xa0\x8d\xa1']
for n in raw:
    data(s, f, b'STOR ' + wire(n), n)
listed = data(s, f, b'NLST').split(b'\r\n')
# The local root holds the harness's readme.txt; the bucket does not.
listed = sorted(x.replace(b'\r\x00', b'\r') for x in listed if x and x != b'readme.txt')
print('nlst', listed == sorted(raw), listed)
for n in raw:
    assert data(s, f, b'RETR ' + wire(n)) == n, n
    r = cmd(s, f, b'SIZE ' + wire(n))
    assert r == b'213 %d\r\n' % len(n), (n, r)
r = cmd(s, f, b'MKD dir"q ')
print('mkd', r)
print('cwd', cmd(s, f, b'CWD dir"q ')[:3], cmd(s, f, b'PWD'))
print('lang', cmd(s, f, b'LANG fr')[:3], cmd(s, f, b'CWD /')[:3])
for n in raw:
    assert cmd(s, f, b'DELE ' + wire(n)).startswith(b'250'), n
print('rmd', cmd(s, f, b'RMD dir"q ')[:3])
print('quit', cmd(s, f, b'QUIT')[:3])
"#
    );
    babelftp_test_support::python_at(srv, &addr(srv), &script)
}

#[test]
fn the_rfc2640_transcript_is_the_same_on_the_local_disk_and_on_s3() {
    let local = babelftp_test_support::start(|c| c.login_fail_delay = Duration::from_millis(10));
    let on_disk = rfc2640_transcript(&local);
    let m = moto();
    let on_s3 = rfc2640_transcript(&node(&m));
    assert!(on_disk.contains("nlst True"), "{on_disk}");
    assert!(on_disk.contains(r#"mkd b'257 "/dir""q " "#), "{on_disk}");
    assert!(on_disk.contains(r#"cwd b'250' b'257 "/dir""q " "#), "{on_disk}");
    assert!(on_disk.contains("rmd b'250'"), "{on_disk}");
    assert_eq!(on_disk, on_s3);
}

/// `babelftp ARGS` with `stdin`; must succeed.
fn admin_in(args: &[&str], stdin: &str) {
    let (code, out, err) = common::serve::run(args, stdin);
    assert_eq!(code, 0, "babelftp {args:?}: {out}{err}");
}

#[test]
fn a_users_home_and_a_folder_can_live_in_a_bucket_beside_a_local_root() {
    let m = moto();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    // dora's home is a prefix of the bucket; erin's home is on the disk,
    // with the bucket's `shared/` prefix mounted at /shared (the bucket is
    // an allowed source).
    let conf = dir.path().join("allowed.toml");
    std::fs::write(&conf, "allowed_sources = [\"s3://ftp\"]\n").unwrap();
    let conf = conf.to_str().unwrap();
    admin_in(
        &[
            "user",
            "add",
            "dora",
            "--home",
            "s3://ftp/homes/dora",
            "--db",
            &db,
            "--config",
            conf,
        ],
        "dora-secret\n",
    );
    admin_in(&["user", "add", "erin", "--db", &db], "erin-secret\n");
    admin_in(
        &[
            "user",
            "mount",
            "erin",
            "/shared",
            "s3://ftp/shared",
            "--db",
            &db,
            "--config",
            conf,
        ],
        "",
    );
    let endpoint = format!("http://127.0.0.1:{}", m.port);
    let srv = common::serve::Serve::start_env(
        &root,
        &["--db", &db],
        &[
            ("AWS_ENDPOINT_URL", &endpoint),
            ("AWS_REGION", "us-east-1"),
            ("AWS_ACCESS_KEY_ID", "test"),
            ("AWS_SECRET_ACCESS_KEY", "test"),
        ],
    );
    let up = dir.path().join("up.txt");
    std::fs::write(&up, "über").unwrap();
    let url = |who: &str, p: &str| format!("ftp://{who}:{who}-secret@{}{p}", srv.addr);
    let (code, _) = babelftp_test_support::curl(&["-T", up.to_str().unwrap(), &url("dora", "/notes.txt")]);
    assert_eq!(code, 0);
    let (code, _) =
        babelftp_test_support::curl(&["-T", up.to_str().unwrap(), &url("erin", "/shared/f%C3%BCr%20alle.txt")]);
    assert_eq!(code, 0);
    let (code, _) = babelftp_test_support::curl(&["-T", up.to_str().unwrap(), &url("erin", "/local.txt")]);
    assert_eq!(code, 0);
    let keys = bucket_keys(&m);
    assert!(keys.iter().any(|k| k == "homes/dora/notes.txt"), "{keys:?}");
    assert!(keys.iter().any(|k| k == "shared/für alle.txt"), "{keys:?}");
    assert!(root.join("local.txt").is_file(), "erin's home is the local root");
    assert!(!keys.iter().any(|k| k.contains("local.txt")));
    // erin's root lists the mount point as a directory.
    let (code, listing) = babelftp_test_support::curl(&["-l", &url("erin", "/")]);
    assert_eq!(code, 0);
    let listing = String::from_utf8(listing).unwrap();
    assert!(listing.lines().any(|l| l == "shared"), "{listing}");
    let (code, body) = babelftp_test_support::curl(&[&url("erin", "/shared/f%C3%BCr%20alle.txt")]);
    assert_eq!((code, body), (0, "über".as_bytes().to_vec()));
}
