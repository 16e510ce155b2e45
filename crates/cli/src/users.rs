//! `babelftp user …` and `babelftp group …`: the accounts store (SQLite or
//! PostgreSQL, `babelftp_accounts`) from the command line.
//!
//! Every command takes `--db URL` (else `$BABELFTP_DB`, else
//! `sqlite:babelftp.db` in the working directory). `list` and `show` print
//! tab-separated lines that scripts can read (`cut -f2`), with fixed
//! English keys; confirmations and errors come from the catalogs. Exit
//! codes (exit.rs): 2 for a value that is wrong in itself (a name, a tag, a
//! charset, a path, permissions, a source), 1 for everything else (no such
//! user, already there, the store failing).
//!
//! A home or virtual folder outside the served tree (`file:///DIR`, `/DIR`
//! as a mount, `s3://…`) must lie under the server's `allowed_sources`
//! (issue 45): those of `--config FILE` (read as `serve` reads it: its
//! `allowed_sources`, else its root or S3 storage and its hosts'), else the
//! root `--root DIR`, else serve's default root `ftp-root` of the working
//! directory. Refused otherwise (exit 1), naming the allowed ones.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::Context;
use babelftp_accounts::{
    AccountsError, GroupChanges, LimitChanges, Limits, NewGroup, NewUser, Owner, Perms, Profile, Store, UserChanges,
    UserRecord,
};
use clap::{Args, Subcommand};

use crate::exit::Usage;
use crate::msg::ts;

#[derive(Args, Debug)]
pub struct UserArgs {
    /// The accounts store: sqlite:PATH, a path, or postgres://USER:PASSWORD@HOST:PORT/DB
    /// [env: BABELFTP_DB] [default: sqlite:babelftp.db].
    #[arg(long, value_name = "URL", global = true)]
    db: Option<String>,
    /// Take the store from this configuration file's `db` (as `serve
    /// --config` does), when --db is not given.
    #[arg(long, value_name = "FILE", global = true)]
    config: Option<std::path::PathBuf>,
    /// The server's root directory, when there is no configuration file: homes and mounts
    /// outside the tree must lie below it [default: ftp-root].
    #[arg(long, value_name = "DIR", global = true)]
    root: Option<PathBuf>,
    #[command(subcommand)]
    cmd: UserCmd,
}

#[derive(Args, Debug)]
pub struct GroupArgs {
    /// The accounts store, as for `babelftp user` [env: BABELFTP_DB] [default: sqlite:babelftp.db].
    #[arg(long, value_name = "URL", global = true)]
    db: Option<String>,
    /// As for `babelftp user`: the `db` of a configuration file (and its allowed_sources).
    #[arg(long, value_name = "FILE", global = true)]
    config: Option<std::path::PathBuf>,
    /// As for `babelftp user`: the server's root when there is no configuration file.
    #[arg(long, value_name = "DIR", global = true)]
    root: Option<PathBuf>,
    #[command(subcommand)]
    cmd: GroupCmd,
}

/// Settings a user or a group may set.
#[derive(Args, Debug, Default)]
struct Settings {
    /// Home: a path inside the root (/alice), file:///DIR, or s3://BUCKET/PREFIX.
    #[arg(long, value_name = "PATH")]
    home: Option<String>,
    /// Language of the replies after login (fr, pt-BR…).
    #[arg(long, value_name = "TAG")]
    lang: Option<String>,
    /// Charset of the names for a legacy client (windows-1251, shift_jis…).
    #[arg(long, value_name = "LABEL")]
    charset: Option<String>,
}

/// Limits a user or a group may set; `none` clears one (the group's, or
/// no limit, applies again).
#[derive(Args, Debug, Default)]
struct LimitArgs {
    /// Bytes its files may hold: 500MiB, 2G, 1048576 (none: no quota).
    #[arg(long, value_name = "SIZE", value_parser = size_arg)]
    quota_bytes: Option<Limit>,
    /// Files it may have (none: no quota).
    #[arg(long, value_name = "N", value_parser = count_arg)]
    quota_files: Option<Limit>,
    /// Download bandwidth of all its sessions together: 1MiB/s, 500KiB/s (none: unlimited).
    #[arg(long, value_name = "RATE", value_parser = rate_arg)]
    download_rate: Option<Limit>,
    /// Upload bandwidth of all its sessions together (none: unlimited).
    #[arg(long, value_name = "RATE", value_parser = rate_arg)]
    upload_rate: Option<Limit>,
    /// Sessions it may have at once on each server (none: no limit).
    #[arg(long, value_name = "N", value_parser = count_arg)]
    max_sessions: Option<Limit>,
}

