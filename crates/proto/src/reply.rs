//! Replies: codes, single- and multi-line encoding, and a parser for the
//! client side.
//!
//! RFC 959 4.2: a reply is a three-digit code followed by SP and text, or,
//! for a multi-line reply, `CCC-` on the first line and `CCC SP` on the
//! last. Lines in between are free text; RFC 959 warns that a middle line
//! starting with digits could be taken for the end, so [`Reply::encode`]
//! indents any middle line that begins with a digit (RFC 2389 FEAT lines
//! begin with their own SP and are left alone).
//!
//! Reply texts are UTF-8 (RFC 2640 4.1) — but they may quote pathnames,
//! which are bytes, so a text line is `Vec<u8>`. Any CR inside a text is
//! padded with NUL (RFC 2640 3.1) and an LF is replaced by a SP: a text can
//! never end a reply early or inject a line. Every `0xFF` (telnet IAC, and
//! windows-1251 `я`) is sent as `IAC IAC` (RFC 854, RFC 959 4.1);
//! [`ReplyReader`] reads `IAC IAC` back as one `0xFF` and drops other telnet
//! commands (see [`crate::line`]).

use std::fmt;

use crate::line::{LineEvent, LineReader, Status, IAC};
use crate::path;

/// A three-digit reply code (100–599).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReplyCode(u16);

impl ReplyCode {
    /// Makes a code, or `None` outside 100–599.
    pub const fn new(code: u16) -> Option<Self> {
        if code >= 100 && code <= 599 {
            Some(ReplyCode(code))
        } else {
            None
        }
    }

    /// The number.
    pub const fn get(self) -> u16 {
        self.0
    }

    /// 1yz: positive preliminary.
    pub const fn is_preliminary(self) -> bool {
        self.0 / 100 == 1
    }
    /// 2yz: positive completion.
    pub const fn is_completion(self) -> bool {
        self.0 / 100 == 2
    }
    /// 3yz: positive intermediate.
    pub const fn is_intermediate(self) -> bool {
        self.0 / 100 == 3
    }
    /// 4yz: transient negative.
    pub const fn is_transient(self) -> bool {
        self.0 / 100 == 4
    }
    /// 5yz: permanent negative.
    pub const fn is_permanent(self) -> bool {
        self.0 / 100 == 5
    }
    /// 4yz or 5yz.
    pub const fn is_negative(self) -> bool {
        self.0 >= 400
    }
}

impl fmt::Display for ReplyCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:03}", self.0)
    }
}

