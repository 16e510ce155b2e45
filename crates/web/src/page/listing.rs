//! A folder's page: its listing (rows in [`super::rows`]), the forms of
//! what the user may do there, and a drop box's page (the forms, no
//! listing).

use super::*;
use crate::files::{Listing, Sort};

/// The title of a directory's page: its path, `/` after each name.
pub(super) fn dir_title(ask: &Ask) -> String {
    let mut title = String::from("/");
    for c in ask.path.components() {
        title.push_str(&PlainPath(c).to_string());
        title.push('/');
    }
    title
}

/// The forms for what the user may do in the directory: upload, new
/// folder.
fn actions(p: &mut Page<'_>, web: &Web, ask: &Ask, view: &View) {
    let here = view.rules.at(ask.path.components());
    let writable = view.user.is_some() || web.shared().session.anonymous_write;
    if writable && (here.has(Perm::Upload) || here.has(Perm::Mkdir)) {
        p.out.push_str("<section class=\"actions\">\n");
        if here.has(Perm::Upload) {
            p.out
                .push_str("<form id=\"upload\" method=\"post\" action=\"?upload\" enctype=\"multipart/form-data\">");
            let csrf = view.form_token(ask).to_owned();
            p.csrf_field(&csrf);
            p.out.push_str("<label for=\"upload-files\">");
            p.t("web-upload-label", &[]);
            p.out.push_str("</label> <input type=\"file\" name=\"file\" id=\"upload-files\" multiple> <button type=\"submit\" id=\"upload-submit\">");
            p.t("web-upload", &[]);
            p.out.push_str("</button></form>\n");
            upload_list(p);
        }
        if here.has(Perm::Mkdir) {
            p.out.push_str("<form id=\"mkdir\" method=\"post\" action=\"?mkdir\">");
            let csrf = view.form_token(ask).to_owned();
            p.csrf_field(&csrf);
            p.out.push_str("<label for=\"mkdir-name\">");
            p.t("web-mkdir-label", &[]);
            p.out.push_str("</label> <input type=\"text\" name=\"name\" id=\"mkdir-name\" required> <button type=\"submit\" id=\"mkdir-submit\">");
            p.t("web-mkdir", &[]);
            p.out.push_str("</button></form>\n");
        }
        p.out.push_str("</section>\n");
    }
}

/// The list the page's script fills with one row per file sent (issue
/// 49), and its texts: every word the script shows comes from here.
fn upload_list(p: &mut Page<'_>) {
    p.out.push_str("<ul id=\"uploads\" aria-live=\"polite\" hidden");
    for (attr, id) in [
        ("label", "web-uploads"),
        ("waiting", "web-upload-waiting"),
        ("sending", "web-upload-sending"),
        ("done", "web-upload-done"),
        ("cancel", "web-upload-cancel"),
        ("cancelled", "web-upload-cancelled"),
        ("failed", "web-upload-failed"),
    ] {
        let _ = write!(p.out, " data-{attr}=\"");
        p.t(id, &[]);
        p.out.push('"');
    }
    p.out.push_str("></ul>\n");
}

/// The page of a directory the user may put things in but not list (a
/// drop box): the header and the upload and new-folder forms, no
/// entries (issue 48; SFTPGo does the same).
pub(crate) fn drop_box(web: &Web, ask: &Ask, view: &View) -> Response {
    let title = dir_title(ask);
    let mut p = Page::new(web, ask, &title, Some(view), 1024);
    p.out.push_str("<h1 class=\"vh\">");
    esc(&title, &mut p.out);
    p.out.push_str("</h1>\n<p class=\"note\" id=\"drop-box\">");
    p.t("web-drop-box", &[]);
    p.out.push_str("</p>\n");
    actions(&mut p, web, ask, view);
    p.finish(StatusCode::OK)
}

