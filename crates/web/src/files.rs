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
use babelftp_policy::{decide, Decision, Op, Perm};
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
    web.error(ask.lang, status, id, &[])
}

/// Whether the rules allow `op`; else the 403 page.
fn allowed(web: &Web, ask: &Ask, view: &View, op: &Op<'_>) -> Result<(), Response> {
    match decide(&view.rules, op) {
        Decision::Allow => Ok(()),
        Decision::Deny { missing, .. } => {
            tracing::info!(peer = %ask.peer, missing = %missing, path = %babelftp_proto::display::PlainPath(&ask.path.to_bytes()), "web: refused by the permissions");
            Err(web.error(ask.lang, StatusCode::FORBIDDEN, "web-denied", &[]))
        }
        Decision::DenyInside { missing, at } => {
            let mut inside = VPath::root();
            for c in at {
                inside = inside.join(c);
            }
            let shown = babelftp_proto::display::PlainPath(&inside.to_bytes()).to_string();
            tracing::info!(peer = %ask.peer, missing = %missing, path = %babelftp_proto::display::PlainPath(&ask.path.to_bytes()), inside = %shown, "web: refused by the permissions of a folder inside");
            Err(web.error(
                ask.lang,
                StatusCode::FORBIDDEN,
                "web-denied-inside",
                &[("path", &shown), ("perm", missing.name())],
            ))
        }
    }
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
    Err(web.error(ask.lang, StatusCode::FORBIDDEN, "web-denied", &[]))
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
            web.error(ask.lang, StatusCode::FORBIDDEN, "web-denied", &[])
        }
        ServiceError::DeniedInside { perm, at } => {
            let shown = babelftp_proto::display::PlainPath(&at.to_bytes()).to_string();
            tracing::info!(peer = %ask.peer, missing = %perm, path = %babelftp_proto::display::PlainPath(&ask.path.to_bytes()), inside = %shown, "web: refused by the permissions of a folder inside");
            web.error(
                ask.lang,
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
    // Nothing to see or take here: refused before the path is looked up.
    if let Err(r) = any_right(web, ask, view, &ask.path, &[Perm::List, Perm::Download]) {
        return r;
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
            download(web, ask, view, e).await
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
            Row {
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
                if below.of(&e.name).has(Perm::List) {
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
            if !below.of(&name).has(Perm::List) {
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

/// The strong validator of a file: its size and time.
fn etag(e: &Entry) -> String {
    format!("\"{:x}-{:x}\"", e.size, e.modified.unwrap_or(0))
}

/// `Content-Disposition: attachment` with the name as RFC 6266 wants it:
/// an ASCII fallback, and `filename*=UTF-8''…` (RFC 5987). A name that is
/// not UTF-8 is given as it is shown (`%HH`).
pub(crate) fn disposition(name: &[u8]) -> String {
    let shown = babelftp_proto::display::PlainPath(name).to_string();
    let ascii: String = shown
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' && c != '%' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut ext = String::new();
    super::encode_segment(shown.as_bytes(), &mut ext);
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{ext}")
}

/// `bytes=a-b`, `bytes=a-`, `bytes=-n` of a file of `size` octets: the
/// (start, length) asked for; `Err(())` when it lies past the end (416);
/// `Ok(None)` for no range, a malformed one or several (the whole file).
fn range(value: Option<&str>, size: u64) -> Result<Option<(u64, u64)>, ()> {
    let Some(spec) = value.and_then(|v| v.trim().strip_prefix("bytes=")) else {
        return Ok(None);
    };
    if spec.contains(',') {
        return Ok(None);
    }
    let Some((a, b)) = spec.split_once('-') else {
        return Ok(None);
    };
    let (a, b) = (a.trim(), b.trim());
    let parse = |s: &str| s.parse::<u64>().ok();
    match (a.is_empty(), b.is_empty()) {
        (true, false) => match parse(b) {
            Some(0) => Err(()),
            Some(n) => {
                let n = n.min(size);
                if size == 0 {
                    return Err(());
                }
                Ok(Some((size - n, n)))
            }
            None => Ok(None),
        },
        (false, _) => {
            let Some(start) = parse(a) else {
                return Ok(None);
            };
            let end = if b.is_empty() {
                Some(size.saturating_sub(1))
            } else {
                parse(b).map(|e| e.min(size.saturating_sub(1)))
            };
            let Some(end) = end else {
                return Ok(None);
            };
            if start >= size {
                return Err(());
            }
            if end < start {
                return Ok(None);
            }
            Ok(Some((start, end - start + 1)))
        }
        (true, true) => Ok(None),
    }
}

/// When the download's body is gone (sent, or the client left): its
/// event, metrics and log line.
struct Sent {
    web: St,
    ev: Option<crate::events::Event>,
    path: Vec<u8>,
    /// The path as stored, for the event.
    stored: Vec<u8>,
    want: u64,
    sent: Arc<AtomicU64>,
    started: Instant,
    /// Who, and over which door (the xferlog's).
    user: Vec<u8>,
    anonymous: bool,
    door: babelftp_core::transfer::Door,
    _slot: Option<crate::limits::SessionSlot>,
}

impl Drop for Sent {
    fn drop(&mut self) {
        let bytes = self.sent.load(Ordering::Relaxed);
        let complete = bytes >= self.want;
        let elapsed = self.started.elapsed();
        let rec = TransferRecord {
            path: std::mem::take(&mut self.path),
            incoming: false,
            ascii: false,
            bytes,
            seconds: elapsed.as_secs(),
            millis: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
            complete,
            code: Some(if complete { 200 } else { 499 }),
            user: std::mem::take(&mut self.user),
            anonymous: self.anonymous,
        };
        // Metrics, log line, xferlog: as every door records a transfer.
        self.web.shared().record_transfer(self.door, &rec);
        if let Some(mut ev) = self.ev.take() {
            ev.path = Some(std::mem::take(&mut self.stored));
            ev.bytes = Some(bytes);
            ev.size = Some(self.want);
            ev.duration_ms = Some(u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX));
            ev.outcome = Some(if complete { "complete" } else { "cut_short" });
            ev.code = Some(if complete { 200 } else { 499 });
            if let Some(events) = self.web.shared().events.as_ref() {
                events.emit(&ev);
            }
        }
    }
}

async fn download(web: &St, ask: &Ask, view: &Arc<View>, e: Entry) -> Response {
    let tag = etag(&e);
    let modified = e
        .modified
        .and_then(|s| u64::try_from(s).ok())
        .map(|s| std::time::UNIX_EPOCH + std::time::Duration::from_secs(s));
    let last_modified = modified.map(httpdate::fmt_http_date);
    let header_str = |k: header::HeaderName| ask.headers.get(k).and_then(|v| v.to_str().ok());
    // 304 when the client has it (RFC 9110 13.1.2, 13.1.3).
    let fresh = match header_str(header::IF_NONE_MATCH) {
        Some(inm) => inm.split(',').any(|t| {
            let t = t.trim();
            t == "*" || t.trim_start_matches("W/") == tag
        }),
        None => match (
            header_str(header::IF_MODIFIED_SINCE).and_then(|d| httpdate::parse_http_date(d).ok()),
            modified,
        ) {
            (Some(since), Some(m)) => m <= since,
            _ => false,
        },
    };
    let name = ask.path.file_name().unwrap_or_default().to_vec();
    let mut r = Response::builder()
        .header(header::ETAG, &tag)
        .header(header::ACCEPT_RANGES, "bytes")
        .header(header::CACHE_CONTROL, "private, no-cache")
        .header(header::CONTENT_DISPOSITION, disposition(&name))
        // A file is never a page of this site.
        .header(header::CONTENT_SECURITY_POLICY, "sandbox; default-src 'none'");
    if let Some(lm) = &last_modified {
        r = r.header(header::LAST_MODIFIED, lm);
    }
    if fresh {
        return r
            .status(StatusCode::NOT_MODIFIED)
            .body(Body::empty())
            .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response());
    }
    // If-Range: the range only while the file is still the one meant.
    let range_ok = match header_str(header::IF_RANGE) {
        None => true,
        Some(v) if v.starts_with('"') => v == tag,
        Some(v) => last_modified.as_deref() == Some(v),
    };
    let (start, len, status) = match range(header_str(header::RANGE).filter(|_| range_ok), e.size) {
        Ok(None) => (0, e.size, StatusCode::OK),
        Ok(Some((s, n))) => (s, n, StatusCode::PARTIAL_CONTENT),
        Err(()) => {
            return r
                .status(StatusCode::RANGE_NOT_SATISFIABLE)
                .header(header::CONTENT_RANGE, format!("bytes */{}", e.size))
                .body(Body::empty())
                .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response());
        }
    };
    if status == StatusCode::PARTIAL_CONTENT {
        r = r.header(
            header::CONTENT_RANGE,
            format!("bytes {start}-{}/{}", start + len - 1, e.size),
        );
    }
    r = r
        .status(status)
        .header(header::CONTENT_TYPE, "application/octet-stream")
        .header(header::CONTENT_LENGTH, len);
    if ask.method == axum::http::Method::HEAD {
        return r
            .body(Body::empty())
            .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response());
    }
    let slot = match slot(web, view) {
        Ok(s) => s,
        Err(e) => return storage_error(web, ask, &e),
    };
    let throttle = crate::throttle::Throttle::for_transfer(false, slot.as_ref(), &web.shared().bandwidth).map(Arc::new);
    // The download as every door opens it (babelftp_core::UserCtx).
    let handle = match ctx(web, view).open_download(&ask.path, start).await {
        Ok(h) => h,
        Err(e) => return service_error(web, ask, e),
    };
    let stored = match web.shared().events.is_some() {
        true => stored(view, &ask.path).await,
        false => Vec::new(),
    };
    let sent = Arc::new(AtomicU64::new(0));
    let done = Sent {
        web: web.clone(),
        ev: web.event(Kind::Download, Some(view.user_bytes()), ask),
        path: ask.path.to_bytes(),
        stored,
        want: len,
        sent: sent.clone(),
        started: Instant::now(),
        user: view.user_bytes(),
        anonymous: view.user.is_none(),
        door: door(web, ask),
        _slot: slot,
    };
    // Under a bandwidth limit, chunks as small as its turns.
    let chunk = throttle.as_ref().map_or(READ_CHUNK, |t| t.chunk().min(READ_CHUNK));
    let chunks = match handle {
        ReadHandle::File(f) => reader_stream(Box::new(f), len, chunk),
        ReadHandle::Reader(rd) => reader_stream(rd, len, chunk),
    };
    let body = chunks.then(move |chunk| {
        let (throttle, sent) = (throttle.clone(), sent.clone());
        // The closure owns `done`: dropped with the body, it reports.
        let _ = &done;
        async move {
            if let Ok(b) = &chunk {
                sent.fetch_add(b.len() as u64, Ordering::Relaxed);
                if let Some(t) = &throttle {
                    t.pace(b.len() as u64).await;
                }
            }
            chunk
        }
    });
    r.body(Body::from_stream(body))
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

/// A file (or an object store's reader) as a stream of `len` octets in
/// chunks, each read on the blocking pool straight into the buffer the
/// body sends (no second copy, no thread held between chunks: a slow
/// client holds none).
fn reader_stream(
    rd: Box<dyn io::Read + Send>,
    len: u64,
    chunk: usize,
) -> impl futures::Stream<Item = io::Result<Bytes>> + Send {
    futures::stream::unfold(Some((rd, len)), move |state| async move {
        let (mut rd, left) = state?;
        if left == 0 {
            return None;
        }
        let want = usize::try_from(left.min(chunk as u64)).unwrap_or(chunk);
        let r = tokio::task::spawn_blocking(move || {
            let mut buf = Vec::with_capacity(want);
            // Fill the chunk: a file gives it in one read, a stream in several.
            io::Read::read_to_end(&mut io::Read::take(&mut rd, want as u64), &mut buf)?;
            Ok::<_, io::Error>((rd, buf))
        })
        .await
        .unwrap_or_else(|e| Err(io::Error::other(e)));
        match r {
            Ok((_, buf)) if buf.is_empty() => Some((Err(io::ErrorKind::UnexpectedEof.into()), None)),
            Ok((rd, buf)) => {
                let n = buf.len() as u64;
                Some((Ok(Bytes::from(buf)), Some((rd, left - n))))
            }
            Err(e) => Some((Err(e), None)),
        }
    })
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
    Err(web.error(ask.lang, StatusCode::BAD_REQUEST, "web-reserved-name", &[]))
}

/// The last component of an uploaded file's name (browsers on Windows
/// once sent whole paths).
fn base_name(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|&b| b == b'/' || b == b'\\') {
        Some(i) => &name[i + 1..],
        None => name,
    }
}

/// Why an upload stopped.
enum Stop {
    /// A storage or quota answer (its page).
    Io(io::Error),
    /// A refusal page already made.
    Page(Response),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        Stop::Io(e)
    }
}

/// Stores one file of `name` in the directory `dir` from `chunks`: as
/// STOR does, beside the old file and renamed over it at the end (a file
/// of an account without `overwrite` must not exist), metered by the
/// quota and kept to the bandwidth limits. The octets stored.
async fn store<S, E>(web: &St, ask: &Ask, view: &View, dir: &VPath, name: &[u8], chunks: S) -> Result<u64, Stop>
where
    S: futures::Stream<Item = Result<Bytes, E>> + Unpin,
    E: std::fmt::Display,
{
    if !valid_name(name) {
        return Err(Stop::Io(io::ErrorKind::InvalidFilename.into()));
    }
    if let Err(r) = not_reserved(web, ask, name) {
        return Err(Stop::Page(r));
    }
    let path = dir.join(name);
    any_right(web, ask, view, &path, &[Perm::Upload, Perm::Overwrite]).map_err(Stop::Page)?;
    let (st, p) = (view.tree.clone(), path.clone());
    blocking(move || match st.stat(&p) {
        Ok(e) if e.kind == EntryKind::Dir => Err(io::ErrorKind::IsADirectory.into()),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e.into()),
    })
    .await?;
    let mode = if view.rules.at(path.components()).has(Perm::Overwrite) {
        WriteMode::Replace
    } else {
        WriteMode::New
    };
    let slot = slot(web, view)?;
    let throttle = crate::throttle::Throttle::for_transfer(true, slot.as_ref(), &web.shared().bandwidth);
    // The upload as every door runs it: rights, quota meter, buffer
    // budget, commit and settle (babelftp_core::transfer::Upload).
    let mut upload = ctx(web, view).begin_upload(&path, mode).await.map_err(|e| match e {
        e @ (ServiceError::Denied { .. } | ServiceError::DeniedInside { .. }) => Stop::Page(service_error(web, ask, e)),
        e => Stop::Io(io::Error::new(e.kind(), e.to_string())),
    })?;
    let started = Instant::now();
    let progress = AtomicU64::new(0);
    // A body that moves no octet for stall_timeout is given up, as a
    // stalled FTP data connection is.
    let stall = web.shared().cfg.stall_timeout;
    let body = StreamReader::new(
        chunks.map(|c| c.map_err(|e| io::Error::new(io::ErrorKind::ConnectionAborted, e.to_string()))),
    );
    let received = match throttle {
        Some(t) => {
            let mut body = t.wrap(body);
            watch(&progress, stall, upload.receive(&mut body, false, &progress)).await
        }
        None => {
            let mut body = body;
            watch(&progress, stall, upload.receive(&mut body, false, &progress)).await
        }
    };
    let outcome: io::Result<()> = match received {
        Ok((_, tail)) => upload.commit(tail).await.map_err(io::Error::from),
        // Nothing of a refused or cut upload is kept.
        Err(Cut::Failed(Fail::Quota)) => {
            upload.discard().await;
            Err(io::ErrorKind::QuotaExceeded.into())
        }
        Err(cut) => {
            upload.abandon().await;
            Err(match cut {
                Cut::Stalled => io::Error::new(io::ErrorKind::TimedOut, "the upload stopped arriving"),
                Cut::Failed(Fail::Net(e)) => e,
                Cut::Failed(Fail::Storage(e)) => e.into(),
                Cut::Failed(Fail::Quota) => io::ErrorKind::QuotaExceeded.into(),
            })
        }
    };
    let total = progress.load(Ordering::Relaxed);
    let complete = outcome.is_ok();
    let elapsed = started.elapsed();
    let rec = TransferRecord {
        path: path.to_bytes(),
        incoming: true,
        ascii: false,
        bytes: total,
        seconds: elapsed.as_secs(),
        millis: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
        complete,
        code: Some(if complete { 201 } else { 500 }),
        user: view.user_bytes(),
        anonymous: view.user.is_none(),
    };
    // Metrics, log line, xferlog: as every door records a transfer.
    web.shared().record_transfer(door(web, ask), &rec);
    if web.shared().events.is_some() {
        let stored = stored(view, &path).await;
        // The upload's event, as every door's: path, bytes, time,
        // outcome and code from the same record, and the size it left.
        if let Some(mut ev) = web.event(Kind::Upload, Some(view.user_bytes()), ask) {
            ev.path = Some(stored);
            ev.bytes = Some(rec.bytes);
            ev.duration_ms = Some(rec.millis);
            ev.outcome = Some(if rec.complete { "complete" } else { "cut_short" });
            ev.code = rec.code;
            ev.size = complete.then_some(total);
            web.emit(Some(ev));
        }
    }
    outcome?;
    Ok(total)
}

