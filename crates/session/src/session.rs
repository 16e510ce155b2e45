//! The machine: control input framed into lines, one command at a time,
//! lines queued while an operation or a transfer runs, replies out, and the
//! deadlines (idle, failed-login delay, shutdown grace).

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use babelftp_i18n::lang::Lang;
use babelftp_proto::command::{Command, TransferType};
use babelftp_proto::line::{LineEvent, LineReader, Status};
use babelftp_proto::listing::MLST_FACTS;
use babelftp_proto::reply::{Reply, ReplyCode};

use crate::commands::Pending;
use crate::transfer::Transfer;
use crate::{Action, Msg, Op, OpResult, SessionConfig, VPath};

/// Lines framed but not yet run, at most: past this the session stops
/// taking input ([`ServerSession::wants_input`]), so memory stays bounded
/// whatever a client pipelines.
const MAX_QUEUE: usize = 16;
/// Output not yet taken by the driver, at most, before input stops.
const MAX_OUTPUT: usize = 256 * 1024;

/// Login state: USER → PASS → logged in (RFC 959 5.4 sequencing).
#[derive(Debug, Clone)]
pub(crate) enum Login {
    AwaitUser,
    AwaitPass { user: Vec<u8> },
    LoggedIn { user: Vec<u8>, write: bool },
}

/// What the session is waiting for. Commands run only when `Idle`.
#[derive(Debug)]
pub(crate) enum Busy {
    Idle,
    /// An [`Op`] is with the driver; `Pending` says what its result is for.
    Op(Pending),
    /// A failed login, answered 530 at this instant.
    LoginDelay(Instant),
    /// A transfer runs; ABOR, STAT and QUIT are still heard.
    Transfer(Transfer),
}

/// A framed line, or the report of one that was too long.
#[derive(Debug)]
enum Queued {
    Line(Vec<u8>),
    TooLong,
}

/// The data connection the next transfer will use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DataSetup {
    None,
    /// The driver holds a passive listener.
    Passive,
    Active(SocketAddr),
}

/// The close reason when the client went away.
pub(crate) const CLIENT_GONE: &str = "client closed the connection";

/// One FTP control connection, server side, without I/O.
///
/// Feed it with the `handle_*` methods; after each, take
/// [`ServerSession::output`] to the client, run every
/// [`ServerSession::poll_action`], and wake it at
/// [`ServerSession::poll_timeout`].
#[derive(Debug)]
pub struct ServerSession {
    pub(crate) cfg: Arc<SessionConfig>,
    pub(crate) peer: SocketAddr,
    pub(crate) local: SocketAddr,

    // Protocol state (RFC 959, 2640, 3659, 7151).
    pub(crate) login: Login,
    pub(crate) default_lang: Lang,
    /// The language replies are in (RFC 2640 4.1).
    pub(crate) lang: Lang,
    /// The legacy client charset layer (A.2) is on until LANG, HOST or
    /// `OPTS UTF8 ON`, or until the client's first non-ASCII pathname
    /// turns out to be UTF-8.
    pub(crate) legacy_active: bool,
    /// Whether the client's charset is settled: by its first non-ASCII
    /// pathname (UTF-8 or not, RFC 2640 A.1) or by what it said (OPTS
    /// UTF8, LANG, HOST); until then a UTF-8 pathname turns the legacy
    /// layer off.
    pub(crate) charset_settled: bool,
    /// What happened since the driver last took it (metrics).
    pub(crate) tally: Tally,
    pub(crate) cwd: VPath,
    pub(crate) ttype: TransferType,
    pub(crate) rest: Option<u64>,
    pub(crate) rnfr: Option<VPath>,
    pub(crate) data: DataSetup,
    pub(crate) epsv_all: bool,
    pub(crate) mlst_facts: Vec<&'static str>,
    /// The control connection runs TLS (AUTH TLS, or implicit FTPS).
    pub(crate) tls: bool,
    /// PBSZ 0 came (RFC 4217 8; PROT needs it).
    pub(crate) pbsz: bool,
    /// PROT P: data connections run TLS.
    pub(crate) prot_private: bool,
    /// The connection came to the implicit-FTPS port: TLS is the port's
    /// contract, so REIN keeps it (RFC 4217 covers only AUTH).
    pub(crate) implicit: bool,

