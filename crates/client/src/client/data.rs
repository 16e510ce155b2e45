//! Data connections: passive (EPSV, PASV) or active (EPRT, PORT), opened
//! while the command goes out, with `PROT P` TLS that resumes the
//! session's.

use std::net::SocketAddr;
use std::time::Duration;

use babelftp_proto::command::{Command, EpsvArg};
use babelftp_proto::reply::{Reply, ReplyCode};
use tokio::io::AsyncReadExt;
use tokio::net::{TcpListener, TcpStream};

use super::passive::{parse_227_port, parse_229};
use super::{ok, Client};
use crate::control::Error;
use crate::tls::Stream;

/// How long a data connection may take to open (connect or accept, and
/// its TLS handshake).
pub(super) const DATA_OPEN_TIMEOUT: Duration = Duration::from_secs(30);

impl Client {
    /// Opens a data connection and sends `cmd` on it; returns the stream
    /// after the 1xx reply (with `PROT P`, after its TLS handshake). In
    /// passive mode the command goes out as soon as the server has given
    /// its port, while the connection to it is being made (the server
    /// waits for it): no wait for the connect between the 229 and the
    /// command, a round of the event loop per transfer.
    pub(super) async fn data_command(&mut self, cmd: Command) -> Result<Stream, Error> {
        let how = if self.active {
            Opening::Listen(self.listen().await?)
        } else {
            Opening::Connect(self.passive().await?)
        };
        self.control.send(&cmd).await?;
        let tls = self.tls.clone();
        let open = async move {
            let tcp = match how {
                Opening::Connect(addr) => {
                    let tcp = TcpStream::connect(addr).await?;
                    tcp.set_nodelay(true)?;
                    tcp
                }
                Opening::Listen(l) => l.accept().await?.0,
            };
            match tls {
                Some(tls) => Ok(Stream::Tls(Box::new(tls.handshake(tcp).await?))),
                None => Ok(Stream::Plain(tcp)),
            }
        };
        let open = tokio::time::timeout(DATA_OPEN_TIMEOUT, open);
        tokio::pin!(open);
        // The server may answer before or after the connection is made
        // (and its TLS handshake done), in either order: wait for both,
        // and a refusal ends the wait.
        let mut opened = None;
        let reply = tokio::select! {
            r = self.control.reply() => r?,
            o = &mut open => {
                opened = Some(o);
                self.control.reply().await?
            }
        };
        if reply.code.is_negative() {
            return Err(Error::Refused(reply));
        }
        let opened = match opened {
            Some(o) => o,
            None => open.await,
        };
        let err = match opened {
            Ok(Ok(stream)) => return Ok(stream),
            Ok(Err(e)) => e,
            Err(_) => Error::Io(std::io::Error::new(std::io::ErrorKind::TimedOut, "no data connection")),
        };
        // The server says why (a refused TLS resumption: 522/425).
        match tokio::time::timeout(Duration::from_secs(5), self.control.reply()).await {
            Ok(Ok(r)) if r.code.is_negative() => Err(match err {
                Error::Handshake(e) => Error::Handshake(std::io::Error::other(format!(
                    "{e}; the server said {} {}",
                    r.code,
                    r.text().escape_ascii()
                ))),
                _ => Error::Refused(r),
            }),
            _ => Err(err),
        }
    }

    /// EPSV (or PASV on an old server): the address to connect to.
    async fn passive(&mut self) -> Result<SocketAddr, Error> {
        let port = if self.epsv {
            let r = self.control.command(&Command::Epsv(EpsvArg::Any)).await?;
            if r.code == ReplyCode::EXTENDED_PASSIVE {
                parse_229(&r.lines[0])
            } else {
                // 500/502: an old server; do not ask again.
                self.epsv = false;
                None
            }
        } else {
            None
        };
        let port = match port {
            Some(p) => p,
            None => {
                let r = ok(self.control.command(&Command::Pasv).await?)?;
                // Connect to the control peer, not the address in 227 (it
                // is often a private address behind NAT, and trusting it
                // would let a server aim us anywhere).
                parse_227_port(&r.lines[0]).ok_or(Error::Refused(r))?
            }
        };
        Ok(SocketAddr::new(self.peer, port))
    }

    /// A listener for active mode, announced with EPRT (or PORT).
    async fn listen(&mut self) -> Result<TcpListener, Error> {
        let local = self.control.local_ip()?;
        let listener = TcpListener::bind(SocketAddr::new(local, 0)).await?;
        let addr = listener.local_addr()?;
        let r = self.control.command(&Command::Eprt(addr)).await?;
        if !r.code.is_completion() {
            match addr {
                SocketAddr::V4(v4) => {
                    ok(self.control.command(&Command::Port(v4)).await?)?;
                }
                SocketAddr::V6(_) => return Err(Error::Refused(r)),
            }
        }
        Ok(listener)
    }

    /// Before a data connection: a TLS 1.3 session whose tickets are used
    /// up cannot resume any more (rustls offers each ticket once), so it is
    /// renewed: a new control connection, logged in the same way, in the
    /// same directory and type, and the old one closed.
    pub(super) async fn ensure_resumable(&mut self) -> Result<(), Error> {
        let Some(tls) = &self.tls else { return Ok(()) };
        if self.control.stream().version() != Some("TLS 1.3") || tls.tls13_tickets() > 0 {
            return Ok(());
        }
        let dir = self.pwd().await?;
        let o = self.origin.clone();
        let mut fresh = Client::connect_version(&o.host, o.port, &o.opts, o.version).await?;
        fresh.cwd(&dir).await?;
        if self.ascii {
            fresh.set_ascii(true).await?;
        }
        fresh.epsv = self.epsv;
        let note = "TLS 1.3 tickets used up: renewed the session on a new control connection";
        if o.opts.verbose {
            eprintln!("* {note}");
        }
        fresh.notes.push(note.into());
        let old = std::mem::replace(self, fresh);
        old.quit().await.ok();
        Ok(())
    }

    /// Reads the final reply of a transfer.
    pub(super) async fn finish(&mut self) -> Result<Reply, Error> {
        ok(self.control.reply().await?)
    }
}

/// How a data connection is being made.
enum Opening {
    /// Passive: to connect to the server's port.
    Connect(SocketAddr),
    /// Active: waiting for the server.
    Listen(TcpListener),
}

/// Reads data. Over TLS, a server that closes without close_notify ends
/// the data like a FIN does: whether the transfer was whole is then the
/// final reply's to say (226 over the protected control connection), as
/// curl and lftp take it.
pub(super) async fn read_data(stream: &mut Stream, buf: &mut [u8]) -> Result<usize, Error> {
    match stream.read(buf).await {
        Ok(n) => Ok(n),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && matches!(stream, Stream::Tls(_)) => Ok(0),
        Err(e) => Err(e.into()),
    }
}

pub(super) async fn read_to_end(stream: &mut Stream, out: &mut Vec<u8>) -> Result<(), Error> {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = read_data(stream, &mut buf).await?;
        if n == 0 {
            return Ok(());
        }
        out.extend_from_slice(&buf[..n]);
    }
}
