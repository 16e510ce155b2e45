//! One control connection: read lines, run commands, write replies.
//!
//! The session is one tokio task. While a transfer runs (itself a task),
//! the session keeps reading the control connection so that ABOR, STAT
//! and QUIT are answered at once; other commands wait until the transfer
//! ends, as RFC 959 4.1.3 expects of a server that cannot run two
//! transfers at once.

use std::collections::VecDeque;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use babelftp_proto::command::{Command, EpsvArg, ParseError, Structure, TransferMode, TransferType, Verb};
use babelftp_proto::feat::{Feature, Features};
use babelftp_proto::lang::{LangFact, LangTag};
use babelftp_proto::line::{LineEvent, LineReader, Status};
use babelftp_proto::listing::{self, Entry, EntryKind, MLST_FACTS};
use babelftp_proto::path::WirePath;
use babelftp_proto::reply::{Reply, ReplyCode};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::TcpStream;
use tokio::sync::broadcast;
use tokio::task::JoinHandle;

use crate::config::Config;
use crate::data::{self, DataError, DataSetup};
use crate::msg::Msg;
use crate::storage::{ReadHandle, Storage, VPath, WriteMode};
use crate::xferlog::{XferEntry, XferLog};
use babelftp_i18n::lang::{Catalogs, Lang, Negotiated};
use babelftp_i18n::Charset;

mod info;
mod login;
mod transfer;

/// A virtual host as the session uses it (RFC 7151).
pub(crate) struct Host {
    pub(crate) name: String,
    pub(crate) storage: Arc<dyn Storage>,
    pub(crate) lang: Lang,
}

/// Login state: USER → PASS → logged in (RFC 959 5.4 sequencing).
#[derive(Debug, Clone)]
enum Login {
    AwaitUser,
    AwaitPass { user: Vec<u8> },
    LoggedIn { user: Vec<u8>, write: bool },
}

/// What a finished transfer reports.
type TransferResult = Result<u64, (ReplyCode, Msg)>;

/// The state of one control connection.
pub(crate) struct Session {
    cfg: Arc<Config>,
    /// The server root; `storage` is narrowed to a user's home at login.
    base: Arc<dyn Storage>,
    /// The root before any HOST, for REIN.
    server_root: Arc<dyn Storage>,
    hosts: Arc<Vec<Host>>,
    /// The language before LANG: the server's, or the virtual host's.
    default_lang: Lang,
    storage: Arc<dyn Storage>,
    xferlog: Option<Arc<XferLog>>,
    peer: SocketAddr,
    local: SocketAddr,
    login: Login,
    cwd: VPath,
    ttype: TransferType,
    rest: Option<u64>,
    rnfr: Option<VPath>,
    data: DataSetup,
    epsv_all: bool,
    mlst_facts: Vec<&'static str>,
    catalogs: Arc<Catalogs>,
    /// The language replies are in (RFC 2640 4.1); the default until LANG.
    lang: Lang,
    /// The configured legacy client charset (RFC 2640 A.2) …
    legacy: Option<Charset>,
    /// … on until the client sends LANG, HOST or `OPTS UTF8 ON`.
    legacy_active: bool,
    writer: OwnedWriteHalf,
    transfer: Option<JoinHandle<TransferResult>>,
    /// What the running transfer is, for the transfer log.
    transfer_info: Option<TransferInfo>,
}

/// One transfer, as the xferlog line describes it.
struct TransferInfo {
    path: Vec<u8>,
    incoming: bool,
    ascii: bool,
    started: std::time::Instant,
}

/// Whether the session goes on after a command.
enum Flow {
    Continue,
    Close,
}

