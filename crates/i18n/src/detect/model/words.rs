//! Frequent words (issue 50, third pass): a reading whose words are words
//! a language writes often is that language's more surely than its letter
//! pairs alone say (`più`, `città` beside `piů`, `cittŕ`).

use super::chars::{fold, Class};
use super::langs::N;
use super::tables::tables;

/// Per language, how many words of the text with a non-ASCII letter are
/// among its frequent words (issue 50's third pass).
pub(super) fn known_words(chars: &[char], cl: &[Class], word: &mut String) -> [u8; N] {
    let mut known = [0u8; N];
    let t = tables();
    if t.words.is_empty() {
        return known;
    }
    let mut single = [0u8; N];
    let mut ascii_word = false;
    for w in super::chars::words(cl.get(..chars.len()).unwrap_or(cl)) {
        let run = chars.get(w).unwrap_or(&[]);
        if run.iter().all(char::is_ascii) {
            ascii_word |= run.len() >= 2 && run.iter().any(char::is_ascii_alphabetic);
            continue;
        }
        word.clear();
        word.extend(run.iter().map(|&c| fold(c)));
        if let Some(&mask) = t.words.get(word.as_str()) {
            let into = if run.len() == 1 { &mut single } else { &mut known };
            for (lang, k) in into.iter_mut().enumerate() {
                if mask & (1u64 << lang) != 0 {
                    *k = k.saturating_add(1);
                }
            }
        }
    }
    // A word of one letter (`è`, `à`, `ä`) counts only beside an ASCII word
    // of two letters or more: alone, or among high bytes, it is what
    // random bytes read as.
    if ascii_word {
        for (k, s) in known.iter_mut().zip(single) {
            *k = k.saturating_add(s);
        }
    }
    known
}

/// Bits a reading saves for each of its words that is a frequent word of
/// the language (issue 50's third pass: `può`, `şimdi`, `tűnik` are words,
/// `puň`, `žimdi`, `tūnik` are not; letter pairs alone could not tell).
/// Chosen on the validation parts among 2, 4, 6, 8, 10 and 12.
pub(super) const WORD_BONUS: u32 = 8;

#[cfg(test)]
mod tests {
    use super::super::chars::class;
    use super::super::langs::lang_index;
    use super::*;

    fn known(text: &str) -> [u8; N] {
        let chars: Vec<char> = text.chars().collect();
        let cl: Vec<Class> = chars.iter().map(|&c| class(c)).collect();
        known_words(&chars, &cl, &mut String::new())
    }

    #[test]
    fn frequent_words_are_known_in_their_language() {
        let (Some(it), Some(cs), Some(tr)) = (lang_index("it"), lang_index("cs"), lang_index("tr")) else {
            panic!("languages");
        };
        let k = known("2019 Città più_bella.txt");
        assert_eq!(k[it], 2);
        assert_eq!(k[cs], 0);
        // a letter changed (windows-1250's reading of the same bytes)
        assert_eq!(known("2019 Cittŕ piů_bella.txt")[it], 0);
        assert_eq!(known("Açıklama")[tr], 1);
        // ASCII words are never looked up
        assert_eq!(known("bella vista"), [0u8; N]);
        // a word of one letter counts beside an ASCII word only
        let Some(fr) = lang_index("fr") else { panic!("fr") };
        assert_eq!(known("Paris à Lyon.txt")[fr], 1);
        assert_eq!(known("à")[fr], 0);
    }
}