    // The machine.
    lines: LineReader,
    input: Vec<u8>,
    queue: VecDeque<Queued>,
    /// Telnet IP was seen: the next line is handled before queued ones
    /// (RFC 959 4.1.3).
    urgent: bool,
    pub(crate) busy: Busy,
    out: Vec<u8>,
    actions: VecDeque<Action>,
    idle_deadline: Instant,
    /// Shutdown was asked for; running transfers may go on until then.
    pub(crate) shutdown: Option<Instant>,
    /// The client's side is gone: nothing more is written.
    pub(crate) control_closed: bool,
    /// QUIT came during a transfer: close once it has ended (RFC 959).
    pub(crate) quit_after: bool,
    closed: bool,
    /// Why it closed (for the log).
    close_reason: &'static str,
    pub(crate) next_id: u64,
    /// The charset the storage could not write the last refused name in
    /// ([`ServerSession::name_refused_in`]), for that refusal's reply.
    pub(crate) refused_charset: Option<&'static str>,
}

/// What a session did since the driver last asked ([`ServerSession::take_tally`]),
/// for the server's metrics.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Logins of named users that succeeded.
    pub logins_ok: u32,
    /// Anonymous logins.
    pub logins_anonymous: u32,
    /// Logins refused (wrong password, unknown user, home unavailable).
    pub logins_failed: u32,
    /// The code of every 4xx and 5xx reply sent.
    pub error_replies: Vec<u16>,
}

impl ServerSession {
    /// What happened since the last call.
    pub fn take_tally(&mut self) -> Tally {
        std::mem::take(&mut self.tally)
    }

    /// The language replies are in now (a catalog tag: `en`, `ja`, …).
    pub fn language(&self) -> &str {
        self.cfg.catalogs.tag(self.lang)
    }

