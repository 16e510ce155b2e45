//! The transfer lifecycle every door shares: an upload opened under the
//! account's quota ([`crate::user::UserCtx::begin_upload`]), its bytes
//! through the buffers uploads share ([`Upload::receive`]: the FTP data
//! connection's and the web view's request body alike), its
//! commit, discard or abandonment with the account settled each way, the
//! stall watch, and the record a finished transfer leaves (metrics, log
//! line, xferlog: [`crate::Services::record_transfer`]).

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use babelftp_proto::ascii::CrlfToLf;
use babelftp_session::VPath;
use std::pin::Pin;
use std::task::Poll;

use tokio::io::{AsyncRead, AsyncReadExt, ReadBuf};

use crate::file_size;
use crate::quota::Quota;
use crate::storage::{Held, Storage, StorageError, Upload as StorageUpload};

/// Buffer size of the streaming loops: large enough to keep loopback and
/// LAN links full, allocated once per transfer (less when many transfers
/// run at once: [`Budget`]).
pub const BUF: usize = 256 * 1024;

/// The transfer buffers of the server together: the large ones come from
/// this budget; when it is spent, a transfer gets [`MIN_BUF`]. So 1,000
/// concurrent uploads hold at most 64 MiB + 1,000 × 64 KiB of buffers, not
/// 1,000 MiB.
pub const BUFFER_BUDGET: usize = 64 << 20;
/// The buffer a transfer gets when the budget is spent.
pub const MIN_BUF: usize = 64 * 1024;

static BUDGET_USED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// One running transfer's part of [`BUFFER_BUDGET`], given back when
/// dropped.
pub struct Budget(usize);

impl Budget {
    /// Takes `want` from the budget if it is there, else [`MIN_BUF`]
    /// (outside it); returns the buffer size to use.
    pub fn take(want: usize) -> (Budget, usize) {
        let got = BUDGET_USED.fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
            (used + want <= BUFFER_BUDGET).then_some(used + want)
        });
        match got {
            Ok(_) => (Budget(want), want),
            Err(_) => (Budget(0), want.min(MIN_BUF)),
        }
    }
}

impl Drop for Budget {
    fn drop(&mut self) {
        if self.0 > 0 {
            BUDGET_USED.fetch_sub(self.0, Ordering::AcqRel);
        }
    }
}

/// Why a transfer's copy stopped: the network (the client went away: 426)
/// or the storage (a full or failing disk, an object store that stopped
/// answering: 451/452). Each side's errors are typed where they happen, so
/// nothing is guessed from an `io::Error` afterwards.
#[derive(Debug)]
pub enum Fail {
    Net(io::Error),
    Storage(StorageError),
    /// The account's quota does not allow the next bytes: the upload,
    /// still in its slot, is to be discarded ([`Upload::discard`]).
    Quota,
}

/// Asks the quota's meter (if any) whether the upload may hold `total`
/// bytes.
async fn admit(meter: &mut Option<&mut crate::quota::Meter>, total: u64) -> Result<(), Fail> {
    let Some(m) = meter.as_mut() else {
        return Ok(());
    };
    match m.admit(total).await {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::QuotaExceeded => Err(Fail::Quota),
        Err(e) => Err(Fail::Storage(StorageError::Io(e))),
    }
}

impl From<io::Error> for Fail {
    fn from(e: io::Error) -> Self {
        Fail::Net(e)
    }
}

impl From<StorageError> for Fail {
    fn from(e: StorageError) -> Self {
        Fail::Storage(e)
    }
}

/// A read or write of the storage: its error is the storage's.
pub fn on_storage<T>(r: io::Result<T>) -> Result<T, Fail> {
    r.map_err(|e| Fail::Storage(e.into()))
}

/// Buffer size of uploads (and of local reads for TLS or ASCII
/// downloads).
pub const UPLOAD_BUF: usize = 1 << 20;
/// What an upload keeps of its own before its first write: a small
/// upload, whole, to be written with its commit (and the first buffer of
/// the buffered path, which grows to [`UPLOAD_BUF`]).
const FIRST_UPLOAD_BUF: usize = 16 << 10;

