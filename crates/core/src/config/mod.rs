//! Server configuration: defaults that let `babelftp serve` run with no
//! arguments (`./ftp-root`, read-only anonymous, 127.0.0.1:2121), a TOML
//! file format covering every option, and the users file.
//!
//! One schema: [`schema::Settings`] is the file (serde types, the
//! defaults in [`schema::Settings::default`]); `serve`'s flags are an
//! overlay on it; [`schema::Settings::resolve`] makes the runtime
//! [`Config`] in one place. Services (the accounts store, LDAP, the auth
//! hook: [`crate::directory::Directory`]) are built from a `Config` by
//! whoever runs the server, and never kept in it.
//!
//! ```toml
//! root = "/srv/ftp"
//! listen = ["0.0.0.0:2121", "[::]:2121"]
//! anonymous = true          # default: true, false when users are configured
//! anonymous_write = false
//! users_file = "/etc/babelftp/users.toml"
//! db = "sqlite:/var/lib/babelftp/babelftp.db"   # or "postgres://…": the accounts store
//! auth_hook = { url = "http://127.0.0.1:8080/ftp-auth", timeout_ms = 5000 }
//! passive_ports = "50000-50100"
//! passive_address = "203.0.113.7"
//! passive_addresses = { "10.0.0.0/8" = "10.0.0.5", "172.16.0.0/12" = "172.17.0.1" }  # per client network
//! max_line = 4096
//! idle_timeout = 300          # seconds
//! data_timeout = 30           # seconds
//! stall_timeout = 60          # seconds
//! http_header_timeout = 20    # seconds (web view, admin API, metrics)
//! login_fail_delay_ms = 1000
//! upload_end_wait_ms = 10     # a killed client's control FIN, awaited after an APPE, REST+STOR or STOU
//! max_connections = 512
//! max_per_ip = 32
//! max_passive_per_ip = 32     # passive ports one address holds at once (default: max_per_ip, at most a quarter of passive_ports)
//! status_before_login = false # true: STAT before login names the version and the client's address
//! allow_degraded = false      # true: start when the storage does not answer (banner, /health: degraded)
//! shutdown_grace = 30         # seconds
//! xferlog = "/var/log/babelftp/xferlog"
//! fsync = "batch"             # flushed within 1 s of the 226 (default); "always": before it; "never"
//! tls_cert = "/etc/babelftp/cert.pem" # FTPS (RFC 4217): AUTH TLS
//! tls_key = "/etc/babelftp/key.pem"
//! implicit_listen = ["0.0.0.0:990"]  # implicit FTPS listeners
//! tls_required = false        # true: USER before AUTH 530, clear data 521
//! tls_reuse_required = true   # data connections must resume a TLS session of their client (522); false lets in clients that never resume
//! default_lang = "fr"         # replies before LANG (RFC 2640 4.1)
//! catalogs = "catalogs"       # <tag>/*.ftl: add or override messages
//! fs_charset = "windows-1252" # names on disk (translating server, A.1)
//! legacy_client_charset = "windows-1251"   # clients before LANG/HOST/OPTS UTF8 ON
//! mirror = false              # true: no translation at all
//! proxy_protocol_from = ["10.0.0.5", "10.1.0.0/16"]  # load balancers sending PROXY v1/v2
//! metrics_listen = "127.0.0.1:9121"  # GET /metrics (OpenMetrics), GET /health
//! admin_listen = "127.0.0.1:9122"    # the admin API, /api/v1/ (HTTPS with tls_cert); bearer tokens
//! http_listen = ["[::]:8080"]        # the web view of the same tree (HTTPS with tls_cert)
//!
//! [ldap]                       # LDAP passwords, settings from the store
//! url = "ldaps://ldap.example.org"
//! user_dn = "uid={user},ou=people,dc=example,dc=org"   # or search_base + search_filter
//! group_base = "ou=groups,dc=example,dc=org"
//! groups = { ftp-staff = "staff" }                     # LDAP group → babelftp group
//!
//! [defender]                  # bans (on by default; these are the defaults)
//! enabled = true
//! threshold = 15              # points within `window` that ban
//! window = 300                # seconds
//! ban_time = 900              # seconds; doubled for each ban within a day
//! max_ban_time = 86400
//! score_login_failed = 1
//! score_flood = 1             # each connection over connections_per_second
//! score_bounce = 5            # PORT/EPRT refused: another host, or a port < 1024
//! score_foreign_data = 5      # a passive data connection from another host (it is scored)
//! score_long_line = 5         # a command line longer than max_line
//! connections_per_second = 20
//! allow = ["10.0.0.0/8"]      # never scored nor banned (default: loopback; [] scores it too)
//! ipv6_prefix = 64            # an IPv6 client is its /64 (128: each address); IPv4: each address
//!
//! [limits]                    # bandwidth of the whole server (these keys may also be top-level)
//! download_rate = "100MiB/s"  # all downloads together; a user's own limit applies too
//! upload_rate = "50MiB/s"     # (user set NAME --download-rate/--upload-rate: its sessions together)
//!
//! [storage]                   # omit: the local directory `root`
//! kind = "s3"                 # an S3 bucket through OpenDAL (storage/s3.rs)
//! bucket = "ftp"
//! endpoint = "https://s3.eu-west-1.amazonaws.com"   # or MinIO, Ceph, …
//! region = "eu-west-1"
//! prefix = "site/"            # served as "/"; default: the whole bucket
//! # access_key_id, secret_access_key: default AWS_* variables, ~/.aws, the role
//!
//! [[host]]                    # virtual hosts for HOST (RFC 7151)
//! name = "ftp.example.jp"
//! root = "/srv/ftp-jp"
//! default_lang = "ja"
//!
//! [[host]]                    # a virtual host on another back-end
//! name = "drop.example.com"
//! [host.storage]              # same keys as [storage]; no root needed
//! kind = "s3"
//! bucket = "ftp"
//! prefix = "drop/"
//!
//! [dir_charsets]              # subtrees with their own charset
//! "/ru" = "koi8-r"
//! "/jp" = "shift_jis"
//!
//! node = "ftp1"               # events' `node` (default: the host name)
//!
//! [[hook]]                    # events (the guide's "Events"): a webhook …
//! url = "https://pipeline.example.org/ftp-events"
//! events = ["upload", "rename"]   # default: every event
//! path = "/incoming/**"       # only events on paths that match (*, **, ?)
//! secret = "s3cret"           # X-Babelftp-Signature: sha256=HMAC-SHA256(body)
//! timeout_ms = 10000          # a POST's (or a command's) time limit
//! max_backoff = 60            # seconds between tries at most (1, 2, 4, …)
//! name = "pipeline"           # its name in the outbox (default: url or command)
//!
//! [[hook]]                    # … or a command: the event's JSON on stdin,
//! command = "/usr/local/bin/on-upload"   # BABELFTP_EVENT, BABELFTP_PATH, … set
//! events = ["upload"]
//!
//! [[user]]                    # also the format of users_file
//! name = "alice"
//! password = "$argon2id$v=19$..."   # from `babelftp passwd`
//! home = "/alice"             # below root; the user sees it as "/"
//! write = true
//! ```

