//! A logged-in FTP session: negotiation in the order RFC 2640 asks for,
//! then listings and transfers over data connections.
//!
//! Negotiation (RFC 2640 3.2, 4.1; RFC 7151): FEAT first; HOST when listed
//! (then FEAT again, for that host); LANG when the server lists LANG (the
//! tag from the options, else the user's locale, matched against the
//! server's list); `OPTS UTF8 ON` when UTF8 is listed; then USER/PASS. Old servers answer 500/502 to
//! any of it, and some refuse LANG before login: every step tolerates a
//! refusal, and a refused LANG is tried again after login.

mod data;
mod passive;
mod transfer;

use std::net::IpAddr;
use std::time::Duration;

use babelftp_proto::command::{Command, ProtLevel, TransferType};
use babelftp_proto::feat::{Feature, Features};
use babelftp_proto::lang::LangTag;
use babelftp_proto::path::WirePath;
use babelftp_proto::reply::{Reply, ReplyCode};

use crate::control::{Control, Error};
use crate::tls::{SessionTls, TlsMode, TlsOptions, TlsVersion};

pub use passive::{parse_227_port, parse_229};

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
