//! What a web session checks on each request (issue 45): a user's
//! [`SessionStamp`], which changes whenever its sessions must end.
//!
//! The stamp is a SHA-256 of the user's password hash (a PHC string with
//! its own salt: every password change changes it, even to the same
//! password), whether it is disabled, and its `sessions_gen`, which a
//! disable moves on (so that disabling then enabling again ends the
//! sessions too). A removed user has none. The server reads it with one
//! primary-key query per request, on whichever node the session lives:
//! every change made by any node, the CLI or the admin API is seen at the
//! session's next request.

use sqlx::Row;

use crate::{AccountsError, Store};

/// A fingerprint of what a user's sessions hold while it is unchanged.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SessionStamp([u8; 32]);

impl std::fmt::Debug for SessionStamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Derived from a password hash: never shown.
        f.write_str("SessionStamp(..)")
    }
}

impl Store {
    /// The user's stamp now; `None` when there is no such user.
    pub async fn session_stamp(&self, name: &str) -> Result<Option<SessionStamp>, AccountsError> {
        let row = sqlx::query("SELECT password, disabled, sessions_gen FROM users WHERE name = $1")
            .bind(name)
            .fetch_optional(self.pool())
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let password: String = row.try_get(0)?;
        let disabled: i64 = row.try_get(1)?;
        let generation: i64 = row.try_get(2)?;
        let mut ctx = ring::digest::Context::new(&ring::digest::SHA256);
        ctx.update(password.as_bytes());
        ctx.update(&[0]);
        ctx.update(&disabled.to_be_bytes());
        ctx.update(&generation.to_be_bytes());
        let mut out = [0u8; 32];
        out.copy_from_slice(ctx.finish().as_ref());
        Ok(Some(SessionStamp(out)))
    }

    /// Ends every session of `name` at its next request, on every node.
    pub async fn end_sessions(&self, name: &str) -> Result<(), AccountsError> {
        let n = sqlx::query("UPDATE users SET sessions_gen = sessions_gen + 1 WHERE name = $1")
            .bind(name)
            .execute(self.pool())
            .await?
            .rows_affected();
        if n == 0 {
            return Err(AccountsError::UnknownUser(name.to_owned()));
        }
        Ok(())
    }
}
