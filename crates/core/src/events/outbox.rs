//! The outbox: the accounts store's `event_outbox` table, or a queue in
//! memory; the task that writes to it in batches; and one task per hook
//! that delivers, in order per session, with a growing back-off while the
//! receiver fails.
//!
//! The outbox is bounded (issue 45): past `[events] max_pending` entries
//! for one hook on this node, the oldest `login_failed` events are
//! dropped first (a receiver that is down while logins fail must not fill
//! the disk), then the oldest of any kind; drops are counted
//! (`babelftp_events_dropped_total`) and logged.
//!
//! What waits is the gauge `babelftp_events_pending` (this node's entries,
//! every hook's: counted after each batch written and each round of
//! deliveries); each failed delivery attempt counts in
//! `babelftp_hook_failures_total{hook="events"}`.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use babelftp_accounts::{OutboxEntry, Store};
use futures::StreamExt;
use tokio::sync::{mpsc, Notify};

use super::hook::Hook;
use super::{now_ms, Msg};

/// Most rows written in one transaction.
const BATCH: usize = 1000;
/// Most rows a delivery task reads at a time.
const PAGE: u32 = 500;
/// Sessions delivered at once, per hook (each session's events in order).
const PARALLEL: usize = 16;
/// At most one log line of drops in this time (they are counted always).
const DROP_LOG_EVERY: Duration = Duration::from_secs(60);

/// How many entries may wait per hook, and the counter of those dropped;
/// the gauge of those waiting and the counter of failed deliveries.
#[derive(Clone, Debug)]
pub struct Bound {
    pub max_pending: u64,
    pub dropped: prometheus_client::metrics::counter::Counter,
    pub pending: prometheus_client::metrics::gauge::Gauge,
    pub failures: prometheus_client::metrics::counter::Counter,
}

impl Default for Bound {
    fn default() -> Bound {
        Bound {
            max_pending: crate::config::DEFAULT_MAX_PENDING,
            dropped: Default::default(),
            pending: Default::default(),
            failures: Default::default(),
        }
    }
}

/// Whether an entry's JSON is a failed login's (a quote inside a value is
/// always escaped, so this is its `event` field).
fn is_login_failed(body: &str) -> bool {
    body.contains("\"event\":\"login_failed\"")
}

/// Where rows wait.
enum Queue {
    Store(Store),
    Memory(Mutex<Vec<OutboxEntry>>),
}

/// A failed delivery: id, attempts so far, next try (Unix ms), why.
type Failed = (String, u32, i64, String);

