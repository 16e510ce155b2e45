//! `babelftp serve` (run the server) and `babelftp passwd` (hash a password
//! for the users file).

use anyhow::{bail, Context};
use babelftp_server::{Config, Server};

mod args;
mod banner;
mod check;
mod reload;
pub use args::ServeArgs;

/// The text of the readme placed in a newly created default root.
const README: &str = "Welcome to babelftp.\n\nThis directory is served by `babelftp serve`.\nPut files here to share them; names in any script are welcome.\n";

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
/// instead of 63–80 (docs/dev/bench-load.md).
///
/// glibc also raises its mmap threshold (from 128 KiB up to 32 MiB) each
/// time a large block is freed, after which the large blocks (an upload's
/// 1 MiB buffer, a download's) come from the heaps and leave them
/// fragmented, never trimmed while sessions live between the holes; fixed
/// at 256 KiB, a large block is its own mapping, given back when freed:
/// 1,000 busy sessions peaked at 24–26 MiB PSS instead of 31–33
/// (bench/busy.py, issue 47).
///
/// Both can only be set before the process starts (`GLIBC_TUNABLES`), so
/// `serve` starts itself again once with them, each unless the
/// environment already sets it. Other C libraries ignore the variable.
fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::unix::process::CommandExt;
        const ARENAS: &str = "glibc.malloc.arena_max";
        const MMAP: &str = "glibc.malloc.mmap_threshold";
        if std::env::var_os("BABELFTP_ARENAS_SET").is_some() {
            return;
        }
        let current = std::env::var("GLIBC_TUNABLES").unwrap_or_default();
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        let mut tunables: Vec<String> = current.split(':').filter(|t| !t.is_empty()).map(String::from).collect();
        let had = tunables.len();
        if !current.contains(ARENAS) {
            tunables.push(format!("{ARENAS}={cores}"));
        }
        if !current.contains(MMAP) {
            tunables.push(format!("{MMAP}={}", 256 << 10));
        }
        if tunables.len() == had {
            return;
        }
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
            .env("GLIBC_TUNABLES", tunables.join(":"))
            .env("BABELFTP_ARENAS_SET", "1")
            .exec();
        // Not fatal: the server runs, only with glibc's default arenas.
        tracing::debug!(error = %err, "could not restart with a malloc arena limit");
    }
}

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    if args.check {
        init_logging();
        return check::run(&args);
    }
    limit_malloc_arenas();
    init_logging();
    // Kept to read the users again on SIGHUP.
    let reload_args = args.clone();
    let cfg = args.config()?;
    crate::db::warn_if_readable(cfg.db.as_deref());
    let root_named =
        args.root.is_some() || cfg.root != std::path::Path::new(babelftp_server::config::schema::DEFAULT_ROOT);
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
    let server = match rt.block_on(Server::bind(cfg.clone())) {
        Ok(s) => s,
        Err(e) => {
            // A server that did not start leaves nothing behind.
            if created {
                let _ = std::fs::remove_file(cfg.root.join("README.txt"));
                let _ = std::fs::remove_dir(&cfg.root);
            }
            // The accounts store, said in the user's language.
            if let Some(u) = e
                .get_ref()
                .and_then(|r| r.downcast_ref::<babelftp_server::directory::StoreUnopened>())
            {
                let said = crate::msg::ts("cli-db-open", &[("url", &u.url)]);
                return Err(anyhow::anyhow!("{said}: {}", u.why).context(crate::msg::ts("cli-starting", &[])));
            }
            return Err(anyhow::Error::from(e).context(crate::msg::ts("cli-starting", &[])));
        }
    };
    rt.block_on(async move {
        // Before the first line a supervisor may wait for: a SIGHUP from
        // then on reloads, it never kills.
        reload::on_hangup(server.users(), server.directory(), reload_args, cfg.clone());
        for line in banner(&server, &cfg, Some(open_files)).await? {
            say(&line);
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

/// The start-up lines (all but `ready.`): where it serves, what it
/// enforces, who may do what. `open_files`: the limit raised, when the
/// server is to run (`serve --check` raises nothing). A server from
/// [`Server::check`] has no listener: its addresses are the
/// configuration's.
async fn banner(
    server: &Server,
    cfg: &Config,
    open_files: Option<std::io::Result<(u64, u64)>>,
) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::new();
    let checking = open_files.is_none();
    let root = served_root(cfg);
    let (ftp, implicit) = match checking {
        true => (cfg.listen.clone(), cfg.implicit_listen.clone()),
        false => (server.local_addrs(), server.implicit_addrs()),
    };
    for a in ftp {
        out.push(serving_line(&root, "ftp", a));
    }
    for a in implicit {
        out.push(crate::msg::ts(
            "cli-serving-implicit",
            &[("root", &root), ("url", &format!("ftps://{}/", connectable(a)))],
        ));
    }
    // The accounts store (or LDAP, the auth hook) the server opened:
    // its users log in besides --user and --users.
    if let Some(dir) = server.directory() {
        let count = dir.user_count().await?;
        out.push(crate::msg::ts(
            "cli-store",
            &[("store", &dir.describe()), ("count", &count.to_string())],
        ));
    }
    let https = cfg.tls_cert.is_some() && cfg.tls_key.is_some();
    let (metrics, admin, web) = match checking {
        true => (
            cfg.metrics_listen,
            cfg.admin_listen.map(|a| (a, https)),
            cfg.http_listen.iter().map(|a| (*a, https)).collect(),
        ),
        false => (server.metrics_addr(), server.admin_addr(), server.web_addrs()),
    };
    if let Some(a) = metrics {
        out.push(crate::msg::ts("cli-metrics-serving", &[("addr", &a.to_string())]));
    }
    if let Some((a, https)) = admin {
        let scheme = if https { "https" } else { "http" };
        let url = format!("{scheme}://{}/api/v1/", connectable(a));
        out.push(crate::msg::ts("cli-admin-serving", &[("url", &url)]));
    }
    for (a, https) in web {
        let scheme = if https { "https" } else { "http" };
        let url = format!("{scheme}://{}/", connectable(a));
        out.push(crate::msg::ts("cli-web-serving", &[("url", &url)]));
    }
    if let Some(why) = server.degraded() {
        out.push(crate::msg::ts("cli-storage-degraded", &[("reason", &why)]));
    }
    match open_files {
        None => {}
        Some(Ok((from, to))) => {
            if to > from {
                out.push(crate::msg::ts(
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
                out.push(crate::msg::ts(
                    "cli-nofile-capped",
                    &[
                        ("limit", &to.to_string()),
                        ("sessions", &sessions.to_string()),
                        ("max", &cfg.max_connections.to_string()),
                    ],
                ));
            }
        }
        Some(Err(e)) => tracing::warn!(error = %e, "could not read or raise the open-files limit"),
    }
    out.extend(tls_lines(cfg).into_iter().chain(charset_lines(cfg)));
    let (lang, count) = server.reply_languages();
    out.push(crate::msg::ts(
        "cli-language",
        &[("lang", &lang), ("count", &count.to_string())],
    ));
    let missing = server.missing_homes().await;
    out.extend(access_lines(cfg, &missing));
    // A store that answers the count but not the list does not stop the
    // server: said in the log.
    match banner::store_user_lines(server, &root).await {
        Ok(lines) => out.extend(lines),
        Err(e) => tracing::warn!(error = %format!("{e:#}"), "the accounts store's users could not be listed"),
    }
    out.extend(banner::passive_lines(cfg));
    out.extend(banner::limits_lines(cfg));
    out.extend(banner::defender_lines(cfg));
    out.extend(banner::hook_and_xferlog_lines(cfg));
    if cfg.anonymous {
        let first = match checking {
            true => cfg.listen.first().copied(),
            false => server.local_addrs().first().copied(),
        }
        .map(|a| connectable(a).to_string())
        .unwrap_or_default();
        out.push(crate::msg::ts(
            if cfg.anonymous_write {
                "cli-connect-hint-write"
            } else {
                "cli-connect-hint"
            },
            &[("example", &format!("lftp ftp://{first}"))],
        ));
    }
    Ok(out)
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
