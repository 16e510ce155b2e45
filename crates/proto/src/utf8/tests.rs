use super::*;
use proptest::prelude::*;
use Utf8ErrorKind::*;

/// ISO 10646-1 Amd. 2, Annex R, Table 3 (hexadecimal), every row.
const TABLE_3: &[(u32, &[u8])] = &[
    (0x0000_0001, &[0x01]),
    (0x0000_007F, &[0x7F]),
    (0x0000_0080, &[0xC2, 0x80]),
    (0x0000_07FF, &[0xDF, 0xBF]),
    (0x0000_0800, &[0xE0, 0xA0, 0x80]),
    (0x0000_FFFF, &[0xEF, 0xBF, 0xBF]),
    (0x0001_0000, &[0xF0, 0x90, 0x80, 0x80]),
    (0x0010_FFFF, &[0xF4, 0x8F, 0xBF, 0xBF]),
    (0x001F_FFFF, &[0xF7, 0xBF, 0xBF, 0xBF]),
    (0x0020_0000, &[0xF8, 0x88, 0x80, 0x80, 0x80]),
    (0x03FF_FFFF, &[0xFB, 0xBF, 0xBF, 0xBF, 0xBF]),
    (0x0400_0000, &[0xFC, 0x84, 0x80, 0x80, 0x80, 0x80]),
    (0x7FFF_FFFF, &[0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]),
];

fn err(bytes: &[u8], mode: Mode) -> Utf8Error {
    validate(bytes, mode).expect_err("input must be rejected")
}

fn legacy_encode(value: u32) -> Vec<u8> {
    let mut out = Vec::new();
    encode_ucs4(value, Mode::Legacy, &mut out).unwrap();
    out
}

#[test]
fn annex_r_table_3_every_row_both_directions_legacy() {
    for &(value, utf8) in TABLE_3 {
        let mut out = vec![b'x'];
        assert_eq!(
            encode_ucs4(value, Mode::Legacy, &mut out),
            Ok(utf8.len()),
            "{value:08X}"
        );
        assert_eq!(&out[1..], utf8, "R.4 encode {value:08X}");
        assert_eq!(decode_one(utf8, Mode::Legacy), Ok((value, utf8.len())), "R.5");
        assert_eq!(decode_ucs4(utf8, Mode::Legacy), Ok(vec![value]));
        assert_eq!(validate(utf8, Mode::Legacy), Ok(()));
    }
}

#[test]
fn annex_r_table_3_strict_accepts_up_to_10ffff_rejects_the_rest() {
    for &(value, utf8) in TABLE_3 {
        let mut out = Vec::new();
        let mut framed = b"ab".to_vec();
        framed.extend_from_slice(utf8);
        framed.extend_from_slice(b"cd");
        if value <= 0x10_FFFF {
            assert_eq!(encode_ucs4(value, Mode::Strict, &mut out), Ok(utf8.len()));
            assert_eq!(out, utf8);
            assert_eq!(decode_one(utf8, Mode::Strict), Ok((value, utf8.len())));
            assert_eq!(validate(&framed, Mode::Strict), Ok(()));
            assert!(is_utf8(utf8));
        } else {
            assert_eq!(
                encode_ucs4(value, Mode::Strict, &mut out),
                Err(EncodeError::OutOfRange { value, max: 0x10_FFFF })
            );
            assert!(out.is_empty(), "nothing written on error");
            let e = err(&framed, Mode::Strict);
            assert_eq!((e.valid_up_to(), e.kind()), (2, OutOfRange), "{value:08X}");
            assert_eq!(e.error_len(), Some(1));
            assert_eq!(decode_one(utf8, Mode::Strict).unwrap_err().kind(), OutOfRange);
            assert_eq!(decode_ucs4(&framed, Mode::Strict).unwrap_err().valid_up_to(), 2);
            assert!(!is_utf8(utf8));
        }
    }
}

