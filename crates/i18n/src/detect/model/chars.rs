//! What the model asks of a character (its script, its lowercase, letter
//! or mark, its class and table rows), from a property table built once.

use std::sync::OnceLock;

use super::langs::{Script, N};
use super::tables::tables;

pub(crate) fn script(c: char) -> Script {
    match props().class.get(prop_index(c)) {
        Some(k) => k.script,
        None => script_slow(c),
    }
}

fn script_slow(c: char) -> Script {
    match c as u32 {
        0x41..=0x5A | 0x61..=0x7A | 0xC0..=0xD6 | 0xD8..=0xF6 | 0xF8..=0x24F | 0x1E00..=0x1EFF => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F => Script::Cyrillic,
        0x590..=0x5FF | 0xFB1D..=0xFB4F => Script::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => Script::Arabic,
        0xE00..=0xE7F => Script::Thai,
        0x1100..=0x11FF
        | 0x3040..=0x30FF
        | 0x3130..=0x318F
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7AF
        | 0xF900..=0xFAFF
        | 0xFF66..=0xFF9F
        | 0x3000..=0x303F
        | 0xFF01..=0xFF65 => Script::Cjk,
        _ => Script::Other,
    }
}

/// Lowercase as the tables are (final sigma costs what sigma costs).
pub(super) fn fold(c: char) -> char {
    match props().fold.get(prop_index(c)) {
        Some(&f) => f,
        // Han and Hangul have no case.
        None if matches!(c as u32, 0x4E00..=0x9FFF | 0xAC00..=0xD7A3) => c,
        None => fold_slow(c),
    }
}

fn fold_slow(c: char) -> char {
    match c {
        'ς' => 'σ',
        // Turkish İ lowercases to i + a combining dot: the tables keep İ
        'İ' => 'İ',
        _ => c.to_lowercase().next().unwrap_or(c),
    }
}

/// Characters that a decoding of a file name never yields.
pub(crate) fn impossible(c: char) -> bool {
    let u = c as u32;
    c.is_control()
        || (0xE000..=0xF8FF).contains(&u)
        || u >= 0xF0000
        || (0xFDD0..=0xFDEF).contains(&u)
        || (u & 0xFFFE) == 0xFFFE
        || c == '\u{FFFD}'
}

pub(super) fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x300..=0x36F | 0x591..=0x5C7 | 0x610..=0x61A | 0x64B..=0x65F | 0xE31 | 0xE34..=0xE3A | 0xE47..=0xE4E)
}

/// A combining mark belongs to its base's script: Thai vowel and tone
/// marks on Thai consonants, Hebrew points on Hebrew, Latin/Greek/Cyrillic
/// diacritics (U+0300..U+036F) on those.
pub(super) fn mark_fits(base: char, mark: char) -> bool {
    let base_script = if is_mark(base) { script(mark) } else { script(base) };
    match mark as u32 {
        0x300..=0x36F => matches!(base_script, Script::Latin | Script::Greek | Script::Cyrillic),
        _ => base_script == script(mark),
    }
}

/// Properties of the characters below [`PROPS_END`] (every alphabet names
/// are decoded into, kana, Hangul jamo, CJK symbols) and from [`PROPS_HIGH`] (compatibility
/// ideographs, presentation forms, full- and half-width forms), looked up
/// once: scoring asks them of every character of every reading.
const PROPS_END: u32 = 0x3400;
const PROPS_HIGH: u32 = 0xF900;
/// How many characters [`Props`] holds.
const PROPS_LEN: usize = (PROPS_END + (0x1_0000 - PROPS_HIGH)) as usize;

/// Where a character's properties are in [`Props`] (`usize::MAX`: not
/// there).
fn prop_index(c: char) -> usize {
    let u = c as u32;
    let i = if u < PROPS_END {
        u
    } else if (PROPS_HIGH..=0xFFFF).contains(&u) {
        PROPS_END + (u - PROPS_HIGH)
    } else {
        return usize::MAX;
    };
    usize::try_from(i).unwrap_or(usize::MAX)
}
const P_ALPHA: u8 = 1;
const P_NUMERIC: u8 = 2;
const P_UPPER: u8 = 4;
const P_LOWER: u8 = 8;
const P_SPACE: u8 = 16;

struct Props {
    flags: Vec<u8>,
    fold: Vec<char>,
    class: Vec<Class>,
}

/// The unigram and escape rows of each character of [`Props`] (as a
/// lowercased character of the tables).
struct Rows {
    unigram: Vec<Option<&'static [u8; N]>>,
    escape: Vec<Option<&'static [u8; N]>>,
}

/// The characters of [`Props`], in its order.
fn prop_chars() -> impl Iterator<Item = char> {
    (0..PROPS_END)
        .chain(PROPS_HIGH..=0xFFFF)
        .map(|u| char::from_u32(u).unwrap_or('\0'))
}

/// Builds the property table and each character's table rows now (and
/// so the tables).
pub(super) fn prepare() {
    props();
    rows();
}

fn props() -> &'static Props {
    static P: OnceLock<Props> = OnceLock::new();
    P.get_or_init(|| {
        let mut flags = Vec::with_capacity(PROPS_LEN);
        let mut folds = Vec::with_capacity(PROPS_LEN);
        let mut class = Vec::with_capacity(PROPS_LEN);
        for c in prop_chars() {
            let mut f = 0;
            if c.is_alphabetic() {
                f |= P_ALPHA;
            }
            if c.is_numeric() {
                f |= P_NUMERIC;
            }
            if c.is_uppercase() {
                f |= P_UPPER;
            }
            if c.is_lowercase() {
                f |= P_LOWER;
            }
            if c.is_whitespace() {
                f |= P_SPACE;
            }
            flags.push(f);
            folds.push(fold_slow(c));
            class.push(class_of(c, f));
        }
        Props {
            flags,
            fold: folds,
            class,
        }
    })
}

