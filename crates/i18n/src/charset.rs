//! Lossless translation of pathnames between a local (legacy) charset and
//! UTF-8, over `encoding_rs`.
//!
//! RFC 2640 B.3 puts this at the one place where the protocol meets the
//! local filesystem: a server whose disk holds KOI8-R or Shift_JIS names
//! translates them to UTF-8 for the wire and back. A pathname is an
//! *identifier*, not text to be displayed: if the translation changes a
//! single byte, the client later asks for a file that does not exist, or
//! worse, for a different one. So both directions here are all-or-nothing.
//!
//! ## Why a round trip is required
//! Decoding without replacement is not enough. Several legacy charsets have
//! byte sequences that decode to a character which encodes back to
//! *different* bytes: in Shift_JIS the user-defined area `F0..F9` decodes to
//! the Private Use Area and will not encode at all, and the NEC-selected IBM
//! extensions in rows `ED`/`EE` decode to the same characters as the IBM
//! extensions in `FA..FC`, which is where they encode back to; Big5's HKSCS
//! lead bytes `87..A0` decode only. (Measured with encoding_rs 0.8.44: 2278
//! of 17668 valid Shift_JIS two-byte sequences and 3941 of 18594 Big5 ones do
//! not round-trip.) A client that received such a name as UTF-8 and sent it
//! back would name a different file. [`Charset::to_utf8`] therefore returns a
//! name only if encoding it again gives back exactly the bytes on disk;
//! otherwise `None`, and the caller deals in the raw bytes (RFC 2640 allows
//! non-UTF-8 pathnames) or refuses the operation.
//!
//! The other direction has the mirror problem: encoders map some characters
//! many-to-one (Shift_JIS and EUC-JP write `¥` as `5C`, which is `\` when
//! read back, a path separator on Windows). [`Charset::from_utf8`] returns
//! bytes only if they decode back to exactly the name it was given.
//!
//! ## Why never U+FFFD, `?` or `&#NNN;`
//! A replacement character turns two different names into the same string,
//! and a `?` or a numeric character reference (what encoding_rs's plain
//! `encode()` writes for unmappable characters) turns a name into a
//! *different, valid* name: `STOR 😀.txt` would create `&#128512;.txt`. Both
//! directions use the `*_without_replacement` APIs and fail instead.
//!
//! ## Labels
//! [`Charset::for_label`] takes the WHATWG Encoding Standard labels that
//! encoding_rs knows, with these differences and caveats:
//! - The ISO-8859-1 labels (`iso-8859-1`, `latin1`, `l1`, `iso_8859-1`,
//!   `iso8859-1`, `iso88591`, `iso_8859-1:1987`, `iso-ir-100`, `cp819`,
//!   `ibm819`, `csisolatin1`) give a **true ISO-8859-1**, which maps every
//!   byte to U+0000..U+00FF. WHATWG (and so encoding_rs) resolves them to
//!   windows-1252, where `80` is `€`; on a filesystem that says "Latin-1",
//!   `80` is the control U+0080. `windows-1252`, `cp1252`, `ascii` and
//!   `us-ascii` stay windows-1252, as WHATWG has it.
//! - `tis-620` (and `iso-8859-11`) resolve to windows-874, a superset of
//!   TIS-620: names from a TIS-620 disk round-trip, but a UTF-8 name with
//!   `€` or curly quotes would be written as windows-874 bytes that a strict
//!   TIS-620 reader shows as C1 controls.
//! - `iso-8859-9` resolves to windows-1254 (a superset in `80..9F`).
//! - Encodings whose encoder does not produce their own bytes are refused:
//!   UTF-16LE/BE (encoding_rs encodes them as UTF-8) and the WHATWG
//!   `replacement` encoding (labels like `iso-2022-kr`, `hz-gb-2312`).
//!
//! Not done here: Unicode normalization. macOS clients send NFD; a caller
//! that wants `é` typed as NFD to find an NFC name normalizes first.
//!
//! Pathnames are tens of bytes, so the one-shot APIs allocate freely; no
//! streaming is needed.

use std::fmt;

use encoding_rs::{EncoderResult, Encoding};

/// A local charset for pathnames: an encoding_rs encoding, or true
/// ISO-8859-1. Cheap to copy; compare with `==`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Charset(Kind);

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    /// Any encoding_rs encoding whose encoder writes that same encoding.
    Whatwg(&'static Encoding),
    /// ISO/IEC 8859-1 proper: byte `b` is U+00`b`, both ways.
    Latin1,
}

