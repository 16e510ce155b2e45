//! # babelftp-admin — the admin API
//!
//! The admin API (issue 30), over `babelftp-core`: a node operated over HTTP, on the axum/hyper
//! stack of `/metrics` (`babelftp_core::metrics`), on its own listener
//! (`admin_listen`), over HTTPS when the server has a certificate (the
//! FTPS one, through rustls with ring: no second crypto stack).
//!
//! ```text
//!  admin_listen ─ TCP (─ TLS) ─ axum Router ─ auth (bearer token) ─┬─ status, sessions   (this node: babelftp_core::live)
//!                                                                  ├─ users, groups, quota (babelftp_accounts::Store)
//!                                                                  └─ bans (the store; this node's defender re-reads it)
//! ```
//!
//! Every request presents `Authorization: Bearer TOKEN`, a token made by
//! `babelftp admin token create` and kept in the accounts store as its
//! SHA-256 (compared in constant time); anything else is 401. Every change
//! is logged at INFO with the token's name.
//!
//! A token's scopes (issue 45) say what it may do: `read` reads every
//! area, `users` reads and writes users, groups and quotas, `bans` the
//! bans, `sessions` the sessions (ending one), `all` everything; a request
//! outside them is 403. Homes and virtual folders must lie under the
//! server's `allowed_sources` (by default its served root): else 403 with
//! the reason. Plain HTTP on an address that is not loopback is refused at
//! start unless `admin_insecure_http = true`. Bodies are JSON; an error is
//! `{"error": "…"}` in English (a protocol element, as reply codes are).
//! The OpenAPI 3 document, `/api/v1/openapi.json`, is generated from the
//! handlers and types below by utoipa ([`ApiDoc`]).
//!
//! Module map: this file (listener, TLS, authentication, errors, status,
//! sessions, the OpenAPI document), `accounts` (users, groups, quotas,
//! bans).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, WWW_AUTHENTICATE};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use babelftp_accounts::{AccountsError, AllowedSources, Scope, Store};
use serde::Serialize;
use tokio::net::TcpListener;
use utoipa::{OpenApi, ToSchema};

use babelftp_core::Services as Shared;
// The services, by the names this door has always used.
use babelftp_core::{http, live, logctx};

mod accounts;

/// What the handlers share.
#[derive(Clone)]
pub(crate) struct AdminState {
    shared: Arc<Shared>,
    store: Store,
    started: Instant,
    /// Where homes and virtual folders may lie.
    pub(crate) allowed: Arc<AllowedSources>,
}

impl AdminState {
    /// Refuses a language the server has no catalog for (400, saying
    /// which it has).
    pub(crate) fn check_lang(&self, lang: Option<&str>) -> Result<(), ApiError> {
        match lang {
            Some(tag) => Ok(babelftp_accounts::check_lang_served(
                tag,
                &self.shared.session.catalogs,
            )?),
            None => Ok(()),
        }
    }

    /// Refuses a password shorter than `[accounts] min_password_length`
    /// (400).
    pub(crate) fn check_password(&self, password: &str) -> Result<(), ApiError> {
        Ok(babelftp_accounts::check_password_length(
            password,
            self.shared.cfg.min_password_length,
        )?)
    }
}

/// The name of the token a request came with (for the log of changes).
#[derive(Clone, Debug)]
pub(crate) struct Caller(pub(crate) String);

impl std::fmt::Display for Caller {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// An error answer: a status and `{"error": "…"}`.
#[derive(Debug)]
pub(crate) struct ApiError(StatusCode, String);

impl ApiError {
    pub(crate) fn bad(why: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, why.into())
    }

    pub(crate) fn not_found(why: impl Into<String>) -> ApiError {
        ApiError(StatusCode::NOT_FOUND, why.into())
    }

    pub(crate) fn forbidden(why: impl Into<String>) -> ApiError {
        ApiError(StatusCode::FORBIDDEN, why.into())
    }
}

/// The body of every error answer.
#[derive(Serialize, ToSchema)]
pub(crate) struct ErrorBody {
    /// What went wrong, in English.
    error: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        json(self.0, &ErrorBody { error: self.1 })
    }
}

