//! Uploads (`--reverse`): the walk of a local tree, each file sent with
//! its time, and what the source no longer has removed.

use std::collections::HashMap;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use anyhow::Context;
use babelftp_client::client::StoreMode;
use babelftp_client::RemoteEntry;

use super::entries::{join_remote, key, local_entries, mtime_secs};
use super::run::{Job, Run, Upload};
use crate::remote::Session;

pub(super) fn up<'a>(
    run: &'a mut Run<'_>,
    local: &'a Path,
    remote: &'a [u8],
) -> std::pin::Pin<Box<dyn std::future::Future<Output = anyhow::Result<()>> + 'a>> {
    Box::pin(async move {
        let dir = if remote.is_empty() { None } else { Some(remote) };
        let mut there: HashMap<Vec<u8>, RemoteEntry> = HashMap::new();
        match run.s.list_raw(dir).await {
            Ok(entries) => {
                for e in entries {
                    let text = run.s.text_of(&e.name);
                    there.insert(key(text.as_deref(), &e.name), e);
                }
            }
            Err(e) => {
                let shown = run.shown(remote);
                run.fail(&shown, &e);
                return run.recover(&e).await;
            }
        }
        let siblings: Vec<Vec<u8>> = there.values().map(|e| e.name.clone()).collect();
        let siblings: Vec<&[u8]> = siblings.iter().map(Vec::as_slice).collect();
        let mut names: Vec<_> = match local_entries(local) {
            Ok((h, _)) => h.into_iter().collect(),
            Err(e) => {
                run.fail(&local.display().to_string(), &e);
                return Ok(());
            }
        };
        names.sort_by(|a, b| a.0.cmp(&b.0));
        let keeps_times = run.s.client.keeps_times();
        for (k, (name, md)) in names {
            let existing = there.remove(&k);
            // Keep the server's spelling of a name it already has.
            let rname = match &existing {
                Some(e) => e.name.clone(),
                None => run.s.encode_in(name.as_bytes(), &siblings),
            };
            let rpath = join_remote(remote, &rname);
            let path = local.join(&name);
            if md.is_dir() {
                if existing.is_none() {
                    if let Err(e) = run.s.client.mkdir(&rpath).await {
                        let e = anyhow::Error::new(e);
                        let shown = run.shown(&rpath);
                        run.fail(&shown, &e);
                        run.recover(&e).await?;
                        continue;
                    }
                }
                up(run, &path, &rpath).await?;
                continue;
            }
            let local_time = mtime_secs(&md);
            let unchanged = existing.as_ref().is_some_and(|e| {
                !e.is_dir
                    && e.size.is_none_or(|n| n == md.len())
                    && match (keeps_times, e.modified, local_time) {
                        // The copy has the time we gave it: another time is
                        // another file, older or newer.
                        (true, Some(t), Some(l)) => t == l,
                        // The copy has the time it arrived.
                        (_, t, l) => t.is_none_or(|t| l.is_none_or(|l| l <= t)),
                    }
            });
            if unchanged {
                run.tally.skipped += 1;
                continue;
            }
            let u = Upload {
                path,
                rpath,
                local_time,
            };
            match &mut run.queue {
                Some(q) => q.push(Job::Up(u)),
                None => upload_one(run, &u).await?,
            }
        }
        if run.delete {
            for (_, e) in there {
                let p = join_remote(remote, &e.name);
                let r = if e.is_dir {
                    remove_remote_tree(&mut run.s, &p).await
                } else {
                    run.s.client.delete(&p).await.map_err(anyhow::Error::new)
                };
                match r {
                    Ok(()) => run.tally.deleted += 1,
                    Err(err) => {
                        let shown = run.shown(&p);
                        run.fail(&shown, &err);
                        run.recover(&err).await?;
                    }
                }
            }
        }
        Ok(())
    })
}

/// A local file read from async code with plain `read` calls (see
/// [`SyncWrite`](super::download::SyncWrite)).
struct SyncRead<'a>(&'a std::fs::File);

impl tokio::io::AsyncRead for SyncRead<'_> {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let r = std::io::Read::read(&mut &*self.0, buf.initialize_unfilled()).map(|n| buf.advance(n));
        std::task::Poll::Ready(r)
    }
}

/// Makes an upload (with the local time, when the server keeps times) and
/// counts it; a failure is named and the connection opened again when it
/// is no longer usable. An error: the server could not be reached again.
pub(super) async fn upload_one(run: &mut Run<'_>, u: &Upload) -> anyhow::Result<()> {
    let sent = async {
        let file = std::fs::File::open(&u.path)
            .with_context(|| crate::msg::ts("cli-opening", &[("path", &u.path.display().to_string())]))?;
        // The local time goes along (MFMT, when the server has it): a copy
        // whose time was not kept would be sent again by the next run, so
        // a refusal is a failure.
        let client = &mut run.s.client;
        let n = match u.local_time {
            Some(t) => client.stor_with_time(&u.rpath, &mut SyncRead(&file), t).await?.0,
            None => {
                client
                    .stor(&u.rpath, StoreMode::Replace, &mut SyncRead(&file), &mut |_| {})
                    .await?
            }
        };
        anyhow::Ok(n)
    }
    .await;
    let done = match sent {
        Ok(n) => {
            run.tally.copied += 1;
            run.tally.bytes += n;
            Ok(())
        }
        Err(e) => Err(e),
    };
    if let Err(e) = done {
        run.fail(&u.path.display().to_string(), &e);
        run.recover(&e).await?;
    }
    Ok(())
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
