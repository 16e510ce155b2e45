//! Socket options the control and data connections need, through nix
//! (the workspace forbids `unsafe`).

use std::io;
use std::os::fd::AsFd;
use std::time::Duration;

use nix::sys::socket::{setsockopt, sockopt};

/// How long a silent connection waits before the first keepalive probe.
const KEEPALIVE_IDLE: Duration = Duration::from_secs(60);
/// Then one probe every …
const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(10);
/// … and this many unanswered probes end it.
const KEEPALIVE_PROBES: u32 = 6;

/// Urgent data stays in the stream (RFC 959 4.1.3): Python's
/// `ftplib.FTP.abort()` sends `ABOR\r\n` with `MSG_OOB`; without
/// `SO_OOBINLINE` the kernel takes the urgent octet (the LF) out of band
/// and the line never ends.
pub fn oob_inline(s: &impl AsFd) -> io::Result<()> {
    setsockopt(s, sockopt::OobInline, &true).map_err(io::Error::from)
}

/// TCP keepalive, so a peer that vanished (power cut, NAT timeout) is
/// noticed in minutes rather than never.
pub fn keepalive(s: &impl AsFd) -> io::Result<()> {
    setsockopt(s, sockopt::KeepAlive, &true).map_err(io::Error::from)?;
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        setsockopt(s, sockopt::TcpKeepIdle, &(KEEPALIVE_IDLE.as_secs() as u32)).map_err(io::Error::from)?;
        setsockopt(s, sockopt::TcpKeepInterval, &(KEEPALIVE_INTERVAL.as_secs() as u32)).map_err(io::Error::from)?;
        setsockopt(s, sockopt::TcpKeepCount, &KEEPALIVE_PROBES).map_err(io::Error::from)?;
    }
    Ok(())
}

/// Reads what the control connection holds now, without waiting
/// (`WouldBlock` when nothing is there); 0 is the peer's FIN.
pub fn try_read_control(stream: &tokio::net::TcpStream, buf: &mut [u8]) -> io::Result<usize> {
    use nix::sys::socket::{recv, MsgFlags};
    use std::os::fd::AsRawFd;
    recv(stream.as_raw_fd(), buf, MsgFlags::MSG_DONTWAIT).map_err(io::Error::from)
}

/// Octets sent on `stream` that its peer has not acknowledged yet
/// (`SIOCOUTQ`: unsent and unacknowledged; Linux). An end of an upload's
/// control connection is read with it (see `driver::hold`): a FIN whose
/// acknowledgement covers the 226 comes from a client that had it.
/// Elsewhere: unknown (an error), which counts as "not acknowledged".
pub fn unacknowledged(stream: &tokio::net::TcpStream) -> io::Result<usize> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let mut n: libc::c_int = 0;
        // SAFETY: SIOCOUTQ writes one int through the pointer, which
        // points to `n`; the descriptor is a live TCP socket borrowed for
        // the call. No safe wrapper exists (nix, rustix).
        #[allow(unsafe_code)]
        let r = unsafe { libc::ioctl(stream.as_raw_fd(), libc::TIOCOUTQ, &mut n) };
        if r < 0 {
            return Err(io::Error::last_os_error());
        }
        usize::try_from(n).map_err(|_| io::Error::other("negative SIOCOUTQ"))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = stream;
        Err(io::ErrorKind::Unsupported.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nix::sys::socket::getsockopt;

    /// The server sets these on its listeners only: an accepted control
    /// connection must have them (Linux copies them at accept).
    #[test]
    fn accepted_sockets_inherit_oob_inline_and_keepalive() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        oob_inline(&l).unwrap();
        keepalive(&l).unwrap();
        let _c = std::net::TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (s, _) = l.accept().unwrap();
        assert!(getsockopt(&s, sockopt::OobInline).unwrap());
        assert!(getsockopt(&s, sockopt::KeepAlive).unwrap());
        #[cfg(target_os = "linux")]
        {
            assert_eq!(
                getsockopt(&s, sockopt::TcpKeepIdle).unwrap(),
                KEEPALIVE_IDLE.as_secs() as u32
            );
            assert_eq!(getsockopt(&s, sockopt::TcpKeepCount).unwrap(), KEEPALIVE_PROBES);
        }
    }
}
