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
//! (the admin API on axum), [`live`] (the live sessions it lists and ends);
//! `bind` ([`Server::bind`]) and `run` ([`Server::run`]: the accept loop).
//!
//! Features (all on by default; the `babelftp` binary passes its own
//! down): `s3` (S3 storage), `postgres` (PostgreSQL accounts stores),
//! `ldap` (LDAP logins), `web` (the web view) and `admin` (the admin
//! API). A build without one refuses, at start, a configuration that asks
//! for it, and says which feature it lacks.

mod bind;
mod data;
mod driver;
mod proxied;
mod proxy;
mod run;
mod sockopt;
// The services every door shares, by the paths they always had here.
#[cfg(feature = "admin")]
use babelftp_admin as admin;
use babelftp_core::{admission, http, limits, linkrules, memory, throttle};
pub use babelftp_core::{
    auth, config, defender, directory, events, live, logctx, metrics, quota, storage, tls, xferlog, AbortOnDrop,
    Opener, Services, Users,
};
#[cfg(feature = "web")]
use babelftp_web as web;

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;

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
    #[cfg(feature = "admin")]
    admin: Option<(admin::AdminListener, babelftp_accounts::Store)>,
    /// The web view (`http_listen`; none in a build without the feature
    /// `web`).
    web: Vec<TcpListener>,
}

impl Server {
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

    /// The web view's addresses, and whether it speaks HTTPS.
    pub fn web_addrs(&self) -> Vec<(SocketAddr, bool)> {
        let https = self.shared.tls.is_some();
        self.web
            .iter()
            .filter_map(|l| l.local_addr().ok())
            .map(|a| (a, https))
            .collect()
    }

    /// The admin API's address, if it has one, and whether it is HTTPS.
    #[cfg(feature = "admin")]
    pub fn admin_addr(&self) -> Option<(SocketAddr, bool)> {
        let (l, _) = self.admin.as_ref()?;
        Some((l.local_addr()?, self.shared.tls.is_some()))
    }

    /// The admin API's address: none in a build without the feature
    /// `admin`.
    #[cfg(not(feature = "admin"))]
    pub fn admin_addr(&self) -> Option<(SocketAddr, bool)> {
        None
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

    /// Whether an accounts store's home is missing: a path that is not a
    /// directory of the root, or a local directory that is not there (an
    /// S3 home is not probed).
    pub async fn store_home_missing(&self, home: babelftp_accounts::Home) -> bool {
        let root = self.shared.root.clone();
        tokio::task::spawn_blocking(move || match home {
            babelftp_accounts::Home::Inside(p) => !root.is_dir(&babelftp_session::VPath::root().join(&p)),
            babelftp_accounts::Home::Source(babelftp_accounts::Source::Dir(d)) => !d.is_dir(),
            babelftp_accounts::Home::Source(_) => false,
        })
        .await
        .unwrap_or(false)
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
}

use admission::Limits;
pub use admission::{raise_open_files_limit, sessions_for_open_files};
use proxied::proxied;
