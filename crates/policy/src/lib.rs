//! Permissions per virtual path (issue 28): what a user may do where.
//!
//! A user (or its group) has [`Rules`]: a set of permissions per virtual
//! path of its tree, `/` included. The permissions at a path are those of
//! the rule with the longest path that is the path or one of its parents
//! (component by component: `/in` does not cover `/inbox`). What a command
//! needs is [`needs`]; whether it may is [`decide`], a pure function of the
//! rules and the operation, with no I/O, so that FTP and the web view ask
//! the same question and get the same answer.
//!
//! Pathnames are bytes, as everywhere in babelftp: a rule's path is
//! compared component by component, octet by octet.

use std::fmt;

/// One permission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Perm {
    /// See a directory's entries (LIST, NLST, MLSD) and a path's facts
    /// (MLST, SIZE, MDTM, STAT of a path).
    List,
    /// Read a file (RETR).
    Download,
    /// Create a file (STOR, STOU, APPE of a new file).
    Upload,
    /// Replace or extend a file that exists (STOR over it, APPE, REST+STOR).
    Overwrite,
    /// Remove a file (DELE).
    Delete,
    /// Rename (RNFR/RNTO): needed at both ends.
    Rename,
    /// Create a directory (MKD).
    Mkdir,
    /// Remove a directory (RMD).
    Rmdir,
    /// Change a file's attributes: mode (SITE CHMOD) and time (MFMT).
    Chmod,
}

impl Perm {
    /// Every permission, in the order they are written.
    pub const ALL: [Perm; 9] = [
        Perm::List,
        Perm::Download,
        Perm::Upload,
        Perm::Overwrite,
        Perm::Delete,
        Perm::Rename,
        Perm::Mkdir,
        Perm::Rmdir,
        Perm::Chmod,
    ];

    /// Its name in configuration files and commands.
    pub fn name(self) -> &'static str {
        match self {
            Perm::List => "list",
            Perm::Download => "download",
            Perm::Upload => "upload",
            Perm::Overwrite => "overwrite",
            Perm::Delete => "delete",
            Perm::Rename => "rename",
            Perm::Mkdir => "mkdir",
            Perm::Rmdir => "rmdir",
            Perm::Chmod => "chmod",
        }
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

impl fmt::Display for Perm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of permissions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Perms(u16);

impl Perms {
    /// No permission.
    pub const NONE: Perms = Perms(0);
    /// Every permission.
    pub const ALL: Perms = Perms((1 << 9) - 1);
    /// `read`: list and download.
    pub const READ: Perms = Perms(1 << (Perm::List as u16) | 1 << (Perm::Download as u16));

    /// Whether `p` is in the set.
    pub fn has(self, p: Perm) -> bool {
        self.0 & p.bit() != 0
    }

    /// The set with `p` added.
    pub fn with(self, p: Perm) -> Perms {
        Perms(self.0 | p.bit())
    }

    /// The permissions in both sets.
    pub fn and(self, other: Perms) -> Perms {
        Perms(self.0 & other.0)
    }

