//! Issue 45, item 7 (server correctness), with the real binary and real
//! clients (ftplib, curl) on every door each concerns:
//! - a name in the server's temporary-upload pattern (`.babelftp-*.part`)
//!   is refused from clients, FTP (STOR, STOU, APPE, RNTO, MKD) and web
//!   (upload, new folder, rename), in the client's language;
//! - an IPv6 client is scored and banned per /64 (FTP through PROXY
//!   protocol, which can name any address; FTP and web on `[::1]`), and
//!   `babelftp ban` lists and lifts the network;
//! - a rate-limited download cut short is recorded with the octets it
//!   sent, in the xferlog, the log, the event and the admin API;
//! - an upload into a `--dir-charset` folder gives hooks the stored octets:
//!   the guide's own mover script moves it (FTP and web);
//! - a folder outside the root is swept of an earlier run's leftovers.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use crate::common;
use common::serve::{ftplib, python, run, Serve};
use common::web::{curl, curl_from, login_from, post, Answer};

/// Logs in through the web form from `source`; the answer after the
/// redirect.
fn web_login(source: &str, jar: &Path, base: &str, user: &str, password: &str) -> Answer {
    login_from(source, jar, base, "/", user, password, &[])
}

fn wait_until<T>(what: &str, f: impl FnMut() -> Option<T>) -> T {
    babelftp_test_support::wait_until(Duration::from_secs(20), what, f)
}

/// The names in `dir` that are in the temporary-upload pattern.
fn temp_names(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with(".babelftp-") && name.ends_with(".part") {
            found.push(name);
        }
        if e.file_type().unwrap().is_dir() {
            found.extend(temp_names(&e.path()));
        }
    }
    found
}

// ---------------------------------------------------------------------
// 1. The temporary-upload pattern is the server's own.

#[test]
fn names_in_the_temporary_upload_pattern_are_refused_on_ftp_and_web() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(root.join("a.txt"), "a").unwrap();
    let srv = Serve::start(&root, &["--user", "alice:pw", "--http-listen", "127.0.0.1:0"]);
    let base = srv.url_after("web view: ");

    let out = ftplib(
        srv.addr,
        "alice",
        "pw",
        "utf-8",
        r#"
def code(f):
    try:
        r = f()
        return r if isinstance(r, str) else 'OK'
    except ftplib.Error as e:
        return str(e)
print('STOR', code(lambda: ftp.storbinary('STOR .babelftp-1-0.part', io.BytesIO(b'x'))))
print('SUB', code(lambda: ftp.storbinary('STOR /sub/.babelftp-1-1.part', io.BytesIO(b'x'))))
print('APPE', code(lambda: ftp.storbinary('APPE .babelftp-2-0.part', io.BytesIO(b'x'))))
print('STOU', code(lambda: ftp.sendcmd('STOU .babelftp-3-0.part')))
print('MKD', code(lambda: ftp.mkd('.babelftp-4.part')))
ftp.sendcmd('RNFR a.txt')
print('RNTO', code(lambda: ftp.sendcmd('RNTO .babelftp-5-0.part')))
print('NEAR', code(lambda: ftp.storbinary('STOR .babelftp-notes.txt', io.BytesIO(b'x'))))
ftp.sendcmd('LANG fr')
print('FR', code(lambda: ftp.mkd('.babelftp-6.part')))
"#,
    );
    let en = "553 This name is kept for the server's temporary upload files";
    for cmd in ["STOR", "SUB", "APPE", "STOU", "MKD", "RNTO"] {
        assert!(out.contains(&format!("{cmd} {en}")), "{cmd}:\n{out}");
    }
    // Only the pattern: a name that merely starts alike is a name.
    assert!(out.contains("NEAR 226"), "{out}");
    assert!(
        out.contains("FR 553 Ce nom est réservé"),
        "in the client's language:\n{out}"
    );
    assert!(temp_names(&root).is_empty(), "{:?}", temp_names(&root));
    assert!(root.join("a.txt").is_file(), "the RNFR's file stays");

    // The web view: upload (form and script), new folder, rename.
    let jar = dir.path().join("jar");
    let r = web_login("127.0.0.1", &jar, &base, "alice", "pw");
    assert_eq!(r.status, 200, "{}", r.body);
    let t = r.token("upload");
    let local = dir.path().join("local.bin");
    std::fs::write(&local, "web").unwrap();
    let web_en = "That name is kept for the server&#39;s temporary upload files";
    let web_en_plain = "That name is kept for the server's temporary upload files";
    let refused = |r: &Answer, what: &str| {
        assert_eq!(r.status, 400, "{what}: {}", r.body);
        assert!(
            r.body.contains(web_en) || r.body.contains(web_en_plain),
            "{what}: {}",
            r.body
        );
    };
    let r = curl(
        &jar,
        &format!("{base}/sub/?upload"),
        &[
            "-F",
            &format!("csrf={t}"),
            "-F",
            &format!("file=@{};filename=.babelftp-7-0.part", local.display()),
        ],
    );
    refused(&r, "form upload");
    let r = curl(
        &jar,
        &format!("{base}/.babelftp-8-0.part?upload"),
        &["-H", &format!("X-CSRF-Token: {t}"), "--data-binary", "x"],
    );
    refused(&r, "script upload");
    let r = post(&jar, &format!("{base}/?mkdir"), &t, &["name=.babelftp-9.part"], &[]);
    refused(&r, "new folder");
    let r = post(
        &jar,
        &format!("{base}/a.txt?rename"),
        &t,
        &["to=.babelftp-10-0.part"],
        &[],
    );
    refused(&r, "rename");
    // In the visitor's language too.
    let r = post(
        &jar,
        &format!("{base}/?mkdir"),
        &t,
        &["name=.babelftp-11.part"],
        &["-H", "Accept-Language: de"],
    );
    assert_eq!(r.status, 400);
    assert!(r.body.contains("Upload-Dateien des Servers vorbehalten"), "{}", r.body);
    assert!(temp_names(&root).is_empty(), "{:?}", temp_names(&root));
    assert!(root.join("a.txt").is_file());
    // What is not the pattern still works on this door.
    let r = post(&jar, &format!("{base}/?mkdir"), &t, &["name=.babelftp-notes"], &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(root.join(".babelftp-notes").is_dir());
}

