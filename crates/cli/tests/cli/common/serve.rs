//! `babelftp serve` in a child process (for tests of what only the binary
//! does: SIGHUP, start-up lines, accounts stores), and ftplib against it.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, Write};
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
    /// `babelftp serve --root ROOT ARGS` on a free port of 127.0.0.1, in
    /// the C locale; returns once it says where it serves.
    pub fn start(root: &Path, args: &[&str]) -> Serve {
        Serve::start_env(root, args, &[])
    }

    /// [`Serve::start`] with more environment variables.
    pub fn start_env(root: &Path, args: &[&str], env: &[(&str, &str)]) -> Serve {
        Serve::start_logged(root, args, env, None)
    }

    /// [`Serve::start_env`] with its log (stderr) written to `log`.
    pub fn start_logged(root: &Path, args: &[&str], env: &[(&str, &str)], log: Option<&Path>) -> Serve {
        let stderr = match log {
            Some(p) => Stdio::from(std::fs::File::create(p).unwrap()),
            None => Stdio::null(),
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_babelftp"))
            .args(["serve", "--listen", "127.0.0.1:0", "--root"])
            .arg(root)
            .args(args)
            .envs(env.iter().copied())
            .env("LC_ALL", "C")
            .env_remove("LANG")
            .env_remove("LC_MESSAGES")
            .env_remove("BABELFTP_DB")
            .stdout(Stdio::piped())
            .stderr(stderr)
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
        let line = s.wait_for("ftp://127.0.0.1:");
        let port = line.split("ftp://127.0.0.1:").nth(1).unwrap().trim_end_matches('/');
        s.addr = format!("127.0.0.1:{port}").parse().unwrap();
        s
    }

    /// The next stdout line containing `what` (20 s at most).
    pub fn wait_for(&self, what: &str) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("no line with {what:?} on the server's stdout"));
            if line.contains(what) {
                return line;
            }
        }
    }

    /// The URL the server's start-up line with `what` names (`web view: `,
    /// `admin API: `), without its final `/`.
    #[allow(dead_code)] // (not every test file asks for one)
    pub fn url_after(&self, what: &str) -> String {
        let line = self.wait_for(what);
        line.split_whitespace()
            .find(|w| w.starts_with("http"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .trim_end_matches('/')
            .to_owned()
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGHUP.
    pub fn hangup(&self) {
        let ok = Command::new("kill")
            .args(["-HUP", &self.child.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok);
    }
}

/// ftplib logged in as `user` (names in `encoding`): what `script` prints
/// (it has `ftp`, `ftplib` and `io`), or `LOGIN-REFUSED <reply>` (4xx or 5xx).
pub fn ftplib(addr: SocketAddr, user: &str, password: &str, encoding: &str, script: &str) -> String {
    python(&format!(
        "import ftplib, io\nftp = ftplib.FTP(encoding={encoding:?})\nftp.connect({:?}, {}, timeout=20)\ntry:\n    ftp.login({user:?}, {password:?})\nexcept (ftplib.error_perm, ftplib.error_temp) as e:\n    print('LOGIN-REFUSED', e); raise SystemExit(0)\n{script}",
        addr.ip().to_string(),
        addr.port()
    ))
}

/// python3 running `script`: its standard output (it must succeed).
#[allow(dead_code)] // (not every test file runs python itself)
pub fn python(script: &str) -> String {
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .output()
        .expect("python3 must be installed (scripts/test.sh installs it)");
    assert!(
        out.status.success(),
        "python failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `babelftp ARGS` (C locale, no BABELFTP_DB) with `stdin` as its standard input; (code, stdout,
/// stderr).
pub fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(args)
        .env("LC_ALL", "C")
        .env_remove("LANG")
        .env_remove("LC_MESSAGES")
        .env_remove("BABELFTP_DB")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `babelftp ARGS --db DB`, which must succeed: its standard output.
pub fn admin(db: &str, args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend(["--db", db]);
    let (code, out, err) = run(&all, "");
    assert_eq!(code, 0, "babelftp {all:?}: {out}{err}");
    out
}

/// The `usage` line of `babelftp user show NAME --db DB`: (bytes, files).
pub fn usage(db: &str, name: &str) -> (u64, u64) {
    let shown = admin(db, &["user", "show", name]);
    let line = shown
        .lines()
        .find(|l| l.starts_with("usage\t"))
        .unwrap_or_else(|| panic!("no usage line: {shown}"));
    let f: Vec<u64> = line.split('\t').skip(1).map(|x| x.parse().unwrap()).collect();
    (f[0], f[1])
}
