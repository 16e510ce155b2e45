//! The client subcommands: `ls`, `get`, `put`, `mkdir`, `rm`, `mv`.
//!
//! Names travel as the server's bytes. For display they are decoded with
//! the server's charset: UTF-8 when every name is UTF-8, else an explicit
//! `--charset`, else the one remembered for that server, else a guess over
//! the whole listing (remembered for next time, RFC 2640 3.3). A path the
//! user types is sent as UTF-8 unless the server's charset is a legacy one,
//! in which case it is encoded into it when it can be.

use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;

use anyhow::{bail, Context};
use babelftp_client::{Client, Options, RemoteEntry, TlsMode, TlsOptions, TlsVersion};
use babelftp_i18n::Charset;
use babelftp_proto::display::display_path_isolated;
use babelftp_proto::url::FtpUrl;
use clap::Args;

/// Flags every client subcommand takes.
#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Charset of the server's names: auto, or a label (shift_jis, windows-1251…).
    #[arg(long, default_value = "auto")]
    charset: String,
    /// Language to ask the server for (LANG); default: your locale.
    #[arg(long, value_name = "TAG")]
    lang: Option<String>,
    /// Print names exactly as the server sent them.
    #[arg(long)]
    raw: bool,
    /// Forget the charset remembered for this server.
    #[arg(long)]
    forget: bool,
    /// Active mode (the server connects back).
    #[arg(long)]
    active: bool,
    /// Login as USER[:PASSWORD] (else from the URL, ~/.netrc, or anonymous).
    #[arg(short = 'u', long, value_name = "USER[:PASSWORD]")]
    user: Option<String>,
    /// Show the control dialogue and every automatic choice.
    #[arg(short, long)]
    verbose: bool,
    /// No progress output.
    #[arg(short, long)]
    quiet: bool,
    /// Explicit FTPS on ftp:// URLs: AUTH TLS first, and nothing in clear if
    /// the server refuses it (ftps:// URLs are implicit FTPS, port 990).
    #[arg(long)]
    tls: bool,
    /// Trust the certificates in FILE (PEM) instead of the system's roots.
    #[arg(long, value_name = "FILE")]
    cacert: Option<PathBuf>,
    /// Do not check the server's certificate (a warning says so on every run).
    #[arg(short = 'k', long)]
    insecure: bool,
    /// TLS versions: auto (1.2 when the server has it, whose sessions resume
    /// on any number of data connections; else 1.3), 1.2 or 1.3.
    #[arg(long, value_name = "VERSION", default_value = "auto", value_parser = ["auto", "1.2", "1.3"])]
    tls_version: String,
}

impl Common {
    /// The TLS settings for `url`.
    fn tls(&self, url: &FtpUrl) -> TlsOptions {
        let mode = if url.secure {
            TlsMode::Implicit
        } else if self.tls {
            TlsMode::Explicit
        } else {
            TlsMode::Off
        };
        TlsOptions {
            mode,
            cacert: self.cacert.clone(),
            insecure: self.insecure,
            version: match self.tls_version.as_str() {
                "1.2" => TlsVersion::Tls12,
                "1.3" => TlsVersion::Tls13,
                _ => TlsVersion::Auto,
            },
        }
    }
}

/// A connected client with what it knows about the server's names.
pub struct Session {
    pub client: Client,
    pub url: FtpUrl,
    key: String,
    charset: Option<Charset>,
    explicit: bool,
    common: Common,
}

fn state_file() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    Some(base.join("babelftp").join("charsets"))
}

/// Reads the remembered charset of `key` (`host:port`).
fn remembered(key: &str) -> Option<Charset> {
    let text = std::fs::read_to_string(state_file()?).ok()?;
    text.lines()
        .filter_map(|l| l.split_once(' '))
        .find(|(k, _)| *k == key)
        .and_then(|(_, label)| Charset::for_label(label.trim()))
}

