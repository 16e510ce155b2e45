//! `babelftp check URL`: how well a server implements RFC 2640.
//!
//! One line per check, then `N passed, M failed, K skipped`. The checks
//! that write (one-SP, CR NUL, UTF-8 round trip) work inside a fresh
//! directory they remove again, and are skipped where the login may not
//! write. Exit status: 0 when nothing failed, 1 otherwise.

use babelftp_proto::command::Command;
use babelftp_proto::feat::Features;
use babelftp_proto::lang::LangTag;
use babelftp_proto::path::WirePath;
use babelftp_proto::reply::ReplyCode;
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

pub async fn check(a: CheckArgs) -> anyhow::Result<bool> {
    let mut s = Session::open(&a.url, &a.common).await?;
    let mut rep = Report { lines: Vec::new() };
    let features: Features = s.client.features.clone();

    rep.add(
        "feat",
        if features.0.is_empty() {
            Outcome::Fail("FEAT lists no features (RFC 2389 is required by RFC 2640 3.2)".into())
        } else {
            Outcome::Pass(format!("FEAT lists {} features", features.0.len()))
        },
    );
    rep.add(
        "feat-utf8",
        if features.utf8() {
            Outcome::Pass("FEAT lists UTF8 (RFC 2640 3.2)".into())
        } else {
            Outcome::Fail("FEAT does not list UTF8".into())
        },
    );
    let lang = features.lang().cloned();
    match &lang {
        Some(f) if !f.tags.is_empty() => rep.add("feat-lang", Outcome::Pass(format!("FEAT lists LANG {}", f.encode()))),
        _ => rep.add(
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
                rep.add(n, Outcome::Skip("no LANG in FEAT".into()));
            }
        }
        Some(f) => {
            let c = s.client.control();
            let r = c.command(&Command::Lang(None)).await?;
            rep.add(
                "lang-default",
                if r.code == ReplyCode::OK {
                    Outcome::Pass(format!("LANG without argument: {}", code_text(&r)))
                } else {
                    Outcome::Fail(format!("LANG without argument: {}", code_text(&r)))
                },
            );
            let pick = f
                .tags
                .iter()
                .find(|t| Some(*t) != f.current_tag())
                .unwrap_or(&f.tags[0])
                .clone();
            let r = c.command(&Command::Lang(Some(pick.clone()))).await?;
            let marked = Features::from_reply(&c.command(&Command::Feat).await?)
                .lang()
                .and_then(|l| l.current_tag().cloned());
            rep.add(
                "lang-offered",
                match (r.code == ReplyCode::OK, marked.as_ref() == Some(&pick)) {
                    (true, true) => Outcome::Pass(format!("LANG {pick}: 200, FEAT marks it with *")),
                    (true, false) => Outcome::Fail(format!("LANG {pick}: 200, but FEAT does not mark it with *")),
                    (false, _) => Outcome::Fail(format!("LANG {pick} (offered): {}", code_text(&r))),
                },
            );
            let variant = format!("{}-ZZ", pick.primary());
            let r = c
                .command(&Command::Lang(LangTag::parse(variant.as_bytes()).ok()))
                .await?;
            rep.add(
                "lang-variant",
                if r.code == ReplyCode::OK {
                    Outcome::Pass(format!("LANG {variant}: served by its language family"))
                } else {
                    Outcome::Fail(format!("LANG {variant}: {}", code_text(&r)))
                },
            );
            let r = c.command(&Command::Lang(LangTag::parse(b"i-klingon").ok())).await?;
            rep.add(
                "lang-unsupported",
                if r.code == ReplyCode::PARAMETER_NOT_IMPLEMENTED {
                    Outcome::Pass("LANG i-klingon: 504".into())
                } else {
                    Outcome::Fail(format!("LANG i-klingon: {} (504 expected)", code_text(&r)))
                },
            );
            // A tag RFC 1766 does not allow: digits in the primary tag.
            let r = c.raw_line(b"LANG 1x").await?;
            rep.add(
                "lang-malformed",
                if r.code == ReplyCode::ARGUMENT_ERROR {
                    Outcome::Pass("LANG 1x: 501".into())
                } else {
                    Outcome::Fail(format!("LANG 1x: {} (501 expected)", code_text(&r)))
                },
            );
            // Back to the default for the rest.
            c.command(&Command::Lang(None)).await?;
        }
    }
    let r = s
        .client
        .control()
        .command(&Command::Opts("UTF8".into(), Some(b"ON".to_vec())))
        .await?;
    rep.add(
        "opts-utf8",
        if r.code.is_completion() {
            Outcome::Pass(format!("OPTS UTF8 ON: {}", r.code))
        } else {
            Outcome::Fail(format!("OPTS UTF8 ON: {}", code_text(&r)))
        },
    );

    // Names: the write checks, in a directory of our own.
    let base = s.encode(&s.url.path_bytes());
    let mut dir = base.clone();
    if !dir.is_empty() && !dir.ends_with(b"/") {
        dir.push(b'/');
    }
    dir.extend_from_slice(format!("babelftp-check-{}", std::process::id()).as_bytes());
    let made = s
        .client
        .control()
        .command(&Command::Mkd(WirePath::new(dir.clone())))
        .await?;
    if made.code != ReplyCode::PATH_CREATED {
        for n in ["one-sp", "cr-nul", "utf8-roundtrip"] {
            rep.add(
                n,
                Outcome::Skip(format!("cannot create a directory here: {}", code_text(&made))),
            );
        }
    } else {
        let cases: [(&'static str, &[u8], &str); 3] = [
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
        for (name, leaf, what) in cases {
            let mut p = dir.clone();
            p.push(b'/');
            p.extend_from_slice(leaf);
            let r = s
                .client
                .control()
                .command(&Command::Mkd(WirePath::new(p.clone())))
                .await?;
            if r.code != ReplyCode::PATH_CREATED {
                rep.add(name, Outcome::Fail(format!("MKD refused: {}", code_text(&r))));
                continue;
            }
            let listed = s.client.list(Some(&dir)).await;
            let found = match &listed {
                Ok(entries) => entries
                    .iter()
                    .any(|e| e.name == leaf || e.name.ends_with(&[b"/", leaf].concat())),
                Err(_) => false,
            };
            rep.add(
                name,
                if found {
                    Outcome::Pass(what.to_string())
                } else {
                    Outcome::Fail(format!("{what}: not listed as sent"))
                },
            );
            let _ = s.client.control().command(&Command::Rmd(WirePath::new(p))).await;
        }
        let _ = s.client.control().command(&Command::Rmd(WirePath::new(dir))).await;
    }
    let passed = rep.count(|o| matches!(o, Outcome::Pass(_)));
    let failed = rep.count(|o| matches!(o, Outcome::Fail(_)));
    let skipped = rep.count(|o| matches!(o, Outcome::Skip(_)));
    println!("{passed} passed, {failed} failed, {skipped} skipped");
    let _ = s.client.quit().await;
    Ok(failed == 0)
}
