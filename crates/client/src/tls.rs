//! FTPS for the client (RFC 4217): the TLS settings a person picks, one
//! rustls `ClientConfig` per FTP session, and the stream type that is
//! either plain TCP or TLS over it.
//!
//! Data connections must resume the control connection's TLS session:
//! servers that require it (vsftpd `require_ssl_reuse`, ProFTPD mod_tls,
//! babelftp) refuse a data connection that makes a full handshake. So each
//! FTP session gets its own resumption store, never shared with another
//! session (a shared one would offer one session's tickets on another's
//! data connections), and every data connection is made with the session's
//! config and the control connection's server name.
//!
//! rustls offers each TLS 1.3 ticket once, and servers send a few on the
//! control connection and none (ProFTPD, babelftp) or some (vsftpd) on data
//! connections. A TLS 1.2 session, on the other hand, resumes any number of
//! times. Hence [`TlsVersion::Auto`]: the session is made with TLS 1.2 when
//! the server offers it (so a `mirror` of thousands of files never runs
//! out), with TLS 1.3 when the server speaks nothing older; and a TLS 1.3
//! session that has used up its tickets is renewed by the client before
//! the next data connection (a new control connection, see
//! `Client::renew`).

use std::io;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::{ClientSessionMemoryCache, ClientSessionStore, Resumption};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, NamedGroup, RootCertStore, SignatureScheme};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

use crate::control::Error;

/// How the control connection is protected.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TlsMode {
    /// Plain FTP.
    #[default]
    Off,
    /// Explicit FTPS: `AUTH TLS` on the FTP port, then `PBSZ 0`, `PROT P`.
    /// A server that refuses AUTH TLS ends the connection: nothing is sent
    /// in clear (not even the user name).
    Explicit,
    /// Implicit FTPS (`ftps://`, port 990): TLS from the first octet.
    Implicit,
}

/// Which TLS versions an FTP session may use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TlsVersion {
    /// TLS 1.2 when the server has it (its sessions resume on every data
    /// connection without limit), else TLS 1.3.
    #[default]
    Auto,
    /// TLS 1.2 only.
    Tls12,
    /// TLS 1.3 only.
    Tls13,
}

/// What a person chose about TLS.
#[derive(Debug, Clone, Default)]
pub struct TlsOptions {
    /// Off, explicit or implicit.
    pub mode: TlsMode,
    /// Trust these certificates (PEM) instead of the system's roots.
    pub cacert: Option<PathBuf>,
    /// Do not verify the server's certificate at all (anyone on the path
    /// can then read and change the session). Signatures of the handshake
    /// are still checked.
    pub insecure: bool,
    /// Versions.
    pub version: TlsVersion,
}

/// The TLS of one FTP session: its config (with its own resumption store)
/// and the name its certificate is checked against.
#[derive(Clone)]
pub struct SessionTls {
    config: Arc<ClientConfig>,
    name: ServerName<'static>,
    store: Arc<CountingStore>,
}

impl std::fmt::Debug for SessionTls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionTls")
            .field("name", &self.name)
            .field("tls13_tickets", &self.tls13_tickets())
            .finish()
    }
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The roots: `--cacert` alone when given (as curl does), else the
/// system's.
fn roots(opts: &TlsOptions) -> Result<(RootCertStore, Vec<CertificateDer<'static>>), Error> {
    let mut roots = RootCertStore::empty();
    let mut pinned = Vec::new();
    match &opts.cacert {
        Some(file) => {
            let certs =
                CertificateDer::pem_file_iter(file).map_err(|e| Error::TlsSetup(format!("{}: {e}", file.display())))?;
            for cert in certs {
                let cert = cert.map_err(|e| Error::TlsSetup(format!("{}: {e}", file.display())))?;
                pinned.push(cert.clone());
                roots
                    .add(cert)
                    .map_err(|e| Error::TlsSetup(format!("{}: {e}", file.display())))?;
            }
            if roots.is_empty() {
                return Err(Error::TlsSetup(format!("{}: no certificate in it", file.display())));
            }
        }
        None => {
            let found = rustls_native_certs::load_native_certs();
            roots.add_parsable_certificates(found.certs);
            if roots.is_empty() {
                let why = found
                    .errors
                    .first()
                    .map(ToString::to_string)
                    .unwrap_or_else(|| "none found".into());
                return Err(Error::TlsSetup(format!(
                    "no trusted root certificates on this system ({why}); name some with --cacert FILE"
                )));
            }
        }
    }
    Ok((roots, pinned))
}

