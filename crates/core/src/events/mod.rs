//! Events (issue 30): what happened (an upload, a login, a ban…), told to
//! the hooks an operator configured, and never lost on the way.
//!
//! ```text
//!  driver (a session's task)          writer task            one task per hook
//!  Events::emit ── unbounded channel ─► batches rows ─► outbox ─► in order per session:
//!  (never waits: the 226 goes out)      (one transaction)  (store  POST with HMAC, or a
//!                                                           or RAM) command; back-off on failure
//! ```
//!
//! An event is JSON ([`Event::to_json`]); one outbox row per event and
//! hook that wants it. With the accounts store the outbox is its
//! `event_outbox` table: what a receiver that is down has not taken is
//! there after a restart, and delivered then. Without a store it is a queue
//! in memory (lost when babelftp stops). Delivery is at least once: a
//! receiver deduplicates by `id`.
//!
//! Module map: this file (the event, its JSON, [`Events`]), `hook`
//! (webhooks, commands, the path filter), `outbox` (the queue, the writer,
//! the delivery loops).

use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use babelftp_accounts::OutboxEntry;
use babelftp_proto::display::PlainPath;
use babelftp_proto::listing::Civil;
use serde::Serialize;
use tokio::sync::{mpsc, oneshot};

pub mod hook;
mod outbox;
pub use outbox::Bound;

pub use hook::{HookSpec, Target};

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Upload,
    Download,
    Delete,
    Rename,
    Mkdir,
    Rmdir,
    Chmod,
    Login,
    LoginFailed,
    Logout,
    Ban,
}

impl Kind {
    /// Every kind, in the order of the documentation.
    pub const ALL: [Kind; 11] = [
        Kind::Upload,
        Kind::Download,
        Kind::Delete,
        Kind::Rename,
        Kind::Mkdir,
        Kind::Rmdir,
        Kind::Chmod,
        Kind::Login,
        Kind::LoginFailed,
        Kind::Logout,
        Kind::Ban,
    ];

    /// Its name in the JSON and in `events = [...]`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Upload => "upload",
            Kind::Download => "download",
            Kind::Delete => "delete",
            Kind::Rename => "rename",
            Kind::Mkdir => "mkdir",
            Kind::Rmdir => "rmdir",
            Kind::Chmod => "chmod",
            Kind::Login => "login",
            Kind::LoginFailed => "login_failed",
            Kind::Logout => "logout",
            Kind::Ban => "ban",
        }
    }

    /// The kind named `s`.
    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// An event as the driver knows it; [`Events::emit`] adds the id, the
/// time and the node.
#[derive(Debug, Clone)]
pub struct Event {
    pub kind: Kind,
    /// The session's id (see [`Events::session_id`]); none for a ban.
    pub session: Option<String>,
    pub user: Option<Vec<u8>>,
    pub client: Option<IpAddr>,
    /// `ftp` or `ftps`.
    pub protocol: Option<&'static str>,
    /// The path as the session sees it (below its home), as stored.
    pub path: Option<Vec<u8>>,
    /// A rename's new path.
    pub target: Option<Vec<u8>>,
    /// The file's size (an upload's, once in place).
    pub size: Option<u64>,
    /// Octets moved.
    pub bytes: Option<u64>,
    pub duration_ms: Option<u64>,
    /// `complete` or `cut_short`.
    pub outcome: Option<&'static str>,
    /// The reply that ended it (226, 426, 451, …).
    pub code: Option<u16>,
    /// SITE CHMOD's bits.
    pub mode: Option<u32>,
    /// Why (a ban's reason).
    pub reason: Option<&'static str>,
    /// How long a ban lasts.
    pub ban_seconds: Option<u64>,
}

impl Event {
    pub fn new(kind: Kind) -> Event {
        Event {
            kind,
            session: None,
            user: None,
            client: None,
            protocol: None,
            path: None,
            target: None,
            size: None,
            bytes: None,
            duration_ms: None,
            outcome: None,
            code: None,
            mode: None,
            reason: None,
            ban_seconds: None,
        }
    }

