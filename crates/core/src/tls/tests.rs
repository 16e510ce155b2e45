use super::*;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::CertificateDer;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A certificate and key of its own, written as PEM under `dir`.
fn pair(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let ck = rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
    let (c, k) = (dir.join(format!("{name}.crt")), dir.join(format!("{name}.key")));
    std::fs::write(&c, ck.cert.pem()).unwrap();
    std::fs::write(&k, ck.signing_key.serialize_pem()).unwrap();
    (c, k)
}

#[test]
fn a_key_of_another_certificate_is_refused_at_start_and_on_reload() {
    let dir = tempfile::tempdir().unwrap();
    let (a_cert, a_key) = pair(dir.path(), "a");
    let (_, b_key) = pair(dir.path(), "b");
    let e = CertStore::open(&a_cert, &b_key).unwrap_err().to_string();
    assert!(e.contains("does not belong to the certificate"), "{e}");
    assert!(e.contains("b.key") && e.contains("a.crt"), "{e}");
    // Reload: a renewal that writes the wrong key keeps the pair in use.
    let store = CertStore::open(&a_cert, &a_key).unwrap();
    let before = store.current();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::copy(&b_key, &a_key).unwrap();
    let after = store.current();
    assert!(Arc::ptr_eq(&before, &after));
    assert!(after.keys_match().is_ok());
}

fn entry(i: u8) -> (Vec<u8>, Vec<u8>) {
    (vec![i; 32], vec![i; 8])
}

#[test]
fn data_tickets_are_kept_newest_first_and_never_push_out_the_control_sessions() {
    let store = SessionStore::new(Arc::default(), HOME);
    for i in 0..4 {
        let (k, v) = entry(i);
        store.put_control(k, v);
    }
    for i in 10..10 + DATA_SESSIONS as u8 + 5 {
        let (k, v) = entry(i);
        store.put_data(k, v);
    }
    assert_eq!(store.own(&entry(10).0), None, "the oldest data ticket went first");
    let newest = 10 + DATA_SESSIONS as u8 + 4;
    // Looking up does not remove, and the control sessions are all there.
    assert_eq!(store.own(&entry(newest).0), Some(entry(newest).1));
    assert_eq!(store.own(&entry(newest).0), Some(entry(newest).1));
    for i in 0..4 {
        assert_eq!(store.own(&entry(i).0), Some(entry(i).1), "control session {i}");
    }
}

/// A whole handshake in memory (and the tickets that follow it), the
/// switch set as the driver and [`answer_handshake`] set it.
fn handshake(
    client: &Arc<rustls::ClientConfig>,
    server: Arc<ServerConfig>,
    switch: Option<&DataSwitch>,
) -> rustls::HandshakeKind {
    let mut c = rustls::ClientConnection::new(client.clone(), "localhost".try_into().unwrap()).unwrap();
    let mut s = rustls::ServerConnection::new(server).unwrap();
    for _ in 0..20 {
        let mut buf = Vec::new();
        while c.wants_write() {
            c.write_tls(&mut buf).unwrap();
        }
        let mut rd = &buf[..];
        while !rd.is_empty() {
            s.read_tls(&mut rd).unwrap();
            s.process_new_packets().unwrap();
            if let Some(sw) = switch {
                if s.handshake_kind().is_some_and(|k| k != rustls::HandshakeKind::Resumed) {
                    sw.full.store(true, Ordering::Release);
                }
            }
        }
        let mut buf = Vec::new();
        while s.wants_write() {
            s.write_tls(&mut buf).unwrap();
        }
        let mut rd = &buf[..];
        while !rd.is_empty() {
            c.read_tls(&mut rd).unwrap();
            c.process_new_packets().unwrap();
        }
        if !c.is_handshaking() && !s.is_handshaking() && !c.wants_write() && !s.wants_write() {
            return s.handshake_kind().unwrap();
        }
    }
    panic!("the handshake did not end");
}

/// A data connection of `session` (a download or not): its handshake
/// and its switch.
fn data(
    client: &Arc<rustls::ClientConfig>,
    session: &SessionTls,
    download: bool,
) -> (rustls::HandshakeKind, Arc<DataSwitch>) {
    let (cfg, switch) = session.data.connection();
    if download {
        switch.download();
    }
    (handshake(client, cfg, Some(&switch)), switch)
}

/// Whether the driver takes a data connection of `session` as its
/// client's (a pending origin gets `wait` to log in).
fn taken(session: &SessionTls, kind: rustls::HandshakeKind, switch: &DataSwitch, wait: Duration) -> bool {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    kind == rustls::HandshakeKind::Resumed && rt.block_on(session.data.confirm(switch, wait))
}

/// A client that holds `from`'s control connection's TLS session
/// offers it on a data connection of `to`: taken or not.
fn offer(version: &'static rustls::SupportedProtocolVersion, dir: &Path, from: &SessionTls, to: &SessionTls) -> bool {
    let client = setup(dir, version);
    assert_eq!(
        handshake(&client, from.control.clone(), None),
        rustls::HandshakeKind::Full
    );
    let (kind, switch) = data(&client, to, false);
    taken(to, kind, &switch, Duration::from_millis(50))
}

/// A server TLS setup over a fresh certificate in `dir`.
fn server(dir: &Path) -> Tls {
    let (c, k) = pair(dir, "s");
    Tls::new(Arc::new(CertStore::open(&c, &k).unwrap())).unwrap()
}

