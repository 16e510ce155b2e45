//! Pathname translation between the wire and a local charset, following
//! RFC 2640 Annex B.3 and Annex A.
//!
//! Two layers can apply, both pure:
//! - the **filesystem** layer (a translating server, A.1): names on disk are
//!   in a local charset, per directory subtree ([`CharsetMap`]); outgoing
//!   names become UTF-8 when they translate *losslessly* and otherwise go
//!   out as their raw bytes, so nothing becomes unreachable
//!   ([`local_to_wire`]); incoming names yield the candidates B.3 says to
//!   try, in order ([`wire_candidates`]);
//! - the **legacy client** layer (A.2): a client that has not shown it
//!   speaks UTF-8 (no LANG, HOST or `OPTS UTF8 ON` yet) may send names in
//!   a configured legacy charset ([`legacy_in`], [`legacy_out`]).
//!
//! No function here ever substitutes a character: a name that cannot be
//! converted exactly is passed through as bytes.

use std::borrow::Cow;

use crate::Charset;

/// The local charset of each directory: a default for the whole tree and
/// overrides for subtrees (`/ru` is KOI8-R, `/jp` is Shift_JIS, …). The
/// longest matching subtree wins. Subtree paths are written as clients
/// see them (UTF-8).
#[derive(Debug, Clone, Default)]
pub struct CharsetMap {
    default: Option<Charset>,
    dirs: Vec<(Vec<Vec<u8>>, Charset)>,
}

impl CharsetMap {
    /// A map with a default (None: names are bytes, no translation) and
    /// subtree overrides given as `/a/b`-style paths.
    pub fn new(default: Option<Charset>, dirs: Vec<(String, Charset)>) -> CharsetMap {
        let mut dirs: Vec<(Vec<Vec<u8>>, Charset)> = dirs
            .into_iter()
            .map(|(p, c)| {
                let comps = p
                    .split('/')
                    .filter(|c| !c.is_empty() && *c != ".")
                    .map(|c| c.as_bytes().to_vec())
                    .collect();
                (comps, c)
            })
            .collect();
        // Longest prefix first, so the first match is the most specific.
        dirs.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
        CharsetMap { default, dirs }
    }

    /// Whether no translation is configured at all (mirror behaviour).
    pub fn is_identity(&self) -> bool {
        self.default.is_none() && self.dirs.is_empty()
    }

    /// The charset of names inside the directory `dir` (its components
    /// from the root, as on the wire).
    pub fn for_dir(&self, dir: &[Vec<u8>]) -> Option<Charset> {
        self.dirs
            .iter()
            .find(|(prefix, _)| dir.starts_with(prefix))
            .map(|(_, c)| *c)
            .or(self.default)
    }
}

/// An outgoing name (RFC 2640 B.3): the UTF-8 form of a local name when
/// it translates losslessly, else the raw bytes.
pub fn local_to_wire(local: &[u8], cs: Option<Charset>) -> Cow<'_, [u8]> {
    match cs.and_then(|c| c.to_utf8(local)) {
        Some(s) if s.as_bytes() != local => Cow::Owned(s.into_bytes()),
        _ => Cow::Borrowed(local),
    }
}

/// The local names to try for an incoming name, in B.3's order: the
/// translated name (when the wire name is valid UTF-8 and translates),
/// then the raw bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidates {
    /// The name in the local charset, when it differs from the raw bytes.
    pub translated: Option<Vec<u8>>,
    /// Whether the wire name is valid UTF-8 that the local charset cannot
    /// represent (so creating it would need the raw bytes).
    pub untranslatable: bool,
}

/// What to try for an incoming `wire` name in a directory of charset `cs`.
pub fn wire_candidates(wire: &[u8], cs: Option<Charset>) -> Candidates {
    let Some(cs) = cs else {
        return Candidates {
            translated: None,
            untranslatable: false,
        };
    };
    match std::str::from_utf8(wire) {
        // Not UTF-8: the client sent raw bytes (perhaps a name we listed
        // raw); use them as they are.
        Err(_) => Candidates {
            translated: None,
            untranslatable: false,
        },
        Ok(text) => match cs.from_utf8(text) {
            Some(local) if local != wire => Candidates {
                translated: Some(local),
                untranslatable: false,
            },
            Some(_) => Candidates {
                translated: None,
                untranslatable: false,
            },
            None => Candidates {
                translated: None,
                untranslatable: true,
            },
        },
    }
}

