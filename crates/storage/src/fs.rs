//! The local filesystem back-end, confined beneath its root by cap-std.

use std::ffi::OsStr;
use std::io::{self, Seek, SeekFrom};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use babelftp_proto::listing::{Entry, EntryKind};
use cap_std::ambient_authority;
use cap_std::fs::MetadataExt;
use cap_std::fs::{Dir, File, OpenOptions};

use babelftp_i18n::names::{local_to_wire, wire_candidates, CharsetMap};
use babelftp_i18n::Charset;

use super::{
    Capabilities, Committed, DirEntries, ReadHandle, Replaced, Result, Storage, StorageError, Upload, VPath, WriteMode,
};

/// When an upload's data reach the disk.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Fsync {
    /// Before the 226: the file's data, and the directory after a rename
    /// (the default: a 226 means the upload survives a power cut). An
    /// error is reported (451), never followed by 226.
    #[default]
    Always,
    /// Left to the kernel (faster on disks that sync slowly).
    Never,
}

/// An upload's temporary name: `.babelftp-<pid>-<n>.part`, beside its
/// target. Short whatever the target's name (a name near NAME_MAX has
/// room for it), never listed, swept at start, refused from clients (the
/// pattern is the session's, which refuses it).
pub use babelftp_proto::vpath::{is_temp_name, TEMP_PREFIX, TEMP_SUFFIX};

/// An upload to a local file. Dropping it without commit removes a
/// temporary file, and a file this upload created but wrote nothing to
/// (STOU, APPE of a new name, whose data connection never came).
pub struct FsUpload {
    file: File,
    dir: Dir,
    temp: Option<PathBuf>,
    target: PathBuf,
    fsync: Fsync,
    /// The target must not exist at commit (`WriteMode::New`): the
    /// temporary file is linked to it, which fails if it is there.
    no_replace: bool,
    /// REST+STOR: the offset to cut the file at, once data arrive (not
    /// before: a data connection that never comes leaves the file whole).
    truncate_at: Option<u64>,
    /// A file created by this upload, removed if dropped with nothing
    /// written.
    created: Option<PathBuf>,
    written: u64,
    /// APPE and REST+STOR (in place): the file's length before the
    /// upload, what [`Upload::discard`] cuts it back to.
    restore_len: Option<u64>,
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

/// The local filesystem beneath a root directory, with the charsets of its
/// names (RFC 2640 B.3: this is the one place where names meet the disk).
#[derive(Debug)]
pub struct FsStorage {
    root: Arc<Dir>,
    charsets: Arc<CharsetMap>,
    /// Where this storage's root sits in the server's tree (a user's home),
    /// so subtree charsets keep applying below it.
    base: Vec<Vec<u8>>,
    fsync: Fsync,
}

impl FsStorage {
    /// Opens the root directory (which must exist). Names are bytes, not
    /// translated, until [`FsStorage::with_charsets`].
    pub fn open(root: &Path) -> io::Result<Self> {
        Ok(FsStorage {
            root: Arc::new(Dir::open_ambient_dir(root, ambient_authority())?),
            charsets: Arc::new(CharsetMap::default()),
            base: Vec::new(),
            fsync: Fsync::default(),
        })
    }

    /// Sets when uploads are synced to disk.
    pub fn with_fsync(mut self, fsync: Fsync) -> Self {
        self.fsync = fsync;
        self
    }

    /// When uploads are synced to disk.
    pub fn fsync(&self) -> Fsync {
        self.fsync
    }

    /// Removes the temporary files of uploads that an earlier run left
    /// behind (a crash, a kill -9): every `.babelftp-*.part` below the
    /// root last written before `before`. Symlinks are not followed.
    /// Returns how many were removed.
    pub fn sweep_temp_files(&self, before: std::time::SystemTime) -> usize {
        let mut removed = 0;
        let mut dirs = vec![match self.root.try_clone() {
            Ok(d) => d,
            Err(_) => return 0,
        }];
        while let Some(dir) = dirs.pop() {
            let Ok(entries) = dir.entries() else { continue };
            for de in entries.flatten() {
                let name = de.file_name();
                let Ok(md) = dir.symlink_metadata(&name) else { continue };
                if md.is_dir() {
                    if let Ok(sub) = dir.open_dir(&name) {
                        dirs.push(sub);
                    }
                } else if md.is_file()
                    && is_temp_name(name.as_bytes())
                    && md.modified().map(|t| t.into_std() < before).unwrap_or(false)
                    && dir.remove_file(&name).is_ok()
                {
                    removed += 1;
                }
            }
        }
        removed
    }

