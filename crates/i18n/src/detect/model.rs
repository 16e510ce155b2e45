//! The plausibility model behind per-name detection: how many bits a text
//! costs as a file name in the language that explains it best.
//!
//! Cost of a text under language `L` = sum over its characters of
//! `-log2 P(char | L)` from the generated unigram tables (`charfreq.txt`,
//! lowercased characters), fixed costs for ASCII, punctuation and symbols,
//! plus structural penalties that no unigram sees (a capital after a small
//! letter inside a non-ASCII word, letters of two scripts touching, a
//! combining mark after a non-letter). Characters that no file name holds
//! (C0/C1 controls, private use, noncharacters, U+FFFD) make the text
//! impossible: [`score`] returns `None`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// Languages of the tables, in the order of `charfreq.txt`'s codes; `th`
/// has no table (Thai letters cost a flat 6 bits).
pub(crate) const LANGS: &[&str] = &[
    "ja", "zh", "ko", "ru", "uk", "bg", "mk", "el", "ar", "fa", "he", "tr", "vi", "pl", "cs", "sk", "sl", "hu", "ro",
    "de", "fr", "es", "pt", "it", "nl", "ca", "sv", "da", "nb", "fi", "lt", "lv", "zt", "th",
];
const N: usize = 34;
const ABSENT: u8 = u8::MAX;

/// Cost of a character of the language's script that its table lacks.
const OOV_LETTER: u32 = 18;
const OOV_CJK: u32 = 20;
/// Cost of a character nothing explains (box drawing, math, dingbats, a
/// letter of another script).
const ALIEN: u32 = 24;
/// Extra cost of a letter pair the language's bigram table lacks, when its
/// first letter has no escape cost in the table.
const BACKOFF: u32 = 3;
/// Weight of the escape cost (percent).
const ESCAPE_WEIGHT: u32 = 50;

/// What a follower never seen after `prev` costs over its unigram in
/// `lang` (the table's Witten-Bell escape, weighted).
fn escape(row: Option<&[u8; N]>, lang: usize) -> u32 {
    row.and_then(|r| r.get(lang))
        .copied()
        .filter(|&v| v != ABSENT)
        .map_or(BACKOFF, |v| (u32::from(v) * ESCAPE_WEIGHT).div_ceil(100))
}

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

fn lang_script(lang: usize) -> Script {
    use Script::{Arabic, Cjk, Cyrillic, Greek, Hebrew, Latin, Thai};
    // In the order of LANGS.
    const SCRIPTS: [Script; N] = [
        Cjk, Cjk, Cjk, Cyrillic, Cyrillic, Cyrillic, Cyrillic, Greek, Arabic, Arabic, Hebrew, Latin, Latin, Latin,
        Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin,
        Latin, Latin, Cjk, Thai,
    ];
    SCRIPTS.get(lang).copied().unwrap_or(Script::Other)
}

/// Indices of two languages with characters of their own in `char_cost`.
const DE: usize = 19;
const ES: usize = 21;

pub(crate) fn lang_index(code: &str) -> Option<usize> {
    LANGS.iter().position(|l| *l == code)
}

/// A multiply-rotate hasher for the tables' small keys (characters and
/// pairs of them): SipHash's protection against crafted keys is not
/// needed for tables fixed at build time, and it is several times slower.
#[derive(Default)]
struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type Map<K> = HashMap<K, [u8; N], BuildHasherDefault<FastHasher>>;

