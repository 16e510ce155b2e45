//! The transfer part: what the session is busy with (an operation with the
//! driver, a failed login's delay, a transfer), the state a command leaves
//! for the next one (REST's offset, RNFR's path), and a transfer's phases.
//!
//! A transfer goes Opening (the driver opens the file or reads the
//! directory) → Running (150 sent; the driver makes the data connection
//! and moves the bytes) → for an upload, Committing (all data arrived, the
//! control connection is alive: the session says commit) → Ended. An
//! upload is committed only on the session's word, and the session never
//! gives it once the control connection is gone or ABOR came.
//!
//! A leaf part: it knows the vocabulary (paths, transfer kinds), not the
//! session.

use std::time::Instant;

use babelftp_proto::command::Command;

use crate::effects::{Account, TransferKind, WriteMode};
use babelftp_proto::vpath::VPath;

/// What an outstanding [`crate::Op`] is for.
#[derive(Debug)]
pub(crate) enum Pending {
    Cwd(VPath),
    Mkd(VPath),
    Rmd,
    Dele,
    Rnfr(VPath),
    /// RNTO; `replace`: the account may overwrite the target.
    Rnto {
        to: VPath,
        replace: bool,
    },
    Chmod,
    /// SITE QUOTA.
    Quota,
    /// MFMT: the time set and the pathname as the client sent it, for the
    /// 213 reply.
    Mfmt {
        time: i64,
        shown: Vec<u8>,
    },
    Size,
    Mdtm,
    Mlst {
        target: VPath,
        shown: Vec<u8>,
    },
    /// STAT with a pathname: the path listed.
    StatPath(VPath),
    Verify {
        user: Vec<u8>,
        /// When PASS came: a failure is answered `login_fail_delay` after
        /// it, however long the check took (no timing of which names exist).
        since: Instant,
    },
    EnterHome {
        user: Vec<u8>,
        account: Account,
    },
    Pasv {
        extended: bool,
        /// The PROT level the listener is bound under (PROT P: true).
        tls: bool,
    },
    /// A download with no data connection: 550 if the path is missing,
    /// else 425.
    NoData,
}

/// What the session is waiting for. Commands run only when `Idle`.
#[derive(Debug)]
pub(crate) enum Busy {
    Idle,
    /// An [`crate::Op`] is with the driver; `Pending` says what its result
    /// is for.
    Op(Pending),
    /// A failed login, answered 530 at this instant.
    LoginDelay(Instant),
    /// A transfer runs; ABOR, STAT and QUIT are still heard.
    Transfer(Transfer),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Opening,
    Running,
    Committing,
}

/// Why a transfer is being cut short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AbortCause {
    /// ABOR: 426 for the transfer, then 226 for ABOR.
    Abor,
    /// The client is gone: no reply, then close.
    ControlClosed,
    /// The shutdown grace ran out: 426, then 421.
    Shutdown,
}

/// The running transfer.
#[derive(Debug)]
pub(crate) struct Transfer {
    pub(crate) id: u64,
    pub(crate) upload: bool,
    /// For the 150 of STOU and the transfer log.
    pub(crate) path: VPath,
    unique: bool,
    /// A STOR that may not replace a file (`WriteMode::New`).
    new_file: bool,
    /// File transfers go to the transfer log; listings do not.
    pub(crate) logged: bool,
    pub(crate) ascii: bool,
    pub(crate) started: Instant,
    phase: Phase,
    pub(crate) abort: Option<AbortCause>,
}

/// What the session does once a transfer's source or sink is open.
#[derive(Debug)]
pub(crate) enum OnOpened {
    /// Nothing (a stale or repeated report, or the transfer is being cut:
    /// then no 150).
    Quiet,
    /// 150.
    Opening,
    /// 150 naming the file STOU chose (RFC 1123 4.1.2.9).
    OpeningUnique(Vec<u8>),
}

/// The transfer part's state.
#[derive(Debug)]
pub(crate) struct Work {
    pub(crate) busy: Busy,
    rest: Option<u64>,
    rnfr: Option<VPath>,
    next_id: u64,
    /// The charset the storage could not write the last refused name in,
    /// for that refusal's reply.
    refused_charset: Option<&'static str>,
}

impl Work {
    pub(crate) fn new() -> Self {
        Work {
            busy: Busy::Idle,
            rest: None,
            rnfr: None,
            next_id: 1,
            refused_charset: None,
        }
    }

    /// RNFR must be followed by RNTO, REST by a transfer (RFC 959 5.4,
    /// RFC 3659 5.3): anything else drops the pending state.
    pub(crate) fn before(&mut self, cmd: &Command) {
        if !matches!(cmd, Command::Rnto(_)) {
            self.rnfr = None;
        }
        let keeps_rest = matches!(
            cmd,
            Command::Retr(_)
                | Command::Stor(_)
                | Command::Appe(_)
                | Command::Rest(_)
                | Command::Type(_)
                | Command::Pasv
                | Command::Epsv(_)
                | Command::Port(_)
                | Command::Eprt(_)
                | Command::Noop
        );
        if !keeps_rest {
            self.rest = None;
        }
    }

