//! Named accounts beyond the users file: the accounts store (SQLite by
//! default, PostgreSQL for several nodes; `babelftp-accounts`), and the
//! HTTP auth hook ([`hook`]).
//!
//! A login reads the account once, at PASS: its password hash, whether it
//! is disabled, and its profile (home, permissions, virtual folders,
//! language, charset, after its group's). Nothing is cached between
//! logins, so a change made with `babelftp user …` on any node holds at
//! the next login on every node, and no command of a session asks the
//! store anything.
//!
//! The hash is checked as a users-file hash is: on the blocking pool, one
//! check per core at most, with the pooled argon2 memory; a name that is
//! no account, or not UTF-8, is checked against a decoy of the same cost,
//! and a disabled account's password is checked before it is refused, so
//! the time of the answer tells nothing.
//!
//! Which decides: a name of the users file (or `--user`) is that account;
//! for any other, the auth hook when one is configured, else LDAP when it
//! is (the store then gives settings only), else the store.

pub mod hook;
pub mod ldap;

use std::collections::HashMap;
use std::io;
use std::net::IpAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};

use babelftp_accounts::{Home, Profile, Source, Store};
use babelftp_i18n::Charset;
use babelftp_proto::lang::LangTag;
use babelftp_session::{Account, VPath};

use crate::auth::Secret;
use crate::config::Config;
use crate::storage::{s3::S3Config, Storage};

/// Where named accounts come from, besides `users`.
pub struct Directory {
    store: Option<Store>,
    hook: Option<hook::Hook>,
    ldap: Option<ldap::LdapAuth>,
    /// What an unknown name's password is checked against.
    decoy: Secret,
    /// Storages of homes and virtual folders elsewhere, opened once and
    /// shared by every session that mounts them.
    sources: Mutex<HashMap<String, Arc<dyn Storage>>>,
    /// Endpoint and credentials for `s3://` sources (the server's own S3
    /// storage's, else the environment's).
    s3: S3Config,
    /// How sources are opened: the server's opener (its fsync, and the
    /// sweep of leftover temporary files), set when it binds. Without one
    /// (the CLI's tools) a source is opened with the defaults and never
    /// swept: a tool must not remove a running server's uploads.
    opener: std::sync::OnceLock<crate::Opener>,
    /// `babelftp_hook_failures_total{hook="auth"}`, once the server's
    /// metrics exist.
    hook_failures: std::sync::OnceLock<prometheus_client::metrics::counter::Counter>,
}

impl std::fmt::Debug for Directory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Directory").field("accounts", &self.describe()).finish()
    }
}

/// What a login through the directory gives the driver: the account for
/// the session, and the tree to build at EnterHome.
pub struct DirectoryLogin {
    pub account: Account,
    pub tree: UserTree,
    /// The account's name and limits (quotas, bandwidth, sessions).
    pub name: String,
    pub limits: babelftp_accounts::Limits,
    /// Its FTPS data-connection reuse rule (`None`: the server's).
    pub tls_reuse: Option<babelftp_accounts::TlsReuse>,
}

/// A user's tree: its home elsewhere (else a path in the host's root) and
/// its virtual folders.
#[derive(Debug, Clone, Default)]
pub struct UserTree {
    pub home: Option<Source>,
    pub mounts: Vec<(VPath, Source)>,
}

impl UserTree {
    /// Whether the tree is just a path of the host's root.
    pub fn is_plain(&self) -> bool {
        self.home.is_none() && self.mounts.is_empty()
    }
}

impl Directory {
    /// A directory of `store` and/or `hook`; `s3` gives `s3://` sources
    /// their endpoint and credentials (the bucket and prefix are the
    /// source's).
    pub fn new(
        store: Option<Store>,
        hook: Option<hook::Hook>,
        ldap: Option<ldap::LdapAuth>,
        s3: S3Config,
    ) -> io::Result<Directory> {
        // A decoy with the cost of a real hash (argon2's defaults, as
        // `babelftp user add` makes them).
        let decoy = crate::auth::hash_password(b"babelftp decoy password").map_err(io::Error::other)?;
        Ok(Directory {
            store,
            hook,
            ldap,
            decoy: Secret::Hash(decoy),
            sources: Mutex::new(HashMap::new()),
            s3,
            opener: std::sync::OnceLock::new(),
            hook_failures: std::sync::OnceLock::new(),
        })
    }

