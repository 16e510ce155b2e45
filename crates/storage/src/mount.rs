//! Virtual folders: other storages mounted at paths of a user's tree (a
//! directory elsewhere on the disk, an S3 bucket or prefix), as SFTPGo's
//! virtual folders and ProFTPD's mod_vroot aliases do. The user sees one
//! tree; each path goes to the storage of the longest mount point that
//! covers it, and a listing of a mount point's parent shows the mount
//! point as a directory, whether or not the tree beneath has one of that
//! name.
//!
//! A mount point itself cannot be removed or renamed, and nothing is
//! renamed from one storage into another (550: "Permission denied"; an
//! FTP client copies instead).

use std::sync::Arc;

use babelftp_proto::listing::{Entry, EntryKind};
use babelftp_proto::vpath::{Capabilities, VPath, WriteMode};

use crate::{DirEntries, NameBatches, ReadHandle, Result, Storage, StorageError, Upload};

/// A mount point (its components) and the storage mounted there.
type Mount = (Vec<Vec<u8>>, Arc<dyn Storage>);

/// A storage with others mounted in it.
pub struct Mounted {
    root: Arc<dyn Storage>,
    /// The mounts, longest mount point first.
    mounts: Vec<Mount>,
}

impl std::fmt::Debug for Mounted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let points: Vec<String> = self
            .mounts
            .iter()
            .map(|(p, _)| format!("/{}", p.join(&b'/').escape_ascii()))
            .collect();
        f.debug_struct("Mounted").field("mounts", &points).finish()
    }
}

/// Builds a path from components (each a plain name, as a `VPath` holds).
fn path_of(comps: &[Vec<u8>]) -> VPath {
    comps.iter().fold(VPath::root(), |p, c| p.join(c))
}

impl Mounted {
    /// `root` with each (mount point, storage) mounted; without mounts,
    /// `root` itself. The root (`/`) is not a mount point.
    pub fn with(root: Arc<dyn Storage>, mounts: Vec<(VPath, Arc<dyn Storage>)>) -> Arc<dyn Storage> {
        let mut mounts: Vec<Mount> = mounts
            .into_iter()
            .filter(|(p, _)| !p.is_root())
            .map(|(p, s)| (p.components().to_vec(), s))
            .collect();
        if mounts.is_empty() {
            return root;
        }
        mounts.sort_by_key(|m| std::cmp::Reverse(m.0.len()));
        Arc::new(Mounted { root, mounts })
    }

    /// The storage that holds `p`, `p` within it, and the mount's index.
    fn route(&self, p: &VPath) -> (&dyn Storage, VPath, Option<usize>) {
        let c = p.components();
        for (i, (point, st)) in self.mounts.iter().enumerate() {
            if c.len() >= point.len() && c[..point.len()] == point[..] {
                return (&**st, path_of(&c[point.len()..]), Some(i));
            }
        }
        (&*self.root, p.clone(), None)
    }

    /// Whether `p` is a mount point.
    fn is_point(&self, p: &VPath) -> bool {
        self.mounts.iter().any(|(point, _)| point[..] == *p.components())
    }

    /// The mount points directly in the directory `dir`: their names and
    /// storages.
    fn children(&self, dir: &VPath) -> Vec<(&[u8], &dyn Storage)> {
        let d = dir.components();
        let mut out: Vec<(&[u8], &dyn Storage)> = Vec::new();
        for (point, st) in &self.mounts {
            if point.len() == d.len() + 1 && point[..d.len()] == *d {
                out.push((point[d.len()].as_slice(), &**st));
            }
        }
        out
    }

    /// A mount point's entry in its parent's listing: its storage's root,
    /// named as the mount point (a directory even when its storage cannot
    /// be read just now, so that the listing still shows it).
    fn point_entry(name: &[u8], st: &dyn Storage) -> Entry {
        let mut e = st.stat(&VPath::root()).unwrap_or(Entry {
            name: Vec::new(),
            kind: EntryKind::Dir,
            size: 0,
            modified: None,
            mode: 0o755,
            nlink: 1,
            unique: None,
            perm: String::new(),
        });
        e.name = name.to_vec();
        e.kind = EntryKind::Dir;
        e
    }
}

