//! The replaced files that committed uploads keep for a moment under
//! their temporary names (a held commit's undo, a session's spare that
//! the next upload into the folder is written into). They are this
//! process's own, so an RMD of their folder, from another session or
//! another door (the web view), removes them and goes on rather than
//! failing as "not empty" for as long as they wait. A temporary file
//! that is not in this list (an upload still being written, a file
//! another process left) keeps its folder as it is.

use std::collections::HashSet;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::{LazyLock, Mutex, MutexGuard};

use cap_std::fs::{Dir, MetadataExt};

/// A folder (device and inode) and a name in it.
type Key = (u64, u64, Vec<u8>);

static KEPT: LazyLock<Mutex<HashSet<Key>>> = LazyLock::new(|| Mutex::new(HashSet::new()));

fn kept() -> MutexGuard<'static, HashSet<Key>> {
    // Nothing is left half-done under the lock: a panic elsewhere while
    // it was held leaves a set that is still right.
    KEPT.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The folder `dir` is, to name it in this list.
pub(super) fn folder(dir: &Dir) -> io::Result<(u64, u64)> {
    let m = dir.dir_metadata()?;
    Ok((m.dev(), m.ino()))
}

/// `name` in `folder` holds a replaced file kept for a moment.
pub(super) fn keep(folder: (u64, u64), name: &Path) {
    kept().insert((folder.0, folder.1, name.as_os_str().as_bytes().to_vec()));
}

/// `name` in `folder` is taken back by its upload (to remove, to restore
/// or to write into): `false` when it is no longer there to take (an RMD
/// of its folder removed it).
pub(super) fn take(folder: (u64, u64), name: &Path) -> bool {
    kept().remove(&(folder.0, folder.1, name.as_os_str().as_bytes().to_vec()))
}

/// RMD of `path` under `root`: a folder whose only entries are replaced
/// files kept by this process loses them, and then itself.
pub(super) fn remove_dir(root: &Dir, path: &Path) -> io::Result<()> {
    match root.remove_dir(path) {
        Err(e) if e.kind() == io::ErrorKind::DirectoryNotEmpty => {
            if remove_kept_in(root, path)? {
                return root.remove_dir(path);
            }
            Err(e)
        }
        r => r,
    }
}

/// Removes the kept files in the folder `path` if they are all it holds;
/// whether it did.
fn remove_kept_in(root: &Dir, path: &Path) -> io::Result<bool> {
    // (A symbolic link never gets here: RMD of one fails as "not a folder".)
    let dir = root.open_dir(path)?;
    let (dev, ino) = folder(&dir)?;
    let mut names = Vec::new();
    for entry in dir.entries()? {
        names.push(entry?.file_name());
    }
    // Under the lock: an upload cannot take one of them to write into
    // while they go.
    let mut set = kept();
    let keys: Vec<Key> = names.iter().map(|n| (dev, ino, n.as_bytes().to_vec())).collect();
    if keys.is_empty() || !keys.iter().all(|k| set.contains(k)) {
        return Ok(false);
    }
    for (key, name) in keys.iter().zip(&names) {
        match dir.remove_file(name) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        set.remove(key);
    }
    Ok(true)
}
