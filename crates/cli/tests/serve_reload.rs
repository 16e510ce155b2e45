//! `babelftp serve` reads its users again on SIGHUP (issue 14: several
//! nodes share one users file and are told to reload it): sessions already
//! logged in go on, the next login sees the new list, and a file that no
//! longer reads keeps the old list.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::BufRead;
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use babelftp_test_support::Control;

struct Serve {
    child: Child,
    lines: Receiver<String>,
    addr: SocketAddr,
}

impl Drop for Serve {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

impl Serve {
    /// The next stdout line containing `what` (10 s at most).
    fn wait_for(&self, what: &str) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(10))
                .unwrap_or_else(|_| panic!("no line with {what:?} on the server's stdout"));
            if line.contains(what) {
                return line;
            }
        }
    }

    fn hangup(&self) {
        let ok = Command::new("kill")
            .args(["-HUP", &self.child.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok);
    }
}

fn serve(root: &Path, users: &Path) -> Serve {
    let mut child = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(["serve", "--listen", "127.0.0.1:0", "--root"])
        .arg(root)
        .arg("--users")
        .arg(users)
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
    let line = s.wait_for("ftp://127.0.0.1:");
    let port = line.split("ftp://127.0.0.1:").nth(1).unwrap().trim_end_matches('/');
    s.addr = format!("127.0.0.1:{port}").parse().unwrap();
    s
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
