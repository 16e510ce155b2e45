//! Language tags (RFC 1766, as RFC 2640 4.1 uses them) and the FEAT
//! `LANG` fact (RFC 2640 4.3).
//!
//! RFC 1766 2: `Language-Tag = Primary-tag *( "-" Subtag )`,
//! `Primary-tag = 1*8ALPHA`, `Subtag = 1*8ALPHA`, and "tags are case
//! insensitive". We follow it, with one deliberate widening taken from
//! RFC 3066 (which obsoletes 1766): subtags may also hold digits, so a
//! client asking for `es-419` gets a 504 "not supported" rather than a 501
//! "syntax error". The primary tag stays letters only.
//!
//! Negotiation (which tag we serve) is not here: it belongs to the i18n
//! crate. This module only says what is well formed and how it is written.

use std::fmt;
use std::str::FromStr;

/// A well-formed RFC 1766 language tag, kept as written; comparison and
/// hashing ignore ASCII case.
#[derive(Clone)]
pub struct LangTag(String);

/// Why a string is not a language tag (reply 501).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LangTagError {
    /// No tag at all.
    #[error("empty language tag")]
    Empty,
    /// The primary tag must be 1 to 8 letters.
    #[error("the primary tag must be 1 to 8 ASCII letters")]
    BadPrimary,
    /// A subtag must be 1 to 8 letters or digits.
    #[error("subtag {0} must be 1 to 8 ASCII letters or digits")]
    BadSubtag(usize),
}

impl LangTag {
    /// Parses a tag from argument bytes.
    pub fn parse(bytes: &[u8]) -> Result<Self, LangTagError> {
        if bytes.is_empty() {
            return Err(LangTagError::Empty);
        }
        let mut parts = bytes.split(|&b| b == b'-');
        let primary = parts.next().unwrap_or_default();
        if primary.is_empty() || primary.len() > 8 || !primary.iter().all(|b| b.is_ascii_alphabetic()) {
            return Err(LangTagError::BadPrimary);
        }
        for (i, sub) in parts.enumerate() {
            if sub.is_empty() || sub.len() > 8 || !sub.iter().all(|b| b.is_ascii_alphanumeric()) {
                return Err(LangTagError::BadSubtag(i + 1));
            }
        }
        // Only ASCII letters, digits and '-' remain.
        Ok(LangTag(bytes.iter().map(|&b| b as char).collect()))
    }

    /// The tag as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The primary tag (`fr` of `fr-CA`).
    pub fn primary(&self) -> &str {
        self.0.split('-').next().unwrap_or(&self.0)
    }

    /// The conventional spelling: primary in lower case, two-letter region
    /// subtags in upper case, four-letter script subtags in title case
    /// (`EN-us` → `en-US`, `zh-hant-tw` → `zh-Hant-TW`).
    pub fn canonical(&self) -> String {
        let mut out = String::with_capacity(self.0.len());
        for (i, part) in self.0.split('-').enumerate() {
            if i > 0 {
                out.push('-');
            }
            if i > 0 && part.len() == 2 {
                out.push_str(&part.to_ascii_uppercase());
            } else if i > 0 && part.len() == 4 && part.bytes().all(|b| b.is_ascii_alphabetic()) {
                let lower = part.to_ascii_lowercase();
                out.push_str(&lower[..1].to_ascii_uppercase());
                out.push_str(&lower[1..]);
            } else {
                out.push_str(&part.to_ascii_lowercase());
            }
        }
        out
    }
}

impl PartialEq for LangTag {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_ignore_ascii_case(&other.0)
    }
}
impl Eq for LangTag {}

impl std::hash::Hash for LangTag {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for b in self.0.bytes() {
            state.write_u8(b.to_ascii_lowercase());
        }
    }
}

impl fmt::Display for LangTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for LangTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LangTag({})", self.0)
    }
}

impl FromStr for LangTag {
    type Err = LangTagError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        LangTag::parse(s.as_bytes())
    }
}

/// The FEAT `LANG` fact (RFC 2640 4.3):
/// `lang-fact = lang-tag ["*"] *(";" lang-tag ["*"])`; the `*` marks the
/// language in use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LangFact {
    /// The languages offered, in the server's order.
    pub tags: Vec<LangTag>,
    /// Index in `tags` of the language in use, if the server marked one.
    pub current: Option<usize>,
}

