//! Exit codes of the client commands, and the typed errors that choose
//! them. The numbers are curl's where curl has one, so scripts written
//! for curl read them the same way:
//!
//! | code | meaning |
//! |---|---|
//! | 0 | success |
//! | 1 | any other failure (a server refusal other than 550, a lost connection…) |
//! | 2 | usage: a command-line mistake |
//! | 7 | cannot connect (no such host, connection refused, greeting refused) |
//! | 23 | a local file cannot be written (get) |
//! | 26 | a local file cannot be read (put: missing, a directory, unreadable) |
//! | 35 | TLS failed (AUTH TLS refused, handshake, certificate) |
//! | 36 | resume impossible: the destination is larger than the source (`-c`) |
//! | 67 | login refused |
//! | 78 | the remote file or directory is missing or unavailable (550) |
//! | 130 | interrupted (Ctrl-C) |
//!
//! With several files, every failure is reported as it happens and the
//! command goes on; the exit code is the first failure's.

use std::fmt;

use babelftp_client::Error as ClientError;

pub const FAILURE: u8 = 1;
pub const USAGE: u8 = 2;
pub const CONNECT: u8 = 7;
pub const LOCAL_WRITE: u8 = 23;
pub const LOCAL_READ: u8 = 26;
pub const TLS: u8 = 35;
pub const BAD_RESUME: u8 = 36;
pub const LOGIN: u8 = 67;
pub const REMOTE_MISSING: u8 = 78;
pub const INTERRUPTED: u8 = 130;

/// A command-line mistake (exit 2).
#[derive(Debug)]
pub struct Usage(pub String);

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// Connecting or logging in failed (exit 7, 35 or 67, after the cause).
#[derive(Debug)]
pub struct Connecting {
    /// `host:port`.
    pub host: String,
    pub source: ClientError,
}

impl fmt::Display for Connecting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::msg::ts("cli-connecting", &[("host", &self.host)]))
    }
}

impl std::error::Error for Connecting {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// A local file that cannot be read (exit 26) or written (exit 23).
#[derive(Debug)]
pub struct Local {
    pub write: bool,
    /// What was being done, for a person ("opening x").
    pub what: String,
    pub source: Option<std::io::Error>,
}

impl Local {
    pub fn read(what: String, source: std::io::Error) -> Local {
        Local {
            write: false,
            what,
            source: Some(source),
        }
    }

    pub fn write(what: String, source: std::io::Error) -> Local {
        Local {
            write: true,
            what,
            source: Some(source),
        }
    }
}

impl fmt::Display for Local {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for Local {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// `-c` cannot resume: the destination is already larger (exit 36).
#[derive(Debug)]
pub struct BadResume(pub String);

impl fmt::Display for BadResume {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadResume {}

/// A wildcard that matched nothing (exit 78, as a missing file).
#[derive(Debug)]
pub struct NoMatch(pub String);

impl fmt::Display for NoMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NoMatch {}

/// Ctrl-C during a transfer (exit 130).
#[derive(Debug)]
pub struct Interrupted;

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::msg::ts("cli-x1-interrupted", &[]))
    }
}

impl std::error::Error for Interrupted {}

/// Failures already reported one by one (several files): only the exit
/// code is left to give.
#[derive(Debug)]
pub struct Reported(pub u8);

impl fmt::Display for Reported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "exit {}", self.0)
    }
}

impl std::error::Error for Reported {}

fn is_login_refusal(code: u16) -> bool {
    matches!(code, 530 | 532 | 332)
}

/// The exit code for an error: the first typed cause found, from the
/// outside in.
pub fn code(e: &anyhow::Error) -> u8 {
    for c in e.chain() {
        if let Some(r) = c.downcast_ref::<Reported>() {
            return r.0;
        }
        if c.is::<Usage>() {
            return USAGE;
        }
        if c.is::<Interrupted>() {
            return INTERRUPTED;
        }
        if c.is::<BadResume>() {
            return BAD_RESUME;
        }
        if c.is::<NoMatch>() {
            return REMOTE_MISSING;
        }
        if let Some(l) = c.downcast_ref::<Local>() {
            return if l.write { LOCAL_WRITE } else { LOCAL_READ };
        }
        if let Some(k) = c.downcast_ref::<Connecting>() {
            return match &k.source {
                ClientError::Refused(r) if is_login_refusal(r.code.get()) => LOGIN,
                ClientError::TlsRefused(_) | ClientError::Handshake(_) | ClientError::TlsSetup(_) => TLS,
                _ => CONNECT,
            };
        }
        if let Some(ClientError::Refused(r)) = c.downcast_ref::<ClientError>() {
            return if r.code.get() == 550 { REMOTE_MISSING } else { FAILURE };
        }
    }
    FAILURE
}

