//! Preview pages (issue 49): the page's header and path, the file shown
//! (an image, a player, the browser's PDF viewer in a sandboxed frame,
//! or a text escaped in `<pre>` with the charset it was read in), and
//! its download. Media come from `FILE?inline`; the page's CSP lets
//! exactly those load from this site (`media-src`, `frame-src 'self'`)
//! and nothing else more than every page.

use super::*;
use crate::files::preview::Shown;

/// The CSP of a preview page: every page's, and media and frames from
/// this site.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self'; frame-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The listing's "Preview" links: the text once, escaped.
pub(crate) struct Links(String);

impl Links {
    pub(super) fn new(p: &Page<'_>) -> Links {
        let mut s = String::new();
        esc(&p.text("web-preview", &[]), &mut s);
        Links(s)
    }

    #[cfg(test)]
    pub(super) fn for_tests() -> Links {
        Links("Preview".into())
    }
}

/// A row's "Preview" link, when its name says a preview shows it.
pub(super) fn link(name: &[u8], href: &str, links: &Links, out: &mut String) {
    if crate::files::preview::by_name(name).is_none() {
        return;
    }
    out.push_str(" <a class=\"pv\" href=\"");
    out.push_str(href);
    out.push_str("?preview\">");
    out.push_str(&links.0);
    out.push_str("</a>");
}

/// The top of a preview page: the name as its title and heading.
fn open<'a>(web: &'a Web, ask: &'a Ask, view: &View) -> Page<'a> {
    let n = ask.path.file_name().unwrap_or_default();
    let shown = PlainPath(n).to_string();
    let mut p = Page::new(web, ask, &shown, Some(view), 2048);
    p.out.push_str("<h1 id=\"name\">");
    name(n, &mut p.out);
    p.out.push_str("</h1>\n");
    p
}

/// The foot: the download and the details.
fn close(mut p: Page<'_>) -> Response {
    let link = href(&p.ask.path, false);
    p.out.push_str("<p class=\"preview-links\"><a id=\"download\" href=\"");
    p.out.push_str(&link);
    p.out.push_str("\">");
    p.t("web-download", &[]);
    p.out.push_str("</a> <a id=\"details\" href=\"");
    p.out.push_str(&link);
    p.out.push_str("?info\">");
    p.t("web-details", &[]);
    p.out.push_str("</a></p>\n");
    let mut r = p.finish(StatusCode::OK);
    r.headers_mut()
        .insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    r
}

/// An image, a PDF, audio or video.
pub(crate) fn media(web: &Web, ask: &Ask, view: &View, shown: Shown) -> Response {
    let mut p = open(web, ask, view);
    let mut src = href(&ask.path, false);
    src.push_str("?inline");
    p.out.push_str("<div class=\"preview\">");
    match shown {
        Shown::Image(_) => {
            let _ = write!(p.out, "<img id=\"preview-image\" src=\"{src}\" alt=\"");
            esc(
                &PlainPath(ask.path.file_name().unwrap_or_default()).to_string(),
                &mut p.out,
            );
            p.out.push_str("\">");
        }
        Shown::Pdf => {
            // No scripts or forms of this site's in the frame: the
            // browser's own viewer draws the PDF.
            let _ = write!(
                p.out,
                "<iframe id=\"preview-pdf\" src=\"{src}\" title=\"{}\"></iframe>",
                {
                    let mut t = String::new();
                    esc(&PlainPath(ask.path.file_name().unwrap_or_default()).to_string(), &mut t);
                    t
                }
            );
        }
        Shown::Audio(_) => {
            let _ = write!(p.out, "<audio id=\"preview-audio\" controls src=\"{src}\"></audio>");
        }
        Shown::Video(_) => {
            let _ = write!(p.out, "<video id=\"preview-video\" controls src=\"{src}\"></video>");
        }
        Shown::Text => {}
    }
    p.out.push_str("</div>\n");
    close(p)
}

/// A text: escaped, with its charset, and a note when only its start is
/// shown.
pub(crate) fn text(web: &Web, ask: &Ask, view: &View, text: &str, charset: &str, cut: bool) -> Response {
    let mut p = open(web, ask, view);
    p.out.push_str("<p class=\"note\" id=\"preview-charset\">");
    p.t("web-preview-charset", &[("charset", charset)]);
    p.out.push_str("</p>\n");
    if cut {
        p.out.push_str("<p class=\"note\" id=\"preview-cut\">");
        let size = babelftp_i18n::format_size(crate::files::preview::TEXT_MAX as u64);
        p.t("web-preview-cut", &[("size", &size)]);
        p.out.push_str("</p>\n");
    }
    p.out.push_str("<pre id=\"preview-text\">");
    esc(text, &mut p.out);
    p.out.push_str("</pre>\n");
    close(p)
}
