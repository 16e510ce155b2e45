//! Share links (issue 49) with real clients: `babelftp share
//! create|list|rm` against a `babelftp serve` with an accounts store, and
//! curl as the person without an account who opens `/s/TOKEN`: a file
//! downloads with its bytes and name, a folder lists and never reaches
//! outside itself, limits (downloads, expiry, removal, the owner's account)
//! answer 410, a password is asked once in a form, an upload link takes a
//! file into its folder under the owner's quota, guessed tokens get the
//! address banned, and the admin API makes, lists and removes links.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use crate::common;
use common::serve::{admin, run, usage, Serve};
use common::web::{curl, curl_from, Answer};

/// A store with alice (home `/`) and a tree: `/docs/Отчёт 1.txt`,
/// `/pub/{a.txt,sub/b.txt,link -> ../private}`, `/private/secret.txt`,
/// `/in/`. (dir, root, db).
fn setup() -> (tempfile::TempDir, PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    for d in ["docs", "pub/sub", "private", "in"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    std::fs::write(root.join("docs/Отчёт 1.txt"), "report bytes\n").unwrap();
    std::fs::write(root.join("pub/a.txt"), "file a\n").unwrap();
    std::fs::write(root.join("pub/sub/b.txt"), "file b\n").unwrap();
    std::fs::write(root.join("private/secret.txt"), "TOP SECRET\n").unwrap();
    std::os::unix::fs::symlink("../private", root.join("pub/link")).unwrap();
    let db = format!("sqlite:{}", dir.path().join("accounts.db").display());
    let (code, out, err) = run(&["user", "add", "alice", "--home", "/", "--db", &db], "alice-secret\n");
    assert_eq!(code, 0, "{out}{err}");
    (dir, root, db)
}

/// `babelftp serve` with the store, the web view, and `config` lines.
fn serve(dir: &Path, root: &Path, db: &str, config: &str) -> (Serve, String) {
    let conf = dir.join("babelftp.toml");
    std::fs::write(&conf, format!("db = {db:?}\nlogin_fail_delay_ms = 10\n{config}")).unwrap();
    let srv = Serve::start_logged(
        root,
        &["--config", conf.to_str().unwrap(), "--http-listen", "127.0.0.1:0"],
        &[],
        Some(&dir.join("serve.log")),
    );
    let web = srv.url_after("web view: ");
    (srv, web)
}

/// `babelftp share create ARGS --url WEB`: (id, url).
fn create(db: &str, web: &str, args: &[&str], stdin: &str) -> (String, String) {
    let mut all = vec!["share", "create"];
    all.extend_from_slice(args);
    all.extend(["--url", web, "--db", db]);
    let (code, out, err) = run(&all, stdin);
    assert_eq!(code, 0, "babelftp {all:?}: {out}{err}");
    let url = out.trim().to_owned();
    assert!(url.starts_with(&format!("{web}/s/bfs_")), "{url}");
    // `share ID of USER: PATH`
    let id = err
        .split_whitespace()
        .nth(1)
        .unwrap_or_else(|| panic!("no id in {err:?}"))
        .to_owned();
    (id, url)
}

fn get(dir: &Path, url: &str) -> Answer {
    curl(&dir.join("anon-jar"), url, &["--path-as-is"])
}

#[test]
fn a_file_share_made_with_the_cli_downloads_its_bytes_and_name_once_then_answers_410() {
    let (dir, root, db) = setup();
    let (_srv, web) = serve(dir.path(), &root, &db, "");
    let (id, url) = create(
        &db,
        &web,
        &["/docs/Отчёт 1.txt", "--user", "alice", "--max-downloads", "1"],
        "",
    );
    let listed = admin(&db, &["share", "list"]);
    let line = listed
        .lines()
        .find(|l| l.starts_with(&id))
        .unwrap_or_else(|| panic!("{listed}"));
    assert!(line.contains("\talice\tdownload\t/docs/Отчёт 1.txt\t"), "{line}");
    assert!(line.contains("\t0/1\t-\t-"), "{line}");
    // A HEAD takes no download.
    let head = curl(&dir.path().join("h"), &url, &["-I"]);
    assert_eq!(head.status, 200, "{}", head.headers);
    let a = get(dir.path(), &url);
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.bytes, b"report bytes\n");
    let cd = a.header("content-disposition").unwrap();
    assert!(cd.starts_with("attachment"), "{cd}");
    assert!(
        cd.contains("filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82%201.txt"),
        "{cd}"
    );
    assert!(admin(&db, &["share", "list", "--user", "alice"]).contains("\t1/1\t"));
    // A range is a download too: the limit holds for it.
    let range = curl(&dir.path().join("r"), &url, &["-r", "1-"]);
    assert_eq!(range.status, 410, "{}", range.body);
    let again = get(dir.path(), &url);
    assert_eq!(again.status, 410, "the one download is used: {}", again.body);
    assert!(again.body.contains("no longer works"), "{}", again.body);
    assert!(!again.body.contains("report bytes"));
    // Removed: gone, and no longer listed.
    let (code, out, err) = run(&["share", "rm", &id, "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("share {id} removed")), "{out}");
    assert!(!admin(&db, &["share", "list"]).contains(&id));
    let (code, _, err) = run(&["share", "rm", &id, "--db", &db], "");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!("no share \"{id}\"")) || err.contains(&format!("no share {id}")),
        "{err}"
    );
}

