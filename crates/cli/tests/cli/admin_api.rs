//! The admin API (issue 30), driven with curl against `babelftp serve
//! --admin-listen`: 401 without a token and with a wrong one; a live
//! ftplib session listed and ended (421); a user created through the API
//! logs in over FTP; a ban added through it refuses the address, lifted
//! lets it in, and the API's own listener closes a banned address (HTTP
//! and HTTPS); wrong tokens are scored as failed logins and ban; changes
//! are logged with the token's name; the OpenAPI
//! document is served; HTTPS with the FTPS certificate.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::BufRead;
use std::net::SocketAddr;
use std::process::{Command, Stdio};

use crate::common;
use common::serve::{run, Serve};
use serde_json::Value;

/// `curl` METHOD URL with `token` (if any) and a JSON `body` (if any):
/// (HTTP status, body).
fn curl(method: &str, url: &str, token: Option<&str>, body: Option<&str>) -> (u16, String) {
    curl_from("127.0.0.1", method, url, token, body)
}

/// [`curl`] from the loopback address `source`; status 0 when no answer
/// came (the connection was closed).
fn curl_from(source: &str, method: &str, url: &str, token: Option<&str>, body: Option<&str>) -> (u16, String) {
    let mut cmd = Command::new("curl");
    cmd.args(["-sS", "-k", "-X", method, "-w", "\n%{http_code}", "--max-time", "20"]);
    cmd.args(["--interface", source]);
    if let Some(t) = token {
        cmd.args(["-H", &format!("Authorization: Bearer {t}")]);
    }
    if let Some(b) = body {
        cmd.args(["-H", "Content-Type: application/json", "--data-binary", b]);
    }
    let out = cmd
        .arg(url)
        .output()
        .expect("curl must be installed (scripts/test.sh installs it)");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (body, code) = text.rsplit_once('\n').unwrap_or(("", &text));
    (code.trim().parse().unwrap_or(0), body.to_owned())
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
}

/// An accounts store with `alice`, an admin token named `ci`, and the
/// server on it with the admin API; (server, API base URL, token, log).
fn setup(dir: &std::path::Path, extra: &[&str]) -> (Serve, String, String, std::path::PathBuf) {
    let root = dir.join("root");
    std::fs::create_dir_all(&root).unwrap();
    let db = format!("sqlite:{}", dir.join("accounts.db").display());
    let (code, out, err) = run(&["user", "add", "alice", "--home", "/", "--db", &db], "alice-pw\n");
    assert_eq!(code, 0, "{out}{err}");
    let (code, token, err) = run(&["admin", "token", "create", "--name", "ci", "--db", &db], "");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("shown this once"), "{err}");
    let token = token.trim().to_owned();
    assert!(token.starts_with("bftp_"), "{token}");
    let (code, listed, _) = run(&["admin", "token", "list", "--db", &db], "");
    assert_eq!(code, 0);
    assert!(listed.starts_with("ci\t"), "{listed}");
    assert!(!listed.contains(&token), "a token is shown once");
    let conf = dir.join("babelftp.toml");
    // Loopback is scored too, so that a ban of 127.0.0.5 holds; curl's
    // connections, quicker than 20 a second, are no flood here (that is
    // http_limits.rs's).
    std::fs::write(
        &conf,
        format!("db = {db:?}\nlogin_fail_delay_ms = 10\n[defender]\nallow = []\nconnections_per_second = 1000\n"),
    )
    .unwrap();
    let log = dir.join("server.log");
    let mut args = vec!["--config", conf.to_str().unwrap(), "--admin-listen", "127.0.0.1:0"];
    args.extend_from_slice(extra);
    let srv = Serve::start_logged(&root, &args, &[("BABELFTP_LOG", "info")], Some(&log));
    let url = srv.url_after("admin API: ");
    (srv, url, token, log)
}

