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

use babelftp_proto::listing::{Entry, EntryKind};
use babelftp_proto::reply::{Reply, ReplyCode};
use babelftp_session::{
    data_tls_reuse, Action, DataEvent, DataSource, DataTlsReuse, Hostile, Lines, ListRender, Msg, NoConnection, Op,
    OpError, OpOk, OpResult, Outcome, ServerSession, TransferKind, TransferRecord, TransferSpec, VPath,
};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadHalf, WriteHalf};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::data::{self, DataError};
use crate::storage::{DirEntries, ReadHandle, Storage};
use babelftp_core::UserCtx;
use babelftp_i18n::lang::Catalogs;

mod control;
mod events;
mod listings;
mod ops;
pub(crate) use babelftp_core::file_size;
mod hold;
mod passive;
mod transfer;

use control::*;
use hold::Holding;
use listings::*;
use passive::*;
use transfer::*;

pub(crate) use control::{full, refuse};
pub(crate) use passive::PassiveHolds;

/// What every FTP session of a server shares: the services of every
/// door, and the passive ports each client address holds.
pub(crate) struct Shared {
    pub(crate) core: Arc<babelftp_core::Services>,
    /// Passive ports each client address holds (`Config::passive_cap`).
    pub(crate) passive_holds: PassiveHolds,
}

impl std::ops::Deref for Shared {
    type Target = babelftp_core::Services;
    fn deref(&self) -> &babelftp_core::Services {
        &self.core
    }
}

struct Driver {
    shared: Arc<Shared>,
    /// The session's number in this run (its events' session id).
    id: u64,
    /// Who logged in, and when (for the logout event).
    login: Option<(Vec<u8>, Instant)>,
    /// Events of whole uploads (with the path whose size is to be read),
    /// and any behind them, sent once their replies are out.
    deferred: Vec<(crate::events::Event, Option<VPath>)>,
    peer: SocketAddr,
    local: SocketAddr,
    /// The control connection (plain, or TLS after AUTH or on an implicit
    /// listener).
    control: Control,
    /// This FTP session's TLS, when the server has a certificate: its
    /// control configuration, and its binding to the client (see
    /// [`Driver::follow_login`]).
    session_tls: Option<crate::tls::SessionTls>,
    /// The user `session_tls` is bound to (and the admin API shows).
    bound: Option<Vec<u8>>,
    /// Why the connection ends, when the driver knows better than the
    /// session (a failed handshake, a write error, a stalled reader).
    why: Option<&'static str>,
    /// The current host's root; `storage` is narrowed to a home at login.
    base: Arc<dyn Storage>,
    storage: Arc<dyn Storage>,
    /// Boxed, as `transfer`: an idle session holds neither (issue 47).
    passive: Option<Box<Passive>>,
    transfer: Option<Box<Running>>,
    /// This FTP session's TLS for data connections (its own session store).
    data_tls: Option<crate::tls::DataTls>,
    /// The tree of the account whose password was just checked (its home
    /// elsewhere, its virtual folders), built at EnterHome.
    tree: Option<Box<crate::directory::UserTree>>,
    /// The rules of the account whose password was just checked: its tree
    /// holds links to them ([`crate::linkrules`]).
    rules: Option<Arc<babelftp_policy::Rules>>,
    /// The logged-in user's context (its tree, rules, limits and quota),
    /// from EnterHome on.
    user: Option<UserCtx>,
    /// The logged-in user's place among its sessions, with its limits.
    slot: Option<crate::limits::SessionSlot>,
    /// The logged-in account's FTPS data-connection reuse rule (issue
    /// 48; `None`: the server's `tls_reuse_required`).
    tls_reuse: Option<babelftp_accounts::TlsReuse>,
    /// This session's entry among the live ones (the admin API).
    live: crate::live::Registration,
    /// An upload committed before its client showed it reads its 226
    /// ([`hold`]), and the verdict the control connection gave on it.
    held: Option<Box<Holding>>,
    verdict: Option<bool>,
    /// What kept uploads replaced, still to be removed ([`hold`]); boxed:
    /// most sessions never overwrite a file.
    replaced: Option<Box<hold::Replaced>>,
    /// The reply going out answers PASV or EPSV (see [`Driver::flush`]).
    passive_reply: bool,
    /// The client's control connection ended (FIN, reset or a failed
    /// write).
    client_closed: bool,
}