/// A legacy client's name to UTF-8 (A.2): decoded when the bytes are
/// valid in the client charset and round-trip, else as sent.
pub fn legacy_in(wire: &[u8], cs: Charset) -> Cow<'_, [u8]> {
    local_to_wire(wire, Some(cs))
}

/// A name for a legacy client: encoded in its charset when the name is
/// UTF-8 and representable, else the raw bytes.
pub fn legacy_out(name: &[u8], cs: Charset) -> Cow<'_, [u8]> {
    match std::str::from_utf8(name).ok().and_then(|s| cs.from_utf8(s)) {
        Some(local) if local != name => Cow::Owned(local),
        _ => Cow::Borrowed(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cs(l: &str) -> Charset {
        Charset::for_label(l).unwrap()
    }

    #[test]
    fn longest_subtree_wins() {
        let m = CharsetMap::new(
            Some(cs("windows-1252")),
            vec![
                ("/ru".into(), cs("koi8-r")),
                ("/ru/ua".into(), cs("koi8-u")),
                ("/jp/".into(), cs("shift_jis")),
            ],
        );
        let p = |s: &str| {
            s.split('/')
                .filter(|c| !c.is_empty())
                .map(|c| c.as_bytes().to_vec())
                .collect::<Vec<_>>()
        };
        assert_eq!(m.for_dir(&p("/ru")), Some(cs("koi8-r")));
        assert_eq!(m.for_dir(&p("/ru/x")), Some(cs("koi8-r")));
        assert_eq!(m.for_dir(&p("/ru/ua/x")), Some(cs("koi8-u")));
        assert_eq!(m.for_dir(&p("/jp")), Some(cs("shift_jis")));
        assert_eq!(m.for_dir(&p("/rus")), Some(cs("windows-1252")));
        assert_eq!(m.for_dir(&p("/")), Some(cs("windows-1252")));
        assert!(CharsetMap::default().is_identity());
        assert!(!m.is_identity());
    }

    #[test]
    fn outgoing_names_rfc2640_b3() {
        // KOI8-R "файл" → UTF-8.
        let koi = b"\xc6\xc1\xca\xcc";
        assert_eq!(&*local_to_wire(koi, Some(cs("koi8-r"))), "файл".as_bytes());
        // ASCII stays borrowed and the same.
        assert!(matches!(local_to_wire(b"a.txt", Some(cs("koi8-r"))), Cow::Borrowed(_)));
        // A Shift_JIS user-defined-area name does not round-trip: raw.
        assert_eq!(&*local_to_wire(b"\xf0\x40", Some(cs("shift_jis"))), b"\xf0\x40");
        // No charset: bytes as they are.
        assert_eq!(&*local_to_wire(koi, None), koi);
    }

    #[test]
    fn incoming_candidates_rfc2640_b3() {
        let c = wire_candidates("файл".as_bytes(), Some(cs("koi8-r")));
        assert_eq!(c.translated.as_deref(), Some(&b"\xc6\xc1\xca\xcc"[..]));
        assert!(!c.untranslatable);
        // Not UTF-8: raw only.
        assert_eq!(wire_candidates(b"\xc6\xc1", Some(cs("koi8-r"))).translated, None);
        // UTF-8 that KOI8-R cannot hold (ў, 日).
        let c = wire_candidates("ўх日".as_bytes(), Some(cs("koi8-r")));
        assert!(c.untranslatable && c.translated.is_none());
        assert_eq!(wire_candidates(b"plain", Some(cs("koi8-r"))).translated, None);
    }

    #[test]
    fn legacy_client_both_ways() {
        let w = cs("windows-1251");
        // "привет" in CP1251 from an old client becomes UTF-8 …
        assert_eq!(&*legacy_in(b"\xef\xf0\xe8\xe2\xe5\xf2", w), "привет".as_bytes());
        // … and UTF-8 names go back in CP1251.
        assert_eq!(&*legacy_out("привет".as_bytes(), w), b"\xef\xf0\xe8\xe2\xe5\xf2");
        // Not representable: raw UTF-8 bytes.
        assert_eq!(&*legacy_out("日本".as_bytes(), w), "日本".as_bytes());
    }
}