/// A directory's names with the mount points put in: the underlying
/// storage's names but those of mount points, then the mount points.
struct MountedNames {
    inner: Box<dyn NameBatches>,
    points: Vec<Vec<u8>>,
    points_sent: bool,
}

impl NameBatches for MountedNames {
    fn next_batch(&mut self, each: &mut dyn FnMut(&[u8])) -> Result<bool> {
        let points = &self.points;
        let more = self.inner.next_batch(&mut |name| {
            if !points.iter().any(|p| p == name) {
                each(name);
            }
        })?;
        if more {
            return Ok(true);
        }
        if self.points_sent {
            return Ok(false);
        }
        self.points_sent = true;
        for p in &self.points {
            each(p);
        }
        Ok(!self.points.is_empty())
    }
}

impl Storage for Mounted {
    fn quick(&self) -> bool {
        self.root.quick() && self.mounts.iter().all(|(_, st)| st.quick())
    }

    fn stat(&self, p: &VPath) -> Result<Entry> {
        let (st, rest, _) = self.route(p);
        let mut e = st.stat(&rest)?;
        if self.is_point(p) {
            e.name = p.file_name().unwrap_or_default().to_vec();
        }
        Ok(e)
    }

    fn is_dir(&self, p: &VPath) -> bool {
        let (st, rest, _) = self.route(p);
        st.is_dir(&rest)
    }

    fn list(&self, p: &VPath) -> Result<Vec<Entry>> {
        let (st, rest, _) = self.route(p);
        let mut entries = st.list(&rest)?;
        let points = self.children(p);
        if !points.is_empty() {
            entries.retain(|e| !points.iter().any(|(n, _)| *n == e.name.as_slice()));
            entries.extend(points.iter().map(|(n, s)| Mounted::point_entry(n, *s)));
            entries.sort_unstable_by(|a, b| a.name.cmp(&b.name));
        }
        Ok(entries)
    }

    fn read_dir(&self, p: &VPath, names_only: bool) -> Result<DirEntries> {
        let (st, rest, _) = self.route(p);
        let inner = st.read_dir(&rest, names_only)?;
        let points = self.children(p);
        if points.is_empty() {
            return Ok(inner);
        }
        let names: Vec<Vec<u8>> = points.iter().map(|(n, _)| n.to_vec()).collect();
        let extra: Vec<Entry> = points.iter().map(|(n, s)| Mounted::point_entry(n, *s)).collect();
        Ok(Box::new(
            inner
                .filter(move |e| e.as_ref().map_or(true, |e| !names.contains(&e.name)))
                .chain(extra.into_iter().map(Ok)),
        ))
    }

    fn read_names(&self, p: &VPath) -> Result<Box<dyn NameBatches>> {
        let (st, rest, _) = self.route(p);
        let inner = st.read_names(&rest)?;
        let points: Vec<Vec<u8>> = self.children(p).iter().map(|(n, _)| n.to_vec()).collect();
        if points.is_empty() {
            return Ok(inner);
        }
        Ok(Box::new(MountedNames {
            inner,
            points,
            points_sent: false,
        }))
    }

    fn open_read(&self, p: &VPath, offset: u64) -> Result<ReadHandle> {
        let (st, rest, _) = self.route(p);
        st.open_read(&rest, offset)
    }

    fn open_write(&self, p: &VPath, mode: WriteMode) -> Result<Box<dyn Upload>> {
        let (st, rest, _) = self.route(p);
        st.open_write(&rest, mode)
    }

    fn open_write_reusing(&self, p: &VPath, mode: WriteMode, spare: Box<dyn crate::Held>) -> Result<Box<dyn Upload>> {
        let (st, rest, _) = self.route(p);
        st.open_write_reusing(&rest, mode, spare)
    }