#[test]
fn annex_r_table_2_binary_rows() {
    // Table 2 is Table 3 in binary; spot-check its notation directly.
    let rows: &[(u32, &[u8])] = &[
        (0b1000_0000, &[0b1100_0010, 0b1000_0000]),
        (
            0b0000_0000_0010_0000_0000_0000_0000_0000,
            &[0b1111_1000, 0b1000_1000, 0b1000_0000, 0b1000_0000, 0b1000_0000],
        ),
        (
            0b0111_1111_1111_1111_1111_1111_1111_1111,
            &[
                0b1111_1101,
                0b1011_1111,
                0b1011_1111,
                0b1011_1111,
                0b1011_1111,
                0b1011_1111,
            ],
        ),
    ];
    for &(value, utf8) in rows {
        assert_eq!(legacy_encode(value), utf8);
        assert_eq!(decode_one(utf8, Mode::Legacy), Ok((value, utf8.len())));
    }
}

#[test]
fn annex_r_table_1_octet_usage() {
    // R.2: 00..7F only octet; 80..BF continuing; C0..FD first octet of a
    // multi-octet sequence; FE, FF not used.
    for b in 0..=0xFFu8 {
        let e = validate(&[b], Mode::Legacy);
        match b {
            0x00..=0x7F => assert_eq!(e, Ok(())),
            0x80..=0xBF => assert_eq!(e.unwrap_err().kind(), UnexpectedContinuation),
            0xC0 | 0xC1 => assert_eq!(e.unwrap_err().kind(), Overlong),
            0xC2..=0xFD => {
                let e = e.unwrap_err();
                assert_eq!((e.kind(), e.error_len()), (Truncated, None), "{b:02X}");
            }
            0xFE | 0xFF => assert_eq!(e.unwrap_err().kind(), InvalidOctet),
        }
    }
}

#[test]
fn rfc2279_section4_examples() {
    // "A<NOT IDENTICAL TO><ALPHA>." (0041, 2262, 0391, 002E)
    // Korean "hangugeo" (D55C, AD6D, C5B4); Japanese "nihongo" (65E5, 672C, 8A9E).
    let cases: &[(&[u32], &[u8])] = &[
        (
            &[0x0041, 0x2262, 0x0391, 0x002E],
            &[0x41, 0xE2, 0x89, 0xA2, 0xCE, 0x91, 0x2E],
        ),
        (
            &[0xD55C, 0xAD6D, 0xC5B4],
            &[0xED, 0x95, 0x9C, 0xEA, 0xB5, 0xAD, 0xEC, 0x96, 0xB4],
        ),
        (
            &[0x65E5, 0x672C, 0x8A9E],
            &[0xE6, 0x97, 0xA5, 0xE6, 0x9C, 0xAC, 0xE8, 0xAA, 0x9E],
        ),
    ];
    for &(ucs, utf8) in cases {
        for mode in [Mode::Strict, Mode::Legacy] {
            let mut out = Vec::new();
            for &v in ucs {
                encode_ucs4(v, mode, &mut out).unwrap();
            }
            assert_eq!(out, utf8);
            assert_eq!(decode_ucs4(utf8, mode).unwrap(), ucs);
            assert_eq!(validate(utf8, mode), Ok(()));
        }
    }
    assert_eq!(
        std::str::from_utf8(&[0x41, 0xE2, 0x89, 0xA2, 0xCE, 0x91, 0x2E]),
        Ok("A\u{2262}\u{391}.")
    );
}

