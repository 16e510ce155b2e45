//! `babelftp shell URL`: an interactive session with line editing, history
//! and tab completion of remote names (rustyline).
//!
//! Commands: ls [dir] · cd dir · pwd · get name [local] · put local [name] ·
//! mget pattern · mput pattern · lang [tag] · feat · quote line · help ·
//! bye (also quit, exit). Words may be quoted with "…" and use \ escapes,
//! so names with spaces work.

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
    "ls", "cd", "pwd", "get", "put", "mget", "mput", "lang", "feat", "quote", "help", "bye", "quit", "exit",
];

/// Candidates for the word that ends at `pos`: (start of the word, matches).
fn complete_word(line: &str, pos: usize, names: &[String]) -> (usize, Vec<String>) {
    let head = &line[..pos];
    let start = head.rfind(' ').map_or(0, |i| i + 1);
    let word = &head[start..];
    let pool: Vec<String> = if start == 0 {
        COMMANDS.iter().map(|c| c.to_string()).collect()
    } else {
        names.iter().map(|n| quote_word(n)).collect()
    };
    let matches = pool.into_iter().filter(|c| c.starts_with(word)).collect();
    (start, matches)
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
        let (start, m) = complete_word(line, pos, &names);
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
    Ok(words)
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

async fn get_one(s: &mut Session, remote: &[u8], local: PathBuf) -> anyhow::Result<u64> {
    let mut file = tokio::fs::File::create(&local)
        .await
        .with_context(|| crate::msg::ts("cli-creating", &[("path", &local.display().to_string())]))?;
    let n = s.client.retr(remote, 0, &mut file, &mut |_| {}).await?;
    Ok(n)
}

async fn put_one(s: &mut Session, local: &std::path::Path, remote: &[u8]) -> anyhow::Result<u64> {
    let mut file = tokio::fs::File::open(local)
        .await
        .with_context(|| crate::msg::ts("cli-opening", &[("path", &local.display().to_string())]))?;
    Ok(s.client
        .stor(remote, StoreMode::Replace, &mut file, &mut |_| {})
        .await?)
}

/// Runs one command; `Ok(false)` ends the shell.
async fn run(s: &mut Session, words: &[String], names: &Arc<Mutex<Vec<String>>>) -> anyhow::Result<bool> {
    let Some((cmd, args)) = words.split_first() else {
        return Ok(true);
    };
    let arg = |i: usize| args.get(i).map(String::as_str);
    match cmd.as_str() {
        "bye" | "quit" | "exit" => return Ok(false),
        "help" => println!("{}", COMMANDS.join(" ")),
        "pwd" => {
            let cwd = s.client.pwd().await?;
            println!("{}", String::from_utf8_lossy(&s.show(&cwd)));
        }
        "cd" => {
            let dir = arg(0).with_context(|| crate::msg::ts("cli-needs-argument", &[("command", "cd")]))?;
            let d = s.resolve_file(dir.as_bytes()).await?;
            s.client.cwd(&d).await?;
            refresh(s, names).await?;
        }
        "ls" => {
            let entries = match arg(0) {
                Some(d) => s.list(Some(d.as_bytes())).await?,
                None => refresh(s, names).await?,
            };
            let mut out = Vec::new();
            for e in &entries {
                out.extend(s.show(&e.name));
                if e.is_dir {
                    out.push(b'/');
                }
                out.push(b'\n');
            }
            std::io::Write::write_all(&mut std::io::stdout().lock(), &out)?;
        }
        "get" => {
            let name = arg(0).with_context(|| crate::msg::ts("cli-needs-argument", &[("command", "get")]))?;
            let remote = remote_name(s, name).await?;
            let local = PathBuf::from(arg(1).unwrap_or(name));
            let n = get_one(s, &remote, local.clone()).await?;
            println!("{n} bytes -> {}", local.display());
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
            println!("{n} bytes -> {name}");
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
                    let n = get_one(s, &e.name, local.clone()).await?;
                    println!("{n} bytes -> {}", local.display());
                }
            }
        }
        "mput" => {
            let pat = arg(0).with_context(|| crate::msg::ts("cli-needs-argument", &[("command", "mput")]))?;
            let mut files: Vec<PathBuf> = std::fs::read_dir(".")?
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .filter(|e| wildcard(pat, &e.file_name().to_string_lossy()))
                .map(|e| PathBuf::from(e.file_name()))
                .collect();
            files.sort();
            for f in files {
                let name = f.as_os_str().as_encoded_bytes().to_vec();
                let n = put_one(s, &f, &s.encode(&name)).await?;
                println!("{n} bytes -> {}", f.display());
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
        let words = match split_words(&line) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("{}", crate::msg::ts("cli-error", &[("error", e)]));
                failed = true;
                continue;
            }
        };
        match run(&mut s, &words, &names).await {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                eprintln!("{}", crate::msg::ts("cli-error", &[("error", &format!("{e:#}"))]));
                failed = true;
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
        assert_eq!(complete_word("ge", 2, &names), (0, vec!["get".to_string()]));
        assert_eq!(complete_word("get 日", 7, &names), (4, vec!["日本語.txt".to_string()]));
        assert_eq!(
            complete_word("get \"new", 8, &names),
            (4, vec!["\"new folder\"".to_string()])
        );
    }
}
