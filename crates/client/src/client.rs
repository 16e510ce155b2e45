//! A logged-in FTP session: negotiation in the order RFC 2640 asks for,
//! then listings and transfers over data connections.
//!
//! Negotiation (RFC 2640 3.2, 4.1; RFC 7151): FEAT first; HOST when listed
//! (then FEAT again, for that host); LANG when the server lists LANG (the
//! tag from the options, else the user's locale, matched against the
//! server's list); `OPTS UTF8 ON` when UTF8 is listed; then USER/PASS. Old servers answer 500/502 to
//! any of it, and some refuse LANG before login: every step tolerates a
//! refusal, and a refused LANG is tried again after login.

use std::net::{IpAddr, SocketAddr};

use babelftp_i18n::detect::{detect_names, Detected};
use babelftp_i18n::Charset;
use babelftp_proto::command::{Command, EpsvArg, ProtLevel, TransferType};
use babelftp_proto::feat::{Feature, Features};
use babelftp_proto::lang::LangTag;
use babelftp_proto::listing::parse::{parse_listing, ParsedKind};
use babelftp_proto::path::WirePath;
use babelftp_proto::reply::{Reply, ReplyCode};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::control::{Control, Error};
use crate::tls::{SessionTls, Stream, TlsMode, TlsOptions, TlsVersion};

/// How long a data connection may take to open (connect or accept, and
/// its TLS handshake).
const DATA_OPEN_TIMEOUT: Duration = Duration::from_secs(30);

/// How to connect and log in.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Login name; empty means `anonymous`.
    pub user: Vec<u8>,
    /// Password.
    pub password: Vec<u8>,
    /// Language to ask for; `None`: the user's locale.
    pub lang: Option<String>,
    /// Name for HOST (RFC 7151), normally the URL's host.
    pub host: Option<String>,
    /// Active mode (EPRT/PORT) instead of passive.
    pub active: bool,
    /// Print the control dialogue to stderr (passwords hidden).
    pub verbose: bool,
    /// FTPS.
    pub tls: TlsOptions,
    /// At most this many octets a second through a data connection
    /// (curl's `--limit-rate`); `None`: as fast as it goes.
    pub rate_limit: Option<u64>,
}

/// Keeps a transfer at or under a rate: after each piece, waits until the
/// clock has caught up with the octets moved so far.
struct Pace {
    rate: Option<u64>,
    start: tokio::time::Instant,
}

impl Pace {
    fn new(rate: Option<u64>) -> Pace {
        Pace {
            rate: rate.filter(|&r| r > 0),
            start: tokio::time::Instant::now(),
        }
    }

    /// How much to move at a time: a tenth of a second's worth (at least
    /// 1 KiB), so the rate is even, not bursts of a whole buffer.
    fn piece(&self, buf: usize) -> usize {
        match self.rate {
            Some(r) => usize::try_from(r / 10).unwrap_or(buf).clamp(1024, buf),
            None => buf,
        }
    }

    async fn after(&self, total: u64) {
        if let Some(r) = self.rate {
            let due = self.start + Duration::from_secs_f64(total as f64 / r as f64);
            tokio::time::sleep_until(due).await;
        }
    }
}

/// One entry of a remote listing: the name exactly as the server sent it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteEntry {
    /// The name's bytes, as sent; use them to address the file.
    pub name: Vec<u8>,
    /// Directory?
    pub is_dir: bool,
    /// A symbolic link the server lists as one (it did not show what it
    /// links to: a link it does not follow, or a server that lists links).
    pub is_link: bool,
    /// Size, when known.
    pub size: Option<u64>,
    /// Modification time (Unix seconds, UTC), when known.
    pub modified: Option<i64>,
}

/// Where an upload writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreMode {
    /// STOR: replace.
    Replace,
    /// APPE: append.
    Append,
    /// REST n + STOR: resume at n.
    At(u64),
}

/// A logged-in session.
pub struct Client {
    control: Control,
    /// What the server announced.
    pub features: Features,
    /// The language the server accepted, if any.
    pub lang: Option<String>,
    /// Whether `OPTS UTF8 ON` was accepted.
    pub utf8_on: bool,
    /// Automatic choices made (language, charset…), for `-v`.
    pub notes: Vec<String>,
    peer: IpAddr,
    active: bool,
    epsv: bool,
    /// TYPE A: line ends are CR LF on the wire, LF here.
    ascii: bool,
    /// The session's TLS (control and `PROT P` data connections).
    tls: Option<SessionTls>,
    /// Where and how it connected (to renew a TLS 1.3 session).
    origin: Origin,
    /// The last SIZE answer: the path, the size, and when and after how
    /// many lines sent it came ([`Client::size`]).
    size_memo: Option<SizeMemo>,
}

