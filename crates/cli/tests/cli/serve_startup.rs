//! `babelftp serve` as a user starts it: the default root, the start-up
//! lines (the banner) and what they say, the open-files limit, what it
//! refuses to start with, its log, and how it stops.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use babelftp_test_support::{signal, wait_child, within, ChildGuard};

fn babelftp() -> Command {
    Command::new(env!("CARGO_BIN_EXE_babelftp"))
}

/// What README promises: `babelftp serve` with no root creates ./ftp-root
/// with a readme and serves it read-only to anonymous users; SIGTERM stops it.
#[test]
fn serve_creates_the_default_root_and_serves_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = ChildGuard(
        babelftp()
            .args(["serve", "--listen", "127.0.0.1:0"])
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut lines = BufReader::new(child.0.stdout.take().unwrap()).lines();
    // Its first line says where it listens, once it does.
    let (first, _lines) = within(
        Duration::from_secs(30),
        "the first line of `babelftp serve`",
        move || {
            let first = lines.next().unwrap().unwrap();
            (first, lines)
        },
    );
    let url = first.rsplit_once(" on ").unwrap().1.to_string();
    assert!(url.starts_with("ftp://127.0.0.1:"), "{first}");
    // It runs with as many malloc arenas as cores (issue 11: memory given
    // back after load) and a fixed mmap threshold (issue 47: large buffers
    // are mappings of their own), having started itself again with
    // GLIBC_TUNABLES (glibc parses the variable in place: a NUL where
    // each `:` was).
    let environ = std::fs::read(format!("/proc/{}/environ", child.0.id())).unwrap();
    let environ = String::from_utf8_lossy(&environ);
    assert!(
        environ.contains("GLIBC_TUNABLES=glibc.malloc.arena_max=")
            && environ.contains("glibc.malloc.mmap_threshold=262144"),
        "{environ}"
    );
    // Restarted as itself: ps, top and ss name it babelftp (not `exe`),
    // with the argv it was given.
    let comm = std::fs::read_to_string(format!("/proc/{}/comm", child.0.id())).unwrap();
    assert_eq!(comm.trim(), "babelftp");
    let cmdline = std::fs::read(format!("/proc/{}/cmdline", child.0.id())).unwrap();
    let argv: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
    assert_eq!(argv[0], env!("CARGO_BIN_EXE_babelftp").as_bytes());
    assert_eq!(&argv[1..4], &[&b"serve"[..], b"--listen", b"127.0.0.1:0"]);
    let list = Command::new("curl")
        .args(["-s", "-S", "--max-time", "20", &url])
        .output()
        .unwrap();
    assert!(list.status.success());
    assert!(String::from_utf8_lossy(&list.stdout).contains("README.txt"));
    let readme = Command::new("curl")
        .args(["-s", "-S", "--max-time", "20", &format!("{url}README.txt")])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&readme.stdout).contains("babelftp"));
    assert!(dir.path().join("ftp-root/README.txt").is_file());
    let upload = Command::new("curl")
        .args(["-s", "--max-time", "20", "-T", "/dev/null", &format!("{url}x")])
        .output()
        .unwrap();
    assert_eq!(upload.status.code(), Some(25), "anonymous upload must be refused");
    assert!(signal(child.0.id(), "TERM"));
    let status =
        wait_child(&mut child.0, Duration::from_secs(10)).expect("babelftp serve still runs 10 s after SIGTERM");
    assert!(status.success(), "{status:?}");
}