impl From<AccountsError> for ApiError {
    fn from(e: AccountsError) -> ApiError {
        use AccountsError as E;
        let status = match &e {
            E::UnknownUser(_)
            | E::UnknownGroup(_)
            | E::UnknownToken(_)
            | E::UnknownShare(_)
            | E::NoSuchRule { .. }
            | E::NoSuchMount { .. } => StatusCode::NOT_FOUND,
            E::UserExists(_) | E::GroupExists(_) | E::GroupInUse { .. } | E::TokenExists(_) => StatusCode::CONFLICT,
            E::SourceNotAllowed { .. } => StatusCode::FORBIDDEN,
            e if e.is_input_error() => StatusCode::BAD_REQUEST,
            _ => {
                tracing::warn!(error = %e, "admin API: the accounts store failed");
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        ApiError(status, e.to_string())
    }
}

/// `value` as a JSON answer.
pub(crate) fn json<T: Serialize>(status: StatusCode, value: &T) -> Response {
    match serde_json::to_string(value) {
        Ok(body) => (status, [(CONTENT_TYPE, "application/json")], body).into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// A JSON request body, or 400 saying what does not read.
pub(crate) fn body<T: serde::de::DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| ApiError::bad(format!("the body does not read: {e}")))
}

/// Every request's log lines are tagged `admin{peer=ADDR token=NAME}`,
/// as an FTP session's are `session{id=N peer=ADDR user=NAME}` (the token
/// once checked).
async fn authenticate(State(st): State<AdminState>, req: Request, next: Next) -> Response {
    match req.extensions().get::<ConnectInfo<crate::http::Peer>>().map(|c| c.0 .0) {
        Some(peer) => logctx::request("admin", peer, check_token(st, req, next)).await,
        None => check_token(st, req, next).await,
    }
}

/// 401 for a request without a valid token; the token's name goes with
/// the others.
async fn check_token(st: AdminState, mut req: Request, next: Next) -> Response {
    let presented = req
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            let (scheme, token) = v.trim().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| token.trim().to_owned())
        });
    let presented = presented.filter(|t| !t.is_empty());
    let name = match &presented {
        Some(t) => match st.store.check_admin_token(t).await {
            Ok(found) => found,
            Err(e) => return ApiError::from(e).into_response(),
        },
        None => None,
    };
    let Some(name) = name else {
        let peer = req.extensions().get::<ConnectInfo<crate::http::Peer>>().map(|c| c.0 .0);
        tracing::info!(method = %req.method(), path = %req.uri().path(), "admin API: request refused (no valid token)");
        // A token presented and wrong is a failed login: the defender
        // scores it, and bans a client that guesses.
        if let (Some(_), Some(peer)) = (&presented, peer) {
            st.shared.login_failed(peer.ip());
        }
        let mut r = ApiError(StatusCode::UNAUTHORIZED, "a valid bearer token is needed".into()).into_response();
        r.headers_mut()
            .insert(WWW_AUTHENTICATE, axum::http::HeaderValue::from_static("Bearer"));
        return r;
    };
    let (name, scopes) = name;
    logctx::set_token(&name);
    // What the request touches, and whether the token's scopes cover it.
    let path = req.uri().path().strip_prefix("/api/v1").unwrap_or_default();
    let area = area_of(path);
    let reads = matches!(*req.method(), axum::http::Method::GET | axum::http::Method::HEAD);
    let allowed = match area {
        None => true,
        Some(a) if reads => scopes.may_read(a),
        Some(a) => scopes.has(a),
    };
    if !allowed {
        let need = area.map_or("all", Scope::name);
        tracing::info!(token = %name, scopes = %scopes, method = %req.method(), path = %req.uri().path(), "admin API: request refused (outside the token's scopes)");
        return ApiError::forbidden(format!(
            "the token {name:?} has the scopes {scopes}: {} {} needs {}",
            req.method(),
            req.uri().path(),
            if reads {
                format!("read or {need}")
            } else {
                need.to_owned()
            }
        ))
        .into_response();
    }
    req.extensions_mut().insert(Caller(name));
    next.run(req).await
}

/// The scope of an area of the API (below `/api/v1`): `None` for what
/// every token may read (`/status`, `/openapi.json`, unknown paths that
/// answer 404).
fn area_of(path: &str) -> Option<Scope> {
    let first = path.trim_start_matches('/').split('/').next().unwrap_or_default();
    match first {
        // A share link is its owner's (issue 49).
        "users" | "groups" | "shares" => Some(Scope::Users),
        "bans" => Some(Scope::Bans),
        "sessions" => Some(Scope::Sessions),
        _ => None,
    }
}

/// Whether the admin API may listen at `addr` over plain HTTP: on a
/// loopback address, or when the configuration says so
/// (`admin_insecure_http`).
pub fn plain_http_allowed(addr: SocketAddr, insecure: bool) -> bool {
    insecure || addr.ip().to_canonical().is_loopback()
}

/// The server at a glance.
#[derive(Serialize, ToSchema)]
pub(crate) struct Status {
    /// babelftp's version.
    version: String,
    /// Seconds since the server started.
    uptime_seconds: u64,
    /// Sessions now: FTP control connections and web view logins.
    sessions: usize,
    /// File transfers and listings running now.
    transfers: usize,
    /// The server is stopping (SIGTERM): it accepts no new session.
    draining: bool,
    /// Why the storage does not answer, while it does not.
    degraded: Option<String>,
}

