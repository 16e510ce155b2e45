//! Issue 49, in Chromium over HTTPS with HTTP/2: the row menu (details,
//! the FTP link, download; by keyboard), sizes with their exact count on
//! hover and for screen readers, times with their zone, a skip link and
//! visible focus; and axe-core on the login page, a listing (Cyrillic
//! names; English, then Arabic right to left; light and dark) and a
//! details page, and the pages of share links: no serious or critical
//! violation.
//!
//! `BABELFTP_SCREENSHOTS=1 cargo test -p babelftp --test cli -- web_a11y::`
//! also writes the guide's screenshots of a listing (desktop, phone,
//! right to left, dark) into docs/guide/src/img (a directory instead of
//! `1`: there). web_browser's first test writes the Japanese, Arabic and
//! KOI8-R ones; Japanese names need a CJK font, which can be unpacked
//! without installing anything: `apt-get download fonts-noto-cjk`,
//! `dpkg-deb -x` it into a directory D, and point `FONTCONFIG_FILE` at a
//! fonts.conf that includes /etc/fonts/fonts.conf and `<dir>D</dir>`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::web_browser::browse;
use common::serve::Serve;

use crate::common;

/// Where the guide's screenshots go, when asked for.
pub(crate) fn shots_dir() -> Option<PathBuf> {
    let v = std::env::var("BABELFTP_SCREENSHOTS").ok()?;
    Some(if v == "1" {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/guide/src/img")
    } else {
        PathBuf::from(v)
    })
}

/// An axe step on `url` (none: the page as it is): serious and critical
/// violations only.
pub(crate) fn axe(url: Option<&str>) -> Value {
    match url {
        Some(u) => json!({"op": "axe", "url": u, "impacts": ["serious", "critical"]}),
        None => json!({"op": "axe", "impacts": ["serious", "critical"]}),
    }
}

