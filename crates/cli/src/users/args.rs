//! The arguments of `babelftp user …` and `babelftp group …`.

use std::path::PathBuf;

use babelftp_accounts::LimitChanges;
use clap::{Args, Subcommand};

use crate::msg::ts;

#[derive(Args, Debug)]
pub struct UserArgs {
    /// The accounts store: sqlite:PATH, a path, or postgres://USER:PASSWORD@HOST:PORT/DB
    /// [env: BABELFTP_DB] [default: sqlite:babelftp.db].
    #[arg(long, value_name = "URL", global = true)]
    pub(super) db: Option<String>,
    /// Take the store from this configuration file's `db` (as `serve
    /// --config` does), when --db is not given.
    #[arg(long, value_name = "FILE", global = true)]
    pub(super) config: Option<std::path::PathBuf>,
    /// The server's root directory, when there is no configuration file: homes and mounts
    /// outside the tree must lie below it [default: ftp-root].
    #[arg(long, value_name = "DIR", global = true)]
    pub(super) root: Option<PathBuf>,
    #[command(subcommand)]
    pub(super) cmd: UserCmd,
}

#[derive(Args, Debug)]
pub struct GroupArgs {
    /// The accounts store, as for `babelftp user` [env: BABELFTP_DB] [default: sqlite:babelftp.db].
    #[arg(long, value_name = "URL", global = true)]
    pub(super) db: Option<String>,
    /// As for `babelftp user`: the `db` of a configuration file (and its allowed_sources).
    #[arg(long, value_name = "FILE", global = true)]
    pub(super) config: Option<std::path::PathBuf>,
    /// As for `babelftp user`: the server's root when there is no configuration file.
    #[arg(long, value_name = "DIR", global = true)]
    pub(super) root: Option<PathBuf>,
    #[command(subcommand)]
    pub(super) cmd: GroupCmd,
}

/// Settings a user or a group may set.
#[derive(Args, Debug, Default)]
pub(super) struct Settings {
    /// Home: a path inside the root (/alice), file:///DIR, or s3://BUCKET/PREFIX.
    #[arg(long, value_name = "PATH")]
    pub(super) home: Option<String>,
    /// Language of the replies after login (fr, pt-BR…).
    #[arg(long, value_name = "TAG")]
    pub(super) lang: Option<String>,
    /// Charset of the names for a legacy client (windows-1251, shift_jis…).
    #[arg(long, value_name = "LABEL")]
    pub(super) charset: Option<String>,
}

/// Limits a user or a group may set; `none` clears one (the group's, or
/// no limit, applies again).
#[derive(Args, Debug, Default)]
pub(super) struct LimitArgs {
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
    pub(super) fn changes(&self) -> LimitChanges {
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

/// Issue 48: the FTPS data-connection session-reuse rule of a user or a
/// group.
#[derive(Args, Debug, Default)]
pub(super) struct TlsReuseArgs {
    /// FTPS data connections: required (they must resume the control connection's TLS session),
    /// optional (for clients that never resume, such as Python's ftplib), or default (the
    /// group's, else the server's tls_reuse_required).
    #[arg(long, value_name = "RULE", value_parser = tls_reuse_arg)]
    pub(super) tls_reuse: Option<TlsReuseChoice>,
}

/// `--tls-reuse` as typed: a rule, or `default` (none of its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TlsReuseChoice(pub(super) Option<babelftp_accounts::TlsReuse>);

fn tls_reuse_arg(v: &str) -> Result<TlsReuseChoice, String> {
    if v.trim().eq_ignore_ascii_case("default") {
        return Ok(TlsReuseChoice(None));
    }
    babelftp_accounts::TlsReuse::parse(v)
        .map(|r| TlsReuseChoice(Some(r)))
        .ok_or_else(|| ts("cli-acct-bad-tls-reuse", &[("value", v)]))
}

/// Settings cleared (the group's, or the default, applies again).
#[derive(Args, Debug, Default)]
pub(super) struct Clear {
    /// Clear the home.
    #[arg(long, conflicts_with = "home")]
    pub(super) no_home: bool,
    /// Clear the language.
    #[arg(long, conflicts_with = "lang")]
    pub(super) no_lang: bool,
    /// Clear the charset.
    #[arg(long, conflicts_with = "charset")]
    pub(super) no_charset: bool,
}

#[derive(Subcommand, Debug)]
pub(super) enum UserCmd {
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
        #[command(flatten)]
        tls: TlsReuseArgs,
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
pub(super) enum GroupCmd {
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
        #[command(flatten)]
        tls: TlsReuseArgs,
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
