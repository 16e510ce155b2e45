//! Commands: one table of verbs, one parser, one encoder.
//!
//! RFC 959 5.3.1: `<command> ::= <verb> [<SP> <argument>] <CRLF>`. The verb
//! is ASCII and case-insensitive. RFC 2640 3.1 makes the separator exact:
//! "exactly one <SP> ... follows the command"; every further SP belongs to
//! the pathname, so `STOR<SP><SP><SP>` names the file `<SP><SP>`. Inside a
//! pathname `<CR><NUL>` means `<CR>`; a bare NUL is refused with 501.
//!
//! The verb table ([`Verb`]) is written once, by the `verbs!` macro: name,
//! RFC 775 aliases, whether login is required, and the RFC that defines it.
//! [`Command::parse`] is the only place that looks at verb text; the server
//! and the client both use [`Command`], the client through
//! [`Command::to_line`].

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, SocketAddrV4};

use crate::lang::LangTag;
use crate::line;
use crate::path::{self, PathError, WirePath};
use crate::reply::ReplyCode;

macro_rules! verbs {
    ($($variant:ident: [$($name:literal),+], login = $login:literal, $rfc:literal;)*) => {
        /// Every verb babelftp understands. Unknown verbs are
        /// [`ParseError::Unknown`] (reply 502).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Verb { $($variant,)* }

        impl Verb {
            /// All verbs, in table order (HELP lists them).
            pub const ALL: &'static [Verb] = &[$(Verb::$variant,)*];

            /// The verb's canonical name and its aliases.
            pub const fn names(self) -> &'static [&'static str] {
                match self { $(Verb::$variant => &[$($name),+],)* }
            }

            /// Whether the command needs a logged-in session (else 530).
            pub const fn needs_login(self) -> bool {
                match self { $(Verb::$variant => $login,)* }
            }

            /// The document and section that define the command.
            pub const fn rfc(self) -> &'static str {
                match self { $(Verb::$variant => $rfc,)* }
            }
        }
    };
}

verbs! {
    User: ["USER"], login = false, "RFC 959 4.1.1";
    Pass: ["PASS"], login = false, "RFC 959 4.1.1";
    Acct: ["ACCT"], login = false, "RFC 959 4.1.1";
    Cwd: ["CWD", "XCWD"], login = true, "RFC 959 4.1.1, RFC 775";
    Cdup: ["CDUP", "XCUP"], login = true, "RFC 959 4.1.1, RFC 775";
    Rein: ["REIN"], login = false, "RFC 959 4.1.1";
    Quit: ["QUIT"], login = false, "RFC 959 4.1.1";
    Port: ["PORT"], login = true, "RFC 959 4.1.2";
    Pasv: ["PASV"], login = true, "RFC 959 4.1.2";
    Type: ["TYPE"], login = false, "RFC 959 4.1.2";
    Stru: ["STRU"], login = false, "RFC 959 4.1.2";
    Mode: ["MODE"], login = false, "RFC 959 4.1.2";
    Retr: ["RETR"], login = true, "RFC 959 4.1.3";
    Stor: ["STOR"], login = true, "RFC 959 4.1.3";
    Stou: ["STOU"], login = true, "RFC 959 4.1.3, RFC 1123 4.1.2.9";
    Appe: ["APPE"], login = true, "RFC 959 4.1.3";
    Allo: ["ALLO"], login = true, "RFC 959 4.1.3";
    Rest: ["REST"], login = true, "RFC 959 4.1.3, RFC 3659 5";
    Rnfr: ["RNFR"], login = true, "RFC 959 4.1.3";
    Rnto: ["RNTO"], login = true, "RFC 959 4.1.3";
    Abor: ["ABOR"], login = true, "RFC 959 4.1.3";
    Dele: ["DELE"], login = true, "RFC 959 4.1.3";
    Rmd: ["RMD", "XRMD"], login = true, "RFC 959 4.1.3, RFC 775";
    Mkd: ["MKD", "XMKD"], login = true, "RFC 959 4.1.3, RFC 775";
    Pwd: ["PWD", "XPWD"], login = true, "RFC 959 4.1.3, RFC 775";
    List: ["LIST"], login = true, "RFC 959 4.1.3";
    Nlst: ["NLST"], login = true, "RFC 959 4.1.3";
    Site: ["SITE"], login = true, "RFC 959 4.1.3";
    Syst: ["SYST"], login = false, "RFC 959 4.1.3";
    Stat: ["STAT"], login = false, "RFC 959 4.1.3";
    Help: ["HELP"], login = false, "RFC 959 4.1.3";
    Noop: ["NOOP"], login = false, "RFC 959 4.1.3";
    Feat: ["FEAT"], login = false, "RFC 2389 3";
    Opts: ["OPTS"], login = false, "RFC 2389 4";
    Lang: ["LANG"], login = false, "RFC 2640 4.1";
    Host: ["HOST"], login = false, "RFC 7151 3";
    Eprt: ["EPRT"], login = true, "RFC 2428 2";
    Epsv: ["EPSV"], login = true, "RFC 2428 3";
    Mlst: ["MLST"], login = true, "RFC 3659 7";
    Mlsd: ["MLSD"], login = true, "RFC 3659 7";
    Size: ["SIZE"], login = true, "RFC 3659 4";
    Mdtm: ["MDTM"], login = true, "RFC 3659 3";
    Mfmt: ["MFMT"], login = true, "draft-somers-ftp-mfxx";
    Auth: ["AUTH"], login = false, "RFC 2228 3, RFC 4217 4";
    Pbsz: ["PBSZ"], login = false, "RFC 2228 3, RFC 4217 8";
    Prot: ["PROT"], login = false, "RFC 2228 3, RFC 4217 9";
    Ccc: ["CCC"], login = true, "RFC 2228 3, RFC 4217 6";
}

