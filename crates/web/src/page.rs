//! The pages: built by hand into one `String`, every name and every text
//! escaped on its way in ([`esc`]), names shown as FTP shows them
//! (`%HH` for what cannot be displayed, `<bdi>` around each), texts from
//! the catalogs. No inline script or style anywhere: the CSP forbids it;
//! the behaviour is in `assets/app.js`, which the page works without.

use std::fmt::Write;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use babelftp_i18n::lang::Lang;
use babelftp_policy::Perm;
use babelftp_proto::display::PlainPath;
use babelftp_proto::listing::Entry;
use babelftp_session::VPath;

use super::session::View;
use super::{encode_segment, href, iri_segment, Ask, Web};

mod find;
mod listing;
pub(crate) mod preview;
mod rows;
mod share;
mod zip;
pub(crate) use find::found;
use listing::dir_title;
pub(crate) use listing::{drop_box, listing};
pub(crate) use share::{share_created, share_password};

/// The product's name, on the login page (a name: not translated).
const PRODUCT: &str = "babelftp";

const STYLE: &str = include_str!("assets/style.css");
const SCRIPT: &str = include_str!("assets/app.js");

/// `GET ?asset=NAME`: the page's style and script.
pub(crate) fn asset(name: &str) -> Response {
    let (body, ctype) = match name {
        "style.css" => (STYLE, "text/css; charset=utf-8"),
        "app.js" => (SCRIPT, "text/javascript; charset=utf-8"),
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, ctype),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}

/// Text escaped for HTML (element content and quoted attributes).
pub(crate) fn esc(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// A name as a person reads it: as FTP shows it (`%HH` for octets that
/// are not UTF-8 and for characters that cannot be displayed: controls,
/// bidi overrides), escaped, isolated.
fn name(n: &[u8], out: &mut String) {
    out.push_str("<bdi>");
    name_text(n, out);
    out.push_str("</bdi>");
}

/// A name as FTP shows it, escaped (for an attribute), without `<bdi>`.
fn name_text(n: &[u8], out: &mut String) {
    // As display::PlainPath writes it, escaped on the way, in one pass.
    for chunk in n.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' => out.push_str("&quot;"),
                '\'' => out.push_str("&#39;"),
                ' '..='~' if c != '%' => out.push(c),
                c if c != '%' && babelftp_proto::display::is_displayable(c) => out.push(c),
                c => {
                    let mut utf8 = [0u8; 4];
                    for &b in c.encode_utf8(&mut utf8).as_bytes() {
                        out.push_str(percent_encoding::percent_encode_byte(b));
                    }
                }
            }
        }
        for &b in chunk.invalid() {
            out.push_str(percent_encoding::percent_encode_byte(b));
        }
    }
}

/// Whether a language is written right to left.
fn rtl(tag: &str) -> bool {
    let primary = tag.split('-').next().unwrap_or(tag).to_ascii_lowercase();
    matches!(primary.as_str(), "ar" | "he" | "fa" | "ur" | "yi" | "iw")
}

/// `YYYY-MM-DD HH:MM` (UTC) of Unix seconds.
fn time(secs: i64, out: &mut String) {
    let c = babelftp_proto::listing::Civil::from_unix(secs);
    let _ = write!(
        out,
        "{:04}-{:02}-{:02} {:02}:{:02}",
        c.year, c.month, c.day, c.hour, c.minute
    );
}

/// A page: the shell around `main`, in `lang`.
struct Page<'a> {
    web: &'a Web,
    ask: &'a Ask,
    lang: Lang,
    out: String,
}

