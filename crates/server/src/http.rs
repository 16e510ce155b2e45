//! What every HTTP door of the server shares (the admin API, `/metrics`,
//! and the web view to come): listeners that close banned addresses as
//! soon as they are accepted, as the FTP listeners do, and HTTPS with the
//! FTPS certificate.
//!
//! ```text
//!  TcpListener ─ Guarded (banned? close) ─┬─ axum::serve             (HTTP)
//!                                         └─ Tls (handshake tasks) ─ axum::serve (HTTPS)
//! ```
//!
//! Both hand axum the peer's `SocketAddr`, so a router served with
//! `into_make_service_with_connect_info::<Peer>()` can score what
//! its clients do wrong (a refused token, a failed web login) with
//! [`crate::driver::Shared::login_failed`].

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::net::{TcpListener, TcpStream};

use crate::defender::Defender;
use crate::metrics::Metrics;

/// A TCP listener that drops, unanswered, every connection from an
/// address the defender has banned.
pub(crate) struct Guarded {
    listener: TcpListener,
    defender: Arc<Defender>,
    metrics: Arc<Metrics>,
}

impl Guarded {
    pub(crate) fn new(listener: TcpListener, defender: Arc<Defender>, metrics: Arc<Metrics>) -> Guarded {
        Guarded {
            listener,
            defender,
            metrics,
        }
    }

    /// The next connection from an address that is not banned.
    async fn next(&mut self) -> (TcpStream, SocketAddr) {
        loop {
            match self.listener.accept().await {
                Ok((tcp, peer)) => {
                    if self.defender.is_banned(peer.ip(), Instant::now()) {
                        tracing::debug!(%peer, "HTTP connection closed: address banned");
                        self.metrics.count_banned_connection();
                        continue;
                    }
                    return (tcp, peer);
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

impl axum::serve::Listener for Guarded {
    type Io = TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (TcpStream, SocketAddr) {
        let (tcp, peer) = self.next().await;
        // Small answers go out at once.
        let _ = tcp.set_nodelay(true);
        (tcp, peer)
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

/// How long a client may take over its TLS handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// A listener that hands axum connections whose TLS handshake is done.
/// Handshakes run in tasks of their own: a slow or silent client holds up
/// no other. A banned address never reaches the handshake.
pub(crate) struct Tls {
    ready: tokio::sync::mpsc::Receiver<(tokio_rustls::server::TlsStream<TcpStream>, SocketAddr)>,
    addr: std::io::Result<SocketAddr>,
    _accept: crate::AbortOnDrop,
}

impl Tls {
    pub(crate) fn new(mut listener: Guarded, cfg: Arc<rustls::ServerConfig>) -> Tls {
        let addr = listener.listener.local_addr();
        let (tx, ready) = tokio::sync::mpsc::channel(16);
        let acceptor = tokio_rustls::TlsAcceptor::from(cfg);
        let accept = tokio::spawn(async move {
            loop {
                let (tcp, peer) = listener.next().await;
                let _ = tcp.set_nodelay(true);
                let (acceptor, tx) = (acceptor.clone(), tx.clone());
                tokio::spawn(async move {
                    match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp)).await {
                        Ok(Ok(tls)) => {
                            let _ = tx.send((tls, peer)).await;
                        }
                        Ok(Err(e)) => tracing::debug!(%peer, error = %e, "HTTPS: TLS handshake failed"),
                        Err(_) => tracing::debug!(%peer, "HTTPS: TLS handshake timed out"),
                    }
                });
            }
        });
        Tls {
            ready,
            addr,
            _accept: crate::AbortOnDrop(accept),
        }
    }
}

impl axum::serve::Listener for Tls {
    type Io = tokio_rustls::server::TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.ready.recv().await {
            Some(c) => c,
            // The accepting task is gone (it never ends by itself).
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        match &self.addr {
            Ok(a) => Ok(*a),
            Err(e) => Err(std::io::Error::new(e.kind(), e.to_string())),
        }
    }
}

/// The peer of a connection, as the handlers see it
/// (`ConnectInfo<Peer>`; axum gives `SocketAddr` only for its own
/// listener).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Peer(pub(crate) SocketAddr);

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, Guarded>> for Peer {
    fn connect_info(stream: axum::serve::IncomingStream<'_, Guarded>) -> Peer {
        Peer(*stream.remote_addr())
    }
}

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, Tls>> for Peer {
    fn connect_info(stream: axum::serve::IncomingStream<'_, Tls>) -> Peer {
        Peer(*stream.remote_addr())
    }
}

/// Serves `app` on `listener` (HTTPS when `tls` is given) until the task
/// is dropped, handing the handlers the peer's address
/// (`ConnectInfo<Peer>`). `what` names the door in the log.
pub(crate) async fn serve(
    listener: Guarded,
    tls: Option<Arc<rustls::ServerConfig>>,
    app: axum::Router,
    what: &'static str,
) {
    let r = match tls {
        None => axum::serve(listener, app.into_make_service_with_connect_info::<Peer>()).await,
        Some(cfg) => {
            axum::serve(
                Tls::new(listener, cfg),
                app.into_make_service_with_connect_info::<Peer>(),
            )
            .await
        }
    };
    if let Err(e) = r {
        tracing::warn!(error = %e, door = what, "an HTTP listener failed");
    }
}