/// Remembers (or with `None` forgets) the charset of `key`.
fn remember(key: &str, cs: Option<Charset>) -> std::io::Result<()> {
    let Some(path) = state_file() else { return Ok(()) };
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let mut lines: Vec<String> = old
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter(|l| l.split_once(' ').map(|(k, _)| k) != Some(key))
        .map(str::to_owned)
        .collect();
    if let Some(c) = cs {
        lines.push(format!("{key} {}", c.name()));
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("tmp");
    let text = if lines.is_empty() {
        String::new()
    } else {
        lines.join("\n") + "\n"
    };
    std::fs::write(&tmp, text)?;
    std::fs::rename(tmp, path)
}

impl Session {
    /// Parses the URL, connects and logs in.
    pub async fn open(url: &str, common: &Common) -> anyhow::Result<Session> {
        let url = FtpUrl::parse(url).with_context(|| crate::msg::ts("cli-bad-url", &[("url", url)]))?;
        let host = url.host.to_string();
        let host_plain = host.trim_start_matches('[').trim_end_matches(']').to_string();
        let port = url.port_or_default();
        let (user, password) = crate::login::credentials(
            &host_plain,
            common.user.as_deref(),
            url.user.as_deref(),
            url.password.as_deref(),
        )?;
        let tls = common.tls(&url);
        if tls.mode != TlsMode::Off && tls.insecure {
            eprintln!("{}", crate::msg::ts("cli-insecure", &[("host", &host_plain)]));
        }
        let opts = Options {
            user,
            password,
            lang: common.lang.clone(),
            host: Some(host_plain.clone()),
            active: common.active,
            verbose: common.verbose,
            tls,
        };
        let client = Client::connect(&host_plain, port, &opts)
            .await
            .with_context(|| crate::msg::ts("cli-connecting", &[("host", &format!("{host_plain}:{port}"))]))?;
        let key = format!("{host_plain}:{port}");
        if common.forget {
            remember(&key, None).ok();
        }
        let (charset, explicit) = if common.charset.eq_ignore_ascii_case("auto") {
            (remembered(&key), false)
        } else {
            let c = Charset::for_label(&common.charset)
                .with_context(|| crate::msg::ts("cli-unknown-charset", &[("charset", &common.charset)]))?;
            (Some(c).filter(|c| *c != Charset::utf8()), true)
        };
        let mut s = Session {
            client,
            url,
            key,
            charset,
            explicit,
            common: common.clone(),
        };
        if common.verbose {
            for n in &s.client.notes {
                eprintln!("* {n}");
            }
            if let Some(c) = s.charset {
                eprintln!(
                    "* {}",
                    crate::msg::ts(
                        if explicit {
                            "cli-charset-explicit"
                        } else {
                            "cli-charset-remembered"
                        },
                        &[("charset", c.name())]
                    )
                );
            }
        }
        s.client.notes.clear();
        Ok(s)
    }

    /// A name for the screen (RFC 2640 3.3): decoded text, undisplayable
    /// octets as `%HH`, right-to-left names isolated when stdout is a
    /// terminal (in a pipe the marks would become part of the name); with
    /// `--raw`, the bytes as they came.
    pub fn show(&self, name: &[u8]) -> Vec<u8> {
        if self.common.raw {
            return name.to_vec();
        }
        let isolate = std::io::IsTerminal::is_terminal(&std::io::stdout());
        match self.text_of(name) {
            Some(text) => display_path_isolated(text.as_bytes(), isolate).into_bytes(),
            None => display_path_isolated(name, isolate).into_bytes(),
        }
    }

    /// A remote name as a local file name: decoded into UTF-8 when the
    /// server's charset converts it exactly, else the same bytes.
    pub fn local_name(&self, name: &[u8]) -> Vec<u8> {
        match self.text_of(name) {
            Some(text) => text.into_bytes(),
            None => name.to_vec(),
        }
    }

    /// The bytes to send for a path the user wrote (UTF-8 from the URL).
    pub fn encode(&self, path: &[u8]) -> Vec<u8> {
        match (self.charset, std::str::from_utf8(path)) {
            (Some(c), Ok(text)) => c.from_utf8(text).unwrap_or_else(|| path.to_vec()),
            _ => path.to_vec(),
        }
    }

    /// Lists a directory the user named, learning the charset from the
    /// names when it is not known.
    pub async fn list(&mut self, dir: Option<&[u8]>) -> anyhow::Result<Vec<RemoteEntry>> {
        let dir = dir.map(|d| self.encode(d));
        self.list_raw(dir.as_deref()).await
    }

    /// A remote name as text: valid UTF-8 is taken as UTF-8 (a legacy
    /// name is almost never valid UTF-8 by accident, and servers often mix
    /// UTF-8 and legacy directories); otherwise decoded with the server's
    /// charset when it converts exactly; else `None`.
    pub fn text_of(&self, name: &[u8]) -> Option<String> {
        std::str::from_utf8(name)
            .ok()
            .map(str::to_owned)
            .or_else(|| self.charset.and_then(|c| c.to_utf8(name)))
    }

    /// The bytes for a new name in a directory whose names are `siblings`:
    /// UTF-8 where the directory's names are all UTF-8 (or it is empty),
    /// the server's legacy charset where they are not, or always the
    /// explicit `--charset`.
    pub fn encode_in(&self, name: &[u8], siblings: &[&[u8]]) -> Vec<u8> {
        let legacy_dir = siblings.iter().any(|n| !babelftp_proto::utf8::is_utf8(n));
        if self.explicit || legacy_dir {
            self.encode(name)
        } else {
            name.to_vec()
        }
    }

    /// Lists a directory given in the server's own bytes.
    pub async fn list_raw(&mut self, dir: Option<&[u8]>) -> anyhow::Result<Vec<RemoteEntry>> {
        let entries = self.client.list(dir).await?;
        if !self.explicit {
            if let Some(c) = Client::guess_charset(&entries) {
                if self.charset != Some(c) {
                    if self.common.verbose {
                        eprintln!(
                            "* {}",
                            crate::msg::ts(
                                "cli-charset-guessed",
                                &[("charset", c.name()), ("count", &entries.len().to_string())]
                            )
                        );
                    }
                    self.charset = Some(c);
                    remember(&self.key, Some(c)).ok();
                }
            }
        }
        Ok(entries)
    }

    /// The remote path of a file the user named, resolved so that it can
    /// be retrieved: the encoded bytes if they exist, else the listed name
    /// that displays as the same text (charset learned on the way).
    pub async fn resolve_file(&mut self, path: &[u8]) -> anyhow::Result<Vec<u8>> {
        let encoded = self.encode(path);
        if encoded.is_ascii() || self.client.size(&encoded).await?.is_some() {
            return Ok(encoded);
        }
        let (dir, name) = match path.iter().rposition(|&b| b == b'/') {
            Some(i) => (Some(&path[..i.max(1)]), &path[i + 1..]),
            None => (None, path),
        };
        let want = String::from_utf8_lossy(name).into_owned();
        let entries = self.list(dir).await?;
        for e in entries {
            let shown = self.text_of(&e.name);
            if e.name == name || shown.as_deref() == Some(want.as_str()) {
                let mut full = dir.map(|d| self.encode(d)).unwrap_or_default();
                if !full.is_empty() && !full.ends_with(b"/") {
                    full.push(b'/');
                }
                full.extend_from_slice(&e.name);
                return Ok(full);
            }
        }
        Ok(encoded)
    }

    pub fn quiet(&self) -> bool {
        self.common.quiet
    }
}

/// What a person sees of a transfer: a progress bar on a terminal (none
/// in a pipe), then one line saying where the bytes went; nothing with -q.
struct Shown {
    bar: Option<indicatif::ProgressBar>,
    start: u64,
    quiet: bool,
}

impl Shown {
    fn start(total: Option<u64>, start: u64, quiet: bool) -> Shown {
        use std::io::IsTerminal;
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = match total {
                Some(t) => indicatif::ProgressBar::new(t),
                None => indicatif::ProgressBar::new_spinner(),
            };
            if let Ok(style) =
                indicatif::ProgressStyle::with_template("{wide_bar} {bytes}/{total_bytes} {bytes_per_sec} {eta}")
            {
                bar.set_style(style);
            }
            bar.set_position(start);
            bar
        });
        Shown { bar, start, quiet }
    }

    /// `n` octets moved so far in this transfer.
    fn update(&self, n: u64) {
        if let Some(b) = &self.bar {
            b.set_position(self.start + n);
        }
    }

    fn done(self, bytes: u64, dest: &str) {
        if let Some(b) = self.bar {
            b.finish_and_clear();
        }
        if !self.quiet {
            eprintln!(
                "{}",
                crate::msg::ts("cli-bytes-to", &[("bytes", &bytes.to_string()), ("dest", dest)])
            );
        }
    }
}