/// A SIZE answer kept for a repeated question.
struct SizeMemo {
    path: Vec<u8>,
    size: Option<u64>,
    sent: u64,
    at: std::time::Instant,
}

/// How long a SIZE answer may be reused (when nothing else was sent since).
const SIZE_MEMO_TTL: Duration = Duration::from_secs(5);

/// What [`Client::connect`] was given, and the TLS version it settled on.
#[derive(Clone)]
struct Origin {
    host: String,
    port: u16,
    opts: Options,
    version: TlsVersion,
}

fn ok(r: Reply) -> Result<Reply, Error> {
    if r.code.is_negative() {
        Err(Error::Refused(r))
    } else {
        Ok(r)
    }
}

/// The server tag that best serves `wanted` (RFC 4647 filtering: `fr-CA`
/// finds `fr`, `pt` finds `pt-BR`).
pub fn choose_language(wanted: &str, offered: &[LangTag]) -> Option<LangTag> {
    use fluent_langneg::{negotiate_languages, NegotiationStrategy};
    use unic_langid::LanguageIdentifier;
    if let Some(t) = offered.iter().find(|t| t.as_str().eq_ignore_ascii_case(wanted)) {
        return Some(t.clone());
    }
    let want: LanguageIdentifier = wanted.parse().ok()?;
    let avail: Vec<(LanguageIdentifier, &LangTag)> = offered
        .iter()
        .filter_map(|t| Some((t.as_str().parse().ok()?, t)))
        .collect();
    let ids: Vec<&LanguageIdentifier> = avail.iter().map(|(i, _)| i).collect();
    let chosen = negotiate_languages(&[&want], &ids, None, NegotiationStrategy::Filtering);
    let first = chosen.first()?;
    avail.iter().find(|(i, _)| i == **first).map(|(_, t)| (*t).clone())
}

impl Client {
    /// Connects, negotiates and logs in. With TLS ([`Options::tls`]), the
    /// control connection is protected before anything else is said
    /// (explicit: `AUTH TLS`, then `PBSZ 0` and `PROT P`; implicit: TLS
    /// from the first octet), and every data connection resumes its TLS
    /// session.
    pub async fn connect(host: &str, port: u16, opts: &Options) -> Result<Client, Error> {
        let version = match (opts.tls.mode, opts.tls.version) {
            (TlsMode::Off, _) => TlsVersion::Auto,
            (_, TlsVersion::Auto) => match Client::connect_version(host, port, opts, TlsVersion::Tls12).await {
                Err(Error::Handshake(e)) if !is_certificate_error(&e) => {
                    let mut c = Client::connect_version(host, port, opts, TlsVersion::Tls13).await?;
                    c.notes.push(format!("TLS 1.2 refused ({e}): TLS 1.3"));
                    return Ok(c);
                }
                other => return other,
            },
            (_, v) => v,
        };
        Client::connect_version(host, port, opts, version).await
    }