    /// Sets the charsets of local names (a translating server).
    pub fn with_charsets(mut self, charsets: CharsetMap) -> Self {
        self.charsets = Arc::new(charsets);
        self
    }

    /// The charset of names inside the directory at `dir` (components).
    fn charset_of(&self, dir: &[Vec<u8>]) -> Option<Charset> {
        if self.charsets.is_identity() {
            return None;
        }
        let mut full = self.base.clone();
        full.extend_from_slice(dir);
        self.charsets.for_dir(&full)
    }

    fn exists(&self, rel: &Path) -> bool {
        self.root.symlink_metadata(rel).is_ok()
    }

    /// The path on disk of a virtual path (RFC 2640 B.3): per component,
    /// the translated local name if it exists, else the raw bytes if they
    /// exist, else (to create it) the translated name. A UTF-8 name that
    /// the directory's charset cannot hold is refused for creation
    /// (`InvalidFilename`, reply 553) unless it already exists raw.
    fn resolve(&self, p: &VPath, create: bool) -> Result<PathBuf> {
        if self.charsets.is_identity() {
            return Ok(super::rel(p));
        }
        let comps = p.components();
        let mut disk = PathBuf::new();
        for (i, comp) in comps.iter().enumerate() {
            let c = wire_candidates(comp, self.charset_of(&comps[..i]));
            let raw = OsStr::from_bytes(comp);
            match c.translated {
                Some(t) => {
                    let t = OsStr::from_bytes(&t);
                    if !self.exists(&disk.join(t)) && self.exists(&disk.join(raw)) {
                        disk.push(raw);
                    } else {
                        disk.push(t);
                    }
                }
                None => {
                    let last = i + 1 == comps.len();
                    if c.untranslatable && last && create && !self.exists(&disk.join(raw)) {
                        let charset = self.charset_of(&comps[..i]).map_or("?", |c| c.name());
                        tracing::info!(
                            name = %babelftp_proto::display::PlainPath(comp),
                            charset,
                            "name refused: it cannot be written in this directory's charset"
                        );
                        return Err(StorageError::InvalidName);
                    }
                    disk.push(raw);
                }
            }
        }
        if disk.as_os_str().is_empty() {
            disk.push(".");
        }
        Ok(disk)
    }

    /// A directory opened to read its entries, on a descriptor of its own:
    /// cap-std opens directories O_PATH (getdents refuses those), and a
    /// `try_clone` of the root would share its offset with every other
    /// listing of `/`. It is also the base of each entry's fstatat.
    fn open_for_reading(&self, p: &VPath) -> Result<Dir> {
        let fd = rustix::fs::openat(
            &self.open_dir(p)?,
            c".",
            rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .map_err(io::Error::from)?;
        Ok(Dir::from_std_file(std::fs::File::from(fd)))
    }

    fn open_dir(&self, p: &VPath) -> io::Result<Dir> {
        if p.is_root() {
            self.root.try_clone()
        } else {
            self.root.open_dir(self.resolve(p, false)?)
        }
    }
}

impl Storage for FsStorage {
    fn subdir(&self, p: &VPath) -> Result<Arc<dyn Storage>> {
        let mut base = self.base.clone();
        base.extend_from_slice(p.components());
        Ok(Arc::new(FsStorage {
            root: Arc::new(self.open_dir(p)?),
            charsets: self.charsets.clone(),
            base,
            fsync: self.fsync,
        }))
    }