// ---------------------------------------------------------------------
// 2. An IPv6 client is its /64.

/// Through the PROXY protocol (from 127.0.0.1, which the server trusts),
/// connections that claim to come from each IPv6 address of `steps`: each
/// (address, wrong passwords to send); prints per address what happened
/// (`530`, `421`, or `CLOSED` before the banner, `BANNER` with 0 tries).
fn proxied(addr: SocketAddr, steps: &[(&str, u32)]) -> String {
    let steps: Vec<String> = steps.iter().map(|(a, n)| format!("({a:?}, {n})")).collect();
    python(&format!(
        r#"
import socket
for src, tries in [{steps}]:
    s = socket.create_connection(({ip:?}, {port}), timeout=10)
    s.sendall(('PROXY TCP6 %s 2001:db8::21 40000 21\r\n' % src).encode())
    f = s.makefile('rb')
    line = f.readline()
    if not line:
        print(src, 'CLOSED'); s.close(); continue
    assert line.startswith(b'220'), line
    if tries == 0:
        print(src, 'BANNER')
    for i in range(tries):
        s.sendall(b'USER victim\r\n')
        if not f.readline().startswith(b'331'):
            break
        s.sendall(b'PASS wrong\r\n')
        print(src, f.readline()[:3].decode())
    s.close()
"#,
        steps = steps.join(", "),
        ip = addr.ip().to_string(),
        port = addr.port()
    ))
}

#[test]
fn an_ipv6_client_is_scored_and_banned_per_64_and_ipv4_per_address() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let conf = dir.path().join("babelftp.toml");
    let write = |extra: &str| {
        std::fs::write(
            &conf,
            format!(
                "login_fail_delay_ms = 10\nproxy_protocol_from = [\"127.0.0.1\"]\n[defender]\nthreshold = 4\nallow = []\n{extra}"
            ),
        )
        .unwrap();
    };
    write("");
    let srv = Serve::start(&root, &["--config", conf.to_str().unwrap()]);
    // Two addresses of one /64 add up: 2 + 2 bans the /64, an address of
    // it never seen before is closed at once; the next /64 is not.
    let seen = proxied(
        srv.addr,
        &[
            ("2001:db8:1:2::a", 2),
            ("2001:db8:1:2::b", 2),
            ("2001:db8:1:2:ffff:ffff:ffff:1", 0),
            ("2001:db8:1:3::a", 0),
        ],
    );
    assert!(seen.contains("2001:db8:1:2::b 421"), "the 4th failure bans:\n{seen}");
    assert!(seen.contains("2001:db8:1:2:ffff:ffff:ffff:1 CLOSED"), "{seen}");
    assert!(seen.contains("2001:db8:1:3::a BANNER"), "{seen}");
    // IPv4 stays per address.
    let seen = proxied_v4(srv.addr, &[("192.0.2.1", 2), ("192.0.2.2", 2), ("192.0.2.1", 0)]);
    assert!(!seen.contains("421") && !seen.contains("CLOSED"), "{seen}");
    drop(srv);

    // ipv6_prefix = 128: each address on its own (configurable).
    write("ipv6_prefix = 128\n");
    let srv = Serve::start(&root, &["--config", conf.to_str().unwrap()]);
    let seen = proxied(
        srv.addr,
        &[("2001:db8:1:2::a", 2), ("2001:db8:1:2::b", 2), ("2001:db8:1:2::c", 0)],
    );
    assert!(!seen.contains("421"), "{seen}");
    assert!(seen.contains("2001:db8:1:2::c BANNER"), "{seen}");
}

