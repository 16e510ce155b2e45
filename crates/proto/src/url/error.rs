//! Why a string is not an `ftp://` URL.

/// Why a string is not an `ftp://` URL. Offsets are byte offsets into the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UrlError {
    /// A raw octet that is not part of valid UTF-8 ([`FtpUrl::parse_bytes`](super::FtpUrl::parse_bytes)).
    #[error("octet 0x{byte:02X} at offset {offset} is not UTF-8; write it as %{byte:02X}")]
    NotUtf8 {
        /// Where the invalid octet is.
        offset: usize,
        /// The octet.
        byte: u8,
    },
    /// A control character, white space or `#` written raw.
    #[error(
        "character {ch:?} (U+{code:04X}) at offset {offset} is not allowed in a URL; \
         percent-encode it",
        code = u32::from(*ch)
    )]
    ForbiddenChar {
        /// The character.
        ch: char,
        /// Where it is.
        offset: usize,
    },
    /// No `scheme:` at the start.
    #[error("not a URL: expected it to start with \"ftp://\"")]
    MissingScheme,
    /// A scheme other than `ftp`.
    #[error("unsupported scheme {0:?}: only ftp:// and ftps:// URLs are supported")]
    UnsupportedScheme(String),
    /// `ftp:` not followed by `//`.
    #[error("expected \"//\" after \"ftp:\"")]
    MissingAuthority,
    /// A `%` not followed by two hexadecimal digits.
    #[error("malformed percent-escape at offset {offset}: '%' must be followed by two hex digits")]
    InvalidPercentEncoding {
        /// Where the `%` is.
        offset: usize,
    },
    /// Nothing between `//` (or `@`) and the port or path.
    #[error("the URL has no host")]
    MissingHost,
    /// A host name that is not one.
    #[error("invalid host {host:?}: {reason}")]
    InvalidHost {
        /// The host as written.
        host: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// `[` without its `]`.
    #[error("unclosed '[' in the host: an IPv6 literal is written [address]")]
    UnclosedBracket,
    /// Brackets around something that is not an IPv6 address.
    #[error("invalid IPv6 address {0:?} (zone identifiers are not supported)")]
    InvalidIpv6(String),
    /// A port that is not a decimal number.
    #[error("invalid port {0:?}: not a decimal number")]
    InvalidPort(String),
    /// A port outside 1–65535.
    #[error("port {0} is out of range 1-65535")]
    PortOutOfRange(String),
    /// `;type=` followed by something other than `a`, `i` or `d`.
    #[error("invalid typecode {0:?}: expected ;type=a, ;type=i or ;type=d")]
    InvalidTypeCode(String),
}
