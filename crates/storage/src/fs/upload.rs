//! [`FsUpload`]: an upload to a local file, through a temporary name
//! beside its target, and that name.

use std::ffi::OsStr;
use std::io::{self, Seek, SeekFrom};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use cap_std::fs::{Dir, File, OpenOptions};

use super::{Fsync, TEMP_PREFIX, TEMP_SUFFIX};
use crate::{Committed, Replaced, Result, Upload};

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
    fn commit(mut self: Box<Self>) -> Result<Committed> {
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
            return Ok(Committed {
                replaced: in_place,
                size,
            });
        };
        if let Ok(old) = self.dir.metadata(&self.target) {
            if old.is_file() {
                // Best effort: a file we may write but not chmod keeps
                // the new file's mode.
                let _ = self.file.set_permissions(old.permissions());
            }
        }
        let replaced = if self.no_replace {
            // link(2) fails with EEXIST if a file took the name since
            // the upload began: never replaced.
            self.dir
                .hard_link(&temp, &self.dir, &self.target)
                .and_then(|()| self.dir.remove_file(&temp))
                .map(|()| Replaced::Nothing)
        } else {
            self.take_name(&temp)
        };
        let replaced = match replaced {
            Ok(r) => r,
            Err(e) => {
                self.temp = Some(temp);
                return Err(e.into());
            }
        };
        if self.fsync == Fsync::Always {
            // The rename itself must survive a crash too.
            self.dir.open(".")?.sync_all()?;
        }
        Ok(Committed { replaced, size })
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
    fn take_name(&self, temp: &Path) -> io::Result<Replaced> {
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
                    if let Err(e) = self.dir.remove_file(temp) {
                        // Swept at the next start.
                        tracing::warn!(error = %e, "the replaced file could not be removed");
                    }
                    return Ok(replaced);
                }
                Err(Errno::NOENT) => match renameat_with(fd, temp, fd, &self.target, RenameFlags::NOREPLACE) {
                    Ok(()) => return Ok(Replaced::Nothing),
                    Err(Errno::EXIST) => continue,
                    Err(e) => return Err(e.into()),
                },
                Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {
                    let replaced = match self.dir.symlink_metadata(&self.target) {
                        Ok(m) if m.is_file() => Replaced::File(m.len()),
                        _ => Replaced::Nothing,
                    };
                    self.dir.rename(temp, &self.dir, &self.target)?;
                    return Ok(replaced);
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
pub(super) fn create_temp(dir: &Dir) -> io::Result<(File, PathBuf)> {
    let mut opts = OpenOptions::new();
    opts.write(true).create_new(true);
    for n in 0u32..1000 {
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
