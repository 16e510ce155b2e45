//! The plausibility model behind per-name detection: how many bits a text
//! costs as a file name in the language that explains it best.
//!
//! Cost of a text under language `L` = sum over its characters of
//! `-log2 P(char | L)` from the generated unigram tables (`charfreq.txt`,
//! lowercased characters), fixed costs for ASCII, punctuation and symbols,
//! plus structural penalties that no unigram sees (a capital after a small
//! letter inside a non-ASCII word, letters of two scripts touching, a
//! combining mark after a non-letter). An acronym (two or three non-ASCII
//! capitals, `КНР`) is priced as the first letters of words, plus a fixed
//! cost, not as letters of one word. Characters that no file name holds
//! (C0/C1 controls, private use, noncharacters, U+FFFD) make the text
//! impossible: [`score`] returns `None`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

mod score;

pub(crate) use score::{score, score_in, score_langs, Score};

/// Languages of the tables (`charfreq.txt`'s codes).
pub(crate) const LANGS: &[&str] = &[
    "ja", "zh", "ko", "ru", "uk", "bg", "mk", "el", "ar", "fa", "he", "tr", "vi", "pl", "cs", "sk", "sl", "hu", "ro",
    "de", "fr", "es", "pt", "it", "nl", "ca", "sv", "da", "nb", "fi", "lt", "lv", "zt", "th", "is", "et", "hr",
];
const N: usize = 37;
/// How many languages the tables have.
pub(crate) const LANG_COUNT: usize = N;
const ABSENT: u8 = u8::MAX;
/// A table row with no entry.
static ABSENT_ROW: [u8; N] = [ABSENT; N];

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

pub(crate) fn lang_script(lang: usize) -> Script {
    use Script::{Arabic, Cjk, Cyrillic, Greek, Hebrew, Latin, Thai};
    // In the order of LANGS.
    const SCRIPTS: [Script; N] = [
        Cjk, Cjk, Cjk, Cyrillic, Cyrillic, Cyrillic, Cyrillic, Greek, Arabic, Arabic, Hebrew, Latin, Latin, Latin,
        Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin, Latin,
        Latin, Latin, Cjk, Thai, Latin, Latin, Latin,
    ];
    SCRIPTS.get(lang).copied().unwrap_or(Script::Other)
}

/// Indices of two languages with characters of their own in `char_cost`.
const DE: usize = 19;
const ES: usize = 21;

/// Whether a language is written in the Latin script.
pub(crate) fn latin(lang: usize) -> bool {
    lang_script(lang) == Script::Latin
}

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

/// Cost of an ASCII letter pair a Latin-script language's table lacks.
const ASCII_UNSEEN: u32 = 16;

/// How well each language explains the ASCII words of a name, in bits
/// above the best-fitting Latin-script language (0 for the languages of
/// other scripts, whose names hold ASCII words of any language): the
/// ASCII part of `Antonioni complotter?.jpg` is Italian, so the reading
/// that makes the last letter Italian is the likelier one. The extension
/// does not count.
pub(crate) fn ascii_fit(name: &[u8]) -> [f64; N] {
    let dense = ascii_dense();
    let body = match name.iter().rposition(|&b| b == b'.') {
        Some(dot) if name.len() - dot <= 6 && dot > 0 => name.get(..dot).unwrap_or(name),
        _ => name,
    };
    let mut sums = [0u32; N];
    let mut add = |a: usize, b: usize| {
        if let Some(row) = dense.get(a * ASCII_SYMBOLS + b) {
            for (s, &c) in sums.iter_mut().zip(row) {
                *s += u32::from(c);
            }
        }
    };
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
        // The word's letters (and "^", "$" when it starts or ends at an
        // ASCII byte or the name's ends) as pairs of symbols.
        let mut prev = open.then_some(ASCII_START);
        for &b in word {
            let here = usize::from(b.to_ascii_lowercase() - b'a');
            if let Some(p) = prev {
                add(p, here);
                any = true;
            }
            prev = Some(here);
        }
        if let (true, Some(p)) = (close, prev) {
            add(p, ASCII_END);
            any = true;
        }
    }
    let mut out = [0.0; N];
    if !any {
        return out;
    }
    let latin = (0..N).filter(|&l| lang_script(l) == Script::Latin);
    let min = latin.clone().filter_map(|l| sums.get(l)).copied().min().unwrap_or(0);
    for l in latin {
        if let (Some(o), Some(&s)) = (out.get_mut(l), sums.get(l)) {
            *o = f64::from(s - min);
        }
    }
    out
}