/// ftplib logged in as `user`, sending NOOP every 100 ms until the server
/// ends the session; prints `IN` once logged in, then how it ended.
fn live_session(addr: SocketAddr, user: &str, password: &str) -> std::process::Child {
    let script = format!(
        "import ftplib, time\nftp = ftplib.FTP()\nftp.connect({:?}, {}, timeout=20)\nftp.login({user:?}, {password:?})\nprint('IN', flush=True)\ntry:\n    for i in range(300):\n        time.sleep(0.1)\n        ftp.voidcmd('NOOP')\n    print('STILL-OPEN')\nexcept ftplib.error_temp as e:\n    print('ENDED', e)\nexcept (EOFError, OSError) as e:\n    print('CLOSED', e)\n",
        addr.ip().to_string(),
        addr.port()
    );
    Command::new("python3")
        .arg("-c")
        .arg(script)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Whether `user` logs in from `source` (a loopback address).
fn logs_in(addr: SocketAddr, source: &str, user: &str, password: &str) -> bool {
    let script = format!(
        "import ftplib\ntry:\n    ftp = ftplib.FTP(source_address=({source:?}, 0))\n    ftp.connect({:?}, {}, timeout=10)\n    ftp.login({user:?}, {password:?})\n    print('IN')\n    ftp.quit()\nexcept Exception as e:\n    print('REFUSED', e)\n",
        addr.ip().to_string(),
        addr.port()
    );
    let out = Command::new("python3").arg("-c").arg(script).output().unwrap();
    String::from_utf8_lossy(&out.stdout).contains("IN")
}

#[test]
fn the_admin_api_lists_and_ends_sessions_and_manages_users_groups_and_bans() {
    let dir = tempfile::tempdir().unwrap();
    let (srv, api, token, log) = setup(dir.path(), &[]);
    assert!(api.starts_with("http://127.0.0.1:"), "{api}");
    let t = Some(token.as_str());

    // No token, a wrong one, another scheme: 401, on every path.
    for (tok, path) in [
        (None, "/status"),
        (Some("bftp_0000"), "/status"),
        (Some(""), "/users"),
        (None, "/openapi.json"),
        (None, "/no-such-thing"),
    ] {
        let (code, body) = curl("GET", &format!("{api}{path}"), tok, None);
        assert_eq!(code, 401, "{path}: {body}");
        assert!(json(&body)["error"].is_string(), "{body}");
    }
    let out = Command::new("curl")
        .args([
            "-s",
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
            "-u",
            &format!("x:{token}"),
        ])
        .arg(format!("{api}/status"))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "401", "Basic is no bearer token");
    let (code, body) = curl("DELETE", &format!("{api}/users/alice"), None, None);
    assert_eq!(code, 401, "{body}");

    let (code, body) = curl("GET", &format!("{api}/status"), t, None);
    assert_eq!(code, 200, "{body}");
    let st = json(&body);
    assert_eq!(st["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(st["draining"], false);

    // A live session is listed with its user, then ended: ftplib sees 421.
    let mut alice = live_session(srv.addr, "alice", "alice-pw");
    let mut lines = std::io::BufReader::new(alice.stdout.take().unwrap()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "IN");
    let (code, body) = curl("GET", &format!("{api}/sessions"), t, None);
    assert_eq!(code, 200, "{body}");
    let list = json(&body);
    let s = list
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["user"] == "alice")
        .unwrap_or_else(|| panic!("alice not among {body}"))
        .clone();
    assert!(s["client"].as_str().unwrap().starts_with("127.0.0.1:"), "{s}");
    assert_eq!(s["protocol"], "ftp", "{s}");
    assert!(s["since"].as_u64().unwrap() > 1_600_000_000, "{s}");
    assert!(s["transfer"].is_null(), "{s}");
    let id = s["id"].as_u64().unwrap();
    let (code, body) = curl("GET", &format!("{api}/status"), t, None);
    assert!(json(&body)["sessions"].as_u64().unwrap() >= 1, "{code} {body}");
    let (code, body) = curl("DELETE", &format!("{api}/sessions/{id}"), t, None);
    assert_eq!(code, 204, "{body}");
    let ended = lines.next().unwrap().unwrap();
    assert!(ended.starts_with("ENDED 421"), "{ended}");
    assert!(ended.contains("administrator"), "{ended}");
    alice.wait().unwrap();
    let (code, _) = curl("DELETE", &format!("{api}/sessions/{id}"), t, None);
    assert_eq!(code, 404);
    babelftp_test_support::wait_until(
        std::time::Duration::from_secs(10),
        "the session to leave the list",
        || {
            let (_, body) = curl("GET", &format!("{api}/sessions"), t, None);
            (!body.contains("\"alice\"")).then_some(())
        },
    );

    // A user created through the API logs in over FTP.
    let (code, body) = curl(
        "POST",
        &format!("{api}/users"),
        t,
        Some(
            r#"{"name": "bob", "password": "bob-secret", "home": "/", "permissions": {"/": "all"}, "limits": {"quota_bytes": 1000000}}"#,
        ),
    );
    assert_eq!(code, 201, "{body}");
    let bob = json(&body);
    assert_eq!(bob["permissions"]["/"], "all", "{body}");
    assert_eq!(bob["limits"]["quota_bytes"], 1_000_000, "{body}");
    assert!(!body.contains("bob-secret"), "{body}");
    assert!(logs_in(srv.addr, "127.0.0.1", "bob", "bob-secret"));
    assert!(!logs_in(srv.addr, "127.0.0.1", "bob", "wrong"));
    let (code, body) = curl(
        "POST",
        &format!("{api}/users"),
        t,
        Some(r#"{"name": "bob", "password": "another-password"}"#),
    );
    assert_eq!(code, 409, "{body}");
    let (code, body) = curl(
        "POST",
        &format!("{api}/users"),
        t,
        Some(r#"{"name": "b c", "password": "another-password"}"#),
    );
    assert_eq!(code, 400, "{body}");
    let (code, body) = curl("POST", &format!("{api}/users"), t, Some("{not json"));
    assert_eq!(code, 400, "{body}");
    // Created disabled: it exists, and cannot log in.
    let (code, body) = curl(
        "POST",
        &format!("{api}/users"),
        t,
        Some(r#"{"name": "carol", "password": "carol-pw", "home": "/", "disabled": true}"#),
    );
    assert_eq!(code, 201, "{body}");
    assert_eq!(json(&body)["disabled"], true, "{body}");
    assert!(!logs_in(srv.addr, "127.0.0.1", "carol", "carol-pw"));
    let (code, body) = curl("DELETE", &format!("{api}/users/carol"), t, None);
    assert_eq!(code, 204, "{body}");
    let (code, body) = curl("GET", &format!("{api}/users"), t, None);
    assert_eq!(code, 200);
    let users = json(&body);
    let names: Vec<&str> = users
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["alice", "bob"], "{body}");

    // Groups, and settings changed with PATCH (null clears).
    let (code, body) = curl(
        "POST",
        &format!("{api}/groups"),
        t,
        Some(r#"{"name": "staff", "lang": "fr", "limits": {"max_sessions": 3}}"#),
    );
    assert_eq!(code, 201, "{body}");
    let (code, body) = curl(
        "PATCH",
        &format!("{api}/users/bob"),
        t,
        Some(r#"{"group": "staff", "limits": {"quota_bytes": null, "quota_files": 10}, "password": "bob-secret2"}"#),
    );
    assert_eq!(code, 200, "{body}");
    let bob = json(&body);
    assert_eq!(bob["group"], "staff");
    assert!(bob["limits"]["quota_bytes"].is_null(), "{body}");
    assert_eq!(bob["limits"]["quota_files"], 10);
    assert!(logs_in(srv.addr, "127.0.0.1", "bob", "bob-secret2"));
    let (code, body) = curl("GET", &format!("{api}/groups/staff"), t, None);
    assert_eq!(code, 200, "{body}");
    assert_eq!(json(&body)["members"][0], "bob", "{body}");
    assert_eq!(json(&body)["limits"]["max_sessions"], 3, "{body}");
    let (code, body) = curl("DELETE", &format!("{api}/groups/staff"), t, None);
    assert_eq!(code, 409, "{body}");
    let (code, body) = curl("GET", &format!("{api}/users/bob/quota"), t, None);
    assert_eq!(code, 200, "{body}");
    let q = json(&body);
    assert_eq!(q["quota_files"], 10, "{body}");
    assert!(q["quota_bytes"].is_null(), "{body}");
    let (code, _) = curl("GET", &format!("{api}/users/nobody/quota"), t, None);
    assert_eq!(code, 404);
    let (code, body) = curl("PATCH", &format!("{api}/users/bob"), t, Some(r#"{"group": null}"#));
    assert_eq!(code, 200, "{body}");
    let (code, body) = curl("DELETE", &format!("{api}/groups/staff"), t, None);
    assert_eq!(code, 204, "{body}");
    let (code, body) = curl("DELETE", &format!("{api}/users/bob"), t, None);
    assert_eq!(code, 204, "{body}");
    assert!(!logs_in(srv.addr, "127.0.0.1", "bob", "bob-secret2"));
    let (code, _) = curl("GET", &format!("{api}/users/bob"), t, None);
    assert_eq!(code, 404);

    // A ban through the API refuses the address at once; lifted, it is let in.
    assert!(logs_in(srv.addr, "127.0.0.5", "alice", "alice-pw"));
    let (code, body) = curl(
        "POST",
        &format!("{api}/bans"),
        t,
        Some(r#"{"address": "127.0.0.5", "seconds": 3600, "reason": "test"}"#),
    );
    assert_eq!(code, 201, "{body}");
    assert!(!logs_in(srv.addr, "127.0.0.5", "alice", "alice-pw"));
    assert!(logs_in(srv.addr, "127.0.0.6", "alice", "alice-pw"));
    // The admin API's own listener closes the banned address too, token or not.
    let (code, body) = curl_from("127.0.0.5", "GET", &format!("{api}/status"), t, None);
    assert_eq!(code, 0, "a banned address got an answer: {body}");
    let (code, _) = curl_from("127.0.0.6", "GET", &format!("{api}/status"), t, None);
    assert_eq!(code, 200);
    let (code, body) = curl("GET", &format!("{api}/bans"), t, None);
    assert_eq!(code, 200);
    assert_eq!(json(&body)[0]["address"], "127.0.0.5", "{body}");
    assert_eq!(json(&body)[0]["reason"], "test", "{body}");
    let (code, body) = curl("POST", &format!("{api}/bans"), t, Some(r#"{"address": "nowhere"}"#));
    assert_eq!(code, 400, "{body}");
    let (code, body) = curl("DELETE", &format!("{api}/bans/127.0.0.5"), t, None);
    assert_eq!(code, 204, "{body}");
    assert!(logs_in(srv.addr, "127.0.0.5", "alice", "alice-pw"));
    let (code, _) = curl_from("127.0.0.5", "GET", &format!("{api}/status"), t, None);
    assert_eq!(code, 200);
    let (code, _) = curl("DELETE", &format!("{api}/bans/127.0.0.5"), t, None);
    assert_eq!(code, 404);

    // A wrong token is a failed login: 15 (the default threshold, 1 point
    // each) ban the address from the API and from FTP alike. Requests
    // without a token are refused but not scored.
    for _ in 0..20 {
        let (code, _) = curl_from("127.0.0.8", "GET", &format!("{api}/status"), None, None);
        assert_eq!(code, 401);
    }
    for i in 0..15 {
        let (code, body) = curl_from("127.0.0.7", "GET", &format!("{api}/status"), Some("bftp_guess"), None);
        assert_eq!(code, 401, "guess {i}: {body}");
    }
    let (code, _) = curl_from("127.0.0.7", "GET", &format!("{api}/status"), t, None);
    assert_eq!(code, 0, "the guesser is banned, even with the right token");
    assert!(!logs_in(srv.addr, "127.0.0.7", "alice", "alice-pw"));
    let (code, _) = curl_from("127.0.0.8", "GET", &format!("{api}/status"), t, None);
    assert_eq!(code, 200);
    let (code, body) = curl("GET", &format!("{api}/bans"), t, None);
    assert_eq!(code, 200);
    assert!(
        json(&body)
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["address"] == "127.0.0.7"),
        "{body}"
    );

    // The OpenAPI document.
    let (code, body) = curl("GET", &format!("{api}/openapi.json"), t, None);
    assert_eq!(code, 200);
    let doc = json(&body);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."), "{body}");
    assert!(doc["paths"]["/api/v1/sessions/{id}"]["delete"].is_object(), "{body}");

    // Every change is logged with the token's name; refusals too.
    let text = std::fs::read_to_string(&log).unwrap();
    for what in [
        "admin API: session ended",
        "admin API: user created",
        "admin API: user changed",
        "admin API: user removed",
        "admin API: group created",
        "admin API: group removed",
        "admin API: address banned",
        "admin API: ban lifted",
    ] {
        assert!(
            text.lines().any(|l| l.contains(what) && l.contains("token=ci")),
            "{what} not logged with the token's name:\n{text}"
        );
    }
    assert!(text.contains("admin API: request refused"), "{text}");
    assert!(!text.contains(&token), "the token itself is never logged");
    assert!(!text.contains("bob-secret"), "nor a password");

    // A removed token no longer opens anything.
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let (code, out, err) = run(&["admin", "token", "rm", "ci", "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");
    let (code, _) = curl("GET", &format!("{api}/status"), t, None);
    assert_eq!(code, 401);
    let (code, _, err) = run(&["admin", "token", "rm", "ci", "--db", &db], "");
    assert_ne!(code, 0);
    assert!(err.contains("no admin token"), "{err}");
}

/// The served OpenAPI document passes openapi-spec-validator (PyPI),
/// which scripts/moto.sh installs into target/moto beside moto.
#[test]
fn the_served_openapi_document_is_valid() {
    let tools = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/moto");
    assert!(
        tools.join("openapi_spec_validator").is_dir(),
        "openapi-spec-validator is not in {} (scripts/moto.sh installs it; scripts/test.sh runs it)",
        tools.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let (_srv, api, token, _) = setup(dir.path(), &[]);
    let (code, body) = curl("GET", &format!("{api}/openapi.json"), Some(&token), None);
    assert_eq!(code, 200, "{body}");
    let file = dir.path().join("openapi.json");
    std::fs::write(&file, &body).unwrap();
    let out = Command::new("python3")
        .args(["-m", "openapi_spec_validator"])
        .arg(&file)
        .env("PYTHONPATH", &tools)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("OK"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn the_admin_api_speaks_https_with_the_ftps_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = babelftp_test_support::certificate(dir.path());
    let (_srv, api, token, _) = setup(
        dir.path(),
        &["--tls-cert", cert.to_str().unwrap(), "--tls-key", key.to_str().unwrap()],
    );
    assert!(api.starts_with("https://127.0.0.1:"), "{api}");
    let (code, body) = curl("GET", &format!("{api}/status"), Some(&token), None);
    assert_eq!(code, 200, "{body}");
    let (code, _) = curl("GET", &format!("{api}/status"), None, None);
    assert_eq!(code, 401);
    // A banned address is closed before the TLS handshake.
    let (code, body) = curl(
        "POST",
        &format!("{api}/bans"),
        Some(&token),
        Some(r#"{"address": "127.0.0.5", "seconds": 3600}"#),
    );
    assert_eq!(code, 201, "{body}");
    let (code, _) = curl_from("127.0.0.5", "GET", &format!("{api}/status"), Some(&token), None);
    assert_eq!(code, 0);
    // Plain HTTP on the HTTPS port gets nothing.
    let plain = api.replacen("https://", "http://", 1);
    let (code, _) = curl("GET", &format!("{plain}/status"), Some(&token), None);
    assert_ne!(code, 200);
}

#[test]
fn admin_listen_without_an_accounts_store_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--admin-listen",
            "127.0.0.1:0",
            "--root",
        ])
        .arg(dir.path())
        .current_dir(dir.path())
        .env("LC_ALL", "C")
        .env_remove("BABELFTP_DB")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("admin_listen needs an accounts store"), "{err}");
}

/// A download under way is listed with its direction, path and bytes
/// moved so far; ending the session cuts it (the client's transfer fails)
/// and closes the session.
#[test]
fn a_running_download_is_listed_and_cut_when_its_session_is_ended() {
    let dir = tempfile::tempdir().unwrap();
    // 64 MiB, far more than the socket buffers hold for a slow reader.
    std::fs::create_dir_all(dir.path().join("root")).unwrap();
    std::fs::write(dir.path().join("root/big.bin"), vec![7u8; 64 << 20]).unwrap();
    let (srv, api, token, _log) = setup(dir.path(), &[]);
    let t = Some(token.as_str());
    // ftplib reads the first block, then stops reading (the server's
    // writes wait on full buffers: the transfer runs, stalled) until it is
    // told to go on.
    let script = format!(
        "import ftplib, sys\nftp = ftplib.FTP()\nftp.connect({:?}, {}, timeout=30)\nftp.login('alice', 'alice-pw')\nseen = [0]\ndef cb(b):\n    if seen[0] == 0:\n        print('READING', flush=True)\n        sys.stdin.readline()\n    seen[0] += len(b)\ntry:\n    ftp.retrbinary('RETR big.bin', cb, blocksize=65536)\n    print('COMPLETE', seen[0])\nexcept ftplib.all_errors as e:\n    print('CUT', seen[0], e)\n",
        srv.addr.ip().to_string(),
        srv.addr.port()
    );
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut go = child.stdin.take().unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "READING");
    let shown: Value =
        babelftp_test_support::wait_until(std::time::Duration::from_secs(20), "the download to be listed", || {
            let (_, body) = curl("GET", &format!("{api}/sessions"), t, None);
            let list = json(&body);
            let s = list.as_array()?.iter().find(|s| s["user"] == "alice")?.clone();
            (s["transfer"]["bytes"].as_u64()? > 0).then_some(s)
        });
    let tr = &shown["transfer"];
    assert_eq!(tr["direction"], "download", "{shown}");
    assert_eq!(tr["path"], "/big.bin", "{shown}");
    assert!(tr["bytes"].as_u64().unwrap() < 64 << 20, "{shown}");
    assert!(
        tr["since"].as_u64().unwrap() >= shown["since"].as_u64().unwrap(),
        "{shown}"
    );
    let (_, body) = curl("GET", &format!("{api}/status"), t, None);
    assert!(json(&body)["transfers"].as_u64().unwrap() >= 1, "{body}");
    let id = shown["id"].as_u64().unwrap();
    let (code, body) = curl("DELETE", &format!("{api}/sessions/{id}"), t, None);
    assert_eq!(code, 204, "{body}");
    std::io::Write::write_all(&mut go, b"go\n").unwrap();
    let end = lines.next().unwrap().unwrap();
    assert!(end.starts_with("CUT "), "{end}");
    child.wait().unwrap();
}

/// Issue 45: the HTTPS admin API's answers carry Strict-Transport-Security
/// (RFC 6797), a 401 too; plain HTTP never does.
#[test]
fn the_https_admin_api_sends_strict_transport_security_and_plain_http_does_not() {
    let head = |url: &str, token: Option<&str>| {
        let mut cmd = Command::new("curl");
        cmd.args(["-sS", "-k", "-o", "/dev/null", "-D", "-", "--max-time", "20"]);
        if let Some(t) = token {
            cmd.args(["-H", &format!("Authorization: Bearer {t}")]);
        }
        String::from_utf8_lossy(&cmd.arg(url).output().unwrap().stdout).to_ascii_lowercase()
    };
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = babelftp_test_support::certificate(dir.path());
    let (_srv, api, token, _) = setup(
        dir.path(),
        &["--tls-cert", cert.to_str().unwrap(), "--tls-key", key.to_str().unwrap()],
    );
    for t in [Some(token.as_str()), None] {
        let h = head(&format!("{api}/status"), t);
        assert!(h.starts_with("http/1.1 200") || h.starts_with("http/1.1 401"), "{h}");
        assert!(h.contains("\r\nstrict-transport-security: max-age=31536000\r\n"), "{h}");
    }
    let plain = tempfile::tempdir().unwrap();
    let (_srv, api, token, _) = setup(plain.path(), &[]);
    let h = head(&format!("{api}/status"), Some(&token));
    assert!(h.starts_with("http/1.1 200"), "{h}");
    assert!(!h.contains("strict-transport-security"), "{h}");
}

/// `babelftp admin token create --name NAME --scope …` on `db`: the token.
fn token_with(db: &str, name: &str, scopes: &[&str]) -> String {
    let mut args = vec!["admin", "token", "create", "--name", name, "--db", db];
    for s in scopes {
        args.extend(["--scope", s]);
    }
    let (code, token, err) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    token.trim().to_owned()
}

/// Issue 45, item 6: a token does what its scopes allow: `read` reads
/// everything and writes nothing (403), `users` writes users and groups
/// only, `bans` the bans only, `sessions` ends sessions only; a token
/// made without a scope (as before scopes existed) has `all`, and `admin
/// token list` shows each token's scopes.
#[test]
fn admin_tokens_do_what_their_scopes_allow() {
    let dir = tempfile::tempdir().unwrap();
    let (srv, api, all, _log) = setup(dir.path(), &[]);
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let read = token_with(&db, "ro", &["read"]);
    let users = token_with(&db, "people", &["users"]);
    let bans = token_with(&db, "guard", &["bans"]);
    let sessions = token_with(&db, "ender", &["sessions", "read"]);
    let (code, listed, err) = run(&["admin", "token", "list", "--db", &db], "");
    assert_eq!(code, 0, "{err}");
    let scopes: Vec<(String, String)> = listed
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_owned(), f.last().unwrap().to_string())
        })
        .collect();
    for (name, want) in [
        ("ci", "all"),
        ("ro", "read"),
        ("people", "users"),
        ("guard", "bans"),
        ("ender", "read,sessions"),
    ] {
        assert!(scopes.contains(&(name.to_owned(), want.to_owned())), "{name}: {listed}");
    }
    let (code, _, err) = run(
        &[
            "admin", "token", "create", "--name", "x", "--scope", "root", "--db", &db,
        ],
        "",
    );
    assert_eq!(code, 2, "an unknown scope is a usage error: {err}");
    assert!(err.contains("root") && err.contains("sessions"), "{err}");

    let new_user = |name: &str| format!(r#"{{"name": "{name}", "password": "password-{name}", "home": "/"}}"#);
    let ban = r#"{"address": "192.0.2.77", "seconds": 60}"#;
    let u = |p: &str| format!("{api}{p}");
    // read: every GET, no write.
    for path in ["/status", "/users", "/users/alice", "/groups", "/bans", "/sessions"] {
        let (code, body) = curl("GET", &u(path), Some(&read), None);
        assert_eq!(code, 200, "read GET {path}: {body}");
    }
    for (method, path, body) in [
        ("POST", "/users", Some(new_user("rx"))),
        ("PATCH", "/users/alice", Some(r#"{"lang": "de"}"#.to_owned())),
        ("DELETE", "/users/alice", None),
        ("POST", "/groups", Some(r#"{"name": "g"}"#.to_owned())),
        ("POST", "/bans", Some(ban.to_owned())),
        ("DELETE", "/bans/192.0.2.77", None),
        ("DELETE", "/sessions/1", None),
    ] {
        let (code, answer) = curl(method, &u(path), Some(&read), body.as_deref());
        assert_eq!(code, 403, "read {method} {path}: {answer}");
        assert!(json(&answer)["error"].as_str().unwrap().contains("scopes"), "{answer}");
    }
    assert!(
        logs_in(srv.addr, "127.0.0.1", "alice", "alice-pw"),
        "alice is still there"
    );
    // users: users and groups, not bans nor sessions.
    let (code, body) = curl("POST", &u("/users"), Some(&users), Some(&new_user("dave")));
    assert_eq!(code, 201, "{body}");
    let (code, body) = curl("POST", &u("/groups"), Some(&users), Some(r#"{"name": "staff"}"#));
    assert_eq!(code, 201, "{body}");
    let (code, body) = curl("GET", &u("/users/dave/quota"), Some(&users), None);
    assert_eq!(code, 200, "{body}");
    let (code, body) = curl("POST", &u("/bans"), Some(&users), Some(ban));
    assert_eq!(code, 403, "{body}");
    let (code, body) = curl("GET", &u("/bans"), Some(&users), None);
    assert_eq!(code, 403, "users does not read bans: {body}");
    // bans: the bans only.
    let (code, body) = curl("POST", &u("/bans"), Some(&bans), Some(ban));
    assert!(code == 201 || code == 204, "{code} {body}");
    let (code, body) = curl("DELETE", &u("/bans/192.0.2.77"), Some(&bans), None);
    assert_eq!(code, 204, "{body}");
    let (code, body) = curl("POST", &u("/users"), Some(&bans), Some(&new_user("eve")));
    assert_eq!(code, 403, "{body}");
    let (code, body) = curl("DELETE", &u("/sessions/1"), Some(&bans), None);
    assert_eq!(code, 403, "{body}");
    // sessions: ends one (404 for none), writes nothing else.
    let (code, body) = curl("DELETE", &u("/sessions/999999"), Some(&sessions), None);
    assert_eq!(code, 404, "{body}");
    let (code, body) = curl("DELETE", &u("/users/dave"), Some(&sessions), None);
    assert_eq!(code, 403, "{body}");
    // all (the token made without --scope): everything.
    let (code, body) = curl("DELETE", &u("/users/dave"), Some(&all), None);
    assert_eq!(code, 204, "{body}");
    let (code, body) = curl("POST", &u("/bans"), Some(&all), Some(ban));
    assert!(code == 201 || code == 204, "{code} {body}");
}

/// Issue 45, item 6: homes and virtual folders set through the API lie
/// under `allowed_sources` (by default the served root): `/` mounted, a
/// `file:///etc` home, a sibling of the root are refused with 403 and the
/// reason; what lies below is accepted.
#[test]
fn homes_and_mounts_through_the_api_lie_under_the_allowed_sources() {
    let dir = tempfile::tempdir().unwrap();
    let (_srv, api, token, _log) = setup(dir.path(), &[]);
    let t = Some(token.as_str());
    let root = std::fs::canonicalize(dir.path().join("root")).unwrap();
    std::fs::create_dir_all(root.join("shared")).unwrap();
    let sibling = format!("{}2", root.display());
    for (what, body) in [
        (
            "mount /",
            r#"{"name": "m1", "password": "m-password", "home": "/", "mounts": {"/slash": "/"}}"#.to_owned(),
        ),
        (
            "home /etc",
            r#"{"name": "m2", "password": "m-password", "home": "file:///etc"}"#.to_owned(),
        ),
        (
            "sibling",
            format!(r#"{{"name": "m3", "password": "m-password", "home": "/", "mounts": {{"/x": "{sibling}"}}}}"#),
        ),
        (
            "s3",
            r#"{"name": "m4", "password": "m-password", "home": "s3://some-bucket/x"}"#.to_owned(),
        ),
    ] {
        let (code, answer) = curl("POST", &format!("{api}/users"), t, Some(&body));
        assert_eq!(code, 403, "{what}: {answer}");
        let why = json(&answer)["error"].as_str().unwrap().to_owned();
        assert!(
            why.contains("allowed_sources") && why.contains(&root.display().to_string()),
            "{why}"
        );
    }
    let (code, body) = curl("GET", &format!("{api}/users"), t, None);
    assert_eq!(code, 200);
    assert!(
        !body.contains("\"m1\"") && !body.contains("\"m2\""),
        "nothing half made: {body}"
    );
    // Below the root: accepted.
    let ok = format!(
        r#"{{"name": "m5", "password": "m-password", "home": "file://{}", "mounts": {{"/more": "{}"}}}}"#,
        root.join("shared").display(),
        root.join("shared").display()
    );
    let (code, body) = curl("POST", &format!("{api}/users"), t, Some(&ok));
    assert_eq!(code, 201, "{body}");
    assert_eq!(json(&body)["home"], format!("file://{}", root.join("shared").display()));
    // A PATCH is checked as a POST.
    let (code, body) = curl(
        "PATCH",
        &format!("{api}/users/m5"),
        t,
        Some(r#"{"mounts": {"/slash": "/"}}"#),
    );
    assert_eq!(code, 403, "{body}");
    let (code, body) = curl(
        "POST",
        &format!("{api}/groups"),
        t,
        Some(r#"{"name": "g0", "home": "file:///"}"#),
    );
    assert_eq!(code, 403, "{body}");
    let (code, body) = curl(
        "POST",
        &format!("{api}/groups"),
        t,
        Some(r#"{"name": "g", "mounts": {"/etc": "/etc"}}"#),
    );
    assert_eq!(code, 403, "{body}");
}

/// Issue 45, item 6: `allowed_sources` in the configuration replaces the
/// root as what homes and mounts may lie under.
#[test]
fn allowed_sources_in_the_configuration_widen_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let srv_dir = dir.path().join("srv");
    std::fs::create_dir_all(srv_dir.join("archive")).unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let token = token_with(&db, "ops", &[]);
    let conf = dir.path().join("allowed.toml");
    std::fs::write(
        &conf,
        format!(
            "db = {db:?}\nallowed_sources = [{:?}, \"s3://bucket-a/pre/\"]\n",
            srv_dir.display().to_string()
        ),
    )
    .unwrap();
    let srv = Serve::start(
        &root,
        &["--config", conf.to_str().unwrap(), "--admin-listen", "127.0.0.1:0"],
    );
    let api = srv.url_after("admin API: ");
    let t = Some(token.as_str());
    let body = format!(
        r#"{{"name": "arc", "password": "m-password", "home": "/", "mounts": {{"/archive": "{}", "/s3": "s3://bucket-a/pre/x"}}}}"#,
        srv_dir.join("archive").display()
    );
    let (code, answer) = curl("POST", &format!("{api}/users"), t, Some(&body));
    assert_eq!(code, 201, "{answer}");
    for bad in [
        "s3://bucket-a/other",
        "s3://bucket-b/pre",
        &root.display().to_string(),
        "/",
    ] {
        let body = format!(r#"{{"mounts": {{"/bad": "{bad}"}}}}"#);
        let (code, answer) = curl("PATCH", &format!("{api}/users/arc"), t, Some(&body));
        assert_eq!(code, 403, "{bad}: {answer}");
        assert!(answer.contains("s3://bucket-a/pre"), "{answer}");
    }
}

/// Issue 45, item 6: the admin API over plain HTTP on an address that is
/// not loopback refuses to start, naming the address, unless
/// `admin_insecure_http = true`.
#[test]
fn plain_http_admin_api_off_loopback_needs_admin_insecure_http() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let (code, _, err) = run(&["user", "add", "alice", "--home", "/", "--db", &db], "alice-pw\n");
    assert_eq!(code, 0, "{err}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(["serve", "--listen", "127.0.0.1:0", "--db", &db, "--root"])
        .arg(dir.path())
        .args(["--admin-listen", "0.0.0.0:0"])
        .current_dir(dir.path())
        .env("LC_ALL", "C")
        .env_remove("BABELFTP_DB")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // It must stop at once; one still serving after 10 s is killed.
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() && started.elapsed() < std::time::Duration::from_secs(10) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let still_running = child.try_wait().unwrap().is_none();
    if still_running {
        child.kill().unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        !still_running,
        "the server started with a plain-HTTP admin API on 0.0.0.0"
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("0.0.0.0:0") && err.contains("admin_insecure_http"),
        "{err}"
    );
    // Said so: it starts (and serves plain HTTP there).
    let conf = dir.path().join("insecure.toml");
    std::fs::write(&conf, "admin_insecure_http = true\n").unwrap();
    let srv = Serve::start(
        &dir.path().join("."),
        &[
            "--config",
            conf.to_str().unwrap(),
            "--db",
            &db,
            "--admin-listen",
            "0.0.0.0:0",
        ],
    );
    let url = srv.url_after("admin API: ");
    let port = url.rsplit(':').next().unwrap().split('/').next().unwrap().to_owned();
    let (code, _) = curl("GET", &format!("http://127.0.0.1:{port}/api/v1/status"), None, None);
    assert_eq!(code, 401, "{url}");
    // Loopback stays allowed without it (setup() uses 127.0.0.1).
}

#[test]
fn every_door_logs_its_user_and_peer_in_the_ftp_form_and_refused_forms_say_why() {
    // Issue 48 item 11: FTP, the web view and the admin API name the user
    // (or the token) and the peer in one form; refused forms are logged.
    let dir = tempfile::tempdir().unwrap();
    let (srv, api, token, log) = setup(dir.path(), &["--http-listen", "127.0.0.1:0"]);
    let web = srv.url_after("web view: ");
    let root = dir.path().join("root");
    std::fs::write(root.join("f.txt"), "hello").unwrap();
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let (code, out, err) = run(&["user", "add", "pat", "--home", "/", "--db", &db], "pat-pw-123\n");
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = run(&["user", "perm", "pat", "/", "list,download", "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");

    // FTP: a download.
    let seen = common::serve::ftplib(
        srv.addr,
        "alice",
        "alice-pw",
        "utf-8",
        "b = io.BytesIO()\nftp.retrbinary('RETR f.txt', b.write)\nprint(b.getvalue().decode())\nftp.quit()",
    );
    assert!(seen.contains("hello"), "{seen}");
    // The web: a download; a form without its token; a form the account
    // may not send; a form with a bad name.
    let jar = dir.path().join("jar");
    let page = common::web::login_from("127.0.0.1", &jar, &web, "/", "pat", "pat-pw-123", &[]);
    assert_eq!(page.status, 200, "{}", page.body);
    let csrf = page.token("logout");
    let got = common::web::curl(&jar, &format!("{web}/f.txt"), &[]);
    assert_eq!(got.body, "hello");
    let r = common::web::post(&jar, &format!("{web}/?mkdir"), "0000", &["name=x"], &[]);
    assert_eq!(r.status, 403);
    let r = common::web::post(&jar, &format!("{web}/?mkdir"), &csrf, &["name=x"], &[]);
    assert_eq!(r.status, 403);
    let r = common::web::post(&jar, &format!("{web}/f.txt?rename"), &csrf, &["to=a/b"], &[]);
    assert!(r.status == 400 || r.status == 403, "{}", r.status);
    assert!(!root.join("x").exists());
    // The admin API: pat's web session ended.
    let (code, body) = curl("GET", &format!("{api}/sessions"), Some(&token), None);
    assert_eq!(code, 200, "{body}");
    let id = json(&body)
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["user"] == "pat")
        .map(|s| s["id"].as_u64().unwrap())
        .unwrap_or_else(|| panic!("no session of pat: {body}"));
    let (code, body) = curl("DELETE", &format!("{api}/sessions/{id}"), Some(&token), None);
    assert_eq!(code, 204, "{body}");
    drop(srv);

    let text = std::fs::read_to_string(&log).unwrap();
    let line = |what: &str, with: &str| -> String {
        text.lines()
            .find(|l| l.contains(what) && l.contains(with))
            .unwrap_or_else(|| panic!("no line with {what:?} and {with:?}:\n{text}"))
            .to_owned()
    };
    let ftp = line("download complete", "protocol=\"ftp\"");
    assert!(
        ftp.contains(" INFO session{id=") && ftp.contains(" peer=127.0.0.1:") && ftp.contains(" user=alice}"),
        "{ftp}"
    );
    let http = line("download complete", "protocol=\"http\"");
    assert!(
        http.contains(" INFO web{peer=127.0.0.1:") && http.contains(" user=pat}"),
        "{http}"
    );
    let csrf_line = line("web: form refused", "CSRF");
    assert!(
        csrf_line.contains(" user=pat}") && csrf_line.contains("action=\"mkdir\""),
        "{csrf_line}"
    );
    let denied = line("web: form refused", "permission refused");
    assert!(
        denied.contains("web{peer=127.0.0.1:") && denied.contains(" user=pat}"),
        "{denied}"
    );
    let bad = line("web: form refused", "action=\"rename\"");
    assert!(bad.contains(" user=pat}"), "{bad}");
    let ended = line("admin API: session ended", "token=ci");
    assert!(
        ended.contains(" INFO admin{peer=127.0.0.1:") && ended.contains(" token=ci}"),
        "{ended}"
    );
    assert!(ended.contains(" user=pat client=127.0.0.1:"), "{ended}");
    assert!(!text.contains("Some("), "no Rust debug forms:\n{text}");
}

#[test]
fn the_admin_api_bans_and_lifts_an_ipv4_network() {
    // Issue 48 item 9 through the API: a network in CIDR notation refuses
    // every address in it (here 127.0.0.0/24 holds 127.0.0.7).
    let dir = tempfile::tempdir().unwrap();
    let (srv, api, token, _log) = setup(dir.path(), &[]);
    assert!(logs_in(srv.addr, "127.0.0.7", "alice", "alice-pw"));
    let (code, body) = curl_from(
        "127.0.0.1",
        "POST",
        &format!("{api}/bans"),
        Some(&token),
        Some(r#"{"address":"127.0.0.99/24","seconds":3600}"#),
    );
    assert_eq!(code, 201, "{body}");
    assert_eq!(json(&body)["address"], "127.0.0.0/24", "{body}");
    // (127.0.0.1 is in it too: the API closes it now.)
    let (code, _) = curl("GET", &format!("{api}/bans"), Some(&token), None);
    assert_eq!(code, 0);
    let (code, body) = curl_from("127.0.1.1", "GET", &format!("{api}/bans"), Some(&token), None);
    assert_eq!(code, 200, "{body}");
    assert!(
        json(&body)
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["address"] == "127.0.0.0/24"),
        "{body}"
    );
    assert!(!logs_in(srv.addr, "127.0.0.7", "alice", "alice-pw"));
    assert!(logs_in(srv.addr, "127.0.1.7", "alice", "alice-pw"), "outside the /24");
    let (code, body) = curl_from(
        "127.0.1.1",
        "DELETE",
        &format!("{api}/bans/127.0.0.0%2F24"),
        Some(&token),
        None,
    );
    assert_eq!(code, 204, "{body}");
    assert!(logs_in(srv.addr, "127.0.0.7", "alice", "alice-pw"));
    let (code, body) = curl(
        "POST",
        &format!("{api}/bans"),
        Some(&token),
        Some(r#"{"address":"10.0.0.0/33"}"#),
    );
    assert_eq!(code, 400, "{body}");
    assert!(body.contains("not an IP address or network"), "{body}");
}

/// Issue 48, items 3 and 4, through the API: a language the server has
/// no catalog for is refused (400, naming those it has), for users and
/// groups; a password shorter than `[accounts] min_password_length`
/// (8 by default) is refused on create and on change, and nothing is
/// stored; one long enough logs in.
#[test]
fn the_api_refuses_a_language_without_catalog_and_a_short_password() {
    let dir = tempfile::tempdir().unwrap();
    let (srv, api, token, _log) = setup(dir.path(), &[]);
    let t = Some(token.as_str());
    let refused = |method: &str, path: &str, body: &str, says: &[&str]| {
        let (code, answer) = curl(method, &format!("{api}{path}"), t, Some(body));
        assert_eq!(code, 400, "{method} {path} {body}: {answer}");
        let error = json(&answer)["error"].as_str().unwrap_or_default().to_owned();
        for s in says {
            assert!(error.contains(s), "{error:?} lacks {s:?}");
        }
    };
    let catalogs = ["klingon", "en, fr, de", "pt-BR", "zh-TW", "th"];
    refused(
        "POST",
        "/users",
        r#"{"name": "kirk", "password": "enterprise", "lang": "klingon"}"#,
        &catalogs,
    );
    refused("PATCH", "/users/alice", r#"{"lang": "klingon"}"#, &catalogs);
    refused("POST", "/groups", r#"{"name": "crew", "lang": "klingon"}"#, &catalogs);
    // A tag a catalog serves (fr-CA by fr) is taken.
    let (code, body) = curl("PATCH", &format!("{api}/users/alice"), t, Some(r#"{"lang": "fr-CA"}"#));
    assert_eq!(code, 200, "{body}");
    assert_eq!(json(&body)["lang"], "fr-CA");
    // Passwords: 8 characters at least by default.
    let short = ["too short", "at least 8 characters", "min_password_length"];
    refused("POST", "/users", r#"{"name": "kirk", "password": "x"}"#, &short);
    refused("POST", "/users", r#"{"name": "kirk", "password": "1234567"}"#, &short);
    refused("PATCH", "/users/alice", r#"{"password": "x"}"#, &short);
    let (code, _) = curl("GET", &format!("{api}/users/kirk"), t, None);
    assert_eq!(code, 404, "nothing was created");
    assert!(
        logs_in(srv.addr, "127.0.0.1", "alice", "alice-pw"),
        "the old password holds"
    );
    let (code, body) = curl(
        "POST",
        &format!("{api}/users"),
        t,
        Some(r#"{"name": "kirk", "password": "12345678", "home": "/", "permissions": {"/": "read"}}"#),
    );
    assert_eq!(code, 201, "{body}");
    assert!(logs_in(srv.addr, "127.0.0.1", "kirk", "12345678"));
}

/// `[accounts] min_password_length` in the configuration file.
#[test]
fn min_password_length_comes_from_the_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let (srv, _, token, _log) = setup(dir.path(), &[]);
    drop(srv);
    let conf = dir.path().join("babelftp.toml");
    let mut text = std::fs::read_to_string(&conf).unwrap();
    text.push_str("[accounts]\nmin_password_length = 12\n");
    std::fs::write(&conf, text).unwrap();
    let root = dir.path().join("root");
    let srv = Serve::start(
        &root,
        &["--config", conf.to_str().unwrap(), "--admin-listen", "127.0.0.1:0"],
    );
    let api2 = srv.url_after("admin API: ");
    let t = Some(token.as_str());
    let (code, body) = curl(
        "PATCH",
        &format!("{api2}/users/alice"),
        t,
        Some(r#"{"password": "eleven-char"}"#),
    );
    assert_eq!(code, 400, "{body}");
    assert!(body.contains("at least 12 characters"), "{body}");
    let (code, body) = curl(
        "PATCH",
        &format!("{api2}/users/alice"),
        t,
        Some(r#"{"password": "twelve-chars"}"#),
    );
    assert_eq!(code, 200, "{body}");
    assert!(logs_in(srv.addr, "127.0.0.1", "alice", "twelve-chars"));
}

/// Issue 48.13: a user's FTPS data-connection reuse rule through the API:
/// set at creation, changed and cleared with PATCH (null: the group's,
/// else the server's), a value that is no rule refused (400), and the
/// same rule `babelftp user show` prints.
#[test]
fn a_users_tls_reuse_rule_is_set_changed_and_cleared_through_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let (_srv, api, token, _log) = setup(dir.path(), &[]);
    let t = Some(token.as_str());
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let (code, body) = curl(
        "POST",
        &format!("{api}/users"),
        t,
        Some(r#"{"name": "etl", "password": "etl-password", "tls_reuse": "optional"}"#),
    );
    assert_eq!(code, 201, "{body}");
    assert_eq!(json(&body)["tls_reuse"], "optional", "{body}");
    assert!(common::serve::admin(&db, &["user", "show", "etl"]).contains("tls-reuse\toptional\tuser"));
    let (code, body) = curl(
        "PATCH",
        &format!("{api}/users/etl"),
        t,
        Some(r#"{"tls_reuse": "required"}"#),
    );
    assert_eq!(code, 200, "{body}");
    assert_eq!(json(&body)["tls_reuse"], "required", "{body}");
    let (code, body) = curl(
        "PATCH",
        &format!("{api}/users/etl"),
        t,
        Some(r#"{"tls_reuse": "sometimes"}"#),
    );
    assert_eq!(code, 400, "{body}");
    let (code, body) = curl("PATCH", &format!("{api}/users/etl"), t, Some(r#"{"tls_reuse": null}"#));
    assert_eq!(code, 200, "{body}");
    assert!(json(&body)["tls_reuse"].is_null(), "{body}");
    assert!(common::serve::admin(&db, &["user", "show", "etl"]).contains("tls-reuse\t-\tdefault"));
    let (code, body) = curl("GET", &format!("{api}/users/alice"), t, None);
    assert_eq!(code, 200, "{body}");
    assert!(json(&body)["tls_reuse"].is_null(), "{body}");
}
