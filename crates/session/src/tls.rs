//! The RFC 4217 state of a control connection as one enum: which
//! protection the control connection has, whether PBSZ came, and the data
//! protection level. It replaces four booleans (`tls`, `pbsz`,
//! `prot_private`, `implicit`) whose combinations included states the RFC
//! forbids: PBSZ or PROT before AUTH, PROT P without PBSZ, an implicit
//! port without TLS. Here they cannot be written down.
//!
//! ```text
//!            AUTH TLS                 PBSZ 0               PROT C / PROT P
//!   Clear ───────────► Control ───────────────► Buffered ◄──────────────┐
//!     ▲                   │ AUTH SSL / TLS-P (PBSZ 0 + PROT P at once)  │
//!     │                   └────────────────────────► Buffered{P} ───────┘
//!     └── REIN (AUTH origin) ── Control / Buffered
//!   implicit port: Buffered{Implicit, P} from the start; REIN keeps TLS
//! ```
//!
//! A leaf part: it knows replies only as codes and messages.

use babelftp_proto::command::ProtLevel;
use babelftp_proto::reply::ReplyCode;

use crate::msg::{Msg, Refusal};

/// How the control connection got its TLS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// AUTH TLS (or SSL, TLS-P): REIN returns to clear (RFC 4217 13).
    Auth,
    /// The implicit-FTPS port: TLS is the port's contract, REIN keeps it.
    Implicit,
}

/// The data protection level PROT set (RFC 4217 9); only C and P are TLS
/// levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Prot {
    Clear,
    Private,
}

/// The RFC 4217 state of the control connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TlsState {
    /// No TLS: PBSZ and PROT are out of sequence (503).
    Clear,
    /// The control connection runs TLS; no PBSZ yet, so PROT is 503 and
    /// data connections are clear.
    Control(Origin),
    /// TLS, PBSZ 0 came: PROT may set the data protection.
    Buffered(Origin, Prot),
}

/// What REIN does to the control connection's TLS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AfterRein {
    /// Nothing to undo (clear), or TLS stays (implicit port).
    Keep,
    /// The TLS session ends after the 220 (AUTH TLS origin).
    EndTls,
}

impl TlsState {
    /// The state of a connection to the implicit-FTPS port: TLS before the
    /// greeting, data connections protected until PROT C.
    pub(crate) fn implicit() -> Self {
        TlsState::Buffered(Origin::Implicit, Prot::Private)
    }

    /// Whether the control connection is protected.
    pub(crate) fn is_protected(self) -> bool {
        !matches!(self, TlsState::Clear)
    }

    /// Whether data connections run TLS (PROT P).
    pub(crate) fn data_private(self) -> bool {
        matches!(self, TlsState::Buffered(_, Prot::Private))
    }

    /// AUTH (RFC 4217 4) once the mechanism and the login state allow it:
    /// `protect_data` for the older `SSL` and `TLS-P`, which also protect
    /// data connections at once (an implied PBSZ 0 and PROT P).
    pub(crate) fn auth(&mut self, protect_data: bool) -> Result<(), Refusal> {
        if self.is_protected() {
            return Err((ReplyCode::BAD_SEQUENCE, Msg::AuthAlready));
        }
        *self = if protect_data {
            TlsState::Buffered(Origin::Auth, Prot::Private)
        } else {
            TlsState::Control(Origin::Auth)
        };
        Ok(())
    }

    /// PBSZ (RFC 4217 8): only under TLS; a second one keeps the level.
    pub(crate) fn pbsz(&mut self) -> Result<(), Refusal> {
        match *self {
            TlsState::Clear => Err((ReplyCode::BAD_SEQUENCE, Msg::BadSequence)),
            TlsState::Control(o) => {
                *self = TlsState::Buffered(o, Prot::Clear);
                Ok(())
            }
            TlsState::Buffered(..) => Ok(()),
        }
    }

