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

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};

use anyhow::Context;
use babelftp_client::client::StoreMode;
use babelftp_proto::url::FtpUrl;
use clap::Args;
use tokio::io::{AsyncRead, AsyncSeekExt, AsyncWrite, ReadBuf};

use crate::exit::{self, BadResume, Interrupted, Local, NoMatch, Reported, Usage};
use crate::msg::ts;
use crate::remote::{Common, Session, Shown};

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

// ---------------------------------------------------------------- get

#[derive(Args, Debug)]
#[command(after_help = EXIT_HELP, override_usage = "babelftp get [OPTIONS] URL... [DEST]")]
pub struct GetArgs {
    /// ftp://host/path/file, one or more (the last name may hold * and ?
    /// wildcards: every matching file); then, optionally, DEST: a file, a
    /// directory or - (standard output). Several files go to a directory
    /// (default: here) or to -.
    #[arg(required = true, value_name = "URL")]
    args: Vec<String>,
    /// Resume a partial local file (REST); a failed transfer keeps what
    /// arrived, for the next -c.
    #[arg(short = 'c', long = "continue", conflicts_with = "ascii")]
    resume: bool,
    /// Text mode (TYPE A): CR LF on the wire becomes LF here.
    #[arg(short = 'a', long)]
    ascii: bool,
    #[command(flatten)]
    common: Common,
}

/// Where downloads go.
#[derive(Debug, Clone)]
enum Dest {
    Stdout,
    /// A directory (every file keeps its name there).
    Dir(PathBuf),
    /// One file.
    File(PathBuf),
}

/// One file to fetch.
struct Fetch {
    remote: Vec<u8>,
    /// The local name (from the URL, or from the listing for wildcards).
    local: OsString,
    /// Size, when already known (a listing).
    size: Option<u64>,
}

pub async fn get(a: GetArgs) -> anyhow::Result<()> {
    interruptible(get_all(&a)).await
}

async fn get_all(a: &GetArgs) -> anyhow::Result<()> {
    let mut args: Vec<&str> = a.args.iter().map(String::as_str).collect();
    let dest_arg = match args.last() {
        Some(l) if args.len() > 1 && !is_url(l) => args.pop(),
        _ => None,
    };
    let urls: Vec<(&str, FtpUrl)> = args
        .iter()
        .map(|raw| Ok((*raw, parse_url(raw)?)))
        .collect::<anyhow::Result<_>>()?;
    let mut many = urls.len() > 1;
    for (_, u) in &urls {
        match u.name() {
            Some(n) if !n.is_empty() => many |= has_wildcard(n),
            _ => return Err(Usage(ts("cli-url-names-no-file", &[])).into()),
        }
    }
    let dest = match dest_arg {
        Some("-") => Dest::Stdout,
        Some(d) if Path::new(d).is_dir() => Dest::Dir(PathBuf::from(d)),
        // `get 'ftp://h/*.txt' dl/`: a destination written as a directory
        // that is not there yet is made, as wget -P and lftp's get -O do.
        Some(d) if d.ends_with('/') && !Path::new(d).exists() => {
            std::fs::create_dir_all(d)
                .map_err(|e| anyhow::Error::new(crate::exit::Local::write(ts("cli-creating", &[("path", d)]), e)))?;
            Dest::Dir(PathBuf::from(d))
        }
        Some(d) if many => return Err(Usage(ts("cli-x1-many-need-dir", &[("dest", d)])).into()),
        Some(d) => Dest::File(PathBuf::from(d)),
        None => Dest::Dir(PathBuf::new()),
    };
    if a.resume && matches!(dest, Dest::Stdout) {
        return Err(Usage(ts("cli-x1-resume-needs-file", &[])).into());
    }
    let mut sessions = Sessions::new(&a.common);
    let mut failures = Failures::default();
    let mut total = 0;
    for (raw, url) in &urls {
        let r = async {
            let s = sessions.open(raw, url).await?;
            if a.ascii {
                s.client.set_ascii(true).await?;
            }
            let fetches = plan_get(s, url).await?;
            Ok::<_, anyhow::Error>(fetches)
        }
        .await;
        let fetches = match r {
            Ok(f) => f,
            Err(e) => {
                total += 1;
                failures.report(&e);
                sessions.after_error(&e);
                continue;
            }
        };
        for f in fetches {
            total += 1;
            let r = match sessions.cur.as_mut() {
                Some((_, s)) => fetch(s, &f, &dest, a).await,
                None => Err(anyhow::anyhow!("no session")),
            };
            if let Err(e) = r {
                failures.report(&e);
                sessions.after_error(&e);
                if sessions.cur.is_none() {
                    break;
                }
            }
        }
    }
    sessions.close().await;
    failures.finish(total, a.common.is_quiet())
}

