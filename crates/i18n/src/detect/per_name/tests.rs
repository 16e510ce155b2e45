use super::*;

fn cx(ev: &Evidence) -> Context<'_> {
    Context {
        explicit: None,
        feat_utf8: false,
        evidence: ev,
    }
}

fn enc(label: &str, s: &str) -> Vec<u8> {
    Charset::for_label(label).unwrap().from_utf8(s).unwrap()
}

#[test]
fn gbk_bytes_shaped_like_broken_utf8_in_a_gbk_directory() {
    // GBK 来 is C0 B4, an overlong UTF-8 form: alone it is `%HH`, in a
    // directory of GBK names it is GBK; an overlong `.` (C0 AE, GBK 喇)
    // stays `%HH` everywhere.
    let ev = Evidence::default();
    let lai = enc("GBK", "来");
    assert_eq!(decide_name(&lai, &cx(&ev)), Decision::Raw);
    let dots = b"\xC0\xAE\xC0\xAE".to_vec();
    let others = ["新建文件夹", "会议记录.docx", "照片 2019", "合同范本", "财务报表.xlsx"];
    let mut names: Vec<Vec<u8>> = others.iter().map(|t| enc("GBK", t)).collect();
    names.push(lai.clone());
    names.push(dots);
    // (valid UTF-8 with a control character is no such shape: `%HH`)
    names.push("a\u{85}b".as_bytes().to_vec());
    let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let ds = decide_listing(&refs, &cx(&ev));
    let shown_all: Vec<String> = refs.iter().zip(&ds).map(|(n, d)| shown(n, d)).collect();
    assert_eq!(shown_all.get(5).map(String::as_str), Some("来"), "{ds:?}");
    assert_eq!(shown_all.get(6).map(String::as_str), Some("%C0%AE%C0%AE"), "{ds:?}");
    assert_eq!(ds.get(7), Some(&Decision::Raw));
    // A single name on a server whose history is GBK: as in its listing.
    let mut history = Evidence::default();
    history.observe(&ds);
    assert_eq!(history.likely(), Charset::for_label("GBK"));
    let alone = decide_name(&lai, &cx(&history));
    assert_eq!(shown(&lai, &alone), "来", "{alone:?}");
    assert_eq!(decide_name(b"\xC0\xAE\xC0\xAE", &cx(&history)), Decision::Raw);
    // ... and in a directory of UTF-8 names, `%HH`.
    let utf8: Vec<&[u8]> = vec!["新建文件夹".as_bytes(), "会议记录.docx".as_bytes(), &lai];
    let ds = decide_listing(&utf8, &cx(&ev));
    assert_eq!(ds.get(2), Some(&Decision::Raw));
}

#[test]
fn a_big_listing_decided_on_threads_is_decided_as_on_one() {
    // Names of several charsets, random bytes and cut UTF-8 names, more
    // than one thread's share: the same decisions, in the same order,
    // on one thread, on two and on more threads than the machine has.
    let ev = Evidence::default();
    let words = [
        ("windows-1251", "Отчёт за год"),
        ("KOI8-R", "Письма домой"),
        ("windows-1252", "Résumé café"),
        ("Shift_JIS", "会議の記録"),
        ("GBK", "财务报表"),
        ("ISO-8859-7", "Φωτογραφίες"),
        ("windows-1250", "Nová složka"),
    ];
    let mut names: Vec<Vec<u8>> = Vec::new();
    let mut k = 0u32;
    while names.len() < PARALLEL_MIN + 500 {
        let (label, text) = words[k as usize % words.len()];
        let mut b = enc(label, &format!("{text} {k}"));
        match k % 11 {
            3 => b.extend_from_slice(&[0xFF, 0xFE, (k % 251) as u8 | 0x80]),
            7 => b = format!("Zürich {k}").into_bytes()[..7].to_vec(),
            _ => {}
        }
        names.push(b);
        k += 1;
    }
    let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let one = decide_in(&refs, &cx(&ev), Some(1));
    assert_eq!(one.len(), refs.len());
    assert!(
        one.iter().any(|d| matches!(d, Decision::Decoded { .. })),
        "{:?}",
        one.first()
    );
    assert!(one.contains(&Decision::Raw));
    for threads in [2, 3, 16] {
        assert!(decide_in(&refs, &cx(&ev), Some(threads)) == one, "{threads} threads");
    }
    assert!(decide_listing(&refs, &cx(&ev)) == one);
}

