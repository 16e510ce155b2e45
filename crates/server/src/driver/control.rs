//! The control connection: plain or TLS, the switch between them (AUTH
//! TLS, REIN), urgent data, and what it shows at the end of an upload.

use super::*;

/// The control connection: plain TCP (read by [`Control::read`], which
/// copes with urgent data), or TLS after AUTH or on an implicit listener.
pub(super) enum Control {
    Plain(OwnedReadHalf, OwnedWriteHalf),
    Tls(ReadHalf<ServerTls>, WriteHalf<ServerTls>),
    Gone,
}

pub(super) type ServerTls = tokio_rustls::server::TlsStream<TcpStream>;

impl Control {
    /// Whether the control connection speaks TLS (FTPS).
    pub(super) fn is_tls(&self) -> bool {
        matches!(self, Control::Tls(..))
    }
}

/// How much one read of a control connection takes.
pub(super) const CONTROL_READ: usize = 4096;

thread_local! {
    /// The buffer plain control connections are read into, one per worker
    /// thread: an idle session holds no read buffer of its own (4 KiB each
    /// otherwise, most of an idle session's memory).
    static CONTROL_BUF: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0u8; CONTROL_READ]);
}

impl Control {
    /// What the client sent next (empty at its FIN).
    pub(super) async fn read(&mut self) -> io::Result<Vec<u8>> {
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

    pub(super) async fn write_all(&mut self, data: &[u8]) -> io::Result<()> {
        match self {
            Control::Plain(_, wr) => wr.write_all(data).await,
            Control::Tls(_, wr) => {
                wr.write_all(data).await?;
                wr.flush().await
            }
            Control::Gone => Err(io::ErrorKind::NotConnected.into()),
        }
    }

    pub(super) async fn shutdown(&mut self) {
        let r = match self {
            Control::Plain(_, wr) => tokio::time::timeout(Duration::from_secs(1), wr.shutdown()).await,
            // close_notify, then FIN.
            Control::Tls(_, wr) => tokio::time::timeout(Duration::from_secs(1), wr.shutdown()).await,
            Control::Gone => return,
        };
        let _ = r;
    }

    /// AUTH TLS: the rest of this connection is TLS, with `cfg`.
    pub(super) async fn start_tls(&mut self, cfg: Arc<rustls::ServerConfig>, timeout: Duration) -> io::Result<()> {
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
    pub(super) async fn end_tls(&mut self) -> io::Result<()> {
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

/// What a plain control connection showed at the end of an upload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ControlNow {
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
/// is [`ControlNow::Quiet`], a plain STOR is committed and held (see
/// [`super::hold`]); any other upload waits up to `upload_end_wait` (10 ms by default)
/// for any octet or the FIN, whichever comes first. Only a control FIN
/// later than that still lets a killed client's upload commit (1 ms was
/// not enough on 2 busy cores: 1 kill in 40; 10 ms: 0 in 120). A client
/// that sends its next command (or a NOOP) as soon as its data connection
/// is closed, as ours does, ends the wait at once; one whose octets came in
/// before the data's end (the two race here) skips it.
pub(super) fn control_now(control: &Control, sess: &mut ServerSession) -> ControlNow {
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
pub(super) async fn accept_tls(
    cfg: Arc<rustls::ServerConfig>,
    stream: TcpStream,
    timeout: Duration,
) -> io::Result<ServerTls> {
    match tokio::time::timeout(timeout, tokio_rustls::TlsAcceptor::from(cfg).accept(stream)).await {
        Ok(r) => r,
        Err(_) => Err(io::ErrorKind::TimedOut.into()),
    }
}

/// Which limit refuses `peer` (after [`crate::admission::Limits::admit`]
/// said no), logged, and the reply that names it: its address holds
/// `max_per_ip` sessions, or the server `max_connections`.
pub(crate) fn full(limits: &crate::admission::Limits, peer: std::net::SocketAddr, cfg: &crate::Config) -> Msg {
    match limits.address_full(peer.ip(), cfg) {
        Some(n) => {
            tracing::warn!(%peer, max_per_ip = n, "connection refused: this address holds max_per_ip sessions");
            Msg::AddressFull(n as u64)
        }
        None => {
            tracing::warn!(%peer, max_connections = cfg.max_connections, "connection refused: the server holds max_connections sessions");
            Msg::ServerFull(cfg.max_connections as u64)
        }
    }
}

/// Answers a connection over the limits with 421 (RFC 959 4.2: a reply
/// to the connection, in place of the 220 greeting) naming the limit,
/// and closes it.
pub(crate) async fn refuse(mut stream: TcpStream, catalogs: &Catalogs, why: Msg) {
    let text = why.render(catalogs, catalogs.default_lang());
    let r = Reply::new(ReplyCode::UNAVAILABLE, text);
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.write_all(&r.to_bytes())).await;
    let _ = stream.shutdown().await;
}
