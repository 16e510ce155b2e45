//! The accounts store through the admin API: users, groups, a user's quota
//! usage, and the bans, with what the `user`, `group` and `ban` commands
//! do (the same [`Store`] calls, the same checks). A change holds at the
//! next login on every node, as theirs do; a ban is read back into this
//! node's defender at once (other nodes follow within seconds).

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Extension;
use babelftp_accounts::{
    AccountsError, AllowedSources, GroupChanges, LimitChanges, Limits as StoreLimits, NewGroup, NewUser, Owner, Perms,
    Source, Store, UserChanges,
};
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

use super::{body, json, AdminState, ApiError, Caller, ErrorBody};

/// A field that may be absent (no change), `null` (cleared) or a value.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// Limits of a user or group; `null`: none of its own (a user takes its
/// group's).
#[derive(Serialize, Deserialize, ToSchema, Default, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct Limits {
    /// Octets the user may store (its home and virtual folders together).
    quota_bytes: Option<u64>,
    /// Files the user may store.
    quota_files: Option<u64>,
    /// Octets per second of all the user's downloads on a node.
    download_rate: Option<u64>,
    /// Octets per second of all the user's uploads on a node.
    upload_rate: Option<u64>,
    /// Sessions at once on a node (at least 1).
    max_sessions: Option<u64>,
}

impl From<StoreLimits> for Limits {
    fn from(l: StoreLimits) -> Limits {
        Limits {
            quota_bytes: l.quota_bytes,
            quota_files: l.quota_files,
            download_rate: l.download_rate,
            upload_rate: l.upload_rate,
            max_sessions: l.max_sessions,
        }
    }
}

/// Changes to limits: an absent field is left as it is, `null` clears it.
#[derive(Deserialize, ToSchema, Default, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct LimitsPatch {
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u64>)]
    quota_bytes: Option<Option<u64>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u64>)]
    quota_files: Option<Option<u64>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u64>)]
    download_rate: Option<Option<u64>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u64>)]
    upload_rate: Option<Option<u64>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u64>)]
    max_sessions: Option<Option<u64>>,
}

impl LimitsPatch {
    fn changes(&self) -> Result<LimitChanges, ApiError> {
        if self.max_sessions == Some(Some(0)) {
            return Err(ApiError::bad("max_sessions: write a whole number above 0, or null"));
        }
        Ok(LimitChanges {
            quota_bytes: self.quota_bytes,
            quota_files: self.quota_files,
            download_rate: self.download_rate,
            upload_rate: self.upload_rate,
            max_sessions: self.max_sessions,
        })
    }
}

impl From<Limits> for LimitsPatch {
    fn from(l: Limits) -> LimitsPatch {
        let set = |v: Option<u64>| v.map(Some);
        LimitsPatch {
            quota_bytes: set(l.quota_bytes),
            quota_files: set(l.quota_files),
            download_rate: set(l.download_rate),
            upload_rate: set(l.upload_rate),
            max_sessions: set(l.max_sessions),
        }
    }
}

/// Permission rules, virtual folders and limits, as a body gives them,
/// checked before anything is written.
struct Rules {
    perms: Vec<(String, Option<Perms>)>,
    mounts: Vec<(String, Option<Source>)>,
    limits: LimitChanges,
}

impl Rules {
    /// Also checks that the home and the folders lie under the allowed
    /// sources (403 otherwise).
    fn read(
        allowed: &AllowedSources,
        home: Option<&str>,
        permissions: &BTreeMap<String, String>,
        mounts: &BTreeMap<String, Option<String>>,
        limits: &LimitsPatch,
    ) -> Result<Rules, ApiError> {
        let mut r = Rules {
            perms: Vec::new(),
            mounts: Vec::new(),
            limits: LimitChanges::default(),
        };
        for (path, p) in permissions {
            babelftp_accounts::normalize_vpath(path)?;
            let perms = if p.trim().eq_ignore_ascii_case("inherit") {
                None
            } else {
                Some(p.parse::<Perms>().map_err(AccountsError::from)?)
            };
            r.perms.push((path.clone(), perms));
        }
        for (path, source) in mounts {
            babelftp_accounts::normalize_vpath(path)?;
            let source = match source {
                Some(s) => {
                    let src = s.parse::<Source>()?;
                    allowed.check(&src)?;
                    Some(src)
                }
                None => None,
            };
            r.mounts.push((path.clone(), source));
        }
        if let Some(h) = home {
            allowed.check_home(h)?;
        }
        r.limits = limits.changes()?;
        Ok(r)
    }

