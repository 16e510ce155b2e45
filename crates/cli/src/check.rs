//! `babelftp check URL`: how well a server implements RFC 2640.
//!
//! One line per check, then `N passed, M failed, K skipped`. The checks
//! that write (one-SP, CR NUL, UTF-8 round trip) work inside a fresh
//! directory they remove again, and are skipped where the login may not
//! write. Exit status: 0 when nothing failed, 1 otherwise.

use anyhow::Context;
use babelftp_proto::command::Command;
use babelftp_proto::feat::Features;
use babelftp_proto::lang::LangTag;
use babelftp_proto::path::WirePath;
use babelftp_proto::reply::{Reply, ReplyCode};
use clap::Args;

use crate::remote::{Common, Session};

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// ftp://[user[:password]@]host[:port]/ (a directory the login may write to, for the write checks)
    url: String,
    #[command(flatten)]
    common: Common,
}

/// The outcome of one check.
enum Outcome {
    Pass(String),
    Fail(String),
    Skip(String),
}

struct Report {
    lines: Vec<(&'static str, Outcome)>,
}

impl Report {
    fn add(&mut self, name: &'static str, o: Outcome) {
        let (tag, text) = match &o {
            Outcome::Pass(t) => ("PASS", t),
            Outcome::Fail(t) => ("FAIL", t),
            Outcome::Skip(t) => ("SKIP", t),
        };
        println!("{tag} {name:<18} {text}");
        self.lines.push((name, o));
    }

    fn count(&self, f: fn(&Outcome) -> bool) -> usize {
        self.lines.iter().filter(|(_, o)| f(o)).count()
    }
}

fn code_text(r: &babelftp_proto::reply::Reply) -> String {
    format!("{} {}", r.code, String::from_utf8_lossy(&r.lines[0]))
}

/// A command for [`Checker::ask`]: a parsed one, or a raw line.
enum Ask {
    Cmd(Command),
    Raw(&'static [u8]),
}

/// The session of a check run, opened again when the server drops it: a
/// dropped connection is a finding of the check that caused it, and the
/// rest of the checks (and the cleanup) go on over a new connection.
struct Checker<'a> {
    s: Option<Session>,
    url: &'a str,
    common: &'a Common,
    quiet: bool,
    rep: Report,
}

impl Checker<'_> {
    /// The session, connecting again when the last one was lost; an
    /// error here (the server cannot be reached any more) ends the run.
    async fn session(&mut self) -> anyhow::Result<&mut Session> {
        if self.s.is_none() {
            if !self.quiet {
                eprintln!("{}", crate::msg::ts("cli-x2-reconnecting", &[]));
            }
            self.s = Some(Session::open(self.url, self.common).await?);
        }
        self.s.as_mut().context("no session")
    }

    /// Sends a command. `Ok(None)` when the connection broke on it: that is
    /// recorded as a FAIL of `name` (when given), the session is dropped and
    /// the next command connects again.
    async fn ask(&mut self, name: Option<&'static str>, what: &str, c: Ask) -> anyhow::Result<Option<Reply>> {
        let s = self.session().await?;
        let r = match &c {
            Ask::Cmd(c) => s.client.control().command(c).await,
            Ask::Raw(l) => s.client.control().raw_line(l).await,
        };
        match r {
            Ok(r) => Ok(Some(r)),
            Err(_) => {
                self.broke(name, what);
                Ok(None)
            }
        }
    }

    /// Records a connection that broke on `what` and lets the session go.
    fn broke(&mut self, name: Option<&'static str>, what: &str) {
        self.s = None;
        if let Some(name) = name {
            let text = crate::msg::ts("cli-x2-check-dropped", &[("what", what)]);
            self.rep.add(name, Outcome::Fail(text));
        }
    }
}

fn mkd(p: &[u8]) -> Ask {
    Ask::Cmd(Command::Mkd(WirePath::new(p.to_vec())))
}