#[test]
fn acronyms_read_as_acronyms() {
    // KOI8's capitals are windows-1251's small letters: `КНР` is `лот`
    // there, and `ОТП` `пфр`. An acronym's letters are first letters
    // of words, not letters of one word.
    let ev = Evidence::default();
    for (label, texts) in [
        ("KOI8-U", ["Звіт 2019.doc", "Київ", "КНР", "ОТП", "Бенін"]),
        ("windows-1251", ["Отчёт.doc", "Москва", "КНР", "ОТП", "Письма"]),
    ] {
        let names: Vec<Vec<u8>> = texts.iter().map(|t| enc(label, t)).collect();
        let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
        let ds = decide_listing(&refs, &cx(&ev));
        let shown_all: Vec<String> = refs.iter().zip(&ds).map(|(n, d)| shown(n, d)).collect();
        assert_eq!(shown_all, texts, "{label}: {ds:?}");
    }
    // Random capitals are no acronym: four bytes of ISO-8859-5's
    // capitals stay `%HH` alone.
    assert_eq!(decide_name(b"\xBE\xC8\xB8\xB6\xBB", &cx(&ev)), Decision::Raw);
}

#[test]
fn no_two_names_shown_alike() {
    let gbk = Charset::for_label("GBK").unwrap_or_else(Charset::utf8);
    let dec = |t: &str| Decision::Decoded {
        charset: gbk,
        text: t.to_owned(),
        confident: true,
    };
    let utf8 = "通知".as_bytes();
    let names: [&[u8]; 6] = [
        b"\xCD\xA8\xD6\xAA",
        utf8,
        b"\xB0\xA1",
        b"\x81\x40",
        b"\xB0\xA1",
        b"\xFF",
    ];
    let mut ds = vec![
        dec("通知"),
        Decision::Utf8,
        dec("啊"),
        dec("啊"),
        dec("啊"),
        Decision::Raw,
    ];
    unclash(&names, &mut ds);
    // The decoded name that reads as the UTF-8 name's text is `%HH`;
    // of two decoded names alike the first keeps its text, and the
    // same bytes listed twice keep it too.
    assert_eq!(ds.first(), Some(&Decision::Raw));
    assert_eq!(ds.get(1), Some(&Decision::Utf8));
    assert_eq!(ds.get(2), Some(&dec("啊")));
    assert_eq!(ds.get(3), Some(&Decision::Raw));
    assert_eq!(ds.get(4), Some(&dec("啊")));
    // A decoded text that is ASCII (no charset reads one) against a
    // `%HH` form.
    let names: [&[u8]; 2] = [b"\xFF", b"\x80"];
    let mut ds = vec![Decision::Raw, dec("%FF")];
    unclash(&names, &mut ds);
    assert_eq!(ds.get(1), Some(&Decision::Raw));
}

#[test]
fn a_name_shaped_like_a_cut_double_byte_name_in_its_directory() {
    // Thai ตราชู in windows-874 is B5 C3 D2 AA D9: GBK 得要 and a lead
    // byte cut off. Alone it was `%HH` until issue 50's fifth pass; 得要
    // holds no pair of jieba's words, so the GBK reading is no longer
    // clear enough to call the name cut, and alone it is Thai too. Among
    // Thai names it is Thai.
    let ev = Evidence::default();
    let name = enc("windows-874", "ตราชู");
    assert_eq!(shown(&name, &decide_name(&name, &cx(&ev))), "ตราชู");
    let names = [enc("windows-874", "จัต"), enc("windows-874", "ฟารินี"), name.clone()];
    let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let ds = decide_listing(&refs, &cx(&ev));
    assert_eq!(shown(&name, ds.get(2).unwrap_or(&Decision::Raw)), "ตราชู", "{ds:?}");
    // An EUC-JP name cut inside its last kanji stays `%HH` in its
    // directory.
    let mut cut = enc("EUC-JP", "お知らせ");
    cut.pop();
    let names = [enc("EUC-JP", "会議資料"), enc("EUC-JP", "写真"), cut.clone()];
    let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let ds = decide_listing(&refs, &cx(&ev));
    assert_eq!(ds.get(2), Some(&Decision::Raw), "{ds:?}");
}