/// Maps a filesystem error to its reply, once, by kind (errno).
fn io_status(e: &io::Error) -> (ReplyCode, Msg) {
    use io::ErrorKind as K;
    match e.kind() {
        K::NotFound => (ReplyCode::FILE_UNAVAILABLE, Msg::NoSuchFile),
        K::PermissionDenied | K::ReadOnlyFilesystem => (ReplyCode::FILE_UNAVAILABLE, Msg::PermissionDenied),
        K::AlreadyExists => (ReplyCode::FILE_UNAVAILABLE, Msg::FileExists),
        K::DirectoryNotEmpty => (ReplyCode::FILE_UNAVAILABLE, Msg::DirectoryNotEmpty),
        K::NotADirectory => (ReplyCode::FILE_UNAVAILABLE, Msg::NotADirectory),
        K::IsADirectory | K::InvalidInput => (ReplyCode::FILE_UNAVAILABLE, Msg::NotAFile),
        K::StorageFull | K::QuotaExceeded => (ReplyCode::NO_SPACE, Msg::NoSpace),
        K::InvalidFilename => (ReplyCode::BAD_FILENAME, Msg::ArgumentError),
        K::Unsupported => (ReplyCode::NOT_IMPLEMENTED, Msg::UnknownCommand),
        _ => (ReplyCode::LOCAL_ERROR, Msg::LocalError),
    }
}

/// Runs a storage call on the blocking pool.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> io::Result<T> + Send + 'static) -> io::Result<T> {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|e| Err(io::Error::other(e.to_string())))
}

/// Answers a connection over the limits with 421 and closes it.
pub(crate) async fn refuse(mut stream: TcpStream, catalogs: &Catalogs) {
    let text = Msg::TooManyConnections.render(catalogs, catalogs.default_lang());
    let r = Reply::new(ReplyCode::UNAVAILABLE, text);
    let _ = stream.write_all(&r.to_bytes()).await;
    let _ = stream.shutdown().await;
}

/// Serves one accepted connection until QUIT, error, idle timeout or
/// shutdown.
pub(crate) async fn serve(
    stream: TcpStream,
    cfg: Arc<Config>,
    storage: Arc<dyn Storage>,
    xferlog: Option<Arc<XferLog>>,
    catalogs: Arc<Catalogs>,
    hosts: Arc<Vec<Host>>,
    mut shutdown: broadcast::Receiver<()>,
) -> io::Result<()> {
    let peer = stream.peer_addr()?;
    let local = stream.local_addr()?;
    // Validated when the server was bound.
    let legacy = crate::config::charsets(&cfg).ok().and_then(|(_, l)| l);
    stream.set_nodelay(true)?;
    let (mut reader, writer) = stream.into_split();
    let mut s = Session {
        cfg: cfg.clone(),
        base: storage.clone(),
        server_root: storage.clone(),
        hosts,
        default_lang: catalogs.default_lang(),
        storage,
        xferlog,
        peer,
        local,
        login: Login::AwaitUser,
        cwd: VPath::root(),
        ttype: TransferType::Ascii,
        rest: None,
        rnfr: None,
        data: DataSetup::None,
        epsv_all: false,
        mlst_facts: MLST_FACTS.to_vec(),
        lang: catalogs.default_lang(),
        catalogs,
        legacy,
        legacy_active: legacy.is_some(),
        writer,
        transfer: None,
        transfer_info: None,
    };
    s.send(&s.r(ReplyCode::READY, Msg::Greeting)).await?;
    let mut lines = LineReader::new(cfg.max_line);
    let mut buf = vec![0u8; 4096];
    let mut pending: VecDeque<Vec<u8>> = VecDeque::new();
    let mut input: Vec<u8> = Vec::new();
    loop {
        // Lines that waited for a transfer to end run first.
        while s.transfer.is_none() {
            let Some(line) = pending.pop_front() else { break };
            if let Flow::Close = s.line(&line).await? {
                return Ok(());
            }
        }
        // Frame what is buffered before reading more.
        let mut consumed = 0;
        let mut closed = false;
        while consumed < input.len() {
            let (n, st) = lines.advance(&input[consumed..]);
            consumed += n;
            while let Some(t) = lines.poll_telnet_reply() {
                s.writer.write_all(&t).await?;
            }
            match st {
                Status::Partial => break,
                Status::Complete(LineEvent::Interrupt) => {}
                Status::Complete(LineEvent::TooLong) => {
                    s.send(&s.r(ReplyCode::SYNTAX_ERROR, Msg::LineTooLong)).await?;
                }
                Status::Complete(LineEvent::Line(l)) => {
                    if s.transfer.is_some() {
                        match s.during_transfer(l, &mut pending).await? {
                            Flow::Continue => {}
                            Flow::Close => {
                                closed = true;
                                break;
                            }
                        }
                    } else if pending.is_empty() {
                        if let Flow::Close = s.line(&l).await? {
                            closed = true;
                            break;
                        }
                    } else {
                        pending.push_back(l);
                    }
                    // Stop framing while commands wait: bounded memory.
                    if pending.len() >= 16 {
                        break;
                    }
                }
            }
        }
        input.drain(..consumed);
        if closed {
            return Ok(());
        }
        let idle = tokio::time::sleep(s.cfg.idle_timeout);
        tokio::select! {
            r = reader.read(&mut buf), if pending.len() < 16 => {
                let n = r?;
                if n == 0 {
                    if let Some(t) = s.transfer.take() { t.abort(); }
                    return Ok(());
                }
                input.extend_from_slice(&buf[..n]);
            }
            done = async { match s.transfer.as_mut() { Some(t) => t.await, None => std::future::pending().await } } => {
                s.transfer = None;
                let r = match done {
                    Ok(Ok(n)) => {
                        s.log_transfer(n, true);
                        s.r(ReplyCode::CLOSING_DATA, Msg::TransferComplete)
                    }
                    Ok(Err((code, msg))) => {
                        s.log_transfer(0, false);
                        s.r(code, msg)
                    }
                    Err(_) => {
                        s.log_transfer(0, false);
                        s.r(ReplyCode::TRANSFER_ABORTED, Msg::TransferAborted)
                    }
                };
                s.send(&r).await?;
            }
            _ = idle, if s.transfer.is_none() => {
                s.send(&s.r(ReplyCode::UNAVAILABLE, Msg::Idle)).await?;
                return Ok(());
            }
            _ = shutdown.recv() => {
                // Let a running transfer finish (the server bounds the wait).
                if let Some(t) = s.transfer.take() {
                    let r = match t.await {
                        Ok(Ok(_)) => s.r(ReplyCode::CLOSING_DATA, Msg::TransferComplete),
                        _ => s.r(ReplyCode::TRANSFER_ABORTED, Msg::TransferAborted),
                    };
                    s.send(&r).await?;
                }
                s.send(&s.r(ReplyCode::UNAVAILABLE, Msg::ShuttingDown)).await?;
                return Ok(());
            }
        }
    }
}

