//! `babelftp mirror` (issue 13, CLI item 3; issue 25.17): it goes on
//! after a failed file and names it, keeps the newer-copy rule on a server
//! without MFMT, resumes cut downloads, refetches changed ones and
//! reconnects after a drop, and runs in parallel both ways. Real binary,
//! real servers (ours and `scripted_ftp.py`), real sockets.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::time::Duration;

use babelftp_test_support::TestServer;

use crate::common;
use crate::common::scripted::Scripted;

fn start() -> TestServer {
    babelftp_test_support::start(|c| {
        c.login_fail_delay = Duration::from_millis(10);
    })
}

/// Runs the binary: (exit code, stdout, stderr).
fn babelftp(state: &Path, args: &[&str]) -> (i32, String, String) {
    common::babelftp_code(state, args)
}

/// Every file under `dir` (relative paths, sorted), part files included.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

// ---- item 3: mirror ----

#[test]
fn mirror_download_goes_on_after_a_failed_file_and_names_it() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let root = srv.root.path();
    std::fs::create_dir_all(root.join("m/sub")).unwrap();
    for n in ["a.txt", "b.txt", "c.txt", "d.txt", "sub/e.txt"] {
        std::fs::write(root.join("m").join(n), n).unwrap();
    }
    let dest = tempfile::tempdir().unwrap();
    // A directory stands where b.txt would go: that one file cannot be
    // copied, the rest can.
    std::fs::create_dir_all(dest.path().join("b.txt/keep")).unwrap();
    let (code, _, err) = babelftp(
        state.path(),
        &[
            "mirror",
            &format!("ftp://127.0.0.1:{}/m/", srv.port()),
            dest.path().to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("failed: m/b.txt: "), "{err}");
    assert!(err.contains("mirror incomplete: 1 failed"), "{err}");
    assert!(err.contains("4 copied"), "{err}");
    assert_eq!(files(dest.path()), ["a.txt", "c.txt", "d.txt", "sub/e.txt"], "{err}");
    assert!(dest.path().join("b.txt/keep").is_dir());
    assert_eq!(std::fs::read(dest.path().join("d.txt")).unwrap(), b"d.txt");
}

#[test]
fn mirror_upload_goes_on_after_a_failed_file_and_names_it() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let root = srv.root.path();
    // A non-empty directory stands where b.txt would go on the server.
    std::fs::create_dir_all(root.join("up/b.txt/keep")).unwrap();
    let src = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(src.path().join("sub")).unwrap();
    for n in ["a.txt", "b.txt", "c.txt", "sub/d.txt"] {
        std::fs::write(src.path().join(n), n).unwrap();
    }
    let (code, _, err) = babelftp(
        state.path(),
        &[
            "mirror",
            "-R",
            src.path().to_str().unwrap(),
            &format!("ftp://bob:secret@127.0.0.1:{}/up/", srv.port()),
        ],
    );
    assert_eq!(code, 1, "{err}");
    let failed = format!("failed: {}: ", src.path().join("b.txt").display());
    assert!(err.contains(&failed), "{err}");
    assert!(err.contains("mirror incomplete: 1 failed"), "{err}");
    assert_eq!(std::fs::read(root.join("up/a.txt")).unwrap(), b"a.txt");
    assert_eq!(std::fs::read(root.join("up/c.txt")).unwrap(), b"c.txt");
    assert_eq!(std::fs::read(root.join("up/sub/d.txt")).unwrap(), b"sub/d.txt");
    assert!(root.join("up/b.txt/keep").is_dir());
}

/// Issue 25.19: against a server without MFMT (it keeps no time a client
/// sets: an upload has the time it arrived), `mirror -R` sends no MFMT and
/// keeps the rule it had: a copy newer than the local file, of the same
/// size, is unchanged, even when the local file was changed in place and
/// given an older time (nothing here can tell it apart).
#[test]
fn mirror_upload_to_a_server_without_mfmt_keeps_the_newer_copy_rule() {
    let remote = tempfile::tempdir().unwrap();
    let srv = Scripted::start(remote.path(), &[]);
    let state = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    let a = src.path().join("a.txt");
    let set_mtime = |t: std::time::SystemTime| {
        std::fs::File::options()
            .write(true)
            .open(&a)
            .unwrap()
            .set_modified(t)
            .unwrap();
    };
    std::fs::write(&a, b"version 1").unwrap();
    let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    set_mtime(hour_ago);
    let url = format!("ftp://u:pw@127.0.0.1:{}/", srv.port);
    let mirror = || {
        babelftp(
            state.path(),
            &["mirror", "-R", "-v", src.path().to_str().unwrap(), &url],
        )
    };
    let (code, _, err) = mirror();
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("1 copied (9 bytes)"), "{err}");
    assert!(!err.contains("MFMT"), "{err}");
    assert_eq!(std::fs::read(remote.path().join("a.txt")).unwrap(), b"version 1");
    std::fs::write(&a, b"version 2").unwrap();
    set_mtime(hour_ago - Duration::from_secs(86_400));
    let (code, _, err) = mirror();
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("0 copied (0 bytes), 1 unchanged"), "{err}");
    // A local file newer than the copy is sent.
    set_mtime(std::time::SystemTime::now() + Duration::from_secs(3600));
    let (code, _, err) = mirror();
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("1 copied (9 bytes)"), "{err}");
    assert_eq!(std::fs::read(remote.path().join("a.txt")).unwrap(), b"version 2");
}

