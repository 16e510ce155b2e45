//! `put`: uploads from files or standard input.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use anyhow::Context;
use babelftp_client::client::StoreMode;
use babelftp_proto::url::FtpUrl;
use clap::Args;
use tokio::io::AsyncSeekExt;

use super::*;
use crate::exit::{BadResume, Local, Usage};
use crate::msg::ts;
use crate::remote::{Common, Session, Shown};

#[derive(Args, Debug)]
#[command(after_help = EXIT_HELP, override_usage = "babelftp put [OPTIONS] FILE... URL")]
pub struct PutArgs {
    /// Local files (- for standard input), then the URL: ftp://host/dir/
    /// (ending in /: the files keep their names there) or, for one file,
    /// ftp://host/dir/name.
    #[arg(required = true, value_name = "FILE", value_parser = clap::value_parser!(OsString))]
    args: Vec<OsString>,
    /// Resume: append what the server does not have yet (REST + STOR).
    #[arg(short = 'c', long = "continue", conflicts_with = "ascii")]
    resume: bool,
    /// Text mode (TYPE A): LF here becomes CR LF on the wire.
    #[arg(short = 'a', long)]
    ascii: bool,
    #[command(flatten)]
    common: Common,
}

/// A checked local source.
pub(super) enum Source {
    Stdin,
    File(PathBuf),
}

/// Refuses a source that cannot be uploaded, before anything is sent.
pub(super) fn check_source(p: &Path) -> anyhow::Result<()> {
    let display = p.display().to_string();
    let m = std::fs::metadata(p).map_err(|e| Local::read(ts("cli-opening", &[("path", &display)]), e))?;
    if m.is_dir() {
        return Err(Local {
            write: false,
            what: ts("cli-x1-is-directory", &[("path", &display)]),
            source: None,
        }
        .into());
    }
    Ok(())
}

pub async fn put(a: PutArgs) -> anyhow::Result<()> {
    interruptible(put_all(&a)).await
}

pub(super) async fn put_all(a: &PutArgs) -> anyhow::Result<()> {
    let (url_os, srcs) = match a.args.split_last() {
        Some((u, srcs)) if !srcs.is_empty() => (u, srcs),
        _ => return Err(Usage(ts("cli-needs-argument", &[("command", "put FILE...")])).into()),
    };
    let raw = url_os.to_str().ok_or_else(|| {
        Usage(ts(
            "cli-bad-url",
            &[("url", &String::from_utf8_lossy(url_os.as_bytes()))],
        ))
    })?;
    let url = parse_url(raw)?;
    let to_dir = url.is_directory() || url.path_bytes().is_empty();
    let stdin = srcs.iter().any(|s| s == "-");
    if stdin && (srcs.len() > 1 || to_dir) {
        return Err(Usage(ts("cli-x1-stdin-alone", &[])).into());
    }
    if stdin && a.resume {
        return Err(Usage(ts("cli-x1-resume-needs-file", &[])).into());
    }
    if srcs.len() > 1 && !to_dir {
        return Err(Usage(ts("cli-x1-put-many-need-dir", &[])).into());
    }
    let mut failures = Failures::default();
    let mut sources = Vec::new();
    for src in srcs {
        if src == "-" {
            sources.push(Source::Stdin);
            continue;
        }
        let p = PathBuf::from(src);
        match check_source(&p) {
            Ok(()) => sources.push(Source::File(p)),
            Err(e) => failures.report(&e),
        }
    }
    if !sources.is_empty() {
        let mut sessions = Sessions::new(&a.common);
        for src in &sources {
            let r = async {
                let s = sessions.open(raw, &url).await?;
                match put_one(s, src, &url, to_dir, a).await {
                    // `put f ftp://h/up` where up is a directory: into it,
                    // as cp does (found on the refusal: no extra round trip
                    // for the usual case).
                    Err(e)
                        if !to_dir
                            && matches!(src, Source::File(_))
                            && crate::exit::is_permanent_refusal(&e)
                            && remote_is_dir(s, &url).await =>
                    {
                        put_one(s, src, &url, true, a).await
                    }
                    r => r,
                }
            }
            .await;
            if let Err(e) = r {
                failures.report(&e);
                sessions.after_error(&e);
            }
        }
        sessions.close().await;
    }
    failures.finish(srcs.len(), a.common.is_quiet())
}

