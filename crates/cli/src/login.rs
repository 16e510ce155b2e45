//! Who the client logs in as (issue 13 item 6), as curl and lftp do it:
//!
//! 1. `-u USER:PASSWORD`, or `ftp://USER:PASSWORD@host/`: as given (`-u`
//!    first);
//! 2. `-u USER` or `ftp://USER@host/` without a password: the password of
//!    that login for the host in `~/.netrc` when it has one, else asked on
//!    the terminal (`/dev/tty`, without echo; a piped standard input keeps
//!    its data), else, with no terminal at all, an empty password as
//!    before, with a note on stderr saying so and how to give one; the
//!    anonymous logins (`anonymous`, `ftp`) are never asked for one;
//! 3. no user at all: the host's (or the `default`) entry of `~/.netrc`,
//!    its password asked for when the entry has none; else anonymous.
//!
//! A password asked for is kept for the rest of the run, so that a
//! reconnection (the shell's, after an interrupted transfer) does not ask
//! again.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use anyhow::Context;

/// One `machine` (or `default`, as `None`) entry of a netrc file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetrcEntry {
    pub machine: Option<String>,
    pub login: Option<String>,
    pub password: Option<String>,
}

/// Parses netrc text: `machine NAME`, `default`, `login`, `password`,
/// `account`; a `macdef` is skipped up to its empty line.
pub fn parse_netrc(text: &str) -> Vec<NetrcEntry> {
    let mut entries: Vec<NetrcEntry> = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let mut tokens = line.split_whitespace();
        while let Some(t) = tokens.next() {
            match t {
                "machine" | "default" => entries.push(NetrcEntry {
                    machine: if t == "machine" {
                        tokens.next().map(str::to_owned)
                    } else {
                        None
                    },
                    login: None,
                    password: None,
                }),
                "login" | "password" | "account" => {
                    let value = tokens.next().map(str::to_owned);
                    if let Some(e) = entries.last_mut() {
                        match t {
                            "login" => e.login = value,
                            "password" => e.password = value,
                            _ => {}
                        }
                    }
                }
                "macdef" => {
                    // The macro's body runs to the next empty line.
                    for l in lines.by_ref() {
                        if l.trim().is_empty() {
                            break;
                        }
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    entries
}

/// The entry for `host` (and `login`, when given): the first `machine`
/// that matches, else the `default` one.
pub fn netrc_entry<'a>(entries: &'a [NetrcEntry], host: &str, login: Option<&str>) -> Option<&'a NetrcEntry> {
    let fits = |e: &&NetrcEntry| login.is_none() || e.login.as_deref() == login;
    entries
        .iter()
        .filter(|e| e.machine.as_deref() == Some(host))
        .find(fits)
        .or_else(|| entries.iter().filter(|e| e.machine.is_none()).find(fits))
}

fn netrc_file() -> Vec<NetrcEntry> {
    std::env::var_os("HOME")
        .and_then(|home| std::fs::read_to_string(Path::new(&home).join(".netrc")).ok())
        .map(|t| parse_netrc(&t))
        .unwrap_or_default()
}

/// Passwords asked for during this run, by (host, user).
type Asked = HashMap<(String, Vec<u8>), Vec<u8>>;
static ASKED: Mutex<Option<Asked>> = Mutex::new(None);

/// Asks for the password of `user` at `host` on the terminal, without
/// echo. `Ok(None)` when there is no terminal to ask on.
fn ask(host: &str, user: &[u8]) -> anyhow::Result<Option<Vec<u8>>> {
    let key = (host.to_owned(), user.to_vec());
    if let Some(p) = ASKED
        .lock()
        .ok()
        .and_then(|m| m.as_ref().and_then(|m| m.get(&key).cloned()))
    {
        return Ok(Some(p));
    }
    if std::fs::File::open("/dev/tty").is_err() {
        return Ok(None);
    }
    let prompt = crate::msg::ts(
        "cli-x3-password-prompt",
        &[("user", &String::from_utf8_lossy(user)), ("host", host)],
    ) + " ";
    let password = rpassword::prompt_password(prompt)
        .context(crate::msg::ts("cli-x3-password-unread", &[]))?
        .into_bytes();
    if let Ok(mut m) = ASKED.lock() {
        m.get_or_insert_with(HashMap::new).insert(key, password.clone());
    }
    Ok(Some(password))
}

fn is_anonymous(user: &[u8]) -> bool {
    user.eq_ignore_ascii_case(b"anonymous") || user.eq_ignore_ascii_case(b"ftp")
}

/// The password of a user named without one.
fn password_of(host: &str, user: &[u8], netrc: &[NetrcEntry]) -> anyhow::Result<Vec<u8>> {
    if is_anonymous(user) {
        // What the client sends for an anonymous login (RFC 1635).
        return Ok(b"babelftp@".to_vec());
    }
    let from_netrc = std::str::from_utf8(user)
        .ok()
        .and_then(|u| netrc_entry(netrc, host, Some(u)))
        .and_then(|e| e.password.clone());
    if let Some(p) = from_netrc {
        return Ok(p.into_bytes());
    }
    match ask(host, user)? {
        Some(p) => Ok(p),
        None => {
            // curl would read standard input here, but ours carries data
            // (`put -`, a shell script): say what is sent instead.
            eprintln!(
                "{}",
                crate::msg::ts(
                    "cli-x3-password-no-terminal",
                    &[("user", &String::from_utf8_lossy(user)), ("host", host)]
                )
            );
            Ok(Vec::new())
        }
    }
}

/// The (user, password) to log in to `host` with: `user_flag` is `-u`'s
/// value, `url_user`/`url_password` the URL's. An empty user is anonymous.
pub fn credentials(
    host: &str,
    user_flag: Option<&str>,
    url_user: Option<&[u8]>,
    url_password: Option<&[u8]>,
) -> anyhow::Result<(Vec<u8>, Vec<u8>)> {
    let netrc = netrc_file();
    match (user_flag, url_user) {
        (Some(u), _) => match u.split_once(':') {
            Some((a, b)) => Ok((a.as_bytes().to_vec(), b.as_bytes().to_vec())),
            None => Ok((u.as_bytes().to_vec(), password_of(host, u.as_bytes(), &netrc)?)),
        },
        (None, Some(u)) => match url_password {
            Some(p) => Ok((u.to_vec(), p.to_vec())),
            None => Ok((u.to_vec(), password_of(host, u, &netrc)?)),
        },
        (None, None) => match netrc_entry(&netrc, host, None) {
            Some(NetrcEntry {
                login: Some(login),
                password,
                ..
            }) => {
                let user = login.clone().into_bytes();
                let password = match password {
                    Some(p) => p.clone().into_bytes(),
                    None => password_of(host, &user, &[])?,
                };
                Ok((user, password))
            }
            _ => Ok((Vec::new(), Vec::new())),
        },
    }
}

/// `babelftp passwd`'s password: on a terminal, asked twice without echo
/// (a mismatch is refused); from a pipe or file, its first line.
pub fn new_password() -> anyhow::Result<String> {
    use std::io::{BufRead, IsTerminal};
    if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password(crate::msg::ts("cli-x3-passwd-new", &[]) + " ")
            .context(crate::msg::ts("cli-x3-password-unread", &[]))?;
        if first.is_empty() {
            anyhow::bail!(crate::msg::ts("cli-x3-passwd-empty", &[]));
        }
        let again = rpassword::prompt_password(crate::msg::ts("cli-x3-passwd-again", &[]) + " ")
            .context(crate::msg::ts("cli-x3-password-unread", &[]))?;
        if first != again {
            anyhow::bail!(crate::msg::ts("cli-x3-passwd-mismatch", &[]));
        }
        return Ok(first);
    }
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .context(crate::msg::ts("cli-x3-password-unread", &[]))?;
    let pw = line.strip_suffix('\n').unwrap_or(&line);
    let pw = pw.strip_suffix('\r').unwrap_or(pw);
    if pw.is_empty() {
        anyhow::bail!(crate::msg::ts("cli-x3-passwd-empty", &[]));
    }
    Ok(pw.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn netrc_entries_by_host_and_login() {
        let e = parse_netrc(
            "machine a.org login x password 1\n\
             machine h login bob password secret\n\
             machine h login eve\n\
             macdef init\ncd /pub\n\n\
             default login anonymous password me@\n",
        );
        assert_eq!(e.len(), 4);
        assert_eq!(netrc_entry(&e, "h", None).unwrap().password.as_deref(), Some("secret"));
        assert_eq!(netrc_entry(&e, "h", Some("eve")).unwrap().password, None);
        assert_eq!(netrc_entry(&e, "h", Some("zed")), None);
        assert_eq!(
            netrc_entry(&e, "other", None).unwrap().login.as_deref(),
            Some("anonymous")
        );
    }
}
