//! `babelftp share create PATH --user NAME … | list [--user NAME] | rm ID`
//! (issue 49): the web view's share links, kept in the accounts store.
//! `create` prints the link (its token is shown once: the store keeps its
//! hash); `list` prints tab-separated lines (id, owner, kind, path,
//! created, expires, uses/limit, password, networks) scripts can cut.

use std::os::unix::ffi::OsStrExt;

use babelftp_accounts::{NewShare, ShareKind};
use clap::{Args, Subcommand};

use crate::exit::Usage;
use crate::msg::ts;

#[derive(Args, Debug)]
pub struct ShareArgs {
    /// The accounts store, as for `babelftp user` [env: BABELFTP_DB] [default: sqlite:babelftp.db].
    #[arg(long, value_name = "URL", global = true)]
    db: Option<String>,
    /// As for `babelftp user`: the `db` of a configuration file (and, for the link, its
    /// http_listen and tls_cert).
    #[arg(long, value_name = "FILE", global = true)]
    config: Option<std::path::PathBuf>,
    #[command(subcommand)]
    cmd: ShareCmd,
}

#[derive(Subcommand, Debug)]
enum ShareCmd {
    /// Make a share link of PATH (in the user's tree, as its FTP and web paths) and print it.
    Create {
        /// The path, absolute, as the user sees it (/docs/report.pdf, /incoming).
        path: std::ffi::OsString,
        /// Whose tree and permissions: the link ends with this account.
        #[arg(long)]
        user: String,
        /// How long the link works (90s, 15m, 2h, 7d) [default: forever].
        #[arg(long, value_name = "DURATION")]
        expires: Option<String>,
        /// Ask for a password (read from standard input, or asked twice on a terminal).
        #[arg(long)]
        password: bool,
        /// How many downloads the link gives.
        #[arg(long, value_name = "N", conflicts_with = "upload")]
        max_downloads: Option<u32>,
        /// An upload link: people put files into the folder PATH.
        #[arg(long)]
        upload: bool,
        /// How many uploads the link takes (with --upload).
        #[arg(long, value_name = "N", requires = "upload")]
        max_uploads: Option<u32>,
        /// Client networks the link works from (192.0.2.0/24, 2001:db8::/32); repeat for several.
        #[arg(long = "allow", value_name = "CIDR")]
        allow: Vec<String>,
        /// The web view's address the link starts with (https://files.example.org) [default: from
        /// --config's http_listen].
        #[arg(long, value_name = "URL")]
        url: Option<String>,
    },
    /// The links (not their tokens), of one user or of everyone.
    List {
        #[arg(long)]
        user: Option<String>,
    },
    /// Remove a link: it answers 410 from then on.
    Rm { id: String },
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// The web view's address: `--url`, else the configuration's first
/// `http_listen` (`https` with `tls_cert`; a wildcard address as
/// `localhost`).
fn base_url(url: Option<String>, config: Option<&std::path::Path>) -> anyhow::Result<Option<String>> {
    if let Some(u) = url {
        return Ok(Some(u.trim_end_matches('/').to_owned()));
    }
    let Some(path) = config else {
        return Ok(None);
    };
    let c = babelftp_server::config::Config::load(path)?;
    Ok(c.http_listen.first().map(|a| {
        let scheme = if c.tls_cert.is_some() { "https" } else { "http" };
        let host = match a.ip() {
            ip if ip.is_unspecified() => "localhost".to_owned(),
            std::net::IpAddr::V6(v6) => format!("[{v6}]"),
            ip => ip.to_string(),
        };
        format!("{scheme}://{host}:{}", a.port())
    }))
}

pub async fn share(a: ShareArgs) -> anyhow::Result<()> {
    let config = a.config.clone();
    let (store, db) = crate::users::open(a.db, a.config).await?;
    let ex = |e| crate::users::explain(e, &db);
    match a.cmd {
        ShareCmd::Create {
            path,
            user,
            expires,
            password,
            max_downloads,
            upload,
            max_uploads,
            allow,
            url,
        } => {
            let raw = path.as_bytes();
            if !raw.starts_with(b"/") || raw.contains(&0) {
                let shown = String::from_utf8_lossy(raw).into_owned();
                return Err(Usage(ts("cli-share-bad-path", &[("value", &shown)])).into());
            }
            let vpath = babelftp_proto::vpath::VPath::root().join(raw).to_bytes();
            let expires_unix = match expires {
                None => None,
                Some(d) => match crate::bans::parse_duration(&d) {
                    Some(secs) => Some(unix_now().saturating_add(i64::try_from(secs.as_secs()).unwrap_or(i64::MAX))),
                    None => return Err(Usage(ts("cli-share-bad-duration", &[("value", &d)])).into()),
                },
            };
            for n in &allow {
                if n.parse::<babelftp_server::config::Cidr>().is_err() {
                    return Err(Usage(ts("cli-share-bad-net", &[("value", n)])).into());
                }
            }
            let base = base_url(url, config.as_deref())?;
            let password = match password {
                true => Some(babelftp_accounts::hash_password(crate::users::read_password()?.as_bytes()).map_err(ex)?),
                false => None,
            };
            let new = NewShare {
                owner: user,
                path: vpath,
                kind: if upload { ShareKind::Upload } else { ShareKind::Download },
                expires_unix,
                password,
                max_uses: max_downloads.or(max_uploads).map(i64::from),
                nets: allow,
            };
            let (made, token) = store.create_share(&new).await.map_err(ex)?;
            let shown = babelftp_proto::display::PlainPath(&made.path).to_string();
            eprintln!(
                "{}",
                ts(
                    "cli-share-created",
                    &[("id", &made.id), ("user", &made.owner), ("path", &shown)]
                )
            );
            match base {
                Some(b) => println!("{b}/s/{token}"),
                None => {
                    eprintln!("{}", ts("cli-share-no-url", &[]));
                    println!("/s/{token}");
                }
            }
        }
        ShareCmd::List { user } => {
            let shares = store.shares(user.as_deref()).await.map_err(ex)?;
            if shares.is_empty() {
                eprintln!("{}", ts("cli-share-none", &[]));
            }
            for s in shares {
                let uses = match s.max_uses {
                    Some(m) => format!("{}/{m}", s.uses),
                    None => s.uses.to_string(),
                };
                println!(
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    s.id,
                    s.owner,
                    s.kind.name(),
                    babelftp_proto::display::PlainPath(&s.path),
                    crate::bans::utc(s.created_unix),
                    s.expires_unix.map_or_else(|| "-".to_owned(), crate::bans::utc),
                    uses,
                    if s.password.is_some() { "password" } else { "-" },
                    if s.nets.is_empty() {
                        "-".to_owned()
                    } else {
                        s.nets.join(",")
                    },
                );
            }
        }
        ShareCmd::Rm { id } => {
            store.remove_share(&id).await.map_err(ex)?;
            println!("{}", ts("cli-share-removed", &[("id", &id)]));
        }
    }
    store.close().await;
    Ok(())
}
