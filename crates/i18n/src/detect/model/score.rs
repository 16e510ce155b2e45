//! Scoring a reading: its bits in the language that explains it best,
//! with the structure penalties no unigram sees.

use super::chars::{class, escape_row, fold, impossible, mark_fits, script, unigram_row, Class};
use super::cost::{char_cost, escape, GLUED};
use super::langs::{lang_script, Script, IT, N};
use super::tables::{tables, ABSENT, ABSENT_ROW};
use super::thai::thai_penalty;
use super::words::{known_words, unpaired_cjk_runs, UNPAIRED_CJK_RUN, WORD_BONUS};
use super::Price;

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
    /// Frequent words of a language it was scored in that the text holds
    /// (the most in any one language; issue 50, fifth pass).
    pub words: u8,
}

/// Scores a candidate decoding; `compat(lang)` is the extra cost of reading
/// the text in that language under the candidate charset. `None` if the
/// text holds a character no name holds.
pub(crate) fn score(text: &str, compat: impl Fn(usize) -> f64) -> Option<Score> {
    score_in(text, None, compat)
}

/// One character of a text being scored, with what its cost in every
/// language needs (looked up once, not once per language).
#[derive(Clone, Copy)]
struct Slot {
    c: char,
    lower: char,
    /// Its unigram row.
    row: Option<&'static [u8; N]>,
    /// The bigram row of (previous, this) when both are letters and one
    /// of them is not ASCII; and the previous letter's escape row.
    pair: Option<Option<&'static [u8; N]>>,
    escape_prev: Option<&'static [u8; N]>,
    /// This or the previous letter is ß (see `char_cost`).
    sharp: bool,
    /// A non-ASCII letter that starts a word: the row of ("^", it).
    start: Option<&'static [u8; N]>,
    /// ... that ends one: the row of (it, "$"), and its escape row.
    end: Option<&'static [u8; N]>,
    escape_here: Option<&'static [u8; N]>,
    /// An Italian accented vowel ending a word after a letter (`città`).
    it_final: bool,
}

/// [`score`], in the languages `only` (all when `None`).
pub(crate) fn score_in(text: &str, only: Option<&[usize]>, compat: impl Fn(usize) -> f64) -> Option<Score> {
    score_langs(text, only, &Price::NONE, compat, None)
}

/// [`score_in`] with what a charset charges over the tables (`price`:
/// `Candidate::price`), also writing each scored language's total bits
/// into `per_lang` (the others are left as they are).
pub(crate) fn score_langs(
    text: &str,
    only: Option<&[usize]>,
    price: &Price,
    compat: impl Fn(usize) -> f64,
    per_lang: Option<&mut [f64; N]>,
) -> Option<Score> {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => score_with(&mut scratch, text, only, price, compat, per_lang),
        Err(_) => score_with(&mut Scratch::default(), text, only, price, compat, per_lang),
    })
}

