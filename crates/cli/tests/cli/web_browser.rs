//! The web view in a real browser (issue 31): Debian's Chromium, headless,
//! driven through chromedriver by tests/web/browser.py (Selenium). Log in,
//! open a Japanese folder, download a file and compare its bytes, upload
//! a file with an Arabic name and find it over FTP, switch to Arabic and
//! see the page right to left, open a folder of hostile names and see no
//! script run (no dialog ever opens, no CSP violation from our pages).
//!
//! `BABELFTP_SCREENSHOTS=1 cargo test -p babelftp --test cli -- web_browser:: web_a11y::`
//! writes the guide's screenshots (the listing in three scripts; and
//! desktop, phone, right to left, dark) into docs/guide/src/img.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

use crate::common;
use common::serve::{ftplib, Serve};

/// Runs a browser script; its JSON report.
pub(crate) fn browse(dir: &Path, script: &Value) -> Value {
    let file = dir.join("script.json");
    std::fs::write(&file, serde_json::to_vec(script).unwrap()).unwrap();
    let tool = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/web/browser.py");
    let out = Command::new("python3")
        .arg(&tool)
        .arg(&file)
        .output()
        .expect("python3 must be installed (scripts/test.sh installs it)");
    let text = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| {
        panic!(
            "browser.py gave no report ({e}); chromium, chromium-driver and python3-selenium are installed by scripts/test.sh\nstdout: {text}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(
        out.status.success() && report["ok"] == true,
        "browser script failed: {}\nstderr: {}",
        serde_json::to_string_pretty(&report).unwrap(),
        String::from_utf8_lossy(&out.stderr)
    );
    report
}

pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned()
}

#[test]
fn a_browser_logs_in_downloads_uploads_switches_to_arabic_and_runs_no_hostile_script() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("資料")).unwrap();
    std::fs::create_dir_all(root.join("hostile")).unwrap();
    std::fs::create_dir_all(root.join("koi")).unwrap();
    let report: Vec<u8> = (0..200_000u32).flat_map(|i| i.to_le_bytes()).collect();
    std::fs::write(root.join("資料/報告書.bin"), &report).unwrap();
    std::fs::write(root.join("資料/議事録 2026年11月.txt"), "議事録\n").unwrap();
    std::fs::write(root.join("資料/写真.jpg"), vec![0xFFu8; 3000]).unwrap();
    for name in [
        "<img src=x onerror=alert(1)>.txt",
        "<b onmouseover=alert(2)>bold<b>.txt",
        "\"><svg onload=alert(3)>.txt",
        "evil\u{202E}gnp.exe",
    ] {
        std::fs::write(root.join("hostile").join(name), "x").unwrap();
    }
    std::fs::write(
        root.join("hostile/page.html"),
        "<script>alert(4)</script><h1>stored</h1>",
    )
    .unwrap();
    {
        use std::os::unix::ffi::OsStrExt;
        // "Отчёт.txt" and "Привет мир.txt" in KOI8-R.
        for n in [
            &b"\xEF\xD4\xDE\xA3\xD4.txt"[..],
            &b"\xF0\xD2\xC9\xD7\xC5\xD4 \xCD\xC9\xD2.txt"[..],
        ] {
            std::fs::write(root.join("koi").join(std::ffi::OsStr::from_bytes(n)), "koi8-r").unwrap();
        }
    }
    let srv = Serve::start(
        &root,
        &[
            "--http-listen",
            "127.0.0.1:0",
            "--user",
            "alice:secret",
            "--dir-charset",
            "/koi=KOI8-R",
        ],
    );
    let base = srv
        .wait_for("web view: ")
        .split_whitespace()
        .find(|w| w.starts_with("http"))
        .unwrap()
        .trim_end_matches('/')
        .to_owned();
    let downloads = dir.path().join("downloads");
    std::fs::create_dir_all(&downloads).unwrap();
    let upload = dir.path().join("تقرير الربع الثالث.txt");
    std::fs::write(&upload, "تقرير: كل شيء على ما يرام\n").unwrap();
    let shots = crate::web_a11y::shots_dir();
    let shot = |name: &str| match &shots {
        Some(d) => json!({"op": "screenshot", "path": d.join(name).to_str().unwrap()}),
        None => json!({"op": "screenshot", "path": dir.path().join(name).to_str().unwrap()}),
    };
    let ja = "/%E8%B3%87%E6%96%99/";
    let r = browse(
        dir.path(),
        &json!({
            "download_dir": downloads.to_str().unwrap(),
            "lang": "ja",
            "window": [1100, 700],
            "failure_screenshot": dir.path().join("failure.png").to_str().unwrap(),
            "steps": [
                {"op": "open", "url": format!("{base}{ja}")},
                {"op": "type", "css": "#login-user", "text": "alice"},
                {"op": "type", "css": "#login-password", "text": "secret"},
                {"op": "click", "css": "#login-submit"},
                {"op": "wait_for", "css": "#user", "text": "alice"},
                {"op": "texts", "css": "a.n"},
                {"op": "attribute", "css": "html", "name": "lang"},
                shot("web-ja.png"),
                // Download by clicking the name.
                {"op": "click", "css": "a.n[href='報告書.bin']"},
                {"op": "wait_for_download", "timeout": 30},
                // Upload a file with an Arabic name (the page's script: XHR, then reload).
                {"op": "upload", "css": "#upload-files", "path": upload.to_str().unwrap()},
                {"op": "click", "css": "#upload-submit"},
                {"op": "wait_for", "css": "#listing", "text": "تقرير الربع الثالث.txt"},
                // Arabic, right to left.
                {"op": "eval", "js": "document.getElementById('lang-select').value = 'ar'; document.getElementById('lang').submit(); return 1;"},
                {"op": "wait_for", "css": "#logout-submit", "text": "تسجيل الخروج"},
                {"op": "attribute", "css": "html", "name": "dir"},
                shot("web-ar.png"),
                // Cyrillic from a KOI8-R folder, back in English.
                {"op": "eval", "js": "document.getElementById('lang-select').value = 'en'; document.getElementById('lang').submit(); return 1;"},
                {"op": "wait_for", "css": "#logout-submit", "text": "Log out"},
                {"op": "open", "url": format!("{base}/koi/")},
                {"op": "texts", "css": "a.n"},
                shot("web-ru.png"),
                // Hostile names: shown as text, nothing runs.
                {"op": "open", "url": format!("{base}/hostile/")},
                {"op": "texts", "css": "a.n"},
                {"op": "count", "css": "#listing img, #listing svg, #listing script, #listing b"},
                {"op": "click", "css": "a.n[href='page.html']"},
                {"op": "wait_for_download", "timeout": 30},
                {"op": "url"},
                {"op": "dialogs"},
            ]
        }),
    );
    let results = r["results"].as_array().unwrap();
    let names = results[5].as_array().unwrap();
    assert!(names.iter().any(|n| n == "報告書.bin"), "{names:?}");
    assert!(names.iter().any(|n| n == "議事録 2026年11月.txt"), "{names:?}");
    assert_eq!(results[6], "ja");
    let got = &results[9];
    assert_eq!(got["name"], "報告書.bin", "{got}");
    assert_eq!(got["size"], report.len(), "{got}");
    assert_eq!(got["sha256"], sha256_hex(&report), "{got}");
    assert_eq!(results[15], "rtl");
    let koi = results[20].as_array().unwrap();
    assert!(koi.iter().any(|n| n == "Отчёт.txt"), "{koi:?}");
    assert!(koi.iter().any(|n| n == "Привет мир.txt"), "{koi:?}");
    let hostile = results[23].as_array().unwrap();
    assert!(
        hostile.iter().any(|n| n == "<img src=x onerror=alert(1)>.txt"),
        "{hostile:?}"
    );
    assert!(
        hostile.iter().any(|n| n == "<b onmouseover=alert(2)>bold<b>.txt"),
        "{hostile:?}"
    );
    assert!(hostile.iter().any(|n| n == "evil%E2%80%AEgnp.exe"), "{hostile:?}");
    assert_eq!(results[24], 0, "no element came out of a name");
    // The stored page was downloaded, not shown.
    assert_eq!(results[26]["name"], "page.html");
    assert!(results[27].as_str().unwrap().ends_with("/hostile/"), "{}", results[27]);
    assert_eq!(results[28], json!([]), "no dialog opened");
    assert_eq!(r["dialogs"], json!([]));
    // No CSP violation or script error on our pages.
    let console = r["console"].as_array().unwrap();
    assert!(
        !console.iter().any(|c| {
            let m = c["message"].as_str().unwrap_or("");
            m.contains("Content Security Policy") || m.contains("Uncaught")
        }),
        "{console:?}"
    );

    // The browser's upload, over FTP, byte for byte.
    let out = ftplib(
        srv.addr,
        "alice",
        "secret",
        "utf-8",
        "b = io.BytesIO(); ftp.retrbinary('RETR /資料/تقرير الربع الثالث.txt', b.write); print(b.getvalue().decode())",
    );
    assert!(out.contains("تقرير: كل شيء على ما يرام"), "{out}");
}

