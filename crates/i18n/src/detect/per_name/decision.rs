//! What the client decided to show for a name, and how the name is shown
//! and typed back.

use crate::Charset;

/// What the client decided to show for one name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Printable ASCII: shown as it is.
    Ascii,
    /// Valid UTF-8: shown as it is.
    Utf8,
    /// Decoded losslessly with a legacy charset. `confident` when the
    /// runner-up text was far behind.
    Decoded {
        charset: Charset,
        text: String,
        confident: bool,
    },
    /// Shown as `%HH` of the server's bytes (printable ASCII kept).
    Raw,
}

/// How a name is displayed: its text, or for [`Decision::Raw`] printable
/// ASCII kept and every other octet (and `%` itself) as uppercase `%HH` of
/// the server's byte.
pub fn shown(name: &[u8], d: &Decision) -> String {
    match d {
        Decision::Decoded { text, .. } => text.clone(),
        Decision::Ascii | Decision::Utf8 => match std::str::from_utf8(name) {
            Ok(s) => s.to_owned(),
            Err(_) => percent(name),
        },
        Decision::Raw => percent(name),
    }
}

pub(super) fn percent(name: &[u8]) -> String {
    let mut out = String::with_capacity(name.len() * 3);
    for &b in name {
        if (0x20..0x7F).contains(&b) && b != b'%' {
            out.push(char::from(b));
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
    out
}

/// `%HH` escapes (and literal text) back to bytes; `None` if a `%` is not
/// followed by two hex digits.
fn unpercent(typed: &str) -> Option<Vec<u8>> {
    let b = typed.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = typed.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

/// Maps a name the user typed back to the server's bytes, through the
/// listing it was shown in: the displayed text of a name, or the `%HH` form
/// of its bytes (any name, whatever was decided), reaches that name.
pub fn typed_to_name(typed: &str, listing: &[&[u8]], decisions: &[Decision]) -> Option<Vec<u8>> {
    for (name, d) in listing.iter().zip(decisions) {
        if shown(name, d) == typed {
            return Some(name.to_vec());
        }
    }
    if typed.contains('%') {
        let bytes = unpercent(typed)?;
        if let Some(name) = listing.iter().find(|n| **n == bytes.as_slice()) {
            return Some(name.to_vec());
        }
    }
    None
}
