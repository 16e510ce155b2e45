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
//!   whole-listing guess over chardetng.
//! - [`names`]: RFC 2640 B.3 pathname translation (per-directory
//!   charsets, raw-bytes fallback) and the legacy-client layer (A.2).
//! - [`lang`]: Fluent message catalogs (16 languages compiled in) and LANG
//!   negotiation with fluent-langneg.

pub mod charset;
pub mod detect;
pub mod lang;
pub mod names;

pub use charset::Charset;
