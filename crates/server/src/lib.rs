//! # babelftp-server — the FTP door, and the server that binds every door
//!
//! A tokio driver around the sans-IO session (`babelftp-session`), over
//! the services every door shares (`babelftp-core`); [`Server`] binds the
//! FTP listeners, the web view (`babelftp-web`), the admin API
//! (`babelftp-admin`) and `/metrics`. The picture: docs/architecture.md.
//!
//! ```text
//!  Server::bind ─ listeners (IPv4/IPv6) ─ accept ─► driver::serve (one task per client)
//!                                                    │  bytes ⇄ babelftp_session::ServerSession
//!                                                    │  act(): storage ops, passive setups,
//!                                                    │  transfers, the TLS switch
//!                                                    ▼
//!                                                  babelftp_storage::{fs, s3}
//! ```
//!
//! Every protocol decision is made by the session; this crate is its
//! driver. Module map: [`config`] (options and defaults), `driver` (one
//! control connection, in rooms: control, passive, transfer, listings,
//! ops), `data` (data connections and byte pumps), [`auth`] (accounts,
//! argon2), [`tls`] (FTPS), [`metrics`] (/metrics and /health on axum),
//! [`xferlog`] (the transfer log), [`events`] (events to webhooks and
//! commands through an outbox), `sockopt` (socket options), `admin`
//! (the admin API on axum), [`live`] (the live sessions it lists and ends).

mod data;
mod driver;
mod proxied;
mod proxy;
mod sockopt;
// The services every door shares, by the paths they always had here.
use babelftp_admin as admin;
use babelftp_core::{admission, http, limits, linkrules, memory, throttle};
pub use babelftp_core::{
    auth, config, defender, directory, events, live, logctx, metrics, quota, storage, tls, xferlog, AbortOnDrop,
    Opener, Services, Users,
};
use babelftp_web as web;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{broadcast, mpsc};

use babelftp_i18n::lang::Catalogs;
use babelftp_session::HostInfo;
pub use config::Config;

/// A bound server, ready to run.
pub struct Server {
    shared: Arc<driver::Shared>,
    listeners: Vec<TcpListener>,
    /// Implicit-FTPS listeners.
    implicit: Vec<TcpListener>,
    /// The metrics and health endpoint (`metrics_listen`).
    metrics: Option<TcpListener>,
    /// The admin API (`admin_listen`), with the store its tokens are in.
    admin: Option<(admin::AdminListener, babelftp_accounts::Store)>,
    /// The web view (`http_listen`).
    web: Vec<TcpListener>,
}

/// A bind error that names the address (`127.0.0.1:21: Address already
/// in use`).
fn in_use(addr: &std::net::SocketAddr, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}"))
}