    async fn connect_version(host: &str, port: u16, opts: &Options, version: TlsVersion) -> Result<Client, Error> {
        let tls = match opts.tls.mode {
            TlsMode::Off => None,
            _ => Some(SessionTls::new(&opts.tls, host, version)?),
        };
        let implicit = tls.as_ref().filter(|_| opts.tls.mode == TlsMode::Implicit);
        let mut control = Control::connect_with((host, port), implicit).await?;
        control.verbose = opts.verbose;
        if let Some(tls) = &tls {
            if opts.tls.mode == TlsMode::Explicit {
                control = control.auth_tls(tls).await?;
            }
            // RFC 4217 8, 9: no buffering, then protected data connections.
            // Reading these replies also takes in the TLS 1.3 tickets the
            // server sent after its handshake.
            ok(control.command(&Command::Pbsz(0)).await?)?;
            let r = control.command(&Command::Prot(ProtLevel::Private)).await?;
            if !r.code.is_completion() {
                return Err(Error::TlsRefused(r));
            }
        }
        let peer = control.peer_ip()?;
        let feat_reply = control.command(&Command::Feat).await?;
        let features = Features::from_reply(&feat_reply);
        let mut c = Client {
            control,
            features,
            lang: None,
            utf8_on: false,
            notes: Vec::new(),
            peer,
            active: opts.active,
            epsv: true,
            ascii: false,
            tls,
            origin: Origin {
                host: host.to_owned(),
                port,
                opts: opts.clone(),
                version,
            },
            size_memo: None,
        };
        if let Some(v) = c.control.stream().version() {
            let how = if opts.tls.mode == TlsMode::Implicit {
                "implicit"
            } else {
                "AUTH TLS"
            };
            c.notes.push(format!("{v} ({how}), data connections PROT P"));
        }
        // RFC 7151: HOST before anything that depends on the virtual host;
        // a server resets the language on HOST, so LANG comes after it, and
        // the new host's features are asked for again.
        if let Some(h) = &opts.host {
            if c.features.has(&Feature::Host) {
                let r = c.control.command(&Command::Host(h.as_bytes().to_vec())).await?;
                c.notes.push(format!("HOST {h}: {}", r.code));
                if r.code.is_completion() {
                    c.features = Features::from_reply(&c.control.command(&Command::Feat).await?);
                }
            }
        }
        let wanted = opts.lang.clone().or_else(crate::locale::user_language);
        let mut lang_after_login = None;
        if let (Some(w), Some(fact)) = (&wanted, c.features.lang().cloned()) {
            match choose_language(w, &fact.tags) {
                Some(tag) => {
                    let r = c.control.command(&Command::Lang(Some(tag.clone()))).await?;
                    if r.code.is_completion() {
                        c.notes.push(format!("language: asked {w}, server serves {tag}"));
                        c.lang = Some(tag.to_string());
                    } else {
                        lang_after_login = Some(tag);
                    }
                }
                None => c.notes.push(format!("language: server offers none matching {w}")),
            }
        }
        if c.features.utf8() {
            let r = c
                .control
                .command(&Command::Opts("UTF8".into(), Some(b"ON".to_vec())))
                .await?;
            // Any 2xx counts (servers answer 200 or 202).
            c.utf8_on = r.code.is_completion();
        }
        let user = if opts.user.is_empty() {
            b"anonymous".to_vec()
        } else {
            opts.user.clone()
        };
        let password = if opts.user.is_empty() && opts.password.is_empty() {
            b"babelftp@".to_vec()
        } else {
            opts.password.clone()
        };
        c.control.login(&user, &password).await?;
        if let Some(tag) = lang_after_login {
            let r = c.control.command(&Command::Lang(Some(tag.clone()))).await?;
            if r.code.is_completion() {
                c.notes.push(format!("language: {tag} accepted after login"));
                c.lang = Some(tag.to_string());
            }
        }
        ok(c.control.command(&Command::Type(TransferType::Image)).await?)?;
        Ok(c)
    }

    /// TYPE A (text: CR LF on the wire, LF locally) or TYPE I (octets).
    pub async fn set_ascii(&mut self, ascii: bool) -> Result<(), Error> {
        let t = if ascii {
            TransferType::Ascii
        } else {
            TransferType::Image
        };
        self.run(Command::Type(t)).await?;
        self.ascii = ascii;
        Ok(())
    }

    /// The control connection (for raw commands: `quote`).
    pub fn control(&mut self) -> &mut Control {
        &mut self.control
    }

    /// Sends a command and fails on a 4xx/5xx reply.
    pub async fn run(&mut self, cmd: Command) -> Result<Reply, Error> {
        ok(self.control.command(&cmd).await?)
    }

    /// PWD: the current directory, as bytes.
    pub async fn pwd(&mut self) -> Result<Vec<u8>, Error> {
        let r = self.run(Command::Pwd).await?;
        Ok(WirePath::unquote_257(&r.lines[0])
            .map(WirePath::into_bytes)
            .unwrap_or_default())
    }

    /// CWD.
    pub async fn cwd(&mut self, dir: &[u8]) -> Result<(), Error> {
        self.run(Command::Cwd(WirePath::new(dir.to_vec()))).await.map(drop)
    }

    /// MKD.
    pub async fn mkdir(&mut self, dir: &[u8]) -> Result<(), Error> {
        self.run(Command::Mkd(WirePath::new(dir.to_vec()))).await.map(drop)
    }

