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
//! (append, offset writes, chmod) it declares in [`Storage::capabilities`]
//! and answers with [`StorageError::Unsupported`]. Errors are typed
//! ([`StorageError`]): an answer about the path, or a failure of the
//! storage itself.

use std::ffi::OsStr;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::Arc;

use babelftp_proto::listing::{Entry, EntryKind};

pub mod fs;
pub mod mount;
pub mod s3;

pub use babelftp_proto::vpath::{Capabilities, VPath, WriteMode};

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

/// What a storage operation answers instead of a result: about the path
/// asked for (absent, there already, of the wrong kind, refused, a name
/// the storage cannot hold, an operation the back-end does not have), or a
/// failure of the storage itself (a full or failing disk, an object store
/// that stopped answering). The session turns the first into 550/553/504
/// replies; a transfer cut by the second is the server's fault (451/452),
/// not the client's (426), and the driver knows which without guessing
/// from an `io::Error`.
///
/// Its texts are for the operator's log and the server's start-up errors,
/// in the system's words (`Not a directory`); replies to clients come from
/// the catalogs, by [`StorageError::kind`].
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("No such file or directory")]
    NotFound,
    #[error("File exists")]
    AlreadyExists,
    #[error("Not a directory")]
    NotADirectory,
    #[error("Is a directory")]
    IsADirectory,
    #[error("Directory not empty")]
    DirectoryNotEmpty,
    #[error("Permission denied")]
    PermissionDenied,
    /// What this back-end cannot do (append on S3, chmod…).
    #[error("Operation not supported by this storage")]
    Unsupported,
    /// A name the storage cannot hold (its charset, or a key the store
    /// would rewrite).
    #[error("The name cannot be stored")]
    InvalidName,
    /// A request that makes no sense for the path (RETR of a directory, an
    /// offset past the end, a time out of range).
    #[error("{0}")]
    Invalid(&'static str),
    /// No space or quota left.
    #[error("No space left on the storage")]
    Full,
    /// Any other error of the local disk, as the system gave it.
    #[error(transparent)]
    Io(io::Error),
    /// The store failed (an object store's error): its own message.
    #[error("storage back-end: {0}")]
    Backend(String),
}

/// The result of a storage operation.
pub type Result<T, E = StorageError> = std::result::Result<T, E>;

impl StorageError {
    /// The `io::ErrorKind` the session maps to a reply.
    pub fn kind(&self) -> io::ErrorKind {
        use io::ErrorKind as K;
        match self {
            StorageError::NotFound => K::NotFound,
            StorageError::AlreadyExists => K::AlreadyExists,
            StorageError::NotADirectory => K::NotADirectory,
            StorageError::IsADirectory => K::IsADirectory,
            StorageError::DirectoryNotEmpty => K::DirectoryNotEmpty,
            StorageError::PermissionDenied => K::PermissionDenied,
            StorageError::Unsupported => K::Unsupported,
            StorageError::InvalidName => K::InvalidFilename,
            StorageError::Invalid(_) => K::InvalidInput,
            StorageError::Full => K::StorageFull,
            StorageError::Io(e) => e.kind(),
            StorageError::Backend(_) => K::Other,
        }
    }

    /// Whether the storage failed (rather than answering about the path):
    /// a transfer it cuts is 451/452, not the client's 426.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            StorageError::Full | StorageError::Io(_) | StorageError::Backend(_)
        )
    }
}

impl From<io::Error> for StorageError {
    fn from(e: io::Error) -> Self {
        use io::ErrorKind as K;
        match e.kind() {
            K::NotFound => StorageError::NotFound,
            K::AlreadyExists => StorageError::AlreadyExists,
            K::NotADirectory => StorageError::NotADirectory,
            K::IsADirectory => StorageError::IsADirectory,
            K::DirectoryNotEmpty => StorageError::DirectoryNotEmpty,
            K::PermissionDenied => StorageError::PermissionDenied,
            K::Unsupported => StorageError::Unsupported,
            K::InvalidFilename => StorageError::InvalidName,
            K::StorageFull | K::QuotaExceeded => StorageError::Full,
            _ => StorageError::Io(e),
        }
    }
}

impl From<io::ErrorKind> for StorageError {
    fn from(k: io::ErrorKind) -> Self {
        io::Error::from(k).into()
    }
}

