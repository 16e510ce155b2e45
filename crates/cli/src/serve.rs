//! `babelftp serve`: run the FTP server.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};
use babelftp_server::config::User;
use babelftp_server::{Config, Server};
use clap::Args;

/// The text of the readme placed in a newly created default root.
const README: &str = "Welcome to babelftp.\n\nThis directory is served by `babelftp serve`.\nPut files here to share them; names in any script are welcome.\n";

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Directory served as `/` (created with a short readme if missing).
    #[arg(long, default_value = "ftp-root")]
    root: PathBuf,
    /// Address to listen on, IPv4 or IPv6 (repeatable).
    #[arg(long = "listen", value_name = "ADDR:PORT")]
    listen: Vec<SocketAddr>,
    /// A read/write user NAME:PASSWORD on the root (repeatable).
    #[arg(long = "user", value_name = "NAME:PASSWORD")]
    users: Vec<String>,
    /// Refuse anonymous logins.
    #[arg(long)]
    no_anonymous: bool,
    /// Ports for passive data connections.
    #[arg(long, value_name = "LOW-HIGH")]
    passive_ports: Option<String>,
    /// Address announced in PASV replies (behind NAT).
    #[arg(long, value_name = "ADDR")]
    passive_address: Option<IpAddr>,
    /// Seconds before an idle session is closed.
    #[arg(long, default_value_t = 300)]
    idle_timeout: u64,
}

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    init_logging();
    let mut cfg = Config {
        root: args.root.clone(),
        anonymous: !args.no_anonymous,
        passive_address: args.passive_address,
        idle_timeout: Duration::from_secs(args.idle_timeout),
        ..Config::default()
    };
    if !args.listen.is_empty() {
        cfg.listen = args.listen;
    }
    for u in &args.users {
        let Some((name, pw)) = u.split_once(':') else {
            bail!("--user wants NAME:PASSWORD, got {u:?}");
        };
        cfg.users.push(User {
            name: name.as_bytes().to_vec(),
            password: pw.as_bytes().to_vec(),
            write: true,
        });
    }
    if let Some(r) = &args.passive_ports {
        let (lo, hi) = r
            .split_once('-')
            .and_then(|(a, b)| Some((a.parse::<u16>().ok()?, b.parse::<u16>().ok()?)))
            .filter(|(a, b)| a <= b && *a > 0)
            .with_context(|| format!("--passive-ports wants LOW-HIGH, got {r:?}"))?;
        cfg.passive_ports = Some(lo..=hi);
    }
    if !cfg.root.exists() {
        std::fs::create_dir_all(&cfg.root).with_context(|| format!("creating {}", cfg.root.display()))?;
        std::fs::write(cfg.root.join("README.txt"), README)?;
    }
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async move {
        let server = Server::bind(cfg.clone())
            .await
            .context("binding the listen addresses")?;
        for a in server.local_addrs() {
            println!("babelftp serving {} on ftp://{a}/", cfg.root.display());
        }
        if cfg.anonymous {
            println!(
                "connect with any FTP client, user \"anonymous\" (read-only), e.g.: lftp ftp://{}",
                server.local_addrs().first().map(|a| a.to_string()).unwrap_or_default()
            );
        }
        server.run(shutdown_signal(), Duration::from_secs(30)).await?;
        println!("babelftp stopped");
        Ok(())
    })
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
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
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("BABELFTP_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