/// Receives an upload: socket → `upload`. In ASCII mode CR LF becomes LF.
/// Returns the octets received, and what is still to be written with the
/// commit: an upload that ends within its first [`FIRST_UPLOAD_BUF`]
/// octets (a small file) is written in the same blocking call as its
/// commit, not in one of its own.
async fn receive<S: AsyncRead + Unpin>(
    stream: &mut S,
    slot: &mut Option<Box<dyn StorageUpload>>,
    ascii: bool,
    progress: &AtomicU64,
    meter: Option<&mut crate::quota::Meter>,
) -> Result<(u64, Vec<u8>), Fail> {
    if ascii {
        return receive_ascii(stream, slot, progress, meter).await;
    }
    // block_in_place needs the multi-threaded runtime (the server's); on a
    // current-thread runtime the blocking pool takes the writes, from a
    // buffer of the upload's own.
    if tokio::runtime::Handle::current().runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread {
        receive_streaming(stream, slot, progress, meter).await
    } else {
        receive_buffered(stream, slot, progress, meter).await
    }
}

/// The buffers uploads are read into, shared by all of them: an upload
/// takes one only once its socket has octets to give, and gives it back
/// as soon as they are written, before it waits for more ([`Scratch`]).
/// Before, each upload held a buffer of its own (16 KiB growing to 1 MiB,
/// from a 64 MiB budget, 64 KiB past it) while it waited on its client:
/// 1,000 concurrent uploads held 44 MiB of buffers, most of it waiting.
/// The kernel's socket buffer already holds what the client sent and we
/// have not written; this buffer only carries it to the file.
static SCRATCH: std::sync::Mutex<Vec<Vec<u8>>> = std::sync::Mutex::new(Vec::new());
/// Buffers kept in [`SCRATCH`] between uses (more are made when more
/// uploads write at once, and freed after).
const SCRATCH_KEPT: usize = 2;

/// A buffer of [`SCRATCH`], given back when dropped.
struct Scratch(Vec<u8>);

impl Scratch {
    fn take() -> Scratch {
        let kept = match SCRATCH.lock() {
            Ok(mut pool) => pool.pop(),
            Err(poisoned) => poisoned.into_inner().pop(),
        };
        Scratch(kept.unwrap_or_else(|| vec![0u8; UPLOAD_BUF]))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.0);
        let mut pool = match SCRATCH.lock() {
            Ok(pool) => pool,
            Err(poisoned) => poisoned.into_inner(),
        };
        if pool.len() < SCRATCH_KEPT {
            pool.push(buf);
        }
    }
}

/// What one turn of [`receive_streaming`] ended with.
enum Turn {
    /// The client closed the data connection: the upload is whole.
    End,
    /// Octets past what the quota's meter has reserved wait in the
    /// upload's `head`: the meter must ask the store before they are
    /// written.
    Admit,
}

/// Receives an upload on the multi-threaded runtime. Each time the socket
/// has octets, they are read into a shared buffer ([`Scratch`]) up to
/// 1 MiB, and written to the upload at once ([`write_now`]); nothing of
/// the upload's is kept in memory while it waits for its
/// client, but for its first octets: an upload that ends within
/// [`FIRST_UPLOAD_BUF`] is kept whole (exactly its size) and written with
/// its commit.
async fn receive_streaming<S: AsyncRead + Unpin>(
    stream: &mut S,
    slot: &mut Option<Box<dyn StorageUpload>>,
    progress: &AtomicU64,
    mut meter: Option<&mut crate::quota::Meter>,
) -> Result<(u64, Vec<u8>), Fail> {
    // Octets received and not yet written: the first ones of a small
    // upload, or those the meter has yet to admit.
    let mut head = Vec::new();
    // Octets written to the upload.
    let mut total = 0u64;
    loop {
        let turn = std::future::poll_fn(|cx| {
            receive_ready(cx, &mut *stream, slot, progress, &mut meter, &mut head, &mut total)
        })
        .await?;
        match turn {
            Turn::End => break,
            Turn::Admit => {
                admit(&mut meter, total + head.len() as u64).await?;
                write_now(slot, &head)?;
                total += head.len() as u64;
                head = Vec::new();
            }
        }
    }
    if total == 0 {
        // The whole upload, in its head: written with the commit.
        admit(&mut meter, head.len() as u64).await?;
        return Ok((head.len() as u64, head));
    }
    Ok((total, Vec::new()))
}

