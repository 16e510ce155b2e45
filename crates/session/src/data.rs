//! The data channel part: the data connection the next transfer will use
//! (a passive listener the driver holds, or an address to connect to),
//! EPSV ALL, and the rule that a passive connection made for one PROT
//! level cannot serve another.
//!
//! A leaf part: methods change the setup and say which reply or driver
//! action it calls for; the session sends them.

use std::net::SocketAddr;

use babelftp_proto::reply::ReplyCode;

use crate::effects::DataSource;
use crate::msg::{Msg, Refusal};

/// The data connection the next transfer will use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Setup {
    None,
    /// The driver holds a passive listener, bound under this PROT level
    /// (`tls`: PROT P, its connection answers a TLS handshake at once).
    Passive {
        tls: bool,
    },
    Active(SocketAddr),
}

/// Why a transfer cannot have a data connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NoSource {
    /// No PASV, EPSV, PORT or EPRT since the last transfer.
    NotSetUp,
    /// PROT C since a PASV made under PROT P: the connection waiting on
    /// that listener speaks TLS, this transfer cannot use it (425 at once,
    /// not after its handshake times out).
    ProtChanged,
}

/// The data channel's state.
#[derive(Debug, Clone)]
pub(crate) struct DataChannel {
    setup: Setup,
    /// EPSV ALL (RFC 2428 4): PASV, PORT and EPRT are refused from now on.
    epsv_all: bool,
}

impl DataChannel {
    pub(crate) fn new() -> Self {
        DataChannel {
            setup: Setup::None,
            epsv_all: false,
        }
    }

    /// EPSV ALL.
    pub(crate) fn set_epsv_all(&mut self) {
        self.epsv_all = true;
    }

    /// Whether PASV (`extended`: EPSV) may ask for a listener.
    pub(crate) fn may_listen(&self, extended: bool) -> Result<(), Refusal> {
        if !extended && self.epsv_all {
            return Err((ReplyCode::BAD_SEQUENCE, Msg::EpsvAllOnly));
        }
        Ok(())
    }

    /// The driver bound a passive listener under this PROT level.
    pub(crate) fn listening(&mut self, tls: bool) {
        self.setup = Setup::Passive { tls };
    }

    /// PORT/EPRT to `addr` from a client at `peer`: `Ok(true)` when the
    /// passive listener held until now must be released.
    pub(crate) fn connect_to(&mut self, addr: SocketAddr, peer: SocketAddr) -> Result<bool, Refusal> {
        if self.epsv_all {
            return Err((ReplyCode::BAD_SEQUENCE, Msg::EpsvAllOnly));
        }
        // No FTP bounce: only back to the client itself, never to a
        // privileged port (RFC 2577 3).
        if addr.ip().to_canonical() != peer.ip().to_canonical() || addr.port() < 1024 {
            return Err((ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::PortRefused));
        }
        let release = self.holds_listener();
        self.setup = Setup::Active(addr);
        Ok(release)
    }

    /// Where the next transfer's data connection comes from, given the PROT
    /// level now (`private`: PROT P).
    pub(crate) fn source(&self, private: bool) -> Result<DataSource, NoSource> {
        match self.setup {
            Setup::None => Err(NoSource::NotSetUp),
            Setup::Passive { tls: true } if !private => Err(NoSource::ProtChanged),
            Setup::Passive { .. } => Ok(DataSource::Passive),
            Setup::Active(a) => Ok(DataSource::Active(a)),
        }
    }

    /// A transfer took the data connection (or the driver dropped the
    /// listener): the next one needs a new PASV or PORT.
    pub(crate) fn used(&mut self) {
        self.setup = Setup::None;
    }

    /// REIN: no data connection, no EPSV ALL. Whether a passive listener
    /// must be released.
    pub(crate) fn reset(&mut self) -> bool {
        let release = self.holds_listener();
        *self = DataChannel::new();
        release
    }

    fn holds_listener(&self) -> bool {
        matches!(self.setup, Setup::Passive { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passive_connection_made_under_prot_p_cannot_serve_prot_c() {
        let mut d = DataChannel::new();
        assert_eq!(d.source(false), Err(NoSource::NotSetUp));
        d.listening(true);
        assert_eq!(d.source(true), Ok(DataSource::Passive));
        assert_eq!(d.source(false), Err(NoSource::ProtChanged));
        // The other way round the driver makes the whole handshake at the
        // transfer (active mode does the same).
        d.listening(false);
        assert_eq!(d.source(true), Ok(DataSource::Passive));
    }

    #[test]
    fn epsv_all_refuses_the_others() {
        let peer: SocketAddr = "127.0.0.1:50000".parse().unwrap_or_else(|e| panic!("{e}"));
        let mut d = DataChannel::new();
        d.listening(false);
        assert_eq!(d.connect_to("127.0.0.1:2000".parse().unwrap_or(peer), peer), Ok(true));
        assert_eq!(
            d.connect_to("10.0.0.1:2000".parse().unwrap_or(peer), peer),
            Err((ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::PortRefused))
        );
        d.set_epsv_all();
        assert!(d.may_listen(true).is_ok());
        assert_eq!(d.may_listen(false), Err((ReplyCode::BAD_SEQUENCE, Msg::EpsvAllOnly)));
        assert!(!d.reset() && d.may_listen(false).is_ok());
    }
}
