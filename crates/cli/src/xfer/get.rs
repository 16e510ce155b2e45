//! `get`: downloads to files, directories or standard output.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use anyhow::Context;
use babelftp_proto::url::FtpUrl;
use clap::Args;

use super::*;
use crate::exit::{BadResume, Local, NoMatch, Usage};
use crate::msg::ts;
use crate::remote::{Common, Session, Shown};

// ---------------------------------------------------------------- get

#[derive(Args, Debug)]
#[command(after_help = EXIT_HELP, override_usage = "babelftp get [OPTIONS] URL... [DEST]")]
pub struct GetArgs {
    /// ftp://host/path/file, one or more (the last name may hold * and ?
    /// wildcards: every matching file); then, optionally, DEST: a file, a
    /// directory or - (standard output). Several files go to a directory
    /// (default: here) or to -.
    #[arg(required = true, value_name = "URL")]
    pub(super) args: Vec<String>,
    /// Resume a partial local file (REST); a failed transfer keeps what
    /// arrived, for the next -c.
    #[arg(short = 'c', long = "continue", conflicts_with = "ascii")]
    pub(super) resume: bool,
    /// Text mode (TYPE A): CR LF on the wire becomes LF here.
    #[arg(short = 'a', long)]
    pub(super) ascii: bool,
    #[command(flatten)]
    pub(super) common: Common,
}

/// Where downloads go.
#[derive(Debug, Clone)]
pub(super) enum Dest {
    Stdout,
    /// A directory (every file keeps its name there).
    Dir(PathBuf),
    /// One file.
    File(PathBuf),
}

/// One file to fetch.
pub(super) struct Fetch {
    remote: Vec<u8>,
    /// The local name (from the URL, or from the listing for wildcards).
    local: OsString,
    /// Size, when already known (a listing).
    size: Option<u64>,
}

pub async fn get(a: GetArgs) -> anyhow::Result<()> {
    interruptible(get_all(&a)).await
}

pub(super) async fn get_all(a: &GetArgs) -> anyhow::Result<()> {
    let mut args: Vec<&str> = a.args.iter().map(String::as_str).collect();
    let dest_arg = match args.last() {
        Some(l) if args.len() > 1 && !is_url(l) => args.pop(),
        _ => None,
    };
    let urls: Vec<(&str, FtpUrl)> = args
        .iter()
        .map(|raw| Ok((*raw, parse_url(raw)?)))
        .collect::<anyhow::Result<_>>()?;
    let mut many = urls.len() > 1;
    for (_, u) in &urls {
        match u.name() {
            Some(n) if !n.is_empty() => many |= has_wildcard(n),
            _ => return Err(Usage(ts("cli-url-names-no-file", &[])).into()),
        }
    }
    let dest = match dest_arg {
        Some("-") => Dest::Stdout,
        Some(d) if Path::new(d).is_dir() => Dest::Dir(PathBuf::from(d)),
        // `get 'ftp://h/*.txt' dl/`: a destination written as a directory
        // that is not there yet is made, as wget -P and lftp's get -O do.
        Some(d) if d.ends_with('/') && !Path::new(d).exists() => {
            std::fs::create_dir_all(d)
                .map_err(|e| anyhow::Error::new(crate::exit::Local::write(ts("cli-creating", &[("path", d)]), e)))?;
            Dest::Dir(PathBuf::from(d))
        }
        Some(d) if many => return Err(Usage(ts("cli-x1-many-need-dir", &[("dest", d)])).into()),
        Some(d) => Dest::File(PathBuf::from(d)),
        None => Dest::Dir(PathBuf::new()),
    };
    if a.resume && matches!(dest, Dest::Stdout) {
        return Err(Usage(ts("cli-x1-resume-needs-file", &[])).into());
    }
    let mut sessions = Sessions::new(&a.common);
    let mut failures = Failures::default();
    let mut total = 0;
    for (raw, url) in &urls {
        let r = async {
            let s = sessions.open(raw, url).await?;
            if a.ascii {
                s.client.set_ascii(true).await?;
            }
            let fetches = plan_get(s, url).await?;
            Ok::<_, anyhow::Error>(fetches)
        }
        .await;
        let fetches = match r {
            Ok(f) => f,
            Err(e) => {
                total += 1;
                failures.report(&e);
                sessions.after_error(&e);
                continue;
            }
        };
        for f in fetches {
            total += 1;
            let r = match sessions.cur.as_mut() {
                Some((_, s)) => fetch(s, &f, &dest, a).await,
                None => Err(anyhow::anyhow!("no session")),
            };
            if let Err(e) = r {
                failures.report(&e);
                sessions.after_error(&e);
                if sessions.cur.is_none() {
                    break;
                }
            }
        }
    }
    sessions.close().await;
    failures.finish(total, a.common.is_quiet())
}

