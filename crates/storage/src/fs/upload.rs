//! [`FsUpload`]: an upload to a local file, through a temporary name
//! beside its target, and that name.

use cap_std::fs::MetadataExt;
use std::ffi::OsStr;
use std::io::{self, Seek, SeekFrom};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use cap_std::fs::{Dir, File, OpenOptions};

use super::{Fsync, TEMP_PREFIX, TEMP_SUFFIX};
use crate::{Committed, Held, Replaced, Result, Upload};

/// An upload to a local file. Dropping it without commit removes a
/// temporary file, and a file this upload created but wrote nothing to
/// (STOU, APPE of a new name, whose data connection never came).
pub struct FsUpload {
    pub(super) file: File,
    pub(super) dir: Dir,
    pub(super) temp: Option<PathBuf>,
    pub(super) target: PathBuf,
    pub(super) fsync: Fsync,
    /// The target must not exist at commit (`WriteMode::New`): the
    /// temporary file is linked to it, which fails if it is there.
    pub(super) no_replace: bool,
    /// REST+STOR: the offset to cut the file at, once data arrive (not
    /// before: a data connection that never comes leaves the file whole).
    pub(super) truncate_at: Option<u64>,
    /// A file created by this upload, removed if dropped with nothing
    /// written.
    pub(super) created: Option<PathBuf>,
    pub(super) written: u64,
    /// APPE and REST+STOR (in place): the file's length before the
    /// upload, what [`Upload::discard`] cuts it back to.
    pub(super) restore_len: Option<u64>,
}

impl FsUpload {
    /// REST+STOR: cut the file at the offset, and write from there.
    fn start_at_offset(&mut self) -> io::Result<()> {
        if let Some(offset) = self.truncate_at.take() {
            self.file.set_len(offset)?;
            self.file.seek(SeekFrom::Start(offset))?;
        }
        Ok(())
    }
}

impl Upload for FsUpload {
    fn write_all(&mut self, buf: &[u8]) -> Result<()> {
        self.start_at_offset()?;
        io::Write::write_all(&mut self.file, buf)?;
        self.written += buf.len() as u64;
        Ok(())
    }

    fn writes_locally(&self) -> bool {
        true
    }

    fn commits_quickly(&self) -> bool {
        // `always` flushes the file and its directory before the reply.
        self.fsync != Fsync::Always
    }

    fn discard(mut self: Box<Self>) -> Result<()> {
        if let Some(created) = self.created.take() {
            // A file this upload made: gone with it.
            let _ = self.dir.remove_file(created);
        } else if let Some(len) = self.restore_len {
            self.file.set_len(len)?;
        }
        Ok(())
    }

    /// For a replacing STOR, puts the temporary file at the target's name
    /// (keeping the replaced file's permission bits), atomically, and says
    /// what the name held at that moment (see [`FsUpload::take_name`]).
    fn commit(self: Box<Self>) -> Result<Committed> {
        (*self).finish(false).map(|(c, _)| c)
    }

    fn can_hold(&self) -> bool {
        self.temp.is_some()
    }

    fn commit_held(self: Box<Self>) -> Result<(Committed, Option<Box<dyn Held>>)> {
        (*self)
            .finish(true)
            .map(|(c, held)| (c, held.map(|h| Box::new(h) as Box<dyn Held>)))
    }
}

impl FsUpload {
    /// The commit; `hold`: a file written beside its name keeps what it
    /// replaced under the temporary name, in the returned [`FsHeld`].
    fn finish(mut self, hold: bool) -> Result<(Committed, Option<FsHeld>)> {
        self.start_at_offset()?;
        // A write in place replaced the file's old length (a file it
        // created replaced nothing).
        let in_place = match self.created.take() {
            Some(_) => Replaced::Nothing,
            None => self.restore_len.map_or(Replaced::Nothing, Replaced::File),
        };
        if self.fsync == Fsync::Always {
            self.file.sync_data()?;
        }
        let size = self.file.metadata()?.len();
        let Some(temp) = self.temp.take() else {
            return Ok((
                Committed {
                    replaced: in_place,
                    size,
                },
                None,
            ));
        };
        if let Ok(old) = self.dir.metadata(&self.target) {
            if old.is_file() {
                // Best effort: a file we may write but not chmod keeps
                // the new file's mode.
                let _ = self.file.set_permissions(old.permissions());
            }
        }
        // The folder's identity, for the list of kept files: taken before
        // the name changes, so that an error here changes nothing.
        let folder = match hold {
            true => Some(super::kept::folder(&self.dir)?),
            false => None,
        };
        let replaced = if self.no_replace {
            // link(2) fails with EEXIST if a file took the name since
            // the upload began: never replaced.
            self.dir
                .hard_link(&temp, &self.dir, &self.target)
                .and_then(|()| self.dir.remove_file(&temp))
                .map(|()| (Replaced::Nothing, false))
        } else {
            self.take_name(&temp, hold)
        };
        let (replaced, old_kept) = match replaced {
            Ok(r) => r,
            Err(e) => {
                self.temp = Some(temp);
                return Err(e.into());
            }
        };
        let held = if let Some(folder) = folder {
            let meta = self.file.metadata()?;
            let held = FsHeld {
                dir: self.dir.try_clone()?,
                folder,
                target: std::mem::take(&mut self.target),
                old: old_kept.then_some(temp),
                old_size: match replaced {
                    Replaced::File(n) => n,
                    _ => 0,
                },
                file: (meta.dev(), meta.ino()),
            };
            if let Some(old) = &held.old {
                super::kept::keep(folder, old);
            }
            Some(held)
        } else {
            None
        };
        match self.fsync {
            // The rename itself must survive a crash too (a flush shared
            // with the uploads renamed into this directory meanwhile).
            Fsync::Always => super::durable::sync_dir(&self.dir)?,
            Fsync::Batch => super::durable::flush_later(&self.dir),
            Fsync::Never => {}
        }
        Ok((Committed { replaced, size }, held))
    }
}