#[test]
fn serve_reads_a_config_file_and_reports_its_mistakes() {
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("bad.toml");
    std::fs::write(&conf, "listen = [\"127.0.0.1:0\"]\nno_such_option = 1\n").unwrap();
    let out = babelftp()
        .args(["serve", "--config", conf.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("bad.toml") && err.contains("no_such_option"), "{err}");
}

/// Starts `babelftp serve ARGS` in `dir`; returns it and the lines it
/// printed up to its last start-up line, `ready.` (read within 30 s).
fn serve_banner(dir: &std::path::Path, args: &[&str]) -> (ChildGuard, Vec<String>) {
    serve_banner_with(babelftp(), dir, args)
}

/// [`serve_banner`] with the command that starts babelftp given.
fn serve_banner_with(mut cmd: Command, dir: &std::path::Path, args: &[&str]) -> (ChildGuard, Vec<String>) {
    let mut child = ChildGuard(
        cmd.arg("serve")
            .args(args)
            .current_dir(dir)
            .env("LC_ALL", "C")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let lines = BufReader::new(child.0.stdout.take().unwrap()).lines();
    let banner = within(Duration::from_secs(30), "the start-up lines", move || {
        let mut got = Vec::new();
        for l in lines {
            let l = l.unwrap();
            // The banner's last line.
            let done = l.starts_with("ready.");
            got.push(l);
            if done {
                break;
            }
        }
        got
    });
    (child, banner)
}

/// Issue 12: the server raises its soft open-files limit to the hard one
/// and says so; when even the hard limit cannot carry --max-connections,
/// it says how many sessions it can.
#[test]
fn serve_raises_its_open_files_limit_and_says_when_it_caps_sessions() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("root")).unwrap();
    let under = |limits: &str| {
        let mut cmd = Command::new("prlimit");
        cmd.arg(format!("--nofile={limits}"))
            .arg(env!("CARGO_BIN_EXE_babelftp"));
        cmd
    };
    let args = ["--root", "root", "--listen", "127.0.0.1:0", "--user", "alice:pw"];
    let (child, banner) = serve_banner_with(under("256:4096"), dir.path(), &args);
    let text = banner.join("\n");
    assert!(text.contains("open files: limit raised from 256 to 4096"), "{text}");
    assert!(!text.contains("warning: open files"), "{text}");
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", child.0.id())).unwrap();
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap()
        .to_string();
    assert_eq!(line.split_whitespace().nth(3), Some("4096"), "{line}");
    drop(child);

    let (_child, banner) = serve_banner_with(under("300:300"), dir.path(), &args);
    let text = banner.join("\n");
    assert!(!text.contains("limit raised"), "{text}");
    assert!(
        text.contains(
            "warning: open files are limited to 300: about 118 sessions at once, not the 512 of --max-connections"
        ),
        "{text}"
    );
}

/// Issue 11: named users turn anonymous off unless asked for, and the
/// banner says every access rule; a port alone and a host name are
/// accepted by --listen.
#[test]
fn serve_states_its_access_rules_and_named_users_turn_anonymous_off() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("root")).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let listen = port.to_string();
    let (child, banner) = serve_banner(
        dir.path(),
        &["--root", "root", "--listen", &listen, "--user", "alice:pw"],
    );
    let text = banner.join("\n");
    assert!(text.contains(&format!("ftp://127.0.0.1:{port}/")), "{text}");
    assert!(text.contains("access: anonymous logins refused"), "{text}");
    assert!(text.contains("access: user alice, read and write, in /"), "{text}");
    let anon = Command::new("curl")
        .args(["-s", "--max-time", "20", &format!("ftp://127.0.0.1:{port}/")])
        .output()
        .unwrap();
    assert_eq!(anon.status.code(), Some(67), "anonymous login must be refused");
    let alice = Command::new("curl")
        .args(["-s", "--max-time", "20", &format!("ftp://alice:pw@127.0.0.1:{port}/")])
        .output()
        .unwrap();
    assert!(alice.status.success());
    drop(child);

    // --anonymous keeps it, read-only; a host name is resolved.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let listen = format!("localhost:{port}");
    let (_child, banner) = serve_banner(
        dir.path(),
        &[
            "--root",
            "root",
            "--listen",
            &listen,
            "--user",
            "alice:pw",
            "--anonymous",
        ],
    );
    let text = banner.join("\n");
    assert!(
        text.contains("access: anonymous, read-only, on the whole root"),
        "{text}"
    );
    assert!(text.contains(&format!(":{port}/")), "{text}");
    let anon = Command::new("curl")
        .args(["-sS", "--max-time", "20", &format!("ftp://127.0.0.1:{port}/")])
        .output()
        .unwrap();
    assert!(
        anon.status.success(),
        "curl {:?}: {}",
        anon.status.code(),
        String::from_utf8_lossy(&anon.stderr)
    );
}