impl SessionTls {
    /// A new FTP session's TLS for `host` (a name or an IP address), with
    /// `version` (never `Auto` here: the caller decides).
    pub fn new(opts: &TlsOptions, host: &str, version: TlsVersion) -> Result<SessionTls, Error> {
        let versions: &[&rustls::SupportedProtocolVersion] = match version {
            TlsVersion::Tls12 => &[&rustls::version::TLS12],
            TlsVersion::Tls13 => &[&rustls::version::TLS13],
            TlsVersion::Auto => &[&rustls::version::TLS13, &rustls::version::TLS12],
        };
        let provider = provider();
        let builder = ClientConfig::builder_with_provider(provider.clone())
            .with_protocol_versions(versions)
            .map_err(|e| Error::TlsSetup(e.to_string()))?;
        let mut config = if opts.insecure {
            builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(NoVerifier(provider)))
                .with_no_client_auth()
        } else {
            let (roots, pinned) = roots(opts)?;
            let webpki = rustls::client::WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
                .build()
                .map_err(|e| Error::TlsSetup(e.to_string()))?;
            builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(Pinned { webpki, pinned }))
                .with_no_client_auth()
        };
        let store = Arc::new(CountingStore::default());
        config.resumption = Resumption::store(store.clone());
        let name = ServerName::try_from(host.to_owned()).map_err(|e| Error::TlsSetup(format!("{host}: {e}")))?;
        Ok(SessionTls {
            config: Arc::new(config),
            name,
            store,
        })
    }

    /// Makes the TLS handshake on `tcp` (control or data connection).
    pub async fn handshake(&self, tcp: TcpStream) -> Result<TlsStream<TcpStream>, Error> {
        TlsConnector::from(self.config.clone())
            .connect(self.name.clone(), tcp)
            .await
            .map_err(Error::Handshake)
    }

    /// TLS 1.3 tickets this session still holds.
    pub fn tls13_tickets(&self) -> usize {
        self.store.tls13.load(Ordering::Relaxed)
    }
}

/// A data or control connection: TCP, or TLS over it.
pub enum Stream {
    /// Plain TCP.
    Plain(TcpStream),
    /// TLS over TCP.
    Tls(Box<TlsStream<TcpStream>>),
}

impl Stream {
    /// The TCP connection under it.
    pub fn tcp(&self) -> &TcpStream {
        match self {
            Stream::Plain(s) => s,
            Stream::Tls(s) => s.get_ref().0,
        }
    }

    /// The TLS connection, when there is one.
    pub fn tls(&self) -> Option<&rustls::ClientConnection> {
        match self {
            Stream::Plain(_) => None,
            Stream::Tls(s) => Some(s.get_ref().1),
        }
    }

    /// "TLS 1.3", "TLS 1.2", or `None` for plain TCP.
    pub fn version(&self) -> Option<&'static str> {
        match self.tls()?.protocol_version()? {
            rustls::ProtocolVersion::TLSv1_3 => Some("TLS 1.3"),
            rustls::ProtocolVersion::TLSv1_2 => Some("TLS 1.2"),
            _ => Some("TLS"),
        }
    }
}

impl AsyncRead for Stream {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_flush(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    /// On TLS: close_notify, then FIN (what tells the server an upload is
    /// whole).
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// rustls's memory cache, counting the TLS 1.3 tickets it holds (the cache
/// keeps at most 8 per server, dropping the oldest).
#[derive(Debug)]
struct CountingStore {
    inner: ClientSessionMemoryCache,
    tls13: AtomicUsize,
}

const TICKETS_KEPT: usize = 8;

impl Default for CountingStore {
    fn default() -> Self {
        CountingStore {
            inner: ClientSessionMemoryCache::new(4),
            tls13: AtomicUsize::new(0),
        }
    }
}

impl ClientSessionStore for CountingStore {
    fn set_kx_hint(&self, server_name: ServerName<'static>, group: NamedGroup) {
        self.inner.set_kx_hint(server_name, group);
    }

    fn kx_hint(&self, server_name: &ServerName<'_>) -> Option<NamedGroup> {
        self.inner.kx_hint(server_name)
    }

    fn set_tls12_session(&self, server_name: ServerName<'static>, value: rustls::client::Tls12ClientSessionValue) {
        self.inner.set_tls12_session(server_name, value);
    }

    fn tls12_session(&self, server_name: &ServerName<'_>) -> Option<rustls::client::Tls12ClientSessionValue> {
        self.inner.tls12_session(server_name)
    }

    fn remove_tls12_session(&self, server_name: &ServerName<'static>) {
        self.inner.remove_tls12_session(server_name);
    }

    fn insert_tls13_ticket(&self, server_name: ServerName<'static>, value: rustls::client::Tls13ClientSessionValue) {
        self.inner.insert_tls13_ticket(server_name, value);
        let _ = self.tls13.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
            Some((n + 1).min(TICKETS_KEPT))
        });
    }

    fn take_tls13_ticket(&self, server_name: &ServerName<'static>) -> Option<rustls::client::Tls13ClientSessionValue> {
        let t = self.inner.take_tls13_ticket(server_name);
        if t.is_some() {
            let _ = self
                .tls13
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| Some(n.saturating_sub(1)));
        }
        t
    }
}

/// The usual chain check against the roots, and one more rule, as curl
/// and OpenSSL have it: a server certificate that is itself in the
/// `--cacert` file is trusted as it is (pinned). The usual self-signed
/// certificate of `openssl req -x509` says `CA:TRUE`, which webpki refuses
/// as a server's own (`CaUsedAsEndEntity`). The handshake's signatures are
/// checked either way, so only the holder of its key can present it.
#[derive(Debug)]
struct Pinned {
    webpki: Arc<rustls::client::WebPkiServerVerifier>,
    pinned: Vec<CertificateDer<'static>>,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if self.pinned.iter().any(|p| p.as_ref() == end_entity.as_ref()) {
            return Ok(ServerCertVerified::assertion());
        }
        self.webpki
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.webpki.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.webpki.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.webpki.supported_verify_schemes()
    }
}

/// `--insecure`: any certificate is taken, for any name. The handshake's
/// signatures are still verified (so the peer holds the key of the
/// certificate it shows, whoever it is).
#[derive(Debug)]
struct NoVerifier(Arc<CryptoProvider>);

impl ServerCertVerifier for NoVerifier {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}
