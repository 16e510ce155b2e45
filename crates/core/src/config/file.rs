//! The configuration file: TOML tables as written, turned into a [`Config`].

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use babelftp_proto::lang::LangTag;
use serde::Deserialize;

use super::*;
use crate::auth::{self, Secret};

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    root: Option<PathBuf>,
    listen: Option<OneOrMany>,
    anonymous: Option<bool>,
    anonymous_write: Option<bool>,
    users_file: Option<PathBuf>,
    db: Option<String>,
    auth_hook: Option<FileHook>,
    ldap: Option<FileLdap>,
    defender: Option<FileDefender>,
    passive_ports: Option<String>,
    passive_address: Option<IpAddr>,
    #[serde(default)]
    passive_addresses: std::collections::BTreeMap<String, IpAddr>,
    max_line: Option<usize>,
    idle_timeout: Option<u64>,
    data_timeout: Option<u64>,
    stall_timeout: Option<u64>,
    http_header_timeout: Option<u64>,
    login_fail_delay_ms: Option<u64>,
    upload_end_wait_ms: Option<u64>,
    max_connections: Option<usize>,
    max_per_ip: Option<usize>,
    max_passive_per_ip: Option<usize>,
    status_before_login: Option<bool>,
    allow_degraded: Option<bool>,
    shutdown_grace: Option<u64>,
    xferlog: Option<PathBuf>,
    fsync: Option<String>,
    tls_cert: Option<PathBuf>,
    tls_key: Option<PathBuf>,
    implicit_listen: Option<OneOrMany>,
    tls_required: Option<bool>,
    tls_reuse_required: Option<bool>,
    default_lang: Option<String>,
    catalogs: Option<PathBuf>,
    fs_charset: Option<String>,
    #[serde(default)]
    dir_charsets: std::collections::BTreeMap<String, String>,
    legacy_client_charset: Option<String>,
    mirror: Option<bool>,
    proxy_protocol_from: Option<Vec<String>>,
    metrics_listen: Option<OneOrMany>,
    admin_listen: Option<OneOrMany>,
    http_listen: Option<OneOrMany>,
    storage: Option<FileStorage>,
    download_rate: Option<String>,
    upload_rate: Option<String>,
    limits: Option<FileLimits>,
    #[serde(default)]
    user: Vec<FileUser>,
    #[serde(default)]
    host: Vec<FileHost>,
    node: Option<String>,
    #[serde(default)]
    hook: Vec<FileEventHook>,
    events: Option<FileEvents>,
    allowed_sources: Option<Vec<String>>,
    admin_insecure_http: Option<bool>,
}

/// `[events]`: the outbox's settings.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileEvents {
    max_pending: Option<u64>,
}

/// A `[[hook]]` table (events; not `[auth_hook]`, which decides logins).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileEventHook {
    url: Option<String>,
    command: Option<String>,
    name: Option<String>,
    #[serde(default)]
    events: Vec<String>,
    secret: Option<String>,
    path: Option<String>,
    timeout_ms: Option<u64>,
    max_backoff: Option<u64>,
}

/// A `[[hook]]` table as a hook.
fn event_hook(path: &Path, h: FileEventHook) -> Result<crate::events::HookSpec, ConfigError> {
    use crate::events::{HookSpec, Kind, Target};
    let invalid = |message: String| ConfigError::Invalid {
        path: path.to_owned(),
        message: format!("[[hook]] {message}"),
    };
    let target = match (h.url, h.command) {
        (Some(u), None) if u.starts_with("http://") || u.starts_with("https://") => Target::Url(u),
        (Some(u), None) => return Err(invalid(format!("url {u:?}: expected http:// or https://"))),
        (None, Some(c)) if !c.trim().is_empty() => Target::Command(c),
        (None, Some(_)) => return Err(invalid("command is empty".into())),
        _ => return Err(invalid("needs a url or a command (one of them)".into())),
    };
    let name = match (&h.name, &target) {
        (Some(n), _) => n.clone(),
        (None, Target::Url(u)) => crate::events::hook::without_credentials(u),
        (None, Target::Command(c)) => c.clone(),
    };
    let mut events = Vec::new();
    for e in h.events {
        events.push(Kind::parse(&e).ok_or_else(|| {
            let known: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
            invalid(format!("events: {e:?} is none of {}", known.join(", ")))
        })?);
    }
    let mut spec = HookSpec::url("");
    spec.name = name;
    spec.target = target;
    spec.events = events;
    spec.secret = h.secret;
    spec.path = h.path;
    if let Some(ms) = h.timeout_ms {
        spec.timeout = Duration::from_millis(ms.max(1));
    }
    if let Some(s) = h.max_backoff {
        spec.max_backoff = Duration::from_secs(s.max(1));
    }
    Ok(spec)
}

