//! The web view through curl, as the tests of its doors use it: a cookie
//! jar, the answer (status, headers, body), the tokens of a page's forms,
//! a login through the form.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

/// A curl answer; status 0 when the connection closed without one.
pub struct Answer {
    pub status: u16,
    pub headers: String,
    /// The body as sent.
    pub bytes: Vec<u8>,
    /// The body as text (lossy: for assertions on pages).
    pub body: String,
}

impl Answer {
    pub fn text(&self) -> String {
        self.body.clone()
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
        })
    }

    /// The CSRF token of the form `id` on the page.
    pub fn token(&self, form: &str) -> String {
        let start = self
            .body
            .find(&format!("<form id=\"{form}\""))
            .unwrap_or_else(|| panic!("no form {form}:\n{}", self.body));
        let v = self.body[start..].split("name=\"csrf\" value=\"").nth(1).unwrap();
        v.split('"').next().unwrap().to_owned()
    }
}

/// curl from the local address `source`, with the cookie jar `jar`
/// (HTTPS certificates not checked: the tests' own; `[v6]` URLs taken as
/// they are).
pub fn curl_from(source: &str, jar: &Path, url: &str, extra: &[&str]) -> Answer {
    let dir = jar.parent().unwrap();
    let stem = jar.file_name().unwrap().to_string_lossy();
    let (head, body) = (dir.join(format!("{stem}.head")), dir.join(format!("{stem}.body")));
    let _ = std::fs::remove_file(&head);
    let _ = std::fs::remove_file(&body);
    let out = Command::new("curl")
        .args(["-sS", "-k", "-g", "--max-time", "60", "--interface", source, "-c"])
        .arg(jar)
        .arg("-b")
        .arg(jar)
        .arg("-D")
        .arg(&head)
        .arg("-o")
        .arg(&body)
        .args(["-w", "%{http_code}"])
        .args(extra)
        .arg(url)
        .output()
        .expect("curl must be installed (scripts/test.sh installs it)");
    let bytes = std::fs::read(&body).unwrap_or_default();
    Answer {
        status: String::from_utf8_lossy(&out.stdout).trim().parse().unwrap_or(0),
        headers: std::fs::read_to_string(&head).unwrap_or_default(),
        body: String::from_utf8_lossy(&bytes).into_owned(),
        bytes,
    }
}

/// [`curl_from`] 127.0.0.1.
pub fn curl(jar: &Path, url: &str, extra: &[&str]) -> Answer {
    curl_from("127.0.0.1", jar, url, extra)
}

/// Logs `user` in through the form at `base` + `path` from `source`, with
/// curl's `extra` options on both requests (`--http2`…): the answer after
/// the redirect.
pub fn login_from(
    source: &str,
    jar: &Path,
    base: &str,
    path: &str,
    user: &str,
    password: &str,
    extra: &[&str],
) -> Answer {
    let page = curl_from(source, jar, &format!("{base}/?login"), extra);
    assert_eq!(page.status, 200, "{}", page.body);
    let token = page.token("login");
    let (csrf, user, password) = (
        format!("csrf={token}"),
        format!("user={user}"),
        format!("password={password}"),
    );
    let mut args = extra.to_vec();
    args.extend([
        "-L",
        "--data-urlencode",
        &csrf,
        "--data-urlencode",
        &user,
        "--data-urlencode",
        &password,
    ]);
    curl_from(source, jar, &format!("{base}{path}?login"), &args)
}

/// A form POST to `url` carrying the CSRF `token` and `fields`
/// (`name=value`, URL-encoded by curl), with curl's `extra` options first.
pub fn post(jar: &Path, url: &str, token: &str, fields: &[&str], extra: &[&str]) -> Answer {
    let csrf = format!("csrf={token}");
    let mut args = extra.to_vec();
    args.extend(["--data-urlencode", &csrf]);
    for f in fields {
        args.extend(["--data-urlencode", f]);
    }
    curl(jar, url, &args)
}
