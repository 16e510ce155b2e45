//! An object store as the FTP root: S3 and S3-compatible servers through
//! Apache OpenDAL (issue 14). Several babelftp nodes can serve one bucket:
//! the bucket is the only shared state.
//!
//! What FTP asks and what the store really does:
//!
//! | FTP | here |
//! |---|---|
//! | names | keys are UTF-8; the legacy client charset layer (RFC 2640 A.2) turns a legacy client's names into UTF-8 before they get here. Octets that are not UTF-8, control characters, `%` and whitespace at either end of a name are kept in the key as `%HH` (S3's XML listings cannot carry a CR: RFC 2640 3.1's CR in a name would come back as LF), so every name comes back as it was sent; a key written by another tool with a `%` followed by two hex digits is shown decoded |
//! | directories | a key ending in `/` is a directory marker (MKD writes one); a prefix with keys under it is a directory too |
//! | RETR, REST + RETR | a streamed ranged GET |
//! | STOR | a multipart upload of 8 MiB parts, visible only when complete: a cut or killed upload leaves the old object (the parts are aborted) |
//! | STOU | the first free name, written only if absent |
//! | APPE, REST + STOR | refused (504): S3 has no append or offset write (the emulators tried silently overwrite; research/deps-and-scale.md §3) |
//! | DELE | DELETE of an existing key (S3 answers "deleted" for a missing key: checked first, 550) |
//! | RMD | refused unless nothing is under the prefix |
//! | RNFR/RNTO | copy, then delete: not atomic; a directory is copied and deleted key by key |
//! | LIST, MLSD, NLST | ListObjects page by page, `/` as delimiter |
//! | SITE CHMOD | refused (502) |
//!
//! Every method blocks on the server's runtime (`Handle::block_on`) and is
//! called, as for the local back-end, from tokio's blocking pool or inside
//! `block_in_place`.

use std::io;
use std::sync::Arc;

use babelftp_proto::listing::{Entry, EntryKind};
use futures::{AsyncReadExt, TryStreamExt};
use opendal::{Operator, Writer};
use tokio::runtime::Handle;

use super::{Committed, DirEntries, ReadHandle, Replaced, Result, Storage, StorageError, Upload, VPath, WriteMode};

/// Parts of a multipart upload.
const CHUNK: usize = 8 << 20;

