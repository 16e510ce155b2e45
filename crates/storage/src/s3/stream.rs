//! What an S3 root hands out as it goes: a listing read page by page, a
//! download, an upload.

use std::io;

use babelftp_proto::listing::Entry;
use futures::{AsyncReadExt, TryStreamExt};
use opendal::Writer;
use tokio::runtime::Handle;

use super::store::{err, S3Storage};
use crate::{Committed, Replaced, Result, Upload};

/// A listing read page by page.
pub(super) struct Pages {
    pub(super) rt: Handle,
    pub(super) lister: Option<opendal::Lister>,
    pub(super) dir: String,
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
pub(super) struct S3Read {
    pub(super) rt: Handle,
    pub(super) inner: Option<opendal::FuturesAsyncReader>,
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
pub(super) struct S3Upload {
    pub(super) rt: Handle,
    pub(super) w: Option<Writer>,
    /// Octets written so far.
    pub(super) written: u64,
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
