//! `babelftp serve` (run the server) and `babelftp passwd` (hash a password
//! for the users file).

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};
use babelftp_server::config::{self, User};
use babelftp_server::{Config, Server};
use clap::Args;

/// The text of the readme placed in a newly created default root.
const README: &str = "Welcome to babelftp.\n\nThis directory is served by `babelftp serve`.\nPut files here to share them; names in any script are welcome.\n";

#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// A TOML configuration file (every option; flags below override it).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Directory served as `/` (created with a short readme if missing)
    /// [default: ftp-root].
    #[arg(long)]
    root: Option<PathBuf>,
    /// Address to listen on: ADDR:PORT (IPv4 or [IPv6]), HOST:PORT (every
    /// address of HOST), or a PORT alone (on 127.0.0.1) (repeatable)
    /// [default: 127.0.0.1:2121].
    #[arg(long = "listen", value_name = "ADDR:PORT", value_parser = parse_listen)]
    listen: Vec<Vec<SocketAddr>>,
    /// A read/write user NAME:PASSWORD on the root (repeatable).
    #[arg(long = "user", value_name = "NAME:PASSWORD")]
    users: Vec<String>,
    /// A users file: [[user]] tables with name, password (argon2 hash from
    /// `babelftp passwd`), home and write.
    #[arg(long = "users", value_name = "FILE")]
    users_file: Option<PathBuf>,
    /// The accounts store: sqlite:PATH or postgres://USER@HOST/DB (also
    /// `db` in the configuration, or BABELFTP_DB) [default: babelftp.db in
    /// the working directory, when it is there].
    #[arg(long, value_name = "URL")]
    db: Option<String>,
    /// An HTTP auth hook: each login of a name not in --user/--users is
    /// POSTed to URL as JSON, whose answer allows it and may set the
    /// account (the guide: "Accounts and permissions").
    #[arg(long, value_name = "URL")]
    auth_hook: Option<String>,
    /// Refuse anonymous logins (the default once --user or --users is given).
    #[arg(long, conflicts_with = "anonymous")]
    no_anonymous: bool,
    /// Allow anonymous logins (read-only) alongside --user/--users.
    #[arg(long)]
    anonymous: bool,
    /// Ports for passive data connections.
    #[arg(long, value_name = "LOW-HIGH")]
    passive_ports: Option<String>,
    /// Address announced in PASV replies (behind NAT).
    #[arg(long, value_name = "ADDR")]
    passive_address: Option<IpAddr>,
    /// Address announced in PASV replies to clients of one network (NAT,
    /// containers): 10.0.0.0/8=10.0.0.5; repeatable, the longest network
    /// wins, --passive-address answers the rest.
    #[arg(long, value_name = "CIDR=ADDR", value_parser = passive_for_arg)]
    passive_address_for: Vec<(config::Cidr, IpAddr)>,
    /// Seconds before an idle session is closed [default: 300].
    #[arg(long, value_name = "SECS")]
    idle_timeout: Option<u64>,
    /// Most sessions at once [default: 512].
    #[arg(long, value_name = "N")]
    max_connections: Option<usize>,
    /// Most sessions at once from one IP address [default: 32].
    #[arg(long, value_name = "N")]
    max_per_ip: Option<usize>,
    /// Most passive ports one address holds at once [default: max-per-ip,
    /// at most a quarter of --passive-ports].
    #[arg(long, value_name = "N")]
    max_passive_per_ip: Option<usize>,
    /// Append one xferlog line per transfer to FILE.
    #[arg(long, value_name = "FILE")]
    xferlog: Option<PathBuf>,
    /// When uploads are synced to disk: always (before the 226, the default) or never.
    #[arg(long, value_name = "WHEN", value_parser = ["always", "never"])]
    fsync: Option<String>,
    /// PEM certificate chain: FTPS (AUTH TLS, RFC 4217) with --tls-key.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// PEM private key of --tls-cert.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// An implicit-FTPS listener, TLS from the first byte, written as for
    /// --listen (repeatable).
    #[arg(long = "implicit-listen", value_name = "ADDR:PORT", value_parser = parse_listen)]
    implicit_listen: Vec<Vec<SocketAddr>>,
    /// Refuse USER before AUTH TLS and clear data connections.
    #[arg(long)]
    tls_required: bool,
    /// Language of replies before LANG (RFC 2640 4.1) [default: en].
    #[arg(long, value_name = "TAG")]
    default_lang: Option<String>,
    /// Directory of extra or overriding message catalogs (<tag>/*.ftl).
    #[arg(long, value_name = "DIR")]
    catalogs: Option<PathBuf>,
    /// Charset of names on disk for the whole root (e.g. windows-1252).
    #[arg(long, value_name = "LABEL")]
    fs_charset: Option<String>,
    /// Charset of one subtree, e.g. /ru=koi8-r (repeatable).
    #[arg(long = "dir-charset", value_name = "/SUB/DIR=LABEL")]
    dir_charsets: Vec<String>,
    /// Charset of clients that have not sent LANG, HOST or OPTS UTF8 ON.
    #[arg(long, value_name = "LABEL")]
    legacy_client_charset: Option<String>,
    /// No translation at all: exact bytes stored and shown.
    #[arg(long)]
    mirror: bool,
    /// A load balancer (address or network, e.g. 10.0.0.5 or 10.1.0.0/16)
    /// whose control and passive data connections start with a PROXY
    /// protocol v1/v2 header naming the client (repeatable).
    #[arg(long = "proxy-protocol-from", value_name = "ADDR[/PREFIX]")]
    proxy_protocol_from: Vec<babelftp_server::config::Cidr>,
    /// Serve an S3 bucket instead of --root: s3://BUCKET[/PREFIX/]
    /// (credentials from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, ~/.aws
    /// or the instance's role).
    #[arg(long, value_name = "s3://BUCKET[/PREFIX]")]
    s3: Option<String>,
    /// The S3 service's URL (MinIO, Ceph, another region…).
    #[arg(long, value_name = "URL", requires = "s3")]
    s3_endpoint: Option<String>,
    /// The S3 region [default: us-east-1].
    #[arg(long, value_name = "REGION", requires = "s3")]
    s3_region: Option<String>,
    /// Start even if the storage does not answer (a missing bucket,
    /// refused credentials): the banner and /health say "degraded" until
    /// it does.
    #[arg(long)]
    allow_degraded: bool,
    /// Serve GET /metrics (Prometheus/OpenMetrics) and GET /health over
    /// HTTP on ADDR:PORT (keep it off the public network).
    #[arg(long, value_name = "ADDR:PORT", value_parser = parse_one_listen)]
    metrics_listen: Option<SocketAddr>,
    /// Serve the admin API (/api/v1/: status, sessions, users, groups, bans)
    /// on ADDR:PORT, over HTTPS when --tls-cert is given; requests need a
    /// token from `babelftp admin token create`.
    #[arg(long, value_name = "ADDR:PORT", value_parser = parse_one_listen)]
    admin_listen: Option<SocketAddr>,
    /// Allow the admin API over plain HTTP (no --tls-cert) on an address
    /// that is not loopback (refused otherwise: the tokens would cross the
    /// network in clear).
    #[arg(long)]
    admin_insecure_http: bool,
    /// Serve the web view of the same tree on ADDR:PORT (repeatable): a
    /// directory is a page, a file a download; the same accounts,
    /// permissions, quotas and bans as FTP; HTTPS when --tls-cert is given.
    #[arg(long, value_name = "ADDR:PORT", value_parser = parse_listen)]
    http_listen: Vec<Vec<SocketAddr>>,
    /// Download bandwidth of the whole server, all sessions together:
    /// 100MiB/s (none: unlimited). A user's own limit applies as well.
    #[arg(long, value_name = "RATE", value_parser = rate_arg)]
    download_rate: Option<Rate>,
    /// Upload bandwidth of the whole server: 50MiB/s (none: unlimited).
    #[arg(long, value_name = "RATE", value_parser = rate_arg)]
    upload_rate: Option<Rate>,
    /// An event webhook: every event (upload, login, …) is POSTed to URL
    /// as JSON, through the outbox (the guide: "Events"; [[hook]] tables in
    /// the configuration for more) (repeatable).
    #[arg(long = "hook", value_name = "URL", value_parser = parse_hook_url)]
    hooks: Vec<String>,
}

