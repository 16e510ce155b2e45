//! How a listing's lines look, decided by the session: the format (LIST,
//! NLST, MLSD and its facts), the `perm` fact for this session, the charset
//! names go out in (RFC 2640 A.2). The session puts a [`ListRender`] in
//! the transfer it asks for; the driver reads the directory, stamps the
//! renderer with the wall clock of that moment ([`ListRender::at`]), and
//! calls [`Lines::line`] once per entry — no allocation of its own, no
//! dynamic dispatch, so a directory of 10,000 names streams as before.
//!
//! Below the effects (a transfer carries a [`ListRender`]): pure functions
//! of the entry and the session's choices.

use babelftp_i18n::Charset;
use babelftp_policy::{Below, Perm, Perms};
use babelftp_proto::listing::{self, Entry, EntryKind};

use babelftp_proto::vpath::Capabilities;

/// RFC 3659 7.5.5: what the account may do with an entry, from its
/// permissions there (`a`, APPE, only where the storage can append).
pub fn perm_fact(kind: EntryKind, perms: Perms, caps: &Capabilities) -> String {
    let facts: &[(char, bool)] = if kind == EntryKind::Dir {
        &[
            ('c', perms.has(Perm::Upload)),
            ('d', perms.has(Perm::Rmdir)),
            ('e', true),
            ('f', perms.has(Perm::Rename)),
            ('l', perms.has(Perm::List)),
            ('m', perms.has(Perm::Mkdir)),
            ('p', perms.has(Perm::Delete)),
        ]
    } else {
        &[
            ('a', perms.has(Perm::Overwrite) && caps.append),
            ('d', perms.has(Perm::Delete)),
            ('f', perms.has(Perm::Rename)),
            ('r', perms.has(Perm::Download)),
            ('w', perms.has(Perm::Overwrite)),
        ]
    };
    facts.iter().filter(|(_, on)| *on).map(|(c, _)| *c).collect()
}

/// The listing formats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListFormat {
    /// `ls -l` lines (LIST).
    List,
    /// Names only (NLST).
    Nlst,
    /// RFC 3659 machine lines with these facts (MLSD); the path must be a
    /// directory.
    Mlsd(Vec<&'static str>),
}

/// A listing's lines as the session wants them, before the clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListRender {
    format: ListFormat,
    /// The account's permissions on the entries: an entry it may not
    /// list is left out, and MLSD's `perm` fact says what it may do.
    view: Below,
    /// The storage can append (the `a` of `perm`).
    caps: Capabilities,
    /// Names go out in this legacy client charset.
    legacy: Option<Charset>,
}

impl ListRender {
    /// The renderer of a session whose account has `view` on the
    /// directory's entries, on a storage with `caps`, whose client reads
    /// names in `legacy` (None: as stored).
    pub fn new(format: ListFormat, view: Below, caps: &Capabilities, legacy: Option<Charset>) -> Self {
        ListRender {
            format,
            view,
            caps: *caps,
            legacy,
        }
    }

    /// The format.
    pub fn format(&self) -> &ListFormat {
        &self.format
    }

    /// Names only (NLST): the storage need not stat each entry.
    pub fn names_only(&self) -> bool {
        self.format == ListFormat::Nlst
    }

    /// Only a directory can be listed (MLSD of a file is an error; LIST
    /// and NLST of a file list that file).
    pub fn needs_dir(&self) -> bool {
        matches!(self.format, ListFormat::Mlsd(_))
    }

    /// The lines of entries read when the wall clock said `now` (Unix
    /// seconds): LIST shows the time of day for what changed within six
    /// months of it, the year otherwise. The session reads no clock.
    pub fn at(self, now: i64) -> Lines {
        Lines { render: self, now }
    }
}

/// A [`ListRender`] stamped with the wall clock: writes lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lines {
    render: ListRender,
    now: i64,
}

impl Lines {
    /// What it renders.
    pub fn render(&self) -> &ListRender {
        &self.render
    }

    /// Appends an NLST line of a name alone (the storage lends names
    /// without an entry): the name in the client's charset, CR LF.
    pub fn name_line(&self, name: &[u8], out: &mut Vec<u8>) {
        if !self.render.view.shows(name) {
            return;
        }
        match self.render.legacy {
            Some(cs) => out.extend_from_slice(&babelftp_i18n::names::legacy_out(name, cs)),
            None => out.extend_from_slice(name),
        }
        out.extend_from_slice(b"\r\n");
    }

