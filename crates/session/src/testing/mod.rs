//! Deterministic drivers for tests and fuzzing: an in-memory storage, a
//! simulated clock, a scripted data side, and the invariants every step
//! must keep. Not part of the API (`#[doc(hidden)]`): the crate's tests,
//! its property test and the `session` fuzz target run on it.

use std::io::ErrorKind;
use std::sync::Arc;
use std::time::{Duration, Instant};

use babelftp_i18n::lang::Catalogs;
use babelftp_proto::line::Status;
use babelftp_proto::reply::{Reply, ReplyReader};

use crate::{
    Action, DataEvent, NoConnection, Op, OpOk, OpResult, Outcome, ServerSession, SessionConfig, TransferKind,
    TransferSpec, VPath, WriteMode,
};

mod fuzz;
mod memfs;

pub use fuzz::fuzz_session;
pub use memfs::{MemFs, DEFAULT_MTIME};

/// The data side of a transfer as the harness plays it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Stage {
    /// StartTransfer came; Opened not yet sent.
    Start,
    /// Opened sent; bytes would be moving.
    Running,
    /// UploadReceived sent; waiting for Commit/Discard.
    Received,
    /// Commit/Discard/Abort came; Ended not yet sent.
    Finishing(Outcome),
}

/// A session under test: the machine, a clock, a [`MemFs`], a scripted
/// data side and an invariant checker over everything it emits.
pub struct Harness {
    /// The machine.
    pub s: ServerSession,
    /// Simulated time.
    pub now: Instant,
    /// The storage behind it.
    pub fs: MemFs,
    /// Bytes an upload receives.
    pub upload: Vec<u8>,
    /// What downloads and listings sent, in order.
    pub sent: Vec<Vec<u8>>,
    /// Transfers stay Running until [`Harness::finish_transfer`] (to test
    /// ABOR, QUIT and STAT during a transfer).
    pub hold: bool,
    /// Every action, in order.
    pub actions: Vec<Action>,
    /// Every output byte, in order.
    pub wire: Vec<u8>,
    reader: ReplyReader,
    replies: Vec<Reply>,
    taken: usize,
    op: Option<Op>,
    transfer: Option<(TransferSpec, Stage)>,
    /// An Opened was delivered for the current transfer.
    opened: bool,
    uploads_received: Vec<u64>,
    aborted: Vec<u64>,
    control_closed: bool,
    closed: bool,
    passive: bool,
}

impl Harness {
    /// A session with the builtin catalogs and test timeouts (idle 300 s,
    /// failed login 1 s), anonymous read-only and `bob`/`secret`.
    pub fn new() -> Self {
        Self::with(|_| {})
    }

    /// Like [`Harness::new`], with the configuration tuned.
    pub fn with(tune: impl FnOnce(&mut SessionConfig)) -> Self {
        Self::build(tune, false)
    }

    /// A session on the implicit-FTPS port (TLS from the start).
    pub fn with_implicit(tune: impl FnOnce(&mut SessionConfig)) -> Self {
        Self::build(tune, true)
    }

    fn build(tune: impl FnOnce(&mut SessionConfig), implicit: bool) -> Self {
        // Parsing every catalog costs milliseconds: once per process.
        static CATALOGS: std::sync::OnceLock<Arc<Catalogs>> = std::sync::OnceLock::new();
        let catalogs = CATALOGS.get_or_init(|| {
            Catalogs::builtin()
                .map(Arc::new)
                .unwrap_or_else(|e| panic!("catalogs: {e}"))
        });
        let mut cfg = SessionConfig::new(catalogs.clone());
        tune(&mut cfg);
        let now = Instant::now();
        let peer = "127.0.0.1:50000".parse().unwrap_or_else(|e| panic!("{e}"));
        let local = "127.0.0.1:21".parse().unwrap_or_else(|e| panic!("{e}"));
        let s = if implicit {
            ServerSession::new_implicit_tls(Arc::new(cfg), peer, local, now)
        } else {
            ServerSession::new(Arc::new(cfg), peer, local, now)
        };
        let mut h = Harness {
            s,
            now,
            fs: MemFs::default(),
            upload: b"uploaded data".to_vec(),
            sent: Vec::new(),
            hold: false,
            actions: Vec::new(),
            wire: Vec::new(),
            reader: ReplyReader::new(1 << 20, 1 << 16),
            replies: Vec::new(),
            taken: 0,
            op: None,
            transfer: None,
            opened: false,
            uploads_received: Vec::new(),
            aborted: Vec::new(),
            control_closed: false,
            closed: false,
            passive: false,
        };
        h.pump();
        h
    }