impl Verb {
    /// The canonical name (`XPWD` → `PWD`).
    pub fn name(self) -> &'static str {
        self.names()[0]
    }

    /// Looks a verb up by name, ignoring ASCII case.
    pub fn lookup(name: &[u8]) -> Option<Verb> {
        Verb::ALL
            .iter()
            .copied()
            .find(|v| v.names().iter().any(|n| n.as_bytes().eq_ignore_ascii_case(name)))
    }
}

/// `TYPE` argument (RFC 959 3.1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransferType {
    /// `A` (optionally `A N`): ASCII with CR LF line ends on the wire.
    Ascii,
    /// `I` or `L 8`: octets as they are.
    Image,
}

/// `STRU` argument; only `F` is supported (others parse, then 504).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Structure {
    /// File structure.
    File,
    /// Record structure.
    Record,
    /// Page structure.
    Page,
}

/// `MODE` argument; only `S` is supported (others parse, then 504).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransferMode {
    /// Stream.
    Stream,
    /// Block.
    Block,
    /// Compressed.
    Compressed,
}

/// `EPSV` argument (RFC 2428 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EpsvArg {
    /// No argument: the control connection's protocol.
    Any,
    /// `EPSV 1` (IPv4) or `EPSV 2` (IPv6).
    Protocol(u8),
    /// `EPSV ALL`: from now on only EPSV.
    All,
}

/// `PROT` argument (RFC 2228, RFC 4217 9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProtLevel {
    /// Clear.
    Clear,
    /// Safe.
    Safe,
    /// Confidential.
    Confidential,
    /// Private (TLS).
    Private,
}

/// A parsed command with typed arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    User(Vec<u8>),
    Pass(Vec<u8>),
    Acct(Vec<u8>),
    Cwd(WirePath),
    Cdup,
    Rein,
    Quit,
    Port(SocketAddrV4),
    Pasv,
    Type(TransferType),
    Stru(Structure),
    Mode(TransferMode),
    Retr(WirePath),
    Stor(WirePath),
    Stou(Option<WirePath>),
    Appe(WirePath),
    Allo(u64),
    Rest(u64),
    Rnfr(WirePath),
    Rnto(WirePath),
    Abor,
    Dele(WirePath),
    Rmd(WirePath),
    Mkd(WirePath),
    Pwd,
    List(Option<WirePath>),
    Nlst(Option<WirePath>),
    Site(Vec<u8>),
    Syst,
    Stat(Option<WirePath>),
    Help(Option<Vec<u8>>),
    Noop,
    Feat,
    /// `OPTS name [params]`: the name upper-cased, params as sent.
    Opts(String, Option<Vec<u8>>),
    Lang(Option<LangTag>),
    Host(Vec<u8>),
    Eprt(SocketAddr),
    Epsv(EpsvArg),
    Mlst(Option<WirePath>),
    Mlsd(Option<WirePath>),
    Size(WirePath),
    Mdtm(WirePath),
    /// `MFMT time-val pathname` (draft-somers-ftp-mfxx 3): set a file's
    /// last modification time.
    Mfmt {
        /// The new time, Unix seconds (UTC); a fraction sent is dropped.
        time: i64,
        /// The file.
        path: WirePath,
    },
    Auth(String),
    Pbsz(u64),
    Prot(ProtLevel),
    Ccc,
}

