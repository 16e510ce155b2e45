//! Message catalogs and language negotiation (RFC 2640 section 4).
//!
//! Every text a person reads comes from Fluent catalogs, one `.ftl` file per
//! language, compiled into the binary (`locales/<tag>/server.ftl`); a
//! directory given in the configuration can add languages or override
//! messages of shipped ones. Reply codes, FEAT names and pathnames never go
//! through here.
//!
//! Negotiation: the LANG argument is an RFC 1766 tag, validated by
//! `babelftp_proto::lang::LangTag` (so `i-klingon` is well formed). The
//! choice among shipped languages is made by fluent-langneg (RFC 4647
//! filtering), so `fr-CA` gets `fr`, `en-AU` gets `en` and `pt` gets
//! `pt-BR`. A tag unic-langid cannot read (the `i-`/`x-` forms) or that
//! matches nothing is well formed but unsupported: the caller answers 504.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use babelftp_proto::lang::LangTag;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use fluent_langneg::{negotiate_languages, NegotiationStrategy};
use unic_langid::LanguageIdentifier;

macro_rules! shipped {
    ($($tag:literal),* $(,)?) => {
        /// The languages compiled in: (tag, server catalog, CLI catalog).
        /// English first.
        const SHIPPED: &[(&str, &str, &str)] = &[
            $((
                $tag,
                include_str!(concat!("../locales/", $tag, "/server.ftl")),
                include_str!(concat!("../locales/", $tag, "/cli.ftl")),
            ),)*
        ];
    };
}

shipped!("en", "fr", "de", "es", "it", "pt-BR", "ru", "uk", "pl", "ja", "zh-CN", "zh-TW", "ko", "ar", "he", "th");

/// Tags of the compiled-in languages, English first.
pub fn shipped_tags() -> impl Iterator<Item = &'static str> {
    SHIPPED.iter().map(|(t, _, _)| *t)
}

/// The server catalog (`server.ftl`) compiled in for a tag.
pub fn shipped_source(tag: &str) -> Option<&'static str> {
    SHIPPED.iter().find(|(t, _, _)| *t == tag).map(|(_, s, _)| *s)
}

/// The command-line catalog (`cli.ftl`) compiled in for a tag.
pub fn shipped_cli_source(tag: &str) -> Option<&'static str> {
    SHIPPED.iter().find(|(t, _, _)| *t == tag).map(|(_, _, c)| *c)
}

/// A catalog's files: (path, text); the compiled-in ones borrowed.
type Sources = Vec<(String, Cow<'static, str>)>;

/// The compiled-in sources of every language, as `build` takes them.
fn shipped_sources() -> Vec<(String, Sources)> {
    SHIPPED
        .iter()
        .map(|(t, s, c)| {
            (
                t.to_string(),
                vec![
                    ("builtin server.ftl".to_string(), Cow::Borrowed(*s)),
                    ("builtin cli.ftl".to_string(), Cow::Borrowed(*c)),
                ],
            )
        })
        .collect()
}

/// A problem with a catalog file.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// A file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A file is not valid Fluent.
    #[error("{path}: {message}")]
    Syntax {
        /// The file.
        path: String,
        /// The parser's complaint.
        message: String,
    },
    /// A directory name is not a language tag.
    #[error("{0}: the directory name is not a language tag")]
    BadTag(String),
}

/// One language: its tag and its messages, with English under it.
///
/// The messages are parsed when the language is first spoken, not at
/// start: parsed, the sixteen shipped languages (each with English
/// underneath) took about 7 MiB of heap, and the server and the command
/// line each held a copy, most of a fresh server's memory, for languages
/// few sessions ask for. The texts stay where they are (compiled in, or
/// read from the catalog directory and checked at start).
struct Catalog {
    tag: String,
    id: LanguageIdentifier,
    sources: Sources,
    bundle: OnceLock<FluentBundle<FluentResource>>,
}

