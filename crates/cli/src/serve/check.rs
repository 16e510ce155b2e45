//! `babelftp serve --check`: everything `serve` reads (the configuration,
//! the certificate and key, the accounts store, the users and their homes,
//! the hooks, the catalogs), checked without binding a socket; the banner
//! and every problem found, each with its file and line where it has one.

use babelftp_server::config::{schema::Settings, ConfigError};
use babelftp_server::{Config, Server};

use super::{banner, say, ServeArgs};

/// A problem found: its text, `FILE:LINE: ` first when it has a place.
type Problems = Vec<String>;

/// A resolving mistake of the file (`FILE: key …`), given the line of the
/// key it names.
fn located(s: &Settings, e: &ConfigError) -> String {
    if let ConfigError::Invalid { path, message } = e {
        if !path.as_os_str().is_empty() {
            let key: String = message
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if let Some(line) = s.line_of_key(&key).filter(|_| !key.is_empty()) {
                return format!("{}:{line}: {message}", path.display());
            }
        }
    }
    e.to_string()
}

/// The checks that need no server, each on its own, so that several are
/// found at once; what they found is taken out of `cfg`, so that the
/// server's own check goes on with the rest. `false`: the server cannot
/// be checked (no root).
fn files(cfg: &mut Config, problems: &mut Problems, default_root: bool) -> bool {
    let mut root_ok = true;
    // The default root is made at start when missing: no problem.
    if cfg.storage.is_local() && !cfg.root.is_dir() && !default_root {
        problems.push(crate::msg::ts(
            "cli-root-missing",
            &[("path", &cfg.root.display().to_string())],
        ));
        root_ok = false;
    }
    if let (Some(c), Some(k)) = (&cfg.tls_cert, &cfg.tls_key) {
        if let Err(e) = babelftp_server::tls::CertStore::open(c, k) {
            problems.push(e.to_string());
            cfg.tls_cert = None;
            cfg.tls_key = None;
            cfg.tls_required = false;
            cfg.implicit_listen.clear();
        }
    }
    if let Some(x) = &cfg.xferlog {
        // Its directory: the file itself is made at start.
        if let Some(dir) = x.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Err(e) = std::fs::read_dir(dir) {
                problems.push(format!("xferlog {}: {}: {e}", x.display(), dir.display()));
                cfg.xferlog = None;
            }
        }
    }
    root_ok
}

/// The path of a SQLite store `url` names that does not exist yet.
fn new_sqlite(url: &str) -> Option<String> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return None;
    }
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    let plain = !path.is_empty() && !path.starts_with(':') && !path.contains('?') && !path.contains("://");
    (plain && !std::path::Path::new(path).exists()).then(|| path.to_owned())
}

/// Runs the check: the banner on stdout, each problem on stderr, then a
/// summary; an error (exit 1) when any problem was found.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    let mut problems = Problems::new();
    let (settings, mistakes) = args.checked_settings();
    problems.extend(mistakes.iter().map(|e| format!("{e:#}")));
    let cfg = settings.and_then(|s| match s.clone().resolve() {
        Ok(c) => Some(c),
        Err(e) => {
            problems.push(located(&s, &e));
            None
        }
    });
    if let Some(mut cfg) = cfg {
        let default_root = args.root.is_none()
            && cfg.root == std::path::Path::new(babelftp_server::config::schema::DEFAULT_ROOT)
            && !cfg.root.exists();
        if files(&mut cfg, &mut problems, default_root) {
            // A default root to be made at start is checked as the empty
            // directory it will be (its readme aside), made for the check
            // beside the system's temporary files and removed after.
            let mut checked = cfg.clone();
            let scratch =
                default_root.then(|| std::env::temp_dir().join(format!("babelftp-check-{}", std::process::id())));
            if let Some(d) = &scratch {
                std::fs::create_dir_all(d)?;
                checked.root = d.clone();
            }
            // A SQLite store that is not there yet is made at start: a
            // check makes no file, and reads an empty store instead.
            let new_db = checked.db.as_deref().and_then(new_sqlite);
            let scratch_db = new_db.as_ref().map(|path| {
                say(&crate::msg::ts("cli-check-store-new", &[("store", path)]));
                std::env::temp_dir().join(format!("babelftp-check-{}.db", std::process::id()))
            });
            if let Some(p) = &scratch_db {
                checked.db = Some(format!("sqlite:{}", p.display()));
            }
            // The banner names the store the server will make.
            let named = |line: String| match (&scratch_db, &new_db) {
                (Some(s), Some(n)) => line.replace(&s.display().to_string(), n),
                _ => line,
            };
            let rt = tokio::runtime::Runtime::new()?;
            rt.block_on(async {
                match Server::check(checked).await {
                    Ok(server) => match super::banner(&server, &cfg, None).await {
                        Ok(lines) => {
                            say(&crate::msg::ts("cli-check-banner", &[]));
                            for l in lines {
                                say(&named(l));
                            }
                        }
                        Err(e) => problems.push(format!("{e:#}")),
                    },
                    Err(e) => match e
                        .get_ref()
                        .and_then(|r| r.downcast_ref::<babelftp_server::directory::StoreUnopened>())
                    {
                        Some(u) => problems.push(format!(
                            "{}: {}",
                            crate::msg::ts("cli-db-open", &[("url", &u.url)]),
                            u.why
                        )),
                        None => problems.push(e.to_string()),
                    },
                }
            });
            if let Some(d) = &scratch {
                let _ = std::fs::remove_dir(d);
            }
            if let Some(p) = &scratch_db {
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    let mut f = p.clone().into_os_string();
                    f.push(suffix);
                    let _ = std::fs::remove_file(f);
                }
            }
        } else {
            say(&crate::msg::ts("cli-check-banner", &[]));
            for l in banner::passive_lines(&cfg)
                .into_iter()
                .chain(banner::limits_lines(&cfg))
                .chain(banner::defender_lines(&cfg))
                .chain(banner::hook_and_xferlog_lines(&cfg))
            {
                say(&l);
            }
        }
    }
    for p in &problems {
        eprintln!("{}", crate::msg::ts("cli-check-problem", &[("problem", p)]));
    }
    if problems.is_empty() {
        say(&crate::msg::ts("cli-check-clean", &[]));
        return Ok(());
    }
    eprintln!(
        "{}",
        crate::msg::t(
            "cli-check-failed",
            &[("count", babelftp_i18n::lang::Arg::Num(problems.len() as u64))]
        )
    );
    Err(crate::exit::Reported(1).into())
}