    /// PROT (RFC 4217 9): after PBSZ; C or P (S and E are not TLS levels,
    /// 536). The level's letter for the 200 reply.
    pub(crate) fn prot(&mut self, level: ProtLevel) -> Result<&'static str, Refusal> {
        let TlsState::Buffered(o, _) = *self else {
            return Err((ReplyCode::BAD_SEQUENCE, Msg::BadSequence));
        };
        let (prot, letter) = match level {
            ProtLevel::Clear => (Prot::Clear, "C"),
            ProtLevel::Private => (Prot::Private, "P"),
            _ => return Err((ReplyCode::PROT_NOT_SUPPORTED, Msg::ProtUnsupported)),
        };
        *self = TlsState::Buffered(o, prot);
        Ok(letter)
    }

    /// REIN (RFC 4217 13): back to the state the connection had when it
    /// was opened: clear after AUTH, the port's defaults on the implicit
    /// port.
    pub(crate) fn rein(&mut self) -> AfterRein {
        match *self {
            TlsState::Clear => AfterRein::Keep,
            TlsState::Control(Origin::Implicit) | TlsState::Buffered(Origin::Implicit, _) => {
                *self = TlsState::implicit();
                AfterRein::Keep
            }
            TlsState::Control(Origin::Auth) | TlsState::Buffered(Origin::Auth, _) => {
                *self = TlsState::Clear;
                AfterRein::EndTls
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pbsz_and_prot_before_auth_are_out_of_sequence() {
        // RFC 4217 8: "The PBSZ command MUST be preceded by a successful
        // security data exchange"; 9: PROT must be preceded by PBSZ.
        let mut s = TlsState::Clear;
        assert_eq!(s.pbsz(), Err((ReplyCode::BAD_SEQUENCE, Msg::BadSequence)));
        assert_eq!(
            s.prot(ProtLevel::Private),
            Err((ReplyCode::BAD_SEQUENCE, Msg::BadSequence))
        );
        assert_eq!(s, TlsState::Clear);
    }

    #[test]
    fn prot_p_needs_pbsz_after_auth() {
        let mut s = TlsState::Clear;
        assert_eq!(s.auth(false), Ok(()));
        assert!(s.is_protected() && !s.data_private());
        assert_eq!(
            s.prot(ProtLevel::Private),
            Err((ReplyCode::BAD_SEQUENCE, Msg::BadSequence))
        );
        assert_eq!(s.pbsz(), Ok(()));
        assert!(!s.data_private(), "PBSZ alone leaves data connections clear");
        assert_eq!(s.prot(ProtLevel::Private), Ok("P"));
        assert!(s.data_private());
        assert_eq!(
            s.prot(ProtLevel::Safe),
            Err((ReplyCode::PROT_NOT_SUPPORTED, Msg::ProtUnsupported))
        );
        assert!(s.data_private(), "a refused level changes nothing");
        assert_eq!(s.prot(ProtLevel::Clear), Ok("C"));
        assert!(!s.data_private());
    }

    #[test]
    fn a_second_auth_is_refused() {
        let mut s = TlsState::Clear;
        assert_eq!(s.auth(true), Ok(()));
        assert!(s.data_private(), "AUTH SSL/TLS-P protect data at once");
        assert_eq!(s.auth(false), Err((ReplyCode::BAD_SEQUENCE, Msg::AuthAlready)));
    }

    #[test]
    fn rein_ends_auth_tls_and_keeps_the_implicit_port() {
        let mut s = TlsState::Clear;
        assert_eq!(s.rein(), AfterRein::Keep);
        assert_eq!(s.auth(false), Ok(()));
        assert_eq!(s.rein(), AfterRein::EndTls);
        assert_eq!(s, TlsState::Clear);
        let mut s = TlsState::implicit();
        assert_eq!(s.prot(ProtLevel::Clear), Ok("C"));
        assert_eq!(s.rein(), AfterRein::Keep);
        assert_eq!(s, TlsState::implicit(), "REIN restores the port's PROT P");
    }
}
