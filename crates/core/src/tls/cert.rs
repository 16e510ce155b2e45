//! The server's certificate and key: PEM files, reloaded when they change.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

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
        return Err(bad(
            &cert.display().to_string(),
            &"the file holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
        ));
    }
    let key_der = PrivateKeyDer::from_pem_file(key).map_err(|e| match e {
        // rustls says "no items found": which file, and what it lacks.
        rustls_pki_types::pem::Error::NoItemsFound => bad(
            &key.display().to_string(),
            &"the file holds no PEM private key (-----BEGIN PRIVATE KEY-----, RSA PRIVATE KEY or EC PRIVATE KEY)",
        ),
        e => bad(&key.display().to_string(), &e),
    })?;
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
    pub fn current(&self) -> Arc<CertifiedKey> {
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
