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
    assert_eq!(ids(s.outbox_pending("n1", "web", 10).await.unwrap()), ["a", "b"]);
    assert_eq!(ids(s.outbox_pending("n1", "web", 1).await.unwrap()), ["a"]);
    assert_eq!(ids(s.outbox_pending("n2", "web", 10).await.unwrap()), ["c"]);
    s.outbox_retry("web", &[("a".into(), 3, 12_345, "refused".into())])
        .await
        .unwrap();
    let a = &s.outbox_pending("n1", "web", 1).await.unwrap()[0];
    assert_eq!((a.attempts, a.next_try_ms, a.session.as_str()), (3, 12_345, "s1"));
    s.outbox_done("web", &["a".into(), "b".into()]).await.unwrap();
    assert!(s.outbox_pending("n1", "web", 10).await.unwrap().is_empty());
    assert_eq!(
        ids(s.outbox_pending("n1", "cmd", 10).await.unwrap()),
        ["a"],
        "another hook's stays"
    );
    assert_eq!(s.outbox_len().await.unwrap(), 2);
}