/// The buffers a scoring fills, kept from one text to the next.
#[derive(Default)]
struct Scratch {
    chars: Vec<char>,
    cl: Vec<Class>,
    slots: Vec<Slot>,
    /// Per character: a letter of an acronym ([`acronyms`]).
    acr: Vec<bool>,
    /// A word being looked up in the frequent words.
    word: String,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

fn score_with(
    scratch: &mut Scratch,
    text: &str,
    only: Option<&[usize]>,
    price: &Price,
    compat: impl Fn(usize) -> f64,
    mut per_lang: Option<&mut [f64; N]>,
) -> Option<Score> {
    let Scratch {
        chars,
        cl,
        slots,
        acr,
        word,
    } = scratch;
    chars.clear();
    chars.extend(text.chars());
    if chars.iter().any(|&c| impossible(c)) {
        return None;
    }
    cl.clear();
    cl.extend(chars.iter().map(|&c| class(c)));
    let (chars, cl) = (&chars[..], &cl[..]);
    let acronym_words = acronyms(chars, cl, acr);
    let acr = &acr[..];
    let penalty = structure_penalty(chars, cl, acr) + f64::from(ACRONYM) * acronym_words as f64;
    let t = tables();
    let start_escape = t.escape.get(&'^');
    // The characters whose cost depends on the language; an ASCII
    // character outside a letter pair with a non-ASCII one costs the same
    // in every language (`fixed`).
    slots.clear();
    let mut fixed = 0u32;
    let mut prev_lower = '\0';
    for (i, (&c, k)) in chars.iter().zip(cl).enumerate() {
        if c.is_ascii() && i.checked_sub(1).and_then(|j| chars.get(j)).is_none_or(char::is_ascii) {
            // Two ASCII characters are no letter pair of the tables.
            prev_lower = c.to_ascii_lowercase();
            fixed += char_cost(c, prev_lower, None, 0);
            continue;
        }
        let lower = fold(c);
        let prev = i.checked_sub(1).and_then(|j| Some((*chars.get(j)?, *cl.get(j)?)));
        let next_letterlike = cl.get(i + 1).is_some_and(|n| n.letterlike);
        let pair = prev
            .filter(|(p, pk)| pk.letterlike && k.letterlike && !(p.is_ascii() && c.is_ascii()))
            .map(|_| t.bigram.get(&(prev_lower, lower)));
        let before = prev_lower;
        prev_lower = lower;
        if c.is_ascii() && pair.is_none() {
            fixed += char_cost(c, lower, None, 0);
            continue;
        }
        let first = !lower.is_ascii() && k.alpha && !prev.is_some_and(|(_, pk)| pk.letterlike);
        let last = !lower.is_ascii() && k.letterlike && !next_letterlike;
        // A letter of an acronym is the first letter of a word.
        let (pair, first, last) = if acr.get(i).copied().unwrap_or(false) {
            (None, true, false)
        } else {
            (pair, first, last)
        };
        slots.push(Slot {
            c,
            lower,
            row: unigram_row(lower),
            pair,
            escape_prev: if pair.is_some() { escape_row(before) } else { None },
            sharp: lower == 'ß' || (i > 0 && before == 'ß'),
            start: first.then(|| t.bigram.get(&('^', lower)).unwrap_or(&ABSENT_ROW)),
            end: last.then(|| t.bigram.get(&(lower, '$')).unwrap_or(&ABSENT_ROW)),
            escape_here: if last { escape_row(lower) } else { None },
            it_final: last && pair.is_some() && matches!(lower, 'à' | 'ì' | 'ò' | 'ù'),
        });
    }
    let non_ascii = chars.iter().filter(|c| !c.is_ascii()).count();
    // Only languages written in a script of the text's non-ASCII letters can
    // explain it (the others pay 24 bits a letter): skip the rest.
    let scripts: u16 = chars
        .iter()
        .zip(cl)
        .filter(|(c, k)| !c.is_ascii() && k.alpha)
        .map(|(_, k)| k.script)
        .filter(|&s| s != Script::Other)
        .fold(0, |m, s| m | 1 << (s as u16));
    let known = known_words(chars, cl, word);
    let unpaired = if scripts & (1 << (Script::Cjk as u16)) != 0 {
        unpaired_cjk_runs(chars, cl)
    } else {
        [0u8; N]
    };
    let mut best: Option<Score> = None;
    for lang in 0..N {
        if scripts != 0 && scripts & (1 << (lang_script(lang) as u16)) == 0 {
            continue;
        }
        if only.is_some_and(|o| !o.contains(&lang)) {
            continue;
        }
        let alphabetic = lang_script(lang) != Script::Cjk;
        let mut bits = fixed;
        let mut na = 0u32;
        for s in slots.iter() {
            let base = char_cost(s.c, s.lower, s.row, lang);
            // (What the charset charges for it: `Price`.)
            let mut cost = if s.c.is_ascii() {
                base
            } else {
                base + price.of(s.row, lang)
            };
            if alphabetic {
                let unigram = cost;
                if let Some(pair) = s.pair {
                    match pair.and_then(|r| r.get(lang)).copied().filter(|&v| v != ABSENT) {
                        Some(b) => cost = u32::from(b),
                        // ß: see char_cost
                        None if s.sharp => {}
                        None => cost += escape(s.escape_prev, lang),
                    }
                }
                // Italian ends words on an accented vowel after any letter
                // (`città`, `sarà`, `Niccolò`, `però`): such a vowel costs
                // at most its unigram, whichever letter comes before it
                // (issue 50, twenty-seventh pass).
                if s.it_final && lang == IT {
                    cost = cost.min(unigram);
                }
                if let Some(row) = s.start {
                    match row.get(lang).copied().filter(|&v| v != ABSENT) {
                        Some(b) => cost = u32::from(b),
                        None => cost += escape(start_escape, lang),
                    }
                }
                if let Some(row) = s.end {
                    cost += row
                        .get(lang)
                        .copied()
                        .filter(|&v| v != ABSENT)
                        .map_or_else(|| escape(s.escape_here, lang), u32::from);
                }
            }
            // Bits spent on the non-ASCII part: non-ASCII characters, and
            // the bigram surcharge an ASCII letter pays next to one.
            na += if s.c.is_ascii() {
                cost.saturating_sub(base)
            } else {
                cost
            };
            bits += cost;
        }
        let bonus = f64::from(WORD_BONUS) * f64::from(known.get(lang).copied().unwrap_or(0))
            - f64::from(UNPAIRED_CJK_RUN) * f64::from(unpaired.get(lang).copied().unwrap_or(0));
        let total = f64::from(bits) + penalty + compat(lang) - bonus;
        if let Some(slot) = per_lang.as_deref_mut().and_then(|p| p.get_mut(lang)) {
            *slot = total;
        }
        let na = f64::from(na) + penalty - bonus;
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
                    words: known.get(lang).copied().unwrap_or(0),
                })
            }
            Some(b) => {
                b.bits = b.bits.min(total);
                b.non_ascii_bits = b.non_ascii_bits.min(na);
                b.excess = b.excess.min(excess);
                b.words = b.words.max(known.get(lang).copied().unwrap_or(0));
            }
        }
    }
    best
}

