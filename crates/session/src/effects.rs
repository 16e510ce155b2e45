//! What the session asks of its driver ([`Action`], [`Op`]) and what the
//! driver tells it back ([`OpResult`], [`DataEvent`]).

use std::io::ErrorKind;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use babelftp_proto::display::PlainPath;
use babelftp_proto::listing::{Civil, Entry};

use babelftp_i18n::Charset;
use babelftp_policy::{Perms, Rules};
use babelftp_proto::lang::LangTag;

use crate::listing::ListRender;
use babelftp_proto::vpath::VPath;
pub use babelftp_proto::vpath::WriteMode;

/// A storage (or account) operation. The driver runs it and answers with
/// [`crate::ServerSession::handle_op`]; one is outstanding at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// Metadata of a path, not following a final symlink → [`OpOk::Entry`].
    Stat(VPath),
    /// Whether a path is a directory one can enter → [`OpOk::IsDir`].
    IsDir(VPath),
    /// A directory's entries, or the one entry of a non-directory →
    /// [`OpOk::Entries`] (STAT with a pathname).
    Entries(VPath),
    /// MKD → [`OpOk::Done`].
    Mkdir(VPath),
    /// RMD → [`OpOk::Done`].
    Rmdir(VPath),
    /// DELE → [`OpOk::Done`].
    RemoveFile(VPath),
    /// RNFR/RNTO → [`OpOk::Done`].
    Rename {
        /// The RNFR path.
        from: VPath,
        /// The RNTO path.
        to: VPath,
        /// Whether an existing file at `to` may be replaced; when not,
        /// the storage answers `AlreadyExists` instead.
        replace: bool,
    },
    /// SITE CHMOD: permission bits (0–0o777) → [`OpOk::Done`].
    Chmod {
        /// The file or directory.
        path: VPath,
        /// The new permission bits.
        mode: u32,
    },
    /// MFMT: a file's last modification time → [`OpOk::Done`]; a
    /// directory is `IsADirectory`, a missing file `NotFound`.
    SetModified {
        /// The file.
        path: VPath,
        /// The new time, Unix seconds (UTC).
        time: i64,
    },
    /// Check a password → [`OpOk::Account`] (`None`: refused). Hashing is
    /// slow on purpose: the driver runs it off its async workers.
    VerifyPassword {
        /// The USER name, as sent.
        user: Vec<u8>,
        /// The PASS argument, as sent.
        password: Vec<u8>,
    },
    /// Narrow the storage to a user's home (below the current host's
    /// root); nothing above it stays reachable → [`OpOk::Done`].
    EnterHome(VPath),
    /// The account's quota and usage (SITE QUOTA) → [`OpOk::Quota`].
    Quota,
    /// Bind a passive data listener on `ip` (replacing any earlier one)
    /// → [`OpOk::Port`].
    BindPassive {
        /// The control connection's local address.
        ip: IpAddr,
        /// PROT P is in effect: the data connection will speak TLS, so the
        /// driver may answer its handshake as soon as it arrives (a client
        /// such as curl finishes that handshake before it reads the replies
        /// to its next commands).
        tls: bool,
    },
}

impl Op {
    /// What the operation changes in the tree, for the server's log (MKD,
    /// RMD, DELE, SITE CHMOD, MFMT, rename); `None` for what only reads.
    pub fn change(&self) -> Option<Change> {
        let text = |p: &VPath| PlainPath(&p.to_bytes()).to_string();
        let (what, path) = match self {
            Op::Mkdir(p) => ("MKD", text(p)),
            Op::Rmdir(p) => ("RMD", text(p)),
            Op::RemoveFile(p) => ("DELE", text(p)),
            Op::Chmod { path, mode } => ("SITE CHMOD", format!("{} {mode:o}", text(path))),
            Op::SetModified { path, time } => {
                ("MFMT", format!("{} {}", text(path), Civil::from_unix(*time).time_val()))
            }
            Op::Rename { from, to, .. } => ("rename", format!("{} -> {}", text(from), text(to))),
            _ => return None,
        };
        Some(Change { what, path })
    }

