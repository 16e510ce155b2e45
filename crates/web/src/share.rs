//! Share links (issue 49): `/s/TOKEN` without an account.
//!
//! A share is kept in the accounts store ([`babelftp_accounts::Share`]):
//! a path of its owner's tree, a download share (a file, or a folder
//! listed read-only) or an upload share (a folder taking files). A request
//! under `/s/TOKEN/` is served as the owner would be, through the same
//! code as the owner's own requests (listing, download with Range,
//! the upload lifecycle with the owner's quota and events), on a view
//! whose tree is the shared folder (a file's: its folder, where only the
//! file is reachable) and whose rules are the owner's rules there, cut to
//! what the share gives: nothing above the shared folder is reachable,
//! and what the owner may no longer do there is refused.
//!
//! Only a path whose second segment has a token's shape (`bfs_` and 64
//! hex digits) is a share's: a folder `/s` of the tree stays reachable.
//! An unknown token is scored by the defender as a failed login (404),
//! as is a wrong share password; an ended share (expired, used up,
//! removed, its owner disabled, the path gone) answers 410. A password is
//! asked once, in a form: the answer is a cookie scoped to the share's
//! path, a hash of the token and the stored password hash (every node
//! checks it; a new password ends it). Downloads and uploads through a
//! share are events of the owner whose session ends in `-share-ID`.

use std::io;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::Response;
use babelftp_accounts::{hash_token, is_share_token, Share, ShareKind, Store};
use babelftp_policy::{Perm, Perms};
use babelftp_session::VPath;

use super::session::{csrf_ok, field, read_form, same_token, View};
use super::{files, page, Ask, St, Web};
use crate::events::Kind;

mod create;
pub(crate) use create::create;

/// The cookie that says a share's password was given (scoped to the
/// share's path).
const COOKIE: &str = "bftp_share";

/// Where a request under a share came: the URL prefix of its links and
/// the share's id (for events and logs).
#[derive(Clone)]
pub(crate) struct ShareAt {
    /// `/s/TOKEN`.
    pub(crate) prefix: String,
    pub(crate) id: String,
}

