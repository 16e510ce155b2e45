use super::keys::{escape, faithful, unescape};

#[test]
fn names_and_keys_round_trip() {
    for name in ["a\rb", "100%", "%41", "日本語.txt", "tab\there", "plain"] {
        let mut k = String::new();
        escape(name.as_bytes(), &mut k);
        assert!(!k.chars().any(|c| c.is_ascii_control()), "{k:?}");
        assert_eq!(unescape(&k), name.as_bytes(), "{k}");
    }
    let mut k = String::new();
    escape(b"a\rb%", &mut k);
    assert_eq!(k, "a%0Db%25");
    // Another tool's stray % stays.
    assert_eq!(unescape("50%off"), b"50%off");
}

#[test]
fn keys_are_injective_and_nothing_downstream_rewrites_them() {
    let enc = |n: &str| {
        let mut k = String::new();
        escape(n.as_bytes(), &mut k);
        k
    };
    assert_eq!(enc(".. "), "..%20");
    assert_eq!(enc("..\u{3000}"), "..%E3%80%80");
    assert_eq!(enc(" a b "), "%20a b%20");
    assert_eq!(enc("\u{85}x"), "%C2%85x");
    let mut names = std::collections::BTreeSet::from(["in.txt".to_owned(), "...".to_owned(), "%2e%2e".to_owned()]);
    for ws in (0..=0x10FFFFu32)
        .filter_map(char::from_u32)
        .filter(|c| c.is_whitespace())
    {
        for n in [
            format!("..{ws}"),
            format!("{ws}.."),
            format!("in.txt{ws}"),
            format!("{ws}{ws}"),
            format!("a{ws}b"),
        ] {
            names.insert(n);
        }
    }
    let mut seen = std::collections::HashSet::new();
    for n in &names {
        let k = enc(n);
        assert!(seen.insert(k.clone()), "two names share the key {k:?}");
        assert_eq!(unescape(&k), n.as_bytes(), "{n:?}");
        // As a last component and as a directory, under a prefix.
        assert!(faithful(&format!("site/a/{k}")), "{n:?} -> {k:?}");
        assert!(faithful(&format!("site/a/{k}/")), "{n:?} -> {k:?}");
        // OpenDAL's own normalization leaves it alone.
        let full = format!("site/a/{k}");
        assert_eq!(full.trim(), full);
    }
    for bad in ["site/..", "site/a/../", " site/", "site//a", "/site", "a/./b", "a\rb"] {
        assert!(!faithful(bad), "{bad:?}");
    }
    assert!(faithful("") && faithful("site/") && faithful("site/a"));
}

#[test]
fn octets_that_are_not_utf8_have_keys_and_come_back() {
    let enc = |n: &[u8]| {
        let mut k = String::new();
        escape(n, &mut k);
        k
    };
    assert_eq!(enc(b"caf\xe9.txt"), "caf%E9.txt");
    assert_eq!(enc(b"\xff\xfe"), "%FF%FE");
    // A stray octet is not whitespace: the spaces beside it are inside.
    assert_eq!(enc(b" \xe9 "), "%20%E9%20");
    assert_eq!(enc(b"a \xe9 b"), "a %E9 b");
    assert_eq!(enc(b"  "), "%20%20");
    for n in [
        &b"caf\xe9.txt"[..],
        b"\x93\xfa\x96\x7b",
        b"\xe6\x97",
        b"  ",
        b"%E9",
        b"\xc0\xae",
    ] {
        let k = enc(n);
        assert_eq!(unescape(&k), n, "{k}");
        assert!(faithful(&format!("site/{k}")), "{k}");
    }
    assert_ne!(enc(b"%E9"), enc(b"\xe9"));
}
