//! The control connection's line layer: telnet octets out, command lines in.
//!
//! RFC 959 4.1: the control connection follows the Telnet protocol. For an
//! FTP server that means:
//! - `IAC IAC` is one data octet `0xFF` (a legacy-charset name may hold it);
//!   going out, every data octet `0xFF` is doubled the same way
//!   ([`push_escaping_iac`], used by [`crate::command::Command::to_line`]
//!   and [`crate::reply::Reply::encode`]);
//! - `IAC IP` and `IAC DM` (the "Synch") surround an urgent `ABOR`
//!   (RFC 959 4.1.3): they are reported as [`LineEvent::Interrupt`] so the
//!   driver can look at the next line before queued ones;
//! - option negotiation (`WILL/WONT/DO/DONT x`) is refused as RFC 1123
//!   4.1.2.12 allows: we answer `DONT x` / `WONT x`, see
//!   [`LineReader::poll_telnet_reply`];
//! - subnegotiation (`SB … IAC SE`) and the other commands are dropped.
//!
//! Lines end with CR LF. Like vsftpd and ProFTPD we also accept a bare LF
//! (and then drop one CR before it). A CR followed by NUL is *not* an end of
//! line: it is RFC 2640's padded CR inside a pathname and is handed on as is
//! (see [`crate::path::unpad_cr_nul`]). Nor is an LF right after such a
//! `CR NUL`: RFC 2640 3.1 sends the name `foo<CR><LF>` as
//! `foo<CR><NUL><LF>`, so that LF is pathname data and stays in the line
//! (otherwise the rest of the name would run as a second command).
//!
//! Memory is bounded: a line longer than the configured maximum is never
//! buffered beyond that maximum. [`LineEvent::TooLong`] is reported as soon
//! as the octet that crosses the maximum arrives (so a line that never ends
//! is answered too), exactly once per line; everything after it, up to and
//! including the line's end-of-line LF, is then skipped silently (that LF
//! yields no event).
//!
//! Incomplete input is a status ([`Status::Partial`]), not an error.

use std::collections::VecDeque;

/// Telnet "interpret as command".
pub const IAC: u8 = 255;
const DONT: u8 = 254;
const DO: u8 = 253;
const WONT: u8 = 252;
const WILL: u8 = 251;
const SB: u8 = 250;
const SE: u8 = 240;
/// Telnet "interrupt process".
pub const IP: u8 = 244;
/// Telnet "data mark", the end of a Synch.
pub const DM: u8 = 242;

/// Default longest command line: RFC 959 names no limit; 4 KiB holds any
/// real pathname (PATH_MAX) with its verb.
pub const DEFAULT_MAX_LINE: usize = 4096;

/// Appends `data` to `out` as telnet data: every `0xFF` (IAC) doubled
/// (RFC 854; RFC 959 4.1 puts the control connection under telnet), so a
/// legacy-charset octet such as windows-1251 `я` is not read as a command.
pub fn push_escaping_iac(out: &mut Vec<u8>, data: &[u8]) {
    for chunk in data.split_inclusive(|&b| b == IAC) {
        out.extend_from_slice(chunk);
        if chunk.last() == Some(&IAC) {
            out.push(IAC);
        }
    }
}

/// Progress of a read: complete with a value, or more input is needed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status<T> {
    /// A value was produced.
    Complete(T),
    /// All input was consumed and more is needed.
    Partial,
}

/// What the line layer has for the command parser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineEvent {
    /// A whole line without its end-of-line, telnet commands removed.
    Line(Vec<u8>),
    /// The current line just exceeded the maximum (reply 500). Reported
    /// once, with the octet that crosses the limit and before the line
    /// ends; the rest of the line, through its end-of-line LF, is skipped
    /// without further events.
    TooLong,
    /// `IAC IP` or `IAC DM` was seen: the peer wants its next command (an
    /// `ABOR`) handled urgently.
    Interrupt,
}

/// What the last data octets of the current line were, for the RFC 2640
/// `CR NUL LF` rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tail {
    Other,
    Cr,
    CrNul,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Telnet {
    Data,
    Iac,
    Negotiate(u8),
    Sub,
    SubIac,
}

/// Frames the control connection into lines. Feed it bytes with
/// [`LineReader::advance`]; it consumes input up to the end of one event.
#[derive(Debug)]
pub struct LineReader {
    max: usize,
    line: Vec<u8>,
    telnet: Telnet,
    tail: Tail,
    discarding: bool,
    replies: VecDeque<[u8; 3]>,
}

impl Default for LineReader {
    fn default() -> Self {
        Self::new(DEFAULT_MAX_LINE)
    }
}

