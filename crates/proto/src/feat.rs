//! FEAT (RFC 2389) reply lines, both ways.
//!
//! RFC 2389 3.2: "Each extension supported must be listed on a separate
//! line ... the first character of each line is a space" — exactly one SP,
//! then the feature name in upper case, optionally SP and parameters.
//! RFC 2640 3.2 adds ` UTF8`, 4.3 adds ` LANG <lang-fact>`.
//!
//! Parsing (client side) is lenient in the ways real servers need: any
//! leading whitespace, lower-case names, `UTF8 ON`, lines without the SP.

use crate::lang::LangFact;
use crate::reply::{Reply, ReplyCode};

/// One feature line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Feature {
    /// `UTF8` (RFC 2640 3.2): pathnames are UTF-8.
    Utf8,
    /// `LANG EN*;FR` (RFC 2640 4.3).
    Lang(LangFact),
    /// `MLST type*;size*;…` (RFC 3659 7.8): facts offered, `*` = enabled.
    Mlst(Vec<(String, bool)>),
    /// `SIZE` (RFC 3659 4).
    Size,
    /// `MDTM` (RFC 3659 3).
    Mdtm,
    /// `MFMT` (draft-somers-ftp-mfxx 3): the server sets modification
    /// times.
    Mfmt,
    /// `REST STREAM` (RFC 3659 5).
    RestStream,
    /// `EPSV` (RFC 2428).
    Epsv,
    /// `EPRT` (RFC 2428).
    Eprt,
    /// `HOST` (RFC 7151).
    Host,
    /// `TVFS` (RFC 3659 6).
    Tvfs,
    /// `AUTH TLS` (RFC 4217), with the mechanisms listed.
    Auth(Vec<String>),
    /// `PBSZ` (RFC 4217).
    Pbsz,
    /// `PROT` (RFC 4217).
    Prot,
    /// Any other line, name upper-cased, parameters as sent.
    Other(String, Vec<u8>),
}

impl Feature {
    /// The feature line without the leading SP (`LANG EN*;FR`).
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Feature::Utf8 => b"UTF8".to_vec(),
            Feature::Lang(f) => format!("LANG {}", f.encode()).into_bytes(),
            Feature::Mlst(facts) => {
                let mut s = String::from("MLST ");
                for (name, on) in facts {
                    s.push_str(name);
                    if *on {
                        s.push('*');
                    }
                    s.push(';');
                }
                s.into_bytes()
            }
            Feature::Size => b"SIZE".to_vec(),
            Feature::Mdtm => b"MDTM".to_vec(),
            Feature::Mfmt => b"MFMT".to_vec(),
            Feature::RestStream => b"REST STREAM".to_vec(),
            Feature::Epsv => b"EPSV".to_vec(),
            Feature::Eprt => b"EPRT".to_vec(),
            Feature::Host => b"HOST".to_vec(),
            Feature::Tvfs => b"TVFS".to_vec(),
            Feature::Auth(m) => format!("AUTH {}", m.join(";")).into_bytes(),
            Feature::Pbsz => b"PBSZ".to_vec(),
            Feature::Prot => b"PROT".to_vec(),
            Feature::Other(name, params) => {
                let mut v = name.as_bytes().to_vec();
                if !params.is_empty() {
                    v.push(b' ');
                    v.extend_from_slice(params);
                }
                v
            }
        }
    }

    /// Reads one feature line leniently (any leading whitespace, any case).
    /// `None` for a blank line.
    pub fn parse(line: &[u8]) -> Option<Feature> {
        let line = line.trim_ascii();
        if line.is_empty() {
            return None;
        }
        let (name, params) = match line.iter().position(|&b| b == b' ' || b == b'\t') {
            Some(i) => (&line[..i], line[i + 1..].trim_ascii()),
            None => (line, &b""[..]),
        };
        let name = String::from_utf8(name.to_ascii_uppercase()).ok()?;
        let upper_params = params.to_ascii_uppercase();
        Some(match name.as_str() {
            // "UTF8 ON" is what some servers print; it means the same.
            "UTF8" | "UTF-8" => Feature::Utf8,
            "LANG" => Feature::Lang(LangFact::parse(params)),
            "MLST" | "MLSD" => Feature::Mlst(
                params
                    .split(|&b| b == b';')
                    .filter(|f| !f.is_empty())
                    .map(|f| {
                        let on = f.ends_with(b"*");
                        let f = f.strip_suffix(b"*").unwrap_or(f);
                        (f.escape_ascii().to_string().to_ascii_lowercase(), on)
                    })
                    .collect(),
            ),
            "SIZE" => Feature::Size,
            "MDTM" => Feature::Mdtm,
            "MFMT" => Feature::Mfmt,
            "REST" if upper_params.starts_with(b"STREAM") => Feature::RestStream,
            "EPSV" => Feature::Epsv,
            "EPRT" => Feature::Eprt,
            "HOST" => Feature::Host,
            "TVFS" => Feature::Tvfs,
            "AUTH" => Feature::Auth(
                upper_params
                    .split(|&b| b == b';' || b == b' ')
                    .filter(|m| !m.is_empty())
                    .map(|m| m.escape_ascii().to_string())
                    .collect(),
            ),
            "PBSZ" => Feature::Pbsz,
            "PROT" => Feature::Prot,
            _ => Feature::Other(name, params.to_vec()),
        })
    }
}