macro_rules! codes {
    ($($name:ident = $n:literal, $doc:literal;)*) => {
        /// Reply codes used by babelftp, named as RFC 959 section 4.2.2 and
        /// its successors describe them.
        impl ReplyCode {
            $(#[doc = $doc] pub const $name: ReplyCode = ReplyCode($n);)*
        }
    };
}

codes! {
    RESTART_MARKER = 110, "Restart marker reply.";
    READY_IN = 120, "Service ready in nnn minutes.";
    ALREADY_OPEN = 125, "Data connection already open; transfer starting.";
    OPENING_DATA = 150, "File status okay; about to open data connection.";
    OK = 200, "Command okay.";
    SUPERFLUOUS = 202, "Command not implemented, superfluous at this site.";
    SYSTEM_STATUS = 211, "System status, or system help reply (FEAT).";
    DIRECTORY_STATUS = 212, "Directory status.";
    FILE_STATUS = 213, "File status (SIZE, MDTM, STAT <path>).";
    HELP = 214, "Help message.";
    SYSTEM_TYPE = 215, "NAME system type.";
    READY = 220, "Service ready for new user.";
    CLOSING = 221, "Service closing control connection.";
    DATA_OPEN = 225, "Data connection open; no transfer in progress.";
    CLOSING_DATA = 226, "Closing data connection; requested file action successful.";
    PASSIVE = 227, "Entering Passive Mode (h1,h2,h3,h4,p1,p2).";
    EXTENDED_PASSIVE = 229, "Entering Extended Passive Mode (|||port|) (RFC 2428).";
    LOGGED_IN = 230, "User logged in, proceed.";
    AUTH_OK = 234, "Security data exchange complete (RFC 2228 AUTH).";
    FILE_ACTION_OK = 250, "Requested file action okay, completed.";
    PATH_CREATED = 257, "\"PATHNAME\" created / is current directory.";
    NEED_PASSWORD = 331, "User name okay, need password.";
    NEED_ACCOUNT = 332, "Need account for login.";
    PENDING = 350, "Requested file action pending further information (RNFR, REST).";
    UNAVAILABLE = 421, "Service not available, closing control connection.";
    CANT_OPEN_DATA = 425, "Can't open data connection.";
    TRANSFER_ABORTED = 426, "Connection closed; transfer aborted.";
    FILE_BUSY = 450, "Requested file action not taken (file unavailable, busy).";
    LOCAL_ERROR = 451, "Requested action aborted: local error in processing.";
    NO_SPACE = 452, "Requested action not taken: insufficient storage space.";
    SYNTAX_ERROR = 500, "Syntax error, command unrecognized (also: line too long).";
    ARGUMENT_ERROR = 501, "Syntax error in parameters or arguments.";
    NOT_IMPLEMENTED = 502, "Command not implemented.";
    BAD_SEQUENCE = 503, "Bad sequence of commands.";
    PARAMETER_NOT_IMPLEMENTED = 504, "Command not implemented for that parameter.";
    PROT_REQUIRED = 521, "Data connection cannot be opened with this PROT setting (RFC 4217 9).";
    PROTOCOL_NOT_SUPPORTED = 522, "Network protocol not supported (RFC 2428); TLS on the data connection failed (RFC 4217).";
    NOT_LOGGED_IN = 530, "Not logged in.";
    NEED_ACCOUNT_FOR_STORING = 532, "Need account for storing files.";
    POLICY_DENIED = 534, "Request denied for policy reasons (RFC 2228).";
    PROT_NOT_SUPPORTED = 536, "Requested PROT level not supported by mechanism (RFC 2228).";
    FILE_UNAVAILABLE = 550, "Requested action not taken: file unavailable.";
    PAGE_TYPE_UNKNOWN = 551, "Requested action aborted: page type unknown.";
    EXCEEDED_STORAGE = 552, "Requested file action aborted: exceeded storage allocation.";
    BAD_FILENAME = 553, "Requested action not taken: file name not allowed.";
}

/// A reply as it travels: a code and one or more lines of text (bytes,
/// because texts may quote pathnames).
#[derive(Clone, PartialEq, Eq)]
pub struct Reply {
    /// The code.
    pub code: ReplyCode,
    /// The text lines; never empty after [`Reply::new`].
    pub lines: Vec<Vec<u8>>,
}

impl Reply {
    /// A single-line reply.
    pub fn new(code: ReplyCode, text: impl Into<Vec<u8>>) -> Self {
        Reply {
            code,
            lines: vec![text.into()],
        }
    }

    /// A multi-line reply (one line if `lines` holds one; an empty list is
    /// sent as one empty text).
    pub fn multi(code: ReplyCode, lines: Vec<Vec<u8>>) -> Self {
        let lines = if lines.is_empty() { vec![Vec::new()] } else { lines };
        Reply { code, lines }
    }

    /// The text of all lines joined with LF, for display or tests.
    pub fn text(&self) -> Vec<u8> {
        self.lines.join(&b'\n')
    }

    /// Writes the reply as it goes on the wire (with CR LF): CR in a text
    /// padded with NUL, LF replaced by SP, 0xFF doubled (`IAC IAC`).
    pub fn encode(&self, out: &mut Vec<u8>) {
        let code = self.code.to_string();
        let n = self.lines.len();
        for (i, line) in self.lines.iter().enumerate() {
            let last = i + 1 == n;
            if i == 0 {
                out.extend_from_slice(code.as_bytes());
                out.push(if last { b' ' } else { b'-' });
            } else if last {
                out.extend_from_slice(code.as_bytes());
                out.push(b' ');
            } else if line.first().is_some_and(u8::is_ascii_digit) {
                // RFC 959 4.2: keep middle lines from looking like the end.
                out.push(b' ');
            }
            push_text(out, line);
            out.extend_from_slice(b"\r\n");
        }
    }

    /// The encoded reply as a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode(&mut out);
        out
    }
}

