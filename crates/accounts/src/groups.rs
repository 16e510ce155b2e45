//! The group operations of [`Store`].

use crate::store::{check_settings, home_text, nested, opt_text, unique_as};
use crate::{check_name, AccountsError, GroupChanges, GroupRecord, NewGroup, Owner, Store};

impl Store {
    pub async fn add_group(&self, g: &NewGroup) -> Result<(), AccountsError> {
        check_name(&g.name)?;
        check_settings(g.home.as_deref(), g.lang.as_deref(), g.charset.as_deref())?;
        if self.exists(Owner::Group(&g.name)).await? {
            return Err(AccountsError::GroupExists(g.name.clone()));
        }
        let home = g.home.as_deref().map(home_text).transpose()?;
        sqlx::query("INSERT INTO user_groups (name, home, lang, charset) VALUES ($1, $2, $3, $4)")
            .bind(&g.name)
            .bind(home)
            .bind(g.lang.clone())
            .bind(g.charset.as_deref().map(|c| c.trim().to_owned()))
            .execute(self.pool())
            .await
            .map_err(|e| unique_as(e, || AccountsError::GroupExists(g.name.clone())))?;
        Ok(())
    }

    /// Every group, by name.
    pub async fn list_groups(&self) -> Result<Vec<GroupRecord>, AccountsError> {
        let names: Vec<String> = sqlx::query_scalar("SELECT name FROM user_groups ORDER BY name")
            .fetch_all(self.pool())
            .await?;
        let mut out = Vec::new();
        for n in names {
            if let Some(g) = self.group(&n).await? {
                out.push(g);
            }
        }
        Ok(out)
    }

    pub async fn group(&self, name: &str) -> Result<Option<GroupRecord>, AccountsError> {
        let row = sqlx::query(&format!(
            "SELECT g.home, g.lang, g.charset, {} FROM user_groups g WHERE g.name = $1",
            crate::limits::select("g")
        ))
        .bind(name)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let (perms, mounts) = self.own_rules(Owner::Group(name)).await?;
        let members = sqlx::query_scalar("SELECT name FROM users WHERE grp = $1 ORDER BY name")
            .bind(name)
            .fetch_all(self.pool())
            .await?;
        Ok(Some(GroupRecord {
            name: name.to_owned(),
            home: opt_text(&row, 0)?,
            lang: opt_text(&row, 1)?,
            charset: opt_text(&row, 2)?,
            limits: crate::limits::read(&row, 3, name)?,
            perms,
            mounts,
            members,
        }))
    }

    /// Removes a group that no user belongs to, with its rules and mounts.
    pub async fn remove_group(&self, name: &str) -> Result<(), AccountsError> {
        let mut tx = self.write_tx().await?;
        let members: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE grp = $1")
            .bind(name)
            .fetch_one(&mut *tx)
            .await?;
        if members > 0 {
            return Err(AccountsError::GroupInUse {
                group: name.to_owned(),
                members: u64::try_from(members).unwrap_or(0),
            });
        }
        let gone = sqlx::query("DELETE FROM user_groups WHERE name = $1")
            .bind(name)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if gone == 0 {
            return Err(AccountsError::UnknownGroup(name.to_owned()));
        }
        for sql in [
            "DELETE FROM perms WHERE kind = 'group' AND owner = $1",
            "DELETE FROM mounts WHERE kind = 'group' AND owner = $1",
        ] {
            sqlx::query(sql).bind(name).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub async fn set_group(&self, name: &str, c: &GroupChanges) -> Result<(), AccountsError> {
        let flat = |o: &Option<Option<String>>| o.as_ref().and_then(|v| v.clone());
        check_settings(
            flat(&c.home).as_deref(),
            flat(&c.lang).as_deref(),
            flat(&c.charset).as_deref(),
        )?;
        self.must_exist(Owner::Group(name)).await?;
        let home = match nested(&c.home) {
            Some(Some(h)) => Some(Some(home_text(&h)?)),
            other => other,
        };
        let charset = nested(&c.charset).map(|o| o.map(|s| s.trim().to_owned()));
        let mut tx = self.write_tx().await?;
        for (column, value) in [("home", home), ("lang", nested(&c.lang)), ("charset", charset)] {
            if let Some(v) = value {
                sqlx::query(&format!("UPDATE user_groups SET {column} = $1 WHERE name = $2"))
                    .bind(v)
                    .bind(name)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }
}