/// One turn of [`receive_streaming`]: reads what the socket holds into a
/// shared buffer and writes it, until the socket has nothing more
/// (`Pending`: the socket will wake the task) or the client closes.
fn receive_ready<S: AsyncRead + Unpin>(
    cx: &mut std::task::Context<'_>,
    stream: &mut S,
    slot: &mut Option<Box<dyn StorageUpload>>,
    progress: &AtomicU64,
    meter: &mut Option<&mut crate::quota::Meter>,
    head: &mut Vec<u8>,
    total: &mut u64,
) -> Poll<Result<Turn, Fail>> {
    let mut buf: Option<Scratch> = None;
    loop {
        let scratch = buf.get_or_insert_with(Scratch::take);
        let (mut filled, mut end, mut waiting) = (0, false, false);
        while filled < scratch.0.len() {
            let mut rb = ReadBuf::new(&mut scratch.0[filled..]);
            match Pin::new(&mut *stream).poll_read(cx, &mut rb) {
                Poll::Ready(Ok(())) if rb.filled().is_empty() => {
                    end = true;
                    break;
                }
                Poll::Ready(Ok(())) => {
                    let n = rb.filled().len();
                    filled += n;
                    progress.fetch_add(n as u64, Ordering::Relaxed);
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(Fail::Net(e))),
                Poll::Pending => {
                    waiting = true;
                    break;
                }
            }
        }
        let data = &scratch.0[..filled];
        if *total == 0 && head.len() + data.len() <= FIRST_UPLOAD_BUF {
            // A small upload so far: kept, exactly, in case it ends here.
            head.extend_from_slice(data);
        } else {
            let upto = *total + (head.len() + data.len()) as u64;
            if let Some(m) = meter.as_mut() {
                if !m.admit_reserved(upto) {
                    head.extend_from_slice(data);
                    return Poll::Ready(Ok(Turn::Admit));
                }
            }
            if !head.is_empty() {
                write_now(slot, head)?;
                *total += head.len() as u64;
                *head = Vec::new();
            }
            write_now(slot, data)?;
            *total += data.len() as u64;
        }
        if end {
            return Poll::Ready(Ok(Turn::End));
        }
        if waiting {
            // The socket has registered the task's waker.
            return Poll::Pending;
        }
        // The buffer was full: the client has more.
    }
}

/// Writes `data` to the upload in `slot`. A local file's write only
/// copies into the page cache (microseconds for a MiB), and is made right
/// here on the worker. Each write through block_in_place moved the
/// worker's other tasks to another thread of the blocking pool: under
/// 1,000 concurrent uploads the server ran 40-60 threads, each with a deep
/// stack and its malloc cache, and 4-7 MiB more at its peak than with the
/// writes made in place (bench/busy.py, issue 47). A local write that had
/// to wait ([`Waited`]: a disk that holds the page cache back) sends every
/// upload's writes through block_in_place for [`SLOW_SPELL`], as those of
/// other storages (a network behind them) always go (measured 1.5x faster
/// than handing each buffer to the blocking pool).
fn write_now(slot: &mut Option<Box<dyn StorageUpload>>, data: &[u8]) -> Result<(), Fail> {
    if data.is_empty() {
        return Ok(());
    }
    let upload = slot.as_mut().ok_or_else(gone)?;
    let watch = Waited::start();
    if upload.writes_locally() && !slow_storage(watch.at) {
        upload.write_all(data)?;
    } else {
        tokio::task::block_in_place(|| upload.write_all(data))?;
    }
    if watch.waited() {
        slow_storage_seen(watch.at);
    }
    Ok(())
}

/// Whether a write waited: it took longer than [`QUICK_WRITE`] and its
/// thread went to sleep meanwhile (a voluntary context switch; a thread
/// preempted on busy cores has only involuntary ones, and its write did
/// not wait on the storage).
struct Waited {
    at: std::time::Instant,
    sleeps: Option<i64>,
}

impl Waited {
    fn start() -> Waited {
        Waited {
            at: std::time::Instant::now(),
            sleeps: thread_sleeps(),
        }
    }

    fn waited(&self) -> bool {
        self.at.elapsed() > QUICK_WRITE
            && match (self.sleeps, thread_sleeps()) {
                (Some(a), Some(b)) => b > a,
                _ => true,
            }
    }
}

