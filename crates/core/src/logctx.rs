//! Which session a log line belongs to, without a tracing span.
//!
//! Every line a session logs starts with `session{id=N peer=ADDR}`. That was
//! a span; but tracing-subscriber's registry keeps a slot (and its small
//! extension map) for every span that was ever open at once, and those
//! small blocks, scattered among the freed sessions' memory, kept glibc from
//! giving 34 MiB back after 10,000 sessions had quit (issue 24.2). A
//! task-local holds the tag instead: it lives and dies with the session's
//! task, and the log format (the binary's, `babelftp serve`) reads it.
//!
//! The tag names the session's user once it is known (issue 48):
//! `session{id=N peer=ADDR user=NAME}` on FTP and FTPS; the HTTP doors
//! tag each request the same way, `web{peer=ADDR user=NAME}`,
//! `admin{peer=ADDR token=NAME}` (the admin API's caller is a token).

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, RwLock};
use std::task::{Context, Poll};

/// A session's tag: what never changes (`session{id=N peer=ADDR`), and
/// the text written, which names the user once it is known.
#[derive(Debug)]
pub struct Tag {
    head: String,
    text: RwLock<Arc<str>>,
}

impl Tag {
    fn new(head: String) -> Arc<Tag> {
        let text = format!("{head}}}").into();
        Arc::new(Tag {
            head,
            text: RwLock::new(text),
        })
    }

    fn text(&self) -> Arc<str> {
        self.text.read().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

tokio::task_local! {
    static SESSION: Option<Arc<Tag>>;
}

/// Runs a session's future with its tag (`session{id=N peer=ADDR}`, and the
/// proxy's address when it came through one; ` user=NAME` once logged
/// in, see [`set_user`]).
pub fn session<F: Future>(
    id: u64,
    peer: SocketAddr,
    proxy: Option<SocketAddr>,
    f: F,
) -> impl Future<Output = F::Output> {
    let head = match proxy {
        Some(p) => format!("session{{id={id} peer={peer} proxy={p}"),
        None => format!("session{{id={id} peer={peer}"),
    };
    SESSION.scope(Some(Tag::new(head)), f)
}

/// Runs an HTTP door's request with its tag, in the FTP session's form:
/// `web{peer=ADDR}`, `admin{peer=ADDR}`, and ` user=NAME` (` token=NAME`)
/// once the request's user is known ([`set_user`], [`set_token`]).
pub fn request<F: Future>(door: &'static str, peer: SocketAddr, f: F) -> impl Future<Output = F::Output> {
    SESSION.scope(Some(Tag::new(format!("{door}{{peer={peer}"))), f)
}

/// The current session's user from now on (`None`: none, after REIN);
/// written ` user=NAME` in its tag. Nothing outside a session.
pub fn set_user(user: Option<&str>) {
    set_who("user", user);
}

/// The admin API's caller: ` token=NAME` in the request's tag.
pub fn set_token(name: &str) {
    set_who("token", Some(name));
}

fn set_who(key: &str, who: Option<&str>) {
    let _ = SESSION.try_with(|t| {
        if let Some(t) = t {
            let text = match who {
                Some(u) => format!("{} {key}={u}}}", t.head),
                None => format!("{}}}", t.head),
            };
            *t.text.write().unwrap_or_else(|p| p.into_inner()) = text.into();
        }
    });
}

/// A task spawned by a session carries the session's tag.
pub fn inherit<F: Future>(f: F) -> impl Future<Output = F::Output> {
    SESSION.scope(SESSION.try_with(Clone::clone).ok().flatten(), f)
}

/// A stream polled later, outside the session's task (an HTTP body that
/// hyper polls): it carries the current tag, when polled and when dropped
/// (a download's line is logged as its body goes).
pub fn stream<S: futures::Stream + Send + 'static>(s: S) -> impl futures::Stream<Item = S::Item> + Send + 'static {
    Tagged {
        tag: SESSION.try_with(Clone::clone).ok().flatten(),
        inner: Some(Box::pin(s)),
    }
}

struct Tagged<S> {
    tag: Option<Arc<Tag>>,
    inner: Option<Pin<Box<S>>>,
}

impl<S: futures::Stream> futures::Stream for Tagged<S> {
    type Item = S::Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        let tag = self.tag.clone();
        match self.inner.as_mut() {
            Some(inner) => SESSION.sync_scope(tag, || inner.as_mut().poll_next(cx)),
            None => Poll::Ready(None),
        }
    }
}

impl<S> Drop for Tagged<S> {
    fn drop(&mut self) {
        let inner = self.inner.take();
        SESSION.sync_scope(self.tag.clone(), || drop(inner));
    }
}

/// Calls `f` with the current task's session tag, if any.
pub fn with_tag<R>(f: impl FnOnce(Option<&str>) -> R) -> R {
    let tag = SESSION.try_with(|t| t.as_ref().map(|t| t.text())).ok().flatten();
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

    #[tokio::test]
    async fn the_user_joins_the_tag_once_known_on_every_door() {
        use futures::StreamExt;
        let peer: SocketAddr = "127.0.0.1:4000".parse().unwrap();
        fn tag() -> Option<String> {
            with_tag(|t| t.map(str::to_owned))
        }
        let got = session(7, peer, None, async {
            set_user(Some("carol"));
            let child = tokio::spawn(inherit(async { tag() })).await.unwrap();
            set_user(None);
            (child, tag())
        })
        .await;
        assert_eq!(got.0.as_deref(), Some("session{id=7 peer=127.0.0.1:4000 user=carol}"));
        assert_eq!(got.1.as_deref(), Some("session{id=7 peer=127.0.0.1:4000}"));
        let body = request("web", peer, async {
            set_user(Some("dora"));
            stream(futures::stream::iter([1]).map(|_| tag()))
        })
        .await;
        let polled: Vec<Option<String>> = body.collect().await;
        assert_eq!(polled, [Some("web{peer=127.0.0.1:4000 user=dora}".to_owned())]);
        // Dropped: what it owns logs with the tag too.
        struct OnDrop(std::sync::Arc<std::sync::Mutex<Option<String>>>);
        impl Drop for OnDrop {
            fn drop(&mut self) {
                *self.0.lock().unwrap() = with_tag(|t| t.map(str::to_owned));
            }
        }
        let seen = std::sync::Arc::new(std::sync::Mutex::new(None));
        let guard = OnDrop(seen.clone());
        let body = request("web", peer, async move {
            set_user(Some("erin"));
            stream(futures::stream::iter([0]).map(move |x| {
                let _ = &guard;
                x
            }))
        })
        .await;
        drop(body);
        assert_eq!(
            seen.lock().unwrap().as_deref(),
            Some("web{peer=127.0.0.1:4000 user=erin}")
        );
        set_user(Some("nobody"));
        assert_eq!(tag(), None);
    }
}
