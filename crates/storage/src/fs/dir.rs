//! A local directory read in batches (`getdents64`, then `fstatat`), and
//! listing entries from metadata.

use std::ffi::OsStr;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::UNIX_EPOCH;

use babelftp_proto::listing::{Entry, EntryKind};
use babelftp_proto::vpath::is_temp_name;
use cap_std::fs::Dir;
use cap_std::fs::MetadataExt;

use babelftp_i18n::names::local_to_wire;
use babelftp_i18n::Charset;

use super::lookahead::{Lookahead, Next, QUEUED_LOW};
use crate::Result;

/// A local directory being read: `getdents64` in batches, then one
/// `fstatat` per entry relative to the directory's descriptor (no path
/// walk, no allocation for the name), unless only names are wanted. A name
/// from `getdents64` is one component, and the stat does not follow a
/// symlink, so nothing outside the directory is looked at.
pub(super) struct FsDirEntries {
    /// What looks at the names: the open directory and where it is.
    pub(super) look: Looker,
    /// What one getdents64 reads into: 64 KiB, about 1,500 entries a call.
    /// rustix's `Dir` starts at 768 bytes and grows by as much per call, and
    /// on tmpfs every call pays a walk to its offset: a 10,000-name NLST
    /// spent 43 % of the server's time in `offset_readdir` (perf).
    pub(super) buf: DirBuf,
    /// The names of the last read, in the directory's order.
    pub(super) pending: std::collections::VecDeque<std::ffi::CString>,
    pub(super) done: bool,
    pub(super) names_only: bool,
    /// Entries looked at ahead, in the directory's order.
    pub(super) ready: std::collections::VecDeque<Result<Entry>>,
    /// A large directory's names, looked at by two threads
    /// ([`Lookahead`]); started by its first large read.
    pub(super) ahead: Option<Lookahead>,
}

/// An open directory and where it is: looks at its names.
pub(super) struct Looker {
    /// The directory, open for reading.
    pub(super) dir: Dir,
    /// The storage's root and this directory's path in it: symlinks are
    /// followed from there, so a link to anywhere inside the root (not
    /// only inside this directory) shows as what it links to.
    pub(super) root: Arc<Dir>,
    pub(super) rel: PathBuf,
    /// The charset of the names on disk (a translating server).
    pub(super) charset: Option<Charset>,
}

/// A directory whose first read holds at least this many names is looked
/// at (`fstatat`) by two threads ([`Lookahead`]): a listing's time is
/// mostly the kernel's lookups (an MLSD of 10,000 names: `__d_lookup_rcu`,
/// `shmem_getattr`, `link_path_walk`, ... 85 % of it; perf).
const PARALLEL_STAT_FROM: usize = 512;

/// The size of one directory read.
const DIR_BUF: usize = 64 << 10;

/// Directory-read buffers of finished listings, kept for the next ones: a
/// fresh 64 KiB each time cost page faults on every listing (the heap gave
/// the memory back in between). At most [`DIR_BUFS_KEPT`] are kept.
static DIR_BUFS: std::sync::Mutex<Vec<DirBuf>> = std::sync::Mutex::new(Vec::new());
const DIR_BUFS_KEPT: usize = 16;

/// A buffer for getdents64, back to [`DIR_BUFS`] when dropped.
pub(super) struct DirBuf(Vec<std::mem::MaybeUninit<u8>>);

impl DirBuf {
    pub(super) fn take() -> DirBuf {
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
        read_batch(&self.look.dir, &mut self.buf.0, &mut |name| {
            pending.push_back(name.to_owned())
        })
    }

    /// Reads the directory further into the helper's queue.
    fn refill_ahead(&mut self) {
        let more = self.refill();
        let Some(ahead) = self.ahead.as_mut() else {
            return;
        };
        ahead.queue(&mut self.pending);
        match more {
            Ok(more) => self.done = !more,
            Err(e) => {
                self.done = true;
                ahead.queue_error(e);
            }
        }
    }

