//! Share links (issue 49): a path of a user's tree that people without
//! an account reach at `/s/TOKEN` — a file to download, a folder to list
//! read-only, or a folder to upload into.
//!
//! A share has a short printable id (for `share list` and `share rm`) and
//! a secret token: 32 random octets from the system, written `bfs_` and 64
//! hex digits, shown once; the store keeps only its SHA-256, as it does
//! admin tokens (a random token needs no slow hash). Optional limits: an
//! expiry, a password (an argon2 PHC string, as account passwords), a
//! number of uses (downloads or uploads, counted in the store by one
//! `UPDATE`, so every node honours the limit) and client networks.
//!
//! A share ends with its owner: removing the user marks its shares
//! removed (`remove_user`), and a disabled owner's shares answer 410.
//! `share rm` keeps the row too, marked removed, so that its link answers
//! "gone" rather than "never was" (and its visitors are not scored as
//! guessers).

use ring::rand::SecureRandom;
use sqlx::any::AnyRow;
use sqlx::Row;

use crate::tokens::{hash_token, hex, unix_now};
use crate::{AccountsError, Owner, Store};

/// What a share gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShareKind {
    /// A file to download, or a folder to list and download from.
    Download,
    /// A folder to upload into.
    Upload,
}

impl ShareKind {
    pub fn name(self) -> &'static str {
        match self {
            ShareKind::Download => "download",
            ShareKind::Upload => "upload",
        }
    }

    pub fn parse(s: &str) -> Option<ShareKind> {
        match s {
            "download" => Some(ShareKind::Download),
            "upload" => Some(ShareKind::Upload),
            _ => None,
        }
    }
}

/// A share to make.
#[derive(Debug, Clone)]
pub struct NewShare {
    pub owner: String,
    /// The path in the owner's tree (octets, absolute).
    pub path: Vec<u8>,
    pub kind: ShareKind,
    /// Unix seconds.
    pub expires_unix: Option<i64>,
    /// An argon2 PHC string ([`crate::hash_password`]).
    pub password: Option<String>,
    pub max_uses: Option<i64>,
    /// Client networks (CIDR texts, checked by the caller).
    pub nets: Vec<String>,
}

/// A share as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Share {
    pub id: String,
    pub owner: String,
    pub path: Vec<u8>,
    pub kind: ShareKind,
    pub created_unix: i64,
    pub expires_unix: Option<i64>,
    /// The password's PHC string, if it has one.
    pub password: Option<String>,
    pub max_uses: Option<i64>,
    pub uses: i64,
    pub nets: Vec<String>,
    /// When `share rm` removed it.
    pub removed_unix: Option<i64>,
}

/// Why a share no longer answers (410).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Removed,
    Expired,
    UsedUp,
    OwnerDisabled,
}

impl Share {
    /// Why it no longer answers at `now` (Unix seconds), if it does not.
    pub fn ended(&self, now: i64, owner_disabled: bool) -> Option<Ended> {
        if self.removed_unix.is_some() {
            return Some(Ended::Removed);
        }
        if owner_disabled {
            return Some(Ended::OwnerDisabled);
        }
        if self.expires_unix.is_some_and(|e| now >= e) {
            return Some(Ended::Expired);
        }
        if self.max_uses.is_some_and(|m| self.uses >= m) {
            return Some(Ended::UsedUp);
        }
        None
    }
}

/// What every share token starts with.
pub const SHARE_PREFIX: &str = "bfs_";

/// Whether `s` has the shape of a share token (`bfs_` and 64 hex digits).
pub fn is_share_token(s: &str) -> bool {
    s.strip_prefix(SHARE_PREFIX)
        .is_some_and(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A path's octets as stored: UTF-8 as it is, `%`, control characters and
/// octets that are not UTF-8 as `%HH`.
pub(crate) fn path_text(p: &[u8]) -> String {
    let mut out = String::new();
    for chunk in p.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '%' || c.is_control() {
                let mut b = [0u8; 4];
                for x in c.encode_utf8(&mut b).bytes() {
                    out.push_str(&format!("%{x:02X}"));
                }
            } else {
                out.push(c);
            }
        }
        for x in chunk.invalid() {
            out.push_str(&format!("%{x:02X}"));
        }
    }
    out
}

/// [`path_text`] read back.
pub(crate) fn path_bytes(s: &str) -> Vec<u8> {
    percent_encoding::percent_decode_str(s).collect()
}

const COLUMNS: &str = "id, owner, path, kind, created_unix, expires_unix, password, max_uses, uses, nets, removed_unix";

fn share_of(row: &AnyRow) -> Result<Share, AccountsError> {
    let kind: String = row.try_get(3)?;
    let nets: Option<String> = row.try_get(9)?;
    let path: String = row.try_get(2)?;
    Ok(Share {
        id: row.try_get(0)?,
        owner: row.try_get(1)?,
        path: path_bytes(&path),
        kind: ShareKind::parse(&kind).ok_or_else(|| crate::store::corrupt("a share's kind".into(), &kind))?,
        created_unix: row.try_get(4)?,
        expires_unix: row.try_get(5)?,
        password: row.try_get(6)?,
        max_uses: row.try_get(7)?,
        uses: row.try_get(8)?,
        nets: nets
            .unwrap_or_default()
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        removed_unix: row.try_get(10)?,
    })
}

fn random(n: usize) -> Result<Vec<u8>, AccountsError> {
    let mut raw = vec![0u8; n];
    ring::rand::SystemRandom::new()
        .fill(&mut raw)
        .map_err(|_| AccountsError::NoRandom)?;
    Ok(raw)
}