/// A limit as typed: a value, or `none`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Limit(Option<u64>);

fn limit_arg(v: &str, parse: impl Fn(&str) -> Option<u64>, id: &str) -> Result<Limit, String> {
    if v.trim().eq_ignore_ascii_case("none") {
        return Ok(Limit(None));
    }
    parse(v).map(|n| Limit(Some(n))).ok_or_else(|| ts(id, &[("value", v)]))
}

fn size_arg(v: &str) -> Result<Limit, String> {
    limit_arg(v, |v| babelftp_accounts::parse_size(v).ok(), "cli-acct-bad-size")
}

fn rate_arg(v: &str) -> Result<Limit, String> {
    limit_arg(v, |v| babelftp_accounts::parse_rate(v).ok(), "cli-acct-bad-rate")
}

fn count_arg(v: &str) -> Result<Limit, String> {
    limit_arg(
        v,
        |v| v.trim().parse::<u64>().ok().filter(|n| *n > 0),
        "cli-acct-bad-count",
    )
}

impl LimitArgs {
    fn changes(&self) -> LimitChanges {
        let c = |l: Option<Limit>| l.map(|l| l.0);
        LimitChanges {
            quota_bytes: c(self.quota_bytes),
            quota_files: c(self.quota_files),
            download_rate: c(self.download_rate),
            upload_rate: c(self.upload_rate),
            max_sessions: c(self.max_sessions),
        }
    }
}

