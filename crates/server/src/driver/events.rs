//! The session's events (issue 30), built from what the driver already
//! knows: a transfer's record, a change to the tree that was done, a
//! login. Emitting never waits (crate::events); an upload's event waits
//! only for its replies to go out, then for the file's size.

use super::*;
use crate::events::{Event, Kind};
use babelftp_session::TransferRecord;

impl Driver {
    /// An event of this session, when a hook wants its kind.
    pub(super) fn event(&self, kind: Kind, user: Option<&[u8]>) -> Option<Event> {
        let events = self.shared.events.as_ref()?;
        if !events.wants(kind) {
            return None;
        }
        let mut ev = Event::new(kind);
        ev.session = Some(events.session_id(self.id));
        ev.user = user.map(<[u8]>::to_vec);
        ev.client = Some(self.peer.ip());
        ev.protocol = Some(if self.control.is_tls() { "ftps" } else { "ftp" });
        Some(ev)
    }

    pub(super) fn emit(&self, ev: &Event) {
        if let Some(events) = &self.shared.events {
            events.emit(ev);
        }
    }

    /// A change to the tree that the storage did.
    pub(super) fn changed(&self, sess: &ServerSession, op: &Op) {
        let (kind, path, target, mode) = match op {
            Op::Mkdir(p) => (Kind::Mkdir, p, None, None),
            Op::Rmdir(p) => (Kind::Rmdir, p, None, None),
            Op::RemoveFile(p) => (Kind::Delete, p, None, None),
            Op::Rename { from, to, .. } => (Kind::Rename, from, Some(to), None),
            Op::Chmod { path, mode } => (Kind::Chmod, path, None, Some(*mode)),
            _ => return,
        };
        let Some(mut ev) = self.event(kind, sess.logged_in_user()) else {
            return;
        };
        ev.path = Some(path.to_bytes());
        ev.target = target.map(VPath::to_bytes);
        ev.mode = mode;
        ev.outcome = Some("complete");
        self.emit(&ev);
    }

    /// A transfer ended. A whole upload's event waits until its replies
    /// have gone out ([`Driver::emit_deferred`]).
    pub(super) fn transferred(&mut self, rec: &TransferRecord) {
        let kind = if rec.incoming { Kind::Upload } else { Kind::Download };
        let Some(mut ev) = self.event(kind, Some(&rec.user)) else {
            return;
        };
        ev.path = Some(rec.path.clone());
        ev.bytes = Some(rec.bytes);
        ev.duration_ms = Some(rec.millis);
        ev.outcome = Some(if rec.complete { "complete" } else { "cut_short" });
        ev.code = rec.code;
        // Behind a waiting upload's event, any other waits too: the
        // session's events go out in order.
        let sized = rec.incoming && rec.complete;
        if sized || !self.deferred.is_empty() {
            self.deferred.push((ev, sized));
        } else {
            self.emit(&ev);
        }
    }

    /// After the replies: each whole upload's size (the file as it is
    /// now: an APPE's whole file), then its event. Also before any other
    /// event of the session (a command pipelined behind an upload).
    pub(super) async fn emit_deferred(&mut self) {
        for (mut ev, sized) in std::mem::take(&mut self.deferred) {
            if let Some(p) = ev.path.clone().filter(|_| sized) {
                let st = self.storage.clone();
                let p = VPath::root().join(&p);
                ev.size = blocking(move || Ok(ops::file_size(&*st, &p))).await.ok().flatten();
            }
            self.emit(&ev);
        }
    }

    /// A password check's answer: a login (the end of an earlier one
    /// first), or a refusal.
    pub(super) fn login_checked(&mut self, user: &[u8], ok: bool) {
        if ok {
            self.logged_out();
            self.login = Some((user.to_vec(), Instant::now()));
            if let Some(ev) = self.event(Kind::Login, Some(user)) {
                self.emit(&ev);
            }
        } else if let Some(mut ev) = self.event(Kind::LoginFailed, Some(user)) {
            ev.code = Some(530);
            self.emit(&ev);
        }
    }

    /// The logged-in user's session ends (QUIT, a new login, the client
    /// gone).
    pub(super) fn logged_out(&mut self) {
        let Some((user, since)) = self.login.take() else {
            return;
        };
        if let Some(mut ev) = self.event(Kind::Logout, Some(&user)) {
            ev.duration_ms = Some(u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX));
            self.emit(&ev);
        }
    }
}
