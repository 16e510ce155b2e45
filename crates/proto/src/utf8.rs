//! UTF-8 as RFC 2279 and ISO/IEC 10646-1 Amendment 2 (Annex R) define it:
//! validation, and conversion between UCS-4 values and UTF-8 octets.
//!
//! RFC 2640 sends pathnames as UTF-8 "as defined by RFC 2279". That is the
//! 1996 form: sequences of one to six octets carrying 31-bit UCS-4 values.
//! Today's UTF-8 (RFC 3629, what `str` holds) keeps only the first four
//! octet forms, stops at U+10FFFF and forbids the surrogates. Both exist on
//! real wires, so every function here takes a [`Mode`]:
//!
//! | | [`Mode::Strict`] (RFC 3629) | [`Mode::Legacy`] (RFC 2279 / Annex R) |
//! |---|---|---|
//! | octets per character | 1..=4 | 1..=6 |
//! | largest value | 0010 FFFF | 7FFF FFFF |
//! | D800..DFFF | rejected ([`Utf8ErrorKind::Surrogate`]) | accepted (see below) |
//! | overlong forms, truncation, stray continuing octets, FE, FF | rejected | rejected |
//!
//! `Strict` accepts exactly what [`std::str::from_utf8`] accepts and reports
//! the same [`Utf8Error::valid_up_to`] and [`Utf8Error::error_len`]; a
//! property test holds it to that.
//!
//! ## Surrogates in legacy mode
//! Annex R R.4 Note 3 says D800..DFFF "are reserved for the UTF-16 form and
//! do not occur in UCS-4 ... The mappings of these code positions in UTF-8
//! are undefined." Undefined is not malformed: R.7 defines a malformed
//! sequence by its *structure* only (wrong number of continuing octets,
//! unneeded continuing octets, FE/FF), and `ED A0 80` is structurally a
//! perfect three-octet sequence. RFC 2279 adds no rule either. So legacy
//! mode decodes `ED A0 80` to the value D800 and encodes D800 back to it;
//! a surrogate pair written as two three-octet sequences (CESU-8 style)
//! decodes to two values, never to the supplementary character. The same
//! reasoning keeps FFFE and FFFF (also "do not occur" in Note 3) valid in
//! both modes, as `str` does.
//!
//! ## Overlong forms
//! RFC 2279 section 2 says the rows of the table "are mutually exclusive,
//! i.e. there is only one valid way to encode a given UCS-4 character", and
//! section 6 shows why it matters: a parser that rejects `2F 2E 2E 2F`
//! ("/../") but decodes `2F C0 AE 2E 2F` has a path traversal hole. Both
//! modes reject every overlong form, and none of these functions ever
//! yields a value for one.
//!
//! Annex R R.7 lists the first octets as "00 .. 7F or C0 .. FB", which
//! contradicts its own Table 1 and Table 5 (FC and FD start six-octet
//! sequences); we follow the tables.
//!
//! ## Speed
//! Validation runs `simdutf8` (already in the build through `encoding_rs`)
//! over the whole buffer first: valid input never reaches the scalar code.
//! Only on failure does the scalar decoder here classify the error, starting
//! at the offset that `simdutf8::compat` reports. Legacy mode uses the same
//! fast path, since strict-valid input is legacy-valid with the same
//! sequence boundaries; at a legacy-only sequence it continues with the
//! scalar decoder for a short window and then resumes the fast path on the
//! rest of the buffer. `benches/utf8.rs` compares this with std and simdutf8.

use std::fmt;

/// Which UTF-8 is accepted. See the module docs for the differences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// RFC 3629: at most four octets, at most U+10FFFF, no surrogates.
    /// Accepts exactly the octet strings that [`std::str::from_utf8`] accepts.
    Strict,
    /// RFC 2279 / ISO 10646-1 Annex R: one to six octets, values up to
    /// 7FFF FFFF, surrogate code points accepted (Annex R leaves their
    /// mapping undefined rather than malformed).
    Legacy,
}

