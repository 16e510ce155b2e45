//! The harness's storage: a tiny in-memory filesystem.

use std::collections::BTreeMap;
use std::io::ErrorKind;

use babelftp_proto::listing::{Entry, EntryKind};

use crate::{Account, Op, OpOk, OpResult, VPath};

/// The modification time of every node not given one by MFMT.
pub const DEFAULT_MTIME: i64 = 1_700_000_000;
/// The harness's wall clock (2027): its listings show times of
/// [`DEFAULT_MTIME`] with the year, as LIST does for old files.
pub const NOW: i64 = 1_800_000_000;

/// A tiny filesystem: directories and files with contents.
#[derive(Debug, Clone)]
pub struct MemFs {
    pub(super) nodes: BTreeMap<VPath, Option<Vec<u8>>>,
    /// Times set by MFMT ([`DEFAULT_MTIME`] for the rest).
    modified: BTreeMap<VPath, i64>,
    /// When set, entering a home fails with this (EMFILE and the like).
    pub fail_enter_home: Option<ErrorKind>,
    /// Accounts besides `bob`/`secret` (who may do everything):
    /// (user, password, account).
    pub accounts: Vec<(Vec<u8>, Vec<u8>, Account)>,
}

impl Default for MemFs {
    fn default() -> Self {
        let mut nodes = BTreeMap::new();
        nodes.insert(VPath::root(), None);
        MemFs {
            nodes,
            modified: BTreeMap::new(),
            fail_enter_home: None,
            accounts: Vec::new(),
        }
    }
}

impl MemFs {
    /// Adds a file (and its parent directories).
    pub fn add_file(&mut self, path: &[u8], data: &[u8]) {
        let p = VPath::root().join(path);
        self.add_dir(&p.parent().to_bytes());
        self.put(p, data.to_vec());
    }

    /// Writes a file (an upload): a new modification time.
    pub(super) fn put(&mut self, p: VPath, data: Vec<u8>) {
        self.modified.remove(&p);
        self.nodes.insert(p, Some(data));
    }

    /// A node's modification time.
    pub fn mtime(&self, path: &[u8]) -> Option<i64> {
        let p = VPath::root().join(path);
        self.nodes
            .contains_key(&p)
            .then(|| self.modified.get(&p).copied().unwrap_or(DEFAULT_MTIME))
    }

    /// Adds a directory and its parents.
    pub fn add_dir(&mut self, path: &[u8]) {
        let p = VPath::root().join(path);
        let mut cur = VPath::root();
        for c in p.components() {
            cur = cur.join(c);
            self.nodes.entry(cur.clone()).or_insert(None);
        }
    }

    /// A file's contents.
    pub fn file(&self, path: &[u8]) -> Option<&[u8]> {
        self.nodes.get(&VPath::root().join(path))?.as_deref()
    }

    /// Whether anything is at `path`.
    pub fn exists(&self, path: &[u8]) -> bool {
        self.nodes.contains_key(&VPath::root().join(path))
    }

    pub(super) fn is_dir(&self, p: &VPath) -> bool {
        matches!(self.nodes.get(p), Some(None))
    }

    fn entry(&self, p: &VPath) -> Option<Entry> {
        let node = self.nodes.get(p)?;
        Some(Entry {
            name: p.file_name().unwrap_or(b"/").to_vec(),
            kind: if node.is_some() {
                EntryKind::File
            } else {
                EntryKind::Dir
            },
            size: node.as_ref().map_or(0, |d| d.len() as u64),
            modified: Some(self.modified.get(p).copied().unwrap_or(DEFAULT_MTIME)),
            mode: 0o644,
            nlink: 1,
            unique: None,
            perm: String::new(),
        })
    }

    fn children(&self, p: &VPath) -> Vec<Entry> {
        self.nodes
            .keys()
            .filter(|k| !k.is_root() && k.parent() == *p)
            .filter_map(|k| self.entry(k))
            .collect()
    }

    /// Runs a storage operation.
    pub fn run(&mut self, op: &Op) -> OpResult {
        self.run_kind(op).map_err(Into::into)
    }

