//! A listing's rows (issue 49): the name, the size in human units with
//! the exact count of octets in its `title` (on hover, and the cell's
//! description for screen readers), the time as `<time>` with its zone,
//! and a row menu (`<details>`) instead of a button per row. Lean, as a
//! listing may have 10,000 rows: links are IRIs ([`crate::iri_segment`]),
//! and the menu holds what the server alone can say (the details page,
//! a preview); the page's script adds the FTP link, "Copy FTP link" and
//! "Download" when it first opens, and closing by Escape. Without
//! script, the FTP link is on the details page.

use super::*;
use crate::files::Row;

/// What every row repeats, translated and escaped once per page.
pub(super) struct RowTexts {
    /// "{ $bytes } bytes" around the count.
    exact: (String, String),
    /// "Actions for { $name }" around the name.
    menu: (String, String),
    details: String,
    /// Rows carry a checkbox of the zip form.
    zip: bool,
    /// The row menu and previews: not on a share link's pages, which have
    /// no details page, FTP link or preview.
    menus: bool,
    /// "Preview", for files a preview shows.
    preview: super::preview::Links,
}

/// A message with one argument, split around it and escaped: the texts
/// before and after (catalogs place it anywhere).
fn around(p: &Page<'_>, id: &str, arg: &str) -> (String, String) {
    let whole = p.text(id, &[(arg, "\u{1}")]);
    let (a, b) = whole.split_once('\u{1}').unwrap_or((whole.as_str(), ""));
    let (mut x, mut y) = (String::new(), String::new());
    esc(a, &mut x);
    esc(b, &mut y);
    (x, y)
}

impl RowTexts {
    pub(super) fn new(p: &Page<'_>, zip: bool, menus: bool) -> RowTexts {
        let one = |id: &str| {
            let mut s = String::new();
            esc(&p.text(id, &[]), &mut s);
            s
        };
        RowTexts {
            exact: around(p, "web-size-exact", "bytes"),
            menu: around(p, "web-row-menu", "name"),
            details: one("web-details"),
            zip,
            menus,
            preview: super::preview::Links::new(p),
        }
    }
}

/// `2026-11-26T01:01:00Z` of Unix seconds (a `<time>`'s `datetime`).
fn iso(secs: i64, out: &mut String) {
    let c = babelftp_proto::listing::Civil::from_unix(secs);
    let _ = write!(
        out,
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        c.year, c.month, c.day, c.hour, c.minute, c.second
    );
}

/// A time with its zone: `<time datetime="…Z">YYYY-MM-DD HH:MM UTC</time>`.
pub(super) fn time_utc(secs: i64, out: &mut String) {
    out.push_str("<time datetime=\"");
    iso(secs, out);
    out.push_str("\">");
    time(secs, out);
    out.push_str(" UTC</time>");
}

/// A size: human units shown, the exact count on hover and read with it.
pub(super) fn size(n: u64, t: &RowTexts, out: &mut String) {
    let human = babelftp_i18n::format_size(n);
    let _ = write!(
        out,
        "<data value=\"{n}\" title=\"{}{n}{}\">{human}</data>",
        t.exact.0, t.exact.1
    );
}

/// One row: `link` is the entry's percent-encoded name (`/` after a folder's).
pub(super) fn row(r: &Row, link: &str, t: &RowTexts, out: &mut String) {
    out.push_str(if r.dir { "<tr class=\"d\">" } else { "<tr class=\"f\">" });
    if t.zip {
        super::zip::pick(&r.name, link, out);
    }
    out.push_str("<td><a class=\"n\" href=\"");
    out.push_str(link);
    out.push_str("\">");
    name(&r.name, out);
    if r.dir {
        out.push('/');
    }
    out.push_str("</a></td><td class=\"s\">");
    if !r.dir {
        size(r.size, t, out);
    }
    out.push_str("</td><td class=\"t\">");
    if let Some(m) = r.modified {
        time_utc(m, out);
    }
    // Lean: a listing may have 10,000 rows. The script adds "Copy FTP
    // link" and, for a file, "Download" (its name's link) when the menu
    // first opens.
    if !t.menus {
        out.push_str("</td><td class=\"m\"></td></tr>\n");
        return;
    }
    out.push_str("</td><td class=\"m\"><details><summary aria-label=\"");
    out.push_str(&t.menu.0);
    name_text(&r.name, out);
    out.push_str(&t.menu.1);
    out.push_str("\">⋯</summary><div>");
    if r.info {
        details_link(link, &t.details, out);
    }
    if !r.dir && r.read {
        super::preview::link(&r.name, link, &t.preview, out);
    }
    out.push_str("</div></details></td></tr>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts() -> RowTexts {
        RowTexts {
            exact: (String::new(), " bytes".into()),
            menu: ("Actions for ".into(), String::new()),
            details: "details".into(),
            zip: false,
            menus: true,
            preview: super::super::preview::Links::for_tests(),
        }
    }

    #[test]
    fn a_hostile_name_stays_text_in_the_menus_label() {
        let r = Row {
            name: b"\"><img src=x onerror=alert(1)>\xE9".to_vec(),
            dir: false,
            size: 1_234_567,
            modified: Some(0),
            info: true,
            read: true,
        };
        let mut out = String::new();
        row(&r, "%22%3E%3Cimg", &texts(), &mut out);
        assert!(!out.contains("<img"), "{out}");
        assert!(
            out.contains("aria-label=\"Actions for &quot;&gt;&lt;img src=x onerror=alert(1)&gt;%E9\""),
            "{out}"
        );
        assert!(
            out.contains("<data value=\"1234567\" title=\"1234567 bytes\">1.1 MiB</data></td>"),
            "{out}"
        );
        assert!(
            out.contains("<time datetime=\"1970-01-01T00:00:00Z\">1970-01-01 00:00 UTC</time>"),
            "{out}"
        );
    }

    #[test]
    fn a_small_size_is_exact_already() {
        let mut out = String::new();
        size(1023, &texts(), &mut out);
        assert_eq!(out, "<data value=\"1023\" title=\"1023 bytes\">1023 B</data>");
    }
}