/// POST `dir/?upload`: a form's files (multipart/form-data; the `csrf`
/// field first), or, from the page's script, `POST dir/NAME?upload` with
/// the file as the body and the token in `X-CSRF-Token`.
pub(crate) async fn upload(web: &St, ask: &Ask, view: &Arc<View>, body: Body) -> Response {
    let ctype = ask
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !ctype.starts_with("multipart/form-data") {
        // One file, named by the path.
        let token = ask
            .headers
            .get("x-csrf-token")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let expected = view.expected_token(ask);
        if expected.is_empty() || !super::session::same_token(token, expected) {
            return web.error(ask.lang, StatusCode::FORBIDDEN, "web-csrf", &[]);
        }
        let (dir, name) = (ask.path.parent(), ask.path.file_name().unwrap_or_default().to_vec());
        return match store(web, ask, view, &dir, &name, body.into_data_stream()).await {
            Ok(_) => StatusCode::CREATED.into_response(),
            Err(Stop::Io(e)) => storage_error(web, ask, &e),
            Err(Stop::Page(r)) => r,
        };
    }
    let Ok(boundary) = multer::parse_boundary(ctype) else {
        return web.error(ask.lang, StatusCode::BAD_REQUEST, "web-bad-form", &[]);
    };
    // The token is read whole: it may not be large (a file streams, and
    // anything else is skipped as it comes).
    let limits = multer::Constraints::new().size_limit(multer::SizeLimit::new().for_field("csrf", 1024));
    let mut mp = multer::Multipart::with_constraints(body.into_data_stream(), boundary, limits);
    let mut csrf = false;
    let mut stored = 0;
    let stall = web.shared().cfg.stall_timeout;
    loop {
        let field = match tokio::time::timeout(stall, mp.next_field()).await {
            Ok(Ok(Some(f))) => f,
            Ok(Ok(None)) => break,
            Ok(Err(_)) => return web.error(ask.lang, StatusCode::BAD_REQUEST, "web-bad-form", &[]),
            Err(_) => return web.error(ask.lang, StatusCode::REQUEST_TIMEOUT, "web-stalled", &[]),
        };
        match field.name() {
            Some("csrf") => {
                let got = match tokio::time::timeout(stall, field.text()).await {
                    Ok(Ok(got)) => got,
                    Ok(Err(_)) => return web.error(ask.lang, StatusCode::BAD_REQUEST, "web-bad-form", &[]),
                    Err(_) => return web.error(ask.lang, StatusCode::REQUEST_TIMEOUT, "web-stalled", &[]),
                };
                let expected = view.expected_token(ask);
                csrf = !expected.is_empty() && super::session::same_token(&got, expected);
            }
            Some("file") => {
                if !csrf {
                    return web.error(ask.lang, StatusCode::FORBIDDEN, "web-csrf", &[]);
                }
                let Some(name) = field.file_name().map(|n| base_name(n.as_bytes()).to_vec()) else {
                    continue;
                };
                // An empty file input sends a part without a name.
                if name.is_empty() {
                    continue;
                }
                match store(web, ask, view, &ask.path, &name, field).await {
                    Ok(_) => stored += 1,
                    Err(Stop::Io(e)) => return storage_error(web, ask, &e),
                    Err(Stop::Page(r)) => return r,
                }
            }
            _ => {}
        }
    }
    if !csrf {
        return web.error(ask.lang, StatusCode::FORBIDDEN, "web-csrf", &[]);
    }
    tracing::debug!(peer = %ask.peer, files = stored, "web upload form done");
    see_other(&href(&ask.path, true))
}