/// This thread's voluntary context switches so far (Linux).
fn thread_sleeps() -> Option<i64> {
    #[cfg(target_os = "linux")]
    {
        use nix::sys::resource::{getrusage, UsageWho};
        getrusage(UsageWho::RUSAGE_THREAD)
            .ok()
            .map(|u| u.voluntary_context_switches())
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// How long a local write may take before it may count as a wait.
const QUICK_WRITE: Duration = Duration::from_millis(2);
/// A wait this long starts a slow spell at once.
const LONG_WAIT: Duration = Duration::from_millis(20);
/// Waits within a second that start a slow spell.
const SHORT_WAITS: u64 = 4;
/// When the current second of short waits began ([`millis`]), and how
/// many it has seen.
static WAITS_SINCE: AtomicU64 = AtomicU64::new(0);
static WAITS: AtomicU64 = AtomicU64::new(0);
/// How long upload writes go through block_in_place after a slow one.
const SLOW_SPELL: Duration = Duration::from_secs(10);
/// Until when (milliseconds after [`clock_base`]) upload writes go
/// through block_in_place.
static SLOW_UNTIL: AtomicU64 = AtomicU64::new(0);

fn clock_base() -> std::time::Instant {
    static BASE: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    *BASE.get_or_init(std::time::Instant::now)
}

fn millis(t: std::time::Instant) -> u64 {
    u64::try_from(t.saturating_duration_since(clock_base()).as_millis()).unwrap_or(u64::MAX)
}

/// The largest replaced file [`HeldUpload::keep`] unlinks on the worker.
const QUICK_UNLINK: u64 = 1 << 20;

/// Runs `f`, a call on a local disk that is quick as a rule (a rename, an
/// unlink of a small file), right here on the worker, as a local upload's
/// writes are made ([`write_now`]); a call that waited starts a slow
/// spell as a write that waited does. The caller checked
/// [`slow_storage`].
fn quick_local<T>(f: impl FnOnce() -> T) -> T {
    let watch = Waited::start();
    let r = f();
    if watch.waited() {
        slow_storage_seen(watch.at);
    }
    r
}

/// Runs `f` with [`quick_local`] when `quick` (a local disk's call) and
/// the disk is not in a slow spell; else on the blocking pool (`Err`: the
/// pool lost it).
pub(crate) async fn quick_or_pool<T: Send + 'static>(
    quick: bool,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, tokio::task::JoinError> {
    if quick && !slow_storage(std::time::Instant::now()) {
        return Ok(quick_local(f));
    }
    tokio::task::spawn_blocking(f).await
}

/// A local upload's last bytes and commit ([`quick_or_pool`]).
async fn on_local_disk<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, StorageError> + Send + 'static,
) -> Result<T, StorageError> {
    quick_or_pool(true, f)
        .await
        .unwrap_or_else(|e| Err(StorageError::Io(io::Error::other(e.to_string()))))
}

/// Whether a write at `now` is in a slow spell.
fn slow_storage(now: std::time::Instant) -> bool {
    millis(now) < SLOW_UNTIL.load(Ordering::Relaxed)
}

/// A call that began at `start` waited on the disk: a spell begins when it
/// waited [`LONG_WAIT`] (a disk that holds writers back: dirty-page
/// throttling sleeps tens of milliseconds), or at the [`SHORT_WAITS`]th
/// shorter wait within a second. One short wait is no sign: under a
/// thousand sessions on two cores a write waits a few milliseconds on a
/// lock now and then, and sending every disk call to the blocking pool
/// for 10 s over it grew the pool to 20 threads and the server's peak by
/// 5-8 MiB (bench/busy.py, issue 47).
fn slow_storage_seen(start: std::time::Instant) {
    let now = millis(std::time::Instant::now());
    if start.elapsed() < LONG_WAIT {
        let window = WAITS_SINCE.load(Ordering::Relaxed);
        if now.saturating_sub(window) >= 1000 {
            WAITS_SINCE.store(now, Ordering::Relaxed);
            WAITS.store(1, Ordering::Relaxed);
            return;
        }
        if WAITS.fetch_add(1, Ordering::Relaxed) + 1 < SHORT_WAITS {
            return;
        }
    }
    let until = millis(start).saturating_add(SLOW_SPELL.as_millis() as u64);
    let before = SLOW_UNTIL.fetch_max(until, Ordering::Relaxed);
    if before <= millis(start) {
        tracing::info!(
            took_ms = start.elapsed().as_millis() as u64,
            "a local disk call waited: disk calls go to the blocking pool for {} s",
            SLOW_SPELL.as_secs()
        );
    }
}

/// Receives an upload on a current-thread runtime: through a buffer of
/// its own (small first, four times larger each time a read fills it, up
/// to [`UPLOAD_BUF`] when the budget allows), each written on the
/// blocking pool.
async fn receive_buffered<S: AsyncRead + Unpin>(
    stream: &mut S,
    slot: &mut Option<Box<dyn StorageUpload>>,
    progress: &AtomicU64,
    mut meter: Option<&mut crate::quota::Meter>,
) -> Result<(u64, Vec<u8>), Fail> {
    let (_budget, size) = Budget::take(UPLOAD_BUF);
    let mut buf = vec![0u8; FIRST_UPLOAD_BUF.min(size)];
    let mut total = 0u64;
    loop {
        let n = fill(stream, &mut buf, progress).await?;
        if n == 0 {
            break;
        }
        admit(&mut meter, total + n as u64).await?;
        let full = n == buf.len();
        if total == 0 && !full {
            // The whole upload, in the first buffer (`fill` stops short only
            // at the end): written with the commit.
            buf.truncate(n);
            return Ok((n as u64, buf));
        }
        total += n as u64;
        buf = write_blocking(slot, buf, n).await?;
        if full && buf.len() < size {
            buf.resize((buf.len() * 4).min(size), 0);
        }
    }
    Ok((total, Vec::new()))
}

/// The storage error of an upload no longer in its slot (a write that
/// panicked on the blocking pool).
fn gone() -> Fail {
    Fail::Storage(StorageError::Io(io::Error::other("the upload was lost")))
}

/// Reads and throws away what the client still sends of an upload that
/// was refused midway (the quota), until it ends or `max_bytes` or
/// `max_time` is reached: a client that writes its whole file before it
/// reads the reply (ftplib, FileZilla) then reads the 552 instead of
/// meeting a reset connection.
pub async fn drain<S: AsyncRead + Unpin>(stream: &mut S, max_bytes: u64, max_time: Duration) {
    let mut buf = vec![0u8; 64 * 1024];
    let mut left = max_bytes;
    let _ = tokio::time::timeout(max_time, async {
        while left > 0 {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n as u64),
            }
        }
    })
    .await;
}

