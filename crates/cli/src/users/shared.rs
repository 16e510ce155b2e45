//! What the user and group commands share: passwords, rules, mounts, the
//! allowed sources of the served tree, the lines of limits.

use std::path::PathBuf;

use anyhow::Context;
use babelftp_accounts::{AccountsError, Limits, Owner, Perms, Store};

use super::store::explain;
use crate::exit::Usage;
use crate::msg::ts;

/// The lines of limits in `show`: `key<TAB>value[<TAB>origin]`.
pub(super) fn limit_lines(l: &Limits, own: &Limits, group: Option<&Limits>, out: &mut Vec<Vec<String>>) {
    let size = |n: Option<u64>| n.map_or("-".to_owned(), |n| n.to_string());
    let rate = |n: Option<u64>| n.map_or("-".to_owned(), |n| format!("{n}/s"));
    // (key, effective, own, group's, is a rate)
    type Row<'a> = (&'a str, Option<u64>, Option<u64>, Option<u64>, bool);
    let rows: [Row; 5] = [
        (
            "quota-bytes",
            l.quota_bytes,
            own.quota_bytes,
            group.and_then(|g| g.quota_bytes),
            false,
        ),
        (
            "quota-files",
            l.quota_files,
            own.quota_files,
            group.and_then(|g| g.quota_files),
            false,
        ),
        (
            "download-rate",
            l.download_rate,
            own.download_rate,
            group.and_then(|g| g.download_rate),
            true,
        ),
        (
            "upload-rate",
            l.upload_rate,
            own.upload_rate,
            group.and_then(|g| g.upload_rate),
            true,
        ),
        (
            "max-sessions",
            l.max_sessions,
            own.max_sessions,
            group.and_then(|g| g.max_sessions),
            false,
        ),
    ];
    for (key, value, mine, grp, is_rate) in rows {
        let v = if is_rate { rate(value) } else { size(value) };
        out.push(vec![
            key.to_owned(),
            v,
            origin(mine.is_some(), grp.is_some()).to_owned(),
        ]);
    }
}

/// Where a user's setting comes from: `user`, `group` or `default`.
pub(super) fn origin(own: bool, group: bool) -> &'static str {
    match (own, group) {
        (true, _) => "user",
        (false, true) => "group",
        _ => "default",
    }
}

/// A new password: asked twice without echo on a terminal, else the first
/// line of standard input; never empty.
pub(crate) fn read_password() -> anyhow::Result<String> {
    use std::io::{BufRead, IsTerminal};
    let unread = || ts("cli-x3-password-unread", &[]);
    let pw = if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password(ts("cli-x3-passwd-new", &[]) + " ").context(unread())?;
        if !first.is_empty() {
            let again = rpassword::prompt_password(ts("cli-x3-passwd-again", &[]) + " ").context(unread())?;
            if first != again {
                anyhow::bail!(ts("cli-acct-passwd-mismatch", &[]));
            }
        }
        first
    } else {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).context(unread())?;
        let pw = line.strip_suffix('\n').unwrap_or(&line);
        pw.strip_suffix('\r').unwrap_or(pw).to_owned()
    };
    if pw.is_empty() {
        return Err(anyhow::Error::new(Usage(ts("cli-x3-passwd-empty", &[]))));
    }
    Ok(pw)
}

pub(super) fn hash(pw: &str, db: &str) -> anyhow::Result<String> {
    babelftp_accounts::hash_password(pw.as_bytes()).map_err(|e| explain(e, db))
}

/// `perms` as typed: `None` for `inherit` (remove the rule).
fn parse_perms(perms: &str, db: &str) -> anyhow::Result<Option<Perms>> {
    if perms.trim().eq_ignore_ascii_case("inherit") {
        return Ok(None);
    }
    perms
        .parse::<Perms>()
        .map(Some)
        .map_err(|e| explain(AccountsError::BadPerms(e), db))
}

pub(super) fn dash(v: Option<&str>) -> &str {
    v.unwrap_or("-")
}

/// `--home X` / `--no-home` as a change.
pub(super) fn change(value: Option<String>, clear: bool) -> Option<Option<String>> {
    match (value, clear) {
        (Some(v), _) => Some(Some(v)),
        (None, true) => Some(None),
        (None, false) => None,
    }
}