fn push_text(out: &mut Vec<u8>, text: &[u8]) {
    let mut after_cr = false;
    for &b in text {
        let cr = b == b'\r';
        match b {
            // RFC 2640 3.1: CR NUL LF is pathname data to a reader (so a
            // name with CR LF round-trips); a bare LF would end the line.
            b'\n' if after_cr => out.push(b'\n'),
            b'\n' => out.push(b' '),
            b'\r' => out.extend_from_slice(b"\r\0"),
            IAC => out.extend_from_slice(&[IAC, IAC]),
            _ => out.push(b),
        }
        after_cr = cr;
    }
}

impl fmt::Debug for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Reply({} \"{}\")", self.code, self.text().escape_ascii())
    }
}

/// Why a reply could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplyError {
    /// A first line that does not start with three digits and SP or `-`.
    #[error("malformed reply line: {0:?}")]
    Malformed(String),
    /// A line longer than the reader's limit.
    #[error("reply line too long")]
    TooLong,
    /// A multi-line reply with more lines than the limit.
    #[error("multi-line reply has more than {0} lines")]
    TooManyLines(usize),
}

/// Reads replies from the control connection (client side). Bounded: each
/// line by the line limit, each reply by a line-count limit.
#[derive(Debug)]
pub struct ReplyReader {
    lines: LineReader,
    pending: Option<(ReplyCode, Vec<Vec<u8>>)>,
    max_lines: usize,
}

impl Default for ReplyReader {
    fn default() -> Self {
        ReplyReader::new(64 * 1024, 100_000)
    }
}

impl ReplyReader {
    /// A reader with a maximum line length and line count per reply.
    pub fn new(max_line: usize, max_lines: usize) -> Self {
        ReplyReader {
            lines: LineReader::new(max_line),
            pending: None,
            max_lines,
        }
    }

    /// Consumes input until one reply is complete; like
    /// [`LineReader::advance`].
    pub fn advance(&mut self, mut input: &[u8]) -> (usize, Status<Result<Reply, ReplyError>>) {
        let mut used = 0;
        loop {
            let (n, st) = self.lines.advance(input);
            used += n;
            input = &input[n..];
            let line = match st {
                Status::Partial => return (used, Status::Partial),
                Status::Complete(LineEvent::Line(l)) => l,
                Status::Complete(LineEvent::Interrupt) => continue,
                Status::Complete(LineEvent::TooLong) => {
                    self.pending = None;
                    return (used, Status::Complete(Err(ReplyError::TooLong)));
                }
            };
            // Undo CR NUL padding in reply texts; a bare NUL is kept as is.
            let line = path::unpad_cr_nul(&line).unwrap_or(line);
            if let Some(r) = self.line(line) {
                return (used, Status::Complete(r));
            }
        }
    }

    fn line(&mut self, line: Vec<u8>) -> Option<Result<Reply, ReplyError>> {
        let head = parse_head(&line);
        match self.pending.take() {
            None => match head {
                Some((code, b' ')) => Some(Ok(Reply::new(code, &line[4..]))),
                Some((code, _)) => {
                    self.pending = Some((code, vec![line[4..].to_vec()]));
                    None
                }
                // A bare code line ("220") is accepted as an empty text.
                None if line.len() == 3 && line.iter().all(u8::is_ascii_digit) => {
                    let code = parse_code(&line)?;
                    Some(Ok(Reply::new(code, Vec::new())))
                }
                None => Some(Err(ReplyError::Malformed(line.escape_ascii().to_string()))),
            },
            Some((code, mut lines)) => {
                let is_end = matches!(head, Some((c, b' ')) if c == code)
                    || (line.len() == 3 && parse_code(&line) == Some(code));
                if is_end {
                    lines.push(line.get(4..).unwrap_or_default().to_vec());
                    return Some(Ok(Reply::multi(code, lines)));
                }
                if lines.len() >= self.max_lines {
                    return Some(Err(ReplyError::TooManyLines(self.max_lines)));
                }
                // Middle lines keep their text; a repeated "CCC-" prefix
                // (some servers send it) is stripped.
                let text = match head {
                    Some((c, b'-')) if c == code => line[4..].to_vec(),
                    _ => line,
                };
                lines.push(text);
                self.pending = Some((code, lines));
                None
            }
        }
    }
}