/// Reads until `buf` is full or the peer closes; returns the octets read.
async fn fill<S: AsyncRead + Unpin>(stream: &mut S, buf: &mut [u8], progress: &AtomicU64) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        let m = stream.read(&mut buf[n..]).await?;
        if m == 0 {
            break;
        }
        n += m;
        progress.fetch_add(m as u64, Ordering::Relaxed);
    }
    Ok(n)
}

/// The ASCII-mode upload: CR LF → LF, one buffer at a time.
async fn receive_ascii<S: AsyncRead + Unpin>(
    stream: &mut S,
    slot: &mut Option<Box<dyn StorageUpload>>,
    progress: &AtomicU64,
    mut meter: Option<&mut crate::quota::Meter>,
) -> Result<(u64, Vec<u8>), Fail> {
    let (_budget, size) = Budget::take(BUF);
    let mut buf = vec![0u8; size];
    let mut out = Vec::with_capacity(size);
    let mut total = 0u64;
    let mut lines = CrlfToLf::default();
    loop {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            break;
        }
        progress.fetch_add(n as u64, Ordering::Relaxed);
        out.clear();
        lines.push(&buf[..n], &mut out);
        let len = out.len();
        admit(&mut meter, total + len as u64).await?;
        out = write_blocking(slot, out, len).await?;
        total += len as u64;
    }
    out.clear();
    lines.finish(&mut out);
    if !out.is_empty() {
        let len = out.len();
        admit(&mut meter, total + len as u64).await?;
        write_blocking(slot, out, len).await?;
        total += len as u64;
    }
    Ok((total, Vec::new()))
}

/// Writes `data[..len]` to the upload in `slot` on the blocking pool;
/// puts it back and hands the buffer back.
async fn write_blocking(slot: &mut Option<Box<dyn StorageUpload>>, data: Vec<u8>, len: usize) -> Result<Vec<u8>, Fail> {
    let mut upload = slot.take().ok_or_else(gone)?;
    let (upload, data, r) = tokio::task::spawn_blocking(move || {
        let r = upload.write_all(&data[..len]);
        (upload, data, r)
    })
    .await
    .map_err(|e| Fail::Storage(StorageError::Io(io::Error::other(e.to_string()))))?;
    *slot = Some(upload);
    r?;
    Ok(data)
}

/// Why a running transfer stopped early.
#[derive(Debug)]
pub enum Cut {
    Failed(Fail),
    Stalled,
}

/// An upload, the same on every door: opened under the account's quota
/// ([`crate::user::UserCtx::begin_upload`]), fed through one buffer of the
/// server's budget ([`Upload::receive`]), then committed
/// ([`Upload::commit`]), discarded at the quota ([`Upload::discard`]) or
/// abandoned ([`Upload::abandon`]), with the account settled each way.
pub struct Upload {
    inner: Option<Box<dyn StorageUpload>>,
    quota: Option<QuotaJob>,
    /// STOU: the name chosen.
    pub chosen: Option<VPath>,
}

impl Upload {
    pub(crate) fn new(inner: Box<dyn StorageUpload>, quota: Option<QuotaJob>, chosen: Option<VPath>) -> Upload {
        Upload {
            inner: Some(inner),
            quota,
            chosen,
        }
    }