#[test]
fn rfc2279_section2_overlong_forms_rejected_in_both_modes() {
    // "there is only one valid way to encode a given UCS-4 character"
    let cases: &[(&[u8], Utf8ErrorKind)] = &[
        (&[0xC0, 0x80], Overlong),
        (&[0xC0, 0xAE], Overlong),
        (&[0xC1, 0xBF], Overlong),
        (&[0xC1, 0x80], Overlong),
        (&[0xE0, 0x80, 0xAF], Overlong),
        (&[0xE0, 0x9F, 0xBF], Overlong),
        (&[0xF0, 0x80, 0x80, 0xAF], Overlong),
        (&[0xF0, 0x8F, 0xBF, 0xBF], Overlong),
        (&[0xF8, 0x80, 0x80, 0x80, 0xAF], OutOfRange),
        (&[0xF8, 0x87, 0xBF, 0xBF, 0xBF], OutOfRange),
        (&[0xFC, 0x80, 0x80, 0x80, 0x80, 0xAF], OutOfRange),
        (&[0xFC, 0x83, 0xBF, 0xBF, 0xBF, 0xBF], OutOfRange),
    ];
    for &(bytes, strict_kind) in cases {
        let mut framed = b"abc".to_vec();
        framed.extend_from_slice(bytes);
        let e = err(&framed, Mode::Legacy);
        assert_eq!((e.valid_up_to(), e.kind()), (3, Overlong), "{bytes:02X?}");
        assert_eq!(e.error_len(), Some(1));
        let e = err(&framed, Mode::Strict);
        assert_eq!((e.valid_up_to(), e.kind()), (3, strict_kind), "{bytes:02X?}");
        assert!(decode_one(bytes, Mode::Legacy).is_err());
    }
    // The shortest forms just above each boundary are fine.
    for bytes in [
        &[0xF8u8, 0x88, 0x80, 0x80, 0x80][..],
        &[0xFC, 0x84, 0x80, 0x80, 0x80, 0x80],
    ] {
        assert_eq!(validate(bytes, Mode::Legacy), Ok(()));
    }
}

#[test]
fn rfc2279_section6_c0_ae_is_not_a_full_stop() {
    // "a parser which prohibits the octet sequence 2F 2E 2E 2F ("/../"),
    // yet permits the illegal octet sequence 2F C0 AE 2E 2F"
    let attack = [0x2F, 0xC0, 0xAE, 0x2E, 0x2F];
    for mode in [Mode::Strict, Mode::Legacy] {
        let e = err(&attack, mode);
        assert_eq!((e.valid_up_to(), e.kind(), e.error_len()), (1, Overlong, Some(1)));
        assert_eq!(decode_ucs4(&attack, mode), Err(e));
        assert!(decode_one(&[0xC0, 0xAE], mode).is_err());
        // and C0 80 is not NUL
        assert_eq!(decode_one(&[0xC0, 0x80], mode).unwrap_err().kind(), Overlong);
    }
}

#[test]
fn annex_r_r7_truncated_at_every_cut_of_every_table_3_row() {
    // R.7: "a first octet that is not immediately followed by the
    // correct number of continuing octets"
    for &(value, utf8) in TABLE_3.iter().filter(|(_, u)| u.len() > 1) {
        let modes: &[Mode] = if value <= 0x10_FFFF {
            &[Mode::Strict, Mode::Legacy]
        } else {
            &[Mode::Legacy]
        };
        for &mode in modes {
            for cut in 1..utf8.len() {
                // input ends mid-sequence
                let mut b = b"x".to_vec();
                b.extend_from_slice(&utf8[..cut]);
                let e = err(&b, mode);
                assert_eq!((e.valid_up_to(), e.kind(), e.error_len()), (1, Truncated, None));
                // a non-continuing octet where a continuing one is needed
                b.push(b'A');
                let e = err(&b, mode);
                assert_eq!(
                    (e.valid_up_to(), e.kind(), e.error_len()),
                    (1, Truncated, Some(cut)),
                    "{value:08X} cut {cut}"
                );
                let e = decode_one(&utf8[..cut], mode).unwrap_err();
                assert_eq!((e.valid_up_to(), e.kind()), (0, Truncated));
            }
        }
    }
    assert_eq!(decode_one(b"", Mode::Strict).unwrap_err().kind(), Truncated);
}