    /// Appends `e`'s line, CR LF included. `e` is taken as scratch: its
    /// name may be translated and its `perm` set in place.
    /// An entry the account may do nothing with writes nothing; one it
    /// may only upload into (a drop box) shows, with its own permissions.
    pub fn line(&self, e: &mut Entry, out: &mut Vec<u8>) {
        let r = &self.render;
        if !r.view.shows(&e.name) {
            return;
        }
        let perms = r.view.of(&e.name);
        if let Some(cs) = r.legacy {
            if let std::borrow::Cow::Owned(name) = babelftp_i18n::names::legacy_out(&e.name, cs) {
                e.name = name;
            }
        }
        match &r.format {
            ListFormat::List => listing::list_line(e, self.now, out),
            ListFormat::Nlst => {
                out.extend_from_slice(&e.name);
                out.extend_from_slice(b"\r\n");
            }
            ListFormat::Mlsd(facts) => {
                e.perm = perm_fact(e.kind, perms, &r.caps);
                listing::mlsd_line(e, facts, out)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &[u8], modified: i64) -> Entry {
        Entry {
            name: name.to_vec(),
            kind: EntryKind::File,
            size: 5,
            modified: Some(modified),
            mode: 0o644,
            nlink: 1,
            unique: None,
            perm: String::new(),
        }
    }

    fn line(lines: &Lines, mut e: Entry) -> String {
        let mut out = Vec::new();
        lines.line(&mut e, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    #[test]
    fn list_shows_time_within_six_months_and_the_year_beyond() {
        // 2024-06-15 12:00:00 UTC.
        let now = 1_718_452_800;
        let six_months = 182 * 24 * 3600;
        let lines = ListRender::new(ListFormat::List, Below::uniform(Perms::READ), &Capabilities::ALL, None).at(now);
        let recent = line(&lines, file(b"a", now - six_months + 60));
        assert!(recent.contains(':'), "within six months: the time of day: {recent}");
        let old = line(&lines, file(b"a", now - six_months - 60));
        assert!(old.contains(" 2023 "), "beyond six months: the year: {old}");
        let future = line(&lines, file(b"a", now + six_months + 60));
        assert!(future.contains(" 2024 "), "far in the future: the year: {future}");
        assert!(recent.ends_with(" a\r\n"), "{recent}");
    }

    #[test]
    fn mlsd_perm_follows_the_rules_and_caps() {
        let facts = vec!["type", "perm"];
        let ro = ListRender::new(
            ListFormat::Mlsd(facts.clone()),
            Below::uniform(Perms::READ),
            &Capabilities::ALL,
            None,
        )
        .at(0);
        assert!(line(&ro, file(b"f", 0)).contains("perm=r;"));
        let no_append = Capabilities {
            append: false,
            ..Capabilities::ALL
        };
        let rw = ListRender::new(ListFormat::Mlsd(facts), Below::uniform(Perms::ALL), &no_append, None).at(0);
        assert!(line(&rw, file(b"f", 0)).contains("perm=dfrw;"));
        let mut dir = file(b"d", 0);
        dir.kind = EntryKind::Dir;
        assert!(line(&rw, dir).contains("perm=cdeflmp;"));
    }

    #[test]
    fn entries_the_account_may_do_nothing_with_are_left_out_and_drop_boxes_show() {
        let rules = babelftp_policy::Rules::new([
            (&b"/"[..], Perms::READ),
            (b"/pub/hidden", Perms::NONE),
            (b"/pub/drop", "upload".parse().unwrap_or(Perms::NONE)),
        ])
        .unwrap_or_else(|e| panic!("{e}"));
        let view = rules.below(&[b"pub".to_vec()]);
        let facts = vec!["type", "perm"];
        let lines = ListRender::new(ListFormat::Mlsd(facts), view.clone(), &Capabilities::ALL, None).at(0);
        assert!(line(&lines, file(b"hidden", 0)).is_empty());
        assert!(line(&lines, file(b"seen", 0)).contains("perm=r;"));
        // A drop box shows in its parent, with its own permissions (issue 48).
        let mut drop = file(b"drop", 0);
        drop.kind = EntryKind::Dir;
        assert!(line(&lines, drop).contains("perm=ce;"));
        let names = ListRender::new(ListFormat::Nlst, view, &Capabilities::ALL, None).at(0);
        let mut out = Vec::new();
        names.name_line(b"hidden", &mut out);
        names.name_line(b"drop", &mut out);
        names.name_line(b"seen", &mut out);
        assert_eq!(out, b"drop\r\nseen\r\n");
    }

    #[test]
    fn names_go_out_in_the_legacy_charset() {
        let cs = Charset::for_label("windows-1251").unwrap_or_else(|| panic!("windows-1251"));
        let lines = ListRender::new(
            ListFormat::Nlst,
            Below::uniform(Perms::READ),
            &Capabilities::ALL,
            Some(cs),
        )
        .at(0);
        let mut out = Vec::new();
        lines.line(&mut file("Привет".as_bytes(), 0), &mut out);
        assert_eq!(out, b"\xcf\xf0\xe8\xe2\xe5\xf2\r\n");
    }
}
