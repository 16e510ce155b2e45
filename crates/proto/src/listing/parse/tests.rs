use super::*;
use crate::listing::{list_line, mlsd_line, mlsx_facts, Entry, EntryKind, MLST_FACTS};
use proptest::prelude::*;

/// 2026-11-22 05:08:00 UTC.
const NOW: i64 = 1_795_324_080;

fn at(y: i64, mo: u32, d: u32, h: u32, mi: u32) -> i64 {
    to_unix(y, mo, d, h, mi, 0).unwrap()
}

fn list(line: &[u8]) -> ParsedEntry {
    parse_list_line(line, NOW).unwrap_or_else(|| panic!("no entry: {}", line.escape_ascii()))
}

fn link(target: &[u8]) -> ParsedKind {
    ParsedKind::Symlink {
        target: Some(target.to_vec()),
    }
}

fn mlsx(line: &[u8]) -> ParsedEntry {
    parse_mlsx_line(line).unwrap_or_else(|| panic!("no entry: {}", line.escape_ascii()))
}

#[test]
fn days_from_civil_inverts_civil() {
    assert_eq!(NOW, at(2026, 11, 22, 5, 8));
    for t in [
        0,
        -1,
        951_782_400,
        1_795_000_000,
        4_102_444_800,
        -62_135_596_800,
        253_402_300_799,
    ] {
        let c = Civil::from_unix(t);
        assert_eq!(
            to_unix(c.year, c.month, c.day, c.hour, c.minute, c.second),
            Some(t),
            "{t}"
        );
    }
    assert_eq!(to_unix(2025, 2, 29, 0, 0, 0), None);
    assert!(to_unix(2024, 2, 29, 0, 0, 0).is_some());
    assert_eq!(to_unix(i64::MAX, 3, 1, 0, 0, 0), None);
}

#[test]
fn vsftpd_numeric_owner_zero_padded_day() {
    let e = list(b"drwxr-xr-x    2 1000     1000         4096 Nov 08 05:08 pub");
    assert_eq!(e.name, b"pub");
    assert_eq!(e.kind, ParsedKind::Dir);
    assert_eq!(e.size, Some(4096));
    assert_eq!(e.modified, Some(at(2026, 11, 8, 5, 8)));
    assert_eq!(e.mode, Some(0o755));
}

#[test]
fn proftpd_old_date_and_spaces_in_name() {
    let e = list(b"-rw-r--r--   1 ftp      ftp          1234 Nov 18  2024 name with  spaces ");
    assert_eq!(e.name, b"name with  spaces ");
    assert_eq!(e.kind, ParsedKind::File);
    assert_eq!(e.size, Some(1234));
    assert_eq!(e.modified, Some(at(2024, 11, 18, 0, 0)));
    assert_eq!(e.mode, Some(0o644));
    // A name that itself starts with a space: exactly one separator.
    let e = list(b"-rw-r--r--   1 ftp      ftp             0 Nov 18 11:06  lead");
    assert_eq!(e.name, b" lead");
}

#[test]
fn pure_ftpd_and_pyftpdlib_utf8_names() {
    let e = list("-rw-r--r--    1 1000       1000             1234 Nov 18 11:06 日本語.txt".as_bytes());
    assert_eq!(e.name, "日本語.txt".as_bytes());
    assert_eq!(e.modified, Some(at(2026, 11, 18, 11, 6)));
    let e = list("-rw-rw-r--   1 giampaolo giampaolo     5120 Mar 03 09:30 Ελληνικά άρθρα.pdf".as_bytes());
    assert_eq!(e.name, "Ελληνικά άρθρα.pdf".as_bytes());
    assert_eq!(e.mode, Some(0o664));
}

#[test]
fn raw_shift_jis_bytes_are_kept() {
    let e = list(b"-rw-r--r-- 1 ftp ftp 12 Jan  1  2020 \x93\xfa\x96\x7b.txt");
    assert_eq!(e.name, b"\x93\xfa\x96\x7b.txt");
    let e = list(b"drwxr-xr-x 1 ftp ftp 0 Jan  1  2020 \x93\xfa\x96\x7b");
    assert_eq!((e.name.as_slice(), e.kind), (&b"\x93\xfa\x96\x7b"[..], ParsedKind::Dir));
}