/// Bits for a lowercase Greek word of four letters or more with no accent.
const GREEK_UNACCENTED: f64 = 8.0;

fn greek_accented(c: char) -> bool {
    matches!(
        c,
        'ά' | 'έ' | 'ή' | 'ί' | 'ό' | 'ύ' | 'ώ' | 'ΐ' | 'ΰ' | 'Ά' | 'Έ' | 'Ή' | 'Ί' | 'Ό' | 'Ύ' | 'Ώ'
    )
}

/// What an acronym costs besides its letters (each priced as a word's
/// first letter; chosen on the validation part: 4, 5, 7, 9 and 10 bits
/// tried; 9 and more lost development names, 4 read random bytes as
/// capitals).
const ACRONYM: u32 = 7;
/// The longest acronym (3, 4 and 5 tried: 5 read random bytes as
/// ISO-8859-5 capitals, `ХЗПРХ`; 4 lost 3 development names of row 2x).
const ACRONYM_MAX: usize = 3;

/// Marks in `acr` the letters of acronyms: words of two or three capitals,
/// none ASCII (`КНР`, `ΟΤΕ`, `ОТП`), whose letters are the first letters of
/// words, not letters that follow one another in a word; returns how many.
fn acronyms(chars: &[char], cl: &[Class], acr: &mut Vec<bool>) -> usize {
    acr.clear();
    acr.resize(chars.len(), false);
    let mut words = 0;
    for std::ops::Range { start, end: i } in super::chars::words(cl.get(..chars.len()).unwrap_or(cl)) {
        let caps = (start..i)
            .all(|j| chars.get(j).is_some_and(|c| !c.is_ascii()) && cl.get(j).is_some_and(|k| k.alpha && k.upper));
        if caps && (2..=ACRONYM_MAX).contains(&(i - start)) {
            words += 1;
            for f in acr.get_mut(start..i).unwrap_or_default() {
                *f = true;
            }
        }
    }
    words
}

