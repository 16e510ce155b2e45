//! Events and their delivery (issue 30), with real parts: `babelftp
//! serve` with `[[hook]]` tables, ftplib sessions with a UTF-8 name and a
//! windows-1251 one (not UTF-8), an HTTP receiver written here that is
//! stopped and started again, a kill and a restart of babelftp on the same
//! SQLite store, and a command hook (the guide's script that moves
//! arriving files).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common;
use common::serve::{ftplib, Serve};

/// One POST the receiver took: its signature header and body.
#[derive(Clone, Debug)]
struct Got {
    signature: String,
    body: String,
}

/// A webhook receiver on a fixed port, stopped and started at will
/// (stopped: the port refuses connections).
struct Receiver {
    addr: SocketAddr,
    got: Arc<Mutex<Vec<Got>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Receiver {
    fn start() -> Receiver {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let mut r = Receiver {
            addr,
            got: Arc::default(),
            stop: Arc::default(),
            thread: None,
        };
        r.serve(l);
        r
    }

    fn serve(&mut self, l: TcpListener) {
        l.set_nonblocking(true).unwrap();
        let (got, stop) = (self.got.clone(), self.stop.clone());
        stop.store(false, Ordering::SeqCst);
        self.thread = Some(std::thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                let conn = match l.accept() {
                    Ok((c, _)) => c,
                    Err(_) => {
                        std::thread::sleep(Duration::from_millis(5));
                        continue;
                    }
                };
                conn.set_nonblocking(false).unwrap();
                let mut r = BufReader::new(conn.try_clone().unwrap());
                let (mut len, mut signature) = (0usize, String::new());
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        break;
                    }
                    let lower = line.to_ascii_lowercase();
                    if let Some(v) = lower.strip_prefix("content-length:") {
                        len = v.trim().parse().unwrap_or(0);
                    }
                    if let Some(v) = lower.strip_prefix("x-babelftp-signature:") {
                        signature = v.trim().to_owned();
                    }
                    if line == "\r\n" {
                        break;
                    }
                }
                let mut body = vec![0; len];
                if r.read_exact(&mut body).is_err() {
                    continue;
                }
                got.lock().unwrap().push(Got {
                    signature,
                    body: String::from_utf8(body).unwrap(),
                });
                let mut conn = conn;
                let _ = conn.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
            }
        }));
    }

    /// Stops taking connections (the listening socket is closed).
    fn stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }

    /// Listens again on the same port.
    fn restart(&mut self) {
        let l = TcpListener::bind(self.addr).unwrap();
        self.serve(l);
    }

    fn bodies(&self) -> Vec<Got> {
        self.got.lock().unwrap().clone()
    }

    /// The events received, deduplicated by id (the first of each), once
    /// `done` says they are all there (30 s at most).
    fn wait(&self, what: &str, done: impl Fn(&[serde_json::Value]) -> bool) -> Vec<serde_json::Value> {
        let t0 = Instant::now();
        loop {
            let events = dedup(&self.bodies());
            if done(&events) {
                return events;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(40),
                "{what}: not all events arrived: {:#?}",
                events
                    .iter()
                    .map(|e| format!("{} {}", e["event"], e["path"]))
                    .collect::<Vec<_>>()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.stop();
    }
}

fn dedup(got: &[Got]) -> Vec<serde_json::Value> {
    let mut seen = HashSet::new();
    got.iter()
        .map(|g| serde_json::from_str::<serde_json::Value>(&g.body).unwrap())
        .filter(|v| seen.insert(v["id"].as_str().unwrap().to_owned()))
        .collect()
}

/// The events of `session`, by name, in the order they came.
fn kinds(events: &[serde_json::Value], session: &str) -> Vec<String> {
    events
        .iter()
        .filter(|e| e["session"] == session)
        .map(|e| e["event"].as_str().unwrap().to_owned())
        .collect()
}

/// The signatures verify: HMAC-SHA256 of each body under `secret`,
/// checked by Python's hmac (not babelftp's code).
fn check_signatures(got: &[Got], secret: &str) {
    let dir = tempfile::tempdir().unwrap();
    let list: Vec<(String, String)> = got.iter().map(|g| (g.signature.clone(), g.body.clone())).collect();
    let file = dir.path().join("sigs.json");
    std::fs::write(&file, serde_json::to_string(&list).unwrap()).unwrap();
    let out = Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import hmac, hashlib, json\nbad = 0\nfor sig, body in json.load(open({:?})):\n    want = 'sha256=' + hmac.new({secret:?}.encode(), body.encode(), hashlib.sha256).hexdigest()\n    bad += sig != want\nprint('BAD', bad)",
            file.display().to_string()
        ))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "BAD 0", "{out:?}");
}