#[test]
fn symlinks_keep_target() {
    let e = list(b"lrwxrwxrwx   1 u        g               7 Jan  1  2020 link -> target");
    assert_eq!(e.name, b"link");
    assert_eq!(e.kind, link(b"target"));
    assert_eq!(e.size, Some(7));
    let e = list(b"lrwxrwxrwx 1 0 0 20 Feb 29  2024 my link -> ../a dir/x -> y");
    assert_eq!(e.name, b"my link");
    assert_eq!(e.kind, link(b"../a dir/x -> y"));
    assert_eq!(e.modified, Some(at(2024, 2, 29, 0, 0)));
    // Our own server does not print targets.
    let e = list(b"lrwxrwxrwx   1 ftp ftp            7 Nov 18 11:06 link");
    assert_eq!(e.kind, ParsedKind::Symlink { target: None });
}

#[test]
fn missing_group_and_missing_link_count() {
    let e = list(b"-rw-r--r-- 1 ftp 1234 Nov 18 11:06 no group");
    assert_eq!((e.name.as_slice(), e.size), (&b"no group"[..], Some(1234)));
    let e = list(b"drwxr-xr-x   folder        0 Nov 22 05:08 x");
    assert_eq!((e.kind, e.size), (ParsedKind::Dir, Some(0)));
    // An owner or group that looks like a month does not confuse it.
    let e = list(b"-rw-r--r-- 1 Jan Feb 99 Dec 31  1999 Mar 1 2000 n");
    assert_eq!(e.name, b"Mar 1 2000 n");
    assert_eq!(e.size, Some(99));
}

#[test]
fn special_mode_bits_and_acl_marker() {
    assert_eq!(list(b"drwxrwxrwt 9 root root 4096 Nov 22 05:08 tmp").mode, Some(0o1777));
    assert_eq!(list(b"-rwsr-xr-x 1 root root 1 Nov 22 05:08 su").mode, Some(0o4755));
    assert_eq!(list(b"drwxr-sr-x+ 2 a b 4096 Nov 22 05:08 acl").mode, Some(0o2755));
    assert_eq!(list(b"-rwSr-lr-T@ 1 a b 1 Nov 22 05:08 odd").mode, Some(0o7644));
    let e = list(b"crw-rw-rw- 1 root root 1, 3 Nov 22 05:08 null");
    assert_eq!((e.kind, e.name.as_slice()), (ParsedKind::Other, &b"null"[..]));
    let e = list(b"?--------- 1 ftp ftp 0 Nov 22 05:08 sock");
    assert_eq!((e.kind, e.mode), (ParsedKind::Other, Some(0)));
}

#[test]
fn not_entries() {
    for line in [
        &b"total 12"[..],
        b"",
        b"   ",
        b"ls: cannot open directory .: Permission denied",
        b"-rw-r--r-- 1 ftp ftp 1234 Nov 18 11:06",
        b"-rw-r--r-- 1 ftp ftp 1234 Nov 18 11:06 ",
        b"-rw-r--r-- 1 ftp ftp 1234 Nox 18 11:06 x",
        b"-rw-r--r-- 1 ftp ftp 1234 Nov 32 11:06 x",
        b"-rw-r--r-- 1 ftp ftp 1234 Nov 18 24:06 x",
        b"-rwxr-xr-xx 1 ftp ftp 1 Nov 18 11:06 x",
        b"-rwzr-xr-x 1 ftp ftp 1 Nov 18 11:06 x",
        b"11-22-26  05:08AM",
        b"11-22-26  13:08PM  1 x",
        b"13-22-26  05:08AM  1 x",
        b"11-22-26  05:08AM  <FILE> x",
    ] {
        assert_eq!(parse_list_line(line, NOW), None, "{}", line.escape_ascii());
    }
}