impl Session {
    /// The text of a message in the session's language.
    fn t(&self, msg: Msg) -> String {
        msg.render(&self.catalogs, self.lang)
    }

    /// A single-line reply in the session's language.
    fn r(&self, code: ReplyCode, msg: Msg) -> Reply {
        Reply::new(code, self.t(msg))
    }

    fn denied(&self) -> Reply {
        self.r(ReplyCode::FILE_UNAVAILABLE, Msg::PermissionDenied)
    }

    fn io_reply(&self, e: &io::Error) -> Reply {
        let (code, msg) = io_status(e);
        self.r(code, msg)
    }

    async fn send(&mut self, r: &Reply) -> io::Result<()> {
        self.writer.write_all(&r.to_bytes()).await
    }

    fn logged_in(&self) -> bool {
        matches!(self.login, Login::LoggedIn { .. })
    }

    fn may_write(&self) -> bool {
        matches!(self.login, Login::LoggedIn { write: true, .. })
    }

    fn path(&self, p: &WirePath) -> VPath {
        self.cwd.join(&self.wire_in(p.as_bytes()))
    }

    /// HOST (RFC 7151 3): before login, selects a virtual host, its root
    /// and its default language; an unknown name is 504. With no virtual
    /// hosts configured any name is accepted.
    fn host(&mut self, name: &[u8]) -> Reply {
        if self.logged_in() || matches!(self.login, Login::AwaitPass { .. }) {
            return self.r(ReplyCode::BAD_SEQUENCE, Msg::HostAfterLogin);
        }
        // A client that sends HOST is a new client (A.2): UTF-8.
        self.legacy_active = false;
        if !self.hosts.is_empty() {
            let Some(h) = self.hosts.iter().find(|h| h.name.as_bytes().eq_ignore_ascii_case(name)) else {
                return self.r(ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::HostUnknown);
            };
            self.base = h.storage.clone();
            self.storage = self.base.clone();
            self.default_lang = h.lang;
        }
        self.cwd = VPath::root();
        // A new host starts over, language included.
        self.lang = self.default_lang;
        self.r(ReplyCode::READY, Msg::HostOk)
    }

