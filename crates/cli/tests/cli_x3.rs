//! The client at a real terminal (tmux), as a person uses it (issue 13
//! items 6 and 8): password prompts without echo, and the shell's
//! commands, Ctrl-C and tab completion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_babelftp");

/// A program running in a detached tmux session of its own (own server
/// socket), killed when dropped.
struct Tmux {
    socket: PathBuf,
    dir: tempfile::TempDir,
}

impl Tmux {
    /// Runs `args` (the babelftp binary first) with `env` in `cwd` in a new
    /// 200×50 terminal; [`Tmux::wait_exit`] gives its exit status. The sh
    /// around it catches SIGINT (with a handler, which the program does not
    /// inherit, unlike an ignored signal), so a Ctrl-C reaches the program
    /// as at a shell prompt and the status is written all the same.
    fn run(cwd: &Path, env: &[(&str, &Path)], args: &[&str]) -> Tmux {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("tmux.sock");
        let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
        let mut line = String::from("env -u LANG -u LC_MESSAGES LC_ALL=C TERM=xterm");
        for (k, v) in env {
            line.push_str(&format!(" {k}={}", quote(&v.display().to_string())));
        }
        for a in args {
            line.push(' ');
            line.push_str(&quote(a));
        }
        let status = dir.path().join("status");
        let script = dir.path().join("run.sh");
        std::fs::write(
            &script,
            format!(
                "cd {}\ntrap : INT\n{line}\necho $? > {}.tmp && mv {}.tmp {}\nexec sleep 600\n",
                quote(&cwd.display().to_string()),
                quote(&status.display().to_string()),
                quote(&status.display().to_string()),
                quote(&status.display().to_string()),
            ),
        )
        .unwrap();
        let ok = Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .args([
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-x",
                "200",
                "-y",
                "50",
                "-s",
                "t",
            ])
            .arg(format!("sh {}", quote(&script.display().to_string())))
            .status()
            .expect("tmux is needed for the interactive tests (scripts/test.sh installs it)")
            .success();
        assert!(ok, "tmux new-session failed");
        Tmux { socket, dir }
    }

    /// Waits for the program to end; its exit status and the screen.
    fn wait_exit(&self) -> (i32, String) {
        let status = self.dir.path().join("status");
        let found = babelftp_test_support::poll(Duration::from_secs(20), || {
            std::fs::read_to_string(&status).ok()?.trim().parse::<i32>().ok()
        });
        let screen = self.screen();
        match found {
            Some(code) => (code, screen),
            None => panic!("the program did not end within 20 s:\n{screen}"),
        }
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// What the terminal shows (wrapped lines joined), history included.
    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-J", "-S", "-1000", "-t", "t"])
    }

    /// Types `text` as it is.
    fn type_text(&self, text: &str) {
        self.tmux(&["send-keys", "-t", "t", "-l", text]);
    }

    /// Presses keys by tmux's names (Enter, Tab, C-c…).
    fn keys(&self, keys: &[&str]) {
        let mut a = vec!["send-keys", "-t", "t"];
        a.extend_from_slice(keys);
        self.tmux(&a);
    }

    /// Types a line and presses Enter.
    fn line(&self, text: &str) {
        self.type_text(text);
        self.keys(&["Enter"]);
    }

    /// Waits until the screen holds `text` `count` times; returns it.
    fn wait_count(&self, text: &str, count: usize) -> String {
        let mut last = String::new();
        let found = babelftp_test_support::poll(Duration::from_secs(20), || {
            last = self.screen();
            (last.matches(text).count() >= count).then(|| last.clone())
        });
        found.unwrap_or_else(|| panic!("waited 20 s for {count}× {text:?} on the screen:\n{last}"))
    }

    /// Waits until the screen holds `text`; returns it.
    fn wait_for(&self, text: &str) -> String {
        self.wait_count(text, 1)
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .arg("kill-server")
            .output();
    }
}

fn server() -> babelftp_test_support::TestServer {
    babelftp_test_support::start(|c| {
        c.login_fail_delay = Duration::from_millis(10);
    })
}

/// Item 6: `-u USER` without a password asks for it on the terminal,
/// without echo, and logs in with it (curl's habit).
#[test]
fn user_without_password_is_asked_for_it_without_echo() {
    let srv = server();
    let state = tempfile::tempdir().unwrap();
    let url = format!("ftp://127.0.0.1:{}/", srv.port());
    let t = Tmux::run(
        state.path(),
        &[("XDG_STATE_HOME", state.path()), ("HOME", state.path())],
        &[BIN, "ls", "-u", "bob", &url],
    );
    t.wait_for("Password for bob at 127.0.0.1:");
    t.line("secret");
    let (code, screen) = t.wait_exit();
    assert_eq!(code, 0, "{screen}");
    assert!(screen.lines().any(|l| l.trim_end() == "readme.txt"), "{screen}");
    assert!(!screen.contains("secret"), "the password was echoed:\n{screen}");
}

