//! Guessing the charset of a server's names (client side, RFC 2640 3.3).
//!
//! RFC 2640 lets a client that meets a server without FEAT UTF8 assume a
//! charset, and FEAT UTF8 is only a hint anyway (vsftpd announces it
//! whatever its disk holds). So the client looks at what the server sent:
//! if every name is valid UTF-8 the server speaks UTF-8; otherwise
//! chardetng (Firefox's detector) guesses a legacy charset from the whole
//! listing at once — single short names mislead it (deps-and-scale.md §1).
//!
//! [`detect_names`] is the old whole-listing guess. The model the client
//! uses ([`decide_listing`], [`decide_name`], [`Evidence`]) chooses a
//! listing's charsets first and then decides each name, which leaves them
//! only on strong evidence of its own, with the server's history as a
//! prior; see `per_name.rs` and docs/dev/charset-detection.md.
//!
//! The guess is for display only: the client keeps the exact bytes the
//! server sent and uses them to retrieve a file, whatever was guessed.

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};

mod candidates;
mod dbcs;
mod model;
mod per_name;
mod rough;

pub use candidates::CANDIDATES;
pub use per_name::{
    decide_listing, decide_name, explain, explain_listing, plausible_in, shown, typed_to_name, Context, Decision,
    Evidence,
};

use crate::Charset;

/// Builds every table the detector reads: the model's letter, word and
/// CJK pair tables, the character properties, and the byte tables of the
/// single- and double-byte charsets. A process's first listing otherwise
/// builds them while it waits (about 6 ms on this project's 2-core
/// machine, against 25 ms for a 10,000-name listing of 27 charsets once
/// they are built). A program that
/// will decide listings can call this on a thread of its own while it does
/// something else (the CLI does while it connects and logs in); the
/// decisions are the same either way. Later calls return at once.
pub fn prepare() {
    let _ = candidates::candidates();
    model::prepare();
    let _ = rough::byte_tables();
    dbcs::prepare();
}

/// What the names look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detected {
    /// Every name is ASCII: nothing to decide.
    Ascii,
    /// Every name is valid UTF-8 and some are not ASCII.
    Utf8,
    /// Some names are not UTF-8; the detector's best legacy charset.
    Legacy(Charset),
}

/// Guesses the charset of a set of names (a whole listing).
pub fn detect_names<'a>(names: impl IntoIterator<Item = &'a [u8]>) -> Detected {
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    let mut all_utf8 = true;
    let mut any_non_ascii = false;
    for name in names {
        if name.is_ascii() {
            continue;
        }
        any_non_ascii = true;
        if !babelftp_proto::utf8::is_utf8(name) {
            all_utf8 = false;
        }
        detector.feed(name, false);
        // A separator, so the detector does not see pairs across names.
        detector.feed(b"\n", false);
    }
    if !any_non_ascii {
        return Detected::Ascii;
    }
    if all_utf8 {
        return Detected::Utf8;
    }
    detector.feed(b"", true);
    let enc = detector.guess(None, Utf8Detection::Deny);
    match Charset::from_encoding(enc) {
        Some(c) => Detected::Legacy(c),
        // Encodings that cannot hold names (UTF-16 and the like): fall back
        // to the most common legacy charset of the web.
        None => Detected::Legacy(Charset::for_label("windows-1252").unwrap_or(Charset::LATIN_1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(label: &str, names: &[&str]) -> Vec<Vec<u8>> {
        let cs = Charset::for_label(label).unwrap();
        names.iter().map(|n| cs.from_utf8(n).unwrap()).collect()
    }

    fn guess(names: &[Vec<u8>]) -> Detected {
        detect_names(names.iter().map(Vec::as_slice))
    }

    #[test]
    fn utf8_and_ascii_listings() {
        assert_eq!(guess(&[b"readme.txt".to_vec(), b"a b".to_vec()]), Detected::Ascii);
        assert_eq!(
            guess(&["日本語.txt".as_bytes().to_vec(), b"x".to_vec()]),
            Detected::Utf8
        );
    }

    #[test]
    fn shift_jis_listing() {
        let names = enc(
            "shift_jis",
            &[
                "日本語のファイル.txt",
                "報告書2026年版.doc",
                "写真フォルダ",
                "議事録.pdf",
                "新しいテキスト.txt",
            ],
        );
        assert_eq!(
            guess(&names),
            Detected::Legacy(Charset::for_label("shift_jis").unwrap())
        );
    }

    #[test]
    fn cp1251_listing() {
        let names = enc(
            "windows-1251",
            &[
                "Отчёт за год.doc",
                "Фотографии",
                "Новая папка",
                "Документы проекта.txt",
                "Список дел.xls",
            ],
        );
        assert_eq!(
            guess(&names),
            Detected::Legacy(Charset::for_label("windows-1251").unwrap())
        );
    }

    #[test]
    fn koi8_listing_is_read_as_koi8() {
        let names = enc(
            "koi8-r",
            &[
                "Отчет за год.doc",
                "Фотографии",
                "Новая папка",
                "Документы проекта.txt",
                "Список дел.xls",
            ],
        );
        // chardetng reports KOI8-U for KOI8-R text by design; the letters
        // of Russian decode the same in both.
        match guess(&names) {
            Detected::Legacy(c) => {
                for n in ["Фотографии", "Новая папка"] {
                    assert!(names.iter().any(|b| c.to_utf8(b).as_deref() == Some(n)), "{c}");
                }
            }
            other => panic!("{other:?}"),
        }
    }
}
