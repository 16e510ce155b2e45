use super::*;
use proptest::prelude::*;
use std::net::{Ipv4Addr, Ipv6Addr};

const NIHONGO_TXT: &str = "ftp://host/%E6%97%A5%E6%9C%AC%E8%AA%9E.txt";

fn url(s: &str) -> FtpUrl {
    match FtpUrl::parse(s) {
        Ok(u) => u,
        Err(e) => panic!("{s:?} should parse: {e}"),
    }
}

fn err(s: &str) -> UrlError {
    match FtpUrl::parse(s) {
        Ok(u) => panic!("{s:?} should not parse, got {u:?}"),
        Err(e) => e,
    }
}

fn segs(list: &[&[u8]]) -> Vec<Vec<u8>> {
    list.iter().map(|s| s.to_vec()).collect()
}

#[test]
fn raw_utf8_and_escapes_are_the_same_url() {
    // Masinter §3.2: "accept both the raw UTF-8 or the hex-encoded version".
    let raw = url("ftp://host/日本語.txt");
    let escaped = url(NIHONGO_TXT);
    assert_eq!(raw, escaped);
    assert_eq!(raw.segments, segs(&["日本語.txt".as_bytes()]));
    assert_eq!(raw.host, Host::Name("host".into()));
    // Masinter §2: UTF-8, then any octet not allowed becomes %HH.
    assert_eq!(raw.to_string(), NIHONGO_TXT);
    assert_eq!(raw.to_iri_string(), "ftp://host/日本語.txt");
    // Lowercase hex is accepted; output is uppercase.
    assert_eq!(
        url("ftp://host/%e6%97%a5%e6%9c%ac%e8%aa%9e.txt").to_string(),
        NIHONGO_TXT
    );
}

#[test]
fn cli_encode_and_decode() {
    assert_eq!(encode_url_or_path("ftp://host/日本語.txt"), Ok(NIHONGO_TXT.to_owned()));
    assert_eq!(
        encode_url_or_path("/pub/日本語"),
        Ok("/pub/%E6%97%A5%E6%9C%AC%E8%AA%9E".to_owned())
    );
    // A bare path is literal text.
    assert_eq!(encode_url_or_path("100% a;b?#"), Ok("100%25%20a%3Bb%3F%23".to_owned()));
    assert_eq!(decode_url(NIHONGO_TXT), Ok("ftp://host/日本語.txt".to_owned()));
    assert_eq!(
        decode_url("/pub/%E6%97%A5%E6%9C%AC%E8%AA%9E"),
        Ok("/pub/日本語".to_owned())
    );
    // Invalid UTF-8 and ASCII escapes stay, exactly as written.
    assert_eq!(
        decode_url("/a%2fb/%93%fa%96%7B/%e6%97%a5 x%C3"),
        Ok("/a%2fb/%93%fa%96%7B/日 x%C3".to_owned())
    );
    // Bidi overrides and ideographic space stay escaped.
    assert_eq!(decode_url("%E2%80%AE%E3%80%80"), Ok("%E2%80%AE%E3%80%80".to_owned()));
    assert_eq!(
        decode_url("ftp://host/%93%FA%96%7B"),
        Ok("ftp://host/%93%FA%96%7B".to_owned())
    );
    assert_eq!(decode_url("%zz"), Err(UrlError::InvalidPercentEncoding { offset: 0 }));
    assert_eq!(decode_url("ab%4"), Err(UrlError::InvalidPercentEncoding { offset: 2 }));
    assert!(matches!(
        encode_url_or_path("http://x/"),
        Err(UrlError::UnsupportedScheme(_))
    ));
}

