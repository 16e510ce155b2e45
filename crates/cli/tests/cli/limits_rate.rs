//! Issue 29's bandwidth limits, with the commands and real clients: a
//! user limited to 1 MiB/s downloads 4 MiB in 4 s (± 10 %), two sessions
//! of that user share the limit, an unlimited user on the same server is
//! not slowed, and an upload keeps to its own limit.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::common;
use common::serve::{admin, run, Serve};

const MIB: usize = 1 << 20;

/// A user `name` (password `name-secret`) who may read and upload anywhere.
fn user(db: &str, name: &str, set: &[&str]) {
    let (code, out, err) = run(&["user", "add", name, "--db", db], &format!("{name}-secret\n"));
    assert_eq!(code, 0, "user add: {out}{err}");
    admin(db, &["user", "perm", name, "/", "read,upload"]);
    if !set.is_empty() {
        let mut args = vec!["user", "set", name];
        args.extend(set);
        admin(db, &args);
    }
}

/// curl, started: `args` then the URL of `path` as `name`; prints the
/// time from the transfer's start (login done) to its end, in seconds.
fn curl(srv: &Serve, name: &str, path: &str, args: &[&str]) -> Child {
    Command::new("curl")
        .args([
            "-s",
            "-S",
            "--max-time",
            "20",
            "-w",
            "%{time_pretransfer} %{time_total}",
        ])
        .args(args)
        .arg(format!("ftp://{name}:{name}-secret@{}{path}", srv.addr))
        .stdout(Stdio::piped())
        .spawn()
        .expect("curl must be installed (scripts/test.sh installs it)")
}

/// How long the transfer of a curl from [`curl`] took, in seconds.
fn took(c: Child) -> f64 {
    let out = c.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "curl: {text}");
    let t: Vec<f64> = text.split_whitespace().map(|t| t.parse().unwrap()).collect();
    t[1] - t[0]
}

fn within(t: f64, want: f64, what: &str) {
    assert!(
        (t - want).abs() <= want * 0.1,
        "{what}: {t:.3} s, wanted {want} s ± 10 %"
    );
}

fn same(a: &Path, b: &Path) {
    assert!(
        std::fs::read(a).unwrap() == std::fs::read(b).unwrap(),
        "{a:?} and {b:?} differ"
    );
}

#[test]
fn a_users_rate_holds_across_its_sessions_and_slows_no_one_else() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("in")).unwrap();
    let four: Vec<u8> = (0..4 * MIB).map(|i| (i % 251) as u8).collect();
    std::fs::write(root.join("four.bin"), &four).unwrap();
    std::fs::write(root.join("two.bin"), &four[..2 * MIB]).unwrap();
    let up = dir.path().join("up.bin");
    std::fs::write(&up, &four[..2 * MIB]).unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    user(&db, "slow", &["--download-rate", "1MiB/s", "--upload-rate", "1MiB/s"]);
    user(&db, "free", &[]);
    // Uploads not synced before their 226: the rate is measured, not the
    // disk (an fsync on a busy machine took up to 0.4 s).
    let srv = Serve::start(&root, &["--db", &db, "--fsync", "never"]);
    let got = |n: &str| dir.path().join(n);

    // Alone, 4 MiB at 1 MiB/s; meanwhile an unlimited user (the plain
    // sendfile path) takes 4 MiB at once.
    let slow = curl(&srv, "slow", "/four.bin", &["-o", got("slow.bin").to_str().unwrap()]);
    babelftp_test_support::wait_until(
        std::time::Duration::from_secs(20),
        "the limited download to start",
        || {
            let len = std::fs::metadata(got("slow.bin")).ok()?.len();
            (len > 0).then_some(())
        },
    );
    let free = curl(&srv, "free", "/four.bin", &["-o", got("free.bin").to_str().unwrap()]);
    let (t_free, t_slow) = (took(free), took(slow));
    eprintln!("unlimited 4 MiB: {t_free:.3} s; limited 4 MiB: {t_slow:.3} s");
    assert!(t_free < 1.0, "the unlimited user was slowed: {t_free:.3} s");
    within(t_slow, 4.0, "4 MiB at 1 MiB/s");
    same(&got("slow.bin"), &root.join("four.bin"));
    same(&got("free.bin"), &root.join("four.bin"));

    // Two sessions of the same user: 2 MiB each, 1 MiB/s together.
    let a = curl(&srv, "slow", "/two.bin", &["-o", got("a.bin").to_str().unwrap()]);
    let b = curl(&srv, "slow", "/two.bin", &["-o", got("b.bin").to_str().unwrap()]);
    let (t_a, t_b) = (took(a), took(b));
    eprintln!("two sessions, 2 MiB each: {t_a:.3} s and {t_b:.3} s");
    within(t_a, 4.0, "first of two sessions sharing 1 MiB/s");
    within(t_b, 4.0, "second of two sessions sharing 1 MiB/s");
    same(&got("a.bin"), &root.join("two.bin"));
    same(&got("b.bin"), &root.join("two.bin"));

    // An upload keeps to the upload rate: 2 MiB in 2 s.
    let t_up = took(curl(&srv, "slow", "/in/up.bin", &["-T", up.to_str().unwrap()]));
    eprintln!("upload 2 MiB: {t_up:.3} s");
    within(t_up, 2.0, "2 MiB uploaded at 1 MiB/s");
    same(&up, &root.join("in/up.bin"));
}

#[test]
fn a_server_rate_holds_for_everyone_in_clear_and_over_tls() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("two.bin"), vec![5u8; 2 * MIB]).unwrap();
    let (cert, key) = babelftp_test_support::certificate(dir.path());
    // Anonymous sessions, whom no user limit covers: 2 MiB/s for the
    // whole server.
    let srv = Serve::start(
        &root,
        &[
            "--download-rate",
            "2MiB/s",
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    for tls in [&[][..], &["--ssl-reqd", "-k"][..]] {
        let c = Command::new("curl")
            .args([
                "-s",
                "-S",
                "--max-time",
                "20",
                "-o",
                "/dev/null",
                "-w",
                "%{time_pretransfer} %{time_total}",
            ])
            .args(tls)
            .arg(format!("ftp://{}/two.bin", srv.addr))
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let t = took(c);
        eprintln!("anonymous 2 MiB {tls:?} under a server limit of 2 MiB/s: {t:.3} s");
        within(t, 1.0, "2 MiB at 2 MiB/s");
    }
    let (code, _, err) = run(&["serve", "--download-rate", "fast"], "");
    assert_ne!(code, 0);
    assert!(err.contains("fast"), "{err}");
}

#[test]
fn a_slow_download_is_not_taken_for_a_stalled_one() {
    // The pumps count progress per buffer of up to 1 MiB: at 512 KiB/s a
    // buffer takes 2 s, twice the stall timeout here; the limited stream
    // shows it is alive with every chunk.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("one.bin"), vec![9u8; MIB]).unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    user(&db, "slow", &["--download-rate", "512KiB/s"]);
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(&conf, "stall_timeout = 1\n").unwrap();
    let srv = Serve::start(&root, &["--config", conf.to_str().unwrap(), "--db", &db]);
    let out = dir.path().join("one.bin");
    let t = took(curl(&srv, "slow", "/one.bin", &["-o", out.to_str().unwrap()]));
    eprintln!("1 MiB at 512 KiB/s, stall timeout 1 s: {t:.3} s");
    within(t, 2.0, "1 MiB at 512 KiB/s");
    same(&out, &root.join("one.bin"));
}
