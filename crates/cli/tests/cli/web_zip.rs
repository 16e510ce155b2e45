//! Several entries as one zip (issue 49), through curl and Python's
//! zipfile: `POST DIR/?zip` with the page's token and the `name` values
//! of the listing's checkboxes; a UTF-8 Cyrillic name, a windows-1251
//! name decoded by the tree, a name that is not UTF-8 (`%HH`), folders
//! recursed; names marked UTF-8 (bit 11); what the user may not read
//! left out; a POST without the token refused.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::Duration;

use crate::common;
use common::serve::{admin, python, run, Serve};
use common::web::{curl, login_from, Answer};

/// The `value` of every checkbox of the zip form on a page (as the
/// browser would send them).
fn pick_values(page: &str) -> Vec<(String, String)> {
    page.split("<input type=\"checkbox\" name=\"name\" value=\"")
        .skip(1)
        .map(|s| {
            let value = s.split('"').next().unwrap().to_owned();
            let label = s
                .split("aria-label=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .to_owned();
            (value, label)
        })
        .collect()
}

/// The archive's entries through Python's zipfile: (name, flag bits,
/// content as UTF-8 text or `<n bytes>`), after `testzip` checked every
/// CRC.
fn unzip(dir: &Path, bytes: &[u8]) -> Vec<(String, u64, String)> {
    let path = dir.join("got.zip");
    std::fs::write(&path, bytes).unwrap();
    let out = python(&format!(
        "import json, zipfile\nz = zipfile.ZipFile({:?})\nassert z.testzip() is None\nout = []\nfor i in z.infolist():\n    d = z.read(i)\n    try:\n        t = d.decode('utf-8')\n    except UnicodeDecodeError:\n        t = '<%d bytes>' % len(d)\n    out.append([i.filename, i.flag_bits, t])\nprint(json.dumps(out))",
        path.to_str().unwrap()
    ));
    let v: Vec<(String, u64, String)> = serde_json::from_str(out.trim()).unwrap();
    v
}

fn post_zip(jar: &Path, url: &str, token: Option<&str>, names: &[&str]) -> Answer {
    let mut args: Vec<String> = Vec::new();
    if let Some(t) = token {
        args.extend(["--data-urlencode".into(), format!("csrf={t}")]);
    }
    for n in names {
        args.extend(["--data-urlencode".into(), format!("name={n}")]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    curl(jar, url, &args)
}

#[test]
fn a_zip_of_several_entries_streams_utf8_names_and_leaves_out_what_the_user_may_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let docs = root.join("docs");
    for d in ["sub/deeper", "cp", "private"] {
        std::fs::create_dir_all(docs.join(d)).unwrap();
    }
    std::fs::write(docs.join("Отчёт.txt"), "отчёт\n").unwrap();
    std::fs::write(docs.join("sub/a.txt"), "a\n").unwrap();
    let big: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(docs.join("sub/deeper/big.bin"), &big).unwrap();
    // "Отчёт за год.txt" in windows-1251, in a folder the server is told
    // holds windows-1251 names.
    std::fs::write(
        docs.join("cp").join(std::ffi::OsStr::from_bytes(
            b"\xCE\xF2\xF7\xB8\xF2 \xE7\xE0 \xE3\xEE\xE4.txt",
        )),
        "cp1251\n",
    )
    .unwrap();
    // A name that is not UTF-8 anywhere (Latin-1 "été.txt").
    std::fs::write(docs.join(std::ffi::OsStr::from_bytes(b"\xE9t\xE9.txt")), "latin-1\n").unwrap();
    std::fs::write(docs.join("secret.txt"), "secret\n").unwrap();
    std::fs::write(docs.join("sub/hidden.txt"), "hidden\n").unwrap();
    std::fs::write(docs.join("private/p.txt"), "private\n").unwrap();
    std::fs::write(dir.path().join("outside.txt"), "outside\n").unwrap();
    // A link out of the root: never followed out of it.
    std::os::unix::fs::symlink(dir.path().join("outside.txt"), docs.join("sub/out.txt")).unwrap();
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let (code, out, err) = run(&["user", "add", "bob", "--home", "/", "--db", &db], "bob-secret\n");
    assert_eq!(code, 0, "{out}{err}");
    admin(&db, &["user", "perm", "bob", "/", "read"]);
    // Seen in the listing, not downloadable; not there at all.
    admin(&db, &["user", "perm", "bob", "/docs/secret.txt", "list"]);
    admin(&db, &["user", "perm", "bob", "/docs/sub/hidden.txt", "list"]);
    admin(&db, &["user", "perm", "bob", "/docs/private", "none"]);
    // Each file of a zip is a download, with its event.
    let events = dir.path().join("events.jsonl");
    let hook = dir.path().join("hook.sh");
    std::fs::write(
        &hook,
        format!("#!/bin/sh\ncat >> '{0}'\necho >> '{0}'\n", events.display()),
    )
    .unwrap();
    std::fs::set_permissions(&hook, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(
        &conf,
        format!(
            "[[hook]]\ncommand = {:?}\nevents = [\"download\"]\n",
            hook.display().to_string()
        ),
    )
    .unwrap();
    let srv = Serve::start(
        &root,
        &[
            "--http-listen",
            "127.0.0.1:0",
            "--config",
            conf.to_str().unwrap(),
            "--db",
            &db,
            "--dir-charset",
            "/docs/cp=windows-1251",
        ],
    );
    let base = srv.url_after("web view: ");
    let jar = dir.path().join("jar");
    let page = login_from("127.0.0.1", &jar, &base, "/docs/", "bob", "bob-secret", &[]);
    assert_eq!(page.status, 200, "{}", page.body);
    let token = page.token("zip-form");
    assert!(page.body.contains("id=\"zip-submit\""), "{}", page.body);
    let picks = pick_values(&page.body);
    let labels: Vec<&str> = picks.iter().map(|(_, l)| l.as_str()).collect();
    // One per row, labelled with its name; the hidden folder has none.
    for want in ["cp", "sub", "Отчёт.txt", "%E9t%E9.txt", "secret.txt"] {
        assert!(labels.contains(&want), "{want} not in {labels:?}");
    }
    assert!(!labels.contains(&"private"), "{labels:?}");
    let values: Vec<&str> = picks.iter().map(|(v, _)| v.as_str()).collect();
    assert!(values.contains(&"%E9t%E9.txt"), "{values:?}");

    let r = post_zip(&jar, &format!("{base}/docs/?zip"), Some(&token), &values);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("content-type").as_deref(), Some("application/zip"));
    assert_eq!(
        r.header("content-disposition").as_deref(),
        Some("attachment; filename=\"docs.zip\"; filename*=UTF-8''docs.zip")
    );
    assert!(r.header("content-length").is_none(), "streamed: {}", r.headers);
    let entries = unzip(dir.path(), &r.bytes);
    let mut names: Vec<&str> = entries.iter().map(|(n, _, _)| n.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        vec![
            "%E9t%E9.txt",
            "cp/",
            "cp/Отчёт за год.txt",
            "sub/",
            "sub/a.txt",
            "sub/deeper/",
            "sub/deeper/big.bin",
            "Отчёт.txt",
        ],
        "the secret, the hidden, the private and the link out are left out"
    );
    for (name, flags, text) in &entries {
        assert_ne!(flags & (1 << 11), 0, "{name}: the UTF-8 flag");
        let want = match name.as_str() {
            "%E9t%E9.txt" => "latin-1\n".to_owned(),
            "cp/Отчёт за год.txt" => "cp1251\n".to_owned(),
            "sub/a.txt" => "a\n".to_owned(),
            "sub/deeper/big.bin" => format!("<{} bytes>", big.len()),
            "Отчёт.txt" => "отчёт\n".to_owned(),
            _ => String::new(),
        };
        assert_eq!(text, &want, "{name}");
    }
    // The big file byte for byte.
    let got = python(&format!(
        "import hashlib, zipfile\nprint(hashlib.sha256(zipfile.ZipFile({:?}).read('sub/deeper/big.bin')).hexdigest())",
        dir.path().join("got.zip").to_str().unwrap()
    ));
    let want = python(&format!(
        "import hashlib\nprint(hashlib.sha256(open({:?}, 'rb').read()).hexdigest())",
        docs.join("sub/deeper/big.bin").to_str().unwrap()
    ));
    assert_eq!(got, want);
    // One download event per file put in, complete; none for what was left out.
    let read = || std::fs::read_to_string(&events).unwrap_or_default();
    // (Hooks run side by side: two events may share a line.)
    let five = |t: &str| t.matches("\"event\":\"download\"").count() == 5;
    babelftp_test_support::poll(Duration::from_secs(20), || five(&read()).then_some(()));
    let text = read();
    assert!(five(&text), "five download events:\n{text}");
    for want in ["/docs/sub/a.txt", "/docs/sub/deeper/big.bin", "/docs/Отчёт.txt"] {
        let line = text
            .split("{\"id\"")
            .find(|l| l.contains(want))
            .unwrap_or_else(|| panic!("{want}: {text}"));
        assert!(line.contains("\"complete\""), "{line}");
    }
    assert!(!text.contains("secret") && !text.contains("hidden"), "{text}");

    // Only what the user may not read: the whole zip is a 404.
    let r = post_zip(&jar, &format!("{base}/docs/?zip"), Some(&token), &["private"]);
    assert_eq!(r.status, 404, "{}", r.body);
    // A name that is not one name, no name, no token, a wrong token.
    let r = post_zip(&jar, &format!("{base}/docs/?zip"), Some(&token), &["..%2Fsecret.txt"]);
    assert_eq!(r.status, 400);
    let r = post_zip(&jar, &format!("{base}/docs/?zip"), Some(&token), &[]);
    assert_eq!(r.status, 400);
    for t in [None, Some("0".repeat(64))] {
        let r = post_zip(&jar, &format!("{base}/docs/?zip"), t.as_deref(), &["sub"]);
        assert_eq!(r.status, 403, "{}", r.body);
        assert!(r.body.contains("id=\"error\""), "{}", r.body);
        assert_ne!(r.header("content-type").as_deref(), Some("application/zip"));
    }
}