    /// The name the operation creates, if any: when the storage refuses it
    /// (`InvalidFilename`), the driver tells the session the charset it
    /// could not be written in ([`crate::ServerSession::name_refused_in`]).
    pub fn creates(&self) -> Option<&VPath> {
        match self {
            Op::Mkdir(p) | Op::Rename { to: p, .. } => Some(p),
            _ => None,
        }
    }
}

/// A change to the tree, as the log shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The command's name (`MKD`, `rename`, …).
    pub what: &'static str,
    /// The path(s) and arguments, as text.
    pub path: String,
}

/// A successful [`Op`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpOk {
    /// The operation was done.
    Done,
    /// One entry.
    Entry(Entry),
    /// Several entries, and the wall clock when they were read (Unix
    /// seconds: LIST's time-or-year column; the session reads no clock).
    Entries { entries: Vec<Entry>, now: i64 },
    /// Whether the path is an enterable directory.
    IsDir(bool),
    /// The account behind a password, or `None` when refused.
    Account(Option<Account>),
    /// The port a passive listener was bound to.
    Port(u16),
    /// The account's quota and usage; `None`: it has no quota.
    Quota(Option<QuotaInfo>),
}

/// Where an account stands against its quota (SITE QUOTA).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuotaInfo {
    pub bytes: u64,
    pub files: u64,
    /// `None`: no limit.
    pub bytes_limit: Option<u64>,
    pub files_limit: Option<u64>,
}

/// The result of an [`Op`]: errors are I/O error kinds, mapped to replies
/// in one place ([`crate::reply_for`]).
pub type OpResult = Result<OpOk, OpError>;

/// Why an operation failed: what the storage said (by kind), or a refusal
/// of the server's services, each its own variant (no `ErrorKind` is
/// borrowed to mean something else).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpError {
    /// The storage's error (or the account's quota: `QuotaExceeded`).
    Storage(ErrorKind),
    /// The defender has banned the client's address: 421, and closed.
    Banned,
    /// The account has as many sessions as it may: 421, and closed.
    SessionLimit,
    /// The client's address holds as many passive ports as it may (the
    /// server's `max_passive_per_ip`).
    PassiveLimit,
}

impl OpError {
    /// The storage error's kind; `Other` for a refusal of the services.
    pub fn kind(self) -> ErrorKind {
        match self {
            OpError::Storage(k) => k,
            _ => ErrorKind::Other,
        }
    }
}

impl From<ErrorKind> for OpError {
    fn from(k: ErrorKind) -> OpError {
        OpError::Storage(k)
    }
}

/// A verified account: what the session needs for the whole login, read
/// once (no store query per command).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// The home directory below the host's root (`/`: all of it).
    pub home: Vec<u8>,
    /// What the account may do where (babelftp-policy).
    pub rules: Arc<Rules>,
    /// The account's reply language, unless the client chose one (LANG).
    pub lang: Option<LangTag>,
    /// The account's legacy client charset (RFC 2640 A.2): its names go
    /// out and come in in it, unless the client speaks UTF-8.
    pub charset: Option<Charset>,
    /// The account's own name when the check confirmed it under another
    /// spelling than the one typed (an LDAP directory matches `LBOB` and
    /// `lbob ` as `lbob`): the session is logged in as this name, in its
    /// logs, transfer records and events. `None`: the name as typed.
    pub name: Option<Vec<u8>>,
}

impl Account {
    /// An account of a users file: everything everywhere when it may
    /// `write`, else list and download.
    pub fn with_write(home: Vec<u8>, write: bool) -> Account {
        Account {
            home,
            rules: Arc::new(Rules::everywhere(if write { Perms::ALL } else { Perms::READ })),
            lang: None,
            charset: None,
            name: None,
        }
    }
}

