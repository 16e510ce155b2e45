//! The whole-session fuzz entry point (`fuzz/fuzz_targets/session.rs`,
//! and the property test in `tests/session/properties.rs`).

use std::io::ErrorKind;
use std::time::Duration;

use super::Harness;
use crate::{DataEvent, NoConnection, OpOk, Outcome};

/// Reads fuzz input a byte at a time.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }

    fn pick<'t, T>(&mut self, from: &'t [T]) -> &'t T {
        &from[usize::from(self.byte().unwrap_or(0)) % from.len()]
    }
}

const VERBS: &[&str] = &[
    "USER", "PASS", "ACCT", "CWD", "CDUP", "REIN", "QUIT", "PORT", "PASV", "TYPE", "STRU", "MODE", "RETR", "STOR",
    "STOU", "APPE", "ALLO", "REST", "RNFR", "RNTO", "ABOR", "DELE", "RMD", "MKD", "PWD", "LIST", "NLST", "SITE",
    "SYST", "STAT", "HELP", "NOOP", "FEAT", "OPTS", "LANG", "HOST", "EPRT", "EPSV", "MLST", "MLSD", "SIZE", "MDTM",
    "AUTH", "XPWD", "abor", "Quit", "PBSZ", "PROT", "CCC", "MFMT",
];

const ARGS: &[&[u8]] = &[
    b"",
    b"bob",
    b"secret",
    b"anonymous",
    b"a.txt",
    b"d",
    b"..",
    b"../../..",
    b"/",
    b"/d/../a.txt",
    b"foo\r\0\nboo.bar",
    b"\xff\xff\xd0\xaf",
    b"I",
    b"A",
    b"3",
    b"UTF8 ON",
    b"MLST type;size;",
    b"fr",
    b"zz-QQ",
    b"127,0,0,1,200,10",
    b"|1|127.0.0.1|50010|",
    b"-la d",
    b"ALL",
    b"\xe6\x97\xa5\xe6\x9c\xac",
    b"\xc0\xae\xc0\xae",
    b" two  spaces",
    b"TLS",
    b"SSL",
    b"0",
    b"P",
    b"C",
    b"S",
    b"20200102030405 a.txt",
    b"20200230000000 a.txt",
    b"20200102030405.5 d",
];

/// One fuzz run: `data` picks command lines, raw bytes, operation results,
/// data events in any order, time, control close and shutdown; every step
/// is checked by the [`Harness`], and at the end every command has had its
/// final reply and nothing is outstanding.
pub fn fuzz_session(data: &[u8]) {
    // The first byte picks the FTPS policy: none, offered, required.
    let tls = match data.first().map(|b| b % 3) {
        Some(1) => Some(crate::TlsPolicy { required: false }),
        Some(2) => Some(crate::TlsPolicy { required: true }),
        _ => None,
    };
    let mut h = Harness::with(|c| {
        c.tls = tls;
        c.max_line = 512;
        c.login_fail_delay = Duration::from_secs(1);
        c.idle_timeout = Duration::from_secs(300);
    });
    h.fs.add_file(b"/a.txt", b"hello");
    h.fs.add_dir(b"/d");
    let mut u = Bytes(data);
    let mut lines = 0usize;
    let mut exact = true;
    while let Some(k) = u.byte() {
        match k % 12 {
            0..=4 => {
                let verb = *u.pick(VERBS);
                let arg = *u.pick(ARGS);
                let mut line = verb.as_bytes().to_vec();
                if !arg.is_empty() {
                    line.push(b' ');
                    line.extend_from_slice(arg);
                }
                if k % 12 == 4 {
                    // An over-long line.
                    line.extend(std::iter::repeat_n(b'x', 600));
                }
                line.extend_from_slice(b"\r\n");
                if h.s.wants_input() {
                    lines += 1;
                    h.input(&line);
                }
            }
            5 => {
                let n = usize::from(u.byte().unwrap_or(0) % 24);
                let raw: Vec<u8> = (0..n).filter_map(|_| u.byte()).collect();
                if h.s.wants_input() && !raw.is_empty() {
                    exact = false;
                    h.input(&raw);
                }
            }
            6 | 7 => {
                let Some(op) = h.op.clone() else { continue };
                let r = match u.byte().unwrap_or(0) % 6 {
                    0 => Err(crate::OpError::Storage(*u.pick(&[
                        ErrorKind::NotFound,
                        ErrorKind::PermissionDenied,
                        ErrorKind::StorageFull,
                        ErrorKind::Other,
                        ErrorKind::InvalidFilename,
                    ]))),
                    1 => Ok(OpOk::Done),
                    2 => Ok(OpOk::IsDir(false)),
                    _ => h.fs.run(&op),
                };
                h.answer_op(r);
            }
            8 => {
                let id = match (h.transfer_id(), u.byte().unwrap_or(0) % 8) {
                    (Some(id), 0..=6) => id,
                    (Some(id), _) => id.wrapping_sub(1),
                    (None, _) => 0,
                };
                let ev = match u.byte().unwrap_or(0) % 9 {
                    0 => DataEvent::Opened { id, path: None },
                    1 => DataEvent::OpenFailed {
                        id,
                        error: ErrorKind::NotFound,
                    },
                    2 => DataEvent::UploadReceived { id, bytes: 7 },
                    3 => DataEvent::Ended {
                        id,
                        bytes: 7,
                        outcome: Outcome::Complete,
                    },
                    4 => DataEvent::Ended {
                        id,
                        bytes: 3,
                        outcome: Outcome::Network,
                    },
                    5 => DataEvent::Ended {
                        id,
                        bytes: 0,
                        outcome: Outcome::NoConnection(NoConnection::Timeout),
                    },
                    6 => DataEvent::Ended {
                        id,
                        bytes: 0,
                        outcome: Outcome::Storage(ErrorKind::StorageFull),
                    },
                    7 => DataEvent::Ended {
                        id,
                        bytes: 1,
                        outcome: Outcome::Stalled,
                    },
                    _ => {
                        // The well-behaved driver takes one step.
                        h.step_transfer();
                        continue;
                    }
                };
                h.data_event(ev);
            }
            9 => {
                let secs = u64::from(u.byte().unwrap_or(0));
                h.advance(Duration::from_secs(secs * 2));
                exact &= !h.closed();
            }
            10 => {
                if u.byte().unwrap_or(0) % 4 == 0 {
                    h.control_closed = true;
                    h.s.handle_control_closed(h.now);
                    h.pump();
                    exact = false;
                }
            }
            _ => {
                let secs = u64::from(u.byte().unwrap_or(0) % 8);
                h.s.handle_shutdown(h.now, h.now + Duration::from_secs(secs));
                h.pump();
                exact = false;
            }
        }
    }
    h.quiesce();
    assert!(h.released(), "something left outstanding after the session settled");
    // AUTH TLS, and REIN that ends TLS, drop the lines queued behind
    // them, unanswered, by design.
    exact &= !h
        .actions
        .iter()
        .any(|a| matches!(a, crate::Action::StartTls | crate::Action::EndTls));
    if exact && !h.closed() {
        let finals = h.replies().iter().filter(|r| !r.code.is_preliminary()).count();
        assert_eq!(
            finals,
            lines + 1,
            "every command line gets exactly one final reply (plus the greeting); wire:\n{}",
            String::from_utf8_lossy(&h.wire[h.wire.len().saturating_sub(4096)..])
        );
    }
}