/// Penalties no unigram sees (`acr`: the letters of acronyms, whose
/// capitals pay none).
fn structure_penalty(chars: &[char], cl: &[Class], acr: &[bool]) -> f64 {
    // (Every penalty is a whole number of bits: they are summed in u32,
    // in one pass over the characters, pairs and triples.)
    let quote = |c: char| matches!(c, '‘' | '’' | '“' | '”' | '„' | '«' | '»' | '…');
    let mut p = 0u32;
    let mut caps_run = 0;
    let mut alternations = 0u32;
    let (mut thai, mut greek) = (false, false);
    // A DOS short name's capitals are the format's, not the name's.
    let dos = dos_short_name(chars);
    for (i, (&b, &kb)) in chars.iter().zip(cl).enumerate() {
        thai |= kb.script == Script::Thai;
        greek |= kb.script == Script::Greek;
        let prev = i.checked_sub(1).and_then(|j| Some((*chars.get(j)?, *cl.get(j)?)));
        // Capitals inside a non-ASCII word: all-caps words are rare in
        // names, a capital run that turns lowercase ("ВЛГк") rarer still.
        if kb.upper
            && !dos
            && !b.is_ascii()
            && prev.is_some_and(|(_, ka)| ka.alpha)
            && !acr.get(i).copied().unwrap_or(false)
        {
            p += 3;
        }
        if kb.upper {
            caps_run += 1;
        } else {
            if kb.lower && caps_run >= 2 && !b.is_ascii() {
                p += 8;
            }
            caps_run = 0;
        }
        let Some((a, ka)) = prev else {
            // A combining mark first.
            if kb.mark {
                p += 15;
            }
            continue;
        };
        if a.is_ascii() && b.is_ascii() {
            // No symbol, mark or script change between ASCII characters,
            // nor a symbol or an alternation around them.
            continue;
        }
        // Two non-ASCII symbols in a row ("’‘", "……", "”“").
        if ka.sym && kb.sym {
            p += 10;
        }
        // Box drawing, math, currency and the like touching a letter.
        if (ka.sym && !quote(a) && kb.alpha) || (ka.alpha && kb.sym && !quote(b)) {
            p += 6;
        }
        // An opening quote glued to the end of a word ("Jordani‘",
        // "Over“": macintosh's ë and ì read in windows-125x), where no low
        // quote opened it (German and Czech close with ‘ and “).
        if ka.letterlike && matches!(b, '‘' | '“') && !chars.iter().any(|c| matches!(c, '„' | '‚')) {
            p += OPEN_AFTER_WORD;
        }
        if kb.mark && (!ka.letterlike || !mark_fits(a, b)) {
            p += 15;
        }
        if ka.alpha && kb.alpha && ka.lower && kb.upper && !(a.is_ascii() && b.is_ascii()) {
            p += 10;
        }
        let (sa, sb) = (ka.script, kb.script);
        if sa != sb && sa != Script::Other && sb != Script::Other && (!kb.mark || mark_fits(a, b)) {
            // Latin letters glued to CJK happen ("写真ABC"); to another
            // alphabet hardly ever ("dwanaе" is a Latin word and a stray
            // byte read as Cyrillic). Thai, written without spaces,
            // touches Latin as CJK does.
            p += if matches!(sa, Script::Cjk | Script::Thai) || matches!(sb, Script::Cjk | Script::Thai) {
                GLUED
            } else {
                SCRIPTS_TOUCHING
            };
        }
        // A CJK letter glued to a small ASCII letter after it (`子uipe`:
        // macintosh's `é` and the `q` after it read as one Shift_JIS
        // character); capitals and digits after it are common (`写真ABC`).
        if ka.script == Script::Cjk && b.is_ascii_lowercase() {
            p += LOWER_AFTER_CJK;
        }
        let Some((x, kx)) = i.checked_sub(2).and_then(|j| Some((*chars.get(j)?, *cl.get(j)?))) else {
            continue;
        };
        // A symbol between two letters ("§Ї§а", "Њ©ђ"): double-byte text
        // read one byte at a time. (An apostrophe between letters is a
        // letter of the word: d’images.)
        if kx.alpha && ka.sym && kb.alpha {
            p += match a {
                // An apostrophe joins a word: two scripts joined by one
                // are two scripts touching (`com’и`: windows-1251's `и`
                // for windows-1252's `è`; issue 50). No change on the
                // development and validation parts, which hold no such
                // name.
                '’' | 'ʼ' if kx.script != kb.script => SCRIPTS_TOUCHING,
                '’' | 'ʼ' if apostrophe(chars, cl, i - 1) => 0,
                '’' | 'ʼ' => ODD_APOSTROPHE,
                _ => 10,
            };
        }
        // The ASCII apostrophe too, beside a non-ASCII letter (`com'и`,
        // `c'č`; issue 50, twenty-seventh pass): between two ASCII letters
        // it costs every reading the same.
        if kx.alpha && a == '\'' && kb.alpha && !(x.is_ascii() && b.is_ascii()) {
            p += if kx.script != kb.script {
                SCRIPTS_TOUCHING
            } else if apostrophe(chars, cl, i - 1) {
                0
            } else {
                ODD_APOSTROPHE
            };
        }
        // One character at every other place ("งถงเงไง", "„K„~„y"): the
        // lead byte of a double-byte encoding of an alphabet, read one byte
        // at a time.
        if x == b && x != a && !x.is_ascii() {
            alternations += 1;
        }
    }
    if alternations >= 3 && alternations as usize * 4 >= chars.len() {
        p += 4 * alternations;
    }
    let mut extra = 0.0;
    if thai {
        extra += thai_penalty(chars);
    }
    if greek {
        extra += greek_penalty(chars, cl);
    }
    if dos {
        // A DOS short name (`ΜΕΤΟΝΟ~1.RAR`) is all capitals: a small
        // letter in it is another charset's capital read as one (KOI8-R
        // `летомо~1.RAR`; issue 50).
        let small = chars.iter().zip(cl).filter(|(c, k)| !c.is_ascii() && k.lower).count();
        extra += SHORT_NAME_SMALL * small as f64;
    }
    extra += ACCENTS_ONLY * accents_only_words(chars, cl) as f64;
    f64::from(p) + extra + noise_penalty(chars, cl)
}

