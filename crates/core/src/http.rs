//! What every HTTP door of the server shares (the admin API, `/metrics`,
//! the web view): an accept loop that admits connections as the FTP
//! listeners do, HTTPS with the FTPS certificate, and the deadlines that
//! keep a silent or slow client from holding a connection.
//!
//! ```text
//!  TcpListener ─ Guarded: banned, or a connection flood? close
//!                         over max_connections / max_per_ip? 503 (HTTP) or close (HTTPS)
//!      └─ a task per connection, holding its slot:
//!           (TLS handshake, 10 s) ─ hyper-util auto (HTTP/1.1, HTTP/2) ─ axum Router
//!             first request within `http_header_timeout` (20 s), else closed;
//!             HTTP/1.1 headers within it (the next request's too); no new
//!             request for about as long: closed gracefully
//! ```
//!
//! Each door counts its own connections (one [`Limits`] per door, none
//! shared with FTP): a flood of the web view fills neither FTP's slots
//! nor the admin API's, so an administrator can still ban the flooder,
//! and Prometheus can still watch it happen.
//!
//! The handlers get the peer's address as `ConnectInfo<Peer>`, so they
//! can score what their clients do wrong (a refused token, a failed web
//! login) with [`crate::Services::login_failed`].

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use babelftp_session::Msg;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

use crate::admission::{Limits, Slot};
use crate::Services;

/// How long a client may take over its TLS handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// What a client refused for the limits is told to wait, in seconds.
const RETRY_AFTER: u32 = 10;

/// A TCP listener that closes, unanswered, every connection from an
/// address the defender has banned or bans for this very connection (a
/// connection flood), and counts the others against the door's limits.
pub struct Guarded {
    listener: TcpListener,
    shared: Arc<Services>,
    limits: Limits,
}

impl Guarded {
    pub fn new(listener: TcpListener, shared: Arc<Services>) -> Guarded {
        Guarded {
            listener,
            shared,
            limits: Limits::default(),
        }
    }

