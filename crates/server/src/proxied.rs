//! Connections that arrive through a PROXY-protocol balancer: the header
//! first, then the session under the client's address (the slots are
//! `babelftp_core::admission`'s).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::broadcast;

use crate::admission::Limits;
use crate::{driver, logctx, proxy};

/// A connection from a configured proxy: its PROXY header first, then the
/// session under the client's address.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn proxied(
    mut stream: tokio::net::TcpStream,
    proxy: SocketAddr,
    implicit: bool,
    id: u64,
    shared: Arc<driver::Shared>,
    limits: Limits,
    rx: broadcast::Receiver<Duration>,
    alive: tokio::sync::mpsc::Sender<()>,
) {
    let _alive = alive;
    let peer = match proxy::read_header(&mut stream, proxy::HEADER_TIMEOUT).await {
        Ok(Some(client)) => client,
        // The balancer's own health check.
        Ok(None) => proxy,
        Err(e) => {
            tracing::warn!(%proxy, error = %e, "connection from a proxy closed: no valid PROXY header");
            return;
        }
    };
    if !shared.admit(peer) {
        return;
    }
    let Some(slot) = limits.admit(peer.ip(), &shared.cfg) else {
        tracing::warn!(%proxy, "connection from a proxy's client refused");
        let why = driver::full(&limits, peer, &shared.cfg);
        driver::refuse(stream, &shared.session.catalogs, why).await;
        return;
    };
    logctx::session(id, peer, Some(proxy), async move {
        let _slot = slot;
        tracing::info!("connected");
        match driver::serve(id, stream, peer, shared, rx, implicit).await {
            Ok(why) => tracing::info!(reason = why, "disconnected"),
            Err(e) => tracing::info!(reason = %e, "disconnected"),
        }
    })
    .await;
}
