//! A command with typed arguments, and the arguments of TYPE, STRU, MODE,
//! EPSV and PROT.

use std::net::{SocketAddr, SocketAddrV4};

use super::verb::Verb;
use crate::lang::LangTag;
use crate::path::WirePath;

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

impl Command {
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
}