impl LangFact {
    /// Writes the fact (`EN*;FR`), without the leading ` LANG `.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        for (i, t) in self.tags.iter().enumerate() {
            if i > 0 {
                out.push(';');
            }
            out.push_str(t.as_str());
            if self.current == Some(i) {
                out.push('*');
            }
        }
        out
    }

    /// Reads a fact leniently: spaces around entries and empty entries are
    /// ignored, malformed entries are skipped (a client must still connect
    /// to a server that lists `C.UTF-8*`, as ProFTPD can).
    pub fn parse(fact: &[u8]) -> LangFact {
        let mut tags = Vec::new();
        let mut current = None;
        for entry in fact.split(|&b| b == b';') {
            let entry = entry.trim_ascii();
            let (entry, star) = match entry.strip_suffix(b"*") {
                Some(e) => (e.trim_ascii(), true),
                None => (entry, false),
            };
            if let Ok(tag) = LangTag::parse(entry) {
                if star {
                    current = Some(tags.len());
                }
                tags.push(tag);
            }
        }
        LangFact { tags, current }
    }

    /// The language marked as in use.
    pub fn current_tag(&self) -> Option<&LangTag> {
        self.current.and_then(|i| self.tags.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc1766_grammar() {
        for ok in [
            "en",
            "EN",
            "en-US",
            "i-klingon",
            "x-pig-latin",
            "zh-Hant-TW",
            "es-419",
            "abcdefgh-abcdefgh",
        ] {
            assert!(LangTag::parse(ok.as_bytes()).is_ok(), "{ok}");
        }
        assert_eq!(LangTag::parse(b""), Err(LangTagError::Empty));
        assert_eq!(LangTag::parse(b"abcdefghi"), Err(LangTagError::BadPrimary));
        assert_eq!(LangTag::parse(b"e1"), Err(LangTagError::BadPrimary));
        assert_eq!(LangTag::parse(b"-en"), Err(LangTagError::BadPrimary));
        assert_eq!(LangTag::parse(b"en-"), Err(LangTagError::BadSubtag(1)));
        assert_eq!(LangTag::parse(b"en--US"), Err(LangTagError::BadSubtag(1)));
        assert_eq!(LangTag::parse(b"en-US-abcdefghi"), Err(LangTagError::BadSubtag(2)));
        assert_eq!(LangTag::parse(b"en_US"), Err(LangTagError::BadPrimary));
        assert_eq!(LangTag::parse(b"fr FR"), Err(LangTagError::BadPrimary));
        assert_eq!(LangTag::parse("fr-Ç".as_bytes()), Err(LangTagError::BadSubtag(1)));
    }

    #[test]
    fn case_insensitive_rfc1766() {
        let a: LangTag = "EN-us".parse().unwrap();
        let b: LangTag = "en-US".parse().unwrap();
        assert_eq!(a, b);
        assert_eq!(a.as_str(), "EN-us");
        assert_eq!(a.canonical(), "en-US");
        assert_eq!("zh-hant-tw".parse::<LangTag>().unwrap().canonical(), "zh-Hant-TW");
        assert_eq!(a.primary(), "EN");
        use std::collections::HashSet;
        let set: HashSet<LangTag> = [a, b].into_iter().collect();
        assert_eq!(set.len(), 1);
    }

    #[test]
    fn lang_fact_both_ways_rfc2640_4_3() {
        let f = LangFact::parse(b"EN*;FR");
        assert_eq!(f.tags.len(), 2);
        assert_eq!(f.current_tag().unwrap().as_str(), "EN");
        assert_eq!(f.encode(), "EN*;FR");
        let g = LangFact::parse(b" en ; fr-FR* ;; C.UTF-8 ;ja");
        assert_eq!(
            g.tags.iter().map(LangTag::as_str).collect::<Vec<_>>(),
            ["en", "fr-FR", "ja"]
        );
        assert_eq!(g.current_tag().unwrap().as_str(), "fr-FR");
        assert_eq!(g.encode(), "en;fr-FR*;ja");
        assert_eq!(LangFact::parse(b"").tags.len(), 0);
    }
}