    /// Receives the upload's bytes from `stream` (through the buffers
    /// uploads share, taken only while octets are there to write), each
    /// admitted by the account's quota first. In ASCII mode CR LF becomes
    /// LF. Returns the octets received and what is still to be written
    /// with the commit (an upload that ends within its first 16 KiB, a
    /// small file, is written in the same blocking call as its commit).
    /// [`Fail::Quota`]: past the quota, to be discarded.
    pub async fn receive<S: AsyncRead + Unpin>(
        &mut self,
        stream: &mut S,
        ascii: bool,
        progress: &AtomicU64,
    ) -> Result<(u64, Vec<u8>), Fail> {
        let meter = self.quota.as_mut().map(|q| &mut q.meter);
        receive(stream, &mut self.inner, ascii, progress, meter).await
    }

    /// Past the quota: what the upload wrote is taken back (an APPE's
    /// bytes too), and the account settled as if it never ran.
    pub async fn discard(mut self) {
        if let Some(up) = self.inner.take() {
            let _ = tokio::task::spawn_blocking(move || up.discard()).await;
        }
        if let Some(q) = self.quota.take() {
            q.meter.settle_unchanged().await;
        }
    }

    /// Cut, stalled or aborted: the upload is dropped uncommitted (a
    /// replacing STOR leaves the old file as it was), and the account
    /// settled with what the file holds now.
    pub async fn abandon(mut self) {
        drop(self.inner.take());
        if let Some(q) = self.quota.take() {
            q.settle_uncommitted().await;
        }
    }

    /// Whether [`Upload::commit_held`] can hold what the name held: a file
    /// written beside its name on a local filesystem.
    pub fn can_hold(&self) -> bool {
        self.inner.as_ref().is_some_and(|u| u.can_hold())
    }

    /// Writes `tail` and commits as [`Upload::commit`] does (under a
    /// quota too), keeping what the name held until the returned
    /// [`HeldUpload`] is kept or undone (see [`StorageUpload::commit_held`]).
    /// Without [`Upload::can_hold`], a plain commit (and `None`).
    pub async fn commit_held(mut self, tail: Vec<u8>) -> Result<Option<HeldUpload>, StorageError> {
        if !self.can_hold() {
            return self.commit(tail).await.map(|()| None);
        }
        let Some(mut up) = self.inner.take() else {
            return Err(StorageError::Io(io::Error::other("the upload was lost")));
        };
        if up.writes_locally() && up.commits_quickly() && self.quota.is_none() {
            // A local file whose commit is a rename: its last bytes and
            // the rename right here, as its writes were (no hand-off to
            // the blocking pool and back: a small file's upload is made
            // of little else).
            let done = on_local_disk(move || {
                up.write_all(&tail)?;
                up.commit_held()
            })
            .await;
            return done.map(|(_, held)| held.map(|h| HeldUpload::new(h, None)));
        }
        let written = tokio::task::spawn_blocking(move || up.write_all(&tail).map(|()| up)).await;
        let up = match written {
            Ok(Ok(up)) => up,
            Ok(Err(e)) => {
                if let Some(q) = self.quota.take() {
                    q.settle_uncommitted().await;
                }
                return Err(e);
            }
            Err(e) => {
                if let Some(q) = self.quota.take() {
                    q.settle_uncommitted().await;
                }
                return Err(StorageError::Io(io::Error::other(e.to_string())));
            }
        };
        let r = match self.quota.take() {
            Some(q) => crate::quota::commit_beside_held(Some(q.meter), q.storage, q.path, up, true).await,
            None => {
                return tokio::task::spawn_blocking(move || up.commit_held())
                    .await
                    .unwrap_or_else(|e| Err(StorageError::Io(io::Error::other(e.to_string()))))
                    .map(|(_, held)| held.map(|h| HeldUpload::new(h, None)));
            }
        };
        r.map(|(_, held)| held).map_err(StorageError::Io)
    }

    /// Writes `tail` and commits: the name is taken as STOR takes it,
    /// under a quota with what the name holds now (`QuotaExceeded` and
    /// nothing kept when that leaves no room).
    pub async fn commit(mut self, tail: Vec<u8>) -> Result<(), StorageError> {
        let Some(mut up) = self.inner.take() else {
            return Err(StorageError::Io(io::Error::other("the upload was lost")));
        };
        let Some(q) = self.quota.take() else {
            if up.writes_locally() && up.commits_quickly() {
                // As in commit_held: a local rename, right here.
                return on_local_disk(move || {
                    up.write_all(&tail)?;
                    up.commit().map(drop)
                })
                .await;
            }
            return tokio::task::spawn_blocking(move || {
                up.write_all(&tail)?;
                up.commit().map(drop)
            })
            .await
            .unwrap_or_else(|e| Err(StorageError::Io(io::Error::other(e.to_string()))));
        };
        let written = tokio::task::spawn_blocking(move || up.write_all(&tail).map(|()| up)).await;
        match written {
            Ok(Ok(up)) => q.commit(up).await.map_err(StorageError::Io),
            Ok(Err(e)) => {
                q.settle_uncommitted().await;
                Err(e)
            }
            Err(e) => {
                q.settle_uncommitted().await;
                Err(StorageError::Io(io::Error::other(e.to_string())))
            }
        }
    }
}

