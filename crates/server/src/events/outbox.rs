//! The outbox: the accounts store's `event_outbox` table, or a queue in
//! memory; the task that writes to it in batches; and one task per hook
//! that delivers, in order per session, with a growing back-off while the
//! receiver fails.

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
pub(super) fn start(node: String, hooks: Vec<Arc<Hook>>, store: Option<Store>) -> mpsc::UnboundedSender<Msg> {
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
    tokio::spawn(writer(rx, queue.clone(), wakes.clone()));
    for (hook, wake) in hooks.into_iter().zip(wakes) {
        tokio::spawn(deliver(queue.clone(), node.clone(), hook, wake));
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

/// Takes what the sessions emit and writes it in batches: what arrived
/// while the last batch was written is the next one.
async fn writer(mut rx: mpsc::UnboundedReceiver<Msg>, queue: Arc<Queue>, wakes: Vec<Arc<Notify>>) {
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
async fn deliver(queue: Arc<Queue>, node: String, hook: Arc<Hook>, wake: Arc<Notify>) {
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
        if let Err(e) = queue.retry(hook.name(), &failed).await {
            tracing::warn!(hook = hook.name(), error = %e, "failed deliveries not recorded");
        }
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
