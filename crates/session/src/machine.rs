//! The machine: the events the driver feeds in, control input framed into
//! lines, one command at a time, lines queued while an operation or a
//! transfer runs, and the deadlines (idle, failed-login delay, shutdown
//! grace). The top layer: it calls the handlers, nothing calls it.

use std::time::Instant;

use babelftp_proto::command::Command;
use babelftp_proto::reply::ReplyCode;

use crate::effects::{Action, DataEvent, Hostile, OpResult};
use crate::io::{Framed, Queued, CLIENT_GONE};
use crate::msg::Msg;
use crate::session::ServerSession;
use crate::transfer::{AbortCause, Busy};

impl ServerSession {
    /// Bytes from the control connection (after TLS, if any).
    pub fn handle_input(&mut self, now: Instant, bytes: &[u8]) {
        if !self.io.live() {
            return;
        }
        self.io.push_input(bytes);
        self.process(now);
    }

    /// The control connection reached EOF, was reset, or a write to it
    /// failed. A running transfer is aborted (an upload is never committed
    /// after this); the session closes once nothing is outstanding.
    pub fn handle_control_closed(&mut self, now: Instant) {
        if !self.io.live() {
            return;
        }
        self.io.client_gone();
        match self.work.busy {
            Busy::Idle | Busy::LoginDelay(_) => self.close(CLIENT_GONE),
            Busy::Op(_) => {}
            Busy::Transfer(_) => self.abort_transfer(now, AbortCause::ControlClosed),
        }
    }

    /// The result of the outstanding [`crate::Op`].
    pub fn handle_op(&mut self, now: Instant, result: OpResult) {
        if self.io.is_closed() {
            return;
        }
        // No operation was asked for: a driver bug, ignored.
        let Some(pending) = self.work.take_pending() else {
            return;
        };
        self.op_done(now, pending, result);
        if self.io.control_closed {
            if self.work.is_idle() {
                self.close(CLIENT_GONE);
            }
            return;
        }
        self.process(now);
    }

    /// What the driver reports about the running transfer.
    pub fn handle_data(&mut self, now: Instant, ev: DataEvent) {
        if self.io.is_closed() {
            return;
        }
        if self.data_event(now, ev) {
            self.process(now);
        }
    }

    /// The deadline from [`ServerSession::poll_timeout`] has come.
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.io.is_closed() {
            return;
        }
        match &self.work.busy {
            Busy::Idle if now >= self.io.idle_deadline() && !self.io.control_closed => {
                tracing::info!(peer = %self.peer, "idle timeout");
                self.reply(ReplyCode::UNAVAILABLE, Msg::Idle);
                self.close("idle timeout");
            }
            Busy::LoginDelay(at) if now >= *at => {
                self.work.busy = Busy::Idle;
                self.reply(ReplyCode::NOT_LOGGED_IN, Msg::LoginFailed);
                self.process(now);
            }
            Busy::Transfer(t) if t.abort.is_none() && self.io.shutdown.is_some_and(|d| now >= d) => {
                self.abort_transfer(now, AbortCause::Shutdown);
            }
            _ => {}
        }
    }

    /// The server is stopping: no new command runs; a running transfer
    /// may finish until `deadline`, then it is cut (426); then 421.
    pub fn handle_shutdown(&mut self, now: Instant, deadline: Instant) {
        if self.io.is_closed() {
            return;
        }
        if let Some(d) = self.io.shutdown {
            // A second signal: the deadline only comes sooner (a forced
            // stop cuts the transfers now).
            self.io.shutdown = Some(d.min(deadline));
            return;
        }
        self.io.shutdown = Some(deadline);
        self.io.clear_queue();
        match self.work.busy {
            Busy::Idle | Busy::LoginDelay(_) => {
                self.work.busy = Busy::Idle;
                self.process(now);
            }
            Busy::Op(_) | Busy::Transfer(_) => {}
        }
    }

    /// An administrator ends this session (the admin API's `DELETE
    /// sessions/{id}`): no new command runs, a running transfer is cut at
    /// once (426), then 421 and the connection closes.
    pub fn handle_end(&mut self, now: Instant) {
        if self.io.is_closed() {
            return;
        }
        self.io.ended_by_admin = true;
        self.handle_shutdown(now, now);
        if matches!(&self.work.busy, Busy::Transfer(t) if t.abort.is_none()) {
            self.abort_transfer(now, AbortCause::Shutdown);
        }
    }

    /// When to call [`ServerSession::handle_timeout`].
    pub fn poll_timeout(&self) -> Option<Instant> {
        if self.io.is_closed() {
            return None;
        }
        match &self.work.busy {
            Busy::Idle if !self.io.control_closed => Some(self.io.idle_deadline()),
            Busy::LoginDelay(at) => Some(*at),
            Busy::Transfer(t) if t.abort.is_none() => self.io.shutdown,
            _ => None,
        }
    }

    /// Runs queued lines while idle and frames more input.
    fn process(&mut self, now: Instant) {
        loop {
            if !self.io.live() {
                return;
            }
            if self.work.is_idle() {
                if self.io.shutdown.is_some() {
                    if self.io.ended_by_admin {
                        self.reply(ReplyCode::UNAVAILABLE, Msg::EndedByAdmin);
                        self.close("ended by an administrator");
                    } else {
                        self.reply(ReplyCode::UNAVAILABLE, Msg::ShuttingDown);
                        self.close("server shutting down");
                    }
                    return;
                }
                if let Some(q) = self.io.next_queued() {
                    match q {
                        Queued::Line(l) => self.run_line(now, &l),
                        Queued::TooLong => {
                            self.reply(ReplyCode::SYNTAX_ERROR, Msg::LineTooLong);
                            self.action(Action::Hostile(Hostile::LongLine));
                        }
                    }
                    continue;
                }
            }
            match self.io.frame(now, self.cfg.idle_timeout) {
                Framed::Nothing => return,
                Framed::Again => {}
                Framed::Line(l) => {
                    if self.work.in_transfer() && self.during_transfer(now, &l) {
                        self.io.took_urgent();
                        continue;
                    }
                    self.io.enqueue(Queued::Line(l));
                }
            }
        }
    }

    /// A line while a transfer runs: ABOR, STAT and QUIT act at once
    /// (RFC 959 4.1.3); `false` leaves the line queued for later.
    fn during_transfer(&mut self, now: Instant, line: &[u8]) -> bool {
        match Command::parse(line) {
            // A second ABOR while the first is being carried out waits its
            // turn (then 225: no transfer), so it too gets its reply.
            Ok(Command::Abor) if self.work.transfer_uncut() => {
                self.abort_transfer(now, AbortCause::Abor);
                true
            }
            Ok(Command::Quit) => {
                // RFC 959 QUIT: "If file transfer is in progress, the
                // connection will remain open for result response and the
                // server will then close it."
                self.io.quit_after = true;
                true
            }
            Ok(Command::Stat(None)) => {
                let r = self.status();
                self.send(&r);
                true
            }
            _ => false,
        }
    }
}
