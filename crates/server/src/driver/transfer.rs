//! A transfer: opened by the driver (so a missing file is 550 with no
//! 150), then run in its own task: data connection, bytes, commit or
//! abort, and the xferlog line.

use super::*;
use babelftp_core::transfer::{watch, Cut};
use babelftp_core::Counted;

/// The running transfer, as the driver holds it.
pub(super) struct Running {
    pub(super) id: u64,
    pub(super) task: Task,
    pub(super) progress: Arc<AtomicU64>,
    /// The commit decision for an upload.
    pub(super) decide: Option<oneshot::Sender<Decision>>,
    /// The upload can be committed with a hold ([`Decision::Hold`]).
    pub(super) holdable: bool,
    /// Its commit is to be held (the control connection was quiet when
    /// its data ended): see [`super::hold`].
    pub(super) hold: bool,
    /// Where a held commit comes back from the task.
    pub(super) held: Option<oneshot::Receiver<babelftp_core::transfer::HeldUpload>>,
    /// What the task reports (made per transfer: an idle session holds no
    /// channel).
    pub(super) events: mpsc::UnboundedReceiver<DataEvent>,
    /// The client sent something on the control connection while this
    /// transfer ran: it was alive after its 150 (see [`control_now`]).
    pub(super) heard: bool,
    /// Its place in the server's count of running transfers.
    pub(super) _counted: Counted,
    /// Its line in the admin API's list of sessions.
    pub(super) _shown: crate::live::Shown,
}

/// A transfer task that is aborted when dropped: if the session's own task
/// is cut (the server's shutdown backstop), its transfer goes with it
/// rather than running on detached.
pub(super) struct Task(pub(super) Option<JoinHandle<()>>);

impl Task {
    /// Waits for the task to end.
    pub(super) async fn join(mut self) {
        if let Some(h) = self.0.take() {
            let _ = h.await;
        }
    }

