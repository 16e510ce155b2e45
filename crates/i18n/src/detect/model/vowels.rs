//! Words of an alphabet with no vowel (a structure penalty of `score.rs`;
//! issue 50, seventh pass).

use super::chars::{fold, words, Class};
use super::langs::Script;

/// Bits for a word of Cyrillic or Greek letters with no vowel
/// (issue 50, seventh pass).
const VOWELLESS: f64 = 6.0;

/// Every word of Cyrillic or Greek holds a vowel, but the one-letter
/// ones (`в`, `с`, `к`), acronyms (`КНР`, all capitals) and abbreviations
/// with their period (`кв. 5`, `пл.`); Macedonian's syllabic `р` (`прст`)
/// stands for one. Letter pairs alone do not see a whole word without
/// one: the random bytes `Тсз`, `дзд`, `file_Жн` and a hanzi's two bytes
/// read as Cyrillic (`癌.wav` in EUC-JP as ISO-8859-5 `Дт.wav`) were
/// shown decoded.
pub(super) fn vowelless(chars: &[char], cl: &[Class]) -> f64 {
    const VOWELS: &str = "аеёиоуыэюяіїєѐѝъαεηιουωάέήίόύώϊϋΐΰ";
    let mut p = 0.0;
    for w in words(cl.get(..chars.len()).unwrap_or(cl)) {
        let end = w.end;
        let (Some(run), Some(ks)) = (chars.get(w.clone()), cl.get(w)) else {
            continue;
        };
        // (an abbreviation: a period, then a space or the name's end)
        let abbreviation = chars.get(end) == Some(&'.') && chars.get(end + 1).is_none_or(|&c| c == ' ');
        let script = ks.first().map_or(Script::Other, |k| k.script);
        if run.len() < 2
            || !matches!(script, Script::Cyrillic | Script::Greek)
            || !ks.iter().all(|k| k.alpha && k.script == script)
            || ks.iter().all(|k| k.upper)
            || abbreviation
        {
            continue;
        }
        if !run.iter().any(|&c| VOWELS.contains(fold(c)) || fold(c) == 'р') {
            p += VOWELLESS;
        }
    }
    p
}