/// A bandwidth as typed: octets per second, or `none`.
#[derive(Debug, Clone, Copy)]
struct Rate(Option<u64>);

fn rate_arg(v: &str) -> Result<Rate, String> {
    if v.trim().eq_ignore_ascii_case("none") {
        return Ok(Rate(None));
    }
    babelftp_accounts::parse_rate(v)
        .map(|r| Rate(Some(r)))
        .map_err(|_| crate::msg::ts("cli-acct-bad-rate", &[("value", v)]))
}

fn parse_hook_url(s: &str) -> Result<String, String> {
    if s.starts_with("http://") || s.starts_with("https://") {
        Ok(s.to_owned())
    } else {
        Err(crate::msg::ts("cli-hook-bad-url", &[("value", s)]))
    }
}

fn build_config(args: ServeArgs) -> anyhow::Result<Config> {
    let mut cfg = match &args.config {
        Some(p) => Config::load(p)?,
        None => Config::default(),
    };
    if let Some(r) = args.root {
        cfg.root = r;
    }
    if !args.listen.is_empty() {
        cfg.listen = args.listen.concat();
    }
    for u in &args.users {
        let Some((name, pw)) = u.split_once(':') else {
            bail!("--user wants NAME:PASSWORD, got {u:?}");
        };
        // `--user alice:$PW` with PW unset: a passwordless read/write
        // account, as `babelftp passwd` refuses an empty password.
        if pw.is_empty() {
            bail!(crate::msg::ts("cli-user-empty-password", &[("name", name)]));
        }
        if name.is_empty() {
            bail!(crate::msg::ts("cli-user-empty-name", &[("value", u)]));
        }
        cfg.users.push(User::plain(name, pw));
    }
    if let Some(f) = &args.users_file {
        cfg.users.extend(config::load_users(f)?);
    }
    // Named users on the command line: anonymous is off unless asked for.
    if (!args.users.is_empty() || args.users_file.is_some()) && !args.anonymous {
        cfg.anonymous = false;
    }
    if args.anonymous {
        cfg.anonymous = true;
    }
    if args.no_anonymous {
        cfg.anonymous = false;
    }
    if let Some(r) = &args.passive_ports {
        cfg.passive_ports =
            Some(config::parse_port_range(r).with_context(|| format!("--passive-ports wants LOW-HIGH, got {r:?}"))?);
    }
    if let Some(a) = args.passive_address {
        cfg.passive_address = Some(a);
    }
    cfg.passive_networks.extend(args.passive_address_for);
    if let Some(s) = args.idle_timeout {
        cfg.idle_timeout = Duration::from_secs(s);
    }
    if let Some(n) = args.max_connections {
        cfg.max_connections = n;
    }
    if let Some(n) = args.max_per_ip {
        cfg.max_per_ip = n;
    }
    if let Some(n) = args.max_passive_per_ip {
        cfg.max_passive_per_ip = Some(n);
    }
    if let Some(f) = args.fsync.as_deref().and_then(babelftp_server::config::parse_fsync) {
        cfg.fsync = f;
    }
    if let Some(x) = args.xferlog {
        cfg.xferlog = Some(x);
    }
    if let Some(c) = args.tls_cert {
        cfg.tls_cert = Some(c);
    }
    if let Some(k) = args.tls_key {
        cfg.tls_key = Some(k);
    }
    if !args.implicit_listen.is_empty() {
        cfg.implicit_listen = args.implicit_listen.concat();
    }
    if args.tls_required {
        cfg.tls_required = true;
    }
    if let Some(t) = &args.default_lang {
        cfg.default_lang = Some(
            babelftp_proto::lang::LangTag::parse(t.as_bytes())
                .map_err(|e| anyhow::anyhow!("--default-lang {t:?}: {e}"))?,
        );
    }
    if let Some(d) = args.catalogs {
        cfg.catalogs_dir = Some(d);
    }
    if let Some(l) = args.fs_charset {
        cfg.fs_charset = Some(l);
    }
    for d in &args.dir_charsets {
        let Some((dir, label)) = d.split_once('=') else {
            bail!("--dir-charset wants /SUB/DIR=LABEL, got {d:?}");
        };
        cfg.dir_charsets.push((dir.to_string(), label.to_string()));
    }
    if let Some(l) = args.legacy_client_charset {
        cfg.legacy_client_charset = Some(l);
    }
    if args.mirror {
        cfg.mirror = true;
    }
    cfg.proxy_protocol_from.extend(args.proxy_protocol_from);
    cfg.hooks
        .extend(args.hooks.iter().map(|u| babelftp_server::events::HookSpec::url(u)));
    if let Some(a) = args.metrics_listen {
        cfg.metrics_listen = Some(a);
    }
    if let Some(a) = args.admin_listen {
        cfg.admin_listen = Some(a);
    }
    if args.admin_insecure_http {
        cfg.admin_insecure_http = true;
    }
    if !args.http_listen.is_empty() {
        cfg.http_listen = args.http_listen.concat();
    }
    if let Some(u) = &args.s3 {
        let Some(rest) = u.strip_prefix("s3://").filter(|r| !r.is_empty() && !r.starts_with('/')) else {
            bail!("--s3 wants s3://BUCKET[/PREFIX], got {u:?}");
        };
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        cfg.storage = babelftp_server::storage::Backend::S3(babelftp_server::storage::s3::S3Config {
            bucket: bucket.to_owned(),
            prefix: prefix.to_owned(),
            ..Default::default()
        });
    }
    if args.allow_degraded {
        cfg.allow_degraded = true;
    }
    if let Some(Rate(r)) = args.download_rate {
        cfg.download_rate = r;
    }
    if let Some(Rate(r)) = args.upload_rate {
        cfg.upload_rate = r;
    }
    if let babelftp_server::storage::Backend::S3(s3) = &mut cfg.storage {
        if let Some(e) = &args.s3_endpoint {
            s3.endpoint = Some(e.clone());
        }
        if let Some(r) = &args.s3_region {
            s3.region = Some(r.clone());
        }
    }
    Ok(cfg)
}

