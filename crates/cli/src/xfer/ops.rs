//! `rm`, `mkdir`, `cat` and `chmod`.

use anyhow::Context;
use babelftp_proto::url::FtpUrl;
use clap::Args;

use super::*;
use crate::exit::{NoMatch, Usage};
use crate::msg::ts;
use crate::remote::{Common, Session};

#[derive(Args, Debug)]
#[command(after_help = EXIT_HELP)]
pub struct RmArgs {
    /// ftp://host/path, one or more: a file, or with a trailing / a
    /// directory; the last name may hold * and ? wildcards.
    #[arg(required = true, value_name = "URL")]
    urls: Vec<String>,
    /// Remove directories and everything in them.
    #[arg(short = 'r', long)]
    recursive: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
#[command(after_help = EXIT_HELP)]
pub struct CatArgs {
    /// ftp://host/path/file, one or more (* and ? in the last name).
    #[arg(required = true, value_name = "URL")]
    urls: Vec<String>,
    /// Text mode (TYPE A): CR LF on the wire becomes LF here.
    #[arg(short = 'a', long)]
    ascii: bool,
    #[command(flatten)]
    common: Common,
}

/// `cat URL...`: the files to standard output, one after the other (`get
/// URL... -`, as lftp's cat).
pub async fn cat(a: CatArgs) -> anyhow::Result<()> {
    let mut args = a.urls;
    args.push("-".into());
    get(GetArgs {
        args,
        resume: false,
        ascii: a.ascii,
        common: a.common,
    })
    .await
}

#[derive(Args, Debug)]
#[command(after_help = EXIT_HELP)]
pub struct ChmodArgs {
    /// The permissions, in octal (644, 0755).
    #[arg(value_name = "MODE", value_parser = parse_mode)]
    mode: u32,
    /// ftp://host/path, one or more.
    #[arg(required = true, value_name = "URL")]
    urls: Vec<String>,
    #[command(flatten)]
    common: Common,
}

pub(super) fn parse_mode(s: &str) -> Result<u32, String> {
    u32::from_str_radix(s, 8)
        .ok()
        .filter(|m| *m <= 0o7777 && !s.is_empty() && s.len() <= 4)
        .ok_or_else(|| ts("cli-bad-mode", &[("mode", s)]))
}

/// `chmod MODE URL...`: SITE CHMOD (what lftp's chmod and FileZilla send).
pub async fn chmod(a: ChmodArgs) -> anyhow::Result<()> {
    let urls = parse_urls(&a.urls)?;
    interruptible(each_url(&urls, &a.common, PathOp::Chmod { mode: a.mode })).await
}

#[derive(Args, Debug)]
#[command(after_help = EXIT_HELP)]
pub struct MkdirArgs {
    /// ftp://host/path/, one or more.
    #[arg(required = true, value_name = "URL")]
    urls: Vec<String>,
    /// Make parent directories as needed; an existing directory is no error.
    #[arg(short = 'p', long)]
    parents: bool,
    #[command(flatten)]
    common: Common,
}

/// Removes a remote directory and all it holds (server bytes throughout).
pub(super) fn remove_tree<'a>(
    s: &'a mut Session,
    dir: &'a [u8],
) -> Pin<Box<dyn std::future::Future<Output = anyhow::Result<()>> + 'a>> {
    Box::pin(async move {
        let entries = s.list_raw(Some(dir)).await.with_context(|| shown(s, dir))?;
        // Only the directory's own names: a hostile "../x" is not followed.
        for e in entries.into_iter().filter(|e| is_plain_name(&e.name)) {
            let p = join_remote(dir, &e.name);
            if e.is_dir {
                remove_tree(s, &p).await?;
            } else {
                s.client.delete(&p).await.with_context(|| shown(s, &p))?;
            }
        }
        s.client.rmdir(dir).await.with_context(|| shown(s, dir))?;
        Ok(())
    })
}

pub async fn rm(a: RmArgs) -> anyhow::Result<()> {
    interruptible(rm_all(&a)).await
}

pub(super) async fn rm_all(a: &RmArgs) -> anyhow::Result<()> {
    let urls = parse_urls(&a.urls)?;
    for (_, u) in &urls {
        let p = u.path_bytes();
        if p.iter().all(|&b| b == b'/') {
            let text = String::from_utf8_lossy(&p).into_owned();
            return Err(Usage(ts("cli-x1-rm-top", &[("path", &text)])).into());
        }
    }
    each_url(&urls, &a.common, PathOp::Rm { recursive: a.recursive }).await
}

/// Parses every URL first: a mistake in any is a usage error before
/// anything is sent.
pub(super) fn parse_urls(raws: &[String]) -> anyhow::Result<Vec<(&str, FtpUrl)>> {
    raws.iter().map(|raw| Ok((raw.as_str(), parse_url(raw)?))).collect()
}

/// What `rm` and `mkdir` do to each of their URLs.
#[derive(Clone, Copy)]
pub(super) enum PathOp {
    Rm { recursive: bool },
    Mkdir { parents: bool },
    Chmod { mode: u32 },
}

