//! Shared helpers of the socket tests: a real server on 127.0.0.1:0 (and
//! [::1]:0) over a temporary root, and runners for the real clients.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use babelftp_server::{Config, Server};

pub struct TestServer {
    pub addrs: Vec<SocketAddr>,
    pub root: tempfile::TempDir,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    /// The first (IPv4) address's port.
    pub fn port(&self) -> u16 {
        self.addrs[0].port()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.path().join(rel)
    }
}

impl TestServer {
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
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Whether this machine has IPv6 loopback.
pub fn has_ipv6() -> bool {
    std::net::TcpListener::bind("[::1]:0").is_ok()
}

/// Starts a server with a user `bob`/`secret` (read/write) and anonymous
/// read-only access, on IPv4 and (when present) IPv6 loopback.
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
            let server = Server::bind(cfg).await.unwrap();
            addr_tx.send(server.local_addrs()).unwrap();
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
    let addrs = addr_rx.recv_timeout(Duration::from_secs(10)).unwrap();
    TestServer {
        addrs,
        root,
        stop: Some(stop_tx),
        thread: Some(thread),
    }
}

/// Runs a Python 3 script (ftplib) with PORT/HOST in its environment;
/// panics with its output unless it exits 0. Returns stdout.
pub fn python(srv: &TestServer, script: &str) -> String {
    python_at(srv, &srv.addrs[0], script)
}

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
