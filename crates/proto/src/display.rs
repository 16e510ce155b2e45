//! Rendering a pathname for a terminal (RFC 2640 §3.3).
//!
//! > "How a client presents characters it cannot display is a quality of
//! > implementation issue. This document RECOMMENDS that octets corresponding
//! > to non-displayable characters SHOULD be presented in URL %HH format
//! > defined in RFC 1738." — RFC 2640 §3.3
//!
//! A pathname is bytes. [`display_path`] turns it into text that is safe to
//! print and that can be read back into the *same* bytes with
//! [`parse_display_path`]:
//!
//! - valid UTF-8 shows as text (CJK, emoji, combining marks untouched);
//! - every octet of invalid UTF-8 shows as `%HH` (uppercase hex);
//! - characters that are not displayable or that would change how the rest of
//!   the line looks show as the `%HH` of their UTF-8 octets (see
//!   [`is_displayable`]): controls (C0, DEL, C1), bidi formatting characters
//!   (which can make `evil\u{202E}txt.exe` read as `evilexe.txt`), line and
//!   paragraph separators, invisible format characters and noncharacters;
//! - a literal `%` shows as `%25`, so every `%` in the output starts an
//!   escape and the rendering is unambiguous;
//! - each `/`-separated component that contains a strong right-to-left
//!   character (Bidi_Class R or AL) is wrapped in U+2068 FIRST STRONG ISOLATE
//!   … U+2069 POP DIRECTIONAL ISOLATE.
//!
//! ## Why isolate per component, and not the whole string
//!
//! Under the Unicode Bidirectional Algorithm an isolate behaves like one
//! neutral character to the text around it, so the components of
//! `docs/<FSI>שלום<PDI>/report.txt` stay in logical left-to-right order while the
//! Hebrew name lays itself out right-to-left inside its isolate. Without the
//! isolates, `שלום/עולם.txt` would be one right-to-left run and the terminal
//! would show the *last* component first.
//!
//! The whole string is deliberately **not** wrapped: rule P2 skips the text
//! inside isolates when it looks for a paragraph's first strong character,
//! and every component left outside an isolate has no R/AL character, so a
//! rendered path on its own line already resolves to a left-to-right
//! paragraph. Wrapping it as well would add marks to every Hebrew path for no
//! visible gain, and pure left-to-right paths must come back byte-identical
//! (no marks at all). A caller that embeds a path inside right-to-left text
//! can wrap the result in its own isolate.
//!
//! Because every U+2068/U+2069 that was in the name itself is escaped (they
//! are bidi formatting characters), any raw U+2068/U+2069 in the output is a
//! mark added here, which is what lets [`parse_display_path`] strip them.

use std::fmt;

use unicode_bidi::{bidi_class, BidiClass};

/// U+2068 FIRST STRONG ISOLATE: opens the isolate around a right-to-left component.
pub const FSI: char = '\u{2068}';
/// U+2069 POP DIRECTIONAL ISOLATE: closes the isolate opened by [`FSI`].
pub const PDI: char = '\u{2069}';

/// Renders a pathname for a terminal: text where it is displayable UTF-8,
/// `%HH` elsewhere, right-to-left components isolated. See the
/// [module documentation](self) for the exact rules.
///
/// Allocates one `String`; for pure printable ASCII without `%` the output is
/// the input. To print without the intermediate `String`, use
/// [`DisplayPath`].
///
/// ```
/// use babelftp_proto::display::display_path;
/// assert_eq!(display_path(b"docs/\xC0\xAE/100%.txt"), "docs/%C0%AE/100%25.txt");
/// assert_eq!(display_path("報告書.txt".as_bytes()), "報告書.txt");
/// ```
pub fn display_path(bytes: &[u8]) -> String {
    if bytes.iter().all(|&b| (0x20..0x7F).contains(&b) && b != b'%') {
        // Printable ASCII without `%` renders as itself.
        return bytes.iter().map(|&b| char::from(b)).collect();
    }
    DisplayPath(bytes).to_string()
}

/// [`display_path`] with the bidi isolation chosen: `isolate = false`
/// renders the same text without the U+2068/U+2069 marks, for output that
/// is not a terminal (a pipe, a file), where the marks would be part of the
/// name to the program reading it.
///
/// ```
/// use babelftp_proto::display::display_path_isolated;
/// assert_eq!(display_path_isolated("שלום.txt".as_bytes(), false), "שלום.txt");
/// assert_eq!(display_path_isolated("שלום.txt".as_bytes(), true), "\u{2068}שלום.txt\u{2069}");
/// ```
pub fn display_path_isolated(bytes: &[u8], isolate: bool) -> String {
    if isolate {
        display_path(bytes)
    } else {
        PlainPath(bytes).to_string()
    }
}

