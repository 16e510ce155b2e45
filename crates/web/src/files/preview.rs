//! Previews (issue 49): `GET FILE?preview`, a page that shows the file,
//! for a user who may download it (the same check, made before).
//!
//! - Images (PNG, JPEG, GIF, WebP, AVIF, BMP, ICO, SVG): an `<img>` of
//!   `FILE?inline`. An SVG in `<img>` never runs script, and its
//!   `?inline` carries `Content-Security-Policy: sandbox` (no
//!   `allow-scripts`), so opened on its own it runs none either.
//! - Text (by its extension, or by its first 8 KiB holding no NUL): its
//!   first [`TEXT_MAX`] octets decoded and escaped inside `<pre>`, with
//!   the charset used: UTF-8 when they are UTF-8, else the charset the
//!   server is told its names are in there (`fs_charset`,
//!   `dir_charsets`), else the one chardetng (Firefox's detector)
//!   finds in the text.
//! - PDF: an `<iframe>` of `FILE?inline` (the browser's viewer, where it
//!   has one); audio and video: `<audio controls>`, `<video controls>`.
//! - Anything else: 303 to the file itself, a download.
//!
//! `FILE?inline` is the download (Range, validators, records and events:
//! a download event) with `Content-Disposition: inline`, the media type
//! of its extension, `nosniff`, and a CSP that makes it no page of this
//! site. The text shown in a preview page is recorded as a download of
//! the octets read.

use super::download::Sent;
use super::*;

/// The most of a text a preview shows.
pub(crate) const TEXT_MAX: usize = 256 << 10;
/// The octets looked at to tell text from binary.
const SNIFF: usize = 8 << 10;