impl<'a> Page<'a> {
    fn new(web: &'a Web, ask: &'a Ask, title: &str, view: Option<&View>, capacity: usize) -> Page<'a> {
        Page::open(web, ask, title, view, capacity, true)
    }

    /// The shell; `who`: whether the header says who is logged in (or
    /// links to the login page: not on that page itself, nor on an
    /// error page, where the visitor is not known).
    fn open(web: &'a Web, ask: &'a Ask, title: &str, view: Option<&View>, capacity: usize, who: bool) -> Page<'a> {
        let lang = ask.lang;
        let catalogs = &web.shared().session.catalogs;
        let tag = catalogs.tag(lang);
        let mut out = String::with_capacity(capacity + 2048);
        out.push_str("<!DOCTYPE html>\n<html lang=\"");
        esc(tag, &mut out);
        out.push_str("\" dir=\"");
        out.push_str(if rtl(tag) { "rtl" } else { "ltr" });
        out.push_str("\">\n<head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
        esc(title, &mut out);
        out.push_str("</title>\n<link rel=\"stylesheet\" href=\"/?asset=style.css\"><script src=\"/?asset=app.js\" defer></script></head>\n<body>\n");
        let mut p = Page { web, ask, lang, out };
        // A way past the header for keyboard users (issue 49).
        p.out.push_str("<a class=\"skip\" href=\"#main\">");
        p.t("web-skip", &[]);
        p.out.push_str("</a>\n<header>\n");
        p.crumbs();
        // A share link's page (issue 49): nobody is logged in, nothing
        // outside the share is searched.
        if ask.share.is_none() {
            p.search_box(view);
            if who {
                p.who(view);
            }
        }
        p.language_menu();
        p.out.push_str("</header>\n<main id=\"main\" tabindex=\"-1\">\n");
        p
    }

    fn text(&self, id: &str, args: &[(&str, &str)]) -> String {
        self.web.text(self.lang, id, args)
    }

    /// The catalog's text, escaped into the page.
    fn t(&mut self, id: &str, args: &[(&str, &str)]) {
        let s = self.text(id, args);
        esc(&s, &mut self.out);
    }

    /// The path as links, `/` first.
    fn crumbs(&mut self) {
        let base = self.ask.share.as_ref().map_or("", |s| s.prefix.as_str());
        let _ = write!(
            self.out,
            "<nav class=\"crumbs\" id=\"crumbs\"><a href=\"{base}/\">/</a>"
        );
        let comps = self.ask.path.components();
        let mut link = format!("{base}/");
        for (i, c) in comps.iter().enumerate() {
            // A file's page (`/pub/a.txt?info`): its name without the
            // `/` of a folder, linked to the file itself.
            let folder = i + 1 < comps.len() || self.ask.slash;
            encode_segment(c, &mut link);
            if folder {
                link.push('/');
            }
            self.out.push_str("<a href=\"");
            self.out.push_str(&link);
            self.out.push_str("\">");
            name(c, &mut self.out);
            self.out.push_str(if folder { "</a>/" } else { "</a>" });
        }
        self.out.push_str("</nav>\n");
    }

    fn csrf_field(&mut self, token: &str) {
        self.out.push_str("<input type=\"hidden\" name=\"csrf\" value=\"");
        esc(token, &mut self.out);
        self.out.push_str("\">");
    }

    /// Who is logged in, and the way out (or in).
    fn who(&mut self, view: Option<&View>) {
        self.out.push_str("<div class=\"who\">");
        match view.and_then(|v| v.user.as_deref().map(|u| (u, v.form_token(self.ask)))) {
            Some((user, csrf)) => {
                self.out.push_str("<span id=\"user\">");
                self.t("web-signed-in", &[("user", user)]);
                self.out
                    .push_str("</span> <form id=\"logout\" method=\"post\" action=\"?logout\">");
                let csrf = csrf.to_owned();
                self.csrf_field(&csrf);
                self.out.push_str("<button type=\"submit\" id=\"logout-submit\">");
                self.t("web-logout", &[]);
                self.out.push_str("</button></form>");
            }
            None => {
                self.out.push_str("<a id=\"login-link\" href=\"?login\">");
                self.t("web-login", &[]);
                self.out.push_str("</a>");
            }
        }
        self.out.push_str("</div>\n");
    }

    /// The language menu: a form that sets the `bftp_lang` cookie.
    fn language_menu(&mut self) {
        let catalogs = &self.web.shared().session.catalogs;
        self.out.push_str("<form id=\"lang\" method=\"post\" action=\"?lang\">");
        let csrf = self.ask.csrf().to_owned();
        self.csrf_field(&csrf);
        self.out
            .push_str("<select name=\"lang\" id=\"lang-select\" aria-label=\"");
        self.t("web-language", &[]);
        self.out.push_str("\">");
        let tags: Vec<(usize, String)> = catalogs.tags().map(str::to_owned).enumerate().collect();
        for (i, tag) in tags {
            self.out.push_str("<option value=\"");
            esc(&tag, &mut self.out);
            self.out.push('"');
            if i == self.lang {
                self.out.push_str(" selected");
            }
            self.out.push('>');
            let shown = catalogs.language_name(i);
            esc(&shown, &mut self.out);
            self.out.push_str("</option>");
        }
        self.out
            .push_str("</select> <button type=\"submit\" id=\"lang-submit\">");
        self.t("web-language-apply", &[]);
        self.out.push_str("</button></form>\n");
    }

    fn finish(mut self, status: StatusCode) -> Response {
        self.out.push_str("</main>\n</body>\n</html>\n");
        let mut r = (status, self.out).into_response();
        let h = r.headers_mut();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        h.insert(header::VARY, HeaderValue::from_static("Cookie, Accept-Language"));
        r
    }
}

