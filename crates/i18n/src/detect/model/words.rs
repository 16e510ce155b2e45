//! Frequent words (issue 50, third pass): a reading whose words are words
//! a language writes often is that language's more surely than its letter
//! pairs alone say (`più`, `città` beside `piů`, `cittŕ`).

use super::chars::{fold, Class};
use super::langs::{lang_script, Script, ELIDING, N};
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
    // ... and those of them right after an elided word (`c'è`), in the
    // languages that elide (issue 50, twenty-seventh pass)
    let mut elided_single = [0u8; N];
    let mut ascii_word = false;
    let mut after_elision: &[char] = &[];
    for w in super::chars::words(cl.get(..chars.len()).unwrap_or(cl)) {
        let end = w.end;
        let run = chars.get(w).unwrap_or(&[]);
        let elided_word = std::mem::take(&mut after_elision);
        let follows = !elided_word.is_empty();
        if run.iter().all(char::is_ascii) {
            ascii_word |= run.len() >= 2 && run.iter().any(char::is_ascii_alphabetic);
            if elided(run, chars, end) {
                after_elision = run;
            }
            continue;
        }
        word.clear();
        word.extend(run.iter().map(|&c| fold(c)));
        // An article or pronoun elided before it (`c'è`, `dell'ànfora`,
        // `l'été`) is a frequent word of the languages that elide
        // (issue 50, twenty-seventh pass).
        if follows && elision_of(elided_word, word) {
            for (lang, k) in known.iter_mut().enumerate() {
                if ELIDING & (1u64 << lang) != 0 {
                    *k = k.saturating_add(1);
                }
            }
        }
        if let Some(&mask) = t.words.get(word.as_str()) {
            let into = if run.len() == 1 { &mut single } else { &mut known };
            for (lang, k) in into.iter_mut().enumerate() {
                if mask & (1u64 << lang) != 0 {
                    *k = k.saturating_add(1);
                }
            }
            if run.len() == 1 && follows {
                for (lang, k) in elided_single.iter_mut().enumerate() {
                    if mask & ELIDING & (1u64 << lang) != 0 {
                        *k = k.saturating_add(1);
                    }
                }
            }
        }
    }
    // A word of one letter (`è`, `à`, `ä`) counts only beside an ASCII word
    // of two letters or more: alone, or among high bytes, it is what
    // random bytes read as. In a language that elides, a word elided
    // before it is such a word too (`c'è`, `l'à`; not Slovene `c'č`).
    let context = if ascii_word { single } else { elided_single };
    for (k, s) in known.iter_mut().zip(context) {
        *k = k.saturating_add(s);
    }
    known
}

/// Whether `elided` (ASCII letters) is elided before `word` (folded) as
/// French, Italian and Catalan elide an article or pronoun (`score::elides`).
fn elision_of(elided: &[char], word: &str) -> bool {
    let before: String = elided.iter().map(char::to_ascii_lowercase).collect();
    word.chars().next().is_some_and(|c| super::score::elides(&before, c))
}

/// An ASCII word elided before the next one (`c'è`, `l'è`, `dell'à`): its
/// letters, then an apostrophe, then a letter.
fn elided(run: &[char], chars: &[char], end: usize) -> bool {
    !run.is_empty()
        && run.iter().all(char::is_ascii_alphabetic)
        && matches!(chars.get(end), Some('\'' | '\u{2019}'))
        && chars.get(end + 1).is_some_and(|c| c.is_alphabetic())
}