/// Where the data connection of a transfer comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataSource {
    /// Accept on the passive listener the driver holds (from the last
    /// [`Op::BindPassive`]); only the control peer's address may connect.
    Passive,
    /// Connect to the client here (PORT/EPRT, already checked against the
    /// control peer).
    Active(SocketAddr),
}

/// What a transfer moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransferKind {
    /// RETR: a file, from `offset`.
    Retr {
        /// The file.
        path: VPath,
        /// The REST offset (0 without REST).
        offset: u64,
    },
    /// STOR, APPE, STOU, REST+STOR.
    Stor {
        /// The target (for STOU, the name to start from).
        path: VPath,
        /// How to open it.
        mode: WriteMode,
    },
    /// LIST, NLST, MLSD of a directory (or LIST/NLST of one file).
    List {
        /// What to list.
        path: VPath,
        /// How each entry's line looks (format, `perm` fact, the charset
        /// of names, RFC 2640 A.2): stamp it with the wall clock when the
        /// directory is read ([`ListRender::at`]).
        render: ListRender,
    },
}

impl TransferKind {
    /// Whether the transfer writes to storage.
    pub fn is_upload(&self) -> bool {
        matches!(self, TransferKind::Stor { .. })
    }

    /// The path the transfer is about.
    pub fn path(&self) -> &VPath {
        match self {
            TransferKind::Retr { path, .. } | TransferKind::Stor { path, .. } | TransferKind::List { path, .. } => path,
        }
    }
}

/// A transfer to run: open the source or sink, report
/// [`DataEvent::Opened`] (or `OpenFailed`), get the data connection, move
/// the bytes, report how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransferSpec {
    /// Names this transfer in every [`DataEvent`] about it.
    pub id: u64,
    /// Where the data connection comes from.
    pub source: DataSource,
    /// What moves.
    pub kind: TransferKind,
    /// TYPE A: line ends converted (LF on disk, CR LF on the wire).
    pub ascii: bool,
    /// PROT P: the data connection runs TLS (RFC 4217 9).
    pub tls: bool,
}

/// Why a data connection could not be had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoConnection {
    /// The client did not connect (or accept) in time.
    Timeout,
    /// Refused, reset, or no passive listener.
    Failed,
}

/// How a transfer ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Every byte moved (for an upload: and it was committed).
    Complete,
    /// The data connection could not be made (425).
    NoConnection(NoConnection),
    /// The data connection broke (or, for an upload over TLS, ended
    /// without close_notify): 426.
    Network,
    /// The data connection made no progress for the stall timeout: 426.
    Stalled,
    /// The storage side failed (disk full, I/O error, commit failed).
    Storage(ErrorKind),
    /// Cancelled by [`Action::AbortTransfer`] or discarded.
    Aborted,
    /// The data connection's TLS handshake did not resume this control
    /// connection's TLS session (RFC 4217 10.2 reuse, enforced): 522.
    TlsNotReused,
    /// The data connection's TLS handshake failed: 522.
    TlsFailed,
}

/// What the driver reports about the running transfer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataEvent {
    /// The source or sink is open; for STOU, the path it chose.
    Opened {
        /// The transfer.
        id: u64,
        /// The file actually opened (STOU), else `None`.
        path: Option<VPath>,
    },
    /// The source or sink could not be opened: no 150 was sent, the
    /// passive listener is kept for the next command.
    OpenFailed {
        /// The transfer.
        id: u64,
        /// Why.
        error: ErrorKind,
    },
    /// An upload's data connection ended in order (EOF, close_notify):
    /// the driver holds the upload until [`Action::Commit`] or
    /// [`Action::Discard`].
    UploadReceived {
        /// The transfer.
        id: u64,
        /// Octets received.
        bytes: u64,
    },
    /// The transfer is over and everything it held is released.
    Ended {
        /// The transfer.
        id: u64,
        /// Octets moved on the data connection (or written, for uploads).
        bytes: u64,
        /// How.
        outcome: Outcome,
    },
}