fn parse_code(d: &[u8]) -> Option<ReplyCode> {
    if d.len() < 3 || !d[..3].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = d[..3].iter().fold(0u16, |a, &b| a * 10 + u16::from(b - b'0'));
    ReplyCode::new(n)
}

fn parse_head(line: &[u8]) -> Option<(ReplyCode, u8)> {
    let code = parse_code(line)?;
    match line.get(3) {
        Some(&sep @ (b' ' | b'-')) => Some((code, sep)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::WirePath;

    fn read_all(input: &[u8]) -> Vec<Result<Reply, ReplyError>> {
        let mut r = ReplyReader::default();
        let mut out = Vec::new();
        let mut rest = input;
        loop {
            let (n, st) = r.advance(rest);
            rest = &rest[n..];
            match st {
                Status::Complete(x) => out.push(x),
                Status::Partial => return out,
            }
        }
    }

    #[test]
    fn single_line_rfc959() {
        let r = Reply::new(ReplyCode::OK, "Command okay.");
        assert_eq!(r.to_bytes(), b"200 Command okay.\r\n");
        assert_eq!(read_all(&r.to_bytes()), vec![Ok(r)]);
    }

    #[test]
    fn multi_line_rfc959_4_2() {
        let r = Reply::multi(
            ReplyCode::SYSTEM_STATUS,
            vec![
                b"Features:".to_vec(),
                b" UTF8".to_vec(),
                b"123 looks like an end".to_vec(),
                b"End".to_vec(),
            ],
        );
        let wire = r.to_bytes();
        assert_eq!(wire, b"211-Features:\r\n UTF8\r\n 123 looks like an end\r\n211 End\r\n");
        let back = read_all(&wire);
        assert_eq!(back.len(), 1);
        let back = back[0].clone().unwrap();
        assert_eq!(back.code, ReplyCode::SYSTEM_STATUS);
        assert_eq!(back.lines[1], b" UTF8");
        assert_eq!(back.lines[3], b"End");
    }

    #[test]
    fn other_code_inside_multiline_is_text() {
        let wire = b"230-Welcome\r\n220 not the end\r\n230-still\r\n230 done\r\n";
        let got = read_all(wire);
        assert_eq!(got.len(), 1);
        let r = got[0].clone().unwrap();
        assert_eq!(
            r.lines,
            vec![
                b"Welcome".to_vec(),
                b"220 not the end".to_vec(),
                b"still".to_vec(),
                b"done".to_vec()
            ]
        );
    }

    #[test]
    fn utf8_text_and_every_split_point() {
        let r = Reply::new(ReplyCode::PATH_CREATED, "\"/日本語/ملف\" créé".as_bytes());
        let wire = r.to_bytes();
        for cut in 0..wire.len() {
            let mut rd = ReplyReader::default();
            let (n, st) = rd.advance(&wire[..cut]);
            assert_eq!((n, st), (cut, Status::Partial));
            let (_, st) = rd.advance(&wire[cut..]);
            assert_eq!(st, Status::Complete(Ok(r.clone())), "cut {cut}");
        }
    }

    #[test]
    fn a_pathname_with_cr_lf_round_trips_in_a_reply_rfc2640_3_1() {
        let r = Reply::new(ReplyCode::PATH_CREATED, b"\"/foo\r\nboo.bar\" created".to_vec());
        assert_eq!(r.to_bytes(), b"257 \"/foo\r\0\nboo.bar\" created\r\n");
        let back = read_all(&r.to_bytes());
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].clone().unwrap(), r);
    }

    #[test]
    fn cr_in_text_is_padded_and_lf_cannot_inject() {
        let r = Reply::new(ReplyCode::PATH_CREATED, b"\"a\rb\" x\n226 fake".to_vec());
        assert_eq!(r.to_bytes(), b"257 \"a\r\0b\" x 226 fake\r\n");
        let back = read_all(&r.to_bytes());
        assert_eq!(back[0].clone().unwrap().lines[0], b"\"a\rb\" x 226 fake");
    }

    #[test]
    fn iac_in_a_reply_is_doubled_rfc854() {
        // windows-1251 "/Даняяр": я is 0xFF, р is 0xF0 (telnet SE), so
        // undoubled this would read back as "/Даня" and a dropped command.
        let name = WirePath::new(b"/\xc4\xe0\xed\xff\xff\xf0".to_vec());
        let mut text = name.quote_257();
        text.extend_from_slice(b" created");
        let r = Reply::new(ReplyCode::PATH_CREATED, text);
        let wire = r.to_bytes();
        assert_eq!(wire, b"257 \"/\xc4\xe0\xed\xff\xff\xff\xff\xf0\" created\r\n");
        for cut in 0..=wire.len() {
            let mut rd = ReplyReader::default();
            let (n, st) = rd.advance(&wire[..cut]);
            let st = match st {
                Status::Partial => rd.advance(&wire[cut..]).1,
                done => {
                    assert_eq!(n, wire.len());
                    done
                }
            };
            assert_eq!(st, Status::Complete(Ok(r.clone())), "cut {cut}");
        }
        assert_eq!(WirePath::unquote_257(&r.lines[0]), Some(name));
    }

    #[test]
    fn iac_in_a_multi_line_reply_is_doubled_rfc854() {
        let r = Reply::multi(
            ReplyCode::SYSTEM_STATUS,
            vec![
                b"\xff first".to_vec(),
                b"\xff\xfb middle".to_vec(),
                b"last \xff".to_vec(),
            ],
        );
        let wire = r.to_bytes();
        assert_eq!(
            wire,
            b"211-\xff\xff first\r\n\xff\xff\xfb middle\r\n211 last \xff\xff\r\n"
        );
        assert_eq!(read_all(&wire), vec![Ok(r)]);
    }

    #[test]
    fn telnet_commands_in_replies_are_dropped_rfc854() {
        // IAC NOP, IAC WILL ECHO, IAC IP: not text.
        let got = read_all(b"220 he\xff\xf1llo\xff\xfb\x01 w\xff\xf4orld\r\n");
        assert_eq!(got, vec![Ok(Reply::new(ReplyCode::READY, "hello world"))]);
    }

    #[test]
    fn malformed_and_lenient() {
        assert!(matches!(read_all(b"hello\r\n")[0], Err(ReplyError::Malformed(_))));
        assert_eq!(read_all(b"220\r\n")[0].clone().unwrap().code, ReplyCode::READY);
        assert!(read_all(b"99 x\r\n")[0].is_err());
        assert!(read_all(b"600 x\r\n")[0].is_err());
    }

    #[test]
    fn an_endless_reply_line_is_an_error_at_once() {
        let mut r = ReplyReader::new(16, 10);
        let mut flood = b"220 ".to_vec();
        flood.extend([b'x'; 100]);
        assert_eq!(r.advance(&flood), (17, Status::Complete(Err(ReplyError::TooLong))));
        assert_eq!(r.advance(&flood[17..]), (flood.len() - 17, Status::Partial));
        assert_eq!(
            r.advance(b"\r\n200 ok\r\n"),
            (10, Status::Complete(Ok(Reply::new(ReplyCode::OK, "ok"))))
        );
    }

    #[test]
    fn code_classes() {
        assert!(ReplyCode::OPENING_DATA.is_preliminary());
        assert!(ReplyCode::PENDING.is_intermediate());
        assert!(ReplyCode::FILE_BUSY.is_transient());
        assert!(ReplyCode::FILE_UNAVAILABLE.is_permanent());
        assert_eq!(ReplyCode::new(99), None);
        assert_eq!(ReplyCode::new(550), Some(ReplyCode::FILE_UNAVAILABLE));
    }
}
