//! Rules at a link's target (issue 45): a user's tree wrapped so that a
//! path that reaches elsewhere through a symlink (`/pub/privlink ->
//! ../private`) is allowed only when the account's rules allow the same
//! operation at what it reaches (`/private/...`) too. The doors check the
//! rules at the path the client named; this layer checks them at the
//! target, for every door (FTP, FTPS, the web view), since every door
//! works on the tree built at login.
//!
//! An operation on the content (stat, listing, download, a write in place,
//! chmod, times) follows every link of the path; one on the name itself
//! (delete, rename, mkdir, rmdir, an upload that takes its name) follows
//! the links of its directory only: removing a link removes the link, not
//! what it points to. An account whose rules are the same everywhere is
//! not wrapped (nothing to check, no `lstat` per component).

use std::sync::Arc;

use babelftp_policy::{Perm, Rules};
use babelftp_proto::display::PlainPath;
use babelftp_proto::listing::Entry;
use babelftp_session::{Capabilities, VPath, WriteMode};

use crate::storage::{DirEntries, NameBatches, ReadHandle, Result, Storage, StorageError, Upload};

/// A user's tree whose links are held to the user's rules.
pub struct LinkRules {
    inner: Arc<dyn Storage>,
    rules: Arc<Rules>,
}

impl LinkRules {
    /// `inner` held to `rules` at link targets; `inner` itself when the
    /// rules are the same everywhere.
    pub fn wrap(inner: Arc<dyn Storage>, rules: Arc<Rules>) -> Arc<dyn Storage> {
        if rules.is_uniform() {
            return inner;
        }
        Arc::new(LinkRules { inner, rules })
    }

    fn allowed_at(&self, p: &VPath, real: Option<VPath>, perm: Perm) -> Result<()> {
        let Some(real) = real else {
            return Ok(());
        };
        if self.rules.at(real.components()).has(perm) {
            return Ok(());
        }
        tracing::info!(
            path = %PlainPath(&p.to_bytes()),
            target = %PlainPath(&real.to_bytes()),
            perm = perm.name(),
            "refused by the account's permissions at a link's target"
        );
        Err(StorageError::PermissionDenied)
    }

    /// `perm` at where `p` leads, every link followed.
    fn content(&self, p: &VPath, perm: Perm) -> Result<()> {
        self.allowed_at(p, self.inner.link_target(p), perm)
    }

    /// `perm` at the name `p` in the directory its parent leads to.
    fn name(&self, p: &VPath, perm: Perm) -> Result<()> {
        let Some(name) = p.file_name() else {
            return self.content(p, perm);
        };
        let real = self.inner.link_target(&p.parent()).map(|d| d.join(name));
        self.allowed_at(p, real, perm)
    }
}

impl Storage for LinkRules {
    fn quick(&self) -> bool {
        self.inner.quick()
    }

    fn stat(&self, p: &VPath) -> Result<Entry> {
        self.content(p, Perm::List)?;
        self.inner.stat(p)
    }

    fn link_target(&self, p: &VPath) -> Option<VPath> {
        self.inner.link_target(p)
    }

    fn is_dir(&self, p: &VPath) -> bool {
        self.content(p, Perm::List).is_ok() && self.inner.is_dir(p)
    }

    fn list(&self, p: &VPath) -> Result<Vec<Entry>> {
        self.content(p, Perm::List)?;
        self.inner.list(p)
    }

    fn read_dir(&self, p: &VPath, names_only: bool) -> Result<DirEntries> {
        self.content(p, Perm::List)?;
        self.inner.read_dir(p, names_only)
    }

    fn read_names(&self, p: &VPath) -> Result<Box<dyn NameBatches>> {
        self.content(p, Perm::List)?;
        self.inner.read_names(p)
    }

    fn open_read(&self, p: &VPath, offset: u64) -> Result<ReadHandle> {
        self.content(p, Perm::Download)?;
        self.inner.open_read(p, offset)
    }

    fn open_write(&self, p: &VPath, mode: WriteMode) -> Result<Box<dyn Upload>> {
        self.may_write(p, mode)?;
        self.inner.open_write(p, mode)
    }

    fn open_write_reusing(
        &self,
        p: &VPath,
        mode: WriteMode,
        spare: Box<dyn babelftp_storage::Held>,
    ) -> Result<Box<dyn Upload>> {
        self.may_write(p, mode)?;
        self.inner.open_write_reusing(p, mode, spare)
    }

    fn mkdir(&self, p: &VPath) -> Result<()> {
        self.name(p, Perm::Mkdir)?;
        self.inner.mkdir(p)
    }

    fn rmdir(&self, p: &VPath) -> Result<()> {
        self.name(p, Perm::Rmdir)?;
        self.inner.rmdir(p)
    }

    fn remove_file(&self, p: &VPath) -> Result<()> {
        self.name(p, Perm::Delete)?;
        self.inner.remove_file(p)
    }

    fn remove_file_counted(&self, p: &VPath) -> Result<Option<u64>> {
        self.name(p, Perm::Delete)?;
        self.inner.remove_file_counted(p)
    }

    fn rename(&self, from: &VPath, to: &VPath) -> Result<()> {
        self.name(from, Perm::Rename)?;
        self.name(to, Perm::Rename)?;
        self.inner.rename(from, to)
    }

    fn rename_no_replace(&self, from: &VPath, to: &VPath) -> Result<()> {
        self.name(from, Perm::Rename)?;
        self.name(to, Perm::Rename)?;
        self.inner.rename_no_replace(from, to)
    }

    fn chmod(&self, p: &VPath, mode: u32) -> Result<()> {
        self.content(p, Perm::Chmod)?;
        self.inner.chmod(p, mode)
    }

    fn set_modified(&self, p: &VPath, unix_secs: i64) -> Result<()> {
        self.content(p, Perm::Chmod)?;
        self.inner.set_modified(p, unix_secs)
    }

    fn capabilities(&self) -> Capabilities {
        self.inner.capabilities()
    }

    fn name_charset(&self, p: &VPath) -> Option<&'static str> {
        self.inner.name_charset(p)
    }

    fn stored_path(&self, p: &VPath) -> Vec<u8> {
        self.inner.stored_path(p)
    }

    fn subdir(&self, p: &VPath) -> Result<Arc<dyn Storage>> {
        self.content(p, Perm::List)?;
        self.inner.subdir(p)
    }

    fn sweep_leftovers(&self, before: std::time::SystemTime) -> usize {
        self.inner.sweep_leftovers(before)
    }

    fn probe(&self) -> Result<()> {
        self.inner.probe()
    }
}

impl LinkRules {
    /// The rules a write at `p` must pass at link targets.
    fn may_write(&self, p: &VPath, mode: WriteMode) -> Result<()> {
        match mode {
            // Written in the file itself: through every link.
            WriteMode::Append | WriteMode::At(_) => self.content(p, Perm::Overwrite)?,
            // Written beside the name, then takes it.
            WriteMode::Replace | WriteMode::New | WriteMode::Unique => {
                let exists = self.inner.stat(p).is_ok();
                self.name(p, if exists { Perm::Overwrite } else { Perm::Upload })?;
            }
        }
        Ok(())
    }
}