use std::net::{IpAddr, SocketAddr};
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::Duration;

use babelftp_proto::lang::LangTag;

use crate::auth::Secret;

/// A configured account.
#[derive(Debug, Clone)]
pub struct User {
    /// Login name (bytes as the client sends them).
    pub name: Vec<u8>,
    /// How the password is kept.
    pub secret: Secret,
    /// The user's root, below the server root (`/` = the whole root).
    pub home: Vec<u8>,
    /// Whether the account may change files.
    pub write: bool,
}

impl User {
    /// A read/write user on the whole root with a clear-text password
    /// (`--user NAME:PASSWORD`).
    pub fn plain(name: &str, password: &str) -> User {
        User {
            name: name.as_bytes().to_vec(),
            secret: Secret::Plain(password.as_bytes().to_vec()),
            home: b"/".to_vec(),
            write: true,
        }
    }
}

/// A virtual host (RFC 7151): selected by HOST before login.
#[derive(Debug, Clone)]
pub struct VirtualHost {
    /// The name clients send (compared without regard to ASCII case).
    pub name: String,
    /// Its root directory (the local back-end).
    pub root: PathBuf,
    /// Its storage: the local directory `root` by default, or any other
    /// back-end (`[host.storage]`, e.g. an S3 bucket or prefix).
    pub storage: crate::storage::Backend,
    /// Its language before LANG; the server's default if unset.
    pub default_lang: Option<LangTag>,
}