impl Mode {
    /// The largest value this mode encodes or decodes: 0010 FFFF for
    /// [`Mode::Strict`], 7FFF FFFF for [`Mode::Legacy`] (Annex R Table 1).
    pub const fn max_value(self) -> u32 {
        match self {
            Mode::Strict => 0x10_FFFF,
            Mode::Legacy => 0x7FFF_FFFF,
        }
    }
}

/// What is wrong with the first malformed sequence.
///
/// The kind describes the *first* octet that cannot continue a valid
/// sequence, reading left to right, the same octet whose position
/// [`Utf8Error::error_len`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Utf8ErrorKind {
    /// A value encoded with more octets than it needs (RFC 2279 section 2:
    /// "there is only one valid way to encode a given UCS-4 character").
    /// First octets `C0`/`C1`, and `E0 80..9F`, `F0 80..8F`, `F8 80..87`,
    /// `FC 80..83`. In strict mode a five- or six-octet overlong form is
    /// reported as [`Utf8ErrorKind::OutOfRange`], because its first octet
    /// is already outside what strict UTF-8 allows.
    Overlong,
    /// A first octet not followed by enough continuing octets (Annex R R.7
    /// first bullet): either the input ends mid-sequence
    /// ([`Utf8Error::error_len`] is `None`: more input may complete it), or
    /// an octet outside `80..BF` appears where a continuing octet is needed.
    Truncated,
    /// A continuing octet (`80..BF`) that no first octet asked for (Annex R
    /// R.7 second bullet).
    UnexpectedContinuation,
    /// `FE` or `FF`, which "never appear" (RFC 2279 section 1, Annex R R.2).
    InvalidOctet,
    /// Strict mode only: an encoded surrogate code point D800..DFFF
    /// (`ED A0..BF ..`), which RFC 3629 forbids.
    Surrogate,
    /// Strict mode only: a value above U+10FFFF, i.e. a first octet `F5..FD`
    /// or `F4 90..BF`. Legacy mode accepts these up to 7FFF FFFF.
    OutOfRange,
}

impl fmt::Display for Utf8ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Utf8ErrorKind::Overlong => "overlong form",
            Utf8ErrorKind::Truncated => "truncated sequence",
            Utf8ErrorKind::UnexpectedContinuation => "unexpected continuing octet",
            Utf8ErrorKind::InvalidOctet => "invalid octet FE or FF",
            Utf8ErrorKind::Surrogate => "encoded surrogate code point",
            Utf8ErrorKind::OutOfRange => "value above U+10FFFF",
        })
    }
}

/// A malformed sequence: where it starts and what is wrong with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("invalid UTF-8 at offset {valid_up_to}: {kind}")]
pub struct Utf8Error {
    valid_up_to: usize,
    error_len: Option<u8>,
    kind: Utf8ErrorKind,
}

impl Utf8Error {
    /// Offset of the first octet of the malformed sequence; everything
    /// before it is valid. Same meaning as
    /// [`std::str::Utf8Error::valid_up_to`].
    pub fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }

    /// How many octets from [`Self::valid_up_to`] make up the malformed
    /// sequence (1..=5), or `None` if the input ended in the middle of a
    /// sequence that more input could complete. Same meaning as
    /// [`std::str::Utf8Error::error_len`].
    pub fn error_len(&self) -> Option<usize> {
        self.error_len.map(usize::from)
    }

    /// What is wrong.
    pub fn kind(&self) -> Utf8ErrorKind {
        self.kind
    }
}

/// A value that has no UTF-8 form in the requested [`Mode`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum EncodeError {
    /// Strict mode: D800..DFFF are not Unicode scalar values.
    #[error("{value:04X} is a surrogate code point, not a Unicode scalar value")]
    Surrogate {
        /// The rejected value.
        value: u32,
    },
    /// Above [`Mode::max_value`]: 0010 FFFF in strict mode, 7FFF FFFF in
    /// legacy mode (UCS-4 is a 31-bit code).
    #[error("{value:08X} is above the largest encodable value {max:08X}")]
    OutOfRange {
        /// The rejected value.
        value: u32,
        /// The largest value the mode accepts.
        max: u32,
    },
}

