//! Listings, downloads and uploads over a data connection, at an even
//! pace under a rate limit.

use std::time::Duration;

use babelftp_i18n::detect::{detect_names, Detected};
use babelftp_i18n::Charset;
use babelftp_proto::command::Command;
use babelftp_proto::feat::Feature;
use babelftp_proto::listing::parse::{parse_listing, ParsedKind};
use babelftp_proto::path::WirePath;
use babelftp_proto::reply::{Reply, ReplyCode};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::data::{read_data, read_to_end, DATA_OPEN_TIMEOUT};
use super::{ok, Client, RemoteEntry, StoreMode};
use crate::control::Error;
use crate::tls::Stream;

/// Keeps a transfer at or under a rate: after each piece, waits until the
/// clock has caught up with the octets moved so far.
struct Pace {
    rate: Option<u64>,
    start: tokio::time::Instant,
}

impl Pace {
    fn new(rate: Option<u64>) -> Pace {
        Pace {
            rate: rate.filter(|&r| r > 0),
            start: tokio::time::Instant::now(),
        }
    }

    /// How much to move at a time: a tenth of a second's worth (at least
    /// 1 KiB), so the rate is even, not bursts of a whole buffer.
    fn piece(&self, buf: usize) -> usize {
        match self.rate {
            Some(r) => usize::try_from(r / 10).unwrap_or(buf).clamp(1024, buf),
            None => buf,
        }
    }

    async fn after(&self, total: u64) {
        if let Some(r) = self.rate {
            let due = self.start + Duration::from_secs_f64(total as f64 / r as f64);
            tokio::time::sleep_until(due).await;
        }
    }
}

impl Client {
    /// Lists a directory: MLSD when the server offers MLST, else LIST.
    pub async fn list(&mut self, dir: Option<&[u8]>) -> Result<Vec<RemoteEntry>, Error> {
        let path = dir.map(|d| WirePath::new(d.to_vec()));
        let mlsd = self.features.has(&Feature::Mlst(Vec::new()));
        let cmd = if mlsd { Command::Mlsd(path) } else { Command::List(path) };
        self.ensure_resumable().await?;
        let mut stream = self.data_command(cmd).await?;
        let mut data = Vec::new();
        read_to_end(&mut stream, &mut data).await?;
        drop(stream);
        self.finish().await?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        Ok(parse_listing(&data, now, mlsd)
            .into_iter()
            .filter(|e| !matches!(e.kind, ParsedKind::CurrentDir | ParsedKind::ParentDir))
            .filter(|e| e.name != b"." && e.name != b"..")
            .map(|e| RemoteEntry {
                is_dir: matches!(e.kind, ParsedKind::Dir),
                is_link: matches!(e.kind, ParsedKind::Symlink { .. }),
                name: e.name,
                size: e.size,
                modified: e.modified,
            })
            .collect())
    }

    /// Downloads `file` from `offset` into `out`; `progress` gets the
    /// running count. Returns the octets received.
    pub async fn retr<W: AsyncWrite + Unpin>(
        &mut self,
        file: &[u8],
        offset: u64,
        out: &mut W,
        progress: &mut (dyn FnMut(u64) + Send),
    ) -> Result<u64, Error> {
        self.ensure_resumable().await?;
        if offset > 0 {
            let r = self.control.command(&Command::Rest(offset)).await?;
            if r.code != ReplyCode::PENDING {
                return Err(Error::Refused(r));
            }
        }
        let mut stream = self.data_command(Command::Retr(WirePath::new(file.to_vec()))).await?;
        let mut buf = vec![0u8; FIRST_BUF];
        let mut text = Vec::new();
        let mut lines = babelftp_proto::ascii::CrlfToLf::default();
        let mut total = 0u64;
        let pace = Pace::new(self.origin.opts.rate_limit);
        let piece = pace.piece(MAX_BUF);
        loop {
            let want = piece.min(buf.len());
            let n = read_data(&mut stream, &mut buf[..want]).await?;
            if n == 0 {
                break;
            }
            grow(&mut buf, n, piece);
            if self.ascii {
                text.clear();
                lines.push(&buf[..n], &mut text);
                out.write_all(&text).await?;
            } else {
                out.write_all(&buf[..n]).await?;
            }
            total += n as u64;
            progress(total);
            pace.after(total).await;
        }
        text.clear();
        lines.finish(&mut text);
        out.write_all(&text).await?;
        out.flush().await?;
        drop(stream);
        self.finish().await?;
        Ok(total)
    }

    /// Uploads `input` to `file`. Returns the octets sent.
    pub async fn stor<R: AsyncRead + Unpin>(
        &mut self,
        file: &[u8],
        mode: StoreMode,
        input: &mut R,
        progress: &mut (dyn FnMut(u64) + Send),
    ) -> Result<u64, Error> {
        Ok(self.stor_then(file, mode, input, progress, None).await?.0)
    }

    /// Uploads `input` to `file`, then sets its modification time to
    /// `time` (Unix seconds) as [`Client::set_modified`] does. To babelftp
    /// the MFMT goes right behind the data (see [`Client::finish_upload`]):
    /// a mirror's upload costs no round trip more than one without times.
    /// Returns the octets sent and whether the time was set.
    pub async fn stor_with_time<R: AsyncRead + Unpin>(
        &mut self,
        file: &[u8],
        input: &mut R,
        time: i64,
    ) -> Result<(u64, bool), Error> {
        let mfmt = self.features.has(&Feature::Mfmt).then(|| Command::Mfmt {
            time,
            path: WirePath::new(file.to_vec()),
        });
        let (n, reply) = self
            .stor_then(file, StoreMode::Replace, input, &mut |_| {}, mfmt)
            .await?;
        let set = match reply {
            Some(r) => match r.code {
                ReplyCode::SYNTAX_ERROR | ReplyCode::NOT_IMPLEMENTED | ReplyCode::PARAMETER_NOT_IMPLEMENTED => false,
                _ => ok(r).map(|_| true)?,
            },
            None => self.set_modified(file, time).await?,
        };
        Ok((n, set))
    }

