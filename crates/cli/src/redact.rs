//! Passwords out of everything a person reads: a URL is echoed as
//! `ftp://user:****@host/…`, and an error about a URL that does not parse
//! never quotes its password.

/// Where the password of a URL as written is: the octets between the
/// first `:` of the userinfo and the last `@` before the path. A password
/// holding a `/` (which a URL must write `%2F`) is still found: the `@`
/// is looked for in the whole rest of the text when the authority holds
/// none, so a mistyped URL does not leak it either.
fn password_span(url: &str) -> Option<(usize, usize)> {
    let start = url.find("://")? + 3;
    let rest = &url[start..];
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let at = rest[..authority_end].rfind('@').or_else(|| rest.rfind('@'))?;
    let colon = rest[..at].find(':')?;
    Some((start + colon + 1, start + at))
}

/// The URL with its password (if any) written `****`; the rest as it was.
pub fn url(url: &str) -> String {
    match password_span(url) {
        Some((a, b)) => format!("{}****{}", &url[..a], &url[b..]),
        None => url.to_owned(),
    }
}

/// A URL as a person gives it on the command line, made parseable: the
/// bidi isolates our display puts around right-to-left names are dropped
/// (a name pasted from `ls`), and a bare `host[:port][/path]` is an
/// `ftp://` URL, as lftp takes it.
pub fn prepare(raw: &str) -> std::borrow::Cow<'_, str> {
    let s = babelftp_proto::display::strip_isolates(raw);
    let lower = s.get(..7).unwrap_or(&s).to_ascii_lowercase();
    if lower.starts_with("ftp://") || lower.starts_with("ftps://") {
        return s;
    }
    // Another `scheme://` (a typo such as htp://, or http://) is no host
    // name: the parser says which scheme it does not know (issue 48).
    if let Some((scheme, _)) = s.split_once("://") {
        if !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        {
            return s;
        }
    }
    let host = s.split('/').next().unwrap_or_default();
    let hostish = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']' | '@' | '_'));
    if hostish {
        std::borrow::Cow::Owned(format!("ftp://{s}"))
    } else {
        s
    }
}

/// [`FtpUrl::parse`](babelftp_proto::url::FtpUrl::parse) of a prepared
/// URL; a raw space (as curl takes it: `ftp://host/with space.txt`) is
/// read as `%20`, and nothing else is relaxed (a `%` not followed by two
/// hex digits is still an error).
pub fn parse_lenient(prepared: &str) -> Result<babelftp_proto::url::FtpUrl, babelftp_proto::url::UrlError> {
    use babelftp_proto::url::FtpUrl;
    FtpUrl::parse(prepared).or_else(|e| {
        if prepared.contains(' ') {
            FtpUrl::parse(&prepared.replace(' ', "%20")).map_err(|_| e)
        } else {
            Err(e)
        }
    })
}

/// Parses a URL the user gave, with errors that never hold its password:
/// the URL is echoed redacted, and a parser's message is the one about the
/// redacted URL (when that parses, the fault is in the password itself, and
/// it is said without quoting it).
pub fn parse_url(input: &str) -> anyhow::Result<babelftp_proto::url::FtpUrl> {
    use babelftp_proto::url::FtpUrl;
    let prepared = prepare(input);
    let input = prepared.as_ref();
    let shown = url(input);
    let context = || crate::msg::ts("cli-bad-url", &[("url", &shown)]);
    match parse_lenient(input) {
        Ok(u) => Ok(u),
        Err(e) if shown == input => Err(anyhow::Error::new(e).context(context())),
        Err(_) => match FtpUrl::parse(&shown) {
            Err(e) => Err(anyhow::Error::new(e).context(context())),
            Ok(_) => Err(anyhow::anyhow!(crate::msg::ts("cli-x2-bad-password", &[])).context(context())),
        },
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn passwords_become_stars() {
        assert_eq!(url("ftp://bob:secret@h:21/a/b"), "ftp://bob:****@h:21/a/b");
        assert_eq!(url("ftps://bob:s:e@c@h/"), "ftps://bob:****@h/");
        assert_eq!(url("ftp://bob@h/x:y@z"), "ftp://bob@h/x:y@z");
        assert_eq!(url("ftp://h/a"), "ftp://h/a");
        assert_eq!(url("not a url"), "not a url");
        // A raw / in the password (a mistake) still hides it.
        assert_eq!(url("ftp://bob:se/cret@h/a"), "ftp://bob:****@h/a");
        // A raw space is taken, as curl takes it (the written form).
        let u = parse_url("ftp://bob:se cret@h/a b.txt").unwrap();
        assert_eq!(u.password.as_deref(), Some(&b"se cret"[..]));
        for bad in ["ftp://bob:se/cret@h/a", "ftp://bob:se%zcret@h:x/a"] {
            let e = format!("{:#}", parse_url(bad).err().unwrap());
            assert!(!e.contains("\"se"), "{e}");
            assert!(!e.contains("cret"), "{e}");
            assert!(e.contains("ftp://bob:****@h"), "{e}");
        }
    }
}
