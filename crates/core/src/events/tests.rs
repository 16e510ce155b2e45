#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::hook::{command_env, glob_match, signature, without_credentials};
use super::*;

#[test]
fn an_upload_as_json_with_a_name_that_is_not_utf8() {
    let mut ev = Event::new(Kind::Upload);
    ev.session = Some("ab12cd34-7".into());
    ev.user = Some(b"alice".to_vec());
    ev.client = Some("::ffff:203.0.113.9".parse().unwrap());
    ev.protocol = Some("ftps");
    // "отчёт" in windows-1251, and a literal %.
    ev.path = Some(b"/in/\xee\xf2\xf7\xb8\xf2 100%.txt".to_vec());
    ev.bytes = Some(5);
    ev.size = Some(5);
    ev.duration_ms = Some(12);
    ev.outcome = Some("complete");
    ev.code = Some(226);
    let json = ev.to_json("id-1", "2026-11-18T11:06:40.123Z", "ftp1");
    assert_eq!(
        json,
        r#"{"id":"id-1","event":"upload","time":"2026-11-18T11:06:40.123Z","node":"ftp1","session":"ab12cd34-7","user":"alice","client_address":"203.0.113.9","protocol":"ftps","path":"/in/%EE%F2%F7%B8%F2 100%25.txt","path_hex":"/in/%EE%F2%F7%B8%F2 100%25.txt","size":5,"bytes":5,"duration_ms":12,"outcome":"complete","code":226}"#
    );
    // The command's BABELFTP_PATH is the stored octets again.
    let env = command_env(&json);
    let path = env.iter().find(|(k, _)| k == "BABELFTP_PATH").unwrap();
    use std::os::unix::ffi::OsStrExt;
    assert_eq!(path.1.as_bytes(), b"/in/\xee\xf2\xf7\xb8\xf2 100%.txt");
    assert!(env.iter().any(|(k, v)| k == "BABELFTP_EVENT" && v == "upload"));
    assert!(env.iter().any(|(k, v)| k == "BABELFTP_CODE" && v == "226"));
    assert!(!env.iter().any(|(k, _)| k == "BABELFTP_PATH_HEX"));
}

#[test]
fn a_utf8_rename_is_its_text_exactly() {
    let mut ev = Event::new(Kind::Rename);
    ev.path = Some("/日本/a\u{202e}b".as_bytes().to_vec());
    ev.target = Some("/日本/c d%".as_bytes().to_vec());
    let json = ev.to_json("i", "t", "n");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["path"], "/日本/a\u{202e}b");
    assert_eq!(v["target"], "/日本/c d%");
    assert!(v.get("path_hex").is_none() && v.get("size").is_none());
}

#[test]
fn percent_round_trips_every_octet() {
    let all: Vec<u8> = (0..=255).collect();
    assert_eq!(unpercent(&percent(&all)), all);
    assert_eq!(unpercent("100%"), b"100%");
    assert_eq!(unpercent("%zz%4"), b"%zz%4");
}

#[test]
fn times_are_rfc3339_utc() {
    assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
    assert_eq!(rfc3339(1_795_000_000_123), "2026-11-18T11:06:40.123Z");
}

#[test]
fn ids_are_uuid_v4_and_differ() {
    let (a, b) = (uuid_v4(), uuid_v4());
    assert_ne!(a, b);
    assert_eq!(a.len(), 36);
    assert_eq!(&a[14..15], "4");
    assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"), "{a}");
}

