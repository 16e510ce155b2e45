//! Limits (issue 29): quotas, bandwidth and sessions per user or group,
//! and the quota usage the store keeps.
//!
//! A user takes each of its group's limits it does not set itself. Usage
//! is kept per user in `quota_usage` (bytes and files) and changed only
//! by single conditional `UPDATE`s: [`Store::reserve`] adds only if the
//! result stays within the limits, in one statement, so two sessions (on
//! one node or two) that reserve at once never both get the last bytes:
//! PostgreSQL takes the row's lock and evaluates the condition again on
//! the row the other committed; SQLite runs writers one at a time.

use sqlx::Row;

use crate::store::corrupt;
use crate::{AccountsError, Owner, Store};

/// A user's or a group's limits; `None`: no limit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Bytes its files may hold.
    pub quota_bytes: Option<u64>,
    /// Files it may have.
    pub quota_files: Option<u64>,
    /// Bytes per second of its downloads, all its sessions together.
    pub download_rate: Option<u64>,
    /// Bytes per second of its uploads, all its sessions together.
    pub upload_rate: Option<u64>,
    /// Sessions it may have at once.
    pub max_sessions: Option<u64>,
}

impl Limits {
    /// Each limit of `self`, else `other`'s (a user's own over its
    /// group's).
    pub fn or(self, other: Limits) -> Limits {
        Limits {
            quota_bytes: self.quota_bytes.or(other.quota_bytes),
            quota_files: self.quota_files.or(other.quota_files),
            download_rate: self.download_rate.or(other.download_rate),
            upload_rate: self.upload_rate.or(other.upload_rate),
            max_sessions: self.max_sessions.or(other.max_sessions),
        }
    }

    /// Whether a quota (bytes or files) is set.
    pub fn has_quota(&self) -> bool {
        self.quota_bytes.is_some() || self.quota_files.is_some()
    }
}

/// Changes to limits: `None` leaves one as it is, `Some(None)` clears it
/// (the group's applies again).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LimitChanges {
    pub quota_bytes: Option<Option<u64>>,
    pub quota_files: Option<Option<u64>>,
    pub download_rate: Option<Option<u64>>,
    pub upload_rate: Option<Option<u64>>,
    pub max_sessions: Option<Option<u64>>,
}

impl LimitChanges {
    fn values(&self) -> [Option<Option<u64>>; 5] {
        [
            self.quota_bytes,
            self.quota_files,
            self.download_rate,
            self.upload_rate,
            self.max_sessions,
        ]
    }
}

/// The limit columns of `users` and `user_groups`, in the order of
/// [`Limits`]' fields.
pub(crate) const COLUMNS: [&str; 5] = [
    "quota_bytes",
    "quota_files",
    "download_rate",
    "upload_rate",
    "max_sessions",
];

