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

    /// Waits until the terminal no longer echoes (a password prompt has
    /// turned echo off): what is typed before that, a person's type-ahead,
    /// the terminal itself echoes, whatever the program does.
    fn wait_no_echo(&self) {
        let tty = self.tmux(&["display-message", "-p", "-t", "t", "#{pane_tty}"]);
        let tty = tty.trim().to_owned();
        let mut last = String::new();
        babelftp_test_support::poll(Duration::from_secs(20), || {
            let out = Command::new("stty").args(["-F", &tty, "-a"]).output().ok()?;
            last = String::from_utf8_lossy(&out.stdout).into_owned();
            last.split_whitespace().any(|w| w == "-echo").then_some(())
        })
        .unwrap_or_else(|| panic!("{tty} still echoes after 20 s: {last}"));
    }

    /// Types a password at a prompt that asked for it: once echo is off.
    fn password(&self, text: &str) {
        self.wait_no_echo();
        self.line(text);
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
    t.password("secret");
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
    t.password("secret");
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
/// question and no wait: a note says the empty password is sent and how to
/// give one, and the server's refusal is the error.
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
    assert!(
        err.contains("no terminal to ask for the password of bob at 127.0.0.1: sending an empty one"),
        "{err}"
    );
}

/// Item 6: `passwd` on a terminal asks twice without echo, refuses two
/// different answers, and prints the hash of a confirmed one.
#[test]
fn passwd_asks_twice_without_echo() {
    let dir = tempfile::tempdir().unwrap();
    let t = Tmux::run(dir.path(), &[], &[BIN, "passwd"]);
    t.wait_for("New password:");
    t.password("first-try");
    t.wait_for("The same password again:");
    t.password("second-try");
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
    t.password("s3cret");
    t.wait_for("The same password again:");
    t.password("s3cret");
    let (code, screen) = t.wait_exit();
    assert_eq!(code, 0, "{screen}");
    assert!(!screen.contains("s3cret"), "the password was echoed:\n{screen}");
    let hash = std::fs::read_to_string(&out).unwrap();
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    assert!(babelftp_server::auth::Secret::Hash(hash.trim().to_string()).verify(b"s3cret"));
}

/// The shell at a terminal, driven a line at a time: each line waits for
/// the next prompt (`host:/dir> `).
struct Shell {
    t: Tmux,
}

impl Shell {
    const PROMPT: &'static str = "127.0.0.1:/";

    fn start(cwd: &Path, state: &Path, url: &str) -> Shell {
        let t = Tmux::run(cwd, &[("XDG_STATE_HOME", state), ("HOME", state)], &[BIN, "shell", url]);
        t.wait_for(Self::PROMPT);
        Shell { t }
    }

    fn prompts(screen: &str) -> usize {
        screen.lines().filter(|l| l.starts_with(Self::PROMPT)).count()
    }

    /// Waits for one more prompt than `before`; the screen.
    fn next_prompt(&self, before: usize) -> String {
        let mut last = String::new();
        babelftp_test_support::poll(Duration::from_secs(20), || {
            last = self.t.screen();
            (Self::prompts(&last) > before).then_some(())
        })
        .unwrap_or_else(|| panic!("no new prompt within 20 s:\n{last}"));
        last
    }

    /// Types `line` (after what is already typed), Enter, and waits for
    /// the next prompt; the screen.
    fn cmd(&self, line: &str) -> String {
        let before = Self::prompts(&self.t.screen());
        self.t.line(line);
        self.next_prompt(before)
    }

    /// Types `start` and presses Tab; waits until the prompt's line reads
    /// `completed` at its end.
    fn complete(&self, start: &str, completed: &str) {
        self.t.type_text(start);
        self.t.keys(&["Tab"]);
        let mut last = String::new();
        babelftp_test_support::poll(Duration::from_secs(20), || {
            last = self.t.screen();
            let line = last.lines().rev().find(|l| l.starts_with(Self::PROMPT))?;
            line.trim_end().ends_with(completed).then_some(())
        })
        .unwrap_or_else(|| panic!("Tab did not complete {start:?} to {completed:?}:\n{last}"));
    }

