//! The client subcommands: `ls`, `get`, `put`, `mkdir`, `rm`, `mv`.
//!
//! Names travel as the server's bytes. For display each name is decided on
//! its own (RFC 2640 A.1, 3.3; `babelftp_i18n::detect`): an explicit
//! `--charset` wins over everything; else ASCII and UTF-8 show as they are,
//! a legacy name is decoded with the charset that explains it best, with
//! its directory and what earlier listings of the same server showed (the
//! evidence, remembered per server) as the prior, and a name no plausible
//! charset explains shows as `%HH` of the server's bytes. A path the user
//! types is sent as UTF-8 unless the server's likely charset is a legacy
//! one, in which case it is encoded into it when it can be; a typed name
//! that does not exist is looked up in its directory's listing by the
//! text or the `%HH` form it was shown as.

use std::path::PathBuf;

use anyhow::{bail, Context};
use babelftp_client::{Client, Options, RemoteEntry, TlsMode, TlsOptions, TlsVersion};
use babelftp_i18n::detect::{self, Context as DetectContext, Decision, Evidence};
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
    /// At most RATE octets a second per transfer, as curl's --limit-rate
    /// (suffixes K, M, G: powers of 1024; 500K, 1M).
    #[arg(long, value_name = "RATE", value_parser = parse_rate)]
    limit_rate: Option<u64>,
    /// A connection beyond the first (`mirror --parallel`): the `-k`
    /// warning was given once already.
    #[arg(skip)]
    warned_insecure: bool,
}

/// `--limit-rate`: a number of octets a second, with curl's suffixes (K,
/// M, G: powers of 1024, either case).
fn parse_rate(s: &str) -> Result<u64, String> {
    let bad = || crate::msg::ts("cli-bad-rate", &[("rate", s)]);
    let (num, mult) = match s.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (
            &s[..i],
            match c.to_ascii_lowercase() {
                'k' => 1u64 << 10,
                'm' => 1 << 20,
                'g' => 1 << 30,
                _ => return Err(bad()),
            },
        ),
        _ => (s, 1),
    };
    let n: f64 = num.parse().map_err(|_| bad())?;
    if !(n.is_finite() && n > 0.0) {
        return Err(bad());
    }
    Ok(((n * mult as f64) as u64).max(1))
}

impl Common {
    /// `-q`.
    pub fn is_quiet(&self) -> bool {
        self.quiet
    }

    /// The flags for more connections to the same server (`mirror
    /// --parallel`): the same, except that `--forget` was done by the
    /// first (done again, it would drop what the first has learned since),
    /// and the `-k` warning, given once.
    pub fn for_more_connections(&self) -> Common {
        Common {
            forget: false,
            warned_insecure: true,
            ..self.clone()
        }
    }

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
    /// The charset typed paths are encoded into: the explicit one, else
    /// the server's likely legacy charset; `None`: UTF-8.
    charset: Option<Charset>,
    /// `--charset` (UTF-8 included), which overrides detection.
    explicit: Option<Charset>,
    /// What this server's listings showed, across runs.
    evidence: Evidence,
    /// The decision for each name of the listings seen in this run.
    decisions: std::collections::HashMap<Vec<u8>, Decision>,
    /// The "names are a guess" notice was printed.
    told_guess: bool,
    common: Common,
}

/// Decisions kept before the cache is cleared (a mirror of a huge tree).
const MAX_DECISIONS: usize = 100_000;

fn state_file() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    Some(base.join("babelftp").join("charsets"))
}

/// Reads what was learned of `key`'s (`host:port`) names: an evidence
/// line (`ev1 utf8=N raw=N Shift_JIS=N ...`), or the charset label an
/// older babelftp wrote, taken as settled evidence for that charset.
fn remembered(key: &str) -> Evidence {
    let Some(text) = state_file().and_then(|p| std::fs::read_to_string(p).ok()) else {
        return Evidence::default();
    };
    let Some(value) = text
        .lines()
        .filter_map(|l| l.split_once(' '))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.trim())
    else {
        return Evidence::default();
    };
    if value.starts_with("ev") {
        return Evidence::from_line(value);
    }
    match Charset::for_label(value) {
        Some(c) => Evidence::from_line(&format!("ev1 utf8=0 raw=0 {}=4", c.name())),
        None => Evidence::default(),
    }
}