/// [`proxied`] with IPv4 clients.
fn proxied_v4(addr: SocketAddr, steps: &[(&str, u32)]) -> String {
    let steps: Vec<String> = steps.iter().map(|(a, n)| format!("({a:?}, {n})")).collect();
    python(&format!(
        r#"
import socket
for src, tries in [{steps}]:
    s = socket.create_connection(({ip:?}, {port}), timeout=10)
    s.sendall(('PROXY TCP4 %s 192.0.2.200 40000 21\r\n' % src).encode())
    f = s.makefile('rb')
    line = f.readline()
    if not line:
        print(src, 'CLOSED'); s.close(); continue
    if tries == 0:
        print(src, 'BANNER')
    for i in range(tries):
        s.sendall(b'USER victim\r\nPASS wrong\r\n')
        f.readline()
        print(src, f.readline()[:3].decode())
    s.close()
"#,
        steps = steps.join(", "),
        ip = addr.ip().to_string(),
        port = addr.port()
    ))
}

/// Whether a connection from `::1` to `addr` gets the FTP banner, after
/// `tries` wrong passwords on it (printed: 530/421 each).
fn from_v6_loopback(addr: SocketAddr, tries: u32) -> String {
    python(&format!(
        r#"
import socket
s = socket.socket(socket.AF_INET6)
s.settimeout(10)
s.bind(('::1', 0))
s.connect(('::1', {port}))
f = s.makefile('rb')
line = f.readline()
if not line:
    print('CLOSED')
else:
    print('BANNER')
    for i in range({tries}):
        s.sendall(b'USER victim\r\nPASS wrong\r\n')
        f.readline()
        print(f.readline()[:3].decode())
"#,
        port = addr.port()
    ))
}

