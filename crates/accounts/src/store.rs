//! [`Store`]: the pool, the login query and the admin operations.

use std::collections::BTreeMap;
use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

use crate::{
    check_charset, check_lang, check_name, is_valid_hash, normalize_vpath, AccountsError, Home, LoginRecord, Mount,
    NewUser, Owner, Perms, Profile, Rules, Source, UserChanges, UserRecord, UserSummary,
};

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

    /// Adds a user; its group must exist.
    pub async fn add_user(&self, u: &NewUser) -> Result<(), AccountsError> {
        check_name(&u.name)?;
        if !is_valid_hash(&u.password) {
            return Err(AccountsError::BadHash(u.name.clone()));
        }
        check_settings(u.home.as_deref(), u.lang.as_deref(), u.charset.as_deref())?;
        if let Some(g) = &u.group {
            self.must_exist(Owner::Group(g)).await?;
        }
        if self.exists(Owner::User(&u.name)).await? {
            return Err(AccountsError::UserExists(u.name.clone()));
        }
        let home = u.home.as_deref().map(home_text).transpose()?;
        sqlx::query(
            "INSERT INTO users (name, password, home, grp, lang, charset, disabled) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&u.name)
        .bind(&u.password)
        .bind(home)
        .bind(u.group.clone())
        .bind(u.lang.clone())
        .bind(u.charset.as_deref().map(|c| c.trim().to_owned()))
        .bind(i64::from(u.disabled))
        .execute(&self.pool)
        .await
        .map_err(|e| unique_as(e, || AccountsError::UserExists(u.name.clone())))?;
        Ok(())
    }

    /// Every user, by name.
    pub async fn list_users(&self) -> Result<Vec<UserSummary>, AccountsError> {
        let rows = sqlx::query("SELECT name, grp, home, disabled FROM users ORDER BY name")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(UserSummary {
                    name: text(r, 0)?,
                    group: opt_text(r, 1)?,
                    home: opt_text(r, 2)?,
                    disabled: r.try_get::<i64, _>(3)? != 0,
                })
            })
            .collect()
    }

    /// A user's own settings.
    pub async fn user(&self, name: &str) -> Result<Option<UserRecord>, AccountsError> {
        let row = sqlx::query(&format!(
            "SELECT u.grp, u.home, u.lang, u.charset, u.disabled, {} FROM users u WHERE u.name = $1",
            crate::limits::select("u")
        ))
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let (perms, mounts) = self.own_rules(Owner::User(name)).await?;
        Ok(Some(UserRecord {
            name: name.to_owned(),
            group: opt_text(&row, 0)?,
            home: opt_text(&row, 1)?,
            lang: opt_text(&row, 2)?,
            charset: opt_text(&row, 3)?,
            disabled: row.try_get::<i64, _>(4)? != 0,
            limits: crate::limits::read(&row, 5, name)?,
            perms,
            mounts,
        }))
    }

    /// A user's or group's own rules and mounts, by path.
    #[allow(clippy::type_complexity)]
    pub(crate) async fn own_rules(
        &self,
        owner: Owner<'_>,
    ) -> Result<(Vec<(String, Perms)>, Vec<(String, Source)>), AccountsError> {
        let rows = sqlx::query("SELECT vpath, perms FROM perms WHERE kind = $1 AND owner = $2 ORDER BY vpath")
            .bind(owner.kind())
            .bind(owner.name())
            .fetch_all(&self.pool)
            .await?;
        let mut perms = Vec::new();
        for r in &rows {
            let (vpath, value) = (text(r, 0)?, text(r, 1)?);
            let p = value
                .parse()
                .map_err(|_| corrupt(format!("the permissions of {owner} at {vpath}"), &value))?;
            perms.push((vpath, p));
        }
        let rows = sqlx::query("SELECT vpath, source FROM mounts WHERE kind = $1 AND owner = $2 ORDER BY vpath")
            .bind(owner.kind())
            .bind(owner.name())
            .fetch_all(&self.pool)
            .await?;
        let mut mounts = Vec::new();
        for r in &rows {
            let (vpath, value) = (text(r, 0)?, text(r, 1)?);
            let s = value
                .parse()
                .map_err(|_| corrupt(format!("the mount of {owner} at {vpath}"), &value))?;
            mounts.push((vpath, s));
        }
        Ok((perms, mounts))
    }

    /// Removes a user with its rules and mounts.
    pub async fn remove_user(&self, name: &str) -> Result<(), AccountsError> {
        let mut tx = self.write_tx().await?;
        let gone = sqlx::query("DELETE FROM users WHERE name = $1")
            .bind(name)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if gone == 0 {
            return Err(AccountsError::UnknownUser(name.to_owned()));
        }
        for sql in [
            "DELETE FROM perms WHERE kind = 'user' AND owner = $1",
            "DELETE FROM mounts WHERE kind = 'user' AND owner = $1",
            "DELETE FROM quota_usage WHERE name = $1",
        ] {
            sqlx::query(sql).bind(name).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Replaces a user's password with a PHC string ([`crate::hash_password`]).
    pub async fn set_password(&self, name: &str, phc: &str) -> Result<(), AccountsError> {
        if !is_valid_hash(phc) {
            return Err(AccountsError::BadHash(name.to_owned()));
        }
        let n = sqlx::query("UPDATE users SET password = $1 WHERE name = $2")
            .bind(phc)
            .bind(name)
            .execute(&self.pool)
            .await?
            .rows_affected();
        if n == 0 {
            return Err(AccountsError::UnknownUser(name.to_owned()));
        }
        Ok(())
    }

    /// Changes a user's settings, all or nothing.
    pub async fn set_user(&self, name: &str, c: &UserChanges) -> Result<(), AccountsError> {
        let flat = |o: &Option<Option<String>>| o.as_ref().and_then(|v| v.clone());
        check_settings(
            flat(&c.home).as_deref(),
            flat(&c.lang).as_deref(),
            flat(&c.charset).as_deref(),
        )?;
        self.must_exist(Owner::User(name)).await?;
        if let Some(Some(g)) = &c.group {
            self.must_exist(Owner::Group(g)).await?;
        }
        let mut tx = self.write_tx().await?;
        let home = match nested(&c.home) {
            Some(Some(h)) => Some(Some(home_text(&h)?)),
            other => other,
        };
        let charset = nested(&c.charset).map(|o| o.map(|s| s.trim().to_owned()));
        let columns = [
            ("home", home),
            ("lang", nested(&c.lang)),
            ("charset", charset),
            ("grp", nested(&c.group)),
        ];
        for (column, value) in columns {
            if let Some(v) = value {
                sqlx::query(&format!("UPDATE users SET {column} = $1 WHERE name = $2"))
                    .bind(v)
                    .bind(name)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        if let Some(d) = c.disabled {
            // A disable ends the user's sessions (sessions.rs), even if it
            // is enabled again before they make another request.
            sqlx::query("UPDATE users SET disabled = $1, sessions_gen = sessions_gen + $1 WHERE name = $2")
                .bind(i64::from(d))
                .bind(name)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Sets the permissions of a user or group at a virtual path.
    pub async fn set_perm(&self, owner: Owner<'_>, vpath: &str, perms: Perms) -> Result<(), AccountsError> {
        let vpath = normalize_vpath(vpath)?;
        self.must_exist(owner).await?;
        sqlx::query(
            "INSERT INTO perms (kind, owner, vpath, perms) VALUES ($1, $2, $3, $4)
             ON CONFLICT (kind, owner, vpath) DO UPDATE SET perms = excluded.perms",
        )
        .bind(owner.kind())
        .bind(owner.name())
        .bind(vpath)
        .bind(perms.to_string())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Removes the rule of a user or group at a virtual path (what is
    /// above, or the group's, applies again).
    pub async fn remove_perm(&self, owner: Owner<'_>, vpath: &str) -> Result<(), AccountsError> {
        self.remove_at("perms", owner, vpath).await
    }

    /// Mounts `source` at `vpath` for a user or group (replacing what was
    /// mounted there).
    pub async fn add_mount(&self, owner: Owner<'_>, vpath: &str, source: &Source) -> Result<(), AccountsError> {
        let vpath = normalize_vpath(vpath)?;
        if vpath == "/" {
            return Err(AccountsError::MountAtRoot);
        }
        self.must_exist(owner).await?;
        sqlx::query(
            "INSERT INTO mounts (kind, owner, vpath, source) VALUES ($1, $2, $3, $4)
             ON CONFLICT (kind, owner, vpath) DO UPDATE SET source = excluded.source",
        )
        .bind(owner.kind())
        .bind(owner.name())
        .bind(vpath)
        .bind(source.to_string())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn remove_mount(&self, owner: Owner<'_>, vpath: &str) -> Result<(), AccountsError> {
        self.remove_at("mounts", owner, vpath).await
    }

    async fn remove_at(&self, table: &str, owner: Owner<'_>, vpath: &str) -> Result<(), AccountsError> {
        let vpath = normalize_vpath(vpath)?;
        self.must_exist(owner).await?;
        let n = sqlx::query(&format!(
            "DELETE FROM {table} WHERE kind = $1 AND owner = $2 AND vpath = $3"
        ))
        .bind(owner.kind())
        .bind(owner.name())
        .bind(&vpath)
        .execute(&self.pool)
        .await?
        .rows_affected();
        if n > 0 {
            return Ok(());
        }
        let (owner, path) = (owner.name().to_owned(), vpath);
        Err(if table == "perms" {
            AccountsError::NoSuchRule { owner, path }
        } else {
            AccountsError::NoSuchMount { owner, path }
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
