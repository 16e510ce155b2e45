//! When an upload reaches the disk: the directory flush that concurrent
//! uploads share (`fsync = "always"`), and the background flush of
//! `fsync = "batch"`.
//!
//! As PostgreSQL's group commit lets the transactions that commit while a
//! WAL flush runs share the next one, the uploads renamed into one
//! directory while its fsync runs share the next fsync of it: each still
//! waits for a flush that began after its own rename (so its 226 still
//! means its name is on disk), but ten concurrent uploads cost two
//! directory flushes, not ten.
//!
//! `batch` is PostgreSQL's `synchronous_commit = off`: the 226 comes once
//! the whole file is under its name in the kernel, and a thread of its
//! own flushes each filesystem written to (`syncfs`) within
//! [`BATCH_DELAY`] of the first upload that dirtied it.

use std::collections::HashMap;
use std::io;
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use cap_std::fs::{Dir, MetadataExt};

/// How long after an upload's 226 `fsync = "batch"` flushes it at most.
pub const BATCH_DELAY: Duration = Duration::from_secs(1);

/// One directory's flushes: how many began, how many ended (the last
/// one's result), whether one runs.
#[derive(Default)]
struct DirFlushes {
    started: u64,
    done: u64,
    ok: bool,
    running: bool,
    waiting: usize,
}

#[derive(Default)]
struct Groups {
    dirs: Mutex<HashMap<(u64, u64), DirFlushes>>,
    changed: Condvar,
}

fn groups() -> &'static Groups {
    static G: OnceLock<Groups> = OnceLock::new();
    G.get_or_init(Groups::default)
}

/// Flushes `dir` (an upload was just renamed into it), sharing the flush
/// with the uploads renamed into it meanwhile: returns once a flush that
/// began after this call has ended, with its result.
pub(super) fn sync_dir(dir: &Dir) -> io::Result<()> {
    let m = dir.dir_metadata()?;
    let key = (m.dev(), m.ino());
    let g = groups();
    let mut dirs = g.dirs.lock().unwrap_or_else(PoisonError::into_inner);
    let entry = dirs.entry(key).or_default();
    // The next flush to begin is the first that covers this rename.
    let target = entry.started + 1;
    entry.waiting += 1;
    loop {
        let e = dirs.entry(key).or_default();
        if e.done >= target {
            let ok = e.ok;
            e.waiting -= 1;
            if e.waiting == 0 && !e.running {
                dirs.remove(&key);
            }
            return if ok {
                Ok(())
            } else {
                Err(io::Error::other("the directory could not be synced"))
            };
        }
        if !e.running {
            e.running = true;
            e.started += 1;
            let gen = e.started;
            drop(dirs);
            let r = dir.open(".").and_then(|d| d.sync_all());
            dirs = g.dirs.lock().unwrap_or_else(PoisonError::into_inner);
            let e = dirs.entry(key).or_default();
            e.running = false;
            e.done = gen;
            e.ok = r.is_ok();
            g.changed.notify_all();
            if let Err(err) = r {
                if gen >= target {
                    e.waiting -= 1;
                    if e.waiting == 0 {
                        dirs.remove(&key);
                    }
                    return Err(err);
                }
            }
            continue;
        }
        dirs = g.changed.wait(dirs).unwrap_or_else(PoisonError::into_inner);
    }
}

/// The filesystems `batch` has yet to flush (by device), each with a
/// directory on it, and when the first was dirtied.
#[derive(Default)]
struct Pending {
    dirs: HashMap<u64, cap_std::fs::File>,
    since: Option<Instant>,
}

struct Flusher {
    pending: Mutex<Pending>,
    wake: Condvar,
}

static FLUSHER: OnceLock<Flusher> = OnceLock::new();

fn flusher() -> &'static Flusher {
    FLUSHER.get_or_init(|| {
        let spawned = std::thread::Builder::new()
            .name("babelftp-flush".into())
            .stack_size(64 << 10)
            .spawn(run_flusher);
        if let Err(e) = spawned {
            tracing::warn!(error = %e, "no background flush thread: batch uploads are flushed by the kernel");
        }
        Flusher {
            pending: Mutex::new(Pending::default()),
            wake: Condvar::new(),
        }
    })
}

