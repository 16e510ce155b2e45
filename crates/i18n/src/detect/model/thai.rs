//! Thai spelling no word has (a structure penalty of `score.rs`).

/// Thai spelling no word has: a vowel or tone mark above or below that is
/// not on a consonant (or on a vowel mark, for a tone), a leading vowel
/// (เ แ โ ใ ไ) not followed by a consonant, a following vowel (ะ า ำ)
/// after no consonant or mark; since issue 50's thirteenth pass also
/// mai han-akat (ั) or sara ue (ื) followed by a Thai letter that is not a
/// consonant (after a tone mark or not: 5 of PyThaiNLP's 62,107 words do,
/// all typos; at the end of a run it may be a name cut short) and a
/// thanthakhat (์) on a word's first letter or on the letter after a
/// leading vowel (none of them): what random bytes read as Thai hold
/// (`ลัเ`, `ห์โง`, `ใจ์ซ`).
pub(super) fn thai_penalty(chars: &[char]) -> f64 {
    let consonant = |c: char| ('\u{E01}'..='\u{E2E}').contains(&c);
    let above_below = |c: char| matches!(c, '\u{E31}' | '\u{E34}'..='\u{E3A}' | '\u{E47}');
    let tone = |c: char| matches!(c, '\u{E48}'..='\u{E4E}');
    let thai_letter = |c: char| ('\u{E01}'..='\u{E4E}').contains(&c);
    let mut p = 0.0;
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
        let next = chars.get(i + 1).copied();
        let before_prev = i.checked_sub(2).and_then(|j| chars.get(j)).copied();
        let ok = if matches!(c, '\u{E31}' | '\u{E37}') {
            let after = match next {
                Some(t) if tone(t) => chars.get(i + 2).copied(),
                n => n,
            };
            // (at the end of a Thai run it may be a name cut short: an 8.3
            // short name, `ศศิรั~1.PDF`)
            prev.is_some_and(consonant) && after.is_none_or(|a| consonant(a) || !thai_letter(a))
        } else if above_below(c) {
            prev.is_some_and(consonant)
        } else if c == '\u{E4C}'
            && prev.is_some()
            && before_prev.is_none_or(|b| !thai_letter(b) || matches!(b, '\u{E40}'..='\u{E44}'))
        {
            false
        } else if tone(c) {
            prev.is_some_and(|p| consonant(p) || above_below(p))
        } else if matches!(c, '\u{E40}'..='\u{E44}') {
            next.is_some_and(consonant)
        } else if matches!(c, '\u{E30}' | '\u{E32}' | '\u{E33}') {
            prev.is_some_and(|p| consonant(p) || above_below(p) || tone(p))
        } else {
            true
        };
        if !ok {
            p += 10.0;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::thai_penalty;

    fn p(s: &str) -> f64 {
        thai_penalty(&s.chars().collect::<Vec<_>>())
    }

    #[test]
    fn words_have_no_penalty() {
        for w in ["ครั้ง", "เครื่อง", "มือ", "ตัว", "ศักดิ์", "เสาร์", "อื่นๆ", "กั้น", "ศศิรั"]
        {
            assert_eq!(p(w), 0.0, "{w}");
        }
    }

    #[test]
    fn spelling_no_word_has() {
        // mai han-akat or sara ue before a vowel; thanthakhat on a word's
        // first letter or after a leading vowel
        for w in ["ลัา", "ปืโต", "ห์โง", "ใจ์ซ"] {
            assert!(p(w) >= 10.0, "{w}");
        }
    }
}