    fn run_kind(&mut self, op: &Op) -> Result<OpOk, std::io::ErrorKind> {
        match op {
            Op::Stat(p) => self.entry(p).map(OpOk::Entry).ok_or(ErrorKind::NotFound),
            Op::IsDir(p) => Ok(OpOk::IsDir(self.is_dir(p))),
            Op::Entries(p) => match self.nodes.get(p) {
                None => Err(ErrorKind::NotFound),
                Some(None) => Ok(OpOk::Entries {
                    entries: self.children(p),
                    now: NOW,
                }),
                Some(Some(_)) => Ok(OpOk::Entries {
                    entries: self.entry(p).into_iter().collect(),
                    now: NOW,
                }),
            },
            Op::Mkdir(p) => {
                if self.nodes.contains_key(p) {
                    Err(ErrorKind::AlreadyExists)
                } else if !self.is_dir(&p.parent()) {
                    Err(ErrorKind::NotFound)
                } else {
                    self.nodes.insert(p.clone(), None);
                    Ok(OpOk::Done)
                }
            }
            Op::Rmdir(p) => {
                if p.is_root() {
                    Err(ErrorKind::PermissionDenied)
                } else if !self.is_dir(p) {
                    Err(ErrorKind::NotFound)
                } else if !self.children(p).is_empty() {
                    Err(ErrorKind::DirectoryNotEmpty)
                } else {
                    self.nodes.remove(p);
                    Ok(OpOk::Done)
                }
            }
            Op::RemoveFile(p) => match self.nodes.get(p) {
                Some(Some(_)) => {
                    self.nodes.remove(p);
                    self.modified.remove(p);
                    Ok(OpOk::Done)
                }
                Some(None) => Err(ErrorKind::IsADirectory),
                None => Err(ErrorKind::NotFound),
            },
            Op::Rename { from, to, replace } => {
                if from.is_root() || to.is_root() || !self.nodes.contains_key(from) {
                    return Err(ErrorKind::NotFound);
                }
                if !replace && self.nodes.contains_key(to) {
                    return Err(ErrorKind::AlreadyExists);
                }
                if !self.is_dir(&to.parent()) {
                    return Err(ErrorKind::NotFound);
                }
                let moved: Vec<(VPath, Option<Vec<u8>>)> = self
                    .nodes
                    .range(from.clone()..)
                    .take_while(|(k, _)| k.components().starts_with(from.components()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                let mut times = Vec::new();
                for (k, _) in &moved {
                    self.nodes.remove(k);
                    times.push(self.modified.remove(k));
                }
                for ((k, v), t) in moved.into_iter().zip(times) {
                    let mut parts = to.clone();
                    for c in &k.components()[from.components().len()..] {
                        parts = parts.join(c);
                    }
                    match t {
                        Some(t) => self.modified.insert(parts.clone(), t),
                        None => self.modified.remove(&parts),
                    };
                    self.nodes.insert(parts, v);
                }
                Ok(OpOk::Done)
            }
            Op::Chmod { path, .. } => match self.nodes.get(path) {
                Some(_) => Ok(OpOk::Done),
                None => Err(ErrorKind::NotFound),
            },
            Op::SetModified { path, time } => match self.nodes.get(path) {
                Some(Some(_)) => {
                    self.modified.insert(path.clone(), *time);
                    Ok(OpOk::Done)
                }
                Some(None) => Err(ErrorKind::IsADirectory),
                None => Err(ErrorKind::NotFound),
            },
            Op::VerifyPassword { user, password } => {
                if user == b"bob" && password == b"secret" {
                    return Ok(OpOk::Account(Some(Account::with_write(b"/".to_vec(), true))));
                }
                Ok(OpOk::Account(
                    self.accounts
                        .iter()
                        .find(|(u, p, _)| u == user && p == password)
                        .map(|(_, _, a)| a.clone()),
                ))
            }
            Op::EnterHome(p) => {
                if let Some(e) = self.fail_enter_home {
                    Err(e)
                } else if self.is_dir(p) {
                    Ok(OpOk::Done)
                } else {
                    Err(ErrorKind::NotFound)
                }
            }
            Op::BindPassive { .. } => Ok(OpOk::Port(40_000)),
            // The in-memory driver has no quota.
            Op::Quota => Ok(OpOk::Quota(None)),
        }
    }
}