    /// Sends `line` and CR LF, then plays the driver until nothing moves.
    pub fn send(&mut self, line: &[u8]) {
        let mut l = line.to_vec();
        l.extend_from_slice(b"\r\n");
        self.input(&l);
        self.settle();
    }

    /// Sends `line`, plays the driver, and returns the replies' codes.
    pub fn codes(&mut self, line: &[u8]) -> Vec<u16> {
        self.send(line);
        self.take().iter().map(|r| r.code.get()).collect()
    }

    /// Feeds raw control bytes (without playing the driver).
    pub fn input(&mut self, bytes: &[u8]) {
        self.s.handle_input(self.now, bytes);
        self.pump();
    }

    /// The replies since the last call.
    pub fn take(&mut self) -> Vec<Reply> {
        let r = self.replies[self.taken..].to_vec();
        self.taken = self.replies.len();
        r
    }

    /// Every reply so far.
    pub fn replies(&self) -> &[Reply] {
        &self.replies
    }

    /// Moves the clock and wakes the session if its deadline has come.
    pub fn advance(&mut self, d: Duration) {
        self.now += d;
        if self.s.poll_timeout().is_some_and(|t| t <= self.now) {
            self.s.handle_timeout(self.now);
            self.pump();
        }
    }

    /// The control connection closes.
    pub fn close_control(&mut self) {
        self.control_closed = true;
        self.s.handle_control_closed(self.now);
        self.pump();
        self.settle();
    }

    /// The server begins to shut down with `grace`.
    pub fn shutdown(&mut self, grace: Duration) {
        self.s.handle_shutdown(self.now, self.now + grace);
        self.pump();
        self.settle();
    }

    /// An administrator ends the session (the admin API).
    pub fn end(&mut self) {
        self.s.handle_end(self.now);
        self.pump();
        self.settle();
    }

    /// Whether the session has closed.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// Whether the harness holds a running transfer.
    pub fn transfer_running(&self) -> bool {
        self.transfer.is_some()
    }

    /// Lets a held transfer finish (the data all moved).
    pub fn finish_transfer(&mut self) {
        let hold = std::mem::replace(&mut self.hold, false);
        self.settle();
        self.hold = hold;
    }

    /// Plays the driver: answers operations from the [`MemFs`] and runs
    /// transfers, until nothing moves.
    pub fn settle(&mut self) {
        for _ in 0..1000 {
            if self.closed {
                return;
            }
            if let Some(op) = self.op.take() {
                let r = self.fs.run(&op);
                if matches!(op, Op::BindPassive { .. }) && r.is_ok() {
                    self.passive = true;
                }
                self.s.handle_op(self.now, r);
                self.pump();
                continue;
            }
            if !self.step_transfer() {
                return;
            }
        }
        panic!("the session did not settle in 1000 steps");
    }