#[derive(Args, Debug)]
pub struct LsArgs {
    /// ftp://[user[:password]@]host[:port]/path/
    url: String,
    /// Long format: kind, size, time.
    #[arg(short, long)]
    long: bool,
    #[command(flatten)]
    common: Common,
}

pub async fn ls(a: LsArgs) -> anyhow::Result<()> {
    let mut s = Session::open(&a.url, &a.common).await?;
    let path = s.url.path_bytes();
    let dir = if path.is_empty() { None } else { Some(path.as_slice()) };
    let entries = s.list(dir).await?;
    let mut out = Vec::new();
    for e in &entries {
        if a.long {
            let kind = if e.is_dir { 'd' } else { '-' };
            let size = e.size.map(|n| n.to_string()).unwrap_or_default();
            let time = e
                .modified
                .map(|t| babelftp_proto::listing::Civil::from_unix(t).time_val())
                .unwrap_or_default();
            out.extend_from_slice(format!("{kind} {size:>12} {time:>14} ").as_bytes());
        }
        out.extend(s.show(&e.name));
        if e.is_dir {
            out.push(b'/');
        }
        out.push(b'\n');
    }
    std::io::Write::write_all(&mut std::io::stdout().lock(), &out)?;
    s.client.quit().await?;
    Ok(())
}

