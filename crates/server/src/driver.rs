//! The tokio driver of one control connection: sockets, storage, clock and
//! TLS-free bytes around the sans-IO [`ServerSession`].
//!
//! One task per session. It reads control bytes into the session, writes
//! the session's output (with a timeout: a client that never reads is
//! dropped), runs the operations the session asks for on the blocking
//! pool, and runs at most one transfer task, which ends with the session:
//! the session never closes while a transfer is outstanding, and the
//! driver aborts any leftover before it returns.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use babelftp_proto::listing::{self, Entry, EntryKind};
use babelftp_proto::reply::{Reply, ReplyCode};
use babelftp_session::{
    Action, DataEvent, DataSource, ListFormat, Msg, NoConnection, Op, OpOk, OpResult, Outcome, ServerSession,
    SessionConfig, TransferKind, TransferSpec, VPath, WriteMode,
};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadHalf, WriteHalf};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::config::Config;
use crate::data::{self, DataError};
use crate::storage::{DirEntries, ReadHandle, Storage, Upload};
use crate::xferlog::{XferEntry, XferLog};
use babelftp_i18n::lang::Catalogs;

/// What every session of a server shares.
pub(crate) struct Shared {
    pub(crate) cfg: Arc<Config>,
    pub(crate) session: Arc<SessionConfig>,
    /// The server root.
    pub(crate) root: Arc<dyn Storage>,
    /// Virtual hosts' roots, in the order of `session.hosts`.
    pub(crate) hosts: Vec<Arc<dyn Storage>>,
    pub(crate) xferlog: Option<Arc<XferLog>>,
    /// FTPS, when the server has a certificate.
    pub(crate) tls: Option<crate::tls::Tls>,
    /// How many argon2 verifications may run at once (one per core): a
    /// flood of logins cannot take the blocking pool from other sessions'
    /// storage calls.
    pub(crate) hashing: Arc<tokio::sync::Semaphore>,
    /// The named users: `cfg.users` at start, replaced whole by
    /// [`crate::Users::replace`] (SIGHUP). A login reads one snapshot.
    pub(crate) users: crate::Users,
    pub(crate) metrics: Arc<crate::metrics::Metrics>,
    /// Passive ports each client address holds (`Config::passive_cap`).
    pub(crate) passive_holds: PassiveHolds,
    /// Transfers running in the whole server (what a stop waits for).
    pub(crate) transfers: Transfers,
}

/// How many transfers run in the server.
#[derive(Debug, Default, Clone)]
pub(crate) struct Transfers(Arc<std::sync::atomic::AtomicUsize>);

/// One running transfer, counted until dropped.
#[derive(Debug)]
struct Counted(Transfers);

impl Transfers {
    fn start(&self) -> Counted {
        self.0.fetch_add(1, Ordering::Relaxed);
        Counted(self.clone())
    }

    pub(crate) fn running(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        (self.0).0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// How many passive ports each client address holds: a few sessions from
/// one address cannot take a small `passive_ports` range from everyone.
#[derive(Debug, Default, Clone)]
pub(crate) struct PassiveHolds(Arc<std::sync::Mutex<std::collections::HashMap<IpAddr, usize>>>);

/// One passive port held; dropping it gives the address's slot back.
#[derive(Debug)]
struct Hold {
    holds: PassiveHolds,
    ip: IpAddr,
}

impl PassiveHolds {
    fn hold(&self, ip: IpAddr, cap: usize) -> Option<Hold> {
        let ip = ip.to_canonical();
        let mut g = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let n = g.entry(ip).or_insert(0);
        if *n >= cap {
            return None;
        }
        *n += 1;
        Some(Hold {
            holds: self.clone(),
            ip,
        })
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        let mut g = self.holds.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = g.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                g.remove(&self.ip);
            }
        }
    }
}

/// The control connection: plain TCP (read by [`Control::read`], which
/// copes with urgent data), or TLS after AUTH or on an implicit listener.
enum Control {
    Plain(OwnedReadHalf, OwnedWriteHalf),
    Tls(ReadHalf<ServerTls>, WriteHalf<ServerTls>),
    Gone,
}

type ServerTls = tokio_rustls::server::TlsStream<TcpStream>;

/// How much one read of a control connection takes.
const CONTROL_READ: usize = 4096;

thread_local! {
    /// The buffer plain control connections are read into, one per worker
    /// thread: an idle session holds no read buffer of its own (4 KiB each
    /// otherwise, most of an idle session's memory).
    static CONTROL_BUF: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0u8; CONTROL_READ]);
}

impl Control {
    /// What the client sent next (empty at its FIN).
    async fn read(&mut self) -> io::Result<Vec<u8>> {
        match self {
            Control::Plain(rd, _) => {
                let stream = rd.as_ref();
                // Not `AsyncReadExt::read`: tokio clears a socket's
                // readiness after a short read, taking the buffer as
                // drained, but the kernel also ends a read early at the
                // urgent mark (RFC 959 4.1.3's Synch; `ftplib`'s `abort()`
                // marks the LF of `ABOR\r\n` urgent). The octet after the
                // mark would then wait for more data that never comes.
                // `async_io` waits for readiness only when the read itself
                // says `WouldBlock`. The wait holds no buffer; the read goes
                // into this thread's buffer and is copied out, as long as
                // it is.
                stream
                    .async_io(tokio::io::Interest::READABLE, || {
                        CONTROL_BUF.with_borrow_mut(|buf| {
                            crate::sockopt::try_read_control(stream, buf).map(|n| buf[..n].to_vec())
                        })
                    })
                    .await
            }
            Control::Tls(rd, _) => {
                let mut buf = vec![0u8; CONTROL_READ];
                let n = rd.read(&mut buf).await?;
                buf.truncate(n);
                Ok(buf)
            }
            Control::Gone => Ok(Vec::new()),
        }
    }

    async fn write_all(&mut self, data: &[u8]) -> io::Result<()> {
        match self {
            Control::Plain(_, wr) => wr.write_all(data).await,
            Control::Tls(_, wr) => {
                wr.write_all(data).await?;
                wr.flush().await
            }
            Control::Gone => Err(io::ErrorKind::NotConnected.into()),
        }
    }

    async fn shutdown(&mut self) {
        let r = match self {
            Control::Plain(_, wr) => tokio::time::timeout(Duration::from_secs(1), wr.shutdown()).await,
            // close_notify, then FIN.
            Control::Tls(_, wr) => tokio::time::timeout(Duration::from_secs(1), wr.shutdown()).await,
            Control::Gone => return,
        };
        let _ = r;
    }

    /// AUTH TLS: the rest of this connection is TLS, with `cfg`.
    async fn start_tls(&mut self, cfg: Arc<rustls::ServerConfig>, timeout: Duration) -> io::Result<()> {
        let Control::Plain(rd, wr) = std::mem::replace(self, Control::Gone) else {
            return Err(io::ErrorKind::InvalidInput.into());
        };
        let stream = rd.reunite(wr).map_err(|e| io::Error::other(e.to_string()))?;
        let tls = accept_tls(cfg, stream, timeout).await?;
        let (r, w) = tokio::io::split(tls);
        *self = Control::Tls(r, w);
        Ok(())
    }

