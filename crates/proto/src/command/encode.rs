//! A command as it goes on the wire ([`Command::to_line`]) and into logs
//! (`Display`).

use std::fmt;
use std::net::IpAddr;

use super::typed::{Command, EpsvArg, ProtLevel, Structure, TransferMode, TransferType};
use crate::line;
use crate::path::{self, PathError};

impl Command {
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
