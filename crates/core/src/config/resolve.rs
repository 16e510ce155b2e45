//! [`Settings`] (the file, with `serve`'s flags over it) made into the
//! runtime [`Config`]: each value checked and converted, and each rule
//! that ties keys together written once, here.

use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use babelftp_proto::lang::LangTag;

use super::schema::{self, Settings, UserEntry};
use super::{parse_fsync, parse_port_range, resolve_listen, Cidr, Config, ConfigError, User, VirtualHost};
use crate::auth::{self, Secret};

/// Builds the errors of one source of settings: its file (none: the
/// defaults and the command line).
struct Origin(PathBuf);

impl Origin {
    fn invalid(&self, message: impl Into<String>) -> ConfigError {
        ConfigError::Invalid {
            path: self.0.clone(),
            message: message.into(),
        }
    }

    /// Every address of a listen key, each written as [`resolve_listen`]
    /// reads it.
    fn addrs(&self, key: &str, list: &[String]) -> Result<Vec<SocketAddr>, ConfigError> {
        let mut out = Vec::new();
        for s in list {
            out.extend(
                resolve_listen(s)
                    .map_err(|e| self.invalid(format!("{key} {s:?}: {e} (write ADDR:PORT, HOST:PORT or a PORT)")))?,
            );
        }
        Ok(out)
    }

    fn cidrs(&self, key: &str, list: &[String]) -> Result<Vec<Cidr>, ConfigError> {
        list.iter()
            .map(|s| s.parse().map_err(|m: String| self.invalid(format!("{key}: {m}"))))
            .collect()
    }

    fn lang(&self, what: &str, tag: &str) -> Result<LangTag, ConfigError> {
        LangTag::parse(tag.as_bytes()).map_err(|e| self.invalid(format!("{what}default_lang {tag:?}: {e}")))
    }

    /// A rate as written (`"1MiB/s"`, `"500K"`), in octets per second.
    fn rate(&self, key: &str, v: Option<String>) -> Result<Option<u64>, ConfigError> {
        v.map(|v| {
            babelftp_accounts::parse_rate(&v)
                .map_err(|_| self.invalid(format!("{key} {v:?}: expected a rate such as \"1MiB/s\"")))
        })
        .transpose()
    }
}