    /// REIN after AUTH TLS (RFC 4217 13): close_notify, then the client's
    /// close_notify, and the connection goes on in clear. The client's
    /// records are read one at a time, header first, so not one octet of
    /// the plaintext behind its close_notify is taken into TLS. A client
    /// that sends no close_notify is known by its first octet: every TLS
    /// record starts with a content type of 20–24, which no FTP command
    /// does. Application data the client sent before its close_notify is
    /// dropped unread, like plaintext behind AUTH TLS.
    async fn end_tls(&mut self) -> io::Result<()> {
        let Control::Tls(r, w) = std::mem::replace(self, Control::Gone) else {
            return Err(io::ErrorKind::InvalidInput.into());
        };
        let mut tls = r.unsplit(w);
        let (tcp, conn) = tls.get_mut();
        conn.send_close_notify();
        let mut out = Vec::new();
        while conn.wants_write() {
            conn.write_tls(&mut out)?;
        }
        tcp.write_all(&out).await?;
        let mut sink = [0u8; 4096];
        loop {
            let state = conn.process_new_packets().map_err(io::Error::other)?;
            // Drop whatever plaintext came before the close_notify.
            while let Ok(n) = std::io::Read::read(&mut conn.reader(), &mut sink) {
                if n == 0 {
                    break;
                }
            }
            if state.peer_has_closed() {
                break;
            }
            let mut head = [0u8; 5];
            if tcp.peek(&mut head[..1]).await? == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            if !(20..=24).contains(&head[0]) {
                // Plaintext already: the client skipped its close_notify.
                break;
            }
            tcp.read_exact(&mut head).await?;
            let len = usize::from(u16::from_be_bytes([head[3], head[4]]));
            // RFC 8446 5.2: a protected record is at most 2^14 + 256.
            if len > (1 << 14) + 256 {
                return Err(io::Error::new(io::ErrorKind::InvalidData, "oversized TLS record"));
            }
            let mut record = vec![0u8; 5 + len];
            record[..5].copy_from_slice(&head);
            tcp.read_exact(&mut record[5..]).await?;
            let mut rd = &record[..];
            while !rd.is_empty() {
                conn.read_tls(&mut rd)?;
            }
        }
        let (tcp, _) = tls.into_inner();
        let (rd, wr) = tcp.into_split();
        *self = Control::Plain(rd, wr);
        Ok(())
    }
}

/// What an operation changes in the tree, for the log: its name and the
/// path as text (`None` for what only reads).
fn describe_change(op: &Op) -> Option<(&'static str, String)> {
    let text = |p: &babelftp_session::VPath| babelftp_proto::display::PlainPath(&p.to_bytes()).to_string();
    match op {
        Op::Mkdir(p) => Some(("MKD", text(p))),
        Op::Rmdir(p) => Some(("RMD", text(p))),
        Op::RemoveFile(p) => Some(("DELE", text(p))),
        Op::Chmod { path, mode } => Some(("SITE CHMOD", format!("{} {mode:o}", text(path)))),
        Op::SetModified { path, time } => Some((
            "MFMT",
            format!(
                "{} {}",
                text(path),
                babelftp_proto::listing::Civil::from_unix(*time).time_val()
            ),
        )),
        Op::Rename { from, to } => Some(("rename", format!("{} -> {}", text(from), text(to)))),
        _ => None,
    }
}

/// What a plain control connection showed at the end of an upload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ControlNow {
    /// Nothing since the last read: the client may be alive and waiting
    /// for its reply, or killed with its control FIN not yet sent.
    Quiet,
    /// The client sent something: it is alive.
    Heard,
    /// FIN or reset: the client is gone (the session has been told).
    Gone,
    /// Not a plain connection (TLS: a cut upload is told by its missing
    /// close_notify; the TLS layer cannot be read without waiting), or
    /// the session takes no input now.
    Unknown,
}

/// Feeds the session what the control connection holds right now,
/// without waiting: commands, or the end of a client that is gone (FIN or
/// reset: `handle_control_closed`). Plain control connections only.
///
/// The window this leaves: a killed client's kernel releases its sockets
/// one after the other (often the data socket first, as seen here), so its
/// control FIN reaches us within microseconds of its data FIN unless the
/// dying process is descheduled in between. When the control connection
/// is [`ControlNow::Quiet`], the caller waits up to `upload_end_wait` (10 ms by default)
/// for any octet or the FIN, whichever comes first. Only a control FIN
/// later than that still lets a killed client's upload commit (1 ms was
/// not enough on 2 busy cores: 1 kill in 40; 10 ms: 0 in 120). A client
/// that sends its next command (or a NOOP) as soon as its data connection
/// is closed, as ours does, ends the wait at once; one whose octets came in
/// before the data's end (the two race here) skips it.
fn control_now(control: &Control, sess: &mut ServerSession) -> ControlNow {
    let Control::Plain(rd, _) = control else {
        return ControlNow::Unknown;
    };
    let mut now = ControlNow::Unknown;
    while sess.wants_input() {
        let read = CONTROL_BUF
            .with_borrow_mut(|buf| crate::sockopt::try_read_control(rd.as_ref(), buf).map(|n| buf[..n].to_vec()));
        match read {
            Ok(b) if b.is_empty() => {
                sess.handle_control_closed(Instant::now());
                return ControlNow::Gone;
            }
            Ok(b) => {
                sess.handle_input(Instant::now(), &b);
                now = ControlNow::Heard;
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                return if now == ControlNow::Heard {
                    now
                } else {
                    ControlNow::Quiet
                };
            }
            Err(_) => {
                sess.handle_control_closed(Instant::now());
                return ControlNow::Gone;
            }
        }
    }
    now
}

/// A TLS handshake as the server, bounded in time (a client that starts
/// one and stalls holds nothing for long).
async fn accept_tls(cfg: Arc<rustls::ServerConfig>, stream: TcpStream, timeout: Duration) -> io::Result<ServerTls> {
    match tokio::time::timeout(timeout, tokio_rustls::TlsAcceptor::from(cfg).accept(stream)).await {
        Ok(r) => r,
        Err(_) => Err(io::ErrorKind::TimedOut.into()),
    }
}

/// Answers a connection over the limits with 421 and closes it.
pub(crate) async fn refuse(mut stream: TcpStream, catalogs: &Catalogs) {
    let text = Msg::TooManyConnections.render(catalogs, catalogs.default_lang());
    let r = Reply::new(ReplyCode::UNAVAILABLE, text);
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.write_all(&r.to_bytes())).await;
    let _ = stream.shutdown().await;
}

/// The running transfer, as the driver holds it.
struct Running {
    id: u64,
    task: Task,
    progress: Arc<AtomicU64>,
    /// The commit decision for an upload.
    decide: Option<oneshot::Sender<bool>>,
    /// What the task reports (made per transfer: an idle session holds no
    /// channel).
    events: mpsc::UnboundedReceiver<DataEvent>,
    /// The client sent something on the control connection while this
    /// transfer ran: it was alive after its 150 (see [`control_now`]).
    heard: bool,
    /// Its place in the server's count of running transfers.
    _counted: Counted,
}

