//! `babelftp get|put|rm|mkdir` as a user runs them (issue 13, CLI items
//! 1, 2, 7, 9, 10): what a failure leaves on disk, the exit codes, `-`
//! for standard input and output, several files and wildcards, `rm -r`,
//! `mkdir -p`, SIZE once per get, and the error texts.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use babelftp_test_support::{signal, wait_child, ChildGuard, TestServer};

fn start() -> TestServer {
    babelftp_test_support::start(|c| {
        c.login_fail_delay = Duration::from_millis(10);
    })
}

fn base(srv: &TestServer) -> String {
    format!("ftp://bob:secret@127.0.0.1:{}", srv.port())
}

struct Run {
    code: i32,
    out: Vec<u8>,
    err: String,
}

/// Runs the binary in `cwd`, with `stdin` as its standard input.
fn babelftp_in(cwd: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let state = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(args)
        .current_dir(cwd)
        .env("XDG_STATE_HOME", state.path())
        .env("LC_ALL", "C")
        .env_remove("LANG")
        .env_remove("LC_MESSAGES")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        out: out.stdout,
        err: String::from_utf8(out.stderr).unwrap(),
    }
}

fn babelftp(cwd: &Path, args: &[&str]) -> Run {
    babelftp_in(cwd, args, b"")
}

/// The names in a directory, sorted (to see that no temporary file stays).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_failed_get_leaves_the_local_file_as_it_was_and_no_new_file() {
    let srv = start();
    std::fs::create_dir(srv.path("adir")).unwrap();
    let here = tempfile::tempdir().unwrap();
    let keep = here.path().join("keep.txt");
    std::fs::write(&keep, b"precious").unwrap();
    let b = base(&srv);
    // A missing remote file, onto an existing local one.
    let r = babelftp(here.path(), &["get", &format!("{b}/missing.txt"), "keep.txt"]);
    assert_eq!(r.code, 78, "{}", r.err);
    assert!(r.err.contains("missing.txt: server refused: 550"), "{}", r.err);
    assert_eq!(std::fs::read(&keep).unwrap(), b"precious");
    // A directory.
    let r = babelftp(here.path(), &["get", &format!("{b}/adir"), "keep.txt"]);
    assert_eq!(r.code, 78, "{}", r.err);
    assert_eq!(std::fs::read(&keep).unwrap(), b"precious");
    // No destination: no 0-byte file named after the remote one.
    let r = babelftp(here.path(), &["get", &format!("{b}/missing.txt")]);
    assert_eq!(r.code, 78, "{}", r.err);
    // A wildcard matching nothing.
    let r = babelftp(here.path(), &["get", &format!("{b}/*.nothing")]);
    assert_eq!(r.code, 78, "{}", r.err);
    assert!(r.err.contains("no remote file matches *.nothing"), "{}", r.err);
    assert_eq!(names(here.path()), ["keep.txt"]);
}

