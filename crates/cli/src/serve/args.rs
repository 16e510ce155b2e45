//! `babelftp serve`'s flags, and how they lie over the configuration
//! file: each flag given sets the field of [`Settings`] that its key sets
//! (a repeatable flag adds to the file's list where the guide says so), so
//! that the runtime configuration is made in one place,
//! [`Settings::resolve`].

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use anyhow::{bail, Context};
use babelftp_server::config::schema::{self, Settings, UserEntry};
use babelftp_server::config::{self, Config};
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// A TOML configuration file (every option; flags below override it).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Read and check everything (configuration, certificate, accounts
    /// store, users, hooks), print the banner and every problem, then
    /// exit: 0 when there is none, 1 otherwise. Binds no socket.
    #[arg(long)]
    pub check: bool,
    /// Directory served as `/` (created with a short readme if missing)
    /// [default: ftp-root].
    #[arg(long)]
    pub root: Option<PathBuf>,
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
    /// When uploads reach the disk: batch (flushed within a second of the 226, the default), always (before the 226) or never (the kernel decides).
    #[arg(long, value_name = "WHEN", value_parser = ["always", "batch", "never"])]
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

/// A bandwidth as typed: a rate, or `none` (unlimited).
#[derive(Debug, Clone)]
struct Rate(Option<String>);

fn rate_arg(v: &str) -> Result<Rate, String> {
    if v.trim().eq_ignore_ascii_case("none") {
        return Ok(Rate(None));
    }
    babelftp_accounts::parse_rate(v)
        .map(|_| Rate(Some(v.to_owned())))
        .map_err(|_| crate::msg::ts("cli-acct-bad-rate", &[("value", v)]))
}

fn parse_hook_url(s: &str) -> Result<String, String> {
    if s.starts_with("http://") || s.starts_with("https://") {
        Ok(s.to_owned())
    } else {
        Err(crate::msg::ts("cli-hook-bad-url", &[("value", s)]))
    }
}

/// `--listen`: `ADDR:PORT`, `[V6]:PORT`, `HOST:PORT` (every address the
/// name resolves to), or a port alone (on 127.0.0.1, the default address).
fn parse_listen(s: &str) -> Result<Vec<SocketAddr>, String> {
    config::resolve_listen(s).map_err(|e| crate::msg::ts("cli-bad-listen", &[("value", s), ("error", &e)]))
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

/// Addresses already resolved by the flag's parser, as the settings hold
/// them (each an `ADDR:PORT` that resolves to itself).
fn addrs<'a>(list: impl IntoIterator<Item = &'a SocketAddr>) -> Vec<String> {
    list.into_iter().map(SocketAddr::to_string).collect()
}

/// `field = flag`, when the flag is given.
fn set<T: Clone>(field: &mut T, flag: &Option<T>) {
    if let Some(v) = flag {
        *field = v.clone();
    }
}

impl ServeArgs {
    /// The configuration `serve` runs with: the file's settings
    /// (`--config`), each flag given over its key, then resolved.
    pub fn config(&self) -> anyhow::Result<Config> {
        Ok(self.settings()?.resolve()?)
    }

    /// The file's settings (or the defaults) with the flags over them, and
    /// the accounts store of the environment when neither names one
    /// (`BABELFTP_DB`, else `babelftp.db` in the working directory).
    pub fn settings(&self) -> anyhow::Result<Settings> {
        let mut s = match &self.config {
            Some(p) => Settings::load(p)?,
            None => Settings::default(),
        };
        self.overlay(&mut s)?;
        if s.db.is_none() {
            s.db = crate::db::found_url();
        }
        Ok(s)
    }

    /// [`ServeArgs::settings`] for `serve --check`: every mistake of the
    /// file found (each unknown key with its line), then the flags';
    /// the settings when there is none.
    pub fn checked_settings(&self) -> (Option<Settings>, Vec<anyhow::Error>) {
        let (mut s, mut problems): (Option<Settings>, Vec<anyhow::Error>) = match &self.config {
            Some(p) => {
                let (s, errs) = Settings::check(p);
                (s, errs.into_iter().map(anyhow::Error::from).collect())
            }
            None => (Some(Settings::default()), Vec::new()),
        };
        if let Some(st) = &mut s {
            if let Err(e) = self.overlay(st) {
                problems.push(e);
                return (None, problems);
            }
            if st.db.is_none() {
                st.db = crate::db::found_url();
            }
        }
        (s, problems)
    }