impl Queue {
    fn mem(&self) -> Option<std::sync::MutexGuard<'_, Vec<OutboxEntry>>> {
        match self {
            Queue::Memory(m) => Some(m.lock().unwrap_or_else(|p| p.into_inner())),
            Queue::Store(_) => None,
        }
    }

    async fn push(&self, rows: &[OutboxEntry]) -> Result<(), String> {
        match self {
            Queue::Store(s) => s.outbox_push(rows).await.map_err(|e| e.to_string()),
            Queue::Memory(_) => {
                if let Some(mut m) = self.mem() {
                    m.extend_from_slice(rows);
                }
                Ok(())
            }
        }
    }

    /// Keeps at most `max` entries of `node` for `hook`, dropping the
    /// oldest failed logins first: (failed logins, others) dropped.
    async fn trim(&self, node: &str, hook: &str, max: u64) -> Result<(u64, u64), String> {
        match self {
            Queue::Store(s) => s.outbox_trim(node, hook, max).await.map_err(|e| e.to_string()),
            Queue::Memory(_) => {
                let Some(mut m) = self.mem() else {
                    return Ok((0, 0));
                };
                let n = m.iter().filter(|e| e.hook == hook).count() as u64;
                let mut excess = n.saturating_sub(max);
                let mut dropped = [0u64; 2];
                for (i, only_failed) in [true, false].into_iter().enumerate() {
                    if excess == 0 {
                        break;
                    }
                    // The Vec is in the node's order: oldest first.
                    m.retain(|e| {
                        let drop = excess > 0 && e.hook == hook && (!only_failed || is_login_failed(&e.body));
                        if drop {
                            excess -= 1;
                            dropped[i] += 1;
                        }
                        !drop
                    });
                }
                Ok((dropped[0], dropped[1]))
            }
        }
    }

    /// What may be sent at `now`: the first [`PAGE`] entries for `hook`
    /// that do not wait for a next try after `now`, nor behind one of
    /// their session (`Store::outbox_pending`); `i64::MAX` reads all.
    async fn pending(&self, node: &str, hook: &str, now: i64) -> Result<Vec<OutboxEntry>, String> {
        match self {
            Queue::Store(s) => s.outbox_pending(node, hook, PAGE, now).await.map_err(|e| e.to_string()),
            Queue::Memory(_) => Ok(self
                .mem()
                .map(|m| {
                    let mut waiting: HashSet<&str> = HashSet::new();
                    m.iter()
                        .filter(|e| e.hook == hook)
                        .filter(|e| {
                            let session = e.session.as_str();
                            if !session.is_empty() && waiting.contains(session) {
                                return false;
                            }
                            if e.next_try_ms > now {
                                if !session.is_empty() {
                                    waiting.insert(session);
                                }
                                return false;
                            }
                            true
                        })
                        .take(PAGE as usize)
                        .cloned()
                        .collect()
                })
                .unwrap_or_default()),
        }
    }

    /// How many entries of `node` wait (every hook's).
    async fn len(&self, node: &str) -> Result<u64, String> {
        match self {
            Queue::Store(s) => s.outbox_len_of(node).await.map_err(|e| e.to_string()),
            Queue::Memory(_) => Ok(self.mem().map_or(0, |m| m.len() as u64)),
        }
    }

    /// Sets `gauge` to what waits now (unchanged when it cannot be read).
    async fn count_into(&self, node: &str, gauge: &prometheus_client::metrics::gauge::Gauge) {
        if let Ok(n) = self.len(node).await {
            gauge.set(i64::try_from(n).unwrap_or(i64::MAX));
        }
    }

    /// When the first entry for `hook` that waits past `now` is due.
    async fn next_try(&self, node: &str, hook: &str, now: i64) -> Result<Option<i64>, String> {
        match self {
            Queue::Store(s) => s.outbox_next_try(node, hook, now).await.map_err(|e| e.to_string()),
            Queue::Memory(_) => Ok(self.mem().and_then(|m| {
                m.iter()
                    .filter(|e| e.hook == hook && e.next_try_ms > now)
                    .map(|e| e.next_try_ms)
                    .min()
            })),
        }
    }

    async fn done(&self, hook: &str, ids: &[String]) -> Result<(), String> {
        match self {
            Queue::Store(s) => s.outbox_done(hook, ids).await.map_err(|e| e.to_string()),
            Queue::Memory(_) => {
                let ids: HashSet<&String> = ids.iter().collect();
                if let Some(mut m) = self.mem() {
                    m.retain(|e| !(e.hook == hook && ids.contains(&e.id)));
                }
                Ok(())
            }
        }
    }

    async fn retry(&self, hook: &str, failed: &[Failed]) -> Result<(), String> {
        match self {
            Queue::Store(s) => s.outbox_retry(hook, failed).await.map_err(|e| e.to_string()),
            Queue::Memory(_) => {
                let by_id: HashMap<&String, &Failed> = failed.iter().map(|f| (&f.0, f)).collect();
                if let Some(mut m) = self.mem() {
                    for e in m.iter_mut().filter(|e| e.hook == hook) {
                        if let Some((_, attempts, next, _)) = by_id.get(&e.id) {
                            e.attempts = *attempts;
                            e.next_try_ms = *next;
                        }
                    }
                }
                Ok(())
            }
        }
    }
}

/// Starts the writer and the delivery tasks; the writer's channel.
pub(super) fn start(
    node: String,
    hooks: Vec<Arc<Hook>>,
    store: Option<Store>,
    bound: Bound,
) -> mpsc::UnboundedSender<Msg> {
    let names: Vec<&str> = hooks.iter().map(|h| h.name()).collect();
    let queue = Arc::new(match store {
        Some(s) => {
            tracing::info!(hooks = ?names, %node, outbox = %s.describe(), "event hooks");
            Queue::Store(s)
        }
        None => {
            tracing::info!(hooks = ?names, %node, "event hooks: without an accounts store the outbox is in memory (what is not delivered when babelftp stops is lost)");
            Queue::Memory(Mutex::new(Vec::new()))
        }
    });
    let (tx, rx) = mpsc::unbounded_channel();
    let wakes: Vec<Arc<Notify>> = hooks.iter().map(|_| Arc::new(Notify::new())).collect();
    let names: Vec<String> = hooks.iter().map(|h| h.name().to_owned()).collect();
    let (pending, failures) = (bound.pending.clone(), bound.failures.clone());
    tokio::spawn(writer(
        rx,
        queue.clone(),
        wakes.clone(),
        Trim {
            node: node.clone(),
            hooks: names,
            bound,
        },
    ));
    for (hook, wake) in hooks.into_iter().zip(wakes) {
        let count = Count {
            pending: pending.clone(),
            failures: failures.clone(),
        };
        tokio::spawn(deliver(queue.clone(), node.clone(), hook, wake, count));
    }
    tx
}