fn rmd(p: &[u8]) -> Ask {
    Ask::Cmd(Command::Rmd(WirePath::new(p.to_vec())))
}

pub async fn check(a: CheckArgs) -> anyhow::Result<bool> {
    let s = Session::open(&a.url, &a.common).await?;
    let features: Features = s.client.features.clone();
    let base = s.encode(&s.url.path_bytes());
    let mut ck = Checker {
        quiet: s.quiet(),
        s: Some(s),
        url: &a.url,
        common: &a.common,
        rep: Report { lines: Vec::new() },
    };
    let mut dir = base;
    if !dir.is_empty() && !dir.ends_with(b"/") {
        dir.push(b'/');
    }
    dir.extend_from_slice(format!("babelftp-check-{}", std::process::id()).as_bytes());
    let mut scratch = false;
    let run = checks(&mut ck, &features, &dir, &mut scratch).await;
    // The scratch directory goes, whatever happened (over a new connection
    // when the server dropped the last one).
    if scratch {
        if let Err(e) = clean_up(&mut ck, &dir).await {
            eprintln!(
                "{}",
                crate::msg::ts(
                    "cli-x2-check-cleanup-failed",
                    &[
                        ("path", &babelftp_proto::display::display_path(&dir)),
                        ("error", &crate::exit::describe(&e)),
                    ]
                )
            );
        }
    }
    let rep = &ck.rep;
    let passed = rep.count(|o| matches!(o, Outcome::Pass(_)));
    let failed = rep.count(|o| matches!(o, Outcome::Fail(_)));
    let skipped = rep.count(|o| matches!(o, Outcome::Skip(_)));
    println!("{passed} passed, {failed} failed, {skipped} skipped");
    if let Some(s) = ck.s.take() {
        let _ = s.client.quit().await;
    }
    run?;
    Ok(failed == 0)
}

/// Removes the scratch directory `dir` and what the write checks left in
/// it: whatever is listed there; then, if the directory is still not
/// empty (a name the listing garbled), the names the checks made.
async fn clean_up(ck: &mut Checker<'_>, dir: &[u8]) -> anyhow::Result<()> {
    let listed = ck.session().await?.client.list(Some(dir)).await;
    match listed {
        Ok(entries) => {
            for e in entries {
                let leaf = e.name.rsplit(|&b| b == b'/').next().unwrap_or_default();
                let mut p = dir.to_vec();
                p.push(b'/');
                p.extend_from_slice(leaf);
                let c = if e.is_dir {
                    rmd(&p)
                } else {
                    Ask::Cmd(Command::Dele(WirePath::new(p)))
                };
                ck.ask(None, "", c).await?;
            }
        }
        Err(babelftp_client::Error::Refused(_)) => {}
        Err(_) => ck.broke(None, ""),
    }
    if let Some(r) = ck.ask(None, "", rmd(dir)).await? {
        if r.code.is_completion() {
            return Ok(());
        }
    }
    for (_, leaf, _) in CASES {
        let mut p = dir.to_vec();
        p.push(b'/');
        p.extend_from_slice(leaf);
        ck.ask(None, "", rmd(&p)).await?;
    }
    match ck.ask(None, "", rmd(dir)).await? {
        Some(r) if r.code.is_completion() => Ok(()),
        Some(r) => Err(babelftp_client::Error::Refused(r).into()),
        None => Err(babelftp_client::Error::Closed.into()),
    }
}

/// The write checks: (name, leaf made in the scratch directory, what passing means).
const CASES: [(&str, &[u8], &str); 3] = [
    (
        "one-sp",
        b" x",
        "\"MKD<SP><SP>x\" makes \" x\" (RFC 2640 3.1: one SP after the verb)",
    ),
    (
        "cr-nul",
        b"a\rb",
        "a CR in a name, sent as CR NUL, comes back as CR (RFC 2640 3.1)",
    ),
    (
        "utf8-roundtrip",
        "проверка-テスト-检查-ทดสอบ-בדיקה".as_bytes(),
        "a UTF-8 name in five scripts is listed byte for byte",
    ),
];