/// The files a URL names: itself, or the matches of its wildcards.
async fn plan_get(s: &mut Session, url: &FtpUrl) -> anyhow::Result<Vec<Fetch>> {
    let path = url.path_bytes();
    let name = url.name().unwrap_or_default().to_vec();
    if has_wildcard(&name) {
        let dir = dir_of(&path).map(<[u8]>::to_vec);
        let pattern = String::from_utf8_lossy(&name).into_owned();
        let entries = s
            .list(dir.as_deref())
            .await
            .with_context(|| dir.as_deref().map(|d| shown(s, d)).unwrap_or_default())?;
        let dir_bytes = dir.as_deref().map(|d| s.encode(d)).unwrap_or_default();
        let mut out = Vec::new();
        for e in entries.iter().filter(|e| !e.is_dir) {
            let text = s
                .text_of(&e.name)
                .unwrap_or_else(|| String::from_utf8_lossy(&s.show(&e.name)).into_owned());
            let local = s.local_name(&e.name);
            // A listed name is one name in this directory: never a path
            // (a hostile listing's "../x" must not write outside DEST).
            if !is_plain_name(&e.name) || !is_plain_name(&local) {
                continue;
            }
            if crate::shell::wildcard(&pattern, &text) {
                out.push(Fetch {
                    remote: join_remote(&dir_bytes, &e.name),
                    local: OsString::from_vec(local),
                    size: e.size,
                });
            }
        }
        if out.is_empty() {
            let p = String::from_utf8_lossy(&path).into_owned();
            return Err(NoMatch(ts("cli-x1-no-match", &[("pattern", &p)])).into());
        }
        return Ok(out);
    }
    let remote = s.resolve_file(&path).await?;
    // The URL's name is the user's text when it is UTF-8; raw %HH bytes
    // are the server's and are decoded with its charset.
    let local = if std::str::from_utf8(&name).is_ok() {
        name.clone()
    } else {
        s.local_name(&name)
    };
    Ok(vec![Fetch {
        remote,
        local: OsString::from_vec(local),
        size: None,
    }])
}

/// Whether `path` is there and is neither a regular file nor a directory
/// (a FIFO, a device): downloads write into it in place.
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// The hidden temporary name beside `dest`.
fn temp_beside(dest: &Path) -> PathBuf {
    let mut name = OsString::from(".");
    name.push(dest.file_name().unwrap_or(OsStr::new("download")));
    name.push(format!(".babelftp-{}.part", std::process::id()));
    dest.with_file_name(name)
}

