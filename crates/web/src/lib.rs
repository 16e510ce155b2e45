//! # babelftp-web — the web view
//!
//! The same tree as FTP, another door, over `babelftp-core` (never over
//! the FTP door). A
//! directory is an HTML page, a file a download; a logged-in user may
//! upload, make folders, rename and delete where its permissions allow.
//!
//! ```text
//!  http_listen ─ Guarded (bans, limits) ─ (TLS) ─ axum ─ handle ─┬─ GET dir/        page::listing   (paginated, sortable)
//!                                                                ├─ GET file        files::download (Range, ETag, attachment)
//!                                                                ├─ GET ?asset=…    the page's CSS and JavaScript
//!                                                                ├─ POST ?login / ?logout / ?lang   session
//!                                                                ├─ GET file?preview / ?inline   files::preview (issue 49)
//!                                                                ├─ POST dir/?zip   files::zip  (several entries, streamed)
//!                                                                └─ POST ?upload / ?mkdir / ?rename / ?delete   files
//! ```
//!
//! **URLs are FTP paths.** The HTTP path of a file is its path in the
//! user's FTP view: `ftp://host/名前/a b.txt` is `/名前/a%20b.txt`. A path
//! is split on `/` first, then each segment is percent-decoded to octets,
//! so `%2F` can never make a separator and `%2e%2e` is a name `..` that
//! the virtual path resolves lexically (never above `/`); octets that are
//! not UTF-8 (a legacy name the charset layer could not translate) stay
//! octets, and their link is their `%HH`, which round-trips. Actions are
//! query parameters (`?upload`), so no file name is ever shadowed by a
//! route.
//!
//! **Who.** Without a session cookie a visitor is anonymous when the
//! server allows anonymous FTP (with the same read-only or writable
//! rules), else sees the login form. A login checks the password exactly
//! as FTP does ([`babelftp_core::Services::check_login`]): users file,
//! LDAP, auth hook or the accounts store, and a failure scores with the
//! defender. Each request of a user takes a place among its sessions
//! (`max_sessions`) and shares its bandwidth limits, only while it runs.
//!
//! **Safety.** Every page is built by [`page`], which escapes every name
//! and shows undisplayable characters as `%HH`; the Content-Security-Policy
//! forbids inline script and style; files are always downloads
//! (`Content-Disposition: attachment`, `application/octet-stream`,
//! `nosniff`, and a `sandbox` CSP), so stored HTML never renders; forms
//! carry a CSRF token (double-submit cookie, or the session's token);
//! cookies are HttpOnly, SameSite=Lax, and Secure under TLS.

// A refused request's answer is the `Response` axum sends: handlers
// return `Result<_, Response>` and boxing it would only add an allocation.
#![allow(clippy::result_large_err)]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use babelftp_session::VPath;
use tokio::net::TcpListener;

use babelftp_core::http::Peer;
use babelftp_core::Services as Shared;
// The services, by the names this door has always used.
use babelftp_core::{events, http, limits, linkrules, live, quota, storage, throttle};

mod files;
mod links;
mod page;
mod session;
mod share;
pub(crate) use links::{decode_path, encode_segment, href, iri_segment};

/// What the handlers share.
pub(crate) struct Web {
    shared: Arc<Shared>,
    sessions: session::Sessions,
    /// Whether this door speaks HTTPS (cookies are then `Secure`).
    tls: bool,
    /// The FTP port, for the `ftp://` links.
    ftp_port: Option<u16>,
    /// Numbers of the web's requests, for events (`<run>-w<n>`).
    ids: AtomicU64,
}

type St = Arc<Web>;

