//! The tree through the web: listings, downloads, and the changes a
//! permitted user makes (upload, new folder, rename, delete). Every
//! operation asks `babelftp_policy` the question FTP asks, runs on the
//! same storage, counts against the same quota and bandwidth, and emits
//! the same events (protocol `http`/`https`).

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use babelftp_policy::{Op, Perm};
use babelftp_proto::listing::{Entry, EntryKind};
use babelftp_session::{VPath, WriteMode};
use futures::StreamExt;

use super::session::{csrf_ok, field, read_form, View};
use super::{href, page, see_other, Ask, St, Web};
use crate::events::Kind;
use crate::storage::ReadHandle;
use babelftp_core::transfer::{watch, Cut, Fail};
use babelftp_core::ServiceError;
use babelftp_session::TransferRecord;
use tokio_util::io::StreamReader;

/// Entries on one page of a listing. A directory with more is shown a
/// page at a time, in the storage's order, and never held whole.
pub(crate) const PAGE: usize = 10_000;
/// Octets a download reads at once.
const READ_CHUNK: usize = 1 << 20;

/// A storage call on the blocking pool.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> io::Result<T> + Send + 'static) -> io::Result<T> {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|e| Err(io::Error::other(e)))
}

/// The page for a storage error (by kind: 404, 403, 409, 507…).
fn storage_error(web: &Web, ask: &Ask, e: &io::Error) -> Response {
    use io::ErrorKind as K;
    let (status, id) = match e.kind() {
        K::NotFound => (StatusCode::NOT_FOUND, "web-not-found"),
        K::PermissionDenied => (StatusCode::FORBIDDEN, "web-denied"),
        K::AlreadyExists => (StatusCode::CONFLICT, "web-exists"),
        K::DirectoryNotEmpty => (StatusCode::CONFLICT, "web-not-empty"),
        K::InvalidFilename | K::InvalidInput => (StatusCode::BAD_REQUEST, "web-bad-name"),
        K::QuotaExceeded => (StatusCode::INSUFFICIENT_STORAGE, "web-quota"),
        K::StorageFull => (StatusCode::INSUFFICIENT_STORAGE, "web-full"),
        K::ResourceBusy => (StatusCode::TOO_MANY_REQUESTS, "web-busy"),
        K::Unsupported => (StatusCode::NOT_IMPLEMENTED, "web-unsupported"),
        K::TimedOut => (StatusCode::REQUEST_TIMEOUT, "web-stalled"),
        _ => {
            tracing::warn!(peer = %ask.peer, error = %e, "web: the storage failed");
            (StatusCode::SERVICE_UNAVAILABLE, "web-unavailable")
        }
    };
    web.refuse(ask, status, id, &[])
}

/// Whether the rules allow `op` (the core's check, as for every
/// operation); else the 403 page.
fn allowed(web: &Web, ask: &Ask, view: &View, op: &Op<'_>) -> Result<(), Response> {
    ctx(web, view).permit(op).map_err(|e| service_error(web, ask, e))
}

/// Whether the rules give any of `perms` at `path`; else the 403 page,
/// before anything is looked up: a path the user may do none of these
/// things at answers the same whether it exists or not, as FTP's 550
/// does.
fn any_right(web: &Web, ask: &Ask, view: &View, path: &VPath, perms: &[Perm]) -> Result<(), Response> {
    let have = view.rules.at(path.components());
    if perms.iter().any(|&p| have.has(p)) {
        return Ok(());
    }
    tracing::info!(peer = %ask.peer, path = %babelftp_proto::display::PlainPath(&path.to_bytes()), "web: refused by the permissions");
    Err(web.refuse(ask, StatusCode::FORBIDDEN, "web-denied", &[]))
}

/// The user's context: its operations, as every door runs them.
pub(crate) fn ctx(web: &Web, view: &View) -> babelftp_core::UserCtx {
    babelftp_core::UserCtx::new(
        web.shared().clone(),
        view.tree.clone(),
        view.rules.clone(),
        view.user.clone(),
        view.limits,
    )
}

/// The user's quota, when it has one and there is a store.
pub(crate) fn quota(web: &Web, view: &View) -> Option<crate::quota::Quota> {
    ctx(web, view).quota()
}

/// This door, in records and events.
fn door(web: &Web, ask: &Ask) -> babelftp_core::transfer::Door {
    babelftp_core::transfer::Door {
        protocol: if web.tls { "https" } else { "http" },
        peer: ask.peer.ip(),
    }
}

