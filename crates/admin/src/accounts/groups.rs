//! Groups through the admin API, as `babelftp group` manages them.

use super::*;

/// A group's own settings and its members.
#[derive(Serialize, ToSchema)]
pub(crate) struct Group {
    name: String,
    home: Option<String>,
    lang: Option<String>,
    charset: Option<String>,
    limits: Limits,
    permissions: BTreeMap<String, String>,
    mounts: BTreeMap<String, String>,
    members: Vec<String>,
}

/// A new group.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewGroupBody {
    name: String,
    home: Option<String>,
    lang: Option<String>,
    charset: Option<String>,
    limits: Option<Limits>,
    #[serde(default)]
    permissions: BTreeMap<String, String>,
    #[serde(default)]
    mounts: BTreeMap<String, String>,
}

/// Changes to a group: absent fields are left as they are; `null` clears.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct GroupPatch {
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    home: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    lang: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    charset: Option<Option<String>>,
    limits: Option<LimitsPatch>,
    #[serde(default)]
    permissions: BTreeMap<String, String>,
    #[serde(default)]
    mounts: BTreeMap<String, Option<String>>,
}

async fn group_json(store: &Store, name: &str) -> Result<Group, ApiError> {
    let g = store
        .group(name)
        .await?
        .ok_or_else(|| AccountsError::UnknownGroup(name.to_owned()))?;
    Ok(Group {
        name: g.name,
        home: g.home,
        lang: g.lang,
        charset: g.charset,
        limits: g.limits.into(),
        permissions: rules_map(g.perms),
        mounts: mounts_map(g.mounts),
        members: g.members,
    })
}

#[utoipa::path(get, path = "/api/v1/groups", tag = "groups",
    responses((status = 200, description = "Every group, by name", body = [Group])))]
pub(crate) async fn list_groups(State(st): State<AdminState>) -> Result<Response, ApiError> {
    let mut list = Vec::new();
    for g in st.store.list_groups().await? {
        list.push(group_json(&st.store, &g.name).await?);
    }
    Ok(json(StatusCode::OK, &list))
}

#[utoipa::path(post, path = "/api/v1/groups", tag = "groups", request_body = NewGroupBody,
    responses((status = 201, description = "Created", body = Group),
              (status = 400, description = "A value that does not read", body = ErrorBody),
              (status = 403, description = "Outside the token's scopes, or a home or folder outside allowed_sources", body = ErrorBody),
              (status = 409, description = "The group exists", body = ErrorBody)))]
pub(crate) async fn create_group(
    State(st): State<AdminState>,
    Extension(caller): Extension<Caller>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let b: NewGroupBody = body(&bytes)?;
    let mounts = b.mounts.into_iter().map(|(k, v)| (k, Some(v))).collect();
    let limits = b.limits.map(LimitsPatch::from).unwrap_or_default();
    let rules = Rules::read(&st.allowed, b.home.as_deref(), &b.permissions, &mounts, &limits)?;
    st.check_lang(b.lang.as_deref())?;
    st.store
        .add_group(&NewGroup {
            name: b.name.clone(),
            home: b.home,
            lang: b.lang,
            charset: b.charset,
        })
        .await?;
    rules.apply(&st.store, Owner::Group(&b.name)).await?;
    tracing::info!(token = %caller, group = %b.name, "admin API: group created");
    Ok(json(StatusCode::CREATED, &group_json(&st.store, &b.name).await?))
}

#[utoipa::path(get, path = "/api/v1/groups/{name}", tag = "groups",
    params(("name" = String, Path, description = "The group's name")),
    responses((status = 200, description = "The group", body = Group),
              (status = 404, description = "No such group", body = ErrorBody)))]
pub(crate) async fn get_group(State(st): State<AdminState>, Path(name): Path<String>) -> Result<Response, ApiError> {
    Ok(json(StatusCode::OK, &group_json(&st.store, &name).await?))
}

#[utoipa::path(patch, path = "/api/v1/groups/{name}", tag = "groups", request_body = GroupPatch,
    params(("name" = String, Path, description = "The group's name")),
    responses((status = 200, description = "Changed", body = Group),
              (status = 400, description = "A value that does not read", body = ErrorBody),
              (status = 403, description = "Outside the token's scopes, or a home or folder outside allowed_sources", body = ErrorBody),
              (status = 404, description = "No such group", body = ErrorBody)))]
pub(crate) async fn patch_group(
    State(st): State<AdminState>,
    Extension(caller): Extension<Caller>,
    Path(name): Path<String>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let p: GroupPatch = body(&bytes)?;
    let rules = Rules::read(
        &st.allowed,
        p.home.as_ref().and_then(|h| h.as_deref()),
        &p.permissions,
        &p.mounts,
        &p.limits.unwrap_or_default(),
    )?;
    st.check_lang(p.lang.as_ref().and_then(|l| l.as_deref()))?;
    let c = GroupChanges {
        home: p.home,
        lang: p.lang,
        charset: p.charset,
    };
    st.store.set_group(&name, &c).await?;
    rules.apply(&st.store, Owner::Group(&name)).await?;
    tracing::info!(token = %caller, group = %name, "admin API: group changed");
    Ok(json(StatusCode::OK, &group_json(&st.store, &name).await?))
}

#[utoipa::path(delete, path = "/api/v1/groups/{name}", tag = "groups",
    params(("name" = String, Path, description = "The group's name")),
    responses((status = 204, description = "Removed"),
              (status = 404, description = "No such group", body = ErrorBody),
              (status = 409, description = "Users still belong to it", body = ErrorBody)))]
pub(crate) async fn delete_group(
    State(st): State<AdminState>,
    Extension(caller): Extension<Caller>,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    st.store.remove_group(&name).await?;
    tracing::info!(token = %caller, group = %name, "admin API: group removed");
    Ok(StatusCode::NO_CONTENT)
}