/// The address this request was sent to (`host[:port]`, HTTP/1.1's Host
/// or HTTP/2's `:authority`), for absolute links; `localhost` when the
/// client sent none.
fn host(ask: &Ask) -> String {
    ask.authority.as_deref().unwrap_or("localhost").to_owned()
}

/// The `ftp://` URL of `path` (the FTP server's port, the host the
/// browser used; the user's name when logged in).
fn ftp_url(web: &Web, ask: &Ask, view: &View, path: &VPath, dir: bool) -> String {
    if ask.share.is_some() {
        // A share's visitor has no FTP account.
        return String::new();
    }
    let h = host(ask);
    // `host:port` or `[v6]:port`: the port is the web's; drop it.
    let bare = match h.rfind(':') {
        Some(i) if !h[i..].contains(']') => &h[..i],
        _ => h.as_str(),
    };
    let mut s = String::from("ftp://");
    if let Some(u) = &view.user {
        encode_segment(u.as_bytes(), &mut s);
        s.push('@');
    }
    s.push_str(bare);
    if let Some(p) = web.ftp_port.filter(|&p| p != 21) {
        let _ = write!(s, ":{p}");
    }
    s.push_str(&href(path, dir));
    s
}

/// A file's or folder's page: its facts, its web and FTP links side by
/// side, and rename and delete where permitted.
pub(crate) fn details(web: &Web, ask: &Ask, view: &View, e: &Entry, dir: bool) -> Response {
    let shown = PlainPath(ask.path.file_name().unwrap_or_default()).to_string();
    let mut p = Page::new(web, ask, &shown, Some(view), 2048);
    p.out.push_str("<h1 id=\"name\">");
    name(ask.path.file_name().unwrap_or_default(), &mut p.out);
    p.out.push_str("</h1>\n<dl>");
    if !dir {
        p.out.push_str("<dt>");
        p.t("web-col-size", &[]);
        // `1.5 KiB (1536 B)`; `10 B` alone when that is already exact.
        let human = babelftp_i18n::format_size(e.size);
        let exact = format!("{} B", e.size);
        if human == exact {
            let _ = write!(p.out, "</dt><dd id=\"size\">{human}</dd>");
        } else {
            let _ = write!(p.out, "</dt><dd id=\"size\">{human} ({exact})</dd>");
        }
    }
    if let Some(m) = e.modified {
        p.out.push_str("<dt>");
        p.t("web-col-time", &[]);
        p.out.push_str("</dt><dd id=\"time\">");
        rows::time_utc(m, &mut p.out);
        p.out.push_str("</dd>");
    }
    let scheme = if web.tls { "https" } else { "http" };
    let web_url = format!("{scheme}://{}{}", host(ask), href(&ask.path, dir));
    let ftp = ftp_url(web, ask, view, &ask.path, dir);
    for (id, label, url) in [("web-url", "web-link-web", &web_url), ("ftp-url", "web-link-ftp", &ftp)] {
        p.out.push_str("<dt>");
        p.t(label, &[]);
        let _ = write!(p.out, "</dt><dd><a id=\"{id}\" href=\"");
        esc(url, &mut p.out);
        p.out.push_str("\">");
        esc(url, &mut p.out);
        p.out.push_str("</a></dd>");
    }
    p.out.push_str("</dl>\n");
    let at = view.rules.at(ask.path.components());
    if !dir {
        p.out.push_str("<p><a id=\"download\" href=\"");
        p.out.push_str(&href(&ask.path, false));
        p.out.push_str("\">");
        p.t("web-download", &[]);
        p.out.push_str("</a>");
        if at.has(Perm::Download) && crate::files::preview::by_name(ask.path.file_name().unwrap_or_default()).is_some()
        {
            p.out.push_str(" <a id=\"preview\" href=\"");
            p.out.push_str(&href(&ask.path, false));
            p.out.push_str("?preview\">");
            p.t("web-preview", &[]);
            p.out.push_str("</a>");
        }
        p.out.push_str("</p>\n");
    }
    let writable = view.user.is_some() || web.shared().session.anonymous_write;
    let target = href(&ask.path, false);
    if writable && at.has(Perm::Rename) {
        let _ = write!(p.out, "<form id=\"rename\" method=\"post\" action=\"{target}?rename\">");
        let csrf = view.form_token(ask).to_owned();
        p.csrf_field(&csrf);
        p.out.push_str("<label for=\"rename-to\">");
        p.t("web-rename-label", &[]);
        p.out
            .push_str("</label> <input type=\"text\" name=\"to\" id=\"rename-to\" required value=\"");
        esc(&shown, &mut p.out);
        p.out.push_str("\"> <button type=\"submit\" id=\"rename-submit\">");
        p.t("web-rename", &[]);
        p.out.push_str("</button></form>\n");
    }
    if writable && at.has(if dir { Perm::Rmdir } else { Perm::Delete }) {
        let _ = write!(p.out, "<form id=\"delete\" method=\"post\" action=\"{target}?delete\">");
        let csrf = view.form_token(ask).to_owned();
        p.csrf_field(&csrf);
        p.out.push_str("<button type=\"submit\" id=\"delete-submit\">");
        p.t("web-delete", &[]);
        p.out.push_str("</button></form>\n");
    }
    p.share_form(view, dir);
    p.finish(StatusCode::OK)
}

