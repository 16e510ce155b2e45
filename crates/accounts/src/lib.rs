//! Users and groups in a real store (issue 28): SQLite by default, PostgreSQL
//! when several nodes share their users, through `sqlx`.
//!
//! A user has a password (an argon2 PHC string), a home, a group, a reply
//! language, a legacy client charset, permissions per virtual path and
//! virtual folders (mounts). A group has the same settings but the
//! password; a user takes its group's home, language and charset unless it
//! sets its own, and its permissions and mounts are the union of the
//! group's and its own, its own winning for the same path. What a login
//! needs is read in two queries by [`Store::login_record`] into a
//! [`Profile`], and nothing is cached: a change is seen by the next login
//! on every node that opens the same store.
//!
//! Queries are written with `sqlx::query` and `bind` (no macros: nothing
//! needs a database at build time), with `$1` placeholders, which SQLite
//! and PostgreSQL both take; the schema uses portable types (TEXT, BIGINT)
//! and is created and upgraded by [`Store::open`] from migrations compiled
//! into the binary (see `schema.rs`).

use std::fmt;
use std::path::{Component, Path, PathBuf};

pub use babelftp_policy::{BadPerms, BadRulePath, Perms, Rules};

mod bans;
mod groups;
mod import;
mod limits;
mod outbox;
mod rules;
mod schema;
mod sessions;
mod shares;
mod sources;
mod store;
mod tlsreuse;
mod tokens;
mod users;

pub use babelftp_i18n::format_size;
pub use bans::{BanNet, BanRecord};
pub use import::{read_users_file, ImportReport, ImportedUser};
pub use limits::{parse_rate, parse_size, BadSize, LimitChanges, Limits, Usage};
pub use outbox::OutboxEntry;
pub use sessions::SessionStamp;
pub use shares::{is_share_token, Ended, NewShare, Share, ShareKind, SHARE_PREFIX};
pub use sources::AllowedSources;
pub use store::{sqlite_file, Store};
pub use tlsreuse::TlsReuse;
pub use tokens::{hash_token, AdminToken, Scope, Scopes};

/// What can go wrong with the store or with what is asked of it.
#[derive(Debug, thiserror::Error)]
pub enum AccountsError {
    /// The database failed or could not be reached.
    #[error("the accounts store: {0}")]
    Db(#[from] sqlx::Error),
    /// A `--db` value that is no store URL.
    #[error("{0:?} is not a store: write sqlite:PATH, a path, or postgres://USER@HOST/DB")]
    BadUrl(String),
    /// A PostgreSQL store in a build without the `postgres` feature (the
    /// store's description, without its password).
    #[error("{0}: this build has no PostgreSQL support (feature postgres); use an SQLite store (sqlite:PATH)")]
    NoPostgres(String),
    /// The store was made by a newer babelftp.
    #[error("the store's schema is version {found}, newer than this babelftp knows ({known}): upgrade babelftp")]
    TooNew { found: i64, known: i64 },
    #[error("no user {0:?}")]
    UnknownUser(String),
    #[error("no group {0:?}")]
    UnknownGroup(String),
    #[error("user {0:?} already exists")]
    UserExists(String),
    #[error("group {0:?} already exists")]
    GroupExists(String),
    /// A group that users still belong to cannot be removed.
    #[error("group {group:?} still has {members} users: move them first (user set NAME --no-group)")]
    GroupInUse { group: String, members: u64 },
    #[error("{0:?} is not a valid name: 1 to 64 characters, no spaces, no control characters, no / or :")]
    BadName(String),
    #[error("{0:?} is not a language tag (letters, digits and hyphens, as fr, pt-BR, zh-Hant-TW)")]
    BadLang(String),
    #[error(
        "{0:?} is not a charset babelftp knows that keeps ASCII as ASCII (as windows-1251, cp932, shift_jis, gbk)"
    )]
    BadCharset(String),
    #[error("home {0:?}: write an absolute path inside the root (/alice), file:///DIR or s3://BUCKET/PREFIX")]
    BadHome(String),
    #[error("source {0:?}: write an absolute directory (/srv/x), file:///DIR or s3://BUCKET/PREFIX")]
    BadSource(String),
    /// A home or mount outside every allowed source (`allowed_sources`).
    #[error("{what} is outside the allowed sources ({allowed}): add it to allowed_sources in the configuration")]
    SourceNotAllowed { what: String, allowed: String },
    /// A mount at `/` (the home is what is mounted there).
    #[error("a virtual folder cannot be mounted at /: set the home instead")]
    MountAtRoot,
    #[error(transparent)]
    BadPath(#[from] BadRulePath),
    #[error(transparent)]
    BadPerms(#[from] BadPerms),
    #[error("the password of {0:?} is not an argon2 hash (make one with `babelftp passwd`)")]
    BadHash(String),
    #[error("no permission rule at {path} for {owner}")]
    NoSuchRule { owner: String, path: String },
    #[error("nothing mounted at {path} for {owner}")]
    NoSuchMount { owner: String, path: String },
    /// A users file that does not read or parse.
    #[error("{path}: {message}")]
    Import { path: PathBuf, message: String },
    /// A users file with a bad entry.
    #[error("{path}: {source}")]
    ImportEntry { path: PathBuf, source: Box<AccountsError> },
    /// A name given twice in a users file.
    #[error("user {0:?} is given twice")]
    Duplicate(String),
    #[error("admin token {0:?} already exists")]
    TokenExists(String),
    #[error("no admin token {0:?}")]
    UnknownToken(String),
    #[error("no share {0:?}")]
    UnknownShare(String),
    #[error("no random numbers from the system")]
    NoRandom,
    #[error("hashing the password: {0}")]
    Hash(String),
    /// A stored value that no longer parses (edited by hand?).
    #[error("the store holds a bad value for {what}: {value:?}")]
    Corrupt { what: String, value: String },
    /// A language the server has no catalog for (issue 48): its replies
    /// would silently be in the default language.
    #[error("the server has no catalog for the language {tag:?}; it has: {have}")]
    NoCatalog { tag: String, have: String },
    /// A password shorter than `[accounts] min_password_length`.
    #[error("the password is too short: it needs at least {min} characters ([accounts] min_password_length)")]
    ShortPassword { min: usize },
}

impl AccountsError {
    /// Whether the error is a mistake in what was asked (a bad value, an
    /// unknown name), not a failure of the store.
    pub fn is_input_error(&self) -> bool {
        !matches!(
            self,
            AccountsError::Db(_)
                | AccountsError::TooNew { .. }
                | AccountsError::Corrupt { .. }
                | AccountsError::NoRandom
        )
    }
}

/// Whose setting: a user's or a group's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner<'a> {
    User(&'a str),
    Group(&'a str),
}

impl<'a> Owner<'a> {
    pub(crate) fn kind(self) -> &'static str {
        match self {
            Owner::User(_) => "user",
            Owner::Group(_) => "group",
        }
    }

    /// The user's or group's name.
    pub fn name(self) -> &'a str {
        match self {
            Owner::User(n) | Owner::Group(n) => n,
        }
    }
}