/// Windows' names of its East Asian code pages, as admins and old
/// clients write them (`cp932`), which the WHATWG labels lack: the WHATWG
/// encodings of those names are these code pages (Shift_JIS is
/// windows-31j, GBK is CP936 with its extensions, EUC-KR is the Unified
/// Hangul Code CP949, Big5 is CP950 with HKSCS).
const WINDOWS_CODE_PAGES: &[(&str, &str)] = &[
    ("cp932", "shift_jis"),
    ("ms932", "shift_jis"),
    ("ibm-943", "shift_jis"),
    ("cp936", "gbk"),
    ("ms936", "gbk"),
    ("cp949", "euc-kr"),
    ("ms949", "euc-kr"),
    ("uhc", "euc-kr"),
    ("cp950", "big5"),
    ("ms950", "big5"),
];

/// Labels of true ISO-8859-1 (the IANA aliases, plus the WHATWG spellings
/// `iso8859-1` and `iso88591`), already lowercase.
const LATIN1_LABELS: &[&str] = &[
    "iso-8859-1",
    "iso_8859-1",
    "iso_8859-1:1987",
    "iso8859-1",
    "iso88591",
    "latin1",
    "l1",
    "iso-ir-100",
    "cp819",
    "ibm819",
    "csisolatin1",
];

impl Charset {
    /// True ISO-8859-1: every byte maps to U+0000..U+00FF.
    pub const LATIN_1: Charset = Charset(Kind::Latin1);

    /// UTF-8 as the local charset (a pass-through that still checks
    /// validity).
    pub fn utf8() -> Charset {
        Charset(Kind::Whatwg(encoding_rs::UTF_8))
    }

    /// Looks up a charset by label, case-insensitively and ignoring
    /// surrounding ASCII whitespace, as the WHATWG Encoding Standard does.
    /// See the module docs for the labels that differ from WHATWG.
    pub fn for_label(label: &str) -> Option<Charset> {
        let trimmed = label.trim_matches(|c: char| matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' '));
        if LATIN1_LABELS.iter().any(|l| l.eq_ignore_ascii_case(trimmed)) {
            return Some(Charset::LATIN_1);
        }
        let trimmed = WINDOWS_CODE_PAGES
            .iter()
            .find(|(cp, _)| cp.eq_ignore_ascii_case(trimmed))
            .map_or(trimmed, |(_, whatwg)| whatwg);
        Encoding::for_label(trimmed.as_bytes()).and_then(Charset::from_encoding)
    }

    /// Wraps an encoding_rs encoding; `None` for the ones that cannot hold
    /// pathnames losslessly (UTF-16LE, UTF-16BE, `replacement`), whose
    /// encoders write UTF-8 instead of themselves.
    pub fn from_encoding(encoding: &'static Encoding) -> Option<Charset> {
        (encoding.output_encoding() == encoding).then_some(Charset(Kind::Whatwg(encoding)))
    }

    /// The encoding_rs encoding, or `None` for [`Charset::LATIN_1`] (which
    /// encoding_rs does not have as an `Encoding`).
    pub fn encoding(&self) -> Option<&'static Encoding> {
        match self.0 {
            Kind::Whatwg(encoding) => Some(encoding),
            Kind::Latin1 => None,
        }
    }

    /// The canonical name: `"ISO-8859-1"` for true Latin-1, otherwise the
    /// encoding_rs name (`"Shift_JIS"`, `"windows-874"`, `"KOI8-R"`, ...).
    pub fn name(&self) -> &'static str {
        match self.0 {
            Kind::Whatwg(encoding) => encoding.name(),
            Kind::Latin1 => "ISO-8859-1",
        }
    }

    /// Translates a local pathname to UTF-8, losslessly or not at all.
    ///
    /// `None` if `local` is malformed in this charset, or if it decodes but
    /// does not encode back to exactly `local` (see the module docs). Never
    /// substitutes U+FFFD. No BOM handling: a leading BOM is part of the name.
    pub fn to_utf8(&self, local: &[u8]) -> Option<String> {
        let encoding = match self.0 {
            Kind::Latin1 => return Some(encoding_rs::mem::decode_latin1(local).into_owned()),
            Kind::Whatwg(encoding) => encoding,
        };
        if encoding == encoding_rs::UTF_8 || (encoding.is_ascii_compatible() && local.is_ascii()) {
            // Identity mappings: nothing to round-trip.
            return std::str::from_utf8(local).ok().map(str::to_owned);
        }
        let decoded = encoding.decode_without_bom_handling_and_without_replacement(local)?;
        let back = encode_without_replacement(encoding, &decoded)?;
        (back == local).then(|| decoded.into_owned())
    }

    /// Translates a UTF-8 pathname to local bytes, losslessly or not at all.
    ///
    /// `None` if any character has no mapping in this charset (never writes
    /// `?` or `&#NNN;`), or if the bytes do not decode back to exactly
    /// `name`: some encoders map several characters to one byte sequence
    /// (Shift_JIS and EUC-JP write both `¥` and `\` as `5C`, both `‾` and
    /// `~` as `7E`), and two names must never become one file.
    pub fn from_utf8(&self, name: &str) -> Option<Vec<u8>> {
        let encoding = match self.0 {
            Kind::Latin1 => {
                return encoding_rs::mem::is_str_latin1(name)
                    .then(|| encoding_rs::mem::encode_latin1_lossy(name).into_owned())
            }
            Kind::Whatwg(encoding) => encoding,
        };
        if encoding == encoding_rs::UTF_8 || (encoding.is_ascii_compatible() && name.is_ascii()) {
            return Some(name.as_bytes().to_vec());
        }
        let local = encode_without_replacement(encoding, name)?;
        let back = encoding.decode_without_bom_handling_and_without_replacement(&local)?;
        (back == name).then_some(local)
    }
}

