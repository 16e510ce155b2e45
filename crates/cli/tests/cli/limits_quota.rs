//! Issue 29's quotas and sessions per user, from the commands named there
//! and real clients: an upload past the quota stops with 552 and leaves
//! the old file and the usage as they were (STOR, APPE, REST+STOR); SITE
//! QUOTA says where the account stands in its language; DELE gives the
//! space back; `user quota-scan` recounts from storage; one session more
//! than `--max-sessions` gets 421; and on two nodes of one PostgreSQL
//! store, 20 concurrent uploads never take the usage past the quota, which
//! ends equal to what is on disk.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common;
use common::serve::{admin, run, usage, Serve};

/// curl uploading `file` to `url` with `extra` options: (exit code, the
/// server's replies as curl -v shows them).
fn curl_upload(file: &Path, url: &str, extra: &[&str]) -> (i32, String) {
    let out = Command::new("curl")
        .args(["-s", "-v", "--max-time", "30", "-T"])
        .arg(file)
        .args(extra)
        .arg(url)
        .output()
        .expect("curl must be installed");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ftplib(addr: SocketAddr, script: &str) -> String {
    common::serve::ftplib(addr, "dora", "dora-secret", "utf-8", script)
}

#[test]
fn an_upload_past_the_quota_stops_with_552_and_leaves_the_old_file_and_the_usage_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let old: Vec<u8> = (0..100 * 1024u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(root.join("report.bin"), &old).unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    let (code, out, err) = run(&["user", "add", "dora", "--db", &db], "dora-secret\n");
    assert_eq!(code, 0, "{out}{err}");
    admin(
        &db,
        &[
            "user",
            "set",
            "dora",
            "--quota-bytes",
            "1MiB",
            "--quota-files",
            "3",
            "--lang",
            "de",
        ],
    );
    let shown = admin(&db, &["user", "show", "dora"]);
    assert!(shown.contains("quota-bytes\t1048576\tuser"), "{shown}");
    assert!(shown.contains("quota-files\t3\tuser"), "{shown}");
    let big = dir.path().join("big.bin");
    std::fs::write(&big, vec![7u8; 2 << 20]).unwrap();

    let srv = Serve::start(&root, &["--db", &db]);
    srv.wait_for("accounts:");
    // The first login counts what dora has: report.bin.
    let seen = ftplib(srv.addr, "print(ftp.sendcmd('SITE QUOTA'))");
    assert!(seen.contains("Kontingent dieses Kontos"), "in German: {seen}");
    assert!(seen.contains("Speicher: 100 KiB von 1 MiB belegt"), "{seen}");
    assert!(seen.contains("Dateien: 1 von 3"), "{seen}");
    assert_eq!(usage(&db, "dora"), (100 * 1024, 1));

    // STOR over report.bin, 2 MiB: 552 at the limit, the old file intact.
    let url = format!("ftp://dora:dora-secret@{}/report.bin", srv.addr);
    let (code, talk) = curl_upload(&big, &url, &[]);
    assert_ne!(code, 0, "{talk}");
    assert!(talk.contains("< 552"), "curl saw 552: {talk}");
    assert_eq!(
        std::fs::read(root.join("report.bin")).unwrap(),
        old,
        "the old file is intact"
    );
    // APPE: 552, and the file cut back to what it was.
    let (code, talk) = curl_upload(&big, &url, &["--append"]);
    assert_ne!(code, 0, "{talk}");
    assert!(talk.contains("< 552"), "{talk}");
    assert_eq!(
        std::fs::read(root.join("report.bin")).unwrap(),
        old,
        "nothing appended stays"
    );
    // A new file past the quota: 552, and no partial file.
    let url_new = format!("ftp://dora:dora-secret@{}/new.bin", srv.addr);
    let (code, talk) = curl_upload(&big, &url_new, &[]);
    assert_ne!(code, 0, "{talk}");
    assert!(talk.contains("< 552"), "{talk}");
    // REST+STOR past the quota (ftplib): 552, the file as long as before.
    let seen = ftplib(
        srv.addr,
        "try:\n    ftp.storbinary('STOR report.bin', io.BytesIO(b'z' * (2 << 20)), rest=50 * 1024); print('STORED')\nexcept ftplib.error_perm as e:\n    print('REFUSED', e)\n",
    );
    assert!(seen.contains("REFUSED 552"), "{seen}");
    assert_eq!(
        std::fs::metadata(root.join("report.bin")).unwrap().len(),
        old.len() as u64
    );
    let names: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        names,
        vec![std::ffi::OsString::from("report.bin")],
        "no partial or temporary file"
    );
    assert_eq!(usage(&db, "dora"), (100 * 1024, 1), "the usage is unchanged");

    // Within the quota: stored and counted; a deletion gives it back.
    let seen = ftplib(
        srv.addr,
        "ftp.storbinary('STOR a.bin', io.BytesIO(b'a' * 300000)); print('A')\nftp.storbinary('STOR report.bin', io.BytesIO(b'r' * 1000)); print('R')\n",
    );
    assert!(seen.contains('A') && seen.contains('R'), "{seen}");
    assert_eq!(usage(&db, "dora"), (301_000, 2));
    // The file count: a third file is allowed, a fourth is not (552 before
    // any data).
    let seen = ftplib(
        srv.addr,
        "ftp.storbinary('STOR b.bin', io.BytesIO(b'b')); print('B')\ntry:\n    ftp.storbinary('STOR c.bin', io.BytesIO(b'c')); print('C')\nexcept ftplib.error_perm as e:\n    print('NO-C', e)\nftp.delete('a.bin'); print('DELETED')\n",
    );
    assert!(seen.contains("B\n") && seen.contains("NO-C 552"), "{seen}");
    assert!(seen.contains("DELETED"), "{seen}");
    assert_eq!(usage(&db, "dora"), (1001, 2));

    // Files put there behind the server's back: quota-scan recounts.
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(root.join("sub/side.bin"), vec![1u8; 5000]).unwrap();
    let scanned = admin(&db, &["user", "quota-scan", "dora", "--root", root.to_str().unwrap()]);
    // Three files and the folder `sub`: folders count as files.
    assert!(scanned.contains("dora") && scanned.contains("4 files"), "{scanned}");
    assert_eq!(usage(&db, "dora"), (6001, 4));
    // Without a root, the command says what it needs (a usage error).
    let (code, _, err) = run(&["user", "quota-scan", "dora", "--db", &db], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--root"), "{err}");

    // A bad size is refused with the catalogued text, nothing changed.
    let (code, _, err) = run(&["user", "set", "dora", "--quota-bytes", "lots", "--db", &db], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not a size"), "{err}");
    // Without a quota, SITE QUOTA says so, and uploads are not counted.
    admin(
        &db,
        &["user", "set", "dora", "--quota-bytes", "none", "--quota-files", "none"],
    );
    let seen = ftplib(srv.addr, "print(ftp.sendcmd('SITE QUOTA'))");
    assert!(seen.contains("200 Dieses Konto hat kein Kontingent."), "{seen}");
}

#[test]
fn one_session_more_than_max_sessions_gets_421_and_a_slot_comes_back_when_one_ends() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    let (code, out, err) = run(&["user", "add", "dora", "--db", &db], "dora-secret\n");
    assert_eq!(code, 0, "{out}{err}");
    admin(&db, &["group", "add", "partners"]);
    admin(&db, &["group", "set", "partners", "--max-sessions", "2"]);
    admin(&db, &["user", "set", "dora", "--group", "partners"]);
    let shown = admin(&db, &["user", "show", "dora"]);
    assert!(shown.contains("max-sessions\t2\tgroup"), "{shown}");
    let srv = Serve::start(&root, &["--db", &db]);
    srv.wait_for("accounts:");
    let script = format!(
        r#"
def login():
    f = ftplib.FTP(); f.connect({ip:?}, {port}, timeout=20)
    try:
        f.login('dora', 'dora-secret'); return f
    except (ftplib.error_perm, ftplib.error_temp) as e:
        print('THIRD', e); return None
second = login()
print('SECOND', second is not None)
third = login()
second.quit()
import time
for _ in range(50):
    again = login()
    if again is not None:
        print('AGAIN'); break
    time.sleep(0.1)
"#,
        ip = srv.addr.ip().to_string(),
        port = srv.addr.port()
    );
    let seen = ftplib(srv.addr, &script);
    assert!(seen.contains("SECOND True"), "{seen}");
    assert!(
        seen.contains("THIRD 421 This account has as many sessions open as it may"),
        "{seen}"
    );
    assert!(
        seen.contains("AGAIN"),
        "a session that ended gives its place back: {seen}"
    );
}

#[test]
fn twenty_concurrent_uploads_on_two_nodes_never_take_the_usage_past_the_quota() {
    let pg = babelftp_test_support::postgres::start();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let db = pg.url.clone();
    let (code, out, err) = run(&["user", "add", "erin", "--db", &db], "erin-secret\n");
    assert_eq!(code, 0, "{out}{err}");
    let quota: u64 = 5 << 20;
    admin(&db, &["user", "set", "erin", "--quota-bytes", "5MiB"]);
    let one = Serve::start(&root, &["--db", &db]);
    let two = Serve::start(&root, &["--db", &db]);
    one.wait_for("accounts:");
    two.wait_for("accounts:");
    let part = dir.path().join("part.bin");
    std::fs::write(&part, vec![9u8; 700 * 1024]).unwrap();
    // 20 uploads of 700 KiB at once, half to each node: 14 MiB for 5 MiB.
    let children: Vec<_> = (0..20)
        .map(|i| {
            let node = if i % 2 == 0 { &one } else { &two };
            Command::new("curl")
                .args(["-s", "--max-time", "60", "-T"])
                .arg(&part)
                .arg(format!("ftp://erin:erin-secret@{}/up-{i}.bin", node.addr))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let ok = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap().status.success())
        .filter(|s| *s)
        .count();
    let on_disk: u64 = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    let files = std::fs::read_dir(&root).unwrap().count() as u64;
    assert!(on_disk <= quota, "{on_disk} bytes on disk for a quota of {quota}");
    assert!((1..=7).contains(&ok), "{ok} uploads completed");
    assert_eq!(files, ok as u64, "every refused upload left nothing");
    assert_eq!(on_disk, ok as u64 * 700 * 1024);
    // The store's usage is exactly what is on disk.
    assert_eq!(usage(&db, "erin"), (on_disk, files));
}

/// Issue 47: under a quota, a plain upload is answered at once and held
/// too; one whose client never reads its 226 (its control connection
/// closed 300 ms after its data, the reply unread: a killed client) is
/// undone, and the account gets back what it took: a replaced file's
/// difference, a new file's bytes and place.
#[test]
fn an_undone_upload_gives_the_quota_back() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("report.bin"), vec![b'o'; 1000]).unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    let (code, out, err) = run(&["user", "add", "dora", "--db", &db], "dora-secret\n");
    assert_eq!(code, 0, "{out}{err}");
    admin(
        &db,
        &["user", "set", "dora", "--quota-bytes", "1MiB", "--quota-files", "10"],
    );
    let srv = Serve::start(&root, &["--db", &db]);
    srv.wait_for("accounts:");
    let seen = ftplib(
        srv.addr,
        "ftp.storbinary('STOR kept.bin', io.BytesIO(b'k' * 200)); print('KEPT')",
    );
    assert!(seen.contains("KEPT"), "{seen}");
    assert_eq!(usage(&db, "dora"), (1200, 2));
    let killed = |name: &str, size: usize| {
        let seen = ftplib(
            srv.addr,
            &format!(
                "import socket, time\nftp.voidcmd('TYPE I')\nhost, port = ftp.makepasv()\nd = socket.create_connection((host, port))\nftp.sock.sendall(b'STOR {name}\\r\\n')\nprint(ftp.getline())\nd.sendall(b'n' * {size}); d.close()\ntime.sleep(0.3)\nftp.file.close(); ftp.sock.close()\nprint('GONE')"
            ),
        );
        assert!(seen.contains("150") && seen.contains("GONE"), "{seen}");
    };
    killed("report.bin", 5000);
    killed("new.bin", 3000);
    babelftp_test_support::wait_until(std::time::Duration::from_secs(10), "the undone uploads", || {
        (usage(&db, "dora") == (1200, 2)
            && std::fs::read(root.join("report.bin")).ok()? == vec![b'o'; 1000]
            && !root.join("new.bin").exists())
        .then_some(())
    });
}
