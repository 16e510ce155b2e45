//! # babelftp-client — the FTP client library
//!
//! A tokio driver over the sans-IO codec of `babelftp-proto`:
//!
//! ```text
//!  Client::connect ── control::Control (Command::to_line / ReplyReader)
//!     │  FEAT → LANG (explicit or locale) → HOST → OPTS UTF8 ON → USER/PASS
//!     ├─ data: EPSV, then PASV; or EPRT/PORT (active)
//!     └─ names: bytes as the server sent them; charset guessed over the
//!        whole listing for display (babelftp_i18n::detect)
//! ```
//!
//! Module map: [`control`] (one control connection), [`client`] (a logged-in
//! session: negotiation, listings, transfers), [`locale`] (the user's
//! language from the environment).

pub mod client;
pub mod control;
pub mod locale;
pub mod tls;

pub use client::{Client, Options, RemoteEntry};
pub use control::{Control, Error};
pub use tls::{TlsMode, TlsOptions, TlsVersion};
