//! The local filesystem back-end, confined beneath its root by cap-std.
//!
//! Modules: `upload` (an upload to a local file, and its temporary
//! name), `dir` (a directory read in batches, and entries from metadata).

use std::ffi::OsStr;
use std::io::{self, Seek, SeekFrom};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use babelftp_proto::listing::Entry;
use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions};

use babelftp_i18n::names::{local_to_wire, wire_candidates, CharsetMap};
use babelftp_i18n::Charset;

use super::{Capabilities, DirEntries, ReadHandle, Result, Storage, StorageError, Upload, VPath, WriteMode};

mod dir;
pub mod durable;
mod kept;
mod lookahead;
mod upload;

use dir::{entry, DirBuf, FsDirEntries, FsNames, Looker};
use upload::create_temp;
pub use upload::FsUpload;

/// When an upload's data reach the disk (see [`durable`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Fsync {
    /// Before the 226: the file's data, and the directory after a rename,
    /// whose flush the uploads renamed into it meanwhile share (a 226
    /// means the upload survives a power cut). An error is reported
    /// (451), never followed by 226.
    Always,
    /// The 226 once the whole file is under its name in the kernel (a
    /// crash of the server loses nothing); each filesystem written to is
    /// flushed within [`durable::BATCH_DELAY`] (the default: a small
    /// file's upload pays no disk flush of its own).
    #[default]
    Batch,
    /// Left to the kernel (its writeback, about 30 s on Linux).
    Never,
}

/// An upload's temporary name: `.babelftp-<pid>-<n>.part`, beside its
/// target. Short whatever the target's name (a name near NAME_MAX has
/// room for it), never listed, swept at start, refused from clients (the
/// pattern is the session's, which refuses it).
pub use babelftp_proto::vpath::{is_temp_name, TEMP_PREFIX, TEMP_SUFFIX};

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
    fn quick(&self) -> bool {
        true
    }

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
            look: Looker {
                dir,
                root: self.root.clone(),
                rel,
                charset: self.charset_of(p.components()),
            },
            buf: DirBuf::take(),
            pending: std::collections::VecDeque::new(),
            done: false,
            names_only,
            ready: std::collections::VecDeque::new(),
            ahead: None,
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
        self.open_upload(p, mode, None)
    }

    fn open_write_reusing(&self, p: &VPath, mode: WriteMode, spare: Box<dyn crate::Held>) -> Result<Box<dyn Upload>> {
        self.open_upload(p, mode, Some(spare.into_any()))
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
        Ok(kept::remove_dir(&self.root, &self.resolve(p, false)?)?)
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

impl FsStorage {
    /// STOR, APPE, REST+STOR, STOU (and the web's uploads): a replacing
    /// or new file is written under a temporary name beside its target
    /// (the file a kept upload replaced, `spare`, when it can be reused:
    /// [`upload::reuse_temp`]), the others in place.
    fn open_upload(
        &self,
        p: &VPath,
        mode: WriteMode,
        mut spare: Option<Box<dyn std::any::Any + Send>>,
    ) -> Result<Box<dyn Upload>> {
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
                let (file, temp) = match spare.take() {
                    Some(spare) => upload::reuse_temp(&dir, spare)?,
                    None => create_temp(&dir)?,
                };
                (file, Some(temp))
            }
            WriteMode::New if existed => return Err(StorageError::AlreadyExists),
            WriteMode::New => {
                let (file, temp) = match spare.take() {
                    Some(spare) => upload::reuse_temp(&dir, spare)?,
                    None => create_temp(&dir)?,
                };
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
}

#[cfg(test)]
mod tests;