impl Server {
    /// Opens the root and binds every listen address (port 0 picks a free
    /// port; see [`Server::local_addrs`]).
    pub async fn bind(cfg: Config) -> io::Result<Server> {
        let (charsets, legacy) = config::charsets(&cfg).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let started = std::time::SystemTime::now();
        let local = cfg.storage.is_local();
        // Keys are UTF-8: the on-disk charsets have no meaning in an object
        // store (the legacy *client* charset still applies).
        if !local && (cfg.fs_charset.is_some() || !cfg.dir_charsets.is_empty()) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the s3 storage has UTF-8 keys: fs_charset and dir_charsets need the local storage",
            ));
        }
        // One opener for every storage: the root, the virtual hosts', and
        // the homes and folders elsewhere that logins open.
        let opener = Opener::new(cfg.fsync, started);
        // Named accounts beyond the users file: built from the
        // configuration (its accounts store, auth hook, LDAP), not kept in it.
        let directory = directory::Directory::open(&cfg).await?;
        if let Some(d) = &directory {
            d.set_opener(opener.clone());
        }
        let storage = opener
            .open(&cfg.storage, &cfg.root, charsets)
            .map_err(|e| match local {
                true => io::Error::new(e.kind(), format!("root (--root) {}: {e}", cfg.root.display())),
                false => e.into(),
            })?;
        // A storage that does not answer (a missing bucket, refused
        // credentials, a wrong endpoint) is said at start with its reason,
        // not found by the first user as "451 Local error".
        let degraded = {
            let st = storage.clone();
            match tokio::task::spawn_blocking(move || st.probe()).await {
                Ok(Ok(())) => None,
                Ok(Err(e)) => Some(describe_storage(&cfg, &e)),
                Err(e) => Some(e.to_string()),
            }
        };
        if let Some(why) = &degraded {
            if !cfg.allow_degraded {
                return Err(io::Error::other(format!(
                    "the storage does not answer: {why} (allow_degraded / --allow-degraded starts anyway)"
                )));
            }
            tracing::warn!(reason = %why, "storage unreachable: serving degraded until it answers");
        }
        let xferlog = match &cfg.xferlog {
            Some(p) => Some(Arc::new(xferlog::XferLog::open(p).map_err(|e| {
                io::Error::new(e.kind(), format!("xferlog (--xferlog) {}: {e}", p.display()))
            })?)),
            None => None,
        };
        let mut catalogs = match &cfg.catalogs_dir {
            Some(d) => Catalogs::with_dir(d),
            None => Catalogs::builtin(),
        }
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        if let Some(tag) = &cfg.default_lang {
            if !catalogs.set_default(tag) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("default language {tag} is not among the catalogs"),
                ));
            }
        }
        let mut hosts = Vec::new();
        let mut host_infos = Vec::new();
        for h in &cfg.hosts {
            let (charsets, _) = config::charsets(&cfg).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
            // Every back-end serves a virtual host, as it serves the root.
            let what = h.storage.describe(&h.root);
            let storage = opener
                .open(&h.storage, &h.root, charsets)
                .map_err(|e| io::Error::new(e.kind(), format!("host {}: {what}: {e}", h.name)))?;
            if !h.storage.is_local() {
                let st = storage.clone();
                match tokio::task::spawn_blocking(move || st.probe()).await {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) if cfg.allow_degraded => {
                        tracing::warn!(host = %h.name, storage = %what, reason = %e, "virtual host's storage unreachable: serving degraded")
                    }
                    Ok(Err(e)) => {
                        return Err(io::Error::other(format!(
                            "host {}: the storage does not answer: {what}: {e} (allow_degraded / --allow-degraded starts anyway)",
                            h.name
                        )))
                    }
                    Err(e) => return Err(io::Error::other(e.to_string())),
                }
            }
            let lang = match &h.default_lang {
                None => catalogs.default_lang(),
                Some(tag) => match catalogs.negotiate(tag) {
                    babelftp_i18n::lang::Negotiated::Lang(l) => l,
                    babelftp_i18n::lang::Negotiated::Unsupported => {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidInput,
                            format!("host {}: default language {tag} is not among the catalogs", h.name),
                        ))
                    }
                },
            };
            hosts.push(storage);
            host_infos.push(HostInfo {
                name: h.name.clone(),
                lang,
            });
        }
        let tls = match (&cfg.tls_cert, &cfg.tls_key) {
            (Some(c), Some(k)) => Some(tls::Tls::new(Arc::new(tls::CertStore::open(c, k)?))?),
            (None, None) => None,
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "FTPS needs both tls_cert and tls_key",
                ))
            }
        };
        if tls.is_none() && (cfg.tls_required || !cfg.implicit_listen.is_empty()) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "tls_required and implicit_listen need tls_cert and tls_key",
            ));
        }
        let mut implicit = Vec::new();
        for addr in &cfg.implicit_listen {
            let l = TcpListener::bind(addr).await.map_err(|e| in_use(addr, e))?;
            sockopt::keepalive(&l)?;
            implicit.push(l);
        }
        let mut listeners = Vec::new();
        for addr in &cfg.listen {
            let l = TcpListener::bind(addr).await.map_err(|e| in_use(addr, e))?;
            // Set once here, inherited by every accepted control connection
            // (Linux copies socket options to the accepted socket).
            sockopt::oob_inline(&l)?;
            sockopt::keepalive(&l)?;
            listeners.push(l);
        }
        let session = cfg.session_config(
            Arc::new(catalogs),
            legacy,
            host_infos,
            tls.is_some(),
            // What every storage served can do (S3: whole files only).
            hosts
                .iter()
                .fold(storage.capabilities(), |c, h| c.and(h.capabilities())),
        );
        let users = Users::new(cfg.users.clone());
        let bandwidth = throttle::ServerRates::new(cfg.download_rate, cfg.upload_rate);
        let server_metrics = Arc::new(metrics::Metrics::new());
        // Event hooks: the outbox is the accounts store's when there is one.
        let events = events::Events::start_bounded(
            cfg.node.clone(),
            &cfg.hooks,
            directory.as_ref().and_then(|d| d.store().cloned()),
            events::Bound {
                max_pending: cfg.events_max_pending,
                dropped: server_metrics.events_dropped(),
            },
        )
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let metrics = match cfg.metrics_listen {
            Some(addr) => Some(metrics::bind(addr).await.map_err(|e| in_use(&addr, e))?),
            None => None,
        };
        let admin = match cfg.admin_listen {
            Some(addr) => {
                // Its tokens live in the accounts store.
                let Some(store) = directory.as_ref().and_then(|d| d.store()).cloned() else {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "admin_listen needs an accounts store (--db) for its tokens (babelftp admin token create)",
                    ));
                };
                // Tokens in clear on a network: only when said so.
                if tls.is_none() && !admin::plain_http_allowed(addr, cfg.admin_insecure_http) {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!(
                            "admin_listen {addr}: plain HTTP (no tls_cert) on an address that is not loopback would send the admin tokens in clear; give the server a certificate, listen on 127.0.0.1, or set admin_insecure_http = true"
                        ),
                    ));
                }
                let l = admin::AdminListener::bind(addr).await.map_err(|e| in_use(&addr, e))?;
                Some((l, store))
            }
            None => None,
        };
        let mut web = Vec::new();
        for addr in &cfg.http_listen {
            web.push(TcpListener::bind(addr).await.map_err(|e| in_use(addr, e))?);
        }
        Ok(Server {
            web,
            shared: Arc::new(driver::Shared {
                passive_holds: driver::PassiveHolds::default(),
                core: Arc::new(Services {
                    defender: Arc::new(defender::Defender::new(cfg.defender.clone())),
                    users,
                    metrics: {
                        server_metrics.set_degraded(degraded);
                        server_metrics
                    },
                    cfg: Arc::new(cfg),
                    directory,
                    session: Arc::new(session),
                    root: storage,
                    hosts,
                    xferlog,
                    tls,
                    hashing: Arc::new(tokio::sync::Semaphore::new(
                        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2),
                    )),
                    transfers: babelftp_core::Transfers::default(),
                    user_sessions: limits::Registry::default(),
                    bandwidth,
                    events,
                    live: Arc::new(live::LiveSessions::default()),
                }),
            }),
            listeners,
            implicit,
            metrics,
            admin,
        })
    }

    /// The named users, to replace while serving (a SIGHUP reloading the
    /// users file): sessions already logged in are not touched, the next
    /// login sees the new list.
    pub fn users(&self) -> Users {
        self.shared.users.clone()
    }

    /// Named accounts beyond the users file (the accounts store, LDAP, the
    /// auth hook), when the configuration names any.
    pub fn directory(&self) -> Option<Arc<directory::Directory>> {
        self.shared.directory.clone()
    }

    /// The metrics endpoint's address, if it has one.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics.as_ref().and_then(|l| l.local_addr().ok())
    }

    /// The admin API's address, if it has one, and whether it is HTTPS.
    /// The web view's addresses, and whether it speaks HTTPS.
    pub fn web_addrs(&self) -> Vec<(SocketAddr, bool)> {
        let https = self.shared.tls.is_some();
        self.web
            .iter()
            .filter_map(|l| l.local_addr().ok())
            .map(|a| (a, https))
            .collect()
    }

    pub fn admin_addr(&self) -> Option<(SocketAddr, bool)> {
        let (l, _) = self.admin.as_ref()?;
        Some((l.local_addr()?, self.shared.tls.is_some()))
    }

    /// The names of the users whose home is not a directory of the
    /// storage (their logins are refused until it is).
    pub async fn missing_homes(&self) -> Vec<Vec<u8>> {
        let root = self.shared.root.clone();
        let users = self.shared.users.snapshot();
        tokio::task::spawn_blocking(move || {
            users
                .iter()
                .filter(|u| !root.is_dir(&babelftp_session::VPath::root().join(&u.home)))
                .map(|u| u.name.clone())
                .collect()
        })
        .await
        .unwrap_or_default()
    }

    /// The language of replies before LANG, and how many there are.
    pub fn reply_languages(&self) -> (String, usize) {
        let c = &self.shared.session.catalogs;
        (c.tag(c.default_lang()).to_owned(), c.tags().count())
    }

    /// Why the storage does not answer, when the server started degraded
    /// (`allow_degraded`) and it still does not.
    pub fn degraded(&self) -> Option<String> {
        self.shared.metrics.degraded()
    }

    /// The server's metrics (what `/metrics` shows).
    pub fn metrics(&self) -> Arc<metrics::Metrics> {
        self.shared.metrics.clone()
    }

    /// The addresses actually bound.
    pub fn local_addrs(&self) -> Vec<SocketAddr> {
        self.listeners.iter().filter_map(|l| l.local_addr().ok()).collect()
    }

    /// The implicit-FTPS addresses actually bound.
    pub fn implicit_addrs(&self) -> Vec<SocketAddr> {
        self.implicit.iter().filter_map(|l| l.local_addr().ok()).collect()
    }

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
        let started = std::time::Instant::now();
        let admin_api = self
            .admin
            .map(|(l, store)| AbortOnDrop(tokio::spawn(admin::serve(l, self.shared.core.clone(), store, started))));
        // And the web view.
        let ftp_port = self
            .listeners
            .first()
            .and_then(|l| l.local_addr().ok())
            .map(|a| a.port());
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
                tracing::warn!(%peer, "connection refused: too many connections (max_connections or max_per_ip)");
                let shared = self.shared.clone();
                let alive = alive.clone();
                tokio::spawn(async move {
                    let _alive = alive;
                    driver::refuse(stream, &shared.session.catalogs).await
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
        drop(web_view);
        // What the sessions emitted is in the outbox before the end (the
        // store keeps it for the next run).
        if let Some(events) = &self.shared.events {
            events.flush(Duration::from_secs(5)).await;
        }
        drop(admin_api);
        Ok(())
    }
}

/// How often a node reads the store's bans, in seconds.
const BAN_SYNC_SECS: u64 = 2;

/// How often a degraded storage is probed again, in seconds.
const STORAGE_PROBE_SECS: u64 = 5;

/// A storage error for the operator: what was asked of which store, and
/// the store's own reason.
fn describe_storage(cfg: &Config, e: &storage::StorageError) -> String {
    match &cfg.storage {
        storage::Backend::S3(s3) => format!(
            "S3 bucket {:?} at {}: {e}",
            s3.bucket,
            s3.endpoint.as_deref().unwrap_or("AWS")
        ),
        storage::Backend::Local => format!("{}: {e}", cfg.root.display()),
    }
}

use admission::Limits;
pub use admission::{raise_open_files_limit, sessions_for_open_files};
use proxied::proxied;
