//! The listing's parts for a zip of several entries (issue 49): a form
//! `zip-form` posting to `?zip` that holds the table, and a checkbox per
//! row, named after its row for screen readers. It
//! works without JavaScript: ticking and the button are plain HTML.

use super::{name_text, Page, View};

/// The form's start: the token and the button (above the table, which
/// the form holds; the listing closes it).
pub(super) fn form(p: &mut Page<'_>, view: &View) {
    p.out
        .push_str("<form id=\"zip-form\" class=\"zip\" method=\"post\" action=\"?zip\">");
    let csrf = view.form_token(p.ask).to_owned();
    p.csrf_field(&csrf);
    p.out.push_str("<button type=\"submit\" id=\"zip-submit\">");
    p.t("web-zip-download", &[]);
    p.out.push_str("</button>\n");
}

/// The checkboxes' column header.
pub(super) fn head(p: &mut Page<'_>) {
    p.out.push_str("<th class=\"c\">");
    p.t("web-zip-select", &[]);
    p.out.push_str("</th>");
}

/// A row's checkbox: its value the name as its link carries it (`%HH`
/// of octets that are not UTF-8 round-trip), its label the name as shown.
pub(super) fn pick(name: &[u8], link: &str, out: &mut String) {
    out.push_str("<td class=\"c\"><input type=\"checkbox\" name=\"name\" value=\"");
    // The link without a folder's final `/` (`iri_segment`: `%HH` of
    // what is not UTF-8; the form sends it back and `%HH` is decoded).
    out.push_str(link.strip_suffix('/').unwrap_or(link));
    out.push_str("\" aria-label=\"");
    name_text(name, out);
    out.push_str("\"></td>");
}
