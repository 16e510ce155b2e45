//! Whole sessions without sockets: bytes in, replies and actions out, time
//! simulated. Each test names the rule it holds the session to.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use babelftp_session::testing::Harness;
use babelftp_session::{Action, DataEvent, Hostile, TransferKind};

fn logged_in() -> Harness {
    let mut h = Harness::new();
    h.fs.add_file(b"/a.txt", b"hello");
    h.fs.add_dir(b"/d");
    assert_eq!(h.take()[0].code.get(), 220);
    assert_eq!(h.codes(b"USER bob"), [331]);
    assert_eq!(h.codes(b"PASS secret"), [230]);
    h.take();
    h
}

fn text(h: &mut Harness, line: &[u8]) -> Vec<u8> {
    h.send(line);
    let r = h.take();
    assert_eq!(r.len(), 1, "{r:?}");
    r[0].text()
}

#[test]
fn greeting_login_and_directories_rfc959() {
    let mut h = Harness::new();
    assert_eq!(h.take()[0].code.get(), 220);
    assert_eq!(h.codes(b"PWD"), [530], "PWD needs login");
    assert_eq!(h.codes(b"PASS x"), [503], "PASS before USER");
    assert_eq!(h.codes(b"USER bob"), [331]);
    assert_eq!(h.codes(b"PASS secret"), [230]);
    assert_eq!(h.codes(b"PASS secret"), [503]);
    assert_eq!(h.codes(b"PWD"), [257], "a stray PASS does not log the session out");
    assert_eq!(h.codes(b"MKD \xe6\x97\xa5\xe6\x9c\xac"), [257]);
    assert_eq!(h.codes(b"CWD \xe6\x97\xa5\xe6\x9c\xac"), [250]);
    assert_eq!(
        text(&mut h, b"PWD"),
        b"\"/\xe6\x97\xa5\xe6\x9c\xac\" is the current directory."
    );
    assert_eq!(h.codes(b"CWD ../../.."), [250]);
    assert_eq!(text(&mut h, b"PWD")[..3], *b"\"/\"");
    assert_eq!(h.codes(b"CWD nowhere"), [550]);
    assert_eq!(h.codes(b"RMD \xe6\x97\xa5\xe6\x9c\xac"), [250]);
}

#[test]
fn rfc2640_3_1_cr_lf_in_a_pathname_is_data_not_a_second_command() {
    // RFC 2640 3.1: "foo<CR><LF>boo.bar" is sent as "foo<CR><NUL><LF>boo.bar".
    let mut h = logged_in();
    assert_eq!(h.codes(b"MKD foo\r\0\nboo.bar"), [257]);
    assert!(
        h.fs.exists(b"/foo\r\nboo.bar"),
        "the directory has the CR LF in its name"
    );
    assert!(!h.fs.exists(b"/foo\r"), "no directory named by the first half");
    assert_eq!(h.codes(b"CWD foo\r\0\nboo.bar"), [250]);
    // PWD pads the CR again (RFC 2640 3.1) on the way out.
    h.send(b"PWD");
    assert!(
        h.wire
            .ends_with(b"257 \"/foo\r\0\nboo.bar\" is the current directory\r\n")
            || h.wire.windows(14).any(|w| w == b"/foo\r\0\nboo.bar"),
        "{}",
        h.wire.escape_ascii()
    );
}

#[test]
fn failed_login_is_answered_after_the_delay_without_blocking() {
    let mut h = Harness::new();
    h.take();
    assert_eq!(h.codes(b"USER bob"), [331]);
    assert!(h.codes(b"PASS wrong").is_empty(), "530 waits for the delay");
    // Commands sent meanwhile wait their turn.
    assert!(h.codes(b"NOOP").is_empty());
    h.advance(Duration::from_millis(999));
    assert!(h.take().is_empty());
    h.advance(Duration::from_millis(1));
    let codes: Vec<u16> = h.take().iter().map(|r| r.code.get()).collect();
    assert_eq!(codes, [530, 200]);
}

/// A home that cannot be entered for want of descriptors or memory is not
/// the client's fault: 421 and the connection closes, where a missing home
/// stays 530 Login incorrect.
#[test]
fn a_login_out_of_resources_is_421_not_530() {
    let mut h = Harness::new();
    h.take();
    h.fs.fail_enter_home = Some(std::io::ErrorKind::Other);
    assert_eq!(h.codes(b"USER bob"), [331]);
    assert_eq!(h.codes(b"PASS secret"), [421]);
    assert!(h.closed());

    let mut h = Harness::new();
    h.take();
    h.fs.fail_enter_home = Some(std::io::ErrorKind::NotFound);
    assert_eq!(h.codes(b"USER bob"), [331]);
    h.send(b"PASS secret");
    h.advance(Duration::from_secs(1));
    let codes: Vec<u16> = h.take().iter().map(|r| r.code.get()).collect();
    assert_eq!(codes, [530]);
    assert!(!h.closed());
}

