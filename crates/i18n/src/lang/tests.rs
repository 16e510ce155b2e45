//! Catalog and negotiation tests (RFC 2640 4.1-4.3).

use super::*;

fn tag(s: &str) -> LangTag {
    LangTag::parse(s.as_bytes()).unwrap()
}

fn cats() -> Catalogs {
    Catalogs::builtin().unwrap()
}

/// Both catalogs of every language: (tag, file, source).
fn sources() -> Vec<(&'static str, &'static str, &'static str)> {
    let mut v = Vec::new();
    for t in shipped_tags() {
        v.push((t, "server.ftl", shipped_source(t).unwrap()));
        v.push((t, "cli.ftl", shipped_cli_source(t).unwrap()));
    }
    v
}

#[test]
fn every_cli_catalog_has_every_message_with_the_same_placeholders() {
    let en = shipped_cli_source("en").unwrap();
    let ids = Catalogs::message_ids(en);
    let en_ph = Catalogs::placeholders(en);
    assert!(ids.len() > 15);
    for (t, file, src) in sources().into_iter().filter(|(_, f, _)| *f == "cli.ftl") {
        assert_eq!(Catalogs::message_ids(src), ids, "{t}/{file}: ids differ from English");
        assert_eq!(
            Catalogs::placeholders(src),
            en_ph,
            "{t}/{file}: placeholders differ from English"
        );
        assert!(
            FluentResource::try_new(src.to_owned()).is_ok(),
            "{t}/{file}: Fluent syntax error"
        );
    }
}

#[test]
fn every_catalog_has_every_message_with_the_same_placeholders() {
    let en = shipped_source("en").unwrap();
    let ids = Catalogs::message_ids(en);
    let en_ph = Catalogs::placeholders(en);
    assert!(ids.len() > 60, "{}", ids.len());
    for t in shipped_tags() {
        let src = shipped_source(t).unwrap();
        assert_eq!(
            Catalogs::message_ids(src),
            ids,
            "{t}: ids differ from English (order too)"
        );
        assert_eq!(
            Catalogs::placeholders(src),
            en_ph,
            "{t}: placeholders differ from English"
        );
        // Fluent parses it without errors.
        assert!(
            FluentResource::try_new(src.to_owned()).is_ok(),
            "{t}: Fluent syntax error"
        );
    }
}

#[test]
fn every_translation_is_a_translation() {
    let en_lines: HashMap<String, String> = [shipped_source("en").unwrap(), shipped_cli_source("en").unwrap()]
        .iter()
        .flat_map(|s| s.lines())
        .filter_map(|l| l.split_once(" = ").map(|(a, b)| (a.to_string(), b.to_string())))
        .collect();
    // Texts that are protocol, not prose, stay the same everywhere.
    let fixed = ["system-type"];
    // "program: error" may well read the same in a language.
    let may_match = ["cli-error"];
    for (t, file, src) in sources().into_iter().filter(|(t, _, _)| *t != "en") {
        let t = format!("{t}/{file}");
        let mut same = Vec::new();
        let mut total = 0;
        for l in src.lines() {
            let Some((id, v)) = l.split_once(" = ") else { continue };
            if fixed.contains(&id) {
                assert_eq!(Some(&v.to_string()), en_lines.get(id), "{t}: {id} must not change");
                continue;
            }
            if may_match.contains(&id) {
                continue;
            }
            total += 1;
            if en_lines.get(id) == Some(&v.to_string()) {
                same.push(id.to_string());
            }
        }
        assert!(
            same.len() * 20 <= total,
            "{t}: {} of {total} messages are English copies: {same:?}",
            same.len()
        );
        let text = src.to_string();
        for c in [
            '\u{200e}', '\u{200f}', '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}',
            '\u{2068}', '\u{2069}',
        ] {
            assert!(!text.contains(c), "{t}: bidi control {c:?} in catalog");
        }
    }
}