/// Remembers (or with `None` forgets) what was learned of `key`'s names.
fn remember(key: &str, evidence: Option<&Evidence>) -> std::io::Result<()> {
    let Some(path) = state_file() else { return Ok(()) };
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let mut lines: Vec<String> = old
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter(|l| l.split_once(' ').map(|(k, _)| k) != Some(key))
        .map(str::to_owned)
        .collect();
    if let Some(e) = evidence {
        lines.push(format!("{key} {}", e.to_line()));
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // A name of its own per process: two runs at once must not write
    // into each other's temporary file.
    let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
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
        // A bad URL is a usage error (exit 2), told without its password.
        let url = crate::redact::parse_url(url).map_err(|e| crate::exit::Usage(format!("{e:#}")))?;
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
        if tls.mode != TlsMode::Off && tls.insecure && !common.warned_insecure {
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
            rate_limit: common.limit_rate,
        };
        let client = Client::connect(&host_plain, port, &opts)
            .await
            .map_err(|source| crate::exit::Connecting {
                host: format!("{host_plain}:{port}"),
                source,
            })?;
        let key = format!("{host_plain}:{port}");
        if common.forget {
            remember(&key, None).ok();
        }
        let explicit = if common.charset.eq_ignore_ascii_case("auto") {
            None
        } else {
            Some(
                Charset::for_label(&common.charset)
                    .with_context(|| crate::msg::ts("cli-unknown-charset", &[("charset", &common.charset)]))?,
            )
        };
        let evidence = if explicit.is_some() {
            Evidence::default()
        } else {
            remembered(&key)
        };
        let charset = match explicit {
            Some(c) => Some(c).filter(|c| *c != Charset::utf8()),
            None => evidence.likely(),
        };
        let mut s = Session {
            client,
            url,
            key,
            charset,
            explicit,
            evidence,
            decisions: std::collections::HashMap::new(),
            told_guess: false,
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
                        if explicit.is_some() {
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

    /// A name for the screen (RFC 2640 3.3): the text it was decided to
    /// be, undisplayable characters as `%HH`, right-to-left names isolated
    /// when stdout is a terminal (in a pipe the marks would become part of
    /// the name); a name no charset explains as `%HH` of the server's
    /// bytes; with `--raw`, the bytes as they came.
    pub fn show(&self, name: &[u8]) -> Vec<u8> {
        if self.common.raw {
            return name.to_vec();
        }
        let isolate = std::io::IsTerminal::is_terminal(&std::io::stdout());
        match self.decision(name) {
            // Printable ASCII and `%HH`: nothing for display_path to do
            // (and a `%` there already starts an escape).
            d @ Decision::Raw => detect::shown(name, &d).into_bytes(),
            Decision::Decoded { text, .. } => display_path_isolated(text.as_bytes(), isolate).into_bytes(),
            Decision::Ascii | Decision::Utf8 => display_path_isolated(name, isolate).into_bytes(),
        }
    }

    /// How `name` is shown: the decision of the listing it came in, else
    /// one made for it alone with the server's evidence as the prior.
    fn decision(&self, name: &[u8]) -> Decision {
        if let Some(d) = self.decisions.get(name) {
            return d.clone();
        }
        detect::decide_name(name, &self.context())
    }

    fn context(&self) -> DetectContext<'_> {
        DetectContext {
            explicit: self.explicit,
            feat_utf8: self.client.features.utf8(),
            evidence: &self.evidence,
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

    /// A remote name as text, as it was decided (see [`Session::show`]);
    /// `None` for a name no charset explains (shown as `%HH`).
    pub fn text_of(&self, name: &[u8]) -> Option<String> {
        match self.decision(name) {
            Decision::Raw => None,
            d => Some(detect::shown(name, &d)),
        }
    }

    /// The bytes for a new name in a directory whose names are `siblings`:
    /// UTF-8 where the directory's names are all UTF-8 (or it is empty),
    /// the server's legacy charset where they are not, or always the
    /// explicit `--charset`.
    pub fn encode_in(&self, name: &[u8], siblings: &[&[u8]]) -> Vec<u8> {
        let legacy_dir = siblings.iter().any(|n| !babelftp_proto::utf8::is_utf8(n));
        if self.explicit.is_some() || legacy_dir {
            self.encode(name)
        } else {
            name.to_vec()
        }
    }

    /// Lists a directory given in the server's own bytes, deciding how
    /// each name is shown and learning from them what the server holds.
    pub async fn list_raw(&mut self, dir: Option<&[u8]>) -> anyhow::Result<Vec<RemoteEntry>> {
        let entries = self.client.list(dir).await?;
        let names: Vec<&[u8]> = entries.iter().map(|e| e.name.as_slice()).collect();
        let decisions = detect::decide_listing(&names, &self.context());
        if self.explicit.is_none() {
            self.learn(&decisions);
        }
        if self.decisions.len() + names.len() > MAX_DECISIONS {
            self.decisions.clear();
        }
        for (name, d) in names.iter().zip(decisions) {
            self.decisions.insert(name.to_vec(), d);
        }
        Ok(entries)
    }

    /// Adds one listing's decisions to the server's evidence (one listing
    /// weighs little: it cannot flip what many showed before), remembers
    /// it, and says once per run when names are shown by a guess.
    fn learn(&mut self, decisions: &[Decision]) {
        let before = self.evidence.clone();
        self.evidence.observe(decisions);
        // Only a server that showed legacy names is worth a line (the
        // counts of UTF-8 names alone change nothing in how names read).
        if self.evidence != before && !(self.evidence.no_legacy() && before.no_legacy()) {
            remember(&self.key, Some(&self.evidence)).ok();
        }
        let likely = self.evidence.likely();
        if likely != self.charset {
            if let (Some(c), true) = (likely, self.common.verbose) {
                let count = decisions
                    .iter()
                    .filter(|d| matches!(d, Decision::Decoded { charset, .. } if *charset == c))
                    .count();
                eprintln!(
                    "* {}",
                    crate::msg::ts(
                        "cli-charset-guessed",
                        &[("charset", c.name()), ("count", &count.to_string())]
                    )
                );
            }
            self.charset = likely;
        }
        let mut guessed: Vec<&'static str> = Vec::new();
        let mut count = 0usize;
        for d in decisions {
            if let Decision::Decoded { charset, .. } = d {
                count += 1;
                if !guessed.contains(&charset.name()) {
                    guessed.push(charset.name());
                }
            }
        }
        if count > 0 && !self.told_guess && !self.common.quiet && !self.common.raw {
            self.told_guess = true;
            let pin = likely.map(|c| c.name()).or(guessed.first().copied()).unwrap_or("");
            eprintln!(
                "{}",
                crate::msg::ts(
                    "cli-names-guessed",
                    &[
                        ("count", &count.to_string()),
                        ("charsets", &guessed.join(", ")),
                        ("charset", pin)
                    ]
                )
            );
        }
    }

    /// The remote path of a file the user named, resolved so that it can
    /// be retrieved: the encoded bytes if they exist, else the listed name
    /// of its directory that was shown as the same text or whose `%HH`
    /// form it is (the listing decides how each name reads).
    pub async fn resolve_file(&mut self, path: &[u8]) -> anyhow::Result<Vec<u8>> {
        let encoded = self.encode(path);
        if (encoded.is_ascii() && !encoded.contains(&b'%')) || self.client.size(&encoded).await?.is_some() {
            return Ok(encoded);
        }
        let (dir, name) = match path.iter().rposition(|&b| b == b'/') {
            Some(i) => (Some(&path[..i.max(1)]), &path[i + 1..]),
            None => (None, path),
        };
        let entries = self.list(dir).await?;
        let found = entries
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.name.clone())
            .or_else(|| {
                let typed = std::str::from_utf8(name).ok()?;
                let listing: Vec<&[u8]> = entries.iter().map(|e| e.name.as_slice()).collect();
                let decisions: Vec<Decision> = listing.iter().map(|n| self.decision(n)).collect();
                detect::typed_to_name(typed, &listing, &decisions)
            });
        match found {
            Some(listed) => {
                let mut full = dir.map(|d| self.encode(d)).unwrap_or_default();
                if !full.is_empty() && !full.ends_with(b"/") {
                    full.push(b'/');
                }
                full.extend_from_slice(&listed);
                Ok(full)
            }
            None => Ok(encoded),
        }
    }

    pub fn quiet(&self) -> bool {
        self.common.quiet
    }
}

/// What a person sees of a transfer: a progress bar on a terminal (none
/// in a pipe), then one line saying where the bytes went, how long it
/// took and how fast; nothing with -q. The bar appears with the first
/// octets: a transfer the server refuses leaves no empty bar behind.
pub(crate) struct Shown {
    bar: Option<indicatif::ProgressBar>,
    /// Whether the bar is drawn yet (it is hidden until data move).
    drawn: std::sync::atomic::AtomicBool,
    start: u64,
    quiet: bool,
    began: std::time::Instant,
}

impl Shown {
    pub(crate) fn start(total: Option<u64>, start: u64, quiet: bool) -> Shown {
        use std::io::IsTerminal;
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let hidden = indicatif::ProgressDrawTarget::hidden();
            let (bar, template) = match total {
                Some(t) => (
                    indicatif::ProgressBar::with_draw_target(Some(t), hidden),
                    "{wide_bar} {bytes}/{total_bytes} {bytes_per_sec} {eta}",
                ),
                // No size known: no total to show, nor a bar to fill.
                None => (
                    indicatif::ProgressBar::with_draw_target(None, hidden),
                    "{spinner} {bytes} {bytes_per_sec}",
                ),
            };
            if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
                bar.set_style(style);
            }
            bar.set_position(start);
            bar
        });
        Shown {
            bar,
            drawn: std::sync::atomic::AtomicBool::new(false),
            start,
            quiet,
            began: std::time::Instant::now(),
        }
    }

    /// `n` octets moved so far in this transfer.
    pub(crate) fn update(&self, n: u64) {
        if let Some(b) = &self.bar {
            if !self.drawn.swap(true, std::sync::atomic::Ordering::Relaxed) {
                b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            }
            b.set_position(self.start + n);
        }
    }

    /// Takes the bar away, saying nothing (a failure, or a download to
    /// standard output).
    pub(crate) fn clear(self) {
        if let Some(b) = self.bar {
            b.finish_and_clear();
        }
    }

    /// `bytes` moved in this transfer, to `dest`.
    pub(crate) fn done(self, bytes: u64, dest: &str) {
        let secs = self.began.elapsed().as_secs_f64();
        let quiet = self.quiet;
        self.clear();
        if !quiet {
            eprintln!(
                "{}",
                crate::msg::ts(
                    "cli-x1-bytes-in",
                    &[
                        ("bytes", &bytes.to_string()),
                        ("dest", dest),
                        ("secs", &format!("{secs:.2}")),
                        ("rate", &rate(bytes, secs)),
                    ]
                )
            );
        }
    }
}