/// Checks that `bytes` is UTF-8 in `mode`.
///
/// Does not allocate. Valid input is checked by SIMD code only (see the
/// module docs); the error, if any, points at the start of the first
/// malformed sequence.
pub fn validate(bytes: &[u8], mode: Mode) -> Result<(), Utf8Error> {
    if simdutf8::basic::from_utf8(bytes).is_ok() {
        return Ok(());
    }
    let start = strict_valid_up_to(bytes);
    match mode {
        // The fast path failed, so the scalar decoder fails at `start`.
        Mode::Strict => validate_scalar_from(bytes, start, Mode::Strict),
        Mode::Legacy => validate_legacy_from(bytes, start),
    }
}

/// Strict UTF-8 validity (RFC 3629, same answer as `std::str::from_utf8`),
/// by the fastest validator in the build.
pub fn is_utf8(bytes: &[u8]) -> bool {
    simdutf8::basic::from_utf8(bytes).is_ok()
}

/// Appends the UTF-8 form of the UCS-4 `value` to `out` (Annex R R.4,
/// Table 4) and returns how many octets it appended.
///
/// Legacy mode encodes every value up to 7FFF FFFF, in one to six octets,
/// surrogates included. Strict mode encodes only Unicode scalar values, and
/// agrees with [`char::encode_utf8`]. Always the shortest form.
pub fn encode_ucs4(value: u32, mode: Mode, out: &mut Vec<u8>) -> Result<usize, EncodeError> {
    if value > mode.max_value() {
        return Err(EncodeError::OutOfRange {
            value,
            max: mode.max_value(),
        });
    }
    if mode == Mode::Strict && is_surrogate(value) {
        return Err(EncodeError::Surrogate { value });
    }
    let len = encoded_len(value);
    if len == 1 {
        out.push(value as u8);
        return Ok(1);
    }
    // Table 4: the first octet is the length marker (n ONE bits, then a
    // ZERO) plus the high bits; each continuing octet is 80 + six bits.
    let marker = !(0xFFu8 >> len);
    out.push(marker | (value >> (6 * (len - 1))) as u8);
    for k in (0..len - 1).rev() {
        out.push(0x80 | ((value >> (6 * k)) & 0x3F) as u8);
    }
    Ok(len)
}

