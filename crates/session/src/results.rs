//! What the result of an operation means for the command that asked for
//! it: CWD, MKD, RMD, DELE, RNFR/RNTO, SITE CHMOD, MFMT, SIZE, MDTM, MLST,
//! STAT with a pathname, the password check and entering the home, PASV's
//! listener.

use std::time::Instant;

use babelftp_proto::listing::{self, EntryKind};
use babelftp_proto::reply::{Reply, ReplyCode};

use crate::effects::{Op, OpError, OpOk, OpResult};
use crate::listing::perm_fact;
use crate::msg::Msg;
use crate::session::ServerSession;
use crate::transfer::Pending;
use babelftp_proto::vpath::VPath;

impl ServerSession {
    /// The result of an [`Op`], for the command that asked for it.
    pub(crate) fn op_done(&mut self, now: Instant, pending: Pending, result: OpResult) {
        let ok = match result {
            Ok(ok) => ok,
            Err(e) => {
                match pending {
                    Pending::Pasv { .. } => self.reply(
                        ReplyCode::CANT_OPEN_DATA,
                        // This address already holds as many passive ports
                        // as it may (the server's max_passive_per_ip).
                        if e == OpError::PassiveLimit {
                            Msg::PassiveLimit
                        } else {
                            Msg::CantOpenData
                        },
                    ),
                    // MKD past the account's file quota (a directory
                    // counts as a file).
                    Pending::Mkd(_) if e == OpError::Storage(std::io::ErrorKind::QuotaExceeded) => {
                        self.reply(ReplyCode::EXCEEDED_STORAGE, Msg::QuotaEntries);
                    }
                    // An existing target the account may not overwrite.
                    Pending::Rnto { to, replace: false }
                        if e == OpError::Storage(std::io::ErrorKind::AlreadyExists) =>
                    {
                        self.deny(babelftp_policy::Perm::Overwrite, &to.to_bytes());
                    }
                    Pending::EnterHome { user, .. } if home_missing(e) => {
                        // The password was right: the user is told why,
                        // at once (the admin was warned at start).
                        tracing::warn!(peer = %self.peer, user = %user.escape_ascii(), error = ?e, "login refused: home unavailable");
                        self.login.failed();
                        self.reply(ReplyCode::NOT_LOGGED_IN, Msg::HomeUnavailable);
                    }
                    // The server's defender banned this address: said, and
                    // the connection ends.
                    Pending::Verify { user, .. } if e == OpError::Banned => {
                        tracing::warn!(peer = %self.peer, user = %user.escape_ascii(), "login refused: address banned");
                        self.login.failed();
                        self.reply(ReplyCode::UNAVAILABLE, Msg::Banned);
                        self.close("address banned");
                    }
                    // The account has as many sessions as it may.
                    Pending::Verify { user, .. } if e == OpError::SessionLimit => {
                        tracing::info!(peer = %self.peer, user = %user.escape_ascii(), "login refused: the account's max_sessions reached");
                        self.login.failed();
                        self.reply(ReplyCode::UNAVAILABLE, Msg::UserSessionsLimit);
                        self.close("max sessions of the account");
                    }
                    Pending::Verify { user, .. } | Pending::EnterHome { user, .. } => {
                        if home_missing(e) {
                            tracing::warn!(peer = %self.peer, user = %user.escape_ascii(), error = ?e, "login failed");
                            self.login_failed(now);
                        } else {
                            // Out of descriptors or memory: not the client's
                            // fault, and no 530 that would say it was.
                            tracing::warn!(peer = %self.peer, user = %user.escape_ascii(), error = ?e, "login refused: out of resources");
                            self.reply(ReplyCode::UNAVAILABLE, Msg::OutOfResources);
                            self.close("out of resources");
                        }
                    }
                    _ => {
                        let (code, msg) = self.error_reply(e.kind());
                        self.reply(code, msg);
                    }
                }
                return;
            }
        };
        match (pending, ok) {
            (Pending::Cwd(t), OpOk::Entry(e)) if e.kind == EntryKind::Dir => {
                self.client.cwd = t;
                self.reply(ReplyCode::FILE_ACTION_OK, Msg::CwdOk);
            }
            (Pending::Cwd(_), OpOk::Entry(_)) => self.reply(ReplyCode::FILE_UNAVAILABLE, Msg::NotADirectory),
            (Pending::Mkd(t), OpOk::Done) => {
                let r = self.path_reply(&t, Msg::Created);
                self.send(&r);
            }
            (Pending::Rmd, OpOk::Done) => self.reply(ReplyCode::FILE_ACTION_OK, Msg::Removed),
            (Pending::Dele, OpOk::Done) => self.reply(ReplyCode::FILE_ACTION_OK, Msg::Deleted),
            (Pending::Rnfr(t), OpOk::Entry(_)) => {
                self.work.set_rnfr(t);
                self.reply(ReplyCode::PENDING, Msg::RenamePending);
            }
            (Pending::Rnto { .. }, OpOk::Done) => self.reply(ReplyCode::FILE_ACTION_OK, Msg::Renamed),
            (Pending::Chmod, OpOk::Done) => self.reply(ReplyCode::OK, Msg::ChmodOk),
            (Pending::Quota, OpOk::Quota(q)) => self.quota_reply(q),
            (Pending::Mfmt { time, shown }, OpOk::Done) => {
                // "213 Modify=YYYYMMDDHHMMSS; pathname": a protocol
                // element, the same in every language.
                let mut text = format!("Modify={}; ", listing::Civil::from_unix(time).time_val()).into_bytes();
                text.extend_from_slice(&shown);
                self.send(&Reply::new(ReplyCode::FILE_STATUS, text));
            }
            (Pending::Size, OpOk::Entry(e)) => {
                if e.kind == EntryKind::File {
                    self.send(&Reply::new(ReplyCode::FILE_STATUS, e.size.to_string()));
                } else {
                    self.reply(ReplyCode::FILE_UNAVAILABLE, Msg::NotAFile);
                }
            }
            (Pending::Mdtm, OpOk::Entry(e)) => match (e.kind, e.modified) {
                (EntryKind::File, Some(m)) => {
                    let r = Reply::new(ReplyCode::FILE_STATUS, listing::Civil::from_unix(m).time_val());
                    self.send(&r);
                }
                _ => self.reply(ReplyCode::FILE_UNAVAILABLE, Msg::NotAFile),
            },
            (Pending::Mlst { target, shown }, OpOk::Entry(mut e)) => {
                e.perm = perm_fact(e.kind, self.perms_at(&target), &self.cfg.caps);
                let mut line = b" ".to_vec();
                line.extend(listing::mlsx_facts(&e, &self.client.mlst_facts, None));
                line.push(b' ');
                line.extend(self.wire_out(&target.to_bytes()));
                let mut first = b"Listing ".to_vec();
                first.extend(shown);
                let r = Reply::multi(
                    ReplyCode::FILE_ACTION_OK,
                    vec![first, line, self.t(Msg::End).into_bytes()],
                );
                self.send(&r);
            }
            (Pending::StatPath(dir), OpOk::Entries { entries, now }) => {
                let r = self.stat_listing(&dir, entries, now);
                self.send(&r);
            }
            (Pending::Verify { user, .. }, OpOk::Account(Some(account))) => {
                // The name the check confirmed, when it is another
                // spelling of the one typed: the session is that account.
                let user = account.name.clone().unwrap_or(user);
                let home = VPath::root().join(&account.home);
                self.op(Op::EnterHome(home), Pending::EnterHome { user, account });
            }
            (Pending::Verify { user, since }, OpOk::Account(None)) => {
                tracing::warn!(peer = %self.peer, user = %user.escape_ascii(), "failed login");
                // Counted from PASS: an unknown name and a wrong password
                // are answered at the same moment.
                self.login_failed(since);
            }
            (Pending::EnterHome { user, account }, OpOk::Done) => {
                tracing::info!(peer = %self.peer, user = %user.escape_ascii(), "login");
                self.client.cwd = VPath::root();
                self.account_settings(&account);
                self.login.succeeded(user, account.rules);
                self.reply(ReplyCode::LOGGED_IN, Msg::LoggedIn);
            }
            (Pending::Pasv { extended, tls }, OpOk::Port(port)) => self.passive_reply(extended, tls, port),
            (Pending::NoData, _) => self.reply(ReplyCode::CANT_OPEN_DATA, Msg::CantOpenData),
            (p, ok) => {
                // A result that does not answer the operation: a driver bug.
                tracing::error!(pending = ?p, result = ?ok, "operation result does not match its operation");
                if matches!(p, Pending::Verify { .. } | Pending::EnterHome { .. }) {
                    self.login_failed(now);
                } else {
                    self.reply(ReplyCode::LOCAL_ERROR, Msg::LocalError);
                }
            }
        }
    }
}

/// A storage error that says a home directory is not there (or not one).
fn home_missing(e: OpError) -> bool {
    let OpError::Storage(e) = e else {
        return false;
    };
    use std::io::ErrorKind as K;
    matches!(e, K::NotFound | K::PermissionDenied | K::NotADirectory)
}