    /// One step of the scripted data side; false when it waits.
    fn step_transfer(&mut self) -> bool {
        let Some((spec, stage)) = self.transfer.clone() else {
            return false;
        };
        let id = spec.id;
        match stage {
            Stage::Start => {
                match self.open(&spec) {
                    Ok(path) => {
                        self.set_stage(Stage::Running);
                        if let (
                            Some(p),
                            Some((
                                TransferSpec {
                                    kind: TransferKind::Stor { path: target, .. },
                                    ..
                                },
                                _,
                            )),
                        ) = (&path, self.transfer.as_mut())
                        {
                            *target = p.clone();
                        }
                        self.event(DataEvent::Opened { id, path });
                    }
                    Err(error) => {
                        self.transfer = None;
                        self.event(DataEvent::OpenFailed { id, error });
                    }
                }
                true
            }
            Stage::Running if self.hold => false,
            Stage::Running => {
                let passive_ok = match spec.source {
                    crate::DataSource::Passive => std::mem::take(&mut self.passive),
                    crate::DataSource::Active(_) => true,
                };
                if !passive_ok {
                    self.finish(id, 0, Outcome::NoConnection(NoConnection::Failed));
                    return true;
                }
                match &spec.kind {
                    TransferKind::Stor { .. } => {
                        self.set_stage(Stage::Received);
                        self.uploads_received.push(id);
                        let bytes = self.upload.len() as u64;
                        self.event(DataEvent::UploadReceived { id, bytes });
                    }
                    TransferKind::Retr { path, offset } => {
                        let data = self.fs.file(&path.to_bytes()).unwrap_or_default();
                        let start = usize::try_from(*offset).unwrap_or(usize::MAX).min(data.len());
                        let data = data[start..].to_vec();
                        let n = data.len() as u64;
                        self.sent.push(data);
                        self.finish(id, n, Outcome::Complete);
                    }
                    TransferKind::List { path, render } => {
                        // The lines as the session's renderer writes them
                        // (its format, permissions and charset).
                        let mut out = Vec::new();
                        let lines = render.clone().at(memfs::NOW);
                        if let Ok(OpOk::Entries { entries: es, .. }) = self.fs.run(&Op::Entries(path.clone())) {
                            for mut e in es {
                                lines.line(&mut e, &mut out);
                            }
                        }
                        let n = out.len() as u64;
                        self.sent.push(out);
                        self.finish(id, n, Outcome::Complete);
                    }
                }
                true
            }
            Stage::Received => false,
            Stage::Finishing(outcome) => {
                let bytes = if spec.kind.is_upload() {
                    self.upload.len() as u64
                } else {
                    0
                };
                self.finish(id, bytes, outcome);
                true
            }
        }
    }

    fn open(&mut self, spec: &TransferSpec) -> Result<Option<VPath>, ErrorKind> {
        match &spec.kind {
            TransferKind::Retr { path, .. } => match self.fs.nodes.get(path) {
                Some(Some(_)) => Ok(None),
                Some(None) => Err(ErrorKind::IsADirectory),
                None => Err(ErrorKind::NotFound),
            },
            TransferKind::Stor { path, mode } => {
                if !self.fs.is_dir(&path.parent()) {
                    return Err(ErrorKind::NotFound);
                }
                if self.fs.is_dir(path) {
                    return Err(ErrorKind::IsADirectory);
                }
                if *mode == WriteMode::New && self.fs.nodes.contains_key(path) {
                    return Err(ErrorKind::AlreadyExists);
                }
                if *mode != WriteMode::Unique {
                    return Ok(None);
                }
                // The session's candidates, as the driver tries them.
                crate::UniqueNames::new(path)
                    .find(|c| !self.fs.nodes.contains_key(c))
                    .map(Some)
                    .ok_or(ErrorKind::AlreadyExists)
            }
            TransferKind::List { path, render } => match self.fs.nodes.get(path) {
                None => Err(ErrorKind::NotFound),
                Some(Some(_)) if render.needs_dir() => Err(ErrorKind::NotADirectory),
                Some(_) => Ok(None),
            },
        }
    }

    fn set_stage(&mut self, stage: Stage) {
        if let Some((_, s)) = self.transfer.as_mut() {
            *s = stage;
        }
    }

