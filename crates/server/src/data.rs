//! Data connections (RFC 959 3.2, RFC 2428) and the byte pumps that run
//! over them.
//!
//! Security rules (RFC 2577, "FTP bounce"): an active connection goes only
//! to the control connection's own peer address and to a port of 1024 or
//! above; a passive connection from any other address than the control
//! peer is refused.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};

use crate::storage::StorageError;
// The buffers of every door share one budget (babelftp_core::transfer).
pub use babelftp_core::transfer::{drain, on_storage, Budget, Fail, BUF, UPLOAD_BUF};

/// Why a data connection could not be made.
#[derive(Debug)]
pub enum DataError {
    /// The client did not connect in time.
    Timeout,
    /// A socket error.
    Io(io::Error),
}

/// Binds a passive listener on `ip`, in `range` when one is configured.
pub async fn bind_passive(ip: IpAddr, range: Option<&RangeInclusive<u16>>) -> io::Result<TcpListener> {
    let l = bind_in_range(ip, range).await?;
    // Accepted data connections inherit TCP keepalive from the listener.
    let _ = crate::sockopt::keepalive(&l);
    Ok(l)
}

async fn bind_in_range(ip: IpAddr, range: Option<&RangeInclusive<u16>>) -> io::Result<TcpListener> {
    let Some(range) = range else {
        return bind_ephemeral(ip).await;
    };
    let len = u32::from(range.end().saturating_sub(*range.start())) + 1;
    for round in 0..4u32 {
        // Start at a random point so concurrent sessions spread out.
        let seed = (random_u64() % u64::from(len)) as u32;
        for i in 0..len {
            let port = *range.start() as u32 + (seed.wrapping_add(i) % len);
            let Ok(port) = u16::try_from(port) else { continue };
            if let Ok(l) = TcpListener::bind(SocketAddr::new(ip, port)).await {
                return Ok(l);
            }
        }
        // A passive setup just replaced (a client sending PASV again)
        // gives its port back when its aborted task is dropped, a moment
        // later: a small range may be full only until then.
        tokio::time::sleep(std::time::Duration::from_millis(1 << round)).await;
    }
    Err(io::Error::new(
        io::ErrorKind::AddrInUse,
        "no free passive port in range",
    ))
}

/// Binds a passive listener on a port of the kernel's ephemeral range,
/// chosen here at random. A bind to port 0 lets the kernel search that
/// range for a port no socket holds, and every data connection the server
/// closed holds one in TIME_WAIT for a minute: under 100 sessions fetching
/// small files, that search was 83 % of the server's CPU (`perf`:
/// `inet_csk_get_port`, `inet_bind2_bucket_find`). A bind to one named
/// port with SO_REUSEADDR (tokio sets it on listeners) looks at that port
/// only, and TIME_WAIT does not stand in its way; vsftpd and Pure-FTPd
/// pick their passive ports the same way. After a few ports in use, port
/// 0 as before.
async fn bind_ephemeral(ip: IpAddr) -> io::Result<TcpListener> {
    let (range, reserved) = ephemeral_ports();
    let len = u64::from(range.end() - range.start()) + 1;
    for _ in 0..8 {
        let Ok(port) = u16::try_from(u64::from(*range.start()) + random_u64() % len) else {
            continue;
        };
        if reserved.iter().any(|r| r.contains(&port)) {
            continue;
        }
        if let Ok(l) = TcpListener::bind(SocketAddr::new(ip, port)).await {
            return Ok(l);
        }
    }
    TcpListener::bind(SocketAddr::new(ip, 0)).await
}

/// The kernel's ephemeral port range and its reserved ports
/// (`/proc/sys/net/ipv4/ip_local_port_range`, `ip_local_reserved_ports`),
/// read once; 32768-60999 where they cannot be read.
fn ephemeral_ports() -> &'static (RangeInclusive<u16>, Vec<RangeInclusive<u16>>) {
    static PORTS: std::sync::OnceLock<(RangeInclusive<u16>, Vec<RangeInclusive<u16>>)> = std::sync::OnceLock::new();
    PORTS.get_or_init(|| {
        let range = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
            .ok()
            .and_then(|t| {
                let mut it = t.split_whitespace().map(|x| x.parse::<u16>().ok());
                Some(it.next()??..=it.next()??)
            })
            .filter(|r| *r.start() >= 1024 && r.start() <= r.end())
            .unwrap_or(32768..=60999);
        let reserved = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_reserved_ports")
            .map(|t| parse_port_list(&t))
            .unwrap_or_default();
        (range, reserved)
    })
}

