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
//! an entry out again and again, because clients offer the same ticket on
//! every data connection.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
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
    Ok(Arc::new(CertifiedKey::new(certs, signer)))
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
/// re-offer the same ticket on every data connection.
#[derive(Debug, Default)]
struct SessionStore(Mutex<HashMap<Vec<u8>, Vec<u8>>>);

impl StoresServerSessions for SessionStore {
    fn put(&self, key: Vec<u8>, value: Vec<u8>) -> bool {
        let mut m = self.0.lock().unwrap_or_else(|p| p.into_inner());
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
        self.0.lock().unwrap_or_else(|p| p.into_inner()).get(key).cloned()
    }

    fn take(&self, key: &[u8]) -> Option<Vec<u8>> {
        self.get(key)
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
    pub data: Arc<ServerConfig>,
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
        let store: Arc<dyn StoresServerSessions> = Arc::new(SessionStore::default());
        let mut control = (*self.base).clone();
        control.session_storage = store.clone();
        control.send_tls13_tickets = CONTROL_TICKETS;
        let mut data = (*self.base).clone();
        data.session_storage = store;
        // No tickets on data connections: a client that only writes (an
        // upload) closes with a ticket unread, its kernel resets the
        // connection and the tail of the upload is lost (measured on
        // vsftpd and pyftpdlib, shared/research/ftps.md).
        data.send_tls13_tickets = 0;
        SessionTls {
            control: Arc::new(control),
            data: Arc::new(data),
        }
    }
}