impl fmt::Debug for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Charset({})", self.name())
    }
}

impl fmt::Display for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Encodes all of `s`, or returns `None` at the first unmappable character.
fn encode_without_replacement(encoding: &'static Encoding, s: &str) -> Option<Vec<u8>> {
    let mut encoder = encoding.new_encoder();
    let mut out = Vec::with_capacity(encoder.max_buffer_length_from_utf8_without_replacement(s.len())?);
    let mut rest = s;
    loop {
        let (result, read) = encoder.encode_from_utf8_to_vec_without_replacement(rest, &mut out, true);
        rest = rest.get(read..)?;
        match result {
            EncoderResult::InputEmpty => return Some(out),
            EncoderResult::Unmappable(_) => return None,
            EncoderResult::OutputFull => {
                let more = encoder.max_buffer_length_from_utf8_without_replacement(rest.len())?;
                out.reserve(more.max(16));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use babelftp_proto::utf8::{self, Mode};
    use proptest::prelude::*;

    fn cs(label: &str) -> Charset {
        Charset::for_label(label).unwrap()
    }

    /// local bytes -> UCS-4 (via the UTF-8 string and babelftp_proto::utf8)
    /// -> UTF-8 octets, and back, as RFC 2640 B.2.1 and B.2.2 describe.
    fn check_b2(charset: Charset, local: &[u8], ucs4: u32, utf8_octets: &[u8]) {
        let name = charset.to_utf8(local).unwrap();
        assert_eq!(name.as_bytes(), utf8_octets);
        assert_eq!(utf8::decode_ucs4(name.as_bytes(), Mode::Strict), Ok(vec![ucs4]));
        let mut out = Vec::new();
        assert_eq!(utf8::encode_ucs4(ucs4, Mode::Legacy, &mut out), Ok(utf8_octets.len()));
        assert_eq!(out, utf8_octets);
        let back = std::str::from_utf8(&out).unwrap();
        assert_eq!(charset.from_utf8(back).unwrap(), local);
    }

    #[test]
    fn rfc2640_b23_iso_8859_8_hebrew_vav() {
        // B.2.3 says VAV is 0xE4 in ISO/IEC 8859-8 and U+05D5 in UCS-4, and
        // computes UTF-8 D7 95. The UCS-4 and UTF-8 values are right, but in
        // ISO 8859-8 (and in encoding_rs) 0xE4 is HE, U+05D4; VAV is 0xE5.
        let hebrew = cs("ISO-8859-8");
        assert_eq!(hebrew.name(), "ISO-8859-8");
        check_b2(hebrew, &[0xE5], 0x05D5, &[0xD7, 0x95]);
        check_b2(hebrew, &[0xE4], 0x05D4, &[0xD7, 0x94]);
    }

    #[test]
    fn rfc2640_b24_tis_620_thai_so_so() {
        // B.2.4: "the Thai letter "SO SO" is 0xAB ... UCS-4 code of 0x0E0B",
        // UTF-8 E0 B8 8B.
        let thai = cs("TIS-620");
        assert_eq!(thai.name(), "windows-874");
        check_b2(thai, &[0xAB], 0x0E0B, &[0xE0, 0xB8, 0x8B]);
    }

    #[test]
    fn cyrillic_koi8_r_and_windows_1251() {
        let name = "файл.txt";
        for (label, local) in [
            ("KOI8-R", &b"\xC6\xC1\xCA\xCC.txt"[..]),
            ("windows-1251", b"\xF4\xE0\xE9\xEB.txt"),
            ("cp1251", b"\xF4\xE0\xE9\xEB.txt"),
        ] {
            let charset = cs(label);
            assert_eq!(charset.to_utf8(local).as_deref(), Some(name), "{label}");
            assert_eq!(charset.from_utf8(name).as_deref(), Some(local), "{label}");
        }
    }

    #[test]
    fn shift_jis_nihongo() {
        let sjis = cs("Shift_JIS");
        let local = b"\x93\xFA\x96\x7B\x8C\xEA/\x83\x74\x83\x40\x83\x43\x83\x8B";
        assert_eq!(sjis.to_utf8(local).as_deref(), Some("日本語/ファイル"));
        assert_eq!(sjis.from_utf8("日本語/ファイル").as_deref(), Some(&local[..]));
        assert_eq!(cs("sjis"), sjis);
    }

    #[test]
    fn unmappable_characters_give_none_never_a_reference_or_question_mark() {
        assert_eq!(cs("Shift_JIS").from_utf8("smile😀.txt"), None);
        assert_eq!(cs("KOI8-R").from_utf8("ў"), None);
        assert_eq!(cs("ISO-8859-8").from_utf8("€"), None);
        assert_eq!(Charset::LATIN_1.from_utf8("€"), None);
        assert_eq!(cs("windows-874").from_utf8("日"), None);
        // What the plain encode() would have done:
        let (ncr, _, unmappable) = encoding_rs::SHIFT_JIS.encode("😀");
        assert!(unmappable);
        assert_eq!(&ncr[..], b"&#128512;");
    }

    #[test]
    fn shift_jis_sequences_that_do_not_round_trip_give_none() {
        let sjis = cs("Shift_JIS");
        // User-defined area: decodes to U+E000 (PUA), which does not encode.
        assert!(encoding_rs::SHIFT_JIS
            .decode_without_bom_handling_and_without_replacement(b"\xF0\x40")
            .is_some());
        assert_eq!(sjis.to_utf8(b"\xF0\x40"), None);
        // NEC-selected IBM extension: decodes to U+7E8A, which encodes as FA 5C.
        assert_eq!(
            encoding_rs::SHIFT_JIS
                .decode_without_bom_handling_and_without_replacement(b"\xED\x40")
                .as_deref(),
            Some("\u{7E8A}")
        );
        assert_eq!(sjis.to_utf8(b"\xED\x40"), None);
        assert_eq!(sjis.to_utf8(b"\xFA\x5C").as_deref(), Some("\u{7E8A}"));
        // and malformed: a lone lead byte
        assert_eq!(sjis.to_utf8(b"abc\x82"), None);
    }

    #[test]
    fn many_to_one_encodings_give_none() {
        // WHATWG Shift_JIS encodes U+00A5 as 5C and U+203E as 7E.
        let sjis = cs("Shift_JIS");
        assert_eq!(encoding_rs::SHIFT_JIS.encode("¥‾").0.as_ref(), b"\x5C\x7E");
        assert_eq!(sjis.from_utf8("¥"), None);
        assert_eq!(sjis.from_utf8("a‾b"), None);
        assert_eq!(sjis.from_utf8("\\").as_deref(), Some(&b"\x5C"[..]));
        assert_eq!(cs("EUC-JP").from_utf8("¥100"), None);
    }

    #[test]
    fn unmapped_bytes_give_none() {
        assert_eq!(cs("ISO-8859-8").to_utf8(b"\xA1"), None);
        assert_eq!(cs("windows-874").to_utf8(b"\xDB"), None);
        assert_eq!(Charset::utf8().to_utf8(b"\xC0\xAE"), None);
    }

    #[test]
    fn true_latin_1_versus_windows_1252() {
        for label in ["iso-8859-1", "ISO-8859-1", " latin1 ", "l1", "cp819", "ISO_8859-1:1987"] {
            assert_eq!(cs(label), Charset::LATIN_1, "{label}");
        }
        let latin1 = Charset::LATIN_1;
        assert_eq!(latin1.name(), "ISO-8859-1");
        assert_eq!(latin1.encoding(), None);
        assert_eq!(latin1.to_utf8(b"\x80").as_deref(), Some("\u{80}"));
        assert_eq!(latin1.from_utf8("\u{80}").as_deref(), Some(&b"\x80"[..]));
        let cp1252 = cs("windows-1252");
        assert_eq!(cp1252.to_utf8(b"\x80").as_deref(), Some("€"));
        assert_eq!(cp1252.from_utf8("€").as_deref(), Some(&b"\x80"[..]));
        assert_eq!(cs("us-ascii"), cp1252);
        assert_eq!(latin1.to_utf8(b"caf\xE9").as_deref(), Some("café"));
    }

    #[test]
    fn labels() {
        assert_eq!(cs("iso-8859-9").name(), "windows-1254");
        assert_eq!(cs("KOI8-U").name(), "KOI8-U");
        assert_eq!(cs("utf8"), Charset::utf8());
        assert_eq!(cs("Big5-HKSCS").name(), "Big5");
        assert_eq!(Charset::for_label("utf-16le"), None);
        assert_eq!(Charset::for_label("iso-2022-kr"), None, "replacement");
        // Windows' code page names, which WHATWG lacks (issue 28: "a
        // user whose old client speaks CP932").
        assert_eq!(cs("cp932").name(), "Shift_JIS");
        assert_eq!(cs("CP949").name(), "EUC-KR");
        assert_eq!(cs("cp936").name(), "GBK");
        assert_eq!(cs("cp950").name(), "Big5");
        assert_eq!(Charset::for_label(""), None);
        assert_eq!(
            format!("{:?} {}", cs("sjis"), cs("sjis")),
            "Charset(Shift_JIS) Shift_JIS"
        );
    }

    #[test]
    fn every_single_byte_of_cyrillic_and_latin_charsets_round_trips() {
        // WHATWG fills windows-1251 0x98 with U+0098; KOI8-R maps all 128.
        for charset in [cs("windows-1251"), cs("KOI8-R"), cs("windows-1252"), Charset::LATIN_1] {
            for b in 0..=0xFFu8 {
                let s = charset.to_utf8(&[b]).unwrap();
                assert_eq!(charset.from_utf8(&s).unwrap(), [b], "{charset} {b:02X}");
            }
        }
    }

    proptest! {
        #[test]
        fn single_byte_cyrillic_and_latin_any_bytes_round_trip(
            bytes in prop::collection::vec(any::<u8>(), 0..64)
        ) {
            for charset in [cs("windows-1251"), cs("KOI8-R"), Charset::LATIN_1] {
                let name = charset.to_utf8(&bytes).unwrap();
                prop_assert_eq!(charset.from_utf8(&name).unwrap(), bytes.clone());
            }
        }

        #[test]
        fn to_utf8_is_lossless_whenever_it_answers(
            bytes in prop::collection::vec(any::<u8>(), 0..16)
        ) {
            for label in ["Shift_JIS", "Big5", "EUC-JP", "gb18030", "EUC-KR", "ISO-8859-8",
                          "windows-874", "ISO-2022-JP", "UTF-8"] {
                let charset = cs(label);
                if let Some(name) = charset.to_utf8(&bytes) {
                    prop_assert_eq!(charset.from_utf8(&name), Some(bytes.clone()), "{}", label);
                }
            }
        }

        #[test]
        fn from_utf8_is_lossless_whenever_it_answers(name in "\\PC{0,12}") {
            for label in ["Shift_JIS", "Big5", "EUC-JP", "KOI8-R", "ISO-8859-8", "windows-874"] {
                let charset = cs(label);
                if let Some(local) = charset.from_utf8(&name) {
                    prop_assert_eq!(charset.to_utf8(&local), Some(name.clone()), "{}", label);
                }
            }
        }
    }
}
