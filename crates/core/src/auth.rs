//! Accounts and passwords.
//!
//! Passwords in files are PHC strings from argon2 (argon2id, the crate's
//! default parameters: m=19456 KiB, t=2, p=1), made with
//! `babelftp passwd`. Verification costs tens of milliseconds of CPU, so
//! the session runs it on the blocking pool; a failed login is answered
//! only after a delay.
//!
//! Memory: each check needs `m` KiB of work memory (19 MiB by default).
//! Left to the allocator, a flood of failed logins kept over 1 GB: glibc
//! serves a large block by mmap at first, then, once one is freed, raises
//! its threshold and serves the next ones from arenas it never trims.
//! Here the work memory comes from a small pool ([`WorkMemory`]): a check
//! takes a buffer and gives it back, so a flood costs as many buffers as
//! checks run at once (the server runs as many as it has cores), and the
//! pool lets them go when no check has run for [`IDLE_RELEASE`].
//!
//! Timing: a name that is not an account is checked against a decoy with
//! the same cost as a real hash, so the reply does not tell which names
//! exist.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use argon2::password_hash::phc::PasswordHash;
use argon2::{Algorithm, Argon2, Block, Params, Version};

/// How long the password-check buffers are kept after the last check.
pub const IDLE_RELEASE: Duration = Duration::from_secs(10);

/// Reusable argon2 work memory.
pub struct WorkMemory {
    inner: Mutex<Pool>,
}

struct Pool {
    free: Vec<Vec<Block>>,
    /// When a buffer was last given back.
    last: Option<Instant>,
}

/// The process's password-check memory.
static WORK: WorkMemory = WorkMemory::new();

