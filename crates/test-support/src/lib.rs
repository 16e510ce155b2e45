//! What the socket tests of the workspace share, in one place:
//!
//! - [`start`]: a real babelftp server on 127.0.0.1:0 (and [::1]:0 when the
//!   machine has IPv6 loopback) over a temporary root, stopped when its
//!   [`TestServer`] is dropped;
//! - the real clients: [`python`] (ftplib), [`curl`], [`lftp`], and
//!   [`Control`], a raw control connection;
//! - waiting on deadlines instead of sleeping: [`poll`], [`wait_until`],
//!   [`wait_for_port`], [`within`], [`wait_child`], [`output_within`];
//! - child processes stopped when dropped ([`ChildGuard`], [`stop_child`]);
//! - [`peers`]: vsftpd, ProFTPD and Pure-FTPd, as `scripts/peers.sh`
//!   unpacks them, started on loopback.
#![allow(clippy::unwrap_used, clippy::expect_used)]

pub mod peers;
pub mod postgres;
pub mod slapd;

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use babelftp_server::{Config, Server};

// ------------------------------------------------------------ the server

/// A babelftp server running on its own thread (and tokio runtime) over a
/// temporary root; stopped (gracefully, then joined) when dropped.
pub struct TestServer {
    /// Where it listens: IPv4 loopback first, then IPv6 loopback if any.
    pub addrs: Vec<SocketAddr>,
    /// Its implicit-FTPS listeners, if configured.
    pub implicit: Vec<SocketAddr>,
    /// Its metrics endpoint, if `metrics_listen` was configured.
    pub metrics: Option<SocketAddr>,
    /// The directory it serves as `/`.
    pub root: tempfile::TempDir,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    /// The first (IPv4) address's port.
    pub fn port(&self) -> u16 {
        self.addrs[0].port()
    }

    /// `rel` below the served root.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.path().join(rel)
    }

    /// Starts the graceful shutdown without waiting for it.
    pub fn begin_shutdown(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }

    /// Waits until the server has stopped.
    pub fn join(&mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.begin_shutdown();
        self.join();
    }
}

/// A self-signed certificate (ECDSA P-256, not a CA) for 127.0.0.1 and
/// localhost, made now with rcgen (no key is ever committed): writes
/// `cert.pem` and `key.pem` into `dir` and returns their paths.
pub fn certificate(dir: &Path) -> (PathBuf, PathBuf) {
    let ck = rcgen::generate_simple_self_signed(vec!["127.0.0.1".into(), "localhost".into()]).unwrap();
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    std::fs::write(&cert, ck.cert.pem()).unwrap();
    std::fs::write(&key, ck.signing_key.serialize_pem()).unwrap();
    std::fs::set_permissions(&key, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    (cert, key)
}

/// A self-signed certificate that says `CA:TRUE`, as `openssl req -x509`
/// makes by default, for 127.0.0.1 and localhost: `ca.pem` and
/// `ca-key.pem` under `dir`.
pub fn ca_flagged_certificate(dir: &Path) -> (PathBuf, PathBuf) {
    let mut params = rcgen::CertificateParams::new(vec!["127.0.0.1".into(), "localhost".into()]).unwrap();
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = params.self_signed(&key).unwrap();
    let (c, k) = (dir.join("ca.pem"), dir.join("ca-key.pem"));
    std::fs::write(&c, cert.pem()).unwrap();
    std::fs::write(&k, key.serialize_pem()).unwrap();
    (c, k)
}

/// A server with FTPS (explicit, and implicit on [`TestServer::implicit`])
/// under a fresh [`certificate`], whose files are in the returned
/// directory; `required`: `--tls-required`.
pub fn start_tls(required: bool, tune: impl FnOnce(&mut Config)) -> (TestServer, tempfile::TempDir) {
    let certs = tempfile::tempdir().unwrap();
    let (cert, key) = certificate(certs.path());
    let srv = start(move |c| {
        c.tls_cert = Some(cert);
        c.tls_key = Some(key);
        c.tls_required = required;
        c.implicit_listen = vec!["127.0.0.1:0".parse().unwrap()];
        tune(c);
    });
    (srv, certs)
}

/// Whether this machine has IPv6 loopback.
pub fn has_ipv6() -> bool {
    std::net::TcpListener::bind("[::1]:0").is_ok()
}

/// How long [`start`] waits for the server to be listening.
const START_TIMEOUT: Duration = Duration::from_secs(10);

/// Starts a server with a user `bob`/`secret` (read/write) and anonymous
/// read-only access, on IPv4 and (when present) IPv6 loopback, over a new
/// temporary root holding `readme.txt`; `tune` changes the configuration
/// before the server binds. Returns once it listens.
pub fn start(tune: impl FnOnce(&mut Config)) -> TestServer {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("readme.txt"), b"hello from babelftp\n").unwrap();
    let mut cfg = Config {
        root: root.path().to_path_buf(),
        listen: vec!["127.0.0.1:0".parse().unwrap()],
        users: vec![babelftp_server::config::User::plain("bob", "secret")],
        login_fail_delay: Duration::from_millis(50),
        ..Config::default()
    };
    if has_ipv6() {
        cfg.listen.push("[::1]:0".parse().unwrap());
    }
    tune(&mut cfg);
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let server = match Server::bind(cfg).await {
                Ok(s) => s,
                Err(e) => {
                    let _ = addr_tx.send(Err(e.to_string()));
                    return;
                }
            };
            addr_tx
                .send(Ok((
                    server.local_addrs(),
                    server.implicit_addrs(),
                    server.metrics_addr(),
                )))
                .unwrap();
            server
                .run(
                    async {
                        let _ = stop_rx.await;
                    },
                    Duration::from_secs(2),
                )
                .await
                .unwrap();
        });
    });
    let (addrs, implicit, metrics) = match addr_rx.recv_timeout(START_TIMEOUT) {
        Ok(Ok(addrs)) => addrs,
        Ok(Err(e)) => panic!("the test server did not bind: {e}"),
        Err(e) => panic!("the test server did not start within {START_TIMEOUT:?}: {e}"),
    };
    TestServer {
        addrs,
        implicit,
        metrics,
        root,
        stop: Some(stop_tx),
        thread: Some(thread),
    }
}