/// Decodes a whole buffer to UCS-4 values (Annex R R.5, Table 5).
///
/// Fails on the first malformed sequence, with its offset in `bytes`;
/// never substitutes U+FFFD.
pub fn decode_ucs4(bytes: &[u8], mode: Mode) -> Result<Vec<u32>, Utf8Error> {
    if let Ok(s) = simdutf8::basic::from_utf8(bytes) {
        return Ok(s.chars().map(u32::from).collect());
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut pos = 0;
    while pos < bytes.len() {
        let (value, len) = decode_at(bytes, pos, mode).map_err(|m| m.at(pos))?;
        out.push(value);
        pos += len;
    }
    Ok(out)
}

/// Decodes the first character of `bytes`: its UCS-4 value and how many
/// octets it took. Errors have offset 0. Empty input is
/// [`Utf8ErrorKind::Truncated`] with [`Utf8Error::error_len`] `None`.
pub fn decode_one(bytes: &[u8], mode: Mode) -> Result<(u32, usize), Utf8Error> {
    decode_at(bytes, 0, mode).map_err(|m| m.at(0))
}

/// Fuzzing entry point: asserts that the fast and the scalar validators
/// agree in both modes, and that strict mode agrees with std.
#[doc(hidden)]
pub fn fuzz_validate(bytes: &[u8]) {
    let strict = validate(bytes, Mode::Strict);
    assert_eq!(strict, validate_scalar_from(bytes, 0, Mode::Strict));
    match std::str::from_utf8(bytes) {
        Ok(_) => assert!(strict.is_ok()),
        Err(e) => assert_eq!(
            strict.err().map(|s| (s.valid_up_to(), s.error_len())),
            Some((e.valid_up_to(), e.error_len()))
        ),
    }
    let legacy = validate(bytes, Mode::Legacy);
    assert_eq!(legacy, validate_scalar_from(bytes, 0, Mode::Legacy));
    if let Ok(values) = decode_ucs4(bytes, Mode::Legacy) {
        let mut back = Vec::with_capacity(bytes.len());
        for v in values {
            assert!(encode_ucs4(v, Mode::Legacy, &mut back).is_ok());
        }
        assert_eq!(back, bytes);
    }
}

/// How many scalar-decoded octets must pass without a legacy-only sequence
/// before legacy validation goes back to the SIMD fast path. Re-entering it
/// costs about one 64-octet block. Measured on 1 MiB (benches/utf8.rs):
/// with a legacy-only sequence every ~100 octets, 0 / 16 / 64 gave
/// 790 / 660 / 520 MB/s; with CESU-8-style surrogates every ~4 octets,
/// 210 / 390 / 390 MB/s. 16 is the compromise.
const LEGACY_RESUME_WINDOW: usize = 16;

fn is_surrogate(value: u32) -> bool {
    (0xD800..=0xDFFF).contains(&value)
}

/// Octets needed for `value` (Annex R Table 1); `value` <= 7FFF FFFF.
fn encoded_len(value: u32) -> usize {
    match value {
        0..=0x7F => 1,
        0x80..=0x7FF => 2,
        0x800..=0xFFFF => 3,
        0x1_0000..=0x1F_FFFF => 4,
        0x20_0000..=0x3FF_FFFF => 5,
        _ => 6,
    }
}

/// The offset up to which `bytes` is strict UTF-8 (`bytes.len()` if all).
fn strict_valid_up_to(bytes: &[u8]) -> usize {
    match simdutf8::compat::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(e) => e.valid_up_to(),
    }
}

/// Legacy validation of `bytes[pos..]`, where `bytes[..pos]` is valid and
/// `pos` is a sequence boundary at which the strict fast path stopped:
/// scalar while legacy-only sequences keep coming, SIMD for the stretches
/// in between.
fn validate_legacy_from(bytes: &[u8], mut pos: usize) -> Result<(), Utf8Error> {
    while pos < bytes.len() {
        // Always decode at least the sequence the fast path stopped at, so
        // every round makes progress.
        let mut scalar_until = pos;
        loop {
            let len = if bytes[pos] < 0x80 {
                1
            } else {
                let (value, len) = decode_at(bytes, pos, Mode::Legacy).map_err(|m| m.at(pos))?;
                if len > 4 || value > 0x10_FFFF || is_surrogate(value) {
                    scalar_until = pos + len + LEGACY_RESUME_WINDOW;
                }
                len
            };
            pos += len;
            if pos >= bytes.len() || pos >= scalar_until {
                break;
            }
        }
        if pos < bytes.len() {
            pos += strict_valid_up_to(&bytes[pos..]);
        }
    }
    Ok(())
}

/// The reference validator: the scalar decoder over `bytes[pos..]`.
fn validate_scalar_from(bytes: &[u8], mut pos: usize, mode: Mode) -> Result<(), Utf8Error> {
    while pos < bytes.len() {
        if bytes[pos] < 0x80 {
            pos += 1;
            continue;
        }
        let (_, len) = decode_at(bytes, pos, mode).map_err(|m| m.at(pos))?;
        pos += len;
    }
    Ok(())
}

/// A malformed sequence before its offset is known.
#[derive(Clone, Copy)]
struct Malformed {
    kind: Utf8ErrorKind,
    error_len: Option<u8>,
}