/// `--listen`: `ADDR:PORT`, `[V6]:PORT`, `HOST:PORT` (every address the
/// name resolves to), or a port alone (on 127.0.0.1, the default address).
fn parse_listen(s: &str) -> Result<Vec<SocketAddr>, String> {
    babelftp_server::config::resolve_listen(s)
        .map_err(|e| crate::msg::ts("cli-bad-listen", &[("value", s), ("error", &e)]))
}

/// `--passive-address-for CIDR=ADDR`.
fn passive_for_arg(s: &str) -> Result<(config::Cidr, IpAddr), String> {
    let bad = || crate::msg::ts("cli-passive-for-bad", &[("value", s)]);
    let (net, addr) = s.split_once('=').ok_or_else(bad)?;
    let net = net.trim().parse::<config::Cidr>().map_err(|_| bad())?;
    let addr = addr.trim().parse::<IpAddr>().map_err(|_| bad())?;
    Ok((net, addr))
}

/// `--metrics-listen`: the same syntax as `--listen`, its first address.
fn parse_one_listen(s: &str) -> Result<SocketAddr, String> {
    parse_listen(s).and_then(|v| {
        v.first()
            .copied()
            .ok_or_else(|| crate::msg::ts("cli-bad-listen", &[("value", s), ("error", "no address")]))
    })
}