    /// Writes the limits (when the body changes any), then the rules and
    /// folders.
    async fn apply(self, store: &Store, owner: Owner<'_>) -> Result<(), ApiError> {
        if self.limits != LimitChanges::default() {
            store.set_limits(owner, &self.limits).await?;
        }
        for (path, perms) in self.perms {
            match perms {
                Some(p) => store.set_perm(owner, &path, p).await?,
                None => match store.remove_perm(owner, &path).await {
                    Ok(()) | Err(AccountsError::NoSuchRule { .. }) => {}
                    Err(e) => return Err(e.into()),
                },
            }
        }
        for (path, source) in self.mounts {
            match source {
                Some(s) => store.add_mount(owner, &path, &s).await?,
                None => match store.remove_mount(owner, &path).await {
                    Ok(()) | Err(AccountsError::NoSuchMount { .. }) => {}
                    Err(e) => return Err(e.into()),
                },
            }
        }
        Ok(())
    }
}

fn rules_map(perms: Vec<(String, Perms)>) -> BTreeMap<String, String> {
    perms.into_iter().map(|(p, r)| (p, r.to_string())).collect()
}

fn mounts_map(mounts: Vec<(String, Source)>) -> BTreeMap<String, String> {
    mounts.into_iter().map(|(p, s)| (p, s.to_string())).collect()
}

/// One line of the users' list.
#[derive(Serialize, ToSchema)]
pub(crate) struct UserSummary {
    name: String,
    group: Option<String>,
    home: Option<String>,
    disabled: bool,
}

/// A user's own settings (what it does not set, it takes from its group).
#[derive(Serialize, ToSchema)]
pub(crate) struct User {
    name: String,
    group: Option<String>,
    /// `/alice` (a path of the served root), `file:///DIR` or `s3://BUCKET/PREFIX`.
    home: Option<String>,
    /// Reply language at login (`fr`, `pt-BR`).
    lang: Option<String>,
    /// Legacy client charset (`windows-1251`, `cp932`).
    charset: Option<String>,
    disabled: bool,
    limits: Limits,
    /// FTPS data connections: `required` (they must resume the control
    /// connection's TLS session) or `optional`; `null`: the group's, else
    /// the server's `tls_reuse_required`.
    tls_reuse: Option<String>,
    /// Permissions by virtual path: `all`, `none`, `read`, or a list of
    /// list, download, upload, overwrite, delete, rename, mkdir, rmdir, chmod.
    permissions: BTreeMap<String, String>,
    /// Virtual folders: virtual path → source.
    mounts: BTreeMap<String, String>,
}

/// A new user.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewUserBody {
    name: String,
    /// Hashed with argon2id; never stored nor logged as given.
    password: String,
    home: Option<String>,
    group: Option<String>,
    lang: Option<String>,
    charset: Option<String>,
    #[serde(default)]
    disabled: bool,
    limits: Option<Limits>,
    /// `required` or `optional` (FTPS data connections).
    tls_reuse: Option<String>,
    #[serde(default)]
    permissions: BTreeMap<String, String>,
    #[serde(default)]
    mounts: BTreeMap<String, String>,
}

/// Changes to a user: absent fields are left as they are; `null` clears
/// a setting (the group's applies again).
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct UserPatch {
    /// A new password.
    password: Option<String>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    home: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    group: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    lang: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    charset: Option<Option<String>>,
    disabled: Option<bool>,
    limits: Option<LimitsPatch>,
    /// `required`, `optional`, or `null` (the group's, else the server's).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    tls_reuse: Option<Option<String>>,
    /// Rules to set by virtual path; `inherit` removes one.
    #[serde(default)]
    permissions: BTreeMap<String, String>,
    /// Virtual folders to mount; `null` unmounts one.
    #[serde(default)]
    mounts: BTreeMap<String, Option<String>>,
}

/// Hashes a password on the blocking pool (argon2 takes tens of
/// milliseconds).
async fn hash(password: String) -> Result<String, ApiError> {
    if password.is_empty() {
        return Err(ApiError::bad("the password is empty"));
    }
    match tokio::task::spawn_blocking(move || babelftp_accounts::hash_password(password.as_bytes())).await {
        Ok(r) => Ok(r?),
        Err(_) => Err(ApiError::from(AccountsError::Hash("the hashing task failed".into()))),
    }
}

