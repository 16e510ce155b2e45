//! `babelftp serve` (run the server) and `babelftp passwd` (hash a password
//! for the users file).

use std::io::BufRead;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};
use babelftp_server::config::{self, User};
use babelftp_server::{Config, Server};
use clap::Args;

/// The text of the readme placed in a newly created default root.
const README: &str = "Welcome to babelftp.\n\nThis directory is served by `babelftp serve`.\nPut files here to share them; names in any script are welcome.\n";

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// A TOML configuration file (every option; flags below override it).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Directory served as `/` (created with a short readme if missing)
    /// [default: ftp-root].
    #[arg(long)]
    root: Option<PathBuf>,
    /// Address to listen on, IPv4 or IPv6 (repeatable) [default: 127.0.0.1:2121].
    #[arg(long = "listen", value_name = "ADDR:PORT")]
    listen: Vec<SocketAddr>,
    /// A read/write user NAME:PASSWORD on the root (repeatable).
    #[arg(long = "user", value_name = "NAME:PASSWORD")]
    users: Vec<String>,
    /// A users file: [[user]] tables with name, password (argon2 hash from
    /// `babelftp passwd`), home and write.
    #[arg(long = "users", value_name = "FILE")]
    users_file: Option<PathBuf>,
    /// Refuse anonymous logins.
    #[arg(long)]
    no_anonymous: bool,
    /// Ports for passive data connections.
    #[arg(long, value_name = "LOW-HIGH")]
    passive_ports: Option<String>,
    /// Address announced in PASV replies (behind NAT).
    #[arg(long, value_name = "ADDR")]
    passive_address: Option<IpAddr>,
    /// Seconds before an idle session is closed [default: 300].
    #[arg(long, value_name = "SECS")]
    idle_timeout: Option<u64>,
    /// Most sessions at once [default: 512].
    #[arg(long, value_name = "N")]
    max_connections: Option<usize>,
    /// Most sessions at once from one IP address [default: 32].
    #[arg(long, value_name = "N")]
    max_per_ip: Option<usize>,
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
    /// An implicit-FTPS listener, TLS from the first byte (repeatable).
    #[arg(long = "implicit-listen", value_name = "ADDR:PORT")]
    implicit_listen: Vec<SocketAddr>,
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
        cfg.listen = args.listen;
    }
    if args.no_anonymous {
        cfg.anonymous = false;
    }
    for u in &args.users {
        let Some((name, pw)) = u.split_once(':') else {
            bail!("--user wants NAME:PASSWORD, got {u:?}");
        };
        cfg.users.push(User::plain(name, pw));
    }
    if let Some(f) = &args.users_file {
        cfg.users.extend(config::load_users(f)?);
    }
    if let Some(r) = &args.passive_ports {
        cfg.passive_ports =
            Some(config::parse_port_range(r).with_context(|| format!("--passive-ports wants LOW-HIGH, got {r:?}"))?);
    }
    if let Some(a) = args.passive_address {
        cfg.passive_address = Some(a);
    }
    if let Some(s) = args.idle_timeout {
        cfg.idle_timeout = Duration::from_secs(s);
    }
    if let Some(n) = args.max_connections {
        cfg.max_connections = n;
    }
    if let Some(n) = args.max_per_ip {
        cfg.max_per_ip = n;
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
        cfg.implicit_listen = args.implicit_listen;
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
    Ok(cfg)
}

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    init_logging();
    let cfg = build_config(args)?;
    if !cfg.root.exists() {
        std::fs::create_dir_all(&cfg.root)
            .with_context(|| crate::msg::ts("cli-creating", &[("path", &cfg.root.display().to_string())]))?;
        std::fs::write(cfg.root.join("README.txt"), README)?;
    }
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async move {
        let server = Server::bind(cfg.clone()).await.context("starting the server")?;
        for a in server.local_addrs() {
            println!(
                "{}",
                crate::msg::ts(
                    "cli-serving",
                    &[
                        ("root", &cfg.root.display().to_string()),
                        ("url", &format!("ftp://{a}/"))
                    ]
                )
            );
        }
        if cfg.anonymous {
            let first = server.local_addrs().first().map(|a| a.to_string()).unwrap_or_default();
            println!(
                "{}",
                crate::msg::ts("cli-connect-hint", &[("example", &format!("lftp ftp://{first}"))])
            );
        }
        server.run(shutdown_signal(), cfg.shutdown_grace).await?;
        println!("{}", crate::msg::ts("cli-stopped", &[]));
        Ok(())
    })
}

/// `babelftp passwd`: reads a password from standard input (one line) and
/// prints its argon2 hash for the users file.
pub fn passwd() -> anyhow::Result<()> {
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .context("reading the password")?;
    let pw = line.strip_suffix('\n').unwrap_or(&line);
    let pw = pw.strip_suffix('\r').unwrap_or(pw);
    if pw.is_empty() {
        bail!("empty password");
    }
    let hash = babelftp_server::auth::hash_password(pw.as_bytes()).map_err(anyhow::Error::msg)?;
    println!("{hash}");
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(t) => t,
        Err(_) => {
            let _ = ctrl_c.await;
            return;
        }
    };
    tokio::select! {
        _ = ctrl_c => {}
        _ = term.recv() => {}
    }
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("BABELFTP_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