    fn finish(&mut self, id: u64, bytes: u64, outcome: Outcome) {
        self.transfer = None;
        self.passive = false;
        self.event(DataEvent::Ended { id, bytes, outcome });
    }

    fn event(&mut self, ev: DataEvent) {
        if matches!(ev, DataEvent::Opened { id, .. } if Some(id) == self.transfer_id()) {
            self.opened = true;
        }
        self.s.handle_data(self.now, ev);
        self.pump();
    }

    /// Takes output and actions, checking the invariants on each.
    fn pump(&mut self) {
        let out = self.s.output().to_vec();
        self.s.consume_output(out.len());
        if !out.is_empty() {
            assert!(!self.closed, "output after close: {:?}", out.escape_ascii().to_string());
            assert!(!self.control_closed, "output after the control connection closed");
            self.wire.extend_from_slice(&out);
            let mut rest = &out[..];
            while !rest.is_empty() {
                let (n, st) = self.reader.advance(rest);
                rest = &rest[n..];
                match st {
                    Status::Partial => break,
                    Status::Complete(Ok(r)) => {
                        if let Some(prev) = self.replies.last() {
                            assert!(
                                !(prev.code.is_preliminary() && r.code.is_preliminary()),
                                "two 1xx replies in a row: {prev:?} {r:?}"
                            );
                        }
                        self.replies.push(r);
                    }
                    Status::Complete(Err(e)) => panic!("malformed reply on the wire: {e:?}"),
                }
            }
        }
        while let Some(a) = self.s.poll_action() {
            self.check(&a);
            self.actions.push(a);
        }
    }

    /// The last actions and replies, for a failed invariant's message.
    fn context(&self) -> String {
        let actions: Vec<String> = self
            .actions
            .iter()
            .rev()
            .take(12)
            .rev()
            .map(|a| format!("{a:?}"))
            .collect();
        format!(
            "\nharness transfer: {:?}\nlast actions:\n  {}\nwire:\n{}",
            self.transfer,
            actions.join("\n  "),
            String::from_utf8_lossy(&self.wire[self.wire.len().saturating_sub(2048)..])
        )
    }

    /// The invariants of one action.
    fn check(&mut self, a: &Action) {
        assert!(!self.closed, "action after close: {a:?}");
        match a {
            Action::Op(op) => {
                assert!(self.op.is_none(), "two operations at once: {op:?}");
                assert!(self.transfer.is_none(), "an operation during a transfer: {op:?}");
                for p in op_paths(op) {
                    assert!(p.is_confined(), "path outside the root: {p:?}");
                }
                self.op = Some(op.clone());
            }
            Action::StartTransfer(spec) => {
                assert!(self.transfer.is_none(), "two transfers at once");
                assert!(self.op.is_none(), "a transfer during an operation");
                assert!(spec.kind.path().is_confined(), "path outside the root");
                self.transfer = Some((spec.clone(), Stage::Start));
                self.opened = false;
            }
            Action::Commit(id) => {
                assert!(!self.control_closed, "commit after the control connection closed");
                assert!(!self.aborted.contains(id), "commit after abort");
                assert!(
                    self.uploads_received.contains(id),
                    "commit before the upload was received"
                );
                self.set_stage(Stage::Finishing(Outcome::Complete));
                if let Some((
                    TransferSpec {
                        kind: TransferKind::Stor { path, mode },
                        ..
                    },
                    _,
                )) = &self.transfer
                {
                    let mut data = match mode {
                        WriteMode::Append => self.fs.file(&path.to_bytes()).unwrap_or_default().to_vec(),
                        WriteMode::At(n) => {
                            let mut d = self.fs.file(&path.to_bytes()).unwrap_or_default().to_vec();
                            d.truncate(usize::try_from(*n).unwrap_or(usize::MAX));
                            d
                        }
                        _ => Vec::new(),
                    };
                    data.extend_from_slice(&self.upload);
                    let p = path.clone();
                    self.fs.put(p, data);
                }
            }
            Action::Discard(id) => {
                if self.transfer.as_ref().is_some_and(|(s, _)| s.id == *id) {
                    self.set_stage(Stage::Finishing(Outcome::Aborted));
                }
            }
            Action::AbortTransfer(id) => {
                self.aborted.push(*id);
                if self.transfer.as_ref().is_some_and(|(s, _)| s.id == *id) {
                    self.set_stage(Stage::Finishing(Outcome::Aborted));
                }
            }
            Action::ReleasePassive => self.passive = false,
            Action::Close => {
                assert!(
                    self.op.is_none(),
                    "closed with an operation outstanding{}",
                    self.context()
                );
                assert!(
                    self.transfer.is_none(),
                    "closed with a transfer outstanding{}",
                    self.context()
                );
                self.closed = true;
            }
            Action::StartTls => {
                assert!(self.transfer.is_none(), "TLS started during a transfer");
            }
            Action::EndTls => {
                assert!(self.transfer.is_none(), "TLS ended during a transfer");
            }
            Action::SelectRoot(_) | Action::Log(_) | Action::Hostile(_) => {}
        }
    }
}