    /// The lines the last command printed (between the last two prompts).
    fn output(screen: &str) -> Vec<String> {
        let lines: Vec<&str> = screen.lines().collect();
        let prompts: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with(Self::PROMPT))
            .collect();
        match prompts.as_slice() {
            [.., a, b] => lines[a + 1..*b].iter().map(|l| l.trim_end().to_owned()).collect(),
            _ => Vec::new(),
        }
    }
}

/// Item 8: mkdir, mv, cd, ls -l, lcd, get, put, !command, rm, rm -r,
/// rmdir at a real terminal, tab completion of commands, of remote names
/// and of local paths (put, lcd), and Ctrl-C at the prompt clearing the
/// line.
#[test]
fn shell_commands_and_completion_at_a_terminal() {
    let srv = server();
    std::fs::create_dir_all(srv.path("tree/sub")).unwrap();
    std::fs::write(srv.path("tree/sub/f.txt"), b"f").unwrap();
    std::fs::write(srv.path("tree/g.txt"), b"g").unwrap();
    std::fs::create_dir(srv.path("emptyd")).unwrap();
    let state = tempfile::tempdir().unwrap();
    let here = tempfile::tempdir().unwrap();
    let local = here.path().join("local-sub");
    std::fs::create_dir(&local).unwrap();
    std::fs::write(local.join("only-here.txt"), b"local").unwrap();
    let url = format!("ftp://bob:secret@127.0.0.1:{}/", srv.port());
    let sh = Shell::start(here.path(), state.path(), &url);

    // Tab completes a command.
    sh.complete("mkd", "mkdir");
    sh.cmd(" newdir");
    assert!(srv.path("newdir").is_dir());

    // Ctrl-C at the prompt drops what was typed; the shell goes on.
    let before = Shell::prompts(&sh.t.screen());
    sh.t.type_text("rm readme.txt");
    sh.t.keys(&["C-c"]);
    sh.next_prompt(before);
    let screen = sh.cmd("pwd");
    assert_eq!(Shell::output(&screen), ["/"], "{screen}");
    assert!(srv.path("readme.txt").is_file(), "the cleared line ran:\n{screen}");

    sh.cmd("mv readme.txt newdir/moved.txt");
    assert!(srv.path("newdir/moved.txt").is_file());
    assert!(!srv.path("readme.txt").exists());

    // Tab completes a remote name.
    sh.complete("cd new", "cd newdir");
    sh.cmd("");
    let screen = sh.cmd("ls -l");
    let out = Shell::output(&screen);
    assert_eq!(out.len(), 1, "{screen}");
    assert!(
        out[0].starts_with('-') && out[0].contains(" 20 ") && out[0].ends_with(" moved.txt"),
        "{screen}"
    );
    assert!(screen.contains("127.0.0.1:/newdir> "), "{screen}");

    // Tab completes local paths where a command takes one.
    sh.complete("lcd local-s", "lcd local-sub/");
    let screen = sh.cmd("");
    assert!(
        screen.contains(&format!("local directory: {}", local.canonicalize().unwrap().display())),
        "{screen}"
    );
    sh.complete("get mo", "get moved.txt");
    sh.cmd("");
    assert_eq!(
        std::fs::read(local.join("moved.txt")).unwrap(),
        b"hello from babelftp\n"
    );
    sh.complete("put only", "put only-here.txt");
    sh.cmd("");
    assert_eq!(std::fs::read(srv.path("newdir/only-here.txt")).unwrap(), b"local");
    sh.cmd("!ls > listing.txt");
    assert_eq!(
        std::fs::read_to_string(local.join("listing.txt")).unwrap(),
        "listing.txt\nmoved.txt\nonly-here.txt\n"
    );

    sh.cmd("rm moved.txt");
    assert!(!srv.path("newdir/moved.txt").exists());
    sh.cmd("cd /");
    sh.cmd("rm -r tree");
    assert!(!srv.path("tree").exists());
    sh.cmd("rmdir emptyd");
    assert!(!srv.path("emptyd").exists());
    let screen = sh.cmd("ls");
    assert_eq!(Shell::output(&screen), ["newdir/"], "{screen}");
    assert!(!screen.contains("babelftp: "), "a command failed:\n{screen}");

    sh.t.line("bye");
    let (code, screen) = sh.t.wait_exit();
    assert_eq!(code, 0, "{screen}");
}