/// The set of features a server announces.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Features(pub Vec<Feature>);

impl Features {
    /// The 211 reply: `211-<intro>`, one ` FEATURE` line each, `211 <end>`.
    /// The intro and end texts are localized by the caller.
    pub fn reply(&self, intro: &[u8], end: &[u8]) -> Reply {
        let mut lines = Vec::with_capacity(self.0.len() + 2);
        lines.push(intro.to_vec());
        for f in &self.0 {
            let mut l = vec![b' '];
            l.extend(f.encode());
            lines.push(l);
        }
        lines.push(end.to_vec());
        Reply::multi(ReplyCode::SYSTEM_STATUS, lines)
    }

    /// Reads the features from a FEAT reply. Anything but a 211 means the
    /// server has no FEAT (RFC 2389 3.1: 500 or 502), i.e. no features.
    pub fn from_reply(reply: &Reply) -> Features {
        if reply.code != ReplyCode::SYSTEM_STATUS || reply.lines.len() < 2 {
            return Features::default();
        }
        let body = &reply.lines[1..reply.lines.len() - 1];
        Features(body.iter().filter_map(|l| Feature::parse(l)).collect())
    }

    /// Whether the server announced UTF8.
    pub fn utf8(&self) -> bool {
        self.0.contains(&Feature::Utf8)
    }

    /// The LANG fact, if announced.
    pub fn lang(&self) -> Option<&LangFact> {
        self.0.iter().find_map(|f| match f {
            Feature::Lang(l) => Some(l),
            _ => None,
        })
    }

    /// Whether a feature of the same kind is present.
    pub fn has(&self, f: &Feature) -> bool {
        self.0
            .iter()
            .any(|x| std::mem::discriminant(x) == std::mem::discriminant(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feat_reply_has_exactly_one_leading_space_rfc2389_3_2() {
        let lang = LangFact::parse(b"en*;fr");
        let f = Features(vec![
            Feature::Utf8,
            Feature::Lang(lang),
            Feature::Size,
            Feature::RestStream,
        ]);
        let wire = f.reply(b"Extensions supported:", b"End").to_bytes();
        assert_eq!(
            wire,
            b"211-Extensions supported:\r\n UTF8\r\n LANG en*;fr\r\n SIZE\r\n REST STREAM\r\n211 End\r\n".to_vec()
        );
    }

    #[test]
    fn parse_lenient_lines() {
        assert_eq!(Feature::parse(b" UTF8"), Some(Feature::Utf8));
        assert_eq!(Feature::parse(b"  utf8 ON"), Some(Feature::Utf8));
        assert_eq!(Feature::parse(b"UTF8"), Some(Feature::Utf8));
        assert_eq!(Feature::parse(b"\tsize"), Some(Feature::Size));
        assert_eq!(Feature::parse(b" REST STREAM"), Some(Feature::RestStream));
        assert_eq!(Feature::parse(b" MFMT"), Some(Feature::Mfmt));
        assert_eq!(Feature::parse(b"mfmt"), Some(Feature::Mfmt));
        assert_eq!(
            Feature::parse(b" AUTH TLS;SSL"),
            Some(Feature::Auth(vec!["TLS".into(), "SSL".into()]))
        );
        assert_eq!(Feature::parse(b"   "), None);
        assert_eq!(
            Feature::parse(b" MLST type*;size*;modify;"),
            Some(Feature::Mlst(vec![
                ("type".into(), true),
                ("size".into(), true),
                ("modify".into(), false)
            ]))
        );
        assert_eq!(
            Feature::parse(b" XCRC \"file\""),
            Some(Feature::Other("XCRC".into(), b"\"file\"".to_vec()))
        );
    }

    #[test]
    fn round_trip_through_reply() {
        let f = Features(vec![
            Feature::Utf8,
            Feature::Lang(LangFact::parse(b"EN*;FR;ja")),
            Feature::Mlst(vec![("type".into(), true), ("size".into(), false)]),
            Feature::Mdtm,
            Feature::Mfmt,
            Feature::Epsv,
            Feature::Eprt,
            Feature::Host,
            Feature::Tvfs,
            Feature::Auth(vec!["TLS".into()]),
            Feature::Pbsz,
            Feature::Prot,
        ]);
        let back = Features::from_reply(&f.reply(b"x", b"y"));
        assert_eq!(back, f);
        assert!(back.utf8());
        assert_eq!(back.lang().unwrap().current_tag().unwrap().as_str(), "EN");
    }

    #[test]
    fn no_feat_means_no_features() {
        let r = Reply::new(ReplyCode::SYNTAX_ERROR, "unknown");
        assert_eq!(Features::from_reply(&r), Features::default());
    }
}