impl From<StorageError> for io::Error {
    fn from(e: StorageError) -> Self {
        match e {
            StorageError::Io(e) => e,
            e => io::Error::new(e.kind(), e),
        }
    }
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
pub type DirEntries = Box<dyn Iterator<Item = Result<Entry>> + Send>;

/// A directory's names, read a batch at a time (NLST): each name is lent
/// to the caller, so a listing of names allocates nothing per name.
pub trait NameBatches: Send {
    /// Gives `each` the names of the next batch, in the back-end's order
    /// (the local one: one `getdents64`); `Ok(false)` when the directory
    /// has no more.
    fn next_batch(&mut self, each: &mut dyn FnMut(&[u8])) -> Result<bool>;
}

/// [`NameBatches`] over a back-end's [`DirEntries`].
struct EntryNames(DirEntries);

impl NameBatches for EntryNames {
    fn next_batch(&mut self, each: &mut dyn FnMut(&[u8])) -> Result<bool> {
        let mut any = false;
        for e in self.0.by_ref().take(256) {
            each(&e?.name);
            any = true;
        }
        Ok(any)
    }
}

/// What an upload's name held when the upload took it (at
/// [`Upload::commit`]): what a quota counts as replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replaced {
    /// No file: the name was free (or held something that is not a file,
    /// such as a symlink, which the quota never counted).
    Nothing,
    /// A file of this many octets: the one replaced, or, for a write in
    /// place (APPE, REST+STOR), the file's length before the upload.
    File(u64),
    /// The back-end cannot tell at the moment of the commit (an object
    /// store): the caller's own earlier look stands.
    Unknown,
}

/// A committed upload: what it replaced and the octets its file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Committed {
    pub replaced: Replaced,
    pub size: u64,
}

/// An upload in progress. Dropping it without [`Upload::commit`] must
/// leave any previous file of that name intact (for a replacing STOR).
pub trait Upload: Send {
    /// Writes all of `buf` (blocking).
    fn write_all(&mut self, buf: &[u8]) -> Result<()>;
    /// Makes the upload visible (a replacing STOR renames into place),
    /// and says what the name held at that moment: a file another session
    /// renamed or deleted while this upload ran is not counted as replaced.
    fn commit(self: Box<Self>) -> Result<Committed>;
    /// Gives the upload up and takes back what it wrote where that can be
    /// done: an append or a write at an offset (REST+STOR) is cut back to
    /// the file's length before it (the bytes rewritten after the offset
    /// stay rewritten), a file it created is removed. (Dropping an upload keeps what an
    /// in-place write wrote, as a cut connection does; a quota refusal
    /// discards it.)
    fn discard(self: Box<Self>) -> Result<()> {
        Ok(())
    }
    /// Whether [`Upload::commit_held`] can take the name back after its
    /// commit (a file written beside its name on a local filesystem).
    fn can_hold(&self) -> bool {
        false
    }
    /// Commits as [`Upload::commit`] does, and keeps what the name held
    /// (the replaced file, under a hidden temporary name) until the
    /// returned [`Held`] says whether the upload stands: so a client that
    /// never reads its 226 (killed mid-upload, its data connection ended
    /// by its kernel as a whole upload's would be) leaves the name as it
    /// was. `None`: nothing is held (the back-end cannot).
    fn commit_held(self: Box<Self>) -> Result<(Committed, Option<Box<dyn Held>>)> {
        self.commit().map(|c| (c, None))
    }
    /// Whether [`Upload::write_all`] copies into the local page cache (a
    /// local file's), as a rule quick enough for an async worker to wait
    /// for. `false` (the default): a write may wait on a network, and is
    /// made where blocking is allowed.
    fn writes_locally(&self) -> bool {
        false
    }
    /// Whether [`Upload::commit`] is a local rename with no flush to wait
    /// for (microseconds), quick enough for an async worker. `false` (the
    /// default): a commit may wait on a disk flush or a network.
    fn commits_quickly(&self) -> bool {
        false
    }
}

