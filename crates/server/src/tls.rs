//! FTPS (RFC 4217) with rustls: the certificate (reloaded when its files
//! change), and per-session TLS configurations that bind every data
//! connection to its own control connection.
//!
//! Why per session (see shared/research/ftps.md): vsftpd's
//! `require_ssl_reuse` accepts a data connection that resumes *any* FTP
//! session's TLS session, because its ticket keys are shared. Here each FTP
//! session gets its own `ServerConfig` whose session store holds only that
//! session's TLS sessions, and no ticketer is shared: a data handshake can
//! be `Resumed` only with this control connection's session. TLS 1.3
//! tickets are stateful (they name entries of that store); the store hands
//! an entry out again and again, because some clients (lftp, rustls with
//! few tickets) offer the same ticket on every data connection.
//!
//! Others (curl with OpenSSL) use a TLS 1.3 ticket once and then offer the
//! newest one they were given, so a download's data connection gives one
//! new ticket. An upload's never does: a client that only writes closes
//! with the ticket unread, its kernel resets the connection and drops the
//! tail of the upload (measured on vsftpd and pyftpdlib,
//! shared/research/ftps.md). Whether a data connection is a download is
//! known only at the transfer command, after its handshake was answered
//! (see the driver's early data connections), so the ticket is gated by a
//! switch the store reads when rustls issues it, at the client's Finished.

use std::collections::{HashMap, VecDeque};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use rustls::server::{ClientHello, ResolvesServerCert, StoresServerSessions};
use rustls::sign::CertifiedKey;
use rustls::ServerConfig;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

/// TLS tickets a control connection hands out (TLS 1.3): the client
/// spends one per data connection it resumes (rustls clients do).
const CONTROL_TICKETS: usize = 4;
/// TLS sessions one FTP session keeps (its control handshake's, renewed
/// ones): small, it is per session.
const SESSIONS_PER_FTP_SESSION: usize = 16;
/// Tickets of download data connections one FTP session keeps (the
/// newest ones: a client offers the last one it got).
const DATA_SESSIONS: usize = 8;

/// The server's certificate and key, from PEM files.
#[derive(Debug)]
pub struct CertStore {
    cert: PathBuf,
    key: PathBuf,
    current: Mutex<Loaded>,
}

#[derive(Debug)]
struct Loaded {
    stamp: (Option<SystemTime>, Option<SystemTime>),
    key: Arc<CertifiedKey>,
}

fn modified(p: &Path) -> Option<SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

fn load(cert: &Path, key: &Path) -> io::Result<Arc<CertifiedKey>> {
    let bad =
        |what: &str, e: &dyn std::fmt::Display| io::Error::new(io::ErrorKind::InvalidData, format!("{what}: {e}"));
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .map_err(|e| bad(&cert.display().to_string(), &e))?
        .collect::<Result<_, _>>()
        .map_err(|e| bad(&cert.display().to_string(), &e))?;
    if certs.is_empty() {
        return Err(bad(&cert.display().to_string(), &"no certificate in the file"));
    }
    let key_der = PrivateKeyDer::from_pem_file(key).map_err(|e| bad(&key.display().to_string(), &e))?;
    let signer =
        rustls::crypto::ring::sign::any_supported_type(&key_der).map_err(|e| bad(&key.display().to_string(), &e))?;
    let pair = CertifiedKey::new(certs, signer);
    // A key that is not the certificate's own makes every handshake fail
    // (curl: "rsa routines::last octet invalid"): refused here, at start,
    // and on reload, where the pair in use stays.
    match pair.keys_match() {
        Ok(()) | Err(rustls::Error::InconsistentKeys(rustls::InconsistentKeys::Unknown)) => Ok(Arc::new(pair)),
        Err(rustls::Error::InconsistentKeys(rustls::InconsistentKeys::KeyMismatch)) => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "the private key in {} does not belong to the certificate in {} (its public key differs)",
                key.display(),
                cert.display()
            ),
        )),
        Err(e) => Err(bad(&cert.display().to_string(), &e)),
    }
}

impl CertStore {
    /// Loads the certificate chain and the key (errors name the file).
    pub fn open(cert: &Path, key: &Path) -> io::Result<CertStore> {
        let loaded = Loaded {
            stamp: (modified(cert), modified(key)),
            key: load(cert, key)?,
        };
        Ok(CertStore {
            cert: cert.to_path_buf(),
            key: key.to_path_buf(),
            current: Mutex::new(loaded),
        })
    }