/// A transfer task that is aborted when dropped: if the session's own task
/// is cut (the server's shutdown backstop), its transfer goes with it
/// rather than running on detached.
struct Task(Option<JoinHandle<()>>);

impl Task {
    /// Waits for the task to end.
    async fn join(mut self) {
        if let Some(h) = self.0.take() {
            let _ = h.await;
        }
    }

    /// Cancels the task and waits until it has stopped.
    async fn cancel(mut self) {
        if let Some(h) = self.0.take() {
            h.abort();
            let _ = h.await;
        }
    }
}

impl Drop for Task {
    fn drop(&mut self) {
        if let Some(h) = self.0.take() {
            h.abort();
        }
    }
}

/// A passive listener whose data connection is taken as soon as it comes:
/// accepted (from the control peer only, see [`data::accept_passive`]) and,
/// when PROT P was in effect at PASV/EPSV, its TLS handshake answered at
/// once, before the transfer command. curl 7.88 waits for that handshake to
/// finish before it reads the replies to TYPE, SIZE and RETR; a server that
/// answers the handshake only at RETR (vsftpd, ProFTPD, Pure-FTPd) costs
/// each curl FTPS transfer 0.2-1.2 s of waiting for its poll timeout.
struct Passive {
    /// The connection is to speak TLS (PROT P at PASV/EPSV).
    tls: bool,
    ready: oneshot::Receiver<Early>,
    /// Aborted, with the listener and any connection it holds, when the
    /// passive setup is replaced or released, or the session ends.
    _task: Task,
    /// This address's slot (`Config::passive_cap`), given back with it.
    _hold: Hold,
}

/// A data connection taken early.
enum Early {
    Plain(TcpStream),
    Tls(Box<EarlyTls>),
    /// The TLS handshake failed (garbage, a stall, a plaintext client).
    TlsFailed(io::Error),
    Failed(io::Error),
}

/// A data connection whose TLS handshake was answered up to the client's
/// Finished (or to its end): see [`crate::tls::answer_handshake`].
struct EarlyTls {
    stream: TcpStream,
    conn: rustls::ServerConnection,
    config: Arc<rustls::ServerConfig>,
    switch: Arc<crate::tls::DataSwitch>,
}

impl EarlyTls {
    async fn answer(tls: &crate::tls::DataTls, stream: TcpStream, timeout: Duration) -> io::Result<EarlyTls> {
        let (config, switch) = tls.connection();
        let mut conn = rustls::ServerConnection::new(config.clone()).map_err(io::Error::other)?;
        match tokio::time::timeout(timeout, crate::tls::answer_handshake(&stream, &mut conn, &switch)).await {
            Ok(r) => r?,
            Err(_) => return Err(io::ErrorKind::TimedOut.into()),
        }
        Ok(EarlyTls {
            stream,
            conn,
            config,
            switch,
        })
    }

    /// Ends the handshake; a download (`ticket`) gives the client one new
    /// TLS 1.3 ticket of this FTP session for its next data connection.
    async fn finish(self, ticket: bool, timeout: Duration) -> io::Result<(ServerTls, Arc<crate::tls::DataSwitch>)> {
        let EarlyTls {
            stream,
            conn,
            config,
            switch,
        } = self;
        if ticket {
            switch.download();
        }
        // tokio-rustls takes the connection where it stands and drives it on.
        let accept = tokio_rustls::TlsAcceptor::from(config).accept_with(stream, move |c| *c = conn);
        match tokio::time::timeout(timeout, accept).await {
            Ok(r) => r.map(|t| (t, switch)),
            Err(_) => Err(io::ErrorKind::TimedOut.into()),
        }
    }
}

impl Passive {
    fn start(
        listener: TcpListener,
        peer: IpAddr,
        proxies: Vec<crate::config::Cidr>,
        tls: Option<crate::tls::DataTls>,
        handshake_timeout: Duration,
        hold: Hold,
    ) -> Passive {
        let (tx, ready) = oneshot::channel();
        let expects_tls = tls.is_some();
        let task = tokio::spawn(crate::logctx::inherit(async move {
            let early = match data::accept_passive(&listener, peer, &proxies).await {
                Err(e) => Early::Failed(e),
                Ok(stream) => {
                    // One connection per PASV: later ones are refused.
                    drop(listener);
                    match tls {
                        None => Early::Plain(stream),
                        Some(tls) => match EarlyTls::answer(&tls, stream, handshake_timeout).await {
                            Ok(t) => Early::Tls(Box::new(t)),
                            Err(e) => Early::TlsFailed(e),
                        },
                    }
                }
            };
            let _ = tx.send(early);
        }));
        Passive {
            tls: expects_tls,
            ready,
            _task: Task(Some(task)),
            _hold: hold,
        }
    }
}

/// What a transfer task moves, once opened.
enum Payload {
    /// A file, and the offset to start from.
    File(ReadHandle, u64),
    /// A listing small enough to be made whole (and sorted).
    Bytes(Vec<u8>),
    /// A listing streamed as the directory is read.
    Listing(Box<Lister>),
    Upload(Box<dyn Upload>),
}

struct Driver {
    shared: Arc<Shared>,
    peer: SocketAddr,
    local: SocketAddr,
    /// The current host's root; `storage` is narrowed to a home at login.
    base: Arc<dyn Storage>,
    storage: Arc<dyn Storage>,
    passive: Option<Passive>,
    transfer: Option<Running>,
    /// This FTP session's TLS for data connections (its own session store).
    data_tls: Option<crate::tls::DataTls>,
}

