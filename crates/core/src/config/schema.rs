//! The configuration file's schema: one set of serde types that is the
//! file as a person writes it (its top-level keys, and a type for each of
//! its tables), with the defaults in one place: [`Settings::default`],
//! and, for a table that configures a service, that service's own
//! defaults (the defender's, LDAP's, an event hook's). `babelftp serve`'s
//! flags are an overlay on these settings: each flag sets the field its
//! key sets, over the file. The runtime [`Config`](super::Config) is made from them in
//! one place, [`Settings::resolve`] (config/resolve.rs).
//!
//! The top level stays flat, as the file is: a section flattened into it
//! (`#[serde(flatten)]`) would lose the line and the key of a mistake in
//! the parser's message.
//!
//! The file's keys, with examples: this module's parent, and the guide's
//! configuration reference.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer};

use super::ConfigError;

/// The root served when none is named: `ftp-root` in the working
/// directory (the only root `serve` creates when it is missing).
pub const DEFAULT_ROOT: &str = "ftp-root";

/// The file's keys, and what `serve`'s flags set. A key that is absent
/// keeps its default ([`Settings::default`]); `None` is a default that
/// depends on other keys, said at the field.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    // ------------------------------------------------ what is served, where
    /// `root` (`--root`): the directory served as `/`; `None`:
    /// [`DEFAULT_ROOT`].
    pub root: Option<PathBuf>,
    /// `[storage]` (`--s3`): what serves `/`; `None`: the local `root`.
    pub storage: Option<Storage>,
    /// `[[host]]`: virtual hosts for HOST (RFC 7151).
    pub host: Vec<Host>,
    /// `listen` (`--listen`): one address or a list.
    #[serde(deserialize_with = "one_or_many")]
    pub listen: Vec<String>,
    /// `implicit_listen` (`--implicit-listen`): implicit-FTPS listeners.
    #[serde(deserialize_with = "one_or_many")]
    pub implicit_listen: Vec<String>,
    /// `http_listen` (`--http-listen`): the web view.
    #[serde(deserialize_with = "one_or_many")]
    pub http_listen: Vec<String>,
    /// `metrics_listen` (`--metrics-listen`): its first address.
    #[serde(deserialize_with = "one_or_many")]
    pub metrics_listen: Vec<String>,
    /// `admin_listen` (`--admin-listen`): its first address.
    #[serde(deserialize_with = "one_or_many")]
    pub admin_listen: Vec<String>,
    /// `admin_insecure_http` (`--admin-insecure-http`).
    pub admin_insecure_http: bool,
    /// `proxy_protocol_from` (`--proxy-protocol-from`, added).
    pub proxy_protocol_from: Vec<String>,
    /// `allow_degraded` (`--allow-degraded`).
    pub allow_degraded: bool,

    // ------------------------------------------------------------- who
    /// `anonymous` (`--anonymous`, `--no-anonymous`); `None`: on unless
    /// named accounts are configured (see [`Settings::resolve`]).
    pub anonymous: Option<bool>,
    /// `anonymous_write`.
    pub anonymous_write: bool,
    /// `[[user]]` tables, then `--user` (added).
    pub user: Vec<UserEntry>,
    /// `users_file`, then `--users` (added): one path in the file.
    #[serde(deserialize_with = "one_path")]
    pub users_file: Vec<PathBuf>,
    /// `db` (`--db`, then `BABELFTP_DB` for `serve`): the accounts store.
    pub db: Option<String>,
    /// `auth_hook` (`--auth-hook`).
    pub auth_hook: Option<AuthHook>,
    /// `[ldap]`.
    pub ldap: Option<Ldap>,
    /// `allowed_sources`; `None`: the served roots.
    pub allowed_sources: Option<Vec<String>>,
    /// `[defender]`: bans.
    pub defender: Defender,

    // ------------------------------------------------ data connections
    /// `passive_ports` (`--passive-ports`): `"LOW-HIGH"`; `None`: the
    /// kernel chooses.
    pub passive_ports: Option<String>,
    /// `passive_address` (`--passive-address`).
    pub passive_address: Option<IpAddr>,
    /// `passive_addresses` (`--passive-address-for`, added): network →
    /// address.
    pub passive_addresses: BTreeMap<String, IpAddr>,
    /// `max_passive_per_ip` (`--max-passive-per-ip`); `None`:
    /// `max_per_ip` ([`Config::passive_cap`](super::Config::passive_cap)).
    pub max_passive_per_ip: Option<usize>,

    // --------------------------------------------- limits and timeouts
    /// `max_line`: at least 64.
    pub max_line: usize,
    /// `max_connections` (`--max-connections`).
    pub max_connections: usize,
    /// `max_per_ip` (`--max-per-ip`).
    pub max_per_ip: usize,
    /// `idle_timeout` (`--idle-timeout`), seconds.
    pub idle_timeout: u64,
    /// `data_timeout`, seconds.
    pub data_timeout: u64,
    /// `stall_timeout`, seconds.
    pub stall_timeout: u64,
    /// `http_header_timeout`, seconds (at least 1).
    pub http_header_timeout: u64,
    /// `login_fail_delay_ms`.
    pub login_fail_delay_ms: u64,
    /// `upload_end_wait_ms`.
    pub upload_end_wait_ms: u64,
    /// `shutdown_grace`, seconds.
    pub shutdown_grace: u64,
    /// `download_rate` (`--download-rate`): `"100MiB/s"`; `None`: the
    /// one in `[limits]`, else unlimited.
    pub download_rate: Option<String>,
    /// `upload_rate` (`--upload-rate`).
    pub upload_rate: Option<String>,
    /// `[limits]`: the same two keys in a table.
    pub limits: Limits,

    // ------------------------------------------------------- behaviour
    /// `status_before_login`.
    pub status_before_login: bool,
    /// `xferlog` (`--xferlog`).
    pub xferlog: Option<PathBuf>,
    /// `fsync` (`--fsync`): `"always"`, `"batch"` or `"never"`.
    pub fsync: String,

    // ------------------------------------------------------------- TLS
    /// `tls_cert` (`--tls-cert`).
    pub tls_cert: Option<PathBuf>,
    /// `tls_key` (`--tls-key`).
    pub tls_key: Option<PathBuf>,
    /// `tls_required` (`--tls-required`).
    pub tls_required: bool,
    /// `tls_reuse_required`.
    pub tls_reuse_required: bool,

    // ----------------------------------------- languages and charsets
    /// `default_lang` (`--default-lang`); `None`: English.
    pub default_lang: Option<String>,
    /// `catalogs` (`--catalogs`).
    pub catalogs: Option<PathBuf>,
    /// `fs_charset` (`--fs-charset`).
    pub fs_charset: Option<String>,
    /// `[dir_charsets]` (`--dir-charset`, over the file's).
    pub dir_charsets: BTreeMap<String, String>,
    /// `legacy_client_charset` (`--legacy-client-charset`).
    pub legacy_client_charset: Option<String>,
    /// `mirror` (`--mirror`).
    pub mirror: bool,

    // ---------------------------------------------------------- events
    /// `node`; `None` (or empty): the host name.
    pub node: Option<String>,
    /// `[[hook]]` tables, then `--hook` (added).
    pub hook: Vec<EventHook>,
    /// `[events]`.
    pub events: Events,
    /// `[accounts]`: rules for what the `user`/`group` commands and the
    /// admin API store.
    pub accounts: Accounts,

    /// The file these settings were read from (messages name it); not a
    /// key.
    #[serde(skip)]
    pub file: Option<PathBuf>,
}

