//! The admin API's bearer tokens (issue 30). A token is 32 random octets
//! from the system (ring's `SystemRandom`), written as `bftp_` and 64 hex
//! digits; it is shown once, when `babelftp admin token create` makes it,
//! and the store keeps only its SHA-256. A fast hash is enough: the token
//! is random, not a password a person chose, so no dictionary guesses it.
//! [`Store::check_admin_token`] compares the hash of what a request
//! presents with every stored one in constant time.
//!
//! Each token has scopes (issue 45): `read` (every GET), `users` (users,
//! groups and quotas), `bans`, `sessions` (end one), or `all`, what tokens
//! made before scopes existed keep. A scope that writes an area also reads
//! it.

use ring::rand::SecureRandom;

use crate::{check_name, AccountsError, Store};

/// What a token may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// Read everything (GET).
    Read,
    /// Write users, groups and quotas.
    Users,
    /// Write the bans.
    Bans,
    /// End sessions.
    Sessions,
    /// Everything.
    All,
}

impl Scope {
    pub const NAMES: [&'static str; 5] = ["read", "users", "bans", "sessions", "all"];

    pub fn name(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Users => "users",
            Scope::Bans => "bans",
            Scope::Sessions => "sessions",
            Scope::All => "all",
        }
    }

    pub fn parse(s: &str) -> Option<Scope> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "read" => Scope::Read,
            "users" => Scope::Users,
            "bans" => Scope::Bans,
            "sessions" => Scope::Sessions,
            "all" => Scope::All,
            _ => return None,
        })
    }
}

/// A token's scopes (never empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scopes(Vec<Scope>);

impl Scopes {
    /// `scopes`, sorted, once each; none is `all`.
    pub fn new(scopes: &[Scope]) -> Scopes {
        let mut v = scopes.to_vec();
        v.sort();
        v.dedup();
        if v.is_empty() || v.contains(&Scope::All) {
            v = vec![Scope::All];
        }
        Scopes(v)
    }

    pub fn all() -> Scopes {
        Scopes(vec![Scope::All])
    }

    /// Whether the token may do what `scope` covers.
    pub fn has(&self, scope: Scope) -> bool {
        self.0.contains(&Scope::All) || self.0.contains(&scope)
    }

    /// Whether it may read `area` (`read`, or the area's own scope).
    pub fn may_read(&self, area: Scope) -> bool {
        self.has(Scope::Read) || self.has(area)
    }

    /// As stored: `read,users`; a text that does not read is `all`'s
    /// opposite: nothing but reads (a store edited by hand grants no
    /// more than it says).
    fn parse_stored(s: &str) -> Scopes {
        let found: Vec<Scope> = s.split(',').filter_map(Scope::parse).collect();
        if found.is_empty() {
            return Scopes(vec![Scope::Read]);
        }
        Scopes::new(&found)
    }
}

impl std::fmt::Display for Scopes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.0.iter().map(|s| s.name()).collect();
        f.write_str(&names.join(","))
    }
}

/// An admin token as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdminToken {
    pub name: String,
    /// When it was made, Unix seconds.
    pub created_unix: i64,
    /// What it may do.
    pub scopes: Scopes,
}

/// What every token starts with (a secret scanner can find one in a
/// leaked file).
const PREFIX: &str = "bftp_";

pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// The SHA-256 of a token, in hex: what the store keeps.
pub fn hash_token(token: &str) -> String {
    hex(ring::digest::digest(&ring::digest::SHA256, token.as_bytes()).as_ref())
}

/// Whether `a` and `b` are equal, in a time that depends on their length
/// only.
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y));
    std::hint::black_box(diff) == 0
}

pub(crate) fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