/// The page for a refusal of the services: the rules (403), or what the
/// storage or the quota said ([`storage_error`]).
fn service_error(web: &Web, ask: &Ask, e: ServiceError) -> Response {
    match e {
        ServiceError::Denied { perm } => {
            tracing::info!(peer = %ask.peer, missing = %perm, path = %babelftp_proto::display::PlainPath(&ask.path.to_bytes()), "web: refused by the permissions");
            web.refuse(ask, StatusCode::FORBIDDEN, "web-denied", &[])
        }
        ServiceError::DeniedInside { perm, at } => {
            let shown = babelftp_proto::display::PlainPath(&at.to_bytes()).to_string();
            tracing::info!(peer = %ask.peer, missing = %perm, path = %babelftp_proto::display::PlainPath(&ask.path.to_bytes()), inside = %shown, "web: refused by the permissions of a folder inside");
            web.refuse(
                ask,
                StatusCode::FORBIDDEN,
                "web-denied-inside",
                &[("path", &shown), ("perm", perm.name())],
            )
        }
        e => storage_error(web, ask, &io::Error::new(e.kind(), e.to_string())),
    }
}

/// A place among the user's sessions while a transfer runs (its
/// `max_sessions`, its bandwidth shared with its FTP sessions).
fn slot(web: &Web, view: &View) -> Result<Option<crate::limits::SessionSlot>, io::Error> {
    let Some(name) = &view.user else {
        return Ok(None);
    };
    match web.shared().enter_session(name, view.limits) {
        Ok(s) => Ok(Some(s)),
        Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
    }
}

/// GET or HEAD of a path: a directory's page, or a file's download.
pub(crate) async fn get(web: &St, ask: &Ask, view: &Arc<View>) -> Response {
    // Nothing to see, take or put here: refused before the path is
    // looked up.
    if let Err(r) = any_right(
        web,
        ask,
        view,
        &ask.path,
        &[Perm::List, Perm::Download, Perm::Upload, Perm::Mkdir],
    ) {
        return r;
    }
    // A search text past the bound: refused before anything is read.
    if ask.param("q").is_some_and(|q| q.len() > find::MAX_QUERY) {
        let max = find::MAX_QUERY.to_string();
        return web.refuse(ask, StatusCode::BAD_REQUEST, "web-find-too-long", &[("max", &max)]);
    }
    // A place the user may only put things in (a drop box): its page
    // has the forms and no entries; anything else there is refused, the
    // same whether it exists or not.
    let here = view.rules.at(ask.path.components());
    if !here.has(Perm::List) && !here.has(Perm::Download) {
        let (st, p) = (view.tree.clone(), ask.path.clone());
        let dir = blocking(move || Ok(p.is_root() || st.is_dir(&p)))
            .await
            .unwrap_or(false);
        if !dir || ask.param("info").is_some() {
            tracing::info!(peer = %ask.peer, path = %babelftp_proto::display::PlainPath(&ask.path.to_bytes()), "web: refused by the permissions");
            return web.refuse(ask, StatusCode::FORBIDDEN, "web-denied", &[]);
        }
        if !ask.slash {
            return see_other(&href(&ask.path, true));
        }
        return page::drop_box(web, ask, view);
    }
    let (st, p) = (view.tree.clone(), ask.path.clone());
    let found = blocking(move || {
        if p.is_root() {
            return Ok(None);
        }
        let e = st.stat(&p)?;
        if e.kind == EntryKind::Dir || (e.kind == EntryKind::Symlink && st.is_dir(&p)) {
            return Ok(None);
        }
        Ok(Some(e))
    })
    .await;
    match found {
        Ok(None) => {
            if ask.param("info").is_some() && !ask.path.is_root() {
                if let Err(r) = allowed(web, ask, view, &Op::List(ask.path.components())) {
                    return r;
                }
                let (st, p) = (view.tree.clone(), ask.path.clone());
                return match blocking(move || st.stat(&p).map_err(io::Error::from)).await {
                    Ok(e) => page::details(web, ask, view, &e, true),
                    Err(e) => storage_error(web, ask, &e),
                };
            }
            if !ask.slash {
                // A directory's page lives at its path with a final `/`,
                // so that its relative links resolve inside it.
                let mut r = StatusCode::MOVED_PERMANENTLY.into_response();
                if let Ok(v) = HeaderValue::from_str(&href(&ask.path, true)) {
                    r.headers_mut().insert(header::LOCATION, v);
                }
                return r;
            }
            if let Err(r) = allowed(web, ask, view, &Op::List(ask.path.components())) {
                return r;
            }
            if let Some(q) = ask.param("q").filter(|q| !q.is_empty()) {
                return find::find(web, ask, view, q).await;
            }
            listing(web, ask, view).await
        }
        Ok(Some(e)) if e.kind == EntryKind::Dir => {
            // A link to a directory (or one made meanwhile): as above.
            see_other(&href(&ask.path, true))
        }
        Ok(Some(e)) => {
            if ask.param("info").is_some() {
                if let Err(r) = allowed(web, ask, view, &Op::List(ask.path.components())) {
                    return r;
                }
                return page::details(web, ask, view, &e, false);
            }
            if let Err(r) = allowed(web, ask, view, &Op::Download(ask.path.components())) {
                return r;
            }
            // A preview (issue 49): a page, or the bytes it shows.
            if ask.param("preview").is_some() {
                return preview::preview(web, ask, view, e).await;
            }
            if ask.param("inline").is_some() {
                return preview::inline(web, ask, view, e).await;
            }
            download(web, ask, view, e, None).await
        }
        Err(e) => storage_error(web, ask, &e),
    }
}

