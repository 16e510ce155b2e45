//! Percent-encoding: which octets each part of a URL writes as
//! themselves, the canonical, IRI and written forms, and the checks of
//! what may stand raw.

use std::fmt;

use percent_encoding::{percent_decode_str, percent_encode, percent_encode_byte, AsciiSet};

use super::error::UrlError;
use crate::display::is_displayable;

/// RFC 1738 `unreserved`: alphanumerics, `safe` (`$ - _ . +`) and `extra`
/// (`! * ' ( ) ,`), plus `~` (unreserved since RFC 2396, and every client
/// writes `~user` raw). Everything else is percent-encoded.
const UNRESERVED: &AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'$')
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'+')
    .remove(b'!')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b',')
    .remove(b'~');

/// Octets written as themselves in a CWD or name segment: RFC 1738
/// `fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]`, except that `?`
/// is encoded too (every generic URI parser would take it for a query).
/// `/` and `;` are reserved inside a segment, `%` starts an escape.
pub(super) const SEGMENT: &AsciiSet = &UNRESERVED.remove(b':').remove(b'@').remove(b'&').remove(b'=');

/// Octets written as themselves in the user or the password: RFC 1738
/// `user = *[ uchar | ";" | "?" | "&" | "=" ]`, again minus `?`. `:` and `@`
/// delimit the userinfo and are encoded.
pub(super) const USERINFO: &AsciiSet = &UNRESERVED.remove(b';').remove(b'&').remove(b'=');

/// A host name only ever holds `[A-Za-z0-9._-]` and non-ASCII text (checked
/// by the parser); the non-ASCII octets are encoded.
pub(super) const HOST: &AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_');

/// Rewrites a URL as a person writes it into one [`FtpUrl::parse`](super::FtpUrl::parse)
/// accepts: what `parse` refuses raw (controls, white space, `#`) and a
/// `%` that starts no escape become `%HH`. None of these delimits a part of
/// a URL, so the structure is unchanged.
pub(super) fn escape_written(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    let mut buf = [0u8; 4];
    for (i, c) in input.char_indices() {
        if forbidden_raw(c) || (c == '%' && !starts_with_hex_pair(&input.as_bytes()[i + 1..])) {
            for &b in c.encode_utf8(&mut buf).as_bytes() {
                out.push_str(percent_encode_byte(b));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Only the `%` that start no `%HH` escape, as `%25`.
pub(super) fn escape_percent(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('%') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 4);
    for (i, c) in s.char_indices() {
        if c == '%' && !starts_with_hex_pair(&s.as_bytes()[i + 1..]) {
            out.push_str("%25");
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Whether `s` starts with two hex digits (so a `%` before it is an escape).
pub(super) fn starts_with_hex_pair(s: &[u8]) -> bool {
    s.len() >= 2 && s[0].is_ascii_hexdigit() && s[1].is_ascii_hexdigit()
}

/// Whether the written form shows `c` (whose octets some part of a URL
/// escapes) as itself. `after_invalid`: `c` comes right after an octet that
/// is not UTF-8; `hex_follows`: two hex digits come right after `c`.
pub(super) fn written_keeps(c: char, after_invalid: bool, hex_follows: bool) -> bool {
    match c {
        '%' => !after_invalid && !hex_follows,
        ' ' | '#' | '?' | '"' | '<' | '>' | '[' | '\\' | ']' | '^' | '`' | '{' | '|' | '}' => !after_invalid,
        _ if c.is_ascii() => false,
        _ => iri_keeps(c),
    }
}

#[derive(Clone, Copy)]
pub(super) enum Form {
    /// Canonical: ASCII only.
    Ascii,
    /// Displayable non-ASCII UTF-8 as characters.
    Iri,
    /// As a person writes it: the IRI form plus the ASCII characters
    /// [`written_keeps`] allows.
    Written,
}

/// Whether the IRI form shows the non-ASCII character `c` as itself: the
/// parser must accept it raw (no controls, no white space) and a person must
/// be able to see it (no bidi formatting, invisibles, noncharacters).
pub(super) fn iri_keeps(c: char) -> bool {
    !c.is_whitespace() && is_displayable(c)
}

pub(super) fn write_escaped(
    out: &mut impl fmt::Write,
    bytes: &[u8],
    set: &'static AsciiSet,
    form: Form,
) -> fmt::Result {
    match form {
        Form::Ascii => write!(out, "{}", percent_encode(bytes, set)),
        Form::Iri | Form::Written => {
            let written = matches!(form, Form::Written);
            let mut buf = [0u8; 4];
            let mut at = 0; // offset of `c` in `bytes`
            let mut after_invalid = false;
            for chunk in bytes.utf8_chunks() {
                for c in chunk.valid().chars() {
                    let encoded = c.encode_utf8(&mut buf);
                    at += encoded.len();
                    // Hex digits are never escaped, so what follows `c` in
                    // `bytes` is what follows it in the output.
                    if written && c.is_ascii() && written_keeps(c, after_invalid, starts_with_hex_pair(&bytes[at..])) {
                        out.write_char(c)?;
                    } else if c.is_ascii() {
                        write!(out, "{}", percent_encode(encoded.as_bytes(), set))?;
                    } else if iri_keeps(c) {
                        out.write_char(c)?;
                    } else {
                        for &b in encoded.as_bytes() {
                            out.write_str(percent_encode_byte(b))?;
                        }
                    }
                    after_invalid = false;
                }
                for &b in chunk.invalid() {
                    out.write_str(percent_encode_byte(b))?;
                }
                at += chunk.invalid().len();
                after_invalid = !chunk.invalid().is_empty();
            }
            Ok(())
        }
    }
}

/// Rejects what may never appear raw: controls (C0, DEL, C1), white space
/// (ASCII and Unicode) and `#`.
pub(super) fn check_raw_chars(input: &str) -> Result<(), UrlError> {
    match input.char_indices().find(|&(_, c)| forbidden_raw(c)) {
        Some((offset, ch)) => Err(UrlError::ForbiddenChar { ch, offset }),
        None => Ok(()),
    }
}

/// What [`FtpUrl::parse`](super::FtpUrl::parse) refuses raw: controls, white space and `#`.
fn forbidden_raw(c: char) -> bool {
    c.is_control() || c.is_whitespace() || c == '#'
}

/// Checks that every `%` starts a `%HH` escape; `base` is `s`'s offset in
/// the whole input, for the error.
pub(super) fn check_percent(s: &str, base: usize) -> Result<(), UrlError> {
    let bytes = s.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'%'
            && !(bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
        {
            return Err(UrlError::InvalidPercentEncoding { offset: base + i });
        }
    }
    Ok(())
}

/// Percent-decodes `s` into bytes after checking its escapes.
pub(super) fn decode(s: &str, base: usize) -> Result<Vec<u8>, UrlError> {
    check_percent(s, base)?;
    Ok(percent_decode_str(s).collect())
}