#[test]
fn failures_on_every_door_from_ipv6_ban_its_64_which_ban_lists_and_lifts() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let (code, out, err) = run(&["user", "add", "good", "--db", &db], "good-secret\n");
    assert_eq!(code, 0, "{out}{err}");
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(
        &conf,
        format!("db = {db:?}\nlogin_fail_delay_ms = 10\n[defender]\nthreshold = 4\nban_time = 600\nallow = []\nconnections_per_second = 1000\n"),
    )
    .unwrap();
    let srv = Serve::start(
        &root,
        &[
            "--config",
            conf.to_str().unwrap(),
            "--listen",
            "[::1]:0",
            "--http-listen",
            "[::1]:0",
            "--admin-listen",
            "[::1]:0",
        ],
    );
    let line = srv.wait_for("ftp://[::1]:");
    let port: u16 = line
        .split("ftp://[::1]:")
        .nth(1)
        .unwrap()
        .trim_end_matches('/')
        .parse()
        .unwrap();
    let v6: SocketAddr = format!("[::1]:{port}").parse().unwrap();
    let (mut base, mut api) = (String::new(), String::new());
    while base.is_empty() || api.is_empty() {
        let line = srv.wait_for("http://[::1]:");
        let url = line.split_whitespace().find(|w| w.starts_with("http")).unwrap();
        let url = url.trim_end_matches('/').to_owned();
        if line.contains("web view") {
            base = url;
        } else if line.contains("admin API") {
            api = url;
        }
    }

    // A wrong password on the web door, a wrong token on the admin API,
    // two wrong passwords on FTP: one client, banned at the fourth.
    let jar = dir.path().join("jar");
    let r = web_login("::1", &jar, &base, "good", "wrong");
    assert_eq!(r.status, 401, "{}", r.body);
    let r = curl_from(
        "::1",
        &jar,
        &format!("{api}/sessions"),
        &["-H", "Authorization: Bearer bftp_wrong"],
    );
    assert_eq!(r.status, 401, "{}", r.body);
    let seen = from_v6_loopback(v6, 2);
    assert!(seen.contains("421"), "the 4th failure bans:\n{seen}");
    assert!(from_v6_loopback(v6, 0).contains("CLOSED"));
    assert_eq!(
        curl_from("::1", &jar, &format!("{base}/?login"), &[]).status,
        0,
        "the web door closes it too"
    );
    assert_eq!(
        curl_from("::1", &jar, &format!("{api}/sessions"), &[]).status,
        0,
        "and the admin API"
    );
    // Listed as the network.
    let listed = wait_until("the ban in the store", || {
        let (code, listed, _) = run(&["ban", "list", "--db", &db], "");
        assert_eq!(code, 0);
        (!listed.is_empty()).then_some(listed)
    });
    assert!(listed.starts_with("::/64\t"), "{listed}");
    assert!(listed.contains("failed logins"), "{listed}");
    // An address inside it lifts it, saying which.
    let (code, out, err) = run(&["ban", "rm", "::1", "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("::/64 is no longer banned"), "{out}");
    wait_until("the lifted ban to reach the server", || {
        from_v6_loopback(v6, 0).contains("BANNER").then_some(())
    });
    // A network is added and lifted by its name; a bad one is said so.
    let (code, out, err) = run(&["ban", "add", "2001:db8:5:6::99/64", "--for", "1h", "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2001:db8:5:6::/64 is banned"), "{out}");
    let (code, listed, _) = run(&["ban", "list", "--db", &db], "");
    assert_eq!(code, 0);
    assert!(listed.starts_with("2001:db8:5:6::/64\t"), "{listed}");
    let (code, out, _) = run(&["ban", "rm", "2001:db8:5:6::/64", "--db", &db], "");
    assert_eq!(code, 0);
    assert!(out.contains("2001:db8:5:6::/64 is no longer banned"), "{out}");
    let (code, _, err) = run(&["ban", "add", "2001:db8::/200", "--db", &db], "");
    assert_ne!(code, 0);
    assert!(err.contains("is not an IP address or network"), "{err}");
}

// ---------------------------------------------------------------------
// 3. A rate-limited download cut short.

#[test]
fn a_rate_limited_download_cut_short_records_the_octets_it_sent() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let file: Vec<u8> = (0..4u32 << 20).map(|i| (i % 251) as u8).collect();
    std::fs::write(root.join("big.bin"), &file).unwrap();
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let (code, out, err) = run(&["user", "add", "slow", "--home", "/", "--db", &db], "slow-secret\n");
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = run(&["user", "set", "slow", "--download-rate", "200KiB/s", "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");
    let (code, tok, err) = run(&["admin", "token", "create", "--name", "ci", "--db", &db], "");
    assert_eq!(code, 0, "{err}");
    let tok = tok.trim().to_owned();
    let events = dir.path().join("events.jsonl");
    let xferlog = dir.path().join("xferlog");
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(
        &conf,
        format!(
            "db = {db:?}\nxferlog = {:?}\n[[hook]]\ncommand = {:?}\nevents = [\"download\"]\n",
            xferlog.display().to_string(),
            format!("cat >> '{}'; echo >> '{}'", events.display(), events.display())
        ),
    )
    .unwrap();
    let log = dir.path().join("serve.log");
    let srv = Serve::start_logged(
        &root,
        &["--config", conf.to_str().unwrap(), "--admin-listen", "127.0.0.1:0"],
        &[("BABELFTP_LOG", "info")],
        Some(&log),
    );
    let api = srv.url_after("admin API: ");
    // Reads 400,000 octets at the user's 200 KiB/s, asking the admin API
    // about the transfer on the way, then closes the data connection.
    let out = python(&format!(
        r#"
import ftplib, json, urllib.request
ftp = ftplib.FTP()
ftp.connect({ip:?}, {port}, timeout=30)
ftp.login('slow', 'slow-secret')
ftp.voidcmd('TYPE I')
conn = ftp.transfercmd('RETR big.bin')
got, live = 0, None
while got < 400000:
    d = conn.recv(65536)
    if not d:
        break
    got += len(d)
    if live is None and got >= 150000:
        req = urllib.request.Request({api:?} + '/sessions', headers={{'Authorization': 'Bearer ' + {tok:?}}})
        live = json.load(urllib.request.urlopen(req, timeout=10))
conn.close()
try:
    print('REPLY', ftp.voidresp())
except ftplib.Error as e:
    print('REPLY', e)
print('GOT', got)
print('LIVE', json.dumps(live))
ftp.quit()
"#,
        ip = srv.addr.ip().to_string(),
        port = srv.addr.port(),
    ));
    let got: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("GOT "))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(got >= 400_000, "{out}");
    // What was sent: at least what arrived, less than the file, and not
    // more than what the sockets can hold beyond it.
    let sane = |bytes: u64, what: &str| {
        assert!(
            bytes >= got && bytes < file.len() as u64 && bytes <= got + (1 << 20),
            "{what}: {bytes} recorded, {got} received\n{out}"
        );
    };
    // The xferlog: `… seconds host bytes path … i` (cut short).
    let line = wait_until("the xferlog line", || {
        std::fs::read_to_string(&xferlog).ok().filter(|t| t.contains("big.bin"))
    });
    let f: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(f[8], "/big.bin", "{line}");
    assert_eq!(f.last(), Some(&"i"), "incomplete: {line}");
    sane(f[7].parse().unwrap(), "xferlog");
    // The log.
    let logged = wait_until("the log line", || {
        std::fs::read_to_string(&log)
            .ok()?
            .lines()
            .find(|l| l.contains("download cut short"))
            .map(str::to_owned)
    });
    let n = logged
        .split("bytes=")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    sane(n.parse().unwrap(), "log");
    // The event.
    let ev = wait_until("the download event", || {
        std::fs::read_to_string(&events)
            .ok()?
            .lines()
            .find(|l| !l.trim().is_empty())
            .map(str::to_owned)
    });
    let ev: serde_json::Value = serde_json::from_str(&ev).unwrap();
    assert_eq!(ev["outcome"], "cut_short", "{ev}");
    sane(ev["bytes"].as_u64().unwrap(), "event");
    // The admin API, while it ran.
    let live: serde_json::Value =
        serde_json::from_str(out.lines().find_map(|l| l.strip_prefix("LIVE ")).unwrap()).unwrap();
    let t = live
        .as_array()
        .unwrap()
        .iter()
        .find_map(|s| s.get("transfer").filter(|t| !t.is_null()))
        .unwrap_or_else(|| panic!("no transfer listed: {live}"));
    let bytes = t["bytes"].as_u64().unwrap();
    assert!(
        bytes >= 100_000 && bytes <= got + (1 << 20),
        "admin API: {bytes} while {got} had arrived"
    );
}