impl DataEvent {
    /// The transfer the event is about.
    pub fn id(&self) -> u64 {
        match self {
            DataEvent::Opened { id, .. }
            | DataEvent::OpenFailed { id, .. }
            | DataEvent::UploadReceived { id, .. }
            | DataEvent::Ended { id, .. } => *id,
        }
    }
}

/// One xferlog line's worth of a transfer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransferRecord {
    /// The file (virtual path as stored).
    pub path: Vec<u8>,
    /// Upload (true) or download.
    pub incoming: bool,
    /// TYPE A.
    pub ascii: bool,
    /// Octets moved.
    pub bytes: u64,
    /// Whole seconds it took.
    pub seconds: u64,
    /// Milliseconds it took.
    pub millis: u64,
    /// Whether it completed.
    pub complete: bool,
    /// The code of the transfer's final reply (226, 426, 451, …); `None`
    /// when the client was gone and none was sent.
    pub code: Option<u16>,
    /// The logged-in user.
    pub user: Vec<u8>,
    /// Whether that user is anonymous.
    pub anonymous: bool,
}

/// A command the hostile-input rules refused (its reply went out as
/// usual): the driver's defender scores the client's address for it and
/// may ban it (issue 29).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hostile {
    /// PORT/EPRT to another host than the client, or to a port below
    /// 1024: an FTP bounce (RFC 2577 3).
    Bounce,
    /// A command line longer than `max_line`.
    LongLine,
}

/// What the session asks the driver to do, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Run an operation, then call `handle_op` with its result.
    Op(Op),
    /// Use this virtual host's root (RFC 7151; an index into
    /// [`crate::SessionConfig::hosts`]), or the server's root for `None`,
    /// as the whole storage again (any home is left).
    SelectRoot(Option<usize>),
    /// Drop the passive listener, if any (PORT/EPRT or REIN replaced it).
    ReleasePassive,
    /// Start a transfer.
    StartTransfer(TransferSpec),
    /// Make the received upload visible (rename into place), then report
    /// `Ended` with `Complete` or `Storage(kind)`.
    Commit(u64),
    /// Drop the received upload (the old file stays), then report `Ended`.
    Discard(u64),
    /// Cancel the transfer; report `Ended` once it has stopped and released
    /// everything (an upload is never committed after this).
    AbortTransfer(u64),
    /// Append a line to the transfer log.
    Log(TransferRecord),
    /// AUTH TLS was accepted: send the output so far (the 234) in clear,
    /// then run the TLS handshake as the server; every later control byte
    /// goes through TLS. A failed handshake is `handle_control_closed`.
    StartTls,
    /// REIN on a connection that AUTH TLS protected (RFC 4217 13): send the
    /// output so far (the 220) through TLS, then close_notify, take the
    /// client's close_notify (or its first plaintext byte, if it sends
    /// none), and go on in clear on the same TCP connection. A failure is
    /// `handle_control_closed`.
    EndTls,
    /// The client sent what the hostile-input rules refuse: tell the
    /// defender. Nothing comes back to the session.
    Hostile(Hostile),
    /// Flush the pending output, then close the control connection. Nothing
    /// follows it; no transfer or operation is outstanding when it comes.
    Close,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_says_what_an_operation_changes() {
        let p = |s: &[u8]| VPath::root().join(s);
        let c = Op::Mkdir(p(b"d")).change().map(|c| (c.what, c.path));
        assert_eq!(c, Some(("MKD", "/d".to_string())));
        let mv = Op::Rename {
            from: p(b"a"),
            to: p(b"b"),
            replace: true,
        };
        assert_eq!(mv.change().map(|c| c.path), Some("/a -> /b".to_string()));
        assert_eq!(mv.creates(), Some(&p(b"b")));
        let chmod = Op::Chmod {
            path: p(b"f"),
            mode: 0o644,
        };
        assert_eq!(
            chmod.change().map(|c| (c.what, c.path)),
            Some(("SITE CHMOD", "/f 644".into()))
        );
        assert_eq!(chmod.creates(), None);
        assert_eq!(Op::Stat(p(b"f")).change(), None, "what only reads is no change");
    }
}
