//! The live sessions of this node, for the admin API (issue 30): who is
//! connected from where since when, over which protocol, what each is
//! moving, and a way to end one. FTP sessions (a control connection each)
//! and the web view's logged-in sessions (a cookie each, issue 45) share
//! one list and one space of ids.
//!
//! Each session's driver registers itself when it starts and is removed
//! when its [`Registration`] drops; it keeps its entry current only when
//! something an admin reads changes (a login, a transfer's start and end),
//! never per command or per byte (a transfer's byte count is the atomic its
//! task already updates). Ending a session sends on a oneshot the driver's
//! select loop watches beside the server's shutdown: the session says 421
//! itself ([`babelftp_session::ServerSession::handle_end`]). Ending a web
//! session has its door forget it (its next request finds no session).
//!
//! Before the list is shown, each door that keeps sessions of its own
//! ([`Prune`]) drops those that have ended without a request to notice
//! (expired, or their account changed on any node).

use std::collections::BTreeMap;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::SystemTime;

use tokio::sync::oneshot;

/// The sessions of a server.
#[derive(Default)]
pub struct LiveSessions {
    map: Mutex<BTreeMap<u64, Arc<Entry>>>,
    /// The last id given (FTP sessions and web sessions alike).
    ids: AtomicU64,
    /// Doors whose sessions can end unnoticed (the web view's).
    pruners: Mutex<Vec<Weak<dyn Prune>>>,
}