/// Removes what a killed download of `dest` left beside it: the
/// `.NAME.babelftp-PID.part` of a process that no longer runs (SIGKILL,
/// a crash, a power cut cleans nothing up itself). A part of a download
/// still running in another process is left alone.
fn remove_stale_parts(dest: &Path) {
    let (Some(dir), Some(name)) = (dest.parent(), dest.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let mut prefix = b".".to_vec();
    prefix.extend_from_slice(name.as_bytes());
    prefix.extend_from_slice(b".babelftp-");
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let n = e.file_name();
        let Some(pid) = n
            .as_bytes()
            .strip_prefix(prefix.as_slice())
            .and_then(|r| r.strip_suffix(b".part"))
            .and_then(|p| std::str::from_utf8(p).ok())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

async fn fetch(s: &mut Session, f: &Fetch, dest: &Dest, a: &GetArgs) -> anyhow::Result<()> {
    let remote_shown = shown(s, &f.remote);
    let size = match f.size {
        Some(n) => Some(n),
        None => s.client.size(&f.remote).await?,
    };
    let path = match dest {
        Dest::Stdout => {
            let shown_bar = Shown::start(size, 0, s.quiet());
            let mut out = Watch::new(tokio::io::stdout());
            let r = s
                .client
                .retr(&f.remote, 0, &mut out, &mut |n| shown_bar.update(n))
                .await;
            shown_bar.clear();
            let failed = out.failed;
            r.map_err(|e| local_side(e, failed, true, || ts("cli-x1-writing-stdout", &[])))
                .with_context(|| remote_shown.clone())?;
            return Ok(());
        }
        Dest::Dir(_) if !is_plain_name(f.local.as_bytes()) => {
            return Err(Usage(ts("cli-url-names-no-file", &[])).into());
        }
        Dest::Dir(d) => d.join(&f.local),
        Dest::File(p) => p.clone(),
    };
    if a.resume {
        return fetch_resume(s, f, size, &path, &remote_shown).await;
    }
    download(s, &f.remote, size, &path).await.map(drop)
}

/// Downloads `remote` to the local `path` without touching it until the
/// transfer is whole: into a hidden temporary file beside it, renamed
/// over it at the end (its permissions kept; a symlink's target is what
/// is replaced); a failure, or the future being dropped (Ctrl-C), removes
/// the temporary file. A progress bar and the summary line unless `-q`.
/// For every command that writes a downloaded file (mirror and the shell
/// can use it too). Returns the octets received.
pub(crate) async fn download(s: &mut Session, remote: &[u8], size: Option<u64>, path: &Path) -> anyhow::Result<u64> {
    let display = path.display().to_string();
    let remote_shown = shown(s, remote);
    let target = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path).unwrap_or(path.to_path_buf()),
        _ => path.to_path_buf(),
    };
    // A FIFO, a terminal, /dev/null: written in place (nothing to replace
    // whole, no directory to put a temporary file in). Anything else: a
    // temporary file beside it, renamed over it when complete.
    let special = is_special(&target);
    if !special {
        remove_stale_parts(&target);
    }
    let tmp = if special { target.clone() } else { temp_beside(&target) };
    let file = if special {
        tokio::fs::OpenOptions::new().write(true).open(&tmp).await
    } else {
        tokio::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .await
    }
    .map_err(|e| Local::write(ts("cli-creating", &[("path", &display)]), e))?;
    let mut scratch = Scratch {
        path: tmp.clone(),
        only_if_empty: false,
        keep: special,
    };
    let bar = Shown::start(size, 0, s.quiet());
    let mut out = Watch::new(file);
    let r = s.client.retr(remote, 0, &mut out, &mut |n| bar.update(n)).await;
    let failed = out.failed;
    let n = match r {
        Ok(n) => n,
        Err(e) => {
            bar.clear();
            return Err(local_side(e, failed, true, || {
                ts("cli-x1-writing", &[("path", &display)])
            }))
            .with_context(|| remote_shown.clone());
        }
    };
    if !special {
        let file = out.inner;
        file.sync_all()
            .await
            .map_err(|e| Local::write(ts("cli-x1-writing", &[("path", &display)]), e))?;
        drop(file);
        if let Ok(m) = std::fs::metadata(&target) {
            std::fs::set_permissions(&tmp, m.permissions()).ok();
        }
        std::fs::rename(&tmp, &target).map_err(|e| Local::write(ts("cli-x1-writing", &[("path", &display)]), e))?;
        scratch.keep = true;
    }
    bar.done(n, &display);
    Ok(n)
}

