//! The handlers of who the client is and how it is protected: USER, PASS
//! (RFC 959 5.4), AUTH, PBSZ and PROT (RFC 4217). The sequencing rules
//! live in the `login` and `tls` parts; this module sends their replies
//! and asks the driver to check passwords and switch TLS.

use std::time::Instant;

use babelftp_policy::{Perms, Rules};
use babelftp_proto::command::ProtLevel;
use babelftp_proto::reply::{Reply, ReplyCode};

use crate::effects::{Action, Op};
use crate::login::is_anonymous;
use crate::msg::Msg;
use crate::session::ServerSession;
use crate::transfer::Pending;

impl ServerSession {
    pub(crate) fn user(&mut self, name: Vec<u8>) {
        // RFC 4217 11: a server that requires TLS refuses USER before it.
        if self.cfg.tls.is_some_and(|t| t.required) && !self.tls.is_protected() {
            self.reply(ReplyCode::NOT_LOGGED_IN, Msg::TlsRequired);
            return;
        }
        match self.login.user(name) {
            Ok(()) => self.reply(ReplyCode::NEED_PASSWORD, Msg::NeedPassword),
            Err(r) => self.refuse(r),
        }
    }

    pub(crate) fn pass(&mut self, now: Instant, pw: Vec<u8>) {
        let user = match self.login.pass() {
            Ok(user) => user,
            Err(r) => return self.refuse(r),
        };
        if is_anonymous(&user) && self.cfg.anonymous {
            let write = self.cfg.anonymous_write;
            tracing::info!(peer = %self.peer, "anonymous login");
            let rules = Rules::everywhere(if write { Perms::ALL } else { Perms::READ });
            self.login.anonymous(user, std::sync::Arc::new(rules));
            self.reply(
                ReplyCode::LOGGED_IN,
                if write { Msg::LoggedIn } else { Msg::LoggedInAnonymous },
            );
            return;
        }
        self.op(
            Op::VerifyPassword {
                user: user.clone(),
                password: pw,
            },
            Pending::Verify { user, since: now },
        );
    }

    /// What an account sets for its session at login: its reply language
    /// (unless the client chose one with LANG) and its legacy client
    /// charset (unless the client said it speaks UTF-8).
    pub(crate) fn account_settings(&mut self, account: &crate::effects::Account) {
        if let Some(tag) = &account.lang {
            if let babelftp_i18n::lang::Negotiated::Lang(l) = self.cfg.catalogs.negotiate(tag) {
                self.client.account_lang(l);
            }
        }
        if let Some(cs) = account.charset {
            if self.client.account_charset(cs) {
                tracing::info!(peer = %self.peer, charset = cs.name(), "the account's legacy client charset is on");
            }
        }
    }

    /// AUTH (RFC 4217 4): `TLS` (also `TLS-C`, and the older `SSL` and
    /// `TLS-P`, which also protect data connections at once) before login.
    pub(crate) fn auth(&mut self, mechanism: &str) {
        if self.cfg.tls.is_none() {
            self.reply(ReplyCode::NOT_IMPLEMENTED, Msg::UnknownCommand);
            return;
        }
        if self.tls.is_protected() {
            self.reply(ReplyCode::BAD_SEQUENCE, Msg::AuthAlready);
            return;
        }
        let protect_data = match mechanism {
            "TLS" | "TLS-C" => false,
            "SSL" | "TLS-P" => true,
            _ => {
                self.reply(ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::AuthUnsupported);
                return;
            }
        };
        if self.login.started() {
            self.reply(ReplyCode::BAD_SEQUENCE, Msg::BadSequence);
            return;
        }
        if let Err(r) = self.tls.auth(protect_data) {
            return self.refuse(r);
        }
        self.reply(ReplyCode::AUTH_OK, Msg::AuthOk);
        self.io.forget_plaintext(self.cfg.max_line);
        self.action(Action::StartTls);
    }

    /// PBSZ (RFC 4217 8): only after AUTH; the size is always 0 for TLS.
    pub(crate) fn pbsz(&mut self) {
        match self.tls.pbsz() {
            // "PBSZ=0" is the protocol's own answer, not a text to translate.
            Ok(()) => self.send(&Reply::new(ReplyCode::OK, "PBSZ=0")),
            Err(r) => self.refuse(r),
        }
    }

    /// PROT (RFC 4217 9): C or P after PBSZ; S and E are not TLS levels.
    pub(crate) fn prot(&mut self, level: ProtLevel) {
        match self.tls.prot(level) {
            Ok(letter) => self.reply(ReplyCode::OK, Msg::ProtOk(letter)),
            Err(r) => self.refuse(r),
        }
    }
}