impl fmt::Display for Owner<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind(), self.name())
    }
}

/// Where files come from: a local directory or an S3 bucket and prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// An absolute local directory.
    Dir(PathBuf),
    S3 {
        bucket: String,
        /// Below the bucket's root, without a leading or trailing `/`
        /// (empty: the whole bucket).
        prefix: String,
    },
}

impl std::str::FromStr for Source {
    type Err = AccountsError;

    /// `/abs/dir`, `file:///abs/dir` or `s3://bucket/prefix`; relative
    /// paths, `.` and `..` are refused.
    fn from_str(s: &str) -> Result<Source, AccountsError> {
        let bad = || AccountsError::BadSource(s.to_owned());
        if has_control(s) {
            return Err(bad());
        }
        if let Some(rest) = s.strip_prefix("s3://") {
            let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
            let bucket_ok = (3..=63).contains(&bucket.len())
                && bucket
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-');
            let comps: Vec<&str> = prefix.split('/').filter(|c| !c.is_empty()).collect();
            if !bucket_ok || comps.iter().any(|c| *c == "." || *c == "..") {
                return Err(bad());
            }
            return Ok(Source::S3 {
                bucket: bucket.to_owned(),
                prefix: comps.join("/"),
            });
        }
        let path = match s.strip_prefix("file://") {
            Some(p) => p,
            None if s.contains("://") => return Err(bad()),
            None => s,
        };
        let path = Path::new(path);
        if !path.is_absolute()
            || path
                .components()
                .any(|c| matches!(c, Component::ParentDir | Component::CurDir))
        {
            return Err(bad());
        }
        Ok(Source::Dir(path.components().collect()))
    }
}

impl fmt::Display for Source {
    /// What [`Source::from_str`](std::str::FromStr) reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Dir(p) => write!(f, "{}", p.display()),
            Source::S3 { bucket, prefix } if prefix.is_empty() => write!(f, "s3://{bucket}"),
            Source::S3 { bucket, prefix } => write!(f, "s3://{bucket}/{prefix}"),
        }
    }
}