    /// Whether the set is empty (`none`).
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The permissions in the set, in [`Perm::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = Perm> {
        Perm::ALL.into_iter().filter(move |p| self.has(*p))
    }
}

/// A permission list that does not parse: the word it stopped at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown permission {0:?}: expected all, none, read, or a comma-separated list of list, download, upload, overwrite, delete, rename, mkdir, rmdir, chmod")]
pub struct BadPerms(pub String);

impl std::str::FromStr for Perms {
    type Err = BadPerms;

    /// `all`, `none`, `read`, or a comma-separated list of permission
    /// names (and `read`), ASCII case ignored, spaces around words allowed.
    fn from_str(s: &str) -> Result<Perms, BadPerms> {
        let mut out = Perms::NONE;
        for word in s.split(',').map(str::trim) {
            let w = word.to_ascii_lowercase();
            out = match w.as_str() {
                "all" => Perms::ALL,
                "none" if s.trim().eq_ignore_ascii_case("none") => Perms::NONE,
                "read" => Perms(out.0 | Perms::READ.0),
                _ => match Perm::ALL.into_iter().find(|p| p.name() == w) {
                    Some(p) => out.with(p),
                    None => return Err(BadPerms(word.to_owned())),
                },
            };
        }
        Ok(out)
    }
}

impl fmt::Display for Perms {
    /// `all`, `none`, `read`, or the list in [`Perm::ALL`]'s order: what
    /// [`Perms::from_str`](std::str::FromStr) reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Perms::ALL => f.write_str("all"),
            Perms::NONE => f.write_str("none"),
            Perms::READ => f.write_str("read"),
            _ => {
                let names: Vec<&str> = self.iter().map(Perm::name).collect();
                f.write_str(&names.join(","))
            }
        }
    }
}

impl fmt::Debug for Perms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Perms({self})")
    }
}

/// A virtual path as components (`/` is none): what the session's `VPath`
/// hands out, already normalized (no `.`, `..` or empty component).
pub type Components<'a> = &'a [Vec<u8>];

/// Permissions per virtual path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    /// (path components, permissions), longest path first.
    rules: Vec<(Vec<Vec<u8>>, Perms)>,
}

/// A rule's path that is not an absolute, normalized virtual path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("permission path {0:?}: expected an absolute path without . or .. (\"/\", \"/incoming\")")]
pub struct BadRulePath(pub String);

impl Rules {
    /// The same permissions everywhere.
    pub fn everywhere(perms: Perms) -> Rules {
        Rules {
            rules: vec![(Vec::new(), perms)],
        }
    }

    /// Rules from (path, permissions) pairs. A path is absolute (`/`,
    /// `/incoming/2026`); a trailing `/` is ignored. Without a rule for
    /// `/`, the root has no permission (`none`). A path given twice keeps
    /// the last.
    pub fn new<'a>(pairs: impl IntoIterator<Item = (&'a [u8], Perms)>) -> Result<Rules, BadRulePath> {
        let mut rules: Vec<(Vec<Vec<u8>>, Perms)> = Vec::new();
        for (path, perms) in pairs {
            let bad = || BadRulePath(String::from_utf8_lossy(path).into_owned());
            let rest = path.strip_prefix(b"/").ok_or_else(bad)?;
            let comps: Vec<Vec<u8>> = rest
                .split(|b| *b == b'/')
                .filter(|c| !c.is_empty())
                .map(<[u8]>::to_vec)
                .collect();
            if comps.iter().any(|c| c == b"." || c == b"..") || rest.windows(2).any(|w| w == b"//") {
                return Err(bad());
            }
            rules.retain(|(p, _)| *p != comps);
            rules.push((comps, perms));
        }
        // Longest first; among equal lengths any order (paths differ).
        rules.sort_by_key(|r| std::cmp::Reverse(r.0.len()));
        Ok(Rules { rules })
    }

    /// The permissions at a path: the rule of the longest path that is it
    /// or one of its parents; `none` when no rule covers it.
    pub fn at(&self, path: Components) -> Perms {
        self.rules
            .iter()
            .find(|(p, _)| p.len() <= path.len() && path[..p.len()] == p[..])
            .map_or(Perms::NONE, |(_, perms)| *perms)
    }

    /// The permissions of a directory's entries, for a listing: one
    /// lookup for the directory, and one more only for the names that
    /// have rules of their own below it.
    pub fn below(&self, dir: Components) -> Below {
        let mut named: Vec<(Vec<u8>, Perms)> = Vec::new();
        let mut reach: Vec<Vec<u8>> = Vec::new();
        for (p, perms) in &self.rules {
            if p.len() > dir.len() && p[..dir.len()] == *dir {
                let name = &p[dir.len()];
                if !named.iter().any(|(n, _)| n == name) {
                    let mut child = dir.to_vec();
                    child.push(name.clone());
                    named.push((name.clone(), self.at(&child)));
                }
                if p.len() > dir.len() + 1 && !perms.is_empty() && !reach.contains(name) {
                    reach.push(name.clone());
                }
            }
        }
        Below {
            here: self.at(dir),
            named,
            reach,
        }
    }

    /// Whether every path has the same permissions (one rule, or rules
    /// that all say the same): then where a path leads never matters.
    pub fn is_uniform(&self) -> bool {
        self.rules.windows(2).all(|w| w[0].1 == w[1].1) && self.rules.last().is_none_or(|r| r.0.is_empty())
    }

    /// The paths of the rules strictly inside `dir` (below it, not it),
    /// longest first.
    pub fn inside<'a>(&'a self, dir: Components<'a>) -> impl Iterator<Item = Components<'a>> + 'a {
        self.rules
            .iter()
            .filter(move |(p, _)| p.len() > dir.len() && p[..dir.len()] == *dir)
            .map(|(p, _)| p.as_slice())
    }

    /// The rules seen from `dir`, which becomes `/` (a share link's
    /// folder, issue 49), each cut to `mask`: what is at `dir` holds at
    /// `/`, what is below it holds at the same place below `/`.
    pub fn rebased(&self, dir: Components, mask: Perms) -> Rules {
        let mut rules = vec![(Vec::new(), self.at(dir).and(mask))];
        for (p, perms) in &self.rules {
            if p.len() > dir.len() && p[..dir.len()] == *dir {
                rules.push((p[dir.len()..].to_vec(), perms.and(mask)));
            }
        }
        rules.sort_by_key(|r| std::cmp::Reverse(r.0.len()));
        Rules { rules }
    }

    /// The rules as (path, permissions), longest path first.
    pub fn iter(&self) -> impl Iterator<Item = (String, Perms)> + '_ {
        self.rules.iter().map(|(p, perms)| {
            let mut s = Vec::new();
            for c in p {
                s.push(b'/');
                s.extend_from_slice(c);
            }
            if s.is_empty() {
                s.push(b'/');
            }
            (String::from_utf8_lossy(&s).into_owned(), *perms)
        })
    }
}

/// The permissions of the entries of one directory ([`Rules::below`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Below {
    /// The directory's own, which its entries inherit.
    pub here: Perms,
    /// Entries with rules of their own (at them or deeper).
    pub named: Vec<(Vec<u8>, Perms)>,
    /// Entries with a rule deeper inside them that gives some permission.
    pub reach: Vec<Vec<u8>>,
}

impl Below {
    /// The same permissions for every entry.
    pub fn uniform(perms: Perms) -> Below {
        Below {
            here: perms,
            named: Vec::new(),
            reach: Vec::new(),
        }
    }

    /// Whether the entry `name` shows in the directory's listing: when
    /// the user may do anything at it or somewhere inside it. A drop box
    /// (`/incoming upload` under `/ list`) shows in its parent, where
    /// the user may list; its own entries stay hidden (no `list` in it).
    /// Only what the user may do nothing with is left out.
    pub fn shows(&self, name: &[u8]) -> bool {
        !self.of(name).is_empty() || self.reach.iter().any(|n| n == name)
    }

    /// The permissions of the entry `name`.
    pub fn of(&self, name: &[u8]) -> Perms {
        if self.named.is_empty() {
            return self.here;
        }
        self.named
            .iter()
            .find(|(n, _)| n == name)
            .map_or(self.here, |(_, p)| *p)
    }
}

impl Default for Rules {
    /// All permissions everywhere (what a user without rules may do).
    fn default() -> Self {
        Rules::everywhere(Perms::ALL)
    }
}

/// An operation on the tree, as a door asks for it.
#[derive(Debug, Clone, Copy)]
pub enum Op<'a> {
    /// A directory's entries, or a path's facts.
    List(Components<'a>),
    Download(Components<'a>),
    /// Writing a file: `exists` when it replaces or extends one (STOR over
    /// a file, APPE or REST+STOR of one).
    Store {
        path: Components<'a>,
        exists: bool,
    },
    Delete(Components<'a>),
    /// Renaming: `to_exists` when it replaces a file.
    Rename {
        from: Components<'a>,
        to: Components<'a>,
        to_exists: bool,
    },
    Mkdir(Components<'a>),
    Rmdir(Components<'a>),
    /// SITE CHMOD, MFMT.
    Chmod(Components<'a>),
}

/// What an operation needs: each (permission, path) must hold.
pub fn needs<'a>(op: &Op<'a>) -> Vec<(Perm, Components<'a>)> {
    match *op {
        Op::List(p) => vec![(Perm::List, p)],
        Op::Download(p) => vec![(Perm::Download, p)],
        Op::Store { path, exists: false } => vec![(Perm::Upload, path)],
        Op::Store { path, exists: true } => vec![(Perm::Overwrite, path)],
        Op::Delete(p) => vec![(Perm::Delete, p)],
        Op::Rename { from, to, to_exists } => {
            let mut v = vec![(Perm::Rename, from), (Perm::Rename, to)];
            if to_exists {
                v.push((Perm::Overwrite, to));
            }
            v
        }
        Op::Mkdir(p) => vec![(Perm::Mkdir, p)],
        Op::Rmdir(p) => vec![(Perm::Rmdir, p)],
        Op::Chmod(p) => vec![(Perm::Chmod, p)],
    }
}

/// The answer: allowed, or the first permission missing and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision<'a> {
    Allow,
    Deny {
        missing: Perm,
        at: Components<'a>,
    },
    /// A rename or removal of a directory that a rule on a path inside it
    /// does not allow: the rule's path (below the operation's) and the
    /// permission it lacks. Moving a directory moves everything below it,
    /// so a rule below must allow the move too, or the files it guards
    /// would leave it (`/projects/locked none`, then `RNFR /projects`,
    /// `RNTO /moved`: `/moved/locked` is no longer guarded).
    DenyInside {
        missing: Perm,
        at: Components<'a>,
    },
}

/// The (permission, path) pairs whose rules below must also allow an
/// operation that moves or removes a whole directory: a rename, at both
/// ends, and RMD.
pub fn needs_inside<'a>(op: &Op<'a>) -> Vec<(Perm, Components<'a>)> {
    match *op {
        Op::Rename { from, to, .. } => vec![(Perm::Rename, from), (Perm::Rename, to)],
        Op::Rmdir(p) => vec![(Perm::Rmdir, p)],
        _ => Vec::new(),
    }
}

/// Whether `rules` allow `op`: every permission [`needs`] names, then,
/// for a rename or RMD, the same permission at every rule's path strictly
/// inside the directory moved or removed ([`needs_inside`]).
pub fn decide<'a>(rules: &'a Rules, op: &Op<'a>) -> Decision<'a> {
    for (perm, at) in needs(op) {
        if !rules.at(at).has(perm) {
            return Decision::Deny { missing: perm, at };
        }
    }
    for (perm, dir) in needs_inside(op) {
        if let Some(at) = rules.inside(dir).find(|p| !rules.at(p).has(perm)) {
            return Decision::DenyInside { missing: perm, at };
        }
    }
    Decision::Allow
}

/// Whether an entry at `path` shows in a listing of its directory (one
/// the user may list): when the user may do anything at it or at a path
/// inside it ([`Below::shows`]).
pub fn visible(rules: &Rules, path: Components) -> bool {
    !rules.at(path).is_empty() || rules.inside(path).any(|p| !rules.at(p).is_empty())
}

#[cfg(test)]
mod tests;
