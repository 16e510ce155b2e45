//! `babelftp shell URL`: an interactive session with line editing, history
//! and tab completion of remote names (rustyline).
//!
//! Commands: ls [-l] [dir] · cd dir · pwd · get name [local] · put local
//! [name] · mget pattern · mput pattern · mkdir dir… · rm [-r] name… ·
//! rmdir dir… · mv old new · lcd [dir] · lpwd · !command · lang [tag] ·
//! feat · quote line · help · bye (also quit, exit). Words may be quoted
//! with "…" and use \ escapes, so names with spaces work.
//!
//! At a terminal, Ctrl-C at the prompt clears the line, and during a
//! command (a transfer, a listing) stops that command: the data
//! connection is closed, ABOR sent, the control connection brought back in
//! step (or opened again), and the prompt comes back.

mod commands;
mod complete;
mod words;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::Context;
use babelftp_proto::command::Command;
use clap::Args;
use rustyline::error::ReadlineError;
use rustyline::Editor;

use commands::{refresh, run};
use complete::Names;

pub use words::{split_words, wildcard};

use crate::remote::{Common, Session};

#[derive(Args, Debug)]
pub struct ShellArgs {
    /// ftp://[user[:password]@]host[:port]/[dir/]
    url: String,
    #[command(flatten)]
    common: Common,
}

/// `!command`: runs a local command with `sh -c` (a lone `!` starts
/// `$SHELL`); `Ok(false)` when it failed.
fn local_command(cmd: &str) -> anyhow::Result<bool> {
    let status = if cmd.trim().is_empty() {
        let sh = std::env::var_os("SHELL").unwrap_or_else(|| "sh".into());
        std::process::Command::new(sh).status()
    } else {
        std::process::Command::new("sh").arg("-c").arg(cmd).status()
    }
    .context(crate::msg::ts("cli-x3-local-command-failed", &[]))?;
    Ok(status.success())
}

/// After a command was interrupted: ABOR (which also ends a transfer the
/// server still runs), then SYST, whose 215 no other command answers:
/// every reply up to it is the interrupted command's or ABOR's and is
/// dropped, and the connection is in step again.
async fn resync(s: &mut Session) -> anyhow::Result<()> {
    let c = s.client.control();
    let sync = async {
        c.send(&Command::Abor).await?;
        c.send(&Command::Syst).await?;
        loop {
            if c.reply().await?.code.get() == 215 {
                return Ok::<(), babelftp_client::Error>(());
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(10), sync)
        .await
        .map_err(|_| anyhow::anyhow!("no reply to ABOR"))??;
    Ok(())
}

/// Whether a failed command may have left the control connection out of
/// step: an I/O error (local or on a connection) may have cut it between
/// a command and its reply; a refusal or a mistake in the command line
/// leaves it in step.
fn out_of_step(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.is::<std::io::Error>()
            || c.downcast_ref::<babelftp_client::Error>()
                .is_some_and(|e| !matches!(e, babelftp_client::Error::Refused(_)))
    })
}

/// Brings the session back in step after an interrupted or broken
/// command ([`resync`]), else opens a new one in the same directory.
async fn recover(s: &mut Session, a: &ShellArgs, cwd: &[u8], names: &Arc<Mutex<Vec<String>>>) -> anyhow::Result<()> {
    if resync(s).await.is_err() {
        eprintln!("{}", crate::msg::ts("cli-x3-reconnecting", &[]));
        *s = reopen(a, cwd).await?;
    }
    refresh(s, names).await.ok();
    Ok(())
}

/// A new session in directory `cwd`, for a connection that did not come
/// back in step after an interrupted command (a password asked for is not
/// asked again).
async fn reopen(a: &ShellArgs, cwd: &[u8]) -> anyhow::Result<Session> {
    let mut s = Session::open(&a.url, &a.common).await?;
    if !cwd.is_empty() {
        s.client.cwd(cwd).await?;
    }
    Ok(s)
}

