//! A mirror run on one connection, and the transfers its walk decides on.

use std::path::PathBuf;

use babelftp_client::RemoteEntry;

use crate::remote::{Common, Session};

/// What a mirror run did.
#[derive(Debug, Default)]
pub(super) struct Tally {
    pub(super) copied: u64,
    pub(super) skipped: u64,
    pub(super) deleted: u64,
    pub(super) bytes: u64,
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
pub(super) struct Run<'a> {
    pub(super) s: Session,
    pub(super) url: &'a str,
    pub(super) common: &'a Common,
    pub(super) delete: bool,
    pub(super) tally: Tally,
    pub(super) failed: u64,
    /// `Some`: transfers are queued for the connections, not made.
    pub(super) queue: Option<Vec<Job>>,
}

/// A transfer the walk decided on.
pub(super) enum Job {
    Down(Download),
    Up(Upload),
}

impl Run<'_> {
    /// Names a failure on stderr (always, even with -q) and counts it.
    pub(super) fn fail(&mut self, path: &str, e: &anyhow::Error) {
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
    pub(super) async fn recover(&mut self, e: &anyhow::Error) -> anyhow::Result<()> {
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
    pub(super) fn shown(&self, remote: &[u8]) -> String {
        String::from_utf8_lossy(&self.s.show(remote)).into_owned()
    }
}

/// What stands at a download's target, as the directory's listing saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Standing {
    /// Nothing, or a file (replaced by the rename).
    Free,
    /// A directory: the file cannot go there.
    Dir,
    /// A symbolic link: whether it leads to a directory is asked when the
    /// file is fetched.
    Link,
}

impl Standing {
    pub(super) fn of(md: Option<&std::fs::Metadata>) -> Standing {
        match md.map(std::fs::Metadata::file_type) {
            Some(t) if t.is_dir() => Standing::Dir,
            Some(t) if t.is_symlink() => Standing::Link,
            _ => Standing::Free,
        }
    }
}

/// One file to download: what the walk decided.
pub(super) struct Download {
    pub(super) entry: RemoteEntry,
    pub(super) rpath: Vec<u8>,
    pub(super) part: PathBuf,
    pub(super) target: PathBuf,
    /// The part file's name holds the remote identity (a later run may
    /// resume it).
    pub(super) resumable: bool,
    /// The directory's listing holds a part file of that name.
    pub(super) part_listed: bool,
    pub(super) standing: Standing,
}

/// One file to upload: what the walk decided.
pub(super) struct Upload {
    pub(super) path: PathBuf,
    pub(super) rpath: Vec<u8>,
    /// The local modification time, sent along (MFMT) when the server
    /// keeps times.
    pub(super) local_time: Option<i64>,
}