/// A committed upload that can still be undone ([`Held`]): its name, the
/// replaced file under the temporary name (if one was replaced), and the
/// new file's identity (an undo touches the name only while it still
/// holds this upload's file).
pub struct FsHeld {
    dir: Dir,
    /// The folder `dir` is ([`super::kept`]).
    folder: (u64, u64),
    target: PathBuf,
    /// The replaced file's temporary name, listed in [`super::kept`]
    /// while it is here.
    old: Option<PathBuf>,
    /// The replaced file's size.
    old_size: u64,
    file: (u64, u64),
}

impl FsHeld {
    /// The replaced file's name, taken back from [`super::kept`]; `None`
    /// when there is none or an RMD of the folder removed it.
    fn take_old(&mut self) -> Option<PathBuf> {
        self.old.take().filter(|old| super::kept::take(self.folder, old))
    }

    /// Whether the name still holds this upload's file.
    fn still_ours(&self) -> bool {
        self.dir
            .symlink_metadata(&self.target)
            .is_ok_and(|m| (m.dev(), m.ino()) == self.file)
    }
}

impl Held for FsHeld {
    fn replaced(&self) -> Option<u64> {
        self.old.as_ref().map(|_| self.old_size)
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any + Send> {
        self
    }

    fn keep(mut self: Box<Self>) -> Result<()> {
        match self.take_old() {
            Some(old) => Ok(self.dir.remove_file(old)?),
            None => Ok(()),
        }
    }

    fn undo(mut self: Box<Self>) -> Result<bool> {
        use rustix::fs::{renameat_with, RenameFlags};
        use std::os::fd::AsFd;
        if !self.still_ours() {
            // Replaced, renamed or removed since: that change stands.
            return Ok(false);
        }
        match self.take_old() {
            Some(old) => {
                // The old file back at the name, this upload's at the
                // temporary name, then gone.
                let fd = self.dir.as_fd();
                renameat_with(fd, &old, fd, &self.target, RenameFlags::EXCHANGE).map_err(io::Error::from)?;
                self.dir.remove_file(old)?;
            }
            None => self.dir.remove_file(&self.target)?,
        }
        Ok(true)
    }
}

impl Drop for FsHeld {
    fn drop(&mut self) {
        // Neither kept nor undone: the upload stands.
        if let Some(old) = self.take_old() {
            let _ = self.dir.remove_file(old);
        }
    }
}

impl FsUpload {
    /// Puts `temp` at the target's name and says what the name held then.
    /// `renameat2(RENAME_EXCHANGE)` swaps the two names in one step, so
    /// what was replaced is exactly what now sits at `temp`: its size is
    /// read there, then it is removed. (A stat of the target before a
    /// plain rename would race with another session renaming the file
    /// away, and a quota would count the file it no longer replaces.)
    /// A free name is taken with `RENAME_NOREPLACE`; a file that appears
    /// meanwhile is swapped with again. A filesystem without either flag
    /// gets a stat, then a plain rename.
    /// `hold`: a replaced file stays at `temp` (the second value says
    /// whether one is there) rather than being removed.
    fn take_name(&self, temp: &Path, hold: bool) -> io::Result<(Replaced, bool)> {
        use rustix::fs::{renameat_with, RenameFlags};
        use rustix::io::Errno;
        use std::os::fd::AsFd;
        let fd = self.dir.as_fd();
        for _ in 0..8 {
            match renameat_with(fd, temp, fd, &self.target, RenameFlags::EXCHANGE) {
                Ok(()) => {
                    let old = self.dir.symlink_metadata(temp)?;
                    if old.is_dir() {
                        // A directory took the name: put it back.
                        renameat_with(fd, temp, fd, &self.target, RenameFlags::EXCHANGE)?;
                        return Err(io::ErrorKind::IsADirectory.into());
                    }
                    let replaced = if old.is_file() {
                        Replaced::File(old.len())
                    } else {
                        Replaced::Nothing
                    };
                    if hold && old.is_file() {
                        return Ok((replaced, true));
                    }
                    if let Err(e) = self.dir.remove_file(temp) {
                        // Swept at the next start.
                        tracing::warn!(error = %e, "the replaced file could not be removed");
                    }
                    return Ok((replaced, false));
                }
                Err(Errno::NOENT) => match renameat_with(fd, temp, fd, &self.target, RenameFlags::NOREPLACE) {
                    Ok(()) => return Ok((Replaced::Nothing, false)),
                    Err(Errno::EXIST) => continue,
                    Err(e) => return Err(e.into()),
                },
                Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {
                    let replaced = match self.dir.symlink_metadata(&self.target) {
                        Ok(m) if m.is_file() => Replaced::File(m.len()),
                        _ => Replaced::Nothing,
                    };
                    self.dir.rename(temp, &self.dir, &self.target)?;
                    return Ok((replaced, false));
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(io::Error::other("the upload's name kept changing while it was taken"))
    }
}

impl Drop for FsUpload {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            let _ = self.dir.remove_file(temp);
        }
        if let Some(created) = self.created.take() {
            if self.written == 0 {
                let _ = self.dir.remove_file(created);
            }
        }
    }
}

/// Creates `.babelftp-<pid>-<n>.part` beside the target with
/// `create_new` (see [`TEMP_PREFIX`]).
/// The largest replaced file kept to be written over by the next upload
/// into its folder ([`reuse_temp`]).
const SPARE_MAX: u64 = 1 << 20;

/// A temporary file for an upload into `dir`: the file a kept upload
/// (`spare`) replaced, cut to nothing, when it is small, in this very
/// folder and still only under its temporary name; else a new one
/// ([`create_temp`]), and the spare goes (as when a held upload is kept).
pub(super) fn reuse_temp(dir: &Dir, spare: Box<dyn std::any::Any + Send>) -> io::Result<(File, PathBuf)> {
    if let Ok(mut held) = spare.downcast::<FsHeld>() {
        if let Some(reused) = held.reuse_in(dir) {
            return Ok(reused);
        }
        // Dropped: its replaced file is removed.
    }
    create_temp(dir)
}

impl FsHeld {
    /// The replaced file, opened cut to nothing, if it is small, in the
    /// folder `dir` is (the same inode: a folder renamed since is
    /// another), a plain file with no other name (nothing can have linked
    /// it: the temporary names are reserved), owned as a file this server
    /// makes is (a file someone else owned must not give its owner to
    /// the next upload), and its name.
    fn reuse_in(&mut self, dir: &Dir) -> Option<(File, PathBuf)> {
        if self.old_size > SPARE_MAX {
            return None;
        }
        let here = dir.dir_metadata().ok()?;
        if (here.dev(), here.ino()) != self.folder {
            return None;
        }
        // Taken from the list first: an RMD of the folder no longer
        // removes it (it is an upload's file again), and if one has,
        // there is nothing to reuse.
        let old = self.take_old()?;
        match self.open_cut(&old) {
            Some(file) => Some((file, old)),
            None => {
                let _ = self.dir.remove_file(&old);
                None
            }
        }
    }