/// Serves one accepted connection until the session closes.
/// `shutdown` carries the grace period running transfers get.
/// `implicit`: the connection came to an implicit-FTPS listener.
pub(crate) async fn serve(
    stream: TcpStream,
    peer: SocketAddr,
    shared: Arc<Shared>,
    mut shutdown: broadcast::Receiver<Duration>,
    implicit: bool,
) -> io::Result<&'static str> {
    let local = stream.local_addr()?;
    stream.set_nodelay(true)?;
    // SO_OOBINLINE and keepalive come from the listening socket.
    let session_tls = shared.tls.as_ref().map(|t| t.session(peer.ip()));
    let handshake_timeout = shared.cfg.data_timeout;
    let mut control = match (&session_tls, implicit) {
        (Some(t), true) => match accept_tls(t.control.clone(), stream, handshake_timeout).await {
            Ok(tls) => {
                let (r, w) = tokio::io::split(tls);
                Control::Tls(r, w)
            }
            Err(e) => {
                // A plaintext client, a garbage ClientHello, a stall.
                tracing::info!(%peer, error = %e, "implicit FTPS handshake failed");
                return Ok("implicit FTPS handshake failed");
            }
        },
        _ => {
            let (rd, wr) = stream.into_split();
            Control::Plain(rd, wr)
        }
    };
    let mut d = Driver {
        base: shared.root.clone(),
        storage: shared.root.clone(),
        shared: shared.clone(),
        peer,
        local,
        passive: None,
        transfer: None,
        data_tls: session_tls.as_ref().map(|t| t.data.clone()),
    };
    let mut sess = if implicit {
        ServerSession::new_implicit_tls(shared.session.clone(), peer, local, Instant::now())
    } else {
        ServerSession::new(shared.session.clone(), peer, local, Instant::now())
    };
    let mut gauge = crate::metrics::SessionGauge::new(shared.metrics.clone(), sess.language(), sess.client_charset());
    let write_timeout = shared.cfg.stall_timeout;
    let mut shutdown_seen = false;
    // Why the connection ends, when the driver knows better than the
    // session (a failed handshake, a write error, a stalled reader).
    let mut why: Option<&'static str> = None;
    // One timer for the session's whole life, moved to each new deadline.
    // A fresh `sleep_until` per turn of the loop registered a new timer
    // for every command, and a registration can wake the worker parked on
    // the timer wheel (an eventfd write and a context switch per command);
    // moving a registered timer later costs neither.
    // It starts at the session's first deadline: moving it earlier would
    // wake that worker too.
    let first = sess.poll_timeout().map(tokio::time::Instant::from_std);
    let idle =
        tokio::time::sleep_until(first.unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(86_400)));
    tokio::pin!(idle);
    // The user `session_tls` is bound to (see `follow_login`).
    let mut bound: Option<Vec<u8>> = None;
    let result = loop {
        while let Some(a) = sess.poll_action() {
            if a == Action::StartTls {
                // The 234 goes out in clear, then the handshake.
                let n = sess.output().len();
                let sent = tokio::time::timeout(write_timeout, control.write_all(sess.output())).await;
                sess.consume_output(n);
                let cfg = session_tls.as_ref().map(|t| t.control.clone());
                let r = match (sent, cfg) {
                    (Ok(Ok(())), Some(cfg)) => control.start_tls(cfg, handshake_timeout).await,
                    (Ok(Err(e)), _) => Err(e),
                    _ => Err(io::ErrorKind::Unsupported.into()),
                };
                if let Err(e) = r {
                    tracing::info!(%peer, error = %e, "TLS handshake after AUTH failed");
                    why = Some("TLS handshake after AUTH failed");
                    sess.handle_control_closed(Instant::now());
                }
                continue;
            }
            if a == Action::EndTls {
                // The 220 goes out under TLS, then TLS ends.
                let n = sess.output().len();
                let sent = tokio::time::timeout(write_timeout, control.write_all(sess.output())).await;
                sess.consume_output(n);
                let r = match sent {
                    Ok(Ok(())) => match tokio::time::timeout(handshake_timeout, control.end_tls()).await {
                        Ok(r) => r,
                        Err(_) => Err(io::ErrorKind::TimedOut.into()),
                    },
                    Ok(Err(e)) => Err(e),
                    Err(_) => Err(io::ErrorKind::TimedOut.into()),
                };
                if let Err(e) = r {
                    tracing::info!(%peer, error = %e, "ending TLS after REIN failed");
                    why = Some("ending TLS after REIN failed");
                    sess.handle_control_closed(Instant::now());
                }
                continue;
            }
            follow_login(&session_tls, &sess, &mut bound);
            d.act(&mut sess, a).await;
        }
        if !sess.output().is_empty() {
            follow_login(&session_tls, &sess, &mut bound);
            // Replies are going out: what the session did is in the metrics.
            gauge.metrics().tally(&sess.take_tally());
            gauge.update(sess.language(), sess.client_charset());
            let n = sess.output().len();
            match tokio::time::timeout(write_timeout, control.write_all(sess.output())).await {
                Ok(Ok(())) => sess.consume_output(n),
                Ok(Err(e)) => {
                    tracing::debug!(%peer, error = %e, "control connection write failed");
                    why = why.or(Some("control connection write failed"));
                    sess.handle_control_closed(Instant::now());
                }
                Err(_) => {
                    tracing::info!(%peer, "client reads no replies: disconnecting");
                    why = why.or(Some("client reads no replies (stall_timeout)"));
                    sess.handle_control_closed(Instant::now());
                }
            }
            continue;
        }
        if sess.is_closed() {
            break Ok(why.unwrap_or(sess.close_reason()));
        }
        let deadline = sess.poll_timeout().map(tokio::time::Instant::from_std);
        if let Some(t) = deadline {
            if idle.deadline() != t {
                idle.as_mut().reset(t);
            }
        }
        let reading = sess.wants_input();
        tokio::select! {
            r = control.read(), if reading => match r {
                Ok(b) if b.is_empty() => sess.handle_control_closed(Instant::now()),
                Ok(b) => {
                    if let Some(t) = d.transfer.as_mut() {
                        t.heard = true;
                    }
                    sess.handle_input(Instant::now(), &b);
                }
                Err(e) => {
                    tracing::debug!(%peer, error = %e, "control connection read failed");
                    why = why.or(Some("control connection reset or failed"));
                    sess.handle_control_closed(Instant::now());
                }
            },
            Some(ev) = async { match d.transfer.as_mut() { Some(t) => t.events.recv().await, None => std::future::pending().await } } => {
                if matches!(ev, DataEvent::UploadReceived { .. }) {
                    // Is the client still there? A killed client's kernel
                    // ends the data connection with a FIN, like a whole
                    // upload; its control connection's FIN comes at the
                    // same moment. Take in what the control connection
                    // already holds; if it is quiet, wait a moment for the
                    // FIN that may trail the data's (any octet from the
                    // client ends the wait: it is alive), before the
                    // upload may commit.
                    let heard = d.transfer.as_ref().is_some_and(|t| t.heard);
                    if control_now(&control, &mut sess) == ControlNow::Quiet && !heard {
                        match tokio::time::timeout(shared.cfg.upload_end_wait, control.read()).await {
                            Err(_quiet) => {}
                            Ok(Ok(b)) if b.is_empty() => sess.handle_control_closed(Instant::now()),
                            Ok(Ok(b)) => sess.handle_input(Instant::now(), &b),
                            Ok(Err(e)) => {
                                tracing::debug!(%peer, error = %e, "control connection read failed");
                                why = why.or(Some("control connection reset or failed"));
                                sess.handle_control_closed(Instant::now());
                            }
                        }
                    }
                }
                if let DataEvent::Ended { id, .. } = ev {
                    // The task has released everything; let it finish.
                    if let Some(t) = d.transfer.take_if(|t| t.id == id) {
                        t.task.join().await;
                    }
                }
                sess.handle_data(Instant::now(), ev);
            }
            () = &mut idle, if deadline.is_some() => {
                sess.handle_timeout(Instant::now());
            }
            g = shutdown.recv(), if !shutdown_seen => {
                // A later message (a forced stop) moves the deadline
                // sooner; a closed channel is the last word.
                let grace = match g {
                    Ok(g) => g,
                    Err(broadcast::error::RecvError::Lagged(_)) => Duration::ZERO,
                    Err(broadcast::error::RecvError::Closed) => {
                        shutdown_seen = true;
                        Duration::ZERO
                    }
                };
                let now = Instant::now();
                sess.handle_shutdown(now, now + grace);
            }
        }
    };
    // The session closed with nothing outstanding; this is a backstop.
    if let Some(t) = d.transfer.take() {
        t.task.cancel().await;
    }
    // No data connection of this client resumes this session's TLS
    // sessions once the client has seen the control connection close.
    drop(session_tls);
    control.shutdown().await;
    result
}

