//! `ftp://` URLs: RFC 1738 §3.2 with the Masinter draft for non-ASCII.
//!
//! ```text
//! ftp://<user>:<password>@<host>:<port>/<cwd1>/<cwd2>/.../<cwdN>/<name>;type=<typecode>
//! ```
//!
//! > "characters should be translated into UTF8 and then any octet not
//! > allowed in RFC-URL-SYNTAX should be hex-encoded" … "the interpretation
//! > of URLs accept both the raw UTF-8 or the hex-encoded version."
//! > — draft-masinter-url-i18n, §2 and §3.2
//!
//! So [`FtpUrl::parse`] accepts `ftp://host/日本語.txt` and
//! `ftp://host/%E6%97%A5%E6%9C%AC%E8%AA%9E.txt` and gives the same value, and
//! [`FtpUrl`]'s `Display` (the canonical form) writes the second. Pathname
//! components are **bytes**: `%93%FA%96%7B` (Shift_JIS) decodes to those four
//! octets and is written back unchanged; nothing here guesses a charset.
//!
//! ## The url-path
//!
//! > "the url-path of an FTP URL has the following syntax:
//! > `<cwd1>/<cwd2>/.../<cwdN>/<name>;type=<typecode>` … the "/" character
//! > … is used to delimit the individual CWD commands" … "Within a name or
//! > CWD component, the characters "/" and ";" are reserved and must be
//! > encoded." — RFC 1738 §3.2.2
//!
//! [`FtpUrl::segments`] is that url-path split on the separators, each
//! segment percent-decoded on its own, so `%2F` is a `/` byte *inside* a
//! segment and stays distinguishable from a separator. The slash right after
//! the authority is not part of the url-path:
//!
//! | URL                   | `segments`            | meaning                       |
//! |-----------------------|-----------------------|-------------------------------|
//! | `ftp://host`          | `[]`                  | no url-path: login directory  |
//! | `ftp://host/`         | `[""]`                | empty name: login directory   |
//! | `ftp://host/a/b`      | `["a", "b"]`          | CWD a, then the name b        |
//! | `ftp://host/a/b/`     | `["a", "b", ""]`      | CWD a, CWD b, empty name: dir |
//! | `ftp://host/%2Fetc/x` | `["/etc", "x"]`       | CWD /etc (absolute), name x   |
//!
//! The last segment is the `<name>`, the others are the CWDs
//! ([`FtpUrl::cwds`], [`FtpUrl::name`]); an empty name means a directory
//! ([`FtpUrl::is_directory`]).
//!
//! ## Hosts
//!
//! [`Host::Name`] keeps a non-ASCII host name (`ホスト.jp`, raw or `%HH`) as
//! its Unicode text: **no IDNA/punycode is applied here** (that needs the
//! Unicode IDNA tables; a caller that resolves the name through DNS must
//! convert it itself). The canonical form writes it as `%HH` UTF-8 octets
//! (RFC 3986 reg-name), the IRI form as text. IPv6 literals are bracketed
//! (`ftp://[::1]:2121/`); zone identifiers are not supported.
//!
//! ## What parsing accepts
//!
//! Raw non-ASCII UTF-8 anywhere (it becomes the same octets as its `%HH`
//! form), `%HH` in either case, the scheme in any case, `;type=` and its code
//! in any case, an empty port (`ftp://host:/`, RFC 3986 §3.2.3), raw `@` in
//! the user or password (the *last* `@` ends the userinfo), and raw
//! characters that RFC 1738 calls unsafe but that are unambiguous here
//! (`~ [ ] { } | \ ^ < > "` and `` ` ``; they are `%HH` in the canonical
//! form). A raw `;` that does not start the final `;type=` is a literal `;`.
//!
//! It rejects, with a [`UrlError`] that says where: a raw octet that is not
//! UTF-8 ([`FtpUrl::parse_bytes`]), control characters and white space (also
//! non-ASCII ones such as U+3000), a raw `#` (ftp URLs have no fragment;
//! write `%23`), a `%` not followed by two hex digits, a scheme other than
//! `ftp` and `ftps` (implicit FTPS, port 990, as curl and lftp read it;
//! [`FtpUrl::secure`]), a missing or malformed host, a port outside 1–65535 and a typecode
//! other than `a`, `i`, `d`.
//!
//! ## The written form
//!
//! A person writes `ftp://u@h/דוד/a b.txt`, not `…/a%20b.txt`.
//! [`FtpUrl::parse_written`] (behind `babelftp url encode`) takes a URL so
//! written: on top of what [`FtpUrl::parse`] accepts, control characters,
//! white space and `#` are name characters, and a `%` that is not followed
//! by two hex digits is a `%` (one that is starts an escape, as always).
//! [`FtpUrl::to_written_string`] (behind `babelftp url decode`) writes that
//! form back: the IRI form, plus SP, `#`, `?`, `%` and the RFC 1738
//! "unsafe" characters `` " < > [ \ ] ^ ` { | } `` as themselves. Still `%HH`
//! in it: what would change the URL's structure (`/` in a segment, `;` in a
//! segment, `:` and `@` in the userinfo), controls and other white space,
//! invisible and bidi formatting characters, octets that are not UTF-8 and
//! an ASCII octet right after one (the second half of a Shift_JIS or Big5
//! character), and a `%` followed by two hex digits (it would read as an
//! escape). So `parse_written(to_written_string())` gives the same URL, and
//! a written URL made only of visible characters comes back as it was
//! written (the scheme in lowercase, `%HH` of letters and digits decoded).

