//! Pathnames on the wire: bytes that know whether they are UTF-8.
//!
//! RFC 2640 3.1: "the character sequence CR LF is used as end-of-line ...
//! when a <CR> character is encountered as part of a pathname it MUST be
//! padded with a <NUL> character prior to sending". A pathname is therefore
//! never a `String`: it is whatever octets the peer sent, with the CR NUL
//! padding undone, and a flag saying whether those octets are valid UTF-8.
//!
//! RFC 959 (reply 257): "if the directory name contains any double quotes,
//! they should be doubled" — [`WirePath::quote_257`] and
//! [`WirePath::unquote_257`] do both directions.

use std::borrow::Cow;
use std::fmt;

use crate::utf8;

/// A pathname exactly as it travels on the control connection, minus the
/// CR NUL padding. Cheap to inspect: UTF-8 validity is computed once.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WirePath {
    bytes: Vec<u8>,
    utf8: bool,
}

/// Why an argument is not a pathname.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    /// A NUL octet that does not follow a CR. RFC 2640 gives NUL a meaning
    /// only as CR padding; anywhere else it would truncate a C string on a
    /// peer's filesystem call.
    #[error("bare NUL octet at offset {0} in pathname")]
    BareNul(usize),
    /// An LF that does not follow a CR. RFC 2640 can send `CR LF` inside a
    /// name (as `CR NUL LF`), but any other LF could only be sent by ending
    /// the command line, so such a name has no wire form (and sending it
    /// would inject a second command). On receipt, an LF not preceded by
    /// `CR NUL` cannot have been inside a line.
    #[error("LF octet at offset {0} in pathname")]
    LineFeed(usize),
}

impl WirePath {
    /// Wraps bytes that are already un-padded (for example read from disk).
    pub fn new(bytes: impl Into<Vec<u8>>) -> Self {
        let bytes = bytes.into();
        let utf8 = utf8::is_utf8(&bytes);
        WirePath { bytes, utf8 }
    }

    /// Decodes an argument as received: `CR NUL` becomes `CR`; a NUL not
    /// preceded by CR is an error (reply 501). Nothing is trimmed: every SP
    /// after the one that separates the verb belongs to the name.
    pub fn from_wire(arg: &[u8]) -> Result<Self, PathError> {
        Ok(Self::new(unpad_cr_nul(arg)?))
    }

    /// The pathname octets.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Consumes the path, returning its octets.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Whether the octets are valid (RFC 3629) UTF-8.
    pub fn is_utf8(&self) -> bool {
        self.utf8
    }

    /// The name as text, when it is valid UTF-8.
    pub fn as_str(&self) -> Option<&str> {
        if self.utf8 {
            std::str::from_utf8(&self.bytes).ok()
        } else {
            None
        }
    }

    /// Whether the name is empty.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The octets to send: every CR padded with NUL, so `CR LF` becomes
    /// `CR NUL LF` (RFC 2640 3.1). Borrowed when there is no CR (the common
    /// case). Fails on an LF that does not follow a CR, which cannot be sent.
    pub fn to_wire(&self) -> Result<Cow<'_, [u8]>, PathError> {
        if let Some(i) = bare_lf(&self.bytes) {
            return Err(PathError::LineFeed(i));
        }
        Ok(pad_cr(&self.bytes))
    }

    /// The quoted form used by reply 257 (RFC 959 appendix II): the name in
    /// double quotes, each embedded quote doubled. CRs are left as they are:
    /// [`crate::reply::Reply::encode`] pads every CR of a reply text.
    pub fn quote_257(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.bytes.len() + 2);
        out.push(b'"');
        for &b in &self.bytes {
            match b {
                b'"' => out.extend_from_slice(b"\"\""),
                _ => out.push(b),
            }
        }
        out.push(b'"');
        out
    }

    /// Extracts the pathname from the text of a 257 reply (`"/a ""b"""
    /// created` → `/a "b"`). Returns `None` when the text holds no quoted
    /// name. The text is expected as [`crate::reply::ReplyReader`] yields
    /// it, with CR NUL padding already undone.
    pub fn unquote_257(text: &[u8]) -> Option<WirePath> {
        let start = text.iter().position(|&b| b == b'"')? + 1;
        let mut out = Vec::new();
        let mut i = start;
        while i < text.len() {
            match text[i] {
                b'"' if text.get(i + 1) == Some(&b'"') => {
                    out.push(b'"');
                    i += 2;
                }
                b'"' => return Some(WirePath::new(out)),
                b => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        None
    }
}

impl fmt::Debug for WirePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WirePath(\"{}\")", self.bytes.escape_ascii())
    }
}

impl From<&str> for WirePath {
    fn from(s: &str) -> Self {
        WirePath {
            bytes: s.as_bytes().to_vec(),
            utf8: true,
        }
    }
}

impl From<&[u8]> for WirePath {
    fn from(b: &[u8]) -> Self {
        WirePath::new(b.to_vec())
    }
}