impl LineReader {
    /// A reader refusing lines longer than `max` octets (end of line not
    /// counted).
    pub fn new(max: usize) -> Self {
        LineReader {
            max,
            line: Vec::new(),
            telnet: Telnet::Data,
            tail: Tail::Other,
            discarding: false,
            replies: VecDeque::new(),
        }
    }

    /// Consumes input until one event is complete. Returns how many octets
    /// were consumed and the event, or `Partial` if all of `input` was taken
    /// and no event is complete yet. Call again with the rest of the input.
    pub fn advance(&mut self, input: &[u8]) -> (usize, Status<LineEvent>) {
        for (i, &b) in input.iter().enumerate() {
            if let Some(ev) = self.octet(b) {
                return (i + 1, Status::Complete(ev));
            }
        }
        (input.len(), Status::Partial)
    }

    /// The next telnet refusal to send back (`IAC DONT x` / `IAC WONT x`).
    pub fn poll_telnet_reply(&mut self) -> Option<[u8; 3]> {
        self.replies.pop_front()
    }

    /// Octets of the current unfinished line (for diagnostics).
    pub fn pending(&self) -> usize {
        self.line.len()
    }

    fn octet(&mut self, b: u8) -> Option<LineEvent> {
        match self.telnet {
            Telnet::Data => {
                if b == IAC {
                    self.telnet = Telnet::Iac;
                    None
                } else {
                    self.data(b)
                }
            }
            Telnet::Iac => {
                self.telnet = Telnet::Data;
                match b {
                    IAC => self.data(IAC),
                    WILL | WONT | DO | DONT => {
                        self.telnet = Telnet::Negotiate(b);
                        None
                    }
                    SB => {
                        self.telnet = Telnet::Sub;
                        None
                    }
                    IP | DM => Some(LineEvent::Interrupt),
                    // Other telnet commands (NOP, AYT, GA, …) carry nothing.
                    SE..=255 => None,
                    // Not a telnet command at all: a client that sent a raw
                    // 0xFF of a legacy charset without doubling it. Keep both
                    // octets rather than lose part of a name.
                    // (The first octet can only yield TooLong, and then
                    // the second, skipped or ending the skip, yields none.)
                    other => {
                        let first = self.data(IAC);
                        let second = self.data(other);
                        first.or(second)
                    }
                }
            }
            Telnet::Negotiate(verb) => {
                self.telnet = Telnet::Data;
                // RFC 1123 4.1.2.12: a server may refuse every option.
                let answer = match verb {
                    WILL => Some(DONT),
                    DO => Some(WONT),
                    _ => None,
                };
                if let Some(a) = answer {
                    if self.replies.len() < 16 {
                        self.replies.push_back([IAC, a, b]);
                    }
                }
                None
            }
            Telnet::Sub => {
                if b == IAC {
                    self.telnet = Telnet::SubIac;
                }
                None
            }
            Telnet::SubIac => {
                self.telnet = if b == SE { Telnet::Data } else { Telnet::Sub };
                None
            }
        }
    }