#[utoipa::path(get, path = "/api/v1/status", tag = "server",
    responses((status = 200, description = "The server now", body = Status),
              (status = 401, description = "No valid token", body = ErrorBody)))]
async fn status(State(st): State<AdminState>) -> Response {
    json(
        StatusCode::OK,
        &Status {
            version: env!("CARGO_PKG_VERSION").to_owned(),
            uptime_seconds: st.started.elapsed().as_secs(),
            sessions: st.shared.live.count(),
            transfers: st.shared.transfers.running(),
            draining: st.shared.metrics.is_draining(),
            degraded: st.shared.metrics.degraded(),
        },
    )
}

/// A transfer running in a session.
#[derive(Serialize, ToSchema)]
pub(crate) struct Transfer {
    /// `upload`, `download` or `listing`.
    direction: String,
    /// The path, as UTF-8 text (octets that are not UTF-8 as `%HH`).
    path: String,
    /// Octets moved so far.
    bytes: u64,
    /// When it started, Unix seconds.
    since: u64,
}

/// A session of this node: an FTP control connection, or a login to the
/// web view (its cookie).
#[derive(Serialize, ToSchema)]
pub(crate) struct Session {
    id: u64,
    /// The logged-in user; none before login.
    user: Option<String>,
    /// `ftp`, `ftps`, `http` or `https` (the web view's).
    protocol: String,
    /// The client's address and port (a web session's: where it logged
    /// in from).
    client: String,
    /// Connected (logged in, on the web) since, Unix seconds.
    since: u64,
    transfer: Option<Transfer>,
}

impl From<crate::live::SessionInfo> for Session {
    fn from(s: crate::live::SessionInfo) -> Session {
        Session {
            id: s.id,
            user: s.user,
            protocol: s.protocol.to_owned(),
            client: s.client.to_string(),
            since: s.since_unix,
            transfer: s.transfer.map(|t| Transfer {
                direction: t.direction.to_owned(),
                path: t.path,
                bytes: t.bytes,
                since: t.since_unix,
            }),
        }
    }
}

#[utoipa::path(get, path = "/api/v1/sessions", tag = "sessions",
    responses((status = 200, description = "The sessions of this node, oldest first", body = [Session]),
              (status = 401, description = "No valid token", body = ErrorBody)))]
async fn sessions(State(st): State<AdminState>) -> Response {
    // Web sessions whose account changed or that expired are gone first.
    st.shared.live.prune().await;
    let list: Vec<Session> = st.shared.live.list().into_iter().map(Session::from).collect();
    json(StatusCode::OK, &list)
}

#[utoipa::path(get, path = "/api/v1/sessions/{id}", tag = "sessions",
    params(("id" = u64, Path, description = "The session's id (as in the logs)")),
    responses((status = 200, description = "The session", body = Session),
              (status = 404, description = "No such session", body = ErrorBody)))]
async fn session(State(st): State<AdminState>, Path(id): Path<u64>) -> Result<Response, ApiError> {
    st.shared.live.prune().await;
    let s = st
        .shared
        .live
        .get(id)
        .ok_or_else(|| ApiError::not_found(format!("no session {id}")))?;
    Ok(json(StatusCode::OK, &Session::from(s)))
}

#[utoipa::path(delete, path = "/api/v1/sessions/{id}", tag = "sessions",
    params(("id" = u64, Path, description = "The session's id")),
    responses((status = 204, description = "Ended: an FTP session's running transfer is cut (426), then 421 and the connection closes; a web session's cookie is refused from its next request"),
              (status = 404, description = "No such session", body = ErrorBody)))]
async fn end_session(
    State(st): State<AdminState>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<u64>,
) -> Result<StatusCode, ApiError> {
    let who = st.shared.live.get(id);
    if !st.shared.live.end(id) {
        return Err(ApiError::not_found(format!("no session {id}")));
    }
    // The ended session's user and address, as its own lines name them
    // (the tag names the caller's).
    let (user, client) = who.map_or((None, None), |s| (s.user, Some(s.client)));
    tracing::info!(
        token = %caller,
        session = id,
        user = %user.as_deref().unwrap_or("-"),
        client = %client.map_or_else(|| "-".to_owned(), |c| c.to_string()),
        "admin API: session ended"
    );
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(get, path = "/api/v1/openapi.json", tag = "server",
    responses((status = 200, description = "This document (OpenAPI 3)", content_type = "application/json")))]