#[test]
fn user_password_port() {
    let u = url("ftp://alice:p%40ss%3Aw0rd@example.com:2121/pub/x.tar.gz");
    assert_eq!(u.user.as_deref(), Some(&b"alice"[..]));
    // RFC 1738: ":", "@" and "/" in user and password must be encoded.
    assert_eq!(u.password.as_deref(), Some(&b"p@ss:w0rd"[..]));
    assert_eq!(u.host, Host::Name("example.com".into()));
    assert_eq!(u.port, Some(2121));
    assert_eq!(u.port_or_default(), 2121);
    assert_eq!(u.segments, segs(&[b"pub", b"x.tar.gz"]));
    assert_eq!(u.to_string(), "ftp://alice:p%40ss%3Aw0rd@example.com:2121/pub/x.tar.gz");
    // A raw @ in the password: the last @ ends the userinfo.
    let lenient = url("ftp://alice:p@ss@example.com/");
    assert_eq!(lenient.password.as_deref(), Some(&b"p@ss"[..]));
    assert_eq!(lenient.to_string(), "ftp://alice:p%40ss@example.com/");
    // Non-ASCII user and password are UTF-8 octets.
    let u = url("ftp://J%C3%BCrgen:pa%C3%9F@h/");
    assert_eq!(u.user.as_deref(), Some("Jürgen".as_bytes()));
    assert_eq!(u.password.as_deref(), Some("paß".as_bytes()));
    assert_eq!(u.to_iri_string(), "ftp://Jürgen:paß@h/");
    // User without password, empty user, empty port.
    let u = url("ftp://anonymous@h");
    assert_eq!(
        (u.user.as_deref(), u.password.as_deref()),
        (Some(&b"anonymous"[..]), None)
    );
    assert_eq!(url("ftp://@h").user.as_deref(), Some(&b""[..]));
    assert_eq!(url("ftp://h:/").port, None);
    assert_eq!(url("ftp://h/").port_or_default(), 21);
    assert_eq!(url("ftp://h:65535/").port, Some(65535));
}

#[test]
fn password_is_redacted_in_debug() {
    let dbg = format!("{:?}", url("ftp://u:secret@h/"));
    assert!(!dbg.contains("secret"), "{dbg}");
}

#[test]
fn hosts() {
    let u = url("ftp://[::1]:2121/");
    assert_eq!(u.host, Host::Ipv6(Ipv6Addr::LOCALHOST));
    assert_eq!(u.port, Some(2121));
    assert_eq!(u.to_string(), "ftp://[::1]:2121/");
    assert_eq!(url("ftp://[2001:DB8::1]").to_string(), "ftp://[2001:db8::1]");
    assert_eq!(url("ftp://127.0.0.1/").host, Host::Ipv4(Ipv4Addr::LOCALHOST));
    // No IDNA: the Unicode name is kept; canonical form is %HH UTF-8.
    let u = url("ftp://ホスト.jp/");
    assert_eq!(u.host, Host::Name("ホスト.jp".into()));
    assert_eq!(u.to_string(), "ftp://%E3%83%9B%E3%82%B9%E3%83%88.jp/");
    assert_eq!(u.to_iri_string(), "ftp://ホスト.jp/");
    assert_eq!(url("ftp://%E3%83%9B%E3%82%B9%E3%83%88.jp/"), u);
    assert_eq!(u.host.to_string(), "ホスト.jp");
    assert_eq!(Host::parse("::1"), Ok(Host::Ipv6(Ipv6Addr::LOCALHOST)));
    assert_eq!(Host::parse("[::1]"), Ok(Host::Ipv6(Ipv6Addr::LOCALHOST)));
    assert_eq!("example.org".parse::<Host>(), Ok(Host::Name("example.org".into())));
    assert!(Host::parse("h:21").is_err());
}

#[test]
fn typecodes() {
    let u = url("ftp://h/pub/file.bin;type=i");
    assert_eq!(u.typecode, Some(TypeCode::I));
    assert_eq!(u.segments, segs(&[b"pub", b"file.bin"]));
    assert!(!u.is_directory());
    let u = url("ftp://h/pub;TYPE=D");
    assert_eq!(u.typecode, Some(TypeCode::D));
    assert!(u.is_directory());
    assert_eq!(u.to_string(), "ftp://h/pub;type=d");
    assert_eq!(url("ftp://h/x;type=A").typecode, Some(TypeCode::A));
    // An escaped ; is part of the name, not a typecode.
    let u = url("ftp://h/x%3Btype=i");
    assert_eq!((u.typecode, u.segments), (None, segs(&[b"x;type=i"])));
    // ;type= only counts on the name; elsewhere a raw ; is literal.
    let u = url("ftp://h/a;type=i/b;c");
    assert_eq!((u.typecode, u.segments.clone()), (None, segs(&[b"a;type=i", b"b;c"])));
    assert_eq!(u.to_string(), "ftp://h/a%3Btype=i/b%3Bc");
    assert_eq!(url("ftp://h/;type=d").segments, segs(&[b""]));
    assert_eq!(err("ftp://h/x;type=q"), UrlError::InvalidTypeCode("q".into()));
    assert_eq!(err("ftp://h/x;type=ii"), UrlError::InvalidTypeCode("ii".into()));
    assert_eq!(err("ftp://h/x;type="), UrlError::InvalidTypeCode(String::new()));
}