struct Tables {
    unigram: Map<char>,
    bigram: Map<(char, char)>,
    /// ASCII letter pairs of the Latin-script languages.
    ascii: Map<(u8, u8)>,
    /// Per letter (and `^`), what a follower never seen after it costs
    /// over its unigram (Witten-Bell escape).
    escape: Map<char>,
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Tables {
            unigram: Map::default(),
            bigram: Map::default(),
            ascii: Map::default(),
            escape: Map::default(),
        };
        for line in include_str!("charfreq.txt").lines() {
            if line.starts_with('#') {
                continue;
            }
            let mut parts = line.splitn(3, ' ');
            let (Some(lang), Some(cost), Some(chars)) = (parts.next(), parts.next(), parts.next()) else {
                continue;
            };
            let Ok(cost) = cost.parse::<u8>() else { continue };
            if let Some(lang) = lang.strip_suffix('4').and_then(lang_index) {
                for c in chars.chars() {
                    let row = t.escape.entry(c).or_insert([ABSENT; N]);
                    if let Some(slot) = row.get_mut(lang) {
                        *slot = (*slot).min(cost);
                    }
                }
            } else if let Some(lang) = lang.strip_suffix('3').and_then(lang_index) {
                let bs = chars.as_bytes();
                for pair in bs.chunks_exact(2) {
                    let row = t.ascii.entry((pair[0], pair[1])).or_insert([ABSENT; N]);
                    if let Some(slot) = row.get_mut(lang) {
                        *slot = (*slot).min(cost);
                    }
                }
            } else if let Some(lang) = lang.strip_suffix('2').and_then(lang_index) {
                let cs: Vec<char> = chars.chars().collect();
                for pair in cs.chunks_exact(2) {
                    let row = t.bigram.entry((pair[0], pair[1])).or_insert([ABSENT; N]);
                    if let Some(slot) = row.get_mut(lang) {
                        *slot = (*slot).min(cost);
                    }
                }
            } else if let Some(lang) = lang_index(lang) {
                for c in chars.chars() {
                    let row = t.unigram.entry(c).or_insert([ABSENT; N]);
                    if let Some(slot) = row.get_mut(lang) {
                        *slot = (*slot).min(cost);
                    }
                }
            }
        }
        t
    })
}

pub(crate) fn script(c: char) -> Script {
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

/// Cost of an ASCII letter pair a Latin-script language's table lacks.
const ASCII_UNSEEN: u32 = 16;

/// How well each language explains the ASCII words of a name, in bits
/// above the best-fitting Latin-script language (0 for the languages of
/// other scripts, whose names hold ASCII words of any language): the
/// ASCII part of `Antonioni complotter?.jpg` is Italian, so the reading
/// that makes the last letter Italian is the likelier one. The extension
/// does not count.
pub(crate) fn ascii_fit(name: &[u8]) -> [f64; N] {
    let t = tables();
    let body = match name.iter().rposition(|&b| b == b'.') {
        Some(dot) if name.len() - dot <= 6 && dot > 0 => name.get(..dot).unwrap_or(name),
        _ => name,
    };
    let mut sums = [0u32; N];
    let latin: Vec<usize> = (0..N).filter(|&l| lang_script(l) == Script::Latin).collect();
    let mut i = 0;
    let mut any = false;
    while i < body.len() {
        if !body[i].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let start = i;
        while i < body.len() && body[i].is_ascii_alphabetic() {
            i += 1;
        }
        let word = &body[start..i];
        let open = start == 0 || body.get(start - 1).is_some_and(|&b| b < 0x80);
        let close = body.get(i).is_none_or(|&b| b < 0x80);
        let mut seq: Vec<u8> = Vec::with_capacity(word.len() + 2);
        if open {
            seq.push(b'^');
        }
        seq.extend(word.iter().map(u8::to_ascii_lowercase));
        if close {
            seq.push(b'$');
        }
        for w in seq.windows(2) {
            any = true;
            let row = t.ascii.get(&(w[0], w[1]));
            for &l in &latin {
                let c = row
                    .and_then(|r| r.get(l))
                    .copied()
                    .filter(|&v| v != ABSENT)
                    .map_or(ASCII_UNSEEN, u32::from);
                if let Some(s) = sums.get_mut(l) {
                    *s += c;
                }
            }
        }
    }
    let mut out = [0.0; N];
    if !any {
        return out;
    }
    let min = latin.iter().filter_map(|&l| sums.get(l)).copied().min().unwrap_or(0);
    for &l in &latin {
        if let (Some(o), Some(&s)) = (out.get_mut(l), sums.get(l)) {
            *o = f64::from(s - min);
        }
    }
    out
}

/// Lowercase as the tables are (final sigma costs what sigma costs).
fn fold(c: char) -> char {
    props().fold.get(c as usize).copied().unwrap_or_else(|| fold_slow(c))
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

fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x300..=0x36F | 0x591..=0x5C7 | 0x610..=0x61A | 0x64B..=0x65F | 0xE31 | 0xE34..=0xE3A | 0xE47..=0xE4E)
}