#[test]
fn idle_deadline_is_per_command_not_per_read() {
    let mut h = Harness::new();
    h.take();
    // A client trickling one byte a minute never completes a command.
    for _ in 0..4 {
        h.advance(Duration::from_secs(60));
        h.input(b"N");
    }
    assert!(!h.closed());
    h.advance(Duration::from_secs(60));
    assert!(h.closed(), "300 s without a complete command: 421");
    assert_eq!(h.take().last().unwrap().code.get(), 421);
}

#[test]
fn an_over_long_line_gets_500_before_it_ends() {
    let mut h = Harness::new();
    h.take();
    let mut big = b"STOR ".to_vec();
    big.extend(std::iter::repeat_n(b'x', 1 << 20));
    h.input(&big);
    assert_eq!(h.take().iter().map(|r| r.code.get()).collect::<Vec<_>>(), [500]);
    // The driver's defender hears of it, once for the line.
    assert_eq!(hostile(&h), [Hostile::LongLine]);
    // The rest of that line is skipped; the next line is a command again.
    h.input(b"yyyy\r\n");
    assert!(h.take().is_empty());
    assert_eq!(h.codes(b"NOOP"), [200]);
    assert_eq!(hostile(&h).len(), 1);
}

/// What the session told the driver's defender, in order.
fn hostile(h: &Harness) -> Vec<Hostile> {
    h.actions
        .iter()
        .filter_map(|a| match a {
            Action::Hostile(k) => Some(*k),
            _ => None,
        })
        .collect()
}

#[test]
fn abor_during_a_download_is_426_then_226_and_the_session_goes_on() {
    let mut h = logged_in();
    h.hold = true;
    assert_eq!(h.codes(b"PASV"), [227]);
    assert_eq!(h.codes(b"RETR a.txt"), [150]);
    assert!(h.transfer_running());
    assert_eq!(h.codes(b"STAT"), [211], "STAT is answered during a transfer");
    assert!(h.codes(b"NOOP").is_empty(), "other commands wait");
    h.send(b"ABOR");
    let codes: Vec<u16> = h.take().iter().map(|r| r.code.get()).collect();
    assert_eq!(codes, [426, 226, 200], "transfer 426, ABOR 226, then the queued NOOP");
    assert!(h.actions.iter().any(|a| matches!(a, Action::AbortTransfer(_))));
    assert!(!h.transfer_running());
    assert_eq!(h.codes(b"NOOP"), [200]);
}

#[test]
fn a_second_abor_while_the_first_is_carried_out_gets_its_own_reply() {
    let mut h = logged_in();
    h.hold = true;
    h.codes(b"PASV");
    assert_eq!(h.codes(b"RETR a.txt"), [150]);
    // Both arrive before the driver reports the end of the transfer.
    h.input(b"ABOR\r\nABOR\r\n");
    h.settle();
    let codes: Vec<u16> = h.take().iter().map(|r| r.code.get()).collect();
    assert_eq!(codes, [426, 226, 225]);
}

#[test]
fn telnet_ip_makes_the_next_command_urgent_rfc959_4_1_3() {
    let mut h = logged_in();
    h.hold = true;
    h.codes(b"PASV");
    assert_eq!(h.codes(b"LIST"), [150]);
    // Queued commands, then IP + Synch + ABOR: ABOR acts at once.
    h.input(b"NOOP\r\nSYST\r\n\xff\xf4\xff\xf2ABOR\r\n");
    h.settle();
    let codes: Vec<u16> = h.take().iter().map(|r| r.code.get()).collect();
    assert_eq!(codes, [426, 226, 200, 215]);
}

#[test]
fn quit_during_an_upload_finishes_it_then_closes_rfc959() {
    let mut h = logged_in();
    h.fs.add_file(b"/up.bin", b"old");
    h.hold = true;
    h.codes(b"TYPE I");
    h.codes(b"PASV");
    assert_eq!(h.codes(b"STOR up.bin"), [150]);
    assert!(h.codes(b"QUIT").is_empty(), "QUIT waits for the transfer");
    h.finish_transfer();
    let codes: Vec<u16> = h.take().iter().map(|r| r.code.get()).collect();
    assert_eq!(codes, [226, 221]);
    assert!(h.closed());
    assert_eq!(
        h.fs.file(b"/up.bin"),
        Some(&b"uploaded data"[..]),
        "the whole upload is kept"
    );
}

