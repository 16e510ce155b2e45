//! # babelftp-i18n — sans-IO internationalization for babelftp
//!
//! Pure functions, no sockets and no filesystem: the storage layer of the
//! server and the client's local side call into this crate where pathname
//! bytes meet a local charset (RFC 2640 B.3).
//!
//! ```text
//!  local filesystem bytes (KOI8-R, Shift_JIS, ISO-8859-8, ...)
//!    │  charset::Charset::to_utf8      lossless or None (round-trip rule)
//!    ▼
//!  UTF-8 pathname  ── babelftp_proto::utf8 / path::WirePath on the wire
//!    │  charset::Charset::from_utf8    lossless or None (never ? or &#NNN;)
//!    ▼
//!  local filesystem bytes
//! ```
//!
//! Module map:
//! - [`charset`]: [`Charset`], lossless legacy charset ⇄ UTF-8 translation
//!   of pathnames over encoding_rs, plus a true ISO-8859-1.
//! - [`detect`]: the client's per-name charset decisions (a unigram and
//!   bigram plausibility model, the directory and the server's history as
//!   the prior, `%HH` for names no charset explains), plus the older
//!   whole-listing guess over chardetng. Behind the `detect` feature (on
//!   by default): the server builds without it.
//! - [`names`]: RFC 2640 B.3 pathname translation (per-directory
//!   charsets, raw-bytes fallback) and the legacy-client layer (A.2).
//! - [`lang`]: Fluent message catalogs (16 languages compiled in) and LANG
//!   negotiation with fluent-langneg.

pub mod charset;
#[cfg(feature = "detect")]
pub mod detect;
pub mod lang;
pub mod names;

pub use charset::Charset;

/// A size for people, to a tenth, rounded down (binary units, the same in every language): `1 MiB`, `1.5 GiB`, `1000 B`.
pub fn format_size(n: u64) -> String {
    const UNITS: [(&str, u32); 4] = [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)];
    for (unit, shift) in UNITS {
        let base = 1_u64 << shift;
        if n >= base {
            let whole = n / base;
            let tenths = (n % base) * 10 / base;
            return if tenths == 0 {
                format!("{whole} {unit}")
            } else {
                format!("{whole}.{tenths} {unit}")
            };
        }
    }
    format!("{n} B")
}

#[cfg(test)]
mod size_tests {
    #[test]
    fn sizes_for_people() {
        assert_eq!(super::format_size(1 << 20), "1 MiB");
        assert_eq!(super::format_size(3 << 29), "1.5 GiB");
        assert_eq!(super::format_size(1000), "1000 B");
        assert_eq!(super::format_size(0), "0 B");
    }
}
