//! Previews (issue 49) through curl: a text holding `<script>` shown
//! escaped, a windows-1251 text shown in Cyrillic with its charset named,
//! an image's page and its `?inline` bytes (sandboxed, nosniff), a file
//! no preview shows downloads, a file the user may not read is refused
//! and not linked, and a text under a home is read in the charset of its
//! folder on disk.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use common::serve::{admin, run, Serve};
use common::web::{curl, login_from};

/// A 1×1 PNG.
pub(crate) const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49,
    0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0, 0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D,
    0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
];

/// The server over `root` with the web view, an account store in `dir`
/// holding `user` (home, password `USER-secret`) and `dir_charsets`; (server,
/// store).
fn serve(dir: &std::path::Path, root: &std::path::Path, user: (&str, &str), dir_charsets: &[&str]) -> (Serve, String) {
    let db = format!("sqlite:{}", dir.join("accounts.db").display());
    let (name, home) = user;
    let password = format!("{name}-secret\n");
    let (code, out, err) = run(&["user", "add", name, "--home", home, "--db", &db], &password);
    assert_eq!(code, 0, "{out}{err}");
    let mut args = vec!["--http-listen", "127.0.0.1:0", "--db", &db];
    for c in dir_charsets {
        args.extend(["--dir-charset", c]);
    }
    (Serve::start(root, &args), db)
}