/// The files a URL names: itself, or the matches of its wildcards.
pub(super) async fn plan_get(s: &mut Session, url: &FtpUrl) -> anyhow::Result<Vec<Fetch>> {
    let path = url.path_bytes();
    let name = url.name().unwrap_or_default().to_vec();
    if has_wildcard(&name) {
        let dir = dir_of(&path).map(<[u8]>::to_vec);
        let pattern = String::from_utf8_lossy(&name).into_owned();
        let entries = s
            .list(dir.as_deref())
            .await
            .with_context(|| dir.as_deref().map(|d| shown(s, d)).unwrap_or_default())?;
        let dir_bytes = dir.as_deref().map(|d| s.encode(d)).unwrap_or_default();
        let mut out = Vec::new();
        for e in entries.iter().filter(|e| !e.is_dir) {
            let text = s
                .text_of(&e.name)
                .unwrap_or_else(|| String::from_utf8_lossy(&s.show(&e.name)).into_owned());
            let local = s.local_name(&e.name);
            // A listed name is one name in this directory: never a path
            // (a hostile listing's "../x" must not write outside DEST).
            if !is_plain_name(&e.name) || !is_plain_name(&local) {
                continue;
            }
            if crate::shell::wildcard(&pattern, &text) {
                out.push(Fetch {
                    remote: join_remote(&dir_bytes, &e.name),
                    local: OsString::from_vec(local),
                    size: e.size,
                });
            }
        }
        if out.is_empty() {
            let p = String::from_utf8_lossy(&path).into_owned();
            return Err(NoMatch(ts("cli-x1-no-match", &[("pattern", &p)])).into());
        }
        return Ok(out);
    }
    let remote = s.resolve_file(&path).await?;
    // The URL's name is the user's text when it is UTF-8; raw %HH bytes
    // are the server's and are decoded with its charset.
    let local = if std::str::from_utf8(&name).is_ok() {
        name.clone()
    } else {
        s.local_name(&name)
    };
    Ok(vec![Fetch {
        remote,
        local: OsString::from_vec(local),
        size: None,
    }])
}

/// Whether `path` is there and is neither a regular file nor a directory
/// (a FIFO, a device): downloads write into it in place.
pub(super) fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// The hidden temporary name beside `dest`.
pub(super) fn temp_beside(dest: &Path) -> PathBuf {
    let mut name = OsString::from(".");
    name.push(dest.file_name().unwrap_or(OsStr::new("download")));
    name.push(format!(".babelftp-{}.part", std::process::id()));
    dest.with_file_name(name)
}