#[test]
fn path_shapes() {
    // RFC 1738 §3.2.2: each segment is a CWD, the last one the name.
    let none = url("ftp://h");
    assert_eq!((none.segments.len(), none.name()), (0, None));
    assert!(none.is_directory());
    assert_eq!(none.to_string(), "ftp://h");
    let root = url("ftp://h/");
    assert_eq!(root.segments, segs(&[b""]));
    assert!(root.is_directory());
    assert_eq!(root.to_string(), "ftp://h/");
    let dir = url("ftp://h/a/b/");
    assert_eq!(dir.segments, segs(&[b"a", b"b", b""]));
    assert_eq!(dir.cwds(), segs(&[b"a", b"b"]).as_slice());
    assert_eq!(dir.name(), Some(&b""[..]));
    assert!(dir.is_directory());
    assert_eq!(dir.path_bytes(), b"a/b/");
    let file = url("ftp://h/a/b");
    assert_eq!(file.path_bytes(), b"a/b");
    assert_eq!(file.name(), Some(&b"b"[..]));
    assert!(!file.is_directory());
    assert_eq!(url("ftp://h//x").segments, segs(&[b"", b"x"]));
}

#[test]
fn escaped_slash_stays_inside_its_segment() {
    // RFC 1738: ftp://myname@host.dom/%2Fetc/motd → CWD /etc, RETR motd.
    let u = url("ftp://myname@host.dom/%2Fetc/motd");
    assert_eq!(u.segments, segs(&[b"/etc", b"motd"]));
    assert_eq!(u.path_bytes(), b"/etc/motd");
    assert_eq!(u.to_string(), "ftp://myname@host.dom/%2Fetc/motd");
    assert_eq!(u.to_iri_string(), "ftp://myname@host.dom/%2Fetc/motd");
    let u = url("ftp://h/a%2Fb");
    assert_eq!(u.segments, segs(&[b"a/b"]));
    assert_ne!(u, url("ftp://h/a/b"));
}

#[test]
fn shift_jis_escapes_are_kept_as_bytes() {
    let u = url("ftp://h/pub/%93%FA%96%7B.txt");
    assert_eq!(u.segments, segs(&[b"pub", b"\x93\xFA\x96\x7B.txt"]));
    // 0x7B is '{', which RFC 1738 calls unsafe, so it stays escaped.
    assert_eq!(u.to_string(), "ftp://h/pub/%93%FA%96%7B.txt");
    assert_eq!(u.to_iri_string(), "ftp://h/pub/%93%FA%96%7B.txt");
}

#[test]
fn iri_form_escapes_what_is_not_visible_text() {
    let mut u = FtpUrl::new(Host::Name("h".into()));
    u.segments = vec![
        "evil\u{202E}txt.exe".into(),
        "100%".into(),
        "a b\u{3000}c".into(),
        "\x1b[31m".into(),
        "שלום".into(),
    ];
    assert_eq!(
        u.to_iri_string(),
        "ftp://h/evil%E2%80%AEtxt.exe/100%25/a%20b%E3%80%80c/%1B%5B31m/שלום"
    );
    assert_eq!(url(&u.to_iri_string()), u);
    assert_eq!(url(&u.to_string()), u);
}

#[test]
fn canonical_form_is_ascii() {
    let u = url("FTP://h/~user/a%20b/[x]{y}|\\^`\"<>?;type=a");
    let s = u.to_string();
    assert!(s.is_ascii());
    assert_eq!(s, "ftp://h/~user/a%20b/%5Bx%5D%7By%7D%7C%5C%5E%60%22%3C%3E%3F;type=a");
    assert_eq!(url(&s), u);
}