    /// Each flag given, over its key. Values are checked here, so that a
    /// mistake names the flag (not the file).
    fn overlay(&self, s: &mut Settings) -> anyhow::Result<()> {
        let a = self;
        if let Some(r) = &a.root {
            s.root = Some(r.clone());
        }
        if !a.listen.is_empty() {
            s.listen = addrs(a.listen.iter().flatten());
        }
        // Accounts.
        for u in &a.users {
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
            s.user.push(UserEntry::clear(name, pw));
        }
        s.users_file.extend(a.users_file.clone());
        if let Some(db) = &a.db {
            s.db = Some(db.clone());
        }
        if let Some(url) = &a.auth_hook {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                bail!("--auth-hook {url:?}: expected http:// or https://");
            }
            s.auth_hook = Some(schema::AuthHook::new(url.clone()));
        }
        if a.anonymous {
            s.anonymous = Some(true);
        }
        if a.no_anonymous {
            s.anonymous = Some(false);
        }
        // Data connections.
        if let Some(r) = &a.passive_ports {
            config::parse_port_range(r).with_context(|| format!("--passive-ports wants LOW-HIGH, got {r:?}"))?;
            s.passive_ports = Some(r.clone());
        }
        if a.passive_address.is_some() {
            s.passive_address = a.passive_address;
        }
        for (net, addr) in &a.passive_address_for {
            s.passive_addresses.insert(net.to_string(), *addr);
        }
        if a.max_passive_per_ip.is_some() {
            s.max_passive_per_ip = a.max_passive_per_ip;
        }
        // Limits.
        set(&mut s.idle_timeout, &a.idle_timeout);
        set(&mut s.max_connections, &a.max_connections);
        set(&mut s.max_per_ip, &a.max_per_ip);
        if let Some(Rate(r)) = &a.download_rate {
            s.download_rate = r.clone();
            s.limits.download_rate = None;
        }
        if let Some(Rate(r)) = &a.upload_rate {
            s.upload_rate = r.clone();
            s.limits.upload_rate = None;
        }
        // Files and TLS.
        if a.xferlog.is_some() {
            s.xferlog = a.xferlog.clone();
        }
        set(&mut s.fsync, &a.fsync);
        if a.tls_cert.is_some() {
            s.tls_cert = a.tls_cert.clone();
        }
        if a.tls_key.is_some() {
            s.tls_key = a.tls_key.clone();
        }
        if !a.implicit_listen.is_empty() {
            s.implicit_listen = addrs(a.implicit_listen.iter().flatten());
        }
        s.tls_required |= a.tls_required;
        // Languages and charsets.
        if let Some(t) = &a.default_lang {
            babelftp_proto::lang::LangTag::parse(t.as_bytes())
                .map_err(|e| anyhow::anyhow!("--default-lang {t:?}: {e}"))?;
            s.default_lang = Some(t.clone());
        }
        if a.catalogs.is_some() {
            s.catalogs = a.catalogs.clone();
        }
        if a.fs_charset.is_some() {
            s.fs_charset = a.fs_charset.clone();
        }
        for d in &a.dir_charsets {
            let Some((dir, label)) = d.split_once('=') else {
                bail!("--dir-charset wants /SUB/DIR=LABEL, got {d:?}");
            };
            s.dir_charsets.insert(dir.to_owned(), label.to_owned());
        }
        if a.legacy_client_charset.is_some() {
            s.legacy_client_charset = a.legacy_client_charset.clone();
        }
        s.mirror |= a.mirror;
        // The other doors, the storage, events.
        s.proxy_protocol_from
            .extend(a.proxy_protocol_from.iter().map(ToString::to_string));
        if let Some(m) = &a.metrics_listen {
            s.metrics_listen = addrs([m]);
        }
        if let Some(m) = &a.admin_listen {
            s.admin_listen = addrs([m]);
        }
        s.admin_insecure_http |= a.admin_insecure_http;
        if !a.http_listen.is_empty() {
            s.http_listen = addrs(a.http_listen.iter().flatten());
        }
        if let Some(u) = &a.s3 {
            let Some(rest) = u.strip_prefix("s3://").filter(|r| !r.is_empty() && !r.starts_with('/')) else {
                bail!("--s3 wants s3://BUCKET[/PREFIX], got {u:?}");
            };
            let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
            s.storage = Some(schema::Storage {
                kind: "s3".into(),
                bucket: Some(bucket.to_owned()),
                prefix: Some(prefix.to_owned()),
                endpoint: a.s3_endpoint.clone(),
                region: a.s3_region.clone(),
                ..schema::Storage::default()
            });
        }
        s.allow_degraded |= a.allow_degraded;
        s.hook.extend(a.hooks.iter().map(|u| schema::EventHook::url(u)));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        serve: ServeArgs,
    }

    /// `serve` with `args`, over the configuration file `file` (TOML).
    fn config(file: &str, args: &[&str]) -> anyhow::Result<Config> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("c.toml");
        std::fs::write(&path, file)?;
        let mut argv = vec!["serve", "--config", path.to_str().unwrap_or_default()];
        argv.extend_from_slice(args);
        let cli = Cli::try_parse_from(argv)?;
        let mut s = Settings::load(&path)?;
        cli.serve.overlay(&mut s)?;
        Ok(s.resolve()?)
    }

    /// Each flag given sets its key's field, over the file.
    #[test]
    fn a_flag_wins_over_its_key() {
        let file = "max_per_ip = 3\nidle_timeout = 9\nlisten = [\"127.0.0.1:21\", \"127.0.0.1:22\"]\nfsync = \"never\"\n[limits]\ndownload_rate = \"1MiB/s\"\n";
        let c = config(file, &[]).unwrap();
        assert_eq!((c.max_per_ip, c.idle_timeout.as_secs(), c.listen.len()), (3, 9, 2));
        assert_eq!(c.download_rate, Some(1 << 20));
        let c = config(
            file,
            &[
                "--max-per-ip",
                "5",
                "--listen",
                "127.0.0.1:2121",
                "--fsync",
                "always",
                "--download-rate",
                "none",
                "--passive-address-for",
                "10.0.0.0/8=10.0.0.5",
            ],
        )
        .unwrap();
        assert_eq!((c.max_per_ip, c.idle_timeout.as_secs()), (5, 9));
        assert_eq!(c.listen, vec!["127.0.0.1:2121".parse().unwrap()]);
        assert_eq!(c.fsync, babelftp_server::storage::fs::Fsync::Always);
        assert_eq!(c.download_rate, None, "--download-rate none: unlimited");
        assert_eq!(
            c.passive_address_for("10.1.2.3".parse().unwrap()),
            Some("10.0.0.5".parse().unwrap())
        );
        let c = config(file, &["--s3", "s3://b/p/", "--s3-region", "eu-west-1"]).unwrap();
        match c.storage {
            babelftp_server::storage::Backend::S3(s3) => {
                assert_eq!((s3.bucket.as_str(), s3.prefix.as_str()), ("b", "p/"));
                assert_eq!(s3.region.as_deref(), Some("eu-west-1"));
            }
            other => panic!("{other:?}"),
        }
    }

    /// Named users turn anonymous off, from the file or the command line,
    /// unless the file or a flag says otherwise.
    #[test]
    fn anonymous_follows_one_rule() {
        let on = |file: &str, args: &[&str]| config(file, args).map(|c| c.anonymous).unwrap();
        assert!(on("", &[]));
        assert!(!on("", &["--user", "a:b"]));
        assert!(on("", &["--user", "a:b", "--anonymous"]));
        assert!(on("anonymous = true\n", &["--user", "a:b"]));
        assert!(!on("anonymous = true\n", &["--no-anonymous"]));
        assert!(!on("", &["--auth-hook", "http://127.0.0.1:1/"]));
        assert!(!on("", &["--db", "sqlite:x.db"]));
    }

    /// A flag's mistake names the flag.
    #[test]
    fn a_flags_mistake_names_the_flag() {
        for (args, says) in [
            (&["--passive-ports", "9-1"][..], "--passive-ports"),
            (&["--user", "nopassword"][..], "--user"),
            (&["--dir-charset", "koi8-r"][..], "--dir-charset"),
            (&["--s3", "s3:///x"][..], "--s3"),
            (&["--auth-hook", "ftp://h/"][..], "--auth-hook"),
        ] {
            let e = format!("{:#}", config("", args).unwrap_err());
            assert!(e.contains(says) && !e.contains("c.toml"), "{args:?}: {e}");
        }
    }
}
