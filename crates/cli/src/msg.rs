//! CLI messages from the same catalogs as the server's replies
//! (`locales/<tag>/cli.ftl`), in the user's locale (LC_ALL, LC_MESSAGES,
//! LANG), English when nothing matches.

use std::sync::OnceLock;

use babelftp_i18n::lang::{Arg, Catalogs, Lang, Negotiated};
use babelftp_proto::lang::LangTag;

static CATALOGS: OnceLock<Option<(Catalogs, Lang)>> = OnceLock::new();

fn catalogs() -> Option<&'static (Catalogs, Lang)> {
    CATALOGS
        .get_or_init(|| {
            let c = Catalogs::builtin().ok()?;
            let lang = babelftp_client::locale::user_language()
                .and_then(|t| LangTag::parse(t.as_bytes()).ok())
                .and_then(|t| match c.negotiate(&t) {
                    Negotiated::Lang(l) => Some(l),
                    Negotiated::Unsupported => None,
                })
                .unwrap_or(0);
            Some((c, lang))
        })
        .as_ref()
}

/// A message in the user's language.
pub fn t(id: &str, args: &[(&str, Arg<'_>)]) -> String {
    match catalogs() {
        Some((c, l)) => c.text(*l, id, args),
        None => id.to_owned(),
    }
}

/// Shorthand for a message with text arguments.
pub fn ts(id: &str, args: &[(&str, &str)]) -> String {
    let args: Vec<(&str, Arg<'_>)> = args.iter().map(|(k, v)| (*k, Arg::Str(v))).collect();
    t(id, &args)
}