    /// The JSON sent to the hooks.
    pub fn to_json(&self, id: &str, time: &str, node: &str) -> String {
        let (path, path_hex) = split_name(self.path.as_deref());
        let (target, target_hex) = split_name(self.target.as_deref());
        let json = Json {
            id,
            event: self.kind.name(),
            time,
            node,
            session: self.session.as_deref(),
            user: self.user.as_deref().map(|u| PlainPath(u).to_string()),
            client_address: self.client.map(|c| c.to_canonical().to_string()),
            protocol: self.protocol,
            path,
            path_hex,
            target,
            target_hex,
            size: self.size,
            bytes: self.bytes,
            duration_ms: self.duration_ms,
            outcome: self.outcome,
            code: self.code,
            mode: self.mode.map(|m| format!("{m:03o}")),
            reason: self.reason,
            ban_seconds: self.ban_seconds,
        };
        // A struct of strings and numbers always serializes.
        serde_json::to_string(&json).unwrap_or_default()
    }
}

#[derive(Serialize)]
struct Json<'a> {
    id: &'a str,
    event: &'static str,
    time: &'a str,
    node: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    user: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    client_address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    protocol: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path_hex: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target_hex: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    duration_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mode: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ban_seconds: Option<u64>,
}

/// A stored name as JSON text: itself when it is UTF-8; otherwise its
/// display form (invalid octets and `%` as `%HH`, as the logs show it,
/// `babelftp_proto::display`) and, exact, every octet outside printable
/// ASCII and `%` as `%HH` (the `_hex` field).
fn split_name(name: Option<&[u8]>) -> (Option<String>, Option<String>) {
    let Some(name) = name else {
        return (None, None);
    };
    match std::str::from_utf8(name) {
        Ok(text) => (Some(text.to_owned()), None),
        Err(_) => (Some(PlainPath(name).to_string()), Some(percent(name))),
    }
}

