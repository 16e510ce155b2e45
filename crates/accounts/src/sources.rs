//! Where homes and virtual folders may come from (issue 45): a home or a
//! mount set through the admin API or the `user`/`group` commands must lie
//! under one of the server's `allowed_sources` (by default its served
//! root), so that whoever may create an account cannot mount `/` and read
//! the host's files.
//!
//! Paths compare component by component, after both are made absolute
//! and normal (a [`Source`] never holds `.` or `..`); `/srv/ftp2` is not
//! under `/srv/ftp`. An S3 source lies under an allowed one of the same
//! bucket whose prefix is a prefix of its own, by whole components.
//! Symbolic links are not followed: a source is judged by its name.

use std::path::{Component, Path, PathBuf};

use crate::{AccountsError, Source};

/// The sources homes and mounts may lie under.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AllowedSources(Vec<Source>);

impl AllowedSources {
    pub fn new(sources: Vec<Source>) -> AllowedSources {
        AllowedSources(sources)
    }

    /// A local directory as an allowed source: made absolute (against the
    /// working directory) and normal (`.` dropped, `..` taken back), as
    /// the served root is named in the configuration.
    pub fn dir(path: &Path) -> Option<Source> {
        let abs = std::path::absolute(path).ok()?;
        let mut out = PathBuf::new();
        for c in abs.components() {
            match c {
                Component::CurDir => {}
                Component::ParentDir => {
                    out.pop();
                }
                c => out.push(c),
            }
        }
        Some(Source::Dir(out))
    }

    /// The allowed sources, for people (and error texts).
    pub fn describe(&self) -> String {
        let names: Vec<String> = self.0.iter().map(Source::to_string).collect();
        names.join(", ")
    }

    pub fn sources(&self) -> &[Source] {
        &self.0
    }

    /// Whether `src` lies under one of them; else why not.
    pub fn check(&self, src: &Source) -> Result<(), AccountsError> {
        if self.0.iter().any(|a| under(src, a)) {
            return Ok(());
        }
        Err(AccountsError::SourceNotAllowed {
            what: src.to_string(),
            allowed: self.describe(),
        })
    }

    /// A home as written (`/alice` is inside the root: always allowed).
    pub fn check_home(&self, home: &str) -> Result<(), AccountsError> {
        match home.parse::<crate::Home>()? {
            crate::Home::Inside(_) => Ok(()),
            crate::Home::Source(s) => self.check(&s),
        }
    }
}

/// Whether `src` is `allowed` or below it.
fn under(src: &Source, allowed: &Source) -> bool {
    match (src, allowed) {
        (Source::Dir(p), Source::Dir(a)) => {
            let clean = |p: &Path| {
                p.is_absolute()
                    && !p
                        .components()
                        .any(|c| matches!(c, Component::ParentDir | Component::CurDir))
            };
            clean(p) && clean(a) && p.starts_with(a)
        }
        (Source::S3 { bucket, prefix }, Source::S3 { bucket: ab, prefix: ap }) => {
            let comps = |s: &str| {
                s.split('/')
                    .filter(|c| !c.is_empty())
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            };
            let (mine, theirs) = (comps(prefix), comps(ap));
            bucket == ab && mine.len() >= theirs.len() && mine[..theirs.len()] == theirs[..]
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    fn src(s: &str) -> Source {
        s.parse().unwrap()
    }

    #[test]
    fn sources_under_an_allowed_one_by_whole_components() {
        let allowed = AllowedSources::new(vec![src("/srv/ftp"), src("s3://bucket/pre/fix")]);
        for ok in [
            "/srv/ftp",
            "/srv/ftp/",
            "file:///srv/ftp/alice",
            "s3://bucket/pre/fix",
            "s3://bucket/pre/fix/a",
        ] {
            assert!(allowed.check(&src(ok)).is_ok(), "{ok}");
        }
        for bad in [
            "/",
            "/etc",
            "/srv/ftp2",
            "/srv",
            "s3://bucket",
            "s3://bucket/pre",
            "s3://bucket/pre/fixed",
            "s3://other/pre/fix",
        ] {
            let e = allowed.check(&src(bad)).unwrap_err();
            assert!(matches!(e, AccountsError::SourceNotAllowed { .. }), "{bad}: {e}");
            assert!(e.to_string().contains("/srv/ftp"), "{e}");
        }
        // `..` never reads as a source; a home inside the root is always
        // allowed.
        assert!("/srv/ftp/../../etc".parse::<Source>().is_err());
        assert!(allowed.check_home("/alice").is_ok());
        assert!(allowed.check_home("file:///etc").is_err());
        assert!(AllowedSources::default().check(&src("/srv/ftp")).is_err());
    }

    #[test]
    fn a_relative_root_is_made_absolute_and_normal() {
        let here = std::env::current_dir().unwrap();
        assert_eq!(
            AllowedSources::dir(Path::new("./ftp-root/../ftp-root/x/..")),
            Some(Source::Dir(here.join("ftp-root")))
        );
    }
}

#[cfg(test)]
mod home_form {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use crate::{Home, Source};

    /// Issue 45, item 7: a `file://` home is written back as `file://`,
    /// so that it reads back as that directory, not as a path of the root.
    #[test]
    fn a_file_home_keeps_its_form() {
        let h: Home = "file:///srv/alice".parse().unwrap();
        assert_eq!(h, Home::Source(Source::Dir("/srv/alice".into())));
        assert_eq!(h.to_string(), "file:///srv/alice");
        assert_eq!(h.to_string().parse::<Home>().unwrap(), h);
        let inside: Home = "/srv/alice".parse().unwrap();
        assert_eq!(inside, Home::Inside(b"/srv/alice".to_vec()));
        assert_eq!(inside.to_string(), "/srv/alice");
    }
}
