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

mod download;
mod entries;
mod run;
mod upload;

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use download::{down, download_one};
use run::{Job, Run, Tally};
use upload::{up, upload_one};

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

#[cfg(test)]
mod tests {
    use super::entries::{is_part, join_remote, key, part_name};
    use super::*;
    use babelftp_client::RemoteEntry;

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