#[test]
fn every_cut_of_a_valid_multi_octet_string() {
    // encoding_rs testing.rs style: the same text split at every offset.
    let text = "A\u{2262}\u{391}. 한국어 日本語 😀 ÿ ไทย";
    let b = text.as_bytes();
    for mode in [Mode::Strict, Mode::Legacy] {
        for i in 0..=b.len() {
            let boundary = (0..=i).rev().find(|&j| text.is_char_boundary(j)).unwrap();
            match validate(&b[..i], mode) {
                Ok(()) => assert!(text.is_char_boundary(i)),
                Err(e) => {
                    assert!(!text.is_char_boundary(i));
                    assert_eq!((e.valid_up_to(), e.kind(), e.error_len()), (boundary, Truncated, None));
                }
            }
            match validate(&b[i..], mode) {
                Ok(()) => assert!(text.is_char_boundary(i)),
                Err(e) => assert_eq!((e.valid_up_to(), e.kind()), (0, UnexpectedContinuation)),
            }
        }
    }
    // and a legacy string with five- and six-octet sequences
    let mut legacy = Vec::new();
    let mut boundaries = vec![0];
    for &(v, _) in TABLE_3.iter().rev() {
        encode_ucs4(v, Mode::Legacy, &mut legacy).unwrap();
        boundaries.push(legacy.len());
    }
    for i in 0..=legacy.len() {
        let at_boundary = boundaries.contains(&i);
        assert_eq!(validate(&legacy[..i], Mode::Legacy).is_ok(), at_boundary);
        assert_eq!(validate(&legacy[i..], Mode::Legacy).is_ok(), at_boundary);
        if !at_boundary {
            let e = err(&legacy[..i], Mode::Legacy);
            let last = boundaries.iter().copied().filter(|&j| j < i).max().unwrap();
            assert_eq!((e.valid_up_to(), e.kind(), e.error_len()), (last, Truncated, None));
        }
    }
}

#[test]
fn annex_r_r7_stray_continuing_octets() {
    // R.7: "continuing octets that are not required to complete a sequence"
    for mode in [Mode::Strict, Mode::Legacy] {
        for (bytes, at) in [
            (&b"\x80"[..], 0),
            (b"\xBF", 0),
            (b"a\x80b", 1),
            (b"\xC2\x80\x80", 2),
            (b"\xE6\x97\xA5\xA5", 3),
            (b"\xF0\x90\x80\x80\x80", 4),
        ] {
            let e = err(bytes, mode);
            assert_eq!(
                (e.valid_up_to(), e.kind(), e.error_len()),
                (at, UnexpectedContinuation, Some(1))
            );
        }
    }
    // A legacy six-octet sequence followed by a seventh continuing octet.
    let e = err(b"\xFD\xBF\xBF\xBF\xBF\xBF\xBF", Mode::Legacy);
    assert_eq!((e.valid_up_to(), e.kind()), (6, UnexpectedContinuation));
}

#[test]
fn rfc2279_fe_ff_never_appear() {
    for mode in [Mode::Strict, Mode::Legacy] {
        for (bytes, at) in [(&b"\xFE"[..], 0), (b"\xFF", 0), (b"ab\xFE\xFF", 2), (b"\xFF\xFEa", 0)] {
            let e = err(bytes, mode);
            assert_eq!((e.valid_up_to(), e.kind(), e.error_len()), (at, InvalidOctet, Some(1)));
        }
    }
}