    /// The directory a configuration names (the error of a store that
    /// does not open carries a [`StoreUnopened`], for the CLI's own
    /// words): its accounts store (`db`,
    /// opened and its schema brought up to date), its auth hook and LDAP;
    /// `None` when it names none of them.
    pub async fn open(cfg: &Config) -> io::Result<Option<Arc<Directory>>> {
        if cfg.db.is_none() && cfg.auth_hook.is_none() && cfg.ldap.is_none() {
            return Ok(None);
        }
        let store = match &cfg.db {
            Some(url) => Some(Store::open(url).await.map_err(|e| {
                // A URL that is no store is not repeated: it may hold a
                // password.
                let why = match e {
                    babelftp_accounts::AccountsError::BadUrl(_) => {
                        "write sqlite:PATH, a path, or postgres://USER@HOST/DB".to_owned()
                    }
                    e => e.to_string(),
                };
                io::Error::other(StoreUnopened {
                    url: crate::events::hook::without_credentials(url),
                    why,
                })
            })?),
            None => None,
        };
        Directory::of(cfg, store).map(|d| Some(Arc::new(d)))
    }

    /// The directory of `cfg`'s auth hook and LDAP over `store` (the
    /// CLI's tools: none, or one they opened). `s3://` homes and folders
    /// take the endpoint and credentials of the configuration's S3
    /// storage, else the environment's (`AWS_ENDPOINT_URL`, `AWS_REGION`,
    /// `AWS_ACCESS_KEY_ID`…).
    pub fn of(cfg: &Config, store: Option<Store>) -> io::Result<Directory> {
        let invalid = |e: String| io::Error::new(io::ErrorKind::InvalidInput, e);
        let hook = match &cfg.auth_hook {
            Some(h) => Some(hook::Hook::new(h.clone()).map_err(|e| invalid(e.to_string()))?),
            None => None,
        };
        let ldap = match &cfg.ldap {
            Some(l) => Some(ldap::LdapAuth::new(l.clone()).map_err(|e| invalid(e.to_string()))?),
            None => None,
        };
        let s3 = std::iter::once(&cfg.storage)
            .chain(cfg.hosts.iter().map(|h| &h.storage))
            .find_map(|b| match b {
                crate::storage::Backend::S3(s) => Some(s.clone()),
                crate::storage::Backend::Local => None,
            })
            .unwrap_or_else(|| S3Config {
                bucket: String::new(),
                endpoint: std::env::var("AWS_ENDPOINT_URL").ok(),
                region: std::env::var("AWS_REGION").ok(),
                prefix: String::new(),
                access_key_id: std::env::var("AWS_ACCESS_KEY_ID").ok(),
                secret_access_key: std::env::var("AWS_SECRET_ACCESS_KEY").ok(),
            });
        Directory::new(store, hook, ldap, s3)
    }