/// The symbols of [`ascii_dense`]: `a`..`z`, word start, word end.
const ASCII_SYMBOLS: usize = 28;
const ASCII_START: usize = 26;
const ASCII_END: usize = 27;

/// The ASCII letter pairs' bits per Latin-script language (0 for the
/// others), [`ASCII_UNSEEN`] for a pair the table lacks, as a dense table
/// of [`ASCII_SYMBOLS`] x [`ASCII_SYMBOLS`] rows.
fn ascii_dense() -> &'static [[u8; N]] {
    static D: OnceLock<Vec<[u8; N]>> = OnceLock::new();
    D.get_or_init(|| {
        let t = tables();
        let byte = |s: usize| match s {
            ASCII_START => b'^',
            ASCII_END => b'$',
            _ => b'a' + u8::try_from(s).unwrap_or(0),
        };
        let mut out = Vec::with_capacity(ASCII_SYMBOLS * ASCII_SYMBOLS);
        for a in 0..ASCII_SYMBOLS {
            for b in 0..ASCII_SYMBOLS {
                let row = t.ascii.get(&(byte(a), byte(b)));
                let mut dense = [0u8; N];
                for (l, d) in dense.iter_mut().enumerate() {
                    if lang_script(l) != Script::Latin {
                        continue;
                    }
                    let c = row
                        .and_then(|r| r.get(l))
                        .copied()
                        .filter(|&v| v != ABSENT)
                        .map_or(ASCII_UNSEEN, u32::from);
                    *d = u8::try_from(c).unwrap_or(u8::MAX);
                }
                out.push(dense);
            }
        }
        out
    })
}

/// Lowercase as the tables are (final sigma costs what sigma costs).
fn fold(c: char) -> char {
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
/// are decoded into, kana, Hangul jamo, CJK symbols) and from [`PROPS_HIGH`] (compatibility
/// ideographs, presentation forms, full- and half-width forms), looked up
/// once: scoring asks them of every character of every reading.
const PROPS_END: u32 = 0x3400;
const PROPS_HIGH: u32 = 0xF900;

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
    /// The unigram and escape rows of each character (as a lowercased
    /// character of the tables).
    unigram: Vec<Option<&'static [u8; N]>>,
    escape: Vec<Option<&'static [u8; N]>>,
}

fn props() -> &'static Props {
    static P: OnceLock<Props> = OnceLock::new();
    P.get_or_init(|| {
        let t = tables();
        let mut flags = Vec::with_capacity(PROPS_END as usize);
        let mut folds = Vec::with_capacity(PROPS_END as usize);
        let mut class = Vec::with_capacity(PROPS_END as usize);
        let mut unigram = Vec::with_capacity(PROPS_END as usize);
        let mut escape = Vec::with_capacity(PROPS_END as usize);
        for u in (0..PROPS_END).chain(PROPS_HIGH..=0xFFFF) {
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
            class.push(class_of(c, f));
            unigram.push(t.unigram.get(&c));
            escape.push(t.escape.get(&c));
        }
        Props {
            flags,
            fold: folds,
            class,
            unigram,
            escape,
        }
    })
}