    /// Walks `p` on disk one component at a time (an `lstat` each) and
    /// follows each symlink lexically, as the kernel would, within this
    /// root; the target's virtual path (names back in their wire form)
    /// when a link was on the way.
    fn link_target(&self, p: &VPath) -> Option<VPath> {
        use std::collections::VecDeque;
        use std::os::unix::ffi::OsStrExt as _;
        if p.is_root() {
            return None;
        }
        let rel = self.resolve(p, false).ok()?;
        let mut todo: VecDeque<Vec<u8>> = rel
            .as_os_str()
            .as_bytes()
            .split(|&b| b == b'/')
            .map(<[u8]>::to_vec)
            .collect();
        let mut done: Vec<Vec<u8>> = Vec::new();
        let (mut followed, mut hops) = (false, 0);
        while let Some(c) = todo.pop_front() {
            match c.as_slice() {
                b"" | b"." => continue,
                // Above the root: cap-std refuses it, nothing is reached.
                b".." => {
                    done.pop()?;
                    continue;
                }
                _ => {}
            }
            done.push(c);
            let here: PathBuf = done.iter().map(|c| OsStr::from_bytes(c)).collect();
            let Ok(md) = self.root.symlink_metadata(&here) else {
                // Missing: the rest are plain names.
                continue;
            };
            if !md.file_type().is_symlink() {
                continue;
            }
            hops += 1;
            let target = self.root.read_link(&here).ok()?;
            if hops > 40 || target.is_absolute() {
                return None;
            }
            done.pop();
            for t in target.as_os_str().as_bytes().split(|&b| b == b'/').rev() {
                todo.push_front(t.to_vec());
            }
            followed = true;
        }
        if !followed {
            return None;
        }
        let mut v: Vec<Vec<u8>> = Vec::with_capacity(done.len());
        for c in &done {
            let wire = local_to_wire(c, self.charset_of(&v)).into_owned();
            v.push(wire);
        }
        Some(v.iter().fold(VPath::root(), |p, c| p.join(c)))
    }

    /// Metadata of a path. A symlink is followed when its target stays
    /// inside this root (cap-std refuses one that leaves it): a linked
    /// directory or file is what it links to, for every command. A link
    /// that leaves the root or leads nowhere is shown as the link.
    fn stat(&self, p: &VPath) -> Result<Entry> {
        let md = if p.is_root() {
            self.root.dir_metadata()?
        } else {
            let rel = self.resolve(p, false)?;
            match self.root.metadata(&rel) {
                Ok(md) => md,
                Err(_) => self.root.symlink_metadata(&rel)?,
            }
        };
        Ok(entry(p.file_name().unwrap_or(b"/").to_vec(), &md))
    }

    /// Whether a path is a directory one can enter.
    fn is_dir(&self, p: &VPath) -> bool {
        if p.is_root() {
            return true;
        }
        match self.resolve(p, false) {
            Ok(rel) => self.root.metadata(rel).map(|m| m.is_dir()).unwrap_or(false),
            Err(_) => false,
        }
    }