/// A committed upload whose name can still be given back what it held
/// before ([`Upload::commit_held`]). Dropping it keeps the upload.
pub trait Held: Send + Sync {
    /// The upload stands: what it replaced is removed.
    fn keep(self: Box<Self>) -> Result<()>;
    /// What [`Held::keep`] removes: `None` nothing, else the size of the
    /// replaced file (`u64::MAX` when unknown).
    fn replaced(&self) -> Option<u64> {
        Some(u64::MAX)
    }
    /// The upload is undone: the name holds again what it held before
    /// the commit (the replaced file, or nothing), unless it was changed
    /// since. Says whether it was undone.
    fn undo(self: Box<Self>) -> Result<bool>;
    /// The upload stands, and what it replaced is handed to
    /// [`Storage::open_write_reusing`] rather than removed here.
    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any + Send>;
}

/// A filesystem as the FTP session sees it.
pub trait Storage: Send + Sync + 'static {
    /// Metadata of a path (not following a final symlink).
    fn stat(&self, p: &VPath) -> Result<Entry>;
    /// Where `p` really leads when a symlink on the way (the last
    /// component included) points elsewhere inside this storage: the
    /// target's path, links followed and `..` resolved; `None` when no
    /// link is on the way, when it leads out of the storage (which the
    /// back-end refuses anyway), or when the back-end has no links. The
    /// rules about a path must hold at what it reaches too: a link
    /// `/pub/l -> ../private` must not read `/private`.
    fn link_target(&self, _p: &VPath) -> Option<VPath> {
        None
    }
    /// Whether a call on this storage is, as a rule, a local disk's
    /// (microseconds when the disk keeps up: a stat, an open, a mkdir),
    /// quick enough to be made on an async worker. `false` (the default):
    /// a call may wait on a network.
    fn quick(&self) -> bool {
        false
    }
    /// Whether a path is a directory one can enter.
    fn is_dir(&self, p: &VPath) -> bool;
    /// The entries of a directory, sorted by name bytes.
    fn list(&self, p: &VPath) -> Result<Vec<Entry>>;
    /// The entries of a directory as they are read, in the back-end's
    /// order: what listings stream, so memory stays flat however large the
    /// directory. With `names_only` (NLST) only the name is needed, and a
    /// back-end skips what costs more (the local one: the `stat` of each
    /// entry); the other fields are then left empty.
    fn read_dir(&self, p: &VPath, names_only: bool) -> Result<DirEntries> {
        let _ = names_only;
        Ok(Box::new(self.list(p)?.into_iter().map(Ok)))
    }
    /// The names of a directory (NLST), as [`Storage::read_dir`] with
    /// `names_only` gives them, in batches; a non-directory is
    /// `NotADirectory`.
    fn read_names(&self, p: &VPath) -> Result<Box<dyn NameBatches>> {
        Ok(Box::new(EntryNames(self.read_dir(p, true)?)))
    }
    /// Opens a plain file for reading from `offset`.
    fn open_read(&self, p: &VPath, offset: u64) -> Result<ReadHandle>;
    /// Opens a file for an upload.
    fn open_write(&self, p: &VPath, mode: WriteMode) -> Result<Box<dyn Upload>>;
    /// [`Storage::open_write`], given a kept upload (`spare`) whose
    /// replaced file is still there: a back-end may write the new upload
    /// into that file, cut to nothing, instead of making a file (on ext4
    /// making one file and freeing another cost 200 µs more than reusing
    /// one; issue 47). What it does not reuse goes, as when a held upload
    /// is kept. The default reuses nothing.
    fn open_write_reusing(&self, p: &VPath, mode: WriteMode, spare: Box<dyn Held>) -> Result<Box<dyn Upload>> {
        drop(spare);
        self.open_write(p, mode)
    }
    /// MKD.
    fn mkdir(&self, p: &VPath) -> Result<()>;
    /// RMD.
    fn rmdir(&self, p: &VPath) -> Result<()>;
    /// DELE.
    fn remove_file(&self, p: &VPath) -> Result<()>;
    /// DELE under a quota: removes the file and says how many octets it
    /// held when it went (`None`: it was not a plain file). By default a
    /// look, then the removal (a file replaced in between is counted with
    /// the size it had before).
    fn remove_file_counted(&self, p: &VPath) -> Result<Option<u64>> {
        let size = self.stat(p).ok().filter(|e| e.kind == EntryKind::File).map(|e| e.size);
        self.remove_file(p).map(|()| size)
    }
    /// RNFR/RNTO.
    fn rename(&self, from: &VPath, to: &VPath) -> Result<()>;
    /// RNFR/RNTO by an account that may not overwrite: `AlreadyExists`
    /// when `to` is there. By default a look before the rename (a rename
    /// racing with an upload of the same name may still replace it).
    fn rename_no_replace(&self, from: &VPath, to: &VPath) -> Result<()> {
        match self.stat(to) {
            Ok(_) => Err(StorageError::AlreadyExists),
            Err(StorageError::NotFound) => self.rename(from, to),
            Err(e) => Err(e),
        }
    }
    /// SITE CHMOD: set the permission bits (0–0o777). A back-end without
    /// them answers `Unsupported` (502/504).
    fn chmod(&self, p: &VPath, mode: u32) -> Result<()> {
        let _ = (p, mode);
        Err(io::ErrorKind::Unsupported.into())
    }
    /// MFMT: set a plain file's last modification time (Unix seconds,
    /// UTC). A directory is `IsADirectory`. A back-end that cannot keep
    /// the time answers `Unsupported` (504) and says so in
    /// [`Storage::capabilities`], so that MFMT is not offered.
    fn set_modified(&self, p: &VPath, unix_secs: i64) -> Result<()> {
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
    /// The path `p` names as it is stored (`/a/b`, below this storage's
    /// root): the octets on disk where names are translated (a directory
    /// in KOI8-R), else `p` itself. What events and hooks are given, so
    /// that a program finds the file. Blocks (a translating storage looks
    /// at which names exist).
    fn stored_path(&self, p: &VPath) -> Vec<u8> {
        p.to_bytes()
    }
    /// The same storage rooted at a subdirectory (a user's home): nothing
    /// above it is reachable through the result.
    fn subdir(&self, p: &VPath) -> Result<Arc<dyn Storage>>;

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
    fn probe(&self) -> Result<()> {
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
    /// charsets and fsync), the bucket for S3 (inside a tokio runtime; a
    /// build without the `s3` feature says it has no S3 support).
    pub fn open(&self, root: &std::path::Path, local: LocalOptions) -> Result<Arc<dyn Storage>> {
        Ok(match self {
            Backend::Local => Arc::new(
                fs::FsStorage::open(root)?
                    .with_charsets(local.charsets)
                    .with_fsync(local.fsync),
            ),
            #[cfg(feature = "s3")]
            Backend::S3(cfg) => Arc::new(s3::S3Storage::open(cfg)?),
            #[cfg(not(feature = "s3"))]
            Backend::S3(_) => return Err(s3::not_built()),
        })
    }
}

/// A build without the feature `s3` parses S3 settings, and opening them
/// says what the build lacks.
#[cfg(all(test, not(feature = "s3")))]
#[test]
fn s3_in_a_build_without_it_is_refused_by_name() {
    let s3 = Backend::S3(s3::S3Config {
        bucket: "ftp".into(),
        ..s3::S3Config::default()
    });
    let e = s3.open(std::path::Path::new("."), LocalOptions::default()).err();
    let text = e.map(|e| io::Error::from(e).to_string()).unwrap_or_default();
    assert_eq!(text, "this build has no S3 support (feature s3)");
}

#[cfg(test)]
mod error_tests {
    use super::*;

    #[test]
    fn errors_are_answers_about_the_path_or_failures_of_the_storage() {
        use io::ErrorKind as K;
        for (k, failure) in [
            (K::NotFound, false),
            (K::AlreadyExists, false),
            (K::PermissionDenied, false),
            (K::IsADirectory, false),
            (K::NotADirectory, false),
            (K::DirectoryNotEmpty, false),
            (K::Unsupported, false),
            (K::InvalidFilename, false),
            (K::StorageFull, true),
            (K::ReadOnlyFilesystem, true),
            (K::Other, true),
        ] {
            let e = StorageError::from(io::Error::new(k, "x"));
            assert_eq!(e.is_failure(), failure, "{k:?}");
            // The session sees the same kind it always did.
            assert_eq!(e.kind(), k, "{k:?}");
        }
        assert_eq!(StorageError::from(K::QuotaExceeded).kind(), K::StorageFull);
        let store = StorageError::Backend("SlowDown: please reduce your request rate".into());
        assert!(store.is_failure());
        assert_eq!(store.kind(), K::Other);
        // Through an io::Error (a reader's) and back, the store's words stay.
        let io_err = io::Error::from(store);
        assert!(io_err.to_string().contains("SlowDown"), "{io_err}");
        assert_eq!(StorageError::Invalid("time out of range").kind(), K::InvalidInput);
    }
}