    fn data(&mut self, b: u8) -> Option<LineEvent> {
        let tail = self.tail;
        self.tail = match b {
            b'\r' => Tail::Cr,
            0 if tail == Tail::Cr => Tail::CrNul,
            _ => Tail::Other,
        };
        // RFC 2640 3.1: an LF after a padded CR is part of a pathname.
        if b == b'\n' && tail != Tail::CrNul {
            if std::mem::take(&mut self.discarding) {
                // The end of a line already reported as TooLong.
                return None;
            }
            let mut line = std::mem::take(&mut self.line);
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Some(LineEvent::Line(line));
        }
        if self.discarding {
            return None;
        }
        // One extra octet is allowed for the CR of the terminating CR LF.
        if self.line.len() > self.max || (self.line.len() == self.max && b != b'\r') {
            self.discarding = true;
            self.line = Vec::new();
            return Some(LineEvent::TooLong);
        }
        self.line.push(b);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_events(reader: &mut LineReader, mut input: &[u8]) -> Vec<LineEvent> {
        let mut out = Vec::new();
        loop {
            let (n, st) = reader.advance(input);
            input = &input[n..];
            match st {
                Status::Complete(ev) => out.push(ev),
                Status::Partial => return out,
            }
        }
    }

    fn line(s: &[u8]) -> LineEvent {
        LineEvent::Line(s.to_vec())
    }

    #[test]
    fn iac_is_doubled_going_out_rfc854() {
        let mut out = b"RETR ".to_vec();
        push_escaping_iac(&mut out, b"\xffa\xff\xff");
        assert_eq!(out, b"RETR \xff\xffa\xff\xff\xff\xff");
        out.extend_from_slice(b"\r\n");
        assert_eq!(
            all_events(&mut LineReader::default(), &out),
            vec![line(b"RETR \xffa\xff\xff")]
        );
    }

    #[test]
    fn crlf_framing_rfc959() {
        let mut r = LineReader::default();
        assert_eq!(
            all_events(&mut r, b"USER a\r\nPASS b\r\nNO"),
            vec![line(b"USER a"), line(b"PASS b")]
        );
        assert_eq!(all_events(&mut r, b"OP\r\n"), vec![line(b"NOOP")]);
    }

    #[test]
    fn every_split_point_gives_the_same_lines() {
        let input = b"STOR \xe6\x97\xa5\xff\xff\r\0x\r\nLIST\r\n";
        let whole = all_events(&mut LineReader::default(), input);
        assert_eq!(whole, vec![line(b"STOR \xe6\x97\xa5\xff\r\0x"), line(b"LIST")]);
        for cut in 0..input.len() {
            let mut r = LineReader::default();
            let mut got = all_events(&mut r, &input[..cut]);
            got.extend(all_events(&mut r, &input[cut..]));
            assert_eq!(got, whole, "cut at {cut}");
        }
    }

    #[test]
    fn bare_lf_is_accepted() {
        let mut r = LineReader::default();
        assert_eq!(all_events(&mut r, b"PWD\n"), vec![line(b"PWD")]);
    }

    #[test]
    fn cr_nul_is_not_end_of_line_rfc2640() {
        let mut r = LineReader::default();
        assert_eq!(all_events(&mut r, b"MKD a\r\0b\r\n"), vec![line(b"MKD a\r\0b")]);
    }

    #[test]
    fn lf_after_cr_nul_is_pathname_data_rfc2640_3_1() {
        // RFC 2640 3.1: the name foo<CR><LF>boo.bar travels as
        // foo<CR><NUL><LF>boo.bar; that LF must not end the line (else
        // "boo.bar" would run as a second command).
        let input = b"MKD foo\r\0\nboo.bar\r\n";
        let whole = all_events(&mut LineReader::default(), input);
        assert_eq!(whole, vec![line(b"MKD foo\r\0\nboo.bar")]);
        for cut in 0..=input.len() {
            let mut r = LineReader::default();
            let mut got = all_events(&mut r, &input[..cut]);
            got.extend(all_events(&mut r, &input[cut..]));
            assert_eq!(got, whole, "cut at {cut}");
        }
        let LineEvent::Line(l) = &whole[0] else {
            panic!("{whole:?}")
        };
        match crate::command::Command::parse(l) {
            Ok(crate::command::Command::Mkd(p)) => assert_eq!(p.as_bytes(), b"foo\r\nboo.bar"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn name_ending_in_cr_then_crlf_rfc2640_3_1() {
        // foo<CR> is sent as foo<CR><NUL>, then the CR LF ends the line.
        let mut r = LineReader::default();
        assert_eq!(
            all_events(&mut r, b"STOR foo\r\0\r\nNOOP\r\n"),
            vec![line(b"STOR foo\r\0"), line(b"NOOP")]
        );
        // An LF after a NUL that does not pad a CR still ends the line.
        assert_eq!(all_events(&mut r, b"X a\0\nY\n"), vec![line(b"X a\0"), line(b"Y")]);
    }

    #[test]
    fn iac_iac_is_0xff() {
        let mut r = LineReader::default();
        assert_eq!(all_events(&mut r, b"RETR \xff\xff\r\n"), vec![line(b"RETR \xff")]);
    }

    #[test]
    fn abor_with_ip_and_synch_rfc959_4_1_3() {
        // What a client sends for an urgent ABOR: IAC IP, IAC DM (urgent), ABOR.
        let mut r = LineReader::default();
        assert_eq!(
            all_events(&mut r, b"\xff\xf4\xff\xf2ABOR\r\n"),
            vec![LineEvent::Interrupt, LineEvent::Interrupt, line(b"ABOR")]
        );
    }

    #[test]
    fn negotiation_is_refused_and_stripped() {
        let mut r = LineReader::default();
        assert_eq!(
            all_events(&mut r, b"NO\xff\xfb\x18OP\xff\xfd\x01\r\n"),
            vec![line(b"NOOP")]
        );
        assert_eq!(r.poll_telnet_reply(), Some([IAC, DONT, 0x18]));
        assert_eq!(r.poll_telnet_reply(), Some([IAC, WONT, 0x01]));
        assert_eq!(r.poll_telnet_reply(), None);
    }

    #[test]
    fn subnegotiation_is_dropped() {
        let mut r = LineReader::default();
        assert_eq!(
            all_events(&mut r, b"NO\xff\xfa\x18\x01abc\xff\xf0OP\r\n"),
            vec![line(b"NOOP")]
        );
    }

    #[test]
    fn undoubled_0xff_of_a_legacy_client_is_kept() {
        // windows-1251 "я" is 0xFF; an old client may not double it.
        let mut r = LineReader::default();
        assert_eq!(all_events(&mut r, b"RETR \xffa\r\n"), vec![line(b"RETR \xffa")]);
    }

    #[test]
    fn long_lines_are_refused_without_buffering() {
        let mut r = LineReader::new(8);
        let mut input = b"STOR ".to_vec();
        input.extend(std::iter::repeat_n(b'x', 100_000));
        // "STOR xxx" fills the 8 octets; the next 'x' crosses the limit and
        // is reported at once, without waiting for the LF.
        assert_eq!(r.advance(&input), (9, Status::Complete(LineEvent::TooLong)));
        assert_eq!(r.advance(&input[9..]), (input.len() - 9, Status::Partial));
        assert_eq!(r.pending(), 0);
        // The rest of the line, up to and including its LF, is skipped
        // silently: no second TooLong, no event for that LF.
        assert_eq!(all_events(&mut r, b"yy\r\nNOOP\r\n"), vec![line(b"NOOP")]);
    }

    #[test]
    fn limit_is_exact() {
        let mut r = LineReader::new(4);
        assert_eq!(all_events(&mut r, b"NOOP\r\n"), vec![line(b"NOOP")]);
        assert_eq!(all_events(&mut r, b"NOOPS\r\n"), vec![LineEvent::TooLong]);
        assert_eq!(all_events(&mut r, b"NOOP\n"), vec![line(b"NOOP")]);
        // The CR of the CR LF does not count, even when it comes alone...
        assert_eq!(all_events(&mut r, b"NOOP\r"), vec![]);
        assert_eq!(all_events(&mut r, b"\n"), vec![line(b"NOOP")]);
        // ...but a CR that turns out to be data does.
        assert_eq!(all_events(&mut r, b"NOOP\r"), vec![]);
        assert_eq!(r.advance(b"\0\r\nNOOP\r\n"), (1, Status::Complete(LineEvent::TooLong)));
        assert_eq!(all_events(&mut r, b"\r\nNOOP\r\n"), vec![line(b"NOOP")]);
    }

    #[test]
    fn a_line_that_never_ends_is_refused_as_it_crosses_the_limit() {
        // 1 KiB chunks and no LF ever: TooLong comes with the chunk that
        // crosses 4096 octets, right after the crossing octet, and once.
        let mut r = LineReader::new(DEFAULT_MAX_LINE);
        let chunk = [b'x'; 1024];
        for _ in 0..4 {
            assert_eq!(r.advance(&chunk), (1024, Status::Partial));
        }
        assert_eq!(r.pending(), 4096);
        assert_eq!(r.advance(&chunk), (1, Status::Complete(LineEvent::TooLong)));
        assert_eq!(r.advance(&chunk[1..]), (1023, Status::Partial));
        for _ in 0..1024 {
            assert_eq!(r.advance(&chunk), (1024, Status::Partial));
            assert_eq!(r.pending(), 0);
        }
        // A padded CR LF inside the skipped line does not end it.
        assert_eq!(all_events(&mut r, b"a\r\0\nDELE x\r\nNOOP\r\n"), vec![line(b"NOOP")]);
    }

    #[test]
    fn an_undoubled_0xff_can_cross_the_limit() {
        let mut r = LineReader::new(4);
        assert_eq!(
            all_events(&mut r, b"ABCD\xffa\r\nNOOP\r\n"),
            vec![LineEvent::TooLong, line(b"NOOP")]
        );
        assert_eq!(
            all_events(&mut r, b"ABCD\xff\nNOOP\r\n"),
            vec![LineEvent::TooLong, line(b"NOOP")]
        );
    }

    #[test]
    fn too_long_at_every_split_point() {
        let input = b"STOR abcdefgh\r\0\nDELE x\r\nNOOP\r\n";
        let whole = all_events(&mut LineReader::new(8), input);
        assert_eq!(whole, vec![LineEvent::TooLong, line(b"NOOP")]);
        for cut in 0..=input.len() {
            let mut r = LineReader::new(8);
            let mut got = all_events(&mut r, &input[..cut]);
            // Reported as soon as the ninth octet is in.
            assert_eq!(got.first() == Some(&LineEvent::TooLong), cut >= 9, "cut at {cut}");
            got.extend(all_events(&mut r, &input[cut..]));
            assert_eq!(got, whole, "cut at {cut}");
        }
    }
}