#[test]
fn a_folder_share_lists_and_downloads_inside_it_and_nothing_outside() {
    let (dir, root, db) = setup();
    let (_srv, web) = serve(dir.path(), &root, &db, "");
    let (_, url) = create(&db, &web, &["/pub", "--user", "alice"], "");
    let token_path = url.strip_prefix(&web).unwrap().to_owned();
    let page = get(dir.path(), &format!("{url}/"));
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("href=\"a.txt\"") && page.body.contains("href=\"sub/\""),
        "{}",
        page.body
    );
    // Its links stay under the share; no login, search or FTP link.
    assert!(page.body.contains(&format!("href=\"{token_path}/\"")), "{}", page.body);
    assert!(!page.body.contains("login-link") && !page.body.contains("id=\"search\""));
    assert!(
        !page.body.contains("ftp://") && !page.body.contains("?info"),
        "{}",
        page.body
    );
    // Without the final `/`, the folder's page is one redirect away, under the share.
    let bare = get(dir.path(), &url);
    assert!(matches!(bare.status, 301 | 303), "{}: {}", bare.status, bare.body);
    assert_eq!(bare.header("location").unwrap(), format!("{token_path}/"));
    let b = get(dir.path(), &format!("{url}/sub/b.txt"));
    assert_eq!((b.status, b.bytes.as_slice()), (200, &b"file b\n"[..]), "{}", b.body);
    let part = curl(&dir.path().join("anon-jar"), &format!("{url}/sub/b.txt"), &["-r", "5-"]);
    assert_eq!(
        (part.status, part.bytes.as_slice()),
        (206, &b"b\n"[..]),
        "{}",
        part.body
    );
    // Every way up or out stays out of /private.
    for escape in [
        format!("{url}/../../private/secret.txt"),
        format!("{url}/%2e%2e/%2e%2e/private/secret.txt"),
        format!("{url}/sub/../../private/secret.txt"),
        format!("{url}/link/secret.txt"),
        format!("{url}/link/"),
        format!("{url}/..%2fprivate/secret.txt"),
    ] {
        let a = get(dir.path(), &escape);
        assert!(!a.body.contains("TOP SECRET"), "{escape}: {}", a.body);
        assert_ne!(a.status, 200, "{escape}: {}", a.body);
    }
    // A folder share is read-only: no upload there.
    let up = curl(
        &dir.path().join("anon-jar"),
        &format!("{url}/x.txt?upload"),
        &[
            "-X",
            "POST",
            "--data-binary",
            "x",
            "-H",
            "Content-Type: application/octet-stream",
        ],
    );
    assert_ne!(up.status / 100, 2, "{}", up.body);
    assert!(!root.join("pub/x.txt").exists());
}

