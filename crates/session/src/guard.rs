//! Who may do what where: every command that touches the tree asks the
//! account's rules (babelftp-policy) before the storage is asked. A
//! refusal is 550 with the permission the account lacks, and a log line.
//! The rules were read at login: no store is asked per command.

use babelftp_policy::{decide, Below, Decision, Op as P, Perm, Perms};
use babelftp_proto::display::PlainPath;
use babelftp_proto::path::WirePath;
use babelftp_proto::reply::{Reply, ReplyCode};

use crate::msg::Msg;
use crate::session::ServerSession;
use babelftp_proto::vpath::VPath;

impl ServerSession {
    /// The account's permissions at `p` (none before login).
    pub(crate) fn perms_at(&self, p: &VPath) -> Perms {
        self.login.rules().map_or(Perms::NONE, |r| r.at(p.components()))
    }

    /// The account's permissions on the entries of the directory `dir`.
    pub(crate) fn perms_below(&self, dir: &VPath) -> Below {
        self.login
            .rules()
            .map_or(Below::uniform(Perms::NONE), |r| r.below(dir.components()))
    }

    /// Whether the rules allow `op`; if not, 550 with the permission
    /// missing, logged with where.
    pub(crate) fn permit(&mut self, op: &P<'_>) -> bool {
        let Some(rules) = self.login.rules().cloned() else {
            return false;
        };
        match decide(&rules, op) {
            Decision::Allow => true,
            Decision::Deny { missing, at } => {
                self.deny(missing, &rule_path(at));
                false
            }
            Decision::DenyInside { missing, at } => {
                let inside = rule_path(at);
                tracing::info!(
                    peer = %self.peer,
                    user = %self.login.log_user().0.escape_ascii(),
                    perm = missing.name(),
                    inside = %PlainPath(&inside),
                    "refused by the account's permissions on a folder inside"
                );
                // 550 "/projects/locked" Permission denied: …: the folder
                // whose rule refuses, quoted as a 257 path is.
                let mut text = WirePath::new(self.wire_out(&inside)).quote_257();
                text.push(b' ');
                text.extend_from_slice(self.t(Msg::PolicyDeniedInside(missing.name())).as_bytes());
                self.send(&Reply::new(ReplyCode::FILE_UNAVAILABLE, text));
                false
            }
        }
    }

    /// Whether the account has `perm` at `p` (550 if not).
    pub(crate) fn require(&mut self, perm: Perm, p: &VPath) -> bool {
        if self.perms_at(p).has(perm) {
            return true;
        }
        self.deny(perm, &p.to_bytes());
        false
    }

    /// Whether `p`, a name a client asks to create (STOR, STOU, APPE,
    /// RNTO, MKD), is free of the server's temporary-name pattern; if not,
    /// 553 and a log line. Such a file would be hidden from listings and
    /// removed at the next start.
    pub(crate) fn name_allowed(&mut self, p: &VPath) -> bool {
        if !p.is_reserved() {
            return true;
        }
        tracing::info!(
            peer = %self.peer,
            user = %self.login.log_user().0.escape_ascii(),
            path = %PlainPath(&p.to_bytes()),
            "name refused: the server's temporary-name pattern"
        );
        self.reply(ReplyCode::BAD_FILENAME, Msg::ReservedName);
        false
    }

    /// The refusal: 550 with the permission's name, and the log line.
    pub(crate) fn deny(&mut self, perm: Perm, path: &[u8]) {
        tracing::info!(
            peer = %self.peer,
            user = %self.login.log_user().0.escape_ascii(),
            perm = perm.name(),
            path = %PlainPath(path),
            "refused by the account's permissions"
        );
        self.reply(ReplyCode::FILE_UNAVAILABLE, Msg::PolicyDenied(perm.name()));
    }
}

/// A rule's path (components) as an absolute path: `/` for none.
fn rule_path(at: &[Vec<u8>]) -> Vec<u8> {
    let mut path = Vec::new();
    for c in at {
        path.push(b'/');
        path.extend_from_slice(c);
    }
    if path.is_empty() {
        path.push(b'/');
    }
    path
}