    /// The next connection the defender lets in, with its slot, or `None`
    /// when the door is full (`max_connections`) or its address has
    /// `max_per_ip` connections already.
    async fn next(&mut self) -> (TcpStream, SocketAddr, Option<Slot>) {
        loop {
            match self.listener.accept().await {
                Ok((tcp, peer)) => {
                    if !self.shared.admit(peer) {
                        continue;
                    }
                    let slot = self.limits.admit(peer.ip(), &self.shared.cfg);
                    return (tcp, peer, slot);
                }
                Err(e) => {
                    // Out of descriptors and the like: wait, as axum does.
                    tracing::debug!(error = %e, "HTTP accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }
}

/// The peer of a connection, as the handlers see it (`ConnectInfo<Peer>`).
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub SocketAddr);

/// Serves `app` on `listener` (HTTPS when `tls` is given) until the task
/// is dropped, handing the handlers the peer's address
/// (`ConnectInfo<Peer>`). `what` names the door in the log.
pub async fn serve(
    mut listener: Guarded,
    tls: Option<Arc<rustls::ServerConfig>>,
    app: axum::Router,
    what: &'static str,
) {
    // Under TLS, every answer tells the browser to use HTTPS only from
    // now on (RFC 6797); never in clear, where it means nothing and a
    // man in the middle could forge it anyway.
    let app = match tls {
        Some(_) => app.layer(axum::middleware::map_response(strict_transport)),
        None => app,
    };
    let tls = tls.map(tokio_rustls::TlsAcceptor::from);
    loop {
        let (tcp, peer, slot) = listener.next().await;
        let Some(slot) = slot else {
            tracing::warn!(%peer, door = what, "HTTP connection refused: too many connections (max_connections or max_per_ip)");
            // In clear, the client is told why; under TLS that would take
            // a handshake, which is what the limits spare.
            if tls.is_none() {
                tokio::spawn(refuse(tcp, listener.shared.clone()));
            }
            continue;
        };
        // Small answers go out at once.
        let _ = tcp.set_nodelay(true);
        let (tls, app) = (tls.clone(), app.clone());
        let stall = listener.shared.cfg.stall_timeout;
        let header = listener.shared.cfg.http_header_timeout;
        // The task holds the slot: it is the connection's life, handshake
        // included.
        // The socket again, kept past the connection's end for a
        // lingering close.
        let kept = std::os::fd::AsFd::as_fd(&tcp).try_clone_to_owned().ok();
        tokio::spawn(async move {
            let _slot = slot;
            match tls {
                None => connection(Stall::new(tcp, stall), peer, app, header).await,
                Some(acceptor) => match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp)).await {
                    Ok(Ok(tls)) => connection(Stall::new(tls, stall), peer, app, header).await,
                    Ok(Err(e)) => tracing::debug!(%peer, error = %e, door = what, "HTTPS: TLS handshake failed"),
                    Err(_) => tracing::debug!(%peer, door = what, "HTTPS: TLS handshake timed out"),
                },
            }
            if let Some(fd) = kept {
                linger(fd).await;
            }
        });
    }
}

/// How long a closed connection's socket takes in, and drops, what the
/// client still sends ([`linger`]), and how much of it at most.
const LINGER: Duration = Duration::from_secs(2);
const LINGER_MAX: usize = 64 << 20;

/// The end of a connection, as nginx's lingering close: the client may
/// still be sending a request body no handler read (a form refused after
/// its first KiB, an upload without a session). Closed with octets
/// unread, the socket is reset by the kernel, and a client still sending
/// (curl) may see the reset and not the answer before it. So the writing
/// side is shut down (the answer is followed by the end) and what still
/// comes is read and dropped, for at most [`LINGER`] and [`LINGER_MAX`]
/// octets; a client that closed first ends it at once.
async fn linger(fd: std::os::fd::OwnedFd) {
    let std = std::net::TcpStream::from(fd);
    if std.set_nonblocking(true).is_err() {
        return;
    }
    let Ok(mut tcp) = TcpStream::from_std(std) else {
        return;
    };
    let _ = tcp.shutdown().await;
    let mut buf = vec![0u8; 16 << 10];
    let mut left = LINGER_MAX;
    let _ = tokio::time::timeout(LINGER, async {
        while left > 0 {
            match tcp.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    })
    .await;
}

/// `Strict-Transport-Security` for a year (RFC 6797), on an answer of an
/// HTTPS door: not `includeSubDomains`, which would bind other sites of
/// the domain.
async fn strict_transport(mut r: axum::response::Response) -> axum::response::Response {
    r.headers_mut().insert(
        axum::http::header::STRICT_TRANSPORT_SECURITY,
        axum::http::HeaderValue::from_static(HSTS),
    );
    r
}

/// The value of `Strict-Transport-Security`.
const HSTS: &str = "max-age=31536000";

/// One connection, HTTP/1.1 or HTTP/2 (ALPN `h2`, or the prior-knowledge
/// preface in clear), until it ends or keeps its deadlines no more.
///
/// `header` (`http_header_timeout`): how long the connection may take to
/// send a complete request header, the first request's from the accept
/// (or the end of the TLS handshake), each next HTTP/1.1 request's from
/// the end of the previous answer; also how long it may stay without
/// starting a request before it is closed, gracefully (answers under way
/// are finished), checked every `header`. Once closing, a connection that
/// writes nothing for `stall_timeout` is dropped: an HTTP/2 client that
/// never opens its flow-control window takes no byte of its answer, and
/// the server then writes nothing for it, so no write waits on the socket
/// for [`Stall`] to see.
async fn connection<I>(io: Stall<I>, peer: SocketAddr, app: axum::Router, header: Duration)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let written = io.written.clone();
    let stall = io.limit;
    // Requests that reached the handlers (their header complete).
    let asked = Arc::new(AtomicU64::new(0));
    let counter = asked.clone();
    let app = app.map_request(move |mut req: axum::extract::Request<_>| {
        counter.fetch_add(1, Ordering::Relaxed);
        req.extensions_mut().insert(ConnectInfo(Peer(peer)));
        req
    });
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(header);
    let conn = builder.serve_connection(TokioIo::new(io), TowerToHyperService::new(app));
    tokio::pin!(conn);
    let deadline = tokio::time::sleep(header);
    tokio::pin!(deadline);
    let (mut seen, mut closing) = (0, false);
    // While closing: the octets written at the last look.
    let stalled = tokio::time::sleep(stall);
    tokio::pin!(stalled);
    let mut moved = 0;
    loop {
        tokio::select! {
            r = conn.as_mut() => {
                if let Err(e) = r {
                    tracing::debug!(%peer, error = %e, "HTTP connection ended");
                }
                return;
            }
            () = stalled.as_mut(), if closing => {
                let now = written.load(Ordering::Relaxed);
                if now == moved {
                    tracing::debug!(%peer, "HTTP connection dropped: closing, and nothing written for stall_timeout");
                    return;
                }
                moved = now;
                stalled.as_mut().reset(tokio::time::Instant::now() + stall);
            }
            () = deadline.as_mut(), if !closing => {
                let now = asked.load(Ordering::Relaxed);
                if now == 0 {
                    // Nothing asked yet (silent, or a header sent a byte at
                    // a time, or an HTTP/2 preface never finished).
                    tracing::debug!(%peer, "HTTP connection closed: no request within the header timeout");
                    return;
                }
                if now == seen {
                    // Idle: the answers under way end, then the connection.
                    conn.as_mut().graceful_shutdown();
                    closing = true;
                    moved = written.load(Ordering::Relaxed);
                    stalled.as_mut().reset(tokio::time::Instant::now() + stall);
                } else {
                    seen = now;
                    deadline.as_mut().reset(tokio::time::Instant::now() + header);
                }
            }
        }
    }
}

/// A connection whose writes fail once one has waited `limit` without
/// moving an octet: a client that reads nothing of its answer (a download
/// it never takes) gives its slot back after `stall_timeout`, as a stalled
/// FTP data connection does. Reads are not watched here: a connection
/// waits for its next request, or reads nothing while it downloads; a
/// request body that stops is the handler's to time (web/files.rs).
struct Stall<I> {
    io: I,
    limit: Duration,
    waiting: Option<Pin<Box<tokio::time::Sleep>>>,
    /// Octets written so far (what `connection` watches while closing).
    written: Arc<AtomicU64>,
}

impl<I> Stall<I> {
    fn new(io: I, limit: Duration) -> Stall<I> {
        Stall {
            io,
            limit,
            waiting: None,
            written: Arc::new(AtomicU64::new(0)),
        }
    }

    /// `r` from the inner I/O: progress ends the wait; a wait starts, or
    /// fails once it has lasted `limit`.
    fn watch<T>(&mut self, cx: &mut Context<'_>, r: Poll<std::io::Result<T>>) -> Poll<std::io::Result<T>> {
        if r.is_ready() {
            self.waiting = None;
            return r;
        }
        let limit = self.limit;
        let sleep = self.waiting.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        if sleep.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client read nothing for stall_timeout",
            )));
        }
        Poll::Pending
    }
}