/// The lines of limits in `show`: `key<TAB>value[<TAB>origin]`.
fn limit_lines(l: &Limits, own: &Limits, group: Option<&Limits>, out: &mut Vec<Vec<String>>) {
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

/// Settings cleared (the group's, or the default, applies again).
#[derive(Args, Debug, Default)]
struct Clear {
    /// Clear the home.
    #[arg(long, conflicts_with = "home")]
    no_home: bool,
    /// Clear the language.
    #[arg(long, conflicts_with = "lang")]
    no_lang: bool,
    /// Clear the charset.
    #[arg(long, conflicts_with = "charset")]
    no_charset: bool,
}

#[derive(Subcommand, Debug)]
enum UserCmd {
    /// Add a user; its password is asked twice on a terminal, else read as one line of standard input.
    Add {
        name: String,
        #[command(flatten)]
        settings: Settings,
        /// Its group (whose settings it takes unless it sets its own).
        #[arg(long, value_name = "GROUP")]
        group: Option<String>,
    },
    /// One line per user: name, group, home, enabled or disabled (- when unset).
    List,
    /// A user's effective settings: one line per setting, rule and mount, with where it comes from.
    Show { name: String },
    /// Remove a user with its rules and mounts.
    Rm { name: String },
    /// Change a user's password (asked as for add).
    Passwd { name: String },
    /// Change a user's settings.
    Set {
        name: String,
        #[command(flatten)]
        settings: Settings,
        #[command(flatten)]
        clear: Clear,
        /// Put it in GROUP.
        #[arg(long, value_name = "GROUP", conflicts_with = "no_group")]
        group: Option<String>,
        /// Take it out of its group.
        #[arg(long)]
        no_group: bool,
        /// Refuse its logins.
        #[arg(long, conflicts_with = "enable")]
        disable: bool,
        /// Accept its logins again.
        #[arg(long)]
        enable: bool,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Count what a user's files take (its home and virtual folders) and make that its quota usage;
    /// the server's root and storage come from --config FILE (else --root DIR).
    QuotaScan { name: String },
    /// Set the permissions at VPATH and below: all, none, read, or a list such as upload,mkdir
    /// (list download upload overwrite delete rename mkdir rmdir chmod); inherit removes the rule.
    Perm { name: String, vpath: String, perms: String },
    /// Mount SOURCE (/DIR, file:///DIR or s3://BUCKET/PREFIX) at VPATH.
    Mount {
        name: String,
        vpath: String,
        source: String,
    },
    /// Remove what is mounted at VPATH.
    Unmount { name: String, vpath: String },
    /// Import a users file ([[user]] with name, password, home, write): write = true gives all at /, else read.
    Import { file: PathBuf },
}

#[derive(Subcommand, Debug)]
enum GroupCmd {
    /// Add a group.
    Add {
        name: String,
        #[command(flatten)]
        settings: Settings,
    },
    /// One line per group: name, home, lang, charset, number of members.
    List,
    /// A group's settings, members, rules and mounts.
    Show { name: String },
    /// Remove a group that has no members, with its rules and mounts.
    Rm { name: String },
    /// Change a group's settings.
    Set {
        name: String,
        #[command(flatten)]
        settings: Settings,
        #[command(flatten)]
        clear: Clear,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Set the group's permissions at VPATH, as for `user perm`.
    Perm { name: String, vpath: String, perms: String },
    /// Mount SOURCE at VPATH for the group's users.
    Mount {
        name: String,
        vpath: String,
        source: String,
    },
    /// Remove what is mounted at VPATH.
    Unmount { name: String, vpath: String },
}

/// An error for a person, through the catalogs; a wrong value is a usage
/// error (exit 2).
pub(crate) fn explain(e: AccountsError, db: &str) -> anyhow::Error {
    use AccountsError as E;
    let usage = e.is_input_error()
        && !matches!(
            e,
            E::UnknownUser(_)
                | E::UnknownGroup(_)
                | E::UserExists(_)
                | E::GroupExists(_)
                | E::GroupInUse { .. }
                | E::NoSuchRule { .. }
                | E::NoSuchMount { .. }
                | E::Import { .. }
                | E::ImportEntry { .. }
                | E::Hash(_)
                | E::TokenExists(_)
                | E::UnknownToken(_)
                | E::SourceNotAllowed { .. }
        );
    let text = text_of(&e, db);
    if usage {
        anyhow::Error::new(Usage(text))
    } else {
        anyhow::Error::msg(text)
    }
}

fn text_of(e: &AccountsError, db: &str) -> String {
    use AccountsError as E;
    match e {
        E::Db(err) => ts("cli-acct-db", &[("db", db), ("error", &err.to_string())]),
        E::BadUrl(v) => ts("cli-acct-bad-url", &[("value", &crate::exit::redact_url(v))]),
        E::NoPostgres(d) => ts("cli-acct-no-postgres", &[("db", d)]),
        E::TooNew { found, known } => ts(
            "cli-acct-too-new",
            &[("db", db), ("found", &found.to_string()), ("known", &known.to_string())],
        ),
        E::UnknownUser(n) => ts("cli-acct-unknown-user", &[("name", n), ("db", db)]),
        E::UnknownGroup(n) => ts("cli-acct-unknown-group", &[("name", n), ("db", db)]),
        E::UserExists(n) => ts("cli-acct-user-exists", &[("name", n)]),
        E::GroupExists(n) => ts("cli-acct-group-exists", &[("name", n)]),
        E::GroupInUse { group, members } => ts(
            "cli-acct-group-in-use",
            &[("name", group), ("count", &members.to_string())],
        ),
        E::BadName(v) => ts("cli-acct-bad-name", &[("value", v)]),
        E::BadLang(v) => ts("cli-acct-bad-lang", &[("value", v)]),
        E::BadCharset(v) => ts("cli-acct-bad-charset", &[("value", v)]),
        E::BadHome(v) => ts("cli-acct-bad-home", &[("value", v)]),
        E::BadSource(v) => ts("cli-acct-bad-source", &[("value", v)]),
        E::MountAtRoot => ts("cli-acct-mount-root", &[]),
        E::SourceNotAllowed { what, allowed } => {
            ts("cli-acct-source-not-allowed", &[("source", what), ("allowed", allowed)])
        }
        E::BadPath(p) => ts("cli-acct-bad-path", &[("value", &p.0)]),
        E::BadPerms(p) => ts("cli-acct-bad-perms", &[("value", &p.0)]),
        E::BadHash(n) => ts("cli-acct-bad-hash", &[("name", n)]),
        E::NoSuchRule { owner, path } => ts("cli-acct-no-rule", &[("name", owner), ("path", path)]),
        E::NoSuchMount { owner, path } => ts("cli-acct-no-mount", &[("name", owner), ("path", path)]),
        E::Import { path, message } => ts(
            "cli-acct-import-failed",
            &[("file", &path.display().to_string()), ("error", message)],
        ),
        E::ImportEntry { path, source } => ts(
            "cli-acct-import-failed",
            &[("file", &path.display().to_string()), ("error", &text_of(source, db))],
        ),
        E::Duplicate(n) => ts("cli-acct-import-duplicate", &[("name", n)]),
        E::Hash(err) => ts("cli-acct-hash", &[("error", err)]),
        E::Corrupt { what, value } => ts("cli-acct-corrupt", &[("db", db), ("what", what), ("value", value)]),
        E::TokenExists(n) => ts("cli-admin-token-exists", &[("name", n)]),
        E::UnknownToken(n) => ts("cli-admin-token-unknown", &[("name", n), ("db", db)]),
        E::NoRandom => ts("cli-admin-no-random", &[]),
    }
}

/// Opens the store; what to call it in messages (never a password).
pub(crate) async fn open(flag: Option<String>, config: Option<std::path::PathBuf>) -> anyhow::Result<(Store, String)> {
    let url = crate::db::admin_url(flag, config.as_deref())?;
    match Store::open(&url).await {
        Ok(s) => {
            let d = s.describe();
            Ok((s, d))
        }
        Err(e) => Err(explain(e, &crate::exit::redact_url(&url))),
    }
}

/// A new password: asked twice without echo on a terminal, else the first
/// line of standard input; never empty.
fn read_password() -> anyhow::Result<String> {
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

fn hash(pw: &str, db: &str) -> anyhow::Result<String> {
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

fn dash(v: Option<&str>) -> &str {
    v.unwrap_or("-")
}

/// `--home X` / `--no-home` as a change.
fn change(value: Option<String>, clear: bool) -> Option<Option<String>> {
    match (value, clear) {
        (Some(v), _) => Some(Some(v)),
        (None, true) => Some(None),
        (None, false) => None,
    }
}

async fn perm(s: &Store, db: &str, owner: Owner<'_>, vpath: &str, perms: &str) -> anyhow::Result<()> {
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

async fn mount(
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

async fn unmount(s: &Store, db: &str, owner: Owner<'_>, vpath: &str) -> anyhow::Result<()> {
    s.remove_mount(owner, vpath).await.map_err(|e| explain(e, db))?;
    println!(
        "{}",
        ts("cli-acct-unmounted", &[("name", owner.name()), ("path", vpath)])
    );
    Ok(())
}

/// `babelftp user …`.
/// Where the commands' configuration and root come from: what the
/// allowed sources are.
struct Served {
    config: Option<PathBuf>,
    root: Option<PathBuf>,
}

impl Served {
    /// The configuration `serve` would have: `--config FILE` (with
    /// `--root` over its root), else the defaults with `--root`.
    fn config(&self) -> anyhow::Result<babelftp_server::config::Config> {
        let mut cfg = match &self.config {
            Some(path) => babelftp_server::config::Config::load(path)
                .with_context(|| ts("cli-acct-config-unread", &[("file", &path.display().to_string())]))?,
            None => babelftp_server::config::Config::default(),
        };
        if let Some(r) = &self.root {
            cfg.root = r.clone();
        }
        Ok(cfg)
    }

    /// Refuses a home outside the allowed sources (a path inside the
    /// root always is).
    fn check_home(&self, home: Option<&str>, db: &str) -> anyhow::Result<()> {
        let Some(h) = home else {
            return Ok(());
        };
        // A home that does not read is said so by the store's check.
        match h.parse::<babelftp_accounts::Home>() {
            Ok(babelftp_accounts::Home::Source(src)) => self.check(&src, db),
            _ => Ok(()),
        }
    }

    fn check(&self, src: &babelftp_accounts::Source, db: &str) -> anyhow::Result<()> {
        self.config()?.allowed_sources().check(src).map_err(|e| explain(e, db))
    }
}

pub async fn user(a: UserArgs) -> anyhow::Result<()> {
    let served = Served {
        config: a.config.clone(),
        root: a.root.clone(),
    };
    let (s, db) = open(a.db, a.config).await?;
    let r = user_cmd(&s, &db, a.cmd, &served).await;
    s.close().await;
    r
}

async fn user_cmd(s: &Store, db: &str, cmd: UserCmd, served: &Served) -> anyhow::Result<()> {
    let ex = |e| explain(e, db);
    match cmd {
        UserCmd::Add { name, settings, group } => {
            // Every value is checked before a password is asked for.
            babelftp_accounts::check_name(&name).map_err(ex)?;
            let mut u = NewUser {
                name,
                password: String::new(),
                home: settings.home,
                group,
                lang: settings.lang,
                charset: settings.charset,
                disabled: false,
            };
            for (check, v) in [
                (check_home as fn(&str) -> Result<(), AccountsError>, &u.home),
                (babelftp_accounts::check_lang, &u.lang),
                (babelftp_accounts::check_charset, &u.charset),
            ] {
                if let Some(v) = v {
                    check(v).map_err(ex)?;
                }
            }
            served.check_home(u.home.as_deref(), db)?;
            if let Some(g) = &u.group {
                if s.group(g).await.map_err(ex)?.is_none() {
                    return Err(ex(AccountsError::UnknownGroup(g.clone())));
                }
            }
            if s.user(&u.name).await.map_err(ex)?.is_some() {
                return Err(ex(AccountsError::UserExists(u.name)));
            }
            u.password = hash(&read_password()?, db)?;
            s.add_user(&u).await.map_err(ex)?;
            println!("{}", ts("cli-acct-user-added", &[("name", &u.name), ("db", db)]));
        }
        UserCmd::List => {
            for u in s.list_users().await.map_err(ex)? {
                let state = if u.disabled { "disabled" } else { "enabled" };
                println!(
                    "{}\t{}\t{}\t{state}",
                    u.name,
                    dash(u.group.as_deref()),
                    dash(u.home.as_deref())
                );
            }
        }
        UserCmd::Show { name } => show_user(s, db, &name).await?,
        UserCmd::Rm { name } => {
            s.remove_user(&name).await.map_err(ex)?;
            println!("{}", ts("cli-acct-user-removed", &[("name", &name)]));
        }
        UserCmd::Passwd { name } => {
            if s.user(&name).await.map_err(ex)?.is_none() {
                return Err(ex(AccountsError::UnknownUser(name)));
            }
            let phc = hash(&read_password()?, db)?;
            s.set_password(&name, &phc).await.map_err(ex)?;
            println!("{}", ts("cli-acct-password-changed", &[("name", &name)]));
        }
        UserCmd::Set {
            name,
            settings,
            clear,
            group,
            no_group,
            disable,
            enable,
            limits,
        } => {
            served.check_home(settings.home.as_deref(), db)?;
            let c = UserChanges {
                home: change(settings.home, clear.no_home),
                lang: change(settings.lang, clear.no_lang),
                charset: change(settings.charset, clear.no_charset),
                group: change(group, no_group),
                disabled: (disable || enable).then_some(disable),
            };
            s.set_user(&name, &c).await.map_err(ex)?;
            s.set_limits(Owner::User(&name), &limits.changes()).await.map_err(ex)?;
            println!("{}", ts("cli-acct-user-changed", &[("name", &name)]));
        }
        UserCmd::QuotaScan { name } => quota_scan(s, db, &name, served).await?,
        UserCmd::Perm { name, vpath, perms } => perm(s, db, Owner::User(&name), &vpath, &perms).await?,
        UserCmd::Mount { name, vpath, source } => mount(s, db, Owner::User(&name), &vpath, &source, served).await?,
        UserCmd::Unmount { name, vpath } => unmount(s, db, Owner::User(&name), &vpath).await?,
        UserCmd::Import { file } => {
            let users = babelftp_accounts::read_users_file(&file).map_err(ex)?;
            let r = s.import(&users).await.map_err(ex)?;
            let msg = ts(
                "cli-acct-imported",
                &[
                    ("file", &file.display().to_string()),
                    ("added", &r.added.to_string()),
                    ("updated", &r.updated.to_string()),
                ],
            );
            println!("{msg}");
        }
    }
    Ok(())
}

/// `user quota-scan`: counts the user's tree (as the server builds it
/// from the configuration's root and storage) and stores the count.
async fn quota_scan(s: &Store, db: &str, name: &str, served: &Served) -> anyhow::Result<()> {
    let ex = |e| explain(e, db);
    let Some(profile) = s.profile(name).await.map_err(ex)? else {
        return Err(ex(AccountsError::UnknownUser(name.to_owned())));
    };
    if served.config.is_none() && served.root.is_none() {
        return Err(anyhow::Error::new(Usage(ts("cli-acct-scan-needs-root", &[]))));
    }
    let cfg = served.config()?;
    let dir = crate::db::open_directory(None, &cfg).await?;
    let what = cfg.storage.describe(&cfg.root);
    let usage = babelftp_server::quota::scan_user(&cfg, &dir, profile)
        .await
        .with_context(|| ts("cli-acct-scan-failed", &[("name", name), ("root", &what)]))?;
    s.set_usage(name, usage).await.map_err(ex)?;
    let msg = ts(
        "cli-acct-quota-scanned",
        &[
            ("name", name),
            ("bytes", &babelftp_accounts::format_size(usage.bytes)),
            ("files", &usage.files.to_string()),
            ("root", &what),
        ],
    );
    println!("{msg}");
    Ok(())
}

fn check_home(h: &str) -> Result<(), AccountsError> {
    h.parse::<babelftp_accounts::Home>().map(|_| ())
}

/// Where a user's setting comes from: `user`, `group` or `default`.
fn origin(own: bool, group: bool) -> &'static str {
    match (own, group) {
        (true, _) => "user",
        (false, true) => "group",
        _ => "default",
    }
}

async fn show_user(s: &Store, db: &str, name: &str) -> anyhow::Result<()> {
    let ex = |e| explain(e, db);
    let (Some(rec), Some(p)) = (s.user(name).await.map_err(ex)?, s.profile(name).await.map_err(ex)?) else {
        return Err(ex(AccountsError::UnknownUser(name.to_owned())));
    };
    let grp = match &rec.group {
        Some(g) => s.group(g).await.map_err(ex)?,
        None => None,
    };
    print!("{}", render_user(&rec, grp.as_ref(), &p));
    let mut rows = Vec::new();
    limit_lines(&p.limits, &rec.limits, grp.as_ref().map(|g| &g.limits), &mut rows);
    for r in rows {
        println!("{}", r.join("\t"));
    }
    if let Some(u) = s.usage(name).await.map_err(ex)? {
        println!("usage\t{}\t{}", u.bytes, u.files);
    }
    Ok(())
}

/// `user show`'s lines: `key<TAB>value[<TAB>origin]`.
fn render_user(rec: &UserRecord, grp: Option<&babelftp_accounts::GroupRecord>, p: &Profile) -> String {
    let mut out = String::new();
    let mut line = |parts: &[&str]| {
        out.push_str(&parts.join("\t"));
        out.push('\n');
    };
    line(&["name", &rec.name]);
    line(&["group", dash(rec.group.as_deref())]);
    line(&["state", if rec.disabled { "disabled" } else { "enabled" }]);
    let g = |f: fn(&babelftp_accounts::GroupRecord) -> &Option<String>| grp.is_some_and(|g| f(g).is_some());
    line(&["home", &p.home.to_string(), origin(rec.home.is_some(), g(|g| &g.home))]);
    line(&[
        "lang",
        dash(p.lang.as_deref()),
        origin(rec.lang.is_some(), g(|g| &g.lang)),
    ]);
    line(&[
        "charset",
        dash(p.charset.as_deref()),
        origin(rec.charset.is_some(), g(|g| &g.charset)),
    ]);
    // By path; without any rule, "/ all" (the default).
    let rules: BTreeMap<String, Perms> = p.rules.iter().collect();
    for (path, perms) in &rules {
        let own = rec.perms.iter().any(|(q, _)| q == path);
        let from_group = grp.is_some_and(|g| g.perms.iter().any(|(q, _)| q == path));
        line(&["perm", path, &perms.to_string(), origin(own, from_group)]);
    }
    for m in &p.mounts {
        let path = String::from_utf8_lossy(&m.vpath).into_owned();
        let own = rec.mounts.iter().any(|(q, _)| *q == path);
        line(&["mount", &path, &m.source.to_string(), origin(own, !own)]);
    }
    out
}

/// `babelftp group …`.
pub async fn group(a: GroupArgs) -> anyhow::Result<()> {
    let served = Served {
        config: a.config.clone(),
        root: a.root.clone(),
    };
    let (s, db) = open(a.db, a.config).await?;
    let r = group_cmd(&s, &db, a.cmd, &served).await;
    s.close().await;
    r
}

async fn group_cmd(s: &Store, db: &str, cmd: GroupCmd, served: &Served) -> anyhow::Result<()> {
    let ex = |e| explain(e, db);
    match cmd {
        GroupCmd::Add { name, settings } => {
            served.check_home(settings.home.as_deref(), db)?;
            let g = NewGroup {
                name,
                home: settings.home,
                lang: settings.lang,
                charset: settings.charset,
            };
            s.add_group(&g).await.map_err(ex)?;
            println!("{}", ts("cli-acct-group-added", &[("name", &g.name), ("db", db)]));
        }
        GroupCmd::List => {
            for g in s.list_groups().await.map_err(ex)? {
                println!(
                    "{}\t{}\t{}\t{}\t{}",
                    g.name,
                    dash(g.home.as_deref()),
                    dash(g.lang.as_deref()),
                    dash(g.charset.as_deref()),
                    g.members.len()
                );
            }
        }
        GroupCmd::Show { name } => {
            let Some(g) = s.group(&name).await.map_err(ex)? else {
                return Err(ex(AccountsError::UnknownGroup(name)));
            };
            println!("name\t{}", g.name);
            println!("home\t{}", dash(g.home.as_deref()));
            println!("lang\t{}", dash(g.lang.as_deref()));
            println!("charset\t{}", dash(g.charset.as_deref()));
            let members = g.members.join(",");
            println!("members\t{}", if members.is_empty() { "-" } else { &members });
            let mut rows = Vec::new();
            limit_lines(&g.limits, &g.limits, None, &mut rows);
            for mut r in rows {
                r.pop();
                println!("{}", r.join("\t"));
            }
            for (path, perms) in &g.perms {
                println!("perm\t{path}\t{perms}");
            }
            for (path, source) in &g.mounts {
                println!("mount\t{path}\t{source}");
            }
        }
        GroupCmd::Rm { name } => {
            s.remove_group(&name).await.map_err(ex)?;
            println!("{}", ts("cli-acct-group-removed", &[("name", &name)]));
        }
        GroupCmd::Set {
            name,
            settings,
            clear,
            limits,
        } => {
            served.check_home(settings.home.as_deref(), db)?;
            let c = GroupChanges {
                home: change(settings.home, clear.no_home),
                lang: change(settings.lang, clear.no_lang),
                charset: change(settings.charset, clear.no_charset),
            };
            s.set_group(&name, &c).await.map_err(ex)?;
            s.set_limits(Owner::Group(&name), &limits.changes()).await.map_err(ex)?;
            println!("{}", ts("cli-acct-group-changed", &[("name", &name)]));
        }
        GroupCmd::Perm { name, vpath, perms } => perm(s, db, Owner::Group(&name), &vpath, &perms).await?,
        GroupCmd::Mount { name, vpath, source } => mount(s, db, Owner::Group(&name), &vpath, &source, served).await?,
        GroupCmd::Unmount { name, vpath } => unmount(s, db, Owner::Group(&name), &vpath).await?,
    }
    Ok(())
}