impl Store {
    /// Makes a token named `name` with `scopes`: returns the token
    /// itself, which is stored nowhere.
    pub async fn create_admin_token(&self, name: &str, scopes: &Scopes) -> Result<String, AccountsError> {
        check_name(name)?;
        let mut raw = [0u8; 32];
        ring::rand::SystemRandom::new()
            .fill(&mut raw)
            .map_err(|_| AccountsError::NoRandom)?;
        let token = format!("{PREFIX}{}", hex(&raw));
        let n = sqlx::query(
            "INSERT INTO admin_tokens (name, hash, created_unix, scopes) VALUES ($1, $2, $3, $4)
             ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .bind(hash_token(&token))
        .bind(unix_now())
        .bind(scopes.to_string())
        .execute(self.pool())
        .await?
        .rows_affected();
        if n == 0 {
            return Err(AccountsError::TokenExists(name.to_owned()));
        }
        Ok(token)
    }

    /// The tokens, by name (their hashes stay in the store).
    pub async fn admin_tokens(&self) -> Result<Vec<AdminToken>, AccountsError> {
        let rows: Vec<(String, i64, String)> =
            sqlx::query_as("SELECT name, created_unix, scopes FROM admin_tokens ORDER BY name")
                .fetch_all(self.pool())
                .await?;
        Ok(rows
            .into_iter()
            .map(|(name, created_unix, scopes)| AdminToken {
                name,
                created_unix,
                scopes: Scopes::parse_stored(&scopes),
            })
            .collect())
    }

    /// Removes the token `name`.
    pub async fn remove_admin_token(&self, name: &str) -> Result<(), AccountsError> {
        let n = sqlx::query("DELETE FROM admin_tokens WHERE name = $1")
            .bind(name)
            .execute(self.pool())
            .await?
            .rows_affected();
        if n == 0 {
            return Err(AccountsError::UnknownToken(name.to_owned()));
        }
        Ok(())
    }

    /// The name and scopes of the token `token` is, if it is one. Every
    /// stored hash is compared, each in constant time: how long this
    /// takes says nothing about how close a guess came.
    pub async fn check_admin_token(&self, token: &str) -> Result<Option<(String, Scopes)>, AccountsError> {
        let rows: Vec<(String, String, String)> = sqlx::query_as("SELECT name, hash, scopes FROM admin_tokens")
            .fetch_all(self.pool())
            .await?;
        let presented = hash_token(token);
        let mut found = None;
        for (name, hash, scopes) in rows {
            if same(presented.as_bytes(), hash.as_bytes()) && found.is_none() {
                found = Some((name, Scopes::parse_stored(&scopes)));
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[tokio::test]
    async fn a_token_is_shown_once_and_checked_by_its_hash() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("a.db").to_str().unwrap()).await.unwrap();
        let token = store.create_admin_token("ci", &Scopes::all()).await.unwrap();
        assert!(token.starts_with("bftp_") && token.len() == 5 + 64, "{token}");
        assert!(matches!(
            store.create_admin_token("ci", &Scopes::all()).await,
            Err(AccountsError::TokenExists(_))
        ));
        assert_eq!(
            store.check_admin_token(&token).await.unwrap(),
            Some(("ci".to_owned(), Scopes::all()))
        );
        assert_eq!(store.check_admin_token("bftp_nope").await.unwrap(), None);
        assert_eq!(store.check_admin_token("").await.unwrap(), None);
        // Only the hash is stored.
        let stored: Vec<String> = sqlx::query_scalar("SELECT hash FROM admin_tokens")
            .fetch_all(store.pool())
            .await
            .unwrap();
        assert_eq!(stored, vec![hash_token(&token)]);
        assert!(!stored[0].contains(&token[5..]));
        let list = store.admin_tokens().await.unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].name, "ci");
        store.remove_admin_token("ci").await.unwrap();
        assert_eq!(store.check_admin_token(&token).await.unwrap(), None);
        assert!(matches!(
            store.remove_admin_token("ci").await,
            Err(AccountsError::UnknownToken(_))
        ));
    }

    /// Scopes are kept with the token; a token made before scopes (a row
    /// the migration gave the default) has `all`.
    #[tokio::test]
    async fn scopes_are_kept_and_old_tokens_have_all() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("a.db").to_str().unwrap()).await.unwrap();
        let ro = Scopes::new(&[Scope::Read]);
        let token = store.create_admin_token("ro", &ro).await.unwrap();
        let (_, scopes) = store.check_admin_token(&token).await.unwrap().unwrap();
        assert!(scopes.has(Scope::Read) && !scopes.has(Scope::Users) && !scopes.has(Scope::Bans));
        assert!(scopes.may_read(Scope::Bans));
        let two = Scopes::new(&[Scope::Users, Scope::Bans, Scope::Users]);
        assert_eq!(two.to_string(), "users,bans");
        assert!(two.may_read(Scope::Users) && !two.may_read(Scope::Sessions));
        assert_eq!(Scopes::new(&[Scope::Read, Scope::All]), Scopes::all());
        sqlx::query("INSERT INTO admin_tokens (name, hash, created_unix) VALUES ('old', 'x', 0)")
            .execute(store.pool())
            .await
            .unwrap();
        let list = store.admin_tokens().await.unwrap();
        let old = list.iter().find(|t| t.name == "old").unwrap();
        assert_eq!(old.scopes, Scopes::all());
        assert_eq!(list.iter().find(|t| t.name == "ro").unwrap().scopes, ro);
    }

    #[test]
    fn sha256_of_a_known_string() {
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(same(b"ab", b"ab") && !same(b"ab", b"ac") && !same(b"ab", b"abc"));
    }
}