#[test]
fn control_closed_mid_upload_never_commits() {
    let mut h = logged_in();
    h.fs.add_file(b"/up.bin", b"old");
    h.hold = true;
    h.codes(b"PASV");
    assert_eq!(h.codes(b"STOR up.bin"), [150]);
    let id = h.transfer_id().unwrap();
    h.close_control();
    assert!(h.actions.contains(&Action::AbortTransfer(id)));
    assert!(!h.actions.iter().any(|a| matches!(a, Action::Commit(_))));
    assert!(h.closed(), "closed once the transfer ended");
    assert_eq!(h.fs.file(b"/up.bin"), Some(&b"old"[..]));
}

#[test]
fn upload_data_arriving_after_the_control_connection_closed_is_discarded() {
    // The data EOF of a killed client is reported after its control EOF.
    let mut h = logged_in();
    h.hold = true;
    h.codes(b"PASV");
    h.codes(b"STOR new.bin");
    let id = h.transfer_id().unwrap();
    h.s.handle_control_closed(h.now);
    h.data_event(DataEvent::UploadReceived { id, bytes: 5 });
    assert!(!h.actions.iter().any(|a| matches!(a, Action::Commit(_))));
    h.quiesce();
    assert!(h.closed());
    assert!(!h.fs.exists(b"/new.bin"));
}

#[test]
fn shutdown_lets_a_transfer_finish_then_cuts_it_at_the_deadline() {
    let mut h = logged_in();
    h.hold = true;
    h.codes(b"PASV");
    assert_eq!(h.codes(b"RETR a.txt"), [150]);
    h.shutdown(Duration::from_secs(30));
    assert!(!h.closed(), "the transfer may finish");
    h.advance(Duration::from_secs(29));
    assert!(h.take().is_empty());
    h.advance(Duration::from_secs(1));
    h.settle();
    let codes: Vec<u16> = h.take().iter().map(|r| r.code.get()).collect();
    assert_eq!(codes, [426, 421]);
    assert!(h.closed());
}

#[test]
fn shutdown_when_idle_is_421_at_once() {
    let mut h = logged_in();
    h.shutdown(Duration::from_secs(30));
    assert_eq!(h.take().iter().map(|r| r.code.get()).collect::<Vec<_>>(), [421]);
    assert!(h.closed());
}

#[test]
fn an_administrator_ends_a_session_with_421_and_cuts_its_transfer_at_once() {
    // Idle: 421 at once, with its own text (not the server's shutdown).
    let mut h = logged_in();
    h.end();
    let r = h.take();
    assert_eq!(r.iter().map(|r| r.code.get()).collect::<Vec<_>>(), [421]);
    let text = String::from_utf8_lossy(&r[0].lines[0]).into_owned();
    assert!(text.contains("administrator"), "{text}");
    assert!(h.closed());
    // A transfer running: cut now (426), then 421; no grace.
    let mut h = logged_in();
    h.hold = true;
    h.codes(b"PASV");
    assert_eq!(h.codes(b"RETR a.txt"), [150]);
    h.end();
    h.settle();
    let codes: Vec<u16> = h.take().iter().map(|r| r.code.get()).collect();
    assert_eq!(codes, [426, 421]);
    assert!(h.closed());
}

#[test]
fn transfers_need_a_data_connection_and_open_failures_send_no_150() {
    let mut h = logged_in();
    assert_eq!(h.codes(b"RETR a.txt"), [425]);
    assert_eq!(h.codes(b"PASV"), [227]);
    assert_eq!(h.codes(b"RETR missing"), [550], "550 without 150");
    // The passive listener is still there for the next transfer.
    assert_eq!(h.codes(b"RETR a.txt"), [150, 226]);
    assert_eq!(h.sent.last().unwrap(), b"hello");
    assert_eq!(h.codes(b"REST 2"), [350]);
    h.codes(b"PASV");
    assert_eq!(h.codes(b"RETR a.txt"), [150, 226]);
    assert_eq!(h.sent.last().unwrap(), b"llo");
    h.codes(b"EPSV");
    assert_eq!(h.codes(b"MLSD a.txt"), [550], "MLSD of a file");
    assert_eq!(h.codes(b"NLST -la d"), [150, 226]);
}

#[test]
fn stou_names_the_file_in_its_150_rfc1123() {
    let mut h = logged_in();
    h.codes(b"PASV");
    h.send(b"STOU a.txt");
    let r = h.take();
    assert_eq!(r[0].code.get(), 150);
    assert!(r[0].text().ends_with(b" a.txt.1"), "{r:?}");
    assert_eq!(r[1].code.get(), 226);
    assert_eq!(h.fs.file(b"/a.txt"), Some(&b"hello"[..]));
}