/// Settings of an S3 root (`[storage]` in the configuration).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct S3Config {
    /// The bucket.
    pub bucket: String,
    /// The service's URL (`https://s3.eu-west-1.amazonaws.com`, a MinIO
    /// or Ceph gateway, `http://127.0.0.1:9000`); AWS's when unset.
    pub endpoint: Option<String>,
    /// The region (`us-east-1` when unset and nothing else says).
    pub region: Option<String>,
    /// A key prefix served as `/` (`ftp/`); the whole bucket when empty.
    pub prefix: String,
    /// Credentials; unset: the usual places (AWS_ACCESS_KEY_ID and
    /// AWS_SECRET_ACCESS_KEY, ~/.aws, the instance's role).
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
}

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
fn err(e: opendal::Error) -> StorageError {
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

    fn entry(name: &str, meta: &opendal::Metadata) -> Entry {
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

/// A name component into a key: `%`, control characters (C0, DEL, C1),
/// whitespace at either end of the component, and every octet that is not
/// part of valid UTF-8 as `%HH` (of their UTF-8 octets, or of the octet),
/// so the encoding is injective (every `%` in a key starts an escape), any
/// name a client sends has a key (RFC 2640: pathnames are octets; a
/// server's disk may hold names in any charset, and so may its bucket),
/// and no component can be changed on its way to the store: OpenDAL 0.59
/// trims Unicode whitespace from both ends of the whole path (`.. ` would
/// become `..`, which the HTTP client then resolves in the URL, and
/// `a.txt ` would alias `a.txt`), and S3's XML listings cannot carry a CR.
fn escape(name: &[u8], out: &mut String) {
    let hex = |out: &mut String, bytes: &[u8]| {
        for o in bytes {
            out.push_str(&format!("%{o:02X}"));
        }
    };
    // The component as characters and stray octets; the first and last
    // that are not whitespace bound what `str::trim` (OpenDAL's) keeps.
    let mut items: Vec<Result<char, &[u8]>> = Vec::with_capacity(name.len());
    for chunk in name.utf8_chunks() {
        items.extend(chunk.valid().chars().map(Ok));
        if !chunk.invalid().is_empty() {
            items.push(Err(chunk.invalid()));
        }
    }
    let solid = |i: &Result<char, &[u8]>| !matches!(i, Ok(c) if c.is_whitespace());
    let start = items.iter().position(solid).unwrap_or(items.len());
    let end = items.iter().rposition(solid).map_or(start, |i| i + 1);
    for (i, item) in items.iter().enumerate() {
        match *item {
            Err(octets) => hex(out, octets),
            Ok(c) if c == '%' || c.is_control() || ((i < start || i >= end) && c.is_whitespace()) => {
                let mut b = [0u8; 4];
                hex(out, c.encode_utf8(&mut b).as_bytes());
            }
            Ok(c) => out.push(c),
        }
    }
}

/// Whether OpenDAL and the URL builder leave `key` as it is: no whitespace
/// at either end (trimmed), no leading `/` or empty segment (dropped), no
/// `.` or `..` segment (resolved by the HTTP client), no control character.
/// [`S3Storage::key`] makes only such keys; this check stands behind it, so
/// a mistake there is a refused name (553), never another object.
fn faithful(key: &str) -> bool {
    let trimmed = key.trim() == key;
    let body = key.strip_suffix('/').unwrap_or(key);
    let segments_ok = body.is_empty() || body.split('/').all(|s| !s.is_empty() && s != "." && s != "..");
    trimmed && segments_ok && !key.chars().any(char::is_control)
}

/// A key's last component back into a name: `%HH` decoded.
fn unescape(key: &str) -> Vec<u8> {
    let b = key.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// A listing read page by page.
struct Pages {
    rt: Handle,
    lister: Option<opendal::Lister>,
    dir: String,
}

impl Iterator for Pages {
    type Item = Result<Entry>;

    fn next(&mut self) -> Option<Result<Entry>> {
        loop {
            let lister = self.lister.as_mut()?;
            match self.rt.block_on(lister.try_next()) {
                Ok(Some(e)) => {
                    if e.path() == self.dir {
                        continue;
                    }
                    let name = e.name().to_owned();
                    return Some(Ok(S3Storage::entry(&name, e.metadata())));
                }
                Ok(None) => {
                    self.lister = None;
                    return None;
                }
                Err(e) => {
                    self.lister = None;
                    return Some(Err(err(e)));
                }
            }
        }
    }
}

impl Drop for Pages {
    fn drop(&mut self) {
        let _g = self.rt.enter();
        self.lister.take();
    }
}

/// A download: a ranged GET read as it is sent.
struct S3Read {
    rt: Handle,
    inner: Option<opendal::FuturesAsyncReader>,
}

impl io::Read for S3Read {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.as_mut() {
            Some(r) => self.rt.block_on(r.read(buf)),
            None => Ok(0),
        }
    }
}

impl Drop for S3Read {
    fn drop(&mut self) {
        // Dropped on a worker or on the blocking pool: either way inside
        // the runtime, never blocking.
        let _g = self.rt.enter();
        self.inner.take();
    }
}

/// An upload: a multipart upload completed by [`Upload::commit`],
/// aborted when dropped without it (nothing becomes visible).
struct S3Upload {
    rt: Handle,
    w: Option<Writer>,
    /// Octets written so far.
    written: u64,
}

impl Upload for S3Upload {
    fn write_all(&mut self, buf: &[u8]) -> Result<()> {
        let Some(w) = self.w.as_mut() else {
            return Err(io::ErrorKind::BrokenPipe.into());
        };
        self.rt
            .block_on(w.write(bytes::Bytes::copy_from_slice(buf)))
            .map_err(err)?;
        self.written += buf.len() as u64;
        Ok(())
    }

    fn commit(mut self: Box<Self>) -> Result<Committed> {
        let Some(mut w) = self.w.take() else {
            return Err(io::ErrorKind::BrokenPipe.into());
        };
        self.rt.block_on(w.close()).map_err(err)?;
        // An object store replaces a key in one PUT and says nothing of
        // what it held.
        Ok(Committed {
            replaced: Replaced::Unknown,
            size: self.written,
        })
    }
}

impl Drop for S3Upload {
    fn drop(&mut self) {
        if let Some(mut w) = self.w.take() {
            // Not committed: abort the multipart upload (its parts are
            // discarded; the old object, if any, stays). Spawned, not
            // awaited: this may run on a runtime worker.
            self.rt.spawn(async move {
                if let Err(e) = w.abort().await {
                    tracing::debug!(error = %e, "aborting an S3 upload failed");
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_keys_round_trip() {
        for name in ["a\rb", "100%", "%41", "日本語.txt", "tab\there", "plain"] {
            let mut k = String::new();
            escape(name.as_bytes(), &mut k);
            assert!(!k.chars().any(|c| c.is_ascii_control()), "{k:?}");
            assert_eq!(unescape(&k), name.as_bytes(), "{k}");
        }
        let mut k = String::new();
        escape(b"a\rb%", &mut k);
        assert_eq!(k, "a%0Db%25");
        // Another tool's stray % stays.
        assert_eq!(unescape("50%off"), b"50%off");
    }

    #[test]
    fn keys_are_injective_and_nothing_downstream_rewrites_them() {
        let enc = |n: &str| {
            let mut k = String::new();
            escape(n.as_bytes(), &mut k);
            k
        };
        assert_eq!(enc(".. "), "..%20");
        assert_eq!(enc("..\u{3000}"), "..%E3%80%80");
        assert_eq!(enc(" a b "), "%20a b%20");
        assert_eq!(enc("\u{85}x"), "%C2%85x");
        let mut names = std::collections::BTreeSet::from(["in.txt".to_owned(), "...".to_owned(), "%2e%2e".to_owned()]);
        for ws in (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|c| c.is_whitespace())
        {
            for n in [
                format!("..{ws}"),
                format!("{ws}.."),
                format!("in.txt{ws}"),
                format!("{ws}{ws}"),
                format!("a{ws}b"),
            ] {
                names.insert(n);
            }
        }
        let mut seen = std::collections::HashSet::new();
        for n in &names {
            let k = enc(n);
            assert!(seen.insert(k.clone()), "two names share the key {k:?}");
            assert_eq!(unescape(&k), n.as_bytes(), "{n:?}");
            // As a last component and as a directory, under a prefix.
            assert!(faithful(&format!("site/a/{k}")), "{n:?} -> {k:?}");
            assert!(faithful(&format!("site/a/{k}/")), "{n:?} -> {k:?}");
            // OpenDAL's own normalization leaves it alone.
            let full = format!("site/a/{k}");
            assert_eq!(full.trim(), full);
        }
        for bad in ["site/..", "site/a/../", " site/", "site//a", "/site", "a/./b", "a\rb"] {
            assert!(!faithful(bad), "{bad:?}");
        }
        assert!(faithful("") && faithful("site/") && faithful("site/a"));
    }

    #[test]
    fn octets_that_are_not_utf8_have_keys_and_come_back() {
        let enc = |n: &[u8]| {
            let mut k = String::new();
            escape(n, &mut k);
            k
        };
        assert_eq!(enc(b"caf\xe9.txt"), "caf%E9.txt");
        assert_eq!(enc(b"\xff\xfe"), "%FF%FE");
        // A stray octet is not whitespace: the spaces beside it are inside.
        assert_eq!(enc(b" \xe9 "), "%20%E9%20");
        assert_eq!(enc(b"a \xe9 b"), "a %E9 b");
        assert_eq!(enc(b"  "), "%20%20");
        for n in [
            &b"caf\xe9.txt"[..],
            b"\x93\xfa\x96\x7b",
            b"\xe6\x97",
            b"  ",
            b"%E9",
            b"\xc0\xae",
        ] {
            let k = enc(n);
            assert_eq!(unescape(&k), n, "{k}");
            assert!(faithful(&format!("site/{k}")), "{k}");
        }
        assert_ne!(enc(b"%E9"), enc(b"\xe9"));
    }
}
