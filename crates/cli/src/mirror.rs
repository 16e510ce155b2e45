//! `babelftp mirror URL DIR` and `babelftp mirror --reverse DIR URL`:
//! recursive copies that transfer only new or changed files.
//!
//! A file is "changed" when its size differs, or when the source is newer
//! than the copy. Names are compared after Unicode NFC normalization, so a
//! name macOS wrote in NFD and its NFC twin on the server are the same
//! file, not a re-upload (and the name already on the other side is kept).
//! `--delete` removes what the source no longer has.

use std::collections::HashMap;
use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use anyhow::Context;
use babelftp_client::client::StoreMode;
use babelftp_client::RemoteEntry;
use clap::Args;
use unicode_normalization::UnicodeNormalization;

use crate::remote::{Common, Session};

#[derive(Args, Debug)]
pub struct MirrorArgs {
    /// Source: ftp://host/dir/ (or, with --reverse, a local directory).
    src: String,
    /// Destination: a local directory (or, with --reverse, ftp://host/dir/).
    dst: String,
    /// Upload: local directory to server.
    #[arg(short = 'R', long)]
    reverse: bool,
    /// Delete files and directories the source no longer has.
    #[arg(long)]
    delete: bool,
    #[command(flatten)]
    common: Common,
}

/// What a mirror run did.
#[derive(Debug, Default)]
struct Tally {
    copied: u64,
    skipped: u64,
    deleted: u64,
    bytes: u64,
}

/// The comparison key of a name: NFC of its text when it is text, else
/// the bytes themselves.
fn key(text: Option<&str>, raw: &[u8]) -> Vec<u8> {
    match text {
        Some(t) => t.nfc().collect::<String>().into_bytes(),
        None => raw.to_vec(),
    }
}

fn mtime_secs(md: &std::fs::Metadata) -> Option<i64> {
    md.modified()
        .ok()?
        .duration_since(UNIX_EPOCH)
        .ok()
        .map(|d| d.as_secs() as i64)
}

fn join_remote(dir: &[u8], name: &[u8]) -> Vec<u8> {
    let mut p = dir.to_vec();
    if !p.is_empty() && !p.ends_with(b"/") {
        p.push(b'/');
    }
    p.extend_from_slice(name);
    p
}

pub async fn mirror(a: MirrorArgs) -> anyhow::Result<()> {
    let (url, local) = if a.reverse { (&a.dst, &a.src) } else { (&a.src, &a.dst) };
    let mut s = Session::open(url, &a.common).await?;
    let root = s.encode(&s.url.path_bytes());
    let local = PathBuf::from(local);
    let mut tally = Tally::default();
    if a.reverse {
        if !root.is_empty() {
            // Probe with CWD, then go back where the login put us.
            let home = s.client.pwd().await?;
            if s.client.cwd(&root).await.is_ok() {
                s.client.cwd(&home).await?;
            } else {
                s.client.mkdir(&root).await.context("creating the remote directory")?;
            }
        }
        up(&mut s, &local, &root, a.delete, &mut tally).await?;
    } else {
        std::fs::create_dir_all(&local)
            .with_context(|| crate::msg::ts("cli-creating", &[("path", &local.display().to_string())]))?;
        down(&mut s, &root, &local, a.delete, &mut tally).await?;
    }
    if !s.quiet() {
        let n = babelftp_i18n::lang::Arg::Num;
        eprintln!(
            "{}",
            crate::msg::t(
                "cli-mirror-summary",
                &[
                    ("copied", n(tally.copied)),
                    ("bytes", n(tally.bytes)),
                    ("unchanged", n(tally.skipped)),
                    ("deleted", n(tally.deleted)),
                ],
            )
        );
    }
    s.client.quit().await?;
    Ok(())
}

/// Local entries of a directory, by comparison key.
fn local_entries(dir: &Path) -> anyhow::Result<HashMap<Vec<u8>, (OsString, std::fs::Metadata)>> {
    let mut out = HashMap::new();
    for e in std::fs::read_dir(dir)
        .with_context(|| crate::msg::ts("cli-opening", &[("path", &dir.display().to_string())]))?
    {
        let e = e?;
        let name = e.file_name();
        let md = e.metadata()?;
        let k = key(name.to_str(), name.as_bytes());
        out.insert(k, (name, md));
    }
    Ok(out)
}