/// Why a line is not a command. Each kind maps to one reply code
/// ([`ParseError::code`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// An empty line (500).
    #[error("empty command line")]
    Empty,
    /// The verb is not ASCII letters (500).
    #[error("command verb is not ASCII letters")]
    Garbage,
    /// A well-formed verb we do not implement (502).
    #[error("command {0} not implemented")]
    Unknown(String),
    /// The verb needs an argument (501).
    #[error("{0:?} needs an argument")]
    MissingArgument(Verb),
    /// The verb takes no argument (501).
    #[error("{0:?} takes no argument")]
    UnexpectedArgument(Verb),
    /// The argument is malformed (501).
    #[error("{0:?}: bad argument: {1}")]
    BadArgument(Verb, &'static str),
    /// The pathname is malformed (501).
    #[error("{0:?}: {1}")]
    BadPath(Verb, PathError),
    /// A well-formed parameter we do not support (504).
    #[error("{0:?}: parameter not implemented")]
    UnsupportedParameter(Verb),
    /// EPRT/EPSV with a network protocol other than 1 or 2 (522).
    #[error("{0:?}: network protocol not supported")]
    UnsupportedProtocol(Verb),
}

impl ParseError {
    /// The reply code this error is answered with.
    pub fn code(&self) -> ReplyCode {
        match self {
            ParseError::Empty | ParseError::Garbage => ReplyCode::SYNTAX_ERROR,
            ParseError::Unknown(_) => ReplyCode::NOT_IMPLEMENTED,
            ParseError::MissingArgument(_)
            | ParseError::UnexpectedArgument(_)
            | ParseError::BadArgument(..)
            | ParseError::BadPath(..) => ReplyCode::ARGUMENT_ERROR,
            ParseError::UnsupportedParameter(_) => ReplyCode::PARAMETER_NOT_IMPLEMENTED,
            ParseError::UnsupportedProtocol(_) => ReplyCode::PROTOCOL_NOT_SUPPORTED,
        }
    }

    /// The verb concerned, when the verb was recognized.
    pub fn verb(&self) -> Option<Verb> {
        match self {
            ParseError::MissingArgument(v)
            | ParseError::UnexpectedArgument(v)
            | ParseError::BadArgument(v, _)
            | ParseError::BadPath(v, _)
            | ParseError::UnsupportedParameter(v)
            | ParseError::UnsupportedProtocol(v) => Some(*v),
            _ => None,
        }
    }
}

/// Longest verb text reported as "not implemented" rather than garbage.
const MAX_VERB: usize = 16;

/// Splits a line into verb and argument: the argument is everything after
/// the FIRST SP, untouched. `None` means no SP at all.
pub fn split_line(line: &[u8]) -> (&[u8], Option<&[u8]>) {
    match line.iter().position(|&b| b == b' ') {
        Some(i) => (&line[..i], Some(&line[i + 1..])),
        None => (line, None),
    }
}

