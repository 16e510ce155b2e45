//! The event outbox (issue 30): events waiting for their hooks, kept in
//! the store so that a receiver that is down, or a restart of babelftp,
//! loses none. The server writes a batch at a time, reads its own node's
//! rows in order, and removes a row once its hook has it.

use crate::{AccountsError, Store};

/// One event for one hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxEntry {
    /// The event's id (unique; a receiver deduplicates by it).
    pub id: String,
    /// Which hook (its name).
    pub hook: String,
    /// The node that recorded the event and delivers it.
    pub node: String,
    /// The session it belongs to (`""`: none, as a ban's).
    pub session: String,
    /// The node's order of events.
    pub seq: i64,
    /// The event's JSON.
    pub body: String,
    /// Deliveries tried so far.
    pub attempts: u32,
    /// Not before (Unix milliseconds).
    pub next_try_ms: i64,
}

impl Store {
    /// Adds entries, in one transaction; an entry already there (same id
    /// and hook) stays as it is.
    pub async fn outbox_push(&self, entries: &[OutboxEntry]) -> Result<(), AccountsError> {
        let mut tx = self.write_tx().await?;
        for e in entries {
            sqlx::query(
                "INSERT INTO event_outbox (id, hook, node, session, seq, body, attempts, next_try)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id, hook) DO NOTHING",
            )
            .bind(&e.id)
            .bind(&e.hook)
            .bind(&e.node)
            .bind(&e.session)
            .bind(e.seq)
            .bind(&e.body)
            .bind(i64::from(e.attempts))
            .bind(e.next_try_ms)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The first `limit` entries of `node` for `hook` that may be sent at
    /// `now` (Unix milliseconds), in the node's order: an entry waiting for
    /// its next try after `now` is left out, and so is every later entry
    /// of its session (they go in order, after it). So a session whose
    /// deliveries keep failing never fills the page: the other sessions'
    /// entries are read past it. `i64::MAX` reads everything.
    pub async fn outbox_pending(
        &self,
        node: &str,
        hook: &str,
        limit: u32,
        now: i64,
    ) -> Result<Vec<OutboxEntry>, AccountsError> {
        let rows: Vec<(String, String, i64, String, i64, i64)> = sqlx::query_as(
            "SELECT id, session, seq, body, attempts, next_try FROM event_outbox o
             WHERE node = $1 AND hook = $2 AND next_try <= $3
             AND NOT EXISTS (SELECT 1 FROM event_outbox w
                 WHERE w.node = o.node AND w.hook = o.hook AND w.session = o.session
                 AND w.session <> '' AND w.seq < o.seq AND w.next_try > $3)
             ORDER BY seq LIMIT $4",
        )
        .bind(node)
        .bind(hook)
        .bind(now)
        .bind(i64::from(limit))
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .into_iter()
            .map(|(id, session, seq, body, attempts, next_try_ms)| OutboxEntry {
                id,
                hook: hook.to_owned(),
                node: node.to_owned(),
                session,
                seq,
                body,
                attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
                next_try_ms,
            })
            .collect())
    }

    /// When the first entry of `node` for `hook` that waits past `now` is
    /// due (Unix milliseconds), if one does.
    pub async fn outbox_next_try(&self, node: &str, hook: &str, now: i64) -> Result<Option<i64>, AccountsError> {
        let next: Option<i64> = sqlx::query_scalar(
            "SELECT MIN(next_try) FROM event_outbox WHERE node = $1 AND hook = $2 AND next_try > $3",
        )
        .bind(node)
        .bind(hook)
        .bind(now)
        .fetch_one(self.pool())
        .await?;
        Ok(next)
    }

    /// Removes what `hook` has received, in one transaction.
    pub async fn outbox_done(&self, hook: &str, ids: &[String]) -> Result<(), AccountsError> {
        if ids.is_empty() {
            return Ok(());
        }
        let mut tx = self.write_tx().await?;
        for id in ids {
            sqlx::query("DELETE FROM event_outbox WHERE id = $1 AND hook = $2")
                .bind(id)
                .bind(hook)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Records failed deliveries: (id, attempts so far, next try in Unix
    /// milliseconds, why), in one transaction.
    pub async fn outbox_retry(&self, hook: &str, failed: &[(String, u32, i64, String)]) -> Result<(), AccountsError> {
        if failed.is_empty() {
            return Ok(());
        }
        let mut tx = self.write_tx().await?;
        for (id, attempts, next_try, why) in failed {
            sqlx::query(
                "UPDATE event_outbox SET attempts = $1, next_try = $2, last_error = $3 WHERE id = $4 AND hook = $5",
            )
            .bind(i64::from(*attempts))
            .bind(*next_try)
            .bind(why)
            .bind(id)
            .bind(hook)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Removes `node`'s entries for every hook not in `keep` (hooks taken
    /// out of the configuration, whose entries no task would ever send),
    /// in one transaction: per hook removed, how many entries went.
    pub async fn outbox_drop_hooks_except(
        &self,
        node: &str,
        keep: &[&str],
    ) -> Result<Vec<(String, u64)>, AccountsError> {
        let mut tx = self.write_tx().await?;
        let hooks: Vec<(String, i64)> =
            sqlx::query_as("SELECT hook, COUNT(*) FROM event_outbox WHERE node = $1 GROUP BY hook ORDER BY hook")
                .bind(node)
                .fetch_all(&mut *tx)
                .await?;
        let mut dropped = Vec::new();
        for (hook, n) in hooks {
            if keep.contains(&hook.as_str()) {
                continue;
            }
            sqlx::query("DELETE FROM event_outbox WHERE node = $1 AND hook = $2")
                .bind(node)
                .bind(&hook)
                .execute(&mut *tx)
                .await?;
            dropped.push((hook, u64::try_from(n).unwrap_or(0)));
        }
        tx.commit().await?;
        Ok(dropped)
    }

    /// Keeps at most `max` of `node`'s entries for `hook`: past it, the
    /// oldest `login_failed` events go first, then the oldest of any kind
    /// (in one transaction). How many went: (failed logins, others).
    pub async fn outbox_trim(&self, node: &str, hook: &str, max: u64) -> Result<(u64, u64), AccountsError> {
        let mut tx = self.write_tx().await?;
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM event_outbox WHERE node = $1 AND hook = $2")
            .bind(node)
            .bind(hook)
            .fetch_one(&mut *tx)
            .await?;
        let mut excess = u64::try_from(n).unwrap_or(0).saturating_sub(max);
        if excess == 0 {
            return Ok((0, 0));
        }
        let mut dropped = [0u64; 2];
        // The body is the event's JSON: `"event":"login_failed"` unescaped
        // is its kind (a quote inside a value is always `\"`).
        for (i, kind) in ["AND body LIKE '%\"event\":\"login_failed\"%'", ""].iter().enumerate() {
            if excess == 0 {
                break;
            }
            let gone = sqlx::query(&format!(
                "DELETE FROM event_outbox WHERE node = $1 AND hook = $2 AND id IN
                 (SELECT id FROM event_outbox WHERE node = $1 AND hook = $2 {kind} ORDER BY seq LIMIT $3)"
            ))
            .bind(node)
            .bind(hook)
            .bind(i64::try_from(excess).unwrap_or(i64::MAX))
            .execute(&mut *tx)
            .await?
            .rows_affected();
            dropped[i] = gone;
            excess = excess.saturating_sub(gone);
        }
        tx.commit().await?;
        Ok((dropped[0], dropped[1]))
    }

    /// How many entries wait, all nodes and hooks.
    pub async fn outbox_len(&self) -> Result<u64, AccountsError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM event_outbox")
            .fetch_one(self.pool())
            .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// How many entries of `node` wait, all hooks.
    pub async fn outbox_len_of(&self, node: &str) -> Result<u64, AccountsError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM event_outbox WHERE node = $1")
            .bind(node)
            .fetch_one(self.pool())
            .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}
