//! Paths and links: a request's path as a virtual path, and names as
//! URL path segments (in headers and forms: `%HH` of what is not
//! unreserved; in a page's links: IRIs).

use babelftp_session::VPath;

/// A request path as a virtual path: split on `/`, each segment
/// percent-decoded to octets (`%2F` and NUL inside a segment are refused,
/// `.` and `..` resolved lexically below `/`); and whether it ends with
/// `/`. `None`: not a path of the tree.
pub(crate) fn decode_path(raw: &str) -> Option<(VPath, bool)> {
    let mut path = VPath::root();
    for segment in raw.split('/').filter(|s| !s.is_empty()) {
        let name: Vec<u8> = percent_encoding::percent_decode_str(segment).collect();
        if name.iter().any(|&b| b == b'/' || b == 0) {
            return None;
        }
        path = path.join(&name);
    }
    let slash = raw.ends_with('/');
    path.is_confined().then_some((path, slash))
}

/// One name as a URL path segment: its octets (UTF-8 or not), each
/// outside RFC 3986's unreserved set as `%HH` (the Masinter draft: UTF-8, then
/// `%HH`).
pub(crate) fn encode_segment(name: &[u8], out: &mut String) {
    for &b in name {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(percent_encoding::percent_encode_byte(b));
        }
    }
}

/// A name as a link segment in a page (an IRI, RFC 3987): characters of
/// valid UTF-8 that are letters, digits, marks, symbols or punctuation
/// stay as they are (browsers send them UTF-8 and `%HH`-encoded, as
/// [`encode_segment`] would have written them), which keeps a listing of
/// Cyrillic or CJK names a third of the size; everything else is `%HH`:
/// octets that are not UTF-8, ASCII other than letters, digits and
/// `-._~!$()*+,;=@` (so `%`, `#`, `?`, `:`, `\`, `&`, quotes and space),
/// controls, spaces, and invisible or direction-changing characters.
/// Safe inside a double-quoted attribute as it is.
pub(crate) fn iri_segment(name: &[u8], out: &mut String) {
    fn hidden(c: char) -> bool {
        c.is_control()
            || c.is_whitespace()
            || matches!(c as u32,
                0xAD | 0x34F | 0x61C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180B..=0x180F
                | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164
                | 0xFDD0..=0xFDEF | 0xFE00..=0xFE0F | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFFF
                | 0xE0000..=0xE0FFF)
            || (c as u32) & 0xFFFE == 0xFFFE
    }
    for chunk in name.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_ascii() {
                let b = c as u8;
                if b.is_ascii_alphanumeric() || b"-._~!$()*+,;=@".contains(&b) {
                    out.push(c);
                } else {
                    out.push_str(percent_encoding::percent_encode_byte(b));
                }
            } else if hidden(c) {
                let mut buf = [0u8; 4];
                for &b in c.encode_utf8(&mut buf).as_bytes() {
                    out.push_str(percent_encoding::percent_encode_byte(b));
                }
            } else {
                out.push(c);
            }
        }
        for &b in chunk.invalid() {
            out.push_str(percent_encoding::percent_encode_byte(b));
        }
    }
}

/// A virtual path as a URL path (`/a%20b/c`), with a final `/` for a
/// directory.
pub(crate) fn href(path: &VPath, dir: bool) -> String {
    let mut s = String::new();
    for c in path.components() {
        s.push('/');
        encode_segment(c, &mut s);
    }
    if dir || s.is_empty() {
        s.push('/');
    }
    s
}