/// A form's fields after its CSRF check; else the page to answer.
async fn checked_form(web: &St, ask: &Ask, view: &View, body: Body) -> Result<Vec<(Vec<u8>, Vec<u8>)>, Response> {
    let f = read_form(web, ask, body).await?;
    if !csrf_ok(&f, view.expected_token(ask)) {
        return Err(web.error(ask.lang, StatusCode::FORBIDDEN, "web-csrf", &[]));
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

/// POST `dir/?mkdir` with `name`.
pub(crate) async fn mkdir(web: &St, ask: &Ask, view: &Arc<View>, body: Body) -> Response {
    let f = match checked_form(web, ask, view, body).await {
        Ok(f) => f,
        Err(r) => return r,
    };
    let name = field(&f, "name").unwrap_or_default().to_vec();
    if !valid_name(&name) {
        return web.error(ask.lang, StatusCode::BAD_REQUEST, "web-bad-name", &[]);
    }
    if let Err(r) = not_reserved(web, ask, &name) {
        return r;
    }
    let path = ask.path.join(&name);
    let names = stored_names(web, view, &path, None).await;
    // A folder takes one of the files a quota allows, as MKD's does.
    match ctx(web, view).mkdir(&path).await {
        Ok(()) => {
            changed(web, ask, view, Kind::Mkdir, &path, names);
            see_other(&href(&ask.path, true))
        }
        Err(ServiceError::QuotaExceeded) => web.error(ask.lang, StatusCode::INSUFFICIENT_STORAGE, "quota-entries", &[]),
        Err(e) => service_error(web, ask, e),
    }
}

/// POST `path?rename` with `to`, a new name in the same directory.
pub(crate) async fn rename(web: &St, ask: &Ask, view: &Arc<View>, body: Body) -> Response {
    let f = match checked_form(web, ask, view, body).await {
        Ok(f) => f,
        Err(r) => return r,
    };
    let to_name = field(&f, "to").unwrap_or_default().to_vec();
    if !valid_name(&to_name) || ask.path.is_root() {
        return web.error(ask.lang, StatusCode::BAD_REQUEST, "web-bad-name", &[]);
    }
    if let Err(r) = not_reserved(web, ask, &to_name) {
        return r;
    }
    let dir = ask.path.parent();
    let to = dir.join(&to_name);
    // The web view never replaces silently: over an existing name it
    // refuses (409).
    let names = stored_names(web, view, &ask.path, Some(&to)).await;
    match ctx(web, view).rename(&ask.path, &to, false).await {
        Ok(()) => {
            changed(web, ask, view, Kind::Rename, &ask.path, names);
            see_other(&href(&dir, true))
        }
        Err(e) => service_error(web, ask, e),
    }
}

/// POST `path?delete`: a file, or an empty folder.
pub(crate) async fn delete(web: &St, ask: &Ask, view: &Arc<View>, body: Body) -> Response {
    if let Err(r) = checked_form(web, ask, view, body).await {
        return r;
    }
    if ask.path.is_root() {
        return web.error(ask.lang, StatusCode::BAD_REQUEST, "web-bad-name", &[]);
    }
    if let Err(r) = any_right(web, ask, view, &ask.path, &[Perm::Delete, Perm::Rmdir]) {
        return r;
    }
    let (st, p) = (view.tree.clone(), ask.path.clone());
    let is_dir = blocking(move || Ok(st.is_dir(&p))).await.unwrap_or(false);
    let names = stored_names(web, view, &ask.path, None).await;
    let user = ctx(web, view);
    let r = if is_dir {
        user.rmdir(&ask.path).await
    } else {
        user.remove(&ask.path).await
    };
    match r {
        Ok(()) => {
            let kind = if is_dir { Kind::Rmdir } else { Kind::Delete };
            changed(web, ask, view, kind, &ask.path, names);
            see_other(&href(&ask.path.parent(), true))
        }
        Err(e) => service_error(web, ask, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_as_rfc_9110_reads_them() {
        assert_eq!(range(None, 100), Ok(None));
        assert_eq!(range(Some("bytes=0-9"), 100), Ok(Some((0, 10))));
        assert_eq!(range(Some("bytes=90-"), 100), Ok(Some((90, 10))));
        assert_eq!(range(Some("bytes=-5"), 100), Ok(Some((95, 5))));
        assert_eq!(range(Some("bytes=-500"), 100), Ok(Some((0, 100))));
        assert_eq!(range(Some("bytes=50-5000"), 100), Ok(Some((50, 50))));
        assert_eq!(range(Some("bytes=100-"), 100), Err(()));
        assert_eq!(range(Some("bytes=-0"), 100), Err(()));
        assert_eq!(range(Some("bytes=0-1,5-6"), 100), Ok(None), "several: the whole file");
        assert_eq!(range(Some("bytes=x-"), 100), Ok(None));
        assert_eq!(range(Some("items=0-1"), 100), Ok(None));
        assert_eq!(range(Some("bytes=5-2"), 100), Ok(None));
    }

    #[test]
    fn dispositions_carry_the_name_twice() {
        assert_eq!(
            disposition("報告 1.txt".as_bytes()),
            "attachment; filename=\"______ 1.txt\"; filename*=UTF-8''%E5%A0%B1%E5%91%8A%201.txt"
                .replace("______", "__")
        );
        let d = disposition(b"a\"b\\c.txt");
        assert!(d.starts_with("attachment; filename=\"a_b_c.txt\""), "{d}");
        // Not UTF-8: as shown, `%E9` (the `%` itself escaped in filename*).
        assert!(disposition(b"\xE9.txt").ends_with("filename*=UTF-8''%25E9.txt"));
    }

    #[test]
    fn names_from_forms() {
        assert!(valid_name(b"a b.txt"));
        assert!(!valid_name(b".."));
        assert!(!valid_name(b"a/b"));
        assert!(!valid_name(b""));
        assert_eq!(base_name(b"C:\\Users\\x\\f.txt"), b"f.txt");
        assert_eq!(base_name("دليل.txt".as_bytes()), "دليل.txt".as_bytes());
    }
}
