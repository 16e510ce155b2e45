//! Words an alphabet cannot spell: a Greek word without its accent, a
//! Cyrillic word without a vowel. What bytes of another charset read as.

use super::chars::Class;
use super::langs::Script;

/// Bits for a lowercase Greek word of four letters or more with no accent.
const GREEK_UNACCENTED: f64 = 8.0;

fn greek_accented(c: char) -> bool {
    matches!(
        c,
        'ά' | 'έ' | 'ή' | 'ί' | 'ό' | 'ύ' | 'ώ' | 'ΐ' | 'ΰ' | 'Ά' | 'Έ' | 'Ή' | 'Ί' | 'Ό' | 'Ύ' | 'Ώ'
    )
}

/// Modern Greek puts at most one accent on a word, and one on every word
/// of two syllables or more: a lowercase word of four letters without one
/// is not Greek (it is bytes of another alphabet).
pub(super) fn greek_penalty(chars: &[char], cl: &[Class]) -> f64 {
    let mut p = 0.0;
    let mut i = 0;
    while i < chars.len() {
        if !cl.get(i).is_some_and(|k| k.alpha && k.script == Script::Greek) {
            i += 1;
            continue;
        }
        let start = i;
        while cl.get(i).is_some_and(|k| k.alpha && k.script == Script::Greek) {
            i += 1;
        }
        let word = chars.get(start..i).unwrap_or_default();
        let lowercase = cl.get(start..i).is_some_and(|ks| ks.iter().any(|k| k.lower));
        if word.len() >= 4 && lowercase && !word.iter().any(|&c| greek_accented(c)) {
            p += GREEK_UNACCENTED;
        }
    }
    let mut accents = 0;
    for (&c, k) in chars.iter().zip(cl) {
        if greek_accented(c) {
            accents += 1;
            if accents > 1 {
                p += 10.0;
            }
        } else if !k.alpha {
            accents = 0;
        }
    }
    p
}

/// Bits for a Cyrillic word of two letters or more, not all capitals,
/// with no vowel (`лзб`, `Жн`: random bytes read in one of the six
/// Cyrillic charsets). Russian, Ukrainian and Bulgarian words have one;
/// `р` counts as one (Macedonian `крв`, `прст`); an acronym (`КНР`) is
/// all capitals. Issue 50, fourth pass: chosen on the validation parts
/// (4 / 8 / 12 / 16 bits, words of 2 or 3+ letters; 8 bits from 2 letters:
/// +3 names, none lost; one-letter words too lost 2).
const CYRILLIC_NO_VOWEL: f64 = 8.0;

pub(super) fn cyrillic_penalty(chars: &[char], cl: &[Class]) -> f64 {
    let vowel = |c: &char| c.to_lowercase().any(|l| "аеёиоуыэюяіїєўр".contains(l));
    let mut p = 0.0;
    let mut i = 0;
    while i < chars.len() {
        if !cl.get(i).is_some_and(|k| k.alpha && k.script == Script::Cyrillic) {
            i += 1;
            continue;
        }
        let start = i;
        while cl.get(i).is_some_and(|k| k.alpha && k.script == Script::Cyrillic) {
            i += 1;
        }
        let word = chars.get(start..i).unwrap_or_default();
        let lowercase = cl.get(start..i).is_some_and(|ks| ks.iter().any(|k| k.lower));
        if word.len() >= 2 && lowercase && !word.iter().any(vowel) {
            p += CYRILLIC_NO_VOWEL;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::super::chars::class;
    use super::*;

    fn cyrillic(text: &str) -> f64 {
        let chars: Vec<char> = text.chars().collect();
        let cl: Vec<Class> = chars.iter().map(|&c| class(c)).collect();
        cyrillic_penalty(&chars, &cl)
    }

    #[test]
    fn a_cyrillic_word_without_a_vowel_is_bytes_of_another_charset() {
        assert_eq!(cyrillic("лзб"), CYRILLIC_NO_VOWEL);
        assert_eq!(cyrillic("file_Жн"), CYRILLIC_NO_VOWEL);
        assert_eq!(cyrillic("дом"), 0.0);
        assert_eq!(cyrillic("КНР"), 0.0, "an acronym");
        assert_eq!(cyrillic("крв"), 0.0, "Macedonian syllabic р");
        assert_eq!(cyrillic("в Киеве"), 0.0, "a preposition of one letter");
    }
}
