use super::download::{disposition, range};
use super::*;

#[test]
fn ranges_as_rfc_9110_reads_them() {
    assert_eq!(range(None, 100), Ok(None));
    assert_eq!(range(Some("bytes=0-9"), 100), Ok(Some((0, 10))));
    assert_eq!(range(Some("bytes=90-"), 100), Ok(Some((90, 10))));
    assert_eq!(range(Some("bytes=-5"), 100), Ok(Some((95, 5))));
    assert_eq!(range(Some("bytes=-500"), 100), Ok(Some((0, 100))));
    assert_eq!(range(Some("bytes=50-5000"), 100), Ok(Some((50, 50))));
    assert_eq!(range(Some("bytes=100-"), 100), Err(()));
    assert_eq!(range(Some("bytes=-0"), 100), Err(()));
    assert_eq!(range(Some("bytes=0-1,5-6"), 100), Ok(None), "several: the whole file");
    assert_eq!(range(Some("bytes=x-"), 100), Ok(None));
    assert_eq!(range(Some("items=0-1"), 100), Ok(None));
    assert_eq!(range(Some("bytes=5-2"), 100), Ok(None));
}

#[test]
fn dispositions_carry_the_name_twice() {
    assert_eq!(
        disposition("報告 1.txt".as_bytes()),
        "attachment; filename=\"______ 1.txt\"; filename*=UTF-8''%E5%A0%B1%E5%91%8A%201.txt".replace("______", "__")
    );
    let d = disposition(b"a\"b\\c.txt");
    assert!(d.starts_with("attachment; filename=\"a_b_c.txt\""), "{d}");
    // Not UTF-8: as shown, `%E9` (the `%` itself escaped in filename*).
    assert!(disposition(b"\xE9.txt").ends_with("filename*=UTF-8''%25E9.txt"));
}

#[test]
fn names_from_forms() {
    assert!(valid_name(b"a b.txt"));
    assert!(!valid_name(b".."));
    assert!(!valid_name(b"a/b"));
    assert!(!valid_name(b""));
    assert_eq!(base_name(b"C:\\Users\\x\\f.txt"), b"f.txt");
    assert_eq!(base_name("دليل.txt".as_bytes()), "دليل.txt".as_bytes());
}