fn rows() -> &'static Rows {
    static R: OnceLock<Rows> = OnceLock::new();
    R.get_or_init(|| {
        let t = tables();
        Rows {
            unigram: prop_chars().map(|c| t.unigram.get(&c)).collect(),
            escape: prop_chars().map(|c| t.escape.get(&c)).collect(),
        }
    })
}

fn flags(c: char) -> Option<u8> {
    props().flags.get(prop_index(c)).copied()
}

/// `char::is_alphabetic`, from the property table where it can.
pub(super) fn alpha(c: char) -> bool {
    match c as u32 {
        0x41..=0x5A | 0x61..=0x7A => true,
        0..=0x7F => false,
        0x4E00..=0x9FFF | 0xAC00..=0xD7A3 => true,
        _ => flags(c).map_or_else(|| c.is_alphabetic(), |f| f & P_ALPHA != 0),
    }
}

/// `char::is_alphanumeric`, with [`alpha`]'s shortcut.
fn alnum(c: char) -> bool {
    alpha(c)
        || if c.is_ascii() {
            c.is_ascii_digit()
        } else {
            flags(c).map_or_else(|| c.is_numeric(), |f| f & P_NUMERIC != 0)
        }
}

pub(super) fn is_letterlike(c: char) -> bool {
    alnum(c) || is_mark(c)
}

/// The words of a text: the ranges of its runs of letter-like
/// characters (by `cl`, one class a character), in order.
pub(super) fn words(cl: &[Class]) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while cl.get(i).is_some_and(|k| !k.letterlike) {
            i += 1;
        }
        let start = i;
        while cl.get(i).is_some_and(|k| k.letterlike) {
            i += 1;
        }
        (i > start).then_some(start..i)
    })
}

/// What [`structure_penalty`] asks of each character, asked once.
#[derive(Clone, Copy)]
pub(super) struct Class {
    pub(super) alpha: bool,
    pub(super) sym: bool,
    pub(super) mark: bool,
    pub(super) letterlike: bool,
    pub(super) upper: bool,
    pub(super) lower: bool,
    pub(super) script: Script,
}

pub(super) fn class(c: char) -> Class {
    if c.is_ascii() {
        let b = c as u8;
        return Class {
            alpha: b.is_ascii_alphabetic(),
            sym: false,
            mark: false,
            letterlike: b.is_ascii_alphanumeric(),
            upper: b.is_ascii_uppercase(),
            lower: b.is_ascii_lowercase(),
            script: if b.is_ascii_alphabetic() {
                Script::Latin
            } else {
                Script::Other
            },
        };
    }
    match props().class.get(prop_index(c)) {
        Some(&k) => k,
        // Han and Hangul syllables: letters of no case.
        None if matches!(c as u32, 0x4E00..=0x9FFF | 0xAC00..=0xD7A3) => Class {
            alpha: true,
            sym: false,
            mark: false,
            letterlike: true,
            upper: false,
            lower: false,
            script: Script::Cjk,
        },
        None => class_slow(c),
    }
}

/// [`class`] from a character of the property table's flags (the same as
/// [`class_slow`], without asking Unicode's tables again).
fn class_of(c: char, f: u8) -> Class {
    let alpha = f & P_ALPHA != 0;
    let mark = is_mark(c);
    let alnum = alpha || f & P_NUMERIC != 0;
    Class {
        alpha,
        sym: !c.is_ascii()
            && !alnum
            && !mark
            && f & P_SPACE == 0
            && !matches!(c as u32, 0x200C | 0x3000..=0x303F | 0x30FB | 0xFF01..=0xFF65),
        mark,
        letterlike: alnum || mark,
        upper: f & P_UPPER != 0,
        lower: f & P_LOWER != 0,
        script: script_slow(c),
    }
}

/// [`class`] from the character's Unicode properties (those of [`alpha`],
/// and `char`'s own).
fn class_slow(c: char) -> Class {
    let alpha = match c as u32 {
        0x41..=0x5A | 0x61..=0x7A => true,
        0..=0x7F => false,
        0x4E00..=0x9FFF | 0xAC00..=0xD7A3 => true,
        _ => c.is_alphabetic(),
    };
    let mark = is_mark(c);
    let alnum = alpha || c.is_alphanumeric();
    Class {
        alpha,
        // A symbol: not a letter, digit, mark, space, Persian ZWNJ or CJK
        // punctuation.
        sym: !c.is_ascii()
            && !alnum
            && !mark
            && !c.is_whitespace()
            && !matches!(c as u32, 0x200C | 0x3000..=0x303F | 0x30FB | 0xFF01..=0xFF65),
        mark,
        letterlike: alnum || mark,
        upper: c.is_uppercase(),
        lower: c.is_lowercase(),
        script: script_slow(c),
    }
}

/// The unigram row of a lowercased character.
pub(super) fn unigram_row(lower: char) -> Option<&'static [u8; N]> {
    match rows().unigram.get(prop_index(lower)) {
        Some(&row) => row,
        None => tables().unigram.get(&lower),
    }
}

/// The escape row of a lowercased character (what a follower never seen
/// after it costs).
pub(super) fn escape_row(lower: char) -> Option<&'static [u8; N]> {
    match rows().escape.get(prop_index(lower)) {
        Some(&row) => row,
        None => tables().escape.get(&lower),
    }
}