/// Bits for a Latin-script word of [`ACCENTS_ONLY_LETTERS`] letters or
/// more with no ASCII letter in it (issue 50, twenty-eighth pass): a word
/// of a Latin-script language holds a plain letter (`été`, `żółw`), but
/// random bytes read in a Latin charset are accented letters alone
/// (`Åúþ`, `îôé»ó`, `îôéťó`). Chosen on the validation parts among 2-40
/// bits and 2 or 3 letters: from 3 letters, 12 to 40 bits won 3 invalid
/// names of Wagtail's part and lost none (8: 1); from 2 letters, 8 bits
/// and more lost Lithuanian `Šį` and Latvian `mazākai` in Django's part.
const ACCENTS_ONLY: f64 = 12.0;
/// ... its fewest letters.
const ACCENTS_ONLY_LETTERS: usize = 3;

/// Latin-script words of [`ACCENTS_ONLY_LETTERS`] letters or more, none
/// of them ASCII.
fn accents_only_words(chars: &[char], cl: &[Class]) -> usize {
    super::chars::words(cl.get(..chars.len()).unwrap_or(cl))
        .filter(|r| {
            r.len() >= ACCENTS_ONLY_LETTERS
                && r.clone().all(|j| {
                    chars.get(j).is_some_and(|c| !c.is_ascii())
                        && cl.get(j).is_some_and(|k| k.alpha && k.script == Script::Latin)
                })
        })
        .count()
}

/// Bits for each small non-ASCII letter of a DOS short name (no corpus
/// name is one: not tuned; what a capital inside a word costs, twice).
const SHORT_NAME_SMALL: f64 = 6.0;

/// A DOS 8.3 short name with a numeric tail: at most 6 characters, `~`
/// and digits, and an extension of at most 3 characters with no ASCII
/// small letter (`ΜΕΤΟΝΟ~1.RAR`, `PROGRA~1`).
fn dos_short_name(chars: &[char]) -> bool {
    let Some(tilde) = chars.iter().position(|&c| c == '~') else {
        return false;
    };
    let (stem, rest) = chars.split_at(tilde);
    let rest = rest.get(1..).unwrap_or_default();
    let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    let ext = rest.get(digits..).unwrap_or_default();
    !stem.is_empty()
        && stem.len() + 1 + digits <= 8
        && digits > 0
        && (ext.is_empty() || (ext.first() == Some(&'.') && ext.len() <= 4))
        && !chars.iter().any(char::is_ascii_lowercase)
}

/// Bits for a small ASCII letter right after a Han, kana or Hangul letter
/// (round 4, stop 12): a Latin-1 accent and the ASCII letter after it read
/// as one double-byte character (`子uipe` for macintosh `équipe`) leaves
/// the rest of the word glued to it, small. Chosen on the validation
/// parts among 2, 4, 6 and 8 (and 0, 4, 8 more inside a Latin word,
/// `M柤ein`): 2 to 6 won the same names, 8 read two names as UTF-8.
const LOWER_AFTER_CJK: u32 = 2;

/// Bits for letters of two alphabets touching (see `penalty`), and for
/// two joined by an apostrophe.
const SCRIPTS_TOUCHING: u32 = 20;

/// Bits for an apostrophe inside a Latin word that is no elision or
/// contraction (`R’os`: macintosh's `í` read in windows-125x). Chosen on
/// the validation part: 2, 4 and 6 tried; 10, as for any symbol between
/// letters, read a Swedish `Pa’anga` as macintosh `Paíanga`.
const ODD_APOSTROPHE: u32 = 4;

/// Bits for an opening quote glued to the end of a word (chosen on the
/// validation part: 3 and 6 tried, the same).
const OPEN_AFTER_WORD: u32 = 3;

