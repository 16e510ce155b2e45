//! Thai spelling no word has (a structure penalty of `score.rs`).

/// Thai spelling no word has: a vowel or tone mark above or below that is
/// not on a consonant (or on a vowel mark, for a tone), a leading vowel
/// (เ แ โ ใ ไ) not followed by a consonant, a following vowel (ะ า ำ)
/// after no consonant or mark.
pub(super) fn thai_penalty(chars: &[char]) -> f64 {
    let consonant = |c: char| ('\u{E01}'..='\u{E2E}').contains(&c);
    let above_below = |c: char| matches!(c, '\u{E31}' | '\u{E34}'..='\u{E3A}' | '\u{E47}');
    let tone = |c: char| matches!(c, '\u{E48}'..='\u{E4E}');
    let mut p = 0.0;
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
        let next = chars.get(i + 1).copied();
        let ok = if above_below(c) {
            prev.is_some_and(consonant)
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