#[test]
fn recent_dates_pick_the_year_nearest_now() {
    let jan = at(2027, 1, 10, 12, 0);
    let e = parse_list_line(b"-rw-r--r-- 1 a b 1 Dec 25 10:00 x", jan).unwrap();
    assert_eq!(e.modified, Some(at(2026, 12, 25, 10, 0)));
    let e = parse_list_line(b"-rw-r--r-- 1 a b 1 Jan 05 10:00 x", jan).unwrap();
    assert_eq!(e.modified, Some(at(2027, 1, 5, 10, 0)));
    // Five months ago, and a bit in the future (clock skew).
    let e = parse_list_line(b"-rw-r--r-- 1 a b 1 Jun 30 23:59 x", NOW).unwrap();
    assert_eq!(e.modified, Some(at(2026, 6, 30, 23, 59)));
    let e = parse_list_line(b"-rw-r--r-- 1 a b 1 Nov 23 00:00 x", NOW).unwrap();
    assert_eq!(e.modified, Some(at(2026, 11, 23, 0, 0)));
    // Feb 29 only exists in leap years.
    let e = parse_list_line(b"-rw-r--r-- 1 a b 1 Feb 29 10:00 x", at(2028, 5, 1, 0, 0)).unwrap();
    assert_eq!(e.modified, Some(at(2028, 2, 29, 10, 0)));
}

#[test]
fn iis_dos_format() {
    let e = list(b"11-22-26  05:08AM       <DIR>          aspnet_client");
    assert_eq!(e.name, b"aspnet_client");
    assert_eq!(e.kind, ParsedKind::Dir);
    assert_eq!((e.size, e.mode), (None, None));
    assert_eq!(e.modified, Some(at(2026, 11, 22, 5, 8)));
    let e = list(b"11-22-26  05:08PM                 1234 name with  spaces.txt");
    assert_eq!(e.name, b"name with  spaces.txt");
    assert_eq!((e.kind, e.size), (ParsedKind::File, Some(1234)));
    assert_eq!(e.modified, Some(at(2026, 11, 22, 17, 8)));
    let e = list(b"01-01-99  12:00AM                    0 \x93\xfa\x96\x7b");
    assert_eq!(e.name, b"\x93\xfa\x96\x7b");
    assert_eq!(e.modified, Some(at(1999, 1, 1, 0, 0)));
    let e = list(b"01-01-00  12:30PM       <DIR>          .");
    assert_eq!(e.kind, ParsedKind::CurrentDir);
    assert_eq!(e.modified, Some(at(2000, 1, 1, 12, 30)));
}

#[test]
fn dos_four_digit_year_and_24h() {
    let e = list("11-22-2026  17:08       <DIR>          日本語".as_bytes());
    assert_eq!((e.name.as_slice(), e.kind), ("日本語".as_bytes(), ParsedKind::Dir));
    assert_eq!(e.modified, Some(at(2026, 11, 22, 17, 8)));
    let e = list(b"11-22-2026  17:08           12,345,678 big.iso");
    assert_eq!((e.name.as_slice(), e.size), (&b"big.iso"[..], Some(12_345_678)));
    let e = list(b"11/22/2026  05:08 PM  42 spaced meridiem");
    assert_eq!(e.name, b"spaced meridiem");
    assert_eq!(e.modified, Some(at(2026, 11, 22, 17, 8)));
}

#[test]
fn dot_entries_in_list() {
    assert_eq!(
        list(b"drwxr-xr-x 2 a b 4096 Nov 22 05:08 .").kind,
        ParsedKind::CurrentDir
    );
    assert_eq!(
        list(b"drwxr-xr-x 2 a b 4096 Nov 22 05:08 ..").kind,
        ParsedKind::ParentDir
    );
    assert_eq!(list(b"-rw-r--r-- 1 a b 1 Nov 22 05:08 ..").kind, ParsedKind::File);
    assert_eq!(list(b"drwxr-xr-x 2 a b 4096 Nov 22 05:08 ...").kind, ParsedKind::Dir);
}