    /// The entries of a directory, sorted by name bytes.
    fn list(&self, p: &VPath) -> Result<Vec<Entry>> {
        let mut out = self.read_dir(p, false)?.collect::<Result<Vec<_>>>()?;
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    fn read_dir(&self, p: &VPath, names_only: bool) -> Result<DirEntries> {
        let rel = if p.is_root() {
            PathBuf::from(".")
        } else {
            self.resolve(p, false)?
        };
        let dir = self.open_for_reading(p)?;
        Ok(Box::new(FsDirEntries {
            root: self.root.clone(),
            rel,
            dir,
            buf: DirBuf::take(),
            pending: std::collections::VecDeque::new(),
            done: false,
            charset: self.charset_of(p.components()),
            names_only,
        }))
    }

    fn read_names(&self, p: &VPath) -> Result<Box<dyn crate::NameBatches>> {
        Ok(Box::new(FsNames {
            dir: self.open_for_reading(p)?,
            buf: DirBuf::take(),
            charset: self.charset_of(p.components()),
        }))
    }

    fn open_read(&self, p: &VPath, offset: u64) -> Result<ReadHandle> {
        let f = self.root.open(self.resolve(p, false)?)?;
        if !f.metadata()?.is_file() {
            return Err(StorageError::Invalid("not a plain file"));
        }
        let mut f = f.into_std();
        f.seek(SeekFrom::Start(offset))?;
        Ok(ReadHandle::File(f))
    }

    /// Opens a file for an upload.
    fn open_write(&self, p: &VPath, mode: WriteMode) -> Result<Box<dyn Upload>> {
        if p.is_root() {
            return Err(StorageError::Invalid("no file name"));
        }
        let rel = self.resolve(p, true)?;
        let dir = self.open_dir(&p.parent())?;
        let target = PathBuf::from(rel.file_name().unwrap_or_default());
        if let Ok(md) = dir.symlink_metadata(&target) {
            if md.is_dir() {
                return Err(StorageError::IsADirectory);
            }
        }
        let existed = dir.symlink_metadata(&target).is_ok();
        let mut opts = OpenOptions::new();
        opts.write(true);
        let mut truncate_at = None;
        let mut restore_len = None;
        let (file, temp) = match mode {
            WriteMode::Replace => {
                let (file, temp) = create_temp(&dir)?;
                (file, Some(temp))
            }
            WriteMode::New if existed => return Err(StorageError::AlreadyExists),
            WriteMode::New => {
                let (file, temp) = create_temp(&dir)?;
                (file, Some(temp))
            }
            WriteMode::Unique => (dir.open_with(&target, opts.create_new(true))?, None),
            WriteMode::Append => {
                let f = dir.open_with(&target, opts.append(true).create(true))?;
                restore_len = Some(f.metadata()?.len());
                (f, None)
            }
            WriteMode::At(offset) => {
                let f = dir.open_with(&target, opts.create(true))?;
                // REST beyond the end continues from the end, as
                // ProFTPD does, rather than leaving a hole.
                let len = f.metadata()?.len();
                truncate_at = Some(offset.min(len));
                restore_len = Some(len);
                (f, None)
            }
        };
        let created = (!existed && temp.is_none()).then(|| target.clone());
        Ok(Box::new(FsUpload {
            file,
            dir,
            temp,
            target,
            fsync: self.fsync,
            no_replace: mode == WriteMode::New,
            truncate_at,
            created,
            written: 0,
            restore_len,
        }))
    }

    /// MKD.
    fn mkdir(&self, p: &VPath) -> Result<()> {
        Ok(self.root.create_dir(self.resolve(p, true)?)?)
    }

    /// RMD.
    fn rmdir(&self, p: &VPath) -> Result<()> {
        if p.is_root() {
            return Err(StorageError::PermissionDenied);
        }
        Ok(self.root.remove_dir(self.resolve(p, false)?)?)
    }

    /// DELE under a quota: the file leaves its name in one step (renamed
    /// to a temporary name with `RENAME_NOREPLACE`), so what is counted as
    /// removed is exactly what left (a file an upload swapped in just
    /// before is the one removed, with its size); then it is unlinked.
    fn remove_file_counted(&self, p: &VPath) -> Result<Option<u64>> {
        use rustix::fs::{renameat_with, RenameFlags};
        use rustix::io::Errno;
        use std::os::fd::AsFd;
        if p.is_root() {
            return Err(StorageError::IsADirectory);
        }
        let rel = self.resolve(p, false)?;
        let dir = self.open_dir(&p.parent())?;
        let name = PathBuf::from(rel.file_name().unwrap_or_default());
        let fd = dir.as_fd();
        for n in 0u32..1000 {
            let mut t = TEMP_PREFIX.to_vec();
            t.extend_from_slice(format!("{}-d{n}", std::process::id()).as_bytes());
            t.extend_from_slice(TEMP_SUFFIX);
            let temp = PathBuf::from(OsStr::from_bytes(&t));
            match renameat_with(fd, &name, fd, &temp, RenameFlags::NOREPLACE) {
                Ok(()) => {
                    let md = dir.symlink_metadata(&temp)?;
                    if md.is_dir() {
                        // A directory took the name: it stays.
                        renameat_with(fd, &temp, fd, &name, RenameFlags::NOREPLACE).map_err(io::Error::from)?;
                        return Err(StorageError::IsADirectory);
                    }
                    dir.remove_file(&temp)?;
                    return Ok(md.is_file().then(|| md.len()));
                }
                Err(Errno::EXIST) => continue,
                Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => break,
                Err(e) => return Err(io::Error::from(e).into()),
            }
        }
        let size = match self.root.symlink_metadata(&rel)? {
            md if md.is_dir() => return Err(StorageError::IsADirectory),
            md => md.is_file().then(|| md.len()),
        };
        self.root.remove_file(rel)?;
        Ok(size)
    }

    /// DELE.
    fn remove_file(&self, p: &VPath) -> Result<()> {
        let rel = self.resolve(p, false)?;
        if self.root.symlink_metadata(&rel)?.is_dir() {
            return Err(StorageError::IsADirectory);
        }
        Ok(self.root.remove_file(rel)?)
    }

    /// SITE CHMOD (through cap-std: a symlink is followed only inside
    /// the root).
    fn chmod(&self, p: &VPath, mode: u32) -> Result<()> {
        use cap_std::fs::PermissionsExt;
        if p.is_root() {
            return Err(StorageError::PermissionDenied);
        }
        let rel = self.resolve(p, false)?;
        Ok(self
            .root
            .set_permissions(rel, cap_std::fs::Permissions::from_mode(mode & 0o777))?)
    }

    /// MFMT: the file is opened through cap-std (confined to the root, a
    /// symlink followed only inside it), read-only, and its time set on
    /// that descriptor (`futimens`): only a plain file, and the file
    /// checked is the file changed.
    fn set_modified(&self, p: &VPath, unix_secs: i64) -> Result<()> {
        let rel = self.resolve(p, false)?;
        let not_a_file = |md: &cap_std::fs::Metadata| -> Result<()> {
            if md.is_dir() {
                Err(StorageError::IsADirectory)
            } else if !md.is_file() {
                Err(StorageError::Invalid("not a plain file"))
            } else {
                Ok(())
            }
        };
        // Checked before the open too: opening a FIFO would wait for a
        // writer.
        not_a_file(&self.root.metadata(&rel)?)?;
        let f = self.root.open(&rel)?;
        not_a_file(&f.metadata()?)?;
        let when = if unix_secs >= 0 {
            UNIX_EPOCH.checked_add(Duration::from_secs(unix_secs.unsigned_abs()))
        } else {
            UNIX_EPOCH.checked_sub(Duration::from_secs(unix_secs.unsigned_abs()))
        }
        .ok_or(StorageError::Invalid("time out of range"))?;
        Ok(f.into_std().set_modified(when)?)
    }

    fn sweep_leftovers(&self, before: std::time::SystemTime) -> usize {
        self.sweep_temp_files(before)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::ALL
    }

    fn name_charset(&self, p: &VPath) -> Option<&'static str> {
        let comps = p.components();
        self.charset_of(&comps[..comps.len().saturating_sub(1)])
            .map(|c| c.name())
    }