#[test]
fn port_goes_only_back_to_the_client_rfc2577() {
    let mut h = logged_in();
    assert_eq!(h.codes(b"PORT 10,0,0,1,200,10"), [504]);
    assert_eq!(h.codes(b"PORT 127,0,0,1,0,21"), [504]);
    assert_eq!(h.codes(b"PORT 127,0,0,1,200,10"), [200]);
    // Each bounce refused is told to the driver's defender (issue 29);
    // PORT back to the client is not.
    assert_eq!(hostile(&h), [Hostile::Bounce, Hostile::Bounce]);
    assert_eq!(h.codes(b"EPRT |1|10.0.0.1|2000|"), [504]);
    assert_eq!(h.codes(b"EPSV ALL"), [200]);
    assert_eq!(h.codes(b"PASV"), [503]);
    // Refused by EPSV ALL, not as a bounce.
    assert_eq!(h.codes(b"PORT 127,0,0,1,200,10"), [503]);
    assert_eq!(hostile(&h).len(), 3);
}

#[test]
fn iac_in_a_reply_is_doubled_rfc854() {
    // windows-1251 "я" is 0xFF; a mirror-mode name may hold it.
    let mut h = logged_in();
    assert_eq!(h.codes(b"MKD \xff\xffa"), [257]);
    assert!(h.fs.exists(b"/\xffa"));
    assert!(
        h.wire.windows(4).any(|w| w == b"/\xff\xffa"),
        "0xFF goes out as IAC IAC: {}",
        h.wire.escape_ascii()
    );
    assert_eq!(
        text(&mut h, b"MKD \xff\xffb")[..5],
        *b"\"/\xffb\"",
        "and reads back as one 0xFF"
    );
}

#[test]
fn rein_and_host_return_to_defaults_rfc2640_rfc7151() {
    let mut h = logged_in();
    assert_eq!(h.codes(b"LANG fr"), [200]);
    assert_eq!(h.codes(b"HOST example"), [503], "HOST after login");
    assert_eq!(h.codes(b"REIN"), [220]);
    assert!(h.actions.contains(&Action::SelectRoot(None)));
    assert_eq!(h.codes(b"PWD"), [530]);
    assert_eq!(h.codes(b"HOST example"), [220]);
}

#[test]
fn the_transfer_log_has_every_file_transfer_with_its_bytes() {
    let mut h = logged_in();
    h.codes(b"PASV");
    h.codes(b"RETR a.txt");
    h.codes(b"PASV");
    h.codes(b"LIST");
    h.hold = true;
    h.codes(b"PASV");
    h.codes(b"STOR b.txt");
    h.codes(b"ABOR");
    let logs: Vec<_> = h
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::Log(r) => Some((r.path.clone(), r.bytes, r.complete, r.incoming)),
            _ => None,
        })
        .collect();
    assert_eq!(
        logs,
        [
            (b"/a.txt".to_vec(), 5, true, false),
            (b"/b.txt".to_vec(), 13, false, true)
        ],
        "listings are not logged; the aborted upload is, as incomplete"
    );
    assert!(h
        .actions
        .iter()
        .any(|a| matches!(a, Action::StartTransfer(s) if matches!(s.kind, TransferKind::List { .. }))));
}

#[test]
fn mfmt_sets_a_files_time_for_writers_draft_somers_ftp_mfxx_3() {
    let mut h = logged_in();
    h.send(b"FEAT");
    assert!(h.take()[0].lines.iter().any(|l| l == b" MFMT"), "FEAT lists MFMT");
    assert!(String::from_utf8_lossy(&text(&mut h, b"HELP")).contains("MFMT"));
    // 2020-01-02 03:04:05 UTC; the reply names the file as it was sent.
    assert_eq!(
        text(&mut h, b"MFMT 20200102030405 a.txt"),
        b"Modify=20200102030405; a.txt"
    );
    assert_eq!(h.fs.mtime(b"/a.txt"), Some(1_577_934_245));
    assert_eq!(text(&mut h, b"MDTM a.txt"), b"20200102030405");
    // A fraction is dropped; the path is resolved like any other.
    h.fs.add_file("/d/日本.txt".as_bytes(), b"x");
    assert_eq!(
        text(&mut h, "MFMT 19991231235959.999 /d/../d/日本.txt".as_bytes()),
        "Modify=19991231235959; /d/../d/日本.txt".as_bytes()
    );
    assert_eq!(h.fs.mtime("/d/日本.txt".as_bytes()), Some(946_684_799));
    // A directory, a missing file, a bad time.
    assert_eq!(h.codes(b"MFMT 20200102030405 d"), [550]);
    assert_eq!(h.codes(b"MFMT 20200102030405 missing.txt"), [550]);
    assert_eq!(h.codes(b"MFMT 20200230000000 a.txt"), [501]);
    assert_eq!(h.codes(b"MFMT 20201301000000 a.txt"), [501]);
    assert_eq!(h.codes(b"MFMT 20200102030405"), [501]);
    assert_eq!(h.codes(b"MFMT"), [501]);
    assert_eq!(h.fs.mtime(b"/a.txt"), Some(1_577_934_245), "refusals change nothing");
    // A new upload is a new time.
    h.codes(b"PASV");
    assert_eq!(h.codes(b"STOR a.txt"), [150, 226]);
    assert_ne!(h.fs.mtime(b"/a.txt"), Some(1_577_934_245));
}

