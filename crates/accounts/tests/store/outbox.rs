//! The outbox checks, run on SQLite and on PostgreSQL.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use babelftp_accounts::*;

/// The event outbox: entries come back in the node's order, per hook;
/// a pushed entry that is there already stays; done entries go; retries
/// keep their count. What another node wrote is not this node's.
pub async fn round_trip(s: &Store) {
    let entry = |id: &str, hook: &str, node: &str, seq: i64| OutboxEntry {
        id: id.into(),
        hook: hook.into(),
        node: node.into(),
        session: "s1".into(),
        seq,
        body: format!("{{\"id\":\"{id}\"}}"),
        attempts: 0,
        next_try_ms: 0,
    };
    s.outbox_push(&[
        entry("b", "web", "n1", 2),
        entry("a", "web", "n1", 1),
        entry("a", "cmd", "n1", 1),
        entry("c", "web", "n2", 3),
    ])
    .await
    .unwrap();
    // Again (a retried batch): nothing doubles.
    s.outbox_push(&[entry("a", "web", "n1", 1)]).await.unwrap();
    assert_eq!(s.outbox_len().await.unwrap(), 4);
    let ids = |v: Vec<OutboxEntry>| v.into_iter().map(|e| e.id).collect::<Vec<_>>();
    assert_eq!(
        ids(s.outbox_pending("n1", "web", 10, i64::MAX).await.unwrap()),
        ["a", "b"]
    );
    assert_eq!(ids(s.outbox_pending("n1", "web", 1, i64::MAX).await.unwrap()), ["a"]);
    assert_eq!(ids(s.outbox_pending("n2", "web", 10, i64::MAX).await.unwrap()), ["c"]);
    s.outbox_retry("web", &[("a".into(), 3, 12_345, "refused".into())])
        .await
        .unwrap();
    let a = &s.outbox_pending("n1", "web", 1, i64::MAX).await.unwrap()[0];
    assert_eq!((a.attempts, a.next_try_ms, a.session.as_str()), (3, 12_345, "s1"));
    s.outbox_done("web", &["a".into(), "b".into()]).await.unwrap();
    assert!(s.outbox_pending("n1", "web", 10, i64::MAX).await.unwrap().is_empty());
    assert_eq!(
        ids(s.outbox_pending("n1", "cmd", 10, i64::MAX).await.unwrap()),
        ["a"],
        "another hook's stays"
    );
    assert_eq!(s.outbox_len().await.unwrap(), 2);
}

/// A session whose entry waits for its next try holds back its own later
/// entries only: the page is read past them, so another session's entries
/// (and bans, which belong to no session) still come, however many of the
/// waiting session's entries there are.
pub async fn past_a_waiting_session(s: &Store) {
    let entry = |id: String, session: &str, seq: i64, next_try_ms: i64| OutboxEntry {
        id,
        hook: "web".into(),
        node: "n1".into(),
        session: session.into(),
        seq,
        body: "{}".into(),
        attempts: u32::from(next_try_ms > 0),
        next_try_ms,
    };
    // "stuck": its first entry waits until 5000, then 20 more behind it.
    let mut rows = vec![entry("stuck-0".into(), "stuck", 1, 5_000)];
    rows.extend((1..=20).map(|i| entry(format!("stuck-{i}"), "stuck", 1 + i, 0)));
    rows.push(entry("ban-waiting".into(), "", 30, 5_000));
    rows.push(entry("other".into(), "s2", 31, 0));
    rows.push(entry("ban".into(), "", 32, 0));
    s.outbox_push(&rows).await.unwrap();
    let ids = |v: Vec<OutboxEntry>| v.into_iter().map(|e| e.id).collect::<Vec<_>>();
    // A page of 5 at 1000: not filled by the waiting session.
    assert_eq!(
        ids(s.outbox_pending("n1", "web", 5, 1_000).await.unwrap()),
        ["other", "ban"]
    );
    assert_eq!(s.outbox_next_try("n1", "web", 1_000).await.unwrap(), Some(5_000));
    // Once due, the session's entries come in order.
    let due = ids(s.outbox_pending("n1", "web", 3, 6_000).await.unwrap());
    assert_eq!(due, ["stuck-0", "stuck-1", "stuck-2"]);
    assert_eq!(s.outbox_next_try("n1", "web", 6_000).await.unwrap(), None);
    assert_eq!(s.outbox_pending("n1", "web", 100, i64::MAX).await.unwrap().len(), 24);
}