/// `1024,8000-8100` as port ranges; what does not parse is left out.
fn parse_port_list(t: &str) -> Vec<RangeInclusive<u16>> {
    t.trim()
        .split(',')
        .filter_map(|item| {
            let item = item.trim();
            match item.split_once('-') {
                Some((a, b)) => Some(a.trim().parse().ok()?..=b.trim().parse().ok()?),
                None => {
                    let p = item.parse().ok()?;
                    Some(p..=p)
                }
            }
        })
        .collect()
}

/// A random number from the standard library's per-process random keys
/// (no crate for a port number).
fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0),
    );
    h.finish()
}

/// Connects an active data connection (PORT/EPRT) to `addr` from the
/// control connection's local address.
pub async fn connect_active(addr: SocketAddr, local: IpAddr, timeout: Duration) -> Result<TcpStream, DataError> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()
    } else {
        TcpSocket::new_v6()
    }
    .map_err(DataError::Io)?;
    let _ = crate::sockopt::keepalive(&socket);
    // Connect from the control connection's local address.
    if local.is_ipv4() == addr.is_ipv4() {
        socket.bind(SocketAddr::new(local, 0)).map_err(DataError::Io)?;
    }
    match tokio::time::timeout(timeout, socket.connect(addr)).await {
        Err(_) => Err(DataError::Timeout),
        Ok(r) => r.map_err(DataError::Io),
    }
}

/// Accepts the passive data connection on `listener`: only from the
/// control peer's address `peer`, or through one of `proxies` with a PROXY
/// header naming it. Anyone else is dropped (a port-stealing attacker),
/// told to `foreign` (the defender scores it: the address that connected,
/// or the client a proxy named, never the proxy itself), and the wait goes
/// on; the caller bounds it.
pub async fn accept_passive(
    listener: &TcpListener,
    peer: IpAddr,
    proxies: &[crate::config::Cidr],
    foreign: impl Fn(IpAddr),
) -> io::Result<TcpStream> {
    loop {
        let (mut s, from) = listener.accept().await?;
        if crate::proxy::trusted(proxies, from.ip()) {
            match crate::proxy::read_header(&mut s, crate::proxy::HEADER_TIMEOUT).await {
                // A LOCAL header: the proxy itself.
                Ok(client) if same_ip(client.map_or(from, |c| c).ip(), peer) => return Ok(s),
                Ok(client) => {
                    tracing::warn!(%from, client = ?client, %peer, "refused passive data connection through the proxy for a foreign address");
                    if let Some(c) = client {
                        foreign(c.ip());
                    }
                }
                Err(e) => tracing::warn!(%from, error = %e, "refused passive data connection from a proxy"),
            }
        } else if same_ip(from.ip(), peer) {
            return Ok(s);
        } else {
            tracing::warn!(%from, %peer, "refused passive data connection from a foreign address");
            foreign(from.ip());
        }
    }
}

/// Compares addresses, treating an IPv4-mapped IPv6 address as IPv4.
pub fn same_ip(a: IpAddr, b: IpAddr) -> bool {
    a.to_canonical() == b.to_canonical()
}

/// Copies `src` to `dst` through one buffer; in ASCII mode every LF
/// becomes CR LF. Returns the octets read from `src`.
pub async fn pump<R, W>(mut src: R, mut dst: W, ascii_out: bool, progress: &AtomicU64) -> Result<u64, Fail>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let (_budget, size) = Budget::take(BUF);
    let mut buf = vec![0u8; size];
    let mut conv = Vec::new();
    let mut total = 0u64;
    loop {
        let n = on_storage(src.read(&mut buf).await)?;
        if n == 0 {
            break;
        }
        total += n as u64;
        send_out(&mut dst, &buf[..n], ascii_out, &mut conv, progress).await?;
    }
    dst.flush().await?;
    Ok(total)
}