#[test]
fn row_menu_sizes_times_keyboard_and_axe_core_hold_in_chromium_over_https_with_http2() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let docs = root.join("Документы");
    std::fs::create_dir_all(docs.join("Архив 2026")).unwrap();
    std::fs::write(docs.join("Отчёт за квартал.pdf"), vec![1u8; 1_234_567]).unwrap();
    std::fs::write(docs.join("заметки.txt"), "заметки\n").unwrap();
    std::fs::write(docs.join("Έκθεση.bin"), vec![2u8; 1536]).unwrap();
    std::fs::write(docs.join("تقرير.txt"), "x".repeat(20_000)).unwrap();
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
    let folder = format!("{base}/%D0%94%D0%BE%D0%BA%D1%83%D0%BC%D0%B5%D0%BD%D1%82%D1%8B/");
    let pdf = "%D0%9E%D1%82%D1%87%D1%91%D1%82%20%D0%B7%D0%B0%20%D0%BA%D0%B2%D0%B0%D1%80%D1%82%D0%B0%D0%BB.pdf";
    // The name's link as the page writes it (an IRI).
    let pdf_iri = "Отчёт%20за%20квартал.pdf";
    let lang = |l: &str| json!({"op": "eval", "js": format!("document.getElementById('lang-select').value = '{l}'; document.getElementById('lang').submit(); return 1;")});
    let upload = dir.path().join("Протокол собрания.txt");
    std::fs::write(&upload, "протокол\n").unwrap();
    let tmp_shot = |n: &str| dir.path().join(n).to_str().unwrap().to_owned();
    let shots = shots_dir();
    let shot = |n: &str| {
        let path = match &shots {
            Some(d) => d.join(n).to_str().unwrap().to_owned(),
            None => tmp_shot(n),
        };
        json!({"op": "screenshot", "path": path})
    };
    let mut steps = json!([
                {"op": "open", "url": folder},                                               // 0
                axe(None),
                {"op": "color_scheme", "scheme": "dark"},
                axe(None),
                {"op": "color_scheme", "scheme": "light"},
                {"op": "type", "css": "#login-user", "text": "alice"},                       // 5
                {"op": "type", "css": "#login-password", "text": "secret"},
                {"op": "click", "css": "#login-submit"},
                {"op": "wait_for", "css": "#user", "text": "alice"},
                axe(None),
                {"op": "count", "css": "#listing"},                                          // 10
                // Keyboard: the first Tab reaches the skip link, Enter goes to main.
                {"op": "keys", "keys": ["TAB"]},
                {"op": "focused"},
                {"op": "keys", "keys": ["ENTER"]},
                {"op": "focused"},
                // The row menu of the PDF, by keyboard: open, into it, Escape.
                {"op": "eval", "js": format!("document.querySelector(\"a.n[href='{pdf_iri}']\").focus(); return 1;")}, // 15
                {"op": "keys", "keys": ["TAB", "ENTER"]},
                {"op": "count", "css": "td.m details[open]"},
                {"op": "keys", "keys": ["TAB"]},
                {"op": "focused"},
                {"op": "attributes", "css": "td.m details[open] a", "name": "href"},          // 20
                {"op": "texts", "css": "td.m details[open] a, td.m details[open] button"},
                {"op": "keys", "keys": ["ESCAPE"]},
                {"op": "count", "css": "td.m details[open]"},
                {"op": "focused"},
                // Sizes and times.
                {"op": "eval", "js": format!("const d = document.querySelector(\"a.n[href='{pdf_iri}']\").closest('tr').querySelector('td.s'); return [d.querySelector('data').textContent, d.querySelector('data').getAttribute('value'), d.querySelector('data').title, d.textContent];")}, // 25
                {"op": "attributes", "css": "td.t time", "name": "datetime"},
                {"op": "texts", "css": "td.t"},
    ]);
    let more = json!([
                // The details page.
                {"op": "open", "url": format!("{folder}{pdf}?info")},
                axe(None),
                {"op": "attribute", "css": "#ftp-url", "name": "href"},                       // 30
                // Dark, phone, right to left.
                {"op": "open", "url": folder.clone()},
                {"op": "color_scheme", "scheme": "dark"},
                axe(None),
                shot("web-dark.png"),
                {"op": "color_scheme", "scheme": "light"},                                   // 35
                lang("ar"),
                {"op": "wait_for", "css": "html[dir='rtl'] #listing"},
                axe(None),
                shot("web-rtl.png"),
                {"op": "color_scheme", "scheme": "dark"},                                    // 40
                axe(None),
                {"op": "color_scheme", "scheme": "light"},
                lang("en"),
                {"op": "wait_for", "css": "html[lang='en'] #listing"},
                {"op": "viewport", "width": 390, "height": 844},                             // 45
                {"op": "open", "url": folder.clone()},
                axe(None),
                {"op": "eval", "js": "return [document.documentElement.scrollWidth, window.innerWidth];"},
                shot("web-phone.png"),
                {"op": "eval", "js": "return performance.getEntriesByType('navigation')[0].nextHopProtocol;"}, // 50
                // A desktop again: an upload's row, and a row menu open.
                {"op": "viewport", "width": 1280, "height": 800, "mobile": false},
                {"op": "open", "url": folder.clone()},
                {"op": "upload", "css": "#upload-files", "path": upload.to_str().unwrap()},
                {"op": "click", "css": "#upload-submit"},
                {"op": "wait_for", "css": "#uploads li[data-state=done]", "text": "Протокол собрания.txt"}, // 55
                {"op": "wait_for", "css": "#listing", "text": "Протокол собрания.txt"},
                {"op": "click", "css": format!("tr:has(a.n[href='{pdf_iri}']) summary")},
                axe(None),
                shot("web-desktop.png"),                                                     // 59
                // The language menu from the keyboard: an arrow chooses,
                // Apply applies (no reload at the first arrow).
                {"op": "eval", "js": "document.body.setAttribute('data-mark', '1'); document.getElementById('lang-select').focus(); return 1;"},
                {"op": "keys", "keys": ["DOWN", "TAB"]},
                {"op": "eval", "js": "return [document.body.getAttribute('data-mark'), document.documentElement.lang, document.getElementById('lang-select').value, document.activeElement.id];"},
                {"op": "keys", "keys": ["ENTER"]},
                {"op": "wait_for", "css": "html[lang='fr'] #listing"},
    ]);
    steps
        .as_array_mut()
        .unwrap()
        .extend(more.as_array().unwrap().iter().cloned());
    let r = browse(
        dir.path(),
        &json!({
            "ignore_certificate_errors": true,
            "window": [1280, 800],
            "timeout": 20,
            "failure_screenshot": tmp_shot("failure.png"),
            "steps": steps,
        }),
    );
    let results = r["results"].as_array().unwrap();
    // axe-core: no serious or critical violation anywhere.
    let mut bad = Vec::new();
    for (i, what) in [
        (1, "login page"),
        (3, "login page, dark"),
        (9, "listing"),
        (29, "details page"),
        (33, "listing, dark"),
        (38, "listing, Arabic"),
        (41, "listing, Arabic, dark"),
        (47, "listing, phone"),
        (58, "listing, an upload done, a row menu open"),
    ] {
        if results[i] != json!([]) {
            bad.push(format!(
                "{what}: {}",
                serde_json::to_string_pretty(&results[i]).unwrap()
            ));
        }
    }
    assert!(bad.is_empty(), "axe-core violations:\n{}", bad.join("\n"));
    // The skip link first, and it leads to main.
    assert_eq!(results[12]["tag"], "a", "{}", results[12]);
    assert_eq!(results[12]["text"], "Skip to the content");
    assert!(
        !results[12]["outline"].as_str().unwrap().starts_with("none"),
        "{}",
        results[12]
    );
    assert_eq!(results[14]["id"], "main", "{}", results[14]);
    // The menu opened by keyboard, its first entry focused and visible.
    assert_eq!(results[17], 1);
    assert_eq!(results[19]["tag"], "a", "{}", results[19]);
    assert_eq!(results[19]["text"], "details", "{}", results[19]);
    assert!(
        !results[19]["outline"].as_str().unwrap().starts_with("none"),
        "{}",
        results[19]
    );
    let hrefs = results[20].as_array().unwrap();
    assert_eq!(hrefs.len(), 4, "{hrefs:?}");
    assert!(
        hrefs[0].as_str().unwrap().ends_with(&format!("{pdf}?info")),
        "{hrefs:?}"
    );
    // A PDF previews: its link is in the menu too.
    assert!(
        hrefs[1].as_str().unwrap().ends_with(&format!("{pdf}?preview")),
        "{hrefs:?}"
    );
    let ftp = hrefs[2].as_str().unwrap();
    assert!(ftp.starts_with("ftp://alice@127.0.0.1") && ftp.ends_with(pdf), "{ftp}");
    assert!(hrefs[3].as_str().unwrap().ends_with(pdf), "{hrefs:?}");
    let entries = results[21].as_array().unwrap();
    assert_eq!(
        entries,
        &[
            json!("details"),
            json!("Preview"),
            json!("FTP link"),
            json!("Copy FTP link"),
            json!("Download")
        ],
        "the server's details and FTP link, the script's copy and download"
    );
    // Escape closes it and gives the focus back to its button.
    assert_eq!(results[23], 0);
    assert_eq!(results[24]["tag"], "summary", "{}", results[24]);
    assert_eq!(results[24]["label"], "Actions for Отчёт за квартал.pdf");
    // The size: human units shown, the exact count in its title (on
    // hover; a screen reader's description of it) and its value.
    assert_eq!(results[25][0], "1.1 MiB");
    assert_eq!(results[25][1], "1234567");
    assert_eq!(results[25][2], "1234567 bytes");
    assert_eq!(results[25][3], "1.1 MiB");
    // Times: machine-readable UTC, and shown with the zone.
    let stamps = results[26].as_array().unwrap();
    assert_eq!(stamps.len(), 5, "{stamps:?}");
    assert!(stamps.iter().all(|s| s.as_str().unwrap().ends_with('Z')), "{stamps:?}");
    assert!(results[27]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t.as_str().unwrap().ends_with(" UTC")));
    // The details page has the FTP link.
    assert!(
        results[30].as_str().unwrap().starts_with("ftp://alice@127.0.0.1"),
        "{}",
        results[30]
    );
    // No horizontal scroll at 390 px with the menu column.
    let (scroll, inner) = (results[48][0].as_i64().unwrap(), results[48][1].as_i64().unwrap());
    assert!(scroll <= inner, "{scroll} > {inner}");
    assert_eq!(results[50], "h2");
    assert_eq!(
        results[62],
        json!(["1", "en", "fr", "lang-submit"]),
        "an arrow key does not reload the page"
    );
    let console = r["console"].as_array().unwrap();
    assert!(
        !console.iter().any(|c| {
            let m = c["message"].as_str().unwrap_or("");
            m.contains("Content Security Policy") || m.contains("Uncaught")
        }),
        "{console:?}"
    );
}