#[test]
fn expired_removed_and_disabled_or_deleted_owners_shares_end() {
    let (dir, root, db) = setup();
    let (_srv, web) = serve(dir.path(), &root, &db, "");
    let (_, short) = create(&db, &web, &["/pub/a.txt", "--user", "alice", "--expires", "1s"], "");
    let (_, kept) = create(&db, &web, &["/pub/a.txt", "--user", "alice"], "");
    // Not a timed assertion: past its second, whenever that is read.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert_eq!(get(dir.path(), &short).status, 410);
    assert_eq!(get(dir.path(), &kept).status, 200);
    admin(&db, &["user", "set", "alice", "--disable"]);
    assert_eq!(get(dir.path(), &kept).status, 410, "a disabled owner's shares are gone");
    admin(&db, &["user", "set", "alice", "--enable"]);
    assert_eq!(get(dir.path(), &kept).status, 200);
    admin(&db, &["user", "rm", "alice"]);
    let a = get(dir.path(), &kept);
    assert_eq!(a.status, 410, "{}", a.body);
    assert!(!admin(&db, &["share", "list"]).contains("alice"));
}

#[test]
fn a_password_is_asked_once_in_a_form_then_the_file_downloads() {
    let (dir, root, db) = setup();
    let (_srv, web) = serve(dir.path(), &root, &db, "");
    let (_, url) = create(
        &db,
        &web,
        &["/pub/a.txt", "--user", "alice", "--password"],
        "open sesame\n",
    );
    let jar = dir.path().join("pw-jar");
    let form = curl(&jar, &url, &[]);
    assert_eq!(form.status, 401, "{}", form.body);
    assert!(form.body.contains("id=\"share-unlock\""), "{}", form.body);
    assert!(!form.body.contains("file a"));
    let token = form.token("share-unlock");
    let wrong = common::web::post(&jar, &url, &token, &["password=nope"], &[]);
    assert_eq!(wrong.status, 401, "{}", wrong.body);
    assert!(wrong.body.contains("Wrong password"), "{}", wrong.body);
    let right = common::web::post(&jar, &url, &token, &["password=open sesame"], &[]);
    assert_eq!(right.status, 303, "{}", right.body);
    let cookie = right
        .headers
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie: bftp_share="))
        .unwrap_or_else(|| panic!("{}", right.headers));
    let path = url.strip_prefix(&web).unwrap();
    assert!(cookie.contains(&format!("Path={path}")), "{cookie}");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    // Asked once: the next requests download.
    for _ in 0..2 {
        let a = curl(&jar, &url, &[]);
        assert_eq!((a.status, a.bytes.as_slice()), (200, &b"file a\n"[..]), "{}", a.body);
    }
    // Another client without the cookie is asked again.
    assert_eq!(curl(&dir.path().join("other-jar"), &url, &[]).status, 401);
}

#[test]
fn an_upload_share_takes_a_file_into_its_folder_under_the_owners_quota() {
    let (dir, root, db) = setup();
    admin(&db, &["user", "set", "alice", "--quota-bytes", "1MiB"]);
    let (_srv, web) = serve(dir.path(), &root, &db, "");
    let (_, url) = create(
        &db,
        &web,
        &["/in", "--user", "alice", "--upload", "--max-uploads", "2"],
        "",
    );
    let jar = dir.path().join("up-jar");
    let page = curl(&jar, &format!("{url}/"), &[]);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("id=\"upload\""), "{}", page.body);
    let token = page.token("upload");
    let file = dir.path().join("dropped.txt");
    std::fs::write(&file, "dropped by a visitor\n").unwrap();
    let (csrf, part) = (format!("csrf={token}"), format!("file=@{}", file.display()));
    let up = curl(&jar, &format!("{url}/?upload"), &["-F", &csrf, "-F", &part]);
    assert_eq!(up.status, 303, "{}", up.body);
    assert!(up
        .header("location")
        .unwrap()
        .starts_with(url.strip_prefix(&web).unwrap()));
    assert_eq!(
        std::fs::read_to_string(root.join("in/dropped.txt")).unwrap(),
        "dropped by a visitor\n"
    );
    let (bytes, files) = usage(&db, "alice");
    assert!(bytes >= 21 && files >= 1, "{bytes} {files}");
    // An upload link shows nothing of the folder.
    assert_eq!(curl(&jar, &format!("{url}/dropped.txt"), &[]).status, 404);
    assert!(!curl(&jar, &format!("{url}/"), &[]).body.contains("dropped.txt"));
    // The same name again is refused (an upload link overwrites nothing)
    // and takes no upload; two were allowed, then the link is used up.
    let same = curl(&jar, &format!("{url}/?upload"), &["-F", &csrf, "-F", &part]);
    assert_eq!(same.status, 409, "{}", same.body);
    let other = dir.path().join("second.txt");
    std::fs::write(&other, "second\n").unwrap();
    let part = format!("file=@{}", other.display());
    let second = curl(&jar, &format!("{url}/?upload"), &["-F", &csrf, "-F", &part]);
    assert_eq!(second.status, 303, "{}", second.body);
    assert!(root.join("in/second.txt").exists());
    let third = curl(&jar, &format!("{url}/?upload"), &["-F", &csrf, "-F", &part]);
    assert_eq!(third.status, 410, "{}", third.body);
    assert_eq!(curl(&jar, &format!("{url}/"), &[]).status, 410);
}