async fn checks(ck: &mut Checker<'_>, features: &Features, dir: &[u8], scratch: &mut bool) -> anyhow::Result<()> {
    ck.rep.add(
        "feat",
        if features.0.is_empty() {
            Outcome::Fail("FEAT lists no features (RFC 2389 is required by RFC 2640 3.2)".into())
        } else {
            Outcome::Pass(format!("FEAT lists {} features", features.0.len()))
        },
    );
    ck.rep.add(
        "feat-utf8",
        if features.utf8() {
            Outcome::Pass("FEAT lists UTF8 (RFC 2640 3.2)".into())
        } else {
            Outcome::Fail("FEAT does not list UTF8".into())
        },
    );
    let lang = features.lang().cloned();
    match &lang {
        Some(f) if !f.tags.is_empty() => ck
            .rep
            .add("feat-lang", Outcome::Pass(format!("FEAT lists LANG {}", f.encode()))),
        _ => ck.rep.add(
            "feat-lang",
            Outcome::Fail("FEAT does not list LANG (RFC 2640 4.3)".into()),
        ),
    }
    // LANG behaviours (RFC 2640 4.1-4.2).
    match lang.filter(|f| !f.tags.is_empty()) {
        None => {
            for n in [
                "lang-default",
                "lang-offered",
                "lang-variant",
                "lang-unsupported",
                "lang-malformed",
            ] {
                ck.rep.add(n, Outcome::Skip("no LANG in FEAT".into()));
            }
        }
        Some(f) => {
            let name = "lang-default";
            if let Some(r) = ck.ask(Some(name), "LANG", Ask::Cmd(Command::Lang(None))).await? {
                ck.rep.add(
                    name,
                    if r.code == ReplyCode::OK {
                        Outcome::Pass(format!("LANG without argument: {}", code_text(&r)))
                    } else {
                        Outcome::Fail(format!("LANG without argument: {}", code_text(&r)))
                    },
                );
            }
            let pick = f
                .tags
                .iter()
                .find(|t| Some(*t) != f.current_tag())
                .unwrap_or(&f.tags[0])
                .clone();
            let name = "lang-offered";
            let what = format!("LANG {pick}");
            if let Some(r) = ck
                .ask(Some(name), &what, Ask::Cmd(Command::Lang(Some(pick.clone()))))
                .await?
            {
                if let Some(feat) = ck.ask(Some(name), "FEAT", Ask::Cmd(Command::Feat)).await? {
                    let marked = Features::from_reply(&feat)
                        .lang()
                        .and_then(|l| l.current_tag().cloned());
                    ck.rep.add(
                        name,
                        match (r.code == ReplyCode::OK, marked.as_ref() == Some(&pick)) {
                            (true, true) => Outcome::Pass(format!("LANG {pick}: 200, FEAT marks it with *")),
                            (true, false) => {
                                Outcome::Fail(format!("LANG {pick}: 200, but FEAT does not mark it with *"))
                            }
                            (false, _) => Outcome::Fail(format!("LANG {pick} (offered): {}", code_text(&r))),
                        },
                    );
                }
            }
            let variant = format!("{}-ZZ", pick.primary());
            let name = "lang-variant";
            let c = Ask::Cmd(Command::Lang(LangTag::parse(variant.as_bytes()).ok()));
            if let Some(r) = ck.ask(Some(name), &format!("LANG {variant}"), c).await? {
                ck.rep.add(
                    name,
                    if r.code == ReplyCode::OK {
                        Outcome::Pass(format!("LANG {variant}: served by its language family"))
                    } else {
                        Outcome::Fail(format!("LANG {variant}: {}", code_text(&r)))
                    },
                );
            }
            let name = "lang-unsupported";
            let c = Ask::Cmd(Command::Lang(LangTag::parse(b"i-klingon").ok()));
            if let Some(r) = ck.ask(Some(name), "LANG i-klingon", c).await? {
                ck.rep.add(
                    name,
                    if r.code == ReplyCode::PARAMETER_NOT_IMPLEMENTED {
                        Outcome::Pass("LANG i-klingon: 504".into())
                    } else {
                        Outcome::Fail(format!("LANG i-klingon: {} (504 expected)", code_text(&r)))
                    },
                );
            }
            // A tag RFC 1766 does not allow: digits in the primary tag.
            let name = "lang-malformed";
            if let Some(r) = ck.ask(Some(name), "LANG 1x", Ask::Raw(b"LANG 1x")).await? {
                ck.rep.add(
                    name,
                    if r.code == ReplyCode::ARGUMENT_ERROR {
                        Outcome::Pass("LANG 1x: 501".into())
                    } else {
                        Outcome::Fail(format!("LANG 1x: {} (501 expected)", code_text(&r)))
                    },
                );
            }
            // Back to the default for the rest.
            ck.ask(None, "", Ask::Cmd(Command::Lang(None))).await?;
        }
    }
    let name = "opts-utf8";
    let c = Ask::Cmd(Command::Opts("UTF8".into(), Some(b"ON".to_vec())));
    if let Some(r) = ck.ask(Some(name), "OPTS UTF8 ON", c).await? {
        ck.rep.add(
            name,
            if r.code.is_completion() {
                Outcome::Pass(format!("OPTS UTF8 ON: {}", r.code))
            } else {
                Outcome::Fail(format!("OPTS UTF8 ON: {}", code_text(&r)))
            },
        );
    }

    // Names: the write checks, in a directory of our own.
    *scratch = true;
    let made = match ck.ask(None, "", mkd(dir)).await? {
        Some(r) => r,
        None => {
            let what = format!("MKD {}", babelftp_proto::display::display_path(dir));
            // The finding is the first write check's; the others cannot run.
            let text = crate::msg::ts("cli-x2-check-dropped", &[("what", &what)]);
            for (i, (n, _, _)) in CASES.iter().enumerate() {
                let o = if i == 0 {
                    Outcome::Fail(text.clone())
                } else {
                    Outcome::Skip(text.clone())
                };
                ck.rep.add(n, o);
            }
            return Ok(());
        }
    };
    if made.code != ReplyCode::PATH_CREATED {
        *scratch = false;
        for (n, _, _) in CASES {
            ck.rep.add(
                n,
                Outcome::Skip(format!("cannot create a directory here: {}", code_text(&made))),
            );
        }
        return Ok(());
    }
    for (name, leaf, what) in CASES {
        let mut p = dir.to_vec();
        p.push(b'/');
        p.extend_from_slice(leaf);
        let mkd_what = format!("MKD {}", babelftp_proto::display::display_path(&p));
        let Some(r) = ck.ask(Some(name), &mkd_what, mkd(&p)).await? else {
            continue;
        };
        if r.code != ReplyCode::PATH_CREATED {
            ck.rep
                .add(name, Outcome::Fail(format!("MKD refused: {}", code_text(&r))));
            continue;
        }
        let listed = ck.session().await?.client.list(Some(dir)).await;
        let found = match &listed {
            Ok(entries) => entries
                .iter()
                .any(|e| e.name == leaf || e.name.ends_with(&[b"/", leaf].concat())),
            Err(babelftp_client::Error::Refused(_)) => false,
            Err(_) => {
                ck.broke(Some(name), "MLSD");
                continue;
            }
        };
        ck.rep.add(
            name,
            if found {
                Outcome::Pass(what.to_string())
            } else {
                Outcome::Fail(format!("{what}: not listed as sent"))
            },
        );
        ck.ask(None, "", rmd(&p)).await?;
    }
    Ok(())
}
