//! The flags every client subcommand takes.

use std::path::PathBuf;

use babelftp_client::{TlsMode, TlsOptions, TlsVersion};
use babelftp_proto::url::FtpUrl;
use clap::Args;

/// Flags every client subcommand takes.
#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Charset of the server's names: auto, or a label (shift_jis, windows-1251…).
    #[arg(long, default_value = "auto")]
    pub(super) charset: String,
    /// Language to ask the server for (LANG); default: your locale.
    #[arg(long, value_name = "TAG")]
    pub(super) lang: Option<String>,
    /// Print names exactly as the server sent them.
    #[arg(long)]
    pub(super) raw: bool,
    /// Forget the charset remembered for this server.
    #[arg(long)]
    pub(super) forget: bool,
    /// Active mode (the server connects back).
    #[arg(long)]
    pub(super) active: bool,
    /// Login as USER[:PASSWORD] (else from the URL, ~/.netrc, or anonymous).
    #[arg(short = 'u', long, value_name = "USER[:PASSWORD]")]
    pub(super) user: Option<String>,
    /// Show the control dialogue and every automatic choice.
    #[arg(short, long)]
    pub(super) verbose: bool,
    /// No progress output.
    #[arg(short, long)]
    pub(super) quiet: bool,
    /// Explicit FTPS on ftp:// URLs: AUTH TLS first, and nothing in clear if
    /// the server refuses it (ftps:// URLs are implicit FTPS, port 990).
    #[arg(long)]
    tls: bool,
    /// Trust the certificates in FILE (PEM) instead of the system's roots.
    #[arg(long, value_name = "FILE")]
    cacert: Option<PathBuf>,
    /// Do not check the server's certificate (a warning says so on every run).
    #[arg(short = 'k', long)]
    insecure: bool,
    /// TLS versions: auto (1.2 when the server has it, whose sessions resume
    /// on any number of data connections; else 1.3), 1.2 or 1.3.
    #[arg(long, value_name = "VERSION", default_value = "auto", value_parser = ["auto", "1.2", "1.3"])]
    tls_version: String,
    /// At most RATE octets a second per transfer, as curl's --limit-rate
    /// (suffixes K, M, G: powers of 1024; 500K, 1M).
    #[arg(long, value_name = "RATE", value_parser = parse_rate)]
    pub(super) limit_rate: Option<u64>,
    /// A connection beyond the first (`mirror --parallel`): the `-k`
    /// warning was given once already.
    #[arg(skip)]
    pub(super) warned_insecure: bool,
}

/// `--limit-rate`: a number of octets a second, with curl's suffixes (K,
/// M, G: powers of 1024, either case).
fn parse_rate(s: &str) -> Result<u64, String> {
    let bad = || crate::msg::ts("cli-bad-rate", &[("rate", s)]);
    let (num, mult) = match s.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (
            &s[..i],
            match c.to_ascii_lowercase() {
                'k' => 1u64 << 10,
                'm' => 1 << 20,
                'g' => 1 << 30,
                _ => return Err(bad()),
            },
        ),
        _ => (s, 1),
    };
    let n: f64 = num.parse().map_err(|_| bad())?;
    if !(n.is_finite() && n > 0.0) {
        return Err(bad());
    }
    Ok(((n * mult as f64) as u64).max(1))
}

impl Common {
    /// `-q`.
    pub fn is_quiet(&self) -> bool {
        self.quiet
    }

    /// The flags for more connections to the same server (`mirror
    /// --parallel`): the same, except that `--forget` was done by the
    /// first (done again, it would drop what the first has learned since),
    /// and the `-k` warning, given once.
    pub fn for_more_connections(&self) -> Common {
        Common {
            forget: false,
            warned_insecure: true,
            ..self.clone()
        }
    }

    /// The TLS settings for `url`.
    pub(super) fn tls(&self, url: &FtpUrl) -> TlsOptions {
        let mode = if url.secure {
            TlsMode::Implicit
        } else if self.tls {
            TlsMode::Explicit
        } else {
            TlsMode::Off
        };
        TlsOptions {
            mode,
            cacert: self.cacert.clone(),
            insecure: self.insecure,
            version: match self.tls_version.as_str() {
                "1.2" => TlsVersion::Tls12,
                "1.3" => TlsVersion::Tls13,
                _ => TlsVersion::Auto,
            },
        }
    }
}
