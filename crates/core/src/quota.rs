//! Quotas on the server's side (issue 29): what a session's uploads,
//! deletions and renames do to its user's usage in the accounts store,
//! and counting a user's files.
//!
//! An upload reserves as it goes: before a buffer is written, the bytes it
//! brings past what the upload has reserved (and past the size of the file
//! it replaces, which it frees) are added to the usage by one conditional
//! `UPDATE` ([`babelftp_accounts::Store::reserve`]), in steps of a
//! quarter of what it holds ([`STEP`] to [`MAX_STEP`]) while that leaves a
//! step free for the account's other uploads, else exactly what is
//! missing; when that would pass the quota, the upload stops there with
//! 552 and is discarded. When it ends, the file's real size settles the
//! account: what was reserved and not used is given back. So the usage
//! never passes the quota, whatever runs at once on however many nodes.
//! An upload written beside its name (STOR, the web view's) takes it
//! with one atomic exchange that says what the name held at that moment
//! ([`babelftp_storage::Committed`]): a file another session renamed or
//! deleted meanwhile is not counted as replaced, and the reservation is
//! brought up first ([`Meter::before_commit`]), so the usage is what is
//! stored. Directories count as files (a file quota of 2 allows two
//! entries, whatever they are).
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
pub struct Quota {
    pub store: Store,
    pub name: String,
    pub limits: Limits,
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
    pub async fn meter(&self, old: Option<u64>, credit: u64) -> io::Result<Meter> {
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
            total: 0,
        })
    }

    /// A directory about to be made takes one of the files the quota
    /// allows (`QuotaExceeded` when none is left): a directory is an
    /// entry like a file, and an account limited to N files must not make
    /// directories without end.
    pub async fn reserve_dir(&self) -> io::Result<()> {
        match self
            .store
            .reserve(&self.name, 0, 1, &self.limits)
            .await
            .map_err(store_error)?
        {
            true => Ok(()),
            false => Err(exceeded()),
        }
    }

    /// A directory was removed, or one reserved was not made: its place
    /// goes back.
    pub async fn dir_gone(&self) {
        if let Err(e) = self.store.adjust_usage(&self.name, 0, -1).await {
            tracing::warn!(user = %self.name, error = %e, "quota usage not updated after a directory");
        }
    }

    /// A file of `size` bytes was removed (DELE, or replaced by a rename).
    pub async fn removed(&self, size: u64) {
        let bytes = i64::try_from(size).unwrap_or(i64::MAX);
        if let Err(e) = self.store.adjust_usage(&self.name, -bytes, -1).await {
            tracing::warn!(user = %self.name, error = %e, "quota usage not updated after a removal");
        }
    }

    /// The user's usage, counting its tree once if the store never did
    /// (its first login with a quota).
    pub async fn ensure_counted(&self, tree: Arc<dyn Storage>) -> io::Result<()> {
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
    pub async fn status(&self) -> io::Result<babelftp_session::QuotaInfo> {
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
pub struct Meter {
    quota: Quota,
    /// The file's size before the upload.
    old: Option<u64>,
    /// Bytes of the old file the upload replaces (freed when it commits).
    credit: u64,
    /// Bytes added to the usage so far.
    reserved: u64,
    /// Files added to the usage (1 for a new file).
    files: u64,
    /// The octets the upload holds (the last total admitted).
    total: u64,
}

impl Meter {
    /// Whether the upload may hold `total` bytes within what it has
    /// reserved already, without asking the store (taken as
    /// [`Meter::admit`] takes it); `false`: [`Meter::admit`] must ask.
    pub fn admit_reserved(&mut self, total: u64) -> bool {
        if total.saturating_sub(self.credit) > self.reserved {
            return false;
        }
        self.total = total;
        true
    }

    /// Whether the upload may hold `total` bytes; reserves what is
    /// missing. `QuotaExceeded` when the quota does not allow them.
    pub async fn admit(&mut self, total: u64) -> io::Result<()> {
        self.total = total;
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
        // A step ahead leaves a step free: the account's other uploads
        // under way (on any node) must not find the quota taken by what
        // this one reserved and has yet to use (three small files sent
        // at once under a 2 MiB quota: the third was refused).
        let mut ahead = q.limits;
        ahead.quota_bytes = ahead.quota_bytes.map(|b| b.saturating_sub(step));
        for (amount, limits) in [(missing.max(step), &ahead), (missing, &q.limits)] {
            if q.store.reserve(&q.name, amount, 0, limits).await.map_err(store_error)? {
                self.reserved += amount;
                return Ok(());
            }
        }
        Err(exceeded())
    }

    /// Before an upload written beside its name (STOR, the web view's)
    /// takes it: `there` is the file at the name now (`None`: none). The
    /// upload replaces what is there now, not what was there when it began
    /// (another session may have renamed or deleted it since): the
    /// reservation is brought up to the upload's size less that, with a
    /// file's place when the name is free, so the usage never passes the
    /// quota. `QuotaExceeded` when the quota does not allow it.
    pub async fn before_commit(&mut self, there: Option<u64>) -> io::Result<()> {
        self.credit = there.unwrap_or(0);
        self.admit(self.total).await?;
        if there.is_none() && self.files == 0 {
            let q = &self.quota;
            if !q.store.reserve(&q.name, 0, 1, &q.limits).await.map_err(store_error)? {
                return Err(exceeded());
            }
            self.files = 1;
        }
        Ok(())
    }

    /// The upload took its name: the account is settled with exactly what
    /// the commit says it replaced and holds. (An object store cannot say
    /// what it replaced: the file there when the upload began stands.)
    pub async fn settle_committed(self, c: babelftp_storage::Committed) {
        use babelftp_storage::Replaced;
        let replaced = match c.replaced {
            Replaced::Nothing => None,
            Replaced::File(n) => Some(n),
            Replaced::Unknown => self.old,
        };
        self.apply(Some(c.size), replaced).await;
    }

    /// The upload never took its name (written beside it and not
    /// committed, or given up before a byte was written): nothing changed,
    /// and what was reserved goes back.
    pub async fn settle_unchanged(self) {
        let old = self.old;
        self.apply(old, old).await;
    }

    /// The upload ended; the file is now `now` bytes (`None`: no file).
    /// What was reserved is replaced by the real change.
    pub async fn settle(self, now: Option<u64>) {
        let old = self.old;
        self.apply(now, old).await;
    }

    /// Settles the account: the name held `before` and now holds `now`
    /// (`None`: no file), in place of what was reserved.
    async fn apply(self, now: Option<u64>, before: Option<u64>) {
        let size = |s: Option<u64>| i64::try_from(s.unwrap_or(0)).unwrap_or(i64::MAX);
        let count = |s: Option<u64>| i64::from(s.is_some());
        let bytes = size(now) - size(before) - i64::try_from(self.reserved).unwrap_or(i64::MAX);
        let files = count(now) - count(before) - i64::try_from(self.files).unwrap_or(i64::MAX);
        let q = &self.quota;
        if let Err(e) = q.store.adjust_usage(&q.name, bytes, files).await {
            tracing::warn!(user = %q.name, error = %e, "quota usage not settled after an upload");
        }
    }
}

/// Commits an upload written beside its name (STOR, the web view's), on
/// every door: under a quota, the reservation is first brought up to what
/// the name holds now ([`Meter::before_commit`]; `QuotaExceeded`, and the
/// upload discarded, when that leaves no room), then the account is
/// settled with exactly what the commit replaced. Without a quota, just
/// the commit.
pub async fn commit_beside(
    meter: Option<Meter>,
    st: Arc<dyn Storage>,
    path: VPath,
    upload: Box<dyn babelftp_storage::Upload>,
) -> io::Result<babelftp_storage::Committed> {
    commit_beside_held(meter, st, path, upload, false).await.map(|(c, _)| c)
}

/// [`commit_beside`]; `hold`: with what the name held kept until the
/// returned [`crate::transfer::HeldUpload`] is kept or undone (an undo
/// settles the account back).
pub async fn commit_beside_held(
    meter: Option<Meter>,
    st: Arc<dyn Storage>,
    path: VPath,
    upload: Box<dyn babelftp_storage::Upload>,
    hold: bool,
) -> io::Result<(babelftp_storage::Committed, Option<crate::transfer::HeldUpload>)> {
    let commit = move |upload: Box<dyn babelftp_storage::Upload>| {
        if hold {
            upload.commit_held()
        } else {
            upload.commit().map(|c| (c, None))
        }
    };
    let Some(mut meter) = meter else {
        let (c, held) = tokio::task::spawn_blocking(move || commit(upload))
            .await
            .map_err(io::Error::other)?
            .map_err(io::Error::from)?;
        return Ok((c, held.map(|h| crate::transfer::HeldUpload::new(h, None))));
    };
    let there = tokio::task::spawn_blocking(move || crate::file_size(&*st, &path))
        .await
        .unwrap_or(None);
    if let Err(e) = meter.before_commit(there).await {
        let _ = tokio::task::spawn_blocking(move || upload.discard()).await;
        meter.settle_unchanged().await;
        return Err(e);
    }
    match tokio::task::spawn_blocking(move || commit(upload)).await {
        Ok(Ok((c, held))) => {
            let quota = meter.quota.clone();
            meter.settle_committed(c).await;
            // An undo puts back what the name held: the account goes back
            // from the new file to it.
            let undo = |quota: Quota| {
                let size = |s: Option<u64>| i64::try_from(s.unwrap_or(0)).unwrap_or(i64::MAX);
                let before = match c.replaced {
                    babelftp_storage::Replaced::File(n) => Some(n),
                    _ => None,
                };
                (
                    quota,
                    size(before) - size(Some(c.size)),
                    i64::from(before.is_some()) - 1,
                )
            };
            Ok((c, held.map(|h| crate::transfer::HeldUpload::new(h, Some(undo(quota))))))
        }
        Ok(Err(e)) => {
            meter.settle_unchanged().await;
            Err(e.into())
        }
        Err(e) => {
            meter.settle_unchanged().await;
            Err(io::Error::other(e))
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
                EntryKind::Dir => {
                    // A directory is one of the entries a file quota counts.
                    usage.files += 1;
                    dirs.push(dir.join(&e.name));
                }
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    /// Three small uploads of one account at once under a 2 MiB quota:
    /// each step ahead used to take 1 MiB, so the third found the quota
    /// taken by reservations the other two never used, and was refused.
    /// A step ahead now leaves a step free; the exact need always fits.
    #[tokio::test]
    async fn an_uploads_step_ahead_never_refuses_the_accounts_other_uploads() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("q.db").to_str().unwrap()).await.unwrap();
        let limits = Limits {
            quota_bytes: Some(2 << 20),
            ..Limits::default()
        };
        let q = Quota {
            store,
            name: "u".to_owned(),
            limits,
        };
        let mut meters = Vec::new();
        for _ in 0..3 {
            meters.push(q.meter(None, 0).await.unwrap());
        }
        for (i, m) in meters.iter_mut().enumerate() {
            m.admit(1500).await.unwrap_or_else(|e| panic!("upload {i}: {e}"));
        }
        // Past the quota is still refused, and the usage never passes it.
        let mut big = q.meter(None, 0).await.unwrap();
        assert_eq!(
            big.admit(3 << 20).await.unwrap_err().kind(),
            io::ErrorKind::QuotaExceeded
        );
        let used = q.store.usage("u").await.unwrap().unwrap_or_default();
        assert!(used.bytes <= 2 << 20, "{used:?}");
        // Each upload settles with its real size: what was reserved ahead
        // goes back.
        for m in meters {
            m.settle_committed(babelftp_storage::Committed {
                replaced: babelftp_storage::Replaced::Nothing,
                size: 1500,
            })
            .await;
        }
        big.settle_unchanged().await;
        let used = q.store.usage("u").await.unwrap().unwrap_or_default();
        assert_eq!((used.bytes, used.files), (4500, 3));
    }
}