/// A committed upload whose client has not yet shown it read its reply:
/// what its name held is kept until [`HeldUpload::keep`] or
/// [`HeldUpload::undo`] (with the account's usage put back, under a
/// quota).
pub struct HeldUpload {
    held: Box<dyn Held>,
    /// The quota, and the bytes and files an undo gives back to it.
    quota: Option<(Quota, i64, i64)>,
}

impl HeldUpload {
    pub(crate) fn new(held: Box<dyn Held>, quota: Option<(Quota, i64, i64)>) -> HeldUpload {
        HeldUpload { held, quota }
    }

    /// The upload stands: what it replaced is removed. A small file's
    /// unlink (microseconds) is made right here, so it is gone before the
    /// session's next reply; a large one's (an ext4 unlink frees every
    /// extent, milliseconds a GiB) off the caller's path, on the blocking
    /// pool: the handle returned is what a session waits for before it
    /// ends, so that no replaced file outlives the session's last reply.
    pub fn keep(self) -> Option<tokio::task::JoinHandle<()>> {
        let held = self.held;
        let unlink = move |held: Box<dyn Held>| {
            if let Err(e) = held.keep() {
                tracing::warn!(error = %e, "the replaced file could not be removed");
            }
        };
        match held.replaced() {
            // A new name: nothing to remove, no thread to wake.
            None => None,
            Some(size) if size <= QUICK_UNLINK && !slow_storage(std::time::Instant::now()) => {
                quick_local(|| unlink(held));
                None
            }
            Some(_) => Some(tokio::task::spawn_blocking(move || unlink(held))),
        }
    }

    /// The replaced file's size, when one waits to be removed.
    pub fn replaced(&self) -> Option<u64> {
        self.held.replaced()
    }

    /// The upload stands; what it replaced is handed over to be written
    /// over by the next upload ([`crate::UserCtx::begin_upload_reusing`]).
    pub(crate) fn into_spare(self) -> Box<dyn Held> {
        self.held
    }

    /// The upload is undone: the name holds again what it held, unless it
    /// was changed since (then `false`, and nothing moves).
    pub async fn undo(self) -> io::Result<bool> {
        let held = self.held;
        let undone = tokio::task::spawn_blocking(move || held.undo())
            .await
            .map_err(io::Error::other)?
            .map_err(io::Error::from)?;
        if let (true, Some((q, bytes, files))) = (undone, self.quota) {
            if let Err(e) = q.store.adjust_usage(&q.name, bytes, files).await {
                tracing::warn!(user = %q.name, error = %e, "quota usage not settled after an undone upload");
            }
        }
        Ok(undone)
    }
}

/// An upload's quota meter, and where its file is (to settle the account
/// with the file's real size when it ends).
pub struct QuotaJob {
    pub meter: crate::quota::Meter,
    pub storage: Arc<dyn Storage>,
    pub path: VPath,
    /// The upload writes in the file itself (APPE, REST+STOR, STOU), not
    /// beside it.
    pub in_place: bool,
}

impl QuotaJob {
    /// Settles the account after an upload that did not commit: one
    /// written beside its name changed nothing; one written in place
    /// keeps what it wrote, and the file is looked at.
    async fn settle_uncommitted(self) {
        let QuotaJob {
            meter,
            storage,
            path,
            in_place,
        } = self;
        if !in_place {
            return meter.settle_unchanged().await;
        }
        let now = tokio::task::spawn_blocking(move || file_size(&*storage, &path))
            .await
            .unwrap_or(None);
        meter.settle(now).await;
    }

    /// Commits `upload` under the quota: one written beside its name
    /// through [`crate::quota::commit_beside`] (552 and discarded when what
    /// the name holds now leaves no room), one written in place settled
    /// with what its commit says.
    async fn commit(self, upload: Box<dyn StorageUpload>) -> Result<(), io::Error> {
        if !self.in_place {
            return crate::quota::commit_beside(Some(self.meter), self.storage, self.path, upload)
                .await
                .map(drop);
        }
        match tokio::task::spawn_blocking(move || upload.commit()).await {
            Ok(Ok(c)) => {
                self.meter.settle_committed(c).await;
                Ok(())
            }
            Ok(Err(e)) => {
                self.settle_uncommitted().await;
                Err(e.into())
            }
            Err(e) => {
                self.settle_uncommitted().await;
                Err(io::Error::other(e))
            }
        }
    }
}