#[test]
fn the_signature_is_hmac_sha256() {
    // RFC 4231, test case 2.
    assert_eq!(
        signature(b"Jefe", b"what do ya want for nothing?"),
        "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    );
}

#[test]
fn path_filters() {
    let m = |p: &str, s: &[u8]| glob_match(p.as_bytes(), s);
    assert!(m("/incoming/*", b"/incoming/a.csv"));
    assert!(!m("/incoming/*", b"/incoming/sub/a.csv"));
    assert!(m("/incoming/**", b"/incoming/sub/a.csv"));
    assert!(m("**/*.csv", b"/x/y/a.csv"));
    assert!(m("**/*.csv", b"/a.csv"));
    assert!(!m("**/*.csv", b"/a.csv.part"));
    assert!(m("/in/?.txt", b"/in/\xff.txt"), "a name that is not UTF-8 is octets");
    assert!(!m("/in/?.txt", b"/in//.txt"));
}

#[test]
fn the_back_off_doubles_to_its_limit() {
    let max = Duration::from_secs(60);
    let secs: Vec<u64> = (1..9).map(|n| outbox::backoff(n, max).as_secs()).collect();
    assert_eq!(secs, [1, 2, 4, 8, 16, 32, 60, 60]);
    assert_eq!(outbox::backoff(u32::MAX, max), max);
}

#[test]
fn kinds_by_name() {
    for k in Kind::ALL {
        assert_eq!(Kind::parse(k.name()), Some(k));
    }
    assert_eq!(Kind::parse("login_failed"), Some(Kind::LoginFailed));
    assert_eq!(Kind::parse("LOGIN"), None);
}

#[test]
fn a_hooks_name_has_no_password() {
    assert_eq!(
        without_credentials("https://u:pw@h.example/x?a=b@c"),
        "https://h.example/x?a=b@c"
    );
    assert_eq!(without_credentials("http://h:8080/e"), "http://h:8080/e");
    assert_eq!(HookSpec::url("http://u:p@h/e").name, "http://h/e");
}

/// Issue 45, item 7: with its receiver down, the outbox keeps at most
/// `max_pending` events per hook: the oldest failed logins go first, then
/// the oldest of any kind; every drop is counted. In memory and in the
/// accounts store (SQLite) alike.
#[tokio::test]
async fn a_full_outbox_drops_the_oldest_failed_logins_first_and_counts() {
    let dir = tempfile::tempdir().unwrap();
    let store = babelftp_accounts::Store::open(dir.path().join("o.db").to_str().unwrap())
        .await
        .unwrap();
    for store in [None, Some(store)] {
        // Nobody listens there: every delivery fails and waits.
        let mut spec = HookSpec::url("http://127.0.0.1:9/down");
        spec.max_backoff = Duration::from_secs(3600);
        let dropped = prometheus_client::metrics::counter::Counter::default();
        let bound = Bound {
            max_pending: 5,
            dropped: dropped.clone(),
            ..Bound::default()
        };
        let events = Events::start_bounded(Some("n1".into()), &[spec], store.clone(), bound)
            .unwrap()
            .unwrap();
        let ev = |kind: Kind, user: &str| {
            let mut e = Event::new(kind);
            e.session = Some(format!("s-{user}"));
            e.user = Some(user.as_bytes().to_vec());
            e
        };
        // Three uploads among ten failed logins.
        for i in 0..10 {
            events.emit(&ev(Kind::LoginFailed, &format!("guess{i}")));
            if i % 4 == 1 {
                events.emit(&ev(Kind::Upload, &format!("up{i}")));
            }
            events.flush(Duration::from_secs(10)).await;
        }
        let bodies: Vec<String> = match &store {
            Some(s) => {
                let rows = s
                    .outbox_pending("n1", "http://127.0.0.1:9/down", 100, i64::MAX)
                    .await
                    .unwrap();
                rows.into_iter().map(|r| r.body).collect()
            }
            None => {
                // (In memory: the hook's delivery task holds the rows;
                // the counter says what went.)
                Vec::new()
            }
        };
        assert_eq!(dropped.get(), 13 - 5, "store: {}", store.is_some());
        if store.is_some() {
            assert_eq!(bodies.len(), 5, "{bodies:?}");
            let uploads = bodies.iter().filter(|b| b.contains("\"event\":\"upload\"")).count();
            assert_eq!(uploads, 3, "every upload stays: {bodies:?}");
            // The failed logins that stay are the newest.
            assert!(bodies.iter().any(|b| b.contains("\"user\":\"guess9\"")), "{bodies:?}");
            assert!(bodies.iter().any(|b| b.contains("\"user\":\"guess8\"")), "{bodies:?}");
            assert!(!bodies.iter().any(|b| b.contains("\"user\":\"guess7\"")), "{bodies:?}");
        }
        // Past the failed logins, the oldest of any kind.
        for i in 0..4 {
            events.emit(&ev(Kind::Download, &format!("dl{i}")));
        }
        events.flush(Duration::from_secs(10)).await;
        assert_eq!(dropped.get(), 8 + 4, "store: {}", store.is_some());
        if let Some(s) = &store {
            let rows = s
                .outbox_pending("n1", "http://127.0.0.1:9/down", 100, i64::MAX)
                .await
                .unwrap();
            let users: Vec<String> = rows
                .iter()
                .map(|r| {
                    serde_json::from_str::<serde_json::Value>(&r.body).unwrap()["user"]
                        .as_str()
                        .unwrap()
                        .to_owned()
                })
                .collect();
            assert_eq!(users, ["up9", "dl0", "dl1", "dl2", "dl3"], "{users:?}");
        }
    }
}

/// The memory queue's trim, on its own: failed logins first, oldest first.
#[tokio::test]
async fn the_memory_outbox_trims_failed_logins_first() {
    let entry = |id: &str, kind: &str| babelftp_accounts::OutboxEntry {
        id: id.into(),
        hook: "h".into(),
        node: "n".into(),
        session: String::new(),
        seq: 0,
        body: format!(r#"{{"id":"{id}","event":"{kind}","user":"\"event\":\"login_failed\""}}"#),
        attempts: 0,
        next_try_ms: 0,
    };
    let rows = vec![
        entry("a", "upload"),
        entry("b", "login_failed"),
        entry("c", "login"),
        entry("d", "login_failed"),
        entry("e", "delete"),
    ];
    let (failed, other, left) = super::outbox::test_trim(rows, 2).await;
    assert_eq!((failed, other), (2, 1));
    assert_eq!(left, ["c", "e"]);
}
