//! Virtual paths, and how a write opens its file: what every storage
//! operation a door asks for names (the FTP session, the web view), and
//! what a storage back-end can do. Shared by `babelftp-session` and
//! `babelftp-storage`, neither of which depends on the other.

/// The prefix of an upload's temporary name (`.babelftp-<pid>-<n>.part`,
/// made by the local storage beside its target): never listed, swept at
/// start, and never a name a client may create ([`is_temp_name`]).
pub const TEMP_PREFIX: &[u8] = b".babelftp-";
/// … and its suffix.
pub const TEMP_SUFFIX: &[u8] = b".part";

/// Whether `name` (one component) is in the pattern of the server's own
/// temporary upload names: hidden from listings and removed at start, so
/// a client may not STOR, STOU, APPE, RNTO or MKD it (nor the web view
/// make it).
pub fn is_temp_name(name: &[u8]) -> bool {
    name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX) && name.len() > TEMP_PREFIX.len() + TEMP_SUFFIX.len()
}

/// A normalized virtual path: components below the session's root.
///
/// Built only by [`VPath::root`] and [`VPath::join`], so by construction no
/// component is empty, `.`, `..` or contains `/`: a `VPath` can never name
/// anything above the root it is resolved against. (The storage back-end
/// still confines symlinks; this is the lexical half.)
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VPath(Vec<Vec<u8>>);

impl VPath {
    /// The root `/`.
    pub fn root() -> Self {
        VPath(Vec::new())
    }

    /// Resolves `arg` (absolute, or relative to `self`) lexically: empty
    /// components and `.` vanish, `..` goes up but never above the root
    /// (as `cd ..` does at `/`).
    pub fn join(&self, arg: &[u8]) -> VPath {
        let mut parts = if arg.first() == Some(&b'/') {
            Vec::new()
        } else {
            self.0.clone()
        };
        for comp in arg.split(|&b| b == b'/') {
            match comp {
                b"" | b"." => {}
                b".." => {
                    parts.pop();
                }
                c => parts.push(c.to_vec()),
            }
        }
        VPath(parts)
    }

    /// The parent (the root is its own parent).
    pub fn parent(&self) -> VPath {
        let mut p = self.0.clone();
        p.pop();
        VPath(p)
    }

    /// The last component, if any.
    pub fn file_name(&self) -> Option<&[u8]> {
        self.0.last().map(Vec::as_slice)
    }

    /// Whether the last component is a name the server keeps for its
    /// temporary upload files ([`is_temp_name`]).
    pub fn is_reserved(&self) -> bool {
        self.file_name().is_some_and(is_temp_name)
    }

    /// Whether this is the root.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// The components.
    pub fn components(&self) -> &[Vec<u8>] {
        &self.0
    }

    /// Whether every component is a plain name (never true of a `VPath`
    /// made by `join`; the fuzz target checks it of every operation).
    pub fn is_confined(&self) -> bool {
        self.0
            .iter()
            .all(|c| !c.is_empty() && c != b"." && c != b".." && !c.contains(&b'/'))
    }

    /// The absolute virtual path as bytes (`/a/b`), as PWD shows it.
    pub fn to_bytes(&self) -> Vec<u8> {
        if self.0.is_empty() {
            return b"/".to_vec();
        }
        let mut out = Vec::new();
        for c in &self.0 {
            out.push(b'/');
            out.extend_from_slice(c);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vpath_never_climbs_above_root() {
        let cwd = VPath::root().join(b"/a/b");
        assert_eq!(cwd.to_bytes(), b"/a/b");
        assert_eq!(cwd.join(b"../../../../etc").to_bytes(), b"/etc");
        assert_eq!(cwd.join(b"./c//d/").to_bytes(), b"/a/b/c/d");
        assert_eq!(cwd.join(b"/").to_bytes(), b"/");
        assert_eq!(cwd.join(b"  ").to_bytes(), b"/a/b/  ");
        // An overlong "." (C0 AE) is a name, not a dot (RFC 2279 section 6).
        assert_eq!(cwd.join(b"\xc0\xae\xc0\xae").to_bytes(), b"/a/b/\xc0\xae\xc0\xae");
        assert!(cwd.join(b"../x/./../..").is_confined());
    }

    #[test]
    fn temporary_upload_names_are_reserved() {
        for name in [
            &b".babelftp-12-0.part"[..],
            b".babelftp-x.part",
            b".babelftp-\xd0\x94.part",
        ] {
            assert!(is_temp_name(name), "{}", name.escape_ascii());
            assert!(VPath::root().join(b"/a").join(name).is_reserved());
        }
        for name in [
            &b".babelftp-.part"[..],
            b"babelftp-1.part",
            b".babelftp-1.part.1",
            b"x.part",
            b".babelftp-1",
        ] {
            assert!(!is_temp_name(name), "{}", name.escape_ascii());
        }
        // Only the last component: a directory of that name (made before
        // names were refused) can still be entered.
        assert!(!VPath::root().join(b"/.babelftp-1.part/x").is_reserved());
        assert!(!VPath::root().is_reserved());
    }
}

/// How an upload opens its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteMode {
    /// STOR: write beside the target, rename over it when complete, so a
    /// failed or aborted upload never destroys the old file.
    Replace,
    /// STOU: a new file; the first free name of `name`, `name.1`, …
    Unique,
    /// APPE: append in place.
    Append,
    /// REST n + STOR: write in place from offset n.
    At(u64),
    /// STOR by an account that may upload but not overwrite: as
    /// `Replace`, but the file must not exist, when the upload starts and
    /// when it is committed (`AlreadyExists`).
    New,
}

/// What a storage back-end can do beyond reading, listing, and writing
/// whole files (an object store can do only that).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capabilities {
    /// APPE: add to the end of a file (504 without).
    pub append: bool,
    /// REST + STOR: write from an offset (504 without; REST + RETR needs
    /// nothing).
    pub write_at: bool,
    /// SITE CHMOD: Unix permission bits (502 without, and not in SITE HELP).
    pub chmod: bool,
    /// MFMT: set a file's modification time and keep it, as listings show
    /// it (502 without, and not in FEAT or HELP). A client that sees MFMT
    /// may trust the times it sets (`mirror -R` compares them).
    pub set_times: bool,
}

impl Capabilities {
    /// A POSIX filesystem: everything.
    pub const ALL: Capabilities = Capabilities {
        append: true,
        write_at: true,
        chmod: true,
        set_times: true,
    };

    /// What both can do (a server whose hosts have different storages
    /// offers what every one of them can).
    pub fn and(self, o: Capabilities) -> Capabilities {
        Capabilities {
            append: self.append && o.append,
            write_at: self.write_at && o.write_at,
            chmod: self.chmod && o.chmod,
            set_times: self.set_times && o.set_times,
        }
    }
}