/// Undoes RFC 2640's CR NUL padding (`CR NUL` → `CR`, so `CR NUL LF` →
/// `CR LF`). A bare NUL is refused, and so is an LF that does not follow
/// `CR NUL` (no line read by [`crate::line::LineReader`] holds one).
pub fn unpad_cr_nul(arg: &[u8]) -> Result<Vec<u8>, PathError> {
    let mut out = Vec::with_capacity(arg.len());
    let mut i = 0;
    while i < arg.len() {
        match arg[i] {
            b'\r' if arg.get(i + 1) == Some(&0) => {
                out.push(b'\r');
                i += 2;
                if arg.get(i) == Some(&b'\n') {
                    out.push(b'\n');
                    i += 1;
                }
            }
            0 => return Err(PathError::BareNul(i)),
            b'\n' => return Err(PathError::LineFeed(i)),
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    Ok(out)
}

/// The offset of the first LF that does not follow a CR: the one octet a
/// pathname cannot carry on the wire.
pub fn bare_lf(bytes: &[u8]) -> Option<usize> {
    bytes
        .iter()
        .enumerate()
        .position(|(i, &b)| b == b'\n' && (i == 0 || bytes[i - 1] != b'\r'))
}

/// Pads every CR with a NUL (RFC 2640 3.1). Borrows when there is no CR.
pub fn pad_cr(bytes: &[u8]) -> Cow<'_, [u8]> {
    if !bytes.contains(&b'\r') {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len() + 4);
    for &b in bytes {
        out.push(b);
        if b == b'\r' {
            out.push(0);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cr_nul_is_cr_rfc2640_3_1() {
        let p = WirePath::from_wire(b"a\r\0b").unwrap();
        assert_eq!(p.as_bytes(), b"a\rb");
        assert_eq!(&*p.to_wire().unwrap(), b"a\r\0b");
    }

    #[test]
    fn bare_nul_is_refused() {
        assert_eq!(WirePath::from_wire(b"ab\0c"), Err(PathError::BareNul(2)));
        assert_eq!(WirePath::from_wire(b"\0"), Err(PathError::BareNul(0)));
    }

    #[test]
    fn lone_cr_passes_through() {
        // A CR not followed by NUL is unambiguous inside a framed line.
        assert_eq!(WirePath::from_wire(b"a\rb").unwrap().as_bytes(), b"a\rb");
    }

    #[test]
    fn spaces_are_kept() {
        let p = WirePath::from_wire(b"  ").unwrap();
        assert_eq!(p.as_bytes(), b"  ");
    }

    #[test]
    fn lf_cannot_be_sent() {
        assert_eq!(
            WirePath::new(b"a\nDELE x".to_vec()).to_wire(),
            Err(PathError::LineFeed(1))
        );
    }

    #[test]
    fn cr_lf_in_a_name_round_trips_rfc2640_3_1() {
        // "foo<CR><LF>" is sent as "foo<CR><NUL><LF>" and read back.
        let p = WirePath::new(b"foo\r\nboo.bar".to_vec());
        assert_eq!(&*p.to_wire().unwrap(), b"foo\r\0\nboo.bar");
        assert_eq!(WirePath::from_wire(&p.to_wire().unwrap()).unwrap(), p);
        // An LF that does not follow CR NUL was never part of a line.
        assert_eq!(WirePath::from_wire(b"a\nb"), Err(PathError::LineFeed(1)));
        assert_eq!(WirePath::from_wire(b"a\r\nb"), Err(PathError::LineFeed(2)));
    }

    #[test]
    fn utf8_flag() {
        assert!(WirePath::from("日本語").is_utf8());
        assert!(!WirePath::new(vec![0x93, 0xfa]).is_utf8());
        assert_eq!(WirePath::new(vec![0x93, 0xfa]).as_str(), None);
        // Overlong "." is not UTF-8 (RFC 2279 security considerations).
        assert!(!WirePath::new(vec![0xc0, 0xae]).is_utf8());
    }

    #[test]
    fn quote_257_doubles_quotes_rfc959() {
        let p = WirePath::from("/a \"b\"");
        assert_eq!(p.quote_257(), b"\"/a \"\"b\"\"\"".to_vec());
        assert_eq!(WirePath::unquote_257(&p.quote_257()).unwrap(), p);
        let mut text = p.quote_257();
        text.extend_from_slice(b" is current directory");
        assert_eq!(WirePath::unquote_257(&text).unwrap(), p);
    }

    #[test]
    fn quote_257_with_cr_is_padded_once_by_the_reply() {
        let p = WirePath::new(b"/x\ry".to_vec());
        assert_eq!(p.quote_257(), b"\"/x\ry\"".to_vec());
        let r = crate::reply::Reply::new(crate::reply::ReplyCode::PATH_CREATED, p.quote_257());
        assert_eq!(r.to_bytes(), b"257 \"/x\r\0y\"\r\n".to_vec());
        assert_eq!(WirePath::unquote_257(&p.quote_257()).unwrap(), p);
    }

    #[test]
    fn unquote_without_quotes() {
        assert_eq!(WirePath::unquote_257(b"no name here"), None);
        assert_eq!(WirePath::unquote_257(b"\"unterminated"), None);
        assert_eq!(WirePath::unquote_257(b"\"\" empty").unwrap(), WirePath::from(""));
    }
}
