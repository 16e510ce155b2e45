//! The TOML users file (`[[user]]` tables: name, password, home, write),
//! read and imported into the store.

use std::path::Path;
use std::str::FromStr;

use serde::Deserialize;

use crate::{check_name, is_valid_hash, AccountsError, Home, Owner, Perms, Store};

/// One `[[user]]` of a users file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedUser {
    pub name: String,
    /// An argon2 PHC string.
    pub password: String,
    /// Inside the server's root (`/` when the file says nothing).
    pub home: String,
    /// `write = true`: every permission at `/`; else `read`.
    pub write: bool,
}

/// What an import did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ImportReport {
    pub added: u64,
    /// Users already in the store: their password, home and `/` rule
    /// replaced by the file's.
    pub updated: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileUsers {
    #[serde(default)]
    user: Vec<FileUser>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileUser {
    name: String,
    password: String,
    home: Option<String>,
    #[serde(default)]
    write: bool,
}

/// Reads a users file, as `babelftp serve --users` does, checking every
/// entry (name, argon2 hash, home).
pub fn read_users_file(path: &Path) -> Result<Vec<ImportedUser>, AccountsError> {
    let fail = |message: String| AccountsError::Import {
        path: path.to_owned(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
    let file: FileUsers = toml::from_str(&text).map_err(|e| fail(e.to_string()))?;
    let entry = |e: AccountsError| AccountsError::ImportEntry {
        path: path.to_owned(),
        source: Box::new(e),
    };
    let mut out = Vec::new();
    for u in file.user {
        check_name(&u.name).map_err(entry)?;
        if !is_valid_hash(&u.password) {
            return Err(entry(AccountsError::BadHash(u.name)));
        }
        let home = u.home.unwrap_or_else(|| "/".to_owned());
        let home = match Home::from_str(&home) {
            Ok(h @ Home::Inside(_)) => h.to_string(),
            _ => return Err(entry(AccountsError::BadHome(home))),
        };
        if out.iter().any(|o: &ImportedUser| o.name == u.name) {
            return Err(entry(AccountsError::Duplicate(u.name)));
        }
        out.push(ImportedUser {
            name: u.name,
            password: u.password,
            home,
            write: u.write,
        });
    }
    Ok(out)
}

impl Store {
    /// Imports users (from [`read_users_file`]) in one transaction: a new
    /// name is added, a known one gets the file's password and home; each
    /// gets the rule `/` `all` (write) or `read`.
    pub async fn import(&self, users: &[ImportedUser]) -> Result<ImportReport, AccountsError> {
        let mut report = ImportReport::default();
        let mut tx = self.write_tx().await?;
        for u in users {
            check_name(&u.name)?;
            if !is_valid_hash(&u.password) {
                return Err(AccountsError::BadHash(u.name.clone()));
            }
            let home = Home::from_str(&u.home)?.to_string();
            let updated = sqlx::query("UPDATE users SET password = $1, home = $2 WHERE name = $3")
                .bind(&u.password)
                .bind(&home)
                .bind(&u.name)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if updated > 0 {
                report.updated += 1;
            } else {
                sqlx::query("INSERT INTO users (name, password, home, disabled) VALUES ($1, $2, $3, 0)")
                    .bind(&u.name)
                    .bind(&u.password)
                    .bind(&home)
                    .execute(&mut *tx)
                    .await?;
                report.added += 1;
            }
            let perms = if u.write { Perms::ALL } else { Perms::READ };
            sqlx::query(
                "INSERT INTO perms (kind, owner, vpath, perms) VALUES ($1, $2, '/', $3)
                 ON CONFLICT (kind, owner, vpath) DO UPDATE SET perms = excluded.perms",
            )
            .bind(Owner::User(&u.name).kind())
            .bind(&u.name)
            .bind(perms.to_string())
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(report)
    }
}
