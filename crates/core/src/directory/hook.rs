//! The HTTP auth hook: an external service decides a login, as SFTPGo's
//! external authentication and Pure-FTPd's extauth do.
//!
//! babelftp POSTs JSON to the configured URL:
//!
//! ```json
//! {"user": "alice", "password": "…", "client_address": "203.0.113.9",
//!  "protocol": "ftp"}
//! ```
//!
//! (A name or password that is not UTF-8 is refused without asking: read
//! as text it would become another name, U+FFFD for its bytes.) A `200`
//! answer whose JSON
//! has `"allow": true` logs the user in; it may set the account's
//! settings, each optional:
//!
//! ```json
//! {"allow": true, "home": "/alice", "permissions": {"/": "read",
//!  "/incoming": "upload,mkdir"}, "mounts": {"/archive": "/srv/archive"},
//!  "lang": "fr", "charset": "windows-1251"}
//! ```
//!
//! Anything else — another status, `"allow": false`, JSON that does not
//! read — refuses the login (530). A hook that cannot be reached or does
//! not answer within the timeout refuses it too, and is logged as a
//! failure of the hook (the password is never logged).
//!
//! Redirects are never followed (issue 45): a `3xx` would send the
//! password again to wherever its `Location` points. It refuses the login
//! and is logged as a misconfigured hook.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::time::Duration;

use babelftp_accounts::{Home, Mount, Perms, Profile, Rules, Source};
use serde::{Deserialize, Serialize};

/// The hook's settings (`[auth_hook]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookConfig {
    /// Where to POST (`http://` or `https://`).
    pub url: String,
    /// How long an answer may take.
    pub timeout: Duration,
}

/// A configured hook, with its HTTP client (connections kept alive).
pub struct Hook {
    cfg: HookConfig,
    client: reqwest::Client,
}

#[derive(Serialize)]
struct Request<'a> {
    user: &'a str,
    password: &'a str,
    client_address: String,
    protocol: &'a str,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Answer {
    allow: bool,
    home: Option<String>,
    permissions: BTreeMap<String, String>,
    mounts: BTreeMap<String, String>,
    lang: Option<String>,
    charset: Option<String>,
    group: Option<String>,
}

/// Why a hook's answer was not used.
#[derive(Debug, thiserror::Error)]
pub enum HookError {
    #[error("auth hook {url}: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("auth hook {url}: answer refused: {reason}")]
    BadAnswer { url: String, reason: String },
}

impl Hook {
    pub fn new(cfg: HookConfig) -> Result<Hook, HookError> {
        // reqwest's rustls takes the process's provider: ring, as
        // everywhere else in the build.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .timeout(cfg.timeout)
            // The body holds a password: it goes to this URL and no other.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| HookError::Unreachable {
                url: cfg.url.clone(),
                reason: e.to_string(),
            })?;
        Ok(Hook { cfg, client })
    }

    /// The hook's URL, for people.
    pub fn describe(&self) -> String {
        format!("auth hook {}", self.cfg.url)
    }

    /// Asks the hook about a login: the profile, `Ok(None)` when refused.
    pub async fn login(
        &self,
        user: &[u8],
        password: &[u8],
        client: IpAddr,
        protocol: &str,
    ) -> Result<Option<Profile>, HookError> {
        let (Ok(user), Ok(password)) = (std::str::from_utf8(user), std::str::from_utf8(password)) else {
            return Ok(None);
        };
        let body = Request {
            user,
            password,
            client_address: client.to_canonical().to_string(),
            protocol,
        };
        let unreachable = |e: reqwest::Error| HookError::Unreachable {
            url: self.cfg.url.clone(),
            // Without the URL's own text again, and never the body.
            reason: e.without_url().to_string(),
        };
        let json = serde_json::to_vec(&body).map_err(|e| HookError::BadAnswer {
            url: self.cfg.url.clone(),
            reason: e.to_string(),
        })?;
        let resp = self
            .client
            .post(&self.cfg.url)
            .header("content-type", "application/json")
            .body(json)
            .send()
            .await
            .map_err(unreachable)?;
        if resp.status().is_redirection() {
            tracing::warn!(user = %user, status = resp.status().as_u16(), url = %self.cfg.url,
                "auth hook answered with a redirect, which is not followed (the password would go elsewhere): login refused; configure the hook's final URL");
            return Ok(None);
        }
        if resp.status() != reqwest::StatusCode::OK {
            tracing::info!(user = %user, status = resp.status().as_u16(), "auth hook refused the login");
            return Ok(None);
        }
        let bytes = resp.bytes().await.map_err(unreachable)?;
        let answer: Answer = serde_json::from_slice(&bytes).map_err(|e| HookError::BadAnswer {
            url: self.cfg.url.clone(),
            reason: e.to_string(),
        })?;
        if !answer.allow {
            return Ok(None);
        }
        profile_of(user, answer)
            .map(Some)
            .map_err(|reason| HookError::BadAnswer {
                url: self.cfg.url.clone(),
                reason,
            })
    }
}