/// The login form (with why the last attempt failed).
pub(crate) fn login(web: &Web, ask: &Ask, status: StatusCode, error: Option<&str>) -> Response {
    let title = web.text(ask.lang, "web-login-title", &[("product", PRODUCT)]);
    let mut p = Page::open(web, ask, &title, None, 1024, false);
    p.out.push_str("<h1 id=\"login-title\">");
    esc(&title, &mut p.out);
    p.out.push_str("</h1>\n");
    p.out
        .push_str("<form id=\"login\" method=\"post\" action=\"?login\">\n");
    let csrf = ask.csrf().to_owned();
    p.csrf_field(&csrf);
    if let Some(id) = error {
        p.out.push_str("<p class=\"error\" id=\"login-error\">");
        p.t(id, &[]);
        p.out.push_str("</p>\n");
    }
    p.out.push_str("<label for=\"login-user\">");
    p.t("web-user", &[]);
    p.out.push_str("</label> <input type=\"text\" name=\"user\" id=\"login-user\" autocomplete=\"username\" required>\n<label for=\"login-password\">");
    p.t("web-password", &[]);
    p.out.push_str("</label> <input type=\"password\" name=\"password\" id=\"login-password\" autocomplete=\"current-password\">\n<button type=\"submit\" id=\"login-submit\">");
    p.t("web-login", &[]);
    p.out.push_str("</button>\n</form>\n");
    p.finish(status)
}