    pub(crate) fn set_rest(&mut self, n: u64) {
        self.rest = Some(n);
    }

    pub(crate) fn take_rest(&mut self) -> Option<u64> {
        self.rest.take()
    }

    pub(crate) fn set_rnfr(&mut self, p: VPath) {
        self.rnfr = Some(p);
    }

    pub(crate) fn take_rnfr(&mut self) -> Option<VPath> {
        self.rnfr.take()
    }

    pub(crate) fn is_idle(&self) -> bool {
        matches!(self.busy, Busy::Idle)
    }

    pub(crate) fn in_transfer(&self) -> bool {
        matches!(self.busy, Busy::Transfer(_))
    }

    /// A transfer runs and is not being cut.
    pub(crate) fn transfer_uncut(&self) -> bool {
        matches!(&self.busy, Busy::Transfer(t) if t.abort.is_none())
    }

    /// The operation's result arrived: what it was for.
    pub(crate) fn take_pending(&mut self) -> Option<Pending> {
        match std::mem::replace(&mut self.busy, Busy::Idle) {
            Busy::Op(p) => Some(p),
            other => {
                self.busy = other;
                None
            }
        }
    }

    /// The storage refused a name in this charset (see
    /// [`crate::ServerSession::name_refused_in`]).
    pub(crate) fn name_refused_in(&mut self, charset: &'static str) {
        self.refused_charset = Some(charset);
    }

    pub(crate) fn take_refused_charset(&mut self) -> Option<&'static str> {
        self.refused_charset.take()
    }

    /// A transfer starts (Opening): its id for the driver.
    pub(crate) fn begin(&mut self, now: Instant, kind: &TransferKind, ascii: bool) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.busy = Busy::Transfer(Transfer {
            id,
            upload: kind.is_upload(),
            path: kind.path().clone(),
            unique: matches!(
                kind,
                TransferKind::Stor {
                    mode: WriteMode::Unique,
                    ..
                }
            ),
            new_file: matches!(
                kind,
                TransferKind::Stor {
                    mode: WriteMode::New,
                    ..
                }
            ),
            logged: !matches!(kind, TransferKind::List { .. }),
            ascii,
            started: now,
            phase: Phase::Opening,
            abort: None,
        });
        id
    }

    /// The running transfer, if `id` names it.
    fn current(&mut self, id: u64) -> Option<&mut Transfer> {
        match &mut self.busy {
            Busy::Transfer(t) if t.id == id => Some(t),
            _ => None,
        }
    }

    /// Cuts the running transfer: the id to abort with the driver, unless
    /// it was being cut already or is being committed (a commit cannot be
    /// stopped; it reports Ended).
    pub(crate) fn abort(&mut self, cause: AbortCause) -> Option<u64> {
        let Busy::Transfer(t) = &mut self.busy else { return None };
        match t.abort {
            // The client being gone outranks an ABOR or a shutdown.
            Some(_) if cause == AbortCause::ControlClosed => {
                t.abort = Some(cause);
                None
            }
            Some(_) => None,
            None => {
                t.abort = Some(cause);
                (t.phase != Phase::Committing).then_some(t.id)
            }
        }
    }

    /// The source or sink is open (the driver holds it and the data
    /// connection now): Running. `path`: the file STOU chose.
    pub(crate) fn opened(&mut self, id: u64, path: Option<VPath>) -> Option<OnOpened> {
        let t = self.current(id)?;
        if t.phase != Phase::Opening {
            return None;
        }
        t.phase = Phase::Running;
        if let Some(p) = path {
            t.path = p;
        }
        Some(match (t.abort, t.unique) {
            (Some(_), _) => OnOpened::Quiet,
            (None, true) => OnOpened::OpeningUnique(t.path.file_name().unwrap_or_default().to_vec()),
            (None, false) => OnOpened::Opening,
        })
    }

    /// The source or sink could not be opened: the transfer is over, with
    /// its cause if it was being cut, and the path of a STOR that may not
    /// replace a file. `None`: not about the transfer.
    pub(crate) fn open_failed(&mut self, id: u64) -> Option<(Option<AbortCause>, Option<VPath>)> {
        let t = self.current(id)?;
        if t.phase != Phase::Opening {
            return None;
        }
        let cause = t.abort;
        let new_file = t.new_file.then(|| t.path.clone());
        self.busy = Busy::Idle;
        Some((cause, new_file))
    }

    /// An upload's data all arrived: Committing, and the id to commit,
    /// unless the transfer is being cut.
    pub(crate) fn received(&mut self, id: u64) -> Option<u64> {
        let t = self.current(id)?;
        if !t.upload || t.phase != Phase::Running || t.abort.is_some() {
            return None;
        }
        t.phase = Phase::Committing;
        Some(id)
    }

    /// The transfer is over: it, for its log line and replies.
    pub(crate) fn ended(&mut self, id: u64) -> Option<Transfer> {
        self.current(id)?;
        match std::mem::replace(&mut self.busy, Busy::Idle) {
            Busy::Transfer(t) => Some(t),
            other => {
                self.busy = other;
                None
            }
        }
    }
}