#[test]
fn mirror_resumes_cut_downloads_refetches_changed_ones_and_reconnects_after_a_drop() {
    resumes_cut_downloads(&[]);
}

/// The same over three connections (issue 25.17): the cut and dropped
/// transfers happen on whichever connection took them, that one connects
/// again, and the part files are kept, resumed or removed alike.
#[test]
fn mirror_parallel_resumes_cut_downloads_refetches_changed_ones_and_reconnects_after_a_drop() {
    resumes_cut_downloads(&["--parallel", "3"]);
}

fn resumes_cut_downloads(extra: &[&str]) {
    let remote = tempfile::tempdir().unwrap();
    let r = remote.path();
    let data = |seed: u32, len: u32| -> Vec<u8> { (0..len).map(|i| ((i * seed) % 251) as u8).collect() };
    std::fs::write(r.join("a.bin"), data(3, 200_000)).unwrap();
    std::fs::write(r.join("b.bin"), data(5, 300_000)).unwrap();
    std::fs::write(r.join("c.bin"), data(7, 100_000)).unwrap();
    std::fs::write(r.join("d.bin"), data(11, 100_000)).unwrap();
    std::fs::write(r.join("e.bin"), data(13, 200_000)).unwrap();
    let srv = Scripted::start(r, &["--cut", "b.bin:100000", "--drop", "c.bin", "--cut", "e.bin:50000"]);
    let state = tempfile::tempdir().unwrap();
    let dest = tempfile::tempdir().unwrap();
    let url = format!("ftp://u:pw@127.0.0.1:{}/", srv.port);
    let d = dest.path().to_str().unwrap();
    let args = |first: &[&str]| -> Vec<String> {
        first
            .iter()
            .chain(extra)
            .chain(&[url.as_str(), d])
            .map(|s| s.to_string())
            .collect()
    };
    let run = |first: &[&str]| {
        let a = args(first);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        babelftp(state.path(), &a)
    };
    let (code, _, err) = run(&["mirror"]);
    assert_eq!(code, 1, "{err}");
    for f in ["b.bin", "c.bin", "e.bin"] {
        assert!(err.contains(&format!("failed: {f}: ")), "{f}: {err}");
    }
    assert!(err.contains("the connection was lost; connecting again"), "{err}");
    assert!(err.contains("mirror incomplete: 3 failed"), "{err}");
    // What failed left no file under its name; the cut ones left part
    // files to resume; d.bin, after the drop, came over the new connection.
    let mtime = |f: &str| {
        std::fs::metadata(r.join(f))
            .unwrap()
            .modified()
            .unwrap()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
    };
    let part_b = format!(".b.bin.300000-{}.babelftp-part", mtime("b.bin"));
    let part_e = format!(".e.bin.200000-{}.babelftp-part", mtime("e.bin"));
    let mut want = vec!["a.bin".to_string(), "d.bin".into(), part_b.clone(), part_e.clone()];
    want.sort();
    assert_eq!(files(dest.path()), want, "{err}");
    assert_eq!(std::fs::metadata(dest.path().join(&part_b)).unwrap().len(), 100_000);
    assert_eq!(std::fs::read(dest.path().join("d.bin")).unwrap(), data(11, 100_000));
    // e.bin changes on the server (same size, another time): its part
    // file is not spliced onto the new content.
    std::fs::write(r.join("e.bin"), data(17, 200_000)).unwrap();
    let f = std::fs::File::options().write(true).open(r.join("e.bin")).unwrap();
    f.set_modified(std::time::SystemTime::now() + Duration::from_secs(120))
        .unwrap();
    drop(f);
    let (code, _, err) = run(&["mirror", "-v"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("> REST 100000"), "b.bin resumed: {err}");
    assert_eq!(err.matches("> REST").count(), 1, "{err}");
    assert_eq!(
        files(dest.path()),
        ["a.bin", "b.bin", "c.bin", "d.bin", "e.bin"],
        "{err}"
    );
    assert_eq!(std::fs::read(dest.path().join("b.bin")).unwrap(), data(5, 300_000));
    assert_eq!(std::fs::read(dest.path().join("c.bin")).unwrap(), data(7, 100_000));
    assert_eq!(std::fs::read(dest.path().join("e.bin")).unwrap(), data(17, 200_000));
    assert!(!err.contains("pw@"), "{err}");
}

// ---- issue 25.17: mirror --parallel ----

/// `mirror --parallel 4` both ways with our own server: 120 files with
/// mixed-script names (some in a subdirectory) copied down and back up,
/// every file's contents checked; then nothing left to copy.
#[test]
fn mirror_parallel_both_ways_with_our_server() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let root = srv.root.path();
    common::mixed_tree(&root.join("src"), 120);
    let dest = tempfile::tempdir().unwrap();
    let copy = dest.path().join("copy");
    let base = format!("ftp://bob:secret@127.0.0.1:{}", srv.port());
    let (code, _, err) = babelftp(
        state.path(),
        &[
            "mirror",
            "--parallel",
            "4",
            &format!("{base}/src/"),
            copy.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("120 copied"), "{err}");
    common::assert_same_tree(&root.join("src"), &copy);
    let (code, _, err) = babelftp(
        state.path(),
        &[
            "mirror",
            "-R",
            "--parallel",
            "4",
            copy.to_str().unwrap(),
            &format!("{base}/back/"),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("120 copied"), "{err}");
    common::assert_same_tree(&copy, &root.join("back"));
    // Again: everything is there.
    let (code, _, err) = babelftp(
        state.path(),
        &[
            "mirror",
            "--parallel",
            "4",
            &format!("{base}/src/"),
            copy.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("0 copied") && err.contains("120 unchanged"), "{err}");
    let (code, _, err) = babelftp(
        state.path(),
        &[
            "mirror",
            "-R",
            "--parallel",
            "4",
            copy.to_str().unwrap(),
            &format!("{base}/back/"),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("0 copied") && err.contains("120 unchanged"), "{err}");
}

/// A failure on one of the connections is named and counted as with one
/// connection, and the others go on.
#[test]
fn mirror_parallel_names_a_failed_file_and_goes_on() {
    let srv = start();
    let state = tempfile::tempdir().unwrap();
    let root = srv.root.path();
    common::mixed_tree(&root.join("m"), 40);
    std::fs::write(root.join("m/b.txt"), b"b").unwrap();
    let dest = tempfile::tempdir().unwrap();
    // A directory stands where b.txt would go.
    std::fs::create_dir_all(dest.path().join("b.txt/keep")).unwrap();
    let (code, _, err) = babelftp(
        state.path(),
        &[
            "mirror",
            "--parallel",
            "3",
            &format!("ftp://127.0.0.1:{}/m/", srv.port()),
            dest.path().to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("failed: m/b.txt: "), "{err}");
    assert!(err.contains("mirror incomplete: 1 failed"), "{err}");
    assert!(err.contains("40 copied"), "{err}");
    assert!(dest.path().join("b.txt/keep").is_dir());
    std::fs::remove_dir_all(dest.path().join("b.txt")).unwrap();
    std::fs::remove_file(root.join("m/b.txt")).unwrap();
    common::assert_same_tree(&root.join("m"), dest.path());
}

/// `--parallel` takes 1 to 64: anything else is a usage error (exit 2)
/// that says so, before any connection.
#[test]
fn mirror_parallel_out_of_bounds_is_refused() {
    let state = tempfile::tempdir().unwrap();
    let dest = tempfile::tempdir().unwrap();
    let d = dest.path().join("d");
    for bad in ["0", "65", "four", "-1"] {
        let arg = format!("--parallel={bad}");
        let (code, _, err) = babelftp(
            state.path(),
            &["mirror", &arg, "ftp://127.0.0.1:9/x/", d.to_str().unwrap()],
        );
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(
            err.contains(&format!("--parallel {bad}: write a number of connections from 1 to 64")),
            "{bad}: {err}"
        );
        assert!(!d.exists());
    }
}