/// Issue 11: a named root that does not exist is an error (a typo is not
/// created and served); the default root is not left behind when the
/// server cannot start; a port in use is named.
#[test]
fn serve_refuses_a_missing_root_and_leaves_nothing_when_it_cannot_start() {
    let dir = tempfile::tempdir().unwrap();
    let serve = |args: &[&str]| {
        babelftp()
            .arg("serve")
            .args(args)
            .current_dir(dir.path())
            .env("LC_ALL", "C")
            .output()
            .unwrap()
    };
    let out = serve(&["--root", "srv/ftp-typo", "--listen", "127.0.0.1:0"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("srv/ftp-typo does not exist"), "{err}");
    assert!(!dir.path().join("srv").exists());

    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let out = serve(&["--listen", &addr]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("cannot listen on {addr}")), "{err}");
    assert!(
        !dir.path().join("ftp-root").exists(),
        "ftp-root made by a server that did not start"
    );

    let out = serve(&["--listen", "no such host:21"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--listen no such host:21"));
}

/// Issue 11: what an admin reads. At INFO, with stderr going to a file:
/// no colour codes; every session line carries the session's id; uploads,
/// downloads, MKD, renames, deletes, RMD and refused writes are there,
/// with names as text; every disconnect says why.
#[test]
fn serve_logs_what_happened_with_names_as_text_and_no_colours() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("root")).unwrap();
    let log_path = dir.path().join("server.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = ChildGuard(
        babelftp()
            .args(["serve", "--root", "root", "--listen", &port.to_string()])
            .args(["--user", "bob:secret", "--anonymous"])
            .current_dir(dir.path())
            .env("BABELFTP_LOG", "info")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap(),
    );
    babelftp_test_support::wait_until(Duration::from_secs(20), "the server listens", || {
        std::net::TcpStream::connect(("127.0.0.1", port)).ok().map(drop)
    });
    let script = format!(
        r#"
import ftplib, io
f = ftplib.FTP()
f.connect('127.0.0.1', {port}, timeout=20)
f.login('bob', 'secret')
f.storbinary('STOR 日本語.txt', io.BytesIO(b'konnichiwa'))
f.retrbinary('RETR 日本語.txt', lambda b: None)
f.mkd('Ελληνικά')
f.rename('日本語.txt', 'Ελληνικά/ملف.txt')
f.delete('Ελληνικά/ملف.txt')
f.rmd('Ελληνικά')
f.quit()
a = ftplib.FTP()
a.connect('127.0.0.1', {port}, timeout=20)
a.login('anonymous', 'x')
try:
    a.mkd('nope')
except ftplib.error_perm:
    pass
try:
    a.storbinary('STOR nope.txt', io.BytesIO(b'x'))
except ftplib.error_perm:
    pass
a.close()
"#
    );
    let out = Command::new("python3").arg("-c").arg(&script).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = babelftp_test_support::wait_until(Duration::from_secs(20), "two disconnects logged", || {
        let t = std::fs::read_to_string(&log_path).unwrap_or_default();
        (t.matches("disconnected").count() >= 2).then_some(t)
    });
    assert!(signal(child.0.id(), "TERM"));
    let _ = wait_child(&mut child.0, Duration::from_secs(10));
    assert!(!text.contains('\u{1b}'), "colour codes in a log file:\n{text}");
    for want in [
        "upload complete",
        "download complete",
        "path=/日本語.txt",
        "MKD",
        "path=/Ελληνικά",
        "rename",
        "/日本語.txt -> /Ελληνικά/",
        "ملف.txt",
        "DELE",
        "RMD",
        "refused by the account's permissions",
        "perm=\"mkdir\"",
        "reason=\"QUIT\"",
        "reason=\"client closed the connection\"",
    ] {
        assert!(text.contains(want), "no {want:?} in the log:\n{text}");
    }
    for line in text
        .lines()
        .filter(|l| l.contains("upload complete") || l.contains("disconnected"))
    {
        assert!(line.contains("session{id="), "no session id: {line}");
    }
    assert!(!text.contains("\\xe6"), "escaped UTF-8 in the log:\n{text}");
    // An anonymous STOR is refused and said, as a refused MKD is.
    assert_eq!(
        text.matches("refused by the account's permissions").count(),
        2,
        "{text}"
    );
    assert!(text.contains("perm=\"upload\" path=/nope.txt"), "{text}");
    // Isolation marks are for terminals: a log is grepped.
    assert!(!text.contains('\u{2068}'), "bidi isolates in the log:\n{text}");
    assert!(text.contains("/Ελληνικά/ملف.txt"), "{text}");
}

