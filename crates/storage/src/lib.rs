//! Storage: where pathnames meet the disk.
//!
//! The session hands a [`Storage`] a [`VPath`]: a normalized, absolute,
//! virtual path made of byte components (`.` and `..` already resolved
//! lexically, never above `/`). A back-end resolves it beneath its own
//! root; the local one, [`fs::FsStorage`], does it with `cap-std`, whose
//! `Dir` refuses every way out of the root that string checks miss (`..`
//! after a symlink, absolute symlinks, races). Names are bytes all the way:
//! no lossy conversion touches them.
//!
//! Every method blocks; the session calls them on tokio's blocking pool.
//! An object-store back-end implements the same trait; what it cannot do
//! (append, offset writes, rename) it answers with
//! `io::ErrorKind::Unsupported`, which the session maps to 502/504.

use std::ffi::OsStr;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::Arc;

use babelftp_proto::listing::Entry;

pub mod fs;
pub mod s3;

pub use babelftp_session::{Capabilities, VPath, WriteMode};

/// The relative filesystem path of a virtual path below the root (`.` for
/// the root).
pub(crate) fn rel(p: &VPath) -> PathBuf {
    if p.is_root() {
        return PathBuf::from(".");
    }
    let mut out = PathBuf::new();
    for c in p.components() {
        out.push(OsStr::from_bytes(c));
    }
    out
}

/// An error of the storage itself (an object store that stopped
/// answering), carried inside an `io::Error` so that a transfer that hits
/// it is told apart from one whose client went away: 451, not 426.
#[derive(Debug)]
pub struct StorageFailure(pub String);

impl std::fmt::Display for StorageFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StorageFailure {}

/// Whether `e` came from the storage, not from the network.
pub fn is_storage_failure(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<StorageFailure>())
}

/// How a download reads its file.
pub enum ReadHandle {
    /// A local file, already positioned at the start offset: sent with
    /// `sendfile(2)` in binary mode.
    File(std::fs::File),
    /// Any other source (object stores), already at the start offset.
    Reader(Box<dyn io::Read + Send>),
}

/// A directory being read: its entries one by one.
pub type DirEntries = Box<dyn Iterator<Item = io::Result<Entry>> + Send>;

/// An upload in progress. Dropping it without [`Upload::commit`] must
/// leave any previous file of that name intact (for a replacing STOR).
pub trait Upload: Send {
    /// Writes all of `buf` (blocking).
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()>;
    /// Makes the upload visible (a replacing STOR renames into place).
    fn commit(self: Box<Self>) -> io::Result<()>;
}