/// Everything the server needs to run.
#[derive(Debug, Clone)]
pub struct Config {
    /// The directory served as `/`.
    pub root: PathBuf,
    /// Addresses to listen on (IPv4 and IPv6).
    pub listen: Vec<SocketAddr>,
    /// Whether `anonymous`/`ftp` may log in.
    pub anonymous: bool,
    /// Whether anonymous users may write (off by default).
    pub anonymous_write: bool,
    /// Named accounts.
    pub users: Vec<User>,
    /// The accounts store's URL (`sqlite:PATH`, `postgres://…`), opened
    /// with the auth hook and LDAP into the server's directory
    /// ([`crate::directory::Directory::open`]).
    pub db: Option<String>,
    /// The HTTP auth hook: decides logins of names not in `users`.
    pub auth_hook: Option<crate::directory::hook::HookConfig>,
    /// LDAP: checks the passwords of names not in `users` (`[ldap]`).
    pub ldap: Option<crate::directory::ldap::LdapConfig>,
    /// Bans of addresses that misbehave (`[defender]`; on by default).
    pub defender: crate::defender::DefenderConfig,
    /// Ports for PASV/EPSV; `None` lets the kernel choose.
    pub passive_ports: Option<RangeInclusive<u16>>,
    /// Address announced in 227 replies (behind NAT); default: the
    /// control connection's local address.
    pub passive_address: Option<IpAddr>,
    /// Addresses announced in 227 replies to clients of a network (NAT,
    /// containers): the longest network that holds the client wins, and
    /// `passive_address` answers the others.
    pub passive_networks: Vec<(Cidr, IpAddr)>,
    /// Longest accepted command line.
    pub max_line: usize,
    /// Idle sessions are closed with 421 after this long.
    pub idle_timeout: Duration,
    /// How long to wait for a data connection.
    pub data_timeout: Duration,
    /// A data connection that moves no byte for this long is cut (426),
    /// and a client that reads none of its replies for this long is
    /// disconnected; on the HTTP doors, a download the client stops
    /// reading is cut, and an upload that stops arriving is answered 408.
    pub stall_timeout: Duration,
    /// On the HTTP doors (web view, admin API, metrics): how long a
    /// connection may take to send a request header (the first from the
    /// accept, each next one from the previous answer), and may stay
    /// without a request before it is closed (gracefully: answers under
    /// way finish). At least 1 s.
    pub http_header_timeout: Duration,
    /// Delay before answering a failed login.
    pub login_fail_delay: Duration,
    /// After an upload that cannot be held (APPE, REST+STOR, STOU, an
    /// object store's: see the FTP door's `driver::hold`), how long a
    /// quiet control connection is watched for the FIN of a killed
    /// client before the upload commits (any octet from the client ends
    /// it). A plain STOR on a local disk never waits.
    pub upload_end_wait: Duration,
    /// Most sessions at once; more get 421. Each HTTP door (web view,
    /// admin API, metrics) counts its connections against it too, apart
    /// (more get 503 in clear, a close under TLS).
    pub max_connections: usize,
    /// Most sessions at once from one IP address; more get 421. Each HTTP
    /// door counts its own too, as for `max_connections`.
    pub max_per_ip: usize,
    /// Most passive ports one client address holds at once (PASV/EPSV
    /// beyond it: 425); `None`: `max_per_ip`, never more than a quarter of
    /// a configured `passive_ports` range; a value written wins (see
    /// [`Config::passive_cap`]).
    pub max_passive_per_ip: Option<usize>,
    /// STAT before login names the server's version and the client's
    /// address (off: only the transfer state).
    pub status_before_login: bool,
    /// Start even when the storage does not answer (an S3 bucket that is
    /// missing or refuses the credentials): the banner and `/health` say
    /// so until it does. Off: such a server refuses to start.
    pub allow_degraded: bool,
    /// How long shutdown waits for running transfers.
    pub shutdown_grace: Duration,
    /// Where to append one xferlog line per transfer.
    pub xferlog: Option<PathBuf>,
    /// When uploads reach the disk: before the 226 (`Always`, the
    /// default) or when the kernel likes (`Never`).
    pub fsync: crate::storage::fs::Fsync,
    /// PEM certificate chain for FTPS (with `tls_key`: AUTH TLS offered).
    pub tls_cert: Option<PathBuf>,
    /// PEM private key for FTPS.
    pub tls_key: Option<PathBuf>,
    /// Implicit-FTPS listeners (TLS from the first byte).
    pub implicit_listen: Vec<SocketAddr>,
    /// Refuse USER before AUTH (530) and clear data connections (521).
    pub tls_required: bool,
    /// A protected data connection must resume a TLS session of its
    /// client: of its own FTP session, or of another live one logged in
    /// as the same user from the same address (522 otherwise, naming this
    /// setting); on by default.
    pub tls_reuse_required: bool,
    /// Download bandwidth of the whole server, octets per second (every
    /// session's downloads together; a user's own limit applies too).
    pub download_rate: Option<u64>,
    /// Upload bandwidth of the whole server, octets per second.
    pub upload_rate: Option<u64>,
    /// The language before any LANG (RFC 2640 4.1); English if unset.
    pub default_lang: Option<LangTag>,
    /// A directory of extra or overriding catalogs: `<tag>/*.ftl`.
    pub catalogs_dir: Option<PathBuf>,
    /// Charset of names on disk for the whole root (RFC 2640 A.1, a
    /// translating server); `None`: names are bytes.
    pub fs_charset: Option<String>,
    /// Charsets of subtrees: (`/ru`, `koi8-r`), … (the longest match wins).
    pub dir_charsets: Vec<(String, String)>,
    /// Charset of pathnames from clients that have not sent LANG, HOST or
    /// `OPTS UTF8 ON` (RFC 2640 A.2); `None`: bytes pass through.
    pub legacy_client_charset: Option<String>,
    /// Mirror mode: no translation at all, exact bytes stored and shown
    /// (A.1, last bullet); refuses the three options above.
    pub mirror: bool,
    /// Virtual hosts for HOST (RFC 7151). With none, HOST accepts any name
    /// and keeps the one root.
    pub hosts: Vec<VirtualHost>,
    /// Load balancers whose connections (control and passive data) start
    /// with a PROXY protocol header, v1 or v2, which names the real client
    /// (the FTP door's `proxy`). Empty: no header is ever read.
    pub proxy_protocol_from: Vec<Cidr>,
    /// Where `/metrics` and `/health` are served over HTTP; `None`: nowhere.
    pub metrics_listen: Option<SocketAddr>,
    /// Where the admin API (`/api/v1/`) is served, over HTTPS when the
    /// server has a certificate; `None`: nowhere.
    pub admin_listen: Option<SocketAddr>,
    /// Where the web view is served (browse, download, upload in a
    /// browser), over HTTPS when the server has a certificate; empty:
    /// nowhere.
    pub http_listen: Vec<SocketAddr>,
    /// What serves `/`: the local `root` (the default), or an object store.
    pub storage: crate::storage::Backend,
    /// Event hooks (`[[hook]]`, `serve --hook`).
    pub hooks: Vec<crate::events::HookSpec>,
    /// The events' `node`; `None`: the host name.
    pub node: Option<String>,
    /// `[events] max_pending`: how many events may wait per hook on this
    /// node before the oldest are dropped (failed logins first).
    pub events_max_pending: u64,
    /// `allowed_sources`: where homes and virtual folders set through the
    /// admin API or the `user`/`group` commands may lie; `None`: the
    /// served roots ([`Config::allowed_sources`]).
    pub allowed_sources: Option<Vec<babelftp_accounts::Source>>,
    /// `admin_insecure_http`: serve the admin API over plain HTTP on an
    /// address that is not loopback (else refused at start).
    pub admin_insecure_http: bool,
    /// `[accounts] min_password_length`: the fewest characters of a
    /// password set through the `user` commands or the admin API.
    pub min_password_length: usize,
}