/// Drops `node`'s outbox entries for hooks not in `keep` (taken out of the
/// configuration), saying so per hook.
pub(super) async fn drop_removed_hooks(store: Store, node: String, keep: Vec<String>) {
    let keep: Vec<&str> = keep.iter().map(String::as_str).collect();
    match store.outbox_drop_hooks_except(&node, &keep).await {
        Ok(dropped) => {
            for (hook, events) in dropped {
                tracing::warn!(%hook, events, %node, "events waiting for a hook that is no longer configured were dropped from the outbox");
            }
        }
        Err(e) => tracing::warn!(error = %e, %node, "could not look for events of hooks no longer configured"),
    }
}

/// What the writer keeps the outbox within.
struct Trim {
    node: String,
    hooks: Vec<String>,
    bound: Bound,
}

impl Trim {
    /// After a batch: each hook's entries within the bound; drops counted,
    /// and logged (at most once a minute, with the totals since).
    async fn run(&self, queue: &Queue, last_log: &mut Option<std::time::Instant>, unlogged: &mut [u64; 2]) {
        for hook in &self.hooks {
            match queue.trim(&self.node, hook, self.bound.max_pending).await {
                Ok((failed, other)) if failed + other > 0 => {
                    self.bound.dropped.inc_by(failed + other);
                    unlogged[0] += failed;
                    unlogged[1] += other;
                    if last_log.is_none_or(|t| t.elapsed() >= DROP_LOG_EVERY) {
                        tracing::warn!(
                            hook = %hook,
                            max_pending = self.bound.max_pending,
                            login_failed = unlogged[0],
                            other = unlogged[1],
                            "the event outbox is full: the oldest events were dropped (failed logins first)"
                        );
                        *last_log = Some(std::time::Instant::now());
                        *unlogged = [0, 0];
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(hook = %hook, error = %e, "the event outbox could not be kept within max_pending")
                }
            }
        }
    }
}

/// Takes what the sessions emit and writes it in batches: what arrived
/// while the last batch was written is the next one; then keeps the
/// outbox within its bound.
async fn writer(mut rx: mpsc::UnboundedReceiver<Msg>, queue: Arc<Queue>, wakes: Vec<Arc<Notify>>, trim: Trim) {
    let mut last_log = None;
    let mut unlogged = [0u64; 2];
    let mut rows: Vec<OutboxEntry> = Vec::new();
    let mut flushes = Vec::new();
    while let Some(first) = rx.recv().await {
        let mut next = Some(first);
        while let Some(msg) = next {
            match msg {
                Msg::Rows(r) => rows.extend(r),
                Msg::Flush(tx) => flushes.push(tx),
            }
            next = if rows.len() < BATCH { rx.try_recv().ok() } else { None };
        }
        // A store that fails keeps the rows here, and is tried again:
        // nothing is dropped.
        let mut wait = Duration::from_millis(100);
        while !rows.is_empty() {
            match queue.push(&rows).await {
                Ok(()) => rows.clear(),
                Err(e) => {
                    tracing::warn!(error = %e, events = rows.len(), "events not written to the outbox: trying again");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(10));
                }
            }
        }
        trim.run(&queue, &mut last_log, &mut unlogged).await;
        queue.count_into(&trim.node, &trim.bound.pending).await;
        for w in &wakes {
            w.notify_one();
        }
        for f in flushes.drain(..) {
            let _ = f.send(());
        }
    }
}

/// One hook's delivery: its rows in the node's order; a session whose
/// earlier event has not gone holds its later ones back (the outbox is
/// read past them); other sessions go on.
/// A delivery task's metrics.
struct Count {
    pending: prometheus_client::metrics::gauge::Gauge,
    failures: prometheus_client::metrics::counter::Counter,
}