pub async fn shell(a: ShellArgs) -> anyhow::Result<()> {
    let mut s = Session::open(&a.url, &a.common).await?;
    let path = s.url.path_bytes();
    if !path.is_empty() {
        let d = s.encode(&path);
        s.client.cwd(&d).await?;
    }
    let names = Arc::new(Mutex::new(Vec::new()));
    refresh(&mut s, &names).await?;
    let mut rl: Editor<Names, rustyline::history::DefaultHistory> = Editor::new()?;
    rl.set_helper(Some(Names(names.clone())));
    // Only a person at a terminal has a history: a piped script neither
    // reads nor writes one.
    let interactive = std::io::IsTerminal::is_terminal(&std::io::stdin());
    let mut failed = false;
    let history = interactive
        .then(|| {
            std::env::var_os("XDG_STATE_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
        })
        .flatten()
        .map(|b| b.join("babelftp/history"));
    if let Some(h) = &history {
        let _ = rl.load_history(h);
    }
    let host = s.url.host.to_string();
    // Registered before the first command, so that a Ctrl-C during one
    // (or during a `!command`, which gets it too) never ends the shell.
    let _sigint = if interactive {
        Some(tokio::signal::unix::signal(
            tokio::signal::unix::SignalKind::interrupt(),
        )?)
    } else {
        None
    };
    loop {
        let cwd = s.client.pwd().await.unwrap_or_default();
        let prompt = format!("{host}:{}> ", String::from_utf8_lossy(&s.show(&cwd)));
        let line = match rl.readline(&prompt) {
            Ok(l) => l,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e.into()),
        };
        if line.trim().is_empty() {
            continue;
        }
        let _ = rl.add_history_entry(line.as_str());
        if let Some(cmd) = line.trim_start().strip_prefix('!') {
            match local_command(cmd) {
                Ok(true) => {}
                Ok(false) => failed = true,
                Err(e) => {
                    eprintln!(
                        "{}",
                        crate::msg::ts("cli-error", &[("error", &crate::exit::describe(&e))])
                    );
                    failed = true;
                }
            }
            continue;
        }
        let words = match split_words(&line) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("{}", crate::msg::ts("cli-error", &[("error", e)]));
                failed = true;
                continue;
            }
        };
        // At a terminal, Ctrl-C stops the command (the transfer), not the
        // shell; a script's Ctrl-C stops the script, as it always did.
        let outcome = if interactive {
            tokio::select! {
                biased;
                _ = tokio::signal::ctrl_c() => None,
                r = run(&mut s, &words, &names) => Some(r),
            }
        } else {
            Some(run(&mut s, &words, &names).await)
        };
        match outcome {
            Some(Ok(true)) => {}
            Some(Ok(false)) => break,
            Some(Err(e)) => {
                eprintln!(
                    "{}",
                    crate::msg::ts("cli-error", &[("error", &crate::exit::describe(&e))])
                );
                failed = true;
                // A transfer cut by an error here (a full disk, a closed
                // pipe) or there leaves replies unread.
                if out_of_step(&e) {
                    recover(&mut s, &a, &cwd, &names).await?;
                }
            }
            None => {
                // Over the terminal's "^C", on its line.
                eprintln!("\r{}", crate::msg::ts("cli-x3-interrupted", &[("command", &words[0])]));
                recover(&mut s, &a, &cwd, &names).await?;
            }
        }
    }
    if let Some(h) = &history {
        if let Some(dir) = h.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = rl.save_history(h);
    }
    let _ = s.client.quit().await;
    if failed && !interactive {
        // Like `lftp -c` and `sftp -b`: a script with a failed command
        // fails, its message already printed (all the commands ran).
        std::process::exit(1);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::complete::complete_word;
    use super::*;

    #[test]
    fn pasted_isolates_are_not_part_of_a_name() {
        assert_eq!(
            split_words("get \u{2068}שלום.txt\u{2069} \"\u{2068}מסמך חדש\u{2069}.pdf\"").unwrap(),
            vec!["get", "שלום.txt", "מסמך חדש.pdf"]
        );
    }

    #[test]
    fn words_quotes_and_escapes() {
        assert_eq!(split_words("get \"a b.txt\" c").unwrap(), ["get", "a b.txt", "c"]);
        assert_eq!(split_words(r"get a\ b").unwrap(), ["get", "a b"]);
        assert_eq!(split_words("  ls   ").unwrap(), ["ls"]);
        assert_eq!(split_words("get \"\"").unwrap(), ["get", ""]);
        assert!(split_words("get \"open").is_err());
    }

    #[test]
    fn wildcards() {
        assert!(wildcard("*.txt", "日本語.txt"));
        assert!(wildcard("?.doc", "報.doc"));
        assert!(!wildcard("*.txt", "a.doc"));
        assert!(wildcard("*", ""));
        assert!(wildcard("a*b*c", "aXbYc"));
    }

    #[test]
    fn completion_of_commands_and_remote_names() {
        let names = vec![
            "日本語.txt".to_string(),
            "報告書.doc".to_string(),
            "new folder".to_string(),
        ];
        let none = |_: &str, _: bool| Vec::new();
        assert_eq!(complete_word("ge", 2, &names, &none), (0, vec!["get".to_string()]));
        assert_eq!(
            complete_word("get 日", 7, &names, &none),
            (4, vec!["日本語.txt".to_string()])
        );
        assert_eq!(
            complete_word("get \"new", 8, &names, &none),
            (4, vec!["\"new folder\"".to_string()])
        );
        // put's first word, get's second and lcd's are local paths.
        let local = |w: &str, dirs: bool| {
            assert_eq!(dirs, w == "d");
            vec!["local.txt".to_string(), "dir/".to_string()]
        };
        assert_eq!(
            complete_word("put l", 5, &names, &local),
            (4, vec!["local.txt".to_string()])
        );
        assert_eq!(
            complete_word("get 報告書.doc l", 19, &names, &local),
            (18, vec!["local.txt".to_string()])
        );
        assert_eq!(complete_word("put local.txt 報", 17, &names, &local).1, ["報告書.doc"]);
        assert_eq!(complete_word("lcd d", 5, &names, &local), (4, vec!["dir/".to_string()]));
    }
}