mod error;
mod escape;
mod host;
mod url_path;

use std::fmt::{self, Write as _};
use std::str::FromStr;

use percent_encoding::{percent_decode_str, percent_encode};

use escape::{
    check_percent, check_raw_chars, decode, escape_percent, escape_written, starts_with_hex_pair, write_escaped,
    written_keeps, Form, HOST, SEGMENT, USERINFO,
};
use host::parse_host_port;
use url_path::parse_path;

pub use error::UrlError;
pub use host::Host;
pub use url_path::TypeCode;

/// The port an `ftp://` URL means when it names none (RFC 1738 §3.2.1).
pub const DEFAULT_PORT: u16 = 21;

/// The port of an `ftps://` URL that names none (implicit FTPS, RFC 4217
/// 15 / IANA `ftps`).
pub const DEFAULT_FTPS_PORT: u16 = 990;

/// A parsed `ftp://` URL (RFC 1738 §3.2). All the textual parts are
/// percent-decoded **bytes**.
///
/// Two combinations have no text of their own and are written in the nearest
/// form (so they do not survive `parse(to_string())` unchanged): a `password`
/// without a `user` is written with an empty user (`ftp://:pw@host`, which
/// parses back as `user == Some("")`), and a `typecode` with no `segments`
/// is written as `ftp://host/;type=d` (which parses back with `segments ==
/// [""]`). Every other value round-trips exactly.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct FtpUrl {
    /// `ftps://`: implicit FTPS (TLS from the first octet, port 990).
    pub secure: bool,
    /// The user name, decoded; `None` when there is no `@` (anonymous).
    pub user: Option<Vec<u8>>,
    /// The password, decoded; `None` when the userinfo has no `:`.
    pub password: Option<Vec<u8>>,
    /// The host.
    pub host: Host,
    /// The port, when the URL names one ([`FtpUrl::port_or_default`]).
    pub port: Option<u16>,
    /// The url-path split on `/`, each segment decoded on its own: see the
    /// [module documentation](self) for `[]` vs `[""]` vs a trailing `""`.
    pub segments: Vec<Vec<u8>>,
    /// The `;type=` code, when present.
    pub typecode: Option<TypeCode>,
}

/// Redacts the password, so a URL can be logged.
impl fmt::Debug for FtpUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FtpUrl")
            .field("secure", &self.secure)
            .field("user", &self.user.as_deref().map(crate::display::display_path))
            .field("password", &self.password.as_ref().map(|_| "<redacted>"))
            .field("host", &self.host)
            .field("port", &self.port)
            .field(
                "segments",
                &self
                    .segments
                    .iter()
                    .map(|s| crate::display::display_path(s))
                    .collect::<Vec<_>>(),
            )
            .field("typecode", &self.typecode)
            .finish()
    }
}

impl FtpUrl {
    /// A URL for `host` with no user, port, path or typecode (`ftp://host`).
    pub fn new(host: Host) -> FtpUrl {
        FtpUrl {
            secure: false,
            user: None,
            password: None,
            host,
            port: None,
            segments: Vec::new(),
            typecode: None,
        }
    }