    /// The charset of this client's pathnames: the legacy client charset
    /// while that layer is on (RFC 2640 A.2), else UTF-8.
    pub fn client_charset(&self) -> &'static str {
        match (self.legacy_active, self.cfg.legacy_charset) {
            (true, Some(c)) => c.name(),
            _ => "UTF-8",
        }
    }

    /// A new session for a client at `peer` connected to `local`; the
    /// greeting (220) is in the output at once.
    pub fn new(cfg: Arc<SessionConfig>, peer: SocketAddr, local: SocketAddr, now: Instant) -> Self {
        let lang = cfg.catalogs.default_lang();
        let mut s = ServerSession {
            lines: LineReader::new(cfg.max_line),
            legacy_active: cfg.legacy_charset.is_some(),
            charset_settled: false,
            tally: Tally::default(),
            idle_deadline: now + cfg.idle_timeout,
            cfg,
            peer,
            local,
            login: Login::AwaitUser,
            default_lang: lang,
            lang,
            cwd: VPath::root(),
            ttype: TransferType::Ascii,
            rest: None,
            rnfr: None,
            data: DataSetup::None,
            epsv_all: false,
            mlst_facts: MLST_FACTS.to_vec(),
            tls: false,
            pbsz: false,
            prot_private: false,
            implicit: false,
            input: Vec::new(),
            queue: VecDeque::new(),
            urgent: false,
            busy: Busy::Idle,
            out: Vec::new(),
            actions: VecDeque::new(),
            shutdown: None,
            control_closed: false,
            quit_after: false,
            closed: false,
            close_reason: "open",
            next_id: 1,
            refused_charset: None,
        };
        s.reply(ReplyCode::READY, Msg::Greeting);
        s
    }

    /// A session on an implicit-FTPS connection: the driver made the TLS
    /// handshake before the greeting; data connections are protected
    /// (PROT P) until the client says PROT C.
    pub fn new_implicit_tls(cfg: Arc<SessionConfig>, peer: SocketAddr, local: SocketAddr, now: Instant) -> Self {
        let mut s = Self::new(cfg, peer, local, now);
        s.tls = true;
        s.pbsz = true;
        s.prot_private = true;
        s.implicit = true;
        s
    }

    /// Whether the control connection is protected.
    pub fn is_tls(&self) -> bool {
        self.tls
    }

    // ------------------------------------------------------------ events

    /// Bytes from the control connection (after TLS, if any).
    pub fn handle_input(&mut self, now: Instant, bytes: &[u8]) {
        if self.closed || self.control_closed {
            return;
        }
        self.input.extend_from_slice(bytes);
        self.process(now);
    }

    /// The control connection reached EOF, was reset, or a write to it
    /// failed. A running transfer is aborted (an upload is never committed
    /// after this); the session closes once nothing is outstanding.
    pub fn handle_control_closed(&mut self, now: Instant) {
        if self.closed || self.control_closed {
            return;
        }
        self.control_closed = true;
        self.out.clear();
        self.input.clear();
        self.queue.clear();
        match self.busy {
            Busy::Idle | Busy::LoginDelay(_) => self.close(CLIENT_GONE),
            Busy::Op(_) => {}
            Busy::Transfer(_) => self.abort_transfer(now, crate::transfer::AbortCause::ControlClosed),
        }
    }

    /// The storage refused the name of the outstanding operation or
    /// upload because the charset of the names on disk cannot hold it
    /// (`InvalidFilename`): its reply names `charset`. Call before
    /// [`ServerSession::handle_op`] or the transfer's `OpenFailed`.
    pub fn name_refused_in(&mut self, charset: &'static str) {
        self.refused_charset = Some(charset);
    }

    /// The reply to a storage error ([`crate::reply_for`]), naming the
    /// charset of a name the storage could not write when it is known.
    pub(crate) fn error_reply(&mut self, e: std::io::ErrorKind) -> (ReplyCode, Msg) {
        let (code, msg) = crate::reply_for(e);
        match (msg, self.refused_charset.take()) {
            (Msg::NameUntranslatable, Some(c)) => (code, Msg::NameNotInCharset(c)),
            (msg, _) => (code, msg),
        }
    }

    /// The result of the outstanding [`Op`].
    pub fn handle_op(&mut self, now: Instant, result: OpResult) {
        if self.closed {
            return;
        }
        let pending = match std::mem::replace(&mut self.busy, Busy::Idle) {
            Busy::Op(p) => p,
            other => {
                // No operation was asked for: a driver bug, ignored.
                self.busy = other;
                return;
            }
        };
        self.op_done(now, pending, result);
        if self.control_closed {
            if matches!(self.busy, Busy::Idle) {
                self.close(CLIENT_GONE);
            }
            return;
        }
        self.process(now);
    }

    /// The deadline from [`ServerSession::poll_timeout`] has come.
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.closed {
            return;
        }
        match &self.busy {
            Busy::Idle if now >= self.idle_deadline && !self.control_closed => {
                tracing::info!(peer = %self.peer, "idle timeout");
                self.reply(ReplyCode::UNAVAILABLE, Msg::Idle);
                self.close("idle timeout");
            }
            Busy::LoginDelay(at) if now >= *at => {
                self.busy = Busy::Idle;
                self.reply(ReplyCode::NOT_LOGGED_IN, Msg::LoginFailed);
                self.process(now);
            }
            Busy::Transfer(t) if t.abort.is_none() && self.shutdown.is_some_and(|d| now >= d) => {
                self.abort_transfer(now, crate::transfer::AbortCause::Shutdown);
            }
            _ => {}
        }
    }

    /// The server is stopping: no new command runs; a running transfer
    /// may finish until `deadline`, then it is cut (426); then 421.
    pub fn handle_shutdown(&mut self, now: Instant, deadline: Instant) {
        if self.closed {
            return;
        }
        if let Some(d) = self.shutdown {
            // A second signal: the deadline only comes sooner (a forced
            // stop cuts the transfers now).
            self.shutdown = Some(d.min(deadline));
            return;
        }
        self.shutdown = Some(deadline);
        self.queue.clear();
        match self.busy {
            Busy::Idle | Busy::LoginDelay(_) => {
                self.busy = Busy::Idle;
                self.process(now);
            }
            Busy::Op(_) | Busy::Transfer(_) => {}
        }
    }

    // ----------------------------------------------------------- outputs

    /// Bytes to send on the control connection.
    pub fn output(&self) -> &[u8] {
        &self.out
    }

    /// The first `n` output bytes were sent.
    pub fn consume_output(&mut self, n: usize) {
        let n = n.min(self.out.len());
        self.out.drain(..n);
        if self.out.is_empty() {
            // An idle session holds no buffers (thousands of them may be
            // connected at once).
            self.out = Vec::new();
        }
    }

    /// The next thing the driver must do.
    pub fn poll_action(&mut self) -> Option<Action> {
        let a = self.actions.pop_front();
        if a.is_none() && self.actions.capacity() > 0 {
            self.actions = VecDeque::new();
        }
        a
    }

    /// When to call [`ServerSession::handle_timeout`].
    pub fn poll_timeout(&self) -> Option<Instant> {
        if self.closed {
            return None;
        }
        match &self.busy {
            Busy::Idle if !self.control_closed => Some(self.idle_deadline),
            Busy::LoginDelay(at) => Some(*at),
            Busy::Transfer(t) if t.abort.is_none() => self.shutdown,
            _ => None,
        }
    }

    /// Whether the driver should read more control input now (false while
    /// enough is queued or the client is not reading its replies).
    pub fn wants_input(&self) -> bool {
        !self.closed
            && !self.control_closed
            && self.queue.len() < MAX_QUEUE
            && self.out.len() < MAX_OUTPUT
            && self.input.len() < self.cfg.max_line.saturating_add(16)
    }

    /// Whether the session is over ([`Action::Close`] was emitted).
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Whether a transfer is running (for logs and tests).
    pub fn in_transfer(&self) -> bool {
        matches!(self.busy, Busy::Transfer(_))
    }

    // ---------------------------------------------------------- internal

    /// Runs queued lines while idle and frames more input.
    pub(crate) fn process(&mut self, now: Instant) {
        loop {
            if self.closed || self.control_closed {
                return;
            }
            if matches!(self.busy, Busy::Idle) {
                if self.shutdown.is_some() {
                    self.reply(ReplyCode::UNAVAILABLE, Msg::ShuttingDown);
                    self.close("server shutting down");
                    return;
                }
                if let Some(q) = self.queue.pop_front() {
                    match q {
                        Queued::Line(l) => self.run_line(now, &l),
                        Queued::TooLong => self.reply(ReplyCode::SYNTAX_ERROR, Msg::LineTooLong),
                    }
                    continue;
                }
            }
            if self.input.is_empty() {
                self.input = Vec::new();
                if self.queue.is_empty() {
                    self.queue = VecDeque::new();
                }
                return;
            }
            if self.queue.len() >= MAX_QUEUE {
                return;
            }
            let (n, st) = self.lines.advance(&self.input);
            self.input.drain(..n);
            while let Some(t) = self.lines.poll_telnet_reply() {
                self.out.extend_from_slice(&t);
            }
            match st {
                Status::Partial => {
                    // All input is in the line reader now.
                    self.input = Vec::new();
                    return;
                }
                Status::Complete(LineEvent::Interrupt) => self.urgent = true,
                Status::Complete(LineEvent::TooLong) => {
                    // Answered at once, in order with what is queued.
                    self.idle_deadline = now + self.cfg.idle_timeout;
                    self.enqueue(Queued::TooLong);
                }
                Status::Complete(LineEvent::Line(l)) => {
                    self.idle_deadline = now + self.cfg.idle_timeout;
                    if matches!(self.busy, Busy::Transfer(_)) && self.during_transfer(now, &l) {
                        self.urgent = false;
                        continue;
                    }
                    self.enqueue(Queued::Line(l));
                }
            }
        }
    }

    fn enqueue(&mut self, q: Queued) {
        if std::mem::take(&mut self.urgent) {
            self.queue.push_front(q);
        } else {
            self.queue.push_back(q);
        }
    }

    /// A line while a transfer runs: ABOR, STAT and QUIT act at once
    /// (RFC 959 4.1.3); `false` leaves the line queued for later.
    fn during_transfer(&mut self, now: Instant, line: &[u8]) -> bool {
        match Command::parse(line) {
            // A second ABOR while the first is being carried out waits its
            // turn (then 225: no transfer), so it too gets its reply.
            Ok(Command::Abor) if matches!(&self.busy, Busy::Transfer(t) if t.abort.is_none()) => {
                self.abor_during_transfer(now);
                true
            }
            Ok(Command::Quit) => {
                // RFC 959 QUIT: "If file transfer is in progress, the
                // connection will remain open for result response and the
                // server will then close it."
                self.quit_after = true;
                true
            }
            Ok(Command::Stat(None)) => {
                let r = self.status();
                self.send(&r);
                true
            }
            _ => false,
        }
    }

    /// Asks the driver for an operation; its result resumes `pending`.
    pub(crate) fn op(&mut self, op: Op, pending: Pending) {
        self.busy = Busy::Op(pending);
        self.actions.push_back(Action::Op(op));
    }

    pub(crate) fn action(&mut self, a: Action) {
        if !self.closed {
            self.actions.push_back(a);
        }
    }

    pub(crate) fn close(&mut self, why: &'static str) {
        if !self.closed {
            self.closed = true;
            self.close_reason = why;
            self.actions.push_back(Action::Close);
        }
    }

    /// Why the session closed (for the server's log): `QUIT`, `idle
    /// timeout`, `client closed the connection`, `server shutting down`…
    pub fn close_reason(&self) -> &'static str {
        self.close_reason
    }

    /// After AUTH TLS: plaintext the client sent behind it is dropped
    /// unread (the STARTTLS command-injection class), and the line reader
    /// starts over for the protected stream.
    pub(crate) fn forget_plaintext(&mut self) {
        self.input = Vec::new();
        self.queue = VecDeque::new();
        self.lines = LineReader::new(self.cfg.max_line);
        self.urgent = false;
    }

    pub(crate) fn touch(&mut self, now: Instant) {
        self.idle_deadline = now + self.cfg.idle_timeout;
    }

    /// The text of a message in the session's language.
    pub(crate) fn t(&self, msg: Msg) -> String {
        msg.render(&self.cfg.catalogs, self.lang)
    }

    /// A single-line reply in the session's language.
    pub(crate) fn r(&self, code: ReplyCode, msg: Msg) -> Reply {
        Reply::new(code, self.t(msg))
    }

    /// Sends a single-line reply in the session's language.
    pub(crate) fn reply(&mut self, code: ReplyCode, msg: Msg) {
        let r = self.r(code, msg);
        self.send(&r);
    }

    pub(crate) fn send(&mut self, r: &Reply) {
        if self.closed || self.control_closed {
            return;
        }
        tracing::debug!(peer = %self.peer, code = %r.code, "reply");
        if r.code.get() >= 400 {
            self.tally.error_replies.push(r.code.get());
        }
        r.encode(&mut self.out);
    }

    /// The name this session logged in with; `None` before login and
    /// after REIN.
    pub fn logged_in_user(&self) -> Option<&[u8]> {
        match &self.login {
            Login::LoggedIn { user, .. } => Some(user),
            _ => None,
        }
    }

    pub(crate) fn logged_in(&self) -> bool {
        matches!(self.login, Login::LoggedIn { .. })
    }

    pub(crate) fn may_write(&self) -> bool {
        matches!(self.login, Login::LoggedIn { write: true, .. })
    }
}