/// A modification time as `ls -l` writes it, in UTC (the time zone of
/// MLSD facts and of MDTM): `Nov 23 06:40` for the past six months,
/// `Nov 23  2024` for older times and for times in the future (beyond an
/// hour of clock skew). Always 12 columns.
pub fn ls_time(t: i64, now: i64) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    const SIX_MONTHS: i64 = 182 * 24 * 3600;
    let c = babelftp_proto::listing::Civil::from_unix(t);
    let month = MONTHS[(c.month as usize).saturating_sub(1) % 12];
    if t > now - SIX_MONTHS && t <= now + 3600 {
        format!("{month} {:>2} {:02}:{:02}", c.day, c.hour, c.minute)
    } else {
        format!("{month} {:>2} {:>5}", c.day, c.year)
    }
}

/// A speed for a person: `40.2 MB/s` (decimal units, as curl and wget).
pub(crate) fn rate(bytes: u64, secs: f64) -> String {
    let mut r = bytes as f64 / secs.max(1e-6);
    for unit in ["B/s", "kB/s", "MB/s", "GB/s"] {
        if r < 1000.0 || unit == "GB/s" {
            return format!("{r:.1} {unit}");
        }
        r /= 1000.0;
    }
    format!("{r:.1} GB/s")
}

#[derive(Args, Debug)]
pub struct LsArgs {
    /// ftp://[user[:password]@]host[:port]/path/
    url: String,
    /// Long format: kind, size, time (UTC, as ls writes it: Nov 23 06:40, or Nov 23  2024 when
    /// older than six months).
    #[arg(short, long)]
    long: bool,
    #[command(flatten)]
    common: Common,
}