/// `[events] max_pending` by default.
pub const DEFAULT_MAX_PENDING: u64 = 100_000;

impl Config {
    /// The address to announce to a client at `ip` when its network has
    /// one of its own (`passive_networks`, longest prefix first).
    pub fn passive_address_for(&self, ip: IpAddr) -> Option<IpAddr> {
        self.passive_networks
            .iter()
            .filter(|(net, _)| net.contains(ip))
            .max_by_key(|(net, _)| net.prefix)
            .map(|(_, a)| *a)
    }

    /// How many passive ports one client address may hold at once: an
    /// explicit `max_passive_per_ip` as written (the operator's word wins,
    /// even over the range's size: [`Config::passive_cap_exceeds_range`]
    /// says so at start); else `max_per_ip`, never more than a quarter of
    /// a configured `passive_ports` range, so that a few sessions from one
    /// address cannot take every port (at least 1).
    pub fn passive_cap(&self) -> usize {
        if let Some(n) = self.max_passive_per_ip {
            return n.max(1);
        }
        match &self.passive_ports {
            Some(_) => self.max_per_ip.min(self.passive_range_size() / 4).max(1),
            None => self.max_per_ip.max(1),
        }
    }

    /// The number of ports in `passive_ports` (0 when none is configured).
    pub fn passive_range_size(&self) -> usize {
        self.passive_ports
            .as_ref()
            .map_or(0, |r| usize::from(r.end() - r.start()) + 1)
    }