/// `quota_bytes, quota_files, …` prefixed with `alias.`.
pub(crate) fn select(alias: &str) -> String {
    COLUMNS
        .iter()
        .map(|c| format!("{alias}.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The limits in columns `first..first + 5` of `row`.
pub(crate) fn read(row: &sqlx::any::AnyRow, first: usize, whose: &str) -> Result<Limits, AccountsError> {
    let mut v = [None; 5];
    for (i, slot) in v.iter_mut().enumerate() {
        let n: Option<i64> = row.try_get(first + i)?;
        *slot = match n {
            None => None,
            Some(n) => {
                Some(u64::try_from(n).map_err(|_| corrupt(format!("{} of {whose}", COLUMNS[i]), &n.to_string()))?)
            }
        };
    }
    Ok(Limits {
        quota_bytes: v[0],
        quota_files: v[1],
        download_rate: v[2],
        upload_rate: v[3],
        max_sessions: v[4],
    })
}

/// What a user has used of its quota.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub bytes: u64,
    pub files: u64,
}

fn signed(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A limit as SQL takes it: -1 for none.
fn bound(n: Option<u64>) -> i64 {
    n.map_or(-1, signed)
}

/// Why a size or a rate does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a size (write 500MiB, 2G, 1048576)")]
pub struct BadSize(pub String);

/// A size: a number of bytes with an optional unit, `K`/`M`/`G`/`T` (and
/// `KB`…) powers of 1000, `KiB`/`MiB`/`GiB`/`TiB` powers of 1024, `B` or
/// nothing for bytes; case does not matter. `500MiB`, `2G`, `1.5GiB`.
pub fn parse_size(s: &str) -> Result<u64, BadSize> {
    let bad = || BadSize(s.to_owned());
    let t = s.trim();
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let unit = unit.trim().to_ascii_lowercase();
    let factor: u64 = match unit.as_str() {
        "" | "b" => 1,
        "k" | "kb" => 1000,
        "m" | "mb" => 1000_u64.pow(2),
        "g" | "gb" => 1000_u64.pow(3),
        "t" | "tb" => 1000_u64.pow(4),
        "ki" | "kib" => 1 << 10,
        "mi" | "mib" => 1 << 20,
        "gi" | "gib" => 1 << 30,
        "ti" | "tib" => 1 << 40,
        _ => return Err(bad()),
    };
    if num.is_empty() || num.starts_with('.') || num.matches('.').count() > 1 {
        return Err(bad());
    }
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    let int: u64 = int.parse().map_err(|_| bad())?;
    let mut total = int.checked_mul(factor).ok_or_else(bad)?;
    if !frac.is_empty() {
        // Exact decimal fractions of the unit (1.5GiB), rounded down.
        let digits = u32::try_from(frac.len()).map_err(|_| bad())?;
        let scale = 10_u128.checked_pow(digits).ok_or_else(bad)?;
        let f: u128 = frac.parse().map_err(|_| bad())?;
        let part = u64::try_from(f * u128::from(factor) / scale).map_err(|_| bad())?;
        total = total.checked_add(part).ok_or_else(bad)?;
    }
    Ok(total)
}

/// A rate: a size per second, `1MiB/s` (the `/s` may be left out).
pub fn parse_rate(s: &str) -> Result<u64, BadSize> {
    let t = s.trim();
    let size = t.strip_suffix("/s").or_else(|| t.strip_suffix("/S")).unwrap_or(t);
    match parse_size(size) {
        Ok(0) | Err(_) => Err(BadSize(s.to_owned())),
        Ok(n) => Ok(n),
    }
}

impl Store {
    /// Sets or clears limits of a user or a group.
    pub async fn set_limits(&self, owner: Owner<'_>, c: &LimitChanges) -> Result<(), AccountsError> {
        self.must_exist(owner).await?;
        let table = match owner {
            Owner::User(_) => "users",
            Owner::Group(_) => "user_groups",
        };
        let mut tx = self.write_tx().await?;
        for (column, value) in COLUMNS.iter().zip(c.values()) {
            if let Some(v) = value {
                sqlx::query(&format!("UPDATE {table} SET {column} = $1 WHERE name = $2"))
                    .bind(v.map(signed))
                    .bind(owner.name())
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// A user's or a group's own limits.
    pub async fn own_limits(&self, owner: Owner<'_>) -> Result<Limits, AccountsError> {
        let table = match owner {
            Owner::User(_) => "users",
            Owner::Group(_) => "user_groups",
        };
        let row = sqlx::query(&format!("SELECT {} FROM {table} t WHERE name = $1", select("t")))
            .bind(owner.name())
            .fetch_optional(self.pool())
            .await?;
        match row {
            Some(r) => read(&r, 0, &owner.to_string()),
            None => Err(match owner {
                Owner::User(n) => AccountsError::UnknownUser(n.to_owned()),
                Owner::Group(n) => AccountsError::UnknownGroup(n.to_owned()),
            }),
        }
    }

    /// What a user has used, as the store counts it; `None` when it has
    /// never been counted.
    pub async fn usage(&self, name: &str) -> Result<Option<Usage>, AccountsError> {
        let row = sqlx::query("SELECT bytes, files FROM quota_usage WHERE name = $1")
            .bind(name)
            .fetch_optional(self.pool())
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let (b, f): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
        Ok(Some(Usage {
            bytes: u64::try_from(b).unwrap_or(0),
            files: u64::try_from(f).unwrap_or(0),
        }))
    }

    /// Sets a user's usage (a count of its files: `user quota-scan`).
    pub async fn set_usage(&self, name: &str, u: Usage) -> Result<(), AccountsError> {
        sqlx::query(
            "INSERT INTO quota_usage (name, bytes, files) VALUES ($1, $2, $3)
             ON CONFLICT (name) DO UPDATE SET bytes = excluded.bytes, files = excluded.files",
        )
        .bind(name)
        .bind(signed(u.bytes))
        .bind(signed(u.files))
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Sets a user's usage unless it is already counted (the first login
    /// with a quota); whether it was set.
    pub async fn init_usage(&self, name: &str, u: Usage) -> Result<bool, AccountsError> {
        let n = sqlx::query(
            "INSERT INTO quota_usage (name, bytes, files) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .bind(signed(u.bytes))
        .bind(signed(u.files))
        .execute(self.pool())
        .await?
        .rows_affected();
        Ok(n > 0)
    }

    /// Adds `bytes` and `files` to a user's usage if the result stays
    /// within `limits`' quota, in one statement; whether it did. A user
    /// never counted starts at zero.
    pub async fn reserve(&self, name: &str, bytes: u64, files: u64, limits: &Limits) -> Result<bool, AccountsError> {
        for _ in 0..2 {
            let n = sqlx::query(
                "UPDATE quota_usage SET bytes = bytes + $2, files = files + $3
                 WHERE name = $1 AND ($4 < 0 OR bytes + $2 <= $4) AND ($5 < 0 OR files + $3 <= $5)",
            )
            .bind(name)
            .bind(signed(bytes))
            .bind(signed(files))
            .bind(bound(limits.quota_bytes))
            .bind(bound(limits.quota_files))
            .execute(self.pool())
            .await?
            .rows_affected();
            if n > 0 {
                return Ok(true);
            }
            if self.usage(name).await?.is_some() {
                return Ok(false);
            }
            self.init_usage(name, Usage::default()).await?;
        }
        Ok(false)
    }

    /// Adds signed amounts to a user's usage (a file removed, a
    /// reservation given back), never below zero; nothing for a user
    /// never counted.
    pub async fn adjust_usage(&self, name: &str, bytes: i64, files: i64) -> Result<(), AccountsError> {
        if bytes == 0 && files == 0 {
            return Ok(());
        }
        sqlx::query(
            "UPDATE quota_usage SET
               bytes = CASE WHEN bytes + $2 < 0 THEN 0 ELSE bytes + $2 END,
               files = CASE WHEN files + $3 < 0 THEN 0 ELSE files + $3 END
             WHERE name = $1",
        )
        .bind(name)
        .bind(bytes)
        .bind(files)
        .execute(self.pool())
        .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_rates_read_as_people_write_them() {
        assert_eq!(parse_size("500MiB"), Ok(500 << 20));
        assert_eq!(parse_size("2G"), Ok(2_000_000_000));
        assert_eq!(parse_size("2gib"), Ok(2 << 30));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size(" 10 KiB "), Ok(10240));
        assert_eq!(parse_size("0"), Ok(0));
        for bad in [
            "",
            "MiB",
            "-1",
            "1.2.3MiB",
            "1 parsec",
            "99999999999999999999",
            ".5M",
            "1e6",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_rate("1MiB/s"), Ok(1 << 20));
        assert_eq!(parse_rate("64KiB"), Ok(65536));
        assert!(parse_rate("0/s").is_err());
    }

    #[test]
    fn a_users_limits_win_over_its_groups() {
        let own = Limits {
            quota_bytes: Some(1),
            ..Limits::default()
        };
        let group = Limits {
            quota_bytes: Some(2),
            upload_rate: Some(3),
            ..Limits::default()
        };
        let l = own.or(group);
        assert_eq!(
            (l.quota_bytes, l.upload_rate, l.download_rate),
            (Some(1), Some(3), None)
        );
        assert!(l.has_quota());
        assert!(!Limits::default().has_quota());
    }
}