#[derive(Args, Debug)]
pub struct GetArgs {
    /// ftp://host/path/file
    url: String,
    /// Local destination (file or directory); default: the file's name here.
    dest: Option<PathBuf>,
    /// Resume a partial local file (REST).
    #[arg(short = 'c', long = "continue", conflicts_with = "ascii")]
    resume: bool,
    /// Text mode (TYPE A): CR LF on the wire becomes LF here.
    #[arg(short = 'a', long)]
    ascii: bool,
    #[command(flatten)]
    common: Common,
}

pub async fn get(a: GetArgs) -> anyhow::Result<()> {
    let mut s = Session::open(&a.url, &a.common).await?;
    let path = s.url.path_bytes();
    let Some(name) = s.url.name().filter(|n| !n.is_empty()).map(<[u8]>::to_vec) else {
        bail!(crate::msg::ts("cli-url-names-no-file", &[]));
    };
    let remote = s.resolve_file(&path).await?;
    if a.ascii {
        s.client.set_ascii(true).await?;
    }
    // The URL's name is the user's text when it is UTF-8; raw %HH bytes
    // are the server's and are decoded with its charset.
    let local = if std::str::from_utf8(&name).is_ok() {
        name.clone()
    } else {
        s.local_name(&name)
    };
    let local_name = std::ffi::OsString::from_vec(local);
    let dest = match a.dest {
        Some(d) if d.is_dir() => d.join(&local_name),
        Some(d) => d,
        None => PathBuf::from(&local_name),
    };
    let offset = if a.resume {
        std::fs::metadata(&dest).map(|m| m.len()).unwrap_or(0)
    } else {
        0
    };
    let mut file = tokio::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(a.resume)
        .truncate(!a.resume)
        .open(&dest)
        .await
        .with_context(|| crate::msg::ts("cli-opening", &[("path", &dest.display().to_string())]))?;
    let total = s.client.size(&remote).await?;
    let shown = Shown::start(total, offset, s.quiet());
    let n = s
        .client
        .retr(&remote, offset, &mut file, &mut |n| shown.update(n))
        .await?;
    shown.done(offset + n, &dest.display().to_string());
    s.client.quit().await?;
    Ok(())
}

