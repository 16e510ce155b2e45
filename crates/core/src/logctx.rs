//! Which session a log line belongs to, without a tracing span.
//!
//! Every line a session logs starts with `session{id=N peer=ADDR}`. That was
//! a span; but tracing-subscriber's registry keeps a slot (and its small
//! extension map) for every span that was ever open at once, and those
//! small blocks, scattered among the freed sessions' memory, kept glibc from
//! giving 34 MiB back after 10,000 sessions had quit (issue 24.2). A
//! task-local holds the tag instead: it lives and dies with the session's
//! task, and the log format (the binary's, `babelftp serve`) reads it.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

tokio::task_local! {
    static SESSION: Option<Arc<str>>;
}

/// Runs a session's future with its tag (`session{id=N peer=ADDR}`, and the
/// proxy's address when it came through one).
pub fn session<F: Future>(
    id: u64,
    peer: SocketAddr,
    proxy: Option<SocketAddr>,
    f: F,
) -> impl Future<Output = F::Output> {
    let tag: Arc<str> = match proxy {
        Some(p) => format!("session{{id={id} peer={peer} proxy={p}}}"),
        None => format!("session{{id={id} peer={peer}}}"),
    }
    .into();
    SESSION.scope(Some(tag), f)
}

/// A task spawned by a session carries the session's tag.
pub fn inherit<F: Future>(f: F) -> impl Future<Output = F::Output> {
    SESSION.scope(SESSION.try_with(Clone::clone).ok().flatten(), f)
}

/// Calls `f` with the current task's session tag, if any.
pub fn with_tag<R>(f: impl FnOnce(Option<&str>) -> R) -> R {
    let tag = SESSION.try_with(Clone::clone).ok().flatten();
    f(tag.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_tag_follows_the_session_and_its_tasks() {
        assert_eq!(with_tag(|t| t.map(str::to_owned)), None);
        let peer: SocketAddr = "127.0.0.1:4000".parse().unwrap();
        let got = session(7, peer, None, async {
            let child = tokio::spawn(inherit(async { with_tag(|t| t.map(str::to_owned)) }));
            (with_tag(|t| t.map(str::to_owned)), child.await.unwrap())
        })
        .await;
        assert_eq!(got.0.as_deref(), Some("session{id=7 peer=127.0.0.1:4000}"));
        assert_eq!(got.1, got.0);
    }
}