/// Issue 49: the pages someone without an account sees through share
/// links, in Chromium over HTTPS (HTTP/2): a folder link's password form
/// and its read-only listing, an upload link's page, a preview page and
/// the page of a link that is gone pass axe-core (no serious or critical
/// violation, light and dark); a link that expired and one that was
/// removed (`babelftp share rm`) say so in the browser.
#[test]
fn share_pages_pass_axe_core_and_expired_or_removed_links_say_they_are_gone_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("Фото/Лето")).unwrap();
    std::fs::create_dir_all(root.join("incoming")).unwrap();
    std::fs::write(root.join("Фото/Отчёт.txt"), "отчёт\n").unwrap();
    std::fs::write(root.join("Фото/Лето/море.txt"), "море\n").unwrap();
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
    let create = |args: &[&str], stdin: &str| {
        let mut all = vec!["share", "create"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--user", "carol", "--url", &base, "--db", &db]);
        let (code, link, err) = common::serve::run(&all, stdin);
        assert_eq!(code, 0, "{link}{err}");
        link.trim().to_owned()
    };
    let folder = create(&["/Фото", "--password"], "пароль 7\n");
    let upload = create(&["/incoming", "--upload"], "");
    let removed = create(&["/Фото/Отчёт.txt"], "");
    let expiring = create(&["/Фото/Отчёт.txt", "--expires", "1s"], "");
    let listed = common::serve::admin(&db, &["share", "list"]);
    // ID, owner, kind, path, created, expires ("-": never), …
    let removed_id = listed
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f.get(3) == Some(&"/Фото/Отчёт.txt") && f.get(5) == Some(&"-"))
        .map(|f| f[0].to_owned())
        .unwrap();
    let h2 = json!({"op": "eval", "js": "return performance.getEntriesByType('navigation')[0].nextHopProtocol;"});
    let dark = json!({"op": "color_scheme", "scheme": "dark"});
    let light = json!({"op": "color_scheme", "scheme": "light"});
    let r = browse(
        dir.path(),
        &json!({
            "ignore_certificate_errors": true,
            "failure_screenshot": dir.path().join("failure.png").to_str().unwrap(),
            "steps": [
                {"op": "open", "url": folder},                                               // 0
                {"op": "wait_for", "css": "#share-locked"},
                axe(None),
                dark, axe(None), light,                                                      // 3
                {"op": "type", "css": "#share-unlock-password", "text": "пароль 7"},          // 6
                {"op": "click", "css": "#share-unlock-submit"},
                {"op": "wait_for", "css": "#listing", "text": "Отчёт.txt"},
                axe(None),                                                                   // 9
                dark, axe(None), light,
                {"op": "texts", "css": "#listing a.n"},                                      // 13
                {"op": "count", "css": "#listing input[type=checkbox], #listing details, #user, #search"},
                {"op": "click", "css": "a.n[href='Лето/']"},               // 15
                {"op": "wait_for", "css": "#listing", "text": "море.txt"},
                axe(None),
                {"op": "open", "url": upload},                                               // 18
                {"op": "wait_for", "css": "#upload-files"},
                axe(None),                                                                   // 20
                dark, axe(None), light,
                h2,                                                                          // 24
            ]
        }),
    );
    let results = r["results"].as_array().unwrap();
    let mut bad = Vec::new();
    for (i, what) in [
        (2, "a share's password form"),
        (4, "a share's password form, dark"),
        (9, "a shared folder"),
        (11, "a shared folder, dark"),
        (17, "a shared folder's subfolder"),
        (20, "an upload link's page"),
        (22, "an upload link's page, dark"),
    ] {
        if results[i] != json!([]) {
            bad.push(format!(
                "{what}: {}",
                serde_json::to_string_pretty(&results[i]).unwrap()
            ));
        }
    }
    assert!(bad.is_empty(), "axe-core violations:\n{}", bad.join("\n"));
    assert_eq!(results[13], json!(["Лето/", "Отчёт.txt"]));
    assert_eq!(results[14], 0, "read only: no checkboxes, menus, user or search");
    assert_eq!(results[24], "h2");

    // A removed link and one whose second has passed.
    let (code, out, err) = common::serve::run(&["share", "rm", &removed_id, "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let r = browse(
        dir.path(),
        &json!({
            "ignore_certificate_errors": true,
            "failure_screenshot": dir.path().join("failure2.png").to_str().unwrap(),
            "steps": [
                {"op": "open", "url": removed},                                              // 0
                {"op": "text", "css": "#error"},
                axe(None),
                {"op": "open", "url": expiring},                                             // 3
                {"op": "text", "css": "#error"},
                {"op": "open", "url": upload},                                               // 5
                {"op": "count", "css": "#upload-files"},
            ]
        }),
    );
    let results = r["results"].as_array().unwrap();
    for i in [1, 4] {
        assert!(
            results[i].as_str().unwrap().contains("no longer works"),
            "{}",
            results[i]
        );
    }
    assert_eq!(results[2], json!([]), "the page of a link that is gone");
    assert_eq!(results[6], 1, "the other links still work");
}
