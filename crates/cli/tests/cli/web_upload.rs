//! Issue 49, uploads in Chromium over HTTPS with HTTP/2 (and over plain
//! HTTP/1.1): several files at once, one by a drop, a folder by a drop,
//! progress on a throttled upload and its cancel (nothing left on disk,
//! not even the temporary file), and an upload past the account's quota
//! refused with the server's reason in its row.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{json, Value};

use crate::common;
use crate::web_browser::{browse, sha256_hex};
use common::serve::Serve;

/// JavaScript: each upload row as [name, state, the state's text], once
/// there are `n` rows and none is waiting or sending (else null).
fn rows_when(n: usize) -> String {
    format!(
        "const r = [...document.querySelectorAll('#uploads li')];
         if (r.length < {n} || r.some(li => ['waiting', 'sending'].includes(li.getAttribute('data-state')))) return null;
         return r.map(li => [li.querySelector('.up-name').textContent, li.getAttribute('data-state'), li.querySelector('.up-state').textContent]);"
    )
}

/// The temporary upload files (`.babelftp-*.part`) in `dir`.
fn parts(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".babelftp-"))
        .collect()
}

#[test]
fn uploads_several_at_once_by_drop_with_progress_cancel_and_quota_in_chromium_over_https_with_http2() {
    uploads(true);
}

/// The same over plain HTTP/1.1, where a refusal comes before the body
/// is all sent and a cancel closes the connection.
#[test]
fn uploads_several_at_once_by_drop_with_progress_cancel_and_quota_in_chromium_over_http1() {
    uploads(false);
}