impl Default for Settings {
    /// `babelftp serve` with no file and no flag: `ftp-root` on
    /// 127.0.0.1:2121, read-only anonymous.
    fn default() -> Settings {
        Settings {
            root: None,
            storage: None,
            host: Vec::new(),
            listen: vec!["127.0.0.1:2121".into()],
            implicit_listen: Vec::new(),
            http_listen: Vec::new(),
            metrics_listen: Vec::new(),
            admin_listen: Vec::new(),
            admin_insecure_http: false,
            proxy_protocol_from: Vec::new(),
            allow_degraded: false,
            anonymous: None,
            anonymous_write: false,
            user: Vec::new(),
            users_file: Vec::new(),
            db: None,
            auth_hook: None,
            ldap: None,
            allowed_sources: None,
            defender: Defender::default(),
            passive_ports: None,
            passive_address: None,
            passive_addresses: BTreeMap::new(),
            max_passive_per_ip: None,
            max_line: babelftp_proto::line::DEFAULT_MAX_LINE,
            max_connections: 512,
            max_per_ip: 32,
            idle_timeout: 300,
            data_timeout: 30,
            stall_timeout: 60,
            http_header_timeout: 20,
            login_fail_delay_ms: 1000,
            upload_end_wait_ms: 10,
            shutdown_grace: 30,
            download_rate: None,
            upload_rate: None,
            limits: Limits::default(),
            status_before_login: false,
            xferlog: None,
            fsync: "batch".into(),
            tls_cert: None,
            tls_key: None,
            tls_required: false,
            tls_reuse_required: true,
            default_lang: None,
            catalogs: None,
            fs_charset: None,
            dir_charsets: BTreeMap::new(),
            legacy_client_charset: None,
            mirror: false,
            node: None,
            hook: Vec::new(),
            events: Events::default(),
            accounts: Accounts::default(),
            file: None,
        }
    }
}