/// Issue 45: browsers speak HTTP/2 over TLS, and HTTP/2 has no `Host`
/// (`:authority` instead). Every form of the web view, in Chromium over
/// HTTPS, each page proven to have come over h2: log in, upload, new
/// folder, rename, delete, language, log out; then a `[[host]]` virtual
/// host by its name, which the browser sends as `:authority` only.
#[test]
fn every_form_works_in_chromium_over_https_with_http2() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let jp = dir.path().join("jp");
    std::fs::create_dir_all(root.join("docs")).unwrap();
    std::fs::create_dir_all(&jp).unwrap();
    std::fs::write(root.join("docs/old.txt"), "old\n").unwrap();
    std::fs::write(root.join("docs/gone.txt"), "gone\n").unwrap();
    std::fs::write(jp.join("日本.txt"), "jp\n").unwrap();
    let (cert, key) = babelftp_test_support::certificate(dir.path());
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(
        &conf,
        format!(
            "[[host]]\nname = \"files.example.jp\"\nroot = {:?}\ndefault_lang = \"ja\"\n",
            jp.display().to_string()
        ),
    )
    .unwrap();
    let srv = Serve::start(
        &root,
        &[
            "--http-listen",
            "127.0.0.1:0",
            "--user",
            "alice:secret",
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
            "--config",
            conf.to_str().unwrap(),
        ],
    );
    let base = srv.url_after("web view: ");
    assert!(base.starts_with("https://127.0.0.1:"), "{base}");
    let port = base.rsplit(':').next().unwrap().to_owned();
    let upload = dir.path().join("報告 ü.txt");
    std::fs::write(&upload, "uploaded over h2\n").unwrap();
    let h2 = json!({"op": "eval", "js": "return performance.getEntriesByType('navigation')[0].nextHopProtocol;"});
    let r = browse(
        dir.path(),
        &json!({
            "ignore_certificate_errors": true,
            "host_resolver_rules": "MAP files.example.jp 127.0.0.1",
            "failure_screenshot": dir.path().join("failure.png").to_str().unwrap(),
            "steps": [
                {"op": "open", "url": format!("{base}/docs/")},                          // 0
                {"op": "type", "css": "#login-user", "text": "alice"},
                {"op": "type", "css": "#login-password", "text": "secret"},
                {"op": "click", "css": "#login-submit"},
                {"op": "wait_for", "css": "#user", "text": "alice"},
                h2,                                                                        // 5
                // Upload (the page's script: an XHR POST, then a reload).
                {"op": "upload", "css": "#upload-files", "path": upload.to_str().unwrap()},
                {"op": "click", "css": "#upload-submit"},
                {"op": "wait_for", "css": "#listing", "text": "報告 ü.txt"},
                // New folder.
                {"op": "type", "css": "#mkdir-name", "text": "新しいフォルダ"},
                {"op": "click", "css": "#mkdir-submit"},                                 // 10
                {"op": "wait_for", "css": "#listing", "text": "新しいフォルダ/"},
                h2,
                // Rename, from the file's details page.
                {"op": "open", "url": format!("{base}/docs/old.txt?info")},
                {"op": "type", "css": "#rename-to", "text": "renamed.txt"},
                {"op": "click", "css": "#rename-submit"},                                // 15
                {"op": "wait_for", "css": "#listing", "text": "renamed.txt"},
                h2,
                // Delete.
                {"op": "open", "url": format!("{base}/docs/gone.txt?info")},
                {"op": "click", "css": "#delete-submit"},
                {"op": "wait_for", "css": "#listing", "text": "renamed.txt"},            // 20
                {"op": "texts", "css": "a.n"},
                h2,
                // Language: German.
                {"op": "eval", "js": "document.getElementById('lang-select').value = 'de'; document.getElementById('lang').submit(); return 1;"},
                {"op": "wait_for", "css": "html[lang='de'] #logout-submit"},
                h2,                                                                        // 25
                // Log out.
                {"op": "click", "css": "#logout-submit"},
                {"op": "wait_for", "css": "#login-user"},
                {"op": "open", "url": format!("{base}/docs/")},
                {"op": "count", "css": "#user"},
                // A virtual host, named only by :authority.
                {"op": "open", "url": format!("https://files.example.jp:{port}/")},      // 30
                {"op": "url"},
                {"op": "type", "css": "#login-user", "text": "alice"},
                {"op": "type", "css": "#login-password", "text": "secret"},
                {"op": "click", "css": "#login-submit"},
                {"op": "wait_for", "css": "#listing", "text": "日本.txt"},               // 35
                {"op": "texts", "css": "a.n"},
                h2,
            ]
        }),
    );
    let results = r["results"].as_array().unwrap();
    for i in [5, 12, 17, 22, 25, 37] {
        assert_eq!(results[i], "h2", "step {i} came over {}", results[i]);
    }
    // What the forms did, on disk.
    assert_eq!(
        std::fs::read_to_string(root.join("docs/報告 ü.txt")).unwrap(),
        "uploaded over h2\n"
    );
    assert!(root.join("docs/新しいフォルダ").is_dir());
    assert!(!root.join("docs/old.txt").exists());
    assert_eq!(std::fs::read_to_string(root.join("docs/renamed.txt")).unwrap(), "old\n");
    assert!(!root.join("docs/gone.txt").exists());
    let names = results[21].as_array().unwrap();
    assert!(!names.iter().any(|n| n == "gone.txt"), "{names:?}");
    assert_eq!(results[29], 0, "logged out: no user on the page");
    // The virtual host's root (its language comes after the browser's).
    let names = results[36].as_array().unwrap();
    assert!(names.iter().any(|n| n == "日本.txt"), "{names:?}");
    assert!(!names.iter().any(|n| n == "docs/"), "{names:?}");
    let console = r["console"].as_array().unwrap();
    assert!(
        !console.iter().any(|c| {
            let m = c["message"].as_str().unwrap_or("");
            m.contains("Content Security Policy") || m.contains("Uncaught")
        }),
        "{console:?}"
    );
}