/// The address a client on this machine connects to: a wildcard listen
/// (`0.0.0.0`, `::`) is reached at the loopback address, not at itself.
fn connectable(a: std::net::SocketAddr) -> std::net::SocketAddr {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
    match a.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => (Ipv4Addr::LOCALHOST, a.port()).into(),
        IpAddr::V6(ip) if ip.is_unspecified() => (Ipv6Addr::LOCALHOST, a.port()).into(),
        _ => a,
    }
}

/// `babelftp serving ROOT on URL`; for a wildcard listen, the URL a local
/// client uses and that every address of the machine is served.
fn serving_line(root: &str, scheme: &str, a: std::net::SocketAddr) -> String {
    let url = format!("{scheme}://{}/", connectable(a));
    if a.ip().is_unspecified() {
        let family = if a.is_ipv4() { "IPv4" } else { "IPv6" };
        crate::msg::ts(
            "cli-serving-every",
            &[
                ("root", root),
                ("url", &url),
                ("family", family),
                ("listen", &a.to_string()),
            ],
        )
    } else {
        crate::msg::ts("cli-serving", &[("root", root), ("url", &url)])
    }
}

/// What the banner says of FTPS.
fn tls_lines(cfg: &Config) -> Vec<String> {
    let (Some(cert), Some(_)) = (&cfg.tls_cert, &cfg.tls_key) else {
        return vec![crate::msg::ts("cli-tls-off", &[])];
    };
    let cert = cert.display().to_string();
    vec![crate::msg::ts(
        if cfg.tls_required {
            "cli-tls-required"
        } else {
            "cli-tls-optional"
        },
        &[("cert", &cert)],
    )]
}