/// Runs `fut`, cutting it when `progress` does not move for `stall` (give
/// or take a quarter of it: progress is looked at four times per period).
pub async fn watch<T>(
    progress: &AtomicU64,
    stall: Duration,
    fut: impl std::future::Future<Output = Result<T, Fail>>,
) -> Result<T, Cut> {
    tokio::pin!(fut);
    let tick = (stall / 4).max(Duration::from_millis(50));
    let mut last = progress.load(Ordering::Relaxed);
    let mut since = tokio::time::Instant::now();
    let mut ticks = tokio::time::interval_at(since + tick, tick);
    loop {
        tokio::select! {
            r = &mut fut => return r.map_err(Cut::Failed),
            now = ticks.tick() => {
                let p = progress.load(Ordering::Relaxed);
                if p != last {
                    last = p;
                    since = now;
                } else if now.duration_since(since) >= stall {
                    return Err(Cut::Stalled);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfer_buffers_share_a_bounded_budget() {
        let (one, size) = Budget::take(UPLOAD_BUF);
        assert!((MIN_BUF..=UPLOAD_BUF).contains(&size));
        let many: Vec<(Budget, usize)> = (0..1100).map(|_| Budget::take(UPLOAD_BUF)).collect();
        let last = many.last().map(|(_, s)| *s).unwrap();
        assert_eq!(last, MIN_BUF, "1,100 transfers at once get the smallest buffers");
        let total: usize = many.iter().map(|(_, s)| s).sum::<usize>();
        assert!(total <= BUFFER_BUDGET + 1100 * MIN_BUF, "{total}");
        drop(many);
        drop(one);
        let (_alone, size) = Budget::take(UPLOAD_BUF);
        assert_eq!(size, UPLOAD_BUF, "alone again: a large buffer");
    }
}

/// What a door says of itself in a transfer's record and event.
#[derive(Debug, Clone, Copy)]
pub struct Door {
    /// `ftp`, `ftps`, `http`, `https`.
    pub protocol: &'static str,
    /// The client's address.
    pub peer: std::net::IpAddr,
}

impl crate::Services {
    /// A finished transfer, on any door: the metrics, the log line and
    /// the xferlog line, the same for FTP and the web view.
    pub fn record_transfer(&self, door: Door, rec: &babelftp_session::TransferRecord) {
        self.metrics.transfer(rec.incoming, rec.complete, rec.bytes);
        tracing::info!(
            path = %babelftp_proto::display::PlainPath(&rec.path),
            bytes = rec.bytes,
            seconds = rec.seconds,
            protocol = door.protocol,
            "{} {}",
            if rec.incoming { "upload" } else { "download" },
            if rec.complete { "complete" } else { "cut short" }
        );
        if let Some(log) = &self.xferlog {
            log.write(&crate::xferlog::XferEntry {
                seconds: rec.seconds,
                peer: door.peer,
                bytes: rec.bytes,
                path: &rec.path,
                ascii: rec.ascii,
                incoming: rec.incoming,
                anonymous: rec.anonymous,
                user: &rec.user,
                complete: rec.complete,
            });
        }
    }

    /// An event of a door's session (`session`: its id in events), when a
    /// hook wants its kind.
    pub fn event(
        &self,
        kind: crate::events::Kind,
        user: Option<&[u8]>,
        door: Door,
        session: String,
    ) -> Option<crate::events::Event> {
        let events = self.events.as_ref()?;
        if !events.wants(kind) {
            return None;
        }
        let mut ev = crate::events::Event::new(kind);
        ev.session = Some(session);
        ev.user = user.map(<[u8]>::to_vec);
        ev.client = Some(door.peer);
        ev.protocol = Some(door.protocol);
        Some(ev)
    }

    /// A finished transfer's event (`stored`: its path as stored), with
    /// what every door says of it.
    pub fn transfer_event(
        &self,
        door: Door,
        session: String,
        rec: &babelftp_session::TransferRecord,
        stored: Vec<u8>,
    ) -> Option<crate::events::Event> {
        use crate::events::Kind;
        let kind = if rec.incoming { Kind::Upload } else { Kind::Download };
        let mut ev = self.event(kind, Some(&rec.user), door, session)?;
        ev.path = Some(stored);
        ev.bytes = Some(rec.bytes);
        ev.duration_ms = Some(rec.millis);
        ev.outcome = Some(if rec.complete { "complete" } else { "cut_short" });
        ev.code = rec.code;
        Some(ev)
    }
}
