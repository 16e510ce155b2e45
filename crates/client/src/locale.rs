//! The user's language, from the environment (POSIX locale variables).

/// The language tag of the user's messages locale: the first of `LC_ALL`,
/// `LC_MESSAGES`, `LANG` that is set and not empty, turned from POSIX form
/// (`fr_CA.UTF-8@euro`) into a tag (`fr-CA`). `C` and `POSIX` mean none.
pub fn user_language() -> Option<String> {
    ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|v| !v.is_empty())
        .and_then(|v| posix_to_tag(&v))
}

/// `fr_CA.UTF-8@euro` → `fr-CA`; `C`, `POSIX` and malformed values → None.
pub fn posix_to_tag(locale: &str) -> Option<String> {
    let base = locale.split(['.', '@']).next().unwrap_or_default();
    if base.is_empty() || base == "C" || base == "POSIX" {
        return None;
    }
    let tag = base.replace('_', "-");
    babelftp_proto::lang::LangTag::parse(tag.as_bytes()).ok()?;
    Some(tag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posix_locales_become_tags() {
        assert_eq!(posix_to_tag("fr_CA.UTF-8"), Some("fr-CA".into()));
        assert_eq!(posix_to_tag("de_DE@euro"), Some("de-DE".into()));
        assert_eq!(posix_to_tag("ja"), Some("ja".into()));
        assert_eq!(posix_to_tag("C.UTF-8"), None);
        assert_eq!(posix_to_tag("POSIX"), None);
        assert_eq!(posix_to_tag(""), None);
        assert_eq!(posix_to_tag("12_x"), None);
    }
}