/// One row of a listing.
pub(crate) struct Row {
    pub(crate) name: Vec<u8>,
    pub(crate) dir: bool,
    pub(crate) size: u64,
    pub(crate) modified: Option<i64>,
    /// Whether its details page may be seen (`list` at it): not a drop
    /// box's.
    pub(crate) info: bool,
    /// Whether it may be downloaded (`download` at it): only then is its
    /// preview linked.
    pub(crate) read: bool,
}

/// How a listing is sorted (`?sort=name|size|time`, `&desc`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sort {
    Name,
    Size,
    Time,
}

/// A page of a directory: its rows, and whether more pages follow.
pub(crate) struct Listing {
    pub(crate) rows: Vec<Row>,
    pub(crate) page: usize,
    pub(crate) more: bool,
    pub(crate) sort: Sort,
    pub(crate) desc: bool,
}

async fn listing(web: &St, ask: &Ask, view: &Arc<View>) -> Response {
    let page_no = ask
        .param("page")
        .and_then(|p| p.parse::<usize>().ok())
        .filter(|&p| p >= 1)
        .unwrap_or(1);
    let sort = match ask.param("sort") {
        Some("size") => Sort::Size,
        Some("time") => Sort::Time,
        _ => Sort::Name,
    };
    let desc = ask.param("desc").is_some();
    let (st, p, rules) = (view.tree.clone(), ask.path.clone(), view.rules.clone());
    let read = blocking(move || {
        let below = rules.below(p.components());
        let row = |e: Entry| {
            let dir = e.kind == EntryKind::Dir || (e.kind == EntryKind::Symlink && st.is_dir(&p.join(&e.name)));
            let perms = below.of(&e.name);
            Row {
                info: perms.has(Perm::List),
                read: perms.has(Perm::Download),
                name: e.name,
                dir,
                size: e.size,
                modified: e.modified,
            }
        };
        if page_no == 1 {
            // The first page: entries with their facts as the directory is
            // read (one fstatat each, beneath the open directory).
            let mut rows = Vec::new();
            for (index, e) in st.read_dir(&p, false)?.enumerate() {
                if index == PAGE {
                    return Ok((rows, true));
                }
                // An entry gone meanwhile is left out.
                let Ok(e) = e else { continue };
                if below.shows(&e.name) {
                    rows.push(row(e));
                }
            }
            return Ok((rows, false));
        }
        // A later page: names up to it (no facts), then the facts of its own.
        let skip = (page_no - 1).saturating_mul(PAGE);
        let mut names = st.read_names(&p)?;
        let (mut index, mut window, mut more) = (0usize, Vec::new(), false);
        loop {
            let going = names.next_batch(&mut |n| {
                if index >= skip && index < skip + PAGE {
                    window.push(n.to_vec());
                } else if index >= skip + PAGE {
                    more = true;
                }
                index += 1;
            })?;
            if !going || more {
                break;
            }
        }
        let mut rows = Vec::with_capacity(window.len());
        for name in window {
            if !below.shows(&name) {
                continue;
            }
            // An entry gone meanwhile is left out.
            let Ok(mut e) = st.stat(&p.join(&name)) else {
                continue;
            };
            e.name = name;
            rows.push(row(e));
        }
        Ok((rows, more))
    })
    .await;
    let (mut rows, more) = match read {
        Ok(r) => r,
        Err(e) => return storage_error(web, ask, &e),
    };
    // Folders first, then by the key; names break ties.
    rows.sort_by(|a, b| {
        let key = match sort {
            Sort::Name => std::cmp::Ordering::Equal,
            Sort::Size => a.size.cmp(&b.size),
            Sort::Time => a.modified.cmp(&b.modified),
        };
        let key = if desc { key.reverse() } else { key };
        let name = if desc && sort == Sort::Name {
            b.name.cmp(&a.name)
        } else {
            a.name.cmp(&b.name)
        };
        b.dir.cmp(&a.dir).then(key).then(name)
    });
    page::listing(
        web,
        ask,
        view,
        &Listing {
            rows,
            page: page_no,
            more,
            sort,
            desc,
        },
    )
}

