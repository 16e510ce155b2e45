//! Share links (issue 49) through the admin API, as `babelftp share`
//! manages them: made (the token shown once), listed (never the token),
//! removed (the link answers 410 from then on). They belong to the `users`
//! scope: a share is its owner's.

use super::*;
use babelftp_accounts::{NewShare, ShareKind};

/// A path's octets as text: UTF-8 as it is, other octets as `%HH`.
fn shown(p: &[u8]) -> String {
    let mut out = String::new();
    for chunk in p.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// An absolute path in its normal form: no empty component, `.` or `..`
/// (resolved lexically, never above `/`).
fn normal(p: &str) -> Vec<u8> {
    let mut comps: Vec<&str> = Vec::new();
    for c in p.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                comps.pop();
            }
            c => comps.push(c),
        }
    }
    format!("/{}", comps.join("/")).into_bytes()
}

/// A query value: `+` and `%HH` decoded.
fn decode(v: &str) -> String {
    let b = v.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let digit = |j: usize| b.get(j).and_then(|&c| char::from(c).to_digit(16));
        match (b[i], digit(i + 1), digit(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                out.push(u8::try_from(h * 16 + l).unwrap_or(b'?'));
                i += 3;
            }
            (b'+', _, _) => {
                out.push(b' ');
                i += 1;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A share link, without its token.
#[derive(Serialize, ToSchema)]
pub(crate) struct Share {
    id: String,
    /// Whose tree and permissions.
    user: String,
    /// The path in the user's tree, as UTF-8 text (octets that are not
    /// UTF-8 as `%HH`).
    path: String,
    /// `download` (a file, or a folder listed read-only) or `upload`.
    kind: String,
    /// Unix seconds.
    created: i64,
    expires: Option<i64>,
    password: bool,
    /// Downloads or uploads it gives, and has given.
    max_uses: Option<i64>,
    uses: i64,
    /// The client networks it works from (none: anywhere).
    networks: Vec<String>,
}

impl From<babelftp_accounts::Share> for Share {
    fn from(s: babelftp_accounts::Share) -> Share {
        Share {
            path: shown(&s.path),
            id: s.id,
            user: s.owner,
            kind: s.kind.name().to_owned(),
            created: s.created_unix,
            expires: s.expires_unix,
            password: s.password.is_some(),
            max_uses: s.max_uses,
            uses: s.uses,
            networks: s.nets,
        }
    }
}

/// A share link to make.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewShareBody {
    user: String,
    /// Absolute, in the user's tree (UTF-8).
    path: String,
    /// An upload link into the folder `path` (default: a download link).
    #[serde(default)]
    upload: bool,
    /// How long it works, in seconds (default: forever).
    expires_seconds: Option<u64>,
    password: Option<String>,
    max_downloads: Option<u32>,
    max_uploads: Option<u32>,
    /// Client networks (`192.0.2.0/24`); none: anywhere.
    #[serde(default)]
    networks: Vec<String>,
}

/// A new share link: its token, shown this once.
#[derive(Serialize, ToSchema)]
pub(crate) struct MadeShare {
    #[serde(flatten)]
    share: Share,
    /// The secret of the link (`bfs_…`): the store keeps only its hash.
    token: String,
    /// The link's path on the web view: `/s/TOKEN`.
    link: String,
}

#[utoipa::path(get, path = "/api/v1/shares", tag = "shares",
    params(("user" = Option<String>, Query, description = "Only this user's")),
    responses((status = 200, description = "The share links not removed, by user", body = [Share])))]
pub(crate) async fn list_shares(State(st): State<AdminState>, uri: axum::http::Uri) -> Result<Response, ApiError> {
    let user = uri
        .query()
        .unwrap_or_default()
        .split('&')
        .find_map(|kv| kv.strip_prefix("user="))
        .map(decode);
    let list: Vec<Share> = st
        .store
        .shares(user.as_deref())
        .await?
        .into_iter()
        .map(Share::from)
        .collect();
    Ok(json(StatusCode::OK, &list))
}

#[utoipa::path(post, path = "/api/v1/shares", tag = "shares", request_body = NewShareBody,
    responses((status = 201, description = "Made: its token, shown once", body = MadeShare),
              (status = 400, description = "A bad path, network or limit", body = ErrorBody),
              (status = 404, description = "No such user", body = ErrorBody)))]
pub(crate) async fn create_share(
    State(st): State<AdminState>,
    Extension(caller): Extension<Caller>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let b: NewShareBody = body(&bytes)?;
    if !b.path.starts_with('/') || b.path.contains('\0') {
        return Err(ApiError::bad(format!("{:?} is not an absolute path", b.path)));
    }
    if b.max_downloads.is_some() && (b.upload || b.max_uploads.is_some()) {
        return Err(ApiError::bad(
            "max_downloads is for download links, max_uploads for upload links",
        ));
    }
    if b.max_uploads.is_some() && !b.upload {
        return Err(ApiError::bad("max_uploads needs upload: true"));
    }
    for n in &b.networks {
        n.parse::<babelftp_core::config::Cidr>()
            .map_err(|_| ApiError::bad(format!("{n:?} is not a network (192.0.2.0/24)")))?;
    }
    let password = match b.password {
        Some(p) => Some(hash(p).await?),
        None => None,
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
    let new = NewShare {
        owner: b.user,
        path: normal(&b.path),
        kind: if b.upload {
            ShareKind::Upload
        } else {
            ShareKind::Download
        },
        expires_unix: b
            .expires_seconds
            .map(|s| now.saturating_add(i64::try_from(s).unwrap_or(i64::MAX))),
        password,
        max_uses: b.max_downloads.or(b.max_uploads).map(i64::from),
        nets: b.networks,
    };
    let (made, token) = st.store.create_share(&new).await?;
    tracing::info!(token = %caller, share = %made.id, user = %made.owner, "admin API: share link made");
    Ok(json(
        StatusCode::CREATED,
        &MadeShare {
            share: Share::from(made),
            link: format!("/s/{token}"),
            token,
        },
    ))
}

#[utoipa::path(delete, path = "/api/v1/shares/{id}", tag = "shares",
    params(("id" = String, Path, description = "The share's id")),
    responses((status = 204, description = "Removed: its link answers 410 from now on"),
              (status = 404, description = "No such share", body = ErrorBody)))]
pub(crate) async fn delete_share(
    State(st): State<AdminState>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    st.store.remove_share(&id).await?;
    tracing::info!(token = %caller, share = %id, "admin API: share link removed");
    Ok(StatusCode::NO_CONTENT)
}
