//! FTPS (RFC 4217) as the session sees it: AUTH, PBSZ, PROT, CCC, the
//! TLS-required policy, and protected data connections. The TLS itself is
//! the driver's; here the session's decisions are checked.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use babelftp_session::testing::Harness;
use babelftp_session::{Action, DataEvent, Outcome, TlsPolicy};

fn with_tls(required: bool) -> Harness {
    let mut h = Harness::with(|c| c.tls = Some(TlsPolicy { required }));
    h.fs.add_file(b"/a.txt", b"hello");
    assert_eq!(h.take()[0].code.get(), 220);
    h
}

fn codes(h: &mut Harness, line: &[u8]) -> Vec<u16> {
    h.codes(line)
}

#[test]
fn without_a_certificate_auth_is_not_implemented() {
    let mut h = Harness::new();
    h.take();
    assert_eq!(h.codes(b"AUTH TLS"), [502]);
    h.send(b"FEAT");
    let feat = String::from_utf8(h.take()[0].text()).unwrap();
    assert!(!feat.contains("AUTH") && !feat.contains("PBSZ"), "{feat}");
}

#[test]
fn feat_offers_auth_tls_pbsz_and_prot_rfc4217_6() {
    let mut h = with_tls(false);
    h.send(b"FEAT");
    let feat = String::from_utf8(h.take()[0].text()).unwrap();
    for line in ["AUTH TLS", "PBSZ", "PROT"] {
        assert!(feat.lines().any(|l| l.trim() == line), "{line} missing: {feat}");
    }
}

#[test]
fn auth_tls_then_pbsz_and_prot_rfc4217_4_8_9() {
    let mut h = with_tls(false);
    assert_eq!(codes(&mut h, b"PBSZ 0"), [503], "PBSZ before AUTH");
    assert_eq!(codes(&mut h, b"PROT P"), [503], "PROT before AUTH");
    assert_eq!(codes(&mut h, b"AUTH KERBEROS_V4"), [504]);
    assert_eq!(codes(&mut h, b"AUTH TLS"), [234]);
    assert_eq!(h.actions.last(), Some(&Action::StartTls));
    assert_eq!(codes(&mut h, b"AUTH TLS"), [503], "already protected");
    assert_eq!(codes(&mut h, b"PROT P"), [503], "PROT before PBSZ");
    h.send(b"PBSZ 0");
    assert_eq!(h.take()[0].text(), b"PBSZ=0");
    assert_eq!(codes(&mut h, b"PROT S"), [536]);
    assert_eq!(codes(&mut h, b"PROT E"), [536]);
    assert_eq!(codes(&mut h, b"PROT P"), [200]);
    assert_eq!(codes(&mut h, b"USER bob"), [331]);
    assert_eq!(codes(&mut h, b"PASS secret"), [230]);
    assert_eq!(codes(&mut h, b"CCC"), [534], "protection is not dropped");
    h.codes(b"PASV");
    assert_eq!(codes(&mut h, b"RETR a.txt"), [150, 226]);
    let tls: Vec<bool> = h
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::StartTransfer(s) => Some(s.tls),
            _ => None,
        })
        .collect();
    assert_eq!(tls, [true], "PROT P: the data connection runs TLS");
    assert_eq!(codes(&mut h, b"PROT C"), [200]);
    h.codes(b"PASV");
    assert_eq!(codes(&mut h, b"RETR a.txt"), [150, 226]);
    assert!(
        matches!(h.actions.iter().rev().find(|a| matches!(a, Action::StartTransfer(_))), Some(Action::StartTransfer(s)) if !s.tls)
    );
}

#[test]
fn plaintext_sent_behind_auth_is_discarded() {
    // The STARTTLS command-injection class: a man in the middle appends a
    // command to the client's AUTH; it must not run once TLS is up.
    let mut h = with_tls(false);
    h.input(b"AUTH TLS\r\nUSER evil\r\nPASS x\r\n");
    h.settle();
    assert_eq!(h.take().iter().map(|r| r.code.get()).collect::<Vec<_>>(), [234]);
    assert_eq!(codes(&mut h, b"PWD"), [530], "no USER ran");
}

#[test]
fn auth_ssl_protects_data_at_once() {
    let mut h = with_tls(false);
    assert_eq!(codes(&mut h, b"AUTH SSL"), [234]);
    h.codes(b"USER bob");
    h.codes(b"PASS secret");
    h.codes(b"PASV");
    h.codes(b"RETR a.txt");
    assert!(h.actions.iter().any(|a| matches!(a, Action::StartTransfer(s) if s.tls)));
}

#[test]
fn tls_required_refuses_user_before_auth_and_clear_data() {
    let mut h = with_tls(true);
    assert_eq!(codes(&mut h, b"USER bob"), [530]);
    assert_eq!(codes(&mut h, b"AUTH TLS"), [234]);
    assert_eq!(codes(&mut h, b"USER bob"), [331]);
    assert_eq!(codes(&mut h, b"PASS secret"), [230]);
    h.codes(b"PASV");
    assert_eq!(codes(&mut h, b"LIST"), [521], "PROT C under tls-required");
    h.codes(b"PBSZ 0");
    h.codes(b"PROT P");
    assert_eq!(codes(&mut h, b"LIST"), [150, 226]);
}

