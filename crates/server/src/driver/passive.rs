//! Passive data setups: the listener, the early TLS handshake of a data
//! connection that comes before its command, and the ports each client
//! address holds.

use super::*;

/// How many passive ports each client address holds: a few sessions from
/// one address cannot take a small `passive_ports` range from everyone.
#[derive(Debug, Default, Clone)]
pub(crate) struct PassiveHolds(Arc<std::sync::Mutex<std::collections::HashMap<IpAddr, usize>>>);

/// One passive port held; dropping it gives the address's slot back.
#[derive(Debug)]
pub(super) struct Hold {
    pub(super) holds: PassiveHolds,
    pub(super) ip: IpAddr,
}

impl PassiveHolds {
    pub(super) fn hold(&self, ip: IpAddr, cap: usize) -> Option<Hold> {
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

/// A passive listener whose data connection is taken as soon as it comes:
/// accepted (from the control peer only, see [`data::accept_passive`]) and,
/// when PROT P was in effect at PASV/EPSV, its TLS handshake answered at
/// once, before the transfer command. curl 7.88 waits for that handshake to
/// finish before it reads the replies to TYPE, SIZE and RETR; a server that
/// answers the handshake only at RETR (vsftpd, ProFTPD, Pure-FTPd) costs
/// each curl FTPS transfer 0.2-1.2 s of waiting for its poll timeout.
pub(super) struct Passive {
    pub(super) ready: oneshot::Receiver<Early>,
    /// Under PROT P: the data connection is here and its client has sent
    /// (its ClientHello) without waiting for a reply to the transfer
    /// command, so `ready` comes without anything more from us.
    pub(super) hello: Arc<std::sync::atomic::AtomicBool>,
    /// Aborted, with the listener and any connection it holds, when the
    /// passive setup is replaced or released, or the session ends.
    pub(super) _task: Task,
    /// This address's slot (`Config::passive_cap`), given back with it.
    pub(super) _hold: Hold,
}

/// A data connection taken early.
pub(super) enum Early {
    Plain(TcpStream),
    Tls(Box<EarlyTls>),
    /// The TLS handshake failed (garbage, a stall, a plaintext client).
    TlsFailed(io::Error),
    /// An upload's TLS handshake, finished before its 150 reply (see
    /// [`EarlyTls::finish_upload`]).
    Finished(Box<(ServerTls, Arc<crate::tls::DataSwitch>)>),
    Failed(io::Error),
}

/// A data connection whose TLS handshake was answered up to the client's
/// Finished (or to its end): see [`crate::tls::answer_handshake`].
pub(super) struct EarlyTls {
    pub(super) stream: TcpStream,
    pub(super) conn: rustls::ServerConnection,
    pub(super) config: Arc<rustls::ServerConfig>,
    pub(super) switch: Arc<crate::tls::DataSwitch>,
}

impl EarlyTls {
    /// Whether the handshake is a TLS 1.3 resumption answered up to the
    /// client's Finished: the client sent its ClientHello before the
    /// transfer command (curl does), so its Finished needs no reply of
    /// ours and is on its way.
    fn awaits_finished(&self) -> bool {
        self.conn.is_handshaking()
            && self.conn.protocol_version() == Some(rustls::ProtocolVersion::TLSv1_3)
            && self.conn.handshake_kind() == Some(rustls::HandshakeKind::Resumed)
    }

    /// Issue 48: an upload's data connection whose handshake awaits only
    /// the client's Finished is finished now, before the 150 reply, and
    /// may leave the client one new TLS 1.3 ticket (see
    /// [`crate::tls::DataSwitch::upload`]). Anything else is given back
    /// as it was, for the transfer to take on.
    pub(super) async fn finish_upload(early: Early, timeout: Duration) -> Early {
        match early {
            Early::Tls(t) if t.awaits_finished() => {
                t.switch.upload();
                match t.finish(false, timeout).await {
                    Ok(done) => Early::Finished(Box::new(done)),
                    Err(e) => Early::TlsFailed(e),
                }
            }
            other => other,
        }
    }

    pub(super) async fn answer(
        tls: &crate::tls::DataTls,
        stream: TcpStream,
        timeout: Duration,
    ) -> io::Result<EarlyTls> {
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
    pub(super) async fn finish(
        self,
        ticket: bool,
        timeout: Duration,
    ) -> io::Result<(ServerTls, Arc<crate::tls::DataSwitch>)> {
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
    pub(super) fn start(
        listener: TcpListener,
        peer: IpAddr,
        proxies: Vec<crate::config::Cidr>,
        tls: Option<crate::tls::DataTls>,
        handshake_timeout: Duration,
        hold: Hold,
        shared: Arc<Shared>,
    ) -> Passive {
        let (tx, ready) = oneshot::channel();
        let hello = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let heard = hello.clone();
        let task = tokio::spawn(crate::logctx::inherit(async move {
            // A port thief is scored, not the session's client.
            let foreign = |ip| {
                shared.hostile(ip, crate::defender::Event::ForeignData);
            };
            let early = match data::accept_passive(&listener, peer, &proxies, foreign).await {
                Err(e) => Early::Failed(e),
                Ok(stream) => {
                    // One connection per PASV: later ones are refused.
                    drop(listener);
                    match tls {
                        None => Early::Plain(stream),
                        // Boxed: a handshake's future is most of this
                        // task's, and plain connections need none.
                        // The first bytes (a ClientHello), peeked, not read.
                        Some(tls) => match tokio::time::timeout(handshake_timeout, stream.peek(&mut [0u8; 1])).await {
                            Err(_) => Early::TlsFailed(io::ErrorKind::TimedOut.into()),
                            Ok(Err(e)) => Early::TlsFailed(e),
                            Ok(Ok(_)) => {
                                heard.store(true, std::sync::atomic::Ordering::Release);
                                match Box::pin(EarlyTls::answer(&tls, stream, handshake_timeout)).await {
                                    Ok(t) => Early::Tls(Box::new(t)),
                                    Err(e) => Early::TlsFailed(e),
                                }
                            }
                        },
                    }
                }
            };
            let _ = tx.send(early);
        }));
        Passive {
            ready,
            hello,
            _task: Task(Some(task)),
            _hold: hold,
        }
    }
}