#[test]
fn errors() {
    assert_eq!(err("ftp://host:99999/"), UrlError::PortOutOfRange("99999".into()));
    assert_eq!(err("ftp://host:0/"), UrlError::PortOutOfRange("0".into()));
    assert_eq!(
        err("ftp://host:99999999999999999999/"),
        UrlError::PortOutOfRange("99999999999999999999".into())
    );
    assert_eq!(err("ftp://host:2x/"), UrlError::InvalidPort("2x".into()));
    assert_eq!(err("http://x/"), UrlError::UnsupportedScheme("http".into()));
    assert_eq!(err("sftp://x/"), UrlError::UnsupportedScheme("sftp".into()));
    assert_eq!(err("ftp://ho st/"), UrlError::ForbiddenChar { ch: ' ', offset: 8 });
    assert_eq!(err("ftp://h/a\nb"), UrlError::ForbiddenChar { ch: '\n', offset: 9 });
    assert_eq!(
        err("ftp://h/\u{85}"),
        UrlError::ForbiddenChar {
            ch: '\u{85}',
            offset: 8
        }
    );
    assert_eq!(
        err("ftp://h/\u{3000}"),
        UrlError::ForbiddenChar {
            ch: '\u{3000}',
            offset: 8
        }
    );
    assert_eq!(err("ftp://h/x#frag"), UrlError::ForbiddenChar { ch: '#', offset: 9 });
    assert_eq!(err("ftp://h/%zz"), UrlError::InvalidPercentEncoding { offset: 8 });
    assert_eq!(err("ftp://h/a/%G1"), UrlError::InvalidPercentEncoding { offset: 10 });
    assert_eq!(err("ftp://h/%"), UrlError::InvalidPercentEncoding { offset: 8 });
    assert_eq!(err("ftp://u%:p@h/"), UrlError::InvalidPercentEncoding { offset: 7 });
    assert_eq!(err("ftp://u:p%@h/"), UrlError::InvalidPercentEncoding { offset: 9 });
    assert_eq!(err("%zz"), UrlError::MissingScheme);
    assert_eq!(err("ftp://[::1/"), UrlError::UnclosedBracket);
    assert_eq!(err("ftp://[nope]/"), UrlError::InvalidIpv6("nope".into()));
    assert!(matches!(err("ftp://[::1]x/"), UrlError::InvalidHost { .. }));
    assert_eq!(err("ftp:///pub"), UrlError::MissingHost);
    assert_eq!(err("ftp://u@:21/"), UrlError::MissingHost);
    assert_eq!(err("ftp:host"), UrlError::MissingAuthority);
    assert_eq!(err("/pub/x"), UrlError::MissingScheme);
    assert!(matches!(err("ftp://999.1.1.1/"), UrlError::InvalidHost { .. }));
    assert!(matches!(err("ftp://a%2Fb/"), UrlError::InvalidHost { .. }));
    assert!(matches!(err("ftp://%C0%AE/"), UrlError::InvalidHost { .. }));
    assert!(matches!(err("ftp://h\u{202E}x/"), UrlError::InvalidHost { .. }));
    assert_eq!(
        FtpUrl::parse_bytes(b"ftp://h/\x93\xFA"),
        Err(UrlError::NotUtf8 { offset: 8, byte: 0x93 })
    );
    assert_eq!(
        FtpUrl::parse_bytes("ftp://h/日".as_bytes()),
        Ok(url("ftp://h/%E6%97%A5"))
    );
    // Messages say what to do.
    assert_eq!(
        UrlError::ForbiddenChar { ch: ' ', offset: 8 }.to_string(),
        "character ' ' (U+0020) at offset 8 is not allowed in a URL; percent-encode it"
    );
    assert_eq!(
        UrlError::NotUtf8 { offset: 8, byte: 0x93 }.to_string(),
        "octet 0x93 at offset 8 is not UTF-8; write it as %93"
    );
}

