//! Downloads: the walk of a remote tree, and each file fetched into a
//! part file and renamed over its target when whole.

use std::collections::HashSet;
use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

use anyhow::Context;
use babelftp_client::RemoteEntry;

use super::entries::{join_remote, key, local_entries, mtime_secs, part_name};
use super::run::{Download, Job, Run, Standing};

pub(super) fn down<'a>(
    run: &'a mut Run<'_>,
    remote: &'a [u8],
    local: &'a Path,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = anyhow::Result<()>> + 'a>> {
    Box::pin(async move {
        let dir = if remote.is_empty() { None } else { Some(remote) };
        let entries: Vec<RemoteEntry> = match run.s.list_raw(dir).await {
            Ok(e) => e,
            Err(e) => {
                let shown = run.shown(remote);
                run.fail(&shown, &e);
                return run.recover(&e).await;
            }
        };
        let (mut here, parts) = match local_entries(local) {
            Ok(h) => h,
            Err(e) => {
                run.fail(&local.display().to_string(), &e);
                return Ok(());
            }
        };
        // The part files still worth keeping after this directory.
        let mut kept: HashSet<OsString> = HashSet::new();
        for e in entries {
            let text = run.s.text_of(&e.name);
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
                if let Err(err) = std::fs::create_dir_all(&target) {
                    let err = anyhow::Error::new(err).context(crate::msg::ts(
                        "cli-creating",
                        &[("path", &target.display().to_string())],
                    ));
                    let shown = run.shown(&rpath);
                    run.fail(&shown, &err);
                    continue;
                }
                down(run, &rpath, &target).await?;
                continue;
            }
            let unchanged = existing.as_ref().is_some_and(|(_, md)| {
                md.is_file()
                    && e.size.is_none_or(|n| n == md.len())
                    && e.modified.is_none_or(|t| mtime_secs(md).is_some_and(|l| l >= t))
            });
            if unchanged {
                run.tally.skipped += 1;
                continue;
            }
            let part = part_name(local_name.as_bytes(), &e);
            let resumable = part.is_some();
            let part = OsString::from_vec(
                part.unwrap_or_else(|| format!(".{}{}", std::process::id(), ".babelftp-part").into_bytes()),
            );
            let d = Download {
                part_listed: parts.contains(&part),
                part: local.join(&part),
                standing: Standing::of(existing.as_ref().map(|(_, md)| md)),
                target,
                rpath,
                entry: e,
                resumable,
            };
            if let Some(q) = &mut run.queue {
                // Its own part file is the job's to resume or remove.
                kept.insert(part);
                q.push(Job::Down(d));
            } else if download_one(run, &d).await? {
                kept.insert(part);
            }
        }
        // Part files of remote files that changed or went away.
        for p in parts {
            if !kept.contains(&p) && !local.join(&p).is_dir() {
                let _ = std::fs::remove_file(local.join(&p));
            }
        }
        if run.delete {
            for (_, (name, md)) in here {
                let p = local.join(name);
                let r = if md.is_dir() {
                    std::fs::remove_dir_all(&p)
                } else {
                    std::fs::remove_file(&p)
                };
                match r {
                    Ok(()) => run.tally.deleted += 1,
                    Err(err) => run.fail(&p.display().to_string(), &anyhow::Error::new(err)),
                }
            }
        }
        Ok(())
    })
}

/// A local file written from async code with plain `write` calls, on the
/// runtime's own thread. `tokio::fs::File` hands every write to a thread
/// of the blocking pool and waits for it (futex wake-ups both ways, for
/// each small file of a mirror); a write into the page cache costs less
/// than that hand-off.
struct SyncWrite<'a>(&'a std::fs::File);

impl tokio::io::AsyncWrite for SyncWrite<'_> {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::task::Poll::Ready(std::io::Write::write(&mut &*self.0, buf))
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}

/// Makes a download and counts it. A failure is named (a link the server
/// will not follow only said) and the connection opened again when it is
/// no longer usable. Returns whether the part file is kept for a later
/// run; an error: the server could not be reached again.
pub(super) async fn download_one(run: &mut Run<'_>, d: &Download) -> anyhow::Result<bool> {
    let err = match fetch(run, d).await {
        Ok(n) => {
            run.tally.copied += 1;
            run.tally.bytes += n;
            return Ok(false);
        }
        Err(err) => err,
    };
    // Kept for the next run when it can be resumed and holds something;
    // else nothing is left behind.
    let len = std::fs::metadata(&d.part).map(|m| m.len()).unwrap_or(0);
    let keep = d.resumable && len > 0 && !d.target.is_dir();
    if !keep {
        let _ = std::fs::remove_file(&d.part);
    }
    let shown = run.shown(&d.rpath);
    // A link the server lists but will not follow (it leaves the server's
    // root, or leads nowhere): there is nothing to copy, which is not a
    // failed copy.
    if d.entry.is_link && crate::exit::is_permanent_refusal(&err) {
        eprintln!("{}", crate::msg::ts("cli-mirror-link-skipped", &[("path", &shown)]));
        return Ok(keep);
    }
    run.fail(&shown, &err);
    run.recover(&err).await?;
    Ok(keep)
}

/// Downloads `d.entry` (at `d.rpath`) into its part file, resuming what a
/// part file of the same identity already holds, then renames it to the
/// target with the remote time. Returns the octets received. The listing
/// of the directory already said what stands at the target and whether a
/// part file is there: no other `stat` is made for a new file (one
/// `openat`, the writes, `futimens`, `rename`).
async fn fetch(run: &mut Run<'_>, d: &Download) -> anyhow::Result<u64> {
    let (part, target) = (&d.part, &d.target);
    if d.standing == Standing::Dir || (d.standing == Standing::Link && target.is_dir()) {
        // Checked before anything is fetched: a directory stands where the
        // file would go.
        return Err(
            anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::IsADirectory)).context(crate::msg::ts(
                "cli-creating",
                &[("path", &target.display().to_string())],
            )),
        );
    }
    let have = if d.resumable && d.part_listed {
        match std::fs::symlink_metadata(part) {
            Ok(m) if m.is_file() && d.entry.size.is_some_and(|n| m.len() < n) => m.len(),
            _ => 0,
        }
    } else {
        0
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(have > 0)
        .truncate(have == 0)
        .open(part)
        .with_context(|| crate::msg::ts("cli-creating", &[("path", &part.display().to_string())]))?;
    let n = run
        .s
        .client
        .retr(&d.rpath, have, &mut SyncWrite(&file), &mut |_| {})
        .await?;
    if let Some(t) = d.entry.modified {
        file.set_modified(UNIX_EPOCH + Duration::from_secs(t.max(0) as u64))?;
    }
    drop(file);
    std::fs::rename(part, target)
        .with_context(|| crate::msg::ts("cli-creating", &[("path", &target.display().to_string())]))?;
    Ok(n)
}
