//! The file commands `get`, `put`, `rm` and `mkdir`.
//!
//! - `get URL... [DEST]`: every argument is a URL except a last one that
//!   is not an `ftp://`/`ftps://` URL, which is the destination: a file, a
//!   directory, or `-` (standard output). Several files (several URLs, or
//!   `*`/`?` wildcards in a URL's last name) go to a directory (default:
//!   here) or to standard output. A download goes to a hidden temporary
//!   file beside its destination (`.NAME.babelftp-PID.part`), renamed over
//!   the destination when whole; a failed or interrupted download removes
//!   it, so an existing file is never truncated by a failure. With `-c`,
//!   the destination itself is continued (REST) and a partial file is kept
//!   when the transfer fails, so that the next `-c` continues it (as
//!   `curl -C -` and `lftp get -c`); a destination larger than the remote
//!   file is an error.
//! - `put FILE... URL`: `-` reads standard input (one source, and the
//!   URL names the file). Local sources are checked before anything is
//!   sent: a missing file or a directory is refused, the others go on.
//! - `rm [-r] URL...`, `mkdir [-p] URL...`.
//!
//! With several files, each failure is reported with its path as it
//! happens and the rest goes on; the exit code is the first failure's
//! ([`crate::exit`]).

use std::path::PathBuf;
use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};

use babelftp_proto::url::FtpUrl;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::exit::{self, Interrupted, Local, Reported, Usage};
use crate::msg::ts;
use crate::remote::{Common, Session};

/// The exit codes, for `--help`.
pub const EXIT_HELP: &str = "\
Exit status of the client commands (curl's numbers):
  0    success
  1    any other failure (a server refusal other than 550, a lost connection...)
  2    usage: a command-line mistake
  7    cannot connect (no such host, connection refused)
  23   a local file cannot be written
  26   a local file cannot be read (missing, a directory)
  35   TLS failed (AUTH TLS refused, handshake, certificate)
  36   -c cannot resume: the destination is larger than the source
  67   login refused
  78   remote file missing or unavailable (550), or a wildcard matched nothing
  130  interrupted (Ctrl-C)
With several files, each failure is reported and the others still go; the
exit status is the first failure's.";

fn is_url(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    l.starts_with("ftp://") || l.starts_with("ftps://")
}

fn parse_url(raw: &str) -> anyhow::Result<FtpUrl> {
    crate::redact::parse_lenient(&crate::redact::prepare(raw)).map_err(|e| {
        Usage(format!(
            "{}: {e}",
            ts("cli-bad-url", &[("url", &crate::exit::redact_url(raw))])
        ))
        .into()
    })
}

fn has_wildcard(name: &[u8]) -> bool {
    name.iter().any(|&b| b == b'*' || b == b'?')
}

/// The directory part of a remote path (`None`: the login directory).
fn dir_of(path: &[u8]) -> Option<&[u8]> {
    path.iter().rposition(|&b| b == b'/').map(|i| &path[..i.max(1)])
}

/// A single file name: not empty, not `.` or `..`, no `/` or NUL.
fn is_plain_name(n: &[u8]) -> bool {
    !n.is_empty() && n != b"." && n != b".." && !n.iter().any(|&b| b == b'/' || b == 0)
}

fn join_remote(dir: &[u8], name: &[u8]) -> Vec<u8> {
    let mut p = dir.to_vec();
    if !p.is_empty() && !p.ends_with(b"/") {
        p.push(b'/');
    }
    p.extend_from_slice(name);
    p
}

/// A remote name for messages.
fn shown(s: &Session, remote: &[u8]) -> String {
    String::from_utf8_lossy(&s.show(remote)).into_owned()
}

/// One session per server, reused while consecutive URLs name the same
/// server and login.
struct Sessions<'c> {
    common: &'c Common,
    cur: Option<(String, Session)>,
}

fn origin(u: &FtpUrl) -> String {
    format!(
        "{}|{}|{}|{:?}|{:?}",
        u.secure,
        u.host,
        u.port_or_default(),
        u.user,
        u.password
    )
}

impl<'c> Sessions<'c> {
    fn new(common: &'c Common) -> Self {
        Sessions { common, cur: None }
    }

    async fn open(&mut self, raw: &str, url: &FtpUrl) -> anyhow::Result<&mut Session> {
        let key = origin(url);
        if !matches!(&self.cur, Some((k, _)) if *k == key) {
            if let Some((_, old)) = self.cur.take() {
                old.client.quit().await.ok();
            }
            let s = Session::open(raw, self.common).await?;
            self.cur = Some((key, s));
        }
        match self.cur.as_mut() {
            Some((_, s)) => Ok(s),
            None => Err(anyhow::anyhow!("no session")),
        }
    }

    /// After a failure: a connection that is gone is dropped, so that the
    /// next URL connects again.
    fn after_error(&mut self, e: &anyhow::Error) {
        let gone = e.chain().any(|c| {
            matches!(
                c.downcast_ref::<babelftp_client::Error>(),
                Some(babelftp_client::Error::Io(_) | babelftp_client::Error::Closed)
            )
        });
        if gone {
            self.cur = None;
        }
    }

    async fn close(self) {
        if let Some((_, s)) = self.cur {
            s.client.quit().await.ok();
        }
    }
}

/// The failures of a run over several items.
#[derive(Default)]
struct Failures {
    first: Option<u8>,
    count: usize,
}

