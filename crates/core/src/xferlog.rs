//! The transfer log, one line per transfer in the xferlog format that
//! wu-ftpd introduced and ProFTPD, vsftpd and Pure-FTPd write:
//!
//! ```text
//! Sun Nov 22 05:08:10 2026 1 127.0.0.1 1234 /pub/a.txt b _ o r bob ftp 0 * c
//! ```
//!
//! current-time, transfer-time (s), remote-host, file-size, filename,
//! transfer-type (`a`/`b`), special-action (`_`), direction (`o`ut/`i`n),
//! access-mode (`a`nonymous/`r`eal), username, service, authentication
//! method, authenticated user id, completion (`c`omplete/`i`ncomplete).
//!
//! The format is space-separated, so a filename is written with SP, `%`,
//! control octets and octets of invalid UTF-8 as `%HH`: the log stays
//! parseable and the exact name can still be recovered.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::net::IpAddr;
use std::path::Path;
use std::sync::Mutex;

use babelftp_proto::listing::Civil;

/// An open transfer log.
pub struct XferLog(Mutex<File>);

/// One finished transfer.
pub struct XferEntry<'a> {
    /// Duration in whole seconds.
    pub seconds: u64,
    /// The client's address.
    pub peer: IpAddr,
    /// Octets transferred.
    pub bytes: u64,
    /// Virtual path of the file.
    pub path: &'a [u8],
    /// TYPE A.
    pub ascii: bool,
    /// An upload.
    pub incoming: bool,
    /// An anonymous session.
    pub anonymous: bool,
    /// The login name.
    pub user: &'a [u8],
    /// Whether the transfer completed.
    pub complete: bool,
}

const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

impl XferLog {
    /// Opens (appends to) the log file.
    pub fn open(path: &Path) -> io::Result<XferLog> {
        Ok(XferLog(Mutex::new(
            OpenOptions::new().create(true).append(true).open(path)?,
        )))
    }

    /// Appends one line; a write error is logged, never fatal to a session.
    pub fn write(&self, e: &XferEntry<'_>) {
        let line = format_line(e, now());
        let mut f = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(err) = f.write_all(&line) {
            tracing::warn!(error = %err, "xferlog write failed");
        }
    }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Escapes a field for the space-separated format: SP, `%` and every
/// character a terminal or a log reader would act on or not show (C0, DEL
/// and C1 controls, bidi overrides and isolates, line separators,
/// invisible format characters: [`babelftp_proto::display::is_displayable`])
/// as the `%HH` of its octets; all of a name that is not UTF-8 above 0x7F.
fn escape(out: &mut Vec<u8>, bytes: &[u8]) {
    let hex = |out: &mut Vec<u8>, b: &[u8]| {
        for o in b {
            out.extend_from_slice(format!("%{o:02X}").as_bytes());
        }
    };
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            for c in text.chars() {
                let mut buf = [0u8; 4];
                let enc = c.encode_utf8(&mut buf).as_bytes();
                if c <= ' ' || c == '%' || !babelftp_proto::display::is_displayable(c) {
                    hex(out, enc);
                } else {
                    out.extend_from_slice(enc);
                }
            }
        }
        Err(_) => {
            for &b in bytes {
                if b <= b' ' || b == b'%' || b >= 0x7f {
                    hex(out, &[b]);
                } else {
                    out.push(b);
                }
            }
        }
    }
}

/// One line, newline included, as of `now` (Unix seconds, UTC).
pub fn format_line(e: &XferEntry<'_>, now: i64) -> Vec<u8> {
    let c = Civil::from_unix(now);
    let weekday = DAYS[now.div_euclid(86_400).rem_euclid(7) as usize];
    let month = MONTHS[(c.month as usize).saturating_sub(1) % 12];
    let mut out = format!(
        "{weekday} {month} {:>2} {:02}:{:02}:{:02} {} {} {} {} ",
        c.day, c.hour, c.minute, c.second, c.year, e.seconds, e.peer, e.bytes
    )
    .into_bytes();
    escape(&mut out, e.path);
    out.extend_from_slice(
        format!(
            " {} _ {} {} ",
            if e.ascii { 'a' } else { 'b' },
            if e.incoming { 'i' } else { 'o' },
            if e.anonymous { 'a' } else { 'r' }
        )
        .as_bytes(),
    );
    escape(&mut out, e.user);
    out.extend_from_slice(format!(" ftp 0 * {}\n", if e.complete { 'c' } else { 'i' }).as_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xferlog_line() {
        let e = XferEntry {
            seconds: 1,
            peer: "127.0.0.1".parse().unwrap(),
            bytes: 1234,
            path: "/pub/日本 語%.txt".as_bytes(),
            ascii: false,
            incoming: false,
            anonymous: false,
            user: b"bob",
            complete: true,
        };
        let line = format_line(&e, 1_795_000_000);
        assert_eq!(
            String::from_utf8(line).unwrap(),
            "Wed Nov 18 11:06:40 2026 1 127.0.0.1 1234 /pub/日本%20語%25.txt b _ o r bob ftp 0 * c\n"
        );
        let raw = XferEntry {
            path: b"/\x93\xfa",
            complete: false,
            incoming: true,
            anonymous: true,
            ..e
        };
        let line = format_line(&raw, 0);
        assert!(
            line.starts_with(b"Thu Jan  1 00:00:00 1970 "),
            "{}",
            line.escape_ascii()
        );
        assert!(
            line.ends_with(b" /%93%FA b _ i a bob ftp 0 * i\n"),
            "{}",
            line.escape_ascii()
        );
    }

    #[test]
    fn controls_and_bidi_overrides_never_reach_the_log_raw() {
        let e = XferEntry {
            seconds: 0,
            peer: "::1".parse().unwrap(),
            bytes: 0,
            // C1 CSI, ESC, DEL, RLO, an isolate, a line separator, and a
            // letter either side that stays as it is.
            path: "/a\u{9b}2J\u{1b}[0m\u{7f}\u{202e}txt.exe\u{2068}\u{2028}é".as_bytes(),
            ascii: false,
            incoming: true,
            anonymous: false,
            user: "u\u{85}".as_bytes(),
            complete: true,
        };
        let line = String::from_utf8(format_line(&e, 0)).unwrap();
        assert!(
            line.contains(" /a%C2%9B2J%1B[0m%7F%E2%80%AEtxt.exe%E2%81%A8%E2%80%A8é b _ i r u%C2%85 ftp"),
            "{line}"
        );
        assert!(!line.chars().any(|c| c.is_control() && c != '\n'), "{line:?}");
    }
}
