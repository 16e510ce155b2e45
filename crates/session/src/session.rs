//! [`ServerSession`]: the owned parts of one control connection, the
//! helpers every handler uses (replies in the session's language,
//! operations for the driver), and what the driver may read of it.
//!
//! The parts, each in its module with the methods that change it:
//! `login` (USER/PASS), `client` (language, charset, directory, TYPE,
//! facts), `data` (PASV/PORT setup, EPSV ALL), `tls` (RFC 4217 state),
//! `transfer` (busy, REST, RNFR, the running transfer), `io` (lines in,
//! replies and actions out, closing). The handlers (`commands`, `access`,
//! `results`, `data_commands`, `info`) and the event loop (`machine`) are
//! layered above this module.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

use babelftp_proto::path::WirePath;
use babelftp_proto::reply::{Reply, ReplyCode};

use crate::client::Client;
use crate::config::{reply_for, SessionConfig};
use crate::data::DataChannel;
use crate::effects::{Action, Op};
use crate::io::ControlIo;
use crate::login::Login;
use crate::msg::Msg;
use crate::tls::TlsState;
use crate::transfer::{Busy, Pending, Work};
use babelftp_proto::vpath::VPath;

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
    /// The address announced in 227 replies: the configuration's, or the
    /// one for the client's network ([`ServerSession::set_passive_address`]).
    pub(crate) passive_address: Option<IpAddr>,
    pub(crate) login: Login,
    pub(crate) client: Client,
    pub(crate) data: DataChannel,
    pub(crate) tls: TlsState,
    pub(crate) work: Work,
    pub(crate) io: ControlIo,
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
    /// A new session for a client at `peer` connected to `local`; the
    /// greeting (220) is in the output at once.
    pub fn new(cfg: Arc<SessionConfig>, peer: SocketAddr, local: SocketAddr, now: Instant) -> Self {
        Self::with_tls(cfg, peer, local, now, TlsState::Clear)
    }

    /// A session on an implicit-FTPS connection: the driver made the TLS
    /// handshake before the greeting; data connections are protected
    /// (PROT P) until the client says PROT C.
    pub fn new_implicit_tls(cfg: Arc<SessionConfig>, peer: SocketAddr, local: SocketAddr, now: Instant) -> Self {
        Self::with_tls(cfg, peer, local, now, TlsState::implicit())
    }

    fn with_tls(cfg: Arc<SessionConfig>, peer: SocketAddr, local: SocketAddr, now: Instant, tls: TlsState) -> Self {
        let mut s = ServerSession {
            login: Login::new(),
            client: Client::new(cfg.catalogs.default_lang(), cfg.legacy_charset),
            data: DataChannel::new(),
            tls,
            work: Work::new(),
            io: ControlIo::new(cfg.max_line, now, cfg.idle_timeout),
            passive_address: cfg.passive_address,
            cfg,
            peer,
            local,
        };
        s.reply(ReplyCode::READY, Msg::Greeting);
        s
    }

    /// The address to announce in this session's 227 replies, in place of
    /// the configuration's `passive_address` (NAT: the address the
    /// client's network reaches the server at).
    pub fn set_passive_address(&mut self, addr: IpAddr) {
        self.passive_address = Some(addr);
    }

    // ------------------------------------------------- what the driver reads

    /// What happened since the last call.
    pub fn take_tally(&mut self) -> Tally {
        Tally {
            logins_ok: std::mem::take(&mut self.login.ok),
            logins_anonymous: std::mem::take(&mut self.login.anonymous_ok),
            logins_failed: std::mem::take(&mut self.login.failed),
            error_replies: std::mem::take(&mut self.io.error_replies),
        }
    }

    /// The language replies are in now (a catalog tag: `en`, `ja`, …).
    pub fn language(&self) -> &str {
        self.cfg.catalogs.tag(self.client.lang)
    }

    /// The charset of this client's pathnames: the legacy client charset
    /// while that layer is on (RFC 2640 A.2), else UTF-8.
    pub fn client_charset(&self) -> &'static str {
        self.client.charset_name()
    }

    /// Whether the control connection is protected.
    pub fn is_tls(&self) -> bool {
        self.tls.is_protected()
    }

    /// The name this session logged in with; `None` before login and
    /// after REIN.
    pub fn logged_in_user(&self) -> Option<&[u8]> {
        self.login.user_name()
    }

    /// Bytes to send on the control connection.
    pub fn output(&self) -> &[u8] {
        self.io.output()
    }

    /// The first `n` output bytes were sent.
    pub fn consume_output(&mut self, n: usize) {
        self.io.consume_output(n);
    }

    /// The next thing the driver must do.
    pub fn poll_action(&mut self) -> Option<Action> {
        self.io.poll_action()
    }

    /// Whether the driver should read more control input now (false while
    /// enough is queued or the client is not reading its replies).
    pub fn wants_input(&self) -> bool {
        self.io.wants_input(self.cfg.max_line)
    }

    /// Whether the session is over ([`Action::Close`] was emitted).
    pub fn is_closed(&self) -> bool {
        self.io.is_closed()
    }

    /// Whether a transfer is running (for logs and tests).
    pub fn in_transfer(&self) -> bool {
        self.work.in_transfer()
    }

    /// Why the session closed (for the server's log): `QUIT`, `idle
    /// timeout`, `client closed the connection`, `server shutting down`…
    pub fn close_reason(&self) -> &'static str {
        self.io.close_reason()
    }

    /// The storage refused the name of the outstanding operation or
    /// upload because the charset of the names on disk cannot hold it
    /// (`InvalidFilename`): its reply names `charset`. Call before
    /// [`ServerSession::handle_op`] or the transfer's `OpenFailed`.
    pub fn name_refused_in(&mut self, charset: &'static str) {
        self.work.name_refused_in(charset);
    }

    // ------------------------------------------------- helpers of handlers

    /// The reply to a storage error ([`crate::reply_for`]), naming the
    /// charset of a name the storage could not write when it is known.
    pub(crate) fn error_reply(&mut self, e: std::io::ErrorKind) -> (ReplyCode, Msg) {
        let (code, msg) = reply_for(e);
        match (msg, self.work.take_refused_charset()) {
            (Msg::NameUntranslatable, Some(c)) => (code, Msg::NameNotInCharset(c)),
            (msg, _) => (code, msg),
        }
    }

    /// Asks the driver for an operation; its result resumes `pending`.
    pub(crate) fn op(&mut self, op: Op, pending: Pending) {
        self.work.busy = Busy::Op(pending);
        self.io.action(Action::Op(op));
    }

    pub(crate) fn action(&mut self, a: Action) {
        self.io.action(a);
    }

    pub(crate) fn close(&mut self, why: &'static str) {
        self.io.close(why);
    }

    pub(crate) fn touch(&mut self, now: Instant) {
        self.io.touch(now, self.cfg.idle_timeout);
    }

    /// The text of a message in the session's language.
    pub(crate) fn t(&self, msg: Msg) -> String {
        msg.render(&self.cfg.catalogs, self.client.lang)
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

    /// Sends the reply a part refused with.
    pub(crate) fn refuse(&mut self, (code, msg): (ReplyCode, Msg)) {
        self.reply(code, msg);
    }

    pub(crate) fn send(&mut self, r: &Reply) {
        if self.io.live() {
            tracing::debug!(peer = %self.peer, code = %r.code, "reply");
        }
        self.io.send(r);
    }

    /// A failed login: 530 after the configured delay.
    pub(crate) fn login_failed(&mut self, now: Instant) {
        self.login.failed();
        self.work.busy = Busy::LoginDelay(now + self.cfg.login_fail_delay);
    }

    /// A pathname from the client resolved against the working directory.
    pub(crate) fn path(&self, p: &WirePath) -> VPath {
        self.client.path(p)
    }

    /// A pathname for the client (through the charset layer).
    pub(crate) fn wire_out(&self, name: &[u8]) -> Vec<u8> {
        self.client.wire_out(name)
    }

    /// A `257 "path" text` reply (RFC 959 Appendix II quoting).
    pub(crate) fn path_reply(&self, p: &VPath, msg: Msg) -> Reply {
        let mut text = WirePath::new(self.wire_out(&p.to_bytes())).quote_257();
        text.push(b' ');
        text.extend_from_slice(self.t(msg).as_bytes());
        Reply::new(ReplyCode::PATH_CREATED, text)
    }
}