/// Writes `data` to `dst`, in ASCII mode with every LF made CR LF (through
/// `conv`, kept between calls), counting in `progress` the octets of
/// `data` sent as each write is done, not once the whole buffer is out: a
/// download cut in the middle of a buffer (a slow client, a bandwidth
/// limit that writes it in small turns) is recorded with what it really
/// sent. In ASCII mode an octet counts once its wire form is sent whole.
async fn send_out<W: AsyncWrite + Unpin>(
    dst: &mut W,
    data: &[u8],
    ascii_out: bool,
    conv: &mut Vec<u8>,
    progress: &AtomicU64,
) -> io::Result<()> {
    let wire: &[u8] = if ascii_out {
        conv.clear();
        babelftp_proto::ascii::lf_to_crlf(data, conv);
        conv
    } else {
        data
    };
    let (mut off, mut lfs, mut counted) = (0usize, 0usize, 0usize);
    while off < wire.len() {
        let n = dst.write(&wire[off..]).await?;
        if n == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        let done = if ascii_out {
            lfs += wire[off..off + n].iter().filter(|&&b| b == b'\n').count();
            // Every LF has a CR put before it: those are not data's, nor
            // is a CR whose LF is still to go.
            (off + n) - lfs - usize::from(wire.get(off + n) == Some(&b'\n'))
        } else {
            off + n
        };
        off += n;
        progress.fetch_add((done - counted) as u64, Ordering::Relaxed);
        counted = done;
    }
    Ok(())
}

/// Sends a local file through a stream that cannot take `sendfile` (TLS,
/// ASCII mode): 1 MiB reads of the file, each done on this worker where
/// the runtime allows a blocking call (block_in_place, as uploads write),
/// straight into the buffer that is then written to `dst`. Through
/// `tokio::fs::File` every 256 KiB was one hand-off to the blocking pool
/// and one more copy (its own buffer into ours). Returns the octets read.
pub async fn pump_file<W>(file: std::fs::File, mut dst: W, ascii_out: bool, progress: &AtomicU64) -> Result<u64, Fail>
where
    W: AsyncWrite + Unpin,
{
    if tokio::runtime::Handle::current().runtime_flavor() != tokio::runtime::RuntimeFlavor::MultiThread {
        return pump(tokio::fs::File::from_std(file), dst, ascii_out, progress).await;
    }
    let mut file = file;
    let (_budget, size) = Budget::take(UPLOAD_BUF);
    let mut buf = vec![0u8; size];
    let mut conv = Vec::new();
    let mut total = 0u64;
    loop {
        let n = on_storage(tokio::task::block_in_place(|| read_full(&mut file, &mut buf)))?;
        if n == 0 {
            break;
        }
        total += n as u64;
        send_out(&mut dst, &buf[..n], ascii_out, &mut conv, progress).await?;
        if n < buf.len() {
            break; // read_full stopped at the end of the file
        }
    }
    dst.flush().await?;
    Ok(total)
}

/// Reads until `buf` is full or the file ends.
fn read_full(file: &mut std::fs::File, buf: &mut [u8]) -> io::Result<usize> {
    use std::io::Read;
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(m) => n += m,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The most one `sendfile(2)` call is asked to send. Calls of 1 GiB (as
/// much as the socket takes at each wake) gave curl on loopback 2,300
/// MiB/s; calls of 128-256 KiB 3,600-3,900 in the same runs (issue 47:
/// the socket's lock is let go between calls, so the receiving side's
/// acknowledgements are taken as they come rather than in one backlog).
const SENDFILE_CHUNK: u64 = 128 << 10;

/// Sends `file` from `offset` to its end with `sendfile(2)`: no copy
/// through user space (deps-and-scale.md §6). Returns the octets sent.
/// The end is the file's size when the transfer starts. (A file that is
/// not in the page cache makes sendfile wait for the disk on a worker
/// thread; the other workers keep serving.)
pub async fn sendfile(file: &std::fs::File, offset: u64, stream: &TcpStream, progress: &AtomicU64) -> io::Result<u64> {
    use std::os::fd::AsFd;
    use tokio::io::Interest;
    let len = file.metadata()?.len();
    let mut off = i64::try_from(offset).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "offset too large"))?;
    let mut total = 0u64;
    while (off as u64) < len {
        let want = usize::try_from((len - off as u64).min(SENDFILE_CHUNK)).unwrap_or(1 << 17);
        let n = stream
            .async_io(Interest::WRITABLE, || {
                nix::sys::sendfile::sendfile64(stream.as_fd(), file.as_fd(), Some(&mut off), want)
                    .map_err(io::Error::from)
            })
            .await?;
        if n == 0 {
            // The file shrank under us: stop at what exists.
            break;
        }
        total += n as u64;
        progress.fetch_add(n as u64, Ordering::Relaxed);
    }
    Ok(total)
}