    /// The key to present: reloaded first when either file changed (a
    /// renewed certificate is used without a restart; a broken renewal
    /// keeps the old one and says so).
    fn current(&self) -> Arc<CertifiedKey> {
        let mut g = self.current.lock().unwrap_or_else(|p| p.into_inner());
        let stamp = (modified(&self.cert), modified(&self.key));
        if stamp != g.stamp {
            match load(&self.cert, &self.key) {
                Ok(k) => {
                    tracing::info!(cert = %self.cert.display(), "TLS certificate reloaded");
                    g.key = k;
                }
                Err(e) => tracing::error!(error = %e, "TLS certificate not reloaded; keeping the previous one"),
            }
            g.stamp = stamp;
        }
        g.key.clone()
    }
}

impl ResolvesServerCert for CertStore {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.current())
    }
}

/// One FTP session's TLS sessions. `take` does not remove: clients
/// re-offer the same ticket on every data connection. The control
/// connection's sessions are never pushed out by the data connections'.
#[derive(Debug, Default)]
struct SessionStore(Mutex<Sessions>);

#[derive(Debug, Default)]
struct Sessions {
    control: HashMap<Vec<u8>, Vec<u8>>,
    /// Issued on downloads, oldest first.
    data: VecDeque<(Vec<u8>, Vec<u8>)>,
}

impl SessionStore {
    fn lock(&self) -> std::sync::MutexGuard<'_, Sessions> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn put_data(&self, key: Vec<u8>, value: Vec<u8>) {
        let mut m = self.lock();
        if m.data.len() >= DATA_SESSIONS {
            m.data.pop_front();
        }
        m.data.push_back((key, value));
    }
}

impl StoresServerSessions for SessionStore {
    fn put(&self, key: Vec<u8>, value: Vec<u8>) -> bool {
        let m = &mut self.lock().control;
        if m.len() >= SESSIONS_PER_FTP_SESSION && !m.contains_key(&key) {
            // Oldest-first is not tracked; any entry will do for a bound.
            if let Some(k) = m.keys().next().cloned() {
                m.remove(&k);
            }
        }
        m.insert(key, value);
        true
    }

    fn get(&self, key: &[u8]) -> Option<Vec<u8>> {
        let m = self.lock();
        m.control
            .get(key)
            .or_else(|| m.data.iter().find(|(k, _)| k == key).map(|(_, v)| v))
            .cloned()
    }

    fn take(&self, key: &[u8]) -> Option<Vec<u8>> {
        self.get(key)
    }

    fn can_cache(&self) -> bool {
        true
    }
}

/// One data connection's view of its FTP session's store: it resumes
/// every session of it, and stores one (so rustls issues a TLS 1.3
/// ticket) only when `tickets` is on by then: a download.
#[derive(Debug)]
struct DataStore {
    inner: Arc<SessionStore>,
    tickets: Arc<AtomicBool>,
}

impl StoresServerSessions for DataStore {
    fn put(&self, key: Vec<u8>, value: Vec<u8>) -> bool {
        if !self.tickets.load(Ordering::Acquire) {
            return false;
        }
        self.inner.put_data(key, value);
        true
    }

    fn get(&self, key: &[u8]) -> Option<Vec<u8>> {
        self.inner.get(key)
    }

    fn take(&self, key: &[u8]) -> Option<Vec<u8>> {
        self.inner.get(key)
    }

    fn can_cache(&self) -> bool {
        true
    }
}

/// What a server with FTPS shares between its sessions.
#[derive(Debug, Clone)]
pub struct Tls {
    base: Arc<ServerConfig>,
}

/// One FTP session's TLS: the control connection's configuration, and the
/// data connections', which share its session store.
#[derive(Debug, Clone)]
pub struct SessionTls {
    pub control: Arc<ServerConfig>,
    pub data: DataTls,
}

/// The data connections' side of one FTP session's TLS.
#[derive(Debug, Clone)]
pub struct DataTls {
    base: Arc<ServerConfig>,
    store: Arc<SessionStore>,
}

impl DataTls {
    /// The configuration of one data connection, and its ticket switch:
    /// set it (for a download) before the handshake ends, and the client
    /// gets one new TLS 1.3 ticket of this FTP session.
    pub fn connection(&self) -> (Arc<ServerConfig>, Arc<AtomicBool>) {
        let tickets = Arc::new(AtomicBool::new(false));
        let mut cfg = (*self.base).clone();
        cfg.session_storage = Arc::new(DataStore {
            inner: self.store.clone(),
            tickets: tickets.clone(),
        });
        (Arc::new(cfg), tickets)
    }
}

