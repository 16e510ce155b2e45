//! The control I/O part: input framed into lines and queued while the
//! session is busy, replies out, the actions the driver polls, the idle
//! deadline, and how the connection ends (QUIT after a transfer, the
//! client gone, shutdown, closed).
//!
//! A leaf part: bytes, lines and actions; it knows no command.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use babelftp_proto::line::{LineEvent, LineReader, Status};
use babelftp_proto::reply::Reply;

use crate::effects::Action;

/// Lines framed but not yet run, at most: past this the session stops
/// taking input ([`crate::ServerSession::wants_input`]), so memory stays
/// bounded whatever a client pipelines.
const MAX_QUEUE: usize = 16;
/// Output not yet taken by the driver, at most, before input stops.
const MAX_OUTPUT: usize = 256 * 1024;

/// The close reason when the client went away.
pub(crate) const CLIENT_GONE: &str = "client closed the connection";

/// A framed line, or the report of one that was too long.
#[derive(Debug)]
pub(crate) enum Queued {
    Line(Vec<u8>),
    TooLong,
}

/// What framing gave.
#[derive(Debug)]
pub(crate) enum Framed {
    /// Nothing more now (all input framed, or the queue is full).
    Nothing,
    /// Telnet IP, or a line that was queued: frame on.
    Again,
    /// A line to look at at once while a transfer runs (ABOR, STAT, QUIT);
    /// if the session does not take it, it is queued with
    /// [`ControlIo::enqueue`].
    Line(Vec<u8>),
}

/// The control connection as the session sees it.
#[derive(Debug)]
pub(crate) struct ControlIo {
    lines: LineReader,
    input: Vec<u8>,
    queue: VecDeque<Queued>,
    /// Telnet IP was seen: the next line is handled before queued ones
    /// (RFC 959 4.1.3).
    urgent: bool,
    out: Vec<u8>,
    actions: VecDeque<Action>,
    idle_deadline: Instant,
    /// Shutdown was asked for; running transfers may go on until then.
    pub(crate) shutdown: Option<Instant>,
    /// The shutdown is this session's alone: an administrator ended it.
    pub(crate) ended_by_admin: bool,
    /// The client's side is gone: nothing more is written.
    pub(crate) control_closed: bool,
    /// QUIT came during a transfer: close once it has ended (RFC 959).
    pub(crate) quit_after: bool,
    closed: bool,
    /// Why it closed (for the log).
    close_reason: &'static str,
    /// The code of every 4xx and 5xx reply sent since the driver took them.
    pub(crate) error_replies: Vec<u16>,
}

impl ControlIo {
    pub(crate) fn new(max_line: usize, now: Instant, idle: Duration) -> Self {
        ControlIo {
            lines: LineReader::new(max_line),
            input: Vec::new(),
            queue: VecDeque::new(),
            urgent: false,
            out: Vec::new(),
            actions: VecDeque::new(),
            idle_deadline: now + idle,
            shutdown: None,
            ended_by_admin: false,
            control_closed: false,
            quit_after: false,
            closed: false,
            close_reason: "open",
            error_replies: Vec::new(),
        }
    }

    /// Whether input is still heard (open, and the client is there).
    pub(crate) fn live(&self) -> bool {
        !self.closed && !self.control_closed
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.closed
    }

    pub(crate) fn close_reason(&self) -> &'static str {
        self.close_reason
    }

    pub(crate) fn push_input(&mut self, bytes: &[u8]) {
        self.input.extend_from_slice(bytes);
    }

    /// The client went away: nothing it sent is run, nothing is written.
    pub(crate) fn client_gone(&mut self) {
        self.control_closed = true;
        self.out.clear();
        self.input.clear();
        self.queue.clear();
    }

    pub(crate) fn clear_queue(&mut self) {
        self.queue.clear();
    }

    pub(crate) fn next_queued(&mut self) -> Option<Queued> {
        self.queue.pop_front()
    }

    /// Frames the next line of input (the caller runs queued lines first).
    pub(crate) fn frame(&mut self, now: Instant, idle: Duration) -> Framed {
        if self.input.is_empty() {
            self.input = Vec::new();
            if self.queue.is_empty() {
                self.queue = VecDeque::new();
            }
            return Framed::Nothing;
        }
        if self.queue.len() >= MAX_QUEUE {
            return Framed::Nothing;
        }
        let (n, st) = self.lines.advance(&self.input);
        self.input.drain(..n);
        while let Some(t) = self.lines.poll_telnet_reply() {
            self.out.extend_from_slice(&t);
        }
        match st {
            Status::Partial => {
                // All input is in the line reader now.
                self.input = Vec::new();
                Framed::Nothing
            }
            Status::Complete(LineEvent::Interrupt) => {
                self.urgent = true;
                Framed::Again
            }
            Status::Complete(LineEvent::TooLong) => {
                // Answered at once, in order with what is queued.
                self.idle_deadline = now + idle;
                self.enqueue(Queued::TooLong);
                Framed::Again
            }
            Status::Complete(LineEvent::Line(l)) => {
                self.idle_deadline = now + idle;
                Framed::Line(l)
            }
        }
    }

    /// Queues a line (an urgent one first).
    pub(crate) fn enqueue(&mut self, q: Queued) {
        if std::mem::take(&mut self.urgent) {
            self.queue.push_front(q);
        } else {
            self.queue.push_back(q);
        }
    }

    /// A line acted on at once: the urgent mark is spent.
    pub(crate) fn took_urgent(&mut self) {
        self.urgent = false;
    }

    /// After AUTH TLS or REIN: plaintext the client sent behind it is
    /// dropped unread (the STARTTLS command-injection class), and the line
    /// reader starts over for the next stream.
    pub(crate) fn forget_plaintext(&mut self, max_line: usize) {
        self.input = Vec::new();
        self.queue = VecDeque::new();
        self.lines = LineReader::new(max_line);
        self.urgent = false;
    }

    pub(crate) fn touch(&mut self, now: Instant, idle: Duration) {
        self.idle_deadline = now + idle;
    }

    pub(crate) fn idle_deadline(&self) -> Instant {
        self.idle_deadline
    }

    /// Encodes a reply, unless nothing more is written.
    pub(crate) fn send(&mut self, r: &Reply) {
        if !self.live() {
            return;
        }
        if r.code.get() >= 400 {
            self.error_replies.push(r.code.get());
        }
        r.encode(&mut self.out);
    }

    pub(crate) fn output(&self) -> &[u8] {
        &self.out
    }

    pub(crate) fn consume_output(&mut self, n: usize) {
        let n = n.min(self.out.len());
        self.out.drain(..n);
        if self.out.is_empty() {
            // An idle session holds no buffers (thousands of them may be
            // connected at once).
            self.out = Vec::new();
        }
    }

    /// An action for the driver, unless the session has closed.
    pub(crate) fn action(&mut self, a: Action) {
        if !self.closed {
            self.actions.push_back(a);
        }
    }

    pub(crate) fn poll_action(&mut self) -> Option<Action> {
        let a = self.actions.pop_front();
        if a.is_none() && self.actions.capacity() > 0 {
            self.actions = VecDeque::new();
        }
        a
    }

    pub(crate) fn close(&mut self, why: &'static str) {
        if !self.closed {
            self.closed = true;
            self.close_reason = why;
            self.actions.push_back(Action::Close);
        }
    }

    pub(crate) fn wants_input(&self, max_line: usize) -> bool {
        self.live()
            && self.queue.len() < MAX_QUEUE
            && self.out.len() < MAX_OUTPUT
            && self.input.len() < max_line.saturating_add(16)
    }
}
