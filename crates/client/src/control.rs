//! The control connection: commands out, replies in, over the proto codec.

use std::io;

use babelftp_proto::command::Command;
use babelftp_proto::feat::Features;
use babelftp_proto::line::{push_escaping_iac, Status};
use babelftp_proto::path::PathError;
use babelftp_proto::reply::{Reply, ReplyCode, ReplyError, ReplyReader};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpStream, ToSocketAddrs};

use crate::tls::{SessionTls, Stream};

/// What can go wrong on the control connection.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A socket error.
    #[error("connection error: {0}")]
    Io(#[from] io::Error),
    /// The server sent something that is not a reply.
    #[error("bad reply from server: {0}")]
    Reply(#[from] ReplyError),
    /// The server closed the connection.
    #[error("the server closed the connection")]
    Closed,
    /// A pathname that cannot be sent (a NUL, or an LF not after a CR).
    #[error("pathname cannot be sent: {0}")]
    Path(#[from] PathError),
    /// The server refused a step that must succeed.
    #[error("server refused: {} {}", .0.code, babelftp_proto::display::DisplayPath(&.0.text()))]
    Refused(Reply),
    /// `AUTH TLS` was refused: the session ends there, nothing having been
    /// sent in clear.
    #[error("the server refused TLS ({} {}); nothing was sent in clear", .0.code, babelftp_proto::display::DisplayPath(&.0.text()))]
    TlsRefused(Reply),
    /// The TLS handshake failed (certificate, versions, a refused resumption…).
    #[error("TLS handshake failed: {0}")]
    Handshake(io::Error),
    /// The TLS settings cannot be used (an unreadable --cacert, no roots…).
    #[error("TLS setup: {0}")]
    TlsSetup(String),
}

/// A control connection.
pub struct Control {
    stream: Stream,
    reader: ReplyReader,
    buf: Vec<u8>,
    start: usize,
    /// The greeting (220).
    pub greeting: Reply,
    /// Print the dialogue to stderr (`-v`), passwords hidden.
    pub verbose: bool,
    /// Lines sent so far ([`Control::sent`]).
    sent: u64,
}

impl Control {
    /// Connects and reads the greeting. A 120 ("ready in n minutes") is
    /// followed by the real greeting, which is returned.
    pub async fn connect(addr: impl ToSocketAddrs) -> Result<Control, Error> {
        Control::connect_with(addr, None).await
    }

    /// Connects; with `implicit`, makes the TLS handshake first (implicit
    /// FTPS), then reads the greeting.
    pub async fn connect_with(addr: impl ToSocketAddrs, implicit: Option<&SessionTls>) -> Result<Control, Error> {
        let tcp = TcpStream::connect(addr).await?;
        tcp.set_nodelay(true)?;
        let stream = match implicit {
            Some(tls) => Stream::Tls(Box::new(tls.handshake(tcp).await?)),
            None => Stream::Plain(tcp),
        };
        let mut c = Control {
            stream,
            reader: ReplyReader::default(),
            buf: Vec::with_capacity(4096),
            start: 0,
            greeting: Reply::new(ReplyCode::READY, Vec::new()),
            verbose: false,
            sent: 0,
        };
        let mut g = c.reply().await?;
        while g.code.is_preliminary() {
            g = c.reply().await?;
        }
        if g.code != ReplyCode::READY {
            return Err(Error::Refused(g));
        }
        c.greeting = g;
        Ok(c)
    }

    /// Explicit FTPS (RFC 4217 4): `AUTH TLS`, and on 234 the handshake.
    /// Any other answer ends the session ([`Error::TlsRefused`]): the
    /// caller asked for TLS, so nothing more is said in clear. Whatever the
    /// server sent after its 234 in clear is dropped, not read as replies
    /// (the STARTTLS injection class).
    pub async fn auth_tls(mut self, tls: &SessionTls) -> Result<Control, Error> {
        let r = self.command(&Command::Auth("TLS".into())).await?;
        if r.code != ReplyCode::AUTH_OK {
            return Err(Error::TlsRefused(r));
        }
        self.buf.clear();
        self.start = 0;
        self.reader = ReplyReader::default();
        let Stream::Plain(tcp) = self.stream else {
            return Err(Error::TlsSetup("AUTH TLS on a TLS connection".into()));
        };
        self.stream = Stream::Tls(Box::new(tls.handshake(tcp).await?));
        Ok(self)
    }

    /// How many lines have been sent on this connection: a caller that
    /// remembers an answer can tell whether anything was said since.
    pub fn sent(&self) -> u64 {
        self.sent
    }

    /// The control connection's stream (plain or TLS).
    pub fn stream(&self) -> &Stream {
        &self.stream
    }

    /// The server's address.
    pub fn peer_ip(&self) -> Result<std::net::IpAddr, Error> {
        Ok(self.stream.tcp().peer_addr()?.ip())
    }

    /// Our address on this connection.
    pub fn local_ip(&self) -> Result<std::net::IpAddr, Error> {
        Ok(self.stream.tcp().local_addr()?.ip())
    }

    /// Reads the next reply.
    pub async fn reply(&mut self) -> Result<Reply, Error> {
        loop {
            let (n, st) = self.reader.advance(&self.buf[self.start..]);
            self.start += n;
            if self.start == self.buf.len() {
                self.buf.clear();
                self.start = 0;
            }
            if let Status::Complete(r) = st {
                let r = r?;
                if self.verbose {
                    let n = r.lines.len();
                    for (i, l) in r.lines.iter().enumerate() {
                        let text = babelftp_proto::display::display_path(l);
                        match (i == 0, i + 1 == n) {
                            (_, true) => eprintln!("< {} {text}", r.code),
                            (true, false) => eprintln!("< {}-{text}", r.code),
                            (false, false) => eprintln!("< {text}"),
                        }
                    }
                }
                return Ok(r);
            }
            let mut chunk = [0u8; 4096];
            let n = self.stream.read(&mut chunk).await?;
            if n == 0 {
                return Err(Error::Closed);
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
    }

    /// Sends a command and reads its reply.
    pub async fn command(&mut self, cmd: &Command) -> Result<Reply, Error> {
        self.send(cmd).await?;
        self.reply().await
    }

    /// Sends a command; its reply is for the caller to read.
    pub async fn send(&mut self, cmd: &Command) -> Result<(), Error> {
        let line = cmd.to_line()?;
        if self.verbose {
            eprintln!("> {cmd}");
        }
        self.sent += 1;
        self.stream.write_all(&line).await?;
        Ok(())
    }

    /// Sends a line as it is (for `quote` and protocol checks) and reads
    /// the reply. The line must not hold CR or LF; CR LF is appended. Like
    /// every data octet 0xFF on the control connection, a 0xFF in the line
    /// is sent as telnet `IAC IAC`.
    pub async fn raw_line(&mut self, line: &[u8]) -> Result<Reply, Error> {
        if let Some(i) = line.iter().position(|&b| b == b'\n' || b == b'\r') {
            return Err(Error::Path(PathError::LineFeed(i)));
        }
        if self.verbose {
            // As `send` shows a command: names as text (RFC 2640 3.3,
            // `%HH` for what is not), and never a password.
            let verb_end = line.iter().position(|&b| b == b' ').unwrap_or(line.len());
            if line[..verb_end].eq_ignore_ascii_case(b"PASS") {
                eprintln!("> {} ****", String::from_utf8_lossy(&line[..verb_end]));
            } else {
                eprintln!("> {}", babelftp_proto::display::display_path(line));
            }
        }
        let mut l = Vec::with_capacity(line.len() + 2);
        push_escaping_iac(&mut l, line);
        l.extend_from_slice(b"\r\n");
        self.sent += 1;
        self.stream.write_all(&l).await?;
        self.reply().await
    }

    /// USER then PASS (and nothing else when USER alone logs in).
    pub async fn login(&mut self, user: &[u8], password: &[u8]) -> Result<Reply, Error> {
        let r = self.command(&Command::User(user.to_vec())).await?;
        let r = if r.code == ReplyCode::NEED_PASSWORD {
            self.command(&Command::Pass(password.to_vec())).await?
        } else {
            r
        };
        if r.code.is_completion() {
            Ok(r)
        } else {
            Err(Error::Refused(r))
        }
    }

    /// FEAT; a server without it (500/502) has no features.
    pub async fn feat(&mut self) -> Result<Features, Error> {
        let r = self.command(&Command::Feat).await?;
        Ok(Features::from_reply(&r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use babelftp_proto::line::{LineEvent, LineReader};
    use babelftp_proto::path::WirePath;
    use tokio::net::TcpListener;

    /// Sends `cmd` to a one-line server that answers `answer`; returns the
    /// octets of the one line that server framed (end of line included), as
    /// its [`LineReader`] saw them, and the reply the client read.
    async fn exchange(cmd: &Command, answer: &'static [u8]) -> (Vec<u8>, Reply) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.unwrap();
            s.write_all(b"220 ready\r\n").await.unwrap();
            let mut lines = LineReader::default();
            let mut wire = Vec::new();
            let mut chunk = [0u8; 512];
            loop {
                let n = s.read(&mut chunk).await.unwrap();
                assert!(n > 0, "client closed after {}", wire.escape_ascii());
                let (used, st) = lines.advance(&chunk[..n]);
                wire.extend_from_slice(&chunk[..used]);
                if let Status::Complete(ev) = st {
                    assert!(matches!(ev, LineEvent::Line(_)), "{ev:?}");
                    s.write_all(answer).await.unwrap();
                    return wire;
                }
            }
        });
        let mut c = Control::connect(addr).await.unwrap();
        let r = c.command(cmd).await.unwrap();
        (server.await.unwrap(), r)
    }

    #[tokio::test]
    async fn a_name_with_cr_lf_is_sent_as_one_padded_line_rfc2640_3_1() {
        let cmd = Command::Mkd(WirePath::new(b"foo\r\nboo.bar".to_vec()));
        let (wire, r) = exchange(&cmd, b"200 ok\r\n").await;
        assert_eq!(wire, b"MKD foo\r\0\nboo.bar\r\n");
        assert_eq!(r.code, ReplyCode::OK);
    }

    #[tokio::test]
    async fn iac_goes_out_doubled_and_comes_back_single_rfc854() {
        // windows-1251 "/ая": я is 0xFF, the telnet IAC.
        let cmd = Command::Mkd(WirePath::new(b"/\xe0\xff".to_vec()));
        let (wire, r) = exchange(&cmd, b"257 \"/\xe0\xff\xff\" created\r\n").await;
        assert_eq!(wire, b"MKD /\xe0\xff\xff\r\n");
        assert_eq!(r.code, ReplyCode::PATH_CREATED);
        assert_eq!(
            WirePath::unquote_257(&r.lines[0]).map(WirePath::into_bytes),
            Some(b"/\xe0\xff".to_vec())
        );
    }
}