    /// An explicit `max_passive_per_ip` larger than the `passive_ports`
    /// range: `(cap, ports)`, for a warning at start (one address could
    /// then hold every port).
    pub fn passive_cap_exceeds_range(&self) -> Option<(usize, usize)> {
        let n = self.max_passive_per_ip?;
        let size = self.passive_range_size();
        (self.passive_ports.is_some() && n > size).then_some((n, size))
    }

    /// Reads a TOML configuration file over the defaults
    /// ([`Settings::load`], then [`Settings::resolve`]). Relative paths in
    /// it are relative to the file's directory.
    pub fn load(path: &std::path::Path) -> Result<Config, ConfigError> {
        Settings::load(path)?.resolve()
    }

    /// The FTP session's policy ([`babelftp_session::SessionConfig`]):
    /// this configuration's settings for a session, with what the server
    /// built from it (the catalogs, the legacy clients' charset, the
    /// virtual hosts, whether it has a certificate, what its storages can
    /// do).
    pub fn session_config(
        &self,
        catalogs: std::sync::Arc<babelftp_i18n::lang::Catalogs>,
        legacy_charset: Option<babelftp_i18n::Charset>,
        hosts: Vec<babelftp_session::HostInfo>,
        has_tls: bool,
        caps: babelftp_proto::vpath::Capabilities,
    ) -> babelftp_session::SessionConfig {
        babelftp_session::SessionConfig {
            catalogs,
            max_line: self.max_line,
            idle_timeout: self.idle_timeout,
            login_fail_delay: self.login_fail_delay,
            anonymous: self.anonymous,
            anonymous_write: self.anonymous_write,
            passive_address: self.passive_address,
            legacy_charset,
            hosts,
            tls: has_tls.then_some(babelftp_session::TlsPolicy {
                required: self.tls_required,
            }),
            status_before_login: self.status_before_login,
            caps,
        }
    }
}

impl Default for Config {
    /// [`schema::Settings::default`], resolved: `babelftp serve` with no
    /// file and no flag.
    fn default() -> Self {
        match schema::Settings::default().resolve() {
            Ok(c) => c,
            // The defaults are constants that resolve (a unit test says
            // so): nothing read from outside can get here.
            Err(e) => unreachable!("the default settings do not resolve: {e}"),
        }
    }
}

impl Config {
    /// Where homes and virtual folders may lie: `allowed_sources`, else
    /// the served roots (the root, or the S3 bucket and prefix served, and
    /// each `[[host]]`'s).
    pub fn allowed_sources(&self) -> babelftp_accounts::AllowedSources {
        use babelftp_accounts::{AllowedSources, Source};
        if let Some(list) = &self.allowed_sources {
            return AllowedSources::new(list.clone());
        }
        let served = |root: &std::path::Path, st: &crate::storage::Backend| match st {
            crate::storage::Backend::Local => AllowedSources::dir(root),
            crate::storage::Backend::S3(s) => Some(Source::S3 {
                bucket: s.bucket.clone(),
                prefix: s
                    .prefix
                    .split('/')
                    .filter(|c| !c.is_empty())
                    .collect::<Vec<_>>()
                    .join("/"),
            }),
        };
        let mut list: Vec<Source> = std::iter::once(served(&self.root, &self.storage))
            .chain(self.hosts.iter().map(|h| served(&h.root, &h.storage)))
            .flatten()
            .collect();
        list.dedup();
        AllowedSources::new(list)
    }
}

