//! # babelftp-session — the FTP server session as a sans-IO state machine
//!
//! Everything a control connection decides lives here: login, LANG, HOST,
//! OPTS and REIN state, path resolution, replies, transfer setup, ABOR,
//! QUIT during a transfer, timeouts, shutdown. Nothing here does I/O:
//!
//! ```text
//!   driver (tokio, TLS, sockets, storage, clock)
//!     │ handle_input(now, bytes)        ▲ output() / consume_output(n)
//!     │ handle_control_closed(now)      │ poll_action() → Action
//!     │ handle_op(now, OpResult)        │ poll_timeout() → Instant
//!     │ handle_data(now, DataEvent)     │ wants_input(), is_closed()
//!     │ handle_timeout(now)             │
//!     │ handle_shutdown(now, deadline)  │
//!     ▼                                 │
//!   ServerSession: LineReader → Command::parse → handler → Reply (in the
//!   session's language) and Actions (Op, StartTransfer, Commit, Close, …)
//! ```
//!
//! Control bytes go in and out as plain bytes, so TLS (or a PROXY header)
//! sits between the socket and the session without the session knowing,
//! as rustls' `ConnectionCommon` does. Effects are actions the driver
//! polls, as in quinn-proto's `Connection`: the session never blocks,
//! never reads a clock (`now` is passed in), and data bytes never pass
//! through it (sendfile stays in the driver).
//!
//! Module map, in layers; a module uses only the layers below it (no
//! circle of imports):
//!
//! ```text
//!  7  machine        handle_* events, the line loop, deadlines
//!  6  commands       dispatch; SITE, MFMT, REIN, HOST
//!     results        what an operation's result means for its command
//!  5  access         USER PASS AUTH PBSZ PROT
//!     data_commands  PASV PORT RETR STOR LIST…, transfer events
//!     info           FEAT HELP STAT OPTS LANG
//!  4  session        ServerSession = the parts below + reply/op helpers
//!  3  parts          login · client · data · tls · transfer · io
//!  2  effects        Action, Op, DataEvent… (what goes to and from the driver)
//!  1  listing        ListRender (LIST/NLST/MLSD lines), perm_fact
//!     decide         STOU names, data TLS reuse
//!  0  vocabulary     msg · config (VPath: babelftp-proto)
//! ```

pub mod effects;
pub mod msg;

mod config;
mod decide;
mod listing;

mod client;
mod data;
mod io;
mod login;
mod tls;
mod transfer;

mod session;

mod access;
mod data_commands;
mod info;

mod commands;
mod guard;
mod results;

mod machine;

pub use babelftp_proto::vpath::{is_temp_name, Capabilities, VPath, WriteMode, TEMP_PREFIX, TEMP_SUFFIX};
pub use config::{reply_for, HostInfo, SessionConfig, TlsPolicy};
pub use decide::{data_tls_reuse, DataTlsReuse, UniqueNames, UNIQUE_TRIES};
pub use effects::*;
pub use info::display_fact;
pub use listing::{perm_fact, Lines, ListFormat, ListRender};
pub use msg::Msg;
pub use session::{ServerSession, Tally};

/// A harness that drives a session over an in-memory filesystem (tests,
/// fuzzing): only with the `testing` feature, never in the server's build.
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing;