    /// Parses an `ftp://` URL, accepting raw UTF-8 as well as `%HH` (see the
    /// [module documentation](self) for what is accepted and rejected).
    ///
    /// ```
    /// use babelftp_proto::url::FtpUrl;
    /// let a = FtpUrl::parse("ftp://host/日本語.txt")?;
    /// let b = FtpUrl::parse("ftp://host/%E6%97%A5%E6%9C%AC%E8%AA%9E.txt")?;
    /// assert_eq!(a, b);
    /// assert_eq!(a.to_string(), "ftp://host/%E6%97%A5%E6%9C%AC%E8%AA%9E.txt");
    /// # Ok::<(), babelftp_proto::url::UrlError>(())
    /// ```
    pub fn parse(input: &str) -> Result<FtpUrl, UrlError> {
        check_raw_chars(input)?;
        let colon = input.find(':').ok_or(UrlError::MissingScheme)?;
        let scheme = &input[..colon];
        if !is_scheme(scheme) {
            return Err(UrlError::MissingScheme);
        }
        let secure = if scheme.eq_ignore_ascii_case("ftp") {
            false
        } else if scheme.eq_ignore_ascii_case("ftps") {
            true
        } else {
            return Err(UrlError::UnsupportedScheme(scheme.to_owned()));
        };
        let rest = input[colon + 1..]
            .strip_prefix("//")
            .ok_or(UrlError::MissingAuthority)?;
        let authority_at = colon + 3;
        let authority_len = rest.find('/').unwrap_or(rest.len());
        let (authority, path) = rest.split_at(authority_len);

        let (user, password, hostport, hostport_at) = match authority.rfind('@') {
            Some(at) => {
                let userinfo = &authority[..at];
                let (user, password) = match userinfo.find(':') {
                    Some(c) => (
                        decode(&userinfo[..c], authority_at)?,
                        Some(decode(&userinfo[c + 1..], authority_at + c + 1)?),
                    ),
                    None => (decode(userinfo, authority_at)?, None),
                };
                (Some(user), password, &authority[at + 1..], authority_at + at + 1)
            }
            None => (None, None, authority, authority_at),
        };
        let (host, port) = parse_host_port(hostport, hostport_at)?;
        let (segments, typecode) = parse_path(path, authority_at + authority_len)?;
        Ok(FtpUrl {
            secure,
            user,
            password,
            host,
            port,
            segments,
            typecode,
        })
    }

    /// [`FtpUrl::parse`] over bytes: a raw octet that is not UTF-8 is
    /// reported as [`UrlError::NotUtf8`] (it must be written `%HH`).
    pub fn parse_bytes(input: &[u8]) -> Result<FtpUrl, UrlError> {
        match std::str::from_utf8(input) {
            Ok(s) => FtpUrl::parse(s),
            Err(e) => {
                let offset = e.valid_up_to();
                Err(UrlError::NotUtf8 {
                    offset,
                    byte: input.get(offset).copied().unwrap_or_default(),
                })
            }
        }
    }

    /// Parses a URL as a person writes it (see [the written
    /// form](self#the-written-form)): control characters, white space and
    /// `#` are part of the name they are in, and a `%` that does not start a
    /// `%HH` escape is a `%`. Everything else is as in [`FtpUrl::parse`].
    ///
    /// ```
    /// use babelftp_proto::url::FtpUrl;
    /// let u = FtpUrl::parse_written("ftp://h/C# notes/100% a b.txt")?;
    /// assert_eq!(u.to_string(), "ftp://h/C%23%20notes/100%25%20a%20b.txt");
    /// assert_eq!(u.to_written_string(), "ftp://h/C# notes/100% a b.txt");
    /// # Ok::<(), babelftp_proto::url::UrlError>(())
    /// ```
    pub fn parse_written(input: &str) -> Result<FtpUrl, UrlError> {
        FtpUrl::parse(&escape_written(input))
    }

    /// The URL as a person writes it (see [the written
    /// form](self#the-written-form)): what [`FtpUrl::parse_written`] reads
    /// back to the same URL. Not for [`FtpUrl::parse`], which refuses the
    /// raw SP and `#` this form may hold.
    pub fn to_written_string(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = self.write(&mut out, Form::Written);
        out
    }

    /// The URL with valid, displayable non-ASCII UTF-8 shown as characters
    /// (an IRI, RFC 3987 style): `ftp://host/日本語.txt`. Still `%HH`: ASCII
    /// octets not allowed in their component (including `%`, and `/` or `;`
    /// inside a segment), controls, white space, the characters
    /// [`is_displayable`](crate::display::is_displayable) rejects (bidi
    /// formatting, …) and every octet of invalid UTF-8. It parses back to the
    /// same URL.
    pub fn to_iri_string(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = self.write(&mut out, Form::Iri);
        out
    }

    /// The segments joined with `/`: the pathname for a client that sends one
    /// command instead of one CWD per segment. It is relative to the login
    /// directory unless the first segment starts with a `/` (`%2F`, RFC 1738:
    /// `ftp://host/%2Fetc/motd` is `/etc/motd`). A trailing empty segment
    /// keeps its trailing `/`.
    pub fn path_bytes(&self) -> Vec<u8> {
        self.segments.join(&b'/')
    }