/// Item 8: Ctrl-C during a download stops the download, not the shell:
/// the prompt comes back and the next commands work on the same session.
/// The local file is a FIFO read slowly by the test, so the transfer is
/// still running when Ctrl-C comes.
#[test]
fn ctrl_c_stops_a_transfer_not_the_shell() {
    use std::io::Read;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::Arc;
    let srv = server();
    let big = std::fs::File::create(srv.path("big.bin")).unwrap();
    big.set_len(1 << 30).unwrap();
    drop(big);
    let state = tempfile::tempdir().unwrap();
    let here = tempfile::tempdir().unwrap();
    let fifo = here.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let got = Arc::new(AtomicU64::new(0));
    let fast = Arc::new(AtomicBool::new(false));
    let reader = {
        let (got, fast, fifo) = (got.clone(), fast.clone(), fifo.clone());
        std::thread::spawn(move || {
            let mut f = std::fs::File::open(&fifo).unwrap();
            let mut buf = vec![0u8; 16 * 1024];
            loop {
                match f.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        got.fetch_add(n as u64, Ordering::SeqCst);
                    }
                }
                if !fast.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
        })
    };
    let url = format!("ftp://bob:secret@127.0.0.1:{}/", srv.port());
    let sh = Shell::start(here.path(), state.path(), &url);
    let before = Shell::prompts(&sh.t.screen());
    sh.t.line("get big.bin fifo");
    babelftp_test_support::wait_until(Duration::from_secs(20), "the download to start", || {
        (got.load(Ordering::SeqCst) >= 256 * 1024).then_some(())
    });
    sh.t.keys(&["C-c"]);
    let screen = sh.next_prompt(before);
    fast.store(true, Ordering::SeqCst);
    assert!(screen.contains("get: interrupted"), "{screen}");
    // ABOR brought the same connection back in step: no new login.
    assert!(!screen.contains("connecting again"), "{screen}");
    let screen = sh.cmd("pwd");
    assert_eq!(Shell::output(&screen), ["/"], "{screen}");
    let screen = sh.cmd("ls");
    let out = Shell::output(&screen);
    assert!(out.iter().any(|l| l == "readme.txt"), "{screen}");
    sh.t.line("bye");
    let (code, screen) = sh.t.wait_exit();
    assert_eq!(code, 0, "{screen}");
    reader.join().unwrap();
    assert!(got.load(Ordering::SeqCst) < 1 << 30, "the whole file came");
}

/// Item 8: a download cut by a local error (the reader of the FIFO it
/// writes to goes away) fails, and the shell's next commands get their own
/// replies, not the cut transfer's (the connection is brought back in
/// step); a script goes on and exits 1.
#[test]
fn a_broken_download_leaves_the_shell_in_step() {
    use std::io::{Read, Write};
    let srv = server();
    let big = std::fs::File::create(srv.path("big.bin")).unwrap();
    big.set_len(1 << 30).unwrap();
    drop(big);
    let state = tempfile::tempdir().unwrap();
    let here = tempfile::tempdir().unwrap();
    let fifo = here.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut f = std::fs::File::open(&fifo).unwrap();
            let mut buf = vec![0u8; 64 * 1024];
            let _ = f.read_exact(&mut buf);
        })
    };
    let url = format!("ftp://bob:secret@127.0.0.1:{}/", srv.port());
    let mut child = Command::new(BIN)
        .args(["shell", &url])
        .current_dir(here.path())
        .env("XDG_STATE_HOME", state.path())
        .env("HOME", here.path())
        .env("LC_ALL", "C")
        .env_remove("LANG")
        .env_remove("LC_MESSAGES")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"get big.bin fifo\npwd\nls\nbye\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    reader.join().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stderr.contains("Broken pipe"), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines, ["/", "big.bin", "readme.txt"], "{stdout}{stderr}");
    // A piped script keeps no history, neither in XDG_STATE_HOME nor under
    // HOME (it once wrote ~/.local/state/babelftp/history).
    assert!(!state.path().join("babelftp").exists());
    assert!(!here.path().join(".local").exists());
}

