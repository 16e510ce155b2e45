//! Who is asking: web sessions (a cookie naming a login kept in memory),
//! the anonymous visitor, logging in and out, the language menu, and the
//! CSRF tokens of the forms.
//!
//! A session lives as long as its account does (issue 45): at login it
//! keeps a [`Stamp`] of the account, read again at each request; a
//! session whose account was disabled, given a new password or removed
//! (on any node: the stamp comes from the accounts store) ends there.
//! Sessions are listed in the admin API ([`crate::live`]), which can end
//! them too.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use babelftp_accounts::Limits;
use babelftp_policy::{Perms, Rules};
use babelftp_session::VPath;

use super::{page, see_other, Ask, St, Web};
use crate::events::{Event, Kind};
use crate::storage::Storage;

/// A web session ends after this long without a request…
const IDLE: Duration = Duration::from_secs(30 * 60);
/// …and after this long in any case.
const LIFETIME: Duration = Duration::from_secs(12 * 3600);
/// Sessions kept at most (each a few hundred bytes): past it, a login is
/// refused (503) until some expire.
const MAX_SESSIONS: usize = 100_000;
/// The largest form body read (a login, a name): forms are small.
pub(crate) const FORM_LIMIT: usize = 64 << 10;
/// How often sessions past their time are dropped (and leave the admin
/// API's list) without a request to notice.
pub(crate) const SWEEP: Duration = Duration::from_secs(30);

/// What a visitor may see and do: its tree and rules.
pub(crate) struct View {
    /// The account's name; `None`: anonymous.
    pub(crate) user: Option<String>,
    pub(crate) rules: Arc<Rules>,
    pub(crate) tree: Arc<dyn Storage>,
    /// The token its forms carry.
    pub(crate) csrf: String,
    pub(crate) limits: Limits,
    /// Its session's cookie value (a logged-in user).
    pub(crate) sid: Option<String>,
    /// The account's language (issue 48): the pages' when the visitor
    /// chose none (menu cookie, Accept-Language).
    pub(crate) lang: Option<babelftp_i18n::lang::Lang>,
}

impl View {
    /// The token this visitor's forms carry: its session's, or (anonymous)
    /// the double-submit cookie's.
    pub(crate) fn form_token<'a>(&'a self, ask: &'a Ask) -> &'a str {
        match self.sid {
            Some(_) => &self.csrf,
            None => ask.csrf(),
        }
    }

    /// The token a form must carry to be taken: never a token made for
    /// this very answer.
    pub(crate) fn expected_token<'a>(&'a self, ask: &'a Ask) -> &'a str {
        match self.sid {
            Some(_) => &self.csrf,
            None => ask.kept_csrf.as_deref().unwrap_or(""),
        }
    }

    /// The user name events and logs show.
    pub(crate) fn user_bytes(&self) -> Vec<u8> {
        self.user.as_deref().unwrap_or("anonymous").as_bytes().to_vec()
    }
}

/// What a session's account was at login; the session holds while the
/// account reads the same.
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum Stamp {
    /// A name of the users file (or `--user`): its secret. A SIGHUP that
    /// removes the name or changes its password ends the session.
    File(babelftp_core::auth::Secret),
    /// Any other name, with an accounts store: the store's stamp of it
    /// (`None`: the store has no such user, as for an LDAP user without
    /// an account). A disable, a new password or a removal changes it.
    Store(Option<babelftp_accounts::SessionStamp>),
    /// Neither (an auth hook without a store): nothing to read.
    Unchecked,
}

impl Stamp {
    /// The stamp of account `name` now (a store query, when the name is
    /// the store's).
    pub(crate) async fn read(shared: &babelftp_core::Services, name: &[u8]) -> std::io::Result<Stamp> {
        if let Some(u) = shared.users.snapshot().iter().find(|u| u.name == name) {
            return Ok(Stamp::File(u.secret.clone()));
        }
        let Some(store) = shared.directory.as_ref().and_then(|d| d.store()) else {
            return Ok(Stamp::Unchecked);
        };
        let Ok(name) = std::str::from_utf8(name) else {
            return Ok(Stamp::Store(None));
        };
        store
            .session_stamp(name)
            .await
            .map(Stamp::Store)
            .map_err(std::io::Error::other)
    }
}

struct Entry {
    view: Arc<View>,
    /// The account's name as its stamp is read, and the stamp at login.
    account: Vec<u8>,
    stamp: Stamp,
    born: Instant,
    seen: Mutex<Instant>,
    /// The address it logged in from.
    peer: std::net::SocketAddr,
    /// Its place in the admin API's list, left when the entry goes.
    _live: crate::live::Registration,
}