/// Binds the FTP session's TLS to its client when it logs in, and
/// unbinds it at REIN (see [`crate::tls::SessionTls::bind`]): before each
/// action (a pipelined PASV behind PASS binds a data connection) and each
/// reply (the 230 goes out bound). A comparison of the name when nothing
/// changed.
fn follow_login(tls: &Option<crate::tls::SessionTls>, sess: &ServerSession, bound: &mut Option<Vec<u8>>) {
    let Some(tls) = tls else {
        return;
    };
    let user = sess.logged_in_user();
    if user == bound.as_deref() {
        return;
    }
    tls.bind(user);
    *bound = user.map(<[u8]>::to_vec);
}

impl Driver {
    async fn act(&mut self, sess: &mut ServerSession, a: Action) {
        tracing::trace!(peer = %self.peer, action = ?a, "action");
        match a {
            Action::Op(op) => {
                let change = describe_change(&op);
                // Where a name is created: a refusal names the charset.
                let created = match &op {
                    Op::Mkdir(p) | Op::Rename { to: p, .. } => Some(p.clone()),
                    _ => None,
                };
                let r = self.run_op(op).await;
                if let (Err(io::ErrorKind::InvalidFilename), Some(p)) = (&r, created) {
                    self.name_refused(sess, &p);
                }
                if let Some((what, path)) = change {
                    // Changes to the tree, at INFO, names as text.
                    match &r {
                        Ok(_) => tracing::info!(%path, "{what}"),
                        Err(e) => tracing::info!(%path, error = ?e, "{what} refused"),
                    }
                }
                sess.handle_op(Instant::now(), r);
            }
            Action::SelectRoot(host) => {
                self.base = match host.and_then(|i| self.shared.hosts.get(i)) {
                    Some(h) => h.clone(),
                    None => self.shared.root.clone(),
                };
                self.storage = self.base.clone();
            }
            Action::ReleasePassive => self.passive = None,
            Action::StartTransfer(spec) => self.start_transfer(sess, spec).await,
            Action::Commit(id) | Action::Discard(id) => {
                let commit = matches!(a, Action::Commit(_));
                if let Some(t) = self.transfer.as_mut().filter(|t| t.id == id) {
                    if let Some(tx) = t.decide.take() {
                        let _ = tx.send(commit);
                    }
                }
            }
            Action::AbortTransfer(id) => {
                let Some(t) = self.transfer.take_if(|t| t.id == id) else {
                    return;
                };
                t.task.cancel().await;
                // Events the task sent before it stopped come first; an
                // Ended among them is the truth, else it was cut here.
                let mut ended = false;
                let mut events = t.events;
                while let Ok(ev) = events.try_recv() {
                    ended |= matches!(ev, DataEvent::Ended { id: i, .. } if i == id);
                    sess.handle_data(Instant::now(), ev);
                }
                if !ended {
                    let bytes = t.progress.load(Ordering::Relaxed);
                    sess.handle_data(
                        Instant::now(),
                        DataEvent::Ended {
                            id,
                            bytes,
                            outcome: Outcome::Aborted,
                        },
                    );
                }
            }
            Action::Log(rec) => {
                self.shared.metrics.transfer(rec.incoming, rec.complete, rec.bytes);
                tracing::info!(
                    path = %babelftp_proto::display::PlainPath(&rec.path),
                    bytes = rec.bytes,
                    seconds = rec.seconds,
                    "{} {}",
                    if rec.incoming { "upload" } else { "download" },
                    if rec.complete { "complete" } else { "cut short" }
                );
                if let Some(log) = &self.shared.xferlog {
                    log.write(&XferEntry {
                        seconds: rec.seconds,
                        peer: self.peer.ip(),
                        bytes: rec.bytes,
                        path: &rec.path,
                        ascii: rec.ascii,
                        incoming: rec.incoming,
                        anonymous: rec.anonymous,
                        user: &rec.user,
                        complete: rec.complete,
                    });
                }
            }
            Action::Close => {
                self.passive = None;
            }
            // Handled by `serve`, which owns the control connection.
            Action::StartTls | Action::EndTls => {}
        }
    }

    async fn run_op(&mut self, op: Op) -> OpResult {
        let st = self.storage.clone();
        match op {
            Op::BindPassive { ip, tls } => {
                // The port held before is given back first (a client may
                // send PASV again and again).
                self.passive = None;
                let Some(hold) = self
                    .shared
                    .passive_holds
                    .hold(self.peer.ip(), self.shared.cfg.passive_cap())
                else {
                    tracing::info!(peer = %self.peer, cap = self.shared.cfg.passive_cap(), "passive port refused: this address holds as many as it may (max_passive_per_ip)");
                    return Err(io::ErrorKind::QuotaExceeded);
                };
                match data::bind_passive(ip, self.shared.cfg.passive_ports.as_ref()).await {
                    Ok(l) => {
                        let port = l.local_addr().map_err(|e| e.kind())?.port();
                        let tls = if tls { self.data_tls.clone() } else { None };
                        self.passive = Some(Passive::start(
                            l,
                            self.peer.ip(),
                            self.shared.cfg.proxy_protocol_from.clone(),
                            tls,
                            self.shared.cfg.data_timeout,
                            hold,
                        ));
                        Ok(OpOk::Port(port))
                    }
                    Err(e) => Err(e.kind()),
                }
            }
            Op::VerifyPassword { user, password } => {
                let users = self.shared.users.snapshot();
                let account = |u: &crate::config::User| babelftp_session::Account {
                    home: u.home.clone(),
                    write: u.write,
                };
                let hashed = users.iter().any(|u| u.name == user && u.secret.is_hash());
                // A name that is no account is checked against a decoy as
                // costly as an account's hash: its answer comes no sooner.
                let decoy = match users.iter().any(|u| u.name == user) {
                    true => None,
                    false => users.iter().find(|u| u.secret.is_hash()).map(|u| u.secret.clone()),
                };
                if !hashed && decoy.is_none() {
                    // Clear-text accounts only (--user): a comparison, done
                    // here, without a thread hand-off.
                    let found = users.iter().find(|u| u.name == user && u.secret.verify(&password));
                    return Ok(OpOk::Account(found.map(account)));
                }
                // argon2 costs tens of milliseconds: off the async workers,
                // as many at once as there are cores.
                let Ok(_permit) = self.shared.hashing.clone().acquire_owned().await else {
                    return Err(io::ErrorKind::Other);
                };
                blocking(move || {
                    if let Some(d) = decoy {
                        d.decoy(&password);
                        return Ok(OpOk::Account(None));
                    }
                    let found = users.iter().find(|u| u.name == user && u.secret.verify(&password));
                    Ok(OpOk::Account(found.map(account)))
                })
                .await
            }
            Op::EnterHome(home) => {
                if home.is_root() {
                    // The whole root: nothing to open.
                    self.storage = self.base.clone();
                    return Ok(OpOk::Done);
                }
                let base = self.base.clone();
                let st = blocking(move || base.subdir(&home).map_err(|e| e.kind())).await?;
                self.storage = st;
                Ok(OpOk::Done)
            }
            Op::Stat(p) => blocking(move || st.stat(&p).map(OpOk::Entry).map_err(|e| e.kind())).await,
            Op::IsDir(p) => blocking(move || Ok(OpOk::IsDir(st.is_dir(&p)))).await,
            Op::Entries(p) => {
                blocking(move || {
                    let now = unix_now();
                    entries(&*st, &p)
                        .map(|entries| OpOk::Entries { entries, now })
                        .map_err(|e| e.kind())
                })
                .await
            }
            Op::Mkdir(p) => blocking(move || st.mkdir(&p).map(|()| OpOk::Done).map_err(|e| e.kind())).await,
            Op::Rmdir(p) => blocking(move || st.rmdir(&p).map(|()| OpOk::Done).map_err(|e| e.kind())).await,
            Op::RemoveFile(p) => blocking(move || st.remove_file(&p).map(|()| OpOk::Done).map_err(|e| e.kind())).await,
            Op::Chmod { path, mode } => {
                blocking(move || st.chmod(&path, mode).map(|()| OpOk::Done).map_err(|e| e.kind())).await
            }
            Op::SetModified { path, time } => {
                blocking(move || st.set_modified(&path, time).map(|()| OpOk::Done).map_err(|e| e.kind())).await
            }
            Op::Rename { from, to } => {
                blocking(move || st.rename(&from, &to).map(|()| OpOk::Done).map_err(|e| e.kind())).await
            }
        }
    }

