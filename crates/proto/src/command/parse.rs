//! The parser: one line to a [`Command`], or the [`ParseError`] that
//! says which reply it gets.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, SocketAddrV4};

use super::typed::{Command, EpsvArg, ProtLevel, Structure, TransferMode, TransferType};
use super::verb::Verb;
use crate::lang::LangTag;
use crate::path::{self, PathError, WirePath};
use crate::reply::ReplyCode;

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