/// `[storage]`, or a virtual host's `[host.storage]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Storage {
    /// `"fs"` (or `"local"`) or `"s3"`.
    pub kind: String,
    pub bucket: Option<String>,
    pub endpoint: Option<String>,
    pub region: Option<String>,
    pub prefix: Option<String>,
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
}

/// A `[[host]]` table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Host {
    pub name: String,
    /// Needed unless `storage` is another back-end.
    pub root: Option<PathBuf>,
    pub storage: Option<Storage>,
    pub default_lang: Option<String>,
}

/// A `[[user]]` table (also the format of a users file), or `--user`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserEntry {
    pub name: String,
    /// An argon2 hash from `babelftp passwd` (in clear for `--user`).
    pub password: String,
    /// Below the root; the user sees it as `/`.
    #[serde(default = "root_home")]
    pub home: String,
    #[serde(default)]
    pub write: bool,
    /// `--user NAME:PASSWORD`: the password is in clear (never a file's).
    #[serde(skip)]
    pub clear: bool,
}

impl UserEntry {
    /// `--user NAME:PASSWORD`: read/write on the whole root.
    pub fn clear(name: &str, password: &str) -> UserEntry {
        UserEntry {
            name: name.to_owned(),
            password: password.to_owned(),
            home: root_home(),
            write: true,
            clear: true,
        }
    }
}

fn root_home() -> String {
    "/".into()
}

/// `auth_hook = { url = "…", timeout_ms = 5000 }` (`--auth-hook URL`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthHook {
    /// `http://` or `https://`.
    pub url: String,
    #[serde(default = "AuthHook::default_timeout_ms")]
    pub timeout_ms: u64,
}

impl AuthHook {
    /// A hook at `url` with the default time limit.
    pub fn new(url: String) -> AuthHook {
        AuthHook {
            url,
            timeout_ms: AuthHook::default_timeout_ms(),
        }
    }

    fn default_timeout_ms() -> u64 {
        5000
    }
}

/// `[ldap]`; what is absent keeps LDAP's defaults
/// ([`crate::directory::ldap::LdapConfig::new`]).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ldap {
    pub url: String,
    #[serde(default)]
    pub starttls: bool,
    pub ca_file: Option<PathBuf>,
    pub user_dn: Option<String>,
    pub search_base: Option<String>,
    pub search_filter: Option<String>,
    pub bind_dn: Option<String>,
    pub bind_password: Option<String>,
    pub group_base: Option<String>,
    pub group_filter: Option<String>,
    #[serde(default)]
    pub groups: BTreeMap<String, String>,
    pub default_group: Option<String>,
    pub name_attribute: Option<String>,
    pub timeout_ms: Option<u64>,
}

