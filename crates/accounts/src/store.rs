//! [`Store`]: the pool and the login query, and the helpers its admin
//! operations share (users in `users.rs`, rules and mounts in `rules.rs`,
//! groups in `groups.rs`).

use std::collections::BTreeMap;
use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

use crate::{check_charset, check_lang, AccountsError, Home, LoginRecord, Mount, Owner, Perms, Profile, Rules, Source};

/// The accounts store: a pool of connections to SQLite or PostgreSQL.
/// Cheap to clone (the pool is shared).
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    description: String,
    /// SQLite, whose write transactions start with `BEGIN IMMEDIATE`.
    sqlite: bool,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("db", &self.description).finish()
    }
}

/// Percent-encodes a path for a `sqlite:` URL (sqlx decodes it back).
fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/._-~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `postgres://user:pw@host:port/db?…` as `host:port/db`.
fn describe_postgres(rest: &str) -> String {
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let hostport = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let hostport = if hostport.is_empty() {
        "localhost:5432".to_owned()
    } else if hostport.ends_with(']') || !hostport.contains(':') {
        format!("{hostport}:5432")
    } else {
        hostport.to_owned()
    };
    let db = rest[end..].strip_prefix('/').unwrap_or("");
    let db = db.split('?').next().unwrap_or("");
    format!("{hostport}/{db}")
}

/// The URL sqlx connects with, and the store's description.
fn resolve(url: &str) -> Result<(String, String), AccountsError> {
    for scheme in ["postgres://", "postgresql://"] {
        if let Some(rest) = url.strip_prefix(scheme) {
            return Ok((url.to_owned(), format!("PostgreSQL {}", describe_postgres(rest))));
        }
    }
    let path = match url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) {
        Some(p) => p,
        None if url.contains("://") => return Err(AccountsError::BadUrl(url.to_owned())),
        None => url,
    };
    if path.is_empty() {
        return Err(AccountsError::BadUrl(url.to_owned()));
    }
    if path.starts_with(':') || url.starts_with("sqlite:") && path.contains('?') {
        // `sqlite::memory:`, or parameters written by hand: as given.
        return Ok((url.to_owned(), format!("SQLite {path}")));
    }
    Ok((
        format!("sqlite:{}?mode=rwc", encode_path(path)),
        format!("SQLite {path}"),
    ))
}

/// The file of a SQLite store's URL (`None`: PostgreSQL, in memory, or
/// parameters written by hand).
pub fn sqlite_file(url: &str) -> Option<std::path::PathBuf> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return None;
    }
    let path = match url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) {
        Some(p) => p,
        None if url.contains("://") => return None,
        None => url,
    };
    if path.is_empty() || path.starts_with(':') || url.starts_with("sqlite:") && path.contains('?') {
        return None;
    }
    Some(std::path::PathBuf::from(path))
}

/// Issue 48: a new SQLite store holds password and token hashes, so it is
/// made readable by its owner only (SQLite gives its -wal and -shm files
/// the database file's mode). An existing file is left as it is.
fn create_private(path: &std::path::Path) {
    use std::os::unix::fs::OpenOptionsExt;
    // An existing file is kept; any other failure (a missing folder) is
    // SQLite's to report when it opens the file.
    let _ = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path);
}

pub(crate) fn opt_text(row: &AnyRow, i: usize) -> Result<Option<String>, AccountsError> {
    Ok(row.try_get::<Option<String>, _>(i)?)
}

pub(crate) fn text(row: &AnyRow, i: usize) -> Result<String, AccountsError> {
    Ok(row.try_get::<String, _>(i)?)
}

pub(crate) fn corrupt(what: String, value: &str) -> AccountsError {
    AccountsError::Corrupt {
        what,
        value: value.to_owned(),
    }
}

/// Checks an optional home, language and charset.
pub(crate) fn check_settings(
    home: Option<&str>,
    lang: Option<&str>,
    charset: Option<&str>,
) -> Result<(), AccountsError> {
    if let Some(h) = home {
        Home::from_str(h)?;
    }
    if let Some(l) = lang {
        check_lang(l)?;
    }
    if let Some(c) = charset {
        check_charset(c)?;
    }
    Ok(())
}