fn down<'a>(
    s: &'a mut Session,
    remote: &'a [u8],
    local: &'a Path,
    delete: bool,
    tally: &'a mut Tally,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = anyhow::Result<()>> + 'a>> {
    Box::pin(async move {
        let dir = if remote.is_empty() { None } else { Some(remote) };
        let entries: Vec<RemoteEntry> = s.list_raw(dir).await?;
        let mut here = local_entries(local)?;
        for e in entries {
            let text = s.text_of(&e.name);
            let k = key(text.as_deref(), &e.name);
            let existing = here.remove(&k);
            let local_name = match (&existing, &text) {
                (Some((n, _)), _) => n.clone(),
                (None, Some(t)) => OsString::from(t),
                (None, None) => OsString::from_vec(e.name.clone()),
            };
            let target = local.join(&local_name);
            let rpath = join_remote(remote, &e.name);
            if e.is_dir {
                std::fs::create_dir_all(&target)?;
                down(s, &rpath, &target, delete, tally).await?;
                continue;
            }
            let unchanged = existing.as_ref().is_some_and(|(_, md)| {
                md.is_file()
                    && e.size.is_none_or(|n| n == md.len())
                    && e.modified.is_none_or(|t| mtime_secs(md).is_some_and(|l| l >= t))
            });
            if unchanged {
                tally.skipped += 1;
                continue;
            }
            let mut file = tokio::fs::File::create(&target)
                .await
                .with_context(|| crate::msg::ts("cli-creating", &[("path", &target.display().to_string())]))?;
            let n = s.client.retr(&rpath, 0, &mut file, &mut |_| {}).await?;
            drop(file);
            if let Some(t) = e.modified {
                let when = UNIX_EPOCH + Duration::from_secs(t.max(0) as u64);
                std::fs::File::options().write(true).open(&target)?.set_modified(when)?;
            }
            tally.copied += 1;
            tally.bytes += n;
        }
        if delete {
            for (_, (name, md)) in here {
                let p = local.join(name);
                if md.is_dir() {
                    std::fs::remove_dir_all(&p)?;
                } else {
                    std::fs::remove_file(&p)?;
                }
                tally.deleted += 1;
            }
        }
        Ok(())
    })
}

fn up<'a>(
    s: &'a mut Session,
    local: &'a Path,
    remote: &'a [u8],
    delete: bool,
    tally: &'a mut Tally,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = anyhow::Result<()>> + 'a>> {
    Box::pin(async move {
        let dir = if remote.is_empty() { None } else { Some(remote) };
        let mut there: HashMap<Vec<u8>, RemoteEntry> = HashMap::new();
        for e in s.list_raw(dir).await? {
            let text = s.text_of(&e.name);
            there.insert(key(text.as_deref(), &e.name), e);
        }
        let siblings: Vec<Vec<u8>> = there.values().map(|e| e.name.clone()).collect();
        let siblings: Vec<&[u8]> = siblings.iter().map(Vec::as_slice).collect();
        let mut names: Vec<_> = local_entries(local)?.into_iter().collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (k, (name, md)) in names {
            let existing = there.remove(&k);
            // Keep the server's spelling of a name it already has.
            let rname = match &existing {
                Some(e) => e.name.clone(),
                None => s.encode_in(name.as_bytes(), &siblings),
            };
            let rpath = join_remote(remote, &rname);
            let path = local.join(&name);
            if md.is_dir() {
                if existing.is_none() {
                    s.client.mkdir(&rpath).await?;
                }
                up(s, &path, &rpath, delete, tally).await?;
                continue;
            }
            let unchanged = existing.as_ref().is_some_and(|e| {
                !e.is_dir
                    && e.size.is_none_or(|n| n == md.len())
                    && e.modified.is_none_or(|t| mtime_secs(&md).is_none_or(|l| l <= t))
            });
            if unchanged {
                tally.skipped += 1;
                continue;
            }
            let mut file = tokio::fs::File::open(&path).await?;
            let n = s
                .client
                .stor(&rpath, StoreMode::Replace, &mut file, &mut |_| {})
                .await?;
            tally.copied += 1;
            tally.bytes += n;
        }
        if delete {
            for (_, e) in there {
                let p = join_remote(remote, &e.name);
                if e.is_dir {
                    remove_remote_tree(s, &p).await?;
                } else {
                    s.client.delete(&p).await?;
                }
                tally.deleted += 1;
            }
        }
        Ok(())
    })
}

fn remove_remote_tree<'a>(
    s: &'a mut Session,
    dir: &'a [u8],
) -> std::pin::Pin<Box<dyn std::future::Future<Output = anyhow::Result<()>> + 'a>> {
    Box::pin(async move {
        for e in s.list_raw(Some(dir)).await? {
            let p = join_remote(dir, &e.name);
            if e.is_dir {
                remove_remote_tree(s, &p).await?;
            } else {
                s.client.delete(&p).await?;
            }
        }
        s.client.rmdir(dir).await?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nfd_and_nfc_names_are_the_same_key() {
        let nfd = "Cafe\u{301} Ga\u{308}rten.txt";
        let nfc = "Café Gärten.txt";
        assert_ne!(nfd.as_bytes(), nfc.as_bytes());
        assert_eq!(key(Some(nfd), nfd.as_bytes()), key(Some(nfc), nfc.as_bytes()));
        assert_eq!(key(None, b"\x93\xfa"), b"\x93\xfa".to_vec());
    }

    #[test]
    fn remote_paths_join() {
        assert_eq!(join_remote(b"", b"a"), b"a");
        assert_eq!(join_remote(b"/x", b"a"), b"/x/a");
        assert_eq!(join_remote(b"/x/", b"a"), b"/x/a");
    }
}