/// A combining mark belongs to its base's script: Thai vowel and tone
/// marks on Thai consonants, Hebrew points on Hebrew, Latin/Greek/Cyrillic
/// diacritics (U+0300..U+036F) on those.
fn mark_fits(base: char, mark: char) -> bool {
    let base_script = if is_mark(base) { script(mark) } else { script(base) };
    match mark as u32 {
        0x300..=0x36F => matches!(base_script, Script::Latin | Script::Greek | Script::Cyrillic),
        _ => base_script == script(mark),
    }
}

/// Properties of the characters below [`PROPS_END`] (every alphabet names
/// are decoded into), looked up once: scoring asks them of every
/// character of every reading.
const PROPS_END: u32 = 0x3100;
const P_ALPHA: u8 = 1;
const P_NUMERIC: u8 = 2;
const P_UPPER: u8 = 4;
const P_LOWER: u8 = 8;
const P_SPACE: u8 = 16;

struct Props {
    flags: Vec<u8>,
    fold: Vec<char>,
}

fn props() -> &'static Props {
    static P: OnceLock<Props> = OnceLock::new();
    P.get_or_init(|| {
        let mut flags = Vec::with_capacity(PROPS_END as usize);
        let mut folds = Vec::with_capacity(PROPS_END as usize);
        for u in 0..PROPS_END {
            let c = char::from_u32(u).unwrap_or('\0');
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
        }
        Props { flags, fold: folds }
    })
}

fn flags(c: char) -> Option<u8> {
    props().flags.get(c as usize).copied()
}

/// `char::is_alphabetic`, from the property table where it can.
fn alpha(c: char) -> bool {
    match c as u32 {
        0x41..=0x5A | 0x61..=0x7A => true,
        0..=0x7F => false,
        0x4E00..=0x9FFF | 0xAC00..=0xD7A3 => true,
        _ => flags(c).map_or_else(|| c.is_alphabetic(), |f| f & P_ALPHA != 0),
    }
}

fn upper(c: char) -> bool {
    flags(c).map_or_else(|| c.is_uppercase(), |f| f & P_UPPER != 0)
}

