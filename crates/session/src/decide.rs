//! Small decisions the driver asks the session's crate for while it does
//! the work: which names STOU tries, and whether a data connection's TLS
//! handshake resumed a session it may (RFC 4217 10.2). Pure functions of
//! the facts the driver supplies.
//!
//! A leaf module.

use babelftp_proto::vpath::VPath;

/// How many names STOU tries before it gives up (553-free: the last
/// refusal, `AlreadyExists`, is the reply).
pub const UNIQUE_TRIES: u32 = 10_000;

/// The names STOU tries, in order: `name`, `name.1`, `name.2`, … up to
/// [`UNIQUE_TRIES`] of them, in the directory of `path`. The driver opens
/// each for creation and takes the first that did not exist.
#[derive(Debug, Clone)]
pub struct UniqueNames {
    dir: VPath,
    base: Vec<u8>,
    next: u32,
}

impl UniqueNames {
    /// The candidates for a STOU aimed at `path` (a path with no file name
    /// starts from `file`).
    pub fn new(path: &VPath) -> Self {
        UniqueNames {
            dir: path.parent(),
            base: path.file_name().unwrap_or(b"file").to_vec(),
            next: 0,
        }
    }
}

impl Iterator for UniqueNames {
    type Item = VPath;

    fn next(&mut self) -> Option<VPath> {
        let n = self.next;
        if n >= UNIQUE_TRIES {
            return None;
        }
        self.next += 1;
        if n == 0 {
            return Some(self.dir.join(&self.base));
        }
        let mut name = Vec::with_capacity(self.base.len() + 6);
        name.extend_from_slice(&self.base);
        name.extend_from_slice(format!(".{n}").as_bytes());
        Some(self.dir.join(&name))
    }
}

/// What to do with a data connection's finished TLS handshake (RFC 4217
/// 10.2: the data connection should resume the control connection's TLS
/// session, so that whoever connects is the client that logged in).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataTlsReuse {
    /// Use it.
    Accept,
    /// Close it (in order, so the client reads the 522).
    Refuse,
    /// Resumed: use it once the driver has confirmed that the session it
    /// resumed is this client's (same user and address, or this session
    /// still logging in).
    ConfirmOwner,
}

/// The reuse policy: with `required` (the server's `tls_reuse_required`)
/// only a `resumed` handshake may carry data, and only after its owner is
/// confirmed; without, any handshake does.
pub fn data_tls_reuse(required: bool, resumed: bool) -> DataTlsReuse {
    match (required, resumed) {
        (false, _) => DataTlsReuse::Accept,
        (true, true) => DataTlsReuse::ConfirmOwner,
        (true, false) => DataTlsReuse::Refuse,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stou_tries_name_then_numbered_names_in_the_same_directory() {
        let p = VPath::root().join(b"d/report.txt");
        let names: Vec<Vec<u8>> = UniqueNames::new(&p).take(3).map(|v| v.to_bytes()).collect();
        assert_eq!(names, [&b"/d/report.txt"[..], b"/d/report.txt.1", b"/d/report.txt.2"]);
        assert_eq!(UniqueNames::new(&p).count(), UNIQUE_TRIES as usize);
        let first = UniqueNames::new(&VPath::root()).next().map(|v| v.to_bytes());
        assert_eq!(first.as_deref(), Some(&b"/file"[..]));
    }

    #[test]
    fn reuse_is_enforced_only_when_required() {
        assert_eq!(data_tls_reuse(false, false), DataTlsReuse::Accept);
        assert_eq!(data_tls_reuse(false, true), DataTlsReuse::Accept);
        assert_eq!(data_tls_reuse(true, false), DataTlsReuse::Refuse);
        assert_eq!(data_tls_reuse(true, true), DataTlsReuse::ConfirmOwner);
    }
}