impl Default for Harness {
    fn default() -> Self {
        Self::new()
    }
}

fn op_paths(op: &Op) -> Vec<&VPath> {
    match op {
        Op::Stat(p) | Op::IsDir(p) | Op::Entries(p) | Op::Mkdir(p) | Op::Rmdir(p) | Op::RemoveFile(p) => vec![p],
        Op::EnterHome(p) | Op::Chmod { path: p, .. } | Op::SetModified { path: p, .. } => vec![p],
        Op::Rename { from, to, .. } => vec![from, to],
        Op::VerifyPassword { .. } | Op::BindPassive { .. } | Op::Quota => vec![],
    }
}

impl Harness {
    /// Answers the outstanding operation with `r` (nothing if none).
    pub fn answer_op(&mut self, r: OpResult) {
        if self.op.take().is_some() {
            self.s.handle_op(self.now, r);
            self.pump();
        }
    }

    /// Feeds a data event as a (possibly misbehaving) driver would.
    pub fn data_event(&mut self, ev: DataEvent) {
        let current = self.transfer.as_ref().map(|(s, _)| s.id);
        let start = matches!(self.transfer, Some((_, Stage::Start)));
        match &ev {
            DataEvent::UploadReceived { id, .. } => self.uploads_received.push(*id),
            DataEvent::Opened { id, .. } if Some(*id) == current && start => self.set_stage(Stage::Running),
            // OpenFailed ends a transfer only before it opened (the
            // driver's contract); after, the transfer is still there.
            DataEvent::OpenFailed { id, .. } if Some(*id) == current && !self.opened => {
                self.transfer = None;
            }
            DataEvent::Ended { id, .. } if Some(*id) == current => {
                self.transfer = None;
                self.passive = false;
            }
            _ => {}
        }
        self.event(ev);
    }

    /// The id of the transfer the harness holds.
    pub fn transfer_id(&self) -> Option<u64> {
        self.transfer.as_ref().map(|(s, _)| s.id)
    }

    /// Plays the driver to the end of everything outstanding; a transfer
    /// stuck waiting (a misbehaving driver's doing) is ended.
    pub fn quiesce(&mut self) {
        self.hold = false;
        for _ in 0..8 {
            self.settle();
            if let Some(id) = self.transfer_id() {
                self.finish(id, 0, Outcome::Aborted);
                continue;
            }
            // A failed login's delay (shorter than the idle timeout).
            match self.s.poll_timeout() {
                Some(t) if !self.closed && t <= self.now + Duration::from_secs(2) => {
                    self.now = t;
                    self.s.handle_timeout(self.now);
                    self.pump();
                }
                _ => break,
            }
        }
    }

    /// Whether nothing is outstanding: no operation, no transfer.
    pub fn released(&self) -> bool {
        self.op.is_none() && self.transfer.is_none()
    }
}
