//! USER/PASS and the transfer log entry of a session.

use super::*;

impl Session {
    pub(super) fn user(&mut self, name: Vec<u8>) -> Reply {
        if self.logged_in() {
            return self.r(ReplyCode::BAD_SEQUENCE, Msg::AlreadyLoggedIn);
        }
        self.login = Login::AwaitPass { user: name };
        self.r(ReplyCode::NEED_PASSWORD, Msg::NeedPassword)
    }

    pub(super) async fn pass(&mut self, pw: Vec<u8>) -> Reply {
        let Login::AwaitPass { user } = std::mem::replace(&mut self.login, Login::AwaitUser) else {
            return if self.logged_in() {
                self.r(ReplyCode::BAD_SEQUENCE, Msg::AlreadyLoggedIn)
            } else {
                self.r(ReplyCode::BAD_SEQUENCE, Msg::BadSequence)
            };
        };
        let anonymous = user.eq_ignore_ascii_case(b"anonymous") || user.eq_ignore_ascii_case(b"ftp");
        if anonymous && self.cfg.anonymous {
            let write = self.cfg.anonymous_write;
            tracing::info!(peer = %self.peer, "anonymous login");
            self.login = Login::LoggedIn { user, write };
            return self.r(
                ReplyCode::LOGGED_IN,
                if write { Msg::LoggedIn } else { Msg::LoggedInAnonymous },
            );
        }
        // argon2 costs tens of milliseconds: off the async workers.
        let (cfg, name) = (self.cfg.clone(), user.clone());
        let found =
            tokio::task::spawn_blocking(move || cfg.users.iter().position(|u| u.name == name && u.secret.verify(&pw)))
                .await
                .ok()
                .flatten();
        if let Some(i) = found {
            let (home, write) = (self.cfg.users[i].home.clone(), self.cfg.users[i].write);
            let base = self.base.clone();
            let home_path = VPath::root().join(&home);
            match blocking(move || base.subdir(&home_path)).await {
                Ok(st) => {
                    tracing::info!(peer = %self.peer, user = %user.escape_ascii(), "login");
                    self.storage = st;
                    self.cwd = VPath::root();
                    self.login = Login::LoggedIn { user, write };
                    return self.r(ReplyCode::LOGGED_IN, Msg::LoggedIn);
                }
                Err(e) => {
                    tracing::error!(user = %user.escape_ascii(), home = %home.escape_ascii(), error = %e, "home directory unavailable");
                }
            }
        } else {
            tracing::warn!(peer = %self.peer, user = %user.escape_ascii(), "failed login");
        }
        tokio::time::sleep(self.cfg.login_fail_delay).await;
        self.r(ReplyCode::NOT_LOGGED_IN, Msg::LoginFailed)
    }

    /// Appends the xferlog line of the transfer that just ended.
    pub(super) fn log_transfer(&mut self, bytes: u64, complete: bool) {
        let Some(info) = self.transfer_info.take() else { return };
        let Some(log) = &self.xferlog else { return };
        let (user, anonymous) = match &self.login {
            Login::LoggedIn { user, .. } => (
                user.clone(),
                user.eq_ignore_ascii_case(b"anonymous") || user.eq_ignore_ascii_case(b"ftp"),
            ),
            _ => (b"-".to_vec(), false),
        };
        log.write(&XferEntry {
            seconds: info.started.elapsed().as_secs(),
            peer: self.peer.ip(),
            bytes,
            path: &info.path,
            ascii: info.ascii,
            incoming: info.incoming,
            anonymous,
            user: &user,
            complete,
        });
    }
}
