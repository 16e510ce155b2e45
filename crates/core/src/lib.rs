//! # babelftp-core — what every door shares
//!
//! The FTP door (`babelftp-server`), the web view (`babelftp-web`) and the
//! admin API (`babelftp-admin`) are adapters over one set of services:
//! [`Services`] logs users in ([`Services::check_login`]: the users file,
//! the accounts store, LDAP, the auth hook, a decoy hash, the defender's
//! scoring), and holds the defender, the limits registry, bandwidth, the
//! events and their outbox, the live sessions, the metrics and the
//! xferlog. An upload goes through [`transfer::Upload`] on every door:
//! quota meter, buffer budget, commit and settle once. No module here
//! knows a door.
//!
//! ```text
//!   babelftp-server (FTP) ──┐
//!   babelftp-web ───────────┼──► babelftp-core ──► storage, accounts, policy, session (config, VPath)
//!   babelftp-admin ─────────┘
//! ```

pub mod admission;
pub mod auth;
pub mod config;
pub mod defender;
pub mod directory;
pub mod error;
pub mod events;
pub mod http;
pub mod limits;
pub mod linkrules;
pub mod live;
pub mod logctx;
pub mod memory;
pub mod metrics;
pub mod quota;
pub mod throttle;
pub mod tls;
pub mod transfer;
pub mod user;
pub mod xferlog;
/// The storage crate, where it has always been found.
pub use babelftp_storage as storage;

use std::io;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use babelftp_proto::listing::EntryKind;
use babelftp_session::{SessionConfig, VPath};

pub use config::Config;
pub use error::ServiceError;
use storage::Storage;
pub use user::UserCtx;

/// What every session of every door shares: the services a door adapts.
pub struct Services {
    /// Bans of addresses that misbehave ([`defender`]).
    pub defender: Arc<defender::Defender>,
    pub cfg: Arc<Config>,
    /// Named accounts beyond `users` (the accounts store, LDAP, the auth
    /// hook), built from `cfg` when the server binds.
    pub directory: Option<Arc<directory::Directory>>,
    /// The catalogs, the virtual hosts' names and languages, anonymous
    /// access and the login delay (the FTP session's own settings too).
    pub session: Arc<SessionConfig>,
    /// The server root.
    pub root: Arc<dyn Storage>,
    /// Virtual hosts' roots, in the order of `session.hosts`.
    pub hosts: Vec<Arc<dyn Storage>>,
    pub xferlog: Option<Arc<xferlog::XferLog>>,
    /// FTPS and HTTPS, when the server has a certificate.
    pub tls: Option<tls::Tls>,
    /// How many argon2 verifications may run at once (one per core): a
    /// flood of logins cannot take the blocking pool from other sessions'
    /// storage calls.
    pub hashing: Arc<tokio::sync::Semaphore>,
    /// The named users: `cfg.users` at start, replaced whole by
    /// [`Users::replace`] (SIGHUP). A login reads one snapshot.
    pub users: Users,
    pub metrics: Arc<metrics::Metrics>,
    /// Transfers running in the whole server, on every door (what a stop
    /// waits for).
    pub transfers: Transfers,
    /// Each logged-in user's sessions on this node ([`limits`]).
    pub user_sessions: limits::Registry,
    /// The server's bandwidth limits (`download_rate`, `upload_rate`).
    pub bandwidth: throttle::ServerRates,
    /// Event hooks ([`events`]), when any is configured.
    pub events: Option<Arc<events::Events>>,
    /// The sessions of this node, on every door, for the admin API.
    pub live: Arc<live::LiveSessions>,
}

/// How many transfers run in the server.
#[derive(Debug, Default, Clone)]
pub struct Transfers(Arc<std::sync::atomic::AtomicUsize>);

/// One running transfer, counted until dropped.
#[derive(Debug)]
pub struct Counted(pub Transfers);

impl Transfers {
    pub fn start(&self) -> Counted {
        self.0.fetch_add(1, Ordering::Relaxed);
        Counted(self.clone())
    }