    /// A pathname from the client as the storage sees it: UTF-8 from a
    /// legacy client's charset while that layer is on (RFC 2640 A.2).
    fn wire_in<'a>(&self, bytes: &'a [u8]) -> std::borrow::Cow<'a, [u8]> {
        match self.legacy {
            Some(cs) if self.legacy_active => babelftp_i18n::names::legacy_in(bytes, cs),
            _ => std::borrow::Cow::Borrowed(bytes),
        }
    }

    /// A pathname for the client: back into a legacy client's charset
    /// while that layer is on.
    fn wire_out(&self, name: &[u8]) -> Vec<u8> {
        match self.legacy {
            Some(cs) if self.legacy_active => babelftp_i18n::names::legacy_out(name, cs).into_owned(),
            _ => name.to_vec(),
        }
    }

    /// A command line while a transfer runs.
    async fn during_transfer(&mut self, line: Vec<u8>, pending: &mut VecDeque<Vec<u8>>) -> io::Result<Flow> {
        match Command::parse(&line) {
            Ok(Command::Abor) => {
                if let Some(t) = self.transfer.take() {
                    t.abort();
                    let _ = t.await;
                }
                self.log_transfer(0, false);
                self.send(&self.r(ReplyCode::TRANSFER_ABORTED, Msg::TransferAborted))
                    .await?;
                self.send(&self.r(ReplyCode::CLOSING_DATA, Msg::AbortOk)).await?;
                Ok(Flow::Continue)
            }
            Ok(Command::Quit) => {
                if let Some(t) = self.transfer.take() {
                    t.abort();
                }
                self.send(&self.r(ReplyCode::CLOSING, Msg::Goodbye)).await?;
                Ok(Flow::Close)
            }
            Ok(Command::Stat(None)) => {
                let r = self.status();
                self.send(&r).await?;
                Ok(Flow::Continue)
            }
            _ => {
                pending.push_back(line);
                Ok(Flow::Continue)
            }
        }
    }

    /// One command line.
    async fn line(&mut self, line: &[u8]) -> io::Result<Flow> {
        let cmd = match Command::parse(line) {
            Ok(c) => c,
            Err(e) => {
                let msg = match &e {
                    ParseError::Empty | ParseError::Garbage => Msg::SyntaxError,
                    ParseError::Unknown(_) => Msg::UnknownCommand,
                    ParseError::UnsupportedParameter(_) => Msg::ParameterNotImplemented,
                    ParseError::UnsupportedProtocol(_) => Msg::ProtocolNotSupported,
                    ParseError::BadArgument(Verb::Lang, _) => Msg::LangMalformed,
                    _ => Msg::ArgumentError,
                };
                tracing::debug!(peer = %self.peer, error = %e, "bad command");
                self.send(&self.r(e.code(), msg)).await?;
                return Ok(Flow::Continue);
            }
        };
        tracing::debug!(peer = %self.peer, command = %cmd, "command");
        if cmd.verb().needs_login() && !self.logged_in() {
            self.send(&self.r(ReplyCode::NOT_LOGGED_IN, Msg::NotLoggedIn)).await?;
            return Ok(Flow::Continue);
        }
        // RNFR must be followed by RNTO, REST by a transfer (RFC 959 5.4,
        // RFC 3659 5.3): anything else drops the pending state.
        if !matches!(cmd, Command::Rnto(_)) {
            self.rnfr.take();
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
        let r = self.command(cmd).await;
        match r {
            Ok(Some(reply)) => {
                let close = reply.code == ReplyCode::CLOSING;
                self.send(&reply).await?;
                Ok(if close { Flow::Close } else { Flow::Continue })
            }
            Ok(None) => Ok(Flow::Continue),
            Err(e) => {
                self.send(&self.io_reply(&e)).await?;
                Ok(Flow::Continue)
            }
        }
    }

    /// Runs a command; `Ok(None)` when it already replied (transfers).
    async fn command(&mut self, cmd: Command) -> io::Result<Option<Reply>> {
        use Command as C;
        Ok(Some(match cmd {
            C::User(name) => self.user(name),
            C::Pass(pw) => self.pass(pw).await,
            C::Acct(_) => self.r(ReplyCode::SUPERFLUOUS, Msg::AccountNotNeeded),
            C::Quit => self.r(ReplyCode::CLOSING, Msg::Goodbye),
            C::Rein => {
                self.login = Login::AwaitUser;
                self.storage = self.base.clone();
                self.cwd = VPath::root();
                self.ttype = TransferType::Ascii;
                self.data = DataSetup::None;
                self.epsv_all = false;
                self.mlst_facts = MLST_FACTS.to_vec();
                // RFC 2640 4.1: REIN returns to the default language; RFC
                // 7151: and to the default host.
                self.base = self.server_root.clone();
                self.storage = self.base.clone();
                self.default_lang = self.catalogs.default_lang();
                self.lang = self.default_lang;
                self.legacy_active = self.legacy.is_some();
                self.r(ReplyCode::READY, Msg::Greeting)
            }
            C::Noop => self.r(ReplyCode::OK, Msg::Ok),
            C::Syst => self.r(ReplyCode::SYSTEM_TYPE, Msg::SystemType),
            C::Feat => self
                .features()
                .reply(self.t(Msg::Features).as_bytes(), self.t(Msg::End).as_bytes()),
            C::Help(_) => self.help(),
            C::Stat(None) => self.status(),
            C::Stat(Some(p)) => self.stat_path(&p).await?,
            C::Opts(name, params) => self.opts(&name, params.as_deref()),
            C::Lang(tag) => self.lang(tag),
            C::Host(name) => self.host(&name),
            C::Type(t) => {
                self.ttype = t;
                self.r(
                    ReplyCode::OK,
                    Msg::TypeSet(match t {
                        TransferType::Ascii => "A",
                        TransferType::Image => "I",
                    }),
                )
            }
            C::Stru(Structure::File) => self.r(ReplyCode::OK, Msg::StruOk),
            C::Stru(_) => self.r(ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::ParameterNotImplemented),
            C::Mode(TransferMode::Stream) => self.r(ReplyCode::OK, Msg::ModeOk),
            C::Mode(_) => self.r(ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::ParameterNotImplemented),
            C::Allo(_) => self.r(ReplyCode::SUPERFLUOUS, Msg::Superfluous),
            C::Pwd => {
                let mut text = WirePath::new(self.wire_out(&self.cwd.to_bytes())).quote_257();
                text.push(b' ');
                text.extend_from_slice(self.t(Msg::IsCurrentDirectory).as_bytes());
                Reply::new(ReplyCode::PATH_CREATED, text)
            }
            C::Cwd(p) => self.cwd_to(self.path(&p)).await,
            C::Cdup => self.cwd_to(self.cwd.parent()).await,
            C::Mkd(p) => {
                if !self.may_write() {
                    return Ok(Some(self.denied()));
                }
                let target = self.path(&p);
                let st = self.storage.clone();
                let t = target.clone();
                blocking(move || st.mkdir(&t)).await?;
                let mut text = WirePath::new(self.wire_out(&target.to_bytes())).quote_257();
                text.push(b' ');
                text.extend_from_slice(self.t(Msg::Created).as_bytes());
                Reply::new(ReplyCode::PATH_CREATED, text)
            }
            C::Rmd(p) => {
                if !self.may_write() {
                    return Ok(Some(self.denied()));
                }
                let t = self.path(&p);
                let st = self.storage.clone();
                blocking(move || st.rmdir(&t)).await?;
                self.r(ReplyCode::FILE_ACTION_OK, Msg::Removed)
            }
            C::Dele(p) => {
                if !self.may_write() {
                    return Ok(Some(self.denied()));
                }
                let t = self.path(&p);
                let st = self.storage.clone();
                blocking(move || st.remove_file(&t)).await?;
                self.r(ReplyCode::FILE_ACTION_OK, Msg::Deleted)
            }
            C::Rnfr(p) => {
                if !self.may_write() {
                    return Ok(Some(self.denied()));
                }
                let t = self.path(&p);
                let st = self.storage.clone();
                let t2 = t.clone();
                blocking(move || st.stat(&t2)).await?;
                self.rnfr = Some(t);
                self.r(ReplyCode::PENDING, Msg::RenamePending)
            }
            C::Rnto(p) => {
                let Some(from) = self.rnfr.take() else {
                    return Ok(Some(self.r(ReplyCode::BAD_SEQUENCE, Msg::BadSequence)));
                };
                let to = self.path(&p);
                let st = self.storage.clone();
                blocking(move || st.rename(&from, &to)).await?;
                self.r(ReplyCode::FILE_ACTION_OK, Msg::Renamed)
            }
            C::Rest(n) => {
                self.rest = Some(n);
                self.r(ReplyCode::PENDING, Msg::RestartPending(n))
            }
            C::Size(p) => {
                let t = self.path(&p);
                let st = self.storage.clone();
                let e = blocking(move || st.stat(&t)).await?;
                if e.kind != EntryKind::File {
                    self.r(ReplyCode::FILE_UNAVAILABLE, Msg::NotAFile)
                } else {
                    Reply::new(ReplyCode::FILE_STATUS, e.size.to_string())
                }
            }
            C::Mdtm(p) => {
                let t = self.path(&p);
                let st = self.storage.clone();
                let e = blocking(move || st.stat(&t)).await?;
                match (e.kind, e.modified) {
                    (EntryKind::File, Some(m)) => {
                        Reply::new(ReplyCode::FILE_STATUS, listing::Civil::from_unix(m).time_val())
                    }
                    _ => self.r(ReplyCode::FILE_UNAVAILABLE, Msg::NotAFile),
                }
            }
            C::Mlst(p) => self.mlst(p).await?,
            C::Pasv => self.pasv(false).await,
            C::Epsv(EpsvArg::All) => {
                self.epsv_all = true;
                self.r(ReplyCode::OK, Msg::EpsvAllOk)
            }
            C::Epsv(EpsvArg::Protocol(n)) if (n == 1) != self.local.is_ipv4() => {
                self.r(ReplyCode::PROTOCOL_NOT_SUPPORTED, Msg::ProtocolNotSupported)
            }
            C::Epsv(_) => self.pasv(true).await,
            C::Port(addr) => self.active(SocketAddr::V4(addr)),
            C::Eprt(addr) => self.active(addr),
            C::Retr(p) => return self.retr(p).await.map(|()| None),
            C::Stor(p) => return self.stor(Some(p), WriteMode::Replace).await.map(|()| None),
            C::Appe(p) => return self.stor(Some(p), WriteMode::Append).await.map(|()| None),
            C::Stou(p) => return self.stor(p, WriteMode::CreateNew).await.map(|()| None),
            C::List(p) => return self.list(p, ListKind::List).await.map(|()| None),
            C::Nlst(p) => return self.list(p, ListKind::Nlst).await.map(|()| None),
            C::Mlsd(p) => return self.list(p, ListKind::Mlsd).await.map(|()| None),
            C::Abor => self.r(ReplyCode::DATA_OPEN, Msg::NoTransfer),
            C::Site(_) | C::Auth(_) | C::Pbsz(_) | C::Prot(_) | C::Ccc => {
                self.r(ReplyCode::NOT_IMPLEMENTED, Msg::UnknownCommand)
            }
        }))
    }

    async fn cwd_to(&mut self, target: VPath) -> Reply {
        let st = self.storage.clone();
        let t = target.clone();
        let ok = blocking(move || Ok(st.is_dir(&t))).await.unwrap_or(false);
        if ok {
            self.cwd = target;
            self.r(ReplyCode::FILE_ACTION_OK, Msg::CwdOk)
        } else {
            self.r(ReplyCode::FILE_UNAVAILABLE, Msg::NotADirectory)
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ListKind {
    List,
    Nlst,
    Mlsd,
}

/// Whether an upload failed on the storage side (disk full) rather than on
/// the network.
fn is_storage_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded | io::ErrorKind::ReadOnlyFilesystem
    )
}

/// Ends a download: close the data connection cleanly.
async fn finish(r: io::Result<u64>, mut stream: TcpStream) -> TransferResult {
    match r {
        Ok(n) => {
            let _ = stream.shutdown().await;
            Ok(n)
        }
        Err(_) => Err((ReplyCode::TRANSFER_ABORTED, Msg::TransferAborted)),
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

/// RFC 3659 7.5.5: what this session may do with an entry.
fn perm_fact(kind: EntryKind, write: bool) -> String {
    match (kind, write) {
        (EntryKind::Dir, true) => "cdeflmp",
        (EntryKind::Dir, false) => "el",
        (_, true) => "adfrw",
        (_, false) => "r",
    }
    .into()
}

fn display_fact(f: &str) -> String {
    if f == "unix.mode" {
        "UNIX.mode".into()
    } else {
        f.to_string()
    }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}