pub async fn ls(a: LsArgs) -> anyhow::Result<()> {
    let mut s = Session::open(&a.url, &a.common).await?;
    let path = s.url.path_bytes();
    let dir = if path.is_empty() { None } else { Some(path.as_slice()) };
    let entries = match s.list(dir).await {
        Ok(e) => e,
        // `ls` of a file (MLSD of a file is 550, RFC 3659 7.1): its line of
        // its directory's listing, as ls and lftp's cls show it.
        Err(e) => match single_entry(&mut s, &path, &e).await {
            Some(entry) => vec![entry],
            // The path named in the error (a 550 says which directory).
            None => return Err(e.context(String::from_utf8_lossy(&s.show(&path)).into_owned())),
        },
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let mut out = Vec::new();
    for e in &entries {
        if a.long {
            let kind = if e.is_dir { 'd' } else { '-' };
            let size = e.size.map(|n| n.to_string()).unwrap_or_default();
            let time = e.modified.map(|t| ls_time(t, now)).unwrap_or_default();
            out.extend_from_slice(format!("{kind} {size:>12} {time:>12} ").as_bytes());
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

/// The entry of `path` in its directory's listing, when listing `path`
/// itself was refused for good (550): a file named by `ls`.
async fn single_entry(s: &mut Session, path: &[u8], refused: &anyhow::Error) -> Option<babelftp_client::RemoteEntry> {
    if !crate::exit::is_permanent_refusal(refused) {
        return None;
    }
    let trimmed = path.strip_suffix(b"/").unwrap_or(path);
    let (parent, name) = match trimmed.iter().rposition(|&b| b == b'/') {
        Some(0) => (Some(&b"/"[..]), &trimmed[1..]),
        Some(i) => (Some(&trimmed[..i]), &trimmed[i + 1..]),
        None => (None, trimmed),
    };
    if name.is_empty() {
        return None;
    }
    let entries = s.list(parent).await.ok()?;
    let wanted = s.encode(name);
    entries.into_iter().find(|e| e.name == wanted && !e.is_dir)
}

#[derive(Args, Debug)]
pub struct MvArgs {
    /// ftp://host/path/old
    url: String,
    /// The new path (absolute, or relative to the old one's directory; ending in / to move into
    /// a directory), or an ftp:// URL on the same server.
    to: String,
    #[command(flatten)]
    common: Common,
}

pub async fn mv(a: MvArgs) -> anyhow::Result<()> {
    // A URL as the new name: its path, and only on the same server (a
    // rename cannot cross servers); it is never sent as it was written.
    let target = if looks_like_url(&a.to) {
        let old = crate::redact::parse_url(&a.url)?;
        let new = crate::redact::parse_url(&a.to)?;
        let same = old.host.to_string().eq_ignore_ascii_case(&new.host.to_string())
            && old.port_or_default() == new.port_or_default()
            && old.secure == new.secure
            && (new.user.is_none() || new.user == old.user);
        if !same {
            bail!(crate::msg::ts(
                "cli-x2-mv-other-server",
                &[
                    ("to", &crate::redact::url(&a.to)),
                    ("from", &crate::redact::url(&a.url))
                ]
            ));
        }
        MoveTo::Url(new.path_bytes())
    } else {
        MoveTo::Typed(a.to.clone().into_bytes())
    };
    let mut s = Session::open(&a.url, &a.common).await?;
    let mut from = s.resolve_file(&s.url.path_bytes()).await?;
    // A directory named with a trailing / is renamed as itself, not into.
    while from.len() > 1 && from.ends_with(b"/") {
        from.pop();
    }
    let to = match target {
        // A URL's path is from the login directory, as the old one's is.
        MoveTo::Url(p) => new_path(&from, &s.encode(&p), true),
        MoveTo::Typed(p) => new_path(&from, &s.encode(&p), false),
    };
    if let Err(e) = s.client.rename(&from, &to).await {
        let named = format!(
            "{} -> {}",
            String::from_utf8_lossy(&s.show(&from)),
            String::from_utf8_lossy(&s.show(&to))
        );
        return Err(anyhow::Error::from(e).context(named));
    }
    s.client.quit().await?;
    Ok(())
}

enum MoveTo {
    Url(Vec<u8>),
    Typed(Vec<u8>),
}

/// Whether the user wrote a URL (`ftp://…`, `ftps://…`) rather than a path.
fn looks_like_url(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    l.starts_with("ftp://") || l.starts_with("ftps://")
}

/// The new name of `from` (server bytes): `to` as it is when absolute or
/// `whole` (a URL's path), else relative to `from`'s directory; a `to`
/// ending in `/` is a directory the file moves into under its own name.
pub fn new_path(from: &[u8], to: &[u8], whole: bool) -> Vec<u8> {
    let leaf_at = from.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
    let mut out = if whole || to.starts_with(b"/") {
        Vec::new()
    } else {
        from[..leaf_at].to_vec()
    };
    out.extend_from_slice(to);
    if to.is_empty() || to.ends_with(b"/") {
        out.extend_from_slice(&from[leaf_at..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{ls_time, new_path};

    #[test]
    fn times_as_ls_writes_them() {
        // 2025-11-23 06:40:07 UTC.
        let t = 1_763_880_007;
        assert_eq!(ls_time(t, t + 86_400), "Nov 23 06:40");
        assert_eq!(ls_time(t, t + 200 * 86_400), "Nov 23  2025");
        assert_eq!(ls_time(t, t - 2 * 86_400), "Nov 23  2025");
        // 2020-01-05 12:34 UTC.
        assert_eq!(ls_time(1_578_227_640, t), "Jan  5  2020");
    }

    #[test]
    fn new_names_are_relative_to_the_old_ones_directory() {
        assert_eq!(new_path(b"dir/a.txt", b"b.txt", false), b"dir/b.txt");
        assert_eq!(new_path(b"/x/dir/a.txt", b"sub/b.txt", false), b"/x/dir/sub/b.txt");
        assert_eq!(new_path(b"dir/a.txt", b"/top.txt", false), b"/top.txt");
        assert_eq!(new_path(b"a.txt", b"b.txt", false), b"b.txt");
        assert_eq!(new_path(b"dir/a.txt", b"other/", false), b"dir/other/a.txt");
        assert_eq!(new_path(b"dir/a.txt", b"other/b.txt", true), b"other/b.txt");
    }
}