/// `[defender]`; what is absent keeps the defender's defaults
/// ([`crate::defender::DefenderConfig::default`]).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defender {
    pub enabled: Option<bool>,
    pub threshold: Option<u32>,
    /// Seconds.
    pub window: Option<u64>,
    /// Seconds.
    pub ban_time: Option<u64>,
    /// Seconds.
    pub max_ban_time: Option<u64>,
    pub score_login_failed: Option<u32>,
    pub score_flood: Option<u32>,
    pub score_bounce: Option<u32>,
    pub score_foreign_data: Option<u32>,
    pub score_long_line: Option<u32>,
    pub connections_per_second: Option<u32>,
    /// Replaces the default (loopback) when given.
    pub allow: Option<Vec<String>>,
    pub ipv6_prefix: Option<u8>,
}

/// `[limits]`: the server's bandwidth (the same keys may be top-level,
/// which win).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    pub download_rate: Option<String>,
    pub upload_rate: Option<String>,
}

/// `[accounts]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Accounts {
    /// `min_password_length`: the fewest characters a password set by
    /// `user add`, `user passwd`, an import or the admin API may have.
    pub min_password_length: usize,
}

impl Default for Accounts {
    fn default() -> Accounts {
        Accounts { min_password_length: 8 }
    }
}

/// `[events]`: the outbox.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Events {
    /// Events that may wait per hook before the oldest are dropped.
    pub max_pending: u64,
}

impl Default for Events {
    fn default() -> Events {
        Events {
            max_pending: super::DEFAULT_MAX_PENDING,
        }
    }
}

/// A `[[hook]]` table (events; `auth_hook` decides logins), or `--hook
/// URL`; what is absent keeps an event hook's defaults
/// ([`crate::events::HookSpec::url`]).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventHook {
    pub url: Option<String>,
    pub command: Option<String>,
    pub name: Option<String>,
    #[serde(default)]
    pub events: Vec<String>,
    pub secret: Option<String>,
    pub path: Option<String>,
    pub timeout_ms: Option<u64>,
    /// Seconds.
    pub max_backoff: Option<u64>,
}

impl EventHook {
    /// `--hook URL`: every event to `url`.
    pub fn url(url: &str) -> EventHook {
        EventHook {
            url: Some(url.to_owned()),
            ..EventHook::default()
        }
    }
}

/// A users file: `[[user]]` tables only.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct UsersFile {
    #[serde(default)]
    pub(super) user: Vec<UserEntry>,
}

/// `listen = "ADDR:PORT"` or `listen = ["ADDR:PORT", …]`.
fn one_or_many<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
}

/// `users_file = "PATH"`: one file (`--users` adds another).
fn one_path<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<PathBuf>, D::Error> {
    PathBuf::deserialize(d).map(|p| vec![p])
}

pub(super) fn read(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_owned(),
        source,
    })
}

/// Parses TOML text as `T`, the parser's message naming the file.
pub(super) fn parse<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T, ConfigError> {
    toml::from_str(text).map_err(|e| parse_error(path, text, &e))
}

/// The parser's error as `FILE:LINE: message` (its short message when it
/// points at a place, its whole text otherwise).
fn parse_error(path: &Path, text: &str, e: &toml::de::Error) -> ConfigError {
    let line = e.span().map(|s| line_of(text, s.start));
    // The line itself too: a type's mistake does not name its key.
    let source = line
        .and_then(|n| text.lines().nth(n - 1))
        .map(str::trim)
        .filter(|l| !l.is_empty());
    ConfigError::Parse {
        path: path.to_owned(),
        line,
        message: match (line, source) {
            (_, Some(l)) => format!("{} (in: {l})", e.message().trim_end()),
            (Some(_), None) => e.message().trim_end().to_owned(),
            (None, None) => e.to_string(),
        },
    }
}

/// The line (from 1) of the byte at `offset` in `text`.
pub(super) fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes().iter().take(offset).filter(|&&b| b == b'\n').count() + 1
}

