//! What one character costs under one language, in bits.

use super::chars::script;
use super::langs::{lang_script, Script, DE, ES, N};
use super::tables::ABSENT;

/// Cost of a character of the language's script that its table lacks.
const OOV_LETTER: u32 = 18;
pub(super) const OOV_CJK: u32 = 20;
/// Cost of a character nothing explains (box drawing, math, dingbats, a
/// letter of another script).
pub(super) const ALIEN: u32 = 24;
/// Extra cost of a letter pair the language's bigram table lacks, when its
/// first letter has no escape cost in the table.
const BACKOFF: u32 = 3;
/// Weight of the escape cost (percent).
const ESCAPE_WEIGHT: u32 = 50;

/// What a follower never seen after `prev` costs over its unigram in
/// `lang` (the table's Witten-Bell escape, weighted).
pub(super) fn escape(row: Option<&[u8; N]>, lang: usize) -> u32 {
    row.and_then(|r| r.get(lang))
        .copied()
        .filter(|&v| v != ABSENT)
        .map_or(BACKOFF, |v| (u32::from(v) * ESCAPE_WEIGHT).div_ceil(100))
}

/// Thai characters the generated table lacks (it holds every letter,
/// vowel and tone mark of CLDR's exemplars): hand-set tiers from the
/// letters' commonness in Thai text (about 4, 5.5, 7.5 and 12 bits), with
/// Thai digits and signs (๑, ฿, ๚) at 14.
fn thai_cost(c: char) -> u32 {
    match c {
        'า' | 'น' | 'ร' | 'อ' | 'ก' | 'เ' | 'ม' | 'ง' | 'ว' | 'ย' | '่' | 'ั' | 'ี' | '้' => {
            4
        }
        'ล' | 'ด' | 'ท' | 'ส' | 'ต' | 'บ' | 'ค' | 'ห' | 'ป' | 'ิ' | 'ะ' | 'จ' | 'ข' | 'พ' | 'แ' | 'ไ' | 'ู' | 'ุ'
        | 'ช' | '็' | 'ใ' | 'โ' | 'ำ' | 'ื' => 6,
        'ผ' | 'ถ' | 'ศ' | 'ษ' | 'ฟ' | 'ญ' | 'ธ' | 'ณ' | 'ภ' | 'ฉ' | 'ซ' | 'ฝ' | 'ฮ' | 'ึ' | '์' | 'ๆ' | 'ฯ' => {
            8
        }
        '\u{E01}'..='\u{E2E}' | '\u{E30}'..='\u{E3A}' | '\u{E40}'..='\u{E4E}' => 12,
        _ => 14,
    }
}

/// Cost of one character under one language, in bits.
pub(super) fn char_cost(c: char, lower: char, row: Option<&[u8; N]>, lang: usize) -> u32 {
    if c.is_ascii() {
        return if c.is_ascii_alphanumeric() || matches!(c, ' ' | '.' | '_' | '-') {
            3
        } else {
            5
        };
    }
    if let Some(cost) = row.and_then(|r| r.get(lang)).copied().filter(|&v| v != ABSENT) {
        return u32::from(cost);
    }
    let ls = lang_script(lang);
    let s = script(lower);
    let u = c as u32;
    match u {
        // ß, if the German table lacks it
        0xDF if lang == DE => return 9,
        // CJK punctuation, full-width forms, the katakana middle dot
        0x3000..=0x303F | 0xFF01..=0xFF65 if ls == Script::Cjk => return 9,
        // Dashes, quotes, ellipsis, guillemets, euro: seen in names
        0x2013 | 0x2014 | 0x2018 | 0x2019 | 0x201C | 0x201D | 0x201E | 0x2026 | 0xAB | 0xBB | 0x20AC => return 12,
        // Inverted marks in Spanish
        0xA1 | 0xBF if lang == ES => return 10,
        // Zero-width non-joiner: Persian writes it inside words
        0x200C if ls == Script::Arabic => return 9,
        // Arabic comma, tatweel; Hebrew maqaf, geresh
        0x60C | 0x640 | 0x5BE | 0x5F3 | 0x5F4 if s == ls => return 12,
        // No-break space, degree, section, middle dot, ordinal indicators
        0xA0 | 0xB0 | 0xA7 | 0xB7 | 0xAA | 0xBA | 0xA9 | 0xAE => return 15,
        _ => {}
    }
    if s == ls && ls != Script::Other {
        return match ls {
            Script::Thai => thai_cost(lower),
            Script::Cjk => OOV_CJK,
            _ => OOV_LETTER,
        };
    }
    ALIEN
}

/// Bits for letters of CJK or Thai touching letters of another script
/// ("写真ABC", "iPhone备份").
pub(super) const GLUED: u32 = 4;
