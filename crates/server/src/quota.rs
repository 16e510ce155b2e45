//! Quotas on the server's side (issue 29): what a session's uploads,
//! deletions and renames do to its user's usage in the accounts store,
//! and counting a user's files.
//!
//! An upload reserves as it goes: before a buffer is written, the bytes it
//! brings past what the upload has reserved (and past the size of the file
//! it replaces, which it frees) are added to the usage by one conditional
//! `UPDATE` ([`babelftp_accounts::Store::reserve`]), in steps of a
//! quarter of what it holds ([`STEP`] to [`MAX_STEP`]); when that would pass the quota, the upload stops there with
//! 552 and is discarded. When it ends, the file's real size settles the
//! account: what was reserved and not used is given back. So the usage
//! never passes the quota, whatever runs at once on however many nodes.
//! A user without a quota costs nothing: no meter, no query.

use std::io;
use std::sync::Arc;

use babelftp_accounts::{Limits, Profile, Store, Usage};
use babelftp_proto::listing::EntryKind;
use babelftp_session::VPath;

use crate::config::Config;
use crate::directory::Directory;
use crate::storage::Storage;

/// Bytes reserved at a time (fewer store round trips than one per
/// buffer; given back at the end if unused).
const STEP: u64 = 1 << 20;
/// The largest step.
const MAX_STEP: u64 = 64 << 20;

/// A logged-in user's quota: its store, name and limits.
#[derive(Clone, Debug)]
pub(crate) struct Quota {
    pub(crate) store: Store,
    pub(crate) name: String,
    pub(crate) limits: Limits,
}

fn store_error(e: babelftp_accounts::AccountsError) -> io::Error {
    tracing::warn!(error = %e, "accounts store unavailable for the quota");
    io::Error::other(e.to_string())
}

fn exceeded() -> io::Error {
    io::ErrorKind::QuotaExceeded.into()
}

impl Quota {
    /// Starts metering an upload over a file of `old` bytes (`None`: no
    /// file yet) of which `credit` are replaced. A new file takes one of
    /// the files the quota allows, now (552 before any data).
    pub(crate) async fn meter(&self, old: Option<u64>, credit: u64) -> io::Result<Meter> {
        let files = u64::from(old.is_none());
        if files > 0
            && !self
                .store
                .reserve(&self.name, 0, 1, &self.limits)
                .await
                .map_err(store_error)?
        {
            return Err(exceeded());
        }
        Ok(Meter {
            quota: self.clone(),
            old,
            credit,
            reserved: 0,
            files,
        })
    }

    /// A file of `size` bytes was removed (DELE, or replaced by a rename).
    pub(crate) async fn removed(&self, size: u64) {
        let bytes = i64::try_from(size).unwrap_or(i64::MAX);
        if let Err(e) = self.store.adjust_usage(&self.name, -bytes, -1).await {
            tracing::warn!(user = %self.name, error = %e, "quota usage not updated after a removal");
        }
    }

    /// The user's usage, counting its tree once if the store never did
    /// (its first login with a quota).
    pub(crate) async fn ensure_counted(&self, tree: Arc<dyn Storage>) -> io::Result<()> {
        if self.store.usage(&self.name).await.map_err(store_error)?.is_some() {
            return Ok(());
        }
        let usage = tokio::task::spawn_blocking(move || usage_of(&*tree))
            .await
            .map_err(io::Error::other)??;
        if self.store.init_usage(&self.name, usage).await.map_err(store_error)? {
            tracing::info!(user = %self.name, bytes = usage.bytes, files = usage.files, "quota usage counted");
        }
        Ok(())
    }

    /// Where the user stands (SITE QUOTA).
    pub(crate) async fn status(&self) -> io::Result<babelftp_session::QuotaInfo> {
        let u = self
            .store
            .usage(&self.name)
            .await
            .map_err(store_error)?
            .unwrap_or_default();
        Ok(babelftp_session::QuotaInfo {
            bytes: u.bytes,
            files: u.files,
            bytes_limit: self.limits.quota_bytes,
            files_limit: self.limits.quota_files,
        })
    }
}

/// One upload's account with the quota.
#[derive(Debug)]
pub(crate) struct Meter {
    quota: Quota,
    /// The file's size before the upload.
    old: Option<u64>,
    /// Bytes of the old file the upload replaces (freed when it commits).
    credit: u64,
    /// Bytes added to the usage so far.
    reserved: u64,
    /// Files added to the usage (1 for a new file).
    files: u64,
}

impl Meter {
    /// Whether the upload may hold `total` bytes; reserves what is
    /// missing. `QuotaExceeded` when the quota does not allow them.
    pub(crate) async fn admit(&mut self, total: u64) -> io::Result<()> {
        let need = total.saturating_sub(self.credit);
        if need <= self.reserved {
            return Ok(());
        }
        let missing = need - self.reserved;
        let q = &self.quota;
        // A step ahead when the quota allows it (a quarter of what the
        // upload holds, from 1 MiB to 64 MiB: a 1 GiB upload asks the
        // store some 30 times, not 1,000), else exactly what is missing
        // (the last bytes of a quota).
        let step = (total / 4).clamp(STEP, MAX_STEP);
        for amount in [missing.max(step), missing] {
            if q.store
                .reserve(&q.name, amount, 0, &q.limits)
                .await
                .map_err(store_error)?
            {
                self.reserved += amount;
                return Ok(());
            }
        }
        Err(exceeded())
    }

    /// The upload ended; the file is now `now` bytes (`None`: no file).
    /// What was reserved is replaced by the real change.
    pub(crate) async fn settle(self, now: Option<u64>) {
        let size = |s: Option<u64>| i64::try_from(s.unwrap_or(0)).unwrap_or(i64::MAX);
        let count = |s: Option<u64>| i64::from(s.is_some());
        let bytes = size(now) - size(self.old) - i64::try_from(self.reserved).unwrap_or(i64::MAX);
        let files = count(now) - count(self.old) - i64::try_from(self.files).unwrap_or(i64::MAX);
        let q = &self.quota;
        if let Err(e) = q.store.adjust_usage(&q.name, bytes, files).await {
            tracing::warn!(user = %q.name, error = %e, "quota usage not settled after an upload");
        }
    }
}

/// Bytes and files below the root of `st` (virtual folders included).
pub fn usage_of(st: &dyn Storage) -> io::Result<Usage> {
    let mut usage = Usage::default();
    let mut dirs = vec![VPath::root()];
    while let Some(dir) = dirs.pop() {
        for e in st.list(&dir).map_err(io::Error::from)? {
            match e.kind {
                EntryKind::File => {
                    usage.bytes += e.size;
                    usage.files += 1;
                }
                EntryKind::Dir => dirs.push(dir.join(&e.name)),
                _ => {}
            }
        }
    }
    Ok(usage)
}

/// Counts a user's tree as a login builds it from `cfg`'s root and
/// storage (`babelftp user quota-scan`).
pub async fn scan_user(cfg: &Config, dir: &Arc<Directory>, profile: Profile) -> io::Result<Usage> {
    let (cfg_storage, root) = (cfg.storage.clone(), cfg.root.clone());
    let dir = dir.clone();
    tokio::task::spawn_blocking(move || {
        let base = cfg_storage.open(&root, Default::default()).map_err(io::Error::from)?;
        let login = crate::directory::login_of(profile);
        let home = VPath::root().join(&login.account.home);
        let tree = dir.build_tree(base, &home, &login.tree).map_err(io::Error::from)?;
        usage_of(&*tree)
    })
    .await
    .map_err(io::Error::other)?
}