    /// The replaced file `old` opened for writing and cut to nothing, if
    /// it may be written into (see [`FsHeld::reuse_in`]).
    fn open_cut(&self, old: &Path) -> Option<File> {
        let mut opts = OpenOptions::new();
        opts.write(true);
        let file = self.dir.open_with(old, &opts).ok()?;
        let meta = file.metadata().ok()?;
        let ours =
            meta.uid() == rustix::process::geteuid().as_raw() && meta.gid() == rustix::process::getegid().as_raw();
        if !meta.is_file() || meta.nlink() != 1 || !ours {
            return None;
        }
        file.set_len(0).ok()?;
        Some(file)
    }
}

pub(super) fn create_temp(dir: &Dir) -> io::Result<(File, PathBuf)> {
    // Each upload of the process starts at a number of its own: 1,000
    // uploads into one folder at once each tried every taken name from 0.
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let first = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut opts = OpenOptions::new();
    opts.write(true).create_new(true);
    for n in (0u32..1000).map(|i| first.wrapping_add(i)) {
        let mut t = TEMP_PREFIX.to_vec();
        t.extend_from_slice(format!("{}-{n}", std::process::id()).as_bytes());
        t.extend_from_slice(TEMP_SUFFIX);
        let temp = PathBuf::from(OsStr::from_bytes(&t));
        match dir.open_with(&temp, &opts) {
            Ok(f) => return Ok((f, temp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(io::ErrorKind::AlreadyExists, "no free temporary name"))
}