/// Removes what a killed download of `dest` left beside it: the
/// `.NAME.babelftp-PID.part` of a process that no longer runs (SIGKILL,
/// a crash, a power cut cleans nothing up itself). A part of a download
/// still running in another process is left alone.
pub(super) fn remove_stale_parts(dest: &Path) {
    let (Some(dir), Some(name)) = (dest.parent(), dest.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let mut prefix = b".".to_vec();
    prefix.extend_from_slice(name.as_bytes());
    prefix.extend_from_slice(b".babelftp-");
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let n = e.file_name();
        let Some(pid) = n
            .as_bytes()
            .strip_prefix(prefix.as_slice())
            .and_then(|r| r.strip_suffix(b".part"))
            .and_then(|p| std::str::from_utf8(p).ok())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

pub(super) async fn fetch(s: &mut Session, f: &Fetch, dest: &Dest, a: &GetArgs) -> anyhow::Result<()> {
    let remote_shown = shown(s, &f.remote);
    let size = match f.size {
        Some(n) => Some(n),
        None => s.client.size(&f.remote).await?,
    };
    let path = match dest {
        Dest::Stdout => {
            let shown_bar = Shown::start(size, 0, s.quiet());
            let mut out = Watch::new(tokio::io::stdout());
            let r = s
                .client
                .retr(&f.remote, 0, &mut out, &mut |n| shown_bar.update(n))
                .await;
            shown_bar.clear();
            let failed = out.failed;
            r.map_err(|e| local_side(e, failed, true, || ts("cli-x1-writing-stdout", &[])))
                .with_context(|| remote_shown.clone())?;
            return Ok(());
        }
        Dest::Dir(_) if !is_plain_name(f.local.as_bytes()) => {
            return Err(Usage(ts("cli-url-names-no-file", &[])).into());
        }
        Dest::Dir(d) => d.join(&f.local),
        Dest::File(p) => p.clone(),
    };
    if a.resume {
        return fetch_resume(s, f, size, &path, &remote_shown).await;
    }
    download(s, &f.remote, size, &path).await.map(drop)
}

/// Downloads `remote` to the local `path` without touching it until the
/// transfer is whole: into a hidden temporary file beside it, renamed
/// over it at the end (its permissions kept; a symlink's target is what
/// is replaced); a failure, or the future being dropped (Ctrl-C), removes
/// the temporary file. A progress bar and the summary line unless `-q`.
/// For every command that writes a downloaded file (mirror and the shell
/// can use it too). Returns the octets received.
pub(crate) async fn download(s: &mut Session, remote: &[u8], size: Option<u64>, path: &Path) -> anyhow::Result<u64> {
    let display = path.display().to_string();
    let remote_shown = shown(s, remote);
    let target = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path).unwrap_or(path.to_path_buf()),
        _ => path.to_path_buf(),
    };
    // A FIFO, a terminal, /dev/null: written in place (nothing to replace
    // whole, no directory to put a temporary file in). Anything else: a
    // temporary file beside it, renamed over it when complete.
    let special = is_special(&target);
    if !special {
        remove_stale_parts(&target);
    }
    let tmp = if special { target.clone() } else { temp_beside(&target) };
    let file = if special {
        tokio::fs::OpenOptions::new().write(true).open(&tmp).await
    } else {
        tokio::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .await
    }
    .map_err(|e| Local::write(ts("cli-creating", &[("path", &display)]), e))?;
    let mut scratch = Scratch {
        path: tmp.clone(),
        only_if_empty: false,
        keep: special,
    };
    let bar = Shown::start(size, 0, s.quiet());
    let mut out = Watch::new(file);
    let r = s.client.retr(remote, 0, &mut out, &mut |n| bar.update(n)).await;
    let failed = out.failed;
    let n = match r {
        Ok(n) => n,
        Err(e) => {
            bar.clear();
            return Err(local_side(e, failed, true, || {
                ts("cli-x1-writing", &[("path", &display)])
            }))
            .with_context(|| remote_shown.clone());
        }
    };
    if !special {
        let file = out.inner;
        file.sync_all()
            .await
            .map_err(|e| Local::write(ts("cli-x1-writing", &[("path", &display)]), e))?;
        drop(file);
        if let Ok(m) = std::fs::metadata(&target) {
            std::fs::set_permissions(&tmp, m.permissions()).ok();
        }
        std::fs::rename(&tmp, &target).map_err(|e| Local::write(ts("cli-x1-writing", &[("path", &display)]), e))?;
        scratch.keep = true;
    }
    bar.done(n, &display);
    Ok(n)
}

/// `get -c`: continues the destination itself.
pub(super) async fn fetch_resume(
    s: &mut Session,
    f: &Fetch,
    size: Option<u64>,
    path: &Path,
    remote_shown: &str,
) -> anyhow::Result<()> {
    let display = path.display().to_string();
    let existed = path.exists();
    let offset = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    if let Some(size) = size {
        if offset > size {
            return Err(BadResume(ts(
                "cli-x1-resume-larger",
                &[
                    ("dest", &display),
                    ("have", &offset.to_string()),
                    ("src", remote_shown),
                    ("size", &size.to_string()),
                ],
            ))
            .into());
        }
        if offset == size && existed {
            if !s.quiet() {
                eprintln!(
                    "{}",
                    ts("cli-x1-complete", &[("dest", &display), ("bytes", &size.to_string())])
                );
            }
            return Ok(());
        }
    }
    let file = tokio::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .await
        .map_err(|e| Local::write(ts("cli-opening", &[("path", &display)]), e))?;
    // A file this run created is removed if nothing arrives; a partial
    // one is kept for the next -c.
    let _scratch = Scratch {
        path: path.to_path_buf(),
        only_if_empty: true,
        keep: existed,
    };
    let bar = Shown::start(size, offset, s.quiet());
    let mut out = Watch::new(file);
    let r = s.client.retr(&f.remote, offset, &mut out, &mut |n| bar.update(n)).await;
    let failed = out.failed;
    match r {
        Ok(n) => {
            bar.done(n, &display);
            Ok(())
        }
        Err(e) => {
            bar.clear();
            Err(local_side(e, failed, true, || {
                ts("cli-x1-writing", &[("path", &display)])
            }))
            .with_context(|| remote_shown.to_owned())
        }
    }
}

// ---------------------------------------------------------------- put