/// What the banner says of charsets: on disk, per directory, for legacy
/// clients, or mirror mode.
fn charset_lines(cfg: &Config) -> Vec<String> {
    if cfg.mirror {
        return vec![crate::msg::ts("cli-charsets-mirror", &[])];
    }
    let mut out = Vec::new();
    match &cfg.fs_charset {
        Some(c) => out.push(crate::msg::ts("cli-charsets-disk", &[("charset", c)])),
        None => out.push(crate::msg::ts("cli-charsets-bytes", &[])),
    }
    for (dir, c) in &cfg.dir_charsets {
        out.push(crate::msg::ts("cli-charsets-dir", &[("dir", dir), ("charset", c)]));
    }
    if let Some(c) = &cfg.legacy_client_charset {
        out.push(crate::msg::ts("cli-charsets-legacy", &[("charset", c)]));
    }
    out
}

/// Start-up lines that say who may do what.
fn access_lines(cfg: &Config, missing_homes: &[Vec<u8>]) -> Vec<String> {
    let mut out = vec![crate::msg::ts(
        match (cfg.anonymous, cfg.anonymous_write) {
            (false, _) => "cli-access-anonymous-off",
            (true, false) => "cli-access-anonymous-read",
            (true, true) => "cli-access-anonymous-write",
        },
        &[],
    )];
    for u in &cfg.users {
        let name = babelftp_proto::display::PlainPath(&u.name).to_string();
        let home = babelftp_proto::display::PlainPath(&u.home).to_string();
        out.push(crate::msg::ts(
            if u.write {
                "cli-access-user-write"
            } else {
                "cli-access-user-read"
            },
            &[("name", &name), ("home", &home)],
        ));
        // A home that is not there: the user's logins are refused (530,
        // saying why) until it is. Said now, not found by the user.
        if missing_homes.contains(&u.name) {
            out.push(crate::msg::ts(
                "cli-home-missing",
                &[("name", &name), ("home", &home), ("root", &served_root(cfg))],
            ));
        }
    }
    out
}

