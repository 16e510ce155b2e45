//! Names into keys and back: the escape that keeps every name a client
//! sends, and the check that nothing downstream rewrites a key.

/// A name component into a key: `%`, control characters (C0, DEL, C1),
/// whitespace at either end of the component, and every octet that is not
/// part of valid UTF-8 as `%HH` (of their UTF-8 octets, or of the octet),
/// so the encoding is injective (every `%` in a key starts an escape), any
/// name a client sends has a key (RFC 2640: pathnames are octets; a
/// server's disk may hold names in any charset, and so may its bucket),
/// and no component can be changed on its way to the store: OpenDAL 0.59
/// trims Unicode whitespace from both ends of the whole path (`.. ` would
/// become `..`, which the HTTP client then resolves in the URL, and
/// `a.txt ` would alias `a.txt`), and S3's XML listings cannot carry a CR.
pub(super) fn escape(name: &[u8], out: &mut String) {
    let hex = |out: &mut String, bytes: &[u8]| {
        for o in bytes {
            out.push_str(&format!("%{o:02X}"));
        }
    };
    // The component as characters and stray octets; the first and last
    // that are not whitespace bound what `str::trim` (OpenDAL's) keeps.
    let mut items: Vec<Result<char, &[u8]>> = Vec::with_capacity(name.len());
    for chunk in name.utf8_chunks() {
        items.extend(chunk.valid().chars().map(Ok));
        if !chunk.invalid().is_empty() {
            items.push(Err(chunk.invalid()));
        }
    }
    let solid = |i: &Result<char, &[u8]>| !matches!(i, Ok(c) if c.is_whitespace());
    let start = items.iter().position(solid).unwrap_or(items.len());
    let end = items.iter().rposition(solid).map_or(start, |i| i + 1);
    for (i, item) in items.iter().enumerate() {
        match *item {
            Err(octets) => hex(out, octets),
            Ok(c) if c == '%' || c.is_control() || ((i < start || i >= end) && c.is_whitespace()) => {
                let mut b = [0u8; 4];
                hex(out, c.encode_utf8(&mut b).as_bytes());
            }
            Ok(c) => out.push(c),
        }
    }
}

/// Whether OpenDAL and the URL builder leave `key` as it is: no whitespace
/// at either end (trimmed), no leading `/` or empty segment (dropped), no
/// `.` or `..` segment (resolved by the HTTP client), no control character.
/// [`S3Storage::key`] makes only such keys; this check stands behind it, so
/// a mistake there is a refused name (553), never another object.
pub(super) fn faithful(key: &str) -> bool {
    let trimmed = key.trim() == key;
    let body = key.strip_suffix('/').unwrap_or(key);
    let segments_ok = body.is_empty() || body.split('/').all(|s| !s.is_empty() && s != "." && s != "..");
    trimmed && segments_ok && !key.chars().any(char::is_control)
}

/// A key's last component back into a name: `%HH` decoded.
pub(super) fn unescape(key: &str) -> Vec<u8> {
    let b = key.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}