/// Serves the web view on `listener` until the task is dropped.
/// `ftp_port`: the FTP listener's, for the `ftp://` links.
pub async fn serve(listener: TcpListener, shared: Arc<Shared>, ftp_port: Option<u16>) {
    let tls = shared.tls.as_ref().map(|t| t.https_h2());
    let guarded = crate::http::Guarded::new(listener, shared.clone());
    let web = Arc::new(Web {
        sessions: session::Sessions::default(),
        tls: tls.is_some(),
        ftp_port,
        ids: AtomicU64::new(0),
        shared,
    });
    // The admin API's list of sessions asks this door to drop its ended
    // ones first; those past their time go every SWEEP anyway.
    let door: std::sync::Weak<dyn crate::live::Prune> = Arc::downgrade(&web) as _;
    web.shared.live.add_pruner(door);
    let sweeper = {
        let web = web.clone();
        async move {
            let mut tick = tokio::time::interval(session::SWEEP);
            loop {
                tick.tick().await;
                web.sessions.expire();
            }
        }
    };
    let app = axum::Router::new().fallback(handle).with_state(web);
    tokio::select! {
        () = crate::http::serve(guarded, tls, app, "web view") => {}
        () = sweeper => {}
    }
}

/// A request, as every handler gets it.
pub(crate) struct Ask {
    pub(crate) method: Method,
    /// The decoded path, and whether it ended with `/`.
    pub(crate) path: VPath,
    pub(crate) slash: bool,
    pub(crate) query: Vec<(String, String)>,
    pub(crate) headers: HeaderMap,
    pub(crate) peer: SocketAddr,
    /// Whether the visitor chose `lang` (cookie or Accept-Language).
    pub(crate) lang_chosen: bool,
    /// The page's language (cookie, then Accept-Language, then the
    /// virtual host's).
    pub(crate) lang: babelftp_i18n::lang::Lang,
    /// The address the request was sent to (`host[:port]`): HTTP/2's
    /// `:authority` (hyper puts it in the URI), else HTTP/1.1's `Host`.
    /// Checked: visible ASCII, not empty.
    pub(crate) authority: Option<String>,
    /// The virtual host (`[[host]]`) the authority names, as FTP's HOST
    /// would select it: its index.
    pub(crate) host: Option<usize>,
    /// When the request's header arrived (a failed login is answered
    /// `login_fail_delay` after it, however long the check took).
    pub(crate) arrived: tokio::time::Instant,
    /// The double-submit CSRF token the visitor's `bftp_csrf` cookie
    /// holds, if it sent one.
    pub(crate) kept_csrf: Option<String>,
    /// A new token, made when a page needs one and the visitor has none
    /// (it goes out as a cookie with the answer).
    new_csrf: std::sync::OnceLock<String>,
    /// Issue 49: the share link the request came through (its pages'
    /// links stay under it).
    pub(crate) share: Option<share::ShareAt>,
}