/// `get -c`: continues the destination itself.
async fn fetch_resume(
    s: &mut Session,
    f: &Fetch,
    size: Option<u64>,
    path: &Path,
    remote_shown: &str,
) -> anyhow::Result<()> {
    let display = path.display().to_string();
    let existed = path.exists();
    let offset = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    if let Some(size) = size {
        if offset > size {
            return Err(BadResume(ts(
                "cli-x1-resume-larger",
                &[
                    ("dest", &display),
                    ("have", &offset.to_string()),
                    ("src", remote_shown),
                    ("size", &size.to_string()),
                ],
            ))
            .into());
        }
        if offset == size && existed {
            if !s.quiet() {
                eprintln!(
                    "{}",
                    ts("cli-x1-complete", &[("dest", &display), ("bytes", &size.to_string())])
                );
            }
            return Ok(());
        }
    }
    let file = tokio::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .await
        .map_err(|e| Local::write(ts("cli-opening", &[("path", &display)]), e))?;
    // A file this run created is removed if nothing arrives; a partial
    // one is kept for the next -c.
    let _scratch = Scratch {
        path: path.to_path_buf(),
        only_if_empty: true,
        keep: existed,
    };
    let bar = Shown::start(size, offset, s.quiet());
    let mut out = Watch::new(file);
    let r = s.client.retr(&f.remote, offset, &mut out, &mut |n| bar.update(n)).await;
    let failed = out.failed;
    match r {
        Ok(n) => {
            bar.done(n, &display);
            Ok(())
        }
        Err(e) => {
            bar.clear();
            Err(local_side(e, failed, true, || {
                ts("cli-x1-writing", &[("path", &display)])
            }))
            .with_context(|| remote_shown.to_owned())
        }
    }
}

// ---------------------------------------------------------------- put

#[derive(Args, Debug)]
#[command(after_help = EXIT_HELP, override_usage = "babelftp put [OPTIONS] FILE... URL")]
pub struct PutArgs {
    /// Local files (- for standard input), then the URL: ftp://host/dir/
    /// (ending in /: the files keep their names there) or, for one file,
    /// ftp://host/dir/name.
    #[arg(required = true, value_name = "FILE", value_parser = clap::value_parser!(OsString))]
    args: Vec<OsString>,
    /// Resume: append what the server does not have yet (REST + STOR).
    #[arg(short = 'c', long = "continue", conflicts_with = "ascii")]
    resume: bool,
    /// Text mode (TYPE A): LF here becomes CR LF on the wire.
    #[arg(short = 'a', long)]
    ascii: bool,
    #[command(flatten)]
    common: Common,
}

/// A checked local source.
enum Source {
    Stdin,
    File(PathBuf),
}

/// Refuses a source that cannot be uploaded, before anything is sent.
fn check_source(p: &Path) -> anyhow::Result<()> {
    let display = p.display().to_string();
    let m = std::fs::metadata(p).map_err(|e| Local::read(ts("cli-opening", &[("path", &display)]), e))?;
    if m.is_dir() {
        return Err(Local {
            write: false,
            what: ts("cli-x1-is-directory", &[("path", &display)]),
            source: None,
        }
        .into());
    }
    Ok(())
}

pub async fn put(a: PutArgs) -> anyhow::Result<()> {
    interruptible(put_all(&a)).await
}

