//! A transfer: opened by the driver (so a missing file is 550 with no
//! 150), then run in its own task: data connection, bytes, commit or
//! abort, and the xferlog line.

use super::*;
use babelftp_core::{file_size, Counted};

/// The running transfer, as the driver holds it.
pub(super) struct Running {
    pub(super) id: u64,
    pub(super) task: Task,
    pub(super) progress: Arc<AtomicU64>,
    /// The commit decision for an upload.
    pub(super) decide: Option<oneshot::Sender<bool>>,
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
    Upload(Box<dyn Upload>),
}

impl Driver {
    /// Starts metering an upload to `path` under the account's quota: the
    /// file there now, and how much of it the upload replaces.
    async fn start_meter(
        &self,
        q: &crate::quota::Quota,
        path: &VPath,
        mode: WriteMode,
    ) -> Result<crate::quota::Meter, io::ErrorKind> {
        let old = match mode {
            // STOU makes a new file.
            WriteMode::Unique => None,
            _ => {
                let (st, p) = (self.storage.clone(), path.clone());
                blocking(move || Ok(file_size(&*st, &p))).await?
            }
        };
        let credit = match (mode, old) {
            (WriteMode::Replace | WriteMode::New, Some(o)) => o,
            // REST+STOR cuts the file at the offset.
            (WriteMode::At(off), Some(o)) => o - off.min(o),
            _ => 0,
        };
        q.meter(old, credit).await.map_err(|e| e.kind())
    }

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
        // An upload under a quota: its meter and its path.
        let mut metered: Option<(crate::quota::Meter, VPath, bool)> = None;
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
                if let Some(q) = self.quota() {
                    // APPE, REST+STOR and STOU write in the file itself;
                    // STOR beside it, and takes its name at the end.
                    let in_place = matches!(mode, WriteMode::Append | WriteMode::At(_) | WriteMode::Unique);
                    match self.start_meter(&q, &path, mode).await {
                        Ok(m) => metered = Some((m, path.clone(), in_place)),
                        Err(error) => {
                            sess.handle_data(Instant::now(), DataEvent::OpenFailed { id, error });
                            return;
                        }
                    }
                }
                let r = blocking(move || open_upload(&*st, path, mode)).await;
                if r.as_ref().err() == Some(&io::ErrorKind::InvalidFilename) {
                    self.name_refused(sess, &name);
                }
                r
            }
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
                if let Some((m, _, _)) = metered {
                    // Nothing was written: the file is as it was.
                    m.settle_unchanged().await;
                }
                sess.handle_data(Instant::now(), DataEvent::OpenFailed { id, error });
                return;
            }
        };
        // STOU: the name chosen is the one to count.
        let quota = metered.map(|(m, path, in_place)| QuotaJob {
            meter: m,
            storage: self.storage.clone(),
            path: chosen.clone().unwrap_or(path),
            in_place,
        });
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
            quota,
            throttle: crate::throttle::Throttle::for_transfer(upload, self.slot.as_ref(), &self.shared.bandwidth),
        };
        let task = Task(Some(tokio::spawn(crate::logctx::inherit(job.run(payload)))));
        self.transfer = Some(Running {
            id,
            task,
            _shown: self.live.transfer(direction, shown_path, progress.clone()),
            progress,
            decide: upload.then_some(decide_tx),
            events,
            heard: false,
            _counted: self.shared.transfers.start(),
        });
        sess.handle_data(Instant::now(), DataEvent::Opened { id, path: chosen });
    }
}

/// Opens an upload; STOU takes the first of the session's candidate names
/// ([`UniqueNames`]) that does not exist yet.
pub(super) fn open_upload(
    st: &dyn Storage,
    path: VPath,
    mode: WriteMode,
) -> Result<(Payload, Option<VPath>), io::ErrorKind> {
    if mode != WriteMode::Unique {
        return st
            .open_write(&path, mode)
            .map(|u| (Payload::Upload(u), None))
            .map_err(|e| e.kind());
    }
    for candidate in UniqueNames::new(&path) {
        match st.open_write(&candidate, mode) {
            Ok(u) => return Ok((Payload::Upload(u), Some(candidate))),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e.kind()),
        }
    }
    Err(io::ErrorKind::AlreadyExists)
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
    pub(super) decide: oneshot::Receiver<bool>,
    /// An upload under the account's quota.
    pub(super) quota: Option<QuotaJob>,
    /// The bandwidth limits this transfer keeps to (its user's, the
    /// server's); `None`: none, and nothing in the way (sendfile).
    pub(super) throttle: Option<crate::throttle::Throttle>,
}

