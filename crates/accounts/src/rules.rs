//! The rules (permissions) and mounts of [`Store`]'s users and groups,
//! by virtual path.

use crate::store::{corrupt, text};
use crate::{normalize_vpath, AccountsError, Owner, Perms, Source, Store};

impl Store {
    /// A user's or group's own rules and mounts, by path.
    #[allow(clippy::type_complexity)]
    pub(crate) async fn own_rules(
        &self,
        owner: Owner<'_>,
    ) -> Result<(Vec<(String, Perms)>, Vec<(String, Source)>), AccountsError> {
        let rows = sqlx::query("SELECT vpath, perms FROM perms WHERE kind = $1 AND owner = $2 ORDER BY vpath")
            .bind(owner.kind())
            .bind(owner.name())
            .fetch_all(self.pool())
            .await?;
        let mut perms = Vec::new();
        for r in &rows {
            let (vpath, value) = (text(r, 0)?, text(r, 1)?);
            let p = value
                .parse()
                .map_err(|_| corrupt(format!("the permissions of {owner} at {vpath}"), &value))?;
            perms.push((vpath, p));
        }
        let rows = sqlx::query("SELECT vpath, source FROM mounts WHERE kind = $1 AND owner = $2 ORDER BY vpath")
            .bind(owner.kind())
            .bind(owner.name())
            .fetch_all(self.pool())
            .await?;
        let mut mounts = Vec::new();
        for r in &rows {
            let (vpath, value) = (text(r, 0)?, text(r, 1)?);
            let s = value
                .parse()
                .map_err(|_| corrupt(format!("the mount of {owner} at {vpath}"), &value))?;
            mounts.push((vpath, s));
        }
        Ok((perms, mounts))
    }

    /// Sets the permissions of a user or group at a virtual path.
    pub async fn set_perm(&self, owner: Owner<'_>, vpath: &str, perms: Perms) -> Result<(), AccountsError> {
        let vpath = normalize_vpath(vpath)?;
        self.must_exist(owner).await?;
        sqlx::query(
            "INSERT INTO perms (kind, owner, vpath, perms) VALUES ($1, $2, $3, $4)
             ON CONFLICT (kind, owner, vpath) DO UPDATE SET perms = excluded.perms",
        )
        .bind(owner.kind())
        .bind(owner.name())
        .bind(vpath)
        .bind(perms.to_string())
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Removes the rule of a user or group at a virtual path (what is
    /// above, or the group's, applies again).
    pub async fn remove_perm(&self, owner: Owner<'_>, vpath: &str) -> Result<(), AccountsError> {
        self.remove_at("perms", owner, vpath).await
    }

    /// Mounts `source` at `vpath` for a user or group (replacing what was
    /// mounted there).
    pub async fn add_mount(&self, owner: Owner<'_>, vpath: &str, source: &Source) -> Result<(), AccountsError> {
        let vpath = normalize_vpath(vpath)?;
        if vpath == "/" {
            return Err(AccountsError::MountAtRoot);
        }
        self.must_exist(owner).await?;
        sqlx::query(
            "INSERT INTO mounts (kind, owner, vpath, source) VALUES ($1, $2, $3, $4)
             ON CONFLICT (kind, owner, vpath) DO UPDATE SET source = excluded.source",
        )
        .bind(owner.kind())
        .bind(owner.name())
        .bind(vpath)
        .bind(source.to_string())
        .execute(self.pool())
        .await?;
        Ok(())
    }

    pub async fn remove_mount(&self, owner: Owner<'_>, vpath: &str) -> Result<(), AccountsError> {
        self.remove_at("mounts", owner, vpath).await
    }

    async fn remove_at(&self, table: &str, owner: Owner<'_>, vpath: &str) -> Result<(), AccountsError> {
        let vpath = normalize_vpath(vpath)?;
        self.must_exist(owner).await?;
        let n = sqlx::query(&format!(
            "DELETE FROM {table} WHERE kind = $1 AND owner = $2 AND vpath = $3"
        ))
        .bind(owner.kind())
        .bind(owner.name())
        .bind(&vpath)
        .execute(self.pool())
        .await?
        .rows_affected();
        if n > 0 {
            return Ok(());
        }
        let (owner, path) = (owner.name().to_owned(), vpath);
        Err(if table == "perms" {
            AccountsError::NoSuchRule { owner, path }
        } else {
            AccountsError::NoSuchMount { owner, path }
        })
    }
}
