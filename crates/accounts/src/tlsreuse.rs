//! Issue 48: whether a user's FTPS data connections must resume the TLS
//! session of its control connection (`required`, the server's default
//! unless its `tls_reuse_required = false`), or may be new TLS sessions
//! (`optional`: for clients that never resume, such as Python's
//! `ftplib.FTP_TLS`). A user's own setting, else its group's, else the
//! server's.

use crate::store::opt_text;
use crate::{AccountsError, Owner, Store};

/// A user's or a group's data-connection session-reuse rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TlsReuse {
    /// A data connection must resume a TLS session of its client.
    Required,
    /// A data connection may start a new TLS session.
    Optional,
}

impl TlsReuse {
    /// `required` or `optional`, as stored and written in commands.
    pub fn as_str(self) -> &'static str {
        match self {
            TlsReuse::Required => "required",
            TlsReuse::Optional => "optional",
        }
    }

    /// Reads `required` or `optional` (any case, trimmed).
    pub fn parse(s: &str) -> Option<TlsReuse> {
        match s.trim().to_ascii_lowercase().as_str() {
            "required" => Some(TlsReuse::Required),
            "optional" => Some(TlsReuse::Optional),
            _ => None,
        }
    }

    /// Whether a data connection must resume.
    pub fn required(self) -> bool {
        self == TlsReuse::Required
    }
}

fn read(v: Option<String>, whose: &str) -> Result<Option<TlsReuse>, AccountsError> {
    match v {
        None => Ok(None),
        Some(s) => TlsReuse::parse(&s)
            .map(Some)
            .ok_or_else(|| crate::store::corrupt(format!("tls_reuse of {whose}"), &s)),
    }
}

impl Store {
    /// A user's or a group's own rule (`None`: not set).
    pub async fn own_tls_reuse(&self, owner: Owner<'_>) -> Result<Option<TlsReuse>, AccountsError> {
        let (sql, name) = match owner {
            Owner::User(n) => ("SELECT tls_reuse FROM users WHERE name = $1", n),
            Owner::Group(n) => ("SELECT tls_reuse FROM user_groups WHERE name = $1", n),
        };
        let row = sqlx::query(sql).bind(name).fetch_optional(self.pool()).await?;
        match row {
            Some(r) => read(opt_text(&r, 0)?, name),
            None => Ok(None),
        }
    }

    /// A user's rule: its own, else its group's (`None`: the server's).
    pub(crate) async fn effective_tls_reuse(
        &self,
        user: &str,
        group: Option<&str>,
    ) -> Result<Option<TlsReuse>, AccountsError> {
        if let Some(r) = self.own_tls_reuse(Owner::User(user)).await? {
            return Ok(Some(r));
        }
        match group {
            Some(g) => self.own_tls_reuse(Owner::Group(g)).await,
            None => Ok(None),
        }
    }

    /// Sets (or clears, with `None`: the group's or the server's applies)
    /// a user's or a group's rule.
    pub async fn set_tls_reuse(&self, owner: Owner<'_>, value: Option<TlsReuse>) -> Result<(), AccountsError> {
        self.must_exist(owner).await?;
        let (sql, name) = match owner {
            Owner::User(n) => ("UPDATE users SET tls_reuse = $1 WHERE name = $2", n),
            Owner::Group(n) => ("UPDATE user_groups SET tls_reuse = $1 WHERE name = $2", n),
        };
        sqlx::query(sql)
            .bind(value.map(|v| v.as_str().to_owned()))
            .bind(name)
            .execute(self.pool())
            .await?;
        Ok(())
    }
}
