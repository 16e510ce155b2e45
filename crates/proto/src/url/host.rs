//! The host part of an `ftp://` URL: a name, an IPv4 or an IPv6 address,
//! and its port.

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

use super::error::UrlError;
use super::escape::{check_raw_chars, decode, iri_keeps};

/// Where an `ftp://` URL points: the host part.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Host {
    /// A host name, as text (Unicode kept as is: no IDNA). Holds only ASCII
    /// letters, digits, `.`, `-`, `_` and non-ASCII characters that are
    /// neither controls, white space nor invisible; anything else does not
    /// survive a round trip through the URL text.
    Name(String),
    /// A dotted-quad IPv4 address.
    Ipv4(Ipv4Addr),
    /// An IPv6 address, written `[…]` in a URL.
    Ipv6(Ipv6Addr),
}

impl Host {
    /// Parses a host as written in a URL: a name (raw UTF-8 or `%HH`), a
    /// dotted-quad IPv4 address, or a bracketed IPv6 address. A bare IPv6
    /// address (`::1`) is accepted too, for command-line flags.
    pub fn parse(s: &str) -> Result<Host, UrlError> {
        check_raw_chars(s)?;
        if !s.starts_with('[') {
            if let Ok(addr) = s.parse::<Ipv6Addr>() {
                return Ok(Host::Ipv6(addr));
            }
        }
        match parse_host_port(s, 0)? {
            (host, None) => Ok(host),
            (_, Some(_)) => Err(UrlError::InvalidHost {
                host: s.to_owned(),
                reason: "a port is not part of a host",
            }),
        }
    }
}

impl FromStr for Host {
    type Err = UrlError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Host::parse(s)
    }
}

/// The host as a person reads it: a name as Unicode text, an IPv4 address,
/// or an IPv6 address in brackets.
impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Host::Name(name) => f.write_str(name),
            Host::Ipv4(addr) => write!(f, "{addr}"),
            Host::Ipv6(addr) => write!(f, "[{addr}]"),
        }
    }
}

pub(super) fn parse_host_port(s: &str, base: usize) -> Result<(Host, Option<u16>), UrlError> {
    let (host, port) = if let Some(rest) = s.strip_prefix('[') {
        let close = rest.find(']').ok_or(UrlError::UnclosedBracket)?;
        let literal = &rest[..close];
        let addr = literal
            .parse::<Ipv6Addr>()
            .map_err(|_| UrlError::InvalidIpv6(literal.to_owned()))?;
        let after = &rest[close + 1..];
        let port = if after.is_empty() {
            None
        } else if let Some(port) = after.strip_prefix(':') {
            Some(port)
        } else {
            return Err(UrlError::InvalidHost {
                host: s.to_owned(),
                reason: "only a :port may follow the ']'",
            });
        };
        (Host::Ipv6(addr), port)
    } else {
        let (name, port) = match s.find(':') {
            Some(c) => (&s[..c], Some(&s[c + 1..])),
            None => (s, None),
        };
        (parse_host_name(name, base)?, port)
    };
    let port = match port {
        None | Some("") => None,
        Some(port) => Some(parse_port(port)?),
    };
    Ok((host, port))
}

fn parse_host_name(s: &str, base: usize) -> Result<Host, UrlError> {
    if s.is_empty() {
        return Err(UrlError::MissingHost);
    }
    let invalid = |reason| UrlError::InvalidHost {
        host: s.to_owned(),
        reason,
    };
    let name = String::from_utf8(decode(s, base)?)
        .map_err(|_| invalid("its %-escapes are not UTF-8 (no IDNA or legacy charset here)"))?;
    if name.is_empty() {
        return Err(UrlError::MissingHost);
    }
    for c in name.chars() {
        let ok = if c.is_ascii() {
            c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_')
        } else {
            iri_keeps(c)
        };
        if !ok {
            return Err(invalid(
                "a host name holds letters, digits, '.', '-', '_' and visible non-ASCII text",
            ));
        }
    }
    if name.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        // RFC 1738: a toplabel starts with a letter, so this is an address.
        return name
            .parse::<Ipv4Addr>()
            .map(Host::Ipv4)
            .map_err(|_| invalid("not a valid dotted-quad IPv4 address"));
    }
    Ok(Host::Name(name))
}

fn parse_port(s: &str) -> Result<u16, UrlError> {
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(UrlError::InvalidPort(s.to_owned()));
    }
    s.bytes()
        .try_fold(0u32, |n, d| n.checked_mul(10)?.checked_add(u32::from(d - b'0')))
        .and_then(|n| u16::try_from(n).ok())
        .filter(|&n| n != 0)
        .ok_or_else(|| UrlError::PortOutOfRange(s.to_owned()))
}