/// The token of a share path (`/s/TOKEN/…`), if the path is one.
pub(crate) fn token_of(path: &VPath) -> Option<String> {
    let c = path.components();
    if c.len() < 2 || c[0] != b"s" {
        return None;
    }
    let t = std::str::from_utf8(&c[1]).ok()?;
    is_share_token(t).then(|| t.to_owned())
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// The accounts store, if the server has one.
pub(crate) fn store(web: &Web) -> Option<Store> {
    web.shared().directory.as_ref().and_then(|d| d.store()).cloned()
}

/// What a request's answer needs from its inner request: the CSRF
/// cookie made for its forms, and redirects kept under the share.
fn finish(web: &Web, inner: &Ask, prefix: &str, mut r: Response) -> Response {
    if let Some(t) = inner.new_csrf.get().filter(|t| !t.is_empty()) {
        r.headers_mut()
            .append(header::SET_COOKIE, web.cookie("bftp_csrf", t, None));
    }
    let moved = r
        .headers()
        .get(header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .filter(|l| l.starts_with('/'))
        .map(|l| format!("{prefix}{l}"));
    if let Some(l) = moved.and_then(|l| HeaderValue::from_str(&l).ok()) {
        r.headers_mut().insert(header::LOCATION, l);
    }
    r
}

/// A request under `/s/TOKEN`.
pub(crate) async fn serve(web: &St, ask: &mut Ask, token: String, body: Body) -> Response {
    let prefix = format!("/s/{token}");
    // The path below the share's: what its pages' links are made of.
    ask.path = ask.path.components()[2..].iter().fold(VPath::root(), |p, c| p.join(c));
    ask.share = Some(ShareAt {
        prefix: prefix.clone(),
        id: String::new(),
    });
    let ip = ask.peer.ip();
    let post = ask.method == Method::POST;
    if !post && !matches!(ask.method, Method::GET | Method::HEAD) {
        return web.refuse(ask, StatusCode::METHOD_NOT_ALLOWED, "web-bad-method", &[]);
    }
    if web.shared().is_banned(ip) {
        return web.refuse(ask, StatusCode::FORBIDDEN, "web-denied", &[]);
    }
    if post && !super::same_origin(&ask.headers, ask.authority.as_deref()) {
        return web.refuse(ask, StatusCode::FORBIDDEN, "web-csrf", &[]);
    }
    if post && ask.has("lang") {
        let r = super::session::set_language(web, ask, body).await;
        return finish(web, ask, &prefix, r);
    }
    let Some(store) = store(web) else {
        return unknown(web, ask);
    };
    let (share, disabled) = match store.share_by_token(&token).await {
        Ok(Some(found)) => found,
        Ok(None) => return unknown(web, ask),
        Err(e) => {
            tracing::warn!(peer = %ask.peer, error = %e, "web share: the accounts could not be read");
            return web.refuse(ask, StatusCode::SERVICE_UNAVAILABLE, "web-unavailable", &[]);
        }
    };
    ask.share = Some(ShareAt {
        prefix: prefix.clone(),
        id: share.id.clone(),
    });
    babelftp_core::logctx::set_user(Some(&share.owner));
    if let Some(why) = share.ended(unix_now(), disabled) {
        tracing::info!(peer = %ask.peer, share = %share.id, why = ?why, "web share: ended");
        return gone(web, ask);
    }
    if !share.nets.is_empty() && !share.nets.iter().any(|n| net_has(n, ip)) {
        tracing::info!(peer = %ask.peer, share = %share.id, "web share: refused outside its networks");
        return web.refuse(ask, StatusCode::FORBIDDEN, "web-share-network", &[]);
    }
    if let Some(phc) = share.password.clone() {
        let proof = hash_token(&format!("{token}:{phc}"));
        if !ask.cookie(COOKIE).is_some_and(|c| same_token(c, &proof)) {
            if post && !ask.has("upload") {
                return unlock(web, ask, &share, &phc, &proof, body).await;
            }
            return page::share_password(web, ask, StatusCode::UNAUTHORIZED, false);
        }
    }
    let (view, full, file) = match owner_view(web, ask, &store, &share).await {
        Ok(v) => v,
        Err(r) => return r,
    };
    // The request as the owner's, below the shared folder.
    let sub: Vec<Vec<u8>> = ask.path.components().to_vec();
    let path = match &file {
        Some(name) if sub.is_empty() || sub == [name.clone()] => VPath::root().join(name),
        Some(_) => return web.refuse(ask, StatusCode::NOT_FOUND, "web-not-found", &[]),
        None => sub.iter().fold(VPath::root(), |p, c| p.join(c)),
    };
    let keep = ["page", "sort", "desc", "upload"];
    let inner = Ask {
        method: ask.method.clone(),
        path,
        slash: ask.slash && file.is_none(),
        query: ask
            .query
            .iter()
            .filter(|(k, _)| keep.contains(&k.as_str()))
            .cloned()
            .collect(),
        headers: ask.headers.clone(),
        peer: ask.peer,
        lang_chosen: ask.lang_chosen,
        lang: ask.lang,
        authority: ask.authority.clone(),
        host: ask.host,
        arrived: ask.arrived,
        kept_csrf: ask.kept_csrf.clone(),
        new_csrf: std::sync::OnceLock::new(),
        share: ask.share.clone(),
    };
    let r = match (share.kind, post) {
        (ShareKind::Upload, true) if inner.has("upload") && inner.path.components().len() <= 1 => {
            // The owner's usage, counted on its whole tree if it never was.
            if let Some(q) = files::quota(web, &view) {
                if let Err(e) = q.ensure_counted(full).await {
                    tracing::warn!(user = %q.name, error = %e, "quota usage could not be counted");
                }
            }
            match take_use(web, &store, &share, &inner).await {
                Ok(true) => {
                    let r = files::upload(web, &inner, &view, body).await;
                    give_back_if_refused(&store, &share, &inner, r.status()).await;
                    r
                }
                Ok(false) => gone(web, &inner),
                Err(r) => r,
            }
        }
        (ShareKind::Upload, false) if inner.path.is_root() => files::get(web, &inner, &view).await,
        (ShareKind::Download, false) => {
            let counted = wants_file(&inner, &view).await && counts(&inner);
            if counted {
                match take_use(web, &store, &share, &inner).await {
                    Ok(true) => {}
                    Ok(false) => return finish(web, &inner, &prefix, gone(web, &inner)),
                    Err(r) => return r,
                }
            }
            let r = files::get(web, &inner, &view).await;
            if counted {
                give_back_if_refused(&store, &share, &inner, r.status()).await;
            }
            r
        }
        (_, true) => web.refuse(&inner, StatusCode::BAD_REQUEST, "web-bad-action", &[]),
        _ => web.refuse(&inner, StatusCode::NOT_FOUND, "web-not-found", &[]),
    };
    finish(web, &inner, &prefix, r)
}

/// A use taken for a request that was then refused (an upload over
/// quota, a download the owner may no longer make) is given back.
async fn give_back_if_refused(store: &Store, share: &Share, ask: &Ask, status: StatusCode) {
    let refused = status.is_client_error() || status.is_server_error();
    if share.max_uses.is_none() || !refused {
        return;
    }
    if let Err(e) = store.give_back_share_use(&share.id).await {
        tracing::warn!(peer = %ask.peer, error = %e, "web share: a use could not be given back");
    }
}

/// Whether `ip` is inside the CIDR text `net`.
fn net_has(net: &str, ip: std::net::IpAddr) -> bool {
    net.parse::<babelftp_core::config::Cidr>().is_ok_and(|c| c.contains(ip))
}

/// An unknown token: 404, scored by the defender (guessing tokens gets
/// the address banned), and a failed-login event.
fn unknown(web: &St, ask: &Ask) -> Response {
    tracing::info!(peer = %ask.peer, "web share: unknown token");
    web.shared().login_failed(ask.peer.ip());
    web.emit(web.event(Kind::LoginFailed, None, ask));
    web.refuse(ask, StatusCode::NOT_FOUND, "web-not-found", &[])
}

fn gone(web: &Web, ask: &Ask) -> Response {
    web.refuse(ask, StatusCode::GONE, "web-share-gone", &[])
}

/// POST of the password form: the password checked as account passwords
/// are (argon2, on the hashing threads); right, a cookie for the share's
/// path and back to it; wrong, the form again, scored by the defender.
async fn unlock(web: &St, ask: &Ask, share: &Share, phc: &str, proof: &str, body: Body) -> Response {
    let f = match read_form(web, ask, body).await {
        Ok(f) => f,
        Err(r) => return r,
    };
    if !csrf_ok(&f, ask.kept_csrf.as_deref().unwrap_or("")) {
        return web.refuse(ask, StatusCode::FORBIDDEN, "web-csrf", &[]);
    }
    let given = field(&f, "password").unwrap_or_default().to_vec();
    let secret = babelftp_core::auth::Secret::Hash(phc.to_owned());
    let Ok(_permit) = web.shared().hashing.clone().acquire_owned().await else {
        return web.refuse(ask, StatusCode::SERVICE_UNAVAILABLE, "web-unavailable", &[]);
    };
    let ok = tokio::task::spawn_blocking(move || secret.verify(&given))
        .await
        .unwrap_or(false);
    let owner = share.owner.as_bytes().to_vec();
    if !ok {
        tracing::info!(peer = %ask.peer, share = %share.id, "web share: wrong password");
        web.shared().login_failed(ask.peer.ip());
        web.emit(web.event(Kind::LoginFailed, Some(owner), ask));
        tokio::time::sleep_until(ask.arrived + web.shared().session.login_fail_delay).await;
        return page::share_password(web, ask, StatusCode::UNAUTHORIZED, true);
    }
    tracing::info!(peer = %ask.peer, share = %share.id, "web share: password given");
    web.emit(web.event(Kind::Login, Some(owner), ask));
    let prefix = ask.share.as_ref().map_or("/", |s| s.prefix.as_str());
    let mut r = super::see_other(&href_under(prefix, ask.path.components(), ask.slash));
    let mut c = format!("{COOKIE}={proof}; Path={prefix}; HttpOnly; SameSite=Strict");
    if web.tls {
        c.push_str("; Secure");
    }
    if let Ok(v) = HeaderValue::from_str(&c) {
        r.headers_mut().append(header::SET_COOKIE, v);
    }
    r
}

/// The owner's view of the shared folder, the owner's whole tree (its
/// quota is counted there), and for a file share the file's name (the view is then its folder's).
async fn owner_view(
    web: &St,
    ask: &Ask,
    store: &Store,
    share: &Share,
) -> Result<(Arc<View>, Arc<dyn crate::storage::Storage>, Option<Vec<u8>>), Response> {
    let unavailable = |e: &dyn std::fmt::Display| {
        tracing::warn!(peer = %ask.peer, share = %share.id, error = %e, "web share: the owner's tree cannot be opened");
        web.refuse(ask, StatusCode::SERVICE_UNAVAILABLE, "web-unavailable", &[])
    };
    let record = match store.login_record(&share.owner).await {
        Ok(Some(r)) if !r.disabled => r,
        Ok(_) => return Err(gone(web, ask)),
        Err(e) => return Err(unavailable(&e)),
    };
    let login = babelftp_core::directory::login_of(record.profile);
    let home = VPath::root().join(&login.account.home);
    let raw = match web.shared().open_tree(web.base(ask.host), home, Some(login.tree)).await {
        Ok(t) => t,
        Err(e) => return Err(unavailable(&io::Error::from(e))),
    };
    let rules = login.account.rules.clone();
    let tree = crate::linkrules::LinkRules::wrap(raw.clone(), rules.clone());
    let target = VPath::root().join(&share.path);
    let (st, p) = (tree.clone(), target.clone());
    let dir = tokio::task::spawn_blocking(move || p.is_root() || st.is_dir(&p))
        .await
        .unwrap_or(false);
    if share.kind == ShareKind::Upload && !dir {
        return Err(gone(web, ask));
    }
    let (root, file, mask) = match (dir, share.kind) {
        (true, ShareKind::Download) => (target.clone(), None, Perms::READ),
        (true, ShareKind::Upload) => (target.clone(), None, Perms::NONE.with(Perm::Upload)),
        (false, _) => {
            let (st, p) = (tree.clone(), target.clone());
            let exists = tokio::task::spawn_blocking(move || st.stat(&p).is_ok())
                .await
                .unwrap_or(false);
            if !exists || target.is_root() {
                return Err(gone(web, ask));
            }
            let name = target.file_name().unwrap_or_default().to_vec();
            (target.parent(), Some(name), Perms::NONE.with(Perm::Download))
        }
    };
    let (st, r) = (raw.clone(), root.clone());
    let sub = match tokio::task::spawn_blocking(move || st.subdir(&r)).await {
        Ok(Ok(t)) => t,
        Ok(Err(e)) => {
            let e = io::Error::from(e);
            return Err(match e.kind() {
                io::ErrorKind::NotFound => gone(web, ask),
                _ => unavailable(&e),
            });
        }
        Err(e) => return Err(unavailable(&e)),
    };
    let rebased = Arc::new(rules.rebased(root.components(), mask));
    let view = View {
        user: Some(share.owner.clone()),
        tree: crate::linkrules::LinkRules::wrap(sub, rebased.clone()),
        rules: rebased,
        // Its forms carry the visitor's double-submit token (no session).
        csrf: String::new(),
        limits: login.limits,
        sid: None,
        lang: None,
    };
    Ok((Arc::new(view), raw, file))
}

/// Whether the request is a file's download (not a folder's page).
async fn wants_file(inner: &Ask, view: &View) -> bool {
    if inner.path.is_root() {
        return false;
    }
    let (st, p) = (view.tree.clone(), inner.path.clone());
    tokio::task::spawn_blocking(move || st.stat(&p).is_ok() && !st.is_dir(&p))
        .await
        .unwrap_or(false)
}

/// Whether a download takes a use: every GET, a range too (else ranges
/// would fetch a file any number of times); a HEAD does not.
fn counts(inner: &Ask) -> bool {
    inner.method == Method::GET
}

/// Takes one of the share's uses (in the store: every node counts in the
/// same row); `false` when none is left.
async fn take_use(web: &Web, store: &Store, share: &Share, ask: &Ask) -> Result<bool, Response> {
    if share.max_uses.is_none() {
        return Ok(true);
    }
    match store.use_share(&share.id).await {
        Ok(true) => Ok(true),
        Ok(false) => {
            tracing::info!(peer = %ask.peer, share = %share.id, "web share: used up");
            Ok(false)
        }
        Err(e) => {
            tracing::warn!(peer = %ask.peer, error = %e, "web share: the use could not be counted");
            Err(web.refuse(ask, StatusCode::SERVICE_UNAVAILABLE, "web-unavailable", &[]))
        }
    }
}

/// The link of `comps` below the share's `prefix`.
fn href_under(prefix: &str, comps: &[Vec<u8>], slash: bool) -> String {
    let mut s = prefix.to_owned();
    for c in comps {
        s.push('/');
        super::encode_segment(c, &mut s);
    }
    if slash || comps.is_empty() {
        s.push('/');
    }
    s
}