fn lower(c: char) -> bool {
    flags(c).map_or_else(|| c.is_lowercase(), |f| f & P_LOWER != 0)
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

fn is_letterlike(c: char) -> bool {
    alnum(c) || is_mark(c)
}

/// Thai has no generated table: these tiers are hand-set from the
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

/// Thai spelling no word has: a vowel or tone mark above or below that is
/// not on a consonant (or on a vowel mark, for a tone), a leading vowel
/// (เ แ โ ใ ไ) not followed by a consonant, a following vowel (ะ า ำ)
/// after no consonant or mark.
fn thai_penalty(chars: &[char]) -> f64 {
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

/// Cost of one character under one language, in bits.
fn char_cost(c: char, lower: char, row: Option<&[u8; N]>, lang: usize) -> u32 {
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

/// What a character costs by its unigram alone in the cheapest of `langs`
/// (a rough rank of a big listing's readings before full scoring).
pub(crate) fn unigram_min(c: char, langs: &[usize]) -> u32 {
    let lower = fold(c);
    let row = tables().unigram.get(&lower);
    langs
        .iter()
        .map(|&l| char_cost(c, lower, row, l))
        .min()
        .unwrap_or(ALIEN)
}

/// What letter `b` costs after letter `a` in the cheapest of `langs` (its
/// bigram, or its unigram plus `a`'s escape): the rough rank's pairs.
pub(crate) fn pair_min(a: char, b: char, langs: &[usize]) -> u32 {
    let t = tables();
    let (la, lb) = (fold(a), fold(b));
    let bi = t.bigram.get(&(la, lb));
    let uni = t.unigram.get(&lb);
    let esc = t.escape.get(&la);
    langs
        .iter()
        .map(|&l| {
            if matches!(lang_script(l), Script::Cjk | Script::Thai) {
                return char_cost(b, lb, uni, l);
            }
            match bi.and_then(|r| r.get(l)).copied().filter(|&v| v != ABSENT) {
                Some(v) => u32::from(v),
                None => char_cost(b, lb, uni, l) + escape(esc, l),
            }
        })
        .min()
        .unwrap_or(ALIEN)
}

/// Bits for letters of CJK or Thai touching letters of another script
/// ("写真ABC", "iPhone备份").
const GLUED: u32 = 4;

/// What the rough rank of a big listing's readings knows of a character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rough {
    pub letter: bool,
    pub upper: bool,
    /// A symbol (not a quote mark) that costs bits beside a letter.
    pub sym: bool,
    pub script: Script,
}

pub(crate) fn rough_class(c: char) -> Rough {
    let k = class(c);
    Rough {
        letter: k.alpha,
        upper: k.upper,
        sym: k.sym && !matches!(c, '‘' | '’' | '“' | '”' | '„' | '«' | '»' | '…'),
        script: k.script,
    }
}

/// The structure penalties of [`structure_penalty`] between two adjacent
/// characters that the rough rank charges: letters of two scripts
/// touching, a symbol beside a letter, two symbols, a capital after a
/// letter.
pub(crate) fn rough_pair(a: Rough, b: Rough) -> u32 {
    let mut p = 0;
    if a.letter && b.letter && a.script != b.script && a.script != Script::Other && b.script != Script::Other {
        p += if matches!(a.script, Script::Cjk | Script::Thai) || matches!(b.script, Script::Cjk | Script::Thai) {
            GLUED
        } else {
            20
        };
    }
    if (a.sym && b.letter) || (a.letter && b.sym) {
        p += 6;
    }
    if a.sym && b.sym {
        p += 10;
    }
    if a.letter && b.upper {
        p += 3;
    }
    p
}

/// The best explanation of a text: total bits and the bits
/// spent on non-ASCII characters (for the "is this a decoding at all" test).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Score {
    pub bits: f64,
    pub non_ascii: usize,
    pub non_ascii_bits: f64,
    /// Bits per non-ASCII character above what the script of the language
    /// allows (CJK 14, Thai 6.5, alphabets 12), in the language where that
    /// is least: at most 0 for a plausible text.
    pub excess: f64,
    /// The structure penalties (no unigram sees them) in those bits.
    pub penalty: f64,
}

/// Scores a candidate decoding; `compat(lang)` is the extra cost of reading
/// the text in that language under the candidate charset. `None` if the
/// text holds a character no name holds.
pub(crate) fn score(text: &str, compat: impl Fn(usize) -> f64) -> Option<Score> {
    score_in(text, None, compat)
}

/// [`score`], in the languages `only` (all when `None`).
pub(crate) fn score_in(text: &str, only: Option<&[usize]>, compat: impl Fn(usize) -> f64) -> Option<Score> {
    let mut chars: Vec<char> = Vec::with_capacity(text.len());
    chars.extend(text.chars());
    if chars.iter().any(|&c| impossible(c)) {
        return None;
    }
    let penalty = structure_penalty(&chars);
    let t = tables();
    let lowers: Vec<(char, Option<&[u8; N]>)> = chars
        .iter()
        .map(|&c| {
            let l = fold(c);
            (l, t.unigram.get(&l))
        })
        .collect();
    // The escape rows (a follower never seen) of each character and of "^".
    let escapes: Vec<Option<&[u8; N]>> = lowers.iter().map(|(l, _)| t.escape.get(l)).collect();
    let start_escape = t.escape.get(&'^');
    // Bigram rows for each adjacent pair of letters with a non-ASCII one.
    let pairs: Vec<Option<Option<&[u8; N]>>> = (0..chars.len())
        .map(|i| {
            let (a, b) = (chars.get(i.checked_sub(1)?)?, chars.get(i)?);
            let letters = is_letterlike(*a) && is_letterlike(*b) && !(a.is_ascii() && b.is_ascii());
            letters.then(|| t.bigram.get(&(lowers[i - 1].0, lowers[i].0)))
        })
        .collect();
    // A non-ASCII letter that starts or ends a word: P(letter | word start)
    // and P(word end | letter), "^" and "$" in the bigram table.
    let starts: Vec<Option<&[u8; N]>> = (0..chars.len())
        .map(|i| {
            let first = !lowers[i].0.is_ascii()
                && alpha(chars[i])
                && !i
                    .checked_sub(1)
                    .and_then(|j| chars.get(j))
                    .is_some_and(|&p| is_letterlike(p));
            if first {
                t.bigram.get(&('^', lowers[i].0)).or(Some(&[ABSENT; N]))
            } else {
                None
            }
        })
        .collect();
    let ends: Vec<Option<&[u8; N]>> = (0..chars.len())
        .map(|i| {
            let last = !lowers[i].0.is_ascii()
                && is_letterlike(chars[i])
                && !chars.get(i + 1).is_some_and(|&n| is_letterlike(n));
            if last {
                t.bigram.get(&(lowers[i].0, '$')).or(Some(&[ABSENT; N]))
            } else {
                None
            }
        })
        .collect();
    let non_ascii = chars.iter().filter(|c| !c.is_ascii()).count();
    // Only languages written in a script of the text's non-ASCII letters can
    // explain it (the others pay 24 bits a letter): skip the rest.
    let scripts: u16 = chars
        .iter()
        .filter(|&&c| !c.is_ascii() && alpha(c))
        .map(|&c| script(c))
        .filter(|&s| s != Script::Other)
        .fold(0, |m, s| m | 1 << (s as u16));
    let mut best: Option<Score> = None;
    for lang in 0..N {
        if scripts != 0 && scripts & (1 << (lang_script(lang) as u16)) == 0 {
            continue;
        }
        if only.is_some_and(|o| !o.contains(&lang)) {
            continue;
        }
        let alphabetic = !matches!(lang_script(lang), Script::Cjk | Script::Thai);
        let mut bits = 0u32;
        let mut na = 0u32;
        for (i, (&c, &(lower, row))) in chars.iter().zip(&lowers).enumerate() {
            let base = char_cost(c, lower, row, lang);
            let mut cost = base;
            if alphabetic {
                if let Some(Some(pair)) = pairs.get(i) {
                    match pair.and_then(|r| r.get(lang)).copied().filter(|&v| v != ABSENT) {
                        Some(b) => cost = u32::from(b),
                        // ß: see char_cost
                        None if lower == 'ß' || lowers.get(i.wrapping_sub(1)).is_some_and(|p| p.0 == 'ß') => {}
                        None => cost += escape(escapes.get(i.wrapping_sub(1)).copied().flatten(), lang),
                    }
                }
            }
            if alphabetic {
                if let Some(row) = starts.get(i).copied().flatten() {
                    match row.get(lang).copied().filter(|&v| v != ABSENT) {
                        Some(b) => cost = u32::from(b),
                        None => cost += escape(start_escape, lang),
                    }
                }
                if let Some(row) = ends.get(i).copied().flatten() {
                    cost += row
                        .get(lang)
                        .copied()
                        .filter(|&v| v != ABSENT)
                        .map_or_else(|| escape(escapes.get(i).copied().flatten(), lang), u32::from);
                }
            }
            // Bits spent on the non-ASCII part: non-ASCII characters, and
            // the bigram surcharge an ASCII letter pays next to one.
            na += if c.is_ascii() { cost.saturating_sub(base) } else { cost };
            bits += cost;
        }
        let total = f64::from(bits) + penalty + compat(lang);
        let na = f64::from(na) + penalty;
        let limit = match lang_script(lang) {
            Script::Cjk => 14.0,
            Script::Thai => 6.5,
            _ => 14.0,
        };
        let excess = na / non_ascii.max(1) as f64 - limit;
        match &mut best {
            None => {
                best = Some(Score {
                    bits: total,
                    non_ascii,
                    non_ascii_bits: na,
                    excess,
                    penalty,
                })
            }
            Some(b) => {
                b.bits = b.bits.min(total);
                b.non_ascii_bits = b.non_ascii_bits.min(na);
                b.excess = b.excess.min(excess);
            }
        }
    }
    best
}

/// Bits per character over the CJK limit that [`clear`] allows (under the
/// lenient limit of per_name.rs).
const CLEAR_CJK_OVER: u32 = 3;

/// A reading so clearly text of one of `langs` that scoring it in full
/// cannot make it implausible: letters only (no symbols, no Thai, no
/// capital inside a word, no letter thrice in a row), each in the
/// language's table at most 4 bits over the script's limit, and on
/// average 3 bits under it. Used to decide the names of a big listing in
/// the charset its sample established without scoring each in full.
pub(crate) fn clear(text: &str, langs: &[usize]) -> bool {
    let t = tables();
    let mut chars: Vec<char> = Vec::with_capacity(text.len());
    chars.extend(text.chars());
    if chars
        .windows(3)
        .any(|w| !w[0].is_ascii() && w[0] == w[1] && w[1] == w[2])
    {
        return false;
    }
    let mut rows: Vec<&[u8; N]> = Vec::with_capacity(chars.len());
    let mut prev_alpha = false;
    for &c in &chars {
        let a = alpha(c);
        if !c.is_ascii() {
            if !a || (prev_alpha && upper(c)) || script(c) == Script::Thai {
                return false;
            }
            match t.unigram.get(&fold(c)) {
                Some(r) => rows.push(r),
                None if script(c) == Script::Cjk => rows.push(&[ABSENT; N]),
                None => return false,
            }
        }
        prev_alpha = a;
    }
    if rows.is_empty() {
        return false;
    }
    langs.iter().any(|&lang| {
        let n = rows.len() as u32;
        if lang_script(lang) == Script::Cjk {
            // No bigrams for CJK: the unigrams are the score. Within the
            // lenient limit of a directory's established charset.
            let sum: u32 = rows
                .iter()
                .map(|r| r.get(lang).copied().filter(|&v| v != ABSENT).map_or(OOV_CJK, u32::from))
                .sum();
            return sum <= (14 + CLEAR_CJK_OVER) * n;
        }
        let limit = 12;
        let mut sum = 0u32;
        for r in &rows {
            match r.get(lang).copied().filter(|&v| v != ABSENT) {
                Some(v) if u32::from(v) <= limit + 4 => sum += u32::from(v),
                _ => return false,
            }
        }
        sum + 3 * n <= limit * n
    })
}

/// A text whose structure no name has: a combining mark without a base
/// of its script, or letters of two scripts touching.
pub(crate) fn absurd(text: &str) -> bool {
    let mut chars: Vec<char> = Vec::with_capacity(text.len());
    chars.extend(text.chars());
    chars.first().is_some_and(|&c| is_mark(c))
        || chars.windows(2).any(|w| {
            let (a, b) = (w[0], w[1]);
            (is_mark(b) && (!is_letterlike(a) || !mark_fits(a, b)))
                || (alpha(a)
                    && alpha(b)
                    && script(a) != script(b)
                    && script(a) != Script::Other
                    && script(b) != Script::Other)
        })
}

/// Bits for a lowercase Greek word of four letters or more with no accent.
const GREEK_UNACCENTED: f64 = 8.0;

fn greek_accented(c: char) -> bool {
    matches!(
        c,
        'ά' | 'έ' | 'ή' | 'ί' | 'ό' | 'ύ' | 'ώ' | 'ΐ' | 'ΰ' | 'Ά' | 'Έ' | 'Ή' | 'Ί' | 'Ό' | 'Ύ' | 'Ώ'
    )
}

/// What [`structure_penalty`] asks of each character, asked once.
#[derive(Clone, Copy)]
struct Class {
    alpha: bool,
    sym: bool,
    mark: bool,
    letterlike: bool,
    upper: bool,
    lower: bool,
    script: Script,
}

fn class(c: char) -> Class {
    let alpha = alpha(c);
    let mark = is_mark(c);
    let alnum = alpha || alnum(c);
    Class {
        alpha,
        // A symbol: not a letter, digit, mark, space, Persian ZWNJ or CJK
        // punctuation.
        sym: !c.is_ascii()
            && !alnum
            && !mark
            && !flags(c).map_or_else(|| c.is_whitespace(), |f| f & P_SPACE != 0)
            && !matches!(c as u32, 0x200C | 0x3000..=0x303F | 0x30FB | 0xFF01..=0xFF65),
        mark,
        letterlike: alnum || mark,
        upper: upper(c),
        lower: lower(c),
        script: script(c),
    }
}

/// Penalties no unigram sees.
fn structure_penalty(chars: &[char]) -> f64 {
    let cl: Vec<Class> = chars.iter().map(|&c| class(c)).collect();
    let mut p = 0.0;
    // Capitals inside a non-ASCII word: all-caps words are rare in names,
    // a capital run that turns lowercase ("ВЛГк") rarer still.
    let mut caps_run = 0;
    for (i, (&c, k)) in chars.iter().zip(&cl).enumerate() {
        let prev_letter = i > 0 && cl.get(i - 1).is_some_and(|p| p.alpha);
        if k.upper && !c.is_ascii() && prev_letter {
            p += 3.0;
        }
        if k.upper {
            caps_run += 1;
        } else {
            if k.lower && caps_run >= 2 && !c.is_ascii() {
                p += 8.0;
            }
            caps_run = 0;
        }
    }
    if cl.iter().any(|k| k.script == Script::Thai) {
        p += thai_penalty(chars);
    }
    // Modern Greek puts at most one accent on a word, and one on every
    // word of two syllables or more: a lowercase word of four letters
    // without one is not Greek (it is bytes of another alphabet).
    if cl.iter().any(|k| k.script == Script::Greek) {
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
        for (&c, k) in chars.iter().zip(&cl) {
            if greek_accented(c) {
                accents += 1;
                if accents > 1 {
                    p += 10.0;
                }
            } else if !k.alpha {
                accents = 0;
            }
        }
    }
    let quote = |c: char| matches!(c, '‘' | '’' | '“' | '”' | '„' | '«' | '»' | '…');
    // A symbol between two letters ("§Ї§а", "Њ©ђ"): double-byte text read
    // one byte at a time.
    // (An apostrophe between letters is a letter of the word: d’images.)
    for (i, w) in cl.windows(3).enumerate() {
        if w[0].alpha && w[1].sym && w[2].alpha && !chars.get(i + 1).is_some_and(|&c| matches!(c, '’' | 'ʼ')) {
            p += 10.0;
        }
    }
    for (i, w) in cl.windows(2).enumerate() {
        let (ka, kb) = (w[0], w[1]);
        let (Some(&a), Some(&b)) = (chars.get(i), chars.get(i + 1)) else {
            continue;
        };
        // Two non-ASCII symbols in a row ("’‘", "……", "”“").
        if ka.sym && kb.sym {
            p += 10.0;
        }
        // Box drawing, math, currency and the like touching a letter.
        if (ka.sym && !quote(a) && kb.alpha) || (ka.alpha && kb.sym && !quote(b)) {
            p += 6.0;
        }
    }
    // One character at every other place ("งถงเงไง", "„K„~„y"): the lead
    // byte of a double-byte encoding of an alphabet, read one byte at a time.
    let alternations = chars
        .windows(3)
        .filter(|w| w[0] == w[2] && w[0] != w[1] && !w[0].is_ascii())
        .count();
    if alternations >= 3 && alternations * 4 >= chars.len() {
        p += 4.0 * alternations as f64;
    }
    for (i, w) in cl.windows(2).enumerate() {
        let (ka, kb) = (w[0], w[1]);
        let (Some(&a), Some(&b)) = (chars.get(i), chars.get(i + 1)) else {
            continue;
        };
        if kb.mark && (!ka.letterlike || !mark_fits(a, b)) {
            p += 15.0;
        }
        if ka.alpha && kb.alpha && ka.lower && kb.upper && !(a.is_ascii() && b.is_ascii()) {
            p += 10.0;
        }
        let (sa, sb) = (ka.script, kb.script);
        if sa != sb && sa != Script::Other && sb != Script::Other && (!kb.mark || mark_fits(a, b)) {
            // Latin letters glued to CJK happen ("写真ABC"); to another
            // alphabet hardly ever ("dwanaе" is a Latin word and a stray
            // byte read as Cyrillic). Thai, written without spaces,
            // touches Latin as CJK does.
            p += if matches!(sa, Script::Cjk | Script::Thai) || matches!(sb, Script::Cjk | Script::Thai) {
                f64::from(GLUED)
            } else {
                20.0
            };
        }
    }
    if cl.first().is_some_and(|k| k.mark) {
        p += 15.0;
    }
    p + noise_penalty(chars)
}

/// A run of one or two non-ASCII letters repeated ("яяяя", "юяюя",
/// "ЪЧЪЧ"): what `FF FF FF FF` and `FF FE FF FE` read as. No word is made
/// so; a name that is one is noise.
/// Bits per repetition of [`noise_penalty`].
const NOISE: f64 = 48.0;

fn noise_penalty(chars: &[char]) -> f64 {
    let mut p = 0.0;
    let letter = |c: char| !c.is_ascii() && alpha(c);
    for w in chars.windows(3) {
        if w.iter().all(|&c| letter(c)) && w[0] == w[1] && w[1] == w[2] {
            p += NOISE;
        }
    }
    // Two letters alternating, when they are the whole run of non-ASCII
    // letters ("юяюя", not the "попо" of "Филипопол").
    let mut i = 0;
    while i < chars.len() {
        if !chars.get(i).is_some_and(|&c| letter(c)) {
            i += 1;
            continue;
        }
        let start = i;
        while chars.get(i).is_some_and(|&c| letter(c)) {
            i += 1;
        }
        let run = chars.get(start..i).unwrap_or_default();
        let (Some(&a), Some(&b)) = (run.first(), run.get(1)) else {
            continue;
        };
        let alternating = a != b
            && run.len() >= 4
            && run
                .iter()
                .enumerate()
                .all(|(k, &c)| c == if k % 2 == 0 { a } else { b });
        if alternating {
            p += NOISE * (run.len() - 3) as f64;
        }
        // A word of an alphabet that is one letter twice ("ЧЧ", "ÿÿ": FE FE,
        // FF FF); CJK names do double a character (婷婷).
        if run.len() == 2 && a == b && !matches!(script(a), Script::Cjk | Script::Thai) {
            p += NOISE;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_indices() {
        assert_eq!(LANGS.get(DE), Some(&"de"));
        assert_eq!(LANGS.get(ES), Some(&"es"));
        for (i, l) in LANGS.iter().enumerate() {
            let s = lang_script(i);
            match *l {
                "ja" | "zh" | "ko" | "zt" => assert_eq!(s, Script::Cjk),
                "ru" | "uk" | "bg" | "mk" => assert_eq!(s, Script::Cyrillic),
                "el" => assert_eq!(s, Script::Greek),
                "ar" | "fa" => assert_eq!(s, Script::Arabic),
                "he" => assert_eq!(s, Script::Hebrew),
                "th" => assert_eq!(s, Script::Thai),
                _ => assert_eq!(s, Script::Latin),
            }
        }
    }

    #[test]
    fn tables_load_and_rank() {
        let t = &tables().unigram;
        assert!(t.len() > 5000, "{}", t.len());
        assert!(tables().bigram.len() > 5000, "{}", tables().bigram.len());
        let ja = lang_index("ja").unwrap();
        let no = t.get(&'の').unwrap()[ja];
        let rare = t.get(&'乞').map_or(255, |r| r[ja]);
        assert!(no < rare);
    }

    #[test]
    fn scores_prefer_real_text() {
        let none = |_| 0.0;
        let good = score("Фотографии", none).unwrap().bits;
        let koi = score("фОТОГРАФИИ", none).unwrap().bits;
        assert!(good < koi, "{good} {koi}");
        assert!(score("a\u{85}b", none).is_none());
        assert!(score("\u{E000}", none).is_none());
    }
}