/// A pathname that formats itself as [`display_path`] does, without
/// allocating: `println!("{}", DisplayPath(name))`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DisplayPath<'a>(pub &'a [u8]);

/// Like [`DisplayPath`] but without the bidi isolation marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlainPath<'a>(pub &'a [u8]);

impl fmt::Display for PlainPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_path(f, self.0, false)
    }
}

impl fmt::Display for DisplayPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_path(f, self.0, true)
    }
}

fn write_path(f: &mut fmt::Formatter<'_>, path: &[u8], isolate_rtl: bool) -> fmt::Result {
    for (i, component) in path.split(|&b| b == b'/').enumerate() {
        if i > 0 {
            f.write_str("/")?;
        }
        let isolate = isolate_rtl && has_displayed_rtl(component);
        if isolate {
            write!(f, "{FSI}")?;
        }
        write_component(f, component)?;
        if isolate {
            write!(f, "{PDI}")?;
        }
    }
    Ok(())
}

/// Removes the isolation marks (U+2068, U+2069) that [`display_path`] adds
/// around right-to-left components: a name copied from the terminal and
/// pasted into a command carries them, and they are no part of it (a name's
/// own U+2068/U+2069 are shown as `%E2%81%A8`/`%E2%81%A9`, never raw).
///
/// ```
/// use babelftp_proto::display::{display_path, strip_isolates};
/// let shown = display_path("docs/שלום.txt".as_bytes());
/// assert_ne!(shown, "docs/שלום.txt");
/// assert_eq!(strip_isolates(&shown), "docs/שלום.txt");
/// ```
pub fn strip_isolates(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains([FSI, PDI]) {
        std::borrow::Cow::Owned(s.chars().filter(|&c| c != FSI && c != PDI).collect())
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// Reverses [`display_path`]: strips the isolation marks it added and decodes
/// every `%HH` (either case of hex digit) back into its octet. Any other
/// character stands for its own UTF-8 octets, so a name typed back by a user
/// (who did not escape a character `display_path` would have escaped) is
/// accepted too.
///
/// Returns `None` when the text cannot have come from a pathname: a `%` not
/// followed by two hex digits, or an isolation mark anywhere other than
/// wrapping a whole `/`-separated component.
///
/// For every byte string `b`, `parse_display_path(&display_path(b)) == Some(b)`.
pub fn parse_display_path(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    for (i, component) in s.split('/').enumerate() {
        if i > 0 {
            out.push(b'/');
        }
        let inner = match component.strip_prefix(FSI) {
            Some(rest) => rest.strip_suffix(PDI)?,
            None => component,
        };
        if inner.contains([FSI, PDI]) {
            return None;
        }
        decode_percent(inner, &mut out)?;
    }
    Some(out)
}

/// Whether `c` is shown as itself by [`display_path`]. `false` (shown as the
/// `%HH` of its UTF-8 octets) for:
///
/// - control characters: C0 U+0000–U+001F, DEL U+007F, C1 U+0080–U+009F —
///   they move the cursor, ring bells and start terminal escape sequences;
/// - bidi formatting characters — embeddings and overrides U+202A–U+202E,
///   isolates U+2066–U+2069, and the marks U+200E LRM, U+200F RLM,
///   U+061C ALM — because they change how the *rest* of the name reads
///   (`evil\u{202E}txt.exe` shows as `evilexe.txt`);
/// - U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR, which break the
///   line (and the bidi paragraph);
/// - invisible characters with no shaping role, which can make two different
///   names look the same: U+00AD SOFT HYPHEN, U+180E MONGOLIAN VOWEL
///   SEPARATOR, U+200B ZERO WIDTH SPACE, U+2060–U+2064 (word joiner,
///   invisible operators), U+206A–U+206F (deprecated format characters),
///   U+FEFF ZERO WIDTH NO-BREAK SPACE (BOM), U+FFF9–U+FFFB (interlinear
///   annotation);
/// - noncharacters: U+FDD0–U+FDEF and the last two code points of every
///   plane (U+FFFE, U+FFFF, U+1FFFE, …).
///
/// Deliberately shown as themselves: U+200C ZWNJ and U+200D ZWJ (needed by
/// Persian, Indic scripts and emoji sequences), variation selectors and tag
/// characters (emoji flags), private-use and unassigned code points (their
/// display depends on fonts and on the Unicode version, not on spoofing).
pub fn is_displayable(c: char) -> bool {
    let cp = u32::from(c);
    !(c.is_control()
        || matches!(
            cp,
            0x00AD
                | 0x061C
                | 0x180E
                | 0x200B
                | 0x200E
                | 0x200F
                | 0x2028
                | 0x2029
                | 0x202A..=0x202E
                | 0x2060..=0x2064
                | 0x2066..=0x206F
                | 0xFEFF
                | 0xFFF9..=0xFFFB
                | 0xFDD0..=0xFDEF
        )
        || cp & 0xFFFE == 0xFFFE)
}

/// Whether the component has a strong right-to-left character among the
/// characters that will be shown as themselves (an escaped U+061C ALM, class
/// AL, must not trigger an isolate).
fn has_displayed_rtl(component: &[u8]) -> bool {
    component.utf8_chunks().any(|chunk| {
        chunk
            .valid()
            .chars()
            .any(|c| matches!(bidi_class(c), BidiClass::R | BidiClass::AL) && is_displayable(c))
    })
}

fn write_component(f: &mut fmt::Formatter<'_>, component: &[u8]) -> fmt::Result {
    let mut utf8 = [0u8; 4];
    for chunk in component.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '%' || !is_displayable(c) {
                for &b in c.encode_utf8(&mut utf8).as_bytes() {
                    f.write_str(percent_encoding::percent_encode_byte(b))?;
                }
            } else {
                write!(f, "{c}")?;
            }
        }
        for &b in chunk.invalid() {
            f.write_str(percent_encoding::percent_encode_byte(b))?;
        }
    }
    Ok(())
}

