//! `babelftp serve` in a child process, for tests that start it with
//! accounts (a store, LDAP, a hook).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::io::BufRead;
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

pub struct Serve {
    child: Child,
    lines: Receiver<String>,
    pub addr: SocketAddr,
}

impl Drop for Serve {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

impl Serve {
    /// `babelftp serve --root ROOT ARGS` on a free port of 127.0.0.1;
    /// returns once it names its accounts, with its start-up lines.
    pub fn start(root: &Path, args: &[&str]) -> (Serve, Vec<String>) {
        Serve::start_env(root, args, &[])
    }

    /// [`Serve::start`] with more environment variables.
    pub fn start_env(root: &Path, args: &[&str], env: &[(&str, &str)]) -> (Serve, Vec<String>) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_babelftp"))
            .args(["serve", "--listen", "127.0.0.1:0", "--root"])
            .arg(root)
            .args(args)
            .envs(env.iter().copied())
            .env("LC_ALL", "C")
            .env_remove("LANG")
            .env_remove("LC_MESSAGES")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut s = Serve {
            child,
            lines,
            addr: "127.0.0.1:1".parse().unwrap(),
        };
        let mut seen = Vec::new();
        loop {
            let line = s
                .lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("serve did not start: {seen:?}"));
            seen.push(line.clone());
            if let Some(url) = line.split_whitespace().find(|w| w.starts_with("ftp://")) {
                let hostport = url.trim_start_matches("ftp://").trim_end_matches('/');
                s.addr = hostport.parse().unwrap();
            }
            if line.contains("accounts:") {
                break;
            }
        }
        (s, seen)
    }
}