/// `batch`: the filesystem holding `dir` is flushed within
/// [`BATCH_DELAY`].
pub(super) fn flush_later(dir: &Dir) {
    let Ok(m) = dir.dir_metadata() else { return };
    let f = flusher();
    let mut p = f.pending.lock().unwrap_or_else(PoisonError::into_inner);
    if p.dirs.contains_key(&m.dev()) {
        return;
    }
    let Ok(d) = syncable(dir) else { return };
    p.dirs.insert(m.dev(), d);
    if p.since.is_none() {
        p.since = Some(Instant::now());
        f.wake.notify_one();
    }
}

/// Flushes at once what `batch` has yet to flush (at shutdown); an error
/// is also logged.
pub fn flush_pending() -> io::Result<()> {
    let Some(f) = FLUSHER.get() else { return Ok(()) };
    let dirs = {
        let mut p = f.pending.lock().unwrap_or_else(PoisonError::into_inner);
        p.since = None;
        std::mem::take(&mut p.dirs)
    };
    flush(dirs)
}

/// A handle on `dir` that `syncfs` takes: a [`Dir`] may be an `O_PATH`
/// descriptor, which `syncfs` refuses (`EBADF`).
fn syncable(dir: &Dir) -> io::Result<cap_std::fs::File> {
    dir.open(".")
}

fn flush(dirs: HashMap<u64, cap_std::fs::File>) -> io::Result<()> {
    let mut result = Ok(());
    for d in dirs.values() {
        if let Err(e) = rustix::fs::syncfs(d) {
            tracing::warn!(error = %e, "flushing the uploads of the last second to disk failed");
            result = Err(e.into());
        }
    }
    result
}

fn run_flusher() {
    let f = flusher();
    let mut p = f.pending.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        match p.since {
            None => p = f.wake.wait(p).unwrap_or_else(PoisonError::into_inner),
            Some(since) => {
                let left = BATCH_DELAY.saturating_sub(since.elapsed());
                if !left.is_zero() {
                    p = f.wake.wait_timeout(p, left).unwrap_or_else(PoisonError::into_inner).0;
                    continue;
                }
                p.since = None;
                let dirs = std::mem::take(&mut p.dirs);
                drop(p);
                // An error is logged; the next upload asks again.
                let _ = flush(dirs);
                p = f.pending.lock().unwrap_or_else(PoisonError::into_inner);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cap_std::ambient_authority;

    /// `batch` flushes the filesystem of a directory opened as the
    /// server opens its root (an `O_PATH` descriptor, which `syncfs`
    /// itself refuses).
    #[test]
    fn a_batch_flush_syncs_the_filesystem_of_a_root() {
        let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let dir = Dir::open_ambient_dir(t.path(), ambient_authority()).unwrap_or_else(|e| panic!("{e}"));
        flush_later(&dir);
        flush_pending().unwrap_or_else(|e| panic!("the flush failed: {e}"));
    }

    /// Many threads renaming into one directory share its flushes, and
    /// each returns once a flush that began after its call has ended.
    #[test]
    fn concurrent_directory_flushes_are_shared() {
        let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let dir = Dir::open_ambient_dir(t.path(), ambient_authority()).unwrap_or_else(|e| panic!("{e}"));
        std::thread::scope(|s| {
            for _ in 0..16 {
                s.spawn(|| {
                    for _ in 0..8 {
                        sync_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
                    }
                });
            }
        });
        let m = dir.dir_metadata().unwrap_or_else(|e| panic!("{e}"));
        // Nothing is left behind for a directory no upload waits on.
        let dirs = groups().dirs.lock().unwrap_or_else(PoisonError::into_inner);
        assert!(!dirs.contains_key(&(m.dev(), m.ino())));
    }

    /// `batch` flushes within its delay, and at once when asked.
    #[test]
    fn batch_flushes_are_pending_until_flushed() {
        let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let dir = Dir::open_ambient_dir(t.path(), ambient_authority()).unwrap_or_else(|e| panic!("{e}"));
        flush_later(&dir);
        let dev = dir.dir_metadata().unwrap_or_else(|e| panic!("{e}")).dev();
        let deadline = Instant::now() + BATCH_DELAY * 10;
        loop {
            let pending = flusher()
                .pending
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .dirs
                .contains_key(&dev);
            if !pending {
                break;
            }
            assert!(Instant::now() < deadline, "the batch was never flushed");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