fn flags(c: char) -> Option<u8> {
    props().flags.get(prop_index(c)).copied()
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
    let row = unigram_row(lower);
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
    let uni = unigram_row(lb);
    let esc = escape_row(la);
    langs
        .iter()
        .map(|&l| {
            if lang_script(l) == Script::Cjk {
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
    clear_chars(text.chars(), langs)
}

/// [`clear`] of the characters of a text.
pub(crate) fn clear_chars(text: impl Iterator<Item = char> + Clone, langs: &[usize]) -> bool {
    let limit = 12;
    // Letters only, no capital inside a word, no Thai, no letter thrice,
    // every one in the tables (or CJK).
    let mut n = 0u32;
    let mut prev_alpha = false;
    let (mut p2, mut p1) = ('\0', '\0');
    for c in text.clone() {
        if c.is_ascii() {
            prev_alpha = c.is_ascii_alphabetic();
            (p2, p1) = (p1, c);
            continue;
        }
        let k = class(c);
        if (c == p1 && c == p2) || !k.alpha || (prev_alpha && k.upper) || k.script == Script::Thai {
            return false;
        }
        if unigram_row(fold(c)).is_none() && k.script != Script::Cjk {
            return false;
        }
        n += 1;
        prev_alpha = true;
        (p2, p1) = (p1, c);
    }
    if n == 0 {
        return false;
    }
    // Per language (in the order of `langs`): the sum of the non-ASCII
    // characters' unigrams, and whether one is missing or over the limit.
    let mut sums = [0u32; N];
    let mut over = [false; N];
    for c in text.filter(|c| !c.is_ascii()) {
        let row = unigram_row(fold(c)).unwrap_or(&ABSENT_ROW);
        for ((&lang, sum), over) in langs.iter().zip(&mut sums).zip(&mut over) {
            let v = row.get(lang).copied().filter(|&v| v != ABSENT);
            if lang_script(lang) == Script::Cjk {
                *sum += v.map_or(OOV_CJK, u32::from);
            } else {
                match v {
                    Some(v) if u32::from(v) <= limit + 4 => *sum += u32::from(v),
                    _ => *over = true,
                }
            }
        }
    }
    langs.iter().zip(&sums).zip(&over).any(|((&lang, &sum), &over)| {
        if lang_script(lang) == Script::Cjk {
            // No bigrams for CJK: the unigrams are the score. Within the
            // lenient limit of a directory's established charset.
            return sum <= (14 + CLEAR_CJK_OVER) * n;
        }
        !over && sum + 3 * n <= limit * n
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
fn unigram_row(lower: char) -> Option<&'static [u8; N]> {
    match props().unigram.get(prop_index(lower)) {
        Some(&row) => row,
        None => tables().unigram.get(&lower),
    }
}

/// The escape row of a lowercased character (what a follower never seen
/// after it costs).
fn escape_row(lower: char) -> Option<&'static [u8; N]> {
    match props().escape.get(prop_index(lower)) {
        Some(&row) => row,
        None => tables().escape.get(&lower),
    }
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
    fn apostrophes_and_quotes_inside_words() {
        let none = |_| 0.0;
        let bits = |t: &str| score(t, none).unwrap().bits;
        // An elision or a contraction costs what the quote costs anywhere;
        // a quote inside another word (macintosh's í read in
        // windows-1252) and an opening quote that ends a word cost more.
        let elided = bits("d’image") - bits("d image");
        assert!(bits("R’os") - bits("R os") > elided, "{elided}");
        // (an elision comes before a vowel)
        assert!(bits("M’nguez") - bits("M nguez") > bits("m’image") - bits("m image"));
        assert!(bits("it’s") - bits("it s") <= elided + 0.5);
        assert!(bits("Jordani‘") > bits("Jordani’"));
        // ... but not after a low quote that it closes (German).
        assert!(bits("„Jordani‘") - bits("„Jordani’") < bits("Jordani‘") - bits("Jordani’"));
        // Ukrainian writes an apostrophe inside Cyrillic words.
        assert!(bits("п’ять") < bits("п‘ять"));
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
