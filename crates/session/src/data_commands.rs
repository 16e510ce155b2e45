//! The commands that use a data connection: PASV/EPSV/PORT/EPRT, RETR,
//! STOR/APPE/STOU, LIST/NLST/MLSD, and what the driver reports about a
//! running transfer (its replies, its log line, how it ends). The state
//! lives in the `data` and `transfer` parts; this module sends the replies
//! and asks the driver.

use std::net::{IpAddr, SocketAddr};
use std::time::Instant;

use babelftp_proto::command::TransferType;
use babelftp_proto::path::WirePath;
use babelftp_proto::reply::{Reply, ReplyCode};

use crate::data::NoSource;
use crate::effects::{
    Action, DataEvent, Hostile, NoConnection, Op, Outcome, TransferKind, TransferRecord, TransferSpec, WriteMode,
};
use crate::io::CLIENT_GONE;
use crate::listing::{ListFormat, ListRender};
use crate::msg::Msg;
use crate::session::ServerSession;
use crate::transfer::{AbortCause, OnOpened, Pending};
use babelftp_policy::{Op as P, Perm};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListKind {
    List,
    Nlst,
    Mlsd,
}

impl ServerSession {
    pub(crate) fn pasv(&mut self, extended: bool) {
        if let Err(r) = self.data.may_listen(extended) {
            return self.refuse(r);
        }
        if !extended && self.announce_v4().is_none() {
            self.reply(ReplyCode::PROTOCOL_NOT_SUPPORTED, Msg::PassiveNeedsIpv4);
            return;
        }
        let ip = self.local.ip();
        let tls = self.tls.data_private();
        self.op(Op::BindPassive { ip, tls }, Pending::Pasv { extended, tls });
    }

    fn announce_v4(&self) -> Option<std::net::Ipv4Addr> {
        match self.passive_address.unwrap_or(self.local.ip()).to_canonical() {
            IpAddr::V4(v4) => Some(v4),
            IpAddr::V6(_) => None,
        }
    }

    /// 227 or 229 once the driver has bound the listener.
    pub(crate) fn passive_reply(&mut self, extended: bool, tls: bool, port: u16) {
        self.data.listening(tls);
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
        match self.data.connect_to(addr, self.peer) {
            Err(r) => {
                if r.1 == Msg::PortRefused {
                    self.action(Action::Hostile(Hostile::Bounce));
                }
                self.refuse(r)
            }
            Ok(release) => {
                if release {
                    self.action(Action::ReleasePassive);
                }
                self.reply(ReplyCode::OK, Msg::PortOk);
            }
        }
    }

    /// Starts a transfer on the data connection set up before, or 425.
    fn start(&mut self, now: Instant, kind: TransferKind) {
        // RFC 4217 9: a server that requires protection refuses a clear
        // data connection.
        let tls = self.tls.data_private();
        if self.cfg.tls.is_some_and(|t| t.required) && !tls {
            self.reply(ReplyCode::PROT_REQUIRED, Msg::ProtRequired);
            return;
        }
        let source = match self.data.source(tls) {
            Ok(s) => s,
            // A download of something missing is 550 even without a data
            // connection (as before, and as ProFTPD does); else 425.
            Err(NoSource::NotSetUp) if !kind.is_upload() => {
                let p = kind.path().clone();
                self.op(Op::Stat(p), Pending::NoData);
                return;
            }
            Err(NoSource::NotSetUp) => {
                self.reply(ReplyCode::CANT_OPEN_DATA, Msg::CantOpenData);
                return;
            }
            Err(NoSource::ProtChanged) => {
                // The connection on that listener is to speak TLS: it is
                // dropped, and the client sets up another.
                tracing::info!(peer = %self.peer, "data connection set up under PROT P, transfer under PROT C");
                self.data.used();
                self.action(Action::ReleasePassive);
                self.reply(ReplyCode::CANT_OPEN_DATA, Msg::CantOpenData);
                return;
            }
        };
        let ascii = self.client.ttype == TransferType::Ascii;
        let id = self.work.begin(now, &kind, ascii);
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
        if !self.require(Perm::Download, &path) {
            // (A REST before it is used up, as a refused RETR would.)
            self.work.take_rest();
            return;
        }
        let offset = self.work.take_rest().unwrap_or(0);
        self.start(now, TransferKind::Retr { path, offset });
    }