impl Command {
    /// Parses one command line (without its CR LF).
    pub fn parse(line: &[u8]) -> Result<Command, ParseError> {
        if line.is_empty() {
            return Err(ParseError::Empty);
        }
        let (name, arg) = split_line(line);
        if name.is_empty() || name.len() > MAX_VERB || !name.iter().all(u8::is_ascii_alphabetic) {
            return Err(ParseError::Garbage);
        }
        let verb = Verb::lookup(name)
            .ok_or_else(|| ParseError::Unknown(name.to_ascii_uppercase().escape_ascii().to_string()))?;
        // "PWD " (an SP and nothing) is the same as "PWD".
        let arg = arg.filter(|a| !a.is_empty());
        let a = Arg { verb, arg };
        use Verb as V;
        Ok(match verb {
            V::User => Command::User(a.bytes()?),
            V::Pass => Command::Pass(a.optional_bytes()?.unwrap_or_default()),
            V::Acct => Command::Acct(a.bytes()?),
            V::Cwd => Command::Cwd(a.path()?),
            V::Cdup => a.none(Command::Cdup)?,
            V::Rein => a.none(Command::Rein)?,
            V::Quit => a.none(Command::Quit)?,
            V::Port => Command::Port(parse_port(verb, a.text()?)?),
            V::Pasv => a.none(Command::Pasv)?,
            V::Type => Command::Type(parse_type(verb, a.text()?)?),
            V::Stru => Command::Stru(match a.letter()? {
                b'F' => Structure::File,
                b'R' => Structure::Record,
                b'P' => Structure::Page,
                _ => return Err(ParseError::BadArgument(verb, "expected F, R or P")),
            }),
            V::Mode => Command::Mode(match a.letter()? {
                b'S' => TransferMode::Stream,
                b'B' => TransferMode::Block,
                b'C' => TransferMode::Compressed,
                _ => return Err(ParseError::BadArgument(verb, "expected S, B or C")),
            }),
            V::Retr => Command::Retr(a.path()?),
            V::Stor => Command::Stor(a.path()?),
            V::Stou => Command::Stou(a.optional_path()?),
            V::Appe => Command::Appe(a.path()?),
            V::Allo => {
                // "ALLO n [R m]": only the size matters to us.
                let t = a.text()?;
                let first = t.split(' ').next().unwrap_or_default();
                Command::Allo(parse_u64(verb, first)?)
            }
            V::Rest => Command::Rest(parse_u64(verb, a.text()?)?),
            V::Rnfr => Command::Rnfr(a.path()?),
            V::Rnto => Command::Rnto(a.path()?),
            V::Abor => a.none(Command::Abor)?,
            V::Dele => Command::Dele(a.path()?),
            V::Rmd => Command::Rmd(a.path()?),
            V::Mkd => Command::Mkd(a.path()?),
            V::Pwd => a.none(Command::Pwd)?,
            V::List => Command::List(a.optional_path()?),
            V::Nlst => Command::Nlst(a.optional_path()?),
            V::Site => Command::Site(a.bytes()?),
            V::Syst => a.none(Command::Syst)?,
            V::Stat => Command::Stat(a.optional_path()?),
            V::Help => Command::Help(a.optional_bytes()?),
            V::Noop => a.none(Command::Noop)?,
            V::Feat => a.none(Command::Feat)?,
            V::Opts => {
                let raw = a.bytes()?;
                let (name, params) = split_line(&raw);
                if name.is_empty() || !name.iter().all(u8::is_ascii_graphic) {
                    return Err(ParseError::BadArgument(verb, "bad option name"));
                }
                let name = String::from_utf8(name.to_ascii_uppercase())
                    .map_err(|_| ParseError::BadArgument(verb, "bad option name"))?;
                Command::Opts(name, params.map(<[u8]>::to_vec))
            }
            V::Lang => Command::Lang(match a.arg {
                None => None,
                Some(t) => {
                    Some(LangTag::parse(t).map_err(|_| ParseError::BadArgument(verb, "malformed language tag"))?)
                }
            }),
            V::Host => Command::Host(a.bytes()?),
            V::Eprt => Command::Eprt(parse_eprt(verb, a.text()?)?),
            V::Epsv => Command::Epsv(match a.arg {
                None => EpsvArg::Any,
                Some(t) if t.eq_ignore_ascii_case(b"ALL") => EpsvArg::All,
                Some(b"1") => EpsvArg::Protocol(1),
                Some(b"2") => EpsvArg::Protocol(2),
                Some(t) if t.iter().all(u8::is_ascii_digit) => return Err(ParseError::UnsupportedProtocol(verb)),
                Some(_) => return Err(ParseError::BadArgument(verb, "expected ALL, 1 or 2")),
            }),
            V::Mlst => Command::Mlst(a.optional_path()?),
            V::Mlsd => Command::Mlsd(a.optional_path()?),
            V::Size => Command::Size(a.path()?),
            V::Mdtm => Command::Mdtm(a.path()?),
            V::Mfmt => {
                let (time, path) = a.time_and_path()?;
                Command::Mfmt { time, path }
            }
            V::Auth => Command::Auth(a.text()?.to_ascii_uppercase()),
            V::Pbsz => Command::Pbsz(parse_u64(verb, a.text()?)?),
            V::Prot => Command::Prot(match a.letter()? {
                b'C' => ProtLevel::Clear,
                b'S' => ProtLevel::Safe,
                b'E' => ProtLevel::Confidential,
                b'P' => ProtLevel::Private,
                _ => return Err(ParseError::BadArgument(verb, "expected C, S, E or P")),
            }),
            V::Ccc => a.none(Command::Ccc)?,
        })
    }