impl WorkMemory {
    const fn new() -> WorkMemory {
        WorkMemory {
            inner: Mutex::new(Pool {
                free: Vec::new(),
                last: None,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Pool> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A buffer of `blocks` blocks: a kept one (grown if need be) or a new one.
    fn take(&self, blocks: usize) -> Vec<Block> {
        let mut b = self.lock().free.pop().unwrap_or_default();
        b.resize(blocks, Block::new());
        b
    }

    /// Gives a buffer back. No more are kept than checks can run at once
    /// (`cap`); the rest are freed.
    fn give(&self, b: Vec<Block>, cap: usize) {
        let mut p = self.lock();
        p.last = Some(Instant::now());
        if p.free.len() < cap {
            p.free.push(b);
        }
    }

    /// Frees the kept buffers when no check has run for `idle`; returns
    /// how many octets were let go.
    fn release_idle(&self, now: Instant, idle: Duration) -> usize {
        let mut p = self.lock();
        if p.last.is_some_and(|t| now.saturating_duration_since(t) < idle) {
            return 0;
        }
        let n = p.free.iter().map(|b| b.capacity() * std::mem::size_of::<Block>()).sum();
        p.free = Vec::new();
        n
    }

    #[cfg(test)]
    fn kept(&self) -> usize {
        self.lock().free.len()
    }
}

/// Frees the password-check memory if no check ran for [`IDLE_RELEASE`]
/// (the server calls it every second); returns the octets freed.
pub fn release_idle_work_memory() -> usize {
    WORK.release_idle(Instant::now(), IDLE_RELEASE)
}

/// How many checks run at once at most: the pool keeps that many buffers.
fn pool_cap() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

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
            Secret::Hash(h) => argon2_check(h, password, false),
        }
    }

    /// Spends what checking `password` against this secret would spend,
    /// and matches nothing: for a name that is no account, so that it is
    /// answered as slowly as a wrong password of an account like this one.
    pub fn decoy(&self, password: &[u8]) {
        match self {
            Secret::Plain(p) => {
                std::hint::black_box(constant_time_eq(p, password));
            }
            Secret::Hash(h) => {
                std::hint::black_box(argon2_check(h, password, true));
            }
        }
    }

    /// Whether this secret is a hash (costly to check).
    pub fn is_hash(&self) -> bool {
        matches!(self, Secret::Hash(_))
    }
}

/// Checks `password` against the PHC string `h` with the pool's memory.
/// `decoy`: compute with `h`'s parameters but match nothing.
fn argon2_check(h: &str, password: &[u8], decoy: bool) -> bool {
    let Ok(parsed) = PasswordHash::new(h) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (&parsed.salt, &parsed.hash) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(parsed.algorithm.as_str()) else {
        return false;
    };
    let version = match parsed.version.map(Version::try_from) {
        None => Version::default(),
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    let blocks = params.block_count();
    let argon = Argon2::new(algorithm, version, params);
    let mut out = vec![0u8; expected.len()];
    let mut mem = WORK.take(blocks);
    let ok = argon
        .hash_password_into_with_memory(password, salt.as_ref(), &mut out, &mut mem[..blocks])
        .is_ok();
    WORK.give(mem, pool_cap());
    ok && !decoy && constant_time_eq(&out, expected.as_ref())
}

/// Hashes a password into a PHC string with a fresh random salt (the
/// accounts store's hashing: one for the users file and the store).
pub fn hash_password(password: &[u8]) -> Result<String, String> {
    babelftp_accounts::hash_password(password).map_err(|e| e.to_string())
}

/// Checks a PHC string without verifying anything (config loading): an
/// argon2 hash (argon2id, argon2i or argon2d) with its parameters, a salt
/// and an output, so that a login can be checked against it. A string
/// that parses but has no output, or names another algorithm, would make
/// an account no password opens (or, elsewhere, any password).
pub fn is_valid_hash(h: &str) -> bool {
    babelftp_accounts::is_valid_hash(h)
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
        let s = Secret::Hash(h.clone());
        assert!(s.verify(b"s3cret"));
        assert!(!s.verify(b"s3cre"));
        assert!(!Secret::Hash("not a hash".into()).verify(b"x"));
        // PHC strings that parse but cannot check a password.
        let no_output = h.rsplit_once('$').unwrap().0;
        assert!(!is_valid_hash(no_output), "{no_output}");
        assert!(!is_valid_hash("$pbkdf2-sha256$i=1000$c2FsdHNhbHQ$aGFzaGhhc2g"));
        assert!(!is_valid_hash(""));
        assert!(Secret::Plain(b"a".to_vec()).verify(b"a"));
        assert!(!Secret::Plain(b"a".to_vec()).verify(b"ab"));
    }

    #[test]
    fn the_work_memory_is_reused_bounded_and_let_go() {
        let h = Secret::Hash(hash_password(b"pw").unwrap());
        let pool = WorkMemory::new();
        let n = Params::default().block_count();
        // A check takes a buffer and gives it back; sequential checks
        // reuse one; no more than `cap` are kept.
        let a = pool.take(n);
        let b = pool.take(n);
        pool.give(a, 1);
        pool.give(b, 1);
        assert_eq!(pool.kept(), 1);
        let c = pool.take(n);
        assert_eq!(pool.kept(), 0);
        assert!(c.capacity() >= n);
        pool.give(c, 1);
        // Kept while checks run; let go once idle.
        let now = Instant::now();
        assert_eq!(pool.release_idle(now, Duration::from_secs(10)), 0);
        assert_eq!(pool.kept(), 1);
        assert_eq!(
            pool.release_idle(now + Duration::from_secs(11), Duration::from_secs(10)),
            n * 1024
        );
        assert_eq!(pool.kept(), 0);
        // The process pool holds at most as many as run at once.
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| assert!(h.verify(b"pw")));
            }
        });
        assert!(WORK.kept() <= pool_cap());
        // A decoy costs a check (it takes the pool's memory) and matches
        // nothing: argon2_check with decoy is false for the right password.
        assert!(!argon2_check(
            match &h {
                Secret::Hash(s) => s,
                Secret::Plain(_) => unreachable!(),
            },
            b"pw",
            true
        ));
    }
}