fn host_strategy() -> impl Strategy<Value = Host> {
    prop_oneof![
        "[a-z0-9][a-z0-9._-]{0,20}[a-z]".prop_map(Host::Name),
        "[a-zホスト日本語é]{1,8}\\.jp".prop_map(Host::Name),
        any::<[u8; 4]>().prop_map(|o| Host::Ipv4(Ipv4Addr::from(o))),
        any::<[u8; 16]>().prop_map(|o| Host::Ipv6(Ipv6Addr::from(o))),
    ]
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..12),
        ".{0,6}".prop_map(String::into_bytes),
    ]
}

fn url_strategy() -> impl Strategy<Value = FtpUrl> {
    (
        prop::option::of((bytes(), prop::option::of(bytes()))),
        host_strategy(),
        prop::option::of(1u16..=u16::MAX),
        prop::collection::vec(bytes(), 0..5),
        prop::option::of(prop_oneof![Just(TypeCode::A), Just(TypeCode::I), Just(TypeCode::D)]),
        any::<bool>(),
    )
        .prop_map(|(userinfo, host, port, segments, typecode, secure)| {
            let (user, password) = match userinfo {
                Some((u, p)) => (Some(u), p),
                None => (None, None),
            };
            // A typecode needs a url-path to hang on (see FtpUrl docs).
            let typecode = if segments.is_empty() { None } else { typecode };
            FtpUrl {
                secure,
                user,
                password,
                host,
                port,
                segments,
                typecode,
            }
        })
}

proptest! {
    #[test]
    fn round_trips_through_canonical_text(u in url_strategy()) {
        let s = u.to_string();
        prop_assert!(s.is_ascii());
        prop_assert_eq!(FtpUrl::parse(&s), Ok(u.clone()));
        prop_assert_eq!(encode_url_or_path(&s), Ok(s.clone()));
    }

    #[test]
    fn round_trips_through_iri_text(u in url_strategy()) {
        let iri = u.to_iri_string();
        prop_assert_eq!(FtpUrl::parse(&iri), Ok(u.clone()));
        prop_assert_eq!(FtpUrl::parse(&iri).map(|v| v.to_string()), Ok(u.to_string()));
    }

    #[test]
    fn round_trips_through_written_text(u in url_strategy()) {
        // `url decode` then `url encode` gives the canonical URL back.
        let written = u.to_written_string();
        prop_assert_eq!(FtpUrl::parse_written(&written), Ok(u.clone()));
        prop_assert_eq!(decode_url(&u.to_string()), Ok(written.clone()));
        prop_assert_eq!(encode_url_or_path(&written), Ok(u.to_string()));
    }

    #[test]
    fn written_text_is_stable(path in "\\PC{0,24}", bare in any::<bool>()) {
        // Whatever `url encode` accepts, `url decode` turns into a text that
        // `url encode` turns into the same URL or path again.
        let input = if bare { path } else { format!("ftp://h/{path}") };
        if let Ok(encoded) = encode_url_or_path(&input) {
            prop_assert!(encoded.is_ascii());
            let decoded = decode_url(&encoded);
            prop_assert!(decoded.is_ok(), "{:?}", decoded);
            prop_assert_eq!(encode_url_or_path(&decoded.unwrap_or_default()), Ok(encoded));
        }
    }

    #[test]
    fn bare_path_encode_then_decode_segments(path in "[^%]{0,16}") {
        // Each encoded segment decodes back to the literal segment (a `%`
        // followed by two hex digits would be an escape already there).
        let encoded = encode_url_or_path(&path);
        prop_assert!(encoded.is_ok());
        let encoded = encoded.unwrap_or_default();
        prop_assert!(encoded.is_ascii());
        let back: Vec<Vec<u8>> = encoded
            .split('/')
            .map(|s| percent_decode_str(s).collect())
            .collect();
        let expected: Vec<Vec<u8>> = path.split('/').map(|s| s.as_bytes().to_vec()).collect();
        prop_assert_eq!(back, expected);
    }

    #[test]
    fn parse_never_panics(s in "\\PC{0,40}") {
        let _ = FtpUrl::parse(&s);
        let _ = decode_url(&s);
        let _ = encode_url_or_path(&s);
    }

    #[test]
    fn parse_bytes_never_panics(b in prop::collection::vec(any::<u8>(), 0..40)) {
        let mut input = b"ftp://".to_vec();
        input.extend(b);
        let _ = FtpUrl::parse_bytes(&input);
    }
}

