//! [`S3Storage`]: an S3 bucket (or a prefix of one) on OpenDAL's operator.

use std::io;
use std::sync::Arc;

use babelftp_proto::listing::{Entry, EntryKind};
use futures::TryStreamExt;
use opendal::Operator;
use tokio::runtime::Handle;

use super::keys::{escape, faithful, unescape};
use super::stream::{Pages, S3Read, S3Upload};
use super::S3Config;
use crate::{DirEntries, ReadHandle, Result, Storage, StorageError, Upload, VPath, WriteMode};

/// Parts of a multipart upload.
const CHUNK: usize = 8 << 20;

/// An S3 bucket (or a prefix of one) as a [`Storage`].
pub struct S3Storage {
    op: Operator,
    rt: Handle,
    /// The key prefix of this root (a user's home below the configured
    /// prefix): empty or ending in `/`.
    base: String,
}

/// An OpenDAL error as a storage error: what it says about the key, or,
/// for anything else, a failure of the store with its message.
pub(super) fn err(e: opendal::Error) -> StorageError {
    use opendal::ErrorKind as O;
    match e.kind() {
        O::NotFound => StorageError::NotFound,
        O::PermissionDenied => StorageError::PermissionDenied,
        O::AlreadyExists | O::ConditionNotMatch => StorageError::AlreadyExists,
        O::IsADirectory => StorageError::IsADirectory,
        O::NotADirectory => StorageError::NotADirectory,
        O::Unsupported => StorageError::Unsupported,
        O::RangeNotSatisfied => StorageError::Invalid("offset past the end"),
        _ => StorageError::Backend(e.to_string()),
    }
}

