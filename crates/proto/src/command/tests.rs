//! Command parser tests; each names the rule it checks.

use super::*;
use crate::path::{PathError, WirePath};
use crate::reply::ReplyCode;

fn p(line: &[u8]) -> Result<Command, ParseError> {
    Command::parse(line)
}

fn path(s: &[u8]) -> WirePath {
    WirePath::new(s.to_vec())
}

#[test]
fn verb_is_case_insensitive_rfc959_5_3() {
    assert_eq!(p(b"noop"), Ok(Command::Noop));
    assert_eq!(p(b"NoOp"), Ok(Command::Noop));
    assert_eq!(p(b"retr x"), Ok(Command::Retr(path(b"x"))));
}

#[test]
fn exactly_one_sp_separates_the_verb_rfc2640_3_1() {
    // STOR<SP><SP><SP> names the file <SP><SP>.
    assert_eq!(p(b"STOR   "), Ok(Command::Stor(path(b"  "))));
    assert_eq!(p(b"MKD  x"), Ok(Command::Mkd(path(b" x"))));
    assert_eq!(p(b"DELE trailing "), Ok(Command::Dele(path(b"trailing "))));
    // The SP and nothing is no argument.
    assert_eq!(p(b"STOR "), Err(ParseError::MissingArgument(Verb::Stor)));
    assert_eq!(p(b"PWD "), Ok(Command::Pwd));
}

#[test]
fn cr_nul_inside_pathname_is_cr_rfc2640_3_1() {
    assert_eq!(p(b"RETR a\r\0b"), Ok(Command::Retr(path(b"a\rb"))));
    assert_eq!(p(b"RETR a\r\0"), Ok(Command::Retr(path(b"a\r"))));
}

#[test]
fn bare_nul_is_501() {
    let e = p(b"RETR a\0b").unwrap_err();
    assert_eq!(e, ParseError::BadPath(Verb::Retr, PathError::BareNul(1)));
    assert_eq!(e.code(), ReplyCode::ARGUMENT_ERROR);
    assert_eq!(p(b"USER \0").unwrap_err().code().get(), 501);
    assert_eq!(p(b"NO\0OP").unwrap_err().code().get(), 500);
}