pub(super) async fn perm(s: &Store, db: &str, owner: Owner<'_>, vpath: &str, perms: &str) -> anyhow::Result<()> {
    let name = owner.name();
    match parse_perms(perms, db)? {
        Some(p) => {
            s.set_perm(owner, vpath, p).await.map_err(|e| explain(e, db))?;
            let path = babelftp_accounts::normalize_vpath(vpath).map_err(|e| explain(e, db))?;
            println!(
                "{}",
                ts(
                    "cli-acct-perm-set",
                    &[("name", name), ("path", &path), ("perms", &p.to_string())]
                )
            );
        }
        None => {
            s.remove_perm(owner, vpath).await.map_err(|e| explain(e, db))?;
            println!("{}", ts("cli-acct-perm-removed", &[("name", name), ("path", vpath)]));
        }
    }
    Ok(())
}

pub(super) async fn mount(
    s: &Store,
    db: &str,
    owner: Owner<'_>,
    vpath: &str,
    source: &str,
    served: &Served,
) -> anyhow::Result<()> {
    let src = source.parse().map_err(|e| explain(e, db))?;
    // (A mount at / or at a path that does not read: the store says so.)
    if babelftp_accounts::normalize_vpath(vpath).is_ok_and(|p| p != "/") {
        served.check(&src, db)?;
    }
    s.add_mount(owner, vpath, &src).await.map_err(|e| explain(e, db))?;
    let msg = ts(
        "cli-acct-mounted",
        &[("name", owner.name()), ("path", vpath), ("source", &src.to_string())],
    );
    println!("{msg}");
    Ok(())
}

pub(super) async fn unmount(s: &Store, db: &str, owner: Owner<'_>, vpath: &str) -> anyhow::Result<()> {
    s.remove_mount(owner, vpath).await.map_err(|e| explain(e, db))?;
    println!(
        "{}",
        ts("cli-acct-unmounted", &[("name", owner.name()), ("path", vpath)])
    );
    Ok(())
}

/// Where the commands' configuration and root come from: what the
/// allowed sources are.
pub(super) struct Served {
    pub(super) config: Option<PathBuf>,
    pub(super) root: Option<PathBuf>,
}

impl Served {
    /// The configuration `serve` would have: `--config FILE` (with
    /// `--root` over its root), else the defaults with `--root`.
    pub(super) fn config(&self) -> anyhow::Result<babelftp_server::config::Config> {
        use babelftp_server::config::Settings;
        let unread = |path: &std::path::Path| ts("cli-acct-config-unread", &[("file", &path.display().to_string())]);
        let mut s = match &self.config {
            Some(path) => Settings::load(path).with_context(|| unread(path))?,
            None => Settings::default(),
        };
        if let Some(r) = &self.root {
            s.root = Some(r.clone());
        }
        match &self.config {
            Some(path) => s.resolve().with_context(|| unread(path)),
            None => Ok(s.resolve()?),
        }
    }

    /// Refuses a language the server has no catalog for (the shipped
    /// ones and those of its `catalogs` directory), saying which it has.
    pub(super) fn check_lang(&self, lang: Option<&str>, db: &str) -> anyhow::Result<()> {
        let Some(tag) = lang else {
            return Ok(());
        };
        babelftp_accounts::check_lang(tag).map_err(|e| explain(e, db))?;
        let cats = match &self.config()?.catalogs_dir {
            Some(d) => babelftp_i18n::lang::Catalogs::with_dir(d),
            None => babelftp_i18n::lang::Catalogs::builtin(),
        }
        .map_err(|e| anyhow::anyhow!("{e}"))?;
        babelftp_accounts::check_lang_served(tag, &cats).map_err(|e| explain(e, db))
    }

    /// Refuses a password shorter than `[accounts] min_password_length`.
    pub(super) fn check_password(&self, password: &str, db: &str) -> anyhow::Result<()> {
        let min = self.config()?.min_password_length;
        babelftp_accounts::check_password_length(password, min).map_err(|e| explain(e, db))
    }

    /// Refuses a home outside the allowed sources (a path inside the
    /// root always is).
    pub(super) fn check_home(&self, home: Option<&str>, db: &str) -> anyhow::Result<()> {
        let Some(h) = home else {
            return Ok(());
        };
        // A home that does not read is said so by the store's check.
        match h.parse::<babelftp_accounts::Home>() {
            Ok(babelftp_accounts::Home::Source(src)) => self.check(&src, db),
            _ => Ok(()),
        }
    }

    pub(super) fn check(&self, src: &babelftp_accounts::Source, db: &str) -> anyhow::Result<()> {
        self.config()?.allowed_sources().check(src).map_err(|e| explain(e, db))
    }
}