/// The profile an answer sets; a setting that does not read refuses the
/// login (an answer meant to restrict must not grant everything).
fn profile_of(user: &str, a: Answer) -> Result<Profile, String> {
    let home: Home = match &a.home {
        Some(h) => h.parse().map_err(|e| format!("home: {e}"))?,
        None => Home::default(),
    };
    let mut pairs: Vec<(Vec<u8>, Perms)> = Vec::new();
    for (path, perms) in &a.permissions {
        let p: Perms = perms.parse().map_err(|e| format!("permissions {path:?}: {e}"))?;
        pairs.push((path.as_bytes().to_vec(), p));
    }
    let rules = if pairs.is_empty() {
        Rules::everywhere(Perms::ALL)
    } else {
        Rules::new(pairs.iter().map(|(p, perms)| (p.as_slice(), *perms))).map_err(|e| e.to_string())?
    };
    let mut mounts = Vec::new();
    for (path, source) in &a.mounts {
        let source: Source = source.parse().map_err(|e| format!("mounts {path:?}: {e}"))?;
        let vpath = babelftp_accounts::normalize_vpath(path).map_err(|e| format!("mounts {path:?}: {e}"))?;
        if vpath == "/" {
            return Err(format!("mounts {path:?}: not at /"));
        }
        mounts.push(Mount {
            vpath: vpath.into_bytes(),
            source,
        });
    }
    if let Some(c) = &a.charset {
        if babelftp_i18n::Charset::for_label(c).is_none() {
            return Err(format!("charset {c:?}: not a known label"));
        }
    }
    Ok(Profile {
        name: user.to_owned(),
        group: a.group,
        home,
        rules,
        mounts,
        lang: a.lang,
        charset: a.charset,
        limits: babelftp_accounts::Limits::default(),
        tls_reuse: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(json: &str) -> Result<Profile, String> {
        let a: Answer = serde_json::from_str(json).map_err(|e| e.to_string())?;
        profile_of("alice", a)
    }

    #[test]
    fn an_answer_sets_the_account_and_a_bad_setting_refuses() {
        let p = answer(
            r#"{"allow": true, "home": "/alice", "permissions": {"/": "read", "/in": "upload"},
                "mounts": {"/archive": "/srv/archive"}, "lang": "fr", "charset": "cp1251"}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.home, Home::Inside(b"/alice".to_vec()));
        assert_eq!(p.rules.at(&[b"in".to_vec()]), "upload".parse().unwrap_or(Perms::ALL));
        assert_eq!(p.rules.at(&[b"x".to_vec()]), Perms::READ);
        assert_eq!(p.mounts.len(), 1);
        assert_eq!(p.charset.as_deref(), Some("cp1251"));
        // Nothing said: the whole root, every right (as a store user
        // without rules).
        let p = answer(r#"{"allow": true}"#).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.rules.at(&[]), Perms::ALL);
        for bad in [
            r#"{"allow": true, "permissions": {"/": "reed"}}"#,
            r#"{"allow": true, "permissions": {"pub": "read"}}"#,
            r#"{"allow": true, "home": "relative"}"#,
            r#"{"allow": true, "mounts": {"/a": "relative/dir"}}"#,
            r#"{"allow": true, "charset": "no-such-charset"}"#,
        ] {
            assert!(answer(bad).is_err(), "{bad}");
        }
    }
}