#[test]
fn mlsd_server_styles() {
    // ProFTPD mod_facts.
    let e = mlsx(b"modify=20261118110640;perm=adfrw;size=1234;type=file;unique=803U1234;UNIX.group=1000;UNIX.groupname=ftp;UNIX.mode=0644;UNIX.owner=1000;UNIX.ownername=ftp; report 2026.pdf");
    assert_eq!(e.name, b"report 2026.pdf");
    assert_eq!(e.kind, ParsedKind::File);
    assert_eq!(e.size, Some(1234));
    assert_eq!(e.modified, Some(1_795_000_000));
    assert_eq!(e.mode, Some(0o644));
    // Pure-FTPd (sizd for directories).
    let e = mlsx(
        b"type=dir;sizd=4096;modify=20261118110640;UNIX.mode=0755;UNIX.uid=1000;UNIX.gid=1000;unique=803g1234; pub",
    );
    assert_eq!((e.kind, e.size, e.mode), (ParsedKind::Dir, Some(4096), Some(0o755)));
    // pyftpdlib, lower case facts.
    let e = mlsx("type=file;perm=r;size=3;modify=20261118110640;unix.mode=0644;unix.uid=1000;unix.gid=1000;unique=8030004d2; 日本語.txt".as_bytes());
    assert_eq!((e.name.as_slice(), e.size), ("日本語.txt".as_bytes(), Some(3)));
    // IIS: fractional seconds.
    let e = mlsx(b"modify=20261118110640.123;size=1234;type=file; iis.txt");
    assert_eq!(e.modified, Some(1_795_000_000));
}

#[test]
fn mlsd_types_case_insensitive() {
    assert_eq!(
        mlsx(b"type=cdir;modify=20261118110640; /pub").kind,
        ParsedKind::CurrentDir
    );
    assert_eq!(mlsx(b"Type=PDir; ..").kind, ParsedKind::ParentDir);
    assert_eq!(mlsx(b"TYPE=Dir;SIZE=1; d").kind, ParsedKind::Dir);
    assert_eq!(
        mlsx(b"type=OS.unix=symlink; l").kind,
        ParsedKind::Symlink { target: None }
    );
    assert_eq!(mlsx(b"type=os.UNIX=slink:/etc/x;size=5; l y").kind, link(b"/etc/x"));
    assert_eq!(mlsx(b"type=OS.unix=chr-13/29; c").kind, ParsedKind::Other);
    assert_eq!(mlsx(b"size=3; no type").kind, ParsedKind::Other);
}

#[test]
fn mlsd_names_are_everything_after_the_first_space() {
    assert_eq!(mlsx(b"type=file;  two leading").name, b" two leading");
    assert_eq!(mlsx(b"type=file; a;b=c; d").name, b"a;b=c; d");
    assert_eq!(mlsx(b"type=file; \x93\xfa\x96\x7b").name, b"\x93\xfa\x96\x7b");
    assert_eq!(mlsx(b" no facts").name, b"no facts");
    assert_eq!(mlsx(b"type=file; tail\r").name, b"tail\r");
    assert_eq!(mlsx(b"type=file;size=x;modify=2026; bad values").size, None);
}

#[test]
fn mlsd_rejects_non_entries() {
    for line in [
        &b""[..],
        b"type=file;",
        b"type=file; ",
        b"550 No such directory",
        b"type=file;junk; x",
        b"=file; x",
    ] {
        assert_eq!(parse_mlsx_line(line), None, "{}", line.escape_ascii());
    }
}

#[test]
fn time_val_rfc3659_2_3() {
    assert_eq!(time_val(b"19700101000000"), Some(0));
    assert_eq!(time_val(b"20000229000000"), Some(951_782_400));
    assert_eq!(time_val(b"20161231235960"), Some(at(2017, 1, 1, 0, 0)));
    assert_eq!(time_val(b"20261118110640.5"), Some(1_795_000_000));
    assert_eq!(time_val(b"19100118110640"), Some(at(1910, 1, 18, 11, 6) + 40));
    for bad in [
        &b"2026111811064"[..],
        b"20261318110640",
        b"20261118250640",
        b"20261118110640.",
        b"20261118110640.x",
        b"2026111811064x",
        b"+0261118110640",
    ] {
        assert_eq!(time_val(bad), None, "{}", bad.escape_ascii());
    }
    // The `tm_year + 1900` printed as "19" + tm_year bug: 15 digits.
    assert_eq!(time_val(b"191001118110640"), None);
}