impl Settings {
    /// The runtime configuration: the one place where the settings (the
    /// file's, each flag given over its key) become what the server runs
    /// with. Files these settings name (`users_file`, `--users`) are read
    /// here.
    pub fn resolve(self) -> Result<Config, ConfigError> {
        let o = Origin(self.file.clone().unwrap_or_default());
        // Anonymous logins are on unless named accounts are configured (a
        // user, a users file, an accounts store, an auth hook, LDAP); an
        // explicit `anonymous` (the file's key, a flag) wins.
        let named = !self.user.is_empty()
            || !self.users_file.is_empty()
            || self.db.is_some()
            || self.auth_hook.is_some()
            || self.ldap.is_some();
        let passive_ports = match &self.passive_ports {
            Some(r) => Some(
                parse_port_range(r).ok_or_else(|| o.invalid(format!("passive_ports wants \"LOW-HIGH\", got {r:?}")))?,
            ),
            None => None,
        };
        let mut passive_networks = Vec::new();
        for (net, addr) in &self.passive_addresses {
            let net = net
                .parse()
                .map_err(|m: String| o.invalid(format!("passive_addresses: {m}")))?;
            passive_networks.push((net, *addr));
        }
        let fsync = parse_fsync(&self.fsync).ok_or_else(|| {
            o.invalid(format!(
                "fsync {:?}: expected \"always\", \"batch\" or \"never\"",
                self.fsync
            ))
        })?;
        let storage = match self.storage {
            Some(st) => backend(&o, "[storage]", st)?,
            None => crate::storage::Backend::Local,
        };
        let events_max_pending = match self.events.max_pending {
            0 => return Err(o.invalid("[events] max_pending: write a whole number above 0")),
            n => n,
        };
        let mut hooks = Vec::new();
        for h in self.hook {
            hooks.push(event_hook(&o, h)?);
        }
        let mut hosts = Vec::new();
        for h in self.host {
            hosts.push(host(&o, h)?);
        }
        let allowed_sources = match &self.allowed_sources {
            Some(list) => Some(list.iter().map(|s| source(&o, s)).collect::<Result<_, _>>()?),
            None => None,
        };
        let mut users = users(&o, self.user)?;
        for f in &self.users_file {
            users.extend(super::load_users(f)?);
        }
        Ok(Config {
            root: self.root.unwrap_or_else(|| PathBuf::from(schema::DEFAULT_ROOT)),
            listen: o.addrs("listen", &self.listen)?,
            anonymous: self.anonymous.unwrap_or(!named),
            anonymous_write: self.anonymous_write,
            users,
            db: self.db,
            auth_hook: match self.auth_hook {
                Some(h) if h.url.starts_with("http://") || h.url.starts_with("https://") => {
                    Some(crate::directory::hook::HookConfig {
                        url: h.url,
                        timeout: Duration::from_millis(h.timeout_ms),
                    })
                }
                Some(h) => return Err(o.invalid(format!("auth_hook url {:?}: expected http:// or https://", h.url))),
                None => None,
            },
            ldap: self.ldap.map(|l| ldap(&o, l)).transpose()?,
            defender: defender(&o, self.defender)?,
            passive_ports,
            passive_address: self.passive_address,
            passive_networks,
            max_line: self.max_line.max(64),
            idle_timeout: Duration::from_secs(self.idle_timeout),
            data_timeout: Duration::from_secs(self.data_timeout),
            stall_timeout: Duration::from_secs(self.stall_timeout),
            http_header_timeout: Duration::from_secs(self.http_header_timeout.max(1)),
            login_fail_delay: Duration::from_millis(self.login_fail_delay_ms),
            upload_end_wait: Duration::from_millis(self.upload_end_wait_ms),
            max_connections: self.max_connections,
            max_per_ip: self.max_per_ip,
            max_passive_per_ip: self.max_passive_per_ip,
            status_before_login: self.status_before_login,
            allow_degraded: self.allow_degraded,
            shutdown_grace: Duration::from_secs(self.shutdown_grace),
            xferlog: self.xferlog,
            fsync,
            tls_cert: self.tls_cert,
            tls_key: self.tls_key,
            implicit_listen: o.addrs("implicit_listen", &self.implicit_listen)?,
            tls_required: self.tls_required,
            tls_reuse_required: self.tls_reuse_required,
            download_rate: o.rate("download_rate", self.download_rate.or(self.limits.download_rate))?,
            upload_rate: o.rate("upload_rate", self.upload_rate.or(self.limits.upload_rate))?,
            default_lang: self.default_lang.map(|t| o.lang("", &t)).transpose()?,
            catalogs_dir: self.catalogs,
            fs_charset: self.fs_charset,
            dir_charsets: self.dir_charsets.into_iter().collect(),
            legacy_client_charset: self.legacy_client_charset,
            mirror: self.mirror,
            hosts,
            proxy_protocol_from: o.cidrs("proxy_protocol_from", &self.proxy_protocol_from)?,
            metrics_listen: o.addrs("metrics_listen", &self.metrics_listen)?.first().copied(),
            admin_listen: o.addrs("admin_listen", &self.admin_listen)?.first().copied(),
            http_listen: o.addrs("http_listen", &self.http_listen)?,
            storage,
            hooks,
            node: self.node.filter(|n| !n.is_empty()),
            events_max_pending,
            allowed_sources,
            admin_insecure_http: self.admin_insecure_http,
            min_password_length: self.accounts.min_password_length,
        })
    }
}

/// `[[user]]` tables (their password a hash) and `--user` (in clear).
fn users(o: &Origin, list: Vec<UserEntry>) -> Result<Vec<User>, ConfigError> {
    list.into_iter()
        .map(|u| {
            let secret = if u.clear {
                Secret::Plain(u.password.into_bytes())
            } else if auth::is_valid_hash(&u.password) {
                Secret::Hash(u.password)
            } else {
                return Err(o.invalid(format!(
                    "user {:?}: password must be a hash from `babelftp passwd`",
                    u.name
                )));
            };
            Ok(User {
                name: u.name.into_bytes(),
                secret,
                home: u.home.into_bytes(),
                write: u.write,
            })
        })
        .collect()
}

/// Reads a users file (`[[user]]` tables).
pub fn load_users(path: &Path) -> Result<Vec<User>, ConfigError> {
    let f: schema::UsersFile = schema::parse(path, &schema::read(path)?)?;
    users(&Origin(path.to_owned()), f.user)
}

/// A `[storage]` table (the server's, or a virtual host's) as a back-end.
fn backend(o: &Origin, what: &str, st: schema::Storage) -> Result<crate::storage::Backend, ConfigError> {
    match st.kind.as_str() {
        "fs" | "local" => Ok(crate::storage::Backend::Local),
        "s3" => Ok(crate::storage::Backend::S3(crate::storage::s3::S3Config {
            bucket: st
                .bucket
                .ok_or_else(|| o.invalid(format!("{what} kind = \"s3\" needs a bucket")))?,
            endpoint: st.endpoint,
            region: st.region,
            prefix: st.prefix.unwrap_or_default(),
            access_key_id: st.access_key_id,
            secret_access_key: st.secret_access_key,
        })),
        k => Err(o.invalid(format!("{what} kind {k:?}: expected \"fs\" or \"s3\""))),
    }
}