#[test]
fn common_kanji_and_common_hanzi_priced_by_their_language() {
    // 木村 in EUC-JP is GBK 腾录: with one flat price for every kanji
    // and hanzi both read the same (23 bits); a name's own language
    // prices its common characters lower.
    let ev = Evidence::default();
    for (label, text) in [("EUC-JP", "木村"), ("EUC-JP", "羽折町箪笥町"), ("GBK", "荆门")] {
        let name = enc(label, text);
        let d = decide_name(&name, &cx(&ev));
        assert_eq!(shown(&name, &d), text, "{label} {d:?}");
    }
}

#[test]
fn a_repeated_word_is_one_piece_of_evidence() {
    // Six names share `Ąžuolas`, whose windows-1257 `Ąž` is EUC-JP's
    // `線`: counted six times, that one word made the directory
    // EUC-JP.
    let texts = [
        "Kairys Ąžuolas",
        "Ąžuolas Laurita",
        "IMG_2426 Ąžuolas.jpg",
        "Ąžuolas (9).xlsx",
        "Ąžuolas (3).txt",
        "Ąžuolas Orestas",
        "Vilnius 2019",
        "Šiauliai",
        "Gražina",
    ];
    let names: Vec<Vec<u8>> = texts.iter().map(|t| enc("windows-1257", t)).collect();
    let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let ev = Evidence::default();
    let ds = decide_listing(&refs, &cx(&ev));
    for ((n, d), t) in refs.iter().zip(&ds).zip(texts) {
        assert_eq!(shown(n, d), t, "{d:?}");
    }
}

#[test]
fn explicit_gbk_overrides_valid_utf8() {
    let ev = Evidence::default();
    let name = enc("gbk", "通知");
    assert!(std::str::from_utf8(&name).is_ok());
    let gbk = Charset::for_label("gbk").unwrap();
    let c = Context {
        explicit: Some(gbk),
        feat_utf8: true,
        evidence: &ev,
    };
    assert_eq!(shown(&name, &decide_name(&name, &c)), "通知");
    // Without an explicit charset, FEAT UTF8 keeps valid UTF-8 as it is
    // (U+05AA U+0368 here) ...
    let feat = Context {
        explicit: None,
        feat_utf8: true,
        evidence: &ev,
    };
    assert_eq!(decide_name(&name, &feat), Decision::Utf8);
    // ... and without FEAT UTF8 a UTF-8 reading this absurd (combining
    // marks with no base) lets the legacy readings compete.
    assert_eq!(shown(&name, &decide_name(&name, &cx(&ev))), "通知");
    // A plausible UTF-8 name stays UTF-8 without FEAT UTF8 too.
    let utf8 = "Отчёт.txt".as_bytes();
    assert_eq!(decide_name(utf8, &cx(&ev)), Decision::Utf8);
}

#[test]
fn c1_byte_is_server_byte_not_c2() {
    let ev = Evidence::default();
    let name = b"a\x8Db";
    let d = decide_name(
        name,
        &Context {
            explicit: None,
            feat_utf8: true,
            evidence: &ev,
        },
    );
    // FEAT UTF8 decides a non-UTF-8 name as a listing without it does
    // (issue 50): macintosh `açb` here ...
    assert_eq!(d, decide_name(name, &cx(&ev)));
    // ... and shown raw, the C1 byte is the server's byte, not U+008D.
    assert_eq!(shown(name, &Decision::Raw), "a%8Db");
    assert_eq!(shown(b"100%\xFF", &Decision::Raw), "100%25%FF");
}

#[test]
fn broken_utf8_shapes() {
    assert!(broken_utf8(b"a\xED\xA0\x80b"));
    assert!(broken_utf8("日本".as_bytes().split_last().unwrap().1));
    assert!(broken_utf8(b"\xC0\xAE\xC0\xAE"));
    assert!(!broken_utf8(b"caf\xE9"));
    assert!(!broken_utf8(&enc("windows-1251", "Игры")));
}