#[test]
fn whole_listings_crlf_and_lf() {
    let data = b"total 12\r\n\
        drwxr-xr-x 2 ftp ftp 4096 Nov 22 05:08 dir\r\n\
        -rw-r--r-- 1 ftp ftp 3 Nov 22 05:08 cr\rinside\n\
        \n\
        -rw-r--r-- 1 ftp ftp 3 Nov 22 05:08 two crs\r\r\n\
        -rw-r--r-- 1 ftp ftp 3 Nov 22 05:08 unterminated";
    let names: Vec<Vec<u8>> = parse_listing(data, NOW, false).into_iter().map(|e| e.name).collect();
    assert_eq!(names, [&b"dir"[..], b"cr\rinside", b"two crs\r", b"unterminated"]);
    let data = b"type=cdir; /pub\r\ntype=pdir; /\r\ntype=file;size=1; a\nnonsense\r\n";
    let kinds: Vec<ParsedKind> = parse_listing(data, NOW, true).into_iter().map(|e| e.kind).collect();
    assert_eq!(kinds, [ParsedKind::CurrentDir, ParsedKind::ParentDir, ParsedKind::File]);
}

fn entry(name: &[u8], kind: EntryKind, modified: Option<i64>) -> Entry {
    Entry {
        name: name.to_vec(),
        kind,
        size: 1234,
        modified,
        mode: 0o750,
        nlink: 3,
        unique: Some((0x803, 0x1234)),
        perm: "adfrw".into(),
    }
}

fn expected_kind(kind: EntryKind) -> ParsedKind {
    match kind {
        EntryKind::File => ParsedKind::File,
        EntryKind::Dir => ParsedKind::Dir,
        EntryKind::Symlink => ParsedKind::Symlink { target: None },
        EntryKind::Other => ParsedKind::Other,
    }
}

const NAMES: [&[u8]; 6] = [
    b"plain",
    b"name with  spaces",
    b" leading and trailing ",
    "日本語.txt".as_bytes(),
    b"\x93\xfa\x96\x7b",
    b"semi;colon=eq",
];

#[test]
fn round_trip_with_server_list_line() {
    for name in NAMES {
        for kind in [EntryKind::File, EntryKind::Dir, EntryKind::Symlink, EntryKind::Other] {
            for (t, now, want) in [
                (NOW - 3_600 + 59, NOW, Some(NOW - 3_600)),
                (NOW - 400 * 86_400 + 7_000, NOW, Some(at(2025, 10, 18, 0, 0))),
                (NOW, NOW - 100 * 86_400, Some(NOW)),
                (NOW, NOW + 180 * 86_400, Some(NOW)),
            ] {
                let mut out = Vec::new();
                list_line(&entry(name, kind, Some(t)), now, &mut out);
                let e = parse_listing(&out, now, false);
                assert_eq!(e.len(), 1, "{}", out.escape_ascii());
                assert_eq!(e[0].name, name, "{}", out.escape_ascii());
                assert_eq!(e[0].kind, expected_kind(kind));
                assert_eq!(e[0].size, Some(1234));
                assert_eq!(e[0].modified, want, "{}", out.escape_ascii());
                assert_eq!(e[0].mode, Some(0o750));
            }
        }
    }
    let mut out = Vec::new();
    list_line(&entry(b"never", EntryKind::File, None), NOW, &mut out);
    assert_eq!(parse_listing(&out, NOW, false)[0].modified, Some(0));
}

#[test]
fn round_trip_with_server_mlsd_line() {
    for name in NAMES {
        for kind in [EntryKind::File, EntryKind::Dir, EntryKind::Symlink, EntryKind::Other] {
            let mut out = Vec::new();
            mlsd_line(&entry(name, kind, Some(1_795_000_000)), MLST_FACTS, &mut out);
            let got = parse_listing(&out, 0, true);
            assert_eq!(got.len(), 1, "{}", out.escape_ascii());
            let e = &got[0];
            assert_eq!(e.name, name);
            assert_eq!(e.kind, expected_kind(kind));
            assert_eq!(e.size, (kind == EntryKind::File).then_some(1234));
            assert_eq!(e.modified, Some(1_795_000_000));
            assert_eq!(e.mode, Some(0o750));
        }
    }
    let d = entry(b".", EntryKind::Dir, None);
    let mut line = mlsx_facts(&d, MLST_FACTS, Some("cdir"));
    line.extend_from_slice(b" /pub");
    let e = mlsx(&line);
    assert_eq!(
        (e.kind, e.modified, e.name.as_slice()),
        (ParsedKind::CurrentDir, None, &b"/pub"[..])
    );
}