#[test]
fn a_get_replaces_the_file_whole_and_says_how_fast() {
    let srv = start();
    std::fs::write(srv.path("new.txt"), b"fresh content").unwrap();
    let here = tempfile::tempdir().unwrap();
    std::fs::write(here.path().join("new.txt"), b"an older and longer content").unwrap();
    let r = babelftp(here.path(), &["get", &format!("{}/new.txt", base(&srv))]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(here.path().join("new.txt")).unwrap(), b"fresh content");
    assert_eq!(names(here.path()), ["new.txt"]);
    // "13 bytes -> new.txt in 0.01 s (1.3 kB/s)"
    let line = r.err.lines().last().unwrap();
    assert!(line.starts_with("13 bytes -> new.txt in "), "{line}");
    assert!(line.contains(" s (") && line.ends_with("B/s)"), "{line}");
    // The file's mode is kept; through a symlink, its target is replaced.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(here.path().join("new.txt"), std::fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink("new.txt", here.path().join("link.txt")).unwrap();
    std::fs::write(srv.path("link.txt"), b"via the link").unwrap();
    let r = babelftp(here.path(), &["get", "-q", &format!("{}/link.txt", base(&srv))]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(std::fs::symlink_metadata(here.path().join("link.txt"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(here.path().join("new.txt")).unwrap(), b"via the link");
    let mode = std::fs::metadata(here.path().join("new.txt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    assert_eq!(names(here.path()), ["link.txt", "new.txt"]);
}

#[test]
fn an_interrupted_get_removes_its_temporary_file_and_exits_130() {
    // A server that sends part of a file and then waits.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let data = TcpListener::bind("127.0.0.1:0").unwrap();
    let data_port = data.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        let (s, _) = listener.accept().unwrap();
        let mut w = s.try_clone().unwrap();
        let mut r = BufReader::new(s);
        w.write_all(b"220 slow\r\n").unwrap();
        let mut held = Vec::new();
        let mut line = String::new();
        while r.read_line(&mut line).unwrap_or(0) > 0 {
            let verb = line.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
            let answer = match verb.as_str() {
                "USER" => "331 password\r\n".to_string(),
                "PASS" => "230 in\r\n".to_string(),
                "TYPE" => "200 ok\r\n".to_string(),
                "SIZE" => "213 1000000\r\n".to_string(),
                "EPSV" => format!("229 ok (|||{data_port}|)\r\n"),
                "RETR" => {
                    let (mut d, _) = data.accept().unwrap();
                    w.write_all(b"150 here it comes\r\n").unwrap();
                    d.write_all(&[b'x'; 1000]).unwrap();
                    held.push(d);
                    line.clear();
                    continue;
                }
                "QUIT" => "221 bye\r\n".to_string(),
                _ => "502 no\r\n".to_string(),
            };
            w.write_all(answer.as_bytes()).unwrap();
            line.clear();
        }
    });
    let here = tempfile::tempdir().unwrap();
    std::fs::write(here.path().join("big.bin"), b"the old one").unwrap();
    let state = tempfile::tempdir().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(["get", &format!("ftp://u:p@127.0.0.1:{port}/big.bin")])
        .current_dir(here.path())
        .env("XDG_STATE_HOME", state.path())
        .env("LC_ALL", "C")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = ChildGuard(child);
    // The temporary file appears and holds the first bytes.
    babelftp_test_support::wait_until(Duration::from_secs(10), "the download to start", || {
        names(here.path())
            .iter()
            .find(|n| n.starts_with(".big.bin.babelftp-"))
            .filter(|n| std::fs::metadata(here.path().join(n)).is_ok_and(|m| m.len() == 1000))
            .cloned()
    });
    assert!(signal(child.0.id(), "INT"));
    let status = wait_child(&mut child.0, Duration::from_secs(10)).expect("get did not stop on Ctrl-C");
    assert_eq!(status.code(), Some(130));
    let mut err = String::new();
    child.0.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(err.contains("interrupted"), "{err}");
    assert_eq!(names(here.path()), ["big.bin"]);
    assert_eq!(std::fs::read(here.path().join("big.bin")).unwrap(), b"the old one");
    drop(server);
}

#[test]
fn get_c_resumes_says_complete_and_refuses_a_larger_local_file() {
    let srv = start();
    std::fs::write(srv.path("r.txt"), b"0123456789").unwrap();
    let here = tempfile::tempdir().unwrap();
    let url = format!("{}/r.txt", base(&srv));
    std::fs::write(here.path().join("r.txt"), b"0123").unwrap();
    let r = babelftp(here.path(), &["get", "-c", &url]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(here.path().join("r.txt")).unwrap(), b"0123456789");
    let r = babelftp(here.path(), &["get", "-c", &url]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains("already complete (10 bytes)"), "{}", r.err);
    std::fs::write(here.path().join("r.txt"), b"0123456789 and more").unwrap();
    let r = babelftp(here.path(), &["get", "-c", &url]);
    assert_eq!(r.code, 36, "{}", r.err);
    assert!(r.err.contains("cannot resume"), "{}", r.err);
    assert_eq!(
        std::fs::read(here.path().join("r.txt")).unwrap(),
        b"0123456789 and more"
    );
    // put -c the same way: the remote file larger than the local one.
    std::fs::write(here.path().join("short.txt"), b"01").unwrap();
    let r = babelftp(here.path(), &["put", "-c", "short.txt", &url]);
    assert_eq!(r.code, 36, "{}", r.err);
    assert_eq!(std::fs::read(srv.path("r.txt")).unwrap(), b"0123456789");
    std::fs::remove_file(here.path().join("short.txt")).unwrap();
    // -c of a missing file creates nothing.
    let r = babelftp(here.path(), &["get", "-c", &format!("{}/nope.txt", base(&srv))]);
    assert_eq!(r.code, 78, "{}", r.err);
    assert_eq!(names(here.path()), ["r.txt"]);
}

#[test]
fn put_refuses_a_directory_and_a_missing_file_before_sending_anything() {
    let srv = start();
    std::fs::write(srv.path("target.txt"), b"remote content").unwrap();
    let here = tempfile::tempdir().unwrap();
    std::fs::create_dir(here.path().join("folder")).unwrap();
    let url = format!("{}/target.txt", base(&srv));
    let r = babelftp(here.path(), &["put", "-v", "folder", &url]);
    assert_eq!(r.code, 26, "{}", r.err);
    assert!(r.err.contains("folder is a directory"), "{}", r.err);
    assert!(!r.err.contains("STOR"), "{}", r.err);
    assert_eq!(std::fs::read(srv.path("target.txt")).unwrap(), b"remote content");
    let r = babelftp(here.path(), &["put", "-v", "absent.bin", &url]);
    assert_eq!(r.code, 26, "{}", r.err);
    assert!(!r.err.contains("STOR"), "{}", r.err);
    // Said once, not "No such file or directory (os error 2): No such file…".
    assert_eq!(r.err.matches("No such file or directory").count(), 1, "{}", r.err);
    assert_eq!(std::fs::read(srv.path("target.txt")).unwrap(), b"remote content");
}

#[test]
fn exit_codes_tell_connect_login_missing_local_and_usage_apart() {
    let srv = start();
    let here = tempfile::tempdir().unwrap();
    // A port nobody listens on.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let r = babelftp(here.path(), &["ls", &format!("ftp://127.0.0.1:{closed}/")]);
    assert_eq!(r.code, 7, "{}", r.err);
    assert_eq!(
        r.err.to_lowercase().matches("connection refused").count(),
        1,
        "{}",
        r.err
    );
    let r = babelftp(
        here.path(),
        &["ls", &format!("ftp://bob:wrong@127.0.0.1:{}/", srv.port())],
    );
    assert_eq!(r.code, 67, "{}", r.err);
    let r = babelftp(here.path(), &["get", &format!("{}/none.txt", base(&srv))]);
    assert_eq!(r.code, 78, "{}", r.err);
    let r = babelftp(
        here.path(),
        &["get", &format!("{}/readme.txt", base(&srv)), "no/such/dir/x.txt"],
    );
    assert_eq!(r.code, 23, "{}", r.err);
    let r = babelftp(here.path(), &["get", "ftp://bob:s3cret@h/%zz"]);
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(r.err.contains("bad URL ftp://bob:****@h/%zz"), "{}", r.err);
    assert!(!r.err.contains("s3cret"), "{}", r.err);
    let r = babelftp(here.path(), &["get", &format!("{}/", base(&srv))]);
    assert_eq!(r.code, 2, "{}", r.err);
    let r = babelftp(here.path(), &["get", "--no-such-flag", "ftp://h/x"]);
    assert_eq!(r.code, 2, "{}", r.err);
    // Documented.
    let r = babelftp(here.path(), &["get", "--help"]);
    let help = String::from_utf8(r.out).unwrap();
    assert!(
        help.contains("67   login refused") && help.contains("78   remote file missing"),
        "{help}"
    );
}

#[test]
fn get_to_stdout_and_put_from_stdin() {
    let srv = start();
    let here = tempfile::tempdir().unwrap();
    let r = babelftp(here.path(), &["get", &format!("{}/readme.txt", base(&srv)), "-"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out, b"hello from babelftp\n");
    assert_eq!(r.err, "");
    assert_eq!(names(here.path()), Vec::<String>::new());
    let r = babelftp_in(
        here.path(),
        &["put", "-", &format!("{}/from-stdin.txt", base(&srv))],
        b"piped in\n",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(srv.path("from-stdin.txt")).unwrap(), b"piped in\n");
    // A reader that goes away is a local write error, as curl's 23.
    babelftp_test_support::random_file(&srv.path("big.bin"), 4 << 20);
    let state = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(["get", &format!("{}/big.bin", base(&srv)), "-"])
        .env("XDG_STATE_HOME", state.path())
        .env("LC_ALL", "C")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(23), "{err}");
    assert!(err.contains("writing to standard output"), "{err}");
    // Standard input has no name: a directory URL is a usage error.
    let r = babelftp_in(here.path(), &["put", "-", &format!("{}/", base(&srv))], b"x");
    assert_eq!(r.code, 2, "{}", r.err);
}

#[test]
fn several_urls_and_wildcards_get_every_file_and_report_each_failure() {
    let srv = start();
    std::fs::create_dir(srv.path("pub")).unwrap();
    for (n, body) in [("a.txt", "A"), ("b.txt", "BB"), ("c.log", "CCC"), ("日本.txt", "J")] {
        std::fs::write(srv.path("pub").join(n), body).unwrap();
    }
    let b = base(&srv);
    let here = tempfile::tempdir().unwrap();
    let r = babelftp(here.path(), &["get", "-q", &format!("{b}/pub/*.txt")]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(names(here.path()), ["a.txt", "b.txt", "日本.txt"]);
    let out = tempfile::tempdir().unwrap();
    let r = babelftp(
        here.path(),
        &[
            "get",
            &format!("{b}/pub/c.log"),
            &format!("{b}/pub/missing"),
            &format!("{b}/pub/b.txt"),
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 78, "{}", r.err);
    assert!(r.err.contains("pub/missing: server refused: 550"), "{}", r.err);
    assert!(r.err.contains("1 of 3 failed"), "{}", r.err);
    assert_eq!(names(out.path()), ["b.txt", "c.log"]);
    assert_eq!(std::fs::read(out.path().join("c.log")).unwrap(), b"CCC");
    // Several files into one file name: refused before connecting.
    let r = babelftp(
        here.path(),
        &["get", &format!("{b}/pub/a.txt"), &format!("{b}/pub/b.txt"), "one.txt"],
    );
    assert_eq!(r.code, 2, "{}", r.err);
    // put of several files into a directory URL.
    let r = babelftp(here.path(), &["put", "-q", "a.txt", "b.txt", &format!("{b}/pub/")]);
    assert_eq!(r.code, 0, "{}", r.err);
}

#[test]
fn rm_r_removes_a_tree_and_mkdir_p_makes_parents() {
    let srv = start();
    let b = base(&srv);
    let here = tempfile::tempdir().unwrap();
    let r = babelftp(here.path(), &["mkdir", "-p", &format!("{b}/x/y/z/")]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(srv.path("x/y/z").is_dir());
    // Again: nothing to do, no error (as mkdir -p).
    let r = babelftp(here.path(), &["mkdir", "-p", &format!("{b}/x/y/z")]);
    assert_eq!(r.code, 0, "{}", r.err);
    // Without -p an existing directory is an error.
    let r = babelftp(here.path(), &["mkdir", &format!("{b}/x/y")]);
    assert_ne!(r.code, 0, "{}", r.err);
    // -p over a file fails.
    std::fs::write(srv.path("x/file"), b"f").unwrap();
    let r = babelftp(here.path(), &["mkdir", "-p", &format!("{b}/x/file/sub")]);
    assert_ne!(r.code, 0, "{}", r.err);
    std::fs::write(srv.path("x/y/z/deep.txt"), b"d").unwrap();
    std::fs::write(srv.path("x/y/top.txt"), b"t").unwrap();
    let r = babelftp(here.path(), &["rm", &format!("{b}/x/")]);
    assert_ne!(r.code, 0, "a non-empty directory without -r: {}", r.err);
    assert!(srv.path("x").is_dir());
    let r = babelftp(here.path(), &["rm", "-r", &format!("{b}/x/")]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(!srv.path("x").exists());
    // rm -r NAME (no trailing /) removes a directory too.
    std::fs::create_dir_all(srv.path("w/v")).unwrap();
    let r = babelftp(here.path(), &["rm", "-r", &format!("{b}/w")]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(!srv.path("w").exists());
    // Never the top directory.
    let r = babelftp(here.path(), &["rm", "-r", &format!("{b}/")]);
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(srv.path("readme.txt").exists());
}

#[test]
fn a_get_sends_size_once() {
    let srv = start();
    std::fs::write(srv.path("日本語.txt"), b"nihongo").unwrap();
    let here = tempfile::tempdir().unwrap();
    let r = babelftp(here.path(), &["get", "-v", &format!("{}/日本語.txt", base(&srv))]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.err.matches("> SIZE").count(), 1, "{}", r.err);
    assert_eq!(std::fs::read(here.path().join("日本語.txt")).unwrap(), b"nihongo");
}

/// A one-session FTP server without MLST whose LIST is `listing` and
/// whose RETR sends `body`; returns its port.
fn listing_server(listing: &'static [u8], body: &'static [u8]) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let data = TcpListener::bind("127.0.0.1:0").unwrap();
    let data_port = data.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let (s, _) = listener.accept().unwrap();
        let mut w = s.try_clone().unwrap();
        let mut r = BufReader::new(s);
        w.write_all(b"220 hi\r\n").unwrap();
        let mut line = String::new();
        while r.read_line(&mut line).unwrap_or(0) > 0 {
            let verb = line.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
            line.clear();
            let answer = match verb.as_str() {
                "USER" => "331 password\r\n".to_string(),
                "PASS" => "230 in\r\n".to_string(),
                "TYPE" => "200 ok\r\n".to_string(),
                "SIZE" => "550 no size here\r\n".to_string(),
                "EPSV" => format!("229 ok (|||{data_port}|)\r\n"),
                "LIST" | "RETR" => {
                    let (mut d, _) = data.accept().unwrap();
                    w.write_all(b"150 here\r\n").unwrap();
                    d.write_all(if verb == "LIST" { listing } else { body }).unwrap();
                    drop(d);
                    "226 done\r\n".to_string()
                }
                "QUIT" => {
                    w.write_all(b"221 bye\r\n").unwrap();
                    return;
                }
                _ => "502 no\r\n".to_string(),
            };
            w.write_all(answer.as_bytes()).unwrap();
        }
    });
    port
}

#[test]
fn a_wildcard_never_writes_outside_the_destination_whatever_the_listing_says() {
    let port = listing_server(
        b"-rw-r--r-- 1 u g 5 Jan  1  2020 ../escape.txt\r\n-rw-r--r-- 1 u g 2 Jan  1  2020 ok.txt\r\n",
        b"ok",
    );
    let top = tempfile::tempdir().unwrap();
    let dest = top.path().join("dest");
    std::fs::create_dir(&dest).unwrap();
    let r = babelftp(
        top.path(),
        &["get", &format!("ftp://u:p@127.0.0.1:{port}/*.txt"), "dest"],
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(names(top.path()), ["dest"]);
    assert_eq!(names(&dest), ["ok.txt"]);
    assert_eq!(std::fs::read(dest.join("ok.txt")).unwrap(), b"ok");
}

#[test]
fn the_shells_get_replaces_whole_files_and_a_failed_one_changes_nothing() {
    let srv = start();
    std::fs::write(srv.root.path().join("new.txt"), b"new contents").unwrap();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("keep.txt"), b"precious").unwrap();
    std::fs::write(work.path().join("mine.txt"), b"old").unwrap();
    let r = babelftp_in(
        work.path(),
        &["shell", &format!("{}/", base(&srv))],
        b"get missing.txt keep.txt\nget new.txt mine.txt\nbye\n",
    );
    // The failed get makes the piped shell exit 1; the second one ran.
    assert_eq!(r.code, 1, "{}", r.err);
    assert_eq!(std::fs::read(work.path().join("keep.txt")).unwrap(), b"precious");
    assert_eq!(std::fs::read(work.path().join("mine.txt")).unwrap(), b"new contents");
    assert_eq!(names(work.path()), ["keep.txt", "mine.txt"]);
}

#[test]
fn a_get_into_a_fifo_writes_through_it_and_leaves_it_a_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let srv = start();
    std::fs::write(srv.root.path().join("piped.txt"), b"through the pipe").unwrap();
    let work = tempfile::tempdir().unwrap();
    let fifo = work.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let r = babelftp(
        work.path(),
        &[
            "get",
            "-q",
            &format!("{}/piped.txt", base(&srv)),
            fifo.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(reader.join().unwrap(), b"through the pipe");
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(names(work.path()), ["fifo"]);
}

#[test]
fn refusals_name_the_path_for_ls_mv_and_the_shells_get() {
    let srv = start();
    let work = tempfile::tempdir().unwrap();
    let r = babelftp(work.path(), &["ls", &format!("{}/missing/", base(&srv))]);
    assert_eq!(r.code, 78);
    assert!(r.err.contains("missing/: ") && r.err.contains("550"), "{}", r.err);
    let r = babelftp(work.path(), &["mv", &format!("{}/missing.txt", base(&srv)), "new.txt"]);
    assert_eq!(r.code, 78);
    assert!(
        r.err.contains("missing.txt -> new.txt: ") && r.err.contains("550"),
        "{}",
        r.err
    );
    let r = babelftp_in(
        work.path(),
        &["shell", &format!("{}/", base(&srv))],
        b"get nope.txt\nbye\n",
    );
    assert_eq!(r.code, 1);
    assert!(r.err.contains("nope.txt: ") && r.err.contains("550"), "{}", r.err);
}

/// Issue 25.8: symlinks whose target stays inside the root are followed by
/// every command (LIST, MLSD, CWD, SIZE, RETR, and so `mirror`); ones that
/// leave the root, or lead nowhere, are still refused.
#[test]
fn symlinks_inside_the_root_are_followed_and_ones_leaving_it_refused() {
    let srv = start();
    let root = srv.root.path();
    std::fs::create_dir_all(root.join("pub/real")).unwrap();
    std::fs::write(root.join("pub/real/f.txt"), b"0123456789").unwrap();
    std::os::unix::fs::symlink("real", root.join("pub/link")).unwrap();
    std::os::unix::fs::symlink("real/f.txt", root.join("pub/flink")).unwrap();
    // Inside the root, but outside the directory it sits in.
    std::os::unix::fs::symlink("../readme.txt", root.join("pub/up")).unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret"), b"no").unwrap();
    std::os::unix::fs::symlink(outside.path(), root.join("pub/out")).unwrap();
    std::os::unix::fs::symlink("../../..", root.join("pub/climb")).unwrap();
    std::os::unix::fs::symlink("nothing", root.join("pub/dangling")).unwrap();
    let out = babelftp_test_support::python(
        &srv,
        r#"
f = ftplib.FTP(); f.connect(HOST, PORT); f.login('bob', 'secret')
facts = dict((n, fa['type']) for n, fa in f.mlsd('pub'))
print('mlsd', sorted(facts.items()))
print('mlsd link', [n for n, _ in f.mlsd('pub/link')])
print('size', f.size('pub/flink'), f.size('pub/up'))
got = io.BytesIO(); f.retrbinary('RETR pub/flink', got.write); print('retr', got.getvalue())
f.cwd('pub/link'); print('cwd', f.pwd(), f.nlst()); f.cwd('/')
for bad in ['RETR pub/out/secret', 'SIZE pub/out/secret', 'RETR pub/climb/etc/passwd', 'CWD pub/out', 'RETR pub/dangling']:
    try:
        if bad.startswith('RETR'):
            f.retrbinary(bad, lambda b: print('LEAK', b))
        else:
            f.sendcmd(bad)
        print('allowed', bad)
    except ftplib.error_perm as e:
        print('refused', bad, str(e)[:3])
lines = []; f.retrlines('LIST pub', lines.append); print('list', lines)
f.quit()
"#,
    );
    assert!(
        out.contains("('link', 'dir')") && out.contains("('flink', 'file')") && out.contains("('up', 'file')"),
        "{out}"
    );
    assert!(
        out.contains("('out', 'OS.unix=symlink')") && out.contains("('dangling', 'OS.unix=symlink')"),
        "{out}"
    );
    assert!(out.contains("mlsd link ['f.txt']"), "{out}");
    assert!(out.contains("size 10 20"), "{out}");
    assert!(out.contains("retr b'0123456789'"), "{out}");
    assert!(out.contains("cwd /pub/link ['f.txt']"), "{out}");
    assert!(!out.contains("LEAK") && !out.contains("allowed"), "{out}");
    assert_eq!(out.matches("refused ").count(), 5, "{out}");
    // mirror copies through the links inside the root.
    let dest = tempfile::tempdir().unwrap();
    let r = babelftp_in(dest.path(), &["mirror", &format!("{}/pub/", base(&srv)), "copy"], b"");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.err
            .contains("skipped: pub/out is a symbolic link the server does not follow"),
        "{}",
        r.err
    );
    assert_eq!(
        std::fs::read(dest.path().join("copy/link/f.txt")).unwrap(),
        b"0123456789"
    );
    assert_eq!(std::fs::read(dest.path().join("copy/flink")).unwrap(), b"0123456789");
    assert!(!dest.path().join("copy/out/secret").exists());
}

/// Issue 25.10 and 25.13: what a person pastes or types is taken as curl
/// and lftp take it: a raw space in a URL, a bare host[:port]/path, and a
/// Hebrew name copied from `babelftp ls` with the bidi isolates the display
/// put around it.
#[test]
fn urls_with_spaces_bare_hosts_and_pasted_isolates_are_taken() {
    let srv = start();
    std::fs::write(srv.path("with space.txt"), b"spaced").unwrap();
    std::fs::write(srv.path("שלום.txt"), b"shalom").unwrap();
    let dest = tempfile::tempdir().unwrap();
    let port = srv.port();
    let listed = babelftp_in(dest.path(), &["ls", &format!("{}/", base(&srv))], b"");
    assert_eq!(listed.code, 0, "{}", listed.err);
    // As the terminal would show it: isolated (stdout is a pipe here, so
    // the marks are added by hand, as a copy from a terminal carries them).
    let pasted = "\u{2068}שלום.txt\u{2069}";
    for (url, want, file) in [
        (
            format!("ftp://bob:secret@127.0.0.1:{port}/with space.txt"),
            &b"spaced"[..],
            "with space.txt",
        ),
        (
            format!("bob:secret@127.0.0.1:{port}/with space.txt"),
            &b"spaced"[..],
            "with space.txt",
        ),
        (
            format!("ftp://bob:secret@127.0.0.1:{port}/{pasted}"),
            &b"shalom"[..],
            "שלום.txt",
        ),
    ] {
        let _ = std::fs::remove_file(dest.path().join(file));
        let r = babelftp_in(dest.path(), &["get", "-q", &url, "."], b"");
        assert_eq!(r.code, 0, "{url}: {}", r.err);
        assert_eq!(std::fs::read(dest.path().join(file)).unwrap(), want, "{url}");
    }
}

/// Issue 25, small things: `put f ftp://host/up` where `up` is a directory
/// puts the file inside it, as cp does (it was "550 Not a plain file.").
#[test]
fn put_to_a_directory_url_without_a_slash_goes_inside_it() {
    let srv = start();
    std::fs::create_dir(srv.path("up")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.txt"), b"into up").unwrap();
    let r = babelftp_in(dir.path(), &["put", "-q", "f.txt", &format!("{}/up", base(&srv))], b"");
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(srv.path("up/f.txt")).unwrap(), b"into up");
    // A file of that name is still replaced as asked.
    let r = babelftp_in(
        dir.path(),
        &["put", "-q", "f.txt", &format!("{}/up/f.txt", base(&srv))],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.err);
}

/// Issue 25.15: `ls` of a single file shows its line, as ls and lftp do
/// (MLSD of a file is 550); a missing name is still an error.
#[test]
fn ls_of_a_single_file_shows_it() {
    let srv = start();
    std::fs::create_dir(srv.path("d")).unwrap();
    std::fs::write(srv.path("d/日本.txt"), b"12345").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let r = babelftp_in(
        dir.path(),
        &["ls", &format!("{}/d/%E6%97%A5%E6%9C%AC.txt", base(&srv))],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(String::from_utf8(r.out).unwrap(), "日本.txt\n");
    let r = babelftp_in(dir.path(), &["ls", "-l", &format!("{}/d/日本.txt", base(&srv))], b"");
    assert_eq!(r.code, 0, "{}", r.err);
    let out = String::from_utf8(r.out).unwrap();
    assert!(
        out.starts_with('-') && out.contains(" 5 ") && out.ends_with(" 日本.txt\n"),
        "{out}"
    );
    let r = babelftp_in(dir.path(), &["ls", &format!("{}/d/nothing.txt", base(&srv))], b"");
    assert_eq!(r.code, 78, "{}", r.err);
    assert!(r.err.contains("nothing.txt"), "{}", r.err);
}

/// Issue 25.15: `get 'ftp://host/*.txt' dl/` makes `dl/` when it is not
/// there (it was "several files go to a directory"), as wget -P does.
#[test]
fn get_of_a_glob_into_a_new_directory_makes_it() {
    let srv = start();
    std::fs::write(srv.path("a.txt"), b"a").unwrap();
    std::fs::write(srv.path("b.txt"), b"b").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let r = babelftp_in(
        dir.path(),
        &["get", "-q", &format!("{}/*.txt", base(&srv)), "dl/sub/"],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(dir.path().join("dl/sub/a.txt")).unwrap(), b"a");
    assert_eq!(std::fs::read(dir.path().join("dl/sub/b.txt")).unwrap(), b"b");
}

/// Issue 25.15: `cat` prints remote files (as lftp's cat), `chmod` sends
/// SITE CHMOD (as lftp's chmod); a bad mode is a usage error.
#[test]
fn cat_and_chmod_as_lftp_has_them() {
    use std::os::unix::fs::PermissionsExt;
    let srv = start();
    std::fs::write(srv.path("a.txt"), b"first\n").unwrap();
    std::fs::write(srv.path("b.txt"), b"second\n").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let r = babelftp_in(
        dir.path(),
        &[
            "cat",
            &format!("{}/a.txt", base(&srv)),
            &format!("{}/b.txt", base(&srv)),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out, b"first\nsecond\n");
    let r = babelftp_in(dir.path(), &["chmod", "600", &format!("{}/a.txt", base(&srv))], b"");
    assert_eq!(r.code, 0, "{}", r.err);
    let mode = std::fs::metadata(srv.path("a.txt")).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let r = babelftp_in(dir.path(), &["chmod", "9x", &format!("{}/a.txt", base(&srv))], b"");
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(r.err.contains("9x is not an octal mode"), "{}", r.err);
    let r = babelftp_in(dir.path(), &["chmod", "644", &format!("{}/nothing", base(&srv))], b"");
    assert_eq!(r.code, 78, "{}", r.err);
    assert!(r.err.contains("nothing"), "{}", r.err);
}

/// Issue 25.15: `--limit-rate` as curl spells it keeps a transfer at or
/// under the rate (both ways); a rate that is not one is a usage error.
#[test]
fn limit_rate_keeps_transfers_under_it() {
    let srv = start();
    let data = vec![5u8; 300 << 10];
    std::fs::write(srv.path("big.bin"), &data).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let t = std::time::Instant::now();
    let r = babelftp_in(
        dir.path(),
        &[
            "get",
            "-q",
            "--limit-rate",
            "200K",
            &format!("{}/big.bin", base(&srv)),
            ".",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    // 300 KiB at 200 KiB/s: not under 1.4 s (only a lower bound is
    // checked: a busy machine may be slower, never faster).
    assert!(t.elapsed() >= Duration::from_millis(1300), "{:?}", t.elapsed());
    assert_eq!(std::fs::read(dir.path().join("big.bin")).unwrap(), data);
    let t = std::time::Instant::now();
    let r = babelftp_in(
        dir.path(),
        &[
            "put",
            "-q",
            "--limit-rate",
            "0.2m",
            "big.bin",
            &format!("{}/up.bin", base(&srv)),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(t.elapsed() >= Duration::from_millis(1300), "{:?}", t.elapsed());
    assert_eq!(std::fs::read(srv.path("up.bin")).unwrap(), data);
    let r = babelftp_in(
        dir.path(),
        &["get", "--limit-rate", "fast", &format!("{}/big.bin", base(&srv))],
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(r.err.contains("--limit-rate fast"), "{}", r.err);
}

/// Sets a file's modification time.
fn set_mtime(p: &Path, t: std::time::SystemTime) {
    std::fs::File::options()
        .write(true)
        .open(p)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

/// A file's modification time in whole Unix seconds.
fn mtime_secs(p: &Path) -> u64 {
    std::fs::metadata(p)
        .unwrap()
        .modified()
        .unwrap()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// Issue 25.19: `mirror -R` gives each upload the local time (MFMT), so a
/// file changed in place and given an older time (a restored backup, `cp
/// -p`, `touch -d`) is seen as changed: same size, but not the same time.
/// Before, the copy (stamped with its upload time) was "newer" and kept.
#[test]
fn mirror_up_keeps_times_and_sends_a_same_size_file_with_an_older_time() {
    let srv = start();
    let local = tempfile::tempdir().unwrap();
    let src = local.path().join("src");
    std::fs::create_dir_all(src.join("sub")).unwrap();
    let (a, nihon) = (src.join("a.txt"), src.join("sub/日本.txt"));
    std::fs::write(&a, b"version 1").unwrap();
    std::fs::write(&nihon, b"nihon").unwrap();
    // 2020-09-13 12:26:40 UTC, and half a second after it (times are
    // compared to the second).
    let t0 = std::time::UNIX_EPOCH + Duration::from_secs(1_600_000_000);
    set_mtime(&a, t0);
    set_mtime(&nihon, t0 + Duration::from_millis(500));
    let url = format!("{}/up/", base(&srv));
    let mirror = |verbose: bool| {
        let mut args = vec!["mirror", "-R"];
        if verbose {
            args.push("-v");
        }
        args.extend([src.to_str().unwrap(), url.as_str()]);
        babelftp(local.path(), &args)
    };
    let r = mirror(true);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains("2 copied (14 bytes), 0 unchanged"), "{}", r.err);
    assert!(r.err.contains("> MFMT 20200913122640 "), "{}", r.err);
    assert_eq!(mtime_secs(&srv.path("up/a.txt")), 1_600_000_000);
    assert_eq!(mtime_secs(&srv.path("up/sub/日本.txt")), 1_600_000_000);

    let r = mirror(false);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains("0 copied (0 bytes), 2 unchanged"), "{}", r.err);

    // Changed in place: the same size, a day older.
    std::fs::write(&a, b"version 2").unwrap();
    set_mtime(&a, t0 - Duration::from_secs(86_400));
    let r = mirror(false);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains("1 copied (9 bytes), 1 unchanged"), "{}", r.err);
    assert_eq!(std::fs::read(srv.path("up/a.txt")).unwrap(), b"version 2");
    assert_eq!(mtime_secs(&srv.path("up/a.txt")), 1_600_000_000 - 86_400);

    let r = mirror(false);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains("0 copied (0 bytes), 2 unchanged"), "{}", r.err);
}

/// Issue 25.18: `babelftp put` and `mirror -R` tell babelftp they are
/// alive right behind each upload (a NOOP), so the server's wait for a
/// killed client's control FIN ends at once. With that wait set to ten
/// minutes, five uploads finish and are whole well within a minute.
#[test]
fn uploads_to_babelftp_do_not_wait_for_the_killed_client_check() {
    let srv = babelftp_test_support::start(|c| c.upload_end_wait = Duration::from_secs(600));
    let here = tempfile::tempdir().unwrap();
    let src = here.path().join("src");
    std::fs::create_dir(&src).unwrap();
    for i in 0..4 {
        std::fs::write(src.join(format!("f{i}.txt")), format!("file {i}\n")).unwrap();
    }
    std::fs::write(here.path().join("one.txt"), b"one\n").unwrap();
    let state = tempfile::tempdir().unwrap();
    let url = base(&srv);
    let run = |args: &[&str]| {
        let mut g = ChildGuard(
            Command::new(env!("CARGO_BIN_EXE_babelftp"))
                .current_dir(here.path())
                .env("XDG_STATE_HOME", state.path())
                .args(args)
                .spawn()
                .unwrap(),
        );
        let status = wait_child(&mut g.0, Duration::from_secs(60));
        assert!(status.is_some(), "{args:?} waited for the server's check");
        assert!(status.unwrap().success(), "{args:?}");
    };
    run(&["put", "-q", "one.txt", &format!("{url}/")]);
    run(&["mirror", "-R", "-q", "src", &format!("{url}/dst/")]);
    assert_eq!(std::fs::read(srv.path("one.txt")).unwrap(), b"one\n");
    for i in 0..4 {
        assert_eq!(
            std::fs::read_to_string(srv.path(&format!("dst/f{i}.txt"))).unwrap(),
            format!("file {i}\n")
        );
    }
}
