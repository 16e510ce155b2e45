//! [`Server::run`]: the accept loop, the doors beside it, the tick, and
//! the drain at the end.

use std::future::Future;
use std::io;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{broadcast, mpsc};

#[cfg(feature = "admin")]
use crate::admin;
use crate::bind::describe_storage;
#[cfg(feature = "web")]
use crate::web;
use crate::{driver, http, logctx, memory, metrics, proxied, proxy, AbortOnDrop, Limits, Server};

impl Server {
    /// Serves until the first of `signals`, then stops accepting and lets
    /// running transfers finish for up to `grace`, telling `draining` how
    /// many there are; a second signal cuts them at once (426, then 421)
    /// and returns. [`Server::run`] with one signal and no report.
    pub async fn run_signals(
        self,
        mut signals: mpsc::Receiver<()>,
        grace: Duration,
        draining: impl FnOnce(usize, Duration) + Send,
    ) -> io::Result<()> {
        let transfers = self.shared.transfers.clone();
        let (first_tx, first_rx) = tokio::sync::oneshot::channel::<()>();
        let (force_tx, force_rx) = tokio::sync::oneshot::channel::<()>();
        let relay = AbortOnDrop(tokio::spawn(async move {
            if signals.recv().await.is_none() {
                return;
            }
            let _ = first_tx.send(());
            if signals.recv().await.is_some() {
                let _ = force_tx.send(());
            }
        }));
        let run = self.run_inner(
            async move {
                let _ = first_rx.await;
            },
            grace,
            move || draining(transfers.running(), grace),
            force_rx,
        );
        let r = run.await;
        drop(relay);
        r
    }

    /// Serves until `shutdown` completes, then stops accepting, lets
    /// sessions finish their transfers for up to `grace` (then cuts them
    /// with 426), and closes every session with 421.
    pub async fn run(self, shutdown: impl Future<Output = ()>, grace: Duration) -> io::Result<()> {
        let (_force_tx, force_rx) = tokio::sync::oneshot::channel::<()>();
        self.run_inner(shutdown, grace, || {}, force_rx).await
    }