#[test]
fn surrogates_strict_rejects_legacy_accepts() {
    // RFC 3629 forbids D800..DFFF; Annex R Note 3 leaves their mapping
    // undefined, and legacy mode accepts them (module docs).
    for (bytes, value) in [(&b"\xED\xA0\x80"[..], 0xD800), (b"\xED\xBF\xBF", 0xDFFF)] {
        let e = err(bytes, Mode::Strict);
        assert_eq!((e.valid_up_to(), e.kind(), e.error_len()), (0, Surrogate, Some(1)));
        assert_eq!(validate(bytes, Mode::Legacy), Ok(()));
        assert_eq!(decode_one(bytes, Mode::Legacy), Ok((value, 3)));
        assert_eq!(legacy_encode(value), bytes);
        assert_eq!(
            encode_ucs4(value, Mode::Strict, &mut Vec::new()),
            Err(EncodeError::Surrogate { value })
        );
    }
    // A CESU-8 pair stays two values in legacy mode.
    assert_eq!(
        decode_ucs4(b"\xED\xA0\xBD\xED\xB8\x80", Mode::Legacy),
        Ok(vec![0xD83D, 0xDE00])
    );
    // ED 9F BF (U+D7FF) and EE 80 80 (U+E000) are the neighbours.
    assert_eq!(validate(b"\xED\x9F\xBF\xEE\x80\x80", Mode::Strict), Ok(()));
    // FFFE and FFFF are valid in both modes, as in std.
    assert_eq!(validate(b"\xEF\xBF\xBE\xEF\xBF\xBF", Mode::Strict), Ok(()));
}

#[test]
fn strict_out_of_range_just_above_10ffff() {
    for bytes in [&b"\xF4\x90\x80\x80"[..], b"\xF5\x80\x80\x80", b"\xF7\xBF\xBF\xBF"] {
        let e = err(bytes, Mode::Strict);
        assert_eq!((e.valid_up_to(), e.kind()), (0, OutOfRange));
        assert!(validate(bytes, Mode::Legacy).is_ok());
    }
    assert_eq!(
        encode_ucs4(0x11_0000, Mode::Strict, &mut Vec::new()),
        Err(EncodeError::OutOfRange {
            value: 0x11_0000,
            max: 0x10_FFFF
        })
    );
    assert_eq!(
        encode_ucs4(0x8000_0000, Mode::Legacy, &mut Vec::new()),
        Err(EncodeError::OutOfRange {
            value: 0x8000_0000,
            max: 0x7FFF_FFFF
        })
    );
}

#[test]
fn error_offsets_in_the_middle_of_a_buffer() {
    let e = err(b"abc\xC0\xAEdef", Mode::Strict);
    assert_eq!((e.valid_up_to(), e.kind()), (3, Overlong));
    assert_eq!(e.to_string(), "invalid UTF-8 at offset 3: overlong form");
    // Far into a long buffer, past many SIMD blocks, in both modes.
    let mut big = "Grüße, Привет, 日本語, ไทย. ".repeat(500).into_bytes();
    let at = big.len();
    big.extend_from_slice(b"\xE0\x80\xAF tail");
    for mode in [Mode::Strict, Mode::Legacy] {
        let e = err(&big, mode);
        assert_eq!((e.valid_up_to(), e.kind()), (at, Overlong));
        assert_eq!(decode_ucs4(&big, mode).unwrap_err().valid_up_to(), at);
    }
    // Legacy-only sequences scattered through a long buffer, then an error.
    let mut legacy = Vec::new();
    for i in 0..2000u32 {
        legacy.extend_from_slice("some text Привет ".as_bytes());
        if i % 7 == 0 {
            encode_ucs4(0x0400_0000 + i, Mode::Legacy, &mut legacy).unwrap();
        }
    }
    assert_eq!(validate(&legacy, Mode::Legacy), Ok(()));
    assert_eq!(validate_scalar_from(&legacy, 0, Mode::Legacy), Ok(()));
    let at = legacy.len();
    legacy.extend_from_slice(b"\xF8\x80\x80\x80\xAF");
    let e = err(&legacy, Mode::Legacy);
    assert_eq!((e.valid_up_to(), e.kind()), (at, Overlong));
    assert_eq!(err(&legacy, Mode::Strict).valid_up_to(), "some text Привет ".len());
}

