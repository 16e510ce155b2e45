//! The live sessions of this node, for the admin API (issue 30): who is
//! connected from where since when, what each is moving, and a way to end
//! one.
//!
//! Each session's driver registers itself when it starts and is removed
//! when its [`Registration`] drops; it keeps its entry current only when
//! something an admin reads changes (a login, a transfer's start and end),
//! never per command or per byte (a transfer's byte count is the atomic its
//! task already updates). Ending a session sends on a oneshot the driver's
//! select loop watches beside the server's shutdown: the session says 421
//! itself ([`babelftp_session::ServerSession::handle_end`]).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use tokio::sync::oneshot;

/// The sessions of a server.
#[derive(Default)]
pub struct LiveSessions {
    map: Mutex<BTreeMap<u64, Arc<Entry>>>,
}

struct Entry {
    peer: SocketAddr,
    since: SystemTime,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    user: Option<String>,
    transfer: Option<Moving>,
    end: Option<oneshot::Sender<()>>,
}

struct Moving {
    direction: &'static str,
    path: String,
    since: SystemTime,
    bytes: Arc<AtomicU64>,
}

/// A session as the admin API shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionInfo {
    pub id: u64,
    /// The logged-in user, if any.
    pub user: Option<String>,
    pub client: SocketAddr,
    /// Connected since, Unix seconds.
    pub since_unix: u64,
    pub transfer: Option<TransferInfo>,
}

/// A running transfer as the admin API shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransferInfo {
    /// `upload`, `download` or `listing`.
    pub direction: &'static str,
    /// The path, as text (bytes that are not UTF-8 as `%HH`).
    pub path: String,
    pub bytes: u64,
    pub since_unix: u64,
}

fn unix(t: SystemTime) -> u64 {
    t.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl LiveSessions {
    /// Adds session `id`; the receiver fires when an admin ends it.
    pub(crate) fn register(self: &Arc<Self>, id: u64, peer: SocketAddr) -> (Registration, oneshot::Receiver<()>) {
        let (tx, rx) = oneshot::channel();
        let entry = Arc::new(Entry {
            peer,
            since: SystemTime::now(),
            state: Mutex::new(State {
                end: Some(tx),
                ..State::default()
            }),
        });
        lock(&self.map).insert(id, entry.clone());
        (
            Registration {
                sessions: self.clone(),
                id,
                entry,
            },
            rx,
        )
    }

    /// How many sessions there are.
    pub fn count(&self) -> usize {
        lock(&self.map).len()
    }

    /// Every session, oldest first.
    pub fn list(&self) -> Vec<SessionInfo> {
        let entries: Vec<(u64, Arc<Entry>)> = lock(&self.map).iter().map(|(id, e)| (*id, e.clone())).collect();
        entries.into_iter().map(|(id, e)| e.info(id)).collect()
    }

    /// Session `id`, if it is there.
    pub fn get(&self, id: u64) -> Option<SessionInfo> {
        let e = lock(&self.map).get(&id).cloned()?;
        Some(e.info(id))
    }

    /// Ends session `id` (421): whether it was there.
    pub fn end(&self, id: u64) -> bool {
        let Some(e) = lock(&self.map).get(&id).cloned() else {
            return false;
        };
        if let Some(tx) = lock(&e.state).end.take() {
            let _ = tx.send(());
        }
        true
    }
}

impl Entry {
    fn info(&self, id: u64) -> SessionInfo {
        let st = lock(&self.state);
        SessionInfo {
            id,
            user: st.user.clone(),
            client: self.peer,
            since_unix: unix(self.since),
            transfer: st.transfer.as_ref().map(|m| TransferInfo {
                direction: m.direction,
                path: m.path.clone(),
                bytes: m.bytes.load(Ordering::Relaxed),
                since_unix: unix(m.since),
            }),
        }
    }
}

/// A session's place among the live ones; it leaves when this drops.
pub(crate) struct Registration {
    sessions: Arc<LiveSessions>,
    id: u64,
    entry: Arc<Entry>,
}

impl Registration {
    /// The session's user changed (a login, REIN).
    pub(crate) fn set_user(&self, user: Option<&[u8]>) {
        lock(&self.entry.state).user = user.map(|u| babelftp_proto::display::PlainPath(u).to_string());
    }

    /// A transfer starts; it is shown until the returned guard drops.
    pub(crate) fn transfer(&self, direction: &'static str, path: String, bytes: Arc<AtomicU64>) -> Shown {
        lock(&self.entry.state).transfer = Some(Moving {
            direction,
            path,
            since: SystemTime::now(),
            bytes,
        });
        Shown(self.entry.clone())
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        lock(&self.sessions.map).remove(&self.id);
    }
}

/// A running transfer's place in its session's entry.
pub(crate) struct Shown(Arc<Entry>);

impl Drop for Shown {
    fn drop(&mut self) {
        lock(&self.0.state).transfer = None;
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn sessions_come_show_their_transfer_and_go() {
        let live = Arc::new(LiveSessions::default());
        let peer: SocketAddr = "192.0.2.1:5000".parse().unwrap();
        let (reg, mut ended) = live.register(7, peer);
        assert_eq!(live.count(), 1);
        reg.set_user(Some(b"alice"));
        let bytes = Arc::new(AtomicU64::new(0));
        let shown = reg.transfer("upload", "/in/a.bin".into(), bytes.clone());
        bytes.store(42, Ordering::Relaxed);
        let s = live.get(7).unwrap();
        assert_eq!(s.user.as_deref(), Some("alice"));
        assert_eq!(s.client, peer);
        let t = s.transfer.unwrap();
        assert_eq!((t.direction, t.path.as_str(), t.bytes), ("upload", "/in/a.bin", 42));
        drop(shown);
        assert_eq!(live.list()[0].transfer, None);
        assert!(ended.try_recv().is_err());
        assert!(live.end(7));
        assert!(ended.try_recv().is_ok());
        assert!(!live.end(8));
        drop(reg);
        assert_eq!(live.count(), 0);
        assert!(!live.end(7));
    }
}