// ----------------------------------------------------------- the clients

/// Runs a Python 3 script (ftplib) with PORT/HOST in its environment;
/// panics with its output unless it exits 0. Returns stdout.
pub fn python(srv: &TestServer, script: &str) -> String {
    python_at(srv, &srv.addrs[0], script)
}

/// [`python`] against one of the server's addresses.
pub fn python_at(_srv: &TestServer, addr: &SocketAddr, script: &str) -> String {
    let out = Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import ftplib, os, sys, io, socket\nHOST = {:?}\nPORT = {}\n{}",
            addr.ip().to_string(),
            addr.port(),
            script
        ))
        .output()
        .expect("python3 must be installed (scripts/test.sh installs it)");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "python failed:\n--- stdout\n{stdout}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Python prelude for tests that speak FTP by hand (prepend to a
/// [`python`] script): `connect()`, `readline(f)` (keeps RFC 2640's
/// CR NUL LF inside a line), `reply(f)` (multi-line aware), `cmd(s, f,
/// line)`, `login(s, f)` as bob, `pasv(s, f)` (EPSV, returns the data
/// socket), `epsv(s, f)` (returns the port).
pub const PY_RAW_FTP: &str = r#"
import time
def connect():
    s = socket.create_connection((HOST, PORT), timeout=20)
    f = s.makefile('rb')
    assert f.readline().startswith(b'220'), 'greeting'
    return s, f
def readline(f):
    # RFC 2640 3.1: CR NUL LF inside a line is pathname data.
    line = f.readline()
    while line.endswith(b'\r\x00\n'):
        line += f.readline()
    return line
def reply(f):
    line = readline(f)
    code = line[:3]
    if line[3:4] == b'-':
        while True:
            l = readline(f)
            if l[:3] == code and l[3:4] == b' ':
                break
    return line
def cmd(s, f, line):
    s.sendall(line + b'\r\n')
    return reply(f)
def login(s, f):
    assert cmd(s, f, b'USER bob').startswith(b'331')
    assert cmd(s, f, b'PASS secret').startswith(b'230')
def pasv(s, f):
    r = cmd(s, f, b'EPSV')
    assert r.startswith(b'229'), r
    port = int(r.split(b'|||')[1].split(b'|')[0])
    return socket.create_connection((HOST, port), timeout=20)
def epsv(s, f):
    r = cmd(s, f, b'EPSV')
    assert r.startswith(b'229'), r
    return int(r.split(b'|||')[1].split(b'|')[0])
"#;

/// Runs curl with the arguments; returns (exit status, stdout bytes).
pub fn curl(args: &[&str]) -> (i32, Vec<u8>) {
    let out = Command::new("curl")
        .args(["-s", "-S", "--max-time", "30"])
        .args(args)
        .output()
        .expect("curl must be installed (scripts/test.sh installs it)");
    (out.status.code().unwrap_or(-1), out.stdout)
}

