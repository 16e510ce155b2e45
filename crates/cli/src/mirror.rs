//! `babelftp mirror URL DIR` and `babelftp mirror --reverse DIR URL`:
//! recursive copies that transfer only new or changed files.
//!
//! A file is "changed" when its size differs, or when the source is newer
//! than the copy. Uploads to a server that keeps the times a client sets
//! (it offers MFMT, draft-somers-ftp-mfxx, and lists with MLSD) carry the
//! local time along (MFMT after each upload), and there a file is
//! unchanged only when it has the same size and the same time to the
//! second: a file edited and then given an older time (a restored backup,
//! `touch -d`, `cp -p`) is sent again, where "the copy is newer" kept it.
//! Against any other server an upload is stamped with the time it arrived,
//! and "the copy is newer" is the only rule there is.
//!
//! Names are compared after Unicode NFC normalization, so a name macOS
//! wrote in NFD and its NFC twin on the server are the same file, not a
//! re-upload (and the name already on the other side is kept).
//! `--delete` removes what the source no longer has.
//!
//! A file that fails (refused, cut, unwritable here) is named on stderr
//! and the run goes on with the rest; a connection the server dropped is
//! opened again. The run ends with the summary and, when anything failed,
//! a count of the failures and exit status 1.
//!
//! Downloads are written to a part file next to the destination and
//! renamed over it only when whole, so a failure never leaves a truncated
//! or empty file under the real name, nor touches the old copy. The part
//! file's name holds the remote file's size and modification time,
//! `.NAME.SIZE-MTIME.babelftp-part`: a later run resumes it (REST) only
//! when the remote file still has that same size and time, so a file
//! changed on the server in between is fetched again from the start,
//! never spliced onto the old one's head. A remote file without a size or
//! time in the listing (or a name too long for the extra text) is never
//! resumed: its part file is removed when the download fails. Part files
//! left by a remote file that changed or went away are removed on the next
//! run through their directory; they are never uploaded.
//!
//! Uploads are not resumed: a remote file of another size is sent again
//! whole (nothing proves its head is the local file's), and a failed upload
//! is named and the rest go on.

use std::collections::{HashMap, HashSet};
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
    /// Transfer N files at once, over N control connections logged in alike (1 to 64; the tree is
    /// walked once, on the first).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_parallel)]
    parallel: usize,
    #[command(flatten)]
    common: Common,
}

/// The most connections `--parallel` opens.
const MAX_PARALLEL: usize = 64;

/// `--parallel N`: 1 to [`MAX_PARALLEL`].
fn parse_parallel(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_PARALLEL).contains(&n) => Ok(n),
        _ => Err(crate::msg::ts("cli-mirror-bad-parallel", &[("value", s)])),
    }
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

/// The end of every part file's name.
const PART_SUFFIX: &[u8] = b".babelftp-part";

/// Whether a local name is one of our part files.
fn is_part(name: &[u8]) -> bool {
    name.starts_with(b".") && name.ends_with(PART_SUFFIX)
}

/// The resumable part file's name for a download of `e` to `local_name`:
/// `.NAME.SIZE-MTIME.babelftp-part`; `None` when the listing gives no size
/// or time, or the name would be too long for the file system.
fn part_name(local_name: &[u8], e: &RemoteEntry) -> Option<Vec<u8>> {
    let (size, time) = (e.size?, e.modified?);
    let mut p = b".".to_vec();
    p.extend_from_slice(local_name);
    p.extend_from_slice(format!(".{size}-{time}").as_bytes());
    p.extend_from_slice(PART_SUFFIX);
    (p.len() <= 255).then_some(p)
}

/// Whether an error left the control connection in step: a refusal was
/// read whole, a local error never reached the server; anything else (a
/// socket error, a drop, a transfer cut with its reply unread) did not.
fn in_step(e: &anyhow::Error) -> bool {
    e.chain().all(|c| match c.downcast_ref::<babelftp_client::Error>() {
        Some(babelftp_client::Error::Refused(_) | babelftp_client::Error::Path(_)) | None => true,
        Some(_) => false,
    })
}

/// A mirror run on one connection: the session (opened again when the
/// server drops it) and what was done and what failed. With `--parallel`,
/// each connection has its own, and the walk's `queue` collects the
/// transfers they share.
struct Run<'a> {
    s: Session,
    url: &'a str,
    common: &'a Common,
    delete: bool,
    tally: Tally,
    failed: u64,
    /// `Some`: transfers are queued for the connections, not made.
    queue: Option<Vec<Job>>,
}

/// A transfer the walk decided on.
enum Job {
    Down(Download),
    Up(Upload),
}

