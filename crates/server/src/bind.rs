//! [`Server::bind`]: the configuration checked, the storages opened and
//! probed, every listener bound.

use std::io;
use std::sync::Arc;

use tokio::net::TcpListener;

use babelftp_i18n::lang::Catalogs;
use babelftp_session::HostInfo;

#[cfg(feature = "admin")]
use crate::admin;
use crate::{
    config, defender, driver, events, limits, live, metrics, sockopt, storage, throttle, tls, xferlog, Config, Opener,
    Server, Services, Users,
};

/// A bind error that names the address (`127.0.0.1:21: Address already
/// in use`).
fn in_use(addr: &std::net::SocketAddr, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}"))
}

/// A door the configuration asks for that this build does not have (the
/// features `web` and `admin`), said before anything is opened.
fn doors_built(cfg: &Config) -> io::Result<()> {
    #[cfg(not(feature = "web"))]
    if let Some(addr) = cfg.http_listen.first() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("http_listen {addr}: this build has no web view (feature web)"),
        ));
    }
    #[cfg(not(feature = "admin"))]
    if let Some(addr) = cfg.admin_listen {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("admin_listen {addr}: this build has no admin API (feature admin)"),
        ));
    }
    let _ = cfg;
    Ok(())
}

impl Server {
    /// Opens the root and binds every listen address (port 0 picks a free
    /// port; see [`Server::local_addrs`]).
    pub async fn bind(cfg: Config) -> io::Result<Server> {
        Server::build(cfg, true).await
    }

    /// What `serve --check` asks: everything [`Server::bind`] reads and
    /// checks (storages, store, catalogs, certificate, hosts, the doors'
    /// rules), with no socket bound and no event delivered; the server it
    /// gives has no listener and only answers questions for the banner.
    pub async fn check(cfg: Config) -> io::Result<Server> {
        Server::build(cfg, false).await
    }

    async fn build(cfg: Config, listen: bool) -> io::Result<Server> {
        doors_built(&cfg)?;
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
        let directory = crate::directory::Directory::open(&cfg).await?;
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
        for addr in cfg.implicit_listen.iter().filter(|_| listen) {
            let l = TcpListener::bind(addr).await.map_err(|e| in_use(addr, e))?;
            sockopt::keepalive(&l)?;
            implicit.push(l);
        }
        let mut listeners = Vec::new();
        for addr in cfg.listen.iter().filter(|_| listen) {
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
        if let Some(d) = &directory {
            d.set_hook_failures(server_metrics.hook_failures("auth"));
        }
        // Event hooks: the outbox is the accounts store's when there is one.
        let events = events::Events::start_bounded(
            cfg.node.clone(),
            &cfg.hooks,
            // A check reads the hooks but leaves the outbox alone: nothing
            // it holds is delivered or dropped.
            directory.as_ref().and_then(|d| d.store().cloned()).filter(|_| listen),
            events::Bound {
                max_pending: cfg.events_max_pending,
                dropped: server_metrics.events_dropped(),
                pending: server_metrics.events_pending(),
                failures: server_metrics.hook_failures("events"),
            },
        )
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let metrics = match cfg.metrics_listen.filter(|_| listen) {
            Some(addr) => Some(metrics::bind(addr).await.map_err(|e| in_use(&addr, e))?),
            None => None,
        };
        #[cfg(feature = "admin")]
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
                match listen {
                    true => Some((
                        admin::AdminListener::bind(addr).await.map_err(|e| in_use(&addr, e))?,
                        store,
                    )),
                    false => None,
                }
            }
            None => None,
        };
        // (None without the feature web: doors_built said so.)
        let mut web = Vec::new();
        for addr in cfg.http_listen.iter().filter(|_| listen) {
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
            #[cfg(feature = "admin")]
            admin,
        })
    }
}

/// A storage error for the operator: what was asked of which store, and
/// the store's own reason.
pub(crate) fn describe_storage(cfg: &Config, e: &storage::StorageError) -> String {
    match &cfg.storage {
        storage::Backend::S3(s3) => format!(
            "S3 bucket {:?} at {}: {e}",
            s3.bucket,
            s3.endpoint.as_deref().unwrap_or("AWS")
        ),
        storage::Backend::Local => format!("{}: {e}", cfg.root.display()),
    }
}
