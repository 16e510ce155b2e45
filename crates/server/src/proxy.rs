//! The PROXY protocol (HAProxy's, versions 1 and 2) in front of the control
//! and passive data connections, for nodes behind an L4 load balancer.
//!
//! Only connections from the configured proxies (`proxy_protocol_from`)
//! are read for a header, and from them the header is mandatory, as
//! HAProxy's `accept-proxy` has it: a connection from a trusted proxy
//! without a valid header is closed, and a header from anyone else is not
//! looked for (it reaches the session as an unknown command, 500). The
//! header is read octet by octet up to its end and no further, so nothing
//! the client sends after it is lost.
//!
//! With a header, the client's address in it is the session's peer: the
//! logs, the xferlog, the per-IP limits and the check that a passive data
//! connection comes from the control connection's peer all see the real
//! client. A `LOCAL` header (v2) or `UNKNOWN` (v1), the balancer's own
//! health checks, keeps the proxy's address.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use proxy_header::{Error as HeaderError, ParseConfig, ProxyHeader};
use tokio::io::{AsyncRead, AsyncReadExt};

use crate::config::Cidr;

/// The longest header accepted: v1 is at most 107 octets; v2 is 16 plus
/// its addresses and TLVs, which a balancer keeps small.
const MAX_HEADER: usize = 4096;

/// How long a trusted proxy may take to send its header.
pub(crate) const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a connection from a trusted proxy was refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ProxyError {
    #[error("no PROXY header within {0:?}")]
    Timeout(Duration),
    #[error("invalid PROXY header: {0}")]
    Invalid(String),
    #[error("connection closed before the PROXY header ended")]
    Closed,
    #[error("reading the PROXY header: {0}")]
    Io(#[from] std::io::Error),
}

/// Whether `ip` is one of the configured proxies.
pub(crate) fn trusted(proxies: &[Cidr], ip: IpAddr) -> bool {
    proxies.iter().any(|c| c.contains(ip))
}

/// Reads the header at the start of `stream`; `Ok(Some(source))` is the
/// client's address, `Ok(None)` a health check (LOCAL/UNKNOWN).
pub(crate) async fn read_header<S: AsyncRead + Unpin>(
    stream: &mut S,
    timeout: Duration,
) -> Result<Option<SocketAddr>, ProxyError> {
    match tokio::time::timeout(timeout, read(stream)).await {
        Ok(r) => r,
        Err(_) => Err(ProxyError::Timeout(timeout)),
    }
}

async fn read<S: AsyncRead + Unpin>(stream: &mut S) -> Result<Option<SocketAddr>, ProxyError> {
    let mut buf = Vec::with_capacity(128);
    loop {
        // v2: the 16-octet fixed part says how long the rest is; v1: a line.
        let want = if buf.first() == Some(&b'\r') && buf.len() >= 16 {
            16 + usize::from(u16::from_be_bytes([buf[14], buf[15]]))
        } else if buf.first() == Some(&b'\r') {
            16
        } else {
            buf.len() + 1
        };
        if want > MAX_HEADER {
            return Err(ProxyError::Invalid("too long".into()));
        }
        if buf.len() < want {
            let start = buf.len();
            buf.resize(want, 0);
            match stream.read_exact(&mut buf[start..]).await {
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Err(ProxyError::Closed),
                Err(e) => return Err(ProxyError::Io(e)),
            }
        }
        let config = ParseConfig {
            include_tlvs: false,
            ..ParseConfig::default()
        };
        match ProxyHeader::parse(&buf, config) {
            Ok((header, _)) => return Ok(header.proxied_address().map(|a| a.source)),
            Err(HeaderError::BufferTooShort) if buf.len() < MAX_HEADER => {
                // A v1 line is at most 107 octets.
                if buf.first() != Some(&b'\r') && buf.len() > 107 {
                    return Err(ProxyError::Invalid("v1 line longer than 107 octets".into()));
                }
            }
            Err(e) => return Err(ProxyError::Invalid(e.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn parse(bytes: &[u8]) -> (Result<Option<SocketAddr>, ProxyError>, Vec<u8>) {
        let mut r = bytes;
        let got = read_header(&mut r, Duration::from_secs(1)).await;
        (got, r.to_vec())
    }

    #[tokio::test]
    async fn v1_is_read_to_its_line_end_and_no_further() {
        let (got, rest) = parse(b"PROXY TCP4 192.0.2.7 198.51.100.1 51000 21\r\nUSER x\r\n").await;
        assert_eq!(got.ok().flatten(), Some("192.0.2.7:51000".parse().unwrap()));
        assert_eq!(rest, b"USER x\r\n");
        let (got, _) = parse(b"PROXY TCP6 2001:db8::1 2001:db8::2 4000 21\r\n").await;
        assert_eq!(
            got.ok().flatten().map(|a| a.ip().to_string()),
            Some("2001:db8::1".into())
        );
        let (got, rest) = parse(b"PROXY UNKNOWN\r\nQUIT\r\n").await;
        assert!(matches!(got, Ok(None)));
        assert_eq!(rest, b"QUIT\r\n");
    }

    #[tokio::test]
    async fn v2_is_read_by_its_length() {
        let mut h = b"\r\n\r\n\x00\r\nQUIT\n\x21\x11\x00\x0c".to_vec();
        h.extend_from_slice(&[203, 0, 113, 9, 10, 0, 0, 1, 0xc3, 0x50, 0, 21]);
        h.extend_from_slice(b"USER x\r\n");
        let (got, rest) = parse(&h).await;
        assert_eq!(got.ok().flatten(), Some("203.0.113.9:50000".parse().unwrap()));
        assert_eq!(rest, b"USER x\r\n");
        // LOCAL (a health check): no address.
        let (got, _) = parse(b"\r\n\r\n\x00\r\nQUIT\n\x20\x00\x00\x00").await;
        assert!(matches!(got, Ok(None)));
    }

    #[tokio::test]
    async fn anything_else_is_refused() {
        for bad in [
            &b"USER anonymous\r\n"[..],
            b"PROXY TCP4 1.2.3.4\r\n",
            b"PROXY TCP4 999.0.0.1 1.2.3.4 1 2\r\n",
            b"PROXY",
            b"",
            b"\r\n\r\n\x00\r\nQUIT\n\x21\x11\xff\xff",
        ] {
            let (got, _) = parse(bad).await;
            assert!(got.is_err(), "{bad:?}: {got:?}");
        }
        let long = [b'P'; 300];
        assert!(parse(&long).await.0.is_err());
    }
}