    /// Tells the session the charset a name it asked to create could not
    /// be written in, for its reply.
    fn name_refused(&self, sess: &mut ServerSession, p: &VPath) {
        if let Some(c) = self.storage.name_charset(p) {
            sess.name_refused_in(c);
        }
    }

    /// Opens the source or sink (so a missing file is 550 with no 150),
    /// reports it, then runs the data connection in a task.
    async fn start_transfer(&mut self, sess: &mut ServerSession, spec: TransferSpec) {
        let TransferSpec {
            id,
            source,
            kind,
            ascii,
            tls,
        } = spec;
        let tls = match (tls, &self.data_tls) {
            (false, _) => None,
            (true, Some(cfg)) => Some(cfg.clone()),
            (true, None) => {
                let error = io::ErrorKind::Unsupported;
                sess.handle_data(Instant::now(), DataEvent::OpenFailed { id, error });
                return;
            }
        };
        let st = self.storage.clone();
        let opened = match kind {
            TransferKind::Retr { path, offset } => {
                blocking(move || {
                    st.open_read(&path, offset)
                        .map(|h| (Payload::File(h, offset), None))
                        .map_err(|e| e.kind())
                })
                .await
            }
            TransferKind::Stor { path, mode } => {
                let name = path.clone();
                let r = blocking(move || open_upload(&*st, path, mode)).await;
                if r.as_ref().err() == Some(&io::ErrorKind::InvalidFilename) {
                    self.name_refused(sess, &name);
                }
                r
            }
            TransferKind::List {
                path,
                format,
                write,
                legacy,
            } => {
                let caps = self.shared.session.caps;
                blocking(move || {
                    let fmt = LineFormat::new(format, write, caps, legacy);
                    open_listing(&*st, &path, fmt).map(|p| (p, None)).map_err(|e| e.kind())
                })
                .await
            }
        };
        let (payload, chosen) = match opened {
            Ok(p) => p,
            Err(error) => {
                sess.handle_data(Instant::now(), DataEvent::OpenFailed { id, error });
                return;
            }
        };
        let upload = matches!(payload, Payload::Upload(_));
        let (decide_tx, decide_rx) = oneshot::channel();
        let progress = Arc::new(AtomicU64::new(0));
        let (events_tx, events) = mpsc::unbounded_channel();
        let job = Job {
            id,
            // No passive listener (none bound, or released): 425.
            source: match source {
                DataSource::Passive => self.passive.take().map(Source::Passive),
                DataSource::Active(a) => Some(Source::Active(a)),
            },
            peer: self.peer,
            local: self.local,
            data_timeout: self.shared.cfg.data_timeout,
            stall: self.shared.cfg.stall_timeout,
            ascii,
            tls,
            reuse_required: self.shared.cfg.tls_reuse_required,
            progress: progress.clone(),
            events: events_tx,
            decide: decide_rx,
        };
        let task = Task(Some(tokio::spawn(crate::logctx::inherit(job.run(payload)))));
        self.transfer = Some(Running {
            id,
            task,
            progress,
            decide: upload.then_some(decide_tx),
            events,
            heard: false,
            _counted: self.shared.transfers.start(),
        });
        sess.handle_data(Instant::now(), DataEvent::Opened { id, path: chosen });
    }
}

/// Runs a storage call on the blocking pool.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, io::ErrorKind> + Send + 'static,
) -> Result<T, io::ErrorKind> {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or(Err(io::ErrorKind::Other))
}

/// Opens an upload; STOU takes the first free name of `name`, `name.1`, …
fn open_upload(st: &dyn Storage, path: VPath, mode: WriteMode) -> Result<(Payload, Option<VPath>), io::ErrorKind> {
    if mode != WriteMode::Unique {
        return st
            .open_write(&path, mode)
            .map(|u| (Payload::Upload(u), None))
            .map_err(|e| e.kind());
    }
    let base = path.file_name().unwrap_or(b"file").to_vec();
    for n in 0u32..10_000 {
        let mut name = base.clone();
        if n > 0 {
            name.extend_from_slice(format!(".{n}").as_bytes());
        }
        let candidate = path.parent().join(&name);
        match st.open_write(&candidate, mode) {
            Ok(u) => return Ok((Payload::Upload(u), Some(candidate))),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e.kind()),
        }
    }
    Err(io::ErrorKind::AlreadyExists)
}

/// A directory's entries, or the one entry of a non-directory.
fn entries(st: &dyn Storage, p: &VPath) -> io::Result<Vec<Entry>> {
    let me = st.stat(p)?;
    if me.kind == EntryKind::Dir {
        st.list(p)
    } else {
        Ok(vec![me])
    }
}

/// How many entries a listing gathers before it starts to send: a
/// directory that ends within them is sent sorted by name (as `ls` and
/// Pure-FTPd do); a larger one is streamed in the order the directory is
/// read, so neither the first line nor memory waits for a million entries.
const SORTED_UP_TO: usize = 4096;

/// The size of the chunks a streamed listing is sent in.
const LISTING_CHUNK: usize = 64 * 1024;

/// How a LIST, NLST or MLSD reply writes one entry.
struct LineFormat {
    format: ListFormat,
    write: bool,
    caps: babelftp_session::Capabilities,
    legacy: Option<babelftp_i18n::Charset>,
    /// Seconds since the epoch: LIST's time-or-year column.
    now: i64,
}

/// The wall clock in Unix seconds (0 before 1970).
fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

impl LineFormat {
    fn new(
        format: ListFormat,
        write: bool,
        caps: babelftp_session::Capabilities,
        legacy: Option<babelftp_i18n::Charset>,
    ) -> Self {
        let now = unix_now();
        LineFormat {
            format,
            write,
            caps,
            legacy,
            now,
        }
    }

