//! The end of an upload without a wait: the 226 first, what the name held
//! kept until the client shows it has read it.
//!
//! A killed client's kernel ends its data connection with a FIN, as a
//! whole upload ends, and its control connection at about the same time.
//! When that control FIN has not arrived by the time the data's end is
//! seen (the dying process was descheduled between its two closes), the
//! upload looks whole. Rather than wait a fixed time for a FIN that a live
//! client never sends (every client but ours waits for the 226 before it
//! speaks: a 10 ms wait cost lftp, curl or FileZilla 10 ms a file), the
//! upload commits at once and its 226 goes out, with the replaced file
//! kept under its temporary name ([`crate::storage::Held`]). Then TCP
//! tells which client it was:
//! - any octet from the client: it was alive after its data ended, so the
//!   data's end was its own; the upload stands (the replaced file goes);
//! - a clean FIN whose acknowledgement covers the 226 (nothing we sent is
//!   unacknowledged): the client's socket took the 226 and was closed with
//!   nothing left unread (else its kernel would have sent a reset), so
//!   the client read it; the upload stands;
//! - a reset, or a FIN that left the 226 unacknowledged (the client's
//!   socket was closed before the 226 reached it), or a write error: the
//!   client never read its 226; the name gets back what it held before
//!   (nothing, for a new name), unless another change came since;
//! - nothing within [`HOLD_FOR`]: a dying process has long closed its
//!   sockets by then; the upload stands.
//!
//! The upload's log line, xferlog line and event wait for the verdict (an
//! undone upload is recorded as incomplete, and no event announces a
//! file that is not there; under a quota, the account goes back too). Uploads that cannot be held (over TLS, where a
//! cut upload lacks its close_notify; APPE, REST+STOR and STOU, written
//! in place; an object store) keep the earlier rule: a wait of up to `upload_end_wait` for the control FIN.

use super::*;
use babelftp_core::transfer::HeldUpload;

/// How long a held upload waits for the client to show it is alive
/// before it stands anyway.
pub(super) const HOLD_FOR: Duration = Duration::from_secs(2);

/// A committed upload whose client has not yet shown it read its 226.
pub(super) struct Holding {
    held: HeldUpload,
    pub(super) until: tokio::time::Instant,
    /// Its transfer record, written once the verdict is in.
    record: Option<TransferRecord>,
}

/// Uploads kept whose replaced files are still to be removed, after the
/// reply going out, and the large ones being unlinked off the session's
/// path: all done before the session's last reply.
#[derive(Default)]
pub(super) struct Replaced {
    pub(super) kept: Vec<HeldUpload>,
    unlinking: Vec<tokio::task::JoinHandle<()>>,
    /// A small replaced file kept for the next upload to write into, and
    /// until when.
    spare: Option<HeldUpload>,
    spare_until: Option<tokio::time::Instant>,
}

impl Replaced {
    /// Removes what `held` replaced, off the session's path when large.
    fn unlink(&mut self, held: HeldUpload) {
        if let Some(unlink) = held.keep() {
            self.unlinking.retain(|u| !u.is_finished());
            self.unlinking.push(unlink);
        }
    }
}

/// Whether a spare may stay through `op`: a step of a transfer (SIZE,
/// MDTM, CWD's look, MFMT, PASV), not a command that reads or changes a
/// folder.
pub(super) fn keeps_spare(op: &babelftp_session::Op) -> bool {
    use babelftp_session::Op;
    matches!(
        op,
        Op::Stat(_) | Op::IsDir(_) | Op::SetModified { .. } | Op::BindPassive { .. } | Op::Quota
    )
}

/// The largest replaced file kept as a spare.
const SPARE_MAX: u64 = 1 << 20;
/// How long a spare waits for the next upload. A spare is a hidden file
/// in its folder: it is removed before any command but a transfer's own
/// (PASV, PORT, TYPE, SIZE, MDTM, MFMT, STOR, RETR), so that a listing's
/// count or an RMD never meets it, and at the latest after this. (An RMD
/// of its folder by another session or door removes it: the storage
/// knows it for one of its kept files.)
pub(super) const SPARE_FOR: Duration = Duration::from_secs(1);

impl Driver {
    /// At the end of an upload's transfer: its held commit, if any, waits
    /// for a verdict, unless the control connection has already given one.
    pub(super) fn take_held(&mut self, t: &mut Running) {
        let Some(h) = t.held.take().and_then(|mut rx| rx.try_recv().ok()) else {
            return;
        };
        self.held = Some(Box::new(Holding {
            held: h,
            until: tokio::time::Instant::now() + HOLD_FOR,
            record: None,
        }));
        if t.heard {
            self.judge(true);
        } else if self.client_closed {
            self.judge(false);
        }
    }