/// `required` or `optional` (issue 48).
fn tls_reuse(v: Option<&str>) -> Result<Option<babelftp_accounts::TlsReuse>, ApiError> {
    match v {
        None => Ok(None),
        Some(v) => babelftp_accounts::TlsReuse::parse(v)
            .map(Some)
            .ok_or_else(|| ApiError::bad("tls_reuse must be \"required\", \"optional\" or null")),
    }
}

async fn user_json(store: &Store, name: &str) -> Result<User, ApiError> {
    let u = store
        .user(name)
        .await?
        .ok_or_else(|| AccountsError::UnknownUser(name.to_owned()))?;
    let tls = store.own_tls_reuse(Owner::User(name)).await?;
    Ok(User {
        tls_reuse: tls.map(|t| t.as_str().to_owned()),
        name: u.name,
        group: u.group,
        home: u.home,
        lang: u.lang,
        charset: u.charset,
        disabled: u.disabled,
        limits: u.limits.into(),
        permissions: rules_map(u.perms),
        mounts: mounts_map(u.mounts),
    })
}

#[utoipa::path(get, path = "/api/v1/users", tag = "users",
    responses((status = 200, description = "Every user of the store, by name", body = [UserSummary])))]
pub(crate) async fn list_users(State(st): State<AdminState>) -> Result<Response, ApiError> {
    let list: Vec<UserSummary> = st
        .store
        .list_users()
        .await?
        .into_iter()
        .map(|u| UserSummary {
            name: u.name,
            group: u.group,
            home: u.home,
            disabled: u.disabled,
        })
        .collect();
    Ok(json(StatusCode::OK, &list))
}

#[utoipa::path(post, path = "/api/v1/users", tag = "users", request_body = NewUserBody,
    responses((status = 201, description = "Created", body = User),
              (status = 400, description = "A value that does not read", body = ErrorBody),
              (status = 403, description = "Outside the token's scopes, or a home or folder outside allowed_sources", body = ErrorBody),
              (status = 409, description = "The user exists", body = ErrorBody)))]
pub(crate) async fn create_user(
    State(st): State<AdminState>,
    Extension(caller): Extension<Caller>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let b: NewUserBody = body(&bytes)?;
    let mounts = b.mounts.into_iter().map(|(k, v)| (k, Some(v))).collect();
    let limits = b.limits.map(LimitsPatch::from).unwrap_or_default();
    let rules = Rules::read(&st.allowed, b.home.as_deref(), &b.permissions, &mounts, &limits)?;
    st.check_lang(b.lang.as_deref())?;
    if !b.password.is_empty() {
        st.check_password(&b.password)?;
    }
    let tls = tls_reuse(b.tls_reuse.as_deref())?;
    let password = hash(b.password).await?;
    // Created disabled, then its limits and rules, then enabled when asked:
    // a login never finds it half made. A step that fails removes it again.
    st.store
        .add_user(&NewUser {
            name: b.name.clone(),
            password,
            home: b.home,
            group: b.group,
            lang: b.lang,
            charset: b.charset,
            disabled: true,
        })
        .await?;
    let owner = Owner::User(&b.name);
    let rest = async {
        rules.apply(&st.store, owner).await?;
        if tls.is_some() {
            st.store.set_tls_reuse(owner, tls).await?;
        }
        if !b.disabled {
            let c = UserChanges {
                disabled: Some(false),
                ..UserChanges::default()
            };
            st.store.set_user(&b.name, &c).await?;
        }
        Ok::<(), ApiError>(())
    };
    if let Err(e) = rest.await {
        if let Err(undo) = st.store.remove_user(&b.name).await {
            tracing::warn!(user = %b.name, error = %undo, "admin API: a user half created could not be removed");
        }
        return Err(e);
    }
    tracing::info!(token = %caller, user = %b.name, "admin API: user created");
    Ok(json(StatusCode::CREATED, &user_json(&st.store, &b.name).await?))
}

#[utoipa::path(get, path = "/api/v1/users/{name}", tag = "users",
    params(("name" = String, Path, description = "The user's name")),
    responses((status = 200, description = "The user's own settings", body = User),
              (status = 404, description = "No such user", body = ErrorBody)))]