/// glibc's malloc keeps one arena per thread, up to 8 per core, and never
/// gives back what a burst of sessions freed in them: after 1,000
/// concurrent sessions the idle server kept 31–49 MiB over its 12 MiB
/// start; with as many arenas as cores, 23–26 MiB, and a peak of 37–44 MiB
/// instead of 63–80 (docs/dev/bench-load.md). The arena limit can only be set
/// before the process starts (`GLIBC_TUNABLES`), so `serve` starts itself
/// again once with it, unless the environment already sets one. Other C
/// libraries ignore the variable.
fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::unix::process::CommandExt;
        const KEY: &str = "glibc.malloc.arena_max";
        let current = std::env::var("GLIBC_TUNABLES").unwrap_or_default();
        if current.contains(KEY) || std::env::var_os("BABELFTP_ARENAS_SET").is_some() {
            return;
        }
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        let tunables = if current.is_empty() {
            format!("{KEY}={cores}")
        } else {
            format!("{current}:{KEY}={cores}")
        };
        // The binary's real path, so that the kernel names the process
        // `babelftp` (ps, top, ss, the journal), with the argv[0] it was
        // started with; /proc/self/exe (this very binary) only when the
        // file was replaced or removed since.
        let exe = std::env::current_exe()
            .ok()
            .filter(|p| p.exists())
            .unwrap_or_else(|| "/proc/self/exe".into());
        let mut argv = std::env::args_os();
        let mut cmd = std::process::Command::new(exe);
        if let Some(arg0) = argv.next() {
            cmd.arg0(arg0);
        }
        let err = cmd
            .args(argv)
            .env("GLIBC_TUNABLES", tunables)
            .env("BABELFTP_ARENAS_SET", "1")
            .exec();
        // Not fatal: the server runs, only with glibc's default arenas.
        tracing::debug!(error = %err, "could not restart with a malloc arena limit");
    }
}

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    limit_malloc_arenas();
    init_logging();
    let root_named = args.root.is_some();
    // Kept to read the users again on SIGHUP.
    let reload_args = args.clone();
    let db_flag = args.db.clone();
    let hook_flag = args.auth_hook.clone();
    let anonymous_asked = args.anonymous;
    let mut cfg = build_config(args)?;
    if let Some(url) = hook_flag {
        cfg.auth_hook = Some(babelftp_server::directory::hook::HookConfig {
            url,
            timeout: std::time::Duration::from_secs(5),
        });
    }
    let root_named = root_named || cfg.root != Config::default().root;
    // Only the default root is made when missing: a root that was named
    // and is not there is a typo, not something to create and serve.
    let created = if !cfg.storage.is_local() || cfg.root.exists() {
        false
    } else if root_named {
        bail!(crate::msg::ts(
            "cli-root-missing",
            &[("path", &cfg.root.display().to_string())]
        ));
    } else {
        std::fs::create_dir_all(&cfg.root)
            .with_context(|| crate::msg::ts("cli-creating", &[("path", &cfg.root.display().to_string())]))?;
        std::fs::write(cfg.root.join("README.txt"), README)?;
        true
    };
    let open_files = babelftp_server::raise_open_files_limit();
    let rt = tokio::runtime::Runtime::new()?;
    // The accounts store: its users log in besides --user and --users, and
    // anonymous is off unless asked for, as with any named users.
    let mut store_line = None;
    let store_url = crate::db::serve_url(db_flag.as_deref(), &cfg);
    if store_url.is_some() || cfg.auth_hook.is_some() || cfg.ldap.is_some() {
        let dir = rt.block_on(crate::db::open_directory(store_url.as_deref(), &cfg))?;
        let count = rt.block_on(dir.user_count())?;
        store_line = Some(crate::msg::ts(
            "cli-store",
            &[("store", &dir.describe()), ("count", &count.to_string())],
        ));
        if !anonymous_asked && cfg.db.is_none() {
            cfg.anonymous = false;
        }
        cfg.directory = Some(dir);
    }
    let server = match rt.block_on(Server::bind(cfg.clone())) {
        Ok(s) => s,
        Err(e) => {
            // A server that did not start leaves nothing behind.
            if created {
                let _ = std::fs::remove_file(cfg.root.join("README.txt"));
                let _ = std::fs::remove_dir(&cfg.root);
            }
            return Err(anyhow::Error::from(e).context(crate::msg::ts("cli-starting", &[])));
        }
    };
    rt.block_on(async move {
        // Before the first line a supervisor may wait for: a SIGHUP from
        // then on reloads, it never kills.
        reload_users_on_hangup(server.users(), reload_args);
        let root = served_root(&cfg);
        for a in server.local_addrs() {
            say(&serving_line(&root, "ftp", a));
        }
        for a in server.implicit_addrs() {
            say(&crate::msg::ts(
                "cli-serving-implicit",
                &[("root", &root), ("url", &format!("ftps://{}/", connectable(a)))],
            ));
        }
        if let Some(line) = &store_line {
            say(line);
        }
        if let Some(a) = server.metrics_addr() {
            say(&crate::msg::ts("cli-metrics-serving", &[("addr", &a.to_string())]));
        }
        if let Some((a, https)) = server.admin_addr() {
            let scheme = if https { "https" } else { "http" };
            let url = format!("{scheme}://{}/api/v1/", connectable(a));
            say(&crate::msg::ts("cli-admin-serving", &[("url", &url)]));
        }
        for (a, https) in server.web_addrs() {
            let scheme = if https { "https" } else { "http" };
            let url = format!("{scheme}://{}/", connectable(a));
            say(&crate::msg::ts("cli-web-serving", &[("url", &url)]));
        }
        if let Some(why) = server.degraded() {
            say(&crate::msg::ts("cli-storage-degraded", &[("reason", &why)]));
        }
        match open_files {
            Ok((from, to)) => {
                if to > from {
                    say(&crate::msg::ts(
                        "cli-nofile-raised",
                        &[("from", &from.to_string()), ("to", &to.to_string())],
                    ));
                }
                // Each HTTP listener (web view, admin API, /metrics) may
                // hold max_connections connections of its own, one
                // descriptor each, beside FTP's.
                let http_doors = cfg.http_listen.len()
                    + usize::from(cfg.admin_listen.is_some())
                    + usize::from(cfg.metrics_listen.is_some());
                let http = (http_doors as u64).saturating_mul(cfg.max_connections as u64);
                let sessions = babelftp_server::sessions_for_open_files(to.saturating_sub(http));
                if sessions < cfg.max_connections as u64 {
                    say(&crate::msg::ts(
                        "cli-nofile-capped",
                        &[
                            ("limit", &to.to_string()),
                            ("sessions", &sessions.to_string()),
                            ("max", &cfg.max_connections.to_string()),
                        ],
                    ));
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not read or raise the open-files limit"),
        }
        for line in tls_lines(&cfg).into_iter().chain(charset_lines(&cfg)) {
            say(&line);
        }
        let (lang, count) = server.reply_languages();
        say(&crate::msg::ts(
            "cli-language",
            &[("lang", &lang), ("count", &count.to_string())],
        ));
        let missing = server.missing_homes().await;
        for line in access_lines(&cfg, &missing) {
            say(&line);
        }
        if cfg.anonymous {
            let first = server
                .local_addrs()
                .first()
                .map(|a| connectable(*a).to_string())
                .unwrap_or_default();
            say(&crate::msg::ts(
                if cfg.anonymous_write {
                    "cli-connect-hint-write"
                } else {
                    "cli-connect-hint"
                },
                &[("example", &format!("lftp ftp://{first}"))],
            ));
        }
        say(&crate::msg::ts(
            "cli-ready",
            &[("grace", &cfg.shutdown_grace.as_secs().to_string())],
        ));
        // The accept loop runs on a worker, not on this thread: a session
        // it starts then begins in that worker's own queue, with no
        // wake-up of another thread per connection (bench/logins.py:
        // 167 -> 133 µs of server CPU per sequential login).
        let grace = cfg.shutdown_grace;
        let signals = stop_signals();
        let draining = move |running: usize, grace: std::time::Duration| {
            if running > 0 {
                say(&crate::msg::t(
                    "cli-stopping-wait",
                    &[
                        ("count", babelftp_i18n::lang::Arg::Num(running as u64)),
                        ("grace", babelftp_i18n::lang::Arg::Num(grace.as_secs())),
                    ],
                ));
            } else {
                say(&crate::msg::ts("cli-stopping", &[]));
            }
        };
        match tokio::spawn(server.run_signals(signals, grace, draining)).await {
            Ok(r) => r?,
            Err(e) => return Err(anyhow::Error::new(std::io::Error::other(e))),
        }
        say(&crate::msg::ts("cli-stopped", &[]));
        Ok(())
    })
}

/// What is served as `/`, for the start-up line.
fn served_root(cfg: &Config) -> String {
    cfg.storage.describe(&cfg.root)
}

/// A line for the operator on stdout. A closed stdout (a supervisor's pipe
/// gone, `serve | head -1`) must not take the server down: println! would
/// panic on EPIPE.
fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// `babelftp passwd`: asks for a password (twice, without echo, on a
/// terminal; else one line of standard input) and prints its argon2 hash
/// for the users file.
pub fn passwd() -> anyhow::Result<()> {
    let pw = crate::login::new_password()?;
    let hash = babelftp_server::auth::hash_password(pw.as_bytes()).map_err(anyhow::Error::msg)?;
    println!("{hash}");
    Ok(())
}

/// On SIGHUP, reads the configuration's users again (the `[[user]]`
/// tables, `users_file`, `--users`, `--user`) and gives them to the
/// server: sessions already logged in go on, the next login sees the new
/// list. A file that no longer reads keeps the old list and says why.
/// Nothing else is reloaded (a new root or listener needs a restart).
fn reload_users_on_hangup(users: babelftp_server::Users, args: ServeArgs) {
    use tokio::signal::unix::{signal, SignalKind};
    let Ok(mut hangup) = signal(SignalKind::hangup()) else {
        tracing::warn!("SIGHUP cannot be caught: users are not reloadable");
        return;
    };
    tokio::spawn(async move {
        while hangup.recv().await.is_some() {
            let args = args.clone();
            // Reading files and parsing hashes: off the async workers.
            let loaded = tokio::task::spawn_blocking(move || build_config(args)).await;
            match loaded {
                Ok(Ok(cfg)) => {
                    let n = users.replace(cfg.users);
                    tracing::info!(users = n, "users reloaded (SIGHUP)");
                    say(&crate::msg::ts("cli-users-reloaded", &[("count", &n.to_string())]));
                }
                Ok(Err(e)) => {
                    tracing::warn!(error = %format!("{e:#}"), "users not reloaded (SIGHUP)");
                    say(&crate::msg::ts(
                        "cli-users-reload-failed",
                        &[("error", &format!("{e:#}"))],
                    ));
                }
                Err(e) => tracing::warn!(error = %e, "users not reloaded (SIGHUP)"),
            }
        }
    });
}

/// SIGINT and SIGTERM, each one a message: the first stops the server
/// gracefully, the second cuts what still runs (and says so).
fn stop_signals() -> tokio::sync::mpsc::Receiver<()> {
    use tokio::signal::unix::{signal, SignalKind};
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    tokio::spawn(async move {
        let (Ok(mut int), Ok(mut term)) = (signal(SignalKind::interrupt()), signal(SignalKind::terminate())) else {
            tracing::warn!("SIGINT/SIGTERM cannot be caught: the server stops only when killed");
            return;
        };
        let mut seen = 0;
        loop {
            tokio::select! {
                _ = int.recv() => {}
                _ = term.recv() => {}
            }
            seen += 1;
            if seen == 2 {
                say(&crate::msg::ts("cli-stopping-now", &[]));
            }
            if tx.send(()).await.is_err() {
                return;
            }
        }
    });
    rx
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("BABELFTP_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Colours only on a terminal: a log file gets plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .event_format(SessionFormat)
        .try_init();
}

/// The log line: `TIME LEVEL session{id=N peer=ADDR}: TARGET: FIELDS`, as
/// tracing-subscriber's full format writes a line inside a span; the
/// session tag comes from the session's task (babelftp_server::logctx),
/// not from a span.
struct SessionFormat;

impl<S, N> tracing_subscriber::fmt::FormatEvent<S, N> for SessionFormat
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    N: for<'a> tracing_subscriber::fmt::FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &tracing_subscriber::fmt::FmtContext<'_, S, N>,
        mut w: tracing_subscriber::fmt::format::Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        use tracing_subscriber::fmt::time::FormatTime as _;
        use tracing_subscriber::fmt::FormatFields as _;
        let meta = event.metadata();
        tracing_subscriber::fmt::time::SystemTime.format_time(&mut w)?;
        let level = *meta.level();
        let colour = match level {
            tracing::Level::ERROR => "31",
            tracing::Level::WARN => "33",
            tracing::Level::INFO => "32",
            tracing::Level::DEBUG => "34",
            tracing::Level::TRACE => "35",
        };
        if w.has_ansi_escapes() {
            write!(w, " \x1b[{colour}m{level:>5}\x1b[0m ")?;
        } else {
            write!(w, " {level:>5} ")?;
        }
        babelftp_server::logctx::with_tag(|tag| match tag {
            Some(t) => write!(w, "{t}: "),
            None => Ok(()),
        })?;
        write!(w, "{}: ", meta.target())?;
        ctx.format_fields(w.by_ref(), event)?;
        writeln!(w)
    }
}