    /// Cancels the task and waits until it has stopped.
    pub(super) async fn cancel(mut self) {
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

/// What a transfer task moves, once opened.
pub(super) enum Payload {
    /// A file, and the offset to start from.
    File(ReadHandle, u64),
    /// A listing small enough to be made whole (and sorted).
    Bytes(Vec<u8>),
    /// A listing streamed as the directory is read.
    Listing(Box<Lister>),
    Upload(Box<babelftp_core::transfer::Upload>),
}

impl Driver {
    /// Tells the session the charset a name it asked to create could not
    /// be written in, for its reply.
    pub(super) fn name_refused(&self, sess: &mut ServerSession, p: &VPath) {
        if let Some(c) = self.storage.name_charset(p) {
            sess.name_refused_in(c);
        }
    }

    /// Opens the source or sink (so a missing file is 550 with no 150),
    /// reports it, then runs the data connection in a task.
    pub(super) async fn start_transfer(&mut self, sess: &mut ServerSession, spec: TransferSpec) {
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
        // What the admin API shows while it runs.
        let (direction, shown_path) = match &kind {
            TransferKind::Retr { path, .. } => ("download", path),
            TransferKind::Stor { path, .. } => ("upload", path),
            TransferKind::List { path, .. } => ("listing", path),
        };
        let shown_path = babelftp_proto::display::PlainPath(&shown_path.to_bytes()).to_string();
        let st = self.storage.clone();
        let opened = match kind {
            // The user's download, as every door opens it.
            TransferKind::Retr { path, offset } => match self.user().open_download(&path, offset).await {
                Ok(h) => Ok((Payload::File(h, offset), None)),
                Err(e) => Err(e.kind()),
            },
            // The user's upload, as every door opens it: rights, quota
            // meter, the file (babelftp_core::UserCtx::begin_upload).
            // (The session's spare file, if any, is written into.)
            TransferKind::Stor { path, mode } => match self.begin_upload(&path, mode).await {
                Ok(up) => {
                    let chosen = up.chosen.clone();
                    Ok((Payload::Upload(Box::new(up)), chosen))
                }
                Err(e) => {
                    let error = e.kind();
                    if error == io::ErrorKind::InvalidFilename {
                        self.name_refused(sess, &path);
                    }
                    Err(error)
                }
            },
            TransferKind::List { path, render } => {
                blocking(move || {
                    open_listing(&*st, &path, render)
                        .map(|p| (p, None))
                        .map_err(|e| e.kind())
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
        // No passive listener (none bound, or released): 425.
        let mut source = match source {
            DataSource::Passive => self.passive.take().map(|p| Source::Passive(*p)),
            DataSource::Active(a) => Some(Source::Active(a)),
        };
        // Issue 48: an upload's TLS 1.3 data connection that is already
        // here, its handshake answered, is finished before the 150 reply,
        // so the ticket it may give reaches the client before the client
        // sends (curl spends each ticket once and would have none left
        // for its next transfer).
        if upload && tls.is_some() {
            if let Some(Source::Passive(p)) = &mut source {
                // Only a client that began its handshake before the
                // transfer command: one that waits for the 150 first
                // (ftplib, Go) must not be waited for here.
                // Its ClientHello left before the command did; each yield
                // lets the runtime poll for I/O (tokio wakes a yielding
                // task after that) and run the passive task, which
                // accepts the connection and sees the bytes.
                for _ in 0..HELLO_YIELDS {
                    if p.hello.load(std::sync::atomic::Ordering::Acquire) {
                        break;
                    }
                    tokio::task::yield_now().await;
                }
                if p.hello.load(std::sync::atomic::Ordering::Acquire) {
                    let timeout = self.shared.cfg.data_timeout;
                    if let Ok(Ok(early)) = tokio::time::timeout(timeout, &mut p.ready).await {
                        source = Some(Source::Ready(EarlyTls::finish_upload(early, timeout).await));
                    }
                }
            }
        }
        let holdable = matches!(&payload, Payload::Upload(u) if u.can_hold());
        let (held_tx, held_rx) = oneshot::channel();
        let (decide_tx, decide_rx) = oneshot::channel();
        let progress = Arc::new(AtomicU64::new(0));
        let (events_tx, events) = mpsc::unbounded_channel();
        let job = Job {
            id,
            source,
            peer: self.peer,
            local: self.local,
            data_timeout: self.shared.cfg.data_timeout,
            stall: self.shared.cfg.stall_timeout,
            ascii,
            tls,
            // Issue 48: the account's rule, known since its login, else
            // the server's.
            reuse_required: self.tls_reuse.map_or(
                self.shared.cfg.tls_reuse_required,
                babelftp_accounts::TlsReuse::required,
            ),
            progress: progress.clone(),
            events: events_tx,
            decide: decide_rx,
            held: holdable.then_some(held_tx),
            throttle: crate::throttle::Throttle::for_transfer(upload, self.slot.as_ref(), &self.shared.bandwidth),
        };
        let task = Task(Some(tokio::spawn(crate::logctx::inherit(job.run(payload)))));
        self.transfer = Some(Box::new(Running {
            id,
            task,
            _shown: self.live.transfer(direction, shown_path, progress.clone()),
            progress,
            decide: upload.then_some(decide_tx),
            holdable,
            hold: false,
            held: holdable.then_some(held_rx),
            events,
            heard: false,
            _counted: self.shared.transfers.start(),
        }));
        sess.handle_data(Instant::now(), DataEvent::Opened { id, path: chosen });
    }
}

/// How many times an upload's transfer command lets the passive task see
/// a data connection's ClientHello (accept, then read) before it goes on
/// without (issue 48).
const HELLO_YIELDS: usize = 64;

/// What the driver tells an upload's task once its data have ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Decision {
    /// Cut, aborted or refused: nothing is committed.
    Abandon,
    Commit,
    /// Committed, with what the name held kept until the client shows it
    /// has its reply ([`super::hold`]).
    Hold,
}

/// A transfer task: data connection, bytes, and how it ended.
pub(super) struct Job {
    pub(super) id: u64,
    pub(super) source: Option<Source>,
    pub(super) peer: SocketAddr,
    pub(super) local: SocketAddr,
    pub(super) data_timeout: Duration,
    pub(super) stall: Duration,
    pub(super) ascii: bool,
    /// PROT P: TLS on the data connection, with this FTP session's config.
    pub(super) tls: Option<crate::tls::DataTls>,
    pub(super) reuse_required: bool,
    pub(super) progress: Arc<AtomicU64>,
    pub(super) events: mpsc::UnboundedSender<DataEvent>,
    pub(super) decide: oneshot::Receiver<Decision>,
    /// Where a held commit goes to the driver.
    pub(super) held: Option<oneshot::Sender<babelftp_core::transfer::HeldUpload>>,
    /// The bandwidth limits this transfer keeps to (its user's, the
    /// server's); `None`: none, and nothing in the way (sendfile).
    pub(super) throttle: Option<crate::throttle::Throttle>,
}

/// Where a transfer's data connection comes from.
pub(super) enum Source {
    Passive(Passive),
    Active(SocketAddr),
    /// A passive connection taken (and its handshake maybe finished)
    /// before the transfer started.
    Ready(Early),
}

impl Job {
    pub(super) async fn run(self, payload: Payload) {
        let (id, events) = (self.id, self.events.clone());
        let (bytes, outcome) = self.transfer(payload).await;
        let _ = events.send(DataEvent::Ended { id, bytes, outcome });
    }

    pub(super) async fn transfer(mut self, payload: Payload) -> (u64, Outcome) {
        let early = match self.source.take() {
            Some(Source::Active(addr)) => match data::connect_active(addr, self.local.ip(), self.data_timeout).await {
                Ok(s) => Early::Plain(s),
                Err(DataError::Timeout) => return (0, Outcome::NoConnection(NoConnection::Timeout)),
                Err(DataError::Io(e)) => Early::Failed(e),
            },
            // The client has until `data_timeout` after the transfer command
            // to connect (and, under PROT P, to answer the handshake).
            Some(Source::Passive(mut p)) => match tokio::time::timeout(self.data_timeout, &mut p.ready).await {
                Err(_) => return (0, Outcome::NoConnection(NoConnection::Timeout)),
                Ok(Ok(e)) => e,
                Ok(Err(_)) => Early::Failed(io::ErrorKind::Other.into()),
            },
            Some(Source::Ready(e)) => e,
            None => return (0, Outcome::NoConnection(NoConnection::Failed)),
        };
        match early {
            Early::Plain(stream) if self.tls.is_none() => {
                // Binary, no TLS, a local file: the kernel copies (sendfile).
                if let Payload::File(ReadHandle::File(file), offset) = &payload {
                    if !self.ascii && self.throttle.is_none() {
                        let progress = self.progress.clone();
                        // sendfile(2)'s errors are the socket's (a disk that
                        // fails under it is rarer than a client that leaves).
                        let send = async { Ok(data::sendfile(file, *offset, &stream, &progress).await?) };
                        let r = watch(&progress, self.stall, send).await;
                        return finish_download(r, stream, &progress).await;
                    }
                }
                self.move_limited(stream, payload).await
            }
            Early::Failed(e) => {
                tracing::debug!(error = %e, "data connection failed");
                (0, Outcome::NoConnection(NoConnection::Failed))
            }
            // Boxed: the TLS handshake and a TLS stream's copy are three
            // times the size of a plain transfer's future, which every
            // transfer task held inline (20 KiB each; issue 47).
            early => Box::pin(self.transfer_tls(early, payload)).await,
        }
    }

    /// A transfer under PROT P: the data connection's TLS handshake (or
    /// its end, when it was answered early), the check that it resumes a
    /// TLS session of this client, then the bytes.
    async fn transfer_tls(mut self, early: Early, payload: Payload) -> (u64, Outcome) {
        // A download's data connection may give the client a new TLS
        // ticket; an upload's here never does (one that may was finished
        // before its 150: start_transfer, crate::tls::DataSwitch::upload).
        let download = !matches!(payload, Payload::Upload(_));
        let data_tls = self.tls.take();
        let handshake = match (early, data_tls.as_ref()) {
            (Early::Failed(e), _) => {
                tracing::debug!(error = %e, "data connection failed");
                return (0, Outcome::NoConnection(NoConnection::Failed));
            }
            // Not reached: transfer() moves a plain connection without TLS.
            (Early::Plain(stream), None) => return self.move_limited(stream, payload).await,
            // Active mode, or PROT P since a PASV made under PROT C: the
            // whole handshake now, the same way.
            (Early::Plain(stream), Some(tls)) => match EarlyTls::answer(tls, stream, self.data_timeout).await {
                Ok(t) => t.finish(download, self.data_timeout).await,
                Err(e) => Err(e),
            },
            (Early::Tls(t), Some(_)) => t.finish(download, self.data_timeout).await,
            (Early::Finished(t), Some(_)) => Ok(*t),
            (Early::TlsFailed(e), _) => Err(e),
            // Not reached: the session refuses a clear transfer on a
            // passive connection set up under PROT P (425 before any
            // transfer starts), and active mode gives a plain stream.
            (Early::Tls(_) | Early::Finished(_), None) => {
                Err(io::Error::other("a TLS data connection for a clear transfer"))
            }
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
        // address that has yet to log in, which `confirm` settles). The
        // policy is the session crate's; the facts are the handshake's.
        let resumed = tls.get_ref().1.handshake_kind() == Some(rustls::HandshakeKind::Resumed);
        let ours = match (data_tls_reuse(self.reuse_required, resumed), &data_tls) {
            (DataTlsReuse::Accept, _) => true,
            (DataTlsReuse::ConfirmOwner, Some(d)) => d.confirm(&switch, self.data_timeout).await,
            (DataTlsReuse::ConfirmOwner, None) | (DataTlsReuse::Refuse, _) => false,
        };
        if !ours {
            tracing::info!(peer = %self.peer, "data connection did not resume a TLS session of this client");
            // Closed in order (close_notify), so the client reads the 522.
            let mut tls = tls;
            let _ = tokio::time::timeout(Duration::from_secs(1), tls.shutdown()).await;
            return (0, Outcome::TlsNotReused);
        }
        self.move_limited(tls, payload).await
    }

    /// Moves the bytes, through the bandwidth limits when there are some.
    async fn move_limited<S: AsyncRead + AsyncWrite + Unpin>(mut self, stream: S, payload: Payload) -> (u64, Outcome) {
        let Some(t) = self.throttle.take() else {
            return self.move_bytes(stream, payload).await;
        };
        // Boxed: a throttled stream's copy and its watch are twice a plain
        // one's, and only a transfer with a limit needs them.
        Box::pin(self.move_throttled(t, stream, payload)).await
    }

    /// Moves the bytes through the bandwidth limits `t`.
    async fn move_throttled<S: AsyncRead + AsyncWrite + Unpin>(
        mut self,
        t: crate::throttle::Throttle,
        stream: S,
        payload: Payload,
    ) -> (u64, Outcome) {
        let stream = t.wrap(stream);
        // An upload counts its progress at each read: its own stall watch
        // holds. A download counts it per buffer (up to 1 MiB), which at a
        // low rate takes longer than the stall timeout: its stalls are
        // watched on the stream instead (throttle::watch), and a stalled
        // download is dropped as move_bytes' own watch would drop it.
        if matches!(payload, Payload::Upload(_)) {
            return self.move_bytes(stream, payload).await;
        }
        let (beat, stall, progress) = (stream.beat(), self.stall, self.progress.clone());
        self.stall = Duration::from_secs(365 * 86400);
        match crate::throttle::watch(beat, stall, self.move_bytes(stream, payload)).await {
            Some(r) => r,
            None => (progress.load(Ordering::Relaxed), Outcome::Stalled),
        }
    }

    /// Moves the bytes over a data connection (plain or TLS).
    pub(super) async fn move_bytes<S: AsyncRead + AsyncWrite + Unpin>(
        mut self,
        mut stream: S,
        payload: Payload,
    ) -> (u64, Outcome) {
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
                    stream.write_all(&out).await.map_err(data::Fail::Net)?;
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
                        let chunk = chunk.map_err(data::Fail::Storage)?;
                        stream.write_all(&chunk).await.map_err(data::Fail::Net)?;
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
            Payload::Upload(mut upload) => {
                // Over TLS, an end without close_notify is an error here
                // (rustls: unexpected EOF), so a cut upload never commits.
                let r = watch(&progress, stall, upload.receive(&mut stream, ascii, &progress)).await;
                if r.is_ok() {
                    // Over TLS: our close_notify answers the client's (ftplib's
                    // unwrap() waits for it); over TCP: our FIN.
                    let _ = tokio::time::timeout(Duration::from_secs(5), stream.shutdown()).await;
                }
                let (n, tail) = match r {
                    Ok(v) => v,
                    // Past the quota: what this upload wrote is taken back
                    // (an APPE's bytes too) and the account settled before
                    // the data connection closes, so a client that gives up
                    // when it sees the close (curl) finds the file and the
                    // usage as they were; the rest of what it sends is
                    // drained, then it reads 552.
                    Err(Cut::Failed(data::Fail::Quota)) => {
                        upload.discard().await;
                        data::drain(&mut stream, 256 << 20, Duration::from_secs(10)).await;
                        drop(stream);
                        tracing::info!(peer = %self.peer, "upload stopped at the account's quota");
                        return (
                            progress.load(Ordering::Relaxed),
                            Outcome::Storage(io::ErrorKind::QuotaExceeded),
                        );
                    }
                    // A failed or interrupted upload is dropped uncommitted:
                    // a replacing STOR leaves the old file as it was.
                    Err(cut) => {
                        drop(stream);
                        upload.abandon().await;
                        return match cut {
                            Cut::Failed(fail) => (progress.load(Ordering::Relaxed), cut_short(fail)),
                            Cut::Stalled => (progress.load(Ordering::Relaxed), Outcome::Stalled),
                        };
                    }
                };
                drop(stream);
                let _ = self.events.send(DataEvent::UploadReceived { id: self.id, bytes: n });
                let committed = match self.decide.await.unwrap_or(Decision::Abandon) {
                    Decision::Abandon => {
                        upload.abandon().await;
                        return (n, Outcome::Aborted);
                    }
                    // The tail, then the commit (under a quota, with what the
                    // name holds now: babelftp_core::transfer::Upload::commit).
                    Decision::Commit => upload.commit(tail).await,
                    // Held until the driver knows the client reads its 226.
                    Decision::Hold => upload.commit_held(tail).await.map(|held| {
                        if let (Some(h), Some(tx)) = (held, self.held.take()) {
                            let _ = tx.send(h);
                        }
                    }),
                };
                match committed {
                    Ok(()) => (n, Outcome::Complete),
                    Err(e) if e.kind() == io::ErrorKind::QuotaExceeded => {
                        tracing::info!(peer = %self.peer, "upload refused at the account's quota when it took its name");
                        (n, Outcome::Storage(io::ErrorKind::QuotaExceeded))
                    }
                    Err(e) => (n, cut_short(data::Fail::Storage(e))),
                }
            }
        }
    }
}

/// Ends a download: close the data connection cleanly (over TLS, with
/// close_notify first).
pub(super) async fn finish_download<S: AsyncWrite + Unpin>(
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
        Err(Cut::Failed(fail)) => (progress.load(Ordering::Relaxed), cut_short(fail)),
    }
}

/// The outcome of a transfer that failed, said in the log with the error's
/// own words (an object store's message, the socket's errno).
fn cut_short(fail: data::Fail) -> Outcome {
    match fail {
        data::Fail::Storage(e) => {
            tracing::warn!(error = %e, "the storage failed during a transfer");
            Outcome::Storage(e.kind())
        }
        data::Fail::Net(e) => {
            tracing::debug!(error = %e, "data connection cut");
            Outcome::Network
        }
        data::Fail::Quota => Outcome::Storage(io::ErrorKind::QuotaExceeded),
    }
}