// ---------------------------------------------------------------------
// 4. The guide's mover, in a --dir-charset folder.

/// The guide's own `on-upload.sh` (the block that starts with it, in
/// docs/guide/src/events.md).
fn readme_mover() -> String {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/guide/src/events.md")).unwrap();
    let start = readme
        .find("```sh\n#!/bin/sh\n# on-upload.sh")
        .expect("the guide's mover script");
    let body = &readme[start + "```sh\n".len()..];
    body[..body.find("```").unwrap()].to_owned()
}

#[test]
fn uploads_into_a_dir_charset_folder_give_hooks_the_stored_octets_and_the_readme_mover_works() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("koi")).unwrap();
    let done = dir.path().join("done");
    let script = dir.path().join("on-upload.sh");
    std::fs::write(&script, readme_mover()).unwrap();
    let events = dir.path().join("events.jsonl");
    let config = dir.path().join("babelftp.toml");
    std::fs::write(
        &config,
        format!(
            "[[hook]]\ncommand = \"sh {}\"\nevents = [\"upload\"]\npath = \"/koi/**\"\ntimeout_ms = 5000\n\n[[hook]]\ncommand = {:?}\nevents = [\"upload\"]\n",
            script.display(),
            format!("cat >> '{}'; echo >> '{}'", events.display(), events.display())
        ),
    )
    .unwrap();
    let srv = Serve::start_logged(
        &root,
        &[
            "--config",
            config.to_str().unwrap(),
            "--user",
            "bob:pw",
            "--dir-charset",
            "/koi=koi8-r",
            "--http-listen",
            "127.0.0.1:0",
        ],
        &[("FTP_ROOT", root.to_str().unwrap()), ("DONE", done.to_str().unwrap())],
        Some(&dir.path().join("serve.log")),
    );
    let base = srv.url_after("web view: ");
    // Over FTP (UTF-8), and through the web view.
    let out = ftplib(
        srv.addr,
        "bob",
        "pw",
        "utf-8",
        "ftp.storbinary('STOR /koi/Привет.txt', io.BytesIO(b'ftp'))\nprint('UP')",
    );
    assert!(out.contains("UP"), "{out}");
    let jar = dir.path().join("jar");
    let r = web_login("127.0.0.1", &jar, &base, "bob", "pw");
    assert_eq!(r.status, 200, "{}", r.body);
    let t = r.token("upload");
    let r = curl(
        &jar,
        &format!("{base}/koi/%D0%9C%D0%B8%D1%80.txt?upload"),
        &["-H", &format!("X-CSRF-Token: {t}"), "--data-binary", "web"],
    );
    assert_eq!(r.status, 201, "{}", r.body);
    // Both moved out by the guide's script, their KOI8-R names intact.
    let want = [
        (b"\xED\xC9\xD2.txt".to_vec(), b"web".to_vec()),
        (b"\xF0\xD2\xC9\xD7\xC5\xD4.txt".to_vec(), b"ftp".to_vec()),
    ];
    use std::os::unix::ffi::OsStrExt;
    wait_until("the mover to move both files", || {
        let mut moved: Vec<(Vec<u8>, Vec<u8>)> = std::fs::read_dir(&done)
            .ok()?
            .map(|e| {
                let e = e.unwrap();
                (e.file_name().as_bytes().to_vec(), std::fs::read(e.path()).unwrap())
            })
            .collect();
        moved.sort();
        (moved == want).then_some(())
    });
    assert_eq!(std::fs::read_dir(root.join("koi")).unwrap().count(), 0);
    // The events: the stored octets, as `path_hex` says them. The second
    // hook runs apart from the mover: it may write after the mover moved.
    let hexes = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.trim().is_empty())
            // A line being written is not read yet.
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|e| e["path_hex"].as_str().map(str::to_owned))
            .collect()
    };
    let want = ["/koi/%F0%D2%C9%D7%C5%D4.txt", "/koi/%ED%C9%D2.txt"];
    wait_until("both upload events", || {
        let hex = hexes(&std::fs::read_to_string(&events).ok()?);
        want.iter().all(|w| hex.iter().any(|h| h == w)).then_some(())
    });
}

