//! What a user's sessions share on this node (issue 29): how many there
//! are (`max_sessions`) and, with them, what else is kept per user.
//!
//! A login takes a [`SessionSlot`] of its user's [`UserEntry`]; the slot
//! is given back when the session ends or logs in again. Entries live as
//! long as a slot holds them (the map keeps weak references, swept when
//! it grows).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use babelftp_accounts::Limits;

/// One user's sessions on this node.
#[derive(Debug)]
pub struct UserEntry {
    pub name: String,
    sessions: AtomicU64,
    /// Its bandwidth limits, shared by its sessions (crate::throttle).
    pub rates: crate::throttle::UserRates,
}

/// Every user with a session on this node.
#[derive(Debug, Default)]
pub struct Registry {
    users: Mutex<HashMap<String, Weak<UserEntry>>>,
}

/// A session's place among its user's sessions; given back when dropped.
#[derive(Debug)]
pub struct SessionSlot {
    pub entry: Arc<UserEntry>,
    /// The user's limits as its login read them.
    pub limits: Limits,
}

impl Drop for SessionSlot {
    fn drop(&mut self) {
        self.entry.sessions.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Registry {
    /// A slot for a session of `name`, unless it has `limits.max_sessions`
    /// already (`None`).
    pub fn enter(&self, name: &str, limits: Limits) -> Option<SessionSlot> {
        let entry = {
            let Ok(mut users) = self.users.lock() else {
                return None;
            };
            if users.len() >= 1024 && !users.contains_key(name) {
                users.retain(|_, w| w.strong_count() > 0);
            }
            match users.get(name).and_then(Weak::upgrade) {
                Some(e) => e,
                None => {
                    let e = Arc::new(UserEntry {
                        name: name.to_owned(),
                        sessions: AtomicU64::new(0),
                        rates: Default::default(),
                    });
                    users.insert(name.to_owned(), Arc::downgrade(&e));
                    e
                }
            }
        };
        let max = limits.max_sessions.unwrap_or(u64::MAX);
        let taken = entry
            .sessions
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < max).then_some(n + 1));
        taken.ok().map(|_| {
            entry.rates.update(&limits);
            SessionSlot { entry, limits }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_are_counted_per_user_and_given_back() {
        let r = Registry::default();
        let two = Limits {
            max_sessions: Some(2),
            ..Limits::default()
        };
        let a = r.enter("ann", two);
        let b = r.enter("ann", two);
        assert!(a.is_some() && b.is_some());
        assert!(r.enter("ann", two).is_none(), "a third session of ann is refused");
        assert!(r.enter("bob", two).is_some(), "bob counts on his own");
        drop(a);
        let c = r.enter("ann", two);
        assert!(c.is_some(), "a session that ended gives its slot back");
        assert!(r.enter("ann", Limits::default()).is_some(), "no limit, no refusal");
    }
}