    /// Keeps a held upload's record until its verdict; false when nothing
    /// is held.
    pub(super) fn hold_record(&mut self, rec: &TransferRecord) -> bool {
        match self.held.as_mut() {
            Some(h) if rec.incoming && h.record.is_none() => {
                h.record = Some(rec.clone());
                true
            }
            _ => false,
        }
    }

    /// What the control connection showed of a held upload's client: the
    /// first verdict counts (`keep`: it has its 226).
    pub(super) fn judge(&mut self, keep: bool) {
        if self.held.is_some() && self.verdict.is_none() {
            self.verdict = Some(keep);
        }
    }

    /// The client's control connection ended cleanly (FIN): did the
    /// client's socket acknowledge all we sent (the 226) before it closed?
    pub(super) fn closed_cleanly(&mut self) {
        self.client_closed = true;
        if self.held.is_some() {
            let acked = match &self.control {
                Control::Plain(rd, _) => crate::sockopt::unacknowledged(rd.as_ref()).is_ok_and(|n| n == 0),
                _ => false,
            };
            self.judge(acked);
        }
    }

    /// Applies a verdict reached (or, at `end`, the default one: the
    /// upload stands).
    pub(super) async fn settle_hold(&mut self, end: bool) {
        let keep = match self.verdict.take() {
            Some(v) => v,
            None if end => true,
            None => return,
        };
        self.end_hold(keep).await;
    }

    /// Removes what the kept uploads replaced: a small file right here,
    /// a large one on the blocking pool ([`HeldUpload::keep`]). With
    /// `spare`, the last one, when small, stays for [`SPARE_FOR`] as the
    /// session's spare: the next upload into its folder is written into
    /// it ([`Driver::take_spare`]), so a run of overwrites neither makes
    /// nor frees a file each (on ext4, 200 µs an overwrite).
    pub(super) fn remove_replaced(&mut self, spare: bool) {
        let Some(r) = self.replaced.as_mut() else {
            return;
        };
        let mut kept = std::mem::take(&mut r.kept);
        let last = kept.pop();
        for held in kept.into_iter().chain(r.spare.take()) {
            r.unlink(held);
        }
        if let Some(held) = last {
            if spare && held.replaced().is_some_and(|n| n <= SPARE_MAX) {
                r.spare = Some(held);
                r.spare_until = Some(tokio::time::Instant::now() + SPARE_FOR);
            } else {
                r.unlink(held);
            }
        }
        if r.unlinking.is_empty() && r.spare.is_none() {
            self.replaced = None;
        }
    }

    /// The spare an upload may write into ([`Driver::remove_replaced`]).
    pub(super) fn take_spare(&mut self) -> Option<HeldUpload> {
        self.replaced.as_mut().and_then(|r| r.spare.take())
    }

    /// Opens an upload as every door does, given the session's spare.
    pub(super) async fn begin_upload(
        &mut self,
        path: &VPath,
        mode: babelftp_storage::WriteMode,
    ) -> Result<babelftp_core::transfer::Upload, babelftp_core::ServiceError> {
        let spare = self.take_spare();
        self.user().begin_upload_reusing(path, mode, spare).await
    }

    /// When the spare, unused, is removed.
    pub(super) fn spare_until(&self) -> Option<tokio::time::Instant> {
        self.replaced
            .as_ref()
            .filter(|r| r.spare.is_some())
            .and_then(|r| r.spare_until)
    }

    /// Removes what the kept uploads replaced and waits until every
    /// replaced file is gone.
    pub(super) async fn unlinked(&mut self) {
        self.remove_replaced(false);
        if let Some(r) = self.replaced.take() {
            for u in r.unlinking {
                let _ = u.await;
            }
        }
    }

    /// Ends the hold: the upload stands (`keep`) or is undone; then its
    /// record.
    pub(super) async fn end_hold(&mut self, keep: bool) {
        self.verdict = None;
        let Some(h) = self.held.take() else {
            return;
        };
        let Holding { held, record, .. } = *h;
        let path = record.as_ref().map(|r| String::from_utf8_lossy(&r.path).into_owned());
        let undone = if keep {
            // What it replaced goes once the reply now due is out
            // ([`Driver::remove_replaced`]): off the client's wait.
            self.replaced.get_or_insert_with(Default::default).kept.push(held);
            false
        } else {
            match held.undo().await {
                Ok(undone) => {
                    tracing::info!(
                        path = path.as_deref().unwrap_or(""),
                        undone,
                        "upload undone: the client closed its control connection without reading the 226"
                    );
                    undone
                }
                Err(e) => {
                    tracing::warn!(error = %e, "an upload could not be undone");
                    false
                }
            }
        };
        if let Some(mut rec) = record {
            rec.complete &= !undone;
            self.log_transfer(&rec).await;
            if !self.deferred.is_empty() {
                self.emit_deferred().await;
            }
        }
    }
}
