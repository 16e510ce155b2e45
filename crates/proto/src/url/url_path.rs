//! The url-path: its segments, and the `;type=` code on the name.

use super::error::UrlError;
use super::escape::decode;

/// The RFC 1738 `;type=` code: how to retrieve the name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TypeCode {
    /// `;type=a`: ASCII (`TYPE A`).
    A,
    /// `;type=i`: image (`TYPE I`).
    I,
    /// `;type=d`: the name is a directory to list (`NLST`).
    D,
}

impl TypeCode {
    /// The code as written in a URL (lowercase).
    pub fn as_char(self) -> char {
        match self {
            TypeCode::A => 'a',
            TypeCode::I => 'i',
            TypeCode::D => 'd',
        }
    }

    /// `a`, `i` or `d` in either case.
    pub fn from_char(c: char) -> Option<TypeCode> {
        match c.to_ascii_lowercase() {
            'a' => Some(TypeCode::A),
            'i' => Some(TypeCode::I),
            'd' => Some(TypeCode::D),
            _ => None,
        }
    }
}

/// Splits the path after the authority (empty, or starting with `/`) into
/// decoded segments and the typecode; `base` is its offset in the input.
pub(super) fn parse_path(path: &str, base: usize) -> Result<(Vec<Vec<u8>>, Option<TypeCode>), UrlError> {
    let Some(url_path) = path.strip_prefix('/') else {
        return Ok((Vec::new(), None));
    };
    let base = base + 1;
    // `;type=` is only recognised after the last separator (on the name).
    let name_start = url_path.rfind('/').map_or(0, |i| i + 1);
    let mut body = url_path;
    let mut typecode = None;
    if let Some(semi) = url_path[name_start..].rfind(';') {
        let semi = name_start + semi;
        let param = &url_path[semi + 1..];
        if param.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("type=")) {
            let code = &param[5..];
            let mut chars = code.chars();
            typecode = match (chars.next().and_then(TypeCode::from_char), chars.next()) {
                (Some(t), None) => Some(t),
                _ => return Err(UrlError::InvalidTypeCode(code.to_owned())),
            };
            body = &url_path[..semi];
        }
    }
    let mut segments = Vec::new();
    let mut at = base;
    for segment in body.split('/') {
        segments.push(decode(segment, at)?);
        at += segment.len() + 1;
    }
    Ok((segments, typecode))
}