/// Serves one accepted connection until the session closes.
/// `shutdown` carries the grace period running transfers get.
/// `implicit`: the connection came to an implicit-FTPS listener.
/// `id`: the session's id (in its log lines and the admin API).
pub(crate) async fn serve(
    id: u64,
    stream: TcpStream,
    peer: SocketAddr,
    shared: Arc<Shared>,
    mut shutdown: broadcast::Receiver<Duration>,
    implicit: bool,
) -> io::Result<&'static str> {
    let local = stream.local_addr()?;
    stream.set_nodelay(true)?;
    let (live, mut ended) = shared.live.register(id, peer, implicit);
    let mut ended_seen = false;
    // SO_OOBINLINE and keepalive come from the listening socket.
    let session_tls = shared.tls.as_ref().map(|t| t.session(peer.ip()));
    let control = match (&session_tls, implicit) {
        // Boxed, as the session's other rare and large steps are: see
        // below.
        (Some(t), true) => match Box::pin(accept_tls(t.control.clone(), stream, shared.cfg.data_timeout)).await {
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
        id,
        login: None,
        deferred: Vec::new(),
        peer,
        local,
        control,
        data_tls: session_tls.as_ref().map(|t| t.data.clone()),
        session_tls,
        bound: None,
        tree: None,
        rules: None,
        user: None,
        slot: None,
        tls_reuse: None,
        live,
        why: None,
        passive: None,
        transfer: None,
        held: None,
        verdict: None,
        replaced: None,
        passive_reply: false,
        client_closed: false,
    };
    let mut sess = if implicit {
        ServerSession::new_implicit_tls(shared.session.clone(), peer, local, Instant::now())
    } else {
        ServerSession::new(shared.session.clone(), peer, local, Instant::now())
    };
    // NAT per client network: the address its 227 replies announce.
    if let Some(a) = shared.cfg.passive_address_for(peer.ip()) {
        sess.set_passive_address(a);
    }
    let mut gauge = crate::metrics::SessionGauge::new(shared.metrics.clone(), sess.language(), sess.client_charset());
    let mut shutdown_seen = false;
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
    let result = loop {
        while let Some(a) = sess.poll_action() {
            // Boxed: an action's future (a login that may ask LDAP, the
            // TLS switch, an operation on the storage) is the largest step
            // of a session, and inline it made every session's task 8.5 KiB
            // for its whole life, waiting or not (issue 47). A box lives
            // for one action.
            Box::pin(d.act(&mut sess, a)).await;
        }
        if !sess.output().is_empty() {
            // Replies are going out: what the session did is in the metrics.
            gauge.metrics().tally(&sess.take_tally());
            gauge.update(sess.language(), sess.client_charset());
            if sess.is_closed() && d.replaced.is_some() {
                // The last reply (QUIT's 221): every file an upload
                // replaced is gone first.
                Box::pin(d.unlinked()).await;
            }
            d.flush(&mut sess).await;
            if d.held.is_some() {
                // Boxed: only a session with a held upload settles one.
                Box::pin(d.settle_hold(false)).await;
            }
            if d.replaced.as_ref().is_some_and(|r| !r.kept.is_empty()) {
                // What kept uploads replaced goes now that the reply is
                // out, while the client reads it (the last one may stay
                // as the next upload's spare).
                d.remove_replaced(true);
            }
            if !d.deferred.is_empty() && d.held.is_none() {
                // Boxed too: only a session with a hook has events to wait.
                Box::pin(d.emit_deferred()).await;
            }
            continue;
        }
        if sess.is_closed() {
            break Ok(d.why.unwrap_or(sess.close_reason()));
        }
        let deadline = sess.poll_timeout().map(tokio::time::Instant::from_std);
        if let Some(t) = deadline {
            if idle.deadline() != t {
                idle.as_mut().reset(t);
            }
        }
        let reading = sess.wants_input();
        let hold_until = d.held.as_ref().map(|h| h.until);
        let spare_until = d.spare_until();
        tokio::select! {
            r = d.control.read(), if reading => {
                d.control_read(&mut sess, r);
                if d.held.is_some() {
                    Box::pin(d.settle_hold(false)).await;
                }
            }
            // Boxed: only a session holding an upload waits on this timer.
            () = async { match hold_until { Some(t) => Box::pin(tokio::time::sleep_until(t)).await, None => std::future::pending().await } } => {
                Box::pin(d.end_hold(true)).await;
                d.remove_replaced(true);
            }
            // Only a session with a spare waits on this timer.
            () = async { match spare_until { Some(t) => Box::pin(tokio::time::sleep_until(t)).await, None => std::future::pending().await } } => {
                d.remove_replaced(false);
            }
            Some(ev) = async { match d.transfer.as_mut() { Some(t) => t.events.recv().await, None => std::future::pending().await } } => {
                d.data_event(&mut sess, ev).await;
            }
            () = &mut idle, if deadline.is_some() => sess.handle_timeout(Instant::now()),
            r = &mut ended, if !ended_seen => {
                ended_seen = true;
                // A dropped sender (the registry cleared) is no order.
                if r.is_ok() {
                    tracing::info!("ended by an administrator");
                    sess.handle_end(Instant::now());
                }
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
    Box::pin(d.settle_hold(true)).await;
    Box::pin(d.unlinked()).await;
    Box::pin(d.emit_deferred()).await;
    d.logged_out();
    Box::pin(d.close()).await;
    result
}

/// The control connection's side of the driver: writing replies, reading
/// commands, the TLS switch, the end of the session.
impl Driver {
    /// Writes what the session has to say, within `stall_timeout`: a
    /// client that reads none of its replies is dropped. Whether it all
    /// went out.
    async fn flush(&mut self, sess: &mut ServerSession) -> bool {
        self.follow_login(sess);
        if std::mem::take(&mut self.passive_reply) {
            // curl 7.87 to 8.3 (Debian 12's 7.88.1) sleeps 1 s before a
            // data connection when the 227/229 is already in its socket as
            // its send() of PASV/EPSV returns: on loopback, when the worker
            // woken by the command preempted curl on its CPU. Giving the
            // CPU back once lets curl reach its poll first (on another CPU
            // the yield returns at once). Fixed in curl 8.4.0 (curl commit
            // 6dd6654f75, issue #12033).
            std::thread::yield_now();
        }
        let n = sess.output().len();
        let peer = self.peer;
        match tokio::time::timeout(self.shared.cfg.stall_timeout, self.control.write_all(sess.output())).await {
            Ok(Ok(())) => {
                sess.consume_output(n);
                true
            }
            Ok(Err(e)) => {
                tracing::debug!(%peer, error = %e, "control connection write failed");
                self.gone(sess, "control connection write failed");
                false
            }
            Err(_) => {
                tracing::info!(%peer, "client reads no replies: disconnecting");
                self.gone(sess, "client reads no replies (stall_timeout)");
                false
            }
        }
    }

    /// The client is gone, or must be: the session is told, and `why` is
    /// kept for the log unless an earlier cause is known.
    fn gone(&mut self, sess: &mut ServerSession, why: &'static str) {
        self.why = self.why.or(Some(why));
        self.client_closed = true;
        self.judge(false);
        sess.handle_control_closed(Instant::now());
    }

    /// What a read of the control connection gave.
    fn control_read(&mut self, sess: &mut ServerSession, r: io::Result<Vec<u8>>) {
        match r {
            Ok(b) if b.is_empty() => {
                self.closed_cleanly();
                sess.handle_control_closed(Instant::now());
            }
            Ok(b) => {
                if let Some(t) = self.transfer.as_mut() {
                    t.heard = true;
                }
                self.judge(true);
                sess.handle_input(Instant::now(), &b);
            }
            Err(e) => {
                tracing::debug!(peer = %self.peer, error = %e, "control connection read failed");
                self.gone(sess, "control connection reset or failed");
            }
        }
    }

    /// What the transfer task reported.
    async fn data_event(&mut self, sess: &mut ServerSession, ev: DataEvent) {
        if matches!(ev, DataEvent::UploadReceived { .. }) {
            // Is the client still there? A killed client's kernel ends the
            // data connection with a FIN, like a whole upload; its control
            // connection's FIN comes at the same moment. Take in what the
            // control connection already holds; if it is quiet, wait a
            // moment for the FIN that may trail the data's (any octet from
            // the client ends the wait: it is alive), before the upload
            // may commit.
            let heard = self.transfer.as_ref().is_some_and(|t| t.heard);
            if control_now(&self.control, sess) == ControlNow::Quiet && !heard {
                if let Some(t) = self.transfer.as_mut().filter(|t| t.holdable) {
                    // Committed at once, held until the client shows it
                    // has its 226 (see [`hold`]).
                    t.hold = true;
                } else {
                    let wait = self.shared.cfg.upload_end_wait;
                    if let Ok(r) = tokio::time::timeout(wait, self.control.read()).await {
                        self.control_read(sess, r);
                    }
                }
            }
        }
        if let DataEvent::Ended { id, .. } = ev {
            // The task has released everything; let it finish.
            if let Some(mut t) = self.transfer.take_if(|t| t.id == id) {
                self.take_held(&mut t);
                t.task.join().await;
            }
        }
        sess.handle_data(Instant::now(), ev);
    }

    /// The session has closed with nothing outstanding.
    async fn close(mut self) {
        // A backstop: the session never closes with a transfer running.
        if let Some(t) = self.transfer.take() {
            t.task.cancel().await;
        }
        // No data connection of this client resumes this session's TLS
        // sessions once the client has seen the control connection close.
        drop(self.session_tls.take());
        self.control.shutdown().await;
    }

    /// Binds the FTP session's TLS to its client when it logs in, and
    /// unbinds it at REIN (see [`crate::tls::SessionTls::bind`]): before
    /// each action (a pipelined PASV behind PASS binds a data connection)
    /// and each reply (the 230 goes out bound). A comparison of the name
    /// when nothing changed.
    /// The admin API's list of sessions follows the user the same way.
    fn follow_login(&mut self, sess: &ServerSession) {
        let user = sess.logged_in_user();
        if user == self.bound.as_deref() {
            return;
        }
        if let Some(tls) = &self.session_tls {
            tls.bind(user);
        }
        self.live.set_user(user);
        // Every log line of the session names its user from now on.
        crate::logctx::set_user(
            user.map(|u| babelftp_proto::display::PlainPath(u).to_string())
                .as_deref(),
        );
        self.bound = user.map(<[u8]>::to_vec);
    }

    /// AUTH TLS (RFC 4217 4): the 234 goes out in clear, then the
    /// handshake.
    async fn start_tls(&mut self, sess: &mut ServerSession) {
        if !self.flush(sess).await {
            return;
        }
        let r = match self.session_tls.as_ref().map(|t| t.control.clone()) {
            Some(cfg) => self.control.start_tls(cfg, self.shared.cfg.data_timeout).await,
            None => Err(io::ErrorKind::Unsupported.into()),
        };
        if let Err(e) = r {
            tracing::info!(peer = %self.peer, error = %e, "TLS handshake after AUTH failed");
            self.gone(sess, "TLS handshake after AUTH failed");
            return;
        }
        self.live.set_tls(true);
    }

    /// REIN after AUTH TLS (RFC 4217 13): the 220 goes out under TLS, then
    /// TLS ends.
    async fn end_tls(&mut self, sess: &mut ServerSession) {
        if !self.flush(sess).await {
            return;
        }
        let r = match tokio::time::timeout(self.shared.cfg.data_timeout, self.control.end_tls()).await {
            Ok(r) => r,
            Err(_) => Err(io::ErrorKind::TimedOut.into()),
        };
        if let Err(e) = r {
            tracing::info!(peer = %self.peer, error = %e, "ending TLS after REIN failed");
            self.gone(sess, "ending TLS after REIN failed");
            return;
        }
        self.live.set_tls(false);
    }
}

impl Driver {
    /// A transfer's record: its event, metrics, log line and xferlog line,
    /// as every door records them.
    async fn log_transfer(&mut self, rec: &TransferRecord) {
        if self.shared.events.is_some() {
            let stored = self.stored(&rec.path).await;
            self.transferred(rec, stored);
        }
        self.shared.record_transfer(self.door(), rec);
    }

    async fn act(&mut self, sess: &mut ServerSession, a: Action) {
        tracing::trace!(peer = %self.peer, action = ?a, "action");
        match a {
            Action::Op(op) => {
                // A command: the client is alive, and a held upload stands
                // (its record and event go first).
                if self.held.is_some() {
                    Box::pin(self.settle_hold(true)).await;
                }
                // A spare file is only for the next upload: a command
                // that is not part of one sees its folder without it.
                if self.replaced.is_some() && !hold::keeps_spare(&op) {
                    self.remove_replaced(false);
                }
                // An upload's event, pipelined ahead, goes first.
                if !self.deferred.is_empty() {
                    self.emit_deferred().await;
                }
                // What the session asked to change, in its words.
                let change = op.change();
                // Where a name is created: a refusal names the charset.
                let created = op.creates().cloned();
                let evented = self.shared.events.is_some().then(|| op.clone());
                // The names as stored, looked up before the change (a
                // rename's or a delete's old name is gone after it).
                let stored = match &evented {
                    Some(op) => Some(self.stored_names(op).await),
                    None => None,
                };
                let r = self.run_op(op).await;
                if let (Some(op), Some(stored), Ok(_)) = (&evented, stored, &r) {
                    self.changed(sess, op, stored);
                }
                if let (Err(OpError::Storage(io::ErrorKind::InvalidFilename)), Some(p)) = (&r, created) {
                    self.name_refused(sess, &p);
                }
                if let Some(c) = change {
                    // Changes to the tree, at INFO, names as text.
                    let (what, path) = (c.what, c.path);
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
                self.user = None;
            }
            Action::ReleasePassive => self.passive = None,
            Action::StartTransfer(spec) => self.start_transfer(sess, spec).await,
            Action::Commit(id) | Action::Discard(id) => {
                if let Some(t) = self.transfer.as_mut().filter(|t| t.id == id) {
                    let decision = match a {
                        Action::Discard(_) => Decision::Abandon,
                        _ if t.hold => Decision::Hold,
                        _ => Decision::Commit,
                    };
                    if let Some(tx) = t.decide.take() {
                        let _ = tx.send(decision);
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
                // A held upload's record waits for its verdict.
                if !self.hold_record(&rec) {
                    self.log_transfer(&rec).await;
                }
            }
            Action::Close => {
                self.passive = None;
            }
            Action::StartTls => self.start_tls(sess).await,
            Action::EndTls => self.end_tls(sess).await,
            Action::Hostile(kind) => {
                let ev = match kind {
                    Hostile::Bounce => crate::defender::Event::Bounce,
                    Hostile::LongLine => crate::defender::Event::LongLine,
                };
                if self.shared.hostile(self.peer.ip(), ev) {
                    // Banned: the refusal goes out, then the connection
                    // closes, as a banned address's new ones do.
                    if self.flush(sess).await {
                        self.gone(sess, "address banned");
                    }
                }
            }
        }
    }
}

use babelftp_core::{blocking, on_disk};
