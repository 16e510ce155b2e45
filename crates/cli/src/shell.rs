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

use std::borrow::Cow;
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::{bail, Context};
use babelftp_client::client::StoreMode;
use babelftp_proto::command::Command;
use babelftp_proto::feat::Features;
use babelftp_proto::lang::LangTag;
use clap::Args;
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context as RlContext, Editor, Helper};

use crate::remote::{Common, Session};

#[derive(Args, Debug)]
pub struct ShellArgs {
    /// ftp://[user[:password]@]host[:port]/[dir/]
    url: String,
    #[command(flatten)]
    common: Common,
}

/// Completes the first word from the commands and later words from the
/// names of the current remote directory (as displayed).
struct Names(Arc<Mutex<Vec<String>>>);

const COMMANDS: &[&str] = &[
    "ls", "cd", "pwd", "get", "put", "mget", "mput", "mkdir", "rm", "rmdir", "mv", "lcd", "lpwd", "lang", "feat",
    "quote", "help", "bye", "quit", "exit",
];

/// Candidates for the word that ends at `pos`: (start of the word,
/// matches). The first word is a command; later words are remote names,
/// or local ones (from `local`, given the word and whether only
/// directories fit) where the command takes a local path there.
fn complete_word(
    line: &str,
    pos: usize,
    names: &[String],
    local: &dyn Fn(&str, bool) -> Vec<String>,
) -> (usize, Vec<String>) {
    let head = &line[..pos];
    let start = head.rfind(' ').map_or(0, |i| i + 1);
    let word = &head[start..];
    let before: Vec<&str> = head[..start].split_whitespace().collect();
    let pool: Vec<String> = match before.first() {
        None => COMMANDS.iter().map(|c| c.to_string()).collect(),
        Some(cmd) if local_argument(cmd, before.len()) => {
            local(word, *cmd == "lcd").iter().map(|n| quote_word(n)).collect()
        }
        Some(_) => names.iter().map(|n| quote_word(n)).collect(),
    };
    let matches = pool.into_iter().filter(|c| c.starts_with(word)).collect();
    (start, matches)
}

/// Whether argument `n` (1 for the first) of `cmd` is a local path.
fn local_argument(cmd: &str, n: usize) -> bool {
    matches!((cmd, n), ("put" | "mput" | "lcd", 1) | ("get", 2)) || cmd.starts_with('!')
}

/// The local paths that may complete `word`: the entries of its directory
/// (`.` when it has none), directories with a `/`; hidden ones only when
/// `word`'s last part starts with a dot.
fn local_names(word: &str, dirs_only: bool) -> Vec<String> {
    let (dir, file) = match word.rfind('/') {
        Some(i) => (&word[..=i], &word[i + 1..]),
        None => ("", word),
    };
    let Ok(entries) = std::fs::read_dir(if dir.is_empty() { "." } else { dir }) else {
        return Vec::new();
    };
    let mut out: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            if name.starts_with('.') && !file.starts_with('.') {
                return None;
            }
            let is_dir = std::fs::metadata(e.path()).is_ok_and(|m| m.is_dir());
            if dirs_only && !is_dir {
                return None;
            }
            Some(format!("{dir}{name}{}", if is_dir { "/" } else { "" }))
        })
        .collect();
    out.sort();
    out
}

/// Quotes a name for the command line when it holds spaces or quotes.
fn quote_word(name: &str) -> String {
    if name.contains([' ', '"', '\\']) {
        format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        name.to_string()
    }
}

impl Completer for Names {
    type Candidate = Pair;
    fn complete(&self, line: &str, pos: usize, _: &RlContext<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let names = self.0.lock().map(|n| n.clone()).unwrap_or_default();
        let (start, m) = complete_word(line, pos, &names, &local_names);
        Ok((
            start,
            m.into_iter()
                .map(|s| Pair {
                    display: s.clone(),
                    replacement: s,
                })
                .collect(),
        ))
    }
}
impl Hinter for Names {
    type Hint = String;
}
impl Highlighter for Names {
    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(&'s self, prompt: &'p str, _default: bool) -> Cow<'b, str> {
        Cow::Borrowed(prompt)
    }
}
impl Validator for Names {}
impl Helper for Names {}