#[test]
fn a_data_connection_that_does_not_resume_the_session_is_522_and_the_session_goes_on() {
    let mut h = with_tls(false);
    h.codes(b"AUTH TLS");
    h.codes(b"PBSZ 0");
    h.codes(b"PROT P");
    h.codes(b"USER bob");
    h.codes(b"PASS secret");
    h.hold = true;
    h.codes(b"PASV");
    assert_eq!(codes(&mut h, b"RETR a.txt"), [150]);
    let id = h.transfer_id().unwrap();
    h.data_event(DataEvent::Ended {
        id,
        bytes: 0,
        outcome: Outcome::TlsNotReused,
    });
    assert_eq!(h.take().iter().map(|r| r.code.get()).collect::<Vec<_>>(), [522]);
    assert_eq!(codes(&mut h, b"NOOP"), [200]);
}

#[test]
fn implicit_ftps_starts_protected() {
    let catalogs = std::sync::Arc::new(babelftp_i18n::lang::Catalogs::builtin().unwrap());
    let mut cfg = babelftp_session::SessionConfig::new(catalogs);
    cfg.tls = Some(TlsPolicy { required: true });
    let now = std::time::Instant::now();
    let mut s = babelftp_session::ServerSession::new_implicit_tls(
        std::sync::Arc::new(cfg),
        "127.0.0.1:5000".parse().unwrap(),
        "127.0.0.1:990".parse().unwrap(),
        now,
    );
    assert!(s.is_tls());
    let n = s.output().len();
    s.consume_output(n);
    s.handle_input(now, b"USER bob\r\n");
    assert!(s.output().starts_with(b"331"), "{}", s.output().escape_ascii());
}

#[test]
fn rein_after_auth_ends_tls_and_resets_pbsz_and_prot_rfc4217_13() {
    let mut h = with_tls(true);
    assert_eq!(codes(&mut h, b"AUTH TLS"), [234]);
    h.send(b"PBSZ 0");
    h.take();
    assert_eq!(codes(&mut h, b"PROT P"), [200]);
    assert_eq!(codes(&mut h, b"USER bob"), [331]);
    assert_eq!(codes(&mut h, b"PASS secret"), [230]);
    // Lines behind REIN were sent under TLS: they are not read in clear.
    h.send(b"REIN\r\nPWD");
    assert_eq!(h.take().iter().map(|r| r.code.get()).collect::<Vec<_>>(), [220]);
    assert_eq!(h.actions.last(), Some(&Action::EndTls));
    assert_eq!(codes(&mut h, b"PBSZ 0"), [503], "PBSZ needs AUTH again");
    assert_eq!(codes(&mut h, b"PROT P"), [503]);
    assert_eq!(codes(&mut h, b"USER bob"), [530], "TLS is required again");
    assert_eq!(codes(&mut h, b"AUTH TLS"), [234], "AUTH may come again");
    assert_eq!(h.actions.last(), Some(&Action::StartTls));
}

#[test]
fn rein_on_the_implicit_port_keeps_tls_and_its_defaults() {
    let mut h = Harness::with_implicit(|c| c.tls = Some(TlsPolicy { required: true }));
    assert_eq!(h.take()[0].code.get(), 220);
    assert_eq!(codes(&mut h, b"PROT C"), [200]);
    assert_eq!(codes(&mut h, b"REIN"), [220]);
    assert!(!h.actions.contains(&Action::EndTls));
    assert_eq!(codes(&mut h, b"USER bob"), [331], "still protected");
    assert_eq!(codes(&mut h, b"PASS secret"), [230]);
    h.codes(b"PASV");
    assert_eq!(codes(&mut h, b"NLST"), [150, 226]);
    assert!(
        matches!(h.actions.iter().rev().find(|a| matches!(a, Action::StartTransfer(_))), Some(Action::StartTransfer(s)) if s.tls),
        "REIN restored the port's PROT P"
    );
}

/// PROT C between a PASV made under PROT P and the transfer: the
/// connection waiting on that listener speaks TLS, so the session answers
/// 425 itself, before any transfer starts, and drops the listener; a PASV
/// made under PROT C may serve PROT P (the driver makes the handshake at
/// the transfer).
#[test]
fn prot_changed_after_pasv_is_425_from_the_session() {
    let mut h = with_tls(false);
    for l in [&b"AUTH TLS"[..], b"PBSZ 0", b"PROT P", b"USER bob", b"PASS secret"] {
        h.codes(l);
    }
    h.codes(b"PASV");
    assert!(h
        .actions
        .iter()
        .any(|a| matches!(a, Action::Op(babelftp_session::Op::BindPassive { tls: true, .. }))));
    assert_eq!(codes(&mut h, b"PROT C"), [200]);
    let before = h.actions.len();
    assert_eq!(codes(&mut h, b"RETR a.txt"), [425]);
    assert_eq!(
        h.actions[before..],
        [Action::ReleasePassive],
        "no transfer, the listener dropped"
    );
    assert_eq!(codes(&mut h, b"RETR a.txt"), [425], "a new PASV is needed");
    h.codes(b"PASV");
    assert_eq!(codes(&mut h, b"PROT P"), [200]);
    assert_eq!(codes(&mut h, b"RETR a.txt"), [150, 226]);
}
