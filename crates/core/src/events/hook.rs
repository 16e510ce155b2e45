//! The hooks: a webhook (an HTTP POST of the event, signed with
//! HMAC-SHA256) or a command (the event on its standard input and in its
//! environment), each with the events it wants and a path filter.

use std::time::Duration;

use super::{Event, Kind};

/// Where a hook delivers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// POST the event to this `http://` or `https://` URL.
    Url(String),
    /// Run this through `sh -c`.
    Command(String),
}

/// A `[[hook]]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookSpec {
    /// The hook's name in the outbox (`name`, else the URL or command):
    /// events waiting for it after a restart are found by it.
    pub name: String,
    pub target: Target,
    /// The events it wants; empty: every one.
    pub events: Vec<Kind>,
    /// The HMAC-SHA256 key of the `X-Babelftp-Signature` header.
    pub secret: Option<String>,
    /// Only events with a path (or a rename's new path) that matches this
    /// glob: `*` within a name, `**` across `/`, `?` one octet.
    pub path: Option<String>,
    /// How long a POST or a command may take.
    pub timeout: Duration,
    /// The longest wait between two tries (the back-off doubles from 1 s
    /// up to it).
    pub max_backoff: Duration,
}

/// A URL without its user and password (a hook's name is logged and
/// stored).
pub fn without_credentials(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..end].rfind('@') {
        Some(at) => format!("{scheme}://{}", &rest[at + 1..]),
        None => url.to_owned(),
    }
}

impl HookSpec {
    /// A webhook for every event (`serve --hook URL`).
    pub fn url(url: &str) -> HookSpec {
        HookSpec {
            name: without_credentials(url),
            target: Target::Url(url.to_owned()),
            events: Vec::new(),
            secret: None,
            path: None,
            timeout: Duration::from_secs(10),
            max_backoff: Duration::from_secs(60),
        }
    }
}

/// A configured hook, with its HTTP client.
pub struct Hook {
    spec: HookSpec,
    client: Option<reqwest::Client>,
}

impl Hook {
    pub fn new(spec: HookSpec) -> Result<Hook, String> {
        let client = match &spec.target {
            Target::Url(url) => {
                // reqwest's rustls takes the process's provider: ring.
                let _ = rustls::crypto::ring::default_provider().install_default();
                Some(
                    reqwest::Client::builder()
                        .timeout(spec.timeout)
                        .build()
                        .map_err(|e| format!("hook {url}: {e}"))?,
                )
            }
            Target::Command(_) => None,
        };
        Ok(Hook { spec, client })
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    pub fn max_backoff(&self) -> Duration {
        self.spec.max_backoff
    }

    pub fn wants_kind(&self, kind: Kind) -> bool {
        self.spec.events.is_empty() || self.spec.events.contains(&kind)
    }

    /// Whether the hook takes this event (its kind, its paths).
    pub fn wants(&self, ev: &Event) -> bool {
        if !self.wants_kind(ev.kind) {
            return false;
        }
        let Some(glob) = &self.spec.path else {
            return true;
        };
        [ev.path.as_deref(), ev.target.as_deref()]
            .into_iter()
            .flatten()
            .any(|p| glob_match(glob.as_bytes(), p))
    }

    /// Delivers one event's JSON; why not, when it was not taken.
    pub async fn send(&self, id: &str, body: &str) -> Result<(), String> {
        match (&self.spec.target, &self.client) {
            (Target::Url(url), Some(client)) => {
                let mut req = client
                    .post(url)
                    .header("content-type", "application/json")
                    .header("x-babelftp-id", id)
                    .body(body.to_owned());
                if let Some(secret) = &self.spec.secret {
                    req = req.header("x-babelftp-signature", signature(secret.as_bytes(), body.as_bytes()));
                }
                let resp = req.send().await.map_err(|e| e.without_url().to_string())?;
                let status = resp.status();
                if status.is_success() {
                    Ok(())
                } else {
                    Err(format!("answered {status}"))
                }
            }
            (Target::Command(cmd), _) => run_command(cmd, body, self.spec.timeout).await,
            (Target::Url(_), None) => Err("no HTTP client".into()),
        }
    }
}

/// `sha256=` and the hex HMAC-SHA256 of `body` under `secret` (as
/// GitHub's `X-Hub-Signature-256`).
pub fn signature(secret: &[u8], body: &[u8]) -> String {
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, secret);
    let tag = ring::hmac::sign(&key, body);
    let hex: String = tag.as_ref().iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256={hex}")
}

/// The environment a command gets: `BABELFTP_EVENT`, `BABELFTP_ID`, …
/// one per JSON field, upper case; `BABELFTP_PATH` and `BABELFTP_TARGET`
/// are the stored names' exact octets (from `path_hex` when the name is
/// not UTF-8).
pub fn command_env(body: &str) -> Vec<(String, std::ffi::OsString)> {
    use std::os::unix::ffi::OsStringExt;
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(body) else {
        return Vec::new();
    };
    let mut env = Vec::new();
    for (k, v) in &map {
        if k.ends_with("_hex") {
            continue;
        }
        let text = match v {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let value = match map.get(&format!("{k}_hex")) {
            Some(serde_json::Value::String(hex)) => std::ffi::OsString::from_vec(super::unpercent(hex)),
            _ => text.into(),
        };
        let name = match k.as_str() {
            "event" => "BABELFTP_EVENT".to_owned(),
            k => format!("BABELFTP_{}", k.to_ascii_uppercase()),
        };
        env.push((name, value));
    }
    env.push(("BABELFTP_JSON".to_owned(), body.into()));
    env
}

async fn run_command(cmd: &str, body: &str, limit: Duration) -> Result<(), String> {
    use tokio::io::AsyncWriteExt;
    let mut child = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .envs(command_env(body))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot run: {e}"))?;
    let stdin = child.stdin.take();
    let body = body.to_owned();
    let run = async move {
        if let Some(mut stdin) = stdin {
            // A command that does not read its input is fine.
            let _ = stdin.write_all(body.as_bytes()).await;
            drop(stdin);
        }
        child.wait_with_output().await
    };
    match tokio::time::timeout(limit, run).await {
        Err(_) => Err(format!("still running after {} ms: killed", limit.as_millis())),
        Ok(Err(e)) => Err(e.to_string()),
        Ok(Ok(out)) if out.status.success() => Ok(()),
        Ok(Ok(out)) => {
            let err = String::from_utf8_lossy(&out.stderr);
            let err: String = err.trim().chars().take(300).collect();
            Err(format!("{}: {err}", out.status))
        }
    }
}

/// Whether `path` matches `pat`: `**` matches anything (slashes too), `*`
/// anything within one name, `?` one octet other than `/`; the rest is
/// itself.
pub fn glob_match(pat: &[u8], path: &[u8]) -> bool {
    match pat.split_first() {
        None => path.is_empty(),
        Some((b'*', rest)) if rest.first() == Some(&b'*') => {
            let rest = &rest[1..];
            // `**/` also matches no directory at all.
            if let Some(after) = rest.strip_prefix(b"/") {
                if glob_match(after, path) {
                    return true;
                }
            }
            (0..=path.len()).any(|i| glob_match(rest, &path[i..]))
        }
        Some((b'*', rest)) => {
            let end = path.iter().position(|&b| b == b'/').unwrap_or(path.len());
            (0..=end).any(|i| glob_match(rest, &path[i..]))
        }
        Some((b'?', rest)) => path.first().is_some_and(|&b| b != b'/') && glob_match(rest, &path[1..]),
        Some((c, rest)) => path.first() == Some(c) && glob_match(rest, &path[1..]),
    }
}