impl Ask {
    /// The value of query parameter `key`.
    pub(crate) fn param(&self, key: &str) -> Option<&str> {
        self.query.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    fn has(&self, key: &str) -> bool {
        self.query.iter().any(|(k, _)| k == key)
    }

    pub(crate) fn cookie(&self, name: &str) -> Option<&str> {
        cookie(&self.headers, name)
    }

    /// The token a page's forms carry for a visitor without a session:
    /// its cookie's, else one made now (empty when the system has no
    /// randomness: its forms are then refused).
    pub(crate) fn csrf(&self) -> &str {
        match &self.kept_csrf {
            Some(t) => t,
            None => self.new_csrf.get_or_init(|| session::token().unwrap_or_default()),
        }
    }
}

/// The value of cookie `name` in `headers`.
fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// Every request comes here, its log lines tagged `web{peer=ADDR
/// user=NAME}` as an FTP session's are (the user once known).
async fn handle(State(web): State<St>, ConnectInfo(Peer(peer)): ConnectInfo<Peer>, req: Request) -> Response {
    babelftp_core::logctx::request("web", peer, handle_tagged(web, peer, req)).await
}

/// Why the web view refused a request: the catalog id of its error page.
#[derive(Clone, Copy)]
struct Refusal(&'static str);

/// The reason a refused form is logged with (English, for the log).
fn refusal_reason(id: &str) -> &'static str {
    match id {
        "web-csrf" => "CSRF check failed (no token, a wrong one, or another site's form)",
        "web-denied" => "permission refused",
        "web-quota" | "quota-entries" => "quota exceeded",
        "web-full" => "storage full",
        "web-bad-name" => "bad name",
        "web-reserved-name" => "reserved name (temporary-upload pattern)",
        "web-bad-form" => "bad form",
        "web-bad-action" => "unknown action",
        "web-bad-method" => "method not allowed",
        "web-bad-path" => "bad path",
        "web-exists" => "name already exists",
        "web-not-empty" => "folder not empty",
        "web-not-found" => "not found",
        "web-busy" => "busy",
        "web-stalled" => "client stalled",
        "web-unavailable" => "accounts or storage unavailable",
        "web-unsupported" => "not supported by the storage",
        "web-share-gone" => "share link ended (expired, used up, removed, or its owner disabled)",
        "web-share-network" => "outside the share link's networks",
        "web-share-unavailable" => "share links need an account of the accounts store",
        _ => "refused",
    }
}

/// The path is decoded, the visitor found, then the action chosen by
/// method and query.
async fn handle_tagged(web: St, peer: SocketAddr, req: Request) -> Response {
    let arrived = tokio::time::Instant::now();
    let (parts, body) = req.into_parts();
    let authority = authority(&parts.uri, &parts.headers);
    let host = virtual_host(&web, authority.as_deref());
    let (lang, lang_chosen) = language(&web, &parts.headers, host);
    let Some((path, slash)) = decode_path(parts.uri.path()) else {
        return web.error(lang, StatusCode::BAD_REQUEST, "web-bad-path", &[]);
    };
    let query = parts
        .uri
        .query()
        .map(|q| form_urlencoded::parse(q.as_bytes()).into_owned().collect())
        .unwrap_or_default();
    let kept_csrf = cookie(&parts.headers, "bftp_csrf")
        .filter(|c| c.len() == 64 && c.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_owned);
    let mut ask = Ask {
        method: parts.method,
        path,
        slash,
        query,
        headers: parts.headers,
        peer,
        lang,
        lang_chosen,
        authority,
        host,
        arrived,
        kept_csrf,
        new_csrf: std::sync::OnceLock::new(),
        share: None,
    };
    let mut r = route(&web, &mut ask, body).await;
    if ask.method == Method::POST && (r.status().is_client_error() || r.status().is_server_error()) {
        // A refused form, with why (a refused login has its own line).
        let reason = match r.extensions().get::<Refusal>() {
            Some(Refusal(id)) => refusal_reason(id),
            None if r.status() == StatusCode::UNAUTHORIZED => "not logged in, or a wrong password",
            None => "refused",
        };
        let action = [
            "upload", "mkdir", "rename", "delete", "zip", "share", "logout", "login", "lang",
        ]
        .into_iter()
        .find(|a| ask.has(a))
        .unwrap_or("-");
        tracing::info!(
            status = r.status().as_u16(),
            action,
            path = %babelftp_proto::display::PlainPath(&ask.path.to_bytes()),
            reason,
            "web: form refused"
        );
    }
    if let Some(t) = ask.new_csrf.get().filter(|t| !t.is_empty()) {
        r.headers_mut()
            .append(header::SET_COOKIE, web.cookie("bftp_csrf", t, None));
    }
    secure_headers(r.headers_mut());
    web.shared.metrics.web_request(r.status().as_u16());
    r
}

/// The address a request was sent to: the URI's authority (HTTP/2's
/// `:authority`, or an absolute-form HTTP/1.1 target), else the `Host`
/// header (RFC 9110 7.2, RFC 9113 8.3.1). `None` when neither is there or
/// it is not visible ASCII.
fn authority(uri: &axum::http::Uri, headers: &HeaderMap) -> Option<String> {
    let a = match uri.authority() {
        Some(a) => a.as_str(),
        None => headers.get(header::HOST)?.to_str().ok()?,
    };
    // No user information: only `host[:port]` names where it was sent.
    let a = a.rsplit_once('@').map_or(a, |(_, h)| h);
    (!a.is_empty() && a.bytes().all(|b| b.is_ascii_graphic())).then(|| a.to_owned())
}

async fn route(web: &St, ask: &mut Ask, body: Body) -> Response {
    if let Some(name) = ask.param("asset") {
        return page::asset(name);
    }
    if let Some(token) = share::token_of(&ask.path) {
        return share::serve(web, ask, token, body).await;
    }
    let post = ask.method == Method::POST;
    let read = matches!(ask.method, Method::GET | Method::HEAD);
    if !post && !read {
        return web.refuse(ask, StatusCode::METHOD_NOT_ALLOWED, "web-bad-method", &[]);
    }
    if post {
        // A form of another site is refused before anything is read.
        if !same_origin(&ask.headers, ask.authority.as_deref()) {
            return web.refuse(ask, StatusCode::FORBIDDEN, "web-csrf", &[]);
        }
        if ask.has("login") {
            return session::login(web, ask, body).await;
        }
        if ask.has("lang") {
            return session::set_language(web, ask, body).await;
        }
    }
    if read && ask.has("login") {
        return page::login(web, ask, StatusCode::OK, None);
    }
    let view = match web.view(ask).await {
        Ok(Some(v)) => {
            babelftp_core::logctx::set_user(Some(v.user.as_deref().unwrap_or("anonymous")));
            v
        }
        Ok(None) => return page::login(web, ask, StatusCode::UNAUTHORIZED, None),
        Err(r) => return r,
    };
    // The account's language, when the visitor chose none.
    if let (false, Some(l)) = (ask.lang_chosen, view.lang) {
        ask.lang = l;
    }
    let ask = &*ask;
    if post {
        return match () {
            () if ask.has("logout") => session::logout(web, ask, &view, body).await,
            () if ask.has("upload") => files::upload(web, ask, &view, body).await,
            () if ask.has("mkdir") => files::mkdir(web, ask, &view, body).await,
            () if ask.has("rename") => files::rename(web, ask, &view, body).await,
            () if ask.has("delete") => files::delete(web, ask, &view, body).await,
            () if ask.has("zip") => files::zip(web, ask, &view, body).await,
            () if ask.has("share") => share::create(web, ask, &view, body).await,
            () => web.refuse(ask, StatusCode::BAD_REQUEST, "web-bad-action", &[]),
        };
    }
    files::get(web, ask, &view).await
}

impl Web {
    /// The number of a new request (its events' session id).
    pub(crate) fn next_id(&self) -> u64 {
        self.ids.fetch_add(1, Ordering::Relaxed) + 1
    }