    /// The next entries from the helper's queue, in order; `None` when the
    /// directory is read and every entry handed out.
    fn next_ahead(&mut self) -> Option<Vec<Result<Entry>>> {
        loop {
            let ahead = self.ahead.as_mut()?;
            if !self.done && ahead.queued() < QUEUED_LOW {
                self.refill_ahead();
                continue;
            }
            let ahead = self.ahead.as_mut()?;
            match ahead.next(&self.look, !self.done) {
                Next::Entries(entries) => return Some(entries),
                Next::Empty if self.done => return None,
                Next::Empty => self.refill_ahead(),
            }
        }
    }
}

impl Looker {
    /// The same directory through a descriptor of its own.
    pub(super) fn reopen(&self) -> Option<Looker> {
        let fd = rustix::fs::openat(
            &self.dir,
            c".",
            rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .ok()?;
        Some(Looker {
            dir: Dir::from_std_file(std::fs::File::from(fd)),
            root: self.root.clone(),
            rel: self.rel.clone(),
            charset: self.charset,
        })
    }

    /// The entry of `name` (`None`: it vanished meanwhile).
    fn stat_one(&self, name: std::ffi::CString) -> Option<Result<Entry>> {
        let wire = |name: std::ffi::CString, charset| match local_to_wire(name.as_bytes(), charset) {
            std::borrow::Cow::Borrowed(_) => name.into_bytes(),
            std::borrow::Cow::Owned(w) => w,
        };
        let st = rustix::fs::statat(&self.dir, name.as_c_str(), rustix::fs::AtFlags::SYMLINK_NOFOLLOW).ok()?;
        if rustix::fs::FileType::from_raw_mode(st.st_mode) != rustix::fs::FileType::Symlink {
            return Some(Ok(entry_of_stat(wire(name, self.charset), &st)));
        }
        let target = self.rel.join(OsStr::from_bytes(name.as_bytes()));
        let e = entry_of_stat(wire(name, self.charset), &st);
        // Confined by cap-std: a link that leaves the root stays a link.
        Some(Ok(match self.root.metadata(&target) {
            Ok(md) => entry(e.name, &md),
            Err(_) => e,
        }))
    }

    /// The entries of `names`, in order (those that vanished left out).
    pub(super) fn stat_all(&self, names: Vec<std::ffi::CString>) -> Vec<Result<Entry>> {
        names.into_iter().filter_map(|n| self.stat_one(n)).collect()
    }
}

/// Whether a second CPU is there to look at names with.
fn two_cpus() -> bool {
    static TWO: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TWO.get_or_init(|| std::thread::available_parallelism().is_ok_and(|n| n.get() > 1))
}

/// A directory's names for NLST, one getdents64 a batch, each name lent
/// straight from the buffer the kernel filled (translated when the disk
/// has a charset of its own).
pub(super) struct FsNames {
    pub(super) dir: Dir,
    pub(super) buf: DirBuf,
    pub(super) charset: Option<Charset>,
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
            if let Some(e) = self.ready.pop_front() {
                return Some(e);
            }
            if self.ahead.is_some() {
                let entries = self.next_ahead()?;
                self.ready.extend(entries);
                continue;
            }
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
                if !self.names_only && self.pending.len() >= PARALLEL_STAT_FROM && two_cpus() {
                    self.ahead = Lookahead::start(&self.look);
                    if let Some(ahead) = self.ahead.as_mut() {
                        ahead.queue(&mut self.pending);
                    }
                }
                continue;
            };
            if self.names_only {
                let name = match local_to_wire(name.as_bytes(), self.look.charset) {
                    std::borrow::Cow::Borrowed(_) => name.into_bytes(),
                    std::borrow::Cow::Owned(w) => w,
                };
                return Some(Ok(Entry {
                    name,
                    kind: EntryKind::Other,
                    size: 0,
                    modified: None,
                    mode: 0,
                    nlink: 0,
                    unique: None,
                    perm: String::new(),
                }));
            }
            match self.look.stat_one(name) {
                Some(e) => return Some(e),
                None => continue, // vanished meanwhile
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

pub(super) fn entry(name: Vec<u8>, md: &cap_std::fs::Metadata) -> Entry {
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