/// An error page: the page's header (the path as links, the language
/// menu), the text, and the way back: a link to the folder above the
/// path (`/` at the top). Without the request (a path that could not be
/// decoded), a header with `/` alone.
pub(crate) fn error(web: &Web, lang: Lang, ask: Option<&Ask>, status: StatusCode, text: &str) -> Response {
    let Some(ask) = ask else {
        return bare_error(web, lang, status, text);
    };
    let title = format!("{} {text}", status.as_u16());
    let mut p = Page::open(web, ask, &title, None, 512, false);
    p.out.push_str("<p class=\"error\" id=\"error\">");
    esc(text, &mut p.out);
    p.out.push_str("</p>\n<p><a href=\"");
    let comps = ask.path.components();
    let mut up = match &ask.share {
        Some(s) => format!("{}/", s.prefix),
        None => String::from("/"),
    };
    for c in comps.iter().take(comps.len().saturating_sub(1)) {
        encode_segment(c, &mut up);
        up.push('/');
    }
    p.out.push_str(&up);
    p.out.push_str("\" id=\"home\">");
    p.t("web-found-back", &[]);
    p.out.push_str("</a></p>\n");
    p.finish(status)
}

/// An error page without the request: `/` in the header and as the way back.
fn bare_error(web: &Web, lang: Lang, status: StatusCode, text: &str) -> Response {
    let mut out = String::with_capacity(512);
    let catalogs = &web.shared().session.catalogs;
    let tag = catalogs.tag(lang);
    out.push_str("<!DOCTYPE html>\n<html lang=\"");
    esc(tag, &mut out);
    out.push_str("\" dir=\"");
    out.push_str(if rtl(tag) { "rtl" } else { "ltr" });
    out.push_str("\">\n<head><meta charset=\"utf-8\"><title>");
    let _ = write!(out, "{}", status.as_u16());
    out.push_str("</title><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><link rel=\"stylesheet\" href=\"/?asset=style.css\"></head>\n<body>\n<header>\n<nav class=\"crumbs\" id=\"crumbs\"><a href=\"/\">/</a></nav>\n</header>\n<main id=\"main\">\n<p class=\"error\" id=\"error\">");
    esc(text, &mut out);
    out.push_str("</p>\n<p><a href=\"/\" id=\"home\">");
    esc(&web.text(lang, "web-found-back", &[]), &mut out);
    out.push_str("</a></p>\n</main>\n</body>\n</html>\n");
    let mut r = (status, out).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// The "details" link of an entry at `link` (listings and search hits).
pub(crate) fn details_link(link: &str, text: &str, out: &mut String) {
    out.push_str("<a class=\"i\" href=\"");
    out.push_str(link);
    out.push_str("?info\">");
    out.push_str(text);
    out.push_str("</a>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_show_as_ftp_shows_them() {
        for n in [
            &b"plain.txt"[..],
            "名前 100%.txt".as_bytes(),
            b"\xE9t\xE9\x01.txt",
            "a\u{202E}b".as_bytes(),
        ] {
            let mut s = String::new();
            name(n, &mut s);
            let mut want = String::from("<bdi>");
            esc(&PlainPath(n).to_string(), &mut want);
            want.push_str("</bdi>");
            assert_eq!(s, want);
        }
    }

    #[test]
    fn hostile_text_is_escaped() {
        let mut s = String::new();
        name(b"<img src=x onerror=alert(1)>\"'.txt", &mut s);
        assert_eq!(s, "<bdi>&lt;img src=x onerror=alert(1)&gt;&quot;&#39;.txt</bdi>");
        let mut s = String::new();
        // An RTL override and a control character are shown as %HH.
        name("a\u{202E}b\u{1}c".as_bytes(), &mut s);
        assert!(!s.contains('\u{202E}') && !s.contains('\u{1}'), "{s}");
        assert!(s.contains("%E2%80%AE"), "{s}");
    }

    #[test]
    fn times_are_utc_civil() {
        let mut s = String::new();
        time(0, &mut s);
        assert_eq!(s, "1970-01-01 00:00");
        let mut s = String::new();
        time(1_795_651_200 + 3_660, &mut s);
        assert_eq!(s, "2026-11-26 01:01");
        let mut s = String::new();
        time(951_782_400, &mut s);
        assert_eq!(s, "2000-02-29 00:00");
    }

    #[test]
    fn right_to_left_languages() {
        assert!(rtl("ar") && rtl("he") && rtl("ar-EG"));
        assert!(!rtl("en") && !rtl("ja") && !rtl("arn"));
    }
}