/// A client for `version` that trusts the server's certificate, with
/// its own session cache (one for all its connections, as rclone's
/// and Go's).
fn setup(dir: &Path, version: &'static rustls::SupportedProtocolVersion) -> Arc<rustls::ClientConfig> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(dir.join("s.crt")).unwrap() {
        roots.add(cert.unwrap()).unwrap();
    }
    let client = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_protocol_versions(&[version])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    Arc::new(client)
}

const HOME: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);
const AWAY: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, 2));

/// A data connection is taken when it resumes a TLS session of its own
/// FTP session, or of another live one of the same user from the same
/// address (one not logged in yet must log in as that user), and
/// nothing else; under TLS 1.2 and 1.3 alike.
#[test]
fn data_connections_resume_only_tls_sessions_of_their_client() {
    for version in [&rustls::version::TLS12, &rustls::version::TLS13] {
        let dir = tempfile::tempdir().unwrap();
        let tls = server(dir.path());
        let d = dir.path();
        let (a, b, far) = (tls.session(HOME), tls.session(HOME), tls.session(AWAY));
        assert!(offer(version, d, &a, &a), "{version:?} own, before login");
        assert!(!offer(version, d, &a, &b), "{version:?} another's, before login");
        a.bind(Some(b"bob"));
        b.bind(Some(b"alice"));
        far.bind(Some(b"bob"));
        assert!(!offer(version, d, &a, &b), "{version:?} another user");
        assert!(!offer(version, d, &b, &a), "{version:?} another user");
        assert!(!offer(version, d, &a, &far), "{version:?} another address");
        assert!(!offer(version, d, &far, &a), "{version:?} another address");
        b.bind(Some(b"bob"));
        assert!(offer(version, d, &a, &b), "{version:?} the same client");
        assert!(offer(version, d, &b, &a), "{version:?} the same client");
        // REIN: no longer logged in; and a session not logged in that
        // never does within the wait.
        a.bind(None);
        assert!(!offer(version, d, &a, &b), "{version:?} after logout");
        assert!(!offer(version, d, &b, &a), "{version:?} after logout");
        // A session that is not logged in yet when its TLS session is
        // offered: it counts once it logs in as the same user, and not
        // as another, nor once it has ended.
        for (user, ends, expected) in [
            (Some(&b"bob"[..]), false, true),
            (Some(b"alice"), false, false),
            (None, true, false),
        ] {
            let c = tls.session(HOME);
            let client = setup(d, version);
            assert_eq!(handshake(&client, c.control.clone(), None), rustls::HandshakeKind::Full);
            let (kind, switch) = data(&client, &b, true);
            assert_eq!(kind, rustls::HandshakeKind::Resumed);
            c.bind(user);
            if ends {
                drop(c);
            }
            assert_eq!(
                taken(&b, kind, &switch, Duration::from_secs(5)),
                expected,
                "{version:?} {user:?}"
            );
        }
        // An FTP session that has ended.
        a.bind(Some(b"bob"));
        let client = setup(d, version);
        assert_eq!(handshake(&client, b.control.clone(), None), rustls::HandshakeKind::Full);
        drop(b);
        let (kind, switch) = data(&client, &a, false);
        assert!(
            !taken(&a, kind, &switch, Duration::from_millis(50)),
            "{version:?} an ended session's"
        );
    }
}

/// On a data connection that resumed, a TLS 1.3 ticket is issued only
/// for a download (the upload truncation trap), a TLS 1.2 one always
/// (it is part of the handshake); one that did not resume gets none.
#[test]
fn data_connections_issue_tickets_only_when_resumed_and_tls13_ones_on_downloads_only() {
    use rustls::HandshakeKind::{Full, Resumed};
    for (version, upload_tickets) in [(&rustls::version::TLS13, 0), (&rustls::version::TLS12, 1)] {
        let dir = tempfile::tempdir().unwrap();
        let tls = server(dir.path());
        let s = tls.session(HOME);
        let client = setup(dir.path(), version);
        assert_eq!(handshake(&client, s.control.clone(), None), Full);
        let count = || s.data.store.lock().data.len();
        assert_eq!(data(&client, &s, false).0, Resumed);
        assert_eq!(count(), upload_tickets, "{version:?}: an upload's tickets");
        assert_eq!(data(&client, &s, true).0, Resumed);
        assert_eq!(count(), upload_tickets + 1, "{version:?}: a download's ticket");
        let stranger = setup(dir.path(), version);
        assert_eq!(data(&stranger, &s, true).0, Full);
        assert_eq!(
            count(),
            upload_tickets + 1,
            "{version:?}: no ticket for a full handshake"
        );
        // What the client got on its data connections resumes too.
        for _ in 0..3 {
            assert_eq!(data(&client, &s, true).0, Resumed, "{version:?}: again");
        }
        // A resumption of a session not logged in yet issues nothing
        // until it is confirmed.
        s.bind(Some(b"bob"));
        let other = tls.session(HOME);
        let fresh = setup(dir.path(), version);
        assert_eq!(handshake(&fresh, other.control.clone(), None), Full);
        let before = count();
        assert_eq!(data(&fresh, &s, true).0, Resumed);
        assert_eq!(count(), before, "{version:?}: nothing on a pending resumption");
    }
}