/// A directory's page.
pub(crate) fn listing(web: &Web, ask: &Ask, view: &View, l: &Listing) -> Response {
    let title = dir_title(ask);
    let mut p = Page::new(web, ask, &title, Some(view), l.rows.len() * 430);
    // The page's heading, for screen readers (the path shows in the header).
    p.out.push_str("<h1 class=\"vh\">");
    esc(&title, &mut p.out);
    p.out.push_str("</h1>\n");
    actions(&mut p, web, ask, view);
    if l.page > 1 || l.more {
        p.out.push_str("<p class=\"note\" id=\"paged\">");
        let n = crate::files::PAGE.to_string();
        let page = l.page.to_string();
        p.t("web-paged", &[("count", &n), ("page", &page)]);
        p.out.push_str("</p>\n");
    }
    // Sorting links: the current key's toggles its order.
    let sort_link = |p: &mut Page<'_>, key: Sort, param: &str, id: &str| {
        let desc = l.sort == key && !l.desc;
        let _ = write!(
            p.out,
            "<th><a href=\"?sort={param}{}\" id=\"sort-{param}\">",
            if desc { "&amp;desc" } else { "" }
        );
        p.t(id, &[]);
        if l.sort == key {
            p.out.push_str(if l.desc { " ▼" } else { " ▲" });
        }
        p.out.push_str("</a></th>");
    };
    // Several entries as one zip (issue 49): the rows' checkboxes belong
    // to this form (`form=`), which works without JavaScript.
    // A share link's visitor gets neither (its queries are dropped).
    let zip = !l.rows.is_empty() && ask.share.is_none();
    if zip {
        zip::form(&mut p, view);
    }
    p.out.push_str("<table id=\"listing\" data-ftp=\"");
    let ftp = ftp_url(web, ask, view, &ask.path, true);
    esc(&ftp, &mut p.out);
    p.out.push_str("\" data-copy=\"");
    p.t("web-copy-ftp", &[]);
    p.out.push_str("\" data-copied=\"");
    p.t("web-copied", &[]);
    p.out.push_str("\" data-download=\"");
    p.t("web-download", &[]);
    p.out.push_str("\" data-ftp-link=\"");
    p.t("web-link-ftp", &[]);
    p.out.push_str("\">\n<thead><tr>");
    if zip {
        zip::head(&mut p);
    }
    sort_link(&mut p, Sort::Name, "name", "web-col-name");
    sort_link(&mut p, Sort::Size, "size", "web-col-size");
    sort_link(&mut p, Sort::Time, "time", "web-col-time");
    p.out.push_str("<th><span class=\"vh\">");
    p.t("web-col-actions", &[]);
    p.out.push_str("</span></th></tr></thead>\n<tbody>\n");
    if !ask.path.is_root() {
        p.out.push_str(if zip {
            "<tr class=\"up\"><td></td>"
        } else {
            "<tr class=\"up\">"
        });
        p.out
            .push_str("<td><a href=\"../\">..</a></td><td></td><td></td><td></td></tr>\n");
    }
    let texts = rows::RowTexts::new(&p, zip, ask.share.is_none());
    for row in &l.rows {
        let mut link = String::with_capacity(row.name.len() + 8);
        iri_segment(&row.name, &mut link);
        if row.dir {
            link.push('/');
        }
        rows::row(row, &link, &texts, &mut p.out);
    }
    p.out.push_str("</tbody></table>\n");
    if zip {
        p.out.push_str("</form>\n");
    }
    if l.rows.is_empty() {
        p.out.push_str("<p class=\"note\" id=\"empty\">");
        p.t("web-empty", &[]);
        p.out.push_str("</p>\n");
    }
    if l.page > 1 || l.more {
        p.out.push_str("<nav class=\"pages\">");
        let sort = match l.sort {
            Sort::Name => "name",
            Sort::Size => "size",
            Sort::Time => "time",
        };
        let desc = if l.desc { "&amp;desc" } else { "" };
        if l.page > 1 {
            let _ = write!(
                p.out,
                "<a id=\"page-prev\" href=\"?page={}&amp;sort={sort}{desc}\">",
                l.page - 1
            );
            p.t("web-page-prev", &[]);
            p.out.push_str("</a> ");
        }
        if l.more {
            let _ = write!(
                p.out,
                "<a id=\"page-next\" href=\"?page={}&amp;sort={sort}{desc}\">",
                l.page + 1
            );
            p.t("web-page-next", &[]);
            p.out.push_str("</a>");
        }
        p.out.push_str("</nav>\n");
    }
    p.finish(StatusCode::OK)
}