impl Entry {
    fn expired(&self, now: Instant) -> bool {
        let seen = *self.seen.lock().unwrap_or_else(|e| e.into_inner());
        now.duration_since(seen) > IDLE || now.duration_since(self.born) > LIFETIME
    }
}

/// The logged-in users' sessions, by cookie value.
#[derive(Default)]
pub(crate) struct Sessions(Mutex<HashMap<String, Arc<Entry>>>);

impl Sessions {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Entry>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, sid: &str) -> Option<Arc<Entry>> {
        let now = Instant::now();
        let mut map = self.lock();
        let e = map.get(sid)?.clone();
        if e.expired(now) {
            map.remove(sid);
            return None;
        }
        *e.seen.lock().unwrap_or_else(|e| e.into_inner()) = now;
        Some(e)
    }

    fn insert(&self, sid: String, entry: Entry) -> bool {
        let mut map = self.lock();
        if map.len() >= MAX_SESSIONS / 2 {
            let now = Instant::now();
            map.retain(|_, e| !e.expired(now));
        }
        if map.len() >= MAX_SESSIONS {
            return false;
        }
        map.insert(sid, Arc::new(entry));
        true
    }

    pub(crate) fn remove(&self, sid: &str) {
        // Dropped outside the lock: its registration takes the list's.
        let gone = self.lock().remove(sid);
        drop(gone);
    }

    /// Drops the sessions past their time.
    pub(crate) fn expire(&self) {
        let now = Instant::now();
        let gone: Vec<Arc<Entry>> = {
            let mut map = self.lock();
            let old: Vec<String> = map
                .iter()
                .filter(|(_, e)| e.expired(now))
                .map(|(k, _)| k.clone())
                .collect();
            old.iter().filter_map(|k| map.remove(k)).collect()
        };
        drop(gone);
    }

    fn all(&self) -> Vec<(String, Arc<Entry>)> {
        self.lock().iter().map(|(k, e)| (k.clone(), e.clone())).collect()
    }
}

impl crate::live::Prune for Web {
    /// Before the admin API lists sessions: those past their time, and
    /// those whose account changed (one stamp read per user), go.
    fn prune(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            self.sessions.expire();
            let mut now: HashMap<Vec<u8>, Stamp> = HashMap::new();
            for (sid, e) in self.sessions.all() {
                let stamp = match now.get(&e.account) {
                    Some(s) => s.clone(),
                    None => match Stamp::read(&self.shared, &e.account).await {
                        Ok(s) => {
                            now.insert(e.account.clone(), s.clone());
                            s
                        }
                        // The store does not answer: its sessions stay listed.
                        Err(_) => continue,
                    },
                };
                if stamp != e.stamp {
                    ended(&e, "its account changed");
                    self.sessions.remove(&sid);
                }
            }
        })
    }
}

/// Logs a session that ends without its user logging out.
fn ended(e: &Entry, why: &str) {
    tracing::info!(
        user = %e.view.user.as_deref().unwrap_or("anonymous"),
        peer = %e.peer,
        reason = why,
        "web session ended"
    );
}

/// 32 random octets as hex: a session id or a CSRF token. `None` when
/// the system has no randomness to give (nothing guessable is made).
pub(crate) fn token() -> Option<String> {
    use ring::rand::SecureRandom;
    let mut b = [0u8; 32];
    ring::rand::SystemRandom::new().fill(&mut b).ok()?;
    Some(b.iter().map(|o| format!("{o:02x}")).collect())
}

