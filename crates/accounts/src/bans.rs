//! The defender's bans in the store (issue 29): a ban one node decides
//! holds on every node that reads the store; `babelftp ban` lists, adds and
//! lifts them.

use std::net::IpAddr;

use crate::{AccountsError, Store};

/// A ban as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BanRecord {
    pub addr: IpAddr,
    /// Until when, Unix seconds.
    pub until_unix: i64,
    /// How many bans the address had within a day, this one included.
    pub count: u32,
    /// Why (`failed logins`, `connection flood`, `babelftp ban add`).
    pub reason: String,
}

impl Store {
    /// Bans `addr` until `until_unix` (a longer ban already there stays).
    pub async fn ban(&self, addr: IpAddr, until_unix: i64, count: u32, reason: &str) -> Result<(), AccountsError> {
        sqlx::query(
            "INSERT INTO bans (addr, until_unix, count, reason) VALUES ($1, $2, $3, $4)
             ON CONFLICT (addr) DO UPDATE SET
               until_unix = CASE WHEN excluded.until_unix > bans.until_unix THEN excluded.until_unix ELSE bans.until_unix END,
               count = excluded.count, reason = excluded.reason",
        )
        .bind(addr.to_canonical().to_string())
        .bind(until_unix)
        .bind(i64::from(count))
        .bind(reason)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Lifts the ban of `addr`; whether there was one (expired or not).
    pub async fn unban(&self, addr: IpAddr) -> Result<bool, AccountsError> {
        let n = sqlx::query("DELETE FROM bans WHERE addr = $1")
            .bind(addr.to_canonical().to_string())
            .execute(self.pool())
            .await?
            .rows_affected();
        Ok(n > 0)
    }

    /// The bans still running at `now_unix`, soonest to end first; the
    /// expired ones are removed.
    pub async fn bans(&self, now_unix: i64) -> Result<Vec<BanRecord>, AccountsError> {
        sqlx::query("DELETE FROM bans WHERE until_unix <= $1")
            .bind(now_unix)
            .execute(self.pool())
            .await?;
        let rows: Vec<(String, i64, i64, String)> =
            sqlx::query_as("SELECT addr, until_unix, count, reason FROM bans ORDER BY until_unix, addr")
                .fetch_all(self.pool())
                .await?;
        Ok(rows
            .into_iter()
            .filter_map(|(a, until_unix, count, reason)| {
                Some(BanRecord {
                    addr: a.parse().ok()?,
                    until_unix,
                    count: u32::try_from(count).unwrap_or(u32::MAX),
                    reason,
                })
            })
            .collect())
    }
}