/// Splits a command line into words: spaces separate, "…" groups, \ escapes.
pub fn split_words(line: &str) -> Result<Vec<String>, &'static str> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quoted = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                cur.push(chars.next().ok_or("a \\ at the end of the line")?);
                in_word = true;
            }
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            ' ' | '\t' if !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return Err("an unclosed \"");
    }
    if in_word {
        words.push(cur);
    }
    // A name copied from `ls` carries the bidi isolates the display put
    // around a right-to-left name: they are not part of it.
    Ok(words
        .into_iter()
        .map(|w| babelftp_proto::display::strip_isolates(&w).into_owned())
        .collect())
}

/// `*` and `?` wildcards over text.
pub fn wildcard(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

async fn refresh(
    s: &mut Session,
    names: &Arc<Mutex<Vec<String>>>,
) -> anyhow::Result<Vec<babelftp_client::RemoteEntry>> {
    let entries = s.list_raw(None).await?;
    let shown: Vec<String> = entries
        .iter()
        .map(|e| {
            s.text_of(&e.name)
                .unwrap_or_else(|| String::from_utf8_lossy(&s.show(&e.name)).into_owned())
        })
        .collect();
    if let Ok(mut n) = names.lock() {
        *n = shown;
    }
    Ok(entries)
}

/// The remote bytes of a name the user typed in the current directory.
async fn remote_name(s: &mut Session, typed: &str) -> anyhow::Result<Vec<u8>> {
    s.resolve_file(typed.as_bytes()).await
}

async fn put_one(s: &mut Session, local: &std::path::Path, remote: &[u8]) -> anyhow::Result<u64> {
    let mut file = tokio::fs::File::open(local)
        .await
        .with_context(|| crate::msg::ts("cli-opening", &[("path", &local.display().to_string())]))?;
    Ok(s.client
        .stor(remote, StoreMode::Replace, &mut file, &mut |_| {})
        .await?)
}

/// `ls -l`'s columns before the name, as `babelftp ls -l` writes them:
/// kind, size, time.
fn long_prefix(e: &babelftp_client::RemoteEntry) -> String {
    let kind = if e.is_dir { 'd' } else { '-' };
    let size = e.size.map(|n| n.to_string()).unwrap_or_default();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let time = e.modified.map(|t| crate::remote::ls_time(t, now)).unwrap_or_default();
    format!("{kind} {size:>12} {time:>12} ")
}

/// Removes a remote file, or a directory with everything in it (`rm -r`).
async fn remove_tree(s: &mut Session, path: Vec<u8>) -> anyhow::Result<()> {
    // A file goes at once; what DELE refuses is taken for a directory.
    if s.client.delete(&path).await.is_ok() {
        return Ok(());
    }
    let entries = s.list_raw(Some(&path)).await?;
    for e in entries {
        let mut child = path.clone();
        if !child.ends_with(b"/") {
            child.push(b'/');
        }
        child.extend_from_slice(&e.name);
        if e.is_dir {
            Box::pin(remove_tree(s, child)).await?;
        } else {
            s.client.delete(&child).await?;
        }
    }
    s.client.rmdir(&path).await?;
    Ok(())
}

fn print_local_dir() -> anyhow::Result<()> {
    let here = std::env::current_dir()?;
    println!(
        "{}",
        crate::msg::ts("cli-x3-local-dir", &[("path", &here.display().to_string())])
    );
    Ok(())
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

/// "N bytes -> DEST", in the user's language.
fn bytes_to(n: u64, dest: &str) -> String {
    crate::msg::ts("cli-bytes-to", &[("bytes", &n.to_string()), ("dest", dest)])
}

/// Runs one command; `Ok(false)` ends the shell.
async fn run(s: &mut Session, words: &[String], names: &Arc<Mutex<Vec<String>>>) -> anyhow::Result<bool> {
    let Some((cmd, args)) = words.split_first() else {
        return Ok(true);
    };
    let arg = |i: usize| args.get(i).map(String::as_str);
    match cmd.as_str() {
        "bye" | "quit" | "exit" => return Ok(false),
        "help" => println!("{} !command", COMMANDS.join(" ")),
        "pwd" => {
            let cwd = s.client.pwd().await?;
            println!("{}", String::from_utf8_lossy(&s.show(&cwd)));
        }
        "cd" => {
            let dir = arg(0).with_context(|| crate::msg::ts("cli-needs-argument", &[("command", "cd")]))?;
            let d = s.resolve_file(dir.as_bytes()).await?;
            s.client.cwd(&d).await.with_context(|| dir.to_owned())?;
            refresh(s, names).await?;
        }
        "ls" => {
            let long = args.first().is_some_and(|a| a == "-l");
            let dir = if long { arg(1) } else { arg(0) };
            let entries = match dir {
                Some(d) => s.list(Some(d.as_bytes())).await?,
                None => refresh(s, names).await?,
            };
            let mut out = Vec::new();
            for e in &entries {
                if long {
                    out.extend_from_slice(long_prefix(e).as_bytes());
                }
                out.extend(s.show(&e.name));
                if e.is_dir {
                    out.push(b'/');
                }
                out.push(b'\n');
            }
            std::io::Write::write_all(&mut std::io::stdout().lock(), &out)?;
        }
        "mkdir" => {
            if args.is_empty() {
                bail!(crate::msg::ts("cli-needs-argument", &[("command", "mkdir")]));
            }
            for d in args {
                s.client
                    .mkdir(&s.encode(d.as_bytes()))
                    .await
                    .with_context(|| d.clone())?;
            }
            refresh(s, names).await?;
        }
        "rm" => {
            let recursive = args.first().is_some_and(|a| a == "-r");
            let targets = if recursive { &args[1..] } else { args };
            if targets.is_empty() {
                bail!(crate::msg::ts("cli-needs-argument", &[("command", "rm")]));
            }
            for name in targets {
                let p = s.resolve_file(name.as_bytes()).await?;
                if recursive {
                    remove_tree(s, p).await.with_context(|| name.clone())?;
                } else {
                    s.client.delete(&p).await.with_context(|| name.clone())?;
                }
            }
            refresh(s, names).await?;
        }
        "rmdir" => {
            if args.is_empty() {
                bail!(crate::msg::ts("cli-needs-argument", &[("command", "rmdir")]));
            }
            for d in args {
                let p = s.resolve_file(d.as_bytes()).await?;
                s.client.rmdir(&p).await.with_context(|| d.clone())?;
            }
            refresh(s, names).await?;
        }
        "mv" => {
            let (Some(from), Some(to)) = (arg(0), arg(1)) else {
                bail!(crate::msg::ts("cli-x3-mv-usage", &[]));
            };
            let from = s.resolve_file(from.as_bytes()).await?;
            let to = s.encode(to.as_bytes());
            s.client.rename(&from, &to).await?;
            refresh(s, names).await?;
        }
        "lcd" => {
            let dir = match arg(0) {
                Some(d) => PathBuf::from(d),
                None => std::env::var_os("HOME")
                    .map(PathBuf::from)
                    .with_context(|| crate::msg::ts("cli-needs-argument", &[("command", "lcd")]))?,
            };
            std::env::set_current_dir(&dir)
                .with_context(|| crate::msg::ts("cli-x3-lcd-failed", &[("path", &dir.display().to_string())]))?;
            print_local_dir()?;
        }
        "lpwd" => print_local_dir()?,
        "get" => {
            let name = arg(0).with_context(|| crate::msg::ts("cli-needs-argument", &[("command", "get")]))?;
            let remote = remote_name(s, name).await?;
            let local = PathBuf::from(arg(1).unwrap_or(name));
            // As `babelftp get`: a temporary file renamed when complete (a
            // failed or interrupted get leaves `local` as it was), the
            // summary line on stderr; the bar shows the total SIZE gives.
            let size = s.client.size(&remote).await.ok().flatten();
            crate::xfer::download(s, &remote, size, &local).await?;
        }
        "put" => {
            let local =
                PathBuf::from(arg(0).with_context(|| crate::msg::ts("cli-needs-argument", &[("command", "put")]))?);
            let name = match arg(1) {
                Some(n) => n.to_string(),
                None => local
                    .file_name()
                    .context("no file name")?
                    .to_string_lossy()
                    .into_owned(),
            };
            let n = put_one(s, &local, &s.encode(name.as_bytes())).await?;
            println!("{}", bytes_to(n, &name));
            refresh(s, names).await?;
        }
        "mget" => {
            let pat = arg(0).with_context(|| crate::msg::ts("cli-needs-argument", &[("command", "mget")]))?;
            let entries = refresh(s, names).await?;
            for e in entries.iter().filter(|e| !e.is_dir) {
                let text = s
                    .text_of(&e.name)
                    .unwrap_or_else(|| String::from_utf8_lossy(&e.name).into_owned());
                if wildcard(pat, &text) {
                    let local = PathBuf::from(std::ffi::OsString::from_vec(s.local_name(&e.name)));
                    crate::xfer::download(s, &e.name, e.size, &local).await?;
                }
            }
        }
        "mput" => {
            let pat = arg(0).with_context(|| crate::msg::ts("cli-needs-argument", &[("command", "mput")]))?;
            // `mput ../dir/*`: the pattern is in its last name; the
            // directory before it is read (as a shell's glob does).
            let (dir, name_pat) = match pat.rsplit_once('/') {
                Some(("", p)) => (PathBuf::from("/"), p),
                Some((d, p)) => (PathBuf::from(d), p),
                None => (PathBuf::from("."), pat),
            };
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .with_context(|| dir.display().to_string())?
                .filter_map(Result::ok)
                .filter(|e| std::fs::metadata(e.path()).is_ok_and(|m| m.is_file()))
                .filter(|e| wildcard(name_pat, &e.file_name().to_string_lossy()))
                .map(|e| {
                    if dir == std::path::Path::new(".") {
                        PathBuf::from(e.file_name())
                    } else {
                        e.path()
                    }
                })
                .collect();
            files.sort();
            if files.is_empty() {
                bail!(crate::msg::ts("cli-x3-no-local-match", &[("pattern", pat)]));
            }
            for f in files {
                let name = f.file_name().unwrap_or(f.as_os_str()).as_encoded_bytes().to_vec();
                let n = put_one(s, &f, &s.encode(&name)).await?;
                println!("{}", bytes_to(n, &f.display().to_string()));
            }
            refresh(s, names).await?;
        }
        "lang" => {
            let tag = match arg(0) {
                Some(t) => Some(LangTag::parse(t.as_bytes()).map_err(|e| anyhow::anyhow!("{t}: {e}"))?),
                None => None,
            };
            let r = s.client.control().command(&Command::Lang(tag)).await?;
            println!("{} {}", r.code, String::from_utf8_lossy(&r.lines[0]));
        }
        "feat" => {
            let r = s.client.control().command(&Command::Feat).await?;
            for f in Features::from_reply(&r).0 {
                println!(" {}", String::from_utf8_lossy(&f.encode()));
            }
        }
        "quote" => {
            if args.is_empty() {
                bail!(crate::msg::ts("cli-needs-argument", &[("command", "quote")]));
            }
            let r = s.client.control().raw_line(args.join(" ").as_bytes()).await?;
            for (i, l) in r.lines.iter().enumerate() {
                let sep = if i + 1 == r.lines.len() { ' ' } else { '-' };
                println!("{}{sep}{}", r.code, String::from_utf8_lossy(l));
            }
        }
        other => bail!(crate::msg::ts(
            "cli-unknown-command",
            &[("command", &format!("{other:?}"))]
        )),
    }
    Ok(true)
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
    let history = std::env::var_os("XDG_STATE_HOME")
        .filter(|_| interactive)
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
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
