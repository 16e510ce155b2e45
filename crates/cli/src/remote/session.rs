//! A connected client with what it knows about the server's names: the
//! per-name charset decisions, and the evidence remembered per server.

use std::path::PathBuf;

use anyhow::Context;
use babelftp_client::{Client, Options, RemoteEntry, TlsMode};
use babelftp_i18n::detect::{self, Context as DetectContext, Decision, Evidence};
use babelftp_i18n::Charset;
use babelftp_proto::display::display_path_isolated;
use babelftp_proto::url::FtpUrl;

use super::common::Common;

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
        if common.charset.eq_ignore_ascii_case("auto") {
            // The detector's tables are built while the client connects and
            // logs in, not while the first listing waits (its thread ends
            // when they are built; without a thread they are built then).
            let _ = std::thread::Builder::new()
                .name("babelftp-prepare".into())
                .spawn(detect::prepare);
        }
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

    /// Issue 48: the bytes of a new file's path (`path` as the user wrote
    /// it, UTF-8) and the legacy charset its name was written in. The name
    /// goes in the charset of the folder it lands in: `--charset`, else
    /// the charset the folder's names are decided to be in (it is listed
    /// for that when the name is not ASCII), else the server's remembered
    /// one; a folder of UTF-8 names, or none that say, keeps it UTF-8.
    /// `Err`: the name has characters that charset cannot write (the
    /// charset's name).
    pub async fn encode_new(&mut self, path: &[u8]) -> Result<(Vec<u8>, Option<Charset>), Charset> {
        let (dir, name) = match path.iter().rposition(|&b| b == b'/') {
            Some(i) => (&path[..i + 1], &path[i + 1..]),
            None => (&path[..0], path),
        };
        let Ok(text) = std::str::from_utf8(name) else {
            return Ok((self.encode(path), None));
        };
        if text.is_ascii() {
            return Ok((self.encode(path), None));
        }
        let folder = match self.explicit {
            Some(c) => Some(c).filter(|c| *c != Charset::utf8()),
            None => self.folder_charset(dir).await,
        };
        let mut out = self.encode(dir);
        match folder {
            None => {
                out.extend_from_slice(name);
                Ok((out, None))
            }
            Some(c) => match c.from_utf8(text) {
                Some(bytes) => {
                    out.extend_from_slice(&bytes);
                    Ok((out, Some(c)))
                }
                None => Err(c),
            },
        }
    }

    /// The legacy charset most of a folder's legacy names are decided to
    /// be in (`None`: its names are UTF-8 or ASCII, or it cannot be
    /// listed, then the server's remembered charset if any).
    async fn folder_charset(&mut self, dir: &[u8]) -> Option<Charset> {
        let trimmed = dir.strip_suffix(b"/").filter(|d| !d.is_empty()).unwrap_or(dir);
        let listed = if trimmed.is_empty() {
            self.list(None).await
        } else {
            self.list(Some(trimmed)).await
        };
        let Ok(entries) = listed else {
            return self.charset;
        };
        let mut counts: Vec<(Charset, usize)> = Vec::new();
        let mut utf8 = false;
        for e in &entries {
            match self.decision(&e.name) {
                Decision::Decoded { charset, .. } => match counts.iter_mut().find(|(c, _)| *c == charset) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((charset, 1)),
                },
                Decision::Utf8 => utf8 = true,
                Decision::Ascii | Decision::Raw => {}
            }
        }
        match counts.into_iter().max_by_key(|(_, n)| *n) {
            Some((c, _)) => Some(c),
            None if utf8 => None,
            None => self.charset,
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