/// Rows left in the SQLite outbox (Python's sqlite3).
fn outbox_rows(db: &Path) -> usize {
    let out = Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import sqlite3\nprint(sqlite3.connect({:?}).execute('SELECT COUNT(*) FROM event_outbox').fetchone()[0])",
            db.display().to_string()
        ))
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or(usize::MAX)
}

/// Python lines that turn a name into the latin-1 text ftplib sends as
/// those exact octets: U (UTF-8), C and C2 (windows-1251, not UTF-8).
const NAMES: &str = "U = 'данные-日本.txt'.encode('utf-8').decode('latin-1')\nC = 'отчёт.txt'.encode('cp1251').decode('latin-1')\nC2 = 'новый.txt'.encode('cp1251').decode('latin-1')\n";

#[test]
fn every_event_reaches_the_webhook_once_across_a_receiver_outage_and_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let db = dir.path().join("babelftp.db");
    let mut receiver = Receiver::start();
    let config = dir.path().join("babelftp.toml");
    std::fs::write(
        &config,
        format!(
            "node = \"node-a\"\n\n[[hook]]\nurl = \"http://{}/events\"\nsecret = \"k3y\"\nmax_backoff = 1\ntimeout_ms = 2000\n",
            receiver.addr
        ),
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let db_url = format!("sqlite:{}", db.display());
    let args = ["--config", config, "--db", &db_url, "--user", "alice:pw", "--anonymous"];
    let srv = Serve::start_logged(&root, &args, &[], Some(&dir.path().join("serve1.log")));

    // A refused login, then a session that does everything, with a UTF-8
    // name and two names that are not UTF-8.
    let seen = ftplib(srv.addr, "alice", "wrong", "latin-1", "print('IN')");
    assert!(seen.contains("LOGIN-REFUSED 530"), "{seen}");
    let seen = ftplib(
        srv.addr,
        "alice",
        "pw",
        "latin-1",
        &format!(
            "{NAMES}ftp.storbinary('STOR ' + U, io.BytesIO(b'hello'))\nftp.storbinary('STOR ' + C, io.BytesIO(b'privet!'))\nb = io.BytesIO(); ftp.retrbinary('RETR ' + U, b.write)\nftp.rename(C, C2)\nftp.mkd('dir')\nftp.sendcmd('SITE CHMOD 640 ' + U)\nftp.delete(U)\nftp.rmd('dir')\nftp.quit()\nprint('DONE', b.getvalue())"
        ),
    );
    assert!(seen.contains("DONE b'hello'"), "{seen}");
    let all = [
        "login", "upload", "upload", "download", "rename", "mkdir", "chmod", "delete", "rmdir", "logout",
    ];
    let events = receiver.wait("the first session", |ev| {
        ev.iter().any(|e| e["event"] == "login_failed")
            && ev.iter().filter(|e| e["event"] != "login_failed").count() >= all.len()
    });
    let failed = events.iter().find(|e| e["event"] == "login_failed").unwrap();
    assert_eq!(failed["user"], "alice");
    assert_eq!(failed["code"], 530);
    let session = events.iter().find(|e| e["event"] == "login").unwrap()["session"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(kinds(&events, &session), all, "in order");
    let by: BTreeMap<String, Vec<&serde_json::Value>> = events.iter().fold(BTreeMap::new(), |mut m, e| {
        m.entry(e["event"].as_str().unwrap().to_owned()).or_default().push(e);
        m
    });
    for e in &events {
        assert_eq!(e["node"], "node-a");
        assert_eq!(e["protocol"], "ftp");
        assert_eq!(e["client_address"], "127.0.0.1");
        assert_eq!(e["user"], "alice");
        assert_eq!(e["id"].as_str().unwrap().len(), 36, "a UUID");
        let t = e["time"].as_str().unwrap();
        assert!(
            t.len() == 24 && t.ends_with('Z') && &t[10..11] == "T",
            "RFC 3339 UTC: {t}"
        );
    }
    let up = &by["upload"];
    assert_eq!(up[0]["path"], "/данные-日本.txt");
    assert!(up[0].get("path_hex").is_none(), "{}", up[0]);
    assert_eq!(
        (up[0]["size"].as_u64(), up[0]["bytes"].as_u64(), up[0]["code"].as_u64()),
        (Some(5), Some(5), Some(226))
    );
    assert_eq!(up[0]["outcome"], "complete");
    assert!(up[0]["duration_ms"].is_u64());
    // отчёт.txt in windows-1251: the text shows the octets as %HH, and
    // path_hex has them exactly.
    assert_eq!(up[1]["path_hex"], "/%EE%F2%F7%B8%F2.txt");
    assert_eq!(up[1]["path"], "/%EE%F2%F7%B8%F2.txt");
    assert_eq!(up[1]["size"], 7);
    let rename = by["rename"][0];
    assert_eq!(rename["path_hex"], "/%EE%F2%F7%B8%F2.txt");
    assert_eq!(rename["target_hex"], "/%ED%EE%E2%FB%E9.txt");
    assert_eq!(by["download"][0]["bytes"], 5);
    assert_eq!(by["download"][0]["code"], 226);
    assert_eq!(by["chmod"][0]["mode"], "640");
    assert_eq!(by["mkdir"][0]["path"], "/dir");
    assert_eq!(by["delete"][0]["path"], "/данные-日本.txt");
    assert!(by["logout"][0]["duration_ms"].is_u64());
    check_signatures(&receiver.bodies(), "k3y");

    // The receiver goes away; uploads go on (their 226 does not wait).
    receiver.stop();
    let before = receiver.bodies().len();
    let t0 = Instant::now();
    let seen = ftplib(
        srv.addr,
        "alice",
        "pw",
        "latin-1",
        "for i in range(3):\n    ftp.storbinary('STOR later-%d.txt' % i, io.BytesIO(b'x' * i))\nftp.quit()\nprint('UP')",
    );
    assert!(seen.contains("UP"), "{seen}");
    assert!(
        t0.elapsed() < Duration::from_secs(10),
        "uploads waited: {:?}",
        t0.elapsed()
    );
    // login, 3 uploads, logout: in the store before the kill.
    let t0 = Instant::now();
    while outbox_rows(&db) < 5 {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "not in the outbox: {}",
            outbox_rows(&db)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(srv); // SIGKILL
    std::thread::sleep(Duration::from_millis(1500));
    // Started again on the same store, with the receiver still down a
    // moment; then it is back.
    let log2 = dir.path().join("serve2.log");
    let srv = Serve::start_logged(&root, &args, &[], Some(&log2));
    // What the killed node left is due at once: its delivery fails first.
    babelftp_test_support::wait_until(Duration::from_secs(20), "a failed delivery after the restart", || {
        let text = std::fs::read_to_string(&log2).unwrap_or_default();
        text.contains("hook failing").then_some(())
    });
    receiver.restart();
    let events = receiver.wait("after the restart", |ev| {
        ev.iter().filter(|e| e["event"] == "logout").count() >= 2
    });
    let late: Vec<&serde_json::Value> = events
        .iter()
        .filter(|e| e["session"] != session && e["event"] != "login_failed")
        .collect();
    let session2 = late[0]["session"].as_str().unwrap();
    assert_ne!(session2, session);
    assert_eq!(
        kinds(&events, session2),
        ["login", "upload", "upload", "upload", "logout"],
        "in order"
    );
    let paths: Vec<&str> = late
        .iter()
        .filter(|e| e["event"] == "upload")
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["/later-0.txt", "/later-1.txt", "/later-2.txt"]);
    // Exactly once after deduplication: nothing more, nothing missing.
    std::thread::sleep(Duration::from_millis(1500));
    let events = dedup(&receiver.bodies());
    assert_eq!(events.len(), 11 + 5, "{events:#?}");
    assert!(receiver.bodies().len() > before);
    check_signatures(&receiver.bodies(), "k3y");
    let t0 = Instant::now();
    while outbox_rows(&db) != 0 {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "the outbox keeps {}",
            outbox_rows(&db)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(srv);
}

/// The guide's example (docs/guide/src/events.md): a command hook that moves each arriving file
/// out of the FTP tree (names that are not UTF-8 too).
const MOVER: &str = r#"#!/bin/sh
# on-upload.sh: move each file that arrives in /incoming to $DONE.
# babelftp sets BABELFTP_PATH to the file's path as the session sees it
# (its exact octets, whatever the charset); FTP_ROOT is the served root.
set -eu
mkdir -p "$DONE"
mv -- "$FTP_ROOT$BABELFTP_PATH" "$DONE/"
"#;

#[test]
fn a_command_hook_moves_arriving_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("incoming")).unwrap();
    let done = dir.path().join("done");
    let script = dir.path().join("on-upload.sh");
    std::fs::write(&script, MOVER).unwrap();
    let config = dir.path().join("babelftp.toml");
    std::fs::write(
        &config,
        format!(
            "[[hook]]\ncommand = \"sh {}\"\nevents = [\"upload\"]\npath = \"/incoming/**\"\ntimeout_ms = 5000\n",
            script.display()
        ),
    )
    .unwrap();
    let srv = Serve::start_logged(
        &root,
        &["--config", config.to_str().unwrap(), "--user", "bob:pw"],
        &[("FTP_ROOT", root.to_str().unwrap()), ("DONE", done.to_str().unwrap())],
        Some(&dir.path().join("serve.log")),
    );
    let seen = ftplib(
        srv.addr,
        "bob",
        "pw",
        "latin-1",
        &format!("{NAMES}ftp.storbinary('STOR /incoming/' + U, io.BytesIO(b'utf'))\nftp.storbinary('STOR /incoming/' + C, io.BytesIO(b'cp1251'))\nftp.storbinary('STOR /elsewhere.txt', io.BytesIO(b'stays'))\nprint('UP')"),
    );
    assert!(seen.contains("UP"), "{seen}");
    let want = [
        ("данные-日本.txt".as_bytes().to_vec(), b"utf".to_vec()),
        (b"\xee\xf2\xf7\xb8\xf2.txt".to_vec(), b"cp1251".to_vec()),
    ];
    let t0 = Instant::now();
    use std::os::unix::ffi::OsStrExt;
    loop {
        let mut moved: Vec<(Vec<u8>, Vec<u8>)> = std::fs::read_dir(&done)
            .map(|d| {
                d.map(|e| {
                    let e = e.unwrap();
                    (e.file_name().as_bytes().to_vec(), std::fs::read(e.path()).unwrap())
                })
                .collect()
            })
            .unwrap_or_default();
        moved.sort();
        let mut w = want.to_vec();
        w.sort();
        if moved == w {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "moved: {moved:?}\n{}",
            std::fs::read_to_string(dir.path().join("serve.log")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(std::fs::read_dir(root.join("incoming")).unwrap().count(), 0);
    assert!(
        root.join("elsewhere.txt").is_file(),
        "outside /incoming: not the hook's"
    );
}

#[test]
fn serve_hook_tells_refused_logins_and_the_ban_they_cause() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let receiver = Receiver::start();
    let config = dir.path().join("babelftp.toml");
    std::fs::write(
        &config,
        "login_fail_delay_ms = 0\n\n[defender]\nthreshold = 3\nallow = []\n",
    )
    .unwrap();
    let url = format!("http://{}/events", receiver.addr);
    let srv = Serve::start(
        &root,
        &[
            "--config",
            config.to_str().unwrap(),
            "--user",
            "carol:pw",
            "--hook",
            &url,
        ],
    );
    for _ in 0..3 {
        let seen = ftplib(srv.addr, "carol", "wrong", "latin-1", "print('IN')");
        assert!(seen.contains("LOGIN-REFUSED"), "{seen}");
    }
    // Events of different sessions go out in parallel: the ban may come
    // before the third refusal's event.
    let events = receiver.wait("the ban and three refusals", |ev| {
        ev.iter().any(|e| e["event"] == "ban") && ev.iter().filter(|e| e["event"] == "login_failed").count() >= 3
    });
    let failed = events.iter().filter(|e| e["event"] == "login_failed").count();
    assert_eq!(failed, 3, "{events:#?}");
    let ban = events.iter().find(|e| e["event"] == "ban").unwrap();
    assert_eq!(ban["client_address"], "127.0.0.1");
    assert_eq!(ban["reason"], "failed logins");
    assert_eq!(ban["ban_seconds"], 900);
    assert!(ban.get("session").is_none() && ban.get("user").is_none(), "{ban}");
    // No secret: no signature header.
    assert!(receiver.bodies().iter().all(|g| g.signature.is_empty()));
}

#[test]
fn a_command_pipelined_behind_an_upload_comes_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let receiver = Receiver::start();
    let url = format!("http://{}/events", receiver.addr);
    let srv = Serve::start(&root, &["--user", "dan:pw", "--hook", &url]);
    // STOR and DELE in one write: the DELE is read while the upload runs.
    let seen = ftplib(
        srv.addr,
        "dan",
        "pw",
        "latin-1",
        "import socket\nftp.voidcmd('TYPE I')\nhost, port = ftp.makepasv()\nd = socket.create_connection((host, port))\nftp.sock.sendall(b'STOR p.txt\\r\\nDELE p.txt\\r\\n')\nprint(ftp.getline())\nd.sendall(b'abc'); d.close()\nprint(ftp.getline()); print(ftp.getline())\nftp.quit()",
    );
    assert!(seen.contains("226") && seen.contains("250"), "{seen}");
    let events = receiver.wait("the pipelined session", |ev| ev.iter().any(|e| e["event"] == "logout"));
    let session = events[0]["session"].as_str().unwrap();
    assert_eq!(kinds(&events, session), ["login", "upload", "delete", "logout"]);
    let upload = events.iter().find(|e| e["event"] == "upload").unwrap();
    assert_eq!((upload["bytes"].as_u64(), upload["size"].as_u64()), (Some(3), Some(3)));
}

#[test]
fn a_session_under_tls_is_ftps() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let (cert, key) = babelftp_test_support::certificate(dir.path());
    let receiver = Receiver::start();
    let url = format!("http://{}/events", receiver.addr);
    let srv = Serve::start(
        &root,
        &[
            "--user",
            "eve:pw",
            "--hook",
            &url,
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    let port = srv.addr.port();
    let out = Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import ftplib, ssl\nf = ftplib.FTP_TLS(context=ssl._create_unverified_context())\nf.connect('127.0.0.1', {port}, timeout=20)\nf.login('eve', 'pw')\nf.mkd('tls-dir')\nf.quit()\nprint('OK')"
        ))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("OK"), "{out:?}");
    let events = receiver.wait("the FTPS session", |ev| ev.iter().any(|e| e["event"] == "logout"));
    let session = events[0]["session"].as_str().unwrap();
    assert_eq!(kinds(&events, session), ["login", "mkdir", "logout"]);
    assert!(events.iter().all(|e| e["protocol"] == "ftps"), "{events:#?}");
}