async fn put_all(a: &PutArgs) -> anyhow::Result<()> {
    let (url_os, srcs) = match a.args.split_last() {
        Some((u, srcs)) if !srcs.is_empty() => (u, srcs),
        _ => return Err(Usage(ts("cli-needs-argument", &[("command", "put FILE...")])).into()),
    };
    let raw = url_os.to_str().ok_or_else(|| {
        Usage(ts(
            "cli-bad-url",
            &[("url", &String::from_utf8_lossy(url_os.as_bytes()))],
        ))
    })?;
    let url = parse_url(raw)?;
    let to_dir = url.is_directory() || url.path_bytes().is_empty();
    let stdin = srcs.iter().any(|s| s == "-");
    if stdin && (srcs.len() > 1 || to_dir) {
        return Err(Usage(ts("cli-x1-stdin-alone", &[])).into());
    }
    if stdin && a.resume {
        return Err(Usage(ts("cli-x1-resume-needs-file", &[])).into());
    }
    if srcs.len() > 1 && !to_dir {
        return Err(Usage(ts("cli-x1-put-many-need-dir", &[])).into());
    }
    let mut failures = Failures::default();
    let mut sources = Vec::new();
    for src in srcs {
        if src == "-" {
            sources.push(Source::Stdin);
            continue;
        }
        let p = PathBuf::from(src);
        match check_source(&p) {
            Ok(()) => sources.push(Source::File(p)),
            Err(e) => failures.report(&e),
        }
    }
    if !sources.is_empty() {
        let mut sessions = Sessions::new(&a.common);
        for src in &sources {
            let r = async {
                let s = sessions.open(raw, &url).await?;
                match put_one(s, src, &url, to_dir, a).await {
                    // `put f ftp://h/up` where up is a directory: into it,
                    // as cp does (found on the refusal: no extra round trip
                    // for the usual case).
                    Err(e)
                        if !to_dir
                            && matches!(src, Source::File(_))
                            && crate::exit::is_permanent_refusal(&e)
                            && remote_is_dir(s, &url).await =>
                    {
                        put_one(s, src, &url, true, a).await
                    }
                    r => r,
                }
            }
            .await;
            if let Err(e) = r {
                failures.report(&e);
                sessions.after_error(&e);
            }
        }
        sessions.close().await;
    }
    failures.finish(srcs.len(), a.common.is_quiet())
}

/// Whether the URL's path is a directory on the server: CWD into it, then
/// back where the login put us.
async fn remote_is_dir(s: &mut Session, url: &FtpUrl) -> bool {
    let path = s.encode(&url.path_bytes());
    let Ok(home) = s.client.pwd().await else {
        return false;
    };
    if s.client.cwd(&path).await.is_err() {
        return false;
    }
    s.client.cwd(&home).await.is_ok()
}