#[test]
fn mfmt_is_refused_to_readers_and_absent_where_times_are_not_kept() {
    let mut h = Harness::new();
    h.fs.add_file(b"/a.txt", b"hello");
    h.take();
    assert_eq!(h.codes(b"MFMT 20200102030405 a.txt"), [530], "login first");
    h.codes(b"USER anonymous");
    assert_eq!(h.codes(b"PASS x"), [230]);
    assert_eq!(h.codes(b"MFMT 20200102030405 a.txt"), [550]);
    assert_eq!(h.fs.mtime(b"/a.txt"), Some(babelftp_session::testing::DEFAULT_MTIME));

    // A storage that cannot keep times (S3) does not offer MFMT.
    let mut h = Harness::with(|c| c.caps.set_times = false);
    h.fs.add_file(b"/a.txt", b"hello");
    h.codes(b"USER bob");
    h.codes(b"PASS secret");
    h.take();
    h.send(b"FEAT");
    assert!(!h.take()[0].lines.iter().any(|l| l == b" MFMT"), "no MFMT in FEAT");
    assert!(!String::from_utf8_lossy(&text(&mut h, b"HELP")).contains("MFMT"));
    assert_eq!(h.codes(b"MFMT 20200102030405 a.txt"), [502]);
    assert!(!h
        .actions
        .iter()
        .any(|a| matches!(a, Action::Op(babelftp_session::Op::SetModified { .. }))));
}

/// Issue 27: a storage that writes only whole files (S3) is not offered
/// as more. APPE and REST + STOR are refused by the session with 504
/// before any data connection, SITE CHMOD with 502 and not listed in SITE
/// HELP, and MLST's perm fact has no `a` (append).
#[test]
fn what_the_storage_cannot_do_is_neither_offered_nor_started() {
    let whole_files = babelftp_session::Capabilities {
        append: false,
        write_at: false,
        chmod: false,
        set_times: false,
    };
    let mut h = Harness::with(move |c| c.caps = whole_files);
    h.fs.add_file(b"/a.txt", b"hello");
    h.codes(b"USER bob");
    h.codes(b"PASS secret");
    h.take();
    assert_eq!(h.codes(b"PASV"), [227]);
    assert_eq!(h.codes(b"APPE a.txt"), [504]);
    assert_eq!(h.codes(b"REST 2"), [350]);
    assert_eq!(h.codes(b"STOR a.txt"), [504]);
    assert!(
        !h.actions.iter().any(|a| matches!(a, Action::StartTransfer(_))),
        "a transfer was started: {:?}",
        h.actions
    );
    assert_eq!(h.codes(b"SITE CHMOD 600 a.txt"), [502]);
    let help = String::from_utf8_lossy(&text(&mut h, b"SITE HELP")).into_owned();
    assert!(!help.contains("CHMOD"), "{help}");
    let mlst = String::from_utf8_lossy(&text(&mut h, b"MLST a.txt")).into_owned();
    assert!(mlst.contains("perm=dfrw;"), "{mlst}");
    // A whole file still goes up, and the local disk keeps everything.
    assert_eq!(h.codes(b"STOR b.txt"), [150, 226]);
    let mut h = Harness::new();
    h.fs.add_file(b"/a.txt", b"hello");
    h.codes(b"USER bob");
    h.codes(b"PASS secret");
    h.take();
    let help = String::from_utf8_lossy(&text(&mut h, b"SITE HELP")).into_owned();
    assert!(help.contains("CHMOD"), "{help}");
    let mlst = String::from_utf8_lossy(&text(&mut h, b"MLST a.txt")).into_owned();
    assert!(mlst.contains("perm=adfrw;"), "{mlst}");
}
