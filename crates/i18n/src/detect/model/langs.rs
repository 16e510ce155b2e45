//! The languages of the tables, and the scripts they are written in.

/// Languages of the tables (`charfreq.txt`'s codes).
pub(crate) const LANGS: &[&str] = &[
    "ja", "zh", "ko", "ru", "uk", "bg", "mk", "el", "ar", "fa", "he", "tr", "vi", "pl", "cs", "sk", "sl", "hu", "ro",
    "de", "fr", "es", "pt", "it", "nl", "ca", "sv", "da", "nb", "fi", "lt", "lv", "zt", "th", "is", "et", "hr",
    // (issue 50, eighteenth pass: traditional Chinese as Big5 reads it, a
    // cheaper table than zt, which GBK and gb18030 read.)
    "zb",
    // (issue 50, twenty-sixth pass: Japanese as EUC-JP reads it, a table of
    // its own, as Big5 has zb; Shift_JIS reads ja.)
    "je",
];
pub(super) const N: usize = 39;
/// How many languages the tables have.
pub(crate) const LANG_COUNT: usize = N;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Script {
    Latin,
    Greek,
    Cyrillic,
    Hebrew,
    Arabic,
    Thai,
    Cjk,
    Other,
}

pub(crate) fn lang_script(lang: usize) -> Script {
    use Script::{Arabic, Cjk, Cyrillic, Greek, Hebrew, Latin, Thai};
    // In the order of LANGS.
    const SCRIPTS: [Script; N] = [
        Cjk, Cjk, Cjk, Cyrillic, Cyrillic, Cyrillic, Cyrillic, Greek, Arabic, Arabic, Hebrew, Latin, Latin, Latin,
        Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin,
        Latin, Latin, Cjk, Thai, Latin, Latin, Latin, Cjk, Cjk,
    ];
    SCRIPTS.get(lang).copied().unwrap_or(Script::Other)
}

/// Indices of two languages with characters of their own in `char_cost`.
pub(super) const DE: usize = 19;
pub(super) const ES: usize = 21;
/// Italian's index (its word-final accents: `model/score.rs`).
pub(super) const IT: usize = 23;

/// Languages that elide a word before a vowel with an apostrophe (fr,
/// it, ca: `c'è`, `l'à`), whose word after one counts as a word beside an
/// ASCII one (`model/words.rs`; issue 50, twenty-seventh pass).
pub(super) const ELIDING: u64 = 1 << 20 | 1 << 23 | 1 << 25;

/// Whether a language is written in the Latin script.
pub(crate) fn latin(lang: usize) -> bool {
    lang_script(lang) == Script::Latin
}

pub(crate) fn lang_index(code: &str) -> Option<usize> {
    LANGS.iter().position(|l| *l == code)
}

#[cfg(test)]
mod tests {
    #[test]
    fn eliding_languages_are_fr_it_ca() {
        let mask = ["fr", "it", "ca"]
            .iter()
            .filter_map(|l| super::lang_index(l))
            .fold(0u64, |m, i| m | 1 << i);
        assert_eq!(super::ELIDING, mask);
        assert_eq!(super::lang_index("it"), Some(super::IT));
    }
}
