//! The user operations of [`Store`].

use sqlx::Row;

use crate::store::{check_settings, home_text, nested, opt_text, text, unique_as};
use crate::{check_name, is_valid_hash, AccountsError, NewUser, Owner, Store, UserChanges, UserRecord, UserSummary};

impl Store {
    /// Adds a user; its group must exist.
    pub async fn add_user(&self, u: &NewUser) -> Result<(), AccountsError> {
        check_name(&u.name)?;
        if !is_valid_hash(&u.password) {
            return Err(AccountsError::BadHash(u.name.clone()));
        }
        check_settings(u.home.as_deref(), u.lang.as_deref(), u.charset.as_deref())?;
        if let Some(g) = &u.group {
            self.must_exist(Owner::Group(g)).await?;
        }
        if self.exists(Owner::User(&u.name)).await? {
            return Err(AccountsError::UserExists(u.name.clone()));
        }
        let home = u.home.as_deref().map(home_text).transpose()?;
        sqlx::query(
            "INSERT INTO users (name, password, home, grp, lang, charset, disabled) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&u.name)
        .bind(&u.password)
        .bind(home)
        .bind(u.group.clone())
        .bind(u.lang.clone())
        .bind(u.charset.as_deref().map(|c| c.trim().to_owned()))
        .bind(i64::from(u.disabled))
        .execute(self.pool())
        .await
        .map_err(|e| unique_as(e, || AccountsError::UserExists(u.name.clone())))?;
        Ok(())
    }

    /// Every user, by name.
    pub async fn list_users(&self) -> Result<Vec<UserSummary>, AccountsError> {
        let rows = sqlx::query("SELECT name, grp, home, disabled FROM users ORDER BY name")
            .fetch_all(self.pool())
            .await?;
        rows.iter()
            .map(|r| {
                Ok(UserSummary {
                    name: text(r, 0)?,
                    group: opt_text(r, 1)?,
                    home: opt_text(r, 2)?,
                    disabled: r.try_get::<i64, _>(3)? != 0,
                })
            })
            .collect()
    }

    /// A user's own settings.
    pub async fn user(&self, name: &str) -> Result<Option<UserRecord>, AccountsError> {
        let row = sqlx::query(&format!(
            "SELECT u.grp, u.home, u.lang, u.charset, u.disabled, {} FROM users u WHERE u.name = $1",
            crate::limits::select("u")
        ))
        .bind(name)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let (perms, mounts) = self.own_rules(Owner::User(name)).await?;
        Ok(Some(UserRecord {
            name: name.to_owned(),
            group: opt_text(&row, 0)?,
            home: opt_text(&row, 1)?,
            lang: opt_text(&row, 2)?,
            charset: opt_text(&row, 3)?,
            disabled: row.try_get::<i64, _>(4)? != 0,
            limits: crate::limits::read(&row, 5, name)?,
            perms,
            mounts,
        }))
    }

    /// Removes a user with its rules and mounts.
    pub async fn remove_user(&self, name: &str) -> Result<(), AccountsError> {
        let mut tx = self.write_tx().await?;
        let gone = sqlx::query("DELETE FROM users WHERE name = $1")
            .bind(name)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if gone == 0 {
            return Err(AccountsError::UnknownUser(name.to_owned()));
        }
        for sql in [
            "DELETE FROM perms WHERE kind = 'user' AND owner = $1",
            "DELETE FROM mounts WHERE kind = 'user' AND owner = $1",
            "DELETE FROM quota_usage WHERE name = $1",
        ] {
            sqlx::query(sql).bind(name).execute(&mut *tx).await?;
        }
        // Issue 49: its share links end with it (kept as removed: their
        // links answer 410, and a later user of the same name gets none).
        sqlx::query("UPDATE shares SET removed_unix = $1 WHERE owner = $2 AND removed_unix IS NULL")
            .bind(crate::tokens::unix_now())
            .bind(name)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Replaces a user's password with a PHC string ([`crate::hash_password`]).
    pub async fn set_password(&self, name: &str, phc: &str) -> Result<(), AccountsError> {
        if !is_valid_hash(phc) {
            return Err(AccountsError::BadHash(name.to_owned()));
        }
        let n = sqlx::query("UPDATE users SET password = $1 WHERE name = $2")
            .bind(phc)
            .bind(name)
            .execute(self.pool())
            .await?
            .rows_affected();
        if n == 0 {
            return Err(AccountsError::UnknownUser(name.to_owned()));
        }
        Ok(())
    }

    /// Changes a user's settings, all or nothing.
    pub async fn set_user(&self, name: &str, c: &UserChanges) -> Result<(), AccountsError> {
        let flat = |o: &Option<Option<String>>| o.as_ref().and_then(|v| v.clone());
        check_settings(
            flat(&c.home).as_deref(),
            flat(&c.lang).as_deref(),
            flat(&c.charset).as_deref(),
        )?;
        self.must_exist(Owner::User(name)).await?;
        if let Some(Some(g)) = &c.group {
            self.must_exist(Owner::Group(g)).await?;
        }
        let mut tx = self.write_tx().await?;
        let home = match nested(&c.home) {
            Some(Some(h)) => Some(Some(home_text(&h)?)),
            other => other,
        };
        let charset = nested(&c.charset).map(|o| o.map(|s| s.trim().to_owned()));
        let columns = [
            ("home", home),
            ("lang", nested(&c.lang)),
            ("charset", charset),
            ("grp", nested(&c.group)),
        ];
        for (column, value) in columns {
            if let Some(v) = value {
                sqlx::query(&format!("UPDATE users SET {column} = $1 WHERE name = $2"))
                    .bind(v)
                    .bind(name)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        if let Some(d) = c.disabled {
            // A disable ends the user's sessions (sessions.rs), even if it
            // is enabled again before they make another request.
            sqlx::query("UPDATE users SET disabled = $1, sessions_gen = sessions_gen + $1 WHERE name = $2")
                .bind(i64::from(d))
                .bind(name)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}