async fn deliver(queue: Arc<Queue>, node: String, hook: Arc<Hook>, wake: Arc<Notify>, count: Count) {
    // At start, what a previous run left is due at once.
    let mut first = true;
    let mut failing = false;
    loop {
        let now = now_ms();
        let rows = match queue
            .pending(&node, hook.name(), if first { i64::MAX } else { now })
            .await
        {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(hook = hook.name(), error = %e, "the outbox cannot be read");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let mut groups: Vec<Vec<OutboxEntry>> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        for r in rows {
            // A ban belongs to no session: alone in its group.
            let key = if r.session.is_empty() {
                format!("\0{}", r.id)
            } else {
                r.session.clone()
            };
            match index.get(&key) {
                Some(&i) => groups[i].push(r),
                None => {
                    index.insert(key, groups.len());
                    groups.push(vec![r]);
                }
            }
        }
        if first {
            // What a previous run left.
            queue.count_into(&node, &count.pending).await;
        }
        first = false;
        if groups.is_empty() {
            let earliest = queue.next_try(&node, hook.name(), now).await.unwrap_or(None);
            let wait = earliest.map_or(Duration::from_secs(60), |t| {
                Duration::from_millis(u64::try_from(t - now).unwrap_or(0))
            });
            tokio::select! {
                _ = wake.notified() => {}
                _ = tokio::time::sleep(wait.min(Duration::from_secs(60))) => {}
            }
            continue;
        }
        let results: Vec<(Vec<String>, Option<Failed>)> = futures::stream::iter(groups)
            .map(|g| send_group(&hook, g))
            .buffer_unordered(PARALLEL)
            .collect()
            .await;
        let mut done = Vec::new();
        let mut failed = Vec::new();
        for (d, f) in results {
            done.extend(d);
            failed.extend(f);
        }
        if let Err(e) = queue.done(hook.name(), &done).await {
            // Delivered again later: at least once.
            tracing::warn!(hook = hook.name(), error = %e, "delivered events not removed from the outbox");
        }
        if let Some((_, attempts, next, why)) = failed.first() {
            if !failing {
                tracing::warn!(hook = hook.name(), error = %why, attempts, retry_in_ms = next - now_ms(), "hook failing: events wait in the outbox");
            }
            failing = true;
        } else if failing && !done.is_empty() {
            tracing::info!(hook = hook.name(), "hook delivering again");
            failing = false;
        }
        count.failures.inc_by(failed.len() as u64);
        if let Err(e) = queue.retry(hook.name(), &failed).await {
            tracing::warn!(hook = hook.name(), error = %e, "failed deliveries not recorded");
        }
        queue.count_into(&node, &count.pending).await;
    }
}

/// One session's events, in order, until one fails (the rest wait for it).
async fn send_group(hook: &Hook, group: Vec<OutboxEntry>) -> (Vec<String>, Option<Failed>) {
    let mut done = Vec::new();
    for e in group {
        match hook.send(&e.id, &e.body).await {
            Ok(()) => done.push(e.id),
            Err(why) => {
                let attempts = e.attempts.saturating_add(1);
                let wait = backoff(attempts, hook.max_backoff());
                let next = now_ms().saturating_add(i64::try_from(wait.as_millis()).unwrap_or(i64::MAX));
                return (done, Some((e.id, attempts, next, why)));
            }
        }
    }
    (done, None)
}

/// 1 s, 2 s, 4 s, … up to `max`.
pub(super) fn backoff(attempts: u32, max: Duration) -> Duration {
    let factor = 1u32.checked_shl(attempts.saturating_sub(1).min(31)).unwrap_or(u32::MAX);
    Duration::from_secs(1).saturating_mul(factor).min(max)
}

/// A queue in memory holding `rows`, trimmed to `max`, for the tests:
/// (failed logins dropped, others, the ids left).
#[cfg(test)]
pub(super) async fn test_trim(rows: Vec<OutboxEntry>, max: u64) -> (u64, u64, Vec<String>) {
    let q = Queue::Memory(Mutex::new(Vec::new()));
    let _ = q.push(&rows).await;
    let (failed, other) = q.trim("n", "h", max).await.unwrap_or_default();
    let left = q
        .mem()
        .map(|m| m.iter().map(|e| e.id.clone()).collect())
        .unwrap_or_default();
    (failed, other, left)
}