    /// Where accounts come from, for people: "SQLite babelftp.db",
    /// "PostgreSQL host/db", "auth hook URL".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(h) = &self.hook {
            parts.push(h.describe());
        }
        if let Some(l) = &self.ldap {
            parts.push(l.describe());
        }
        if let Some(s) = &self.store {
            parts.push(s.describe());
        }
        parts.join(", ")
    }

    /// The accounts store, if there is one.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// How many users the store holds (0 without one).
    pub async fn user_count(&self) -> io::Result<u64> {
        match &self.store {
            Some(s) => s.user_count().await.map_err(io::Error::other),
            None => Ok(0),
        }
    }

    /// Checks `password` for `user` from `client` over `protocol` (`ftp`,
    /// `ftps`): the login, or `None` when refused. A store that cannot be
    /// reached is an error (the session answers 421, not 530: the
    /// password may be right).
    pub async fn login(
        &self,
        user: &[u8],
        password: Vec<u8>,
        client: IpAddr,
        protocol: &str,
        hashing: &Arc<tokio::sync::Semaphore>,
    ) -> io::Result<Option<DirectoryLogin>> {
        if let Some(h) = &self.hook {
            return match h.login(user, &password, client, protocol).await {
                Ok(p) => Ok(p.map(login_of)),
                Err(e) => {
                    if let Some(c) = self.hook_failures.get() {
                        c.inc();
                    }
                    tracing::warn!(error = %e, "login refused: the auth hook failed");
                    Ok(None)
                }
            };
        }
        if let Some(l) = &self.ldap {
            // The directory holds the passwords: the store's are not
            // checked (a store account of an LDAP user only gives it its
            // settings, never a second password).
            let (Ok(name), Ok(pw)) = (std::str::from_utf8(user), std::str::from_utf8(&password)) else {
                return Ok(None);
            };
            return match l.login(name, pw).await {
                Ok(ldap::LdapLogin::Ok {
                    dn,
                    name: confirmed,
                    group,
                }) => {
                    // The account is the name the directory holds, not
                    // the spelling typed (`LBOB`, `lbob `): its store
                    // settings, limits, sessions and events.
                    tracing::info!(user = %confirmed, typed = %name.escape_debug(), dn = %dn, group = group.as_deref().unwrap_or("-"), "LDAP login");
                    self.ldap_profile(&confirmed, group.as_deref()).await
                }
                Ok(ldap::LdapLogin::Refused) => Ok(None),
                Err(e) => {
                    // Not a 530 that would call a right password wrong.
                    tracing::warn!(error = %e, "LDAP unavailable");
                    Err(io::Error::other(e.to_string()))
                }
            };
        }
        let record = match (&self.store, std::str::from_utf8(user)) {
            (Some(store), Ok(name)) => store.login_record(name).await.map_err(|e| {
                tracing::warn!(error = %e, store = %store.describe(), "accounts store unavailable");
                io::Error::other(e.to_string())
            })?,
            _ => None,
        };
        let secret = match &record {
            Some(r) => Secret::Hash(r.password.clone()),
            None => self.decoy.clone(),
        };
        let real = record.is_some();
        let Ok(_permit) = hashing.clone().acquire_owned().await else {
            return Err(io::ErrorKind::Other.into());
        };
        let ok = tokio::task::spawn_blocking(move || {
            if real {
                secret.verify(&password)
            } else {
                secret.decoy(&password);
                false
            }
        })
        .await
        .map_err(|_| io::Error::from(io::ErrorKind::Other))?;
        let Some(record) = record.filter(|_| ok) else {
            return Ok(None);
        };
        if record.disabled {
            tracing::info!(user = %record.profile.name, "login refused: account disabled");
            return Ok(None);
        }
        Ok(Some(login_of(record.profile)))
    }

    /// The account of a user the LDAP directory let in: the store's
    /// settings for it or its group; with neither, list and download on
    /// the whole root.
    async fn ldap_profile(&self, name: &str, group: Option<&str>) -> io::Result<Option<DirectoryLogin>> {
        let found = match &self.store {
            Some(s) => s.external_profile(name, group).await.map_err(|e| {
                tracing::warn!(error = %e, store = %s.describe(), "accounts store unavailable");
                io::Error::other(e.to_string())
            })?,
            None => None,
        };
        match found {
            Some((_, true)) => {
                tracing::info!(user = %name, "login refused: account disabled");
                Ok(None)
            }
            Some((profile, false)) => Ok(Some(login_of(profile))),
            None => Ok(Some(login_of(Profile {
                name: name.to_owned(),
                group: group.map(str::to_owned),
                home: Home::default(),
                rules: babelftp_accounts::Rules::everywhere(babelftp_accounts::Perms::READ),
                mounts: Vec::new(),
                lang: None,
                charset: None,
                limits: babelftp_accounts::Limits::default(),
                tls_reuse: None,
            }))),
        }
    }

    /// Where the auth hook's failures are counted (the first call wins).
    pub fn set_hook_failures(&self, counter: prometheus_client::metrics::counter::Counter) {
        let _ = self.hook_failures.set(counter);
    }

    /// Sources are opened as the server opens its root (the first call
    /// wins: one server per directory).
    pub fn set_opener(&self, opener: crate::Opener) {
        let _ = self.opener.set(opener);
    }

    /// The storage of a source, opened once (blocks: S3's operator),
    /// through the server's opener: synced as its root is, and swept of
    /// the temporary files an earlier run left.
    pub fn open_source(&self, src: &Source) -> crate::storage::Result<Arc<dyn Storage>> {
        let key = src.to_string();
        if let Some(st) = self.lock().get(&key) {
            return Ok(st.clone());
        }
        let (backend, root) = match src {
            Source::Dir(dir) => (crate::storage::Backend::Local, Path::new(dir)),
            Source::S3 { bucket, prefix } => (
                crate::storage::Backend::S3(S3Config {
                    bucket: bucket.clone(),
                    prefix: prefix.clone(),
                    ..self.s3.clone()
                }),
                Path::new(""),
            ),
        };
        let charsets = babelftp_i18n::names::CharsetMap::default();
        let st = match self.opener.get() {
            Some(o) => o.open(&backend, root, charsets)?,
            None => backend.open(root, crate::storage::LocalOptions::default())?,
        };
        self.lock().insert(key, st.clone());
        Ok(st)
    }

    /// A user's tree: its home (elsewhere, or `home` below `base`) with
    /// its virtual folders; a folder that cannot be opened is left out
    /// with a warning (blocks: S3's operator).
    pub fn build_tree(
        &self,
        base: Arc<dyn Storage>,
        home: &VPath,
        tree: &UserTree,
    ) -> crate::storage::Result<Arc<dyn Storage>> {
        let home_st = match &tree.home {
            Some(src) => self.open_source(src)?,
            None if home.is_root() => base,
            None => base.subdir(home)?,
        };
        if tree.mounts.is_empty() {
            return Ok(home_st);
        }
        let mut mounts = Vec::new();
        for (at, src) in &tree.mounts {
            match self.open_source(src) {
                Ok(st) => mounts.push((at.clone(), st)),
                // One folder away does not keep the user out.
                Err(e) => tracing::warn!(source = %src, error = %e, "virtual folder unavailable"),
            }
        }
        Ok(crate::storage::mount::Mounted::with(home_st, mounts))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<dyn Storage>>> {
        self.sources.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The session's account and the driver's tree, from a profile. A language
/// or charset the store holds but this build does not know is left out
/// (the store checks both when they are set).
pub fn login_of(p: Profile) -> DirectoryLogin {
    let lang = p.lang.as_deref().and_then(|t| LangTag::parse(t.as_bytes()).ok());
    let charset = p.charset.as_deref().and_then(Charset::for_label);
    let (home, source) = match p.home {
        Home::Inside(path) => (path, None),
        Home::Source(s) => (b"/".to_vec(), Some(s)),
    };
    let mounts = p
        .mounts
        .into_iter()
        .map(|m| (VPath::root().join(&m.vpath), m.source))
        .collect();
    DirectoryLogin {
        account: Account {
            home,
            rules: Arc::new(p.rules),
            lang,
            charset,
            name: None,
        },
        tree: UserTree { home: source, mounts },
        name: p.name,
        limits: p.limits,
        tls_reuse: p.tls_reuse,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::fs::Fsync;
    use std::time::{Duration, SystemTime};

    /// A file last written `ago` before now (or after, for a negative one).
    fn written(p: &Path, secs_ago: i64) {
        std::fs::write(p, b"part").unwrap();
        let t = if secs_ago >= 0 {
            SystemTime::now() - Duration::from_secs(secs_ago.unsigned_abs())
        } else {
            SystemTime::now() + Duration::from_secs(secs_ago.unsigned_abs())
        };
        std::fs::File::options()
            .write(true)
            .open(p)
            .unwrap()
            .set_modified(t)
            .unwrap();
    }

    /// Homes and folders outside the root are opened as the root is: the
    /// server's fsync, and the leftovers of an earlier run swept (issue
    /// 45: they were opened with the defaults and never swept).
    #[test]
    fn sources_elsewhere_are_opened_with_the_servers_settings_and_swept() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        std::fs::create_dir_all(home.join("sub")).unwrap();
        let (old, nested, fresh, kept) = (
            home.join(".babelftp-4242-0.part"),
            home.join("sub/.babelftp-4242-1.part"),
            home.join(".babelftp-4242-2.part"),
            home.join("data.txt"),
        );
        written(&old, 3600);
        written(&nested, 3600);
        written(&fresh, -3600); // an upload of this run: never swept
        written(&kept, 3600);
        let opener = crate::Opener::new(Fsync::Never, SystemTime::now());
        assert_eq!(opener.local(&home, Default::default()).unwrap().fsync(), Fsync::Never);
        let dir = Directory::new(None, None, None, S3Config::default()).unwrap();
        dir.set_opener(opener);
        let st = dir.open_source(&Source::Dir(home.clone())).unwrap();
        let t0 = std::time::Instant::now();
        while old.exists() || nested.exists() {
            assert!(t0.elapsed() < Duration::from_secs(10), "leftovers not swept");
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(fresh.exists() && kept.exists());
        assert!(st.stat(&VPath::root().join(b"data.txt")).is_ok());
        // Opened once: the same storage again, no second sweep needed.
        let again = dir.open_source(&Source::Dir(home)).unwrap();
        assert!(Arc::ptr_eq(&st, &again));
    }
}

/// An accounts store that did not open: its URL without credentials, and
/// why. Inside the `io::Error` of [`Directory::open`], so that a program
/// can say it in its user's language.
#[derive(Debug)]
pub struct StoreUnopened {
    pub url: String,
    pub why: String,
}

impl std::fmt::Display for StoreUnopened {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "could not open the accounts store {}: {}", self.url, self.why)
    }
}

impl std::error::Error for StoreUnopened {}
