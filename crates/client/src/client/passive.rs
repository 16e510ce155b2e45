//! The port in a passive-mode reply (229, 227).

/// The port of a 229 reply: `... (|||6446|)` (RFC 2428 3).
pub fn parse_229(text: &[u8]) -> Option<u16> {
    let open = text.iter().position(|&b| b == b'(')?;
    let inner = &text[open + 1..];
    let close = inner.iter().position(|&b| b == b')')?;
    let inner = &inner[..close];
    let d = *inner.first()?;
    let parts: Vec<&[u8]> = inner.split(|&b| b == d).collect();
    // "", "", "", port, ""
    if parts.len() != 5 {
        return None;
    }
    std::str::from_utf8(parts[3]).ok()?.parse().ok()
}

/// The port of a 227 reply: the last two of `h1,h2,h3,h4,p1,p2`, wherever
/// the numbers are in the text (servers differ on parentheses).
pub fn parse_227_port(text: &[u8]) -> Option<u16> {
    let start = text.iter().position(u8::is_ascii_digit)?;
    let nums: Vec<u16> = text[start..]
        .split(|b| !b.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .take(6)
        .filter_map(|s| std::str::from_utf8(s).ok()?.parse().ok())
        .collect();
    if nums.len() != 6 || nums.iter().any(|&n| n > 255) {
        return None;
    }
    Some(nums[4] << 8 | nums[5])
}
