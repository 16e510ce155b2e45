//! The policy a session follows ([`SessionConfig`]), what the storage can
//! do ([`Capabilities`]), and the one mapping of storage errors to replies
//! ([`reply_for`]). A leaf: it uses only the reply texts.

use std::io::ErrorKind;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use babelftp_i18n::lang::{Catalogs, Lang};
use babelftp_i18n::Charset;
use babelftp_proto::reply::ReplyCode;

use crate::msg::Msg;
use babelftp_proto::vpath::Capabilities;

/// A virtual host as the session sees it (RFC 7151); the driver keeps its
/// storage under the same index.
#[derive(Debug, Clone)]
pub struct HostInfo {
    /// The name clients send with HOST (compared without ASCII case).
    pub name: String,
    /// Its language before LANG.
    pub lang: Lang,
}

/// The policy a session follows; shared by every session of a server.
#[derive(Clone)]
pub struct SessionConfig {
    /// Reply texts in every language.
    pub catalogs: Arc<Catalogs>,
    /// Longest command line (longer: 500 at once).
    pub max_line: usize,
    /// A session that completes no command for this long gets 421.
    pub idle_timeout: Duration,
    /// Delay before answering a failed login.
    pub login_fail_delay: Duration,
    /// Whether `anonymous`/`ftp` may log in.
    pub anonymous: bool,
    /// Whether anonymous users may write.
    pub anonymous_write: bool,
    /// Address announced in 227 replies (NAT); default: the control
    /// connection's local address.
    pub passive_address: Option<IpAddr>,
    /// Charset of clients before LANG/HOST/`OPTS UTF8 ON` (RFC 2640 A.2).
    pub legacy_charset: Option<Charset>,
    /// Virtual hosts; with none, HOST accepts any name.
    pub hosts: Vec<HostInfo>,
    /// FTPS (RFC 4217), when the server has a certificate.
    pub tls: Option<TlsPolicy>,
    /// Whether STAT before login names the server's version and the
    /// client's address (after login it always does).
    pub status_before_login: bool,
    /// What the storage can do beyond reading, listing and writing whole
    /// files: the session offers (FEAT, HELP, SITE HELP) and accepts only
    /// that, and refuses the rest itself, before any data connection.
    pub caps: Capabilities,
}

/// How a server with a certificate treats clients (RFC 4217).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TlsPolicy {
    /// USER before AUTH is refused (530), and so is a data connection
    /// without PROT P once logged in (521).
    pub required: bool,
}

impl std::fmt::Debug for SessionConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionConfig")
            .field("max_line", &self.max_line)
            .field("idle_timeout", &self.idle_timeout)
            .field("anonymous", &self.anonymous)
            .field("hosts", &self.hosts)
            .finish_non_exhaustive()
    }
}

impl SessionConfig {
    /// A configuration for tests and fuzzing, with values like those of
    /// `babelftp serve`'s defaults. A server derives its sessions' policy
    /// from its own configuration (`babelftp_core::Config::session_config`),
    /// whose defaults are the only ones it has.
    #[cfg(any(test, feature = "testing"))]
    pub fn new(catalogs: Arc<Catalogs>) -> Self {
        SessionConfig {
            catalogs,
            max_line: babelftp_proto::line::DEFAULT_MAX_LINE,
            idle_timeout: Duration::from_secs(300),
            login_fail_delay: Duration::from_secs(1),
            anonymous: true,
            anonymous_write: false,
            passive_address: None,
            legacy_charset: None,
            hosts: Vec::new(),
            tls: None,
            status_before_login: false,
            caps: Capabilities::ALL,
        }
    }
}

/// Maps a storage error to its reply, once, by kind (errno).
pub fn reply_for(e: ErrorKind) -> (ReplyCode, Msg) {
    use ErrorKind as K;
    match e {
        K::NotFound => (ReplyCode::FILE_UNAVAILABLE, Msg::NoSuchFile),
        K::PermissionDenied | K::ReadOnlyFilesystem => (ReplyCode::FILE_UNAVAILABLE, Msg::PermissionDenied),
        K::AlreadyExists => (ReplyCode::FILE_UNAVAILABLE, Msg::FileExists),
        K::DirectoryNotEmpty => (ReplyCode::FILE_UNAVAILABLE, Msg::DirectoryNotEmpty),
        K::NotADirectory => (ReplyCode::FILE_UNAVAILABLE, Msg::NotADirectory),
        K::IsADirectory | K::InvalidInput => (ReplyCode::FILE_UNAVAILABLE, Msg::NotAFile),
        K::StorageFull => (ReplyCode::NO_SPACE, Msg::NoSpace),
        // The account's quota, 552 "exceeded storage allocation" (a
        // disk's own EDQUOT is StorageFull, 452).
        K::QuotaExceeded => (ReplyCode::EXCEEDED_STORAGE, Msg::QuotaExceeded),
        // A name the storage cannot hold: not in the charset of the names
        // on disk (a translating server), or no UTF-8 for an object store.
        K::InvalidFilename => (ReplyCode::BAD_FILENAME, Msg::NameUntranslatable),
        K::Unsupported => (ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::StorageUnsupported),
        _ => (ReplyCode::LOCAL_ERROR, Msg::LocalError),
    }
}