    /// Each component as it is on disk ([`FsStorage::resolve`]: the
    /// translated name where it exists or is to be made, else the octets
    /// as sent).
    fn stored_path(&self, p: &VPath) -> Vec<u8> {
        if self.charsets.is_identity() || p.is_root() {
            return p.to_bytes();
        }
        let Ok(disk) = self.resolve(p, false) else {
            return p.to_bytes();
        };
        let mut out = Vec::new();
        for c in disk.components() {
            out.push(b'/');
            out.extend_from_slice(c.as_os_str().as_bytes());
        }
        if out.is_empty() {
            out.push(b'/');
        }
        out
    }

    /// RNFR/RNTO.
    fn rename(&self, from: &VPath, to: &VPath) -> Result<()> {
        if from.is_root() || to.is_root() {
            return Err(StorageError::PermissionDenied);
        }
        let (from, to) = (self.resolve(from, false)?, self.resolve(to, true)?);
        Ok(self.root.rename(from, &self.root, to)?)
    }
}

/// Creates `.babelftp-<pid>-<n>.part` beside the target with
/// `create_new` (see [`TEMP_PREFIX`]).
fn create_temp(dir: &Dir) -> io::Result<(File, PathBuf)> {
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

/// A local directory being read: `getdents64` in batches, then one
/// `fstatat` per entry relative to the directory's descriptor (no path
/// walk, no allocation for the name), unless only names are wanted. A name
/// from `getdents64` is one component, and the stat does not follow a
/// symlink, so nothing outside the directory is looked at.
struct FsDirEntries {
    /// The directory, open for reading.
    dir: Dir,
    /// What one getdents64 reads into: 64 KiB, about 1,500 entries a call.
    /// rustix's `Dir` starts at 768 bytes and grows by as much per call, and
    /// on tmpfs every call pays a walk to its offset: a 10,000-name NLST
    /// spent 43 % of the server's time in `offset_readdir` (perf).
    buf: DirBuf,
    /// The names of the last read, in the directory's order.
    pending: std::collections::VecDeque<std::ffi::CString>,
    done: bool,
    /// The storage's root and this directory's path in it: symlinks are
    /// followed from there, so a link to anywhere inside the root (not
    /// only inside this directory) shows as what it links to.
    root: Arc<Dir>,
    rel: PathBuf,
    /// The charset of the names on disk (a translating server).
    charset: Option<Charset>,
    names_only: bool,
}

/// The size of one directory read.
const DIR_BUF: usize = 64 << 10;

/// Directory-read buffers of finished listings, kept for the next ones: a
/// fresh 64 KiB each time cost page faults on every listing (the heap gave
/// the memory back in between). At most [`DIR_BUFS_KEPT`] are kept.
static DIR_BUFS: std::sync::Mutex<Vec<DirBuf>> = std::sync::Mutex::new(Vec::new());
const DIR_BUFS_KEPT: usize = 16;

/// A buffer for getdents64, back to [`DIR_BUFS`] when dropped.
struct DirBuf(Vec<std::mem::MaybeUninit<u8>>);

impl DirBuf {
    fn take() -> DirBuf {
        let kept = DIR_BUFS.lock().unwrap_or_else(|p| p.into_inner()).pop();
        kept.unwrap_or_else(|| DirBuf(vec![std::mem::MaybeUninit::uninit(); DIR_BUF]))
    }
}

impl Drop for DirBuf {
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.0);
        if buf.len() == DIR_BUF {
            let mut kept = DIR_BUFS.lock().unwrap_or_else(|p| p.into_inner());
            if kept.len() < DIR_BUFS_KEPT {
                kept.push(DirBuf(buf));
            }
        }
    }
}

/// One getdents64 into `buf`: `each` gets every name but `.`, `..` and
/// uploads in progress (a temporary file is not a file yet). `Ok(false)` at
/// the end of the directory (or when it was removed meanwhile).
fn read_batch(dir: &Dir, buf: &mut [std::mem::MaybeUninit<u8>], each: &mut dyn FnMut(&std::ffi::CStr)) -> Result<bool> {
    let mut raw = rustix::fs::RawDir::new(dir, buf);
    loop {
        match raw.next() {
            None | Some(Err(rustix::io::Errno::NOENT)) => return Ok(false),
            Some(Err(e)) => return Err(io::Error::from(e).into()),
            Some(Ok(de)) => {
                let name = de.file_name();
                let bytes = name.to_bytes();
                if bytes != b"." && bytes != b".." && !is_temp_name(bytes) {
                    each(name);
                }
            }
        }
        // Stop before `next` would read again: one call per batch.
        if raw.is_buffer_empty() {
            return Ok(true);
        }
    }
}

impl FsDirEntries {
    /// The names of one more getdents64, queued; `Ok(false)` at the end.
    fn refill(&mut self) -> Result<bool> {
        let pending = &mut self.pending;
        read_batch(&self.dir, &mut self.buf.0, &mut |name| {
            pending.push_back(name.to_owned())
        })
    }
}

/// A directory's names for NLST, one getdents64 a batch, each name lent
/// straight from the buffer the kernel filled (translated when the disk
/// has a charset of its own).
struct FsNames {
    dir: Dir,
    buf: DirBuf,
    charset: Option<Charset>,
}

impl crate::NameBatches for FsNames {
    fn next_batch(&mut self, each: &mut dyn FnMut(&[u8])) -> Result<bool> {
        let charset = self.charset;
        read_batch(&self.dir, &mut self.buf.0, &mut |name| {
            each(&local_to_wire(name.to_bytes(), charset))
        })
    }
}

impl Iterator for FsDirEntries {
    type Item = Result<Entry>;