#[test]
fn guessed_tokens_get_the_address_banned_and_networks_are_enforced() {
    let (dir, root, db) = setup();
    let (_srv, web) = serve(
        dir.path(),
        &root,
        &db,
        "[defender]\nthreshold = 5\nban_time = 60\nallow = []\nconnections_per_second = 1000\n",
    );
    let (_, url) = create(
        &db,
        &web,
        &["/pub/a.txt", "--user", "alice", "--allow", "127.0.0.9/32"],
        "",
    );
    let jar = dir.path().join("g-jar");
    // Outside its networks: 403; inside: the file.
    assert_eq!(curl_from("127.0.0.8", &jar, &url, &[]).status, 403);
    assert_eq!(curl_from("127.0.0.9", &jar, &url, &[]).status, 200);
    let mut statuses = Vec::new();
    for i in 0..20 {
        let guess = format!("{web}/s/bfs_{:064x}", i);
        let s = curl_from("127.0.0.7", &jar, &guess, &[]).status;
        statuses.push(s);
        if s != 404 {
            break;
        }
    }
    assert_eq!(statuses[0], 404, "{statuses:?}");
    assert!(
        matches!(statuses.last(), Some(0 | 403)),
        "the guesser is banned: {statuses:?}"
    );
    // Banned for everything, not only shares; others are not.
    assert!(matches!(
        curl_from("127.0.0.7", &jar, &format!("{web}/?login"), &[]).status,
        0 | 403
    ));
    assert_eq!(curl_from("127.0.0.9", &jar, &url, &[]).status, 200);
}