    fn line(&self, e: &mut Entry, out: &mut Vec<u8>) {
        if let Some(cs) = self.legacy {
            if let std::borrow::Cow::Owned(name) = babelftp_i18n::names::legacy_out(&e.name, cs) {
                e.name = name;
            }
        }
        match &self.format {
            ListFormat::List => listing::list_line(e, self.now, out),
            ListFormat::Nlst => {
                out.extend_from_slice(&e.name);
                out.extend_from_slice(b"\r\n");
            }
            ListFormat::Mlsd(facts) => {
                e.perm = babelftp_session::perm_fact(e.kind, self.write, &self.caps);
                listing::mlsd_line(e, facts, out)
            }
        }
    }
}

/// A listing too large to gather: the entries read so far, the rest of
/// the directory, and how to write them.
struct Lister {
    first: Vec<Entry>,
    rest: DirEntries,
    fmt: LineFormat,
}

impl Lister {
    /// Formats the entries into chunks and hands them to `tx` (blocking:
    /// a storage thread). Stops when the receiver is gone (ABOR, a closed
    /// data connection); a read error mid-way is passed on.
    fn produce(self, tx: &mpsc::Sender<io::Result<Vec<u8>>>) {
        let Lister { first, rest, fmt } = self;
        let mut out = Vec::with_capacity(LISTING_CHUNK + 4096);
        for e in first.into_iter().map(Ok).chain(rest) {
            match e {
                Ok(mut e) => fmt.line(&mut e, &mut out),
                Err(err) => {
                    let _ = tx.blocking_send(Err(err));
                    return;
                }
            }
            if out.len() >= LISTING_CHUNK {
                let chunk = std::mem::replace(&mut out, Vec::with_capacity(LISTING_CHUNK + 4096));
                if tx.blocking_send(Ok(chunk)).is_err() {
                    return;
                }
            }
        }
        if !out.is_empty() {
            let _ = tx.blocking_send(Ok(out));
        }
    }
}

/// Opens a LIST, NLST or MLSD reply: errors (no such directory, MLSD of a
/// file) come here, before 150. A directory that ends within
/// [`SORTED_UP_TO`] entries is made whole and sorted; a larger one is
/// returned to be streamed.
fn open_listing(st: &dyn Storage, p: &VPath, fmt: LineFormat) -> io::Result<Payload> {
    let me = st.stat(p)?;
    let mut out = Vec::new();
    if me.kind != EntryKind::Dir {
        if matches!(fmt.format, ListFormat::Mlsd(_)) {
            return Err(io::Error::from(io::ErrorKind::NotADirectory));
        }
        let mut me = me;
        fmt.line(&mut me, &mut out);
        return Ok(Payload::Bytes(out));
    }
    let mut rest = st.read_dir(p, fmt.format == ListFormat::Nlst)?;
    let mut first = Vec::new();
    for e in rest.by_ref() {
        first.push(e?);
        if first.len() == SORTED_UP_TO {
            return Ok(Payload::Listing(Box::new(Lister { first, rest, fmt })));
        }
    }
    // Names in one directory differ, so an unstable sort gives the same
    // order, without the stable sort's moves of whole entries through a
    // scratch buffer: 11 % of a 1,000-entry NLST's server time in `perf`;
    // server CPU per NLST 17-19 % lower in paired runs.
    first.sort_unstable_by(|a, b| a.name.cmp(&b.name));
    out.reserve(first.len() * 64);
    for e in &mut first {
        fmt.line(e, &mut out);
    }
    Ok(Payload::Bytes(out))
}

/// A transfer task: data connection, bytes, and how it ended.
struct Job {
    id: u64,
    source: Option<Source>,
    peer: SocketAddr,
    local: SocketAddr,
    data_timeout: Duration,
    stall: Duration,
    ascii: bool,
    /// PROT P: TLS on the data connection, with this FTP session's config.
    tls: Option<crate::tls::DataTls>,
    reuse_required: bool,
    progress: Arc<AtomicU64>,
    events: mpsc::UnboundedSender<DataEvent>,
    decide: oneshot::Receiver<bool>,
}

/// Where a transfer's data connection comes from.
enum Source {
    Passive(Passive),
    Active(SocketAddr),
}

/// Why a running transfer stopped early.
enum Cut {
    Io(io::Error),
    Stalled,
}

impl Job {
    async fn run(self, payload: Payload) {
        let (id, events) = (self.id, self.events.clone());
        let (bytes, outcome) = self.transfer(payload).await;
        let _ = events.send(DataEvent::Ended { id, bytes, outcome });
    }

    async fn transfer(mut self, payload: Payload) -> (u64, Outcome) {
        let early = match self.source.take() {
            Some(Source::Active(addr)) => match data::connect_active(addr, self.local.ip(), self.data_timeout).await {
                Ok(s) => Early::Plain(s),
                Err(DataError::Timeout) => return (0, Outcome::NoConnection(NoConnection::Timeout)),
                Err(DataError::Io(e)) => Early::Failed(e),
            },
            // PROT C since a PASV made under PROT P: that connection is
            // to speak TLS, this transfer cannot use it (425 at once, not
            // after its handshake times out).
            Some(Source::Passive(p)) if p.tls && self.tls.is_none() => {
                tracing::info!(peer = %self.peer, "data connection set up under PROT P, transfer under PROT C");
                return (0, Outcome::NoConnection(NoConnection::Failed));
            }
            // The client has until `data_timeout` after the transfer command
            // to connect (and, under PROT P, to answer the handshake).
            Some(Source::Passive(mut p)) => match tokio::time::timeout(self.data_timeout, &mut p.ready).await {
                Err(_) => return (0, Outcome::NoConnection(NoConnection::Timeout)),
                Ok(Ok(e)) => e,
                Ok(Err(_)) => Early::Failed(io::ErrorKind::Other.into()),
            },
            None => return (0, Outcome::NoConnection(NoConnection::Failed)),
        };
        // A download's data connection may give the client a new TLS
        // ticket; an upload's never does (see crate::tls).
        let download = !matches!(payload, Payload::Upload(_));
        let data_tls = self.tls.take();
        let handshake = match (early, data_tls.as_ref()) {
            (Early::Plain(stream), None) => {
                // Binary, no TLS, a local file: the kernel copies (sendfile).
                if let Payload::File(ReadHandle::File(file), offset) = &payload {
                    if !self.ascii {
                        let progress = self.progress.clone();
                        let r = watch(&progress, self.stall, data::sendfile(file, *offset, &stream, &progress)).await;
                        return finish_download(r, stream, &progress).await;
                    }
                }
                return self.move_bytes(stream, payload).await;
            }
            (Early::Failed(e), _) => {
                tracing::debug!(error = %e, "data connection failed");
                return (0, Outcome::NoConnection(NoConnection::Failed));
            }
            // Active mode, or PROT P since a PASV made under PROT C: the
            // whole handshake now, the same way.
            (Early::Plain(stream), Some(tls)) => match EarlyTls::answer(tls, stream, self.data_timeout).await {
                Ok(t) => t.finish(download, self.data_timeout).await,
                Err(e) => Err(e),
            },
            (Early::Tls(t), Some(_)) => t.finish(download, self.data_timeout).await,
            (Early::TlsFailed(e), _) => Err(e),
            // Not reached: a PROT P connection under PROT C is refused
            // above, and active mode gives a plain stream.
            (Early::Tls(_), None) => Err(io::Error::other("a TLS data connection for a clear transfer")),
        };
        let (tls, switch) = match handshake {
            Ok(t) => t,
            Err(e) => {
                tracing::info!(peer = %self.peer, error = %e, "TLS handshake on a data connection failed");
                return (0, Outcome::TlsFailed);
            }
        };
        // RFC 4217 10.2 with the binding vsftpd lacks: the handshake must
        // resume a TLS session of *this client* (the data config finds
        // only this FTP session's, those of the same user's other live
        // sessions from this address, and those of a session from this
        // address that has yet to log in, which `confirm` settles).
        let ours = !self.reuse_required
            || match (&data_tls, tls.get_ref().1.handshake_kind()) {
                (Some(d), Some(rustls::HandshakeKind::Resumed)) => d.confirm(&switch, self.data_timeout).await,
                _ => false,
            };
        if !ours {
            tracing::info!(peer = %self.peer, "data connection did not resume a TLS session of this client");
            // Closed in order (close_notify), so the client reads the 522.
            let mut tls = tls;
            let _ = tokio::time::timeout(Duration::from_secs(1), tls.shutdown()).await;
            return (0, Outcome::TlsNotReused);
        }
        self.move_bytes(tls, payload).await
    }