    /// The verb of this command.
    pub fn verb(&self) -> Verb {
        use Command as C;
        match self {
            C::User(_) => Verb::User,
            C::Pass(_) => Verb::Pass,
            C::Acct(_) => Verb::Acct,
            C::Cwd(_) => Verb::Cwd,
            C::Cdup => Verb::Cdup,
            C::Rein => Verb::Rein,
            C::Quit => Verb::Quit,
            C::Port(_) => Verb::Port,
            C::Pasv => Verb::Pasv,
            C::Type(_) => Verb::Type,
            C::Stru(_) => Verb::Stru,
            C::Mode(_) => Verb::Mode,
            C::Retr(_) => Verb::Retr,
            C::Stor(_) => Verb::Stor,
            C::Stou(_) => Verb::Stou,
            C::Appe(_) => Verb::Appe,
            C::Allo(_) => Verb::Allo,
            C::Rest(_) => Verb::Rest,
            C::Rnfr(_) => Verb::Rnfr,
            C::Rnto(_) => Verb::Rnto,
            C::Abor => Verb::Abor,
            C::Dele(_) => Verb::Dele,
            C::Rmd(_) => Verb::Rmd,
            C::Mkd(_) => Verb::Mkd,
            C::Pwd => Verb::Pwd,
            C::List(_) => Verb::List,
            C::Nlst(_) => Verb::Nlst,
            C::Site(_) => Verb::Site,
            C::Syst => Verb::Syst,
            C::Stat(_) => Verb::Stat,
            C::Help(_) => Verb::Help,
            C::Noop => Verb::Noop,
            C::Feat => Verb::Feat,
            C::Opts(..) => Verb::Opts,
            C::Lang(_) => Verb::Lang,
            C::Host(_) => Verb::Host,
            C::Eprt(_) => Verb::Eprt,
            C::Epsv(_) => Verb::Epsv,
            C::Mlst(_) => Verb::Mlst,
            C::Mlsd(_) => Verb::Mlsd,
            C::Size(_) => Verb::Size,
            C::Mdtm(_) => Verb::Mdtm,
            C::Mfmt { .. } => Verb::Mfmt,
            C::Auth(_) => Verb::Auth,
            C::Pbsz(_) => Verb::Pbsz,
            C::Prot(_) => Verb::Prot,
            C::Ccc => Verb::Ccc,
        }
    }

    /// The pathname this command names, if it names one (not SITE's).
    pub fn pathname(&self) -> Option<&WirePath> {
        use Command as C;
        match self {
            C::Cwd(p)
            | C::Retr(p)
            | C::Stor(p)
            | C::Appe(p)
            | C::Rnfr(p)
            | C::Rnto(p)
            | C::Dele(p)
            | C::Rmd(p)
            | C::Mkd(p)
            | C::Size(p)
            | C::Mdtm(p)
            | C::Mfmt { path: p, .. } => Some(p),
            C::Stou(p) | C::List(p) | C::Nlst(p) | C::Stat(p) | C::Mlst(p) | C::Mlsd(p) => p.as_ref(),
            _ => None,
        }
    }