#[derive(Args, Debug)]
pub struct PutArgs {
    /// Local file.
    src: PathBuf,
    /// ftp://host/path/ (a directory, ending in /) or ftp://host/path/name
    url: String,
    /// Resume: append what the server does not have yet (REST + STOR).
    #[arg(short = 'c', long = "continue", conflicts_with = "ascii")]
    resume: bool,
    /// Text mode (TYPE A): LF here becomes CR LF on the wire.
    #[arg(short = 'a', long)]
    ascii: bool,
    #[command(flatten)]
    common: Common,
}

pub async fn put(a: PutArgs) -> anyhow::Result<()> {
    use tokio::io::AsyncSeekExt;
    let mut s = Session::open(&a.url, &a.common).await?;
    let mut path = s.url.path_bytes();
    if s.url.is_directory() || path.is_empty() {
        let name = a.src.file_name().context("the source has no file name")?;
        if !path.is_empty() && !path.ends_with(b"/") {
            path.push(b'/');
        }
        path.extend_from_slice(name.as_encoded_bytes());
    }
    let remote = s.encode(&path);
    if a.ascii {
        s.client.set_ascii(true).await?;
    }
    let mut file = tokio::fs::File::open(&a.src)
        .await
        .with_context(|| crate::msg::ts("cli-opening", &[("path", &a.src.display().to_string())]))?;
    let mode = if a.resume {
        let have = s.client.size(&remote).await?.unwrap_or(0);
        file.seek(std::io::SeekFrom::Start(have)).await?;
        babelftp_client::client::StoreMode::At(have)
    } else {
        babelftp_client::client::StoreMode::Replace
    };
    let len = file.metadata().await.map(|m| m.len()).ok();
    let start = match mode {
        babelftp_client::client::StoreMode::At(n) => n,
        _ => 0,
    };
    let shown = Shown::start(len, start, s.quiet());
    let n = s
        .client
        .stor(&remote, mode, &mut file, &mut |n| shown.update(n))
        .await?;
    shown.done(n, &String::from_utf8_lossy(&s.show(&remote)));
    s.client.quit().await?;
    Ok(())
}

#[derive(Args, Debug)]
pub struct PathArgs {
    /// ftp://host/path
    url: String,
    #[command(flatten)]
    common: Common,
}

pub async fn mkdir(a: PathArgs) -> anyhow::Result<()> {
    let mut s = Session::open(&a.url, &a.common).await?;
    let p = s.encode(&s.url.path_bytes());
    s.client.mkdir(&p).await?;
    s.client.quit().await?;
    Ok(())
}

pub async fn rm(a: PathArgs) -> anyhow::Result<()> {
    let mut s = Session::open(&a.url, &a.common).await?;
    let p = s.resolve_file(&s.url.path_bytes()).await?;
    if s.url.is_directory() {
        s.client.rmdir(&p).await?;
    } else {
        s.client.delete(&p).await?;
    }
    s.client.quit().await?;
    Ok(())
}

#[derive(Args, Debug)]
pub struct MvArgs {
    /// ftp://host/path/old
    url: String,
    /// The new path on the same server (absolute, or relative to the old one's directory).
    to: String,
    #[command(flatten)]
    common: Common,
}

pub async fn mv(a: MvArgs) -> anyhow::Result<()> {
    let mut s = Session::open(&a.url, &a.common).await?;
    let from = s.resolve_file(&s.url.path_bytes()).await?;
    let to = s.encode(a.to.as_bytes());
    s.client.rename(&from, &to).await?;
    s.client.quit().await?;
    Ok(())
}