    /// Moves the bytes over a data connection (plain or TLS).
    async fn move_bytes<S: AsyncRead + AsyncWrite + Unpin>(self, mut stream: S, payload: Payload) -> (u64, Outcome) {
        let progress = self.progress.clone();
        let (ascii, stall) = (self.ascii, self.stall);
        match payload {
            Payload::File(handle, _) => {
                // The handle is already at the REST offset.
                let r = watch(&progress, stall, async {
                    match handle {
                        ReadHandle::File(file) => data::pump_file(file, &mut stream, ascii, &progress).await,
                        ReadHandle::Reader(reader) => data::send_reader(reader, &mut stream, ascii, &progress).await,
                    }
                })
                .await;
                finish_download(r, stream, &progress).await
            }
            Payload::Bytes(out) => {
                let r = watch(&progress, stall, async {
                    stream.write_all(&out).await?;
                    progress.fetch_add(out.len() as u64, Ordering::Relaxed);
                    Ok(out.len() as u64)
                })
                .await;
                finish_download(r, stream, &progress).await
            }
            Payload::Listing(lister) => {
                let (tx, mut rx) = mpsc::channel(2);
                let producer = tokio::task::spawn_blocking(move || lister.produce(&tx));
                let r = watch(&progress, stall, async {
                    let mut n = 0u64;
                    while let Some(chunk) = rx.recv().await {
                        let chunk = chunk?;
                        stream.write_all(&chunk).await?;
                        n += chunk.len() as u64;
                        progress.fetch_add(chunk.len() as u64, Ordering::Relaxed);
                    }
                    Ok(n)
                })
                .await;
                // A producer blocked on a full channel ends when it sees
                // the receiver gone.
                drop(rx);
                drop(producer);
                finish_download(r, stream, &progress).await
            }
            Payload::Upload(upload) => {
                // Over TLS, an end without close_notify is an error here
                // (rustls: unexpected EOF), so a cut upload never commits.
                let r = watch(&progress, stall, data::receive(&mut stream, upload, ascii, &progress)).await;
                if r.is_ok() {
                    // Over TLS: our close_notify answers the client's (ftplib's
                    // unwrap() waits for it); over TCP: our FIN.
                    let _ = tokio::time::timeout(Duration::from_secs(5), stream.shutdown()).await;
                }
                drop(stream);
                let (n, upload) = match r {
                    Ok(v) => v,
                    // A failed or interrupted upload is dropped uncommitted:
                    // a replacing STOR leaves the old file as it was.
                    Err(Cut::Io(e)) if is_storage_error(&e) => {
                        return (progress.load(Ordering::Relaxed), Outcome::Storage(e.kind()))
                    }
                    Err(Cut::Io(_)) => return (progress.load(Ordering::Relaxed), Outcome::Network),
                    Err(Cut::Stalled) => return (progress.load(Ordering::Relaxed), Outcome::Stalled),
                };
                let _ = self.events.send(DataEvent::UploadReceived { id: self.id, bytes: n });
                let commit = self.decide.await.unwrap_or(false);
                let r = tokio::task::spawn_blocking(move || {
                    if commit {
                        upload.commit().map(|()| true)
                    } else {
                        drop(upload);
                        Ok(false)
                    }
                })
                .await;
                match r {
                    Ok(Ok(true)) => (n, Outcome::Complete),
                    Ok(Ok(false)) => (n, Outcome::Aborted),
                    Ok(Err(e)) => (n, Outcome::Storage(e.kind())),
                    Err(_) => (n, Outcome::Storage(io::ErrorKind::Other)),
                }
            }
        }
    }
}

/// Runs `fut`, cutting it when `progress` does not move for `stall` (give
/// or take a quarter of it: progress is looked at four times per period).
async fn watch<T>(
    progress: &AtomicU64,
    stall: Duration,
    fut: impl std::future::Future<Output = io::Result<T>>,
) -> Result<T, Cut> {
    tokio::pin!(fut);
    let tick = (stall / 4).max(Duration::from_millis(50));
    let mut last = progress.load(Ordering::Relaxed);
    let mut since = tokio::time::Instant::now();
    let mut ticks = tokio::time::interval_at(since + tick, tick);
    loop {
        tokio::select! {
            r = &mut fut => return r.map_err(Cut::Io),
            now = ticks.tick() => {
                let p = progress.load(Ordering::Relaxed);
                if p != last {
                    last = p;
                    since = now;
                } else if now.duration_since(since) >= stall {
                    return Err(Cut::Stalled);
                }
            }
        }
    }
}

/// Ends a download: close the data connection cleanly (over TLS, with
/// close_notify first).
async fn finish_download<S: AsyncWrite + Unpin>(
    r: Result<u64, Cut>,
    mut stream: S,
    progress: &AtomicU64,
) -> (u64, Outcome) {
    match r {
        Ok(n) => {
            let _ = tokio::time::timeout(Duration::from_secs(5), stream.shutdown()).await;
            (n, Outcome::Complete)
        }
        Err(Cut::Stalled) => (progress.load(Ordering::Relaxed), Outcome::Stalled),
        Err(Cut::Io(e)) if is_storage_error(&e) => (progress.load(Ordering::Relaxed), Outcome::Storage(e.kind())),
        Err(Cut::Io(_)) => (progress.load(Ordering::Relaxed), Outcome::Network),
    }
}

/// Whether a transfer failed on the storage side (disk full) rather than
/// on the network.
fn is_storage_error(e: &io::Error) -> bool {
    crate::storage::is_storage_failure(e)
        || matches!(
            e.kind(),
            io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded | io::ErrorKind::ReadOnlyFilesystem
        )
}