#[test]
fn encode_takes_a_url_as_a_person_writes_it() {
    // Every octet that may not stand raw in its part becomes %HH (RFC 3986,
    // Masinter §2): SP, '#', '?' in a path, a '%' that starts no escape,
    // non-ASCII as UTF-8, controls.
    let enc = |s: &str| encode_url_or_path(s).unwrap_or_else(|e| panic!("{s:?}: {e}"));
    assert_eq!(enc("ftp://u@h/דוד/a b.txt"), "ftp://u@h/%D7%93%D7%95%D7%93/a%20b.txt");
    assert_eq!(enc("ftp://h/C# notes/#1?.txt"), "ftp://h/C%23%20notes/%231%3F.txt");
    assert_eq!(enc("ftp://h/100% sure/50%"), "ftp://h/100%25%20sure/50%25");
    assert_eq!(enc("ftp://h/a\tb\u{7f}"), "ftp://h/a%09b%7F");
    assert_eq!(enc("ftp://h/\u{3000}x\u{85}"), "ftp://h/%E3%80%80x%C2%85");
    // A '%' followed by two hex digits is an escape the person already wrote.
    assert_eq!(enc("ftp://h/%E6%97%A5 1"), "ftp://h/%E6%97%A5%201");
    // In the userinfo too; its delimiters keep their meaning.
    assert_eq!(enc("ftp://my user:p@ss #1@h/"), "ftp://my%20user:p%40ss%20%231@h/");
    // What is not a URL stays an error.
    assert!(matches!(
        encode_url_or_path("ftp://ho st/"),
        Err(UrlError::InvalidHost { .. })
    ));
    assert_eq!(
        encode_url_or_path("ftp://h:9 9/"),
        Err(UrlError::InvalidPort("9%209".into()))
    );
}

#[test]
fn decode_gives_back_what_encode_took() {
    for written in [
        "ftp://u@h/דוד/a b.txt",
        "ftp://h/C# notes/#1?.txt",
        "ftp://h/100% sure/50%",
        "ftp://my user:p%40ss #1@h/",
        "ftp://h/[draft] {v2} a|b \"q\" <x> ^`\\.txt",
        "ftp://h/%2Fetc/a%3Bb;type=a",
        "ftp://h/%2541 is not A",
        "ftp://ホスト.jp/日本語 ファイル.txt",
        "/pub/a b #1?/100%",
    ] {
        let encoded = encode_url_or_path(written).unwrap_or_else(|e| panic!("{written:?}: {e}"));
        assert!(encoded.is_ascii(), "{encoded}");
        assert_eq!(decode_url(&encoded).as_deref(), Ok(written), "via {encoded}");
    }
}

#[test]
fn decode_keeps_what_cannot_be_written_raw() {
    // Escapes of separators and delimiters, of controls, of invisible or
    // bidi characters and of octets that are not UTF-8 stay %HH, and so does
    // a '%' that would otherwise read as the start of an escape.
    for kept in [
        "ftp://h/a%2Fb/c%3Bd",
        "ftp://u%3Ax%40y:p%3Aw@h/",
        "ftp://h/%09%7F%E3%80%80%E2%80%AE",
        "ftp://h/%93%FA%96%7B",
        "ftp://h/%2541",
    ] {
        assert_eq!(decode_url(kept).as_deref(), Ok(kept));
    }
    assert_eq!(decode_url("ftp://h/%25%20%23%3F"), Ok("ftp://h/% #?".to_owned()));
}

#[test]
fn ftps_is_implicit_ftps_on_port_990() {
    let u = url("FTPS://bob@h/日本語.txt");
    assert!(u.secure);
    assert_eq!(u.port_or_default(), 990);
    assert_eq!(u.to_string(), "ftps://bob@h/%E6%97%A5%E6%9C%AC%E8%AA%9E.txt");
    assert_eq!(url("ftps://h:2990/").port_or_default(), 2990);
    let plain = url("ftp://h/");
    assert!(!plain.secure);
    assert_eq!(plain.port_or_default(), 21);
}