#[test]
fn downloads_through_a_share_are_events_of_the_owner_that_name_the_share() {
    let (dir, root, db) = setup();
    let log = dir.path().join("events.jsonl");
    let script = dir.path().join("hook.sh");
    std::fs::write(
        &script,
        format!("cat >> {}\necho >> {}\n", log.display(), log.display()),
    )
    .unwrap();
    let (_srv, web) = serve(
        dir.path(),
        &root,
        &db,
        &format!(
            "[[hook]]\ncommand = \"sh {}\"\nevents = [\"download\"]\ntimeout_ms = 5000\n",
            script.display()
        ),
    );
    let (id, url) = create(&db, &web, &["/pub", "--user", "alice"], "");
    let a = get(dir.path(), &format!("{url}/a.txt"));
    assert_eq!(a.status, 200);
    // The hook runs after the answer: read until its line is there.
    let mut found = None;
    for _ in 0..200 {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if let Some(l) = text.lines().find(|l| l.contains("\"download\"")) {
            found = Some(l.to_owned());
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let line = found.expect("a download event");
    let ev: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(ev["user"], "alice", "{ev}");
    assert!(
        ev["session"].as_str().unwrap().ends_with(&format!("-share-{id}")),
        "{ev}"
    );
}

#[test]
fn the_admin_api_makes_lists_and_removes_shares() {
    let (dir, root, db) = setup();
    let token = admin(&db, &["admin", "token", "create", "--name", "ci"])
        .trim()
        .to_owned();
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(&conf, format!("db = {db:?}\n")).unwrap();
    let srv = Serve::start(
        &root,
        &[
            "--config",
            conf.to_str().unwrap(),
            "--http-listen",
            "127.0.0.1:0",
            "--admin-listen",
            "127.0.0.1:0",
        ],
    );
    // (its start-up lines: the admin API's first; its URL ends in /api/v1)
    let api = srv.url_after("admin API: ");
    let web = srv.url_after("web view: ");
    let jar = dir.path().join("api-jar");
    let auth = format!("Authorization: Bearer {token}");
    let made = curl(
        &jar,
        &format!("{api}/shares"),
        &[
            "-H",
            &auth,
            "-H",
            "Content-Type: application/json",
            "--data",
            r#"{"user":"alice","path":"/pub/a.txt","max_downloads":1}"#,
        ],
    );
    assert_eq!(made.status, 201, "{}", made.body);
    let v: serde_json::Value = serde_json::from_str(&made.body).unwrap();
    let id = v["id"].as_str().unwrap().to_owned();
    let link = v["token"].as_str().unwrap().to_owned();
    assert!(link.starts_with("bfs_"), "{v}");
    let listed = curl(&jar, &format!("{api}/shares"), &["-H", &auth]);
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert!(
        listed.body.contains(&id) && !listed.body.contains(&link),
        "{}",
        listed.body
    );
    let a = get(dir.path(), &format!("{web}/s/{link}"));
    assert_eq!((a.status, a.bytes.as_slice()), (200, &b"file a\n"[..]));
    let rm = curl(&jar, &format!("{api}/shares/{id}"), &["-X", "DELETE", "-H", &auth]);
    assert_eq!(rm.status / 100, 2, "{}", rm.body);
    assert!(!curl(&jar, &format!("{api}/shares"), &["-H", &auth]).body.contains(&id));
    let again = curl(&jar, &format!("{api}/shares/{id}"), &["-X", "DELETE", "-H", &auth]);
    assert_eq!(again.status, 404, "{}", again.body);
    // Without a token: refused.
    assert_eq!(curl(&jar, &format!("{api}/shares"), &[]).status, 401);
}

#[test]
fn the_page_makes_links_only_of_what_the_user_may_read_or_write() {
    let (dir, root, db) = setup();
    admin(&db, &["user", "perm", "alice", "/", "list"]);
    admin(&db, &["user", "perm", "alice", "/pub", "read"]);
    admin(&db, &["user", "perm", "alice", "/in", "upload"]);
    admin(&db, &["user", "perm", "alice", "/private", "none"]);
    let (_srv, web) = serve(dir.path(), &root, &db, "");
    let jar = dir.path().join("alice-jar");
    let logged = common::web::login_from("127.0.0.1", &jar, &web, "/pub/", "alice", "alice-secret", &[]);
    assert_eq!(logged.status, 200, "{}", logged.body);
    let info = curl(&jar, &format!("{web}/pub/a.txt?info"), &[]);
    assert_eq!(info.status, 200, "{}", info.body);
    let token = info.token("share");
    let ok = common::web::post(
        &jar,
        &format!("{web}/pub/a.txt?share"),
        &token,
        &["expires=1h", "max=2"],
        &[],
    );
    assert_eq!(ok.status, 201, "{}", ok.body);
    assert!(ok.body.contains(&format!("{web}/s/bfs_")), "{}", ok.body);
    // The link works for someone else.
    let link = ok
        .body
        .split("id=\"share-url\" href=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    assert_eq!(get(dir.path(), &link).bytes, b"file a\n");
    // Not readable, not writable: refused, nothing made.
    for (path, fields) in [
        ("/private/secret.txt", vec![]),
        ("/pub/", vec!["upload=1"]),
        ("/in/", vec![]),
    ] {
        let r = common::web::post(&jar, &format!("{web}{path}?share"), &token, &fields, &[]);
        assert_eq!(r.status, 403, "{path}: {}", r.body);
    }
    // A drop box may have an upload link.
    let up = common::web::post(&jar, &format!("{web}/in/?share"), &token, &["upload=1"], &[]);
    assert_eq!(up.status, 201, "{}", up.body);
    // Without the form's token: refused.
    let forged = common::web::post(&jar, &format!("{web}/pub/a.txt?share"), "x", &[], &[]);
    assert_eq!(forged.status, 403);
    let listed = admin(&db, &["share", "list"]);
    assert_eq!(listed.lines().count(), 2, "{listed}");
    assert!(listed.contains("\tupload\t/in\t"), "{listed}");
}

#[test]
fn share_create_refuses_what_it_cannot_make() {
    let (_dir, _root, db) = setup();
    for (args, code, says) in [
        (vec!["docs/x", "--user", "alice"], 2, "is not an absolute path"),
        (
            vec!["/docs", "--user", "alice", "--expires", "soon"],
            2,
            "is not a duration",
        ),
        (
            vec!["/docs", "--user", "alice", "--allow", "10.0.0.0/33"],
            2,
            "is not a network",
        ),
        (vec!["/docs", "--user", "nobody"], 1, "nobody"),
        (vec!["/docs", "--user", "alice", "--max-uploads", "3"], 2, "--upload"),
        (
            vec!["/docs", "--user", "alice", "--upload", "--max-downloads", "3"],
            2,
            "--max-downloads",
        ),
    ] {
        let mut all = vec!["share", "create"];
        all.extend_from_slice(&args);
        all.extend(["--db", &db]);
        let (c, out, err) = run(&all, "");
        assert_eq!(c, code, "{all:?}: {out}{err}");
        assert!(err.contains(says), "{all:?}: {err}");
    }
    // Without --url or a configuration naming the web view: the link's path, and a note.
    let (c, out, err) = run(&["share", "create", "/docs", "--user", "alice", "--db", &db], "");
    assert_eq!(c, 0, "{out}{err}");
    assert!(out.trim().starts_with("/s/bfs_"), "{out}");
    assert!(err.contains("--url"), "{err}");
    let (c, _, err) = run(&["share", "list", "--user", "nobody", "--db", &db], "");
    assert_eq!(c, 0, "{err}");
    assert!(err.contains("no share links"), "{err}");
}

#[test]
fn a_folder_share_holds_to_the_owners_permissions_now_and_a_refusal_takes_no_download() {
    let (dir, root, db) = setup();
    let (_srv, web) = serve(dir.path(), &root, &db, "");
    let (_, url) = create(&db, &web, &["/pub", "--user", "alice", "--max-downloads", "1"], "");
    // The owner may no longer read /pub/sub: refused there, and the
    // refusal takes none of the link's downloads.
    admin(&db, &["user", "perm", "alice", "/", "all"]);
    admin(&db, &["user", "perm", "alice", "/pub/sub", "none"]);
    let b = get(dir.path(), &format!("{url}/sub/b.txt"));
    assert_eq!(b.status, 403, "{}", b.body);
    assert!(!b.body.contains("file b"));
    let page = get(dir.path(), &format!("{url}/"));
    assert!(!page.body.contains("href=\"sub/\""), "{}", page.body);
    let a = get(dir.path(), &format!("{url}/a.txt"));
    assert_eq!((a.status, a.bytes.as_slice()), (200, &b"file a\n"[..]), "{}", a.body);
    assert_eq!(get(dir.path(), &format!("{url}/a.txt")).status, 410);
}

/// Visitors racing for the last downloads of a link: eight curl clients
/// at once on a link of three downloads get three files and five 410s,
/// and the store counts 3/3 (the use is taken in one statement, so no
/// two requests take the same one).
#[test]
fn visitors_racing_for_a_links_downloads_get_exactly_its_limit() {
    let (dir, root, db) = setup();
    let (_srv, web) = serve(dir.path(), &root, &db, "");
    let (id, url) = create(
        &db,
        &web,
        &["/pub/a.txt", "--user", "alice", "--max-downloads", "3"],
        "",
    );
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(8));
    let racers: Vec<_> = (0..8)
        .map(|i| {
            let (barrier, url) = (barrier.clone(), url.clone());
            let jar = dir.path().join(format!("race-{i}"));
            std::thread::spawn(move || {
                barrier.wait();
                let a = curl(&jar, &url, &[]);
                (a.status, a.bytes)
            })
        })
        .collect();
    let mut got: Vec<(u16, Vec<u8>)> = racers.into_iter().map(|t| t.join().unwrap()).collect();
    got.sort();
    let statuses: Vec<u16> = got.iter().map(|(s, _)| *s).collect();
    assert_eq!(statuses, [200, 200, 200, 410, 410, 410, 410, 410], "{got:?}");
    assert!(got[..3].iter().all(|(_, b)| b == b"file a\n"));
    let listed = admin(&db, &["share", "list"]);
    let line = listed.lines().find(|l| l.starts_with(&id)).unwrap();
    assert!(line.contains("\t3/3\t"), "{line}");
}