/// Appends `s` to `out` with every `%HH` decoded; `None` on a malformed escape.
fn decode_percent(s: &str, out: &mut Vec<u8>) -> Option<()> {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hi = hex_value(*bytes.get(i + 1)?)?;
            let lo = hex_value(*bytes.get(i + 2)?)?;
            out.push((hi << 4) | lo);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(())
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Renders, checks the exact output and that it reads back to the input.
    #[track_caller]
    fn check(input: &[u8], expected: &str) {
        let shown = display_path(input);
        assert_eq!(shown, expected, "display_path({input:?})");
        assert_eq!(
            parse_display_path(&shown).as_deref(),
            Some(input),
            "parse_display_path({shown:?})"
        );
        assert_eq!(DisplayPath(input).to_string(), shown, "DisplayPath agrees");
    }

    #[test]
    fn ascii_is_unchanged() {
        check(b"/pub/README.txt", "/pub/README.txt");
        check(b"", "");
        check(b"/", "/");
        check(b"a b~!@#$^&*()", "a b~!@#$^&*()");
    }

    #[test]
    fn cjk_and_emoji_outside_the_bmp_are_text() {
        // RFC 2640 §3.3: clients SHOULD parse UTF-8 and display the pathname.
        check("報告書/日本語.txt".as_bytes(), "報告書/日本語.txt");
        check("😀.png".as_bytes(), "😀.png");
        check("👨\u{200D}👩\u{200D}👧".as_bytes(), "👨\u{200D}👩\u{200D}👧");
    }

    #[test]
    fn combining_marks_stay_decomposed() {
        // macOS writes NFD; display never normalizes (the bytes are the name).
        check("Cafe\u{301}.txt".as_bytes(), "Cafe\u{301}.txt");
    }

    #[test]
    fn hebrew_only_name_is_isolated() {
        check("שלום".as_bytes(), "\u{2068}שלום\u{2069}");
        check("/שלום/".as_bytes(), "/\u{2068}שלום\u{2069}/");
    }

    #[test]
    fn mixed_path_keeps_components_in_logical_order() {
        check(
            "docs/שלום/report.txt".as_bytes(),
            "docs/\u{2068}שלום\u{2069}/report.txt",
        );
        check(
            "שלום/עולם.txt".as_bytes(),
            "\u{2068}שלום\u{2069}/\u{2068}עולם.txt\u{2069}",
        );
        // Arabic is class AL.
        check("docs/مرحبا.txt".as_bytes(), "docs/\u{2068}مرحبا.txt\u{2069}");
    }

    #[test]
    fn pure_ltr_gets_no_marks() {
        for name in ["docs/report.txt", "日本語/😀", "123/456", "Καλημέρα/Привет"] {
            let shown = display_path(name.as_bytes());
            assert_eq!(shown, name);
            assert!(!shown.contains([FSI, PDI]));
        }
    }

    #[test]
    fn terminal_escape_is_defused() {
        check(b"\x1b[31mred", "%1B[31mred");
    }

    #[test]
    fn cr_lf_nul_del_and_c1_are_escaped() {
        check(b"a\r\nb", "a%0D%0Ab");
        check(b"nul\0", "nul%00");
        check(b"del\x7f", "del%7F");
        check(b"tab\t", "tab%09");
        // U+009B CSI is a C1 control; UTF-8 C2 9B.
        check("x\u{9B}31m".as_bytes(), "x%C2%9B31m");
    }

    #[test]
    fn rlo_spoof_is_escaped() {
        check("evil\u{202E}txt.exe".as_bytes(), "evil%E2%80%AEtxt.exe");
        check("a\u{200F}b\u{200E}c".as_bytes(), "a%E2%80%8Fb%E2%80%8Ec");
        check("\u{2066}x\u{2069}".as_bytes(), "%E2%81%A6x%E2%81%A9");
        // An Arabic letter mark is escaped and therefore does not isolate.
        check("a\u{061C}b".as_bytes(), "a%D8%9Cb");
    }

    #[test]
    fn literal_isolates_in_a_name_are_escaped() {
        // So that raw U+2068/U+2069 in the output are always our marks.
        check(
            "\u{2068}שלום\u{2069}".as_bytes(),
            "\u{2068}%E2%81%A8שלום%E2%81%A9\u{2069}",
        );
    }

    #[test]
    fn noncharacters_and_invisibles_are_escaped() {
        check("x\u{FFFE}\u{FFFF}".as_bytes(), "x%EF%BF%BE%EF%BF%BF");
        check("\u{FEFF}bom".as_bytes(), "%EF%BB%BFbom");
        check("pay\u{200B}pal".as_bytes(), "pay%E2%80%8Bpal");
        check("line\u{2028}sep".as_bytes(), "line%E2%80%A8sep");
        check("\u{10FFFF}".as_bytes(), "%F4%8F%BF%BF");
    }

    #[test]
    fn invalid_utf8_is_escaped_octet_by_octet() {
        check(b"\xC0\xAE", "%C0%AE");
        check(b"a\xFFb", "a%FFb");
        // Surrogates are not valid UTF-8 (RFC 3629).
        check(b"\xED\xA0\x80", "%ED%A0%80");
        // Truncated sequence followed by valid text.
        check(b"\xC3ok", "%C3ok");
    }

    #[test]
    fn shift_jis_bytes_are_escaped() {
        // 日本 in Shift_JIS: 93 FA 96 7B. 0x7B is '{' and stays text.
        check(b"\x93\xfa\x96\x7b.txt", "%93%FA%96{.txt");
    }

    #[test]
    fn percent_is_escaped() {
        check(b"100%", "100%25");
        check(b"%41", "%2541");
        check("%שלום".as_bytes(), "\u{2068}%25שלום\u{2069}");
    }

    #[test]
    fn parse_accepts_lowercase_hex_and_typed_characters() {
        assert_eq!(parse_display_path("%c0%ae").as_deref(), Some(&b"\xC0\xAE"[..]));
        assert_eq!(parse_display_path("שלום").as_deref(), Some("שלום".as_bytes()));
    }

    #[test]
    fn parse_rejects_what_display_cannot_produce() {
        assert_eq!(parse_display_path("%"), None);
        assert_eq!(parse_display_path("%4"), None);
        assert_eq!(parse_display_path("%G1"), None);
        assert_eq!(parse_display_path("a\u{2068}b"), None);
        assert_eq!(parse_display_path("\u{2068}ab"), None);
        assert_eq!(parse_display_path("ab\u{2069}"), None);
        assert_eq!(parse_display_path("\u{2068}a\u{2068}b\u{2069}"), None);
    }

    /// Bytes biased towards the interesting cases: separators, `%`, RTL,
    /// bidi controls, C0/C1, invalid UTF-8.
    fn interesting_bytes() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            any::<u8>().prop_map(|b| vec![b]),
            Just(b"/".to_vec()),
            Just(b"%".to_vec()),
            Just("ש".as_bytes().to_vec()),
            Just("م".as_bytes().to_vec()),
            Just("\u{202E}".as_bytes().to_vec()),
            Just("\u{2068}".as_bytes().to_vec()),
            Just("\u{2069}".as_bytes().to_vec()),
            Just("\u{85}".as_bytes().to_vec()),
            Just("日".as_bytes().to_vec()),
            any::<char>().prop_map(|c| c.to_string().into_bytes()),
        ];
        prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn round_trips_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            prop_assert_eq!(parse_display_path(&display_path(&bytes)), Some(bytes));
        }

        #[test]
        fn round_trips_interesting_bytes(bytes in interesting_bytes()) {
            let shown = display_path(&bytes);
            prop_assert_eq!(parse_display_path(&shown), Some(bytes.clone()));
            // The output never contains anything that is not displayable,
            // apart from the isolation marks we added.
            prop_assert!(shown.chars().all(|c| is_displayable(c) || c == FSI || c == PDI));
            // And it is the same whether or not it allocated.
            prop_assert_eq!(DisplayPath(&bytes).to_string(), shown);
        }

        #[test]
        fn valid_ltr_text_is_identity(s in "[a-zA-Z0-9 ._/~日本語😀é-]{0,32}") {
            prop_assert_eq!(display_path(s.as_bytes()), s);
        }
    }
}