/// Sends a download from a blocking reader (non-local back-ends).
pub async fn send_reader<S: AsyncWrite + Unpin>(
    reader: Box<dyn std::io::Read + Send>,
    stream: &mut S,
    ascii: bool,
    progress: &AtomicU64,
) -> Result<u64, Fail> {
    let mut reader = reader;
    let (_budget, size) = Budget::take(BUF);
    let mut buf = vec![0u8; size];
    let mut conv = Vec::new();
    let mut total = 0u64;
    loop {
        let (b, r, n) = tokio::task::spawn_blocking(move || {
            let n = reader.read(&mut buf);
            (buf, reader, n)
        })
        .await
        .map_err(|e| Fail::Storage(StorageError::Io(io::Error::other(e.to_string()))))?;
        buf = b;
        reader = r;
        let n = on_storage(n)?;
        if n == 0 {
            break;
        }
        total += n as u64;
        send_out(stream, &buf[..n], ascii, &mut conv, progress).await?;
    }
    stream.flush().await?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn ascii_out_adds_cr() {
        let mut out = Vec::new();
        pump(&b"a\nb\n"[..], &mut out, true, &AtomicU64::new(0)).await.unwrap();
        assert_eq!(out, b"a\r\nb\r\n");
    }

    /// A peer that takes `left` octets, a few at a time, then is gone.
    struct Cut {
        left: usize,
        got: Vec<u8>,
    }

    impl AsyncWrite for Cut {
        fn poll_write(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            buf: &[u8],
        ) -> std::task::Poll<io::Result<usize>> {
            if self.left == 0 {
                return std::task::Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
            }
            let n = buf.len().min(3).min(self.left);
            self.left -= n;
            self.got.extend_from_slice(&buf[..n]);
            std::task::Poll::Ready(Ok(n))
        }
        fn poll_flush(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }
        fn poll_shutdown(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }
    }

    /// A download cut in the middle of a buffer counts what went out, not
    /// 0 (issue 45: a rate-limited download cut short was logged as 0).
    #[tokio::test]
    async fn a_download_cut_mid_buffer_counts_the_octets_sent() {
        let data: Vec<u8> = (0..1000u32).map(|i| if i % 10 == 9 { b'\n' } else { b'x' }).collect();
        for cut in [1, 7, 500, 999] {
            let progress = AtomicU64::new(0);
            let mut peer = Cut {
                left: cut,
                got: Vec::new(),
            };
            assert!(pump(&data[..], &mut peer, false, &progress).await.is_err());
            assert_eq!(progress.load(Ordering::Relaxed), cut as u64, "binary, cut at {cut}");
        }
        // ASCII: an octet counts once its wire form is out (LF: CR LF).
        for cut in [9, 10, 11, 12, 550] {
            let progress = AtomicU64::new(0);
            let mut peer = Cut {
                left: cut,
                got: Vec::new(),
            };
            assert!(pump(&data[..], &mut peer, true, &progress).await.is_err());
            // The file's octets whose wire form went out whole: each x,
            // each CR LF; not a last CR whose LF did not go.
            let lf_whole = peer.got.len() - peer.got.iter().filter(|&&b| b == b'\r').count();
            assert_eq!(progress.load(Ordering::Relaxed), lf_whole as u64, "ascii, cut at {cut}");
        }
        // Whole: every octet once.
        let progress = AtomicU64::new(0);
        let mut out = Vec::new();
        pump(&data[..], &mut out, true, &progress).await.unwrap();
        assert_eq!(progress.load(Ordering::Relaxed), 1000);
        assert_eq!(out.len(), 1100);
    }

    #[test]
    fn reserved_port_lists_parse() {
        assert_eq!(parse_port_list("1024,8000-8100\n"), vec![1024..=1024, 8000..=8100]);
        assert_eq!(parse_port_list("\n"), Vec::<RangeInclusive<u16>>::new());
        assert_eq!(parse_port_list("x,70000,5-6"), vec![5..=6]);
    }

    /// Without a configured range, passive listeners take ports of the
    /// kernel's ephemeral range, 200 open at once.
    #[tokio::test]
    async fn passive_listeners_take_ports_of_the_ephemeral_range() {
        let (range, _) = ephemeral_ports();
        let mut held = Vec::new();
        let mut ports = std::collections::HashSet::new();
        for _ in 0..200 {
            let l = bind_passive("127.0.0.1".parse().unwrap(), None).await.unwrap();
            let port = l.local_addr().unwrap().port();
            assert!(range.contains(&port), "{port} outside {range:?}");
            ports.insert(port);
            held.push(l);
        }
        assert!(ports.len() == 200);
    }

    #[test]
    fn mapped_addresses_compare_equal() {
        assert!(same_ip(
            "::ffff:127.0.0.1".parse().unwrap(),
            "127.0.0.1".parse().unwrap()
        ));
        assert!(!same_ip("127.0.0.2".parse().unwrap(), "127.0.0.1".parse().unwrap()));
    }
}