    /// The CWD segments: all but the last (RFC 1738 `<cwd1>` … `<cwdN>`).
    pub fn cwds(&self) -> &[Vec<u8>] {
        match self.segments.split_last() {
            Some((_, cwds)) => cwds,
            None => &[],
        }
    }

    /// The last segment (RFC 1738 `<name>`); `None` when there is no url-path.
    pub fn name(&self) -> Option<&[u8]> {
        self.segments.last().map(Vec::as_slice)
    }

    /// Whether the URL names a directory (to list) rather than a file (to
    /// retrieve): no url-path, an empty name (a trailing `/`), or `;type=d`.
    pub fn is_directory(&self) -> bool {
        self.typecode == Some(TypeCode::D) || self.name().is_none_or(<[u8]>::is_empty)
    }

    /// The port, or [`DEFAULT_PORT`] (21) when the URL names none
    /// ([`DEFAULT_FTPS_PORT`], 990, for `ftps://`).
    pub fn port_or_default(&self) -> u16 {
        self.port
            .unwrap_or(if self.secure { DEFAULT_FTPS_PORT } else { DEFAULT_PORT })
    }

    fn write(&self, out: &mut impl fmt::Write, form: Form) -> fmt::Result {
        out.write_str(if self.secure { "ftps://" } else { "ftp://" })?;
        if self.user.is_some() || self.password.is_some() {
            write_escaped(out, self.user.as_deref().unwrap_or_default(), USERINFO, form)?;
            if let Some(password) = &self.password {
                out.write_char(':')?;
                write_escaped(out, password, USERINFO, form)?;
            }
            out.write_char('@')?;
        }
        match &self.host {
            Host::Name(name) => write_escaped(out, name.as_bytes(), HOST, form)?,
            Host::Ipv4(addr) => write!(out, "{addr}")?,
            Host::Ipv6(addr) => write!(out, "[{addr}]")?,
        }
        if let Some(port) = self.port {
            write!(out, ":{port}")?;
        }
        if self.segments.is_empty() && self.typecode.is_some() {
            out.write_char('/')?;
        }
        for segment in &self.segments {
            out.write_char('/')?;
            write_escaped(out, segment, SEGMENT, form)?;
        }
        if let Some(typecode) = self.typecode {
            write!(out, ";type={}", typecode.as_char())?;
        }
        Ok(())
    }
}

/// The canonical ASCII form: every non-ASCII octet and every octet not
/// allowed in its component is `%HH` (uppercase), the scheme and the typecode
/// are lowercase, a port is written only when present.
impl fmt::Display for FtpUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, Form::Ascii)
    }
}

impl FromStr for FtpUrl {
    type Err = UrlError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        FtpUrl::parse(s)
    }
}

/// For `babelftp url encode`: a URL as a person writes it (raw UTF-8,
/// spaces, `#`, `?`, a `%` that starts no escape: [`FtpUrl::parse_written`])
/// in its canonical ASCII form, every octet that may not stand raw in its
/// part written `%HH`. Anything that does not start with `scheme://` is a
/// bare pathname whose segments are encoded the same way, keeping its `/`
/// separators.
///
/// In both, `%HH` (two hex digits) is an escape that is already there and
/// any other `%` is a `%` (→ `%25`). In a bare pathname a `;` becomes `%3B`,
/// so that the result can be pasted after `ftp://host` without growing a
/// typecode. [`decode_url`] reverses this.
///
/// ```
/// use babelftp_proto::url::encode_url_or_path;
/// assert_eq!(encode_url_or_path("ftp://host/日本語.txt")?,
///            "ftp://host/%E6%97%A5%E6%9C%AC%E8%AA%9E.txt");
/// assert_eq!(encode_url_or_path("ftp://u@h/דוד/a b.txt")?,
///            "ftp://u@h/%D7%93%D7%95%D7%93/a%20b.txt");
/// assert_eq!(encode_url_or_path("/pub/日本語")?, "/pub/%E6%97%A5%E6%9C%AC%E8%AA%9E");
/// # Ok::<(), babelftp_proto::url::UrlError>(())
/// ```
pub fn encode_url_or_path(input: &str) -> Result<String, UrlError> {
    if has_scheme(input) {
        return Ok(FtpUrl::parse_written(input)?.to_string());
    }
    let mut out = String::with_capacity(input.len());
    for (i, segment) in input.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        let bytes: Vec<u8> = percent_decode_str(&escape_percent(segment)).collect();
        let _ = write!(out, "{}", percent_encode(&bytes, SEGMENT));
    }
    Ok(out)
}

