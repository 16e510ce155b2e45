//! Share links' pages (issue 49): the form on a details page, the page
//! that shows a new link, and a share's password form.

use super::*;

impl Page<'_> {
    /// The form that makes a share link of the page's path: for a
    /// logged-in user, when the server has an accounts store and the user
    /// may read the path (or upload into the folder).
    pub(super) fn share_form(&mut self, view: &View, dir: bool) {
        if view.sid.is_none() || view.user.is_none() || crate::share::store(self.web).is_none() {
            return;
        }
        let at = view.rules.at(self.ask.path.components());
        let read = at.has(if dir { Perm::List } else { Perm::Download });
        let upload = dir && at.has(Perm::Upload);
        if !read && !upload {
            return;
        }
        self.out
            .push_str("<section class=\"share\" aria-labelledby=\"share-title\"><h2 id=\"share-title\">");
        self.t("web-share-title", &[]);
        self.out.push_str("</h2>\n<form id=\"share\" method=\"post\" action=\"");
        self.out.push_str(&href(&self.ask.path, dir));
        self.out.push_str("?share\">");
        let csrf = view.form_token(self.ask).to_owned();
        self.csrf_field(&csrf);
        self.out.push_str("<label for=\"share-expires\">");
        self.t("web-share-expires", &[]);
        self.out
            .push_str("</label> <select name=\"expires\" id=\"share-expires\">");
        for (value, id) in [
            ("", "web-share-never"),
            ("1h", "web-share-hour"),
            ("1d", "web-share-day"),
            ("7d", "web-share-week"),
            ("30d", "web-share-month"),
        ] {
            let _ = write!(
                self.out,
                "<option value=\"{value}\"{}>",
                if value == "7d" { " selected" } else { "" }
            );
            self.t(id, &[]);
            self.out.push_str("</option>");
        }
        self.out.push_str("</select>\n<label for=\"share-password\">");
        self.t("web-share-password", &[]);
        self.out.push_str("</label> <input type=\"password\" name=\"password\" id=\"share-password\" autocomplete=\"new-password\">\n<label for=\"share-max\">");
        self.t("web-share-max", &[]);
        self.out.push_str(
            "</label> <input type=\"number\" name=\"max\" id=\"share-max\" min=\"1\" inputmode=\"numeric\">\n",
        );
        if upload {
            self.out
                .push_str("<input type=\"checkbox\" name=\"upload\" id=\"share-upload\" value=\"1\"");
            if !read {
                self.out.push_str(" checked disabled");
            }
            self.out.push_str("> <label for=\"share-upload\">");
            self.t("web-share-upload", &[]);
            self.out.push_str("</label>\n");
            if !read {
                self.out.push_str("<input type=\"hidden\" name=\"upload\" value=\"1\">");
            }
        }
        self.out.push_str("<button type=\"submit\" id=\"share-submit\">");
        self.t("web-share-create", &[]);
        self.out.push_str("</button></form></section>\n");
    }
}

/// The page of a new share link: the link, shown once.
pub(crate) fn share_created(web: &Web, ask: &Ask, view: &View, url: &str, id: &str) -> Response {
    let title = web.text(ask.lang, "web-share-title", &[]);
    let mut p = Page::new(web, ask, &title, Some(view), 1024);
    p.out.push_str("<h1>");
    esc(&title, &mut p.out);
    p.out.push_str("</h1>\n<p class=\"note\" id=\"share-created\">");
    p.t("web-share-created", &[("id", id)]);
    p.out.push_str("</p>\n<p><a id=\"share-url\" href=\"");
    esc(url, &mut p.out);
    p.out.push_str("\">");
    esc(url, &mut p.out);
    p.out.push_str("</a></p>\n<p><a id=\"share-back\" href=\"");
    p.out.push_str(&href(&ask.path, ask.slash));
    p.out.push_str("?info\">");
    p.t("web-found-back", &[]);
    p.out.push_str("</a></p>\n");
    p.finish(StatusCode::CREATED)
}

/// A share's password form (`wrong`: after a wrong one).
pub(crate) fn share_password(web: &Web, ask: &Ask, status: StatusCode, wrong: bool) -> Response {
    let title = web.text(ask.lang, "web-share-locked", &[]);
    let mut p = Page::open(web, ask, &title, None, 1024, false);
    p.out.push_str("<h1 id=\"share-locked\">");
    esc(&title, &mut p.out);
    p.out.push_str("</h1>\n<form id=\"share-unlock\" method=\"post\">");
    let csrf = ask.csrf().to_owned();
    p.csrf_field(&csrf);
    if wrong {
        p.out.push_str("<p class=\"error\" id=\"share-wrong\" role=\"alert\">");
        p.t("web-share-wrong", &[]);
        p.out.push_str("</p>\n");
    }
    p.out.push_str("<label for=\"share-unlock-password\">");
    p.t("web-password", &[]);
    p.out.push_str("</label> <input type=\"password\" name=\"password\" id=\"share-unlock-password\" autocomplete=\"current-password\" required>\n<button type=\"submit\" id=\"share-unlock-submit\">");
    p.t("web-share-open", &[]);
    p.out.push_str("</button></form>\n");
    p.finish(status)
}