#[test]
fn sixteen_languages_english_first() {
    let c = cats();
    let tags: Vec<&str> = c.tags().collect();
    assert_eq!(tags.len(), 16);
    assert_eq!(tags[0], "en");
    for t in [
        "fr", "de", "es", "it", "pt-BR", "ru", "uk", "pl", "ja", "zh-CN", "zh-TW", "ko", "ar", "he", "th",
    ] {
        assert!(tags.contains(&t), "{t}");
    }
}

#[test]
fn negotiation_rfc2640_4_1() {
    let c = cats();
    let idx = |t: &str| c.tags().position(|x| x == t).unwrap();
    let n = |t: &str| c.negotiate(&tag(t));
    assert_eq!(n("fr"), Negotiated::Lang(idx("fr")));
    assert_eq!(n("FR"), Negotiated::Lang(idx("fr")));
    assert_eq!(n("fr-CA"), Negotiated::Lang(idx("fr")));
    assert_eq!(n("fr-FR"), Negotiated::Lang(idx("fr")));
    assert_eq!(n("en-AU"), Negotiated::Lang(idx("en")));
    assert_eq!(n("pt"), Negotiated::Lang(idx("pt-BR")));
    assert_eq!(n("pt-br"), Negotiated::Lang(idx("pt-BR")));
    assert_eq!(n("zh-TW"), Negotiated::Lang(idx("zh-TW")));
    assert_eq!(n("de-AT"), Negotiated::Lang(idx("de")));
    assert_eq!(n("ja-JP"), Negotiated::Lang(idx("ja")));
    assert_eq!(n("i-klingon"), Negotiated::Unsupported);
    assert_eq!(n("x-pig-latin"), Negotiated::Unsupported);
    assert_eq!(n("tlh"), Negotiated::Unsupported);
    assert_eq!(n("sw"), Negotiated::Unsupported);
}

#[test]
fn texts_render_with_arguments_and_no_isolation_marks() {
    let c = cats();
    let fr = c.tags().position(|x| x == "fr").unwrap();
    let t = c.text(0, "restart-pending", &[("offset", Arg::Num(1234))]);
    assert_eq!(t, "Restarting at 1234. Send STOR or RETR to start the transfer.");
    let t = c.text(fr, "lang-ok", &[("language", Arg::Str("Français"))]);
    assert!(t.contains("Français") && !t.contains('\u{2068}'), "{t}");
    assert_eq!(c.text(0, "no-such-message", &[]), "no-such-message");
    assert_eq!(c.language_name(fr), "Français");
    assert_eq!(c.language_name(0), "English");
}

#[test]
fn a_catalog_directory_overrides_and_adds() {
    let dir = std::env::temp_dir().join(format!("babelftp-cat-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("fr")).unwrap();
    std::fs::create_dir_all(dir.join("eo")).unwrap();
    std::fs::write(dir.join("fr/site.ftl"), "greeting = Bienvenue sur le miroir.\n").unwrap();
    std::fs::write(
        dir.join("eo/server.ftl"),
        "greeting = Bonvenon.\nlanguage-name = Esperanto\n",
    )
    .unwrap();
    let c = Catalogs::with_dir(&dir).unwrap();
    let fr = c.tags().position(|x| x == "fr").unwrap();
    assert_eq!(c.text(fr, "greeting", &[]), "Bienvenue sur le miroir.");
    assert_ne!(c.text(fr, "goodbye", &[]), "Goodbye.");
    let Negotiated::Lang(eo) = c.negotiate(&tag("eo")) else {
        panic!("eo not added")
    };
    assert_eq!(c.text(eo, "greeting", &[]), "Bonvenon.");
    // Missing messages fall back to English.
    assert_eq!(c.text(eo, "goodbye", &[]), "Goodbye.");
    std::fs::write(dir.join("eo/bad.ftl"), "greeting = {\n").unwrap();
    assert!(matches!(Catalogs::with_dir(&dir), Err(CatalogError::Syntax { .. })));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn default_language_is_configurable() {
    let mut c = cats();
    assert_eq!(c.default_lang(), 0);
    assert!(c.set_default(&tag("ja")));
    assert_eq!(c.tag(c.default_lang()), "ja");
    assert!(!c.set_default(&tag("tlh")));
}