    /// The argument as it goes on the wire, before CR NUL padding.
    fn argument(&self) -> Option<Vec<u8>> {
        use Command as C;
        match self {
            C::User(b) | C::Acct(b) | C::Site(b) | C::Host(b) => Some(b.clone()),
            C::Pass(b) => Some(b.clone()),
            C::Cwd(p)
            | C::Retr(p)
            | C::Stor(p)
            | C::Appe(p)
            | C::Rnfr(p)
            | C::Rnto(p)
            | C::Dele(p)
            | C::Rmd(p)
            | C::Mkd(p)
            | C::Size(p)
            | C::Mdtm(p) => Some(p.as_bytes().to_vec()),
            C::Stou(p) | C::List(p) | C::Nlst(p) | C::Stat(p) | C::Mlst(p) | C::Mlsd(p) => {
                p.as_ref().map(|p| p.as_bytes().to_vec())
            }
            C::Mfmt { time, path } => {
                let mut v = crate::listing::Civil::from_unix(*time).time_val().into_bytes();
                v.push(b' ');
                v.extend_from_slice(path.as_bytes());
                Some(v)
            }
            C::Help(b) => b.clone(),
            C::Port(a) => {
                let o = a.ip().octets();
                let p = a.port();
                Some(format!("{},{},{},{},{},{}", o[0], o[1], o[2], o[3], p >> 8, p & 0xff).into_bytes())
            }
            C::Eprt(a) => {
                let (n, ip) = match a.ip() {
                    IpAddr::V4(ip) => (1, ip.to_string()),
                    IpAddr::V6(ip) => (2, ip.to_string()),
                };
                Some(format!("|{n}|{ip}|{}|", a.port()).into_bytes())
            }
            C::Epsv(EpsvArg::Any) => None,
            C::Epsv(EpsvArg::All) => Some(b"ALL".to_vec()),
            C::Epsv(EpsvArg::Protocol(n)) => Some(n.to_string().into_bytes()),
            C::Type(TransferType::Ascii) => Some(b"A".to_vec()),
            C::Type(TransferType::Image) => Some(b"I".to_vec()),
            C::Stru(s) => Some(
                match s {
                    Structure::File => "F",
                    Structure::Record => "R",
                    Structure::Page => "P",
                }
                .into(),
            ),
            C::Mode(m) => Some(
                match m {
                    TransferMode::Stream => "S",
                    TransferMode::Block => "B",
                    TransferMode::Compressed => "C",
                }
                .into(),
            ),
            C::Prot(p) => Some(
                match p {
                    ProtLevel::Clear => "C",
                    ProtLevel::Safe => "S",
                    ProtLevel::Confidential => "E",
                    ProtLevel::Private => "P",
                }
                .into(),
            ),
            C::Allo(n) | C::Rest(n) | C::Pbsz(n) => Some(n.to_string().into_bytes()),
            C::Opts(name, params) => {
                let mut v = name.as_bytes().to_vec();
                if let Some(p) = params {
                    v.push(b' ');
                    v.extend_from_slice(p);
                }
                Some(v)
            }
            C::Lang(t) => t.as_ref().map(|t| t.as_str().as_bytes().to_vec()),
            C::Auth(m) => Some(m.as_bytes().to_vec()),
            C::Cdup | C::Rein | C::Quit | C::Pasv | C::Abor | C::Pwd | C::Syst | C::Noop | C::Feat | C::Ccc => None,
        }
    }

    /// The line to send, CR LF included: verb, exactly one SP, the argument
    /// with every CR padded with NUL (RFC 2640 3.1), so a `CR LF` inside a
    /// name travels as `CR NUL LF` and does not end the line, and every
    /// `0xFF` doubled as telnet `IAC IAC` (RFC 854). A NUL, or an LF that
    /// does not follow a CR, is refused so that no name can inject a
    /// command.
    pub fn to_line(&self) -> Result<Vec<u8>, PathError> {
        let mut out = self.verb().name().as_bytes().to_vec();
        if let Some(arg) = self.argument() {
            if let Some(i) = path::bare_lf(&arg) {
                return Err(PathError::LineFeed(i));
            }
            // A NUL cannot be sent either: the peer would refuse it, or
            // read "CR NUL" as a padded CR.
            if let Some(i) = arg.iter().position(|&b| b == 0) {
                return Err(PathError::BareNul(i));
            }
            out.push(b' ');
            line::push_escaping_iac(&mut out, &path::pad_cr(&arg));
        }
        out.extend_from_slice(b"\r\n");
        Ok(out)
    }
}