impl Malformed {
    fn new(kind: Utf8ErrorKind, error_len: Option<u8>) -> Self {
        Malformed { kind, error_len }
    }

    fn at(self, valid_up_to: usize) -> Utf8Error {
        Utf8Error {
            valid_up_to,
            error_len: self.error_len,
            kind: self.kind,
        }
    }
}

/// Decodes the sequence starting at `bytes[start]` (Annex R R.5, Table 5),
/// returning its value and length. `start` may equal `bytes.len()`.
///
/// Overlong forms, surrogates and out-of-range values are all caught on the
/// second octet, by narrowing the range it may take after certain first
/// octets (the technique of the Unicode Standard's Table 3-7, extended to
/// five and six octets). That is also where std reports them, so the
/// `error_len` agrees with std's.
#[inline]
fn decode_at(bytes: &[u8], start: usize, mode: Mode) -> Result<(u32, usize), Malformed> {
    use Utf8ErrorKind::{InvalidOctet, OutOfRange, Overlong, Surrogate, Truncated, UnexpectedContinuation};
    let rest = bytes.get(start..).unwrap_or_default();
    let Some(&b0) = rest.first() else {
        return Err(Malformed::new(Truncated, None));
    };
    let legacy = mode == Mode::Legacy;
    // (length, allowed range of the second octet, what a continuing octet
    // outside that range means). `Truncated` marks full ranges, where the
    // third element is never used.
    let (len, lo, hi, narrowed) = match b0 {
        0x00..=0x7F => return Ok((u32::from(b0), 1)),
        0x80..=0xBF => return Err(Malformed::new(UnexpectedContinuation, Some(1))),
        0xC0 | 0xC1 => return Err(Malformed::new(Overlong, Some(1))),
        0xC2..=0xDF => (2, 0x80, 0xBF, Truncated),
        0xE0 => (3, 0xA0, 0xBF, Overlong),
        0xED if !legacy => (3, 0x80, 0x9F, Surrogate),
        0xE1..=0xEF => (3, 0x80, 0xBF, Truncated),
        0xF0 => (4, 0x90, 0xBF, Overlong),
        0xF1..=0xF3 => (4, 0x80, 0xBF, Truncated),
        0xF4 if legacy => (4, 0x80, 0xBF, Truncated),
        0xF4 => (4, 0x80, 0x8F, OutOfRange),
        0xF5..=0xF7 if legacy => (4, 0x80, 0xBF, Truncated),
        0xF8 if legacy => (5, 0x88, 0xBF, Overlong),
        0xF9..=0xFB if legacy => (5, 0x80, 0xBF, Truncated),
        0xFC if legacy => (6, 0x84, 0xBF, Overlong),
        0xFD if legacy => (6, 0x80, 0xBF, Truncated),
        0xF5..=0xFD => return Err(Malformed::new(OutOfRange, Some(1))),
        0xFE | 0xFF => return Err(Malformed::new(InvalidOctet, Some(1))),
    };
    let Some(&b1) = rest.get(1) else {
        return Err(Malformed::new(Truncated, None));
    };
    if b1 & 0xC0 != 0x80 {
        return Err(Malformed::new(Truncated, Some(1)));
    }
    if !(lo..=hi).contains(&b1) {
        return Err(Malformed::new(narrowed, Some(1)));
    }
    // The first octet keeps 7 - len free bits (Table 1).
    let mut value = u32::from(b0 & (0x7F >> len));
    value = (value << 6) | u32::from(b1 & 0x3F);
    for i in 2..len {
        let Some(&b) = rest.get(i) else {
            return Err(Malformed::new(Truncated, None));
        };
        if b & 0xC0 != 0x80 {
            return Err(Malformed::new(Truncated, Some(i as u8)));
        }
        value = (value << 6) | u32::from(b & 0x3F);
    }
    Ok((value, len))
}

#[cfg(test)]
mod tests;
