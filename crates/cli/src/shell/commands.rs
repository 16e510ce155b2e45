//! The shell's commands, one line at a time.

use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::{bail, Context};
use babelftp_client::client::StoreMode;
use babelftp_proto::command::Command;
use babelftp_proto::feat::Features;
use babelftp_proto::lang::LangTag;

use super::complete::COMMANDS;
use super::words::wildcard;
use crate::remote::Session;

pub(super) async fn refresh(
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

/// "N bytes -> DEST", in the user's language.
fn bytes_to(n: u64, dest: &str) -> String {
    crate::msg::ts("cli-bytes-to", &[("bytes", &n.to_string()), ("dest", dest)])
}

/// Runs one command; `Ok(false)` ends the shell.
pub(super) async fn run(s: &mut Session, words: &[String], names: &Arc<Mutex<Vec<String>>>) -> anyhow::Result<bool> {
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