/// Item 6: `ftp://USER@host/` in the shell asks too; the login is bob's
/// (an upload, which anonymous may not do, succeeds).
#[test]
fn url_user_without_password_is_asked_for_it_in_the_shell() {
    let srv = server();
    let state = tempfile::tempdir().unwrap();
    std::fs::write(state.path().join("up.txt"), b"up").unwrap();
    let url = format!("ftp://bob@127.0.0.1:{}/", srv.port());
    let t = Tmux::run(
        state.path(),
        &[("XDG_STATE_HOME", state.path()), ("HOME", state.path())],
        &[BIN, "shell", &url],
    );
    t.wait_for("Password for bob at 127.0.0.1:");
    t.line("secret");
    t.wait_for(":/> ");
    t.line("put up.txt");
    t.wait_for("bytes -> up.txt");
    t.line("bye");
    let (code, screen) = t.wait_exit();
    assert_eq!(code, 0, "{screen}");
    assert!(!screen.contains("secret"), "the password was echoed:\n{screen}");
    assert_eq!(std::fs::read(srv.path("up.txt")).unwrap(), b"up");
}

/// Item 6: a password for that login in ~/.netrc is used: no question.
#[test]
fn netrc_password_comes_before_asking() {
    let srv = server();
    let state = tempfile::tempdir().unwrap();
    std::fs::write(
        state.path().join(".netrc"),
        "machine 127.0.0.1 login eve password nope\nmachine 127.0.0.1 login bob password secret\n",
    )
    .unwrap();
    let url = format!("ftp://127.0.0.1:{}/made-by-bob", srv.port());
    let t = Tmux::run(
        state.path(),
        &[("XDG_STATE_HOME", state.path()), ("HOME", state.path())],
        &[BIN, "mkdir", "-u", "bob", &url],
    );
    let (code, screen) = t.wait_exit();
    assert_eq!(code, 0, "{screen}");
    assert!(!screen.contains("Password"), "{screen}");
    assert!(srv.path("made-by-bob").is_dir());
}

/// Item 6: with no terminal at all (no controlling tty, stdin empty), no
/// question and no wait: the empty password is sent and the server's
/// refusal is the error.
#[test]
fn without_a_terminal_nothing_is_asked() {
    let srv = server();
    let state = tempfile::tempdir().unwrap();
    let url = format!("ftp://127.0.0.1:{}/", srv.port());
    let mut cmd = Command::new("setsid");
    cmd.args([BIN, "ls", "-u", "bob", &url])
        .env("XDG_STATE_HOME", state.path())
        .env("HOME", state.path())
        .env("LC_ALL", "C")
        .env_remove("LANG")
        .env_remove("LC_MESSAGES")
        .stdin(std::process::Stdio::null());
    let out = babelftp_test_support::output_within(&mut cmd, Duration::from_secs(20));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("530"), "{err}");
    assert!(!err.contains("Password"), "{err}");
}

/// Item 6: `passwd` on a terminal asks twice without echo, refuses two
/// different answers, and prints the hash of a confirmed one.
#[test]
fn passwd_asks_twice_without_echo() {
    let dir = tempfile::tempdir().unwrap();
    let t = Tmux::run(dir.path(), &[], &[BIN, "passwd"]);
    t.wait_for("New password:");
    t.line("first-try");
    t.wait_for("The same password again:");
    t.line("second-try");
    let (code, screen) = t.wait_exit();
    assert_eq!(code, 1, "{screen}");
    assert!(screen.contains("the two passwords differ"), "{screen}");
    assert!(!screen.contains("$argon2"), "{screen}");
    assert!(!screen.contains("-try"), "a password was echoed:\n{screen}");

    let out = dir.path().join("hash");
    let t = Tmux::run(
        dir.path(),
        &[],
        &["sh", "-c", &format!("{BIN} passwd > {}", out.display())],
    );
    t.wait_for("New password:");
    t.line("s3cret");
    t.wait_for("The same password again:");
    t.line("s3cret");
    let (code, screen) = t.wait_exit();
    assert_eq!(code, 0, "{screen}");
    assert!(!screen.contains("s3cret"), "the password was echoed:\n{screen}");
    let hash = std::fs::read_to_string(&out).unwrap();
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    assert!(babelftp_server::auth::Secret::Hash(hash.trim().to_string()).verify(b"s3cret"));
}