/// What a file is shown as.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Shown {
    Image(&'static str),
    Text,
    Pdf,
    Audio(&'static str),
    Video(&'static str),
}

/// What a name's extension says it is (ASCII case ignored).
pub(crate) fn by_name(name: &[u8]) -> Option<Shown> {
    let dot = name.iter().rposition(|&b| b == b'.')?;
    // Lower case in a small buffer: a listing asks this of every file.
    let ext = &name[dot + 1..];
    let mut buf = [0u8; 8];
    let lower = buf.get_mut(..ext.len())?;
    for (l, &b) in lower.iter_mut().zip(ext) {
        *l = b.to_ascii_lowercase();
    }
    let ext = std::str::from_utf8(lower).ok()?;
    Some(match ext {
        "png" => Shown::Image("image/png"),
        "jpg" | "jpeg" | "jpe" => Shown::Image("image/jpeg"),
        "gif" => Shown::Image("image/gif"),
        "webp" => Shown::Image("image/webp"),
        "avif" => Shown::Image("image/avif"),
        "bmp" => Shown::Image("image/bmp"),
        "ico" => Shown::Image("image/x-icon"),
        "svg" => Shown::Image("image/svg+xml"),
        "pdf" => Shown::Pdf,
        "mp3" => Shown::Audio("audio/mpeg"),
        "ogg" | "oga" | "opus" => Shown::Audio("audio/ogg"),
        "wav" => Shown::Audio("audio/wav"),
        "flac" => Shown::Audio("audio/flac"),
        "m4a" | "aac" => Shown::Audio("audio/mp4"),
        "mp4" | "m4v" => Shown::Video("video/mp4"),
        "webm" => Shown::Video("video/webm"),
        "ogv" => Shown::Video("video/ogg"),
        "txt" | "text" | "md" | "markdown" | "rst" | "csv" | "tsv" | "log" | "json" | "xml" | "yaml" | "yml"
        | "toml" | "ini" | "conf" | "cfg" | "rs" | "py" | "js" | "ts" | "c" | "h" | "cc" | "cpp" | "hpp" | "go"
        | "java" | "rb" | "php" | "pl" | "sh" | "bash" | "sql" | "css" | "html" | "htm" | "tex" | "srt" | "diff"
        | "patch" => Shown::Text,
        _ => return None,
    })
}

/// `FILE?inline`: the download, shown in place when its extension names
/// something a preview shows; else the plain download.
pub(super) async fn inline(web: &St, ask: &Ask, view: &Arc<View>, e: Entry) -> Response {
    let ctype = match by_name(ask.path.file_name().unwrap_or_default()) {
        Some(Shown::Image(t) | Shown::Audio(t) | Shown::Video(t)) => Some(t),
        Some(Shown::Pdf) => Some("application/pdf"),
        Some(Shown::Text) | None => None,
    };
    download::download(web, ask, view, e, ctype).await
}

/// A text's octets decoded: (text, charset name). UTF-8 when they are
/// (a character cut at the end is left out), else `legacy` (the charset
/// of the folder's names, when the configuration names one), else the
/// charset chardetng detects.
pub(crate) fn decode(bytes: &[u8], cut: bool, legacy: Option<babelftp_i18n::Charset>) -> (String, &'static str) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => return (s.to_owned(), "UTF-8"),
        Err(e) if cut && e.error_len().is_none() => {
            if let Ok(s) = std::str::from_utf8(&bytes[..e.valid_up_to()]) {
                return (s.to_owned(), "UTF-8");
            }
        }
        Err(_) => {}
    }
    let cs = legacy.filter(|c| c.name() != "UTF-8").or_else(|| detected(bytes));
    match cs {
        Some(cs) => match cs.encoding() {
            Some(enc) => (enc.decode_without_bom_handling(bytes).0.into_owned(), cs.name()),
            // True ISO-8859-1: every octet is a character.
            None => (bytes.iter().map(|&b| char::from(b)).collect(), cs.name()),
        },
        None => (String::from_utf8_lossy(bytes).into_owned(), "UTF-8"),
    }
}

/// The charset of a text that is not UTF-8, guessed from its octets by
/// chardetng (Firefox's detector); windows-1252 when the guess cannot
/// hold text (UTF-16 and the like).
fn detected(bytes: &[u8]) -> Option<babelftp_i18n::Charset> {
    let mut d = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    d.feed(bytes, true);
    let enc = d.guess(None, chardetng::Utf8Detection::Deny);
    babelftp_i18n::Charset::from_encoding(enc).or_else(|| babelftp_i18n::Charset::for_label("windows-1252"))
}

/// `FILE?preview`.
pub(super) async fn preview(web: &St, ask: &Ask, view: &Arc<View>, e: Entry) -> Response {
    let name = ask.path.file_name().unwrap_or_default().to_vec();
    let shown = by_name(&name);
    match shown {
        Some(Shown::Text) | None => {}
        Some(s) => return page::preview::media(web, ask, view, s),
    }
    // Text, or perhaps text: its first octets.
    let handle = match ctx(web, view).open_download(&ask.path, 0).await {
        Ok(h) => h,
        Err(e) => return service_error(web, ask, e),
    };
    let want = e.size.min(TEXT_MAX as u64 + 1);
    let read = blocking(move || {
        let mut rd: Box<dyn io::Read + Send> = match handle {
            ReadHandle::File(f) => Box::new(f),
            ReadHandle::Reader(r) => r,
        };
        let mut buf = Vec::new();
        io::Read::read_to_end(&mut io::Read::take(&mut rd, want), &mut buf)?;
        Ok(buf)
    })
    .await;
    let mut bytes = match read {
        Ok(b) => b,
        Err(e) => return storage_error(web, ask, &e),
    };
    if shown.is_none() && bytes[..bytes.len().min(SNIFF)].contains(&0) {
        // Not text, nor anything else shown: the download.
        return see_other(&href(&ask.path, false));
    }
    let cut = bytes.len() > TEXT_MAX;
    bytes.truncate(TEXT_MAX);
    // The charset of the folder's names, as the storage knows it: the
    // folder on disk (a user's home, a mount) is what `dir_charsets` name.
    let (st, p) = (view.tree.clone(), ask.path.clone());
    let legacy = blocking(move || Ok(st.name_charset(&p)))
        .await
        .ok()
        .flatten()
        .and_then(babelftp_i18n::Charset::for_label);
    let (text, charset) = decode(&bytes, cut, legacy);
    // What was read is sent: a download of those octets, recorded so.
    let stored = match web.shared().events.is_some() {
        true => stored(view, &ask.path).await,
        false => Vec::new(),
    };
    let n = bytes.len() as u64;
    drop(Sent {
        web: web.clone(),
        ev: web.event(Kind::Download, Some(view.user_bytes()), ask),
        path: ask.path.to_bytes(),
        stored,
        want: n,
        sent: Arc::new(AtomicU64::new(n)),
        started: Instant::now(),
        user: view.user_bytes(),
        anonymous: view.user.is_none(),
        door: door(web, ask),
        _slot: None,
    });
    page::preview::text(web, ask, view, &text, charset, cut)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn kinds_by_extension() {
        assert_eq!(by_name(b"a.PNG"), Some(Shown::Image("image/png")));
        assert_eq!(by_name("фото.jpeg".as_bytes()), Some(Shown::Image("image/jpeg")));
        assert_eq!(by_name(b"notes.txt"), Some(Shown::Text));
        assert_eq!(by_name(b"doc.pdf"), Some(Shown::Pdf));
        assert_eq!(by_name(b"a.webm"), Some(Shown::Video("video/webm")));
        assert_eq!(by_name(b"a.exe"), None);
        assert_eq!(by_name(b"README"), None);
        assert_eq!(by_name(b"a.\xE9"), None);
    }

    #[test]
    fn texts_decode_as_utf8_else_the_configured_charset_else_the_detected_one() {
        let cp1251 = babelftp_i18n::Charset::for_label("windows-1251");
        assert_eq!(decode("Привет".as_bytes(), false, cp1251), ("Привет".into(), "UTF-8"));
        // "Привет" in windows-1251.
        let b = b"\xCF\xF0\xE8\xE2\xE5\xF2";
        assert_eq!(decode(b, false, cp1251), ("Привет".into(), "windows-1251"));
        assert_eq!(decode(b"caf\xE9", false, None), ("café".into(), "windows-1252"));
        // No charset configured: found in the text. A KOI8-R sentence and
        // a Shift_JIS one.
        let enc = |label: &str, text: &str| {
            let e = babelftp_i18n::Charset::for_label(label).unwrap().encoding().unwrap();
            e.encode(text).0.into_owned()
        };
        let koi = enc("KOI8-R", "Отчёт о работе отдела за второй квартал года");
        // (chardetng names KOI8-U, KOI8-R's superset: the same letters here.)
        let (text, cs) = decode(&koi, false, None);
        assert_eq!(text, "Отчёт о работе отдела за второй квартал года");
        assert!(cs.starts_with("KOI8"), "{cs}");
        let sjis = enc("Shift_JIS", "議事録：第二四半期の会議の記録です。");
        assert_eq!(
            decode(&sjis, false, None),
            ("議事録：第二四半期の会議の記録です。".into(), "Shift_JIS")
        );
        // A character cut by the limit is left out; UTF-8 all the same.
        let s = "añ".as_bytes();
        assert_eq!(decode(&s[..2], true, None), ("a".into(), "UTF-8"));
        assert_eq!(decode(b"\xEF\xBB\xBFhi", false, None), ("hi".into(), "UTF-8"));
    }
}