/// Issue 48: the README's drop box (`/ list`, `/incoming upload,mkdir`)
/// in Chromium. `incoming` shows in carol's `/`; its page has the upload
/// form and no listing; an upload there lands; what others left there
/// stays hidden. A file's details page: no `/` after its name in the
/// path, `10 B` once (the exact count only when the unit differs), and
/// listing times say their zone.
#[test]
fn a_drop_box_shows_in_its_parent_and_takes_uploads_in_chromium_and_details_read_right() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("incoming")).unwrap();
    std::fs::create_dir_all(root.join("pub")).unwrap();
    std::fs::create_dir_all(root.join("private")).unwrap();
    std::fs::write(root.join("incoming/theirs.pdf"), "someone else's").unwrap();
    std::fs::write(root.join("pub/ten.txt"), "0123456789").unwrap();
    std::fs::write(root.join("pub/big.bin"), vec![0u8; 1536]).unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    let (code, out, err) = common::serve::run(&["user", "add", "carol", "--db", &db], "carol-pw\n");
    assert_eq!(code, 0, "{out}{err}");
    common::serve::admin(&db, &["user", "perm", "carol", "/", "list"]);
    common::serve::admin(&db, &["user", "perm", "carol", "/pub", "read"]);
    common::serve::admin(&db, &["user", "perm", "carol", "/incoming", "upload,mkdir"]);
    common::serve::admin(&db, &["user", "perm", "carol", "/private", "none"]);
    // Over HTTPS, as browsers meet it: HTTP/2.
    let (cert, key) = babelftp_test_support::certificate(dir.path());
    let srv = Serve::start(
        &root,
        &[
            "--http-listen",
            "127.0.0.1:0",
            "--db",
            &db,
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    let base = srv.url_after("web view: ");
    assert!(base.starts_with("https://127.0.0.1:"), "{base}");
    let upload = dir.path().join("report.txt");
    std::fs::write(&upload, "for the drop box\n").unwrap();
    let r = browse(
        dir.path(),
        &json!({
            "ignore_certificate_errors": true,
            "failure_screenshot": dir.path().join("failure.png").to_str().unwrap(),
            "steps": [
                {"op": "open", "url": format!("{base}/")},                                   // 0
                {"op": "type", "css": "#login-user", "text": "carol"},
                {"op": "type", "css": "#login-password", "text": "carol-pw"},
                {"op": "click", "css": "#login-submit"},
                {"op": "wait_for", "css": "#user", "text": "carol"},
                {"op": "texts", "css": "a.n"},                                               // 5
                {"op": "click", "css": "a.n[href='incoming/']"},
                {"op": "wait_for", "css": "#drop-box"},
                {"op": "count", "css": "#listing, a.n"},
                {"op": "count", "css": "#upload-files, #mkdir-name"},
                // The page's script: an XHR POST; its row says done (issue 49).
                {"op": "eval", "js": "document.body.setAttribute('data-before', '1'); return 1;"}, // 10
                {"op": "upload", "css": "#upload-files", "path": upload.to_str().unwrap()},
                {"op": "click", "css": "#upload-submit"},
                {"op": "wait_for", "css": "body[data-before] #uploads li[data-state=done]", "text": "report.txt"},
                {"op": "source"},
                // A file's details page, and the listing's times.
                {"op": "open", "url": format!("{base}/pub/ten.txt?info")},                   // 15
                {"op": "text", "css": "#crumbs"},
                {"op": "text", "css": "#size"},
                {"op": "open", "url": format!("{base}/pub/big.bin?info")},
                {"op": "text", "css": "#size"},
                {"op": "open", "url": format!("{base}/pub/")},                               // 20
                {"op": "texts", "css": "td.t"},
                {"op": "open", "url": format!("{base}/")},
                {"op": "attributes", "css": "a.i", "name": "href"},
                {"op": "eval", "js": "return performance.getEntriesByType('navigation')[0].nextHopProtocol;"},
            ]
        }),
    );
    let results = r["results"].as_array().unwrap();
    let names = results[5].as_array().unwrap();
    assert_eq!(
        names,
        &[json!("incoming/"), json!("pub/")],
        "the drop box shows, private does not"
    );
    assert_eq!(results[8], 0, "no listing in the drop box");
    assert_eq!(results[9], 2, "its upload and new-folder forms");
    assert!(!results[14].as_str().unwrap().contains("theirs.pdf"));
    assert!(results[14].as_str().unwrap().contains("id=\"drop-box\""));
    assert_eq!(
        std::fs::read(root.join("incoming/report.txt")).unwrap(),
        b"for the drop box\n"
    );
    assert_eq!(results[16], "/pub/ten.txt", "no slash after a file's name");
    assert_eq!(results[17], "10 B");
    assert_eq!(results[19], "1.5 KiB (1536 B)");
    let times = results[21].as_array().unwrap();
    assert_eq!(times.len(), 2, "{times:?}");
    assert!(times.iter().all(|t| t.as_str().unwrap().ends_with(" UTC")), "{times:?}");
    // No details link for the drop box (its facts are not carol's to see).
    let infos = results[23].as_array().unwrap();
    assert_eq!(infos.len(), 1, "{infos:?}");
    assert!(infos[0].as_str().unwrap().ends_with("/pub/?info"), "{infos:?}");
    assert_eq!(results[24], "h2");
    assert_eq!(r["dialogs"], json!([]));
}

/// Issue 49: find, in Chromium over HTTPS (HTTP/2). carol types in the
/// search box of `/pub/` and presses Enter: the names below it that
/// contain the text, case ignored, each linked where the listing links
/// it; a windows-1251 name is found by its decoded Cyrillic; nothing
/// from a folder she may not list (a drop box, a `none` folder) nor
/// through a link out of the root shows.
#[test]
fn the_search_box_finds_names_below_a_folder_decoded_and_only_what_the_user_may_list() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let outside = dir.path().join("outside");
    for d in ["pub/deep/nested", "pub/cp", "pub/reports-in", "pub/secret", "private"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(root.join("pub/Report-2026.txt"), "r").unwrap();
    std::fs::write(root.join("pub/other.txt"), "o").unwrap();
    std::fs::write(root.join("pub/deep/nested/report-final.pdf"), "f").unwrap();
    // "Отчёт за год.txt" in windows-1251.
    std::fs::write(
        root.join("pub/cp").join(std::ffi::OsStr::from_bytes(
            b"\xCE\xF2\xF7\xB8\xF2 \xE7\xE0 \xE3\xEE\xE4.txt",
        )),
        "cp1251",
    )
    .unwrap();
    std::fs::write(root.join("pub/reports-in/report-dropped.txt"), "d").unwrap();
    std::fs::write(root.join("pub/secret/report-secret.txt"), "s").unwrap();
    std::fs::write(root.join("private/report-private.txt"), "p").unwrap();
    std::fs::write(outside.join("report-outside.txt"), "x").unwrap();
    std::os::unix::fs::symlink(&outside, root.join("pub/out")).unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    let (code, out, err) = common::serve::run(&["user", "add", "carol", "--db", &db], "carol-pw\n");
    assert_eq!(code, 0, "{out}{err}");
    common::serve::admin(&db, &["user", "perm", "carol", "/", "list"]);
    common::serve::admin(&db, &["user", "perm", "carol", "/pub", "read"]);
    common::serve::admin(&db, &["user", "perm", "carol", "/pub/reports-in", "upload"]);
    common::serve::admin(&db, &["user", "perm", "carol", "/pub/secret", "none"]);
    common::serve::admin(&db, &["user", "perm", "carol", "/private", "none"]);
    let (cert, key) = babelftp_test_support::certificate(dir.path());
    let srv = Serve::start(
        &root,
        &[
            "--http-listen",
            "127.0.0.1:0",
            "--db",
            &db,
            "--dir-charset",
            "/pub/cp=windows-1251",
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    let base = srv.url_after("web view: ");
    assert!(base.starts_with("https://127.0.0.1:"), "{base}");
    let r = browse(
        dir.path(),
        &json!({
            "ignore_certificate_errors": true,
            "failure_screenshot": dir.path().join("failure.png").to_str().unwrap(),
            "steps": [
                {"op": "open", "url": format!("{base}/pub/")},                                // 0
                {"op": "type", "css": "#login-user", "text": "carol"},
                {"op": "type", "css": "#login-password", "text": "carol-pw"},
                {"op": "click", "css": "#login-submit"},
                {"op": "wait_for", "css": "#user", "text": "carol"},
                // The box has its label; typed into, then Enter (the keyboard).
                {"op": "count", "css": "header form[role='search'] label[for='search-q']"},   // 5
                {"op": "type", "css": "#search-q", "text": "REPORT\u{E007}"},
                {"op": "wait_for", "css": "#found-title"},
                {"op": "texts", "css": "#found a.n"},
                {"op": "attributes", "css": "#found a.n", "name": "href"},
                {"op": "eval", "js": "return performance.getEntriesByType('navigation')[0].nextHopProtocol;"}, // 10
                {"op": "attribute", "css": "#search-q", "name": "value"},
                {"op": "source"},
                // A legacy name, by its decoded text.
                {"op": "type", "css": "#search-q", "text": "отчёт ЗА\u{E007}"},
                {"op": "wait_for", "css": "#found-title", "text": "отчёт ЗА"},
                {"op": "texts", "css": "#found a.n"},                                          // 15
                // Its link is its FTP path in UTF-8, and downloads it.
                {"op": "attribute", "css": "#found a.n", "name": "href"},
                {"op": "eval", "js": "return fetch(document.querySelector('#found a.n').href).then(r => r.text());"},
                // Nothing found, and the way back to the listing.
                {"op": "open", "url": format!("{base}/pub/?q=nothing-like-this")},
                {"op": "count", "css": "#found-none"},
                {"op": "click", "css": "#found-back"},                                         // 20
                {"op": "wait_for", "css": "#listing"},
                {"op": "url"},
            ]
        }),
    );
    let results = r["results"].as_array().unwrap();
    assert_eq!(results[5], 1, "a labelled search box in the header");
    let names = results[8].as_array().unwrap();
    assert_eq!(
        names,
        &[
            json!("Report-2026.txt"),
            json!("deep/nested/report-final.pdf"),
            json!("reports-in/")
        ],
        "what carol may see, from /pub/"
    );
    let hrefs = results[9].as_array().unwrap();
    assert!(
        hrefs[1]
            .as_str()
            .unwrap()
            .ends_with("/pub/deep/nested/report-final.pdf"),
        "{hrefs:?}"
    );
    assert!(hrefs[2].as_str().unwrap().ends_with("/pub/reports-in/"), "{hrefs:?}");
    assert_eq!(results[10], "h2");
    assert_eq!(results[11], "REPORT");
    let page = results[12].as_str().unwrap();
    for hidden in ["report-dropped", "report-secret", "report-private", "report-outside"] {
        assert!(!page.contains(hidden), "{hidden} must not show:\n{page}");
    }
    assert_eq!(results[15], json!(["cp/Отчёт за год.txt"]));
    assert!(
        results[16]
            .as_str()
            .unwrap()
            .ends_with("/pub/cp/%D0%9E%D1%82%D1%87%D1%91%D1%82%20%D0%B7%D0%B0%20%D0%B3%D0%BE%D0%B4.txt"),
        "{}",
        results[16]
    );
    assert_eq!(results[17], "cp1251");
    assert_eq!(results[19], 1, "nothing found says so");
    assert!(results[22].as_str().unwrap().ends_with("/pub/"), "{}", results[22]);
    assert_eq!(r["dialogs"], json!([]));
    let console = r["console"].as_array().unwrap();
    assert!(
        !console.iter().any(|c| {
            let m = c["message"].as_str().unwrap_or("");
            m.contains("Content Security Policy") || m.contains("Uncaught")
        }),
        "{console:?}"
    );
}

/// Issue 49, "a page that holds up", in Chromium over HTTPS with HTTP/2:
/// the login page is titled with the product's name and does not link to
/// itself; a 404 has the page's header and a way back to the folder
/// above; at 390 px a folder of long names in several scripts does not
/// scroll sideways and a Cyrillic name wraps between its words, never
/// inside one; the dark scheme follows `prefers-color-scheme`.
#[test]
fn login_errors_phone_width_and_dark_scheme_hold_up_in_chromium_over_https_with_http2() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let long = root.join("long");
    let words = "Документы бухгалтерии за второй квартал две тысячи двадцать шестого года";
    std::fs::create_dir_all(long.join(words)).unwrap();
    for n in [
        "非常に長い日本語のファイル名の例としての報告書と議事録と見積書と請求書の控え.txt".to_owned(),
        "تقرير الحسابات السنوية للشركة عن السنة المالية الماضية مع الملاحق.pdf".to_owned(),
        "รายงานการประชุมคณะกรรมการประจำไตรมาสที่สองของปีสองพันยี่สิบหก.docx".to_owned(),
        format!("{}.bin", "x".repeat(120)),
    ] {
        std::fs::write(long.join(n), "x\n").unwrap();
    }
    let (cert, key) = babelftp_test_support::certificate(dir.path());
    let srv = Serve::start(
        &root,
        &[
            "--http-listen",
            "127.0.0.1:0",
            "--user",
            "alice:secret",
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    let base = srv.url_after("web view: ");
    assert!(base.starts_with("https://127.0.0.1:"), "{base}");
    let h2 = json!({"op": "eval", "js": "return performance.getEntriesByType('navigation')[0].nextHopProtocol;"});
    // Each word of the Cyrillic name on one line; how many lines the name takes.
    let wrap = format!(
        "const a = [...document.querySelectorAll('a.n')].find(x => x.textContent.startsWith({words:?}));
         const t = a.querySelector('bdi').firstChild; const cut = []; let i = 0;
         for (const w of t.data.split(' ')) {{
           const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + w.length);
           if (new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1) cut.push(w);
           i += w.length + 1;
         }}
         return [new Set([...a.getClientRects()].map(x => Math.round(x.top))).size, cut];"
    );
    let bg = json!({"op": "eval", "js": "return getComputedStyle(document.body).backgroundColor;"});
    let r = browse(
        dir.path(),
        &json!({
            "ignore_certificate_errors": true,
            "failure_screenshot": dir.path().join("failure.png").to_str().unwrap(),
            "steps": [
                {"op": "open", "url": format!("{base}/long/")},                          // 0
                {"op": "title"},
                {"op": "text", "css": "h1"},
                {"op": "count", "css": "#login-link"},
                h2,
                {"op": "type", "css": "#login-user", "text": "alice"},                   // 5
                {"op": "type", "css": "#login-password", "text": "secret"},
                {"op": "click", "css": "#login-submit"},
                {"op": "wait_for", "css": "#user", "text": "alice"},
                // A 404: the header, and the way back to the folder above.
                {"op": "open", "url": format!("{base}/long/nothing-here.txt")},
                {"op": "count", "css": "header #crumbs a[href='/long/']"},               // 10
                {"op": "attribute", "css": "main a#home", "name": "href"},
                {"op": "count", "css": "#error"},
                h2,
                // A phone.
                {"op": "viewport", "width": 390},
                {"op": "open", "url": format!("{base}/long/")},                          // 15
                {"op": "wait_for", "css": "#listing"},
                {"op": "eval", "js": "return [document.documentElement.scrollWidth, window.innerWidth];"},
                {"op": "eval", "js": wrap},
                // Light, then dark.
                {"op": "color_scheme", "scheme": "light"},
                bg,                                                                        // 20
                {"op": "color_scheme", "scheme": "dark"},
                bg,
                h2,
            ]
        }),
    );
    let results = r["results"].as_array().unwrap();
    for i in [4, 13, 23] {
        assert_eq!(results[i], "h2", "step {i} came over {}", results[i]);
    }
    let title = results[1].as_str().unwrap();
    assert!(title.contains("babelftp"), "the login page's title: {title}");
    let h1 = results[2].as_str().unwrap();
    assert!(h1.contains("babelftp"), "the login page's heading: {h1}");
    assert_eq!(results[3], 0, "no link to the login page on the login page");
    assert_eq!(results[10], 1, "the 404 page has the header with the path");
    assert_eq!(results[11], format!("{base}/long/"), "the way back: the folder above");
    assert_eq!(results[12], 1);
    let (scroll, inner) = (results[17][0].as_i64().unwrap(), results[17][1].as_i64().unwrap());
    assert_eq!(inner, 390);
    assert!(scroll <= inner, "a horizontal scroll at 390 px: {scroll} > {inner}");
    assert!(
        results[18][0].as_i64().unwrap() > 1,
        "the long name wraps: {:?}",
        results[18]
    );
    assert_eq!(results[18][1], json!([]), "words cut across lines");
    let rgb = |v: &Value| -> Vec<u32> {
        let s = v.as_str().unwrap();
        s.trim_start_matches("rgba(")
            .trim_start_matches("rgb(")
            .trim_end_matches(')')
            .split(',')
            .take(3)
            .map(|c| c.trim().parse().unwrap())
            .collect()
    };
    assert!(rgb(&results[20]).iter().all(|&c| c > 200), "light: {}", results[20]);
    assert!(rgb(&results[22]).iter().all(|&c| c < 60), "dark: {}", results[22]);
    let console = r["console"].as_array().unwrap();
    assert!(
        !console.iter().any(|c| {
            let m = c["message"].as_str().unwrap_or("");
            m.contains("Content Security Policy") || m.contains("Uncaught")
        }),
        "{console:?}"
    );
}

/// The names and contents (as UTF-8 text) of a zip's entries, through
/// Python's zipfile (every CRC checked), and each entry's UTF-8 flag.
fn zip_entries(path: &str) -> Vec<(String, bool, String)> {
    let out = common::serve::python(&format!(
        "import json, zipfile\nz = zipfile.ZipFile({path:?})\nassert z.testzip() is None\nprint(json.dumps([[i.filename, bool(i.flag_bits & 0x800), z.read(i).decode('utf-8')] for i in z.infolist()]))"
    ));
    serde_json::from_str(out.trim()).unwrap()
}

#[test]
fn ticked_entries_download_as_one_zip_in_chromium_over_https_with_http2() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("docs/cp")).unwrap();
    std::fs::write(root.join("docs/Отчёт.txt"), "отчёт за год\n").unwrap();
    std::fs::write(root.join("docs/other.txt"), "not ticked\n").unwrap();
    // "Счёт №7.txt" in windows-1251, in a folder of windows-1251 names.
    std::fs::write(
        root.join("docs/cp")
            .join(std::ffi::OsStr::from_bytes(b"\xD1\xF7\xB8\xF2 \xB97.txt")),
        "cp1251 bytes\n",
    )
    .unwrap();
    let (cert, key) = babelftp_test_support::certificate(dir.path());
    let srv = Serve::start(
        &root,
        &[
            "--http-listen",
            "127.0.0.1:0",
            "--user",
            "alice:secret",
            "--dir-charset",
            "/docs/cp=windows-1251",
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    let base = srv.url_after("web view: ");
    assert!(base.starts_with("https://127.0.0.1:"), "{base}");
    let downloads = dir.path().join("downloads");
    std::fs::create_dir_all(&downloads).unwrap();
    let h2 = json!({"op": "eval", "js": "return performance.getEntriesByType('navigation')[0].nextHopProtocol;"});
    let r = browse(
        dir.path(),
        &json!({
            "ignore_certificate_errors": true,
            "download_dir": downloads.to_str().unwrap(),
            "failure_screenshot": dir.path().join("failure.png").to_str().unwrap(),
            "steps": [
                {"op": "open", "url": format!("{base}/docs/cp/")},                       // 0
                {"op": "type", "css": "#login-user", "text": "alice"},
                {"op": "type", "css": "#login-password", "text": "secret"},
                {"op": "click", "css": "#login-submit"},
                {"op": "wait_for", "css": "#user", "text": "alice"},
                // The legacy name, decoded, with its checkbox.
                {"op": "attributes", "css": "#listing input[type=checkbox]", "name": "aria-label"}, // 5
                {"op": "click", "css": "#listing input[type=checkbox]"},
                {"op": "click", "css": "#zip-submit"},
                {"op": "wait_for_download"},
                // The Cyrillic file and the legacy one's folder, one zip.
                {"op": "open", "url": format!("{base}/docs/")},
                {"op": "click", "css": "input[aria-label='Отчёт.txt']"},                 // 10
                {"op": "click", "css": "input[aria-label='cp']"},
                h2,
                {"op": "click", "css": "#zip-submit"},
                {"op": "wait_for_download"},
            ]
        }),
    );
    let results = r["results"].as_array().unwrap();
    assert_eq!(results[12], "h2");
    assert_eq!(results[5], json!(["Счёт №7.txt"]));
    let first = results[8]["path"].as_str().unwrap();
    assert_eq!(results[8]["name"], "cp.zip");
    assert_eq!(
        zip_entries(first),
        vec![("Счёт №7.txt".to_owned(), true, "cp1251 bytes\n".to_owned())]
    );
    let second = results[14]["path"].as_str().unwrap();
    assert_eq!(results[14]["name"], "docs.zip");
    let mut got = zip_entries(second);
    got.sort();
    assert_eq!(
        got,
        vec![
            ("cp/".to_owned(), true, String::new()),
            ("cp/Счёт №7.txt".to_owned(), true, "cp1251 bytes\n".to_owned()),
            ("Отчёт.txt".to_owned(), true, "отчёт за год\n".to_owned()),
        ]
    );
}

#[test]
fn an_image_and_a_text_holding_a_script_preview_in_chromium_and_no_script_runs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("p")).unwrap();
    std::fs::write(root.join("p/pic.png"), crate::web_preview::PNG).unwrap();
    // An SVG holding a script: an image in its preview, and opened on its
    // own (its inline URL), a document whose script never runs.
    std::fs::write(
        root.join("p/evil.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"3\" height=\"2\"><script>alert('svg')</script><rect width=\"3\" height=\"2\" fill=\"red\"/></svg>",
    )
    .unwrap();
    std::fs::write(
        root.join("p/evil.txt"),
        "<script>window.x = 1; document.title = 'ran'; alert('ran')</script>\n<img src=x onerror=\"window.y = 1\">\n",
    )
    .unwrap();
    let (cert, key) = babelftp_test_support::certificate(dir.path());
    let srv = Serve::start(
        &root,
        &[
            "--http-listen",
            "127.0.0.1:0",
            "--user",
            "alice:secret",
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    let base = srv.url_after("web view: ");
    let h2 = json!({"op": "eval", "js": "return performance.getEntriesByType('navigation')[0].nextHopProtocol;"});
    let r = browse(
        dir.path(),
        &json!({
            "ignore_certificate_errors": true,
            "failure_screenshot": dir.path().join("failure.png").to_str().unwrap(),
            "steps": [
                {"op": "open", "url": format!("{base}/p/")},                             // 0
                {"op": "type", "css": "#login-user", "text": "alice"},
                {"op": "type", "css": "#login-password", "text": "secret"},
                {"op": "click", "css": "#login-submit"},
                {"op": "wait_for", "css": "#user", "text": "alice"},
                // From the listing's link to the image's preview.
                // The row menu holds the preview link.
                {"op": "click", "css": "tr:has(a.n[href='pic.png']) summary"},             // 5
                {"op": "click", "css": "a.pv[href='pic.png?preview']"},
                {"op": "wait_for", "css": "#preview-image"},
                {"op": "eval", "js": "const i = document.getElementById('preview-image'); return i.decode().then(() => [i.naturalWidth, i.naturalHeight]);"},
                h2,
                // The text: shown, and its script never ran.
                {"op": "open", "url": format!("{base}/p/evil.txt?preview")},
                {"op": "text", "css": "#preview-text"},                                   // 10
                {"op": "eval", "js": "return [document.title, typeof window.x, typeof window.y, document.querySelectorAll('main script, main img').length];"},
                {"op": "text", "css": "#preview-charset"},
                {"op": "open", "url": format!("{base}/p/evil.svg?preview")},
                {"op": "eval", "js": "const i = document.getElementById('preview-image'); return i.decode().then(() => [i.naturalWidth, i.naturalHeight]);"}, // 14
                {"op": "open", "url": format!("{base}/p/evil.svg?inline")},
                {"op": "dialogs"},
            ]
        }),
    );
    let results = r["results"].as_array().unwrap();
    assert_eq!(results[9], "h2");
    assert_eq!(results[8], json!([1, 1]), "the image loaded in the browser");
    let text = results[11].as_str().unwrap();
    assert!(
        text.contains("<script>window.x = 1; document.title = 'ran'; alert('ran')</script>"),
        "{text}"
    );
    assert_eq!(results[12], json!(["evil.txt", "undefined", "undefined", 0]));
    assert!(results[13].as_str().unwrap().contains("UTF-8"), "{}", results[13]);
    assert_eq!(results[15], json!([3, 2]), "the SVG shown as an image");
    assert_eq!(results[17], json!([]), "the SVG's script never ran");
    // No dialog opened (browse checks it), no CSP report from our pages.
    let console = r["console"].as_array().unwrap();
    assert!(
        !console.iter().any(|c| {
            let m = c["message"].as_str().unwrap_or("");
            m.contains("Content Security Policy") || m.contains("Uncaught")
        }),
        "{console:?}"
    );
}

/// Issue 49: a share link made from the page and used by someone without
/// an account, in Chromium over HTTPS (HTTP/2). carol makes a link of a
/// file from its details page with a password and a download limit of
/// one; a fresh browser (no login cookie) opens the link, is asked for
/// the password in a form, types it, downloads the file (its bytes and
/// its Cyrillic name), and opening the link again says it is gone (410).
#[test]
fn a_share_link_made_on_the_page_asks_its_password_downloads_once_then_is_gone_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("pub")).unwrap();
    let bytes: Vec<u8> = (0..50_000u32).flat_map(|i| i.to_be_bytes()).collect();
    std::fs::write(root.join("pub/Отчёт.bin"), &bytes).unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    let (code, out, err) = common::serve::run(&["user", "add", "carol", "--db", &db], "carol-pw\n");
    assert_eq!(code, 0, "{out}{err}");
    let (cert, key) = babelftp_test_support::certificate(dir.path());
    let srv = Serve::start(
        &root,
        &[
            "--http-listen",
            "127.0.0.1:0",
            "--db",
            &db,
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    let base = srv.url_after("web view: ");
    assert!(base.starts_with("https://127.0.0.1:"), "{base}");
    let h2 = json!({"op": "eval", "js": "return performance.getEntriesByType('navigation')[0].nextHopProtocol;"});
    let made = browse(
        dir.path(),
        &json!({
            "ignore_certificate_errors": true,
            "failure_screenshot": dir.path().join("failure.png").to_str().unwrap(),
            "steps": [
                {"op": "open", "url": format!("{base}/pub/")},                               // 0
                {"op": "type", "css": "#login-user", "text": "carol"},
                {"op": "type", "css": "#login-password", "text": "carol-pw"},
                {"op": "click", "css": "#login-submit"},
                {"op": "wait_for", "css": "#user", "text": "carol"},
                {"op": "open", "url": format!("{base}/pub/%D0%9E%D1%82%D1%87%D1%91%D1%82.bin?info")}, // 5
                {"op": "wait_for", "css": "#share"},
                {"op": "eval", "js": "document.getElementById('share-expires').value = '1d'; return 1;"},
                {"op": "type", "css": "#share-password", "text": "пароль 7"},
                {"op": "type", "css": "#share-max", "text": "1"},
                {"op": "click", "css": "#share-submit"},                                     // 10
                {"op": "wait_for", "css": "#share-url"},
                {"op": "attribute", "css": "#share-url", "name": "href"},
                h2,
            ]
        }),
    );
    let results = made["results"].as_array().unwrap();
    let link = results[12].as_str().unwrap().to_owned();
    assert!(link.starts_with(&format!("{base}/s/bfs_")), "{link}");
    assert_eq!(results[13], "h2");
    let listed = common::serve::admin(&db, &["share", "list", "--user", "carol"]);
    assert!(listed.contains("\tcarol\tdownload\t/pub/Отчёт.bin\t"), "{listed}");
    assert!(listed.contains("\t0/1\tpassword\t"), "{listed}");

    // Someone else: a fresh browser, no cookie of carol's.
    let downloads = dir.path().join("downloads");
    std::fs::create_dir_all(&downloads).unwrap();
    let used = browse(
        dir.path(),
        &json!({
            "ignore_certificate_errors": true,
            "download_dir": downloads.to_str().unwrap(),
            "failure_screenshot": dir.path().join("failure2.png").to_str().unwrap(),
            "steps": [
                {"op": "open", "url": link},                                                 // 0
                {"op": "wait_for", "css": "#share-locked"},
                {"op": "count", "css": "#user, #login-link, #search"},
                {"op": "type", "css": "#share-unlock-password", "text": "wrong"},
                {"op": "click", "css": "#share-unlock-submit"},
                {"op": "wait_for", "css": "#share-wrong"},                                   // 5
                {"op": "type", "css": "#share-unlock-password", "text": "пароль 7"},
                {"op": "click", "css": "#share-unlock-submit"},
                {"op": "wait_for_download"},
                {"op": "open", "url": link},
                {"op": "text", "css": "#error"},                                             // 10
                h2,
            ]
        }),
    );
    let results = used["results"].as_array().unwrap();
    assert_eq!(results[2], 0, "no login, user or search on a share's page");
    let got = &results[8];
    assert_eq!(got["name"], "Отчёт.bin", "{got}");
    assert_eq!(got["sha256"], sha256_hex(&bytes));
    assert!(
        results[10].as_str().unwrap().contains("no longer works"),
        "{}",
        results[10]
    );
    assert_eq!(results[11], "h2");
    assert!(common::serve::admin(&db, &["share", "list"]).contains("\t1/1\tpassword\t"));
    assert_eq!(used["dialogs"], json!([]));
}

/// Issue 49: an upload link (a drop link for people without an account)
/// in Chromium over HTTPS (HTTP/2): the page shows the upload form and
/// nothing of the folder; the page's script sends the file, which lands
/// in the owner's folder.
#[test]
fn an_upload_link_takes_a_file_from_a_browser_without_an_account() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("incoming")).unwrap();
    std::fs::write(root.join("incoming/theirs.txt"), "not for visitors").unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    let (code, out, err) = common::serve::run(&["user", "add", "carol", "--db", &db], "carol-pw\n");
    assert_eq!(code, 0, "{out}{err}");
    let (cert, key) = babelftp_test_support::certificate(dir.path());
    let srv = Serve::start(
        &root,
        &[
            "--http-listen",
            "127.0.0.1:0",
            "--db",
            &db,
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    let base = srv.url_after("web view: ");
    let (code, link, err) = common::serve::run(
        &[
            "share",
            "create",
            "/incoming",
            "--user",
            "carol",
            "--upload",
            "--url",
            &base,
            "--db",
            &db,
        ],
        "",
    );
    assert_eq!(code, 0, "{link}{err}");
    let link = link.trim().to_owned();
    let upload = dir.path().join("وثيقة.txt");
    std::fs::write(&upload, "from a visitor\n").unwrap();
    let r = browse(
        dir.path(),
        &json!({
            "ignore_certificate_errors": true,
            "failure_screenshot": dir.path().join("failure.png").to_str().unwrap(),
            "steps": [
                {"op": "open", "url": format!("{link}/")},                                   // 0
                {"op": "wait_for", "css": "#drop-box"},
                {"op": "count", "css": "#listing, a.n, #user, #login-link"},
                {"op": "source"},
                {"op": "eval", "js": "document.body.setAttribute('data-before', '1'); return 1;"},
                {"op": "upload", "css": "#upload-files", "path": upload.to_str().unwrap()},   // 5
                {"op": "click", "css": "#upload-submit"},
                // The page's script sends it; its row says done (issue 49).
                {"op": "wait_for", "css": "body[data-before] #uploads li[data-state=done]", "text": "وثيقة.txt"},
                {"op": "eval", "js": "return performance.getEntriesByType('navigation')[0].nextHopProtocol;"},
            ]
        }),
    );
    let results = r["results"].as_array().unwrap();
    assert_eq!(results[2], 0, "no listing and nobody logged in");
    assert!(!results[3].as_str().unwrap().contains("theirs.txt"));
    assert_eq!(
        std::fs::read(root.join("incoming/وثيقة.txt")).unwrap(),
        b"from a visitor\n"
    );
    assert_eq!(results[8], "h2");
    assert_eq!(r["dialogs"], json!([]));
}