/// A door that keeps sessions between requests: it drops those that
/// have ended (expired, their account changed) before the list is read.
pub trait Prune: Send + Sync {
    fn prune(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
}

struct Entry {
    peer: SocketAddr,
    since: SystemTime,
    state: Mutex<State>,
}

struct State {
    user: Option<String>,
    /// `ftp`, `ftps`, `http` or `https`.
    protocol: &'static str,
    /// Boxed: most sessions are not moving anything most of the time.
    transfer: Option<Box<Moving>>,
    end: Option<End>,
}

/// How an admin ends a session.
enum End {
    /// An FTP session: its driver says 421 and closes.
    Signal(oneshot::Sender<()>),
    /// A web session: its door forgets it.
    Forget(Box<dyn FnOnce() + Send>),
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
    /// `ftp`, `ftps`, `http` or `https`.
    pub protocol: &'static str,
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
    /// A new session id (the FTP listeners' and the web view's).
    pub fn next_id(&self) -> u64 {
        self.ids.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Adds FTP session `id` (`ftps` from its start when `implicit`); the
    /// receiver fires when an admin ends it.
    pub fn register(
        self: &Arc<Self>,
        id: u64,
        peer: SocketAddr,
        implicit: bool,
    ) -> (Registration, oneshot::Receiver<()>) {
        let (tx, rx) = oneshot::channel();
        let protocol = if implicit { "ftps" } else { "ftp" };
        (self.add(id, peer, None, protocol, End::Signal(tx)), rx)
    }

    /// Adds web session `id` of `user`, logged in from `peer` over
    /// `protocol` (`http`, `https`); `forget` is called when an admin ends
    /// it (and must drop the registration).
    pub fn register_web(
        self: &Arc<Self>,
        id: u64,
        peer: SocketAddr,
        user: &str,
        protocol: &'static str,
        forget: Box<dyn FnOnce() + Send>,
    ) -> Registration {
        self.add(id, peer, Some(user.to_owned()), protocol, End::Forget(forget))
    }

    fn add(
        self: &Arc<Self>,
        id: u64,
        peer: SocketAddr,
        user: Option<String>,
        protocol: &'static str,
        end: End,
    ) -> Registration {
        let entry = Arc::new(Entry {
            peer,
            since: SystemTime::now(),
            state: Mutex::new(State {
                user,
                protocol,
                transfer: None,
                end: Some(end),
            }),
        });
        lock(&self.map).insert(id, entry.clone());
        Registration {
            sessions: self.clone(),
            id,
            entry,
        }
    }

    /// Adds a door whose sessions [`LiveSessions::prune`] checks.
    pub fn add_pruner(&self, door: Weak<dyn Prune>) {
        let mut p = lock(&self.pruners);
        p.retain(|w| w.strong_count() > 0);
        p.push(door);
    }

    /// Has every door drop its sessions that have ended unnoticed.
    pub async fn prune(&self) {
        let doors: Vec<Arc<dyn Prune>> = lock(&self.pruners).iter().filter_map(Weak::upgrade).collect();
        for d in doors {
            d.prune().await;
        }
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

    /// Ends session `id` (an FTP session's 421; a web session is
    /// forgotten): whether it was there.
    pub fn end(&self, id: u64) -> bool {
        let Some(e) = lock(&self.map).get(&id).cloned() else {
            return false;
        };
        // Taken under the lock, called without it: forgetting a web
        // session drops its registration, which takes the map's lock.
        let end = lock(&e.state).end.take();
        match end {
            Some(End::Signal(tx)) => {
                let _ = tx.send(());
            }
            Some(End::Forget(forget)) => {
                forget();
                // Gone from the list even if its door is gone already.
                lock(&self.map).remove(&id);
            }
            None => {}
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
            protocol: st.protocol,
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
pub struct Registration {
    sessions: Arc<LiveSessions>,
    id: u64,
    entry: Arc<Entry>,
}

impl Registration {
    /// The session's user changed (a login, REIN).
    pub fn set_user(&self, user: Option<&[u8]>) {
        lock(&self.entry.state).user = user.map(|u| babelftp_proto::display::PlainPath(u).to_string());
    }

    /// The control connection is under TLS now (`ftps`), or no longer.
    pub fn set_tls(&self, tls: bool) {
        lock(&self.entry.state).protocol = if tls { "ftps" } else { "ftp" };
    }

    /// A transfer starts; it is shown until the returned guard drops.
    pub fn transfer(&self, direction: &'static str, path: String, bytes: Arc<AtomicU64>) -> Shown {
        lock(&self.entry.state).transfer = Some(Box::new(Moving {
            direction,
            path,
            since: SystemTime::now(),
            bytes,
        }));
        Shown(self.entry.clone())
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        lock(&self.sessions.map).remove(&self.id);
    }
}

/// A running transfer's place in its session's entry.
pub struct Shown(Arc<Entry>);

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
        let (reg, mut ended) = live.register(7, peer, false);
        assert_eq!(live.count(), 1);
        reg.set_user(Some(b"alice"));
        let bytes = Arc::new(AtomicU64::new(0));
        let shown = reg.transfer("upload", "/in/a.bin".into(), bytes.clone());
        bytes.store(42, Ordering::Relaxed);
        let s = live.get(7).unwrap();
        assert_eq!(s.user.as_deref(), Some("alice"));
        assert_eq!(s.protocol, "ftp");
        reg.set_tls(true);
        assert_eq!(live.get(7).unwrap().protocol, "ftps");
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

    #[test]
    fn a_web_session_is_listed_and_ending_it_has_its_door_forget_it() {
        let live = Arc::new(LiveSessions::default());
        let peer: SocketAddr = "192.0.2.2:6000".parse().unwrap();
        let (a, b) = (live.next_id(), live.next_id());
        assert_ne!(a, b);
        // The door keeps the registration; forgetting drops it.
        let door: Arc<Mutex<Option<Registration>>> = Arc::default();
        let forget = {
            let door = door.clone();
            Box::new(move || drop(lock(&door).take()))
        };
        *lock(&door) = Some(live.register_web(b, peer, "bob", "https", forget));
        let s = live.get(b).unwrap();
        assert_eq!((s.user.as_deref(), s.protocol, s.client), (Some("bob"), "https", peer));
        assert!(live.end(b));
        assert!(lock(&door).is_none(), "the door forgot it");
        assert_eq!(live.count(), 0);
        assert!(!live.end(b));
    }
}