    pub fn running(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        (self.0).0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// How the server opens every storage it serves, with the same settings:
/// the root, each virtual host's, and the homes and virtual folders that
/// lie elsewhere (the accounts store's sources, [`directory::Directory`]).
/// Each gets the server's `fsync`, and each is swept, in the background, of
/// the temporary files that uploads of an earlier run left (those last
/// written before this server started: a crash, a kill -9).
#[derive(Debug, Clone)]
pub struct Opener {
    fsync: storage::fs::Fsync,
    started: std::time::SystemTime,
}

impl Opener {
    /// An opener with `fsync`, sweeping what was last written before
    /// `started` (the server's start).
    pub fn new(fsync: storage::fs::Fsync, started: std::time::SystemTime) -> Opener {
        Opener { fsync, started }
    }

    /// The local directory `dir` with `charsets`, synced as the server
    /// syncs (not swept: see [`Opener::open`]).
    pub fn local(
        &self,
        dir: &std::path::Path,
        charsets: babelftp_i18n::names::CharsetMap,
    ) -> io::Result<storage::fs::FsStorage> {
        Ok(storage::fs::FsStorage::open(dir)?
            .with_charsets(charsets)
            .with_fsync(self.fsync))
    }

    /// Opens `backend` at `root` (the local back-end: with `charsets`),
    /// and sweeps it of leftovers in the background.
    pub fn open(
        &self,
        backend: &storage::Backend,
        root: &std::path::Path,
        charsets: babelftp_i18n::names::CharsetMap,
    ) -> storage::Result<Arc<dyn Storage>> {
        let st: Arc<dyn Storage> = match backend {
            storage::Backend::Local => Arc::new(self.local(root, charsets)?),
            other => other.open(
                root,
                storage::LocalOptions {
                    charsets,
                    fsync: self.fsync,
                },
            )?,
        };
        sweep(&st, backend.describe(root), self.started);
        Ok(st)
    }
}

/// Removes, in the background, what uploads of an earlier run left in
/// `storage` (`root`, for the log): a crash or a kill -9 cannot.
fn sweep(storage: &Arc<dyn Storage>, root: String, before: std::time::SystemTime) {
    let storage = storage.clone();
    std::thread::spawn(move || {
        let n = storage.sweep_leftovers(before);
        if n > 0 {
            tracing::info!(%root, removed = n, "removed temporary files of interrupted uploads");
        }
    });
}

/// The server's named users, shared by its sessions and replaceable whole.
#[derive(Clone)]
pub struct Users(Arc<std::sync::RwLock<Arc<Vec<config::User>>>>);

impl Users {
    /// The users of the configuration, to replace later.
    pub fn new(users: Vec<config::User>) -> Users {
        Users(Arc::new(std::sync::RwLock::new(Arc::new(users))))
    }

    /// The list as it is now.
    pub fn snapshot(&self) -> Arc<Vec<config::User>> {
        self.0.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Replaces the list; returns how many users it holds.
    pub fn replace(&self, users: Vec<config::User>) -> usize {
        let n = users.len();
        *self.0.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(users);
        n
    }
}

/// Aborts a task when dropped.
pub struct AbortOnDrop(pub tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The size of the plain file at `p`, if there is one.
pub fn file_size(st: &dyn Storage, p: &VPath) -> Option<u64> {
    st.stat(p).ok().filter(|e| e.kind == EntryKind::File).map(|e| e.size)
}

/// Runs a storage call that is quick as a rule on a local disk (a stat,
/// an open, a mkdir): right here on the worker when `st` is a local disk
/// ([`Storage::quick`]) outside a slow spell, as a local upload's writes
/// are made (a hand-off to the blocking pool and back cost more than the
/// call, and under many sessions grew the pool by a thread, its stack and
/// its malloc cache for each call under way; issue 47); else on the
/// blocking pool.
pub async fn on_disk<T: Send + 'static>(
    st: &dyn Storage,
    f: impl FnOnce() -> Result<T, io::ErrorKind> + Send + 'static,
) -> Result<T, io::ErrorKind> {
    transfer::quick_or_pool(st.quick(), f)
        .await
        .unwrap_or(Err(io::ErrorKind::Other))
}

/// Runs a storage call on the blocking pool.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, io::ErrorKind> + Send + 'static,
) -> Result<T, io::ErrorKind> {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or(Err(io::ErrorKind::Other))
}

/// An account whose password was right: what a door needs to open its
/// tree.
pub struct Checked {
    pub account: babelftp_session::Account,
    /// Its tree, when it came from the directory (a home elsewhere,
    /// virtual folders).
    pub tree: Option<crate::directory::UserTree>,
    /// Its name and limits (quotas, bandwidth, sessions).
    pub name: String,
    pub limits: babelftp_accounts::Limits,
    /// Its FTPS data-connection reuse rule (`None`: the server's).
    pub tls_reuse: Option<babelftp_accounts::TlsReuse>,
}

impl Services {
    /// The password check, for every door: the users file (or --user)
    /// first, then the directory (the auth hook, LDAP or the accounts
    /// store). `None`: refused. `protocol` goes to the auth hook (`ftp`,
    /// `ftps`, `http`, `https`).
    pub async fn check_login(
        &self,
        user: Vec<u8>,
        password: Vec<u8>,
        ip: std::net::IpAddr,
        protocol: &str,
    ) -> Result<Option<Checked>, io::ErrorKind> {
        let users = self.users.snapshot();
        // A name of the users file (or --user) is that account; any
        // other is the accounts store's, when there is one.
        if let Some(dir) = self.directory.clone() {
            if !users.iter().any(|u| u.name == user) {
                let login = dir
                    .login(&user, password, ip, protocol, &self.hashing)
                    .await
                    .map_err(|e| e.kind())?;
                return Ok(login.map(|mut l| {
                    // Another spelling of the account's name (LDAP): the
                    // session is the account.
                    if l.name.as_bytes() != user.as_slice() {
                        l.account.name = Some(l.name.clone().into_bytes());
                    }
                    Checked {
                        account: l.account,
                        tree: Some(l.tree),
                        name: l.name,
                        limits: l.limits,
                        tls_reuse: l.tls_reuse,
                    }
                }));
            }
        }
        let checked = |u: &crate::config::User| Checked {
            account: babelftp_session::Account::with_write(u.home.clone(), u.write),
            tree: None,
            name: String::from_utf8_lossy(&u.name).into_owned(),
            limits: babelftp_accounts::Limits::default(),
            tls_reuse: None,
        };
        let hashed = users.iter().any(|u| u.name == user && u.secret.is_hash());
        // A name that is no account is checked against a decoy as
        // costly as an account's hash: its answer comes no sooner.
        let decoy = match users.iter().any(|u| u.name == user) {
            true => None,
            false => users.iter().find(|u| u.secret.is_hash()).map(|u| u.secret.clone()),
        };
        if !hashed && decoy.is_none() {
            // Clear-text accounts only (--user): a comparison, done
            // here, without a thread hand-off.
            let found = users.iter().find(|u| u.name == user && u.secret.verify(&password));
            return Ok(found.map(checked));
        }
        // argon2 costs tens of milliseconds: off the async workers,
        // as many at once as there are cores.
        let Ok(_permit) = self.hashing.clone().acquire_owned().await else {
            return Err(io::ErrorKind::Other);
        };
        blocking(move || {
            if let Some(d) = decoy {
                d.decoy(&password);
                return Ok(None);
            }
            Ok(users
                .iter()
                .find(|u| u.name == user && u.secret.verify(&password))
                .map(checked))
        })
        .await
    }
}

impl Services {
    /// The tree an account sees, for every door: its home in `base`
    /// (the server's root or a virtual host's), or the tree the
    /// directory built for it (a home elsewhere, virtual folders).
    pub async fn open_tree(
        &self,
        base: Arc<dyn Storage>,
        home: VPath,
        tree: Option<directory::UserTree>,
    ) -> Result<Arc<dyn Storage>, io::ErrorKind> {
        let dir = self.directory.clone();
        let plain = tree.as_ref().is_none_or(|t| t.is_plain()) || dir.is_none();
        let quick = base.clone();
        let open = move || {
            if let (Some(tree), Some(dir)) = (tree, dir) {
                if !tree.is_plain() {
                    return dir.build_tree(base, &home, &tree).map_err(|e| e.kind());
                }
            }
            if home.is_root() {
                // The whole root: nothing to open.
                return Ok(base);
            }
            base.subdir(&home).map_err(|e| e.kind())
        };
        if plain {
            // A home in the base: one open, on the worker for a local
            // disk.
            return on_disk(&*quick, open).await;
        }
        blocking(open).await
    }
}

impl Services {
    /// A login, as every door asks for it (`protocol`: `ftp`, `ftps`,
    /// `http`, `https`, for the auth hook): a banned address is refused
    /// before anything is checked ([`ServiceError::Banned`]); the password
    /// is checked ([`Services::check_login`]); a refusal (`Ok(None)`) is
    /// scored with the defender, which may ban the address for it (the
    /// door asks [`Services::is_banned`] when it must say so).
    pub async fn login(
        &self,
        user: Vec<u8>,
        password: Vec<u8>,
        ip: std::net::IpAddr,
        protocol: &str,
    ) -> Result<Option<Checked>, ServiceError> {
        if self.is_banned(ip) {
            return Err(ServiceError::Banned);
        }
        let checked = self.check_login(user, password, ip, protocol).await?;
        if checked.is_none() {
            self.login_failed(ip);
        }
        Ok(checked)
    }

    /// Whether the defender bans `ip` now.
    pub fn is_banned(&self, ip: std::net::IpAddr) -> bool {
        self.defender.is_banned(ip, std::time::Instant::now())
    }

    /// A place among the account's sessions on this node, with its
    /// limits: [`ServiceError::SessionLimit`] past its `max_sessions`.
    pub fn enter_session(
        &self,
        name: &str,
        limits: babelftp_accounts::Limits,
    ) -> Result<limits::SessionSlot, ServiceError> {
        self.user_sessions.enter(name, limits).ok_or(ServiceError::SessionLimit)
    }
}