/// An upload's quota meter, and where its file is (to settle the account
/// with the file's real size when it ends).
pub(super) struct QuotaJob {
    pub(super) meter: crate::quota::Meter,
    pub(super) storage: Arc<dyn Storage>,
    pub(super) path: VPath,
    /// The upload writes in the file itself (APPE, REST+STOR, STOU), not
    /// beside it.
    pub(super) in_place: bool,
}

impl QuotaJob {
    /// Settles the account after an upload that did not commit: one
    /// written beside its name changed nothing; one written in place
    /// keeps what it wrote, and the file is looked at.
    async fn settle_uncommitted(self) {
        let QuotaJob {
            meter,
            storage,
            path,
            in_place,
        } = self;
        if !in_place {
            return meter.settle_unchanged().await;
        }
        let now = tokio::task::spawn_blocking(move || file_size(&*storage, &path))
            .await
            .unwrap_or(None);
        meter.settle(now).await;
    }

    /// Commits `upload` under the quota: one written beside its name
    /// through [`crate::quota::commit_beside`] (552 and discarded when what
    /// the name holds now leaves no room), one written in place settled
    /// with what its commit says.
    async fn commit(self, upload: Box<dyn Upload>) -> Result<(), io::Error> {
        if !self.in_place {
            return crate::quota::commit_beside(Some(self.meter), self.storage, self.path, upload)
                .await
                .map(drop);
        }
        match tokio::task::spawn_blocking(move || upload.commit()).await {
            Ok(Ok(c)) => {
                self.meter.settle_committed(c).await;
                Ok(())
            }
            Ok(Err(e)) => {
                self.settle_uncommitted().await;
                Err(e.into())
            }
            Err(e) => {
                self.settle_uncommitted().await;
                Err(io::Error::other(e))
            }
        }
    }
}

/// Where a transfer's data connection comes from.
pub(super) enum Source {
    Passive(Passive),
    Active(SocketAddr),
}