async fn put_one(s: &mut Session, src: &Source, url: &FtpUrl, to_dir: bool, a: &PutArgs) -> anyhow::Result<()> {
    let mut path = url.path_bytes();
    if to_dir {
        let Source::File(p) = src else {
            return Err(Usage(ts("cli-x1-stdin-alone", &[])).into());
        };
        let name = p.file_name().context("the source has no file name")?;
        if !path.is_empty() && !path.ends_with(b"/") {
            path.push(b'/');
        }
        path.extend_from_slice(name.as_encoded_bytes());
    }
    let remote = s.encode(&path);
    let remote_shown = shown(s, &remote);
    if a.ascii {
        s.client.set_ascii(true).await?;
    }
    match src {
        Source::Stdin => {
            let bar = Shown::start(None, 0, s.quiet());
            let mut input = Watch::new(tokio::io::stdin());
            let r = s
                .client
                .stor(&remote, StoreMode::Replace, &mut input, &mut |n| bar.update(n))
                .await;
            let failed = input.failed;
            let n = r
                .map_err(|e| local_side(e, failed, false, || ts("cli-x1-reading-stdin", &[])))
                .with_context(|| remote_shown.clone())?;
            bar.done(n, &remote_shown);
            Ok(())
        }
        Source::File(p) => {
            let display = p.display().to_string();
            let mut file = tokio::fs::File::open(p)
                .await
                .map_err(|e| Local::read(ts("cli-opening", &[("path", &display)]), e))?;
            let len = file.metadata().await.map(|m| m.len()).ok();
            let mode = if a.resume {
                let have = s.client.size(&remote).await?.unwrap_or(0);
                if let Some(len) = len {
                    if have > len {
                        return Err(BadResume(ts(
                            "cli-x1-resume-larger",
                            &[
                                ("dest", &remote_shown),
                                ("have", &have.to_string()),
                                ("src", &display),
                                ("size", &len.to_string()),
                            ],
                        ))
                        .into());
                    }
                    if have == len && have > 0 {
                        if !s.quiet() {
                            eprintln!(
                                "{}",
                                ts(
                                    "cli-x1-complete",
                                    &[("dest", &remote_shown), ("bytes", &have.to_string())]
                                )
                            );
                        }
                        return Ok(());
                    }
                }
                file.seek(std::io::SeekFrom::Start(have))
                    .await
                    .map_err(|e| Local::read(ts("cli-opening", &[("path", &display)]), e))?;
                StoreMode::At(have)
            } else {
                StoreMode::Replace
            };
            let start = match mode {
                StoreMode::At(n) => n,
                _ => 0,
            };
            let bar = Shown::start(len, start, s.quiet());
            let mut input = Watch::new(file);
            let r = s.client.stor(&remote, mode, &mut input, &mut |n| bar.update(n)).await;
            let failed = input.failed;
            let n = match r {
                Ok(n) => n,
                Err(e) => {
                    bar.clear();
                    return Err(local_side(e, failed, false, || {
                        ts("cli-opening", &[("path", &display)])
                    }))
                    .with_context(|| remote_shown.clone());
                }
            };
            bar.done(n, &remote_shown);
            Ok(())
        }
    }
}

// ---------------------------------------------------------------- rm, mkdir

#[derive(Args, Debug)]
#[command(after_help = EXIT_HELP)]
pub struct RmArgs {
    /// ftp://host/path, one or more: a file, or with a trailing / a
    /// directory; the last name may hold * and ? wildcards.
    #[arg(required = true, value_name = "URL")]
    urls: Vec<String>,
    /// Remove directories and everything in them.
    #[arg(short = 'r', long)]
    recursive: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
#[command(after_help = EXIT_HELP)]
pub struct CatArgs {
    /// ftp://host/path/file, one or more (* and ? in the last name).
    #[arg(required = true, value_name = "URL")]
    urls: Vec<String>,
    /// Text mode (TYPE A): CR LF on the wire becomes LF here.
    #[arg(short = 'a', long)]
    ascii: bool,
    #[command(flatten)]
    common: Common,
}

/// `cat URL...`: the files to standard output, one after the other (`get
/// URL... -`, as lftp's cat).
pub async fn cat(a: CatArgs) -> anyhow::Result<()> {
    let mut args = a.urls;
    args.push("-".into());
    get(GetArgs {
        args,
        resume: false,
        ascii: a.ascii,
        common: a.common,
    })
    .await
}

#[derive(Args, Debug)]
#[command(after_help = EXIT_HELP)]
pub struct ChmodArgs {
    /// The permissions, in octal (644, 0755).
    #[arg(value_name = "MODE", value_parser = parse_mode)]
    mode: u32,
    /// ftp://host/path, one or more.
    #[arg(required = true, value_name = "URL")]
    urls: Vec<String>,
    #[command(flatten)]
    common: Common,
}

fn parse_mode(s: &str) -> Result<u32, String> {
    u32::from_str_radix(s, 8)
        .ok()
        .filter(|m| *m <= 0o7777 && !s.is_empty() && s.len() <= 4)
        .ok_or_else(|| ts("cli-bad-mode", &[("mode", s)]))
}

/// `chmod MODE URL...`: SITE CHMOD (what lftp's chmod and FileZilla send).
pub async fn chmod(a: ChmodArgs) -> anyhow::Result<()> {
    let urls = parse_urls(&a.urls)?;
    interruptible(each_url(&urls, &a.common, PathOp::Chmod { mode: a.mode })).await
}

#[derive(Args, Debug)]
#[command(after_help = EXIT_HELP)]
pub struct MkdirArgs {
    /// ftp://host/path/, one or more.
    #[arg(required = true, value_name = "URL")]
    urls: Vec<String>,
    /// Make parent directories as needed; an existing directory is no error.
    #[arg(short = 'p', long)]
    parents: bool,
    #[command(flatten)]
    common: Common,
}

/// Removes a remote directory and all it holds (server bytes throughout).
fn remove_tree<'a>(
    s: &'a mut Session,
    dir: &'a [u8],
) -> Pin<Box<dyn std::future::Future<Output = anyhow::Result<()>> + 'a>> {
    Box::pin(async move {
        let entries = s.list_raw(Some(dir)).await.with_context(|| shown(s, dir))?;
        // Only the directory's own names: a hostile "../x" is not followed.
        for e in entries.into_iter().filter(|e| is_plain_name(&e.name)) {
            let p = join_remote(dir, &e.name);
            if e.is_dir {
                remove_tree(s, &p).await?;
            } else {
                s.client.delete(&p).await.with_context(|| shown(s, &p))?;
            }
        }
        s.client.rmdir(dir).await.with_context(|| shown(s, dir))?;
        Ok(())
    })
}