    /// RMD.
    pub async fn rmdir(&mut self, dir: &[u8]) -> Result<(), Error> {
        self.run(Command::Rmd(WirePath::new(dir.to_vec()))).await.map(drop)
    }

    /// DELE.
    pub async fn delete(&mut self, file: &[u8]) -> Result<(), Error> {
        self.run(Command::Dele(WirePath::new(file.to_vec()))).await.map(drop)
    }

    /// RNFR + RNTO.
    pub async fn rename(&mut self, from: &[u8], to: &[u8]) -> Result<(), Error> {
        self.run(Command::Rnfr(WirePath::new(from.to_vec()))).await?;
        self.run(Command::Rnto(WirePath::new(to.to_vec()))).await.map(drop)
    }

    /// SIZE, when the server has it. Asked again for the same path with
    /// nothing else sent in between (and within a few seconds), the
    /// answer is the one already given: a caller that checked a file's
    /// existence with SIZE and then wants its size costs one SIZE.
    pub async fn size(&mut self, file: &[u8]) -> Result<Option<u64>, Error> {
        if let Some(m) = &self.size_memo {
            if m.path == file && m.sent == self.control.sent() && m.at.elapsed() < SIZE_MEMO_TTL {
                return Ok(m.size);
            }
        }
        let r = self
            .control
            .command(&Command::Size(WirePath::new(file.to_vec())))
            .await?;
        let size = if r.code == ReplyCode::FILE_STATUS {
            std::str::from_utf8(&r.lines[0])
                .ok()
                .and_then(|s| s.trim().parse().ok())
        } else {
            None
        };
        self.size_memo = Some(SizeMemo {
            path: file.to_vec(),
            size,
            sent: self.control.sent(),
            at: std::time::Instant::now(),
        });
        Ok(size)
    }

    /// Whether the server keeps the modification times a client sets: it
    /// offers MFMT (draft-somers-ftp-mfxx), and its listings (MLSD, RFC
    /// 3659 7) give times to the second, so a time read back can be
    /// compared with the one set.
    pub fn keeps_times(&self) -> bool {
        self.features.has(&Feature::Mfmt) && self.features.has(&Feature::Mlst(Vec::new()))
    }

    /// MFMT (draft-somers-ftp-mfxx 3): sets the last modification time of
    /// a remote file (Unix seconds, UTC). `Ok(false)`, with nothing sent,
    /// when the server does not offer MFMT; also `Ok(false)` when it
    /// answers that it has no such command or parameter after all (500,
    /// 502, 504). Any other refusal (550: no such file, not allowed) is
    /// [`Error::Refused`].
    pub async fn set_modified(&mut self, path: &[u8], unix_secs: i64) -> Result<bool, Error> {
        if !self.features.has(&Feature::Mfmt) {
            return Ok(false);
        }
        let r = self
            .control
            .command(&Command::Mfmt {
                time: unix_secs,
                path: WirePath::new(path.to_vec()),
            })
            .await?;
        match r.code {
            ReplyCode::SYNTAX_ERROR | ReplyCode::NOT_IMPLEMENTED | ReplyCode::PARAMETER_NOT_IMPLEMENTED => Ok(false),
            _ => ok(r).map(|_| true),
        }
    }

    /// QUIT.
    pub async fn quit(mut self) -> Result<(), Error> {
        self.control.command(&Command::Quit).await.map(drop)
    }