/// Where a user starts and what it sees as `/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Home {
    /// A path inside the server's root, e.g. "/" or "/alice" (bytes,
    /// absolute, normalized).
    Inside(Vec<u8>),
    /// A tree of its own: a local directory or an S3 bucket/prefix.
    Source(Source),
}

impl Default for Home {
    fn default() -> Home {
        Home::Inside(b"/".to_vec())
    }
}

impl std::str::FromStr for Home {
    type Err = AccountsError;

    /// `s3://…` or `file://…` is a [`Source`]; a path starting with `/` is
    /// inside the server's root.
    fn from_str(s: &str) -> Result<Home, AccountsError> {
        if s.starts_with("s3://") || s.starts_with("file://") {
            return s
                .parse()
                .map(Home::Source)
                .map_err(|_| AccountsError::BadHome(s.to_owned()));
        }
        normalize_vpath(s)
            .map(|p| Home::Inside(p.into_bytes()))
            .map_err(|_| AccountsError::BadHome(s.to_owned()))
    }
}

impl fmt::Display for Home {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Home::Inside(p) => f.write_str(&String::from_utf8_lossy(p)),
            // A directory stays `file://`: read back, a bare `/DIR`
            // would be a path of the served root.
            Home::Source(Source::Dir(p)) => write!(f, "file://{}", p.display()),
            Home::Source(s) => s.fmt(f),
        }
    }
}

/// A virtual folder: `source` seen at `vpath`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mount {
    /// Absolute, normalized (never `/`).
    pub vpath: Vec<u8>,
    pub source: Source,
}

/// A user's effective settings, after its group's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    pub name: String,
    /// Its group, if any.
    pub group: Option<String>,
    pub home: Home,
    /// Permissions per path: the union of the group's and the user's
    /// rules, the user's winning for the same path; without any rule,
    /// everything everywhere.
    pub rules: Rules,
    /// The group's and the user's mounts, the user's winning for the same
    /// path, sorted by path.
    pub mounts: Vec<Mount>,
    pub lang: Option<String>,
    pub charset: Option<String>,
    /// Quotas, bandwidth and sessions: the user's, else its group's.
    pub limits: Limits,
    /// FTPS data connections' session-reuse rule: the user's, else its
    /// group's (`None`: the server's).
    pub tls_reuse: Option<TlsReuse>,
}

/// What a login needs.
#[derive(Debug, Clone)]
pub struct LoginRecord {
    /// The argon2 PHC string.
    pub password: String,
    pub disabled: bool,
    pub profile: Profile,
}

/// A new user.
#[derive(Debug, Clone, Default)]
pub struct NewUser {
    pub name: String,
    /// An argon2 PHC string ([`hash_password`]).
    pub password: String,
    pub home: Option<String>,
    pub group: Option<String>,
    pub lang: Option<String>,
    pub charset: Option<String>,
    /// Created disabled (it exists, and cannot log in).
    pub disabled: bool,
}

/// A new group.
#[derive(Debug, Clone, Default)]
pub struct NewGroup {
    pub name: String,
    pub home: Option<String>,
    pub lang: Option<String>,
    pub charset: Option<String>,
}

/// One line of `user list`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserSummary {
    pub name: String,
    pub group: Option<String>,
    /// Its own home (not its group's).
    pub home: Option<String>,
    pub disabled: bool,
}

/// A user's own settings, as stored (not its group's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRecord {
    pub name: String,
    pub group: Option<String>,
    pub home: Option<String>,
    pub lang: Option<String>,
    pub charset: Option<String>,
    pub disabled: bool,
    /// Its own limits.
    pub limits: Limits,
    /// (path, permissions), by path.
    pub perms: Vec<(String, Perms)>,
    /// (path, source), by path.
    pub mounts: Vec<(String, Source)>,
}

/// A group's settings and members.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupRecord {
    pub name: String,
    pub home: Option<String>,
    pub lang: Option<String>,
    pub charset: Option<String>,
    pub limits: Limits,
    pub perms: Vec<(String, Perms)>,
    pub mounts: Vec<(String, Source)>,
    /// Its users' names, sorted.
    pub members: Vec<String>,
}

/// Changes to a user: `None` leaves a setting as it is, `Some(None)`
/// clears it (the group's applies again).
#[derive(Debug, Clone, Default)]
pub struct UserChanges {
    pub home: Option<Option<String>>,
    pub lang: Option<Option<String>>,
    pub charset: Option<Option<String>>,
    pub group: Option<Option<String>>,
    pub disabled: Option<bool>,
}

/// Changes to a group, as [`UserChanges`].
#[derive(Debug, Clone, Default)]
pub struct GroupChanges {
    pub home: Option<Option<String>>,
    pub lang: Option<Option<String>>,
    pub charset: Option<Option<String>>,
}