fn kind_strategy() -> impl Strategy<Value = EntryKind> {
    prop_oneof![
        Just(EntryKind::File),
        Just(EntryKind::Dir),
        Just(EntryKind::Symlink),
        Just(EntryKind::Other)
    ]
}

/// Names as the server may list them: any bytes but CR and LF.
fn name_strategy() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        any::<u8>().prop_filter("no CR/LF", |b| *b != b'\r' && *b != b'\n'),
        1..40,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn parsers_never_panic(line in proptest::collection::vec(any::<u8>(), 0..120), now in any::<i64>()) {
        let _ = parse_list_line(&line, now);
        let _ = parse_mlsx_line(&line);
        let _ = parse_listing(&line, now, false);
        let _ = parse_listing(&line, now, true);
    }

    #[test]
    fn list_shaped_garbage_never_panics(
        head in "[-dl?][rwxsStTl-]{9}[+@]? {1,3}[0-9]{1,3} [a-zA-Z0-9]{0,8} {0,3}[0-9]{0,20} ",
        date in "(Jan|Feb|Dec|nov) {1,2}[0-9]{1,3} {1,2}([0-9]{1,2}:[0-9]{1,2}|[0-9]{4})",
        dos in "[0-9]{2}[-/][0-9]{2}[-/][0-9]{2,4} {1,3}[0-9]{1,2}:[0-9]{2}( ?[AaPp][Mm])? {1,9}(<DIR>|[0-9,]{1,25})",
        tail in proptest::collection::vec(any::<u8>(), 0..12),
        now in any::<i64>(),
    ) {
        let mut unix = format!("{head}{date}").into_bytes();
        unix.extend_from_slice(&tail);
        let _ = parse_list_line(&unix, now);
        let mut dos = dos.into_bytes();
        dos.extend_from_slice(&tail);
        let _ = parse_list_line(&dos, now);
    }

    #[test]
    fn any_name_survives_mlsd(
        name in name_strategy(),
        kind in kind_strategy(),
        size in any::<u64>(),
        modified in proptest::option::of(-62_167_219_200i64..=253_402_300_799),
        mode in 0u32..0o10000,
    ) {
        let mut e = entry(&name, kind, modified);
        e.size = size;
        e.mode = mode;
        let mut out = Vec::new();
        mlsd_line(&e, MLST_FACTS, &mut out);
        let got = parse_listing(&out, 0, true);
        prop_assert_eq!(got.len(), 1);
        prop_assert_eq!(&got[0].name, &name);
        prop_assert_eq!(&got[0].kind, &expected_kind(kind));
        prop_assert_eq!(got[0].size, (kind == EntryKind::File).then_some(size));
        prop_assert_eq!(got[0].modified, modified);
        prop_assert_eq!(got[0].mode, Some(mode));
    }

    #[test]
    fn any_name_survives_list(
        name in name_strategy(),
        kind in kind_strategy(),
        size in any::<u64>(),
        now in 0i64..4_102_444_800,
        age in -180i64 * 86_400..180 * 86_400,
    ) {
        let t = now - age;
        let mut e = entry(&name, kind, Some(t));
        e.size = size;
        let mut out = Vec::new();
        list_line(&e, now, &mut out);
        let got = parse_listing(&out, now, false);
        let (want_name, want_kind) = match (kind, find(&name, b" -> ")) {
            // `ls -l` cannot tell a link named `a -> b` from a link to `b`.
            (EntryKind::Symlink, Some(i)) => {
                (name[..i].to_vec(), ParsedKind::Symlink { target: Some(name[i + 4..].to_vec()) })
            }
            (EntryKind::Dir, _) => (name.clone(), dir_kind(&name)),
            _ => (name.clone(), expected_kind(kind)),
        };
        prop_assume!(!want_name.is_empty());
        prop_assert_eq!(got.len(), 1);
        prop_assert_eq!(&got[0].name, &want_name);
        prop_assert_eq!(&got[0].kind, &want_kind);
        prop_assert_eq!(got[0].size, Some(size));
        prop_assert_eq!(got[0].modified, Some(t - t.rem_euclid(60)));
    }
}
