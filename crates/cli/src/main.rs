//! `babelftp`: the command-line front of the babelftp server and client.
//!
//! Subcommands:
//! - `serve`: run the FTP server (see `babelftp serve --help`);
//! - `passwd`: hash a password for the users file;
//! - `url encode|decode`: convert `ftp://` URLs between the form a person
//!   writes (raw UTF-8, spaces, `#`, …) and their ASCII form (UTF-8 then
//!   `%HH`), as the Masinter draft describes; `decode` gives back what
//!   `encode` took.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod admin;
mod bans;
mod check;
mod db;
mod exit;
mod login;
mod mirror;
mod msg;
mod redact;
mod remote;
mod serve;
mod share;
mod shell;
mod users;
mod xfer;

#[derive(Parser)]
#[command(
    name = "babelftp",
    version,
    about = "An RFC 2640 FTP server and client that speaks every script",
    after_help = xfer::EXIT_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run the FTP server.
    Serve(Box<serve::ServeArgs>),
    /// Print the argon2 hash of a password for a users file (asked twice without echo on a
    /// terminal; else the first line of standard input).
    Passwd,
    /// List a remote directory.
    Ls(remote::LsArgs),
    /// Download files (URL... [DEST]; DEST - is standard output; * and ? in names).
    Get(xfer::GetArgs),
    /// Upload files (FILE... URL; FILE - is standard input).
    Put(xfer::PutArgs),
    /// Print remote files to standard output.
    Cat(xfer::CatArgs),
    /// Change the permissions of remote files (SITE CHMOD, octal MODE).
    Chmod(xfer::ChmodArgs),
    /// Make remote directories (-p: with their parents).
    Mkdir(xfer::MkdirArgs),
    /// Remove remote files (or, with a trailing /, a directory; -r: a whole tree).
    Rm(xfer::RmArgs),
    /// Rename a remote file.
    Mv(remote::MvArgs),
    /// An interactive session: ls [-l] cd pwd get put mget mput mkdir rm [-r] rmdir mv lcd lpwd
    /// !command lang feat quote bye (Ctrl-C stops a transfer, not the shell).
    Shell(shell::ShellArgs),
    /// Report how well a server implements RFC 2640 (one line per check).
    Check(check::CheckArgs),
    /// Copy a remote tree here (or, with --reverse, a local tree there): new and changed files only.
    Mirror(mirror::MirrorArgs),
    /// Manage the users of the accounts store (SQLite or PostgreSQL, --db): add list show rm passwd
    /// set perm mount unmount import.
    User(users::UserArgs),
    /// Manage the groups of the accounts store: a user takes its group's home, language, charset,
    /// permissions and mounts unless it sets its own.
    Group(users::GroupArgs),
    /// The defender's bans in the accounts store, on every node: list, add ADDR or NET [--for
    /// DURATION], rm ADDR.
    Ban(bans::BanArgs),
    /// The admin API (serve --admin-listen): its bearer tokens (token create [--name N], list,
    /// rm NAME).
    Admin(admin::AdminArgs),
    /// Share links of the web view (/s/TOKEN, in the accounts store): create PATH --user NAME
    /// [--expires D] [--password] [--max-downloads N | --upload [--max-uploads N]] [--allow CIDR]…,
    /// list [--user NAME], rm ID.
    Share(share::ShareArgs),
    /// Convert ftp:// URLs and paths between raw UTF-8 and %HH forms.
    Url {
        #[command(subcommand)]
        op: UrlOp,
    },
}

#[derive(Subcommand)]
enum UrlOp {
    /// Percent-encode a URL or a bare path as written: spaces, #, ?, a lone % and non-ASCII (as UTF-8) become %HH.
    Encode {
        /// An ftp:// URL or a path such as "/pub/日本語/a b.txt"; - reads one per line from standard input.
        input: String,
    },
    /// Turn %HH escapes back into the characters a person writes (the inverse of encode).
    Decode {
        /// An ftp:// URL or a path; - reads one per line from standard input.
        input: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Serve(args) => serve::run(*args),
        Cmd::Passwd => serve::passwd(),
        Cmd::Url { op } => url(op),
        Cmd::User(a) => block_on(users::user(a)),
        Cmd::Group(a) => block_on(users::group(a)),
        Cmd::Ban(a) => block_on(bans::ban(a)),
        Cmd::Admin(a) => block_on(admin::admin(a)),
        Cmd::Share(a) => block_on(share::share(a)),
        Cmd::Ls(a) => block_on(remote::ls(a)),
        Cmd::Get(a) => block_on(xfer::get(a)),
        Cmd::Put(a) => block_on(xfer::put(a)),
        Cmd::Mkdir(a) => block_on(xfer::mkdir(a)),
        Cmd::Cat(a) => block_on(xfer::cat(a)),
        Cmd::Chmod(a) => block_on(xfer::chmod(a)),
        Cmd::Rm(a) => block_on(xfer::rm(a)),
        Cmd::Mv(a) => block_on(remote::mv(a)),
        Cmd::Mirror(a) => block_on(mirror::mirror(a)),
        Cmd::Shell(a) => block_on(shell::shell(a)),
        Cmd::Check(a) => match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(anyhow::Error::from)
            .and_then(|rt| rt.block_on(check::check(a)))
        {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::from(1),
            Err(e) => Err(e),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Failures of several files were reported one by one.
            if !e.is::<exit::Reported>() {
                eprintln!("{}", msg::ts("cli-error", &[("error", &exit::describe(&e))]));
            }
            ExitCode::from(exit::code(&e))
        }
    }
}

/// Runs a client command on a small runtime.
fn block_on(f: impl std::future::Future<Output = anyhow::Result<()>>) -> anyhow::Result<()> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(f)
}

fn url(op: UrlOp) -> anyhow::Result<()> {
    let (input, encode) = match op {
        UrlOp::Encode { input } => (input, true),
        UrlOp::Decode { input } => (input, false),
    };
    let one = |s: &str| -> anyhow::Result<String> {
        Ok(if encode {
            babelftp_proto::url::encode_url_or_path(s)?
        } else {
            babelftp_proto::url::decode_url(s)?
        })
    };
    if input != "-" {
        println!("{}", one(&input)?);
        return Ok(());
    }
    // `-`: one URL or path per line of standard input, as other tools
    // take `-` (a line's end is not part of it).
    for line in std::io::stdin().lines() {
        let line = anyhow::Context::context(line, crate::msg::ts("cli-x1-reading-stdin", &[]))?;
        println!("{}", one(line.strip_suffix('\r').unwrap_or(&line))?);
    }
    Ok(())
}