/// Whether the URL's path is a directory on the server: CWD into it, then
/// back where the login put us.
pub(super) async fn remote_is_dir(s: &mut Session, url: &FtpUrl) -> bool {
    let path = s.encode(&url.path_bytes());
    let Ok(home) = s.client.pwd().await else {
        return false;
    };
    if s.client.cwd(&path).await.is_err() {
        return false;
    }
    s.client.cwd(&home).await.is_ok()
}

pub(super) async fn put_one(
    s: &mut Session,
    src: &Source,
    url: &FtpUrl,
    to_dir: bool,
    a: &PutArgs,
) -> anyhow::Result<()> {
    let mut path = url.path_bytes();
    if to_dir {
        let Source::File(p) = src else {
            return Err(Usage(ts("cli-x1-stdin-alone", &[])).into());
        };
        let name = p.file_name().context("the source has no file name")?;
        if !path.is_empty() && !path.ends_with(b"/") {
            path.push(b'/');
        }
        path.extend_from_slice(name.as_encoded_bytes());
    }
    // Issue 48: a new name goes in the charset of the folder it lands in.
    let remote = match s.encode_new(&path).await {
        Ok((remote, Some(c))) => {
            if !s.quiet() {
                let name = String::from_utf8_lossy(path.rsplit(|&b| b == b'/').next().unwrap_or(&path));
                eprintln!("{}", ts("cli-put-charset", &[("name", &name), ("charset", c.name())]));
            }
            remote
        }
        Ok((remote, None)) => remote,
        Err(c) => {
            let name = String::from_utf8_lossy(path.rsplit(|&b| b == b'/').next().unwrap_or(&path)).into_owned();
            return Err(Usage(ts("cli-put-not-repr", &[("name", &name), ("charset", c.name())])).into());
        }
    };
    let remote_shown = shown(s, &remote);
    if a.ascii {
        s.client.set_ascii(true).await?;
    }
    match src {
        Source::Stdin => {
            let bar = Shown::start(None, 0, s.quiet());
            let mut input = Watch::new(tokio::io::stdin());
            let r = s
                .client
                .stor(&remote, StoreMode::Replace, &mut input, &mut |n| bar.update(n))
                .await;
            let failed = input.failed;
            let n = r
                .map_err(|e| local_side(e, failed, false, || ts("cli-x1-reading-stdin", &[])))
                .with_context(|| remote_shown.clone())?;
            bar.done(n, &remote_shown);
            Ok(())
        }
        Source::File(p) => {
            let display = p.display().to_string();
            let mut file = tokio::fs::File::open(p)
                .await
                .map_err(|e| Local::read(ts("cli-opening", &[("path", &display)]), e))?;
            let len = file.metadata().await.map(|m| m.len()).ok();
            let mode = if a.resume {
                let have = s.client.size(&remote).await?.unwrap_or(0);
                if let Some(len) = len {
                    if have > len {
                        return Err(BadResume(ts(
                            "cli-x1-resume-larger",
                            &[
                                ("dest", &remote_shown),
                                ("have", &have.to_string()),
                                ("src", &display),
                                ("size", &len.to_string()),
                            ],
                        ))
                        .into());
                    }
                    if have == len && have > 0 {
                        if !s.quiet() {
                            eprintln!(
                                "{}",
                                ts(
                                    "cli-x1-complete",
                                    &[("dest", &remote_shown), ("bytes", &have.to_string())]
                                )
                            );
                        }
                        return Ok(());
                    }
                }
                file.seek(std::io::SeekFrom::Start(have))
                    .await
                    .map_err(|e| Local::read(ts("cli-opening", &[("path", &display)]), e))?;
                StoreMode::At(have)
            } else {
                StoreMode::Replace
            };
            let start = match mode {
                StoreMode::At(n) => n,
                _ => 0,
            };
            let bar = Shown::start(len, start, s.quiet());
            let mut input = Watch::new(file);
            let r = s.client.stor(&remote, mode, &mut input, &mut |n| bar.update(n)).await;
            let failed = input.failed;
            let n = match r {
                Ok(n) => n,
                Err(e) => {
                    bar.clear();
                    return Err(local_side(e, failed, false, || {
                        ts("cli-opening", &[("path", &display)])
                    }))
                    .with_context(|| remote_shown.clone());
                }
            };
            bar.done(n, &remote_shown);
            Ok(())
        }
    }
}

// ---------------------------------------------------------------- rm, mkdir