impl Failures {
    fn report(&mut self, e: &anyhow::Error) {
        eprintln!("{}", ts("cli-error", &[("error", &exit::describe(e))]));
        self.first.get_or_insert(exit::code(e));
        self.count += 1;
    }

    fn finish(self, total: usize, quiet: bool) -> anyhow::Result<()> {
        match self.first {
            None => Ok(()),
            Some(code) => {
                if total > 1 && !quiet {
                    eprintln!(
                        "{}",
                        ts(
                            "cli-x1-failed-count",
                            &[("failed", &self.count.to_string()), ("total", &total.to_string())]
                        )
                    );
                }
                Err(Reported(code).into())
            }
        }
    }
}

/// Runs a command; Ctrl-C ends it (dropping it removes its temporary
/// files) with exit 130.
async fn interruptible(f: impl std::future::Future<Output = anyhow::Result<()>>) -> anyhow::Result<()> {
    // SIGTERM (a service stopped, `timeout`) and SIGHUP (the terminal
    // closed) end the command as Ctrl-C does: the future is dropped, and
    // with it every temporary file (it left `.NAME.babelftp-PID.part`).
    use tokio::signal::unix::{signal, SignalKind};
    async fn recv(s: Option<&mut tokio::signal::unix::Signal>) {
        match s {
            Some(s) => {
                s.recv().await;
            }
            None => std::future::pending().await,
        }
    }
    let mut term = signal(SignalKind::terminate()).ok();
    let mut hup = signal(SignalKind::hangup()).ok();
    tokio::select! {
        r = f => r,
        _ = tokio::signal::ctrl_c() => Err(Interrupted.into()),
        () = recv(term.as_mut()) => Err(Interrupted.into()),
        () = recv(hup.as_mut()) => Err(Interrupted.into()),
    }
}

/// A reader or writer that remembers whether it failed, to tell a local
/// error from a network one.
struct Watch<T> {
    inner: T,
    failed: bool,
}

impl<T> Watch<T> {
    fn new(inner: T) -> Self {
        Watch { inner, failed: false }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watch<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write(cx, buf);
        if let Poll::Ready(Err(_)) = r {
            self.failed = true;
        }
        r
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<std::io::Result<()>> {
        let r = Pin::new(&mut self.inner).poll_flush(cx);
        if let Poll::Ready(Err(_)) = r {
            self.failed = true;
        }
        r
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<std::io::Result<()>> {
        let r = Pin::new(&mut self.inner).poll_shutdown(cx);
        if let Poll::Ready(Err(_)) = r {
            self.failed = true;
        }
        r
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Watch<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Err(_)) = r {
            self.failed = true;
        }
        r
    }
}

/// Turns the error of a transfer whose local side failed into a local
/// error (exit 23/26) naming the local path.
fn local_side(e: babelftp_client::Error, failed: bool, write: bool, what: impl FnOnce() -> String) -> anyhow::Error {
    match e {
        babelftp_client::Error::Io(io) if failed => Local {
            write,
            what: what(),
            source: Some(io),
        }
        .into(),
        e => e.into(),
    }
}

/// A file that is removed when dropped unless kept: a download's
/// temporary file (always), or a `-c` destination this run created and
/// never wrote to.
struct Scratch {
    path: PathBuf,
    only_if_empty: bool,
    keep: bool,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if self.keep {
            return;
        }
        let empty = std::fs::metadata(&self.path).is_ok_and(|m| m.len() == 0);
        if !self.only_if_empty || empty {
            std::fs::remove_file(&self.path).ok();
        }
    }
}

mod get;
mod ops;
mod put;

pub(crate) use get::download;
pub use get::{get, GetArgs};
pub use ops::{cat, chmod, mkdir, rm, CatArgs, ChmodArgs, MkdirArgs, RmArgs};
pub use put::{put, PutArgs};

#[cfg(test)]
mod tests {
    use super::get::temp_beside;
    use super::*;
    use std::path::Path;

    #[test]
    fn urls_and_destinations_are_told_apart() {
        assert!(is_url("ftp://h/a"));
        assert!(is_url("FTPS://h/a"));
        assert!(!is_url("ftp.txt"));
        assert!(!is_url("-"));
        assert!(!is_url("./dir"));
    }

    #[test]
    fn temp_names_are_hidden_beside_the_destination() {
        let t = temp_beside(Path::new("/x/y/f.txt"));
        assert_eq!(t.parent(), Some(Path::new("/x/y")));
        let name = t.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with(".f.txt.babelftp-") && name.ends_with(".part"),
            "{name}"
        );
    }

    #[test]
    fn listed_names_that_are_paths_are_not_local_names() {
        assert!(is_plain_name("日本.txt".as_bytes()));
        assert!(!is_plain_name(b"../x"));
        assert!(!is_plain_name(b".."));
        assert!(!is_plain_name(b"a/b"));
        assert!(!is_plain_name(b""));
    }

    #[test]
    fn remote_dirs() {
        assert_eq!(dir_of(b"a/b.txt"), Some(&b"a"[..]));
        assert_eq!(dir_of(b"/b.txt"), Some(&b"/"[..]));
        assert_eq!(dir_of(b"b.txt"), None);
        assert_eq!(join_remote(b"/", b"x"), b"/x");
        assert_eq!(join_remote(b"", b"x"), b"x");
    }
}