    pub(crate) fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// The catalog text `id` in `lang`.
    pub(crate) fn text(&self, lang: babelftp_i18n::lang::Lang, id: &str, args: &[(&str, &str)]) -> String {
        let args: Vec<(&str, babelftp_i18n::lang::Arg<'_>)> = args
            .iter()
            .map(|(k, v)| (*k, babelftp_i18n::lang::Arg::Str(v)))
            .collect();
        self.shared.session.catalogs.text(lang, id, &args)
    }

    /// An error page: `status`, and the catalog's text `id`.
    pub(crate) fn error(
        &self,
        lang: babelftp_i18n::lang::Lang,
        status: StatusCode,
        id: &'static str,
        args: &[(&str, &str)],
    ) -> Response {
        let mut r = page::error(self, lang, None, status, &self.text(lang, id, args));
        r.extensions_mut().insert(Refusal(id));
        r
    }

    /// An error page for the request `ask`: its header and the way back.
    pub(crate) fn refuse(&self, ask: &Ask, status: StatusCode, id: &'static str, args: &[(&str, &str)]) -> Response {
        let text = self.text(ask.lang, id, args);
        let mut r = page::error(self, ask.lang, Some(ask), status, &text);
        r.extensions_mut().insert(Refusal(id));
        r
    }
}

/// The page's language: the `lang` cookie (the menu), else the first of
/// Accept-Language's that the catalogs have (by weight), else the
/// server's default; and whether the visitor chose it (cookie or header),
/// or the account's language may take its place once it is known.
fn language(web: &Web, headers: &HeaderMap, host: Option<usize>) -> (babelftp_i18n::lang::Lang, bool) {
    use babelftp_i18n::lang::Negotiated;
    let catalogs = &web.shared.session.catalogs;
    let pick = |tag: &str| match babelftp_proto::lang::LangTag::parse(tag.trim().as_bytes()) {
        Ok(t) => match catalogs.negotiate(&t) {
            Negotiated::Lang(l) => Some(l),
            Negotiated::Unsupported => None,
        },
        Err(_) => None,
    };
    if let Some(l) = cookie(headers, "bftp_lang").and_then(pick) {
        return (l, true);
    }
    let mut wanted: Vec<(f32, &str)> = headers
        .get_all(header::ACCEPT_LANGUAGE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .take(32)
        .filter_map(|item| {
            let mut it = item.split(';');
            let tag = it.next()?.trim();
            let q = it
                .find_map(|p| p.trim().strip_prefix("q="))
                .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())?;
            (q > 0.0 && tag != "*" && !tag.is_empty()).then_some((q, tag))
        })
        .collect();
    // By weight; among equal weights, in the order given.
    wanted.sort_by(|a, b| b.0.total_cmp(&a.0));
    if let Some(l) = wanted.iter().find_map(|(_, t)| pick(t)) {
        return (l, true);
    }
    let l = host
        .and_then(|i| web.shared.session.hosts.get(i))
        .map_or_else(|| catalogs.default_lang(), |h| h.lang);
    (l, false)
}

/// The virtual host (`[[host]]`) the request's authority names (without
/// its port, ASCII case ignored), as FTP's HOST command selects one.
fn virtual_host(web: &Web, authority: Option<&str>) -> Option<usize> {
    let h = authority?;
    let name = match h.rfind(':') {
        Some(i) if !h[i..].contains(']') => &h[..i],
        _ => h,
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    web.shared
        .session
        .hosts
        .iter()
        .position(|x| x.name.eq_ignore_ascii_case(name))
}

impl Web {
    /// The root of the request's virtual host, else the server's.
    pub(crate) fn base(&self, host: Option<usize>) -> Arc<dyn crate::storage::Storage> {
        host.and_then(|i| self.shared.hosts.get(i))
            .cloned()
            .unwrap_or_else(|| self.shared.root.clone())
    }
}

/// Whether a POST comes from this site: its Origin (or, without one, its
/// Referer) names the authority it was sent to (`Host` in HTTP/1.1,
/// `:authority` in HTTP/2, which has no `Host`). Browsers send Origin with
/// every POST; a client that sends neither (curl) is let through to the
/// CSRF token check.
fn same_origin(headers: &HeaderMap, authority: Option<&str>) -> bool {
    let host = authority;
    let from = headers
        .get(header::ORIGIN)
        .or_else(|| headers.get(header::REFERER))
        .and_then(|v| v.to_str().ok());
    match (from, host) {
        (None, _) => true,
        (Some("null"), _) => false,
        (Some(from), Some(host)) => {
            let rest = from.split_once("://").map_or(from, |(_, r)| r);
            rest.split('/').next().is_some_and(|a| a.eq_ignore_ascii_case(host))
        }
        (Some(_), None) => false,
    }
}

/// The headers every answer carries.
fn secure_headers(h: &mut HeaderMap) {
    let set = |h: &mut HeaderMap, k: header::HeaderName, v: &'static str| {
        if !h.contains_key(&k) {
            h.insert(k, HeaderValue::from_static(v));
        }
    };
    set(
        h,
        header::CONTENT_SECURITY_POLICY,
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    set(h, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(h, header::REFERRER_POLICY, "same-origin");
    set(h, header::X_FRAME_OPTIONS, "DENY");
}

/// A redirect (303: a POST's answer is then a GET) to `location`.
pub(crate) fn see_other(location: &str) -> Response {
    let mut r = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(location) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    r
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn comps(raw: &str) -> Vec<Vec<u8>> {
        decode_path(raw).unwrap().0.components().to_vec()
    }

    #[test]
    fn paths_are_split_then_decoded_and_never_leave_the_root() {
        assert_eq!(
            comps("/%E5%90%8D%E5%89%8D/a%20b.txt"),
            vec!["名前".as_bytes().to_vec(), b"a b.txt".to_vec()]
        );
        assert_eq!(
            comps("/a/../../../etc/passwd"),
            vec![b"etc".to_vec(), b"passwd".to_vec()]
        );
        assert_eq!(comps("/%2e%2e/%2E%2E/x"), vec![b"x".to_vec()]);
        // Overlong `.` is two octets of a name, not a dot.
        assert_eq!(
            comps("/%C0%AE%C0%AE/x"),
            vec![b"\xC0\xAE\xC0\xAE".to_vec(), b"x".to_vec()]
        );
        assert!(decode_path("/a%2Fb").is_none(), "%2F never makes a separator");
        assert!(decode_path("/a%00b").is_none());
        assert!(decode_path("/d/").unwrap().1);
        assert!(!decode_path("/d").unwrap().1);
        // Octets that are not UTF-8 stay octets.
        assert_eq!(comps("/%E9t%E9.txt"), vec![b"\xE9t\xE9.txt".to_vec()]);
    }

    #[test]
    fn links_round_trip_every_octet() {
        let p = VPath::root().join("名前".as_bytes()).join(b"a b\xE9%?#.txt");
        let h = href(&p, false);
        assert_eq!(h, "/%E5%90%8D%E5%89%8D/a%20b%E9%25%3F%23.txt");
        // In a page: readable, and what the browser sends back is the same.
        let mut i = String::new();
        iri_segment("名前 a&b%?#:\\\u{202E}é.txt".as_bytes(), &mut i);
        assert_eq!(i, "名前%20a%26b%25%3F%23%3A%5C%E2%80%AEé.txt");
        let mut bad = String::new();
        iri_segment(b"\xE9t\xE9\x01.txt", &mut bad);
        assert_eq!(bad, "%E9t%E9%01.txt");
        assert_eq!(decode_path(&h).unwrap().0, p);
        assert_eq!(href(&VPath::root(), true), "/");
    }

    #[test]
    fn posts_from_another_site_are_told_apart() {
        let mut h = HeaderMap::new();
        let host = Some("files.example:8080");
        assert!(same_origin(&h, host), "no Origin: the token decides");
        h.insert(header::ORIGIN, HeaderValue::from_static("https://files.example:8080"));
        assert!(same_origin(&h, host));
        assert!(!same_origin(&h, None), "an Origin and nowhere it was sent");
        h.insert(header::ORIGIN, HeaderValue::from_static("https://evil.example"));
        assert!(!same_origin(&h, host));
        h.insert(header::ORIGIN, HeaderValue::from_static("null"));
        assert!(!same_origin(&h, host));
    }

    /// HTTP/2 has no Host: its `:authority` is the URI's (issue 45).
    #[test]
    fn the_authority_is_the_uris_else_the_host_header() {
        let mut h = HeaderMap::new();
        let h2: axum::http::Uri = "https://files.example:8443/a/b?x".parse().unwrap();
        assert_eq!(authority(&h2, &h).as_deref(), Some("files.example:8443"));
        let h1: axum::http::Uri = "/a/b?x".parse().unwrap();
        assert_eq!(authority(&h1, &h), None);
        h.insert(header::HOST, HeaderValue::from_static("other.example"));
        assert_eq!(authority(&h1, &h).as_deref(), Some("other.example"));
        assert_eq!(
            authority(&h2, &h).as_deref(),
            Some("files.example:8443"),
            "the URI's wins"
        );
        h.insert(header::HOST, HeaderValue::from_static(""));
        assert_eq!(authority(&h1, &h), None);
    }
}
