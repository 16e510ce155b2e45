//! The legacy charsets detection considers, with their priors and
//! languages: shared by the per-name decisions (`per_name.rs`) and the
//! rough and double-byte ranks of big listings (`rough.rs`, `dbcs.rs`).

use super::model::{lang_index, Price};
use crate::Charset;

/// The legacy charsets detection considers, with a prior in bits (how rare
/// the charset is on servers: windows-1251 is common, ISO-8859-5 rare) and
/// the languages each one is written in (a reading in another language
/// pays [`OFF_LANGUAGE`] bits).
/// Among charsets that give the same text, the first one listed is named.
pub const CANDIDATES: &[(&str, u8, &[&str])] = &[
    ("Shift_JIS", 2, &["ja"]),
    ("EUC-JP", 3, &["je"]),
    ("GBK", 2, &["zh", "zt"]),
    ("gb18030", 3, &["zh", "zt"]),
    ("Big5", 2, &["zb"]),
    ("EUC-KR", 2, &["ko"]),
    (
        "windows-1252",
        1,
        &["de", "fr", "es", "pt", "it", "nl", "ca", "sv", "da", "nb", "fi", "is"],
    ),
    (
        "ISO-8859-15",
        3,
        &[
            "de", "fr", "es", "pt", "it", "nl", "ca", "sv", "da", "nb", "fi", "is", "et",
        ],
    ),
    // (macintosh was 5 until issue 50's second pass: one-name folders of
    // Mac names read as windows-1250/1252 `Kšniz`, `temps Žlever`; 3 was
    // chosen on the validation part, docs/dev/charset-detection.md.)
    (
        "macintosh",
        3,
        &["de", "fr", "es", "pt", "it", "nl", "ca", "sv", "da", "nb", "fi", "is"],
    ),
    ("windows-1250", 2, &["pl", "cs", "sk", "sl", "hu", "ro", "hr", "de"]),
    ("ISO-8859-2", 3, &["pl", "cs", "sk", "sl", "hu", "ro", "hr", "de"]),
    ("windows-1251", 1, &["ru", "uk", "bg", "mk"]),
    ("KOI8-R", 3, &["ru", "bg"]),
    ("KOI8-U", 4, &["uk", "ru", "bg"]),
    ("ISO-8859-5", 6, &["ru", "bg", "mk"]),
    ("IBM866", 4, &["ru"]),
    ("x-mac-cyrillic", 6, &["ru", "uk", "bg"]),
    ("windows-1253", 2, &["el"]),
    ("ISO-8859-7", 3, &["el"]),
    ("windows-1254", 2, &["tr"]),
    ("windows-1255", 2, &["he"]),
    ("ISO-8859-8", 3, &["he"]),
    ("windows-1256", 2, &["ar", "fa"]),
    ("ISO-8859-6", 4, &["ar"]),
    ("windows-1257", 3, &["lt", "lv", "et"]),
    ("windows-1258", 3, &["vi"]),
    // (windows-874 was 2 until issue 50's fourteenth pass: with the Thai
    // table trained also on PyThaiNLP's words, short Chinese names alone
    // and random high bytes were read as Thai more often than before; 5 is
    // the least prior that reads them as Thai no more often than the old
    // table did, chosen on validation data, docs/dev/charset-detection.md.)
    ("windows-874", 5, &["th"]),
];

/// Bits a character of a reading in a language pays under a charset when
/// the table of the charset's first language lacks it (issue 50,
/// eighteenth pass): GBK and gb18030 list traditional Chinese (`zt`) as
/// well as `zh`, for the simplified names the zt table prices better, but
/// random double-byte names read as GBK land on traditional and rare
/// characters that zh's table lacks, and were cheap under zt. Charsets
/// that share a language pay the same price in it (a reading's bits per
/// language are kept with the price, `Reading::lang`). The readings
/// (`per_name/readings.rs`) and the rough and double-byte ranks of big
/// listings (`rough.rs`, `dbcs.rs`, `model::clear`) read it through
/// [`Candidate::price`]. Chosen on validation data with Big5's own table
/// (`zb`), docs/dev/charset-detection.md: 1, 2, 3, 4 and 6 bits tried; 4
/// and more lost a simplified name of the CJK sample, and each bit costs
/// traditional names written in GBK, so the least, 1.
pub const LANG_PRICES: &[(&str, &str, u8)] = &[("GBK", "zt", ZT_IN_GB), ("gb18030", "zt", ZT_IN_GB)];
const ZT_IN_GB: u8 = 1;

/// The first entries of [`CANDIDATES`] are the double-byte charsets.
pub(super) const DOUBLE_BYTE: usize = 6;

// (The rough rank keeps the single-byte charsets' sums in arrays of 32.)
const _: () = assert!(CANDIDATES.len() - DOUBLE_BYTE <= 32);

/// The index of "UTF-8" beside the candidates in a directory's charsets.
pub(super) fn utf8_index() -> usize {
    candidates().len()
}
/// Its prior: UTF-8 is the commonest charset of names today.
const UTF8_PRIOR: f64 = 1.0;

pub(super) struct Candidate {
    pub charset: Charset,
    prior: f64,
    pub langs: Vec<usize>,
    /// What a reading pays over the tables under this charset
    /// ([`LANG_PRICES`]; nothing for most).
    pub price: Price,
}

pub(super) fn candidates() -> &'static [Candidate] {
    static C: std::sync::OnceLock<Vec<Candidate>> = std::sync::OnceLock::new();
    C.get_or_init(|| {
        CANDIDATES
            .iter()
            .filter_map(|(label, prior, langs)| {
                let langs: Vec<usize> = langs.iter().filter_map(|l| lang_index(l)).collect();
                let mut price = Price::new(langs.first().copied());
                for &(_, lang, bits) in LANG_PRICES.iter().filter(|p| p.0 == *label) {
                    if let Some(l) = lang_index(lang) {
                        price.set(l, bits);
                    }
                }
                Some(Candidate {
                    charset: Charset::for_label(label)?,
                    prior: f64::from(*prior),
                    langs,
                    price,
                })
            })
            .collect()
    })
}

/// A charset's prior in bits; `utf8_index()` is the UTF-8 reading.
pub(super) fn prior(c: usize) -> f64 {
    if c == utf8_index() {
        return UTF8_PRIOR;
    }
    candidates().get(c).map_or(f64::INFINITY, |x| x.prior)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reading's bits per language (`Reading::lang`) hold its price:
    /// every charset that reads a language charges the same for it.
    #[test]
    fn charsets_of_a_language_charge_alike() {
        let cs = candidates();
        for a in cs {
            for b in cs {
                for &l in a.langs.iter().filter(|l| b.langs.contains(l)) {
                    assert_eq!(
                        a.price.of(None, l),
                        b.price.of(None, l),
                        "{:?} {:?}",
                        a.charset,
                        b.charset
                    );
                    if a.price.of(None, l) > 0 {
                        assert_eq!(a.langs.first(), b.langs.first());
                    }
                }
            }
        }
    }
}