pub(crate) async fn get_user(State(st): State<AdminState>, Path(name): Path<String>) -> Result<Response, ApiError> {
    Ok(json(StatusCode::OK, &user_json(&st.store, &name).await?))
}

#[utoipa::path(patch, path = "/api/v1/users/{name}", tag = "users", request_body = UserPatch,
    params(("name" = String, Path, description = "The user's name")),
    responses((status = 200, description = "Changed", body = User),
              (status = 400, description = "A value that does not read", body = ErrorBody),
              (status = 403, description = "Outside the token's scopes, or a home or folder outside allowed_sources", body = ErrorBody),
              (status = 404, description = "No such user", body = ErrorBody)))]
pub(crate) async fn patch_user(
    State(st): State<AdminState>,
    Extension(caller): Extension<Caller>,
    Path(name): Path<String>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let p: UserPatch = body(&bytes)?;
    let rules = Rules::read(
        &st.allowed,
        p.home.as_ref().and_then(|h| h.as_deref()),
        &p.permissions,
        &p.mounts,
        &p.limits.unwrap_or_default(),
    )?;
    st.check_lang(p.lang.as_ref().and_then(|l| l.as_deref()))?;
    let tls = p.tls_reuse.as_ref().map(|t| tls_reuse(t.as_deref())).transpose()?;
    if st.store.user(&name).await?.is_none() {
        return Err(AccountsError::UnknownUser(name).into());
    }
    if let Some(pw) = p.password {
        if !pw.is_empty() {
            st.check_password(&pw)?;
        }
        let phc = hash(pw).await?;
        st.store.set_password(&name, &phc).await?;
    }
    let c = UserChanges {
        home: p.home,
        lang: p.lang,
        charset: p.charset,
        group: p.group,
        disabled: p.disabled,
    };
    st.store.set_user(&name, &c).await?;
    if let Some(t) = tls {
        st.store.set_tls_reuse(Owner::User(&name), t).await?;
    }
    rules.apply(&st.store, Owner::User(&name)).await?;
    tracing::info!(token = %caller, user = %name, "admin API: user changed");
    Ok(json(StatusCode::OK, &user_json(&st.store, &name).await?))
}

#[utoipa::path(delete, path = "/api/v1/users/{name}", tag = "users",
    params(("name" = String, Path, description = "The user's name")),
    responses((status = 204, description = "Removed, with its rules and mounts (its web sessions end; its FTP sessions go on)"),
              (status = 404, description = "No such user", body = ErrorBody)))]
pub(crate) async fn delete_user(
    State(st): State<AdminState>,
    Extension(caller): Extension<Caller>,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    st.store.remove_user(&name).await?;
    tracing::info!(token = %caller, user = %name, "admin API: user removed");
    Ok(StatusCode::NO_CONTENT)
}

/// Where a user stands against its quota.
#[derive(Serialize, ToSchema)]
pub(crate) struct Quota {
    name: String,
    /// Octets stored; `null` until the user first logs in with a quota
    /// (or `babelftp user quota-scan` counts it).
    used_bytes: Option<u64>,
    used_files: Option<u64>,
    /// The quota that applies (its own, else its group's); `null`: none.
    quota_bytes: Option<u64>,
    quota_files: Option<u64>,
}

#[utoipa::path(get, path = "/api/v1/users/{name}/quota", tag = "users",
    params(("name" = String, Path, description = "The user's name")),
    responses((status = 200, description = "Its usage and the quota that applies", body = Quota),
              (status = 404, description = "No such user", body = ErrorBody)))]
pub(crate) async fn user_quota(State(st): State<AdminState>, Path(name): Path<String>) -> Result<Response, ApiError> {
    let profile = st
        .store
        .profile(&name)
        .await?
        .ok_or_else(|| AccountsError::UnknownUser(name.clone()))?;
    let usage = st.store.usage(&name).await?;
    Ok(json(
        StatusCode::OK,
        &Quota {
            name,
            used_bytes: usage.map(|u| u.bytes),
            used_files: usage.map(|u| u.files),
            quota_bytes: profile.limits.quota_bytes,
            quota_files: profile.limits.quota_files,
        },
    ))
}

mod bans;
mod groups;
mod shares;

pub(crate) use bans::*;
pub(crate) use groups::*;
pub(crate) use shares::*;