/// Item 8: Ctrl-C during an upload stops it too; the session goes on.
/// The local file is a FIFO the test fills with 256 KiB and then keeps
/// open without writing, so the upload waits for more when Ctrl-C comes.
#[test]
fn ctrl_c_stops_an_upload_not_the_shell() {
    use std::io::Write;
    let srv = server();
    let state = tempfile::tempdir().unwrap();
    let here = tempfile::tempdir().unwrap();
    let fifo = here.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let (written_tx, written_rx) = std::sync::mpsc::channel::<()>();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            f.write_all(&vec![b'x'; 256 * 1024]).unwrap();
            written_tx.send(()).unwrap();
            // Held open, silent, until the test is done with Ctrl-C.
            let _ = release_rx.recv();
        })
    };
    let url = format!("ftp://bob:secret@127.0.0.1:{}/", srv.port());
    let sh = Shell::start(here.path(), state.path(), &url);
    let before = Shell::prompts(&sh.t.screen());
    sh.t.line("put fifo up.bin");
    // The client has read all but a pipe's worth of the 256 KiB, which it
    // reads only once STOR has its data connection: the upload runs, and
    // soon waits for more.
    written_rx.recv_timeout(Duration::from_secs(20)).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    sh.t.keys(&["C-c"]);
    let screen = sh.next_prompt(before);
    release_tx.send(()).unwrap();
    writer.join().unwrap();
    assert!(screen.contains("put: interrupted"), "{screen}");
    assert!(!screen.contains("connecting again"), "{screen}");
    let screen = sh.cmd("ls");
    let out = Shell::output(&screen);
    assert!(out.iter().any(|l| l == "readme.txt"), "{screen}");
    sh.t.line("bye");
    let (code, screen) = sh.t.wait_exit();
    assert_eq!(code, 0, "{screen}");
}

/// Issue 25.15: the shell's `get` bar shows the file's total while it
/// runs (it showed the running count where the total goes), and a `get`
/// the server refuses leaves no empty `0 B/0 B` bar on the screen.
#[test]
fn shell_get_bar_shows_the_total_and_a_refused_get_leaves_no_bar() {
    let srv = server();
    let data: Vec<u8> = (0..(1u32 << 20)).map(|i| (i % 251) as u8).collect();
    std::fs::write(srv.path("big.bin"), &data).unwrap();
    let state = tempfile::tempdir().unwrap();
    let here = tempfile::tempdir().unwrap();
    let url = format!("ftp://bob:secret@127.0.0.1:{}/", srv.port());
    // 1 MiB at 256 KiB/s: the bar is on the screen for about 4 s.
    let t = Tmux::run(
        here.path(),
        &[("XDG_STATE_HOME", state.path()), ("HOME", state.path())],
        &[BIN, "shell", "--limit-rate", "256K", &url],
    );
    t.wait_for(Shell::PROMPT);
    let sh = Shell { t };

    let screen = sh.cmd("get nosuch.bin");
    assert!(screen.contains("nosuch.bin"), "{screen}");
    assert!(!screen.contains("0 B/0 B"), "{screen}");
    assert!(!screen.contains(" B/s"), "a bar was left:\n{screen}");

    sh.t.line("get big.bin");
    // Part of the file against its whole size ("256.00 KiB/1.00 MiB"),
    // not the count so far twice.
    let running = sh.t.wait_for("KiB/1.00 MiB");
    assert!(!running.contains("0 B/0 B"), "{running}");
    let screen = sh.next_prompt(Shell::prompts(&running));
    assert_eq!(std::fs::read(here.path().join("big.bin")).unwrap(), data, "{screen}");
    sh.t.line("bye");
    let (code, screen) = sh.t.wait_exit();
    assert_eq!(code, 0, "{screen}");
}