/// For `babelftp url decode`: an ASCII URL back in the form a person writes
/// it, the inverse of [`encode_url_or_path`]. `%HH` escapes become
/// characters where [the written form](self#the-written-form) allows: SP,
/// `#`, `?`, `%`, `` " < > [ \ ] ^ ` { | } `` and displayable non-ASCII UTF-8.
/// Escapes of separators and delimiters, of controls, other white space and
/// bidi formatting characters, of invalid UTF-8, and a `%25` that would
/// read as an escape stay `%HH`, so the result is unambiguous and safe to
/// print, and `url encode` turns it back into the same URL.
///
/// An `ftp://` URL is parsed (and so validated: `%` must start an escape,
/// as in any URL) and written with [`FtpUrl::to_written_string`]. Anything
/// that does not start with `scheme://` is a bare url-path: only its `%HH`
/// runs are rewritten, every other character is left exactly as it is.
///
/// ```
/// use babelftp_proto::url::decode_url;
/// assert_eq!(decode_url("ftp://host/%E6%97%A5%E6%9C%AC%E8%AA%9E.txt")?, "ftp://host/日本語.txt");
/// assert_eq!(decode_url("ftp://u@h/%D7%93%D7%95%D7%93/a%20b.txt")?, "ftp://u@h/דוד/a b.txt");
/// assert_eq!(decode_url("/pub/%93%FA%96%7B/%E6%97%A5")?, "/pub/%93%FA%96%7B/日");
/// # Ok::<(), babelftp_proto::url::UrlError>(())
/// ```
pub fn decode_url(input: &str) -> Result<String, UrlError> {
    if has_scheme(input) {
        return Ok(FtpUrl::parse(input)?.to_written_string());
    }
    check_percent(input, 0)?;
    let mut out = String::with_capacity(input.len());
    let mut rest = input;
    while let Some(start) = rest.find('%') {
        out.push_str(&rest[..start]);
        // The run of consecutive escapes, three characters each (validated).
        let run_len = rest.as_bytes()[start..]
            .chunks(3)
            .take_while(|c| c.first() == Some(&b'%'))
            .count()
            * 3;
        let run = &rest[start..start + run_len];
        rest = &rest[start + run_len..];
        let octets: Vec<u8> = percent_decode_str(run).collect();
        let mut at = 0; // index into `octets`; the escape for octet k is run[3k..3k+3]
        let mut after_invalid = false;
        for chunk in octets.utf8_chunks() {
            for c in chunk.valid().chars() {
                let len = c.len_utf8();
                // What follows a '%' in the output: the next escape of the
                // run (a '%' or a character that is no hex digit), or `rest`.
                let hex_follows = at + len == octets.len() && starts_with_hex_pair(rest.as_bytes());
                if written_keeps(c, after_invalid, hex_follows) {
                    out.push(c);
                } else {
                    out.push_str(&run[3 * at..3 * (at + len)]);
                }
                after_invalid = false;
                at += len;
            }
            let len = chunk.invalid().len();
            out.push_str(&run[3 * at..3 * (at + len)]);
            after_invalid = len > 0;
            at += len;
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// RFC 1738 `scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]`, starting
/// with a letter (RFC 3986), in any case.
fn is_scheme(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// Whether `input` starts with `scheme://` (a URL rather than a bare path).
fn has_scheme(input: &str) -> bool {
    input.find("://").is_some_and(|end| is_scheme(&input[..end]))
}

/// Fuzzing entry point: any input either fails to parse or parses to a
/// URL whose canonical, IRI and written forms parse back to the same
/// canonical form, and whose canonical form is pure ASCII.
#[doc(hidden)]
pub fn fuzz_url(input: &[u8]) {
    let Ok(url) = FtpUrl::parse_bytes(input) else { return };
    let canonical = url.to_string();
    assert!(canonical.is_ascii(), "canonical form is not ASCII: {canonical}");
    let again = FtpUrl::parse(&canonical).map(|u| u.to_string());
    assert_eq!(again.as_deref(), Ok(canonical.as_str()));
    let iri = url.to_iri_string();
    let from_iri = FtpUrl::parse(&iri).map(|u| u.to_string());
    assert_eq!(from_iri.as_deref(), Ok(canonical.as_str()), "IRI {iri}");
    let written = url.to_written_string();
    let from_written = FtpUrl::parse_written(&written).map(|u| u.to_string());
    assert_eq!(from_written.as_deref(), Ok(canonical.as_str()), "written {written}");
    if let Ok(text) = std::str::from_utf8(input) {
        let _ = decode_url(text);
        let _ = encode_url_or_path(text);
    }
}

#[cfg(test)]
mod tests;
