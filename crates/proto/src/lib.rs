//! # babelftp-proto — the sans-IO FTP protocol core
//!
//! Everything here is a pure function or a state machine over bytes: no
//! sockets, no clock, no filesystem, no tokio. The server and client crates
//! are thin drivers around it, and every RFC rule can be exercised from a
//! unit test or a fuzzer.
//!
//! ```text
//!  control-connection bytes
//!    │  line::LineReader   CRLF framing, length bound, telnet IAC handling
//!    ▼
//!  command::Command::parse   ASCII verb · exactly ONE SP · argument bytes
//!    │                        (CR NUL → CR inside pathnames, nothing trimmed)
//!    ▼
//!  path::WirePath            pathnames as bytes that know if they are UTF-8
//!  reply::Reply              codes + text, single- and multi-line, both ways
//!  feat / lang               FEAT lines, RFC 1766 tags, the LANG fact
//!  utf8                      RFC 2279 / ISO 10646 Annex R, strict and legacy
//!  display / url             %HH + bidi-isolated rendering; ftp:// URLs
//! ```
//!
//! Module map:
//! - [`ascii`]: TYPE A line-end conversion, both ways.
//! - [`utf8`]: validation (strict RFC 3629 and legacy 31-bit), UCS-4 coding.
//! - [`line`]: the telnet layer and the bounded line reader.
//! - [`path`]: [`path::WirePath`], the CR NUL rule, 257 quoting.
//! - [`command`]: the one table of verbs and the command parser.
//! - [`reply`]: reply codes, encoding and parsing of replies.
//! - [`feat`]: FEAT reply lines both ways.
//! - [`lang`]: RFC 1766 language tags and the FEAT `LANG` fact.
//! - [`display`]: rendering pathnames for a terminal.
//! - [`url`]: `ftp://` URLs per RFC 1738 and the Masinter draft.
//! - [`listing`]: LIST (`ls -l`) and MLSD/MLST lines.

pub mod ascii;
pub mod command;
pub mod display;
pub mod feat;
pub mod lang;
pub mod line;
pub mod listing;
pub mod path;
pub mod reply;
pub mod url;
pub mod utf8;
pub mod vpath;