/// Runs lftp commands against the server; returns (status, stdout, stderr).
pub fn lftp(url: &str, commands: &str) -> (i32, String, String) {
    let script = format!(
        "set net:max-retries 1; set net:timeout 10; set cmd:fail-exit yes; set ftp:ssl-allow no; open {url}; {commands}"
    );
    let out = Command::new("lftp")
        .args(["-c", &script])
        .output()
        .expect("lftp must be installed (scripts/test.sh installs it)");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A raw FTP control connection, for what no client sends as is.
pub struct Control {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Control {
    /// Connects (10 s at most for the connection and each reply) and reads
    /// the greeting.
    pub fn connect(addr: SocketAddr) -> (Control, Vec<u8>) {
        let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(10)).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        let mut c = Control { stream, reader };
        let greeting = c.reply();
        (c, greeting)
    }

    /// Sends `line` (CR LF added) and returns the whole reply, every line of
    /// it, as the bytes that came.
    pub fn cmd(&mut self, line: &str) -> Vec<u8> {
        self.stream.write_all(format!("{line}\r\n").as_bytes()).unwrap();
        self.reply()
    }

    /// One reply: a line, or the lines from `NNN-` to `NNN `.
    pub fn reply(&mut self) -> Vec<u8> {
        let mut all = self.line();
        if all.get(3) == Some(&b'-') {
            let end: Vec<u8> = [&all[..3], b" "].concat();
            loop {
                let line = self.line();
                all.extend_from_slice(&line);
                if line.starts_with(&end) {
                    break;
                }
            }
        }
        all
    }

    fn line(&mut self) -> Vec<u8> {
        let mut line = Vec::new();
        let n = self.reader.read_until(b'\n', &mut line).unwrap();
        assert!(n > 0, "the server closed the control connection");
        line
    }
}

/// A file of `len` pseudo-random bytes.
pub fn random_file(path: &Path, len: usize) -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let data: Vec<u8> = (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    std::fs::write(path, &data).unwrap();
    data
}

// ------------------------------------------------------------- deadlines

/// How often [`poll`] looks again.
const POLL_EVERY: Duration = Duration::from_millis(20);

/// Calls `check` until it returns `Some` (then its value) or `timeout` has
/// passed (then `None`); at least once.
pub fn poll<T>(timeout: Duration, mut check: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(v) = check() {
            return Some(v);
        }
        let now = Instant::now();
        if now >= deadline {
            return None;
        }
        std::thread::sleep(POLL_EVERY.min(deadline - now));
    }
}

/// [`poll`], failing the test with `what` when `timeout` passes.
pub fn wait_until<T>(timeout: Duration, what: &str, check: impl FnMut() -> Option<T>) -> T {
    poll(timeout, check).unwrap_or_else(|| panic!("waited {timeout:?} for {what}"))
}

/// Whether something accepts TCP connections on `addr` within `timeout`.
pub fn wait_for_port(addr: SocketAddr, timeout: Duration) -> bool {
    poll(timeout, || {
        TcpStream::connect_timeout(&addr, Duration::from_millis(250))
            .ok()
            .map(|_| ())
    })
    .is_some()
}

/// Runs `f` on a thread of its own and returns what it returns; fails the
/// test when it takes longer than `timeout` (and passes its panic on).
pub fn within<T: Send + 'static>(timeout: Duration, what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    let handle = std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(timeout) {
        Ok(v) => v,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => panic!("{what} took more than {timeout:?}"),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => match handle.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => unreachable!("{what}: the thread ended without an answer"),
        },
    }
}

// ------------------------------------------------------------- processes

/// Sends `signal` (`TERM`, `KILL`, …) to process `pid` with kill(1).
pub fn signal(pid: u32, signal: &str) -> bool {
    Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Waits for a child to exit, `timeout` at most: its status, or `None`
/// when it is still running.
pub fn wait_child(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    poll(timeout, || child.try_wait().unwrap())
}

/// Stops a child: SIGTERM, then SIGKILL when it has not exited after
/// `grace`; reaps it.
pub fn stop_child(child: &mut Child, grace: Duration) {
    if let Ok(Some(_)) = child.try_wait() {
        return;
    }
    signal(child.id(), "TERM");
    if wait_child(child, grace).is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// A child process that is stopped ([`stop_child`], 5 s of grace) when
/// dropped, so that a failing test leaves nothing running.
pub struct ChildGuard(pub Child);

impl Drop for ChildGuard {
    fn drop(&mut self) {
        stop_child(&mut self.0, Duration::from_secs(5));
    }
}

/// Runs `cmd` with its stdout and stderr captured; fails the test (after
/// killing it) when it takes longer than `timeout`.
pub fn output_within(cmd: &mut Command, timeout: Duration) -> Output {
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(timeout) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            signal(pid, "KILL");
            panic!("{cmd:?} took more than {timeout:?}");
        }
    }
}