impl Catalog {
    /// The language's messages, parsed on first use.
    fn bundle(&self) -> &FluentBundle<FluentResource> {
        self.bundle.get_or_init(|| {
            let mut bundle = FluentBundle::new_concurrent(vec![self.id.clone()]);
            // Fluent's default wraps arguments in U+2068/U+2069; those
            // would end up inside FTP reply text.
            bundle.set_use_isolating(false);
            // English underneath, so a catalog missing a message still
            // answers; then the language's own files, later ones winning.
            // Every text parsed when the catalogs were built (the shipped
            // ones by the tests, the directory's at start): a failure
            // here cannot happen, and would leave the file's messages out.
            let (_, english_server, english_cli) = SHIPPED[0];
            let english = [english_server, english_cli].map(Cow::Borrowed);
            let under = if self.tag == "en" { &[][..] } else { &english[..] };
            for text in under.iter().chain(self.sources.iter().map(|(_, t)| t)) {
                if let Ok(r) = FluentResource::try_new(text.to_string()) {
                    bundle.add_resource_overriding(r);
                }
            }
            bundle
        })
    }
}

/// An argument to a message.
#[derive(Debug, Clone)]
pub enum Arg<'a> {
    /// Text.
    Str(&'a str),
    /// A number (formatted without grouping).
    Num(u64),
}

/// All catalogs, with the index of the default language.
pub struct Catalogs {
    langs: Vec<Catalog>,
    default: usize,
}

/// Which catalog a session speaks: an index into [`Catalogs`].
pub type Lang = usize;

/// What LANG with an argument resolved to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Negotiated {
    /// A shipped language (exact, or the closest variant).
    Lang(Lang),
    /// Well formed, but nothing we have matches (reply 504).
    Unsupported,
}

fn parse_resource(path: &str, text: &str) -> Result<FluentResource, CatalogError> {
    FluentResource::try_new(text.to_owned()).map_err(|(_, errs)| CatalogError::Syntax {
        path: path.to_owned(),
        message: errs.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "),
    })
}

impl Catalogs {
    /// The compiled-in catalogs; English is the default. (The shipped
    /// catalogs parse, as the tests check; each is parsed when its
    /// language is first spoken.)
    pub fn builtin() -> Result<Catalogs, CatalogError> {
        Self::build(shipped_sources())
    }