/// Compares two tokens in constant time.
pub(crate) fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether `s` looks like one of our tokens (64 hex digits).
fn well_formed(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

impl Web {
    /// The visitor's view: its session's, else the anonymous one when
    /// the server allows anonymous logins; `Ok(None)`: it must log in.
    pub(crate) async fn view(&self, ask: &Ask) -> Result<Option<Arc<View>>, Response> {
        let sid = ask.cookie("bftp_sid").filter(|s| well_formed(s));
        if let Some((sid, e)) = sid.and_then(|s| Some((s, self.sessions.get(s)?))) {
            // The account as it is now, on whichever node changed it.
            match Stamp::read(&self.shared, &e.account).await {
                Ok(now) if now == e.stamp => return Ok(Some(e.view.clone())),
                Ok(_) => {
                    ended(&e, "its account changed");
                    self.sessions.remove(sid);
                }
                Err(err) => {
                    tracing::warn!(peer = %ask.peer, error = %err, "web: the accounts could not be read");
                    return Err(self.refuse(ask, StatusCode::SERVICE_UNAVAILABLE, "web-unavailable", &[]));
                }
            }
        }
        if !self.shared.session.anonymous {
            return Ok(None);
        }
        let write = self.shared.session.anonymous_write;
        Ok(Some(Arc::new(View {
            user: None,
            rules: Arc::new(Rules::everywhere(if write { Perms::ALL } else { Perms::READ })),
            tree: self.base(ask.host),
            csrf: String::new(),
            limits: Limits::default(),
            sid: None,
            lang: None,
        })))
    }

    /// A cookie of this door: HttpOnly, SameSite=Lax, Secure under TLS.
    pub(crate) fn cookie(&self, name: &str, value: &str, max_age: Option<u64>) -> HeaderValue {
        let mut c = format!("{name}={value}; Path=/; HttpOnly; SameSite=Lax");
        if let Some(s) = max_age {
            c.push_str(&format!("; Max-Age={s}"));
        }
        if self.tls {
            c.push_str("; Secure");
        }
        HeaderValue::from_str(&c).unwrap_or_else(|_| HeaderValue::from_static("bftp_bad=1"))
    }

    /// An event of this door, when a hook wants its kind.
    pub(crate) fn event(&self, kind: Kind, user: Option<Vec<u8>>, ask: &Ask) -> Option<Event> {
        let events = self.shared.events.as_ref()?;
        if !events.wants(kind) {
            return None;
        }
        let mut session = format!("{}w", events.session_id(self.next_id()));
        // Issue 49: through a share link, the owner's event says which.
        if let Some(id) = ask.share.as_ref().map(|s| &s.id).filter(|id| !id.is_empty()) {
            session.push_str("-share-");
            session.push_str(id);
        }
        let door = babelftp_core::transfer::Door {
            protocol: if self.tls { "https" } else { "http" },
            peer: ask.peer.ip(),
        };
        // Built as every door builds its events.
        self.shared.event(kind, user.as_deref(), door, session)
    }

    pub(crate) fn emit(&self, ev: Option<Event>) {
        if let (Some(ev), Some(events)) = (ev, &self.shared.events) {
            events.emit(&ev);
        }
    }
}

/// A urlencoded form's fields as octets (names typed in a form are
/// never decoded lossily).
pub(crate) fn form(body: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let dec = |s: &[u8]| -> Vec<u8> {
        let plus: Vec<u8> = s.iter().map(|&b| if b == b'+' { b' ' } else { b }).collect();
        percent_encoding::percent_decode(&plus).collect()
    };
    body.split(|&b| b == b'&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let mut it = kv.splitn(2, |&b| b == b'=');
            let k = dec(it.next().unwrap_or_default());
            let v = dec(it.next().unwrap_or_default());
            (k, v)
        })
        .collect()
}

/// The field `key` of a form.
pub(crate) fn field<'a>(form: &'a [(Vec<u8>, Vec<u8>)], key: &str) -> Option<&'a [u8]> {
    form.iter()
        .find(|(k, _)| k == key.as_bytes())
        .map(|(_, v)| v.as_slice())
}

/// A form body, at most [`FORM_LIMIT`], arriving without a pause of
/// `stall_timeout`; else the page to answer (413, 408).
pub(crate) async fn read_form(web: &St, ask: &Ask, body: Body) -> Result<Vec<(Vec<u8>, Vec<u8>)>, Response> {
    match tokio::time::timeout(web.shared().cfg.stall_timeout, axum::body::to_bytes(body, FORM_LIMIT)).await {
        Ok(Ok(bytes)) => Ok(form(&bytes)),
        Ok(Err(_)) => Err(web.refuse(ask, StatusCode::PAYLOAD_TOO_LARGE, "web-bad-form", &[])),
        Err(_) => Err(web.refuse(ask, StatusCode::REQUEST_TIMEOUT, "web-stalled", &[])),
    }
}

/// Whether a form carries `expected` as its `csrf`.
pub(crate) fn csrf_ok(form: &[(Vec<u8>, Vec<u8>)], expected: &str) -> bool {
    let got = field(form, "csrf")
        .and_then(|v| std::str::from_utf8(v).ok())
        .unwrap_or("");
    !expected.is_empty() && same_token(got, expected)
}