impl Store {
    /// Makes a share: returns it and its token, which is stored nowhere.
    pub async fn create_share(&self, new: &NewShare) -> Result<(Share, String), AccountsError> {
        self.must_exist(Owner::User(&new.owner)).await?;
        if !new.path.starts_with(b"/") {
            return Err(AccountsError::BadPath(crate::BadRulePath(
                String::from_utf8_lossy(&new.path).into_owned(),
            )));
        }
        if let Some(p) = &new.password {
            if !crate::is_valid_hash(p) {
                return Err(AccountsError::BadHash(new.owner.clone()));
            }
        }
        let token = format!("{SHARE_PREFIX}{}", hex(&random(32)?));
        let nets = (!new.nets.is_empty()).then(|| new.nets.join(","));
        let now = unix_now();
        // A new id on the rare clash.
        for _ in 0..8 {
            let id = hex(&random(5)?);
            let n = sqlx::query(
                "INSERT INTO shares (id, hash, owner, path, kind, created_unix, expires_unix, password, max_uses, uses, nets)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10)
                 ON CONFLICT (id) DO NOTHING",
            )
            .bind(&id)
            .bind(hash_token(&token))
            .bind(&new.owner)
            .bind(path_text(&new.path))
            .bind(new.kind.name())
            .bind(now)
            .bind(new.expires_unix)
            .bind(new.password.clone())
            .bind(new.max_uses)
            .bind(nets.clone())
            .execute(self.pool())
            .await?
            .rows_affected();
            if n == 1 {
                let share = Share {
                    id,
                    owner: new.owner.clone(),
                    path: new.path.clone(),
                    kind: new.kind,
                    created_unix: now,
                    expires_unix: new.expires_unix,
                    password: new.password.clone(),
                    max_uses: new.max_uses,
                    uses: 0,
                    nets: new.nets.clone(),
                    removed_unix: None,
                };
                return Ok((share, token));
            }
        }
        Err(AccountsError::NoRandom)
    }

    /// The shares not removed, of `owner` or of everyone, by owner and
    /// creation.
    pub async fn shares(&self, owner: Option<&str>) -> Result<Vec<Share>, AccountsError> {
        let rows = match owner {
            Some(o) => {
                sqlx::query(&format!(
                    "SELECT {COLUMNS} FROM shares WHERE removed_unix IS NULL AND owner = $1 ORDER BY owner, created_unix, id"
                ))
                .bind(o)
                .fetch_all(self.pool())
                .await?
            }
            None => {
                sqlx::query(&format!(
                    "SELECT {COLUMNS} FROM shares WHERE removed_unix IS NULL ORDER BY owner, created_unix, id"
                ))
                .fetch_all(self.pool())
                .await?
            }
        };
        rows.iter().map(share_of).collect()
    }

    /// The share `id` (removed or not).
    pub async fn share(&self, id: &str) -> Result<Option<Share>, AccountsError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM shares WHERE id = $1"))
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        row.as_ref().map(share_of).transpose()
    }

    /// Removes the share `id`: its link answers 410 from then on.
    pub async fn remove_share(&self, id: &str) -> Result<(), AccountsError> {
        let n = sqlx::query("UPDATE shares SET removed_unix = $1 WHERE id = $2 AND removed_unix IS NULL")
            .bind(unix_now())
            .bind(id)
            .execute(self.pool())
            .await?
            .rows_affected();
        if n == 0 {
            return Err(AccountsError::UnknownShare(id.to_owned()));
        }
        Ok(())
    }

    /// The share whose token is `token`, and whether its owner is
    /// disabled (or gone); `None`: no such token.
    pub async fn share_by_token(&self, token: &str) -> Result<Option<(Share, bool)>, AccountsError> {
        if !is_share_token(token) {
            return Ok(None);
        }
        let cols: Vec<String> = COLUMNS.split(", ").map(|c| format!("s.{c}")).collect();
        let row = sqlx::query(&format!(
            "SELECT {}, COALESCE(u.disabled, 1) FROM shares s LEFT JOIN users u ON u.name = s.owner WHERE s.hash = $1",
            cols.join(", ")
        ))
        .bind(hash_token(token))
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let disabled: i64 = row.try_get(11)?;
        Ok(Some((share_of(&row)?, disabled != 0)))
    }

    /// Takes one use of the share `id`, in one statement (every node
    /// counts in the same row): `false` when it has none left or is
    /// removed.
    pub async fn use_share(&self, id: &str) -> Result<bool, AccountsError> {
        let n = sqlx::query(
            "UPDATE shares SET uses = uses + 1
             WHERE id = $1 AND removed_unix IS NULL AND (max_uses IS NULL OR uses < max_uses)",
        )
        .bind(id)
        .execute(self.pool())
        .await?
        .rows_affected();
        Ok(n == 1)
    }

    /// Gives back a use [`Store::use_share`] took for what then failed
    /// (an upload refused).
    pub async fn give_back_share_use(&self, id: &str) -> Result<(), AccountsError> {
        sqlx::query("UPDATE shares SET uses = uses - 1 WHERE id = $1 AND uses > 0")
            .bind(id)
            .execute(self.pool())
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn paths_round_trip_every_octet() {
        for p in [&b"/a b/c"[..], "/Доку/менты".as_bytes(), b"/\xE9t\xE9/%41/\x01", b"/%"] {
            assert_eq!(path_bytes(&path_text(p)), p, "{}", path_text(p));
        }
        assert_eq!(path_text("/Доку".as_bytes()), "/Доку");
        assert_eq!(path_text(b"/\xE9%"), "/%E9%25");
        assert!(is_share_token(&format!("bfs_{}", "a".repeat(64))));
        assert!(!is_share_token("bfs_xyz") && !is_share_token(&"a".repeat(68)));
    }
}