/// Printable ASCII but `%` as itself, every other octet as `%HH`.
pub fn percent(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 3);
    for &b in bytes {
        if (0x20..0x7f).contains(&b) && b != b'%' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The octets [`percent`] wrote (a `%` not followed by two hex digits is
/// itself).
pub fn unpercent(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| char::from(c).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push(u8::try_from(h * 16 + l).unwrap_or(0));
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// RFC 3339 UTC with milliseconds.
pub fn rfc3339(unix_ms: i64) -> String {
    let c = Civil::from_unix(unix_ms.div_euclid(1000));
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        c.year,
        c.month,
        c.day,
        c.hour,
        c.minute,
        c.second,
        unix_ms.rem_euclid(1000)
    )
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A random UUID (version 4), from ring's system random source; a
/// time-and-counter id in the unlikely case it fails.
fn uuid_v4() -> String {
    use ring::rand::SecureRandom;
    let mut b = [0u8; 16];
    if ring::rand::SystemRandom::new().fill(&mut b).is_err() {
        static N: AtomicU64 = AtomicU64::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let t = u64::try_from(now_ms()).unwrap_or(0);
        b[..8].copy_from_slice(&t.to_be_bytes());
        b[8..].copy_from_slice(&n.to_be_bytes());
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|o| format!("{o:02x}")).collect();
    format!("{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..])
}

/// The machine's name (Linux), for `node` when none is configured.
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok().filter(|s| !s.is_empty()))
        .unwrap_or_else(|| "babelftp".to_owned())
}

enum Msg {
    Rows(Vec<OutboxEntry>),
    /// Answered once everything sent before it is in the outbox.
    Flush(oneshot::Sender<()>),
}

/// The server's events: the hooks, and the channel to the outbox's writer.
pub struct Events {
    node: String,
    /// This run's random prefix of session ids.
    run: String,
    hooks: Vec<Arc<hook::Hook>>,
    tx: mpsc::UnboundedSender<Msg>,
    /// The last `seq` given (Unix microseconds, or one more).
    seq: Mutex<i64>,
}

impl Events {
    /// Starts the writer and one delivery task per hook; `None` without
    /// hooks. `store`: the durable outbox (else one in memory).
    ///
    /// With a store, what this node's outbox holds for hooks no longer
    /// configured (removed or renamed) is dropped, with a warning naming
    /// the hook and how many events: no task would ever send it.
    pub fn start(
        node: Option<String>,
        specs: &[HookSpec],
        store: Option<babelftp_accounts::Store>,
    ) -> Result<Option<Arc<Events>>, String> {
        Events::start_bounded(node, specs, store, outbox::Bound::default())
    }

    /// [`Events::start`] with the outbox's bound (`[events] max_pending`)
    /// and the counter of the events it drops.
    pub fn start_bounded(
        node: Option<String>,
        specs: &[HookSpec],
        store: Option<babelftp_accounts::Store>,
        bound: outbox::Bound,
    ) -> Result<Option<Arc<Events>>, String> {
        let hooks = specs
            .iter()
            .map(|s| hook::Hook::new(s.clone()).map(Arc::new))
            .collect::<Result<Vec<_>, _>>()?;
        let node = node.unwrap_or_else(hostname);
        if let Some(s) = &store {
            let keep = hooks.iter().map(|h| h.name().to_owned()).collect();
            tokio::spawn(outbox::drop_removed_hooks(s.clone(), node.clone(), keep));
        }
        if hooks.is_empty() {
            return Ok(None);
        }
        let run = uuid_v4()[..8].to_owned();
        let tx = outbox::start(node.clone(), hooks.clone(), store, bound);
        Ok(Some(Arc::new(Events {
            node,
            run,
            hooks,
            tx,
            seq: Mutex::new(0),
        })))
    }

    /// The id of session `n` of this run: unique across runs and nodes.
    pub fn session_id(&self, n: u64) -> String {
        format!("{}-{n}", self.run)
    }

    /// Whether any hook takes events of `kind` (else none is built).
    pub fn wants(&self, kind: Kind) -> bool {
        self.hooks.iter().any(|h| h.wants_kind(kind))
    }

    /// Queues the event for every hook that wants it; never waits.
    pub fn emit(&self, ev: &Event) {
        let hooks: Vec<&Arc<hook::Hook>> = self.hooks.iter().filter(|h| h.wants(ev)).collect();
        if hooks.is_empty() {
            return;
        }
        let now = now_ms();
        let id = uuid_v4();
        let seq = {
            let mut last = self.seq.lock().unwrap_or_else(|p| p.into_inner());
            *last = (*last + 1).max(now.saturating_mul(1000));
            *last
        };
        let body = ev.to_json(&id, &rfc3339(now), &self.node);
        let rows = hooks
            .into_iter()
            .map(|h| OutboxEntry {
                id: id.clone(),
                hook: h.name().to_owned(),
                node: self.node.clone(),
                session: ev.session.clone().unwrap_or_default(),
                seq,
                body: body.clone(),
                attempts: 0,
                next_try_ms: now,
            })
            .collect();
        if self.tx.send(Msg::Rows(rows)).is_err() {
            tracing::warn!(event = ev.kind.name(), "event lost: the outbox writer has stopped");
        }
    }

    /// Waits (up to `limit`) until every event emitted so far is in the
    /// outbox: at a stop, so the store has them for the next run.
    pub async fn flush(&self, limit: Duration) {
        let (tx, rx) = oneshot::channel();
        if self.tx.send(Msg::Flush(tx)).is_ok() {
            let _ = tokio::time::timeout(limit, rx).await;
        }
    }
}

#[cfg(test)]
mod tests;