/// Why a running transfer stopped early.
pub(super) enum Cut {
    Failed(data::Fail),
    Stalled,
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
                    if !self.ascii && self.throttle.is_none() {
                        let progress = self.progress.clone();
                        // sendfile(2)'s errors are the socket's (a disk that
                        // fails under it is rarer than a client that leaves).
                        let send = async { Ok(data::sendfile(file, *offset, &stream, &progress).await?) };
                        let r = watch(&progress, self.stall, send).await;
                        return finish_download(r, stream, &progress).await;
                    }
                }
                return self.move_limited(stream, payload).await;
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
            // Not reached: the session refuses a clear transfer on a
            // passive connection set up under PROT P (425 before any
            // transfer starts), and active mode gives a plain stream.
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
            Payload::Upload(upload) => {
                // Over TLS, an end without close_notify is an error here
                // (rustls: unexpected EOF), so a cut upload never commits.
                let mut quota = self.quota.take();
                let meter = quota.as_mut().map(|q| &mut q.meter);
                let r = watch(
                    &progress,
                    stall,
                    data::receive(&mut stream, upload, ascii, &progress, meter),
                )
                .await;
                if r.is_ok() {
                    // Over TLS: our close_notify answers the client's (ftplib's
                    // unwrap() waits for it); over TCP: our FIN.
                    let _ = tokio::time::timeout(Duration::from_secs(5), stream.shutdown()).await;
                }
                // Past the quota: what this upload wrote is taken back (an
                // APPE's bytes too) and the account settled before the data
                // connection closes, so a client that gives up when it sees
                // the close (curl) finds the file and the usage as they were;
                // the rest of what it sends is drained, then it reads 552.
                let r = match r {
                    Err(Cut::Failed(data::Fail::Quota(data::Discard(upload)))) => {
                        let _ = tokio::task::spawn_blocking(move || upload.discard()).await;
                        // Discarded: the file is as it was.
                        if let Some(q) = quota {
                            q.meter.settle_unchanged().await;
                        }
                        // What the client still sends is read and dropped
                        // (for a while), so it reads the 552.
                        data::drain(&mut stream, 256 << 20, Duration::from_secs(10)).await;
                        drop(stream);
                        tracing::info!(peer = %self.peer, "upload stopped at the account's quota");
                        return (
                            progress.load(Ordering::Relaxed),
                            Outcome::Storage(io::ErrorKind::QuotaExceeded),
                        );
                    }
                    other => other,
                };
                drop(stream);
                let (n, mut upload, tail) = match r {
                    Ok(v) => v,
                    // A failed or interrupted upload is dropped uncommitted:
                    // a replacing STOR leaves the old file as it was.
                    Err(cut) => {
                        if let Some(q) = quota {
                            q.settle_uncommitted().await;
                        }
                        return match cut {
                            Cut::Failed(fail) => (progress.load(Ordering::Relaxed), cut_short(fail)),
                            Cut::Stalled => (progress.load(Ordering::Relaxed), Outcome::Stalled),
                        };
                    }
                };
                let _ = self.events.send(DataEvent::UploadReceived { id: self.id, bytes: n });
                let commit = self.decide.await.unwrap_or(false);
                if let Some(q) = quota {
                    // Under a quota: the tail, then the commit with what
                    // the name holds now (see QuotaJob::commit).
                    let written = tokio::task::spawn_blocking(move || {
                        if commit {
                            upload.write_all(&tail).map(|()| Some(upload))
                        } else {
                            drop(upload);
                            Ok(None)
                        }
                    })
                    .await;
                    return match written {
                        Ok(Ok(Some(upload))) => match q.commit(upload).await {
                            Ok(()) => (n, Outcome::Complete),
                            Err(e) if e.kind() == io::ErrorKind::QuotaExceeded => {
                                tracing::info!(peer = %self.peer, "upload refused at the account's quota when it took its name");
                                (n, Outcome::Storage(io::ErrorKind::QuotaExceeded))
                            }
                            Err(e) => (n, cut_short(data::Fail::Storage(e.into()))),
                        },
                        Ok(Ok(None)) => {
                            q.settle_uncommitted().await;
                            (n, Outcome::Aborted)
                        }
                        Ok(Err(e)) => {
                            q.settle_uncommitted().await;
                            (n, cut_short(data::Fail::Storage(e)))
                        }
                        Err(_) => {
                            q.settle_uncommitted().await;
                            (n, Outcome::Storage(io::ErrorKind::Other))
                        }
                    };
                }
                let r = tokio::task::spawn_blocking(move || {
                    if commit {
                        upload.write_all(&tail)?;
                        upload.commit().map(|_| true)
                    } else {
                        drop(upload);
                        Ok(false)
                    }
                })
                .await;
                match r {
                    Ok(Ok(true)) => (n, Outcome::Complete),
                    Ok(Ok(false)) => (n, Outcome::Aborted),
                    Ok(Err(e)) => (n, cut_short(data::Fail::Storage(e))),
                    Err(_) => (n, Outcome::Storage(io::ErrorKind::Other)),
                }
            }
        }
    }
}

/// Runs `fut`, cutting it when `progress` does not move for `stall` (give
/// or take a quarter of it: progress is looked at four times per period).
pub(super) async fn watch<T>(
    progress: &AtomicU64,
    stall: Duration,
    fut: impl std::future::Future<Output = Result<T, data::Fail>>,
) -> Result<T, Cut> {
    tokio::pin!(fut);
    let tick = (stall / 4).max(Duration::from_millis(50));
    let mut last = progress.load(Ordering::Relaxed);
    let mut since = tokio::time::Instant::now();
    let mut ticks = tokio::time::interval_at(since + tick, tick);
    loop {
        tokio::select! {
            r = &mut fut => return r.map_err(Cut::Failed),
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
        data::Fail::Quota(_) => Outcome::Storage(io::ErrorKind::QuotaExceeded),
    }
}