    fn next(&mut self) -> Option<Result<Entry>> {
        loop {
            let Some(name) = self.pending.pop_front() else {
                if self.done {
                    return None;
                }
                match self.refill() {
                    Ok(more) => self.done = !more,
                    Err(e) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                }
                continue;
            };
            let wire = |name: std::ffi::CString, charset| match local_to_wire(name.as_bytes(), charset) {
                std::borrow::Cow::Borrowed(_) => name.into_bytes(),
                std::borrow::Cow::Owned(w) => w,
            };
            if self.names_only {
                return Some(Ok(Entry {
                    name: wire(name, self.charset),
                    kind: EntryKind::Other,
                    size: 0,
                    modified: None,
                    mode: 0,
                    nlink: 0,
                    unique: None,
                    perm: String::new(),
                }));
            }
            match rustix::fs::statat(&self.dir, name.as_c_str(), rustix::fs::AtFlags::SYMLINK_NOFOLLOW) {
                Ok(st) => {
                    if rustix::fs::FileType::from_raw_mode(st.st_mode) != rustix::fs::FileType::Symlink {
                        return Some(Ok(entry_of_stat(wire(name, self.charset), &st)));
                    }
                    let target = self.rel.join(OsStr::from_bytes(name.as_bytes()));
                    let e = entry_of_stat(wire(name, self.charset), &st);
                    // Confined by cap-std: a link that leaves the root
                    // stays a link.
                    return Some(Ok(match self.root.metadata(&target) {
                        Ok(md) => entry(e.name, &md),
                        Err(_) => e,
                    }));
                }
                Err(_) => continue, // vanished meanwhile
            }
        }
    }
}

/// An entry from `stat` fields, as [`entry`] makes it from cap-std's
/// metadata (the same `unique` for MLSD and MLST). The casts are for the
/// platforms whose `stat` fields have other widths.
#[allow(clippy::unnecessary_cast)]
fn entry_of_stat(name: Vec<u8>, st: &rustix::fs::Stat) -> Entry {
    let kind = match rustix::fs::FileType::from_raw_mode(st.st_mode as _) {
        rustix::fs::FileType::Directory => EntryKind::Dir,
        rustix::fs::FileType::RegularFile => EntryKind::File,
        rustix::fs::FileType::Symlink => EntryKind::Symlink,
        _ => EntryKind::Other,
    };
    Entry {
        name,
        kind,
        size: st.st_size as u64,
        modified: (st.st_mtime >= 0).then_some(st.st_mtime as i64),
        mode: st.st_mode as u32 & 0o7777,
        nlink: st.st_nlink as u64,
        unique: Some((st.st_dev as u64, st.st_ino as u64)),
        perm: String::new(),
    }
}

fn entry(name: Vec<u8>, md: &cap_std::fs::Metadata) -> Entry {
    let ft = md.file_type();
    let kind = if ft.is_dir() {
        EntryKind::Dir
    } else if ft.is_file() {
        EntryKind::File
    } else if ft.is_symlink() {
        EntryKind::Symlink
    } else {
        EntryKind::Other
    };
    let modified = md
        .modified()
        .ok()
        .map(|t| t.into_std())
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_secs() as i64);
    Entry {
        name,
        kind,
        size: md.len(),
        modified,
        mode: md.mode() & 0o7777,
        nlink: md.nlink(),
        unique: Some((md.dev(), md.ino())),
        perm: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symlinks_out_of_root_are_refused() {
        let tmp = std::env::temp_dir().join(format!("babelftp-st-{}", std::process::id()));
        let root = tmp.join("root");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(tmp.join("secret"), b"x").unwrap();
        std::os::unix::fs::symlink(tmp.join("secret"), root.join("abs")).unwrap();
        std::os::unix::fs::symlink("../secret", root.join("rel")).unwrap();
        let st = FsStorage::open(&root).unwrap();
        assert!(st.open_read(&VPath::root().join(b"abs"), 0).is_err());
        assert!(st.open_read(&VPath::root().join(b"rel"), 0).is_err());
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    fn v(p: &str) -> VPath {
        VPath::root().join(p.as_bytes())
    }

    #[test]
    fn a_commit_says_what_the_name_held_when_it_took_it() {
        let tmp = tempfile::tempdir().unwrap();
        let st = FsStorage::open(tmp.path()).unwrap();
        std::fs::write(tmp.path().join("f"), vec![1u8; 800]).unwrap();
        // Over a file: that file, and its size.
        let mut up = st.open_write(&v("f"), WriteMode::Replace).unwrap();
        up.write_all(b"new").unwrap();
        assert_eq!(
            up.commit().unwrap(),
            Committed {
                replaced: Replaced::File(800),
                size: 3
            }
        );
        assert_eq!(std::fs::read(tmp.path().join("f")).unwrap(), b"new");
        // The file renamed away while the upload ran: nothing replaced.
        let mut up = st.open_write(&v("f"), WriteMode::Replace).unwrap();
        up.write_all(b"again").unwrap();
        std::fs::rename(tmp.path().join("f"), tmp.path().join("g")).unwrap();
        assert_eq!(up.commit().unwrap().replaced, Replaced::Nothing);
        assert_eq!(std::fs::read(tmp.path().join("g")).unwrap(), b"new");
        // A bigger file put there meanwhile: that one is counted.
        let mut up = st.open_write(&v("f"), WriteMode::Replace).unwrap();
        up.write_all(b"x").unwrap();
        std::fs::write(tmp.path().join("f"), vec![2u8; 5000]).unwrap();
        assert_eq!(up.commit().unwrap().replaced, Replaced::File(5000));
        // A directory that took the name stays, and the upload fails.
        let mut up = st.open_write(&v("d"), WriteMode::Replace).unwrap();
        up.write_all(b"x").unwrap();
        std::fs::create_dir(tmp.path().join("d")).unwrap();
        assert!(up.commit().is_err());
        assert!(tmp.path().join("d").is_dir());
        // An append replaced the file's old length.
        let mut up = st.open_write(&v("g"), WriteMode::Append).unwrap();
        up.write_all(b"++").unwrap();
        assert_eq!(
            up.commit().unwrap(),
            Committed {
                replaced: Replaced::File(3),
                size: 5
            }
        );
        // Nothing temporary is left.
        let names: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 3, "{names:?}");
    }

    #[test]
    fn a_counted_removal_says_what_left_the_name() {
        let tmp = tempfile::tempdir().unwrap();
        let st = FsStorage::open(tmp.path()).unwrap();
        std::fs::write(tmp.path().join("f"), vec![1u8; 123]).unwrap();
        assert_eq!(st.remove_file_counted(&v("f")).unwrap(), Some(123));
        assert!(!tmp.path().join("f").exists());
        std::fs::create_dir(tmp.path().join("d")).unwrap();
        assert!(st.remove_file_counted(&v("d")).is_err());
        assert!(tmp.path().join("d").is_dir());
        assert!(st.remove_file_counted(&v("missing")).is_err());
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_link_target_is_where_the_path_really_leads() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("pub")).unwrap();
        std::fs::create_dir_all(root.join("private/deep")).unwrap();
        std::os::unix::fs::symlink("../private", root.join("pub/l")).unwrap();
        std::os::unix::fs::symlink("l/deep", root.join("pub/chain")).unwrap();
        std::os::unix::fs::symlink("/etc", root.join("pub/abs")).unwrap();
        let st = FsStorage::open(root).unwrap();
        assert_eq!(st.link_target(&v("pub/l/x.txt")), Some(v("private/x.txt")));
        assert_eq!(st.link_target(&v("pub/l")), Some(v("private")));
        assert_eq!(st.link_target(&v("pub/chain/y")), Some(v("private/deep/y")));
        assert_eq!(st.link_target(&v("pub/plain.txt")), None);
        assert_eq!(st.link_target(&v("private/deep")), None);
        assert_eq!(
            st.link_target(&v("pub/abs/passwd")),
            None,
            "out of the root: refused anyway"
        );
    }