// ---------------------------------------------------------------------
// 5. Folders outside the root are swept too.

#[test]
fn a_folder_outside_the_root_is_swept_of_an_earlier_runs_leftovers() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let archive = dir.path().join("archive");
    std::fs::create_dir_all(archive.join("deep")).unwrap();
    let leftover = archive.join("deep/.babelftp-4242-0.part");
    std::fs::write(&leftover, "half an upload").unwrap();
    let hour_ago = SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&leftover)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    std::fs::write(archive.join("kept.txt"), "kept").unwrap();
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let (code, out, err) = run(&["user", "add", "carol", "--home", "/", "--db", &db], "carol-pw\n");
    assert_eq!(code, 0, "{out}{err}");
    // A folder outside the root is one the configuration allows.
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(
        &conf,
        format!(
            "db = {db:?}\nfsync = \"never\"\nallowed_sources = [{:?}]\n",
            archive.to_str().unwrap()
        ),
    )
    .unwrap();
    let (code, out, err) = run(
        &[
            "user",
            "mount",
            "carol",
            "/archive",
            archive.to_str().unwrap(),
            "--config",
            conf.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = run(&["user", "perm", "carol", "/", "read,upload", "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");
    let log = dir.path().join("serve.log");
    let srv = Serve::start_logged(
        &root,
        &["--config", conf.to_str().unwrap()],
        &[("BABELFTP_LOG", "info")],
        Some(&log),
    );
    let out = ftplib(
        srv.addr,
        "carol",
        "carol-pw",
        "utf-8",
        "print(ftp.nlst('/archive'))\nftp.storbinary('STOR /archive/new.txt', io.BytesIO(b'new'))\nprint('UP')",
    );
    assert!(out.contains("kept.txt") && out.contains("UP"), "{out}");
    let t0 = Instant::now();
    while leftover.exists() {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the leftover in the folder outside the root is still there\n{}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(std::fs::read(archive.join("new.txt")).unwrap(), b"new");
    assert!(archive.join("kept.txt").is_file());
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(
        said.lines()
            .any(|l| l.contains("removed temporary files of interrupted uploads") && l.contains("archive")),
        "{said}"
    );
}
