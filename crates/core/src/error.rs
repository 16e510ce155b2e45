//! One error for the services, mapped once per door: the FTP door to a
//! reply (through the session's typed `OpError`), the web view to an
//! HTTP status and its page.

use std::io;

use babelftp_policy::Perm;
use babelftp_session::VPath;

/// Why a service refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The rules do not give `perm` at the path.
    #[error("permission denied: the {perm} right is missing")]
    Denied { perm: Perm },
    /// A rule on a folder inside the path (`at`) lacks `perm`: moving or
    /// removing the path would move or remove it too.
    #[error("permission denied: a folder inside lacks the {perm} right")]
    DeniedInside { perm: Perm, at: VPath },
    /// The account's quota (bytes or files).
    #[error("the account's quota is exceeded")]
    QuotaExceeded,
    /// The account has as many sessions as it may (`max_sessions`).
    #[error("the account has as many sessions as it may")]
    SessionLimit,
    /// The client's address is banned by the defender.
    #[error("the address is banned")]
    Banned,
    /// The storage's own error.
    #[error(transparent)]
    Storage(io::Error),
}

impl ServiceError {
    /// The error's kind, for a door that answers by kind (a storage
    /// error's own; `PermissionDenied`, `QuotaExceeded`, …).
    pub fn kind(&self) -> io::ErrorKind {
        match self {
            ServiceError::Denied { .. } | ServiceError::DeniedInside { .. } => io::ErrorKind::PermissionDenied,
            ServiceError::QuotaExceeded => io::ErrorKind::QuotaExceeded,
            ServiceError::SessionLimit => io::ErrorKind::ResourceBusy,
            ServiceError::Banned => io::ErrorKind::ConnectionRefused,
            ServiceError::Storage(e) => e.kind(),
        }
    }
}

impl From<io::Error> for ServiceError {
    /// The quota's refusal is its own variant; any other error is the
    /// storage's.
    fn from(e: io::Error) -> ServiceError {
        match e.kind() {
            io::ErrorKind::QuotaExceeded => ServiceError::QuotaExceeded,
            _ => ServiceError::Storage(e),
        }
    }
}

impl From<io::ErrorKind> for ServiceError {
    fn from(k: io::ErrorKind) -> ServiceError {
        match k {
            io::ErrorKind::QuotaExceeded => ServiceError::QuotaExceeded,
            k => ServiceError::Storage(k.into()),
        }
    }
}

impl From<crate::storage::StorageError> for ServiceError {
    fn from(e: crate::storage::StorageError) -> ServiceError {
        ServiceError::Storage(e.into())
    }
}

/// The FTP door's mapping: the session's typed error.
impl From<ServiceError> for babelftp_session::OpError {
    fn from(e: ServiceError) -> babelftp_session::OpError {
        use babelftp_session::OpError;
        match e {
            ServiceError::Banned => OpError::Banned,
            ServiceError::SessionLimit => OpError::SessionLimit,
            e => OpError::Storage(e.kind()),
        }
    }
}