/// POST `?login`: the password checked as FTP checks it; a session on
/// success (303 back to the page), the form again with 401 on failure
/// (scored by the defender, `login_fail_delay` after the request came).
pub(crate) async fn login(web: &St, ask: &Ask, body: Body) -> Response {
    let f = match read_form(web, ask, body).await {
        Ok(f) => f,
        Err(r) => return r,
    };
    // The login form's token is the double-submit cookie's.
    if !csrf_ok(&f, ask.kept_csrf.as_deref().unwrap_or("")) {
        return web.refuse(ask, StatusCode::FORBIDDEN, "web-csrf", &[]);
    }
    let user = field(&f, "user").unwrap_or_default().to_vec();
    let password = field(&f, "password").unwrap_or_default().to_vec();
    let shared = web.shared().clone();
    let ip = ask.peer.ip();
    if user.is_empty() || shared.is_banned(ip) {
        return page::login(web, ask, StatusCode::UNAUTHORIZED, Some("web-login-failed"));
    }
    let protocol = if web.tls { "https" } else { "http" };
    // The account's stamp is read before its password is checked: a
    // change made meanwhile then ends the new session at its first
    // request, never the other way round.
    let before = match Stamp::read(&shared, &user).await {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!(peer = %ask.peer, error = ?e, "web login: the accounts could not be read");
            return web.refuse(ask, StatusCode::SERVICE_UNAVAILABLE, "web-unavailable", &[]);
        }
    };
    // The login as every door asks for it: the ban, the password, the
    // defender's score of a refusal.
    let checked = match shared.login(user.clone(), password, ip, protocol).await {
        Ok(c) => c,
        Err(babelftp_core::ServiceError::Banned) => {
            return page::login(web, ask, StatusCode::UNAUTHORIZED, Some("web-login-failed"));
        }
        Err(e) => {
            tracing::warn!(peer = %ask.peer, error = ?e, "web login: the accounts could not be read");
            return web.refuse(ask, StatusCode::SERVICE_UNAVAILABLE, "web-unavailable", &[]);
        }
    };
    let shown = babelftp_proto::display::PlainPath(&user).to_string();
    let Some(checked) = checked else {
        tracing::info!(peer = %ask.peer, user = %shown, "web login refused");
        web.emit(web.event(Kind::LoginFailed, Some(user), ask));
        // Answered `login_fail_delay` after the request came, however
        // long the check took (a clear-text account's comparison, or an
        // unknown name's decoy hash), as FTP answers PASS.
        tokio::time::sleep_until(ask.arrived + shared.session.login_fail_delay).await;
        return page::login(web, ask, StatusCode::UNAUTHORIZED, Some("web-login-failed"));
    };
    let tree = match open_tree(&shared, web.base(ask.host), &checked).await {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!(peer = %ask.peer, user = %shown, error = ?e, "web login: the home cannot be opened");
            return web.refuse(ask, StatusCode::SERVICE_UNAVAILABLE, "web-unavailable", &[]);
        }
    };
    let (Some(sid), Some(csrf)) = (token(), token()) else {
        return web.refuse(ask, StatusCode::SERVICE_UNAVAILABLE, "web-unavailable", &[]);
    };
    // The directory may know the account by another spelling than the
    // one typed: its stamp is then read under its own name.
    let (account, stamp) = match before {
        Stamp::File(_) => (user.clone(), before),
        _ if checked.name.as_bytes() == user.as_slice() => (user.clone(), before),
        _ => {
            let name = checked.name.as_bytes().to_vec();
            match Stamp::read(&shared, &name).await {
                Ok(s) => (name, s),
                Err(e) => {
                    tracing::warn!(peer = %ask.peer, error = ?e, "web login: the accounts could not be read");
                    return web.refuse(ask, StatusCode::SERVICE_UNAVAILABLE, "web-unavailable", &[]);
                }
            }
        }
    };
    let view = Arc::new(View {
        user: Some(checked.name.clone()),
        rules: checked.account.rules.clone(),
        // The rules hold at links' targets too.
        tree: crate::linkrules::LinkRules::wrap(tree, checked.account.rules.clone()),
        csrf,
        limits: checked.limits,
        sid: Some(sid.clone()),
        lang: checked
            .account
            .lang
            .as_ref()
            .and_then(|t| match web.shared().session.catalogs.negotiate(t) {
                babelftp_i18n::lang::Negotiated::Lang(l) => Some(l),
                babelftp_i18n::lang::Negotiated::Unsupported => None,
            }),
    });
    // A user with a quota has its usage counted at its first login.
    if let Some(q) = super::files::quota(web, &view) {
        if let Err(e) = q.ensure_counted(view.tree.clone()).await {
            tracing::warn!(user = %q.name, error = %e, "quota usage could not be counted");
        }
    }
    // Listed in the admin API, which may end it (its door forgets it).
    let forget = {
        let (web, sid) = (Arc::downgrade(web), sid.clone());
        Box::new(move || {
            if let Some(web) = web.upgrade() {
                web.sessions.remove(&sid);
            }
        })
    };
    let id = shared.live.next_id();
    let live = shared.live.register_web(id, ask.peer, &checked.name, protocol, forget);
    let now = Instant::now();
    let entry = Entry {
        view,
        account,
        stamp,
        born: now,
        seen: Mutex::new(now),
        peer: ask.peer,
        _live: live,
    };
    if !web.sessions.insert(sid.clone(), entry) {
        return web.refuse(ask, StatusCode::SERVICE_UNAVAILABLE, "web-unavailable", &[]);
    }
    tracing::info!(peer = %ask.peer, user = %checked.name, session = id, "web login");
    // The request's next lines name the user in their tag (the login
    // line names it itself, as FTP's does).
    babelftp_core::logctx::set_user(Some(&checked.name));
    // Under the name the directory confirmed, when it is another spelling.
    let user = checked.account.name.clone().unwrap_or(user);
    web.emit(web.event(Kind::Login, Some(user), ask));
    let mut r = see_other(&super::href(&ask.path, ask.slash));
    r.headers_mut()
        .append(header::SET_COOKIE, web.cookie("bftp_sid", &sid, None));
    r
}