/// A configuration problem, with the file it came from.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid TOML of our schema.
    #[error("{}{message}", at_line(path, *line))]
    Parse {
        /// The file.
        path: PathBuf,
        /// The line (from 1) the parser points at, when it does.
        line: Option<usize>,
        /// The parser's message.
        message: String,
    },
    /// A value is out of range or malformed.
    #[error("{}{message}", origin(path))]
    Invalid {
        /// The file (empty: the defaults and the command line).
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// `FILE: ` before a message about a file's value; nothing before one
/// about the command line's.
fn origin(path: &std::path::Path) -> String {
    match path.as_os_str().is_empty() {
        true => String::new(),
        false => format!("{}: ", path.display()),
    }
}

/// `FILE:LINE: ` (or `FILE: ` without a line), as compilers name a place.
fn at_line(path: &std::path::Path, line: Option<usize>) -> String {
    match line {
        Some(n) => format!("{}:{n}: ", path.display()),
        None => format!("{}: ", path.display()),
    }
}

/// Parses `always` / `never`.
pub fn parse_fsync(s: &str) -> Option<crate::storage::fs::Fsync> {
    match s.trim().to_ascii_lowercase().as_str() {
        "always" => Some(crate::storage::fs::Fsync::Always),
        "batch" => Some(crate::storage::fs::Fsync::Batch),
        "never" => Some(crate::storage::fs::Fsync::Never),
        _ => None,
    }
}

/// Parses `LOW-HIGH`.
pub fn parse_port_range(s: &str) -> Option<RangeInclusive<u16>> {
    let (lo, hi) = s.split_once('-')?;
    let (lo, hi) = (lo.trim().parse::<u16>().ok()?, hi.trim().parse::<u16>().ok()?);
    (lo > 0 && lo <= hi).then_some(lo..=hi)
}

/// A listen address as a person writes it, on the command line or in the
/// configuration file: `ADDR:PORT`, `[V6]:PORT`, `HOST:PORT` (every address
/// the name resolves to), or a port alone (on 127.0.0.1).
pub fn resolve_listen(s: &str) -> Result<Vec<SocketAddr>, String> {
    use std::net::ToSocketAddrs;
    if let Ok(port) = s.parse::<u16>() {
        return Ok(vec![SocketAddr::from(([127, 0, 0, 1], port))]);
    }
    if let Ok(a) = s.parse::<SocketAddr>() {
        return Ok(vec![a]);
    }
    let mut addrs: Vec<SocketAddr> = s.to_socket_addrs().map_err(|e| e.to_string())?.collect();
    addrs.sort();
    addrs.dedup();
    if addrs.is_empty() {
        return Err("no address".into());
    }
    Ok(addrs)
}

/// The charsets a configuration asks for, resolved (unknown labels and
/// mirror mode with charsets are errors).
pub fn charsets(c: &Config) -> Result<(babelftp_i18n::names::CharsetMap, Option<babelftp_i18n::Charset>), String> {
    use babelftp_i18n::Charset;
    let label = |l: &str| Charset::for_label(l).ok_or_else(|| format!("unknown charset label {l:?}"));
    if c.mirror && (c.fs_charset.is_some() || !c.dir_charsets.is_empty() || c.legacy_client_charset.is_some()) {
        return Err("mirror mode stores and shows exact bytes: it cannot be combined with charsets".into());
    }
    let default = c.fs_charset.as_deref().map(label).transpose()?;
    let mut dirs = Vec::new();
    for (dir, l) in &c.dir_charsets {
        dirs.push((dir.clone(), label(l)?));
    }
    let legacy = c.legacy_client_charset.as_deref().map(label).transpose()?;
    Ok((babelftp_i18n::names::CharsetMap::new(default, dirs), legacy))
}

mod cidr;
mod resolve;
pub mod schema;
pub use cidr::Cidr;
pub use resolve::load_users;
pub use schema::Settings;

#[cfg(test)]
mod tests;