/// A name typed or uploaded: one component, not `.` or `..`, without
/// `/`, `\` (a browser's path) or NUL.
fn valid_name(name: &[u8]) -> bool {
    !name.is_empty() && name != b"." && name != b".." && !name.iter().any(|&b| b == b'/' || b == 0)
}

/// A name the server keeps for its temporary upload files
/// (`.babelftp-*.part`: hidden from listings, removed at start) is never
/// made from the web view either: 400 and a log line.
fn not_reserved(web: &Web, ask: &Ask, name: &[u8]) -> Result<(), Response> {
    if !babelftp_session::is_temp_name(name) {
        return Ok(());
    }
    tracing::info!(peer = %ask.peer, name = %babelftp_proto::display::PlainPath(name), "web: name refused: the server's temporary-name pattern");
    Err(web.refuse(ask, StatusCode::BAD_REQUEST, "web-reserved-name", &[]))
}

/// The last component of an uploaded file's name (browsers on Windows
/// once sent whole paths).
fn base_name(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|&b| b == b'/' || b == b'\\') {
        Some(i) => &name[i + 1..],
        None => name,
    }
}

/// A form's fields after its CSRF check; else the page to answer.
async fn checked_form(web: &St, ask: &Ask, view: &View, body: Body) -> Result<Vec<(Vec<u8>, Vec<u8>)>, Response> {
    let f = read_form(web, ask, body).await?;
    if !csrf_ok(&f, view.expected_token(ask)) {
        return Err(web.refuse(ask, StatusCode::FORBIDDEN, "web-csrf", &[]));
    }
    Ok(f)
}

/// `p` as stored (the octets on disk in a translated subtree): what
/// events name, so that a hook finds the file.
async fn stored(view: &View, p: &VPath) -> Vec<u8> {
    let (st, vp) = (view.tree.clone(), p.clone());
    blocking(move || Ok(st.stored_path(&vp)))
        .await
        .unwrap_or_else(|_| p.to_bytes())
}

/// The event's path and target as stored, looked up before the change (a
/// rename's or a delete's old name is gone after it).
async fn stored_names(web: &St, view: &View, path: &VPath, target: Option<&VPath>) -> (Vec<u8>, Option<Vec<u8>>) {
    if web.shared().events.is_none() {
        return (Vec::new(), None);
    }
    let target = match target {
        Some(t) => Some(stored(view, t).await),
        None => None,
    };
    (stored(view, path).await, target)
}

/// A change to the tree that the storage did: its event (`stored`: its
/// path and target as stored, from [`stored_names`]).
fn changed(web: &St, ask: &Ask, view: &View, kind: Kind, path: &VPath, stored: (Vec<u8>, Option<Vec<u8>>)) {
    let what = match kind {
        Kind::Mkdir => "mkdir",
        Kind::Rmdir => "rmdir",
        Kind::Delete => "delete",
        Kind::Rename => "rename",
        _ => "change",
    };
    tracing::info!(peer = %ask.peer, path = %babelftp_proto::display::PlainPath(&path.to_bytes()), "web {what}");
    if let Some(mut ev) = web.event(kind, Some(view.user_bytes()), ask) {
        ev.path = Some(stored.0);
        ev.target = stored.1;
        ev.outcome = Some("complete");
        web.emit(Some(ev));
    }
}

mod changes;
mod download;
pub(crate) mod find;
pub(crate) mod preview;
mod upload;
mod zip;

pub(crate) use changes::{delete, mkdir, rename};
use download::download;
pub(crate) use upload::upload;
pub(crate) use zip::zip;

#[cfg(test)]
mod tests;