    /// Opens a data connection and sends `cmd` on it; returns the stream
    /// after the 1xx reply (with `PROT P`, after its TLS handshake). In
    /// passive mode the command goes out as soon as the server has given
    /// its port, while the connection to it is being made (the server
    /// waits for it): no wait for the connect between the 229 and the
    /// command, a round of the event loop per transfer.
    async fn data_command(&mut self, cmd: Command) -> Result<Stream, Error> {
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
    async fn ensure_resumable(&mut self) -> Result<(), Error> {
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
    async fn finish(&mut self) -> Result<Reply, Error> {
        ok(self.control.reply().await?)
    }

    /// Lists a directory: MLSD when the server offers MLST, else LIST.
    pub async fn list(&mut self, dir: Option<&[u8]>) -> Result<Vec<RemoteEntry>, Error> {
        let path = dir.map(|d| WirePath::new(d.to_vec()));
        let mlsd = self.features.has(&Feature::Mlst(Vec::new()));
        let cmd = if mlsd { Command::Mlsd(path) } else { Command::List(path) };
        self.ensure_resumable().await?;
        let mut stream = self.data_command(cmd).await?;
        let mut data = Vec::new();
        read_to_end(&mut stream, &mut data).await?;
        drop(stream);
        self.finish().await?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        Ok(parse_listing(&data, now, mlsd)
            .into_iter()
            .filter(|e| !matches!(e.kind, ParsedKind::CurrentDir | ParsedKind::ParentDir))
            .filter(|e| e.name != b"." && e.name != b"..")
            .map(|e| RemoteEntry {
                is_dir: matches!(e.kind, ParsedKind::Dir),
                is_link: matches!(e.kind, ParsedKind::Symlink { .. }),
                name: e.name,
                size: e.size,
                modified: e.modified,
            })
            .collect())
    }

    /// Downloads `file` from `offset` into `out`; `progress` gets the
    /// running count. Returns the octets received.
    pub async fn retr<W: AsyncWrite + Unpin>(
        &mut self,
        file: &[u8],
        offset: u64,
        out: &mut W,
        progress: &mut (dyn FnMut(u64) + Send),
    ) -> Result<u64, Error> {
        self.ensure_resumable().await?;
        if offset > 0 {
            let r = self.control.command(&Command::Rest(offset)).await?;
            if r.code != ReplyCode::PENDING {
                return Err(Error::Refused(r));
            }
        }
        let mut stream = self.data_command(Command::Retr(WirePath::new(file.to_vec()))).await?;
        let mut buf = vec![0u8; FIRST_BUF];
        let mut text = Vec::new();
        let mut lines = babelftp_proto::ascii::CrlfToLf::default();
        let mut total = 0u64;
        let pace = Pace::new(self.origin.opts.rate_limit);
        let piece = pace.piece(MAX_BUF);
        loop {
            let want = piece.min(buf.len());
            let n = read_data(&mut stream, &mut buf[..want]).await?;
            if n == 0 {
                break;
            }
            grow(&mut buf, n, piece);
            if self.ascii {
                text.clear();
                lines.push(&buf[..n], &mut text);
                out.write_all(&text).await?;
            } else {
                out.write_all(&buf[..n]).await?;
            }
            total += n as u64;
            progress(total);
            pace.after(total).await;
        }
        text.clear();
        lines.finish(&mut text);
        out.write_all(&text).await?;
        out.flush().await?;
        drop(stream);
        self.finish().await?;
        Ok(total)
    }

    /// Uploads `input` to `file`. Returns the octets sent.
    pub async fn stor<R: AsyncRead + Unpin>(
        &mut self,
        file: &[u8],
        mode: StoreMode,
        input: &mut R,
        progress: &mut (dyn FnMut(u64) + Send),
    ) -> Result<u64, Error> {
        Ok(self.stor_then(file, mode, input, progress, None).await?.0)
    }

    /// Uploads `input` to `file`, then sets its modification time to
    /// `time` (Unix seconds) as [`Client::set_modified`] does. To babelftp
    /// the MFMT goes right behind the data (see [`Client::finish_upload`]):
    /// a mirror's upload costs no round trip more than one without times.
    /// Returns the octets sent and whether the time was set.
    pub async fn stor_with_time<R: AsyncRead + Unpin>(
        &mut self,
        file: &[u8],
        input: &mut R,
        time: i64,
    ) -> Result<(u64, bool), Error> {
        let mfmt = self.features.has(&Feature::Mfmt).then(|| Command::Mfmt {
            time,
            path: WirePath::new(file.to_vec()),
        });
        let (n, reply) = self
            .stor_then(file, StoreMode::Replace, input, &mut |_| {}, mfmt)
            .await?;
        let set = match reply {
            Some(r) => match r.code {
                ReplyCode::SYNTAX_ERROR | ReplyCode::NOT_IMPLEMENTED | ReplyCode::PARAMETER_NOT_IMPLEMENTED => false,
                _ => ok(r).map(|_| true)?,
            },
            None => self.set_modified(file, time).await?,
        };
        Ok((n, set))
    }

    /// An upload, and `next` sent behind it where that is safe; the octets
    /// sent and `next`'s reply when it went (else the caller sends it).
    async fn stor_then<R: AsyncRead + Unpin>(
        &mut self,
        file: &[u8],
        mode: StoreMode,
        input: &mut R,
        progress: &mut (dyn FnMut(u64) + Send),
        next: Option<Command>,
    ) -> Result<(u64, Option<Reply>), Error> {
        self.ensure_resumable().await?;
        let path = WirePath::new(file.to_vec());
        let cmd = match mode {
            StoreMode::Replace => Command::Stor(path),
            StoreMode::Append => Command::Appe(path),
            StoreMode::At(n) => {
                let r = self.control.command(&Command::Rest(n)).await?;
                if r.code != ReplyCode::PENDING {
                    return Err(Error::Refused(r));
                }
                Command::Stor(path)
            }
        };
        let mut stream = self.data_command(cmd).await?;
        let mut buf = vec![0u8; FIRST_BUF];
        let mut text = Vec::new();
        let mut total = 0u64;
        let pace = Pace::new(self.origin.opts.rate_limit);
        let piece = pace.piece(MAX_BUF);
        loop {
            let want = piece.min(buf.len());
            let n = input.read(&mut buf[..want]).await?;
            if n == 0 {
                break;
            }
            grow(&mut buf, n, piece);
            if self.ascii {
                text.clear();
                babelftp_proto::ascii::lf_to_crlf(&buf[..n], &mut text);
                stream.write_all(&text).await?;
            } else {
                stream.write_all(&buf[..n]).await?;
            }
            total += n as u64;
            progress(total);
            pace.after(total).await;
        }
        // With TLS: close_notify, which tells the server the upload is
        // whole; then read until the server closes, so that nothing it sent
        // (TLS 1.3 tickets) is left unread, which would make our kernel
        // answer with a reset and cost the upload's tail.
        stream.shutdown().await?;
        if let Stream::Tls(_) = stream {
            // Read and drop (a server that keeps sending is cut by the
            // timeout; nothing is kept).
            let mut sink = tokio::io::sink();
            let _ = tokio::time::timeout(DATA_OPEN_TIMEOUT, tokio::io::copy(&mut stream, &mut sink)).await;
        }
        drop(stream);
        let next = self.finish_upload(next).await?;
        Ok((total, next))
    }

    /// Reads the final reply of an upload whose data connection is closed;
    /// `next`'s reply too when it was sent behind the upload.
    ///
    /// To babelftp, over a plain control connection, a command goes right
    /// behind the upload (`next`, or a NOOP): a server cannot tell a killed
    /// client's data FIN from a whole upload's, so babelftp waits a moment
    /// for a control FIN before it commits, and any octet from the client
    /// ends that wait. babelftp answers commands that came during a
    /// transfer after its final reply, in order. Only to babelftp (its
    /// greeting names it, as lftp tells servers by theirs): others may
    /// answer a command sent during a transfer at once (Pure-FTPd: 500),
    /// or drop it, and a reply that never comes would hang here.
    async fn finish_upload(&mut self, next: Option<Command>) -> Result<Option<Reply>, Error> {
        let babelftp = self
            .control
            .greeting
            .lines
            .iter()
            .any(|l| l.windows(8).any(|w| w == b"babelftp"));
        if !babelftp || !matches!(self.control.stream(), Stream::Plain(_)) {
            self.finish().await?;
            return Ok(None);
        }
        let noop = next.is_none();
        self.control.send(next.as_ref().unwrap_or(&Command::Noop)).await?;
        let done = self.control.reply().await?;
        if done.code == ReplyCode::UNAVAILABLE {
            // Closing: no reply to what was sent behind.
            return Err(Error::Refused(done));
        }
        // What was sent behind is answered whatever became of the upload,
        // and read so that the replies stay in step.
        let behind = self.control.reply().await;
        ok(done)?;
        match behind {
            Ok(r) if !noop => Ok(Some(r)),
            Ok(_) => Ok(None),
            // A connection that fails now fails the next command, not this
            // upload; `next` is sent again then.
            Err(_) if noop => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Guesses the charset of the names in `entries` (display only).
    pub fn guess_charset(entries: &[RemoteEntry]) -> Option<Charset> {
        match detect_names(entries.iter().map(|e| e.name.as_slice())) {
            Detected::Legacy(c) => Some(c),
            Detected::Ascii | Detected::Utf8 => None,
        }
    }
}

/// A transfer's first buffer: a small file (the many files of a mirror)
/// costs no zeroed 256 KiB (the memset was the client's largest
/// user-space cost in a mirror of 10,000 small files).
const FIRST_BUF: usize = 16 * 1024;
/// The largest a transfer's buffer grows.
const MAX_BUF: usize = 256 * 1024;

/// After a read of `n` octets into `buf`: a read that filled it makes it
/// four times larger, up to `piece` (a paced transfer's piece, else
/// [`MAX_BUF`]).
fn grow(buf: &mut Vec<u8>, n: usize, piece: usize) {
    if n == buf.len() && buf.len() < piece {
        buf.resize((buf.len() * 4).min(piece), 0);
    }
}

/// How a data connection is being made.
enum Opening {
    /// Passive: to connect to the server's port.
    Connect(SocketAddr),
    /// Active: waiting for the server.
    Listen(TcpListener),
}

/// Whether a failed handshake is about the certificate (which another TLS
/// version would not change).
fn is_certificate_error(e: &std::io::Error) -> bool {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        .is_some_and(|e| {
            matches!(
                e,
                rustls::Error::InvalidCertificate(_) | rustls::Error::NoCertificatesPresented
            )
        })
}

/// Reads data. Over TLS, a server that closes without close_notify ends
/// the data like a FIN does: whether the transfer was whole is then the
/// final reply's to say (226 over the protected control connection), as
/// curl and lftp take it.
async fn read_data(stream: &mut Stream, buf: &mut [u8]) -> Result<usize, Error> {
    match stream.read(buf).await {
        Ok(n) => Ok(n),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && matches!(stream, Stream::Tls(_)) => Ok(0),
        Err(e) => Err(e.into()),
    }
}

async fn read_to_end(stream: &mut Stream, out: &mut Vec<u8>) -> Result<(), Error> {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = read_data(stream, &mut buf).await?;
        if n == 0 {
            return Ok(());
        }
        out.extend_from_slice(&buf[..n]);
    }
}

/// The port of a 229 reply: `... (|||6446|)` (RFC 2428 3).
pub fn parse_229(text: &[u8]) -> Option<u16> {
    let open = text.iter().position(|&b| b == b'(')?;
    let inner = &text[open + 1..];
    let close = inner.iter().position(|&b| b == b')')?;
    let inner = &inner[..close];
    let d = *inner.first()?;
    let parts: Vec<&[u8]> = inner.split(|&b| b == d).collect();
    // "", "", "", port, ""
    if parts.len() != 5 {
        return None;
    }
    std::str::from_utf8(parts[3]).ok()?.parse().ok()
}

/// The port of a 227 reply: the last two of `h1,h2,h3,h4,p1,p2`, wherever
/// the numbers are in the text (servers differ on parentheses).
pub fn parse_227_port(text: &[u8]) -> Option<u16> {
    let start = text.iter().position(u8::is_ascii_digit)?;
    let nums: Vec<u16> = text[start..]
        .split(|b| !b.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .take(6)
        .filter_map(|s| std::str::from_utf8(s).ok()?.parse().ok())
        .collect();
    if nums.len() != 6 || nums.iter().any(|&n| n > 255) {
        return None;
    }
    Some(nums[4] << 8 | nums[5])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passive_replies() {
        assert_eq!(parse_229(b"Entering Extended Passive Mode (|||6446|)"), Some(6446));
        assert_eq!(parse_229(b"ok (!!!21!)"), Some(21));
        assert_eq!(parse_229(b"no port"), None);
        assert_eq!(parse_227_port(b"Entering Passive Mode (127,0,0,1,4,1)."), Some(1025));
        assert_eq!(parse_227_port(b"Entering Passive Mode 10,0,0,1,200,10"), Some(51210));
        assert_eq!(parse_227_port(b"(1,2,3)"), None);
    }

    #[test]
    fn language_choice_rfc4647() {
        let offered: Vec<LangTag> = ["en", "fr", "pt-BR", "zh-TW"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(choose_language("fr-CA", &offered).unwrap().as_str(), "fr");
        assert_eq!(choose_language("pt", &offered).unwrap().as_str(), "pt-BR");
        assert_eq!(choose_language("EN", &offered).unwrap().as_str(), "en");
        assert_eq!(choose_language("ja", &offered), None);
    }
}