    async fn run_inner(
        self,
        shutdown: impl Future<Output = ()>,
        grace: Duration,
        draining: impl FnOnce(),
        force: tokio::sync::oneshot::Receiver<()>,
    ) -> io::Result<()> {
        let (stop_tx, _) = broadcast::channel::<Duration>(1);
        // Every session holds a clone of `alive`; when the last is dropped,
        // `all_gone` says so. Nothing is woken when one session ends (a
        // JoinSet would wake this loop for each).
        let (alive, mut all_gone) = tokio::sync::mpsc::channel::<()>(1);
        // The metrics endpoint lives as long as `run`, draining included.
        let http = self.metrics.map(|l| {
            let l = http::Guarded::new(l, self.shared.core.clone());
            AbortOnDrop(tokio::spawn(metrics::serve_http(l, self.shared.metrics.clone())))
        });
        // So does the admin API.
        #[cfg(feature = "admin")]
        let started = std::time::Instant::now();
        #[cfg(feature = "admin")]
        let admin_api = self
            .admin
            .map(|(l, store)| AbortOnDrop(tokio::spawn(admin::serve(l, self.shared.core.clone(), store, started))));
        // And the web view.
        #[cfg(feature = "web")]
        let ftp_port = self
            .listeners
            .first()
            .and_then(|l| l.local_addr().ok())
            .map(|a| a.port());
        #[cfg(feature = "web")]
        let web_view: Vec<AbortOnDrop> = self
            .web
            .into_iter()
            .map(|l| AbortOnDrop(tokio::spawn(web::serve(l, self.shared.core.clone(), ftp_port))))
            .collect();
        // A timer that is always due within a second. A worker parked on
        // the timer wheel is woken (eventfd write, context switch) when a
        // timer is registered earlier than anything the wheel held; with
        // this one there, a session's timers, all further away, never do.
        // It also lets the password checks' work memory go once no login
        // has been checked for a while (crate::auth).
        // And, once a burst of sessions is over, it has the allocator give
        // their memory back (crate::memory).
        // A degraded storage is probed again every few seconds.
        let limits = Limits::default();
        let bursts = limits.clone();
        let shared = self.shared.clone();
        let _tick = AbortOnDrop(tokio::spawn(async move {
            let mut ticks: u64 = 0;
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                ticks += 1;
                let freed = crate::auth::release_idle_work_memory();
                if freed > 0 || bursts.release_due() {
                    let _ = tokio::task::spawn_blocking(memory::release).await;
                    tracing::debug!(argon2_octets = freed, "memory given back");
                }
                if ticks.is_multiple_of(BAN_SYNC_SECS) {
                    shared.sync_bans().await;
                }
                if ticks.is_multiple_of(60) {
                    shared.defender.sweep(std::time::Instant::now());
                }
                if ticks.is_multiple_of(STORAGE_PROBE_SECS) && shared.metrics.degraded().is_some() {
                    let st = shared.root.clone();
                    match tokio::task::spawn_blocking(move || st.probe()).await {
                        Ok(Ok(())) => {
                            tracing::info!("storage answers again: no longer degraded");
                            shared.metrics.set_degraded(None);
                        }
                        Ok(Err(e)) => shared.metrics.set_degraded(Some(describe_storage(&shared.cfg, &e))),
                        Err(_) => {}
                    }
                }
            }
        }));
        let listeners: Vec<(TcpListener, bool)> = self
            .listeners
            .into_iter()
            .map(|l| (l, false))
            .chain(self.implicit.into_iter().map(|l| (l, true)))
            .collect();
        // The listeners are polled here, by the loop that starts the
        // sessions: no accept task and no channel between them (one thread
        // hand-off less per connection).
        let accept = || {
            std::future::poll_fn(|cx| {
                for (l, implicit) in &listeners {
                    if let std::task::Poll::Ready(r) = l.poll_accept(cx) {
                        return std::task::Poll::Ready(r.map(|(s, peer)| (s, peer, *implicit)));
                    }
                }
                std::task::Poll::Pending
            })
        };
        let mut backoff = Duration::from_millis(10);
        tokio::pin!(shutdown);
        loop {
            let (stream, peer, implicit) = tokio::select! {
                r = accept() => match r {
                    Ok(c) => {
                        backoff = Duration::from_millis(10);
                        c
                    }
                    // Out of file descriptors and the like: wait, retry.
                    Err(e) => {
                        tracing::warn!(error = %e, "accept failed");
                        tokio::select! {
                            _ = tokio::time::sleep(backoff) => {}
                            _ = &mut shutdown => break,
                        }
                        backoff = (backoff * 2).min(Duration::from_secs(1));
                        continue;
                    }
                },
                _ = &mut shutdown => break,
            };
            // A banned address is closed at once: no banner, no task, no
            // TLS (behind a balancer, the client's address is checked once
            // its PROXY header is read).
            if !proxy::trusted(&self.shared.cfg.proxy_protocol_from, peer.ip()) && !self.shared.admit(peer) {
                drop(stream);
                continue;
            }
            if proxy::trusted(&self.shared.cfg.proxy_protocol_from, peer.ip()) {
                // A load balancer: the client is named in its PROXY header,
                // read in the session's own task (a slow proxy holds up
                // nobody), and only then counted against the limits.
                tokio::spawn(proxied(
                    stream,
                    peer,
                    implicit,
                    self.shared.live.next_id(),
                    self.shared.clone(),
                    limits.clone(),
                    stop_tx.subscribe(),
                    alive.clone(),
                ));
                continue;
            }
            let Some(slot) = limits.admit(peer.ip(), &self.shared.cfg) else {
                let why = driver::full(&limits, peer, &self.shared.cfg);
                let shared = self.shared.clone();
                let alive = alive.clone();
                tokio::spawn(async move {
                    let _alive = alive;
                    driver::refuse(stream, &shared.session.catalogs, why).await
                });
                continue;
            };
            let shared = self.shared.clone();
            let rx = stop_tx.subscribe();
            let alive = alive.clone();
            // Every line a session logs carries its id and peer.
            // (Ids are shared with the web view's sessions: one list.)
            let id = self.shared.live.next_id();
            tokio::spawn(logctx::session(id, peer, None, async move {
                let (_slot, _alive) = (slot, alive);
                tracing::info!("connected");
                match driver::serve(id, stream, peer, shared, rx, implicit).await {
                    Ok(why) => tracing::info!(reason = why, "disconnected"),
                    Err(e) => tracing::info!(reason = %e, "disconnected"),
                }
            }));
        }
        drop(listeners);
        self.shared.metrics.set_draining();
        drop(alive);
        let _ = stop_tx.send(grace);
        draining();
        // Sessions cut their transfers at `grace` and say 421 themselves;
        // the margin lets them write it. Past that, a backstop: the
        // runtime's end drops what is left. A forced stop moves every
        // session's deadline to now, and waits a moment for their 426/421.
        tokio::select! {
            _ = tokio::time::timeout(grace + Duration::from_secs(5), all_gone.recv()) => {}
            Ok(()) = force => {
                tracing::info!("stop forced: cutting running transfers");
                let _ = stop_tx.send(Duration::ZERO);
                let _ = tokio::time::timeout(Duration::from_secs(2), all_gone.recv()).await;
            }
        }
        drop(http);
        #[cfg(feature = "web")]
        drop(web_view);
        // What the sessions emitted is in the outbox before the end (the
        // store keeps it for the next run).
        if let Some(events) = &self.shared.events {
            events.flush(Duration::from_secs(5)).await;
        }
        #[cfg(feature = "admin")]
        drop(admin_api);
        // fsync = "batch": what was answered 226 in the last second is on
        // disk before the server stops.
        // An error is logged by flush_pending.
        let _ = tokio::task::spawn_blocking(crate::storage::fs::durable::flush_pending).await;
        Ok(())
    }
}

/// How often a node reads the store's bans, in seconds.
const BAN_SYNC_SECS: u64 = 2;

/// How often a degraded storage is probed again, in seconds.
const STORAGE_PROBE_SECS: u64 = 5;