/// Whether the server refused for good (a 550: missing, not a file,
/// permission denied), not a lost connection or a local failure.
pub fn is_permanent_refusal(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<ClientError>())
        .any(|c| matches!(c, ClientError::Refused(r) if r.code.get() == 550))
}

/// A TLS failure as a person can act on it, from the rustls error inside
/// (`None`: no sentence for it, the error's own text stays).
fn tls_sentence(e: &std::io::Error) -> Option<String> {
    use rustls::{CertificateError as C, Error as E, OtherError};
    let key = match e.get_ref()?.downcast_ref::<E>()? {
        E::InvalidCertificate(C::UnknownIssuer | C::BadSignature) => "cli-tls-untrusted",
        E::InvalidCertificate(C::Other(OtherError(o))) if o.to_string().contains("CaUsedAsEndEntity") => {
            "cli-tls-untrusted"
        }
        E::InvalidCertificate(C::NotValidForName | C::NotValidForNameContext { .. }) => "cli-tls-wrong-name",
        E::InvalidCertificate(C::Expired | C::ExpiredContext { .. }) => "cli-tls-expired",
        E::InvalidCertificate(C::NotValidYet | C::NotValidYetContext { .. }) => "cli-tls-not-yet-valid",
        E::InvalidCertificate(C::Revoked) => "cli-tls-revoked",
        E::InvalidCertificate(_) => "cli-tls-bad-certificate",
        E::AlertReceived(a) => {
            return Some(crate::msg::ts("cli-tls-alert", &[("alert", &format!("{a:?}"))]));
        }
        E::PeerIncompatible(_) => "cli-tls-incompatible",
        _ => return None,
    };
    Some(crate::msg::ts(key, &[]))
}

/// An error chain for a person: the server's refusals through the
/// catalogs (the reply itself, code and text, as the server sent it),
/// and no cause said twice (an I/O error wrapped in another that quotes
/// it is shown once).
pub fn describe(e: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in e.chain() {
        let text = match c.downcast_ref::<ClientError>() {
            Some(ClientError::Refused(r)) => {
                let reply = format!("{} {}", r.code, babelftp_proto::display::display_path(&r.text()));
                crate::msg::ts("cli-refused", &[("reply", &reply)])
            }
            Some(ClientError::Handshake(io)) => match tls_sentence(io) {
                Some(s) => s,
                None => c.to_string(),
            },
            _ => c.to_string(),
        };
        if text.is_empty() || parts.last().is_some_and(|p| p.ends_with(&text)) {
            continue;
        }
        parts.push(text);
    }
    parts.join(": ")
}

/// A URL as the user wrote it, for a message: its password as `****`.
pub fn redact_url(raw: &str) -> String {
    let Some(scheme_end) = raw.find("://") else {
        return raw.to_owned();
    };
    let rest = &raw[scheme_end + 3..];
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let Some(at) = rest[..authority_end].rfind('@') else {
        return raw.to_owned();
    };
    match rest[..at].find(':') {
        Some(colon) => format!("{}{}:****{}", &raw[..scheme_end + 3], &rest[..colon], &rest[at..]),
        None => raw.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_in_a_message_has_no_password() {
        assert_eq!(redact_url("ftp://bob:s3cret@h:21/%zz"), "ftp://bob:****@h:21/%zz");
        assert_eq!(redact_url("ftp://bob@h/x"), "ftp://bob@h/x");
        assert_eq!(redact_url("ftp://h/a:b@c"), "ftp://h/a:b@c");
        assert_eq!(redact_url("not a url"), "not a url");
    }

    #[test]
    fn an_io_error_quoted_by_its_wrapper_is_said_once() {
        let io = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        let e = anyhow::Error::new(ClientError::Io(io)).context("connecting to h:21");
        let text = describe(&e);
        assert_eq!(text.matches("refused").count(), 1, "{text}");
        assert_eq!(code(&e), FAILURE);
        let e = anyhow::Error::new(Connecting {
            host: "h:21".into(),
            source: ClientError::Closed,
        });
        assert_eq!(code(&e), CONNECT);
    }
}