/// A hook taken out of the configuration: this node's entries for it go
/// (and are counted), the kept hooks' and other nodes' entries stay.
pub async fn hooks_taken_out(s: &Store) {
    let entry = |id: &str, hook: &str, node: &str| OutboxEntry {
        id: id.into(),
        hook: hook.into(),
        node: node.into(),
        session: String::new(),
        seq: 1,
        body: "{}".into(),
        attempts: 0,
        next_try_ms: 0,
    };
    let before = s.outbox_len().await.unwrap();
    s.outbox_push(&[
        entry("a", "gone", "h1"),
        entry("b", "gone", "h1"),
        entry("a", "kept", "h1"),
        entry("c", "gone", "h2"),
        entry("d", "old", "h1"),
    ])
    .await
    .unwrap();
    let dropped = s.outbox_drop_hooks_except("h1", &["kept"]).await.unwrap();
    assert_eq!(dropped, [("gone".to_string(), 2), ("old".to_string(), 1)]);
    let ids = |v: Vec<OutboxEntry>| v.into_iter().map(|e| e.id).collect::<Vec<_>>();
    assert_eq!(ids(s.outbox_pending("h1", "kept", 10, i64::MAX).await.unwrap()), ["a"]);
    assert!(s.outbox_pending("h1", "gone", 10, i64::MAX).await.unwrap().is_empty());
    assert_eq!(ids(s.outbox_pending("h2", "gone", 10, i64::MAX).await.unwrap()), ["c"]);
    assert!(s.outbox_drop_hooks_except("h1", &["kept"]).await.unwrap().is_empty());
    assert_eq!(s.outbox_len().await.unwrap(), before + 2);
}

/// Hooks taken out are dropped while delivery writes the same table all
/// the while (a server starting with events still waiting): every drop
/// succeeds and takes exactly the taken-out hook's entries. On SQLite a
/// transaction that read before another connection's write committed
/// could not write any more (`database is locked`), and the entries of
/// the hook taken out stayed for good.
pub async fn dropped_while_delivery_writes(s: &Store) {
    let entry = |id: String, hook: &str| OutboxEntry {
        id,
        hook: hook.into(),
        node: "busy".into(),
        session: String::new(),
        seq: 1,
        body: "{}".into(),
        attempts: 0,
        next_try_ms: 0,
    };
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let delivery = {
        let (s, stop) = (s.clone(), stop.clone());
        tokio::spawn(async move {
            let mut i = 0u64;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                let id = format!("k{i}");
                s.outbox_push(&[entry(id.clone(), "kept")]).await.unwrap();
                s.outbox_done("kept", &[id]).await.unwrap();
                i += 1;
            }
            i
        })
    };
    for round in 0..100 {
        s.outbox_push(&[entry(format!("g{round}a"), "gone"), entry(format!("g{round}b"), "gone")])
            .await
            .unwrap();
        let dropped = s.outbox_drop_hooks_except("busy", &["kept"]).await;
        assert!(
            matches!(&dropped, Ok(d) if d == &[("gone".to_string(), 2)]),
            "round {round}: {dropped:?}"
        );
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let written = delivery.await.unwrap();
    assert!(written > 0, "the delivery task wrote while the drops ran");
    assert!(s.outbox_pending("busy", "gone", 10, i64::MAX).await.unwrap().is_empty());
}