    fn mkdir(&self, p: &VPath) -> Result<()> {
        if self.is_point(p) {
            return Err(StorageError::AlreadyExists);
        }
        let (st, rest, _) = self.route(p);
        st.mkdir(&rest)
    }

    fn rmdir(&self, p: &VPath) -> Result<()> {
        if self.is_point(p) {
            return Err(StorageError::PermissionDenied);
        }
        let (st, rest, _) = self.route(p);
        st.rmdir(&rest)
    }

    fn remove_file(&self, p: &VPath) -> Result<()> {
        if self.is_point(p) {
            return Err(StorageError::IsADirectory);
        }
        let (st, rest, _) = self.route(p);
        st.remove_file(&rest)
    }

    fn remove_file_counted(&self, p: &VPath) -> Result<Option<u64>> {
        if self.is_point(p) {
            return Err(StorageError::IsADirectory);
        }
        let (st, rest, _) = self.route(p);
        st.remove_file_counted(&rest)
    }

    fn rename(&self, from: &VPath, to: &VPath) -> Result<()> {
        self.rename_within(from, to, true)
    }

    fn rename_no_replace(&self, from: &VPath, to: &VPath) -> Result<()> {
        self.rename_within(from, to, false)
    }

    fn chmod(&self, p: &VPath, mode: u32) -> Result<()> {
        let (st, rest, _) = self.route(p);
        st.chmod(&rest, mode)
    }

    fn set_modified(&self, p: &VPath, unix_secs: i64) -> Result<()> {
        let (st, rest, _) = self.route(p);
        st.set_modified(&rest, unix_secs)
    }

    fn capabilities(&self) -> Capabilities {
        self.root.capabilities()
    }

    fn name_charset(&self, p: &VPath) -> Option<&'static str> {
        let (st, rest, _) = self.route(p);
        st.name_charset(&rest)
    }

    /// A link inside a mounted storage leads inside it: its target under
    /// the mount point.
    fn link_target(&self, p: &VPath) -> Option<VPath> {
        let (st, rest, i) = self.route(p);
        let inner = st.link_target(&rest)?;
        Some(match i.and_then(|i| self.mounts.get(i)) {
            Some((point, _)) => {
                let mut c = point.clone();
                c.extend_from_slice(inner.components());
                path_of(&c)
            }
            None => inner,
        })
    }

    /// The mount point as the user sees it, then the path as the
    /// mounted storage keeps it.
    fn stored_path(&self, p: &VPath) -> Vec<u8> {
        let (st, rest, i) = self.route(p);
        let inner = st.stored_path(&rest);
        let Some(point) = i.and_then(|i| self.mounts.get(i)) else {
            return inner;
        };
        let mut out = path_of(&point.0).to_bytes();
        if inner != b"/" {
            out.extend_from_slice(&inner);
        }
        out
    }

    /// A subtree: of the storage that holds it, when no mount point is
    /// below it; else the same mounts beneath the new root.
    fn subdir(&self, p: &VPath) -> Result<Arc<dyn Storage>> {
        let (st, rest, _) = self.route(p);
        let base = st.subdir(&rest)?;
        let c = p.components();
        let below: Vec<(VPath, Arc<dyn Storage>)> = self
            .mounts
            .iter()
            .filter(|(point, _)| point.len() > c.len() && point[..c.len()] == *c)
            .map(|(point, s)| (path_of(&point[c.len()..]), s.clone()))
            .collect();
        Ok(Mounted::with(base, below))
    }

    fn sweep_leftovers(&self, before: std::time::SystemTime) -> usize {
        self.root.sweep_leftovers(before)
    }

    fn probe(&self) -> Result<()> {
        self.root.probe()
    }
}