#[test]
fn previews_show_text_escaped_in_its_charset_and_images_sandboxed_and_download_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("p/cp")).unwrap();
    std::fs::write(
        root.join("p/evil.txt"),
        "before <script>document.title='ran';alert(1)</script> after & \"quoted\"\n",
    )
    .unwrap();
    // "Привет, мир" in windows-1251, in a folder said to be windows-1251.
    std::fs::write(root.join("p/cp/ru.txt"), b"\xCF\xF0\xE8\xE2\xE5\xF2, \xEC\xE8\xF0\n").unwrap();
    std::fs::write(root.join("p/pic.png"), PNG).unwrap();
    std::fs::write(root.join("p/data.bin"), [0u8, 1, 2, 3, 0, 0xFF]).unwrap();
    // No extension, no NUL: text by its content.
    std::fs::write(root.join("p/README"), "plain words\n").unwrap();
    std::fs::write(root.join("p/long.txt"), "x".repeat(300 << 10)).unwrap();
    std::fs::write(root.join("p/secret.txt"), "secret words\n").unwrap();
    std::fs::write(root.join("p/doc.pdf"), "%PDF-1.4\n%%EOF\n").unwrap();
    std::fs::write(root.join("p/song.mp3"), [0xFFu8, 0xFB, 0x90, 0x00]).unwrap();
    std::fs::write(root.join("p/clip.webm"), [0x1Au8, 0x45, 0xDF, 0xA3]).unwrap();
    std::fs::write(root.join("p/secret.png"), PNG).unwrap();
    let (srv, db) = serve(dir.path(), &root, ("bob", "/"), &["/p/cp=windows-1251"]);
    admin(&db, &["user", "perm", "bob", "/", "read"]);
    admin(&db, &["user", "perm", "bob", "/p/secret.txt", "list"]);
    admin(&db, &["user", "perm", "bob", "/p/secret.png", "list"]);
    let base = srv.url_after("web view: ");
    let jar = dir.path().join("jar");
    let page = login_from("127.0.0.1", &jar, &base, "/p/", "bob", "bob-secret", &[]);
    assert_eq!(page.status, 200, "{}", page.body);
    // The listing links the previews its names promise, of what the user
    // may read (bob may only see that secret.txt is there).
    for (name, linked) in [
        ("evil.txt", true),
        ("pic.png", true),
        ("data.bin", false),
        ("secret.txt", false),
    ] {
        assert_eq!(
            page.body.contains(&format!("href=\"{name}?preview\"")),
            linked,
            "{name}: {}",
            page.body
        );
    }
    // The details page too.
    let r = curl(&jar, &format!("{base}/p/pic.png?info"), &[]);
    assert!(
        r.body.contains("id=\"preview\" href=\"/p/pic.png?preview\""),
        "{}",
        r.body
    );
    let r = curl(&jar, &format!("{base}/p/secret.txt?info"), &[]);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(!r.body.contains("id=\"preview\""), "{}", r.body);

    // A text holding a script: escaped, inside <pre>, with its charset.
    let r = curl(&jar, &format!("{base}/p/evil.txt?preview"), &[]);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("content-type").as_deref(), Some("text/html; charset=utf-8"));
    assert!(
        r.body.contains(
            "before &lt;script&gt;document.title=&#39;ran&#39;;alert(1)&lt;/script&gt; after &amp; &quot;quoted&quot;"
        ),
        "{}",
        r.body
    );
    assert!(!r.body.contains("<script>document"), "{}", r.body);
    assert!(r.body.contains("<pre id=\"preview-text\">"), "{}", r.body);
    assert!(r.body.contains("UTF-8"), "{}", r.body);
    assert!(
        r.body.contains("<nav class=\"crumbs\""),
        "the page's header: {}",
        r.body
    );
    let csp = r.header("content-security-policy").unwrap();
    assert!(
        csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
        "{csp}"
    );

    // windows-1251: Cyrillic, and the charset named.
    let r = curl(&jar, &format!("{base}/p/cp/ru.txt?preview"), &[]);
    assert_eq!(r.status, 200);
    assert!(r.body.contains("Привет, мир"), "{}", r.body);
    assert!(r.body.contains("windows-1251"), "{}", r.body);
    // By content; and only the start of a long one, said so.
    let r = curl(&jar, &format!("{base}/p/README?preview"), &[]);
    assert!(r.body.contains("plain words"), "{}", r.body);
    let r = curl(&jar, &format!("{base}/p/long.txt?preview"), &[]);
    assert!(r.body.contains("id=\"preview-cut\""), "a note when cut");
    assert!(r.body.len() < (300 << 10), "only the start is shown");

    // An image: a page with an <img> of its inline URL...
    let r = curl(&jar, &format!("{base}/p/pic.png?preview"), &[]);
    assert_eq!(r.status, 200);
    assert!(
        r.body.contains("<img id=\"preview-image\" src=\"/p/pic.png?inline\""),
        "{}",
        r.body
    );
    // ... which is the image, shown in place, sandboxed, never sniffed.
    let r = curl(&jar, &format!("{base}/p/pic.png?inline"), &[]);
    assert_eq!(r.status, 200);
    assert_eq!(r.bytes, PNG);
    assert_eq!(r.header("content-type").as_deref(), Some("image/png"));
    assert_eq!(r.header("x-content-type-options").as_deref(), Some("nosniff"));
    assert!(
        r.header("content-disposition").unwrap().starts_with("inline; "),
        "{}",
        r.headers
    );
    let csp = r.header("content-security-policy").unwrap();
    assert!(
        csp.starts_with("sandbox") && csp.contains("default-src 'none'"),
        "{csp}"
    );
    assert!(!csp.contains("script-src"), "{csp}");

    // PDF in a frame (the browser's viewer), audio and video in players;
    // the page lets exactly those load from this site.
    for (path, tag) in [
        ("doc.pdf", "<iframe id=\"preview-pdf\" src=\"/p/doc.pdf?inline\""),
        (
            "song.mp3",
            "<audio id=\"preview-audio\" controls src=\"/p/song.mp3?inline\"",
        ),
        (
            "clip.webm",
            "<video id=\"preview-video\" controls src=\"/p/clip.webm?inline\"",
        ),
    ] {
        let r = curl(&jar, &format!("{base}/p/{path}?preview"), &[]);
        assert!(r.body.contains(tag), "{path}: {}", r.body);
        let csp = r.header("content-security-policy").unwrap();
        assert!(
            csp.contains("media-src 'self'") && csp.contains("frame-src 'self'"),
            "{csp}"
        );
    }
    let r = curl(&jar, &format!("{base}/p/doc.pdf?inline"), &[]);
    assert_eq!(r.header("content-type").as_deref(), Some("application/pdf"));
    assert_eq!(
        r.header("x-frame-options").as_deref(),
        Some("SAMEORIGIN"),
        "framed by the preview"
    );
    assert!(r
        .header("content-security-policy")
        .unwrap()
        .contains("frame-ancestors 'self'"));
    let r = curl(&jar, &format!("{base}/p/clip.webm?inline"), &["-r", "1-2"]);
    assert_eq!(
        (r.status, r.bytes.as_slice()),
        (206, &[0x45u8, 0xDF][..]),
        "players seek"
    );
    assert_eq!(r.header("content-type").as_deref(), Some("video/webm"));

    // Nothing a preview shows: the download.
    let r = curl(&jar, &format!("{base}/p/data.bin?preview"), &[]);
    assert_eq!(r.status, 303);
    assert_eq!(r.header("location").as_deref(), Some("/p/data.bin"));
    let r = curl(&jar, &format!("{base}/p/data.bin?preview"), &["-L"]);
    assert_eq!(r.bytes, [0u8, 1, 2, 3, 0, 0xFF]);
    assert!(
        r.header("content-disposition").unwrap().starts_with("attachment; "),
        "{}",
        r.headers
    );

    // What the user may not read: refused, text and image, page and bytes.
    for path in ["/p/secret.txt?preview", "/p/secret.png?preview", "/p/secret.png?inline"] {
        let r = curl(&jar, &format!("{base}{path}"), &[]);
        assert_eq!(r.status, 403, "{path}");
        assert!(!r.body.contains("secret words"), "{path}");
        assert!(!r.bytes.starts_with(&PNG[..8]), "{path}");
    }
}

/// A text's charset is the one configured for the folder on disk: for a
/// user whose home is `/h`, the preview of `/cp/ru.txt` is in the
/// charset of `/h/cp`, not of the server's `/cp`.
#[test]
fn a_preview_takes_the_charset_of_the_folder_on_disk_under_a_home() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("h/cp")).unwrap();
    std::fs::create_dir_all(root.join("cp")).unwrap();
    // "Привет, мир" in ISO-8859-5.
    std::fs::write(root.join("h/cp/ru.txt"), b"\xBF\xE0\xD8\xD2\xD5\xE2, \xDC\xD8\xE0\n").unwrap();
    let (srv, _) = serve(
        dir.path(),
        &root,
        ("hana", "/h"),
        &["/cp=windows-1251", "/h/cp=ISO-8859-5"],
    );
    let base = srv.url_after("web view: ");
    let jar = dir.path().join("jar");
    let page = login_from("127.0.0.1", &jar, &base, "/cp/", "hana", "hana-secret", &[]);
    assert_eq!(page.status, 200, "{}", page.body);
    let r = curl(&jar, &format!("{base}/cp/ru.txt?preview"), &[]);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("Привет, мир"), "{}", r.body);
    assert!(r.body.contains("ISO-8859-5"), "{}", r.body);
}