/// Hashes a password into an argon2id PHC string with argon2's default
/// parameters and a fresh salt (what `babelftp passwd` makes).
pub fn hash_password(password: &[u8]) -> Result<String, AccountsError> {
    use argon2::password_hash::PasswordHasher;
    argon2::Argon2::default()
        .hash_password(password)
        .map(|h| h.to_string())
        .map_err(|e| AccountsError::Hash(e.to_string()))
}

/// Whether `h` is an argon2 PHC string a login can be checked against
/// (algorithm, parameters, salt and a non-empty output).
pub fn is_valid_hash(h: &str) -> bool {
    use argon2::password_hash::phc::PasswordHash;
    use argon2::{Algorithm, Params, Version};
    let Ok(parsed) = PasswordHash::new(h) else {
        return false;
    };
    parsed.salt.is_some()
        && parsed.hash.as_ref().is_some_and(|o| !o.as_ref().is_empty())
        && Algorithm::try_from(parsed.algorithm.as_str()).is_ok()
        && parsed.version.is_none_or(|v| Version::try_from(v).is_ok())
        && Params::try_from(&parsed).is_ok()
}

fn has_control(s: &str) -> bool {
    s.chars().any(char::is_control)
}

/// A user or group name: 1 to 64 characters, no whitespace, control
/// character, `/` or `:`.
pub fn check_name(name: &str) -> Result<(), AccountsError> {
    let ok = !name.is_empty()
        && name.chars().count() <= 64
        && !name
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '/' || c == ':');
    if ok {
        Ok(())
    } else {
        Err(AccountsError::BadName(name.to_owned()))
    }
}

/// Refuses a language tag that is not one, or that none of `catalogs`
/// serves (as LANG would negotiate it): the error lists the tags there
/// are catalogs for.
pub fn check_lang_served(tag: &str, catalogs: &babelftp_i18n::lang::Catalogs) -> Result<(), AccountsError> {
    check_lang(tag)?;
    if catalogs.serves(tag) {
        return Ok(());
    }
    Err(AccountsError::NoCatalog {
        tag: tag.to_owned(),
        have: catalogs.tags().collect::<Vec<_>>().join(", "),
    })
}

/// Refuses a password shorter than `min` characters (Unicode scalar
/// values, as a person counts them).
pub fn check_password_length(password: &str, min: usize) -> Result<(), AccountsError> {
    if password.chars().count() < min {
        return Err(AccountsError::ShortPassword { min });
    }
    Ok(())
}

/// A language tag, BCP 47 in shape: subtags of 1 to 8 letters or digits
/// joined by hyphens, the first of letters (2 to 8, or `i`/`x`).
pub fn check_lang(tag: &str) -> Result<(), AccountsError> {
    let ok = tag.len() <= 35
        && tag.split('-').enumerate().all(|(i, s)| {
            !s.is_empty()
                && s.len() <= 8
                && s.bytes().all(|b| b.is_ascii_alphanumeric())
                && (i > 0 || (s.bytes().all(|b| b.is_ascii_alphabetic()) && (s.len() >= 2 || s == "i" || s == "x")))
        });
    if ok {
        Ok(())
    } else {
        Err(AccountsError::BadLang(tag.to_owned()))
    }
}

/// A charset label the server knows (WHATWG's, and Windows' `cp932`,
/// `cp936`, `cp949`, `cp950`), of an encoding that keeps ASCII as ASCII
/// (FTP commands are ASCII): `windows-1251`, `cp932`, `gbk`…
pub fn check_charset(label: &str) -> Result<(), AccountsError> {
    // The server's own reading of a label (its aliases such as cp932
    // included), and only charsets that keep ASCII as ASCII.
    match babelftp_i18n::Charset::for_label(label) {
        Some(c) if c.encoding().is_none_or(|e| e.is_ascii_compatible()) => Ok(()),
        _ => Err(AccountsError::BadCharset(label.to_owned())),
    }
}

/// A virtual path as rules take it (absolute, no `.`, `..` or `//`; a
/// trailing `/` dropped), in its normal form: `/` or `/a/b`.
pub fn normalize_vpath(path: &str) -> Result<String, AccountsError> {
    let bad = || AccountsError::BadPath(BadRulePath(path.to_owned()));
    if has_control(path) || path.starts_with("//") {
        return Err(bad());
    }
    Rules::new([(path.as_bytes(), Perms::NONE)])?;
    let comps: Vec<&str> = path.split('/').filter(|c| !c.is_empty()).collect();
    Ok(format!("/{}", comps.join("/")))
}

#[cfg(test)]
mod tests;