/// Issue 25.1 and 25.2: what would start a server nobody can use safely is
/// refused at start with the reason: `--user alice:` (an unset variable)
/// would be a passwordless read/write account; a users-file entry whose
/// hash cannot check a password; a key that is not the certificate's.
#[test]
fn serve_refuses_an_empty_password_an_unusable_hash_and_a_foreign_key() {
    let dir = tempfile::tempdir().unwrap();
    let start = |args: &[&str]| {
        let out = babelftp()
            .args([
                "serve",
                "--root",
                dir.path().to_str().unwrap(),
                "--listen",
                "127.0.0.1:0",
            ])
            .args(args)
            .env("LC_ALL", "C")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?} started");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = start(&["--user", "alice:"]);
    assert!(err.contains("--user alice: the password is empty"), "{err}");
    // A PHC string without its output parses, but checks nothing.
    let users = dir.path().join("users.toml");
    std::fs::write(
        &users,
        "[[user]]\nname = \"bob\"\npassword = \"$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0\"\n",
    )
    .unwrap();
    let err = start(&["--users", users.to_str().unwrap()]);
    assert!(err.contains("user \"bob\": password must be a hash"), "{err}");
    for d in ["a", "b"] {
        std::fs::create_dir(dir.path().join(d)).unwrap();
    }
    let (cert, _) = babelftp_test_support::certificate(&dir.path().join("a"));
    let (_, other_key) = babelftp_test_support::certificate(&dir.path().join("b"));
    let err = start(&[
        "--tls-cert",
        cert.to_str().unwrap(),
        "--tls-key",
        other_key.to_str().unwrap(),
    ]);
    assert!(err.contains("does not belong to the certificate"), "{err}");
}

/// Issue 25.4: the banner is the whole truth of the configuration: every
/// listener (implicit FTPS too, a wildcard one with the URL a local client
/// uses), TLS and whether it is required, the charsets, the language, the
/// access rules with a hint that matches them, and a user whose home is
/// missing (whose login then says why).
#[test]
fn serve_banner_is_the_whole_truth_of_the_configuration() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("root/alice")).unwrap();
    let conf = dir.path().join("server.toml");
    std::fs::write(
        &conf,
        format!(
            "anonymous = true\nanonymous_write = true\nfs_charset = \"windows-1252\"\nlegacy_client_charset = \"windows-1251\"\ndefault_lang = \"fr\"\n[dir_charsets]\n\"/ru\" = \"koi8-r\"\n[[user]]\nname = \"bob\"\npassword = \"{}\"\nhome = \"/bob\"\n",
            babelftp_server::auth::hash_password(b"pw").unwrap()
        ),
    )
    .unwrap();
    let tls = dir.path().join("tls");
    std::fs::create_dir(&tls).unwrap();
    let (cert, key) = babelftp_test_support::certificate(&tls);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (_child, banner) = serve_banner(
        dir.path(),
        &[
            "--config",
            conf.to_str().unwrap(),
            "--root",
            "root",
            "--listen",
            &format!("0.0.0.0:{port}"),
            "--implicit-listen",
            "127.0.0.1:0",
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
            "--tls-required",
            "--user",
            "alice:pw",
            "--anonymous",
        ],
    );
    let text = banner.join("\n");
    let has = |want: &str| assert!(text.contains(want), "no {want:?} in:\n{text}");
    has(&format!(
        "on ftp://127.0.0.1:{port}/ (every IPv4 address of this machine: 0.0.0.0:{port})"
    ));
    assert!(!text.contains("ftp://0.0.0.0"), "{text}");
    has("on ftps://127.0.0.1:");
    has("(implicit FTPS: TLS from the first byte)");
    has(&format!("tls: FTPS (AUTH TLS) with {}, required", cert.display()));
    has("charsets: names on disk in windows-1252");
    has("charsets: below /ru, names on disk in koi8-r");
    has("charsets: clients that send no OPTS UTF8 ON, LANG or HOST get names in windows-1251");
    has("language: replies in fr until a client sends LANG (16 languages)");
    has("access: anonymous, read and write, on the whole root");
    has("Connect with any FTP client as \"anonymous\" (read and write)");
    assert!(!text.contains("(read-only)"), "{text}");
    has("access: user alice, read and write, in /");
    has("warning: the home /bob of user bob is not a directory in root: bob cannot log in until it is");
    assert!(!text.contains("home /alice"), "{text}");
    // bob's login says why it is refused, not "Login incorrect".
    let out = Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import ftplib, ssl\nf = ftplib.FTP_TLS(context=ssl._create_unverified_context())\nf.connect('127.0.0.1', {port}, timeout=20)\nf.sendcmd('LANG en')\ntry:\n    f.login('bob', 'pw')\nexcept ftplib.error_perm as e:\n    print(e)\n"
        ))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("530 Login refused: the home directory"), "{said}");

    // Without TLS and charsets, the banner says so too.
    let (child, banner) = serve_banner(dir.path(), &["--root", "root", "--listen", "127.0.0.1:0"]);
    let text = banner.join("\n");
    assert!(text.contains("tls: off, logins and files go in clear"), "{text}");
    assert!(
        text.contains("charsets: names are stored as clients send them"),
        "{text}"
    );
    assert!(
        text.contains("Connect with any FTP client as \"anonymous\" (read-only)"),
        "{text}"
    );
    drop(child);
}