/// The account's tree, opened as the FTP door opens it.
async fn open_tree(
    shared: &Arc<babelftp_core::Services>,
    base: Arc<dyn Storage>,
    c: &babelftp_core::Checked,
) -> std::io::Result<Arc<dyn Storage>> {
    let home = VPath::root().join(&c.account.home);
    shared
        .open_tree(base, home, c.tree.clone())
        .await
        .map_err(std::io::Error::from)
}

/// POST `?logout`: the session is forgotten and its cookie cleared.
pub(crate) async fn logout(web: &St, ask: &Ask, view: &View, body: Body) -> Response {
    let f = match read_form(web, ask, body).await {
        Ok(f) => f,
        Err(r) => return r,
    };
    if !csrf_ok(&f, view.expected_token(ask)) {
        return web.refuse(ask, StatusCode::FORBIDDEN, "web-csrf", &[]);
    }
    if let Some(sid) = &view.sid {
        web.sessions.remove(sid);
        web.emit(web.event(Kind::Logout, Some(view.user_bytes()), ask));
    }
    let mut r = see_other("/");
    r.headers_mut()
        .append(header::SET_COOKIE, web.cookie("bftp_sid", "", Some(0)));
    r
}

/// POST `?lang`: the language menu; a cookie for a year.
pub(crate) async fn set_language(web: &St, ask: &Ask, body: Body) -> Response {
    let f = match read_form(web, ask, body).await {
        Ok(f) => f,
        Err(r) => return r,
    };
    if !csrf_ok(&f, ask.kept_csrf.as_deref().unwrap_or("")) {
        return web.refuse(ask, StatusCode::FORBIDDEN, "web-csrf", &[]);
    }
    let catalogs = &web.shared().session.catalogs;
    let chosen = field(&f, "lang")
        .and_then(|t| babelftp_proto::lang::LangTag::parse(t).ok())
        .and_then(|t| match catalogs.negotiate(&t) {
            babelftp_i18n::lang::Negotiated::Lang(l) => Some(catalogs.tag(l).to_owned()),
            babelftp_i18n::lang::Negotiated::Unsupported => None,
        });
    let Some(tag) = chosen else {
        return web.refuse(ask, StatusCode::BAD_REQUEST, "web-bad-form", &[]);
    };
    let mut r = see_other(&super::href(&ask.path, ask.slash));
    r.headers_mut()
        .append(header::SET_COOKIE, web.cookie("bftp_lang", &tag, Some(365 * 24 * 3600)));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_decode_to_octets() {
        let f = form(b"user=al+ice&name=%E5%90%8D%E9&csrf=ab&empty=&flag");
        assert_eq!(field(&f, "user"), Some(&b"al ice"[..]));
        assert_eq!(field(&f, "name"), Some(&b"\xE5\x90\x8D\xE9"[..]));
        assert_eq!(field(&f, "empty"), Some(&b""[..]));
        assert_eq!(field(&f, "flag"), Some(&b""[..]));
        assert!(csrf_ok(&f, "ab"));
        assert!(!csrf_ok(&f, "ac"));
        assert!(!csrf_ok(&form(b"csrf="), ""));
    }

    #[test]
    fn tokens_are_random_and_well_formed() {
        let (a, b) = (token(), token());
        assert!(a.as_deref().is_some_and(well_formed));
        assert_ne!(a, b);
    }
}