/// A `[[host]]` table: its root, or another back-end.
fn host(o: &Origin, h: schema::Host) -> Result<VirtualHost, ConfigError> {
    let default_lang = match &h.default_lang {
        Some(t) => Some(o.lang(&format!("host {:?}: ", h.name), t)?),
        None => None,
    };
    let storage = match h.storage {
        Some(st) => backend(o, &format!("host {:?}: [host.storage]", h.name), st)?,
        None => crate::storage::Backend::Local,
    };
    let root = match (h.root, storage.is_local()) {
        (Some(r), _) => r,
        (None, false) => PathBuf::new(),
        (None, true) => return Err(o.invalid(format!("host {:?}: needs a root (or a [host.storage] table)", h.name))),
    };
    Ok(VirtualHost {
        name: h.name,
        root,
        storage,
        default_lang,
    })
}

/// A `[[hook]]` table (or `--hook`) as a hook.
fn event_hook(o: &Origin, h: schema::EventHook) -> Result<crate::events::HookSpec, ConfigError> {
    use crate::events::{HookSpec, Kind, Target};
    let invalid = |message: String| o.invalid(format!("[[hook]] {message}"));
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

/// `[defender]` over the defender's defaults.
fn defender(o: &Origin, d: schema::Defender) -> Result<crate::defender::DefenderConfig, ConfigError> {
    let secs = Duration::from_secs;
    let mut def = crate::defender::DefenderConfig::default();
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
            return Err(o.invalid(format!(
                "defender ipv6_prefix = {p}: write 32 to 128 (64: a /64 is one client; 128: each address)"
            )));
        }
        def.ipv6_prefix = p;
    }
    // A list given replaces the default (loopback).
    if let Some(allow) = d.allow {
        def.allow = o.cidrs("defender allow", &allow)?;
    }
    Ok(def)
}

/// `[ldap]` over LDAP's defaults.
fn ldap(o: &Origin, l: schema::Ldap) -> Result<crate::directory::ldap::LdapConfig, ConfigError> {
    if !(l.url.starts_with("ldap://") || l.url.starts_with("ldaps://")) {
        return Err(o.invalid(format!("ldap url {:?}: expected ldap:// or ldaps://", l.url)));
    }
    if l.user_dn.is_none() && l.search_base.is_none() {
        return Err(o.invalid("ldap: set user_dn (\"uid={user},ou=people,dc=example,dc=org\") or search_base"));
    }
    let mut cfg = crate::directory::ldap::LdapConfig::new(l.url);
    cfg.starttls = l.starttls;
    cfg.ca_file = l.ca_file;
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
    if let Some(ms) = l.timeout_ms {
        cfg.timeout = Duration::from_millis(ms);
    }
    cfg.name_attribute = l.name_attribute;
    // Which attribute names the account: known now, or the file says
    // what to set.
    cfg.naming_attribute().map_err(|e| o.invalid(format!("ldap: {e}")))?;
    Ok(cfg)
}

/// Whether an `allowed_sources` entry is a relative directory that may
/// be joined to a base: not a URL, not absolute, not empty, and no `..`
/// (refused everywhere).
pub(super) fn relative_source(s: &str) -> bool {
    !(s.is_empty()
        || s.contains("://")
        || Path::new(s).is_absolute()
        || Path::new(s).components().any(|c| matches!(c, Component::ParentDir)))
}

/// One `allowed_sources` entry: an absolute directory (or one relative to
/// the file it was read from, joined when it was read, else to the working
/// directory), `file:///DIR` or `s3://BUCKET/PREFIX`, without `..`.
fn source(o: &Origin, s: &str) -> Result<babelftp_accounts::Source, ConfigError> {
    use babelftp_accounts::{AllowedSources, Source};
    let src = if s.contains("://") || Path::new(s).is_absolute() {
        match s.parse::<Source>() {
            Ok(Source::Dir(d)) => AllowedSources::dir(&d),
            Ok(other) => Some(other),
            Err(_) => None,
        }
    } else if relative_source(s) {
        AllowedSources::dir(Path::new(s))
    } else {
        None
    };
    src.ok_or_else(|| {
        o.invalid(format!(
            "allowed_sources {s:?}: write an absolute directory, file:///DIR or s3://BUCKET/PREFIX, without .."
        ))
    })
}