pub async fn rm(a: RmArgs) -> anyhow::Result<()> {
    interruptible(rm_all(&a)).await
}

async fn rm_all(a: &RmArgs) -> anyhow::Result<()> {
    let urls = parse_urls(&a.urls)?;
    for (_, u) in &urls {
        let p = u.path_bytes();
        if p.iter().all(|&b| b == b'/') {
            let text = String::from_utf8_lossy(&p).into_owned();
            return Err(Usage(ts("cli-x1-rm-top", &[("path", &text)])).into());
        }
    }
    each_url(&urls, &a.common, PathOp::Rm { recursive: a.recursive }).await
}

/// Parses every URL first: a mistake in any is a usage error before
/// anything is sent.
fn parse_urls(raws: &[String]) -> anyhow::Result<Vec<(&str, FtpUrl)>> {
    raws.iter().map(|raw| Ok((raw.as_str(), parse_url(raw)?))).collect()
}

/// What `rm` and `mkdir` do to each of their URLs.
#[derive(Clone, Copy)]
enum PathOp {
    Rm { recursive: bool },
    Mkdir { parents: bool },
    Chmod { mode: u32 },
}

/// Runs `op` on every URL, one session per server; each failure is
/// reported and the others still go.
async fn each_url(urls: &[(&str, FtpUrl)], common: &Common, op: PathOp) -> anyhow::Result<()> {
    let mut sessions = Sessions::new(common);
    let mut failures = Failures::default();
    for (raw, url) in urls {
        let r = async {
            let s = sessions.open(raw, url).await?;
            match op {
                PathOp::Rm { recursive } => rm_one(s, url, recursive).await,
                PathOp::Mkdir { parents } => mkdir_one(s, url, parents).await,
                PathOp::Chmod { mode } => {
                    let path = s.encode(&url.path_bytes());
                    let mut line = format!("CHMOD {mode:o} ").into_bytes();
                    line.extend_from_slice(&path);
                    s.client
                        .run(babelftp_proto::command::Command::Site(line))
                        .await
                        .map(drop)
                        .with_context(|| shown(s, &path))
                }
            }
        }
        .await;
        if let Err(e) = r {
            failures.report(&e);
            sessions.after_error(&e);
        }
    }
    sessions.close().await;
    failures.finish(urls.len(), common.is_quiet())
}