impl Settings {
    /// Reads a TOML configuration file over the defaults. Its relative
    /// paths are made relative to the file's directory here, so that the
    /// settings hold the paths the server uses (a flag's path stays
    /// relative to the working directory).
    pub fn load(path: &Path) -> Result<Settings, ConfigError> {
        let mut s: Settings = parse(path, &read(path)?)?;
        s.rebase(path.parent().unwrap_or(Path::new(".")));
        s.file = Some(path.to_owned());
        Ok(s)
    }

    /// [`Settings::load`] for `serve --check`: every unknown key of the
    /// file, each with its line, rather than the first alone (the parser
    /// stops at one: its line is blanked and the file parsed again); the
    /// settings when no other mistake stops the parser.
    pub fn check(path: &Path) -> (Option<Settings>, Vec<ConfigError>) {
        let text = match read(path) {
            Ok(t) => t,
            Err(e) => return (None, vec![e]),
        };
        let mut lines: Vec<&str> = text.split('\n').collect();
        let mut found = Vec::new();
        // At most one pass per line of the file.
        for _ in 0..=lines.len() {
            let now = lines.join("\n");
            match toml::from_str::<Settings>(&now) {
                Ok(mut s) => {
                    if !found.is_empty() {
                        // In the file's order, not the parser's.
                        found.sort_by_key(|e| match e {
                            ConfigError::Parse { line, .. } => *line,
                            _ => None,
                        });
                        return (None, found);
                    }
                    s.rebase(path.parent().unwrap_or(Path::new(".")));
                    s.file = Some(path.to_owned());
                    return (Some(s), found);
                }
                Err(e) => {
                    let err = parse_error(path, &now, &e);
                    let unknown = e.message().starts_with("unknown field");
                    let line = match &err {
                        ConfigError::Parse { line: Some(n), .. } => Some(*n),
                        _ => None,
                    };
                    found.push(err);
                    match line.filter(|&n| unknown && n <= lines.len() && !lines[n - 1].is_empty()) {
                        Some(n) => lines[n - 1] = "",
                        None => return (None, found),
                    }
                }
            }
        }
        (None, found)
    }

    /// The line (from 1) where `key` is set in the file, for a message
    /// about its value: the first line that begins with `key =`.
    pub fn line_of_key(&self, key: &str) -> Option<usize> {
        let text = std::fs::read_to_string(self.file.as_ref()?).ok()?;
        text.lines()
            .position(|l| {
                l.trim_start()
                    .strip_prefix(key)
                    .is_some_and(|rest| rest.trim_start().starts_with('='))
            })
            .map(|i| i + 1)
    }

    /// Relative paths of the file, made relative to `base`.
    fn rebase(&mut self, base: &Path) {
        let paths = [
            &mut self.root,
            &mut self.xferlog,
            &mut self.tls_cert,
            &mut self.tls_key,
            &mut self.catalogs,
        ];
        for p in paths.into_iter().flatten() {
            *p = base.join(&*p);
        }
        for p in &mut self.users_file {
            *p = base.join(&*p);
        }
        for h in &mut self.host {
            if let Some(r) = &mut h.root {
                *r = base.join(&*r);
            }
        }
        if let Some(ca) = self.ldap.as_mut().and_then(|l| l.ca_file.as_mut()) {
            *ca = base.join(&*ca);
        }
        // A relative SQLite path is the configuration file's neighbour.
        if let Some(db) = &mut self.db {
            if let Some(p) = db.strip_prefix("sqlite:").filter(|p| !Path::new(p).is_absolute()) {
                *db = format!("sqlite:{}", base.join(p).display());
            }
        }
        // So is a relative allowed source (one with `..`, or that the
        // joined path cannot hold as text, stays as written: refused).
        for s in self.allowed_sources.iter_mut().flatten() {
            if super::resolve::relative_source(s) {
                if let Ok(joined) = base.join(&*s).into_os_string().into_string() {
                    *s = joined;
                }
            }
        }
    }
}