    /// The compiled-in catalogs plus `dir/<tag>/*.ftl`: a new tag adds a
    /// language; a shipped tag has its messages overridden one by one.
    /// Every file is read and checked now (a syntax error is said at
    /// start), and parsed again when its language is first spoken.
    pub fn with_dir(dir: &Path) -> Result<Catalogs, CatalogError> {
        let mut sources = shipped_sources();
        let read_err = |path: &Path, source| CatalogError::Read {
            path: path.display().to_string(),
            source,
        };
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| read_err(dir, e))?
            .filter_map(Result::ok)
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            if !path.is_dir() {
                continue;
            }
            let tag = entry.file_name().to_string_lossy().into_owned();
            if LangTag::parse(tag.as_bytes()).is_err() || tag.parse::<LanguageIdentifier>().is_err() {
                return Err(CatalogError::BadTag(path.display().to_string()));
            }
            let mut files: Vec<_> = std::fs::read_dir(&path)
                .map_err(|e| read_err(&path, e))?
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "ftl"))
                .collect();
            files.sort();
            let mut texts = Vec::new();
            for f in files {
                let text = std::fs::read_to_string(&f).map_err(|e| read_err(&f, e))?;
                let path = f.display().to_string();
                parse_resource(&path, &text)?;
                texts.push((path, Cow::Owned(text)));
            }
            match sources.iter_mut().find(|(t, _)| t.eq_ignore_ascii_case(&tag)) {
                Some((_, v)) => v.extend(texts),
                None => sources.push((tag, texts)),
            }
        }
        Self::build(sources)
    }

    fn build(sources: Vec<(String, Sources)>) -> Result<Catalogs, CatalogError> {
        let mut langs = Vec::with_capacity(sources.len());
        for (tag, sources) in sources {
            let id: LanguageIdentifier = tag.parse().map_err(|_| CatalogError::BadTag(tag.clone()))?;
            langs.push(Catalog {
                tag,
                id,
                sources,
                bundle: OnceLock::new(),
            });
        }
        Ok(Catalogs { langs, default: 0 })
    }

    /// Makes `tag` (negotiated like LANG) the default language.
    pub fn set_default(&mut self, tag: &LangTag) -> bool {
        match self.negotiate(tag) {
            Negotiated::Lang(l) => {
                self.default = l;
                true
            }
            Negotiated::Unsupported => false,
        }
    }

    /// The default language.
    pub fn default_lang(&self) -> Lang {
        self.default
    }

    /// The tags as FEAT lists them, in catalog order.
    pub fn tags(&self) -> impl Iterator<Item = &str> {
        self.langs.iter().map(|c| c.tag.as_str())
    }

    /// The tag of a language.
    pub fn tag(&self, lang: Lang) -> &str {
        self.langs.get(lang).map_or("en", |c| c.tag.as_str())
    }

    /// RFC 2640 4.1 LANG: the shipped language that serves `tag`.
    pub fn negotiate(&self, tag: &LangTag) -> Negotiated {
        // Exact match first (case-insensitive, as RFC 1766 says).
        if let Some(i) = self.langs.iter().position(|c| c.tag.eq_ignore_ascii_case(tag.as_str())) {
            return Negotiated::Lang(i);
        }
        let Ok(requested) = tag.as_str().parse::<LanguageIdentifier>() else {
            return Negotiated::Unsupported;
        };
        let available: Vec<&LanguageIdentifier> = self.langs.iter().map(|c| &c.id).collect();
        let chosen = negotiate_languages(&[&requested], &available, None, NegotiationStrategy::Filtering);
        match chosen
            .first()
            .and_then(|id| self.langs.iter().position(|c| &c.id == **id))
        {
            Some(i) => Negotiated::Lang(i),
            None => Negotiated::Unsupported,
        }
    }

    /// Whether a language tag (an account's `lang`) is served by one of
    /// the catalogs, as LANG would negotiate it (`fr-CA` by `fr`).
    pub fn serves(&self, tag: &str) -> bool {
        LangTag::parse(tag.as_bytes()).is_ok_and(|t| matches!(self.negotiate(&t), Negotiated::Lang(_)))
    }

    /// A message in `lang`, with arguments. A message missing everywhere
    /// renders as its id, so a reply is never empty.
    pub fn text(&self, lang: Lang, id: &str, args: &[(&str, Arg<'_>)]) -> String {
        let Some(cat) = self.langs.get(lang).or_else(|| self.langs.first()) else {
            return id.to_owned();
        };
        let bundle = cat.bundle();
        let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
            return id.to_owned();
        };
        let mut fargs = FluentArgs::new();
        for (k, v) in args {
            match v {
                Arg::Str(s) => fargs.set(*k, FluentValue::from(*s)),
                Arg::Num(n) => fargs.set(*k, FluentValue::from(n.to_string())),
            }
        }
        let mut errors = Vec::new();
        let out = bundle.format_pattern(pattern, if args.is_empty() { None } else { Some(&fargs) }, &mut errors);
        out.into_owned()
    }

    /// The language's name for itself (`language-name`).
    pub fn language_name(&self, lang: Lang) -> String {
        self.text(lang, "language-name", &[])
    }

    /// Message ids of a catalog source text, in order (for tests and tools).
    /// (The catalogs keep one message per line.)
    pub fn message_ids(source: &str) -> Vec<String> {
        source
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with(' '))
            .filter_map(|l| l.split_once(" = ").map(|(id, _)| id.trim().to_string()))
            .collect()
    }

    /// Placeholders (`$name`) used by each message of a source text.
    pub fn placeholders(source: &str) -> HashMap<String, Vec<String>> {
        let mut out = HashMap::new();
        for line in source.lines() {
            let Some((id, value)) = line.split_once(" = ") else {
                continue;
            };
            if id.starts_with('#') || id.starts_with(' ') {
                continue;
            }
            let mut names: Vec<String> = value
                .split("{ $")
                .skip(1)
                .filter_map(|rest| rest.split_once(" }").map(|(n, _)| n.to_string()))
                .collect();
            names.sort();
            out.insert(id.trim().to_string(), names);
        }
        out
    }
}

#[cfg(test)]
mod tests;