/// Per CJK language, how many runs of two CJK letters or more (Han, kana,
/// Hangul) of the text hold no pair of adjacent letters that its
/// dictionary's words hold often (`cjkpairs.txt`; issue 50's fifth pass:
/// `北京`, `東京`, `서울` hold one; the random bytes `渍父`, `旭慮`,
/// `듛벙갭` none).
pub(super) fn unpaired_cjk_runs(chars: &[char], cl: &[Class]) -> [u8; N] {
    let mut without = [0u8; N];
    let t = tables();
    let cjk = |i: usize| cl.get(i).is_some_and(|k| k.alpha && k.script == Script::Cjk);
    let mut i = 0;
    while i < chars.len() {
        if !cjk(i) {
            i += 1;
            continue;
        }
        let start = i;
        let mut held = 0u64;
        while i + 1 < chars.len() && cjk(i + 1) {
            if let (Some(&a), Some(&b)) = (chars.get(i), chars.get(i + 1)) {
                held |= t.cjk_pairs.get(&(a, b)).copied().unwrap_or(0);
            }
            i += 1;
        }
        if i > start {
            for (lang, w) in without.iter_mut().enumerate() {
                if held & (1u64 << lang) == 0 && lang_script(lang) == Script::Cjk {
                    *w = w.saturating_add(1);
                }
            }
        }
        i += 1;
    }
    without
}

/// Bits a CJK reading pays for each run of two letters or more with no
/// pair its language's words hold (issue 50, fifth pass). Chosen on the
/// validation parts among 1, 2, 3, 4, 5, 7, 9 and 12: two random high
/// bytes are a frequent hanzi or hangul one time in four, and two of them
/// side by side are a word far less often; a given name (`昊嘉`, `春香`)
/// is no word either, which is what keeps this small.
pub(super) const UNPAIRED_CJK_RUN: u32 = 3;

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
        // ... or after an elided word, in a language that elides
        let (Some(sl), Some(ca)) = (lang_index("sl"), lang_index("ca")) else {
            panic!("sl, ca");
        };
        assert_eq!(known("c'è")[it], 2);
        assert_eq!(known("C\u{2019}è 1381")[it], 2);
        assert_eq!(known("c'č")[sl], 0);
        assert_eq!(known("genitore c'č")[sl], 1);
        assert_eq!(known("c' è")[it], 0);
        assert_eq!(known("1'è")[it], 0);
        assert_eq!(known("l'à")[fr], 2);
        // ... and an elided article or pronoun counts in them itself
        assert_eq!(known("genitore c'è")[it], 2);
        assert_eq!(known("dell'ànfora")[it], 1);
        assert_eq!(known("dell'ànfora")[sl], 0);
        assert_eq!(known("xyz'ànfora")[it], 0);
        assert_eq!(known("c'č")[it], 0);
        assert_eq!(ELIDING.count_ones(), 3);
        assert_ne!(ELIDING & (1u64 << ca), 0);
    }

    fn unpaired(text: &str, lang: &str) -> u8 {
        let chars: Vec<char> = text.chars().collect();
        let cl: Vec<Class> = chars.iter().map(|&c| class(c)).collect();
        let Some(l) = lang_index(lang) else { panic!("{lang}") };
        unpaired_cjk_runs(&chars, &cl)[l]
    }

    #[test]
    fn cjk_runs_without_a_word_pair_are_counted() {
        // words of the dictionaries
        assert_eq!(unpaired("北京_2019.jpg", "zh"), 0);
        assert_eq!(unpaired("東京タワー", "ja"), 0);
        // random bytes read as GBK and EUC-JP
        assert_eq!(unpaired("渍父", "zh"), 1);
        assert_eq!(unpaired("旭慮.dat", "ja"), 1);
        // a single character is no run; two runs are counted apart
        assert_eq!(unpaired("父", "zh"), 0);
        assert_eq!(unpaired("渍父 北京 勋陵", "zh"), 2);
        // only CJK languages count
        let Some(fr) = lang_index("fr") else { panic!("fr") };
        let chars: Vec<char> = "渍父".chars().collect();
        let cl: Vec<Class> = chars.iter().map(|&c| class(c)).collect();
        assert_eq!(unpaired_cjk_runs(&chars, &cl)[fr], 0);
    }
}
