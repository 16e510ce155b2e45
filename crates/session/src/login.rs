//! The login part: USER → PASS → logged in (RFC 959 5.4 sequencing), and
//! the counts of logins for the server's metrics. The delay before a failed
//! login's 530 is a deadline of the transfer part's `Busy::LoginDelay`.
//!
//! A leaf part: methods change the login state and say which reply the
//! sequence calls for; the session sends it.

use std::sync::Arc;

use babelftp_policy::Rules;
use babelftp_proto::reply::ReplyCode;

use crate::msg::{Msg, Refusal};

/// Where the login stands.
#[derive(Debug, Clone)]
enum State {
    AwaitUser,
    AwaitPass { user: Vec<u8> },
    LoggedIn { user: Vec<u8>, rules: Arc<Rules> },
}

/// The login state and its counts.
#[derive(Debug, Clone)]
pub(crate) struct Login {
    state: State,
    /// Logins of named users that succeeded since the counts were taken.
    pub(crate) ok: u32,
    /// Anonymous logins.
    pub(crate) anonymous_ok: u32,
    /// Refused logins (wrong password, unknown user, home unavailable).
    pub(crate) failed: u32,
}

impl Login {
    pub(crate) fn new() -> Self {
        Login {
            state: State::AwaitUser,
            ok: 0,
            anonymous_ok: 0,
            failed: 0,
        }
    }

    /// USER: a name to check at PASS; a logged-in session is not logged
    /// out by a stray USER (503).
    pub(crate) fn user(&mut self, name: Vec<u8>) -> Result<(), Refusal> {
        if self.logged_in() {
            return Err((ReplyCode::BAD_SEQUENCE, Msg::AlreadyLoggedIn));
        }
        self.state = State::AwaitPass { user: name };
        Ok(())
    }

    /// PASS: the name it is for; the session waits for a USER again until
    /// the check succeeds.
    pub(crate) fn pass(&mut self) -> Result<Vec<u8>, Refusal> {
        match std::mem::replace(&mut self.state, State::AwaitUser) {
            State::AwaitPass { user } => Ok(user),
            // (The session stays logged in: a stray PASS does not log out.)
            s @ State::LoggedIn { .. } => {
                self.state = s;
                Err((ReplyCode::BAD_SEQUENCE, Msg::AlreadyLoggedIn))
            }
            State::AwaitUser => Err((ReplyCode::BAD_SEQUENCE, Msg::BadSequence)),
        }
    }

    /// The account checked out (and its home was entered).
    pub(crate) fn succeeded(&mut self, user: Vec<u8>, rules: Arc<Rules>) {
        self.ok += 1;
        self.state = State::LoggedIn { user, rules };
    }

    /// An anonymous login (no password check).
    pub(crate) fn anonymous(&mut self, user: Vec<u8>, rules: Arc<Rules>) {
        self.anonymous_ok += 1;
        self.state = State::LoggedIn { user, rules };
    }

    /// The check failed, or the home is not there.
    pub(crate) fn failed(&mut self) {
        self.failed += 1;
        self.state = State::AwaitUser;
    }

    /// REIN: back to waiting for USER.
    pub(crate) fn reset(&mut self) {
        self.state = State::AwaitUser;
    }

    pub(crate) fn logged_in(&self) -> bool {
        matches!(self.state, State::LoggedIn { .. })
    }

    /// Logged in, or between USER and PASS: AUTH and HOST come too late.
    pub(crate) fn started(&self) -> bool {
        !matches!(self.state, State::AwaitUser)
    }

    /// What the logged-in account may do where (nothing before login).
    pub(crate) fn rules(&self) -> Option<&Arc<Rules>> {
        match &self.state {
            State::LoggedIn { rules, .. } => Some(rules),
            _ => None,
        }
    }

    /// The name logged in with; `None` before login and after REIN.
    pub(crate) fn user_name(&self) -> Option<&[u8]> {
        match &self.state {
            State::LoggedIn { user, .. } => Some(user),
            _ => None,
        }
    }

    /// The user name for the transfer log, and whether it is anonymous.
    pub(crate) fn log_user(&self) -> (Vec<u8>, bool) {
        match self.user_name() {
            Some(user) => (user.to_vec(), is_anonymous(user)),
            None => (b"-".to_vec(), false),
        }
    }
}

/// `anonymous` and `ftp` (RFC 1635), in any case.
pub(crate) fn is_anonymous(user: &[u8]) -> bool {
    user.eq_ignore_ascii_case(b"anonymous") || user.eq_ignore_ascii_case(b"ftp")
}