    /// What events are given: the octets on disk, in a KOI8-R subtree too
    /// (below a home and through a mount as well).
    #[test]
    fn stored_paths_are_the_octets_on_disk() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("koi")).unwrap();
        let koi = Charset::for_label("koi8-r").unwrap();
        let st = FsStorage::open(root)
            .unwrap()
            .with_charsets(CharsetMap::new(None, vec![("/koi".into(), koi)]));
        let p = VPath::root().join("/koi/Привет.txt".as_bytes());
        // Not there yet: where it would be made; there: where it is.
        assert_eq!(st.stored_path(&p), b"/koi/\xF0\xD2\xC9\xD7\xC5\xD4.txt");
        std::fs::write(root.join(OsStr::from_bytes(b"koi/\xF0\xD2\xC9\xD7\xC5\xD4.txt")), "x").unwrap();
        assert_eq!(st.stored_path(&p), b"/koi/\xF0\xD2\xC9\xD7\xC5\xD4.txt");
        // Elsewhere names are as sent.
        let q = VPath::root().join("/Привет.txt".as_bytes());
        assert_eq!(st.stored_path(&q), "/Привет.txt".as_bytes());
        assert_eq!(st.stored_path(&VPath::root()), b"/");
        // Below a home: the home's subtree keeps its charset.
        let home = st.subdir(&VPath::root().join(b"koi")).unwrap();
        assert_eq!(
            home.stored_path(&VPath::root().join("Привет.txt".as_bytes())),
            b"/\xF0\xD2\xC9\xD7\xC5\xD4.txt"
        );
        // Through a mount: the mount point as seen, then the octets.
        let m = crate::mount::Mounted::with(
            Arc::new(FsStorage::open(root).unwrap()),
            vec![(VPath::root().join(b"m"), home)],
        );
        assert_eq!(
            m.stored_path(&VPath::root().join("/m/Привет.txt".as_bytes())),
            b"/m/\xF0\xD2\xC9\xD7\xC5\xD4.txt"
        );
        assert_eq!(m.stored_path(&VPath::root().join(b"/m")), b"/m");
    }
}