impl fmt::Display for Command {
    /// For logs: the verb and argument, with the password hidden; UTF-8
    /// names as text, other octets, controls and bidi controls as `%HH`
    /// ([`crate::display::PlainPath`]: no isolation marks, which are for
    /// terminals and would keep `grep 'STOR שלום.txt'` from matching).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.verb().name())?;
        match self {
            Command::Pass(_) => f.write_str(" ****"),
            _ => match self.argument() {
                Some(a) => write!(f, " {}", crate::display::PlainPath(&a)),
                None => Ok(()),
            },
        }
    }
}

/// Argument accessors that turn absence/presence into the right error.
struct Arg<'a> {
    verb: Verb,
    arg: Option<&'a [u8]>,
}

impl<'a> Arg<'a> {
    fn none(&self, c: Command) -> Result<Command, ParseError> {
        match self.arg {
            None => Ok(c),
            Some(_) => Err(ParseError::UnexpectedArgument(self.verb)),
        }
    }

    fn raw(&self) -> Result<&'a [u8], ParseError> {
        self.arg.ok_or(ParseError::MissingArgument(self.verb))
    }

    fn bytes(&self) -> Result<Vec<u8>, ParseError> {
        path::unpad_cr_nul(self.raw()?).map_err(|e| ParseError::BadPath(self.verb, e))
    }

    fn optional_bytes(&self) -> Result<Option<Vec<u8>>, ParseError> {
        self.arg.map(|_| self.bytes()).transpose()
    }

    fn path(&self) -> Result<WirePath, ParseError> {
        WirePath::from_wire(self.raw()?).map_err(|e| ParseError::BadPath(self.verb, e))
    }

    fn optional_path(&self) -> Result<Option<WirePath>, ParseError> {
        self.arg.map(|_| self.path()).transpose()
    }

    /// `time-val SP pathname` (MFMT, draft-somers-ftp-mfxx 3): the time
    /// (RFC 3659 2.3 `YYYYMMDDHHMMSS[.sss]`, UTC, a real calendar date) as
    /// Unix seconds, then exactly one SP and the pathname under the same
    /// rules as every other pathname (RFC 2640 3.1).
    fn time_and_path(&self) -> Result<(i64, WirePath), ParseError> {
        let raw = self.raw()?;
        let (time, path) = split_line(raw);
        let path = path
            .filter(|p| !p.is_empty())
            .ok_or(ParseError::BadArgument(self.verb, "expected a time and a pathname"))?;
        let time = crate::listing::parse::time_val(time).ok_or(ParseError::BadArgument(
            self.verb,
            "bad time value (YYYYMMDDHHMMSS, UTC)",
        ))?;
        let path = WirePath::from_wire(path).map_err(|e| ParseError::BadPath(self.verb, e))?;
        Ok((time, path))
    }

    /// An ASCII argument (numbers, type codes, addresses).
    fn text(&self) -> Result<&'a str, ParseError> {
        let raw = self.raw()?;
        if !raw.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
            return Err(ParseError::BadArgument(self.verb, "argument must be printable ASCII"));
        }
        std::str::from_utf8(raw).map_err(|_| ParseError::BadArgument(self.verb, "argument must be ASCII"))
    }

    /// A single letter argument, upper-cased.
    fn letter(&self) -> Result<u8, ParseError> {
        match self.raw()? {
            [c] if c.is_ascii_alphabetic() => Ok(c.to_ascii_uppercase()),
            _ => Err(ParseError::BadArgument(self.verb, "expected one letter")),
        }
    }
}

fn parse_u64(verb: Verb, s: &str) -> Result<u64, ParseError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::BadArgument(verb, "expected a decimal number"));
    }
    s.parse().map_err(|_| ParseError::BadArgument(verb, "number too large"))
}

fn parse_type(verb: Verb, s: &str) -> Result<TransferType, ParseError> {
    let up = s.to_ascii_uppercase();
    let mut parts = up.split(' ');
    let code = parts.next().unwrap_or_default();
    let param = parts.next();
    if parts.next().is_some() {
        return Err(ParseError::BadArgument(verb, "too many parameters"));
    }
    match (code, param) {
        ("A", None | Some("N")) => Ok(TransferType::Ascii),
        ("A", Some("T" | "C")) | ("E", _) => Err(ParseError::UnsupportedParameter(verb)),
        ("I", None) | ("L", Some("8")) => Ok(TransferType::Image),
        ("L", Some(_)) => Err(ParseError::UnsupportedParameter(verb)),
        _ => Err(ParseError::BadArgument(verb, "expected A, I or L 8")),
    }
}