fn uploads(tls: bool) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let inbox = root.join("in");
    std::fs::create_dir_all(&inbox).unwrap();
    let db = format!("sqlite:{}", dir.path().join("users.db").display());
    let (code, out, err) = common::serve::run(&["user", "add", "dave", "--home", "/", "--db", &db], "dave-password\n");
    assert_eq!(code, 0, "{out}{err}");
    common::serve::admin(&db, &["user", "perm", "dave", "/", "all"]);
    common::serve::admin(&db, &["user", "set", "dave", "--quota-bytes", "2MiB"]);
    let (cert, key) = babelftp_test_support::certificate(dir.path());
    let mut args = vec!["--http-listen", "127.0.0.1:0", "--db", &db];
    if tls {
        args.extend(["--tls-cert", cert.to_str().unwrap(), "--tls-key", key.to_str().unwrap()]);
    }
    let srv = Serve::start(&root, &args);
    let base = srv.url_after("web view: ");
    let (scheme, protocol) = if tls { ("https", "h2") } else { ("http", "http/1.1") };
    assert!(base.starts_with(&format!("{scheme}://127.0.0.1:")), "{base}");
    // Three files chosen at once: names in three scripts, one with `%` and `#`.
    let local = dir.path().join("local");
    std::fs::create_dir_all(&local).unwrap();
    let three: Vec<(&str, Vec<u8>)> = vec![
        ("Отчёт за квартал.txt", "квартал\n".repeat(100).into_bytes()),
        ("報告 100% #1.bin", (0..70_000u32).map(|i| (i % 251) as u8).collect()),
        ("تقرير.txt", b"\xD8\xAA\n".to_vec()),
    ];
    let mut paths = Vec::new();
    for (n, bytes) in &three {
        let p = local.join(n);
        std::fs::write(&p, bytes).unwrap();
        paths.push(p.to_str().unwrap().to_owned());
    }
    // 1 MiB, sent at 32 KiB/s: half a minute unless cancelled.
    let big = local.join("big.bin");
    std::fs::write(&big, vec![7u8; 1 << 20]).unwrap();
    // Past the 2 MiB quota.
    let huge = local.join("huge.bin");
    std::fs::write(&huge, vec![9u8; 5 << 19]).unwrap();
    let drop = "const dt = new DataTransfer();
        dt.items.add(new File([new TextEncoder().encode('dropped ✓\\n')], 'перетащено.txt', {type: 'text/plain'}));
        document.getElementById('listing').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
        return dt.items.length;";
    let sending = "const p = document.querySelector('#uploads li[data-state=sending] progress');
        return p && p.value > 0 && p.value < p.max ? [p.value, p.max, p.getAttribute('aria-label')] : null;";
    // A dropped folder, as Chromium hands it over (webkitGetAsEntry: a
    // directory entry whose reader gives its entries in batches, then
    // none); a test cannot put a real folder into a DataTransfer.
    let folder = "const file = (name, text) => ({isFile: true, isDirectory: false, name,
            file: ok => ok(new File([text], name))});
        const dir = (name, kids) => ({isFile: false, isDirectory: true, name, createReader: () => {
            let batches = [kids.slice(0, 1), kids.slice(1), []];
            return {readEntries: ok => setTimeout(() => ok(batches.shift() || []), 10)};
        }});
        const top = dir('Папка', [file('один.txt', 'один\\n'), dir('вложенная', [file('глубоко.txt', 'глубоко\\n')]), dir('пустая', [])]);
        const ev = new Event('drop', {bubbles: true, cancelable: true});
        Object.defineProperty(ev, 'dataTransfer', {value: {types: ['Files'], files: [],
            items: [{kind: 'file', webkitGetAsEntry: () => top, getAsFile: () => null}]}});
        document.getElementById('listing').dispatchEvent(ev);
        return 1;";
    let h2 = json!({"op": "eval", "js": "return performance.getEntriesByType('navigation')[0].nextHopProtocol;"});
    let r = browse(
        dir.path(),
        &json!({
            "ignore_certificate_errors": true,
            "timeout": 30,
            "failure_screenshot": dir.path().join("failure.png").to_str().unwrap(),
            "steps": [
                {"op": "open", "url": format!("{base}/in/")},                              // 0
                {"op": "type", "css": "#login-user", "text": "dave"},
                {"op": "type", "css": "#login-password", "text": "dave-password"},
                {"op": "click", "css": "#login-submit"},
                {"op": "wait_for", "css": "#user", "text": "dave"},
                h2,                                                                          // 5
                // Three at once through the file input.
                {"op": "upload", "css": "#upload-files", "path": paths},
                {"op": "click", "css": "#upload-submit"},
                {"op": "wait_js", "js": rows_when(3)},
                // The listing is fetched again and put in place.
                {"op": "wait_for", "css": "#listing", "text": "تقرير.txt"},
                {"op": "texts", "css": "a.n"},                                               // 10
                // One by a drop on the listing.
                {"op": "eval", "js": drop},
                {"op": "wait_js", "js": rows_when(4)},
                {"op": "wait_for", "css": "#listing", "text": "перетащено.txt"},
                // A throttled upload: its progress, then cancelled.
                {"op": "throttle", "upload": 32768},
                {"op": "upload", "css": "#upload-files", "path": big.to_str().unwrap()},     // 15
                {"op": "click", "css": "#upload-submit"},
                {"op": "wait_js", "js": sending},
                {"op": "click", "css": "#uploads li[data-state=sending] .up-cancel"},
                {"op": "wait_js", "js": rows_when(5)},
                {"op": "throttle"},                                                          // 20
                // Past the quota: refused, with the server's reason.
                {"op": "upload", "css": "#upload-files", "path": huge.to_str().unwrap()},
                {"op": "click", "css": "#upload-submit"},
                {"op": "wait_js", "js": rows_when(6)},
                h2,
                // A folder by a drop: its folders made, its files in them.
                {"op": "eval", "js": folder},                                               // 25
                {"op": "wait_js", "js": rows_when(8)},
                {"op": "wait_for", "css": "#listing", "text": "Папка/"},
            ]
        }),
    );
    let results = r["results"].as_array().unwrap();
    for i in [5, 24] {
        assert_eq!(results[i], protocol, "step {i} came over {}", results[i]);
    }
    let state = |rows: &Value, name: &str| -> (String, String) {
        let row = rows
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r[0] == name)
            .unwrap_or_else(|| panic!("no row for {name}: {rows}"));
        (row[1].as_str().unwrap().to_owned(), row[2].as_str().unwrap().to_owned())
    };
    // Each of the three: its row says done, its bytes landed.
    for (n, bytes) in &three {
        assert_eq!(
            state(&results[8], n),
            ("done".to_owned(), "Done".to_owned()),
            "{}",
            results[8]
        );
        let got = std::fs::read(inbox.join(n)).unwrap();
        assert_eq!(sha256_hex(&got), sha256_hex(bytes), "{n}");
    }
    let names = results[10].as_array().unwrap();
    for (n, _) in &three {
        // `%` shows as `%25`, as FTP shows it.
        let shown = n.replace('%', "%25");
        assert!(
            names.iter().any(|x| *x == shown),
            "{shown} not in the refreshed listing: {names:?}"
        );
    }
    // The dropped file.
    assert_eq!(results[11], 1);
    assert_eq!(state(&results[12], "перетащено.txt").0, "done", "{}", results[12]);
    assert_eq!(
        std::fs::read(inbox.join("перетащено.txt")).unwrap(),
        "dropped ✓\n".as_bytes()
    );
    // Progress seen strictly between 0 and the size, labelled with the name.
    let (v, max) = (results[17][0].as_f64().unwrap(), results[17][1].as_f64().unwrap());
    assert!(v > 0.0 && v < max, "{}", results[17]);
    assert_eq!(max, f64::from(1u32 << 20));
    assert_eq!(results[17][2], "big.bin");
    assert_eq!(
        state(&results[19], "big.bin"),
        ("cancelled".to_owned(), "Cancelled".to_owned()),
        "{}",
        results[19]
    );
    // Over the quota: the server's reason, in the row.
    let (s, text) = state(&results[23], "huge.bin");
    assert_eq!(s, "refused", "{}", results[23]);
    assert!(text.contains("Quota exceeded"), "{text}");
    // Nothing kept of the cancelled or the refused upload, nor their
    // temporary files (the server drops them when the stream ends;
    // looked at until it has, at most 20 s).
    let mut left = parts(&inbox);
    for _ in 0..200 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        left = parts(&inbox);
    }
    assert_eq!(left, Vec::<String>::new(), "temporary files left");
    assert!(!inbox.join("big.bin").exists());
    assert!(!inbox.join("huge.bin").exists());
    // The dropped folder.
    assert_eq!(state(&results[26], "Папка/один.txt").0, "done", "{}", results[26]);
    assert_eq!(
        state(&results[26], "Папка/вложенная/глубоко.txt").0,
        "done",
        "{}",
        results[26]
    );
    assert_eq!(
        std::fs::read(inbox.join("Папка/один.txt")).unwrap(),
        "один\n".as_bytes()
    );
    assert_eq!(
        std::fs::read(inbox.join("Папка/вложенная/глубоко.txt")).unwrap(),
        "глубоко\n".as_bytes()
    );
    assert!(inbox.join("Папка/пустая").is_dir(), "an empty folder is made too");
    let console = r["console"].as_array().unwrap();
    assert!(
        !console.iter().any(|c| {
            let m = c["message"].as_str().unwrap_or("");
            m.contains("Content Security Policy") || m.contains("Uncaught")
        }),
        "{console:?}"
    );
}