    pub(crate) fn stor(&mut self, now: Instant, p: Option<&WirePath>, mode: WriteMode) {
        let rest = self.work.take_rest();
        let (path, mode) = match (p, mode) {
            (Some(p), WriteMode::Replace) => (self.path(p), rest.map_or(WriteMode::Replace, WriteMode::At)),
            (Some(p), m) => (self.path(p), m),
            (None, m) => (self.client.cwd.join(b"babelftp.upload"), m),
        };
        if path.is_root() {
            self.reply(ReplyCode::FILE_UNAVAILABLE, Msg::NotAFile);
            return;
        }
        if !self.name_allowed(&path) {
            return;
        }
        // Refused and logged as MKD, DELE and the others are. APPE and
        // REST+STOR change a file in place: `overwrite`. STOR and STOU
        // create: `upload`; a STOR without `overwrite` may not replace a
        // file, which the storage checks as it creates it and commits it
        // (`New`), so no other upload slips in between.
        let extends = matches!(mode, WriteMode::Append | WriteMode::At(_));
        let op = P::Store {
            path: path.components(),
            exists: extends,
        };
        if !self.permit(&op) {
            return;
        }
        let mode = match mode {
            WriteMode::Replace if !self.perms_at(&path).has(Perm::Overwrite) => WriteMode::New,
            m => m,
        };
        let caps = self.cfg.caps;
        let can = match mode {
            WriteMode::Append => caps.append,
            WriteMode::At(_) => caps.write_at,
            WriteMode::Replace | WriteMode::Unique | WriteMode::New => true,
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
        let path = self.client.cwd.join(&self.client.wire_in(arg));
        if !self.require(Perm::List, &path) {
            return;
        }
        let format = match kind {
            ListKind::List => ListFormat::List,
            ListKind::Nlst => ListFormat::Nlst,
            ListKind::Mlsd => ListFormat::Mlsd(self.client.mlst_facts.clone()),
        };
        let render = ListRender::new(
            format,
            self.perms_below(&path),
            &self.cfg.caps,
            self.client.legacy_now(),
        );
        self.start(now, TransferKind::List { path, render });
    }

    /// Cuts the running transfer (ABOR: 426 for it, 226 for ABOR; an
    /// upload whose data all arrived and is being committed finishes,
    /// then ABOR gets its 226).
    pub(crate) fn abort_transfer(&mut self, _now: Instant, cause: AbortCause) {
        if let Some(id) = self.work.abort(cause) {
            self.action(Action::AbortTransfer(id));
        }
    }

    /// What the driver reports about the running transfer; whether the
    /// session goes on to its next command.
    pub(crate) fn data_event(&mut self, now: Instant, ev: DataEvent) -> bool {
        match ev {
            DataEvent::Opened { id, path } => {
                let Some(on) = self.work.opened(id, path) else {
                    return false;
                };
                // The driver holds the data connection now.
                self.data.used();
                match on {
                    OnOpened::Quiet => {}
                    OnOpened::Opening => self.reply(ReplyCode::OPENING_DATA, Msg::OpeningData),
                    OnOpened::OpeningUnique(name) => {
                        // RFC 1123 4.1.2.9: the 150 reply names the file.
                        let mut text = self.t(Msg::UniqueName).into_bytes();
                        text.push(b' ');
                        text.extend_from_slice(&self.wire_out(&name));
                        self.send(&Reply::new(ReplyCode::OPENING_DATA, text));
                    }
                }
                false
            }
            DataEvent::OpenFailed { id, error } => {
                let Some((cause, new_file)) = self.work.open_failed(id) else {
                    return false;
                };
                match cause {
                    // A file the account may not overwrite is there.
                    None if error == std::io::ErrorKind::AlreadyExists && new_file.is_some() => {
                        let path = new_file.map(|p| p.to_bytes()).unwrap_or_default();
                        self.deny(Perm::Overwrite, &path);
                    }
                    None => {
                        let (code, msg) = self.error_reply(error);
                        self.reply(code, msg);
                    }
                    Some(c) => {
                        self.aborted_replies(c, false);
                    }
                }
                self.after_transfer(now, cause)
            }
            DataEvent::UploadReceived { id, .. } => {
                // The control connection is alive (else the transfer would
                // be cut), or QUIT came after the data: the upload is whole.
                if let Some(id) = self.work.received(id) {
                    self.action(Action::Commit(id));
                }
                false
            }
            DataEvent::Ended { id, bytes, outcome } => {
                let Some(t) = self.work.ended(id) else { return false };
                // An upload cut by ABOR or by its client going away is
                // never committed, however its data connection ended.
                let complete = outcome == Outcome::Complete && !(t.upload && t.abort.is_some());
                // The replies first: the record names the transfer's own
                // (the driver runs every action before it writes them).
                let code = match t.abort {
                    None => Some(self.outcome_reply(outcome)),
                    Some(c) => self.aborted_replies(c, complete),
                };
                if t.logged {
                    let (user, anonymous) = self.login.log_user();
                    let elapsed = now.saturating_duration_since(t.started);
                    self.action(Action::Log(TransferRecord {
                        path: t.path.to_bytes(),
                        incoming: t.upload,
                        ascii: t.ascii,
                        bytes,
                        seconds: elapsed.as_secs(),
                        millis: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
                        complete,
                        code: code.map(ReplyCode::get),
                        user,
                        anonymous,
                    }));
                }
                self.after_transfer(now, t.abort)
            }
        }
    }

    /// The transfer's final reply; its code.
    fn outcome_reply(&mut self, outcome: Outcome) -> ReplyCode {
        let (code, msg) = match outcome {
            Outcome::Complete => (ReplyCode::CLOSING_DATA, Msg::TransferComplete),
            Outcome::NoConnection(NoConnection::Timeout) => (ReplyCode::CANT_OPEN_DATA, Msg::DataTimeout),
            Outcome::NoConnection(NoConnection::Failed) => (ReplyCode::CANT_OPEN_DATA, Msg::CantOpenData),
            Outcome::Network | Outcome::Stalled | Outcome::Aborted => {
                (ReplyCode::TRANSFER_ABORTED, Msg::TransferAborted)
            }
            Outcome::TlsNotReused => (ReplyCode::PROTOCOL_NOT_SUPPORTED, Msg::TlsReuseRequired),
            Outcome::TlsFailed => (ReplyCode::PROTOCOL_NOT_SUPPORTED, Msg::TlsDataFailed),
            Outcome::Storage(e) => {
                let (code, msg) = self.error_reply(e);
                // A storage failure during the transfer is "aborted", not
                // "never started": 451/452/552 rather than 550.
                let code = if code == ReplyCode::FILE_UNAVAILABLE {
                    ReplyCode::LOCAL_ERROR
                } else {
                    code
                };
                (code, msg)
            }
        };
        self.reply(code, msg);
        code
    }

    /// The replies of a transfer cut short; the code of the transfer's
    /// own (none when the client is gone).
    fn aborted_replies(&mut self, cause: AbortCause, complete: bool) -> Option<ReplyCode> {
        match cause {
            AbortCause::ControlClosed => None,
            AbortCause::Abor | AbortCause::Shutdown => {
                let code = if complete {
                    ReplyCode::CLOSING_DATA
                } else {
                    ReplyCode::TRANSFER_ABORTED
                };
                let msg = if complete {
                    Msg::TransferComplete
                } else {
                    Msg::TransferAborted
                };
                self.reply(code, msg);
                if cause == AbortCause::Abor {
                    self.reply(ReplyCode::CLOSING_DATA, Msg::AbortOk);
                }
                Some(code)
            }
        }
    }

    /// After the transfer's final reply: close if the client is gone or
    /// said QUIT; else whether to go on (shutdown is handled there).
    fn after_transfer(&mut self, now: Instant, cause: Option<AbortCause>) -> bool {
        self.touch(now);
        if self.io.control_closed || cause == Some(AbortCause::ControlClosed) {
            self.close(CLIENT_GONE);
            return false;
        }
        if std::mem::take(&mut self.io.quit_after) {
            self.reply(ReplyCode::CLOSING, Msg::Goodbye);
            self.close("QUIT");
            return false;
        }
        true
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
