//! Find (issue 49): the search box in the header of a folder's page, and
//! the page of what a search found.

use super::*;
use crate::files::find::{Found, ENTRIES, RESULTS};

impl Page<'_> {
    /// The search box: in the header of a folder's page the user may
    /// list (its listing, or what a search found there), with the text
    /// searched for.
    pub(super) fn search_box(&mut self, view: Option<&View>) {
        let Some(view) = view else { return };
        let ask = self.ask;
        if !ask.slash || ask.param("info").is_some() || !view.rules.at(ask.path.components()).has(Perm::List) {
            return;
        }
        // A GET to the folder itself (its page is at `DIR/`).
        self.out
            .push_str("<form id=\"search\" role=\"search\" method=\"get\" action=\"");
        self.out.push_str(&href(&ask.path, true));
        self.out.push_str("\"><label for=\"search-q\">");
        self.t("web-find-label", &[]);
        self.out
            .push_str("</label> <input type=\"search\" name=\"q\" id=\"search-q\" value=\"");
        let q = ask.param("q").unwrap_or_default().to_owned();
        esc(&q, &mut self.out);
        self.out.push_str("\"> <button type=\"submit\" id=\"search-submit\">");
        self.t("web-find", &[]);
        self.out.push_str("</button></form>\n");
    }
}

/// The page of a search's hits: each one's path below the folder, linked
/// as the listing links it (a folder to its page, a file to its
/// download, and its details where they may be seen).
pub(crate) fn found(web: &Web, ask: &Ask, view: &View, q: &str, f: &Found) -> Response {
    let title = dir_title(ask);
    let mut p = Page::new(web, ask, &title, Some(view), f.hits.len() * 200 + 1024);
    let count = f.hits.len().to_string();
    p.out.push_str("<h1 id=\"found-title\">");
    p.t("web-found", &[("text", q), ("path", &title), ("count", &count)]);
    p.out.push_str("</h1>\n");
    if f.cut {
        p.out.push_str("<p class=\"note\" id=\"found-cut\">");
        let (results, entries) = (RESULTS.to_string(), ENTRIES.to_string());
        p.t("web-found-cut", &[("results", &results), ("entries", &entries)]);
        p.out.push_str("</p>\n");
    }
    if f.hits.is_empty() {
        p.out.push_str("<p class=\"note\" id=\"found-none\">");
        p.t("web-found-none", &[("text", q)]);
        p.out.push_str("</p>\n");
    } else {
        let details = p.text("web-details", &[]);
        let mut details_esc = String::new();
        esc(&details, &mut details_esc);
        let depth = ask.path.components().len();
        p.out.push_str("<ul id=\"found\">\n");
        for hit in &f.hits {
            let link = href(&hit.path, hit.dir);
            p.out.push_str(if hit.dir {
                "<li class=\"d\"><a class=\"n\" href=\""
            } else {
                "<li class=\"f\"><a class=\"n\" href=\""
            });
            p.out.push_str(&link);
            p.out.push_str("\">");
            // Its path from the folder searched.
            for (i, c) in hit.path.components()[depth..].iter().enumerate() {
                if i > 0 {
                    p.out.push('/');
                }
                name(c, &mut p.out);
            }
            if hit.dir {
                p.out.push('/');
            }
            p.out.push_str("</a>");
            if hit.info {
                p.out.push(' ');
                super::details_link(&link, &details_esc, &mut p.out);
            }
            p.out.push_str("</li>\n");
        }
        p.out.push_str("</ul>\n");
    }
    p.out.push_str("<p><a id=\"found-back\" href=\"");
    p.out.push_str(&href(&ask.path, true));
    p.out.push_str("\">");
    p.t("web-found-back", &[]);
    p.out.push_str("</a></p>\n");
    p.finish(StatusCode::OK)
}