fn assert_strict_agrees_with_std(bytes: &[u8]) {
    let ours = validate(bytes, Mode::Strict);
    assert_eq!(ours, validate_scalar_from(bytes, 0, Mode::Strict));
    assert_eq!(is_utf8(bytes), ours.is_ok());
    match std::str::from_utf8(bytes) {
        Ok(_) => assert_eq!(ours, Ok(())),
        Err(std_err) => {
            let ours = ours.unwrap_err();
            assert_eq!(ours.valid_up_to(), std_err.valid_up_to());
            assert_eq!(ours.error_len(), std_err.error_len());
        }
    }
}

/// Byte strings that are mostly valid UTF-8 with damage in the middle,
/// more interesting than uniform noise (which fails at octet 0 or 1).
/// Long enough to span several 64-octet SIMD blocks.
fn damaged_utf8() -> impl Strategy<Value = Vec<u8>> {
    let text = || prop::collection::vec(any::<char>(), 0..200).prop_map(String::from_iter);
    let spliced = (text(), prop::collection::vec(any::<u8>(), 0..8), text()).prop_map(|(a, noise, b)| {
        let mut v = a.into_bytes();
        v.extend_from_slice(&noise);
        v.extend_from_slice(b.as_bytes());
        v
    });
    let overwritten = (text(), any::<prop::sample::Index>(), any::<u8>()).prop_map(|(a, i, b)| {
        let mut v = a.into_bytes();
        if !v.is_empty() {
            let i = i.index(v.len());
            v[i] = b;
        }
        v
    });
    prop_oneof![spliced, overwritten]
}

/// Legacy-encoded values (any of the six lengths) with damage.
fn damaged_legacy() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(prop_oneof![0u32..0x80, 0x80u32..0x11_0000, 0u32..=0x7FFF_FFFF], 0..64),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
    )
        .prop_map(|(values, damage)| {
            let mut v = Vec::new();
            for x in values {
                encode_ucs4(x, Mode::Legacy, &mut v).unwrap();
            }
            for (i, b) in damage {
                if !v.is_empty() {
                    let i = i.index(v.len());
                    v[i] = b;
                }
            }
            v
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn strict_equals_std_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        assert_strict_agrees_with_std(&bytes);
    }

    #[test]
    fn strict_equals_std_on_damaged_utf8(bytes in damaged_utf8()) {
        assert_strict_agrees_with_std(&bytes);
    }

    #[test]
    fn legacy_fast_path_equals_scalar(bytes in damaged_legacy()) {
        prop_assert_eq!(validate(&bytes, Mode::Legacy), validate_scalar_from(&bytes, 0, Mode::Legacy));
        fuzz_validate(&bytes);
    }

    #[test]
    fn fuzz_entry_point_holds(bytes in damaged_utf8()) {
        fuzz_validate(&bytes);
    }

    #[test]
    fn legacy_round_trip_every_31_bit_value(value in 0u32..=0x7FFF_FFFF) {
        // R.4 then R.5 is the identity.
        let mut out = Vec::new();
        let len = encode_ucs4(value, Mode::Legacy, &mut out).unwrap();
        prop_assert_eq!(len, out.len());
        prop_assert_eq!(decode_one(&out, Mode::Legacy), Ok((value, len)));
        prop_assert_eq!(decode_ucs4(&out, Mode::Legacy), Ok(vec![value]));
    }

    #[test]
    fn strict_encode_equals_char_encode_utf8(c in any::<char>()) {
        let mut out = Vec::new();
        encode_ucs4(u32::from(c), Mode::Strict, &mut out).unwrap();
        let mut buf = [0u8; 4];
        prop_assert_eq!(&out[..], c.encode_utf8(&mut buf).as_bytes());
        prop_assert_eq!(decode_one(&out, Mode::Strict), Ok((u32::from(c), c.len_utf8())));
    }

    #[test]
    fn strict_decode_equals_chars(s in any::<String>()) {
        let expected: Vec<u32> = s.chars().map(u32::from).collect();
        prop_assert_eq!(decode_ucs4(s.as_bytes(), Mode::Strict), Ok(expected.clone()));
        prop_assert_eq!(decode_ucs4(s.as_bytes(), Mode::Legacy), Ok(expected));
    }
}