    /// An upload, and `next` sent behind it where that is safe; the octets
    /// sent and `next`'s reply when it went (else the caller sends it).
    async fn stor_then<R: AsyncRead + Unpin>(
        &mut self,
        file: &[u8],
        mode: StoreMode,
        input: &mut R,
        progress: &mut (dyn FnMut(u64) + Send),
        next: Option<Command>,
    ) -> Result<(u64, Option<Reply>), Error> {
        self.ensure_resumable().await?;
        let path = WirePath::new(file.to_vec());
        let cmd = match mode {
            StoreMode::Replace => Command::Stor(path),
            StoreMode::Append => Command::Appe(path),
            StoreMode::At(n) => {
                let r = self.control.command(&Command::Rest(n)).await?;
                if r.code != ReplyCode::PENDING {
                    return Err(Error::Refused(r));
                }
                Command::Stor(path)
            }
        };
        let mut stream = self.data_command(cmd).await?;
        let mut buf = vec![0u8; FIRST_BUF];
        let mut text = Vec::new();
        let mut total = 0u64;
        let pace = Pace::new(self.origin.opts.rate_limit);
        let piece = pace.piece(MAX_BUF);
        loop {
            let want = piece.min(buf.len());
            let n = input.read(&mut buf[..want]).await?;
            if n == 0 {
                break;
            }
            grow(&mut buf, n, piece);
            if self.ascii {
                text.clear();
                babelftp_proto::ascii::lf_to_crlf(&buf[..n], &mut text);
                stream.write_all(&text).await?;
            } else {
                stream.write_all(&buf[..n]).await?;
            }
            total += n as u64;
            progress(total);
            pace.after(total).await;
        }
        // With TLS: close_notify, which tells the server the upload is
        // whole; then read until the server closes, so that nothing it sent
        // (TLS 1.3 tickets) is left unread, which would make our kernel
        // answer with a reset and cost the upload's tail.
        stream.shutdown().await?;
        if let Stream::Tls(_) = stream {
            // Read and drop (a server that keeps sending is cut by the
            // timeout; nothing is kept).
            let mut sink = tokio::io::sink();
            let _ = tokio::time::timeout(DATA_OPEN_TIMEOUT, tokio::io::copy(&mut stream, &mut sink)).await;
        }
        drop(stream);
        let next = self.finish_upload(next).await?;
        Ok((total, next))
    }

    /// Reads the final reply of an upload whose data connection is closed;
    /// `next`'s reply too when it was sent behind the upload.
    ///
    /// To babelftp, over a plain control connection, a command goes right
    /// behind the upload (`next`, or a NOOP): a server cannot tell a killed
    /// client's data FIN from a whole upload's, so babelftp waits a moment
    /// for a control FIN before it commits, and any octet from the client
    /// ends that wait. babelftp answers commands that came during a
    /// transfer after its final reply, in order. Only to babelftp (its
    /// greeting names it, as lftp tells servers by theirs): others may
    /// answer a command sent during a transfer at once (Pure-FTPd: 500),
    /// or drop it, and a reply that never comes would hang here.
    async fn finish_upload(&mut self, next: Option<Command>) -> Result<Option<Reply>, Error> {
        let babelftp = self
            .control
            .greeting
            .lines
            .iter()
            .any(|l| l.windows(8).any(|w| w == b"babelftp"));
        if !babelftp || !matches!(self.control.stream(), Stream::Plain(_)) {
            self.finish().await?;
            return Ok(None);
        }
        let noop = next.is_none();
        self.control.send(next.as_ref().unwrap_or(&Command::Noop)).await?;
        let done = self.control.reply().await?;
        if done.code == ReplyCode::UNAVAILABLE {
            // Closing: no reply to what was sent behind.
            return Err(Error::Refused(done));
        }
        // What was sent behind is answered whatever became of the upload,
        // and read so that the replies stay in step.
        let behind = self.control.reply().await;
        ok(done)?;
        match behind {
            Ok(r) if !noop => Ok(Some(r)),
            Ok(_) => Ok(None),
            // A connection that fails now fails the next command, not this
            // upload; `next` is sent again then.
            Err(_) if noop => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Guesses the charset of the names in `entries` (display only).
    pub fn guess_charset(entries: &[RemoteEntry]) -> Option<Charset> {
        match detect_names(entries.iter().map(|e| e.name.as_slice())) {
            Detected::Legacy(c) => Some(c),
            Detected::Ascii | Detected::Utf8 => None,
        }
    }
}

/// A transfer's first buffer: a small file (the many files of a mirror)
/// costs no zeroed 256 KiB (the memset was the client's largest
/// user-space cost in a mirror of 10,000 small files).
const FIRST_BUF: usize = 16 * 1024;
/// The largest a transfer's buffer grows.
const MAX_BUF: usize = 256 * 1024;

/// After a read of `n` octets into `buf`: a read that filled it makes it
/// four times larger, up to `piece` (a paced transfer's piece, else
/// [`MAX_BUF`]).
fn grow(buf: &mut Vec<u8>, n: usize, piece: usize) {
    if n == buf.len() && buf.len() < piece {
        buf.resize((buf.len() * 4).min(piece), 0);
    }
}
