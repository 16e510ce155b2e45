//! Accounts and passwords.
//!
//! Passwords in files are PHC strings from argon2 (argon2id, the crate's
//! default parameters: m=19456 KiB, t=2, p=1), made with
//! `babelftp passwd`. Verification costs tens of milliseconds of CPU, so
//! the session runs it on the blocking pool; a failed login is answered
//! only after a delay.

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;

/// How an account's password is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Secret {
    /// A PHC hash string (`$argon2id$v=19$…`).
    Hash(String),
    /// A clear-text password, only from `--user NAME:PASSWORD` on the
    /// command line (the quick pyftpdlib-style account).
    Plain(Vec<u8>),
}

impl Secret {
    /// Whether `password` matches. Plain secrets compare in constant time.
    pub fn verify(&self, password: &[u8]) -> bool {
        match self {
            Secret::Plain(p) => constant_time_eq(p, password),
            Secret::Hash(h) => match PasswordHash::new(h) {
                Ok(parsed) => Argon2::default().verify_password(password, &parsed).is_ok(),
                Err(_) => false,
            },
        }
    }
}

/// Hashes a password into a PHC string with a fresh random salt.
pub fn hash_password(password: &[u8]) -> Result<String, String> {
    Argon2::default()
        .hash_password(password)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Checks a PHC string without verifying anything (config loading).
pub fn is_valid_hash(h: &str) -> bool {
    PasswordHash::new(h).is_ok()
}

/// Compares secrets without an early exit.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_then_verify() {
        let h = hash_password(b"s3cret").unwrap();
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(is_valid_hash(&h));
        let s = Secret::Hash(h);
        assert!(s.verify(b"s3cret"));
        assert!(!s.verify(b"s3cre"));
        assert!(!Secret::Hash("not a hash".into()).verify(b"x"));
        assert!(Secret::Plain(b"a".to_vec()).verify(b"a"));
        assert!(!Secret::Plain(b"a".to_vec()).verify(b"ab"));
    }
}