/// Issue 25.6: Ctrl-C during a transfer says what the server waits for;
/// a second Ctrl-C cuts the transfer (426, then 421) and exits at once.
#[test]
fn serve_says_what_a_stop_waits_for_and_a_second_ctrl_c_cuts_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("root")).unwrap();
    std::fs::File::create(dir.path().join("root/big.bin"))
        .unwrap()
        .set_len(256 << 20)
        .unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = ChildGuard(
        babelftp()
            .args(["serve", "--root", "root", "--listen", &port.to_string()])
            .current_dir(dir.path())
            .env("LC_ALL", "C")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let (tx, lines) = std::sync::mpsc::channel::<String>();
    let out = child.0.stdout.take().unwrap();
    std::thread::spawn(move || {
        for l in BufReader::new(out).lines().map_while(Result::ok) {
            let _ = tx.send(l);
        }
    });
    let wait_for = |prefix: &str| loop {
        let l = lines.recv_timeout(Duration::from_secs(20)).expect(prefix);
        if l.starts_with(prefix) {
            return l;
        }
    };
    wait_for("ready.");
    // A download the client does not read: it runs until cut.
    let mut py = Command::new("python3")
        .arg("-c")
        .arg(format!(
            r#"
import ftplib, sys
f = ftplib.FTP()
f.connect('127.0.0.1', {port}, timeout=30)
f.login('anonymous', 'x')
f.voidcmd('TYPE I')
conn = f.transfercmd('RETR big.bin')
print('started', flush=True)
try:
    print('end', f.getresp()[:3], flush=True)
except ftplib.all_errors as e:
    print('end', str(e)[:3], flush=True)
"#
        ))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut py_out = BufReader::new(py.stdout.take().unwrap()).lines();
    assert_eq!(py_out.next().unwrap().unwrap(), "started");
    std::thread::sleep(Duration::from_millis(300));
    assert!(signal(child.0.id(), "INT"));
    let l = wait_for("stopping");
    assert_eq!(
        l,
        "stopping: waiting for the running transfers (1) to finish, up to 30 s; Ctrl-C again to stop now"
    );
    std::thread::sleep(Duration::from_millis(500));
    assert!(child.0.try_wait().unwrap().is_none(), "it waits for the transfer");
    assert!(signal(child.0.id(), "INT"));
    wait_for("stopping now");
    let status = wait_child(&mut child.0, Duration::from_secs(5)).expect("still running 5 s after the second Ctrl-C");
    assert!(status.success(), "{status:?}");
    let end = py_out.next().unwrap().unwrap();
    assert_eq!(end, "end 426", "the client hears the transfer was cut");
    let _ = py.wait();
}

/// Issue 25, small things: `listen = "host:port"` as a string, one address
/// syntax for every listen option (`--metrics-listen PORT`), errors that
/// name the option and the path, and `url encode -` reading stdin.
#[test]
fn small_things_of_the_first_hour() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("root")).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mport = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let conf = dir.path().join("one.toml");
    std::fs::write(&conf, format!("listen = \"localhost:{port}\"\nroot = \"root\"\n")).unwrap();
    let (_child, banner) = serve_banner(
        dir.path(),
        &[
            "--config",
            conf.to_str().unwrap(),
            "--metrics-listen",
            &mport.to_string(),
        ],
    );
    let text = banner.join("\n");
    assert!(text.contains(&format!(":{port}/")), "{text}");
    assert!(
        text.contains(&format!("metrics: http://127.0.0.1:{mport}/metrics")),
        "{text}"
    );
    drop(_child);
    // Errors name what was given.
    std::fs::write(dir.path().join("afile"), b"x").unwrap();
    for (args, want) in [
        (vec!["--root", "afile"], "root (--root) afile: Not a directory"),
        (
            vec!["--root", "root", "--xferlog", "/nonexistent/x.log"],
            "xferlog (--xferlog) /nonexistent/x.log: No such file",
        ),
    ] {
        let out = babelftp()
            .arg("serve")
            .args(&args)
            .args(["--listen", "127.0.0.1:0"])
            .current_dir(dir.path())
            .env("LC_ALL", "C")
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{err}");
    }
    // `url encode -` and `url decode -`: one per line of standard input.
    let mut child = babelftp()
        .args(["url", "encode", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        child.stdin.as_mut().unwrap(),
        "/pub/日本/a b.txt\nftp://h/x y\n".as_bytes(),
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "/pub/%E6%97%A5%E6%9C%AC/a%20b.txt\nftp://h/x%20y\n"
    );
}