#[test]
fn mixed_directory_each_name_in_its_charset() {
    let ev = Evidence::default();
    let names = [
        enc("shift_jis", "写真フォルダ"),
        enc("windows-1251", "Документы"),
        enc("windows-1252", "Café crème.txt"),
        b"\xFF\xFE\x01garbage".to_vec(),
    ];
    let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let ds = decide_listing(&refs, &cx(&ev));
    let shownv: Vec<String> = refs.iter().zip(&ds).map(|(n, d)| shown(n, d)).collect();
    assert_eq!(
        shownv,
        ["写真フォルダ", "Документы", "Café crème.txt", "%FF%FE%01garbage"]
    );
    for (n, s) in refs.iter().zip(&shownv) {
        assert_eq!(typed_to_name(s, &refs, &ds).as_deref(), Some(*n));
    }
    assert_eq!(typed_to_name("%93%FA", &refs, &ds), None);
    let sjis_pct: String = refs[0].iter().map(|b| format!("%{b:02X}")).collect();
    assert_eq!(typed_to_name(&sjis_pct, &refs, &ds).as_deref(), Some(refs[0]));
}

#[test]
fn evidence_round_trips_and_accumulates() {
    let mut ev = Evidence::default();
    let sjis = Charset::for_label("shift_jis").unwrap();
    let d = Decision::Decoded {
        charset: sjis,
        text: "x".into(),
        confident: true,
    };
    ev.observe(&[d.clone(), d.clone(), d.clone(), Decision::Utf8]);
    assert_eq!(ev.likely(), Some(sjis));
    let line = ev.to_line();
    assert!(!line.contains('\n') && line.bytes().all(|b| (0x20..0x7F).contains(&b)));
    assert_eq!(Evidence::from_line(&line), ev);
    // one listing of another charset does not flip it
    let cp = Charset::for_label("windows-1251").unwrap();
    let e = Decision::Decoded {
        charset: cp,
        text: "y".into(),
        confident: true,
    };
    ev.observe(&vec![e; 10]);
    assert_ne!(ev.likely(), Some(cp));
    for garbage in [
        "",
        "ev1 utf8=x",
        "ev1 nosuch=3",
        "hello\nworld",
        "ev2 utf8=1",
        "ev1 utf8",
    ] {
        assert_eq!(Evidence::from_line(garbage), Evidence::default(), "{garbage}");
    }
}

proptest::proptest! {
    #[test]
    fn any_listing_is_shown_and_typed_back(
        names in proptest::collection::btree_set(proptest::collection::vec(proptest::prelude::any::<u8>(), 1..12), 1..5),
        feat_utf8 in proptest::prelude::any::<bool>(),
    ) {
        let ev = Evidence::default();
        let c = Context { explicit: None, feat_utf8, evidence: &ev };
        let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
        let ds = decide_listing(&refs, &c);
        proptest::prop_assert_eq!(ds.len(), refs.len());
        for (n, d) in refs.iter().zip(&ds) {
            let s = shown(n, d);
            if *d == Decision::Raw {
                proptest::prop_assert!(s.bytes().all(|b| (0x20..0x7F).contains(&b)));
            }
            if let Decision::Decoded { charset, text, .. } = d {
                let back = charset.from_utf8(text);
                proptest::prop_assert_eq!(back.as_deref(), Some(*n));
            }
            let typed = typed_to_name(&s, &refs, &ds);
            proptest::prop_assert_eq!(typed.as_deref(), Some(*n));
        }
    }
}

#[test]
fn feat_utf8_over_an_old_disk() {
    // Issue 50: vsftpd with `utf8` on over a disk of windows-1250 and
    // macintosh names. Each listing is decided as without FEAT UTF8 (these
    // names were `%HH`: too few non-ASCII characters to be "clearly
    // legacy"), and a valid UTF-8 name beside them stays UTF-8.
    let ev = Evidence::default();
    let feat = Context {
        explicit: None,
        feat_utf8: true,
        evidence: &ev,
    };
    let cz = [
        enc("windows-1250", "inč.docx"),
        enc("windows-1250", "Výkaz práce.xls"),
        "Отчёт.txt".as_bytes().to_vec(),
    ];
    let fr = [enc("macintosh", "nommé"), enc("macintosh", "Café crème.txt")];
    for (names, texts) in [
        (&cz[..], &["inč.docx", "Výkaz práce.xls", "Отчёт.txt"][..]),
        (&fr[..], &["nommé", "Café crème.txt"][..]),
    ] {
        let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
        let with = decide_listing(&refs, &feat);
        assert_eq!(with, decide_listing(&refs, &cx(&ev)));
        for ((n, d), t) in refs.iter().zip(&with).zip(texts) {
            assert_eq!(shown(n, d), *t, "{d:?}");
        }
    }
    // A short valid UTF-8 name that GBK also reads (`通知` is U+0368 U+05AA
    // in UTF-8) stays UTF-8 under FEAT UTF8, whatever its neighbours.
    let gbk = [enc("gbk", "通知"), enc("gbk", "会议记录.doc"), enc("gbk", "照片文件夹")];
    let refs: Vec<&[u8]> = gbk.iter().map(Vec::as_slice).collect();
    let ds = decide_listing(&refs, &feat);
    assert_eq!(ds.first(), Some(&Decision::Utf8));
    assert_eq!(shown(refs[1], &ds[1]), "会议记录.doc");
}