async fn openapi() -> Response {
    match ApiDoc::openapi().to_json() {
        Ok(text) => (StatusCode::OK, [(CONTENT_TYPE, "application/json")], text).into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// The admin API's OpenAPI document, generated from the handlers.
#[derive(OpenApi)]
#[openapi(
    info(title = "babelftp admin API", description = "Operate a babelftp node: its sessions, the accounts store's users, groups, quotas and bans. Every request needs `Authorization: Bearer TOKEN` (babelftp admin token create)."),
    paths(
        status, sessions, session, end_session, openapi,
        accounts::list_users, accounts::create_user, accounts::get_user, accounts::patch_user, accounts::delete_user,
        accounts::user_quota,
        accounts::list_groups, accounts::create_group, accounts::get_group, accounts::patch_group, accounts::delete_group,
        accounts::list_bans, accounts::add_ban, accounts::delete_ban,
        accounts::list_shares, accounts::create_share, accounts::delete_share,
    ),
    components(schemas(ErrorBody)),
    modifiers(&Bearer),
    security(("bearer" = [])),
)]
pub struct ApiDoc;

/// The bearer-token scheme every operation needs.
struct Bearer;

impl utoipa::Modify for Bearer {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// The admin API's routes (all behind the token check).
fn router(st: AdminState) -> Router {
    use axum::routing::delete;
    let api = Router::new()
        .route("/status", get(status))
        .route("/sessions", get(sessions))
        .route("/sessions/{id}", get(session).delete(end_session))
        .route("/openapi.json", get(openapi))
        .route("/users", get(accounts::list_users).post(accounts::create_user))
        .route(
            "/users/{name}",
            get(accounts::get_user)
                .patch(accounts::patch_user)
                .delete(accounts::delete_user),
        )
        .route("/users/{name}/quota", get(accounts::user_quota))
        .route("/groups", get(accounts::list_groups).post(accounts::create_group))
        .route(
            "/groups/{name}",
            get(accounts::get_group)
                .patch(accounts::patch_group)
                .delete(accounts::delete_group),
        )
        .route("/bans", get(accounts::list_bans).post(accounts::add_ban))
        .route("/bans/{address}", delete(accounts::delete_ban))
        .route("/shares", get(accounts::list_shares).post(accounts::create_share))
        .route("/shares/{id}", delete(accounts::delete_share));
    Router::new()
        .nest("/api/v1", api)
        .fallback(|| async { ApiError::not_found("no such resource") })
        .layer(axum::middleware::from_fn_with_state(st.clone(), authenticate))
        .with_state(st)
}

/// The bound admin listener, and whether it speaks HTTPS.
pub struct AdminListener {
    listener: TcpListener,
}

impl AdminListener {
    pub async fn bind(addr: SocketAddr) -> std::io::Result<AdminListener> {
        Ok(AdminListener {
            listener: TcpListener::bind(addr).await?,
        })
    }

    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }
}

/// Serves the admin API until the task is dropped: HTTPS with the FTPS
/// certificate when the server has one, else HTTP. Banned addresses are
/// closed at accept, and connections are limited and timed
/// ([`crate::http`]).
pub async fn serve(l: AdminListener, shared: Arc<Shared>, store: Store, started: Instant) {
    let tls = shared.tls.as_ref().map(|t| t.https());
    let listener = crate::http::Guarded::new(l.listener, shared.clone());
    let allowed = Arc::new(shared.cfg.allowed_sources());
    let app = router(AdminState {
        shared,
        store,
        started,
        allowed,
    });
    crate::http::serve(listener, tls, app, "admin API").await;
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    /// The document is valid OpenAPI as utoipa reads it back, names every
    /// route, and asks for the bearer token everywhere.
    #[test]
    fn the_openapi_document_reads_back_and_names_every_route() {
        let text = ApiDoc::openapi().to_pretty_json().unwrap();
        let doc: utoipa::openapi::OpenApi = serde_json::from_str(&text).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(v["openapi"].as_str().unwrap().starts_with("3."));
        for path in [
            "/api/v1/status",
            "/api/v1/sessions",
            "/api/v1/sessions/{id}",
            "/api/v1/users",
            "/api/v1/users/{name}",
            "/api/v1/users/{name}/quota",
            "/api/v1/groups",
            "/api/v1/groups/{name}",
            "/api/v1/bans",
            "/api/v1/bans/{address}",
            "/api/v1/shares",
            "/api/v1/shares/{id}",
            "/api/v1/openapi.json",
        ] {
            assert!(doc.paths.paths.contains_key(path), "{path} missing");
        }
        assert_eq!(v["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
        assert!(v["security"][0].get("bearer").is_some());
        // Every $ref points at a schema that is there.
        let schemas = v["components"]["schemas"].as_object().unwrap();
        for r in text.lines().filter_map(|l| l.split("\"#/components/schemas/").nth(1)) {
            let name = r.split('"').next().unwrap();
            assert!(schemas.contains_key(name), "{name} is referenced but not defined");
        }
    }
}