/// A filesystem as the FTP session sees it.
pub trait Storage: Send + Sync + 'static {
    /// Metadata of a path (not following a final symlink).
    fn stat(&self, p: &VPath) -> io::Result<Entry>;
    /// Whether a path is a directory one can enter.
    fn is_dir(&self, p: &VPath) -> bool;
    /// The entries of a directory, sorted by name bytes.
    fn list(&self, p: &VPath) -> io::Result<Vec<Entry>>;
    /// The entries of a directory as they are read, in the back-end's
    /// order: what listings stream, so memory stays flat however large the
    /// directory. With `names_only` (NLST) only the name is needed, and a
    /// back-end skips what costs more (the local one: the `stat` of each
    /// entry); the other fields are then left empty.
    fn read_dir(&self, p: &VPath, names_only: bool) -> io::Result<DirEntries> {
        let _ = names_only;
        Ok(Box::new(self.list(p)?.into_iter().map(Ok)))
    }
    /// Opens a plain file for reading from `offset`.
    fn open_read(&self, p: &VPath, offset: u64) -> io::Result<ReadHandle>;
    /// Opens a file for an upload.
    fn open_write(&self, p: &VPath, mode: WriteMode) -> io::Result<Box<dyn Upload>>;
    /// MKD.
    fn mkdir(&self, p: &VPath) -> io::Result<()>;
    /// RMD.
    fn rmdir(&self, p: &VPath) -> io::Result<()>;
    /// DELE.
    fn remove_file(&self, p: &VPath) -> io::Result<()>;
    /// RNFR/RNTO.
    fn rename(&self, from: &VPath, to: &VPath) -> io::Result<()>;
    /// SITE CHMOD: set the permission bits (0–0o777). A back-end without
    /// them answers `Unsupported` (502/504).
    fn chmod(&self, p: &VPath, mode: u32) -> io::Result<()> {
        let _ = (p, mode);
        Err(io::ErrorKind::Unsupported.into())
    }
    /// MFMT: set a plain file's last modification time (Unix seconds,
    /// UTC). A directory is `IsADirectory`. A back-end that cannot keep
    /// the time answers `Unsupported` (504) and says so in
    /// [`Storage::capabilities`], so that MFMT is not offered.
    fn set_modified(&self, p: &VPath, unix_secs: i64) -> io::Result<()> {
        let _ = (p, unix_secs);
        Err(io::ErrorKind::Unsupported.into())
    }
    /// What the back-end can do beyond reading, listing and writing whole
    /// files: appending, writing at an offset, SITE CHMOD, and setting
    /// modification times that listings then show (a client such as our
    /// `mirror -R` trusts the times it set to compare files). The session
    /// offers and accepts only these; none by default.
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            append: false,
            write_at: false,
            chmod: false,
            set_times: false,
        }
    }
    /// The charset names are stored in where `p` would be created (a
    /// translating server), for the reply that refuses a name it cannot
    /// hold; `None` when names are stored as sent.
    fn name_charset(&self, p: &VPath) -> Option<&'static str> {
        let _ = p;
        None
    }
    /// The same storage rooted at a subdirectory (a user's home): nothing
    /// above it is reachable through the result.
    fn subdir(&self, p: &VPath) -> io::Result<Arc<dyn Storage>>;

    /// Removes what uploads of an earlier run left (a crash, a kill -9):
    /// temporary files last written before `before`. Returns how many.
    /// Blocks. Nothing by default (S3 shows no upload before it is whole).
    fn sweep_leftovers(&self, before: std::time::SystemTime) -> usize {
        let _ = before;
        0
    }
    /// Whether the storage answers (an object store: its bucket and
    /// credentials); checked at start and, while it fails, every few
    /// seconds. Blocks: call it off the async workers.
    fn probe(&self) -> io::Result<()> {
        Ok(())
    }
}

/// Which back-end serves a root, with its own settings: one arm per
/// back-end (a new one, e.g. OpenDAL's GCS or Azure Blob, is a module and
/// an arm here).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Backend {
    /// The local directory given as the root (cap-std beneath it).
    #[default]
    Local,
    /// An S3 bucket, or a prefix of one.
    S3(s3::S3Config),
}

/// How the local back-end stores names and data.
#[derive(Debug, Clone, Default)]
pub struct LocalOptions {
    /// The charsets of names on disk, per directory (a translating
    /// server); identity when empty.
    pub charsets: babelftp_i18n::names::CharsetMap,
    /// When uploads reach the disk.
    pub fsync: fs::Fsync,
}

impl Backend {
    /// Whether this is the local directory.
    pub fn is_local(&self) -> bool {
        matches!(self, Backend::Local)
    }

    /// What is served, for people: the directory, or `s3://bucket/prefix
    /// (endpoint)`.
    pub fn describe(&self, root: &std::path::Path) -> String {
        match self {
            Backend::Local => root.display().to_string(),
            Backend::S3(s3) => format!(
                "s3://{}/{}{}",
                s3.bucket,
                s3.prefix.trim_start_matches('/'),
                s3.endpoint.as_deref().map(|e| format!(" ({e})")).unwrap_or_default()
            ),
        }
    }

    /// Opens the storage: `root` for the local back-end (with `local`'s
    /// charsets and fsync), the bucket for S3 (inside a tokio runtime).
    pub fn open(&self, root: &std::path::Path, local: LocalOptions) -> io::Result<Arc<dyn Storage>> {
        Ok(match self {
            Backend::Local => Arc::new(
                fs::FsStorage::open(root)?
                    .with_charsets(local.charsets)
                    .with_fsync(local.fsync),
            ),
            Backend::S3(cfg) => Arc::new(s3::S3Storage::open(cfg)?),
        })
    }
}
