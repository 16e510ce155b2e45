#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

#[test]
fn sources_parse_and_print_back() {
    for (s, want) in [
        ("/srv/archive", Source::Dir("/srv/archive".into())),
        ("/srv/archive/", Source::Dir("/srv/archive".into())),
        ("file:///srv/a", Source::Dir("/srv/a".into())),
        (
            "s3://my-bucket/users/alice/",
            Source::S3 {
                bucket: "my-bucket".into(),
                prefix: "users/alice".into(),
            },
        ),
        (
            "s3://my-bucket",
            Source::S3 {
                bucket: "my-bucket".into(),
                prefix: String::new(),
            },
        ),
    ] {
        let got: Source = s.parse().unwrap();
        assert_eq!(got, want, "{s}");
        assert_eq!(got.to_string().parse::<Source>().unwrap(), got);
    }
    assert_eq!(Source::Dir("/srv/a".into()).to_string(), "/srv/a");
    for bad in [
        "srv/a",
        "./a",
        "/srv/../etc",
        "file://srv",
        "s3://",
        "s3://Upper/x",
        "s3://b/../x",
        "http://x/y",
        "/a\nb",
    ] {
        let e = bad.parse::<Source>().unwrap_err();
        assert!(matches!(e, AccountsError::BadSource(_)), "{bad}: {e}");
    }
}

#[test]
fn homes_inside_the_root_or_a_source() {
    assert_eq!("/".parse::<Home>().unwrap(), Home::Inside(b"/".to_vec()));
    assert_eq!("/alice/".parse::<Home>().unwrap(), Home::Inside(b"/alice".to_vec()));
    assert_eq!(
        "s3://bkt/alice".parse::<Home>().unwrap(),
        Home::Source(Source::S3 {
            bucket: "bkt".into(),
            prefix: "alice".into()
        })
    );
    assert_eq!(
        "file:///srv/alice".parse::<Home>().unwrap(),
        Home::Source(Source::Dir("/srv/alice".into()))
    );
    assert_eq!(Home::default().to_string(), "/");
    for bad in ["alice", "/a/../b", "//a", "s3://", "file://rel"] {
        assert!(matches!(bad.parse::<Home>(), Err(AccountsError::BadHome(_))), "{bad}");
    }
}

#[test]
fn names_tags_and_charsets() {
    for ok in ["alice", "bob.smith", "ユーザー", "a-b_c@example.org"] {
        check_name(ok).unwrap();
    }
    for bad in ["", "a b", "a/b", "a:b", "a\tb", &"x".repeat(65)] {
        assert!(check_name(bad).is_err(), "{bad:?}");
    }
    for ok in ["fr", "pt-BR", "zh-Hant-TW", "en-US-x-twain", "i-klingon"] {
        check_lang(ok).unwrap();
    }
    for bad in ["", "f", "fr_FR", "fr-", "-fr", "1a", "français", "toolongtag"] {
        assert!(check_lang(bad).is_err(), "{bad:?}");
    }
    for ok in [
        "windows-1251",
        "CP1251",
        "shift_jis",
        "windows-31j",
        "gbk",
        "utf-8",
        "koi8-r",
        "cp932",
        "CP949",
    ] {
        check_charset(ok).unwrap();
    }
    for bad in ["klingon", "utf-16", "iso-2022-kr", ""] {
        assert!(check_charset(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn vpaths_are_normalized() {
    assert_eq!(normalize_vpath("/").unwrap(), "/");
    assert_eq!(normalize_vpath("/pub/").unwrap(), "/pub");
    assert_eq!(normalize_vpath("/a/b").unwrap(), "/a/b");
    for bad in ["pub", "/a/../b", "/a//b", "/./a", "", "/a\nb"] {
        assert!(normalize_vpath(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn hashes_are_argon2id_phc() {
    let h = hash_password(b"s3cret").unwrap();
    assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
    assert!(is_valid_hash(&h));
    assert!(!is_valid_hash("s3cret"));
    assert!(!is_valid_hash("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ"));
}