#[test]
fn romanian_with_cedillas_is_windows_1250() {
    // Issue 50: windows-1250 and ISO-8859-2 hold Romanian's `ş` `ţ` with a
    // cedilla (`BA`, `FE`), not the comma-below `ș` `ț` of today's text;
    // `ţ` (`FE`) is windows-1254's Turkish `ş`.
    let ev = Evidence::default();
    let names = [
        enc("windows-1250", "Timişoara"),
        enc("windows-1250", "Piaţa Unirii.jpg"),
        enc("windows-1250", "preţuri_2019.xls"),
    ];
    let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let ds = decide_listing(&refs, &cx(&ev));
    for ((n, d), t) in refs
        .iter()
        .zip(&ds)
        .zip(["Timişoara", "Piaţa Unirii.jpg", "preţuri_2019.xls"])
    {
        assert_eq!(shown(n, d), t, "{d:?}");
    }
    let one = enc("windows-1250", "Constanţa");
    assert_eq!(shown(&one, &decide_name(&one, &cx(&ev))), "Constanţa");
}

#[test]
fn an_apostrophe_joins_one_script() {
    // Issue 50: windows-1252 `com’è` (`92 E8`) was windows-1251 `com’и`,
    // a Latin word and a Cyrillic letter joined by an apostrophe. Alone
    // it is `%HH` now (nothing says which Latin charset), and beside
    // Italian names it is Italian, confidently.
    let ev = Evidence::default();
    let name = enc("windows-1252", "com’è");
    let d = decide_name(&name, &cx(&ev));
    assert!(
        !matches!(d, Decision::Decoded { charset, .. } if charset == Charset::for_label("windows-1251").unwrap()),
        "{d:?}"
    );
    let names = [
        enc("windows-1252", "com’è.txt"),
        enc("windows-1252", "perché no.doc"),
        enc("windows-1252", "città_2019.jpg"),
    ];
    let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let ds = decide_listing(&refs, &cx(&ev));
    assert_eq!(shown(refs[0], &ds[0]), "com’è.txt");
    assert!(
        matches!(ds[0], Decision::Decoded { confident: true, .. }),
        "{:?}",
        ds[0]
    );
}

#[test]
fn dos_short_names_are_capitals() {
    // Issue 50: a DOS short name is all capitals; windows-1253
    // `ΜΕΤΟΝΟ~1.RAR` was KOI8-R `летомо~1.RAR`, its capitals read as
    // small letters.
    let ev = Evidence::default();
    for (label, text) in [
        ("windows-1253", "ΜΕΤΟΝΟ~1.RAR"),
        ("windows-1251", "ДОКУМЕ~1.DOC"),
        ("koi8-r", "ДОКУМЕ~1.DOC"),
    ] {
        let name = enc(label, text);
        assert_eq!(shown(&name, &decide_name(&name, &cx(&ev))), text, "{label}");
    }
}