/// The value of the sample `name` (with its labels, as written) in the
/// text of `/metrics` at `url`; `None` when absent.
fn sample(url: &str, name: &str) -> Option<f64> {
    let (rc, body) = babelftp_test_support::curl(&[url]);
    assert_eq!(rc, 0, "curl {url}");
    let text = String::from_utf8_lossy(&body).into_owned();
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

/// A port of 127.0.0.1 nobody listens on.
fn closed_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[test]
fn metrics_show_the_events_waiting_the_hook_failures_and_the_web_requests() {
    // Issue 48 item 10, scraped with curl as Prometheus would.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let hook = format!("http://127.0.0.1:{}/events", closed_port());
    let srv = Serve::start(
        &root,
        &[
            "--user",
            "dan:pw",
            "--hook",
            &hook,
            "--metrics-listen",
            "127.0.0.1:0",
            "--http-listen",
            "127.0.0.1:0",
        ],
    );
    let line = srv.wait_for("metrics: http://");
    let metrics = line.split_whitespace().nth(1).unwrap().trim_end_matches(',').to_owned();
    let web = srv.url_after("web view: ");
    assert_eq!(sample(&metrics, "babelftp_events_pending"), Some(0.0));
    assert_eq!(
        sample(&metrics, "babelftp_hook_failures_total{hook=\"events\"}"),
        Some(0.0)
    );

    // A session's login and logout go to a hook that refuses connections:
    // they wait, and each try fails.
    let seen = ftplib(srv.addr, "dan", "pw", "utf-8", "print(ftp.pwd())\nftp.quit()");
    assert!(seen.contains('/'), "{seen}");
    babelftp_test_support::wait_until(Duration::from_secs(20), "events pending and failures", || {
        let pending = sample(&metrics, "babelftp_events_pending")?;
        let failed = sample(&metrics, "babelftp_hook_failures_total{hook=\"events\"}")?;
        (pending >= 2.0 && failed >= 1.0).then_some(())
    });

    // The web view's answers, by status class: a page, a missing page
    // (a visitor not logged in is asked to: 401), a bad method (405).
    let jar = dir.path().join("jar");
    assert_eq!(common::web::curl(&jar, &format!("{web}/?login"), &[]).status, 200);
    assert_eq!(common::web::curl(&jar, &format!("{web}/nothing/"), &[]).status, 401);
    assert_eq!(common::web::curl(&jar, &format!("{web}/"), &["-X", "PUT"]).status, 405);
    assert_eq!(
        sample(&metrics, "babelftp_web_requests_total{status=\"2xx\"}"),
        Some(1.0)
    );
    assert_eq!(
        sample(&metrics, "babelftp_web_requests_total{status=\"4xx\"}"),
        Some(2.0)
    );
    drop(srv);

    // An auth hook that does not answer: each login it cannot answer is
    // a failure of the auth hook (and refused).
    let auth = format!("http://127.0.0.1:{}/auth", closed_port());
    let srv = Serve::start(&root, &["--auth-hook", &auth, "--metrics-listen", "127.0.0.1:0"]);
    let line = srv.wait_for("metrics: http://");
    let metrics = line.split_whitespace().nth(1).unwrap().trim_end_matches(',').to_owned();
    assert_eq!(
        sample(&metrics, "babelftp_hook_failures_total{hook=\"auth\"}"),
        Some(0.0)
    );
    let seen = ftplib(srv.addr, "erin", "pw", "utf-8", "print('IN')");
    assert!(seen.contains("LOGIN-REFUSED 530"), "{seen}");
    assert_eq!(
        sample(&metrics, "babelftp_hook_failures_total{hook=\"auth\"}"),
        Some(1.0)
    );
}