/// `PORT h1,h2,h3,h4,p1,p2` (RFC 959 4.1.2).
fn parse_port(verb: Verb, s: &str) -> Result<SocketAddrV4, ParseError> {
    let mut n = [0u8; 6];
    let mut parts = s.split(',');
    for slot in &mut n {
        let p = parts
            .next()
            .ok_or(ParseError::BadArgument(verb, "expected h1,h2,h3,h4,p1,p2"))?;
        let p = p.trim();
        if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseError::BadArgument(verb, "expected h1,h2,h3,h4,p1,p2"));
        }
        *slot = p
            .parse()
            .map_err(|_| ParseError::BadArgument(verb, "number above 255"))?;
    }
    if parts.next().is_some() {
        return Err(ParseError::BadArgument(verb, "expected h1,h2,h3,h4,p1,p2"));
    }
    Ok(SocketAddrV4::new(
        Ipv4Addr::new(n[0], n[1], n[2], n[3]),
        u16::from(n[4]) << 8 | u16::from(n[5]),
    ))
}

/// `EPRT <d><net-prt><d><net-addr><d><tcp-port><d>` (RFC 2428 2); the
/// delimiter is any printable ASCII character.
fn parse_eprt(verb: Verb, s: &str) -> Result<SocketAddr, ParseError> {
    let bad = ParseError::BadArgument(verb, "expected |proto|address|port|");
    let d = s.chars().next().ok_or(bad.clone())?;
    if !d.is_ascii_graphic() || d.is_ascii_alphanumeric() {
        return Err(bad);
    }
    let fields: Vec<&str> = s.split(d).collect();
    // "" proto addr port ""
    if fields.len() != 5 || !fields[0].is_empty() || !fields[4].is_empty() {
        return Err(bad);
    }
    let port: u16 = fields[3].parse().map_err(|_| bad.clone())?;
    let ip: IpAddr = match fields[1] {
        "1" => IpAddr::V4(fields[2].parse().map_err(|_| bad.clone())?),
        "2" => IpAddr::V6(fields[2].parse().map_err(|_| bad.clone())?),
        p if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => {
            return Err(ParseError::UnsupportedProtocol(verb))
        }
        _ => return Err(bad),
    };
    Ok(SocketAddr::new(ip, port))
}

#[cfg(test)]
mod tests;

/// Fuzzing entry point: frames arbitrary control-connection bytes into
/// lines, parses each, and asserts that every parsed command survives
/// [`Command::to_line`], framing by a [`LineReader`](line::LineReader) and a
/// second parse unchanged, and that every error maps to a 5xx reply.
#[doc(hidden)]
pub fn fuzz_control(input: &[u8]) {
    use crate::line::{LineEvent, LineReader, Status};
    // The line a peer's LineReader frames out of `wire`, which must be
    // exactly one line.
    fn reframe(wire: &[u8]) -> Vec<u8> {
        let mut r = LineReader::new(64 * 1024);
        match r.advance(wire) {
            (n, Status::Complete(LineEvent::Line(l))) if n == wire.len() => l,
            other => panic!("{} is not one line: {other:?}", wire.escape_ascii()),
        }
    }
    let mut reader = LineReader::new(512);
    let mut rest = input;
    loop {
        let (n, st) = reader.advance(rest);
        rest = &rest[n..];
        let line = match st {
            Status::Partial => break,
            Status::Complete(LineEvent::Line(l)) => l,
            Status::Complete(_) => continue,
        };
        assert!(line.len() <= 513, "line longer than the bound");
        match Command::parse(&line) {
            Ok(cmd) => {
                let wire = match cmd.to_line() {
                    Ok(w) => w,
                    Err(e) => panic!("parsed {cmd:?} cannot be sent again: {e}"),
                };
                let again = Command::parse(&reframe(&wire));
                assert_eq!(again.as_ref(), Ok(&cmd), "round trip of {}", line.escape_ascii());
            }
            Err(e) => assert!(e.code().is_permanent()),
        }
    }
}