/// A home as stored: its normal form.
pub(crate) fn home_text(h: &str) -> Result<String, AccountsError> {
    Ok(Home::from_str(h)?.to_string())
}

pub(crate) fn nested<T: Clone>(o: &Option<Option<T>>) -> Option<Option<T>> {
    o.clone()
}

impl Store {
    /// Opens (and for SQLite creates) the store at `url` — `sqlite:PATH`,
    /// a bare path, or `postgres://USER:PASSWORD@HOST:PORT/DB` — and
    /// brings its schema up to date.
    pub async fn open(url: &str) -> Result<Store, AccountsError> {
        sqlx::any::install_default_drivers();
        let (connect, description) = resolve(url)?;
        let sqlite = connect.starts_with("sqlite:");
        if let Some(file) = sqlite_file(url) {
            create_private(&file);
        }
        if !sqlite && !cfg!(feature = "postgres") {
            return Err(AccountsError::NoPostgres(description));
        }
        let options = AnyConnectOptions::from_str(&connect).map_err(|_| AccountsError::BadUrl(url.to_owned()))?;
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 8 })
            .min_connections(0)
            .acquire_timeout(Duration::from_secs(10))
            .idle_timeout(Duration::from_secs(60))
            .connect_with(options)
            .await?;
        if sqlite {
            // Readers (logins) and a writer (the CLI) at once; kept in
            // the file. Best effort: a store in use stays as it is.
            let mode: Result<String, _> = sqlx::query_scalar("PRAGMA journal_mode").fetch_one(&pool).await;
            if mode.is_ok_and(|m| !m.eq_ignore_ascii_case("wal")) {
                let _ = sqlx::query("PRAGMA journal_mode = WAL").execute(&pool).await;
            }
        }
        crate::schema::migrate(&pool, !sqlite).await?;
        Ok(Store {
            pool,
            description,
            sqlite,
        })
    }

    /// "SQLite babelftp.db" or "PostgreSQL host:port/db" (no password).
    pub fn describe(&self) -> String {
        self.description.clone()
    }

    /// Closes the pool's connections.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    pub async fn user_count(&self) -> Result<u64, AccountsError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users")
            .fetch_one(&self.pool)
            .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// What a login needs, in two queries; `None` when there is no such
    /// user.
    pub async fn login_record(&self, name: &str) -> Result<Option<LoginRecord>, AccountsError> {
        let row = sqlx::query(&format!(
            "SELECT u.password, u.disabled, u.home, u.lang, u.charset, u.grp, g.home, g.lang, g.charset, {}, {}
                 FROM users u LEFT JOIN user_groups g ON g.name = u.grp WHERE u.name = $1",
            crate::limits::select("u"),
            crate::limits::select("g")
        ))
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let password = text(&row, 0)?;
        let disabled = row.try_get::<i64, _>(1)? != 0;
        let group = opt_text(&row, 5)?;
        let home = opt_text(&row, 2)?.or(opt_text(&row, 6)?);
        let lang = opt_text(&row, 3)?.or(opt_text(&row, 7)?);
        let charset = opt_text(&row, 4)?.or(opt_text(&row, 8)?);
        let limits = crate::limits::read(&row, 9, name)?.or(crate::limits::read(&row, 14, name)?);
        let home = match home {
            Some(h) => Home::from_str(&h).map_err(|_| corrupt(format!("the home of {name}"), &h))?,
            None => Home::default(),
        };
        let (rules, mounts) = self.rules_and_mounts(name, group.as_deref()).await?;
        let tls_reuse = self.effective_tls_reuse(name, group.as_deref()).await?;
        Ok(Some(LoginRecord {
            password,
            disabled,
            profile: Profile {
                name: name.to_owned(),
                group,
                home,
                rules,
                mounts,
                lang,
                charset,
                limits,
                tls_reuse,
            },
        }))
    }

    /// A user's effective settings (its login record without the password).
    pub async fn profile(&self, name: &str) -> Result<Option<Profile>, AccountsError> {
        Ok(self.login_record(name).await?.map(|r| r.profile))
    }

    /// The settings of a user whose password another directory checked
    /// (LDAP): its own account's if the store has one (its password
    /// unused; its group, unless `group` names one), else `group`'s.
    /// `None` when the store knows neither: the caller decides.
    /// `Some((profile, disabled))`.
    pub async fn external_profile(
        &self,
        name: &str,
        group: Option<&str>,
    ) -> Result<Option<(Profile, bool)>, AccountsError> {
        if let Some(mut r) = self.login_record(name).await? {
            if let Some(g) = group.filter(|g| r.profile.group.as_deref() != Some(*g)) {
                if let Some((gp, _)) = self.group_profile(name, g).await? {
                    // The directory's group: its settings under the user's own.
                    let (rules, mounts) = self.rules_and_mounts(name, Some(g)).await?;
                    r.profile.group = gp.group;
                    r.profile.rules = rules;
                    r.profile.mounts = mounts;
                }
            }
            return Ok(Some((r.profile, r.disabled)));
        }
        match group {
            Some(g) => self.group_profile(name, g).await,
            None => Ok(None),
        }
    }

    /// A user without an account of its own, in group `group`: the group's
    /// settings; `None` when there is no such group.
    async fn group_profile(&self, name: &str, group: &str) -> Result<Option<(Profile, bool)>, AccountsError> {
        let row = sqlx::query(&format!(
            "SELECT g.home, g.lang, g.charset, {} FROM user_groups g WHERE g.name = $1",
            crate::limits::select("g")
        ))
        .bind(group)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let home = match opt_text(&row, 0)? {
            Some(h) => Home::from_str(&h).map_err(|_| corrupt(format!("the home of group {group}"), &h))?,
            None => Home::default(),
        };
        let (rules, mounts) = self.rules_and_mounts("", Some(group)).await?;
        let tls_reuse = self.own_tls_reuse(Owner::Group(group)).await?;
        Ok(Some((
            Profile {
                name: name.to_owned(),
                group: Some(group.to_owned()),
                home,
                rules,
                mounts,
                lang: opt_text(&row, 1)?,
                charset: opt_text(&row, 2)?,
                limits: crate::limits::read(&row, 3, group)?,
                tls_reuse,
            },
            false,
        )))
    }

    /// The union of the group's and the user's rules and mounts, in one
    /// query.
    async fn rules_and_mounts(&self, user: &str, group: Option<&str>) -> Result<(Rules, Vec<Mount>), AccountsError> {
        let rows = sqlx::query(
            "SELECT 'p', kind, vpath, perms FROM perms
               WHERE (kind = 'user' AND owner = $1) OR (kind = 'group' AND owner = $2)
             UNION ALL
             SELECT 'm', kind, vpath, source FROM mounts
               WHERE (kind = 'user' AND owner = $1) OR (kind = 'group' AND owner = $2)",
        )
        .bind(user)
        .bind(group.unwrap_or(""))
        .fetch_all(&self.pool)
        .await?;
        // (table, vpath) -> (from the user, value); the user's entry wins.
        let mut perms: BTreeMap<String, (bool, Perms)> = BTreeMap::new();
        let mut mounts: BTreeMap<String, (bool, Source)> = BTreeMap::new();
        for row in &rows {
            let (table, kind, vpath, value) = (text(row, 0)?, text(row, 1)?, text(row, 2)?, text(row, 3)?);
            let mine = kind == "user";
            if table == "p" {
                let p = value
                    .parse::<Perms>()
                    .map_err(|_| corrupt(format!("the permissions of {kind} at {vpath}"), &value))?;
                if mine || !perms.contains_key(&vpath) {
                    perms.insert(vpath, (mine, p));
                }
            } else {
                let s = value
                    .parse::<Source>()
                    .map_err(|_| corrupt(format!("the mount of {kind} at {vpath}"), &value))?;
                if mine || !mounts.contains_key(&vpath) {
                    mounts.insert(vpath, (mine, s));
                }
            }
        }
        let rules = if perms.is_empty() {
            Rules::everywhere(Perms::ALL)
        } else {
            Rules::new(perms.iter().map(|(p, (_, perms))| (p.as_bytes(), *perms)))
                .map_err(|e| corrupt(format!("a permission path of {user}"), &e.0))?
        };
        let mounts = mounts
            .into_iter()
            .map(|(vpath, (_, source))| Mount {
                vpath: vpath.into_bytes(),
                source,
            })
            .collect();
        Ok((rules, mounts))
    }

    pub(crate) async fn exists(&self, owner: Owner<'_>) -> Result<bool, AccountsError> {
        let sql = match owner {
            Owner::User(_) => "SELECT COUNT(*) FROM users WHERE name = $1",
            Owner::Group(_) => "SELECT COUNT(*) FROM user_groups WHERE name = $1",
        };
        let n: i64 = sqlx::query_scalar(sql).bind(owner.name()).fetch_one(&self.pool).await?;
        Ok(n > 0)
    }

    pub(crate) async fn must_exist(&self, owner: Owner<'_>) -> Result<(), AccountsError> {
        if self.exists(owner).await? {
            return Ok(());
        }
        Err(match owner {
            Owner::User(n) => AccountsError::UnknownUser(n.to_owned()),
            Owner::Group(n) => AccountsError::UnknownGroup(n.to_owned()),
        })
    }

    pub(crate) fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// A transaction that writes. On SQLite it takes the write lock at
    /// once (`BEGIN IMMEDIATE`, waiting for another writer as long as the
    /// busy timeout allows): a deferred one that read first cannot write
    /// once another connection has committed since ("database is
    /// locked" at once, no waiting), which lost a start's drop of
    /// outbox entries to a delivery finishing beside it.
    pub(crate) async fn write_tx(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        if self.sqlite {
            self.pool.begin_with("BEGIN IMMEDIATE").await
        } else {
            self.pool.begin().await
        }
    }
}