#[test]
fn dos_short_names_pay_nothing_for_their_capitals() {
    // Issue 50, eighth pass, part 3: a short name's capitals are the
    // format's, not the name's; 3 bits a capital after a letter put a
    // six-capital stem over the limit (`%DD%CA%D1...~1.ZIP`) beside a
    // legacy name of the same charset among an archive's ASCII names.
    let ev = Evidence::default();
    for (label, long, short) in [
        ("windows-1251", "Экспорт отчётов.zip", "ЭКСПОР~1.ZIP"),
        ("iso-8859-5", "Экспорт отчётов.zip", "ЭКСПОР~1.ZIP"),
        ("windows-1253", "Θεοδώρα Παπαδοπούλου.doc", "ΘΕΟΔΏΡ~1.DOC"),
    ] {
        let names: Vec<Vec<u8>> = [
            "IMG_0001.JPG".as_bytes().to_vec(),
            enc(label, long),
            b"setup_1.2.3.exe".to_vec(),
            enc(label, short),
            b"backup-2019-03-01.tar.gz".to_vec(),
        ]
        .into_iter()
        .collect();
        let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
        let ds = decide_listing(&refs, &cx(&ev));
        assert_eq!(shown(refs[1], &ds[1]), long, "{label}");
        assert_eq!(shown(refs[3], &ds[3]), short, "{label}");
    }
}

#[test]
fn random_bytes_and_a_lone_c3_beside_legacy_names_stay_raw() {
    // (Issue 50, fourth pass.) Beside Czech and German names, random bytes
    // that windows-1250 reads only far over its limit (`ýź°`) are not
    // carried by the directory, and a name that ends in a lone C3 after a
    // space is UTF-8 cut short, not `Ã` or `Ă`; the legacy names stay read.
    let ev = Evidence::default();
    let czech = ["Přehled účtů.xlsx", "Smlouva o dílo", "Fotky z dovolené", "Žádost.docx"];
    let german = ["Übersicht März.pdf", "Größen.txt", "Bücher"];
    let mut names: Vec<Vec<u8>> = czech.iter().map(|t| enc("windows-1250", t)).collect();
    names.extend(german.iter().map(|t| enc("windows-1252", t)));
    names.push(b"\xFD\x9F\xB0".to_vec());
    names.push(b"2007 entfernen \xC3".to_vec());
    names.push(b"\xC3".to_vec());
    let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let ds = decide_listing(&refs, &cx(&ev));
    for (name, d) in refs.iter().zip(&ds).skip(czech.len() + german.len()) {
        assert_eq!(*d, Decision::Raw, "{name:?}");
    }
    for (text, d) in czech.iter().chain(&german).zip(&ds) {
        assert!(
            matches!(d, Decision::Decoded { text: t, .. } if t == text),
            "{text}: {d:?}"
        );
    }
}

#[test]
fn a_frequent_word_pays_for_its_charset_in_a_directory() {
    // A mixed directory of Wagtail's validation part: Italian `sarà`
    // (ISO-8859-15 E0) beside French names in macintosh and Lithuanian ones
    // in windows-1257, where E0 is `ą`. The two Italian names' word bonus
    // did not pay for a third charset, and they were read `sarą` (issue
    // 50, fifth pass).
    let ev = Evidence::default();
    let names = [
        enc("macintosh", "demandée programmation entourés"),
        enc("macintosh", "créé-effectuer-520.tif"),
        enc("macintosh", "sì (9).7z"),
        enc("windows-1257", "tõttu 978"),
        enc("windows-1257", "27.06.2007 zoną formos"),
        enc("windows-1257", "lokalę"),
        enc("ISO-8859-15", "Värskendati ülevaade"),
        enc("ISO-8859-15", "sarà.zip"),
        enc("ISO-8859-15", "20260606 raccolta sarà"),
        b"Tambi\xC3".to_vec(),
    ];
    let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let ds = decide_listing(&refs, &cx(&ev));
    let shown_all: Vec<String> = refs.iter().zip(&ds).map(|(n, d)| shown(n, d)).collect();
    assert_eq!(shown_all.get(7).map(String::as_str), Some("sarà.zip"), "{shown_all:?}");
    assert_eq!(
        shown_all.get(8).map(String::as_str),
        Some("20260606 raccolta sarà"),
        "{shown_all:?}"
    );
}

#[test]
fn random_bytes_read_as_two_hanzi_stay_raw() {
    // D7 D5 B8 B8 is GBK `渍父`, two frequent hanzi that no word holds side
    // by side: random bytes of the validation parts, `%HH` since issue
    // 50's fifth pass. A word (`北京`) is still read alone.
    let ev = Evidence::default();
    assert_eq!(decide_name(b"\xD7\xD5\xB8\xB8", &cx(&ev)), Decision::Raw);
    let name = enc("GBK", "北京");
    assert_eq!(shown(&name, &decide_name(&name, &cx(&ev))), "北京");
}