impl S3Storage {
    /// Connects to the bucket (nothing is sent until the first request);
    /// must run inside the server's runtime.
    pub fn open(cfg: &S3Config) -> Result<S3Storage> {
        // reqwest's rustls takes the process's provider: ours, ring (one
        // crypto stack in the build). Already installed is fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
        opendal_http_transport_reqwest::install_default();
        let mut b = opendal::services::S3::default().bucket(&cfg.bucket).root("/");
        if let Some(e) = &cfg.endpoint {
            b = b.endpoint(e);
        }
        b = b.region(cfg.region.as_deref().unwrap_or("us-east-1"));
        if let (Some(id), Some(secret)) = (&cfg.access_key_id, &cfg.secret_access_key) {
            b = b.access_key_id(id).secret_access_key(secret);
        }
        let op = Operator::new(b).map_err(err)?;
        let rt = Handle::try_current().map_err(|e| io::Error::other(e.to_string()))?;
        let mut base = cfg.prefix.trim_matches('/').to_owned();
        if !base.is_empty() {
            base.push('/');
        }
        if !faithful(&base) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("the S3 prefix {:?} would be rewritten on its way to the store (whitespace at an end, an empty, `.` or `..` segment, or a control character)", cfg.prefix),
            ).into());
        }
        Ok(S3Storage { op, rt, base })
    }

    /// The key of a path (`base` + components joined by `/`; the root is
    /// `base`). The key is an
    /// injective encoding of the path (see [`escape`]) and is checked to be
    /// one that neither OpenDAL nor the HTTP client rewrites ([`faithful`]):
    /// what comes out is exactly the object the confinement check saw.
    fn key(&self, p: &VPath) -> Result<String> {
        let bad = || StorageError::InvalidName;
        if !p.is_confined() {
            return Err(bad());
        }
        let mut k = self.base.clone();
        for (i, c) in p.components().iter().enumerate() {
            if i > 0 {
                k.push('/');
            }
            escape(c, &mut k);
        }
        if !faithful(&k) {
            return Err(bad());
        }
        Ok(k)
    }

    /// The key of a path as a directory: ends in `/` (the root: `base`).
    fn dir_key(&self, p: &VPath) -> Result<String> {
        let mut k = self.key(p)?;
        if !k.is_empty() && !k.ends_with('/') {
            k.push('/');
        }
        Ok(k)
    }

    fn block<T>(&self, f: impl std::future::IntoFuture<Output = opendal::Result<T>>) -> Result<T> {
        self.rt.block_on(f.into_future()).map_err(err)
    }

    /// Whether a directory exists: the root, a marker, or keys below it.
    fn dir_exists(&self, dir_key: &str) -> Result<bool> {
        if dir_key == self.base {
            return Ok(true);
        }
        let mut lister = self.block(self.op.lister_with(dir_key).limit(1))?;
        Ok(self.block(lister.try_next())?.is_some())
    }

    /// Whether a key is a file (an object whose key is exactly it).
    fn file_exists(&self, key: &str) -> Result<bool> {
        if key.is_empty() || key.ends_with('/') {
            return Ok(false);
        }
        match self.block(self.op.stat(key)) {
            Ok(m) => Ok(!m.is_dir()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }

    pub(super) fn entry(name: &str, meta: &opendal::Metadata) -> Entry {
        let dir = meta.is_dir();
        Entry {
            name: unescape(name.trim_end_matches('/')),
            kind: if dir { EntryKind::Dir } else { EntryKind::File },
            size: if dir { 0 } else { meta.content_length() },
            modified: meta.last_modified().map(|t| t.into_inner().as_second()),
            mode: if dir { 0o755 } else { 0o644 },
            nlink: 1,
            unique: None,
            perm: String::new(),
        }
    }

    fn dir_entry(name: &[u8]) -> Entry {
        Entry {
            name: name.to_vec(),
            kind: EntryKind::Dir,
            size: 0,
            modified: None,
            mode: 0o755,
            nlink: 1,
            unique: None,
            perm: String::new(),
        }
    }

    /// Every key at or below a directory (itself included), recursively.
    fn keys_below(&self, dir_key: &str) -> Result<Vec<String>> {
        let entries = self.block(self.op.list_with(dir_key).recursive(true))?;
        let mut keys: Vec<String> = entries.into_iter().map(|e| e.path().to_owned()).collect();
        if !keys.iter().any(|k| k == dir_key) && self.file_or_marker(dir_key)? {
            keys.push(dir_key.to_owned());
        }
        Ok(keys)
    }

    fn file_or_marker(&self, key: &str) -> Result<bool> {
        match self.block(self.op.stat(key)) {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }
}

impl Storage for S3Storage {
    fn stat(&self, p: &VPath) -> Result<Entry> {
        let name = p.file_name().unwrap_or(b"/");
        if p.is_root() {
            return Ok(S3Storage::dir_entry(b"/"));
        }
        let key = self.key(p)?;
        match self.block(self.op.stat(&key)) {
            Ok(m) if !m.is_dir() => {
                let mut e = S3Storage::entry(&key, &m);
                e.name = name.to_vec();
                return Ok(e);
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        if self.dir_exists(&self.dir_key(p)?)? {
            Ok(S3Storage::dir_entry(name))
        } else {
            Err(io::ErrorKind::NotFound.into())
        }
    }

    fn is_dir(&self, p: &VPath) -> bool {
        self.dir_key(p).and_then(|k| self.dir_exists(&k)).unwrap_or(false)
    }

    fn list(&self, p: &VPath) -> Result<Vec<Entry>> {
        let mut v: Vec<Entry> = self.read_dir(p, false)?.collect::<Result<_>>()?;
        v.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(v)
    }

    fn read_dir(&self, p: &VPath, _names_only: bool) -> Result<DirEntries> {
        let dir = self.dir_key(p)?;
        if !self.dir_exists(&dir)? {
            return Err(if self.file_exists(&self.key(p)?)? {
                io::ErrorKind::NotADirectory.into()
            } else {
                io::ErrorKind::NotFound.into()
            });
        }
        let lister = self.block(self.op.lister(&dir))?;
        // Page by page, as the listing is sent.
        Ok(Box::new(Pages {
            rt: self.rt.clone(),
            lister: Some(lister),
            dir,
        }))
    }

    fn open_read(&self, p: &VPath, offset: u64) -> Result<ReadHandle> {
        let key = self.key(p)?;
        if p.is_root() {
            return Err(io::ErrorKind::IsADirectory.into());
        }
        let meta = match self.block(self.op.stat(&key)) {
            Ok(m) if !m.is_dir() => m,
            Ok(_) => return Err(io::ErrorKind::IsADirectory.into()),
            Err(e) if e.kind() == io::ErrorKind::NotFound && self.is_dir(p) => {
                return Err(io::ErrorKind::IsADirectory.into())
            }
            Err(e) => return Err(e),
        };
        let end = meta.content_length();
        let offset = offset.min(end);
        // One GET from the offset to the end, streamed (no chunking: a ranged
        // request per chunk costs a round trip each, and some servers read
        // the whole object for every range).
        let reader = self.block(self.op.reader(&key))?;
        let inner = self.block(reader.into_futures_async_read(offset..end))?;
        Ok(ReadHandle::Reader(Box::new(S3Read {
            rt: self.rt.clone(),
            inner: Some(inner),
        })))
    }

    fn open_write(&self, p: &VPath, mode: WriteMode) -> Result<Box<dyn Upload>> {
        let key = self.key(p)?;
        if p.is_root() || self.dir_exists(&self.dir_key(p)?)? {
            return Err(io::ErrorKind::IsADirectory.into());
        }
        if !self.is_dir(&p.parent()) {
            return Err(io::ErrorKind::NotFound.into());
        }
        let unique = match mode {
            WriteMode::Replace => false,
            // A conditional write: the store refuses it if the key appears.
            WriteMode::Unique | WriteMode::New => {
                if self.file_exists(&key)? {
                    return Err(io::ErrorKind::AlreadyExists.into());
                }
                true
            }
            // No append, no offset write on S3 (504).
            WriteMode::Append | WriteMode::At(_) => return Err(io::ErrorKind::Unsupported.into()),
        };
        let w = self.block(self.op.writer_with(&key).chunk(CHUNK).if_not_exists(unique))?;
        Ok(Box::new(S3Upload {
            rt: self.rt.clone(),
            w: Some(w),
            written: 0,
        }))
    }

    fn mkdir(&self, p: &VPath) -> Result<()> {
        if p.is_root() || self.file_exists(&self.key(p)?)? || self.dir_exists(&self.dir_key(p)?)? {
            return Err(io::ErrorKind::AlreadyExists.into());
        }
        if !self.is_dir(&p.parent()) {
            return Err(io::ErrorKind::NotFound.into());
        }
        self.block(self.op.create_dir(&self.dir_key(p)?))
    }

    fn rmdir(&self, p: &VPath) -> Result<()> {
        if p.is_root() {
            return Err(io::ErrorKind::PermissionDenied.into());
        }
        let dir = self.dir_key(p)?;
        if !self.dir_exists(&dir)? {
            return Err(if self.file_exists(&self.key(p)?)? {
                io::ErrorKind::NotADirectory.into()
            } else {
                io::ErrorKind::NotFound.into()
            });
        }
        let mut lister = self.block(self.op.lister_with(&dir).limit(2))?;
        while let Some(e) = self.block(lister.try_next())? {
            if e.path() != dir {
                return Err(io::ErrorKind::DirectoryNotEmpty.into());
            }
        }
        self.block(self.op.delete(&dir))
    }

    fn remove_file(&self, p: &VPath) -> Result<()> {
        let key = self.key(p)?;
        if !self.file_exists(&key)? {
            return Err(if self.is_dir(p) {
                io::ErrorKind::IsADirectory.into()
            } else {
                io::ErrorKind::NotFound.into()
            });
        }
        self.block(self.op.delete(&key))
    }

    fn rename(&self, from: &VPath, to: &VPath) -> Result<()> {
        if from.is_root() || to.is_root() {
            return Err(io::ErrorKind::PermissionDenied.into());
        }
        let (fk, tk) = (self.key(from)?, self.key(to)?);
        if self.file_exists(&tk)? || self.dir_exists(&self.dir_key(to)?)? {
            // FTP's RNTO onto an existing name replaces a file; a directory
            // in the way is refused.
            if self.dir_exists(&self.dir_key(to)?)? {
                return Err(io::ErrorKind::AlreadyExists.into());
            }
        }
        if !self.is_dir(&to.parent()) {
            return Err(io::ErrorKind::NotFound.into());
        }
        if self.file_exists(&fk)? {
            self.block(self.op.copy(&fk, &tk))?;
            return self.block(self.op.delete(&fk));
        }
        let (fd, td) = (self.dir_key(from)?, self.dir_key(to)?);
        if !self.dir_exists(&fd)? {
            return Err(io::ErrorKind::NotFound.into());
        }
        if td.starts_with(&fd) {
            return Err(io::ErrorKind::InvalidInput.into());
        }
        // Key by key: copy everything, then delete the originals.
        let keys = self.keys_below(&fd)?;
        for k in &keys {
            let rest = &k[fd.len()..];
            let target = format!("{td}{rest}");
            // Keys another tool wrote may hold anything: none is copied
            // where the store would read it as another path.
            if !faithful(k) || !faithful(&target) {
                return Err(io::ErrorKind::InvalidFilename.into());
            }
            if k.ends_with('/') {
                self.block(self.op.create_dir(&target))?;
            } else {
                self.block(self.op.copy(k, &target))?;
            }
        }
        if !keys.contains(&fd) {
            self.block(self.op.create_dir(&td))?;
        }
        for k in keys.iter().filter(|k| !k.ends_with('/')) {
            self.block(self.op.delete(k))?;
        }
        let mut dirs: Vec<&String> = keys.iter().filter(|k| k.ends_with('/')).collect();
        dirs.sort_by_key(|k| std::cmp::Reverse(k.len()));
        for k in dirs {
            self.block(self.op.delete(k))?;
        }
        Ok(())
    }

    fn probe(&self) -> Result<()> {
        // A list of the prefix, one key: the bucket, the credentials, the
        // endpoint and the right to list all show in it.
        let mut lister = self.block(self.op.lister_with(&self.base).limit(1))?;
        self.block(lister.try_next()).map(drop)
    }

    fn subdir(&self, p: &VPath) -> Result<Arc<dyn Storage>> {
        let dir = self.dir_key(p)?;
        if !self.dir_exists(&dir)? {
            return Err(io::ErrorKind::NotFound.into());
        }
        Ok(Arc::new(S3Storage {
            op: self.op.clone(),
            rt: self.rt.clone(),
            base: dir,
        }))
    }
}