/// Takes jobs from `queue` until it is empty. An error: this connection
/// was lost and could not be opened again (the others go on).
async fn work(run: &mut Run<'_>, queue: &std::cell::RefCell<std::collections::VecDeque<Job>>) -> anyhow::Result<()> {
    loop {
        let job = queue.borrow_mut().pop_front();
        match job {
            None => return Ok(()),
            Some(Job::Down(d)) => {
                download_one(run, &d).await?;
            }
            Some(Job::Up(u)) => upload_one(run, &u).await?,
        }
    }
}

impl Run<'_> {
    /// Names a failure on stderr (always, even with -q) and counts it.
    fn fail(&mut self, path: &str, e: &anyhow::Error) {
        self.failed += 1;
        eprintln!(
            "{}",
            crate::msg::ts(
                "cli-x2-mirror-failed",
                &[("path", path), ("error", &crate::exit::describe(e))]
            )
        );
    }

    /// After a failure: when the connection is no longer usable, a new one.
    /// An error here (the server cannot be reached again) ends the run.
    async fn recover(&mut self, e: &anyhow::Error) -> anyhow::Result<()> {
        if in_step(e) {
            return Ok(());
        }
        if !self.s.quiet() {
            eprintln!("{}", crate::msg::ts("cli-x2-reconnecting", &[]));
        }
        self.s = Session::open(self.url, self.common).await?;
        Ok(())
    }

    /// A remote path for the screen.
    fn shown(&self, remote: &[u8]) -> String {
        String::from_utf8_lossy(&self.s.show(remote)).into_owned()
    }
}

pub async fn mirror(a: MirrorArgs) -> anyhow::Result<()> {
    let (url, local) = if a.reverse { (&a.dst, &a.src) } else { (&a.src, &a.dst) };
    let mut s = Session::open(url, &a.common).await?;
    let root = s.encode(&s.url.path_bytes());
    let local = PathBuf::from(local);
    if !a.reverse && !root.is_empty() {
        // Some servers (vsftpd) answer LIST of a missing directory with an
        // empty listing and 226: a backup script could not tell a missing
        // source from an empty one. CWD says (550 for a missing directory
        // or a file), then back where the login put us.
        let home = s.client.pwd().await?;
        s.client.cwd(&root).await.with_context(|| {
            crate::msg::ts(
                "cli-mirror-no-source",
                &[("path", &String::from_utf8_lossy(&s.show(&root)))],
            )
        })?;
        s.client.cwd(&home).await?;
    }
    let mut run = Run {
        s,
        url,
        common: &a.common,
        delete: a.delete,
        tally: Tally::default(),
        failed: 0,
        queue: (a.parallel > 1).then(Vec::new),
    };
    // The other connections log in while the tree is walked.
    let more = a.common.for_more_connections();
    let opening = futures::future::join_all((1..a.parallel).map(|_| Session::open(url, &more)));
    let walk = async {
        if a.reverse {
            if !root.is_empty() {
                // Probe with CWD, then go back where the login put us.
                let home = run.s.client.pwd().await?;
                if run.s.client.cwd(&root).await.is_ok() {
                    run.s.client.cwd(&home).await?;
                } else {
                    run.s
                        .client
                        .mkdir(&root)
                        .await
                        .context("creating the remote directory")?;
                }
            }
            up(&mut run, &local, &root).await
        } else {
            std::fs::create_dir_all(&local)
                .with_context(|| crate::msg::ts("cli-creating", &[("path", &local.display().to_string())]))?;
            down(&mut run, &root, &local).await
        }
    };
    let (mut outcome, opened) = tokio::join!(walk, opening);
    let jobs = run.queue.take().unwrap_or_default();
    let mut runs = vec![run];
    let mut refused = None;
    for o in opened {
        match o {
            Ok(s) => runs.push(Run {
                s,
                url,
                common: &a.common,
                delete: a.delete,
                tally: Tally::default(),
                failed: 0,
                queue: None,
            }),
            Err(e) => {
                refused.get_or_insert(e);
            }
        }
    }
    if let Some(e) = refused {
        // A server may allow fewer connections from one address: the
        // files go over those it took.
        let n = babelftp_i18n::lang::Arg::Num;
        eprintln!(
            "{}",
            crate::msg::t(
                "cli-mirror-fewer-connections",
                &[
                    ("open", n(runs.len() as u64)),
                    ("wanted", n(a.parallel as u64)),
                    ("error", babelftp_i18n::lang::Arg::Str(&crate::exit::describe(&e))),
                ],
            )
        );
    }
    if outcome.is_ok() && !jobs.is_empty() {
        let queue = std::cell::RefCell::new(std::collections::VecDeque::from(jobs));
        let results = futures::future::join_all(runs.iter_mut().map(|r| work(r, &queue))).await;
        // A connection that could not be opened again ended its part; the
        // run says so (the files it left were taken by the others).
        if let Some(e) = results.into_iter().find_map(Result::err) {
            outcome = Err(e);
        }
    }
    let mut tally = Tally::default();
    let mut failed = 0;
    for r in &runs {
        tally.copied += r.tally.copied;
        tally.skipped += r.tally.skipped;
        tally.deleted += r.tally.deleted;
        tally.bytes += r.tally.bytes;
        failed += r.failed;
    }
    let quiet = runs.first().is_some_and(|r| r.s.quiet());
    if !quiet || failed > 0 || outcome.is_err() {
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
    outcome?;
    // The work is done: a server that closes before answering QUIT
    // changes nothing.
    futures::future::join_all(runs.into_iter().map(|r| r.s.client.quit())).await;
    if failed > 0 {
        anyhow::bail!(crate::msg::t(
            "cli-x2-mirror-failures",
            &[("count", babelftp_i18n::lang::Arg::Num(failed))]
        ));
    }
    Ok(())
}

/// Local entries of a directory, by comparison key; our part files apart.
type Local = HashMap<Vec<u8>, (OsString, std::fs::Metadata)>;

fn local_entries(dir: &Path) -> anyhow::Result<(Local, HashSet<OsString>)> {
    let mut out = HashMap::new();
    let mut parts = HashSet::new();
    for e in std::fs::read_dir(dir)
        .with_context(|| crate::msg::ts("cli-opening", &[("path", &dir.display().to_string())]))?
    {
        let e = e?;
        let name = e.file_name();
        if is_part(name.as_bytes()) {
            parts.insert(name);
            continue;
        }
        let md = e.metadata()?;
        let k = key(name.to_str(), name.as_bytes());
        out.insert(k, (name, md));
    }
    Ok((out, parts))
}

fn down<'a>(
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

/// What stands at a download's target, as the directory's listing saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Standing {
    /// Nothing, or a file (replaced by the rename).
    Free,
    /// A directory: the file cannot go there.
    Dir,
    /// A symbolic link: whether it leads to a directory is asked when the
    /// file is fetched.
    Link,
}