impl Mounted {
    fn rename_within(&self, from: &VPath, to: &VPath, replace: bool) -> Result<()> {
        if self.is_point(from) || self.is_point(to) {
            return Err(StorageError::PermissionDenied);
        }
        let (a, from_rest, i) = self.route(from);
        let (_, to_rest, j) = self.route(to);
        if i != j {
            // Between storages a rename would be a copy: refused.
            return Err(StorageError::PermissionDenied);
        }
        if replace {
            a.rename(&from_rest, &to_rest)
        } else {
            a.rename_no_replace(&from_rest, &to_rest)
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::fs::FsStorage;

    fn names(st: &dyn Storage, p: &VPath) -> Vec<String> {
        let mut v: Vec<String> = st
            .read_dir(p, false)
            .unwrap()
            .map(|e| String::from_utf8(e.unwrap().name).unwrap())
            .collect();
        v.sort();
        v
    }

    fn nlst(st: &dyn Storage, p: &VPath) -> Vec<String> {
        let mut b = st.read_names(p).unwrap();
        let mut v = Vec::new();
        while b
            .next_batch(&mut |n| v.push(String::from_utf8(n.to_vec()).unwrap()))
            .unwrap()
        {}
        v.sort();
        v
    }

    #[test]
    fn a_mounted_directory_is_one_tree_with_the_home() {
        let home = tempfile::tempdir().unwrap();
        let archive = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("mine.txt"), b"m").unwrap();
        std::fs::create_dir(home.path().join("pub")).unwrap();
        std::fs::write(archive.path().join("old.txt"), b"old").unwrap();
        let st = Mounted::with(
            Arc::new(FsStorage::open(home.path()).unwrap()),
            vec![(
                VPath::root().join(b"archive"),
                Arc::new(FsStorage::open(archive.path()).unwrap()),
            )],
        );
        let root = VPath::root();
        let a = root.join(b"archive");
        assert_eq!(names(&*st, &root), ["archive", "mine.txt", "pub"]);
        assert_eq!(nlst(&*st, &root), ["archive", "mine.txt", "pub"]);
        assert_eq!(
            st.list(&root)
                .unwrap()
                .iter()
                .map(|e| e.name.clone())
                .collect::<Vec<_>>(),
            [b"archive".to_vec(), b"mine.txt".to_vec(), b"pub".to_vec()]
        );
        assert!(st.is_dir(&a));
        assert_eq!(st.stat(&a).unwrap().name, b"archive");
        assert_eq!(names(&*st, &a), ["old.txt"]);
        let mut data = String::new();
        match st.open_read(&a.join(b"old.txt"), 0).unwrap() {
            ReadHandle::File(mut f) => std::io::Read::read_to_string(&mut f, &mut data).unwrap(),
            ReadHandle::Reader(mut r) => r.read_to_string(&mut data).unwrap(),
        };
        assert_eq!(data, "old");
        // Writes land in the mounted directory.
        let mut up = st.open_write(&a.join(b"new.txt"), WriteMode::Replace).unwrap();
        up.write_all(b"n").unwrap();
        up.commit().unwrap();
        assert_eq!(std::fs::read(archive.path().join("new.txt")).unwrap(), b"n");
        st.mkdir(&a.join(b"d")).unwrap();
        assert!(archive.path().join("d").is_dir());
        // Renames stay within one storage; a mount point stays.
        assert!(matches!(
            st.rename(&root.join(b"mine.txt"), &a.join(b"mine.txt")),
            Err(StorageError::PermissionDenied)
        ));
        assert!(matches!(
            st.rename(&a, &root.join(b"b")),
            Err(StorageError::PermissionDenied)
        ));
        assert!(matches!(st.rmdir(&a), Err(StorageError::PermissionDenied)));
        st.rename(&a.join(b"new.txt"), &a.join(b"newer.txt")).unwrap();
        assert!(archive.path().join("newer.txt").is_file());
        // `..` from the mount point is the home, never the mounted
        // directory's parent.
        assert_eq!(names(&*st, &a.join(b"..")), ["archive", "mine.txt", "pub"]);
    }
}