/// Runs `op` on every URL, one session per server; each failure is
/// reported and the others still go.
pub(super) async fn each_url(urls: &[(&str, FtpUrl)], common: &Common, op: PathOp) -> anyhow::Result<()> {
    let mut sessions = Sessions::new(common);
    let mut failures = Failures::default();
    for (raw, url) in urls {
        let r = async {
            let s = sessions.open(raw, url).await?;
            match op {
                PathOp::Rm { recursive } => rm_one(s, url, recursive).await,
                PathOp::Mkdir { parents } => mkdir_one(s, url, parents).await,
                PathOp::Chmod { mode } => {
                    let path = s.encode(&url.path_bytes());
                    let mut line = format!("CHMOD {mode:o} ").into_bytes();
                    line.extend_from_slice(&path);
                    s.client
                        .run(babelftp_proto::command::Command::Site(line))
                        .await
                        .map(drop)
                        .with_context(|| shown(s, &path))
                }
            }
        }
        .await;
        if let Err(e) = r {
            failures.report(&e);
            sessions.after_error(&e);
        }
    }
    sessions.close().await;
    failures.finish(urls.len(), common.is_quiet())
}

pub(super) async fn rm_one(s: &mut Session, url: &FtpUrl, recursive: bool) -> anyhow::Result<()> {
    let path = url.path_bytes();
    let name = url.name().unwrap_or_default();
    if has_wildcard(name) {
        let dir = dir_of(&path).map(<[u8]>::to_vec);
        let pattern = String::from_utf8_lossy(name).into_owned();
        let entries = s
            .list(dir.as_deref())
            .await
            .with_context(|| dir.as_deref().map(|d| shown(s, d)).unwrap_or_default())?;
        let dir_bytes = dir.as_deref().map(|d| s.encode(d)).unwrap_or_default();
        let mut any = false;
        for e in entries
            .iter()
            .filter(|e| (recursive || !e.is_dir) && is_plain_name(&e.name))
        {
            let text = s
                .text_of(&e.name)
                .unwrap_or_else(|| String::from_utf8_lossy(&s.show(&e.name)).into_owned());
            if crate::shell::wildcard(&pattern, &text) {
                any = true;
                let p = join_remote(&dir_bytes, &e.name);
                if e.is_dir {
                    remove_tree(s, &p).await?;
                } else {
                    s.client.delete(&p).await.with_context(|| shown(s, &p))?;
                }
            }
        }
        if !any {
            let p = String::from_utf8_lossy(&path).into_owned();
            return Err(NoMatch(ts("cli-x1-no-match", &[("pattern", &p)])).into());
        }
        return Ok(());
    }
    if url.is_directory() {
        let trimmed = path.strip_suffix(b"/").unwrap_or(&path);
        let p = s.resolve_file(trimmed).await?;
        if recursive {
            return remove_tree(s, &p).await;
        }
        return s.client.rmdir(&p).await.with_context(|| shown(s, &p));
    }
    let p = s.resolve_file(&path).await?;
    match s.client.delete(&p).await {
        Ok(()) => Ok(()),
        // rm -r NAME: a directory too, as rm -r does.
        Err(e @ babelftp_client::Error::Refused(_)) if recursive => match remove_tree(s, &p).await {
            Ok(()) => Ok(()),
            Err(_) => Err(anyhow::Error::new(e).context(shown(s, &p))),
        },
        Err(e) => Err(anyhow::Error::new(e).context(shown(s, &p))),
    }
}

pub async fn mkdir(a: MkdirArgs) -> anyhow::Result<()> {
    interruptible(mkdir_all(&a)).await
}

pub(super) async fn mkdir_all(a: &MkdirArgs) -> anyhow::Result<()> {
    let urls = parse_urls(&a.urls)?;
    each_url(&urls, &a.common, PathOp::Mkdir { parents: a.parents }).await
}

/// Whether a remote directory exists (CWD there, and back).
pub(super) async fn is_remote_dir(s: &mut Session, p: &[u8]) -> anyhow::Result<bool> {
    let here = s.client.pwd().await?;
    if s.client.cwd(p).await.is_err() {
        return Ok(false);
    }
    s.client.cwd(&here).await?;
    Ok(true)
}

pub(super) async fn mkdir_one(s: &mut Session, url: &FtpUrl, parents: bool) -> anyhow::Result<()> {
    let path = url.path_bytes();
    let path = path.strip_suffix(b"/").unwrap_or(&path).to_vec();
    if !parents {
        let p = s.encode(&path);
        return s.client.mkdir(&p).await.with_context(|| shown(s, &p));
    }
    // Every prefix in turn: a/, a/b/, a/b/c; one that exists is passed.
    let mut prefixes = Vec::new();
    for (i, &b) in path.iter().enumerate() {
        if b == b'/' && i > 0 && path[i - 1] != b'/' {
            prefixes.push(path[..i].to_vec());
        }
    }
    if !path.is_empty() {
        prefixes.push(path.clone());
    }
    for prefix in prefixes {
        let p = s.encode(&prefix);
        if let Err(e) = s.client.mkdir(&p).await {
            if !matches!(e, babelftp_client::Error::Refused(_)) || !is_remote_dir(s, &p).await? {
                return Err(anyhow::Error::new(e).context(shown(s, &p)));
            }
        }
    }
    Ok(())
}