#[test]
fn non_utf8_pathnames_are_kept_as_bytes() {
    // Shift_JIS 日本 and an overlong '.', both just bytes to the parser.
    assert_eq!(
        p(b"RETR \x93\xfa\x96\x7b"),
        Ok(Command::Retr(path(b"\x93\xfa\x96\x7b")))
    );
    let c = p(b"CWD \xc0\xae\xc0\xae").unwrap();
    match c {
        Command::Cwd(p) => {
            assert_eq!(p.as_bytes(), b"\xc0\xae\xc0\xae");
            assert!(!p.is_utf8());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn aliases_rfc775() {
    assert_eq!(p(b"XPWD"), Ok(Command::Pwd));
    assert_eq!(p(b"XCUP"), Ok(Command::Cdup));
    assert_eq!(p(b"XMKD d"), Ok(Command::Mkd(path(b"d"))));
    assert_eq!(p(b"XRMD d"), Ok(Command::Rmd(path(b"d"))));
    assert_eq!(p(b"XCWD d"), Ok(Command::Cwd(path(b"d"))));
}

#[test]
fn unknown_and_garbage() {
    assert_eq!(p(b"SMNT x").unwrap_err().code(), ReplyCode::NOT_IMPLEMENTED);
    assert_eq!(p(b"XYZZY").unwrap_err(), ParseError::Unknown("XYZZY".into()));
    assert_eq!(p(b"").unwrap_err().code(), ReplyCode::SYNTAX_ERROR);
    assert_eq!(p(b" NOOP").unwrap_err().code(), ReplyCode::SYNTAX_ERROR);
    assert_eq!(p(b"\xff\xfe").unwrap_err().code(), ReplyCode::SYNTAX_ERROR);
    assert_eq!(p(b"GET / HTTP/1.1").unwrap_err().code(), ReplyCode::NOT_IMPLEMENTED);
    assert_eq!(p(b"12").unwrap_err().code(), ReplyCode::SYNTAX_ERROR);
    assert_eq!(p(&[b'A'; 40]).unwrap_err().code(), ReplyCode::SYNTAX_ERROR);
}

#[test]
fn argument_presence() {
    assert_eq!(p(b"PWD x"), Err(ParseError::UnexpectedArgument(Verb::Pwd)));
    assert_eq!(p(b"RETR"), Err(ParseError::MissingArgument(Verb::Retr)));
    assert_eq!(p(b"PASS"), Ok(Command::Pass(Vec::new())));
    assert_eq!(p(b"LIST"), Ok(Command::List(None)));
    assert_eq!(p(b"LIST -la"), Ok(Command::List(Some(path(b"-la")))));
    assert_eq!(p(b"STOU"), Ok(Command::Stou(None)));
    assert_eq!(p(b"HELP"), Ok(Command::Help(None)));
    assert_eq!(p(b"HELP retr"), Ok(Command::Help(Some(b"retr".to_vec()))));
}

#[test]
fn type_stru_mode_rfc959_3() {
    assert_eq!(p(b"TYPE A"), Ok(Command::Type(TransferType::Ascii)));
    assert_eq!(p(b"TYPE a n"), Ok(Command::Type(TransferType::Ascii)));
    assert_eq!(p(b"TYPE I"), Ok(Command::Type(TransferType::Image)));
    assert_eq!(p(b"TYPE L 8"), Ok(Command::Type(TransferType::Image)));
    assert_eq!(p(b"TYPE E").unwrap_err().code().get(), 504);
    assert_eq!(p(b"TYPE L 36").unwrap_err().code().get(), 504);
    assert_eq!(p(b"TYPE X").unwrap_err().code().get(), 501);
    assert_eq!(p(b"STRU f"), Ok(Command::Stru(Structure::File)));
    assert_eq!(p(b"MODE S"), Ok(Command::Mode(TransferMode::Stream)));
    assert_eq!(p(b"MODE Q").unwrap_err().code().get(), 501);
}

#[test]
fn port_rfc959_4_1_2() {
    assert_eq!(
        p(b"PORT 127,0,0,1,4,1"),
        Ok(Command::Port("127.0.0.1:1025".parse().unwrap()))
    );
    for bad in [
        &b"PORT 1,2,3,4,5"[..],
        b"PORT 256,0,0,1,1,1",
        b"PORT 1,2,3,4,5,6,7",
        b"PORT a,b,c,d,e,f",
        b"PORT",
    ] {
        assert_eq!(p(bad).unwrap_err().code().get(), 501, "{}", bad.escape_ascii());
    }
}

#[test]
fn eprt_epsv_rfc2428() {
    assert_eq!(
        p(b"EPRT |1|132.235.1.2|6275|"),
        Ok(Command::Eprt("132.235.1.2:6275".parse().unwrap()))
    );
    assert_eq!(
        p(b"EPRT |2|1080::8:800:200C:417A|5282|"),
        Ok(Command::Eprt("[1080::8:800:200C:417A]:5282".parse().unwrap()))
    );
    assert_eq!(
        p(b"EPRT !2!::1!5282!"),
        Ok(Command::Eprt("[::1]:5282".parse().unwrap()))
    );
    assert_eq!(p(b"EPRT |3|x|1|").unwrap_err().code().get(), 522);
    assert_eq!(p(b"EPRT |1|::1|1|").unwrap_err().code().get(), 501);
    assert_eq!(p(b"EPRT |1|1.2.3.4|70000|").unwrap_err().code().get(), 501);
    assert_eq!(p(b"EPRT 1|1.2.3.4|7|").unwrap_err().code().get(), 501);
    assert_eq!(p(b"EPSV"), Ok(Command::Epsv(EpsvArg::Any)));
    assert_eq!(p(b"EPSV all"), Ok(Command::Epsv(EpsvArg::All)));
    assert_eq!(p(b"EPSV 2"), Ok(Command::Epsv(EpsvArg::Protocol(2))));
    assert_eq!(p(b"EPSV 7").unwrap_err().code().get(), 522);
    assert_eq!(p(b"EPSV x").unwrap_err().code().get(), 501);
}

#[test]
fn rest_allo() {
    assert_eq!(p(b"REST 1073741824"), Ok(Command::Rest(1 << 30)));
    assert_eq!(p(b"REST -1").unwrap_err().code().get(), 501);
    assert_eq!(p(b"REST 99999999999999999999999").unwrap_err().code().get(), 501);
    assert_eq!(p(b"ALLO 100 R 10"), Ok(Command::Allo(100)));
}

#[test]
fn lang_rfc2640_4_1() {
    assert_eq!(p(b"LANG"), Ok(Command::Lang(None)));
    assert_eq!(p(b"lang fr-FR"), Ok(Command::Lang(Some("fr-FR".parse().unwrap()))));
    assert_eq!(p(b"LANG fr_FR").unwrap_err().code().get(), 501);
    assert_eq!(p(b"LANG 12").unwrap_err().code().get(), 501);
}

#[test]
fn opts_host_auth_prot() {
    assert_eq!(
        p(b"OPTS utf8 ON"),
        Ok(Command::Opts("UTF8".into(), Some(b"ON".to_vec())))
    );
    assert_eq!(
        p(b"OPTS MLST type;size;"),
        Ok(Command::Opts("MLST".into(), Some(b"type;size;".to_vec())))
    );
    assert_eq!(p(b"OPTS").unwrap_err().code().get(), 501);
    assert_eq!(
        p(b"HOST ftp.example.com"),
        Ok(Command::Host(b"ftp.example.com".to_vec()))
    );
    assert_eq!(p(b"AUTH tls"), Ok(Command::Auth("TLS".into())));
    assert_eq!(p(b"PBSZ 0"), Ok(Command::Pbsz(0)));
    assert_eq!(p(b"PROT p"), Ok(Command::Prot(ProtLevel::Private)));
}

#[test]
fn mfmt_time_then_pathname_draft_somers_ftp_mfxx_3() {
    let mfmt = |time, name: &[u8]| Command::Mfmt { time, path: path(name) };
    // The draft's example, 2002-07-17 21:07:15 UTC.
    assert_eq!(p(b"MFMT 20020717210715 file.txt"), Ok(mfmt(1_026_940_035, b"file.txt")));
    assert_eq!(p(b"mfmt 19700101000000 x"), Ok(mfmt(0, b"x")));
    // A fraction is allowed and dropped; a leap second is the next minute.
    assert_eq!(p(b"MFMT 20020717210715.123 f"), Ok(mfmt(1_026_940_035, b"f")));
    assert_eq!(p(b"MFMT 20161231235960 f"), Ok(mfmt(1_483_228_800, b"f")));
    // Exactly one SP: the rest is the pathname, SPs, CR NUL and all.
    assert_eq!(p(b"MFMT 20020717210715  two  "), Ok(mfmt(1_026_940_035, b" two  ")));
    assert_eq!(p(b"MFMT 20020717210715 a\r\0b"), Ok(mfmt(1_026_940_035, b"a\rb")));
    assert_eq!(
        p("MFMT 20200229120000 日本語/ملف.txt".as_bytes()),
        Ok(mfmt(1_582_977_600, "日本語/ملف.txt".as_bytes()))
    );
    assert_eq!(p(b"MFMT"), Err(ParseError::MissingArgument(Verb::Mfmt)));
    for bad in [
        &b"MFMT 20020717210715"[..],
        b"MFMT 20020717210715 ",
        b"MFMT file.txt",
        b"MFMT 20021317210715 f",
        b"MFMT 20020230000000 f",
        b"MFMT 20210229000000 f",
        b"MFMT 20020700000000 f",
        b"MFMT 20020717240000 f",
        b"MFMT 20020717216015 f",
        b"MFMT 2002071721071 f",
        b"MFMT 200207172107150 f",
        b"MFMT 20020717210715. f",
        b"MFMT -0020717210715 f",
        b"MFMT 2002-07-17T21:07:15 f",
        b"MFMT 20020717210715 a\0b",
    ] {
        let e = p(bad).unwrap_err();
        assert_eq!(e.code().get(), 501, "{}: {e:?}", bad.escape_ascii());
        assert_eq!(e.verb(), Some(Verb::Mfmt));
    }
    // Which file it names (the legacy charset layer looks at it).
    let c = p(b"MFMT 20020717210715 f").unwrap();
    assert_eq!(c.pathname(), Some(&path(b"f")));
    assert_eq!(c.to_string(), "MFMT 20020717210715 f");
    assert!(Verb::Mfmt.needs_login());
}

#[test]
fn every_verb_is_reachable_by_each_name() {
    for v in Verb::ALL {
        for name in v.names() {
            assert_eq!(Verb::lookup(name.as_bytes()), Some(*v));
            assert_eq!(Verb::lookup(name.to_ascii_lowercase().as_bytes()), Some(*v));
        }
        assert!(!v.rfc().is_empty());
    }
    assert!(!Verb::Feat.needs_login());
    assert!(Verb::Retr.needs_login());
}

#[test]
fn to_line_pads_cr_and_refuses_lf() {
    let c = Command::Stor(path(b"a\rb"));
    assert_eq!(c.to_line().unwrap(), b"STOR a\r\0b\r\n");
    assert_eq!(Command::Stor(path(b"  ")).to_line().unwrap(), b"STOR   \r\n");
    assert_eq!(Command::Dele(path(b"x\nRMD y")).to_line(), Err(PathError::LineFeed(1)));
    assert_eq!(Command::Pwd.to_line().unwrap(), b"PWD\r\n");
}

/// Frames `wire` as the server does, then parses its one line.
fn reparse(wire: &[u8]) -> Result<Command, ParseError> {
    use crate::line::{LineEvent, LineReader, Status};
    let mut r = LineReader::default();
    let (n, st) = r.advance(wire);
    assert_eq!(n, wire.len(), "one line: {}", wire.escape_ascii());
    match st {
        Status::Complete(LineEvent::Line(l)) => Command::parse(&l),
        other => panic!("{other:?} for {}", wire.escape_ascii()),
    }
}

#[test]
fn cr_lf_inside_a_name_is_sent_as_cr_nul_lf_rfc2640_3_1() {
    // The RFC's own example: foo<CR><LF> is sent as foo<CR><NUL><LF>.
    let c = Command::Stor(path(b"foo\r\n"));
    assert_eq!(c.to_line().unwrap(), b"STOR foo\r\0\n\r\n");
    assert_eq!(reparse(&c.to_line().unwrap()), Ok(c));
    let c = Command::Mkd(path(b"foo\r\nboo.bar"));
    assert_eq!(c.to_line().unwrap(), b"MKD foo\r\0\nboo.bar\r\n");
    assert_eq!(reparse(&c.to_line().unwrap()), Ok(c));
    assert_eq!(p(b"MKD foo\r\0\nboo.bar"), Ok(Command::Mkd(path(b"foo\r\nboo.bar"))));
    // An LF without a CR before it has no wire form.
    assert_eq!(Command::Mkd(path(b"a\n\rb")).to_line(), Err(PathError::LineFeed(1)));
    // ... and a parsed line cannot hold one either (a line never does).
    assert_eq!(
        p(b"MKD a\nb"),
        Err(ParseError::BadPath(Verb::Mkd, PathError::LineFeed(1)))
    );
}

#[test]
fn iac_in_an_argument_is_doubled_rfc854() {
    // windows-1251 "яя": each 0xFF is a telnet IAC, so it goes out doubled.
    let c = Command::Retr(path(b"/\xff\xffa"));
    assert_eq!(c.to_line().unwrap(), b"RETR /\xff\xff\xff\xffa\r\n");
    assert_eq!(reparse(&c.to_line().unwrap()), Ok(c));
    let c = Command::Stor(path(b"\xff\xf4\r\n"));
    assert_eq!(c.to_line().unwrap(), b"STOR \xff\xff\xf4\r\0\n\r\n");
    assert_eq!(reparse(&c.to_line().unwrap()), Ok(c));
}

#[test]
fn to_line_then_parse_round_trips() {
    let cmds = vec![
        Command::User(b"anonymous".to_vec()),
        Command::Pass(b"p\rw".to_vec()),
        Command::Port("10.0.0.1:65535".parse().unwrap()),
        Command::Eprt("[::1]:2121".parse().unwrap()),
        Command::Epsv(EpsvArg::All),
        Command::Type(TransferType::Image),
        Command::Rest(42),
        Command::Opts("UTF8".into(), Some(b"ON".to_vec())),
        Command::Lang(Some("ja".parse().unwrap())),
        Command::Mlsd(Some(path("日本語/ملف".as_bytes()))),
        Command::List(None),
        Command::Prot(ProtLevel::Clear),
        Command::Mfmt {
            time: 1_026_940_035,
            path: path("a b\rc ملف".as_bytes()),
        },
        Command::Mfmt {
            time: -2_208_988_800,
            path: path(b"1900"),
        },
    ];
    for c in cmds {
        let line = c.to_line().unwrap();
        let body = &line[..line.len() - 2];
        assert_eq!(Command::parse(body), Ok(c.clone()), "{c}");
    }
}

#[test]
fn display_hides_password() {
    assert_eq!(Command::Pass(b"secret".to_vec()).to_string(), "PASS ****");
    assert_eq!(Command::Retr(path(b"a\x01")).to_string(), "RETR a%01");
    // Names as text in logs (issue 11), not `\xe6\x97\xa5`.
    assert_eq!(
        Command::Retr(path("日本語.txt".as_bytes())).to_string(),
        "RETR 日本語.txt"
    );
    assert_eq!(Command::Retr(path(b"\x93\xfa")).to_string(), "RETR %93%FA");
}

proptest::proptest! {
    #[test]
    fn parse_never_panics(line in proptest::collection::vec(proptest::num::u8::ANY, 0..64)) {
        let _ = Command::parse(&line);
    }

    #[test]
    fn control_bytes_round_trip(picks in proptest::collection::vec(0usize..14, 0..80)) {
        // Verbs, SP, and the octets the framing cares about: CR, NUL, LF, IAC,
        // telnet IP and SE.
        const ALPHABET: [&[u8]; 14] = [
            b"MKD", b"RETR", b"USER", b"PASS", b"NOOP", b" ", b"\r", b"\0", b"\n", b"\xff", b"\xf4", b"\xf0", b"a", b"\r\n",
        ];
        let input: Vec<u8> = picks.iter().flat_map(|&i| ALPHABET[i].iter().copied()).collect();
        super::fuzz_control(&input);
    }

    #[test]
    fn any_path_round_trips(name in proptest::collection::vec(proptest::num::u8::ANY, 1..40)) {
        // Every name without NUL whose LFs each follow a CR can be sent.
        proptest::prop_assume!(!name.contains(&0));
        proptest::prop_assume!(name.iter().enumerate().all(|(i, &b)| b != b'\n' || i > 0 && name[i - 1] == b'\r'));
        let c = Command::Retr(WirePath::new(name));
        let line = c.to_line().unwrap();
        proptest::prop_assert_eq!(reparse(&line), Ok(c));
    }
}