async fn rm_one(s: &mut Session, url: &FtpUrl, recursive: bool) -> anyhow::Result<()> {
    let path = url.path_bytes();
    let name = url.name().unwrap_or_default();
    if has_wildcard(name) {
        let dir = dir_of(&path).map(<[u8]>::to_vec);
        let pattern = String::from_utf8_lossy(name).into_owned();
        let entries = s
            .list(dir.as_deref())
            .await
            .with_context(|| dir.as_deref().map(|d| shown(s, d)).unwrap_or_default())?;
        let dir_bytes = dir.as_deref().map(|d| s.encode(d)).unwrap_or_default();
        let mut any = false;
        for e in entries
            .iter()
            .filter(|e| (recursive || !e.is_dir) && is_plain_name(&e.name))
        {
            let text = s
                .text_of(&e.name)
                .unwrap_or_else(|| String::from_utf8_lossy(&s.show(&e.name)).into_owned());
            if crate::shell::wildcard(&pattern, &text) {
                any = true;
                let p = join_remote(&dir_bytes, &e.name);
                if e.is_dir {
                    remove_tree(s, &p).await?;
                } else {
                    s.client.delete(&p).await.with_context(|| shown(s, &p))?;
                }
            }
        }
        if !any {
            let p = String::from_utf8_lossy(&path).into_owned();
            return Err(NoMatch(ts("cli-x1-no-match", &[("pattern", &p)])).into());
        }
        return Ok(());
    }
    if url.is_directory() {
        let trimmed = path.strip_suffix(b"/").unwrap_or(&path);
        let p = s.resolve_file(trimmed).await?;
        if recursive {
            return remove_tree(s, &p).await;
        }
        return s.client.rmdir(&p).await.with_context(|| shown(s, &p));
    }
    let p = s.resolve_file(&path).await?;
    match s.client.delete(&p).await {
        Ok(()) => Ok(()),
        // rm -r NAME: a directory too, as rm -r does.
        Err(e @ babelftp_client::Error::Refused(_)) if recursive => match remove_tree(s, &p).await {
            Ok(()) => Ok(()),
            Err(_) => Err(anyhow::Error::new(e).context(shown(s, &p))),
        },
        Err(e) => Err(anyhow::Error::new(e).context(shown(s, &p))),
    }
}

pub async fn mkdir(a: MkdirArgs) -> anyhow::Result<()> {
    interruptible(mkdir_all(&a)).await
}

async fn mkdir_all(a: &MkdirArgs) -> anyhow::Result<()> {
    let urls = parse_urls(&a.urls)?;
    each_url(&urls, &a.common, PathOp::Mkdir { parents: a.parents }).await
}

/// Whether a remote directory exists (CWD there, and back).
async fn is_remote_dir(s: &mut Session, p: &[u8]) -> anyhow::Result<bool> {
    let here = s.client.pwd().await?;
    if s.client.cwd(p).await.is_err() {
        return Ok(false);
    }
    s.client.cwd(&here).await?;
    Ok(true)
}

async fn mkdir_one(s: &mut Session, url: &FtpUrl, parents: bool) -> anyhow::Result<()> {
    let path = url.path_bytes();
    let path = path.strip_suffix(b"/").unwrap_or(&path).to_vec();
    if !parents {
        let p = s.encode(&path);
        return s.client.mkdir(&p).await.with_context(|| shown(s, &p));
    }
    // Every prefix in turn: a/, a/b/, a/b/c; one that exists is passed.
    let mut prefixes = Vec::new();
    for (i, &b) in path.iter().enumerate() {
        if b == b'/' && i > 0 && path[i - 1] != b'/' {
            prefixes.push(path[..i].to_vec());
        }
    }
    if !path.is_empty() {
        prefixes.push(path.clone());
    }
    for prefix in prefixes {
        let p = s.encode(&prefix);
        if let Err(e) = s.client.mkdir(&p).await {
            if !matches!(e, babelftp_client::Error::Refused(_)) || !is_remote_dir(s, &p).await? {
                return Err(anyhow::Error::new(e).context(shown(s, &p)));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