impl<I: AsyncRead + Unpin> AsyncRead for Stall<I> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Stall<I> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = r {
            self.written.fetch_add(n as u64, Ordering::Relaxed);
        }
        self.watch(cx, r)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        if let Poll::Ready(Ok(n)) = r {
            self.written.fetch_add(n as u64, Ordering::Relaxed);
        }
        self.watch(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let r = Pin::new(&mut self.io).poll_flush(cx);
        self.watch(cx, r)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// Tells a client over the limits so, in the server's language:
/// `503 Service Unavailable` with `Retry-After`, then closes.
async fn refuse(mut tcp: TcpStream, shared: Arc<Services>) {
    let catalogs = &shared.session.catalogs;
    let text = Msg::TooManyConnections.render(catalogs, catalogs.default_lang()) + "\n";
    let head = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nRetry-After: {RETRY_AFTER}\r\nConnection: close\r\n\r\n",
        text.len()
    );
    let answer = async {
        tcp.write_all(head.as_bytes()).await?;
        tcp.write_all(text.as_bytes()).await?;
        tcp.shutdown().await?;
        // What the client sent is read (a little of it, until it closes):
        // a socket closed with unread bytes is reset, and the reset can
        // take the answer with it.
        let mut buf = [0u8; 4096];
        let mut left: usize = 64 * 1024;
        while left > 0 {
            let n = tcp.read(&mut buf).await?;
            if n == 0 {
                break;
            }
            left = left.saturating_sub(n);
        }
        Ok::<(), std::io::Error>(())
    };
    let _ = tokio::time::timeout(Duration::from_secs(5), answer).await;
}