/// A unique-key violation as `e` (two adds of one name at once).
pub(crate) fn unique_as(err: sqlx::Error, e: impl FnOnce() -> AccountsError) -> AccountsError {
    match &err {
        sqlx::Error::Database(d) if d.is_unique_violation() => e(),
        _ => AccountsError::Db(err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_descriptions() {
        let r = |u: &str| resolve(u).ok();
        assert_eq!(
            r("sqlite:babelftp.db"),
            Some(("sqlite:babelftp.db?mode=rwc".into(), "SQLite babelftp.db".into()))
        );
        assert_eq!(
            r("/tmp/a b%.db"),
            Some(("sqlite:/tmp/a%20b%25.db?mode=rwc".into(), "SQLite /tmp/a b%.db".into()))
        );
        assert_eq!(
            r("sqlite:///var/x.db"),
            Some(("sqlite:/var/x.db?mode=rwc".into(), "SQLite /var/x.db".into()))
        );
        assert_eq!(
            r("postgres://ftp:s3cret@db.example:5433/accounts?sslmode=require").map(|x| x.1),
            Some("PostgreSQL db.example:5433/accounts".into())
        );
        assert_eq!(
            r("postgresql://ftp@[::1]/a").map(|x| x.1),
            Some("PostgreSQL [::1]:5432/a".into())
        );
        assert!(r("mysql://x/y").is_none());
        assert!(r("sqlite:").is_none());
    }

    /// A build without the feature `postgres` says so of a PostgreSQL URL,
    /// without its password, and tries no connection.
    #[cfg(not(feature = "postgres"))]
    #[tokio::test]
    async fn postgres_in_a_build_without_it_is_refused_by_name() {
        let e = Store::open("postgres://ftp:s3cret@db.example:5433/accounts").await;
        let text = e.map(|_| ()).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            text.starts_with(
                "PostgreSQL db.example:5433/accounts: this build has no PostgreSQL support (feature postgres)"
            ),
            "{text}"
        );
        assert!(!text.contains("s3cret"), "{text}");
    }
}
