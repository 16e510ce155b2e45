//! Data connections and transfers: PASV/EPSV/PORT/EPRT, RETR,
//! STOR/APPE/STOU, LIST/NLST/MLSD, ABOR, and how a transfer ends.
//!
//! A transfer goes Opening (the driver opens the file or reads the
//! directory) → Running (150 sent; the driver makes the data connection
//! and moves the bytes) → for an upload, Committing (all data arrived, the
//! control connection is alive: the session says commit) → Ended. An
//! upload is committed only on the session's word, and the session never
//! gives it once the control connection is gone or ABOR came.

use std::net::{IpAddr, SocketAddr};
use std::time::Instant;

use babelftp_proto::command::TransferType;
use babelftp_proto::path::WirePath;
use babelftp_proto::reply::{Reply, ReplyCode};

use crate::session::{Busy, DataSetup};
use crate::{
    Action, DataEvent, DataSource, ListFormat, Msg, NoConnection, Op, Outcome, ServerSession, TransferKind,
    TransferRecord, TransferSpec, VPath, WriteMode,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListKind {
    List,
    Nlst,
    Mlsd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
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
    upload: bool,
    /// For the 150 of STOU and the transfer log.
    path: VPath,
    unique: bool,
    /// File transfers go to the transfer log; listings do not.
    logged: bool,
    ascii: bool,
    started: Instant,
    phase: Phase,
    pub(crate) abort: Option<AbortCause>,
}

impl ServerSession {
    pub(crate) fn pasv(&mut self, extended: bool) {
        if !extended && self.epsv_all {
            self.reply(ReplyCode::BAD_SEQUENCE, Msg::EpsvAllOnly);
            return;
        }
        if !extended && self.announce_v4().is_none() {
            self.reply(ReplyCode::PROTOCOL_NOT_SUPPORTED, Msg::PassiveNeedsIpv4);
            return;
        }
        let ip = self.local.ip();
        let tls = self.prot_private;
        self.op(Op::BindPassive { ip, tls }, crate::commands::Pending::Pasv { extended });
    }

    fn announce_v4(&self) -> Option<std::net::Ipv4Addr> {
        match self.cfg.passive_address.unwrap_or(self.local.ip()).to_canonical() {
            IpAddr::V4(v4) => Some(v4),
            IpAddr::V6(_) => None,
        }
    }

    /// 227 or 229 once the driver has bound the listener.
    pub(crate) fn passive_reply(&mut self, extended: bool, port: u16) {
        self.data = DataSetup::Passive;
        let r = if extended {
            Reply::new(
                ReplyCode::EXTENDED_PASSIVE,
                format!("{} (|||{port}|)", self.t(Msg::ExtendedPassive)),
            )
        } else {
            let o = self.announce_v4().map(|a| a.octets()).unwrap_or_default();
            Reply::new(
                ReplyCode::PASSIVE,
                format!(
                    "{} ({},{},{},{},{},{})",
                    self.t(Msg::Passive),
                    o[0],
                    o[1],
                    o[2],
                    o[3],
                    port >> 8,
                    port & 0xff
                ),
            )
        };
        self.send(&r);
    }

    pub(crate) fn active(&mut self, addr: SocketAddr) {
        if self.epsv_all {
            self.reply(ReplyCode::BAD_SEQUENCE, Msg::EpsvAllOnly);
            return;
        }
        // No FTP bounce: only back to the client itself, never to a
        // privileged port (RFC 2577 3).
        if addr.ip().to_canonical() != self.peer.ip().to_canonical() || addr.port() < 1024 {
            self.reply(ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::PortRefused);
            return;
        }
        if self.data == DataSetup::Passive {
            self.action(Action::ReleasePassive);
        }
        self.data = DataSetup::Active(addr);
        self.reply(ReplyCode::OK, Msg::PortOk);
    }

    /// Starts a transfer on the data connection set up before, or 425.
    fn start(&mut self, now: Instant, kind: TransferKind) {
        // RFC 4217 9: a server that requires protection refuses a clear
        // data connection.
        if self.cfg.tls.is_some_and(|t| t.required) && !self.prot_private {
            self.reply(ReplyCode::PROT_REQUIRED, Msg::ProtRequired);
            return;
        }
        let source = match self.data {
            // A download of something missing is 550 even without a data
            // connection (as before, and as ProFTPD does); else 425.
            DataSetup::None if !kind.is_upload() => {
                let p = kind.path().clone();
                self.op(Op::Stat(p), crate::commands::Pending::NoData);
                return;
            }
            DataSetup::None => {
                self.reply(ReplyCode::CANT_OPEN_DATA, Msg::CantOpenData);
                return;
            }
            DataSetup::Passive => DataSource::Passive,
            DataSetup::Active(a) => DataSource::Active(a),
        };
        let id = self.next_id;
        self.next_id += 1;
        let ascii = self.ttype == TransferType::Ascii;
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
            logged: !matches!(kind, TransferKind::List { .. }),
            ascii,
            started: now,
            phase: Phase::Opening,
            abort: None,
        });
        let tls = self.prot_private;
        self.action(Action::StartTransfer(TransferSpec {
            id,
            source,
            kind,
            ascii,
            tls,
        }));
    }

    pub(crate) fn retr(&mut self, now: Instant, p: &WirePath) {
        let path = self.path(p);
        let offset = self.rest.take().unwrap_or(0);
        self.start(now, TransferKind::Retr { path, offset });
    }

    pub(crate) fn stor(&mut self, now: Instant, p: Option<&WirePath>, mode: WriteMode) {
        // Refused and logged as MKD, DELE and the others are.
        if self.refuse_write() {
            return;
        }
        let rest = self.rest.take();
        let (path, mode) = match (p, mode) {
            (Some(p), WriteMode::Replace) => (self.path(p), rest.map_or(WriteMode::Replace, WriteMode::At)),
            (Some(p), m) => (self.path(p), m),
            (None, m) => (self.cwd.join(b"babelftp.upload"), m),
        };
        if path.is_root() {
            self.reply(ReplyCode::FILE_UNAVAILABLE, Msg::NotAFile);
            return;
        }
        let caps = self.cfg.caps;
        let can = match mode {
            WriteMode::Append => caps.append,
            WriteMode::At(_) => caps.write_at,
            WriteMode::Replace | WriteMode::Unique => true,
        };
        if !can {
            self.reply(ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::StorageUnsupported);
            return;
        }
        self.start(now, TransferKind::Stor { path, mode });
    }

    pub(crate) fn list(&mut self, now: Instant, p: Option<WirePath>, kind: ListKind) {
        let arg = p.map(WirePath::into_bytes).unwrap_or_default();
        // `LIST -la dir`: clients pass ls options; skip them (not for MLSD,
        // whose argument is always a pathname).
        let arg = if kind == ListKind::Mlsd {
            arg.as_slice()
        } else {
            strip_ls_options(&arg)
        };
        let path = self.cwd.join(&self.wire_in(arg));
        let format = match kind {
            ListKind::List => ListFormat::List,
            ListKind::Nlst => ListFormat::Nlst,
            ListKind::Mlsd => ListFormat::Mlsd(self.mlst_facts.clone()),
        };
        let legacy = if self.legacy_active {
            self.cfg.legacy_charset
        } else {
            None
        };
        let write = self.may_write();
        self.start(
            now,
            TransferKind::List {
                path,
                format,
                write,
                legacy,
            },
        );
    }

    /// ABOR while a transfer runs (RFC 959 4.1.3): cut it, 426 for it,
    /// 226 for ABOR. An upload whose data all arrived and is being
    /// committed finishes (226), then ABOR gets its 226.
    pub(crate) fn abor_during_transfer(&mut self, now: Instant) {
        self.abort_transfer(now, AbortCause::Abor);
    }

    pub(crate) fn abort_transfer(&mut self, _now: Instant, cause: AbortCause) {
        let Busy::Transfer(t) = &mut self.busy else { return };
        match t.abort {
            // The client being gone outranks an ABOR or a shutdown.
            Some(_) if cause == AbortCause::ControlClosed => t.abort = Some(cause),
            Some(_) => {}
            None => {
                t.abort = Some(cause);
                // A commit under way cannot be stopped; it reports Ended.
                if t.phase != Phase::Committing {
                    let id = t.id;
                    self.action(Action::AbortTransfer(id));
                }
            }
        }
    }

    /// What the driver reports about the running transfer.
    pub fn handle_data(&mut self, now: Instant, ev: DataEvent) {
        if self.is_closed() {
            return;
        }
        let Busy::Transfer(t) = &mut self.busy else { return };
        if ev.id() != t.id {
            return; // about an earlier transfer: stale
        }
        let id = t.id;
        let aborting = t.abort.is_some();
        match ev {
            DataEvent::Opened { path, .. } => {
                if t.phase != Phase::Opening {
                    return;
                }
                // The driver holds the file and the data connection now,
                // even if the transfer is being cut (then no 150).
                t.phase = Phase::Running;
                if let Some(p) = path {
                    t.path = p;
                }
                let unique_name = t.unique.then(|| t.path.file_name().unwrap_or_default().to_vec());
                self.data = DataSetup::None;
                if aborting {
                    return;
                }
                match unique_name {
                    Some(name) => {
                        // RFC 1123 4.1.2.9: the 150 reply names the file.
                        let mut text = self.t(Msg::UniqueName).into_bytes();
                        text.push(b' ');
                        text.extend_from_slice(&self.wire_out(&name));
                        self.send(&Reply::new(ReplyCode::OPENING_DATA, text));
                    }
                    None => self.reply(ReplyCode::OPENING_DATA, Msg::OpeningData),
                }
            }
            DataEvent::OpenFailed { error, .. } => {
                if t.phase != Phase::Opening {
                    return;
                }
                let cause = t.abort;
                self.busy = Busy::Idle;
                match cause {
                    None => {
                        let (code, msg) = self.error_reply(error);
                        self.reply(code, msg);
                    }
                    Some(c) => self.aborted_replies(c, false),
                }
                self.after_transfer(now, cause);
            }
            DataEvent::UploadReceived { .. } => {
                if !t.upload || t.phase != Phase::Running || aborting {
                    return;
                }
                // The control connection is alive (else `aborting`), or
                // QUIT came after the data: the upload is whole.
                t.phase = Phase::Committing;
                self.action(Action::Commit(id));
            }
            DataEvent::Ended { bytes, outcome, .. } => {
                let Busy::Transfer(t) = std::mem::replace(&mut self.busy, Busy::Idle) else {
                    return;
                };
                // An upload cut by ABOR or by its client going away is
                // never committed, however its data connection ended.
                let complete = outcome == Outcome::Complete && !(t.upload && t.abort.is_some());
                if t.logged {
                    let (user, anonymous) = self.log_user();
                    self.action(Action::Log(TransferRecord {
                        path: t.path.to_bytes(),
                        incoming: t.upload,
                        ascii: t.ascii,
                        bytes,
                        seconds: now.saturating_duration_since(t.started).as_secs(),
                        complete,
                        user,
                        anonymous,
                    }));
                }
                match t.abort {
                    None => self.outcome_reply(outcome),
                    Some(c) => self.aborted_replies(c, complete),
                }
                self.after_transfer(now, t.abort);
            }
        }
    }

    fn outcome_reply(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Complete => self.reply(ReplyCode::CLOSING_DATA, Msg::TransferComplete),
            Outcome::NoConnection(NoConnection::Timeout) => self.reply(ReplyCode::CANT_OPEN_DATA, Msg::DataTimeout),
            Outcome::NoConnection(NoConnection::Failed) => self.reply(ReplyCode::CANT_OPEN_DATA, Msg::CantOpenData),
            Outcome::Network | Outcome::Stalled | Outcome::Aborted => {
                self.reply(ReplyCode::TRANSFER_ABORTED, Msg::TransferAborted)
            }
            Outcome::TlsNotReused => self.reply(ReplyCode::PROTOCOL_NOT_SUPPORTED, Msg::TlsReuseRequired),
            Outcome::TlsFailed => self.reply(ReplyCode::PROTOCOL_NOT_SUPPORTED, Msg::TlsDataFailed),
            Outcome::Storage(e) => {
                let (code, msg) = self.error_reply(e);
                // A storage failure during the transfer is "aborted", not
                // "never started": 451/452/552 rather than 550.
                let code = if code == ReplyCode::FILE_UNAVAILABLE {
                    ReplyCode::LOCAL_ERROR
                } else {
                    code
                };
                self.reply(code, msg);
            }
        }
    }

    /// The replies of a transfer cut short.
    fn aborted_replies(&mut self, cause: AbortCause, complete: bool) {
        match cause {
            AbortCause::ControlClosed => {}
            AbortCause::Abor | AbortCause::Shutdown => {
                if complete {
                    self.reply(ReplyCode::CLOSING_DATA, Msg::TransferComplete);
                } else {
                    self.reply(ReplyCode::TRANSFER_ABORTED, Msg::TransferAborted);
                }
                if cause == AbortCause::Abor {
                    self.reply(ReplyCode::CLOSING_DATA, Msg::AbortOk);
                }
            }
        }
    }

    /// After the transfer's final reply: close if the client is gone or
    /// said QUIT; go on otherwise (shutdown is handled by `process`).
    fn after_transfer(&mut self, now: Instant, cause: Option<AbortCause>) {
        self.touch(now);
        if self.control_closed || cause == Some(AbortCause::ControlClosed) {
            self.close(crate::session::CLIENT_GONE);
            return;
        }
        if std::mem::take(&mut self.quit_after) {
            self.reply(ReplyCode::CLOSING, Msg::Goodbye);
            self.close("QUIT");
            return;
        }
        self.process(now);
    }
}

fn strip_ls_options(arg: &[u8]) -> &[u8] {
    let mut rest = arg;
    while rest.first() == Some(&b'-') {
        match rest.iter().position(|&b| b == b' ') {
            Some(i) => rest = &rest[i + 1..],
            None => return b"",
        }
    }
    rest
}