impl Tls {
    /// A TLS setup around a certificate store (TLS 1.2 and 1.3, ring).
    pub fn new(certs: Arc<CertStore>) -> io::Result<Tls> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut cfg = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| io::Error::other(e.to_string()))?
            .with_no_client_auth()
            .with_cert_resolver(certs);
        // No ALPN: FTP has no registered protocol id that clients send.
        cfg.ignore_client_order = false;
        Ok(Tls { base: Arc::new(cfg) })
    }

    /// Fresh configurations for one FTP session (a clone costs well under
    /// a microsecond).
    pub fn session(&self) -> SessionTls {
        let store = Arc::new(SessionStore::default());
        let mut control = (*self.base).clone();
        control.session_storage = store.clone();
        control.send_tls13_tickets = CONTROL_TICKETS;
        let mut data = (*self.base).clone();
        data.session_storage = store.clone();
        // One ticket, issued only where `DataStore` (which `connection`
        // puts in place of the store above) lets it: downloads.
        data.send_tls13_tickets = 1;
        SessionTls {
            control: Arc::new(control),
            data: DataTls {
                base: Arc::new(data),
                store,
            },
        }
    }
}

/// Answers a data connection's TLS handshake up to the client's Finished
/// and stops there when it can: under TLS 1.3 the client is then done and
/// goes on with its FTP commands, and whether this connection issues a
/// ticket (a download) is decided when the handshake is finished later,
/// by [`finish_handshake`]. Under TLS 1.2, or after a HelloRetryRequest,
/// the handshake is answered to its end here (no ticket).
pub async fn answer_handshake(stream: &tokio::net::TcpStream, conn: &mut rustls::ServerConnection) -> io::Result<()> {
    struct Io<'a>(&'a tokio::net::TcpStream);
    impl io::Read for Io<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.0.try_read(buf)
        }
    }
    impl io::Write for Io<'_> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.try_write(buf)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    loop {
        while conn.wants_write() {
            match conn.write_tls(&mut Io(stream)) {
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => stream.writable().await?,
                Err(e) => return Err(e),
            }
        }
        if !conn.is_handshaking() {
            return Ok(());
        }
        // The whole server flight (ServerHello to Finished) is out, and
        // what is left is the client's Finished.
        if conn.protocol_version() == Some(rustls::ProtocolVersion::TLSv1_3)
            && matches!(
                conn.handshake_kind(),
                Some(rustls::HandshakeKind::Full | rustls::HandshakeKind::Resumed)
            )
        {
            return Ok(());
        }
        match conn.read_tls(&mut Io(stream)) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(_) => {
                if let Err(e) = conn.process_new_packets() {
                    // The alert that says why, then the error.
                    let _ = conn.write_tls(&mut Io(stream));
                    return Err(io::Error::new(io::ErrorKind::InvalidData, e));
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => stream.readable().await?,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn data_connections_store_only_when_switched_on_and_never_push_out_the_control_sessions() {
        let inner = Arc::new(SessionStore::default());
        for i in 0..4 {
            let (k, v) = entry(i);
            assert!(inner.put(k, v));
        }
        let tickets = Arc::new(AtomicBool::new(false));
        let data = DataStore {
            inner: inner.clone(),
            tickets: tickets.clone(),
        };
        // An upload: no session stored, so rustls issues no ticket.
        let (k, v) = entry(100);
        assert!(!data.put(k.clone(), v));
        assert_eq!(data.get(&k), None);
        // Downloads: stored, the newest DATA_SESSIONS kept.
        tickets.store(true, Ordering::Release);
        for i in 10..10 + DATA_SESSIONS as u8 + 5 {
            let (k, v) = entry(i);
            assert!(data.put(k, v));
        }
        assert_eq!(data.get(&entry(10).0), None, "the oldest data ticket went first");
        let newest = 10 + DATA_SESSIONS as u8 + 4;
        assert_eq!(data.get(&entry(newest).0), Some(entry(newest).1));
        // Taking does not remove, and the control sessions are all there.
        assert_eq!(data.take(&entry(newest).0), Some(entry(newest).1));
        assert_eq!(data.take(&entry(newest).0), Some(entry(newest).1));
        for i in 0..4 {
            assert_eq!(data.get(&entry(i).0), Some(entry(i).1), "control session {i}");
        }
    }
}
