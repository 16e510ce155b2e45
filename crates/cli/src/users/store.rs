//! Opening the accounts store, and its errors for a person.

use babelftp_accounts::{AccountsError, Store};

use crate::exit::Usage;
use crate::msg::ts;

/// An error for a person, through the catalogs; a wrong value is a usage
/// error (exit 2).
pub(crate) fn explain(e: AccountsError, db: &str) -> anyhow::Error {
    use AccountsError as E;
    let usage = e.is_input_error()
        && !matches!(
            e,
            E::UnknownUser(_)
                | E::UnknownGroup(_)
                | E::UserExists(_)
                | E::GroupExists(_)
                | E::GroupInUse { .. }
                | E::NoSuchRule { .. }
                | E::NoSuchMount { .. }
                | E::Import { .. }
                | E::ImportEntry { .. }
                | E::Hash(_)
                | E::TokenExists(_)
                | E::UnknownToken(_)
                | E::UnknownShare(_)
                | E::SourceNotAllowed { .. }
        );
    let text = text_of(&e, db);
    if usage {
        anyhow::Error::new(Usage(text))
    } else {
        anyhow::Error::msg(text)
    }
}

fn text_of(e: &AccountsError, db: &str) -> String {
    use AccountsError as E;
    match e {
        E::Db(err) => ts("cli-acct-db", &[("db", db), ("error", &err.to_string())]),
        E::BadUrl(v) => ts("cli-acct-bad-url", &[("value", &crate::exit::redact_url(v))]),
        E::NoPostgres(d) => ts("cli-acct-no-postgres", &[("db", d)]),
        E::TooNew { found, known } => ts(
            "cli-acct-too-new",
            &[("db", db), ("found", &found.to_string()), ("known", &known.to_string())],
        ),
        E::UnknownUser(n) => ts("cli-acct-unknown-user", &[("name", n), ("db", db)]),
        E::UnknownGroup(n) => ts("cli-acct-unknown-group", &[("name", n), ("db", db)]),
        E::UserExists(n) => ts("cli-acct-user-exists", &[("name", n)]),
        E::GroupExists(n) => ts("cli-acct-group-exists", &[("name", n)]),
        E::GroupInUse { group, members } => ts(
            "cli-acct-group-in-use",
            &[("name", group), ("count", &members.to_string())],
        ),
        E::BadName(v) => ts("cli-acct-bad-name", &[("value", v)]),
        E::BadLang(v) => ts("cli-acct-bad-lang", &[("value", v)]),
        E::BadCharset(v) => ts("cli-acct-bad-charset", &[("value", v)]),
        E::BadHome(v) => ts("cli-acct-bad-home", &[("value", v)]),
        E::BadSource(v) => ts("cli-acct-bad-source", &[("value", v)]),
        E::MountAtRoot => ts("cli-acct-mount-root", &[]),
        E::SourceNotAllowed { what, allowed } => {
            ts("cli-acct-source-not-allowed", &[("source", what), ("allowed", allowed)])
        }
        E::BadPath(p) => ts("cli-acct-bad-path", &[("value", &p.0)]),
        E::BadPerms(p) => ts("cli-acct-bad-perms", &[("value", &p.0)]),
        E::BadHash(n) => ts("cli-acct-bad-hash", &[("name", n)]),
        E::NoSuchRule { owner, path } => ts("cli-acct-no-rule", &[("name", owner), ("path", path)]),
        E::NoSuchMount { owner, path } => ts("cli-acct-no-mount", &[("name", owner), ("path", path)]),
        E::Import { path, message } => ts(
            "cli-acct-import-failed",
            &[("file", &path.display().to_string()), ("error", message)],
        ),
        E::ImportEntry { path, source } => ts(
            "cli-acct-import-failed",
            &[("file", &path.display().to_string()), ("error", &text_of(source, db))],
        ),
        E::Duplicate(n) => ts("cli-acct-import-duplicate", &[("name", n)]),
        E::Hash(err) => ts("cli-acct-hash", &[("error", err)]),
        E::Corrupt { what, value } => ts("cli-acct-corrupt", &[("db", db), ("what", what), ("value", value)]),
        E::TokenExists(n) => ts("cli-admin-token-exists", &[("name", n)]),
        E::UnknownToken(n) => ts("cli-admin-token-unknown", &[("name", n), ("db", db)]),
        E::NoRandom => ts("cli-admin-no-random", &[]),
        E::UnknownShare(id) => ts("cli-share-unknown", &[("id", id), ("db", db)]),
        E::NoCatalog { tag, have } => ts("cli-acct-no-catalog", &[("value", tag), ("have", have)]),
        E::ShortPassword { min } => ts("cli-acct-short-password", &[("min", &min.to_string())]),
    }
}

/// Opens the store; what to call it in messages (never a password).
pub(crate) async fn open(flag: Option<String>, config: Option<std::path::PathBuf>) -> anyhow::Result<(Store, String)> {
    let url = crate::db::admin_url(flag, config.as_deref())?;
    crate::db::warn_if_readable(Some(&url));
    match Store::open(&url).await {
        Ok(s) => {
            let d = s.describe();
            Ok((s, d))
        }
        Err(e) => Err(explain(e, &crate::exit::redact_url(&url))),
    }
}
