//! Tab completion: commands, then remote names or local paths.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context as RlContext, Helper};

/// Completes the first word from the commands and later words from the
/// names of the current remote directory (as displayed).
pub(super) struct Names(pub(super) Arc<Mutex<Vec<String>>>);

pub(super) const COMMANDS: &[&str] = &[
    "ls", "cd", "pwd", "get", "put", "mget", "mput", "mkdir", "rm", "rmdir", "mv", "lcd", "lpwd", "lang", "feat",
    "quote", "help", "bye", "quit", "exit",
];

/// Candidates for the word that ends at `pos`: (start of the word,
/// matches). The first word is a command; later words are remote names,
/// or local ones (from `local`, given the word and whether only
/// directories fit) where the command takes a local path there.
pub(super) fn complete_word(
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