/// Whether the mark at `at`, between two letters, is an apostrophe of the
/// word: between Cyrillic letters (Ukrainian `п’ять`), after an elided
/// article or pronoun (`d’images`, `L’image`, `dell’acqua`, `O’Brien`,
/// `qu’il`), or before a contraction's end (`it’s`, `don’t`, `zo’n`). A
/// quote inside any other Latin word (`R’os`, `An’bal`) is a letter of
/// another charset read as punctuation.
fn apostrophe(chars: &[char], cl: &[Class], at: usize) -> bool {
    let letters = |range: &mut dyn Iterator<Item = usize>| -> String {
        let mut w = String::new();
        for j in range {
            match (chars.get(j), cl.get(j)) {
                (Some(&c), Some(k)) if k.alpha => w.extend(c.to_lowercase()),
                _ => break,
            }
        }
        w
    };
    let latin = |j: usize| cl.get(j).is_some_and(|k| k.script == Script::Latin);
    if !latin(at.wrapping_sub(1)) || !latin(at + 1) {
        return true;
    }
    let before: String = letters(&mut (0..at).rev()).chars().rev().collect();
    let after = letters(&mut (at + 1..chars.len()));
    let capital = chars.get(at + 1).is_some_and(|c| c.is_uppercase());
    (before == "o" && capital)
        || after.chars().next().is_some_and(|c| elides(&before, c))
        || matches!(after.as_str(), "s" | "t" | "re" | "ll" | "ve" | "d" | "m" | "n")
}

/// Whether `before` (lowercase letters) is an article, preposition or
/// pronoun that French, Italian or Catalan elide before a word starting
/// with `first` (lowercase): a vowel or h (`l’image`, `dell’acqua`; not
/// `M’nguez`).
pub(super) fn elides(before: &str, first: char) -> bool {
    const ELIDED: &[&str] = &[
        "l", "d", "j", "s", "n", "c", "m", "t", "o", "qu", "un", "dell", "nell", "all", "sull", "dall", "coll",
        "quell", "bell", "lorsqu", "puisqu", "jusqu",
    ];
    // Italian's elided `come`, `cosa`, `dove`, `quando`, `questo`,
    // `tutto` (`com’è`, `dov’è`; issue 50).
    const ELIDED_IT: &[&str] = &["com", "cos", "dov", "quand", "quest", "tutt"];
    "aeiouyhàâäáãåæéèêëíìîïóòôöõøœúùûüý".contains(first) && (ELIDED.contains(&before) || ELIDED_IT.contains(&before))
}

/// Modern Greek puts at most one accent on a word, and one on every word
/// of two syllables or more: a lowercase word of four letters without one
/// is not Greek (it is bytes of another alphabet).
fn greek_penalty(chars: &[char], cl: &[Class]) -> f64 {
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

/// A run of one or two non-ASCII letters repeated ("яяяя", "юяюя",
/// "ЪЧЪЧ"): what `FF FF FF FF` and `FF FE FF FE` read as. No word is made
/// so; a name that is one is noise.
/// Bits per repetition of [`noise_penalty`].
const NOISE: f64 = 48.0;

fn noise_penalty(chars: &[char], cl: &[Class]) -> f64 {
    // A name of symbols and spaces alone, not one letter or digit in it
    // ("€", four no-break spaces: A4, FF FF FF FF), is bytes, not a name.
    if !chars.iter().any(|c| c.is_alphanumeric()) {
        return NOISE;
    }
    let mut p = 0.0;
    let letter = |i: usize| chars.get(i).is_some_and(|c| !c.is_ascii()) && cl.get(i).is_some_and(|k| k.alpha);
    if !(0..chars.len()).any(letter) {
        return 0.0;
    }
    for (i, w) in chars.windows(3).enumerate() {
        if (i..i + 3).all(letter) && w[0] == w[1] && w[1] == w[2] {
            p += NOISE;
        }
    }
    // Two letters alternating, when they are the whole run of non-ASCII
    // letters ("юяюя", not the "попо" of "Филипопол").
    let mut i = 0;
    while i < chars.len() {
        if !letter(i) {
            i += 1;
            continue;
        }
        let start = i;
        while letter(i) {
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
        // FF FF); CJK names do double a character (婷婷), and a word may
        // double a letter inside (Finnish and Estonian "Käär", "Hyvinkää").
        let word = |k: Option<usize>| k.and_then(|k| chars.get(k)).is_some_and(|c| c.is_alphabetic());
        if run.len() == 2
            && a == b
            && !matches!(script(a), Script::Cjk | Script::Thai)
            && !word(start.checked_sub(1))
            && !word(Some(i))
        {
            p += NOISE;
        }
    }
    p
}
