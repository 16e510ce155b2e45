//! Commands: one table of verbs, one parser, one encoder.
//!
//! RFC 959 5.3.1: `<command> ::= <verb> [<SP> <argument>] <CRLF>`. The verb
//! is ASCII and case-insensitive. RFC 2640 3.1 makes the separator exact:
//! "exactly one <SP> ... follows the command"; every further SP belongs to
//! the pathname, so `STOR<SP><SP><SP>` names the file `<SP><SP>`. Inside a
//! pathname `<CR><NUL>` means `<CR>`; a bare NUL is refused with 501.
//!
//! The verb table ([`Verb`]) is written once, by the `verbs!` macro: name,
//! RFC 775 aliases, whether login is required, and the RFC that defines it.
//! [`Command::parse`] is the only place that looks at verb text; the server
//! and the client both use [`Command`], the client through
//! [`Command::to_line`].

mod encode;
mod parse;
mod typed;
mod verb;

pub use parse::{split_line, ParseError};
pub use typed::{Command, EpsvArg, ProtLevel, Structure, TransferMode, TransferType};
pub use verb::Verb;

#[cfg(test)]
mod tests;

/// Fuzzing entry point: frames arbitrary control-connection bytes into
/// lines, parses each, and asserts that every parsed command survives
/// [`Command::to_line`], framing by a [`LineReader`](crate::line::LineReader) and a
/// second parse unchanged, and that every error maps to a 5xx reply.
#[doc(hidden)]
pub fn fuzz_control(input: &[u8]) {
    use crate::line::{LineEvent, LineReader, Status};
    // The line a peer's LineReader frames out of `wire`, which must be
    // exactly one line.
    fn reframe(wire: &[u8]) -> Vec<u8> {
        let mut r = LineReader::new(64 * 1024);
        match r.advance(wire) {
            (n, Status::Complete(LineEvent::Line(l))) if n == wire.len() => l,
            other => panic!("{} is not one line: {other:?}", wire.escape_ascii()),
        }
    }
    let mut reader = LineReader::new(512);
    let mut rest = input;
    loop {
        let (n, st) = reader.advance(rest);
        rest = &rest[n..];
        let line = match st {
            Status::Partial => break,
            Status::Complete(LineEvent::Line(l)) => l,
            Status::Complete(_) => continue,
        };
        assert!(line.len() <= 513, "line longer than the bound");
        match Command::parse(&line) {
            Ok(cmd) => {
                let wire = match cmd.to_line() {
                    Ok(w) => w,
                    Err(e) => panic!("parsed {cmd:?} cannot be sent again: {e}"),
                };
                let again = Command::parse(&reframe(&wire));
                assert_eq!(again.as_ref(), Ok(&cmd), "round trip of {}", line.escape_ascii());
            }
            Err(e) => assert!(e.code().is_permanent()),
        }
    }
}
