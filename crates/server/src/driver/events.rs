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
        let session = self.shared.events.as_ref()?.session_id(self.id);
        self.shared.event(kind, user, self.door(), session)
    }

    /// This door, in records and events.
    pub(super) fn door(&self) -> babelftp_core::transfer::Door {
        babelftp_core::transfer::Door {
            protocol: if self.control.is_tls() { "ftps" } else { "ftp" },
            peer: self.peer.ip(),
        }
    }

    pub(super) fn emit(&self, ev: &Event) {
        if let Some(events) = &self.shared.events {
            events.emit(ev);
        }
    }

    /// `p` as stored (the octets on disk in a translated subtree, see
    /// [`crate::storage::Storage::stored_path`]): what events name, so that
    /// a hook finds the file.
    pub(super) async fn stored(&self, p: &[u8]) -> Vec<u8> {
        let (st, vp) = (self.storage.clone(), VPath::root().join(p));
        let quick = st.clone();
        on_disk(&*quick, move || Ok(st.stored_path(&vp)))
            .await
            .unwrap_or_else(|_| p.to_vec())
    }

    /// The path and target an operation's event names, as stored.
    pub(super) async fn stored_names(&self, op: &Op) -> (Vec<u8>, Option<Vec<u8>>) {
        let (path, target) = match op {
            Op::Mkdir(p) | Op::Rmdir(p) | Op::RemoveFile(p) | Op::Chmod { path: p, .. } => (p, None),
            Op::Rename { from, to, .. } => (from, Some(to)),
            _ => return (Vec::new(), None),
        };
        let path = self.stored(&path.to_bytes()).await;
        let target = match target {
            Some(t) => Some(self.stored(&t.to_bytes()).await),
            None => None,
        };
        (path, target)
    }

    /// A change to the tree that the storage did; `stored`: its path and
    /// target as stored ([`Driver::stored_names`]).
    pub(super) fn changed(&self, sess: &ServerSession, op: &Op, stored: (Vec<u8>, Option<Vec<u8>>)) {
        let (kind, mode) = match op {
            Op::Mkdir(_) => (Kind::Mkdir, None),
            Op::Rmdir(_) => (Kind::Rmdir, None),
            Op::RemoveFile(_) => (Kind::Delete, None),
            Op::Rename { .. } => (Kind::Rename, None),
            Op::Chmod { mode, .. } => (Kind::Chmod, Some(*mode)),
            _ => return,
        };
        let Some(mut ev) = self.event(kind, sess.logged_in_user()) else {
            return;
        };
        ev.path = Some(stored.0);
        ev.target = stored.1;
        ev.mode = mode;
        ev.outcome = Some("complete");
        self.emit(&ev);
    }

    /// A transfer ended (`stored`: its path as stored). A whole upload's
    /// event waits until its replies have gone out
    /// ([`Driver::emit_deferred`]).
    pub(super) fn transferred(&mut self, rec: &TransferRecord, stored: Vec<u8>) {
        let Some(events) = self.shared.events.as_ref() else {
            return;
        };
        let session = events.session_id(self.id);
        let Some(ev) = self.shared.transfer_event(self.door(), session, rec, stored) else {
            return;
        };
        // Behind a waiting upload's event, any other waits too: the
        // session's events go out in order.
        let sized = (rec.incoming && rec.complete).then(|| VPath::root().join(&rec.path));
        if sized.is_some() || !self.deferred.is_empty() {
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
            if let Some(p) = sized {
                let st = self.storage.clone();
                ev.size = on_disk(&*self.storage, move || Ok(file_size(&*st, &p)))
                    .await
                    .ok()
                    .flatten();
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