impl Standing {
    fn of(md: Option<&std::fs::Metadata>) -> Standing {
        match md.map(std::fs::Metadata::file_type) {
            Some(t) if t.is_dir() => Standing::Dir,
            Some(t) if t.is_symlink() => Standing::Link,
            _ => Standing::Free,
        }
    }
}

/// One file to download: what the walk decided.
struct Download {
    entry: RemoteEntry,
    rpath: Vec<u8>,
    part: PathBuf,
    target: PathBuf,
    /// The part file's name holds the remote identity (a later run may
    /// resume it).
    resumable: bool,
    /// The directory's listing holds a part file of that name.
    part_listed: bool,
    standing: Standing,
}

/// Makes a download and counts it. A failure is named (a link the server
/// will not follow only said) and the connection opened again when it is
/// no longer usable. Returns whether the part file is kept for a later
/// run; an error: the server could not be reached again.
async fn download_one(run: &mut Run<'_>, d: &Download) -> anyhow::Result<bool> {
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

fn up<'a>(
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

/// One file to upload: what the walk decided.
struct Upload {
    path: PathBuf,
    rpath: Vec<u8>,
    /// The local modification time, sent along (MFMT) when the server
    /// keeps times.
    local_time: Option<i64>,
}

/// A local file read from async code with plain `read` calls (see
/// [`SyncWrite`]).
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
async fn upload_one(run: &mut Run<'_>, u: &Upload) -> anyhow::Result<()> {
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
    fn part_names_carry_the_remote_identity() {
        let e = RemoteEntry {
            name: b"a.bin".to_vec(),
            is_dir: false,
            is_link: false,
            size: Some(300),
            modified: Some(1_700_000_000),
        };
        let p = part_name(b"a.bin", &e);
        assert_eq!(p.as_deref(), Some(&b".a.bin.300-1700000000.babelftp-part"[..]));
        assert!(is_part(b".a.bin.300-1700000000.babelftp-part"));
        assert!(!is_part(b"a.babelftp-part"));
        let no_time = RemoteEntry { modified: None, ..e };
        assert_eq!(part_name(b"a.bin", &no_time), None);
        assert_eq!(
            part_name(
                &[b'x'; 250],
                &RemoteEntry {
                    modified: Some(1),
                    ..no_time
                }
            ),
            None
        );
    }

    #[test]
    fn parallel_takes_1_to_64() {
        assert_eq!(parse_parallel("1"), Ok(1));
        assert_eq!(parse_parallel("64"), Ok(64));
        for bad in ["0", "65", "-1", "four", ""] {
            assert!(parse_parallel(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn remote_paths_join() {
        assert_eq!(join_remote(b"", b"a"), b"a");
        assert_eq!(join_remote(b"/x", b"a"), b"/x/a");
        assert_eq!(join_remote(b"/x/", b"a"), b"/x/a");
    }
}