/// `[limits]`: the server's bandwidth (the same keys may be top-level).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileLimits {
    download_rate: Option<String>,
    upload_rate: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileStorage {
    kind: String,
    bucket: Option<String>,
    endpoint: Option<String>,
    region: Option<String>,
    prefix: Option<String>,
    access_key_id: Option<String>,
    secret_access_key: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileHost {
    name: String,
    root: Option<PathBuf>,
    storage: Option<FileStorage>,
    default_lang: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileHook {
    url: String,
    #[serde(default = "default_hook_timeout")]
    timeout_ms: u64,
}

fn default_hook_timeout() -> u64 {
    5000
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDefender {
    enabled: Option<bool>,
    threshold: Option<u32>,
    window: Option<u64>,
    ban_time: Option<u64>,
    max_ban_time: Option<u64>,
    score_login_failed: Option<u32>,
    score_flood: Option<u32>,
    score_bounce: Option<u32>,
    score_foreign_data: Option<u32>,
    score_long_line: Option<u32>,
    connections_per_second: Option<u32>,
    allow: Option<Vec<String>>,
    ipv6_prefix: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLdap {
    url: String,
    #[serde(default)]
    starttls: bool,
    ca_file: Option<PathBuf>,
    user_dn: Option<String>,
    search_base: Option<String>,
    search_filter: Option<String>,
    bind_dn: Option<String>,
    bind_password: Option<String>,
    group_base: Option<String>,
    group_filter: Option<String>,
    #[serde(default)]
    groups: std::collections::BTreeMap<String, String>,
    default_group: Option<String>,
    name_attribute: Option<String>,
    #[serde(default = "default_hook_timeout")]
    timeout_ms: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileUsers {
    #[serde(default)]
    user: Vec<FileUser>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileUser {
    name: String,
    password: String,
    #[serde(default = "default_home")]
    home: String,
    #[serde(default)]
    write: bool,
}

/// A `[storage]` table (the server's, or a virtual host's) as a back-end.
fn backend(path: &Path, what: &str, st: FileStorage) -> Result<crate::storage::Backend, ConfigError> {
    let invalid = |message: String| ConfigError::Invalid {
        path: path.to_owned(),
        message: format!("{what} {message}"),
    };
    match st.kind.as_str() {
        "fs" | "local" => Ok(crate::storage::Backend::Local),
        "s3" => Ok(crate::storage::Backend::S3(crate::storage::s3::S3Config {
            bucket: st
                .bucket
                .ok_or_else(|| invalid("kind = \"s3\" needs a bucket".into()))?,
            endpoint: st.endpoint,
            region: st.region,
            prefix: st.prefix.unwrap_or_default(),
            access_key_id: st.access_key_id,
            secret_access_key: st.secret_access_key,
        })),
        k => Err(invalid(format!("kind {k:?}: expected \"fs\" or \"s3\""))),
    }
}

/// A rate as written (`"1MiB/s"`, `"500K"`), in octets per second.
fn rate(path: &Path, key: &str, v: Option<String>) -> Result<Option<u64>, ConfigError> {
    v.map(|v| {
        babelftp_accounts::parse_rate(&v).map_err(|_| ConfigError::Invalid {
            path: path.to_owned(),
            message: format!("{key} {v:?}: expected a rate such as \"1MiB/s\""),
        })
    })
    .transpose()
}

fn default_home() -> String {
    "/".into()
}

fn read(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_owned(),
        source,
    })
}

fn users_from(path: &Path, users: Vec<FileUser>) -> Result<Vec<User>, ConfigError> {
    users
        .into_iter()
        .map(|u| {
            if !auth::is_valid_hash(&u.password) {
                return Err(ConfigError::Invalid {
                    path: path.to_owned(),
                    message: format!("user {:?}: password must be a hash from `babelftp passwd`", u.name),
                });
            }
            Ok(User {
                name: u.name.into_bytes(),
                secret: Secret::Hash(u.password),
                home: u.home.into_bytes(),
                write: u.write,
            })
        })
        .collect()
}

/// Reads a users file (`[[user]]` tables).
pub fn load_users(path: &Path) -> Result<Vec<User>, ConfigError> {
    let text = read(path)?;
    let f: FileUsers = toml::from_str(&text).map_err(|e| ConfigError::Parse {
        path: path.to_owned(),
        message: e.to_string(),
    })?;
    users_from(path, f.user)
}

/// One address or a list of them in the configuration file
/// (`listen = "0.0.0.0:2121"` or `listen = ["0.0.0.0:2121", "[::]:2121"]`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    /// Every address, each written as [`resolve_listen`] reads it.
    fn resolve(self, path: &Path, key: &str) -> Result<Vec<SocketAddr>, ConfigError> {
        let list = match self {
            OneOrMany::One(s) => vec![s],
            OneOrMany::Many(v) => v,
        };
        let mut out = Vec::new();
        for s in list {
            out.extend(resolve_listen(&s).map_err(|e| ConfigError::Invalid {
                path: path.to_owned(),
                message: format!("{key} {s:?}: {e} (write ADDR:PORT, HOST:PORT or a PORT)"),
            })?);
        }
        Ok(out)
    }
}

impl Config {
    /// How many passive ports one client address may hold at once:
    /// `max_passive_per_ip` (default `max_per_ip`), and never more than a
    /// quarter of a configured `passive_ports` range, so that a few
    /// sessions from one address cannot take every port (at least 1).
    pub fn passive_cap(&self) -> usize {
        let cap = self.max_passive_per_ip.unwrap_or(self.max_per_ip);
        match &self.passive_ports {
            Some(r) => cap.min((usize::from(r.end() - r.start()) + 1) / 4).max(1),
            None => cap.max(1),
        }
    }

    /// Reads a TOML configuration file over the defaults. Relative paths
    /// in it are relative to the file's directory.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = read(path)?;
        let f: FileConfig = toml::from_str(&text).map_err(|e| ConfigError::Parse {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        let mut c = Config::default();
        if let Some(r) = f.root {
            c.root = base.join(r);
        }
        if let Some(l) = f.listen {
            c.listen = l.resolve(path, "listen")?;
        }
        // With named users, anonymous is off unless the file turns it on.
        let named =
            !f.user.is_empty() || f.users_file.is_some() || f.db.is_some() || f.auth_hook.is_some() || f.ldap.is_some();
        c.auth_hook = match f.auth_hook {
            Some(h) if h.url.starts_with("http://") || h.url.starts_with("https://") => {
                Some(crate::directory::hook::HookConfig {
                    url: h.url,
                    timeout: std::time::Duration::from_millis(h.timeout_ms),
                })
            }
            Some(h) => {
                return Err(ConfigError::Invalid {
                    path: path.to_owned(),
                    message: format!("auth_hook url {:?}: expected http:// or https://", h.url),
                })
            }
            None => None,
        };
        if let Some(d) = f.defender {
            let secs = std::time::Duration::from_secs;
            let def = &mut c.defender;
            def.enabled = d.enabled.unwrap_or(def.enabled);
            def.threshold = d.threshold.unwrap_or(def.threshold).max(1);
            def.window = d.window.map_or(def.window, secs);
            def.ban_time = d.ban_time.map_or(def.ban_time, secs);
            def.max_ban_time = d.max_ban_time.map_or(def.max_ban_time, secs).max(def.ban_time);
            def.score_login_failed = d.score_login_failed.unwrap_or(def.score_login_failed);
            def.score_flood = d.score_flood.unwrap_or(def.score_flood);
            def.score_bounce = d.score_bounce.unwrap_or(def.score_bounce);
            def.score_foreign_data = d.score_foreign_data.unwrap_or(def.score_foreign_data);
            def.score_long_line = d.score_long_line.unwrap_or(def.score_long_line);
            def.connections_per_second = d.connections_per_second.unwrap_or(def.connections_per_second);
            if let Some(p) = d.ipv6_prefix {
                if !(32..=128).contains(&p) {
                    return Err(ConfigError::Invalid {
                        path: path.to_owned(),
                        message: format!(
                            "defender ipv6_prefix = {p}: write 32 to 128 (64: a /64 is one client; 128: each address)"
                        ),
                    });
                }
                def.ipv6_prefix = p;
            }
            // A list given replaces the default (loopback).
            if d.allow.is_some() {
                def.allow.clear();
            }
            for a in d.allow.unwrap_or_default() {
                def.allow
                    .push(a.parse().map_err(|message: String| ConfigError::Invalid {
                        path: path.to_owned(),
                        message: format!("defender allow: {message}"),
                    })?);
            }
        }
        c.ldap = match f.ldap {
            Some(l) => {
                if !(l.url.starts_with("ldap://") || l.url.starts_with("ldaps://")) {
                    return Err(ConfigError::Invalid {
                        path: path.to_owned(),
                        message: format!("ldap url {:?}: expected ldap:// or ldaps://", l.url),
                    });
                }
                if l.user_dn.is_none() && l.search_base.is_none() {
                    return Err(ConfigError::Invalid {
                        path: path.to_owned(),
                        message: "ldap: set user_dn (\"uid={user},ou=people,dc=example,dc=org\") or search_base".into(),
                    });
                }
                let mut cfg = crate::directory::ldap::LdapConfig::new(l.url);
                cfg.starttls = l.starttls;
                cfg.ca_file = l.ca_file.map(|p| base.join(p));
                cfg.user_dn = l.user_dn;
                cfg.search_base = l.search_base;
                if let Some(f) = l.search_filter {
                    cfg.search_filter = f;
                }
                cfg.bind_dn = l.bind_dn;
                cfg.bind_password = l.bind_password;
                cfg.group_base = l.group_base;
                if let Some(f) = l.group_filter {
                    cfg.group_filter = f;
                }
                cfg.groups = l.groups;
                cfg.default_group = l.default_group;
                cfg.timeout = std::time::Duration::from_millis(l.timeout_ms);
                cfg.name_attribute = l.name_attribute;
                // Which attribute names the account: known now, or the
                // file says what to set.
                cfg.naming_attribute().map_err(|e| ConfigError::Invalid {
                    path: path.to_owned(),
                    message: format!("ldap: {e}"),
                })?;
                Some(cfg)
            }
            None => None,
        };
        // A relative SQLite path is the configuration file's neighbour.
        c.db = f.db.map(|d| match d.strip_prefix("sqlite:") {
            Some(p) if !Path::new(p).is_absolute() => format!("sqlite:{}", base.join(p).display()),
            _ => d,
        });
        c.anonymous = f.anonymous.unwrap_or(c.anonymous && !named);
        c.anonymous_write = f.anonymous_write.unwrap_or(c.anonymous_write);
        if let Some(r) = f.passive_ports {
            c.passive_ports = Some(parse_port_range(&r).ok_or_else(|| ConfigError::Invalid {
                path: path.to_owned(),
                message: format!("passive_ports wants \"LOW-HIGH\", got {r:?}"),
            })?);
        }
        c.passive_address = f.passive_address.or(c.passive_address);
        for (net, addr) in f.passive_addresses {
            let net = net.parse().map_err(|message| ConfigError::Invalid {
                path: path.to_owned(),
                message: format!("passive_addresses: {message}"),
            })?;
            c.passive_networks.push((net, addr));
        }
        c.max_line = f.max_line.unwrap_or(c.max_line).max(64);
        if let Some(s) = f.idle_timeout {
            c.idle_timeout = Duration::from_secs(s);
        }
        if let Some(s) = f.data_timeout {
            c.data_timeout = Duration::from_secs(s);
        }
        if let Some(s) = f.stall_timeout {
            c.stall_timeout = Duration::from_secs(s);
        }
        if let Some(s) = f.http_header_timeout {
            c.http_header_timeout = Duration::from_secs(s.max(1));
        }
        if let Some(ms) = f.login_fail_delay_ms {
            c.login_fail_delay = Duration::from_millis(ms);
        }
        if let Some(ms) = f.upload_end_wait_ms {
            c.upload_end_wait = Duration::from_millis(ms);
        }
        c.max_connections = f.max_connections.unwrap_or(c.max_connections);
        c.max_per_ip = f.max_per_ip.unwrap_or(c.max_per_ip);
        c.max_passive_per_ip = f.max_passive_per_ip.or(c.max_passive_per_ip);
        c.status_before_login = f.status_before_login.unwrap_or(c.status_before_login);
        c.allow_degraded = f.allow_degraded.unwrap_or(c.allow_degraded);
        if let Some(s) = f.shutdown_grace {
            c.shutdown_grace = Duration::from_secs(s);
        }
        c.xferlog = f.xferlog.map(|x| base.join(x));
        if let Some(v) = f.fsync {
            c.fsync = parse_fsync(&v).ok_or_else(|| ConfigError::Invalid {
                path: path.to_owned(),
                message: format!("fsync {v:?}: expected \"always\" or \"never\""),
            })?;
        }
        c.tls_cert = f.tls_cert.map(|x| base.join(x));
        c.tls_key = f.tls_key.map(|x| base.join(x));
        if let Some(l) = f.implicit_listen {
            c.implicit_listen = l.resolve(path, "implicit_listen")?;
        }
        if let Some(b) = f.tls_required {
            c.tls_required = b;
        }
        if let Some(b) = f.tls_reuse_required {
            c.tls_reuse_required = b;
        }
        c.catalogs_dir = f.catalogs.map(|x| base.join(x));
        c.fs_charset = f.fs_charset;
        c.dir_charsets = f.dir_charsets.into_iter().collect();
        c.legacy_client_charset = f.legacy_client_charset;
        c.mirror = f.mirror.unwrap_or(false);
        c.metrics_listen = match f.metrics_listen {
            Some(l) => l.resolve(path, "metrics_listen")?.first().copied(),
            None => None,
        };
        c.admin_listen = match f.admin_listen {
            Some(l) => l.resolve(path, "admin_listen")?.first().copied(),
            None => None,
        };
        if let Some(l) = f.http_listen {
            c.http_listen = l.resolve(path, "http_listen")?;
        }
        if let Some(st) = f.storage {
            c.storage = backend(path, "[storage]", st)?;
        }
        let limits = f.limits.unwrap_or_default();
        c.download_rate = rate(path, "download_rate", f.download_rate.or(limits.download_rate))?;
        c.upload_rate = rate(path, "upload_rate", f.upload_rate.or(limits.upload_rate))?;
        for p in f.proxy_protocol_from.unwrap_or_default() {
            c.proxy_protocol_from
                .push(p.parse().map_err(|message| ConfigError::Invalid {
                    path: path.to_owned(),
                    message: format!("proxy_protocol_from: {message}"),
                })?);
        }
        for h in f.host {
            let default_lang = match h.default_lang {
                Some(t) => Some(LangTag::parse(t.as_bytes()).map_err(|e| ConfigError::Invalid {
                    path: path.to_owned(),
                    message: format!("host {:?}: default_lang {t:?}: {e}", h.name),
                })?),
                None => None,
            };
            let storage = match h.storage {
                Some(st) => backend(path, &format!("host {:?}: [host.storage]", h.name), st)?,
                None => crate::storage::Backend::Local,
            };
            let root = match (h.root, storage.is_local()) {
                (Some(r), _) => base.join(r),
                (None, false) => PathBuf::new(),
                (None, true) => {
                    return Err(ConfigError::Invalid {
                        path: path.to_owned(),
                        message: format!("host {:?}: needs a root (or a [host.storage] table)", h.name),
                    })
                }
            };
            c.hosts.push(VirtualHost {
                name: h.name,
                root,
                storage,
                default_lang,
            });
        }
        if let Some(t) = f.default_lang {
            c.default_lang = Some(LangTag::parse(t.as_bytes()).map_err(|e| ConfigError::Invalid {
                path: path.to_owned(),
                message: format!("default_lang {t:?}: {e}"),
            })?);
        }
        c.node = f.node.filter(|n| !n.is_empty());
        if let Some(n) = f.events.and_then(|e| e.max_pending) {
            if n == 0 {
                return Err(ConfigError::Invalid {
                    path: path.to_owned(),
                    message: "[events] max_pending: write a whole number above 0".into(),
                });
            }
            c.events_max_pending = n;
        }
        if let Some(list) = f.allowed_sources {
            let mut sources = Vec::new();
            for s in list {
                // A relative directory is the configuration's neighbour,
                // as root is; `..` is refused everywhere.
                let src = if s.contains("://") || Path::new(&s).is_absolute() {
                    match s.parse::<babelftp_accounts::Source>() {
                        Ok(babelftp_accounts::Source::Dir(d)) => babelftp_accounts::AllowedSources::dir(&d),
                        Ok(other) => Some(other),
                        Err(_) => None,
                    }
                } else if Path::new(&s)
                    .components()
                    .any(|c| matches!(c, std::path::Component::ParentDir))
                    || s.is_empty()
                {
                    None
                } else {
                    babelftp_accounts::AllowedSources::dir(&base.join(&s))
                };
                sources.push(src.ok_or_else(|| ConfigError::Invalid {
                    path: path.to_owned(),
                    message: format!("allowed_sources {s:?}: write an absolute directory, file:///DIR or s3://BUCKET/PREFIX, without .."),
                })?);
            }
            c.allowed_sources = Some(sources);
        }
        c.admin_insecure_http = f.admin_insecure_http.unwrap_or(false);
        for h in f.hook {
            c.hooks.push(event_hook(path, h)?);
        }
        c.users = users_from(path, f.user)?;
        if let Some(u) = f.users_file {
            c.users.extend(load_users(&base.join(u))?);
        }
        Ok(c)
    }
}
