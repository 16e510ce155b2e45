//! FTPS (RFC 4217) with rustls: the certificate (reloaded when its files
//! change), and per-session TLS configurations that bind every data
//! connection to its own client.
//!
//! Why per session: vsftpd's
//! `require_ssl_reuse` accepts a data connection that resumes *any* FTP
//! session's TLS session, because its ticket keys are shared. Here each FTP
//! session gets its own `ServerConfig` whose session store holds only that
//! session's TLS sessions, and no ticket key exists: tickets (TLS 1.3, and
//! TLS 1.2 for Go, which resumes TLS 1.2 only with tickets) are random
//! handles naming entries of that store, and a data handshake can be
//! `Resumed` only with a session its store's lookup finds. The store hands
//! an entry out again and again, because some clients (lftp, rustls with
//! few tickets) offer the same ticket on every data connection.
//!
//! The lookup finds this FTP session's own TLS sessions and, once it is
//! logged in, those of the live FTP sessions of the same client: the same
//! user from the same address ([`Clients`] lists the live sessions by
//! address; the driver tells each of its login through
//! [`SessionTls::bind`]). rclone and Go clients keep one session cache for
//! their parallel control connections, so a data connection offers
//! another of their FTP sessions' tickets; only that client holds them.
//! rclone also opens control connections while others transfer, so the
//! ticket offered may be one a new control connection got before its
//! login: such a resumption is taken only once that session has logged in
//! as the same user ([`DataTls::confirm`], within `data_timeout`), and
//! issues no ticket. Another user's, another address's, an ended
//! session's are not found, and the driver refuses such a data
//! connection, as one that does not resume at all (522).
//!
//! Others (curl with OpenSSL) use a TLS 1.3 ticket once and then offer the
//! newest one they were given, so a download's data connection gives one
//! new ticket. An upload's gives one only to an OpenSSL client that
//! resumed a ticket for the first time, its handshake finished before the
//! 150 reply ([`DataSwitch::upload`]): a client that only writes and
//! closes with the ticket unread (Go) has its kernel reset the connection
//! and drop the tail of the upload (measured on vsftpd and pyftpdlib).
//! Whether a data connection is a download is
//! known only at the transfer command, after its handshake was answered
//! (see the driver's early data connections), so the ticket is gated by a
//! switch ([`DataSwitch`]) the store reads when rustls issues it, at the
//! client's Finished. A data connection that did not resume gets no
//! ticket at all (it is refused, and must not come back resumed).

use std::collections::{HashMap, VecDeque};
use std::io;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rustls::server::StoresServerSessions;
use rustls::ServerConfig;

/// TLS tickets a control connection hands out (TLS 1.3): the client
/// spends one per data connection it resumes (rustls clients do).
const CONTROL_TICKETS: usize = 4;
/// TLS sessions one FTP session keeps (its control handshake's, renewed
/// ones): small, it is per session.
const SESSIONS_PER_FTP_SESSION: usize = 16;
/// Tickets of download data connections one FTP session keeps (the
/// newest ones: a client offers the last one it got).
const DATA_SESSIONS: usize = 8;

/// A client: the user an FTP session logged in as, and its address.
type ClientKey = (Vec<u8>, IpAddr);

/// Where an FTP session stands, as the other sessions from its address
/// see it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Login {
    /// Not logged in (yet, or again after REIN).
    Pending,
    As(ClientKey),
    Ended,
}

/// The session stores of the live FTP sessions with TLS, by client
/// address: registered when the connection is accepted, removed when it
/// ends.
#[derive(Debug, Default)]
pub struct Clients(Mutex<HashMap<IpAddr, Vec<Arc<SessionStore>>>>);

impl Clients {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, Vec<Arc<SessionStore>>>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn add(&self, store: &Arc<SessionStore>) {
        self.lock().entry(store.ip).or_default().push(store.clone());
    }

    fn remove(&self, store: &Arc<SessionStore>) {
        let mut m = self.lock();
        if let Some(v) = m.get_mut(&store.ip) {
            v.retain(|s| !Arc::ptr_eq(s, store));
            if v.is_empty() {
                m.remove(&store.ip);
            }
        }
    }

    /// The other live FTP sessions from `me`'s address.
    fn neighbours(&self, me: &SessionStore) -> Vec<Arc<SessionStore>> {
        match self.lock().get(&me.ip) {
            Some(v) => v.iter().filter(|s| !std::ptr::eq(&***s, me)).cloned().collect(),
            None => Vec::new(),
        }
    }
}

/// Where a TLS session that a lookup found comes from.
#[derive(Debug)]
enum Origin {
    /// This FTP session, or another of its client's (logged in as the
    /// same user from the same address).
    Client,
    /// Another FTP session from the same address that has not logged in
    /// yet: rclone's pool opens control connections in parallel, and a
    /// data connection may offer the ticket a new one just got. Only
    /// that session's login, as the same user, makes it the client's
    /// ([`DataTls::confirm`]).
    Pending(Arc<SessionStore>),
}

/// One FTP session's TLS sessions. Lookups do not remove: clients
/// re-offer the same ticket on every data connection. The control
/// connection's sessions are never pushed out by the data connections'.
/// Once the session is logged in, lookups also see the sessions of the
/// same client's other live FTP sessions (see [`Clients`]).
#[derive(Debug)]
pub struct SessionStore {
    sessions: Mutex<Sessions>,
    /// The client's address (IPv4-mapped IPv6 as IPv4).
    ip: IpAddr,
    login: tokio::sync::watch::Sender<Login>,
    clients: Arc<Clients>,
}

#[derive(Debug, Default)]
struct Sessions {
    control: HashMap<Vec<u8>, Vec<u8>>,
    /// Issued on data connections (TLS 1.3: downloads, and the uploads
    /// of [`DataSwitch::upload`]), oldest first.
    data: VecDeque<(Vec<u8>, Vec<u8>)>,
    /// The TLS sessions data connections have resumed (issue 48): a
    /// client that resumes one for the first time may be one that uses
    /// each TLS 1.3 ticket once (OpenSSL: curl), which needs a new one.
    resumed: std::collections::HashSet<Vec<u8>>,
}

/// The resumed sessions remembered per FTP session: past it the set
/// starts again (a forgotten one counts as new once more).
const RESUMED_KEPT: usize = 64;

impl SessionStore {
    fn new(clients: Arc<Clients>, ip: IpAddr) -> SessionStore {
        SessionStore {
            sessions: Mutex::default(),
            ip: ip.to_canonical(),
            login: tokio::sync::watch::Sender::new(Login::Pending),
            clients,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Sessions> {
        self.sessions.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn put_control(&self, key: Vec<u8>, value: Vec<u8>) {
        let m = &mut self.lock().control;
        if m.len() >= SESSIONS_PER_FTP_SESSION && !m.contains_key(&key) {
            // Oldest-first is not tracked; any entry will do for a bound.
            if let Some(k) = m.keys().next().cloned() {
                m.remove(&k);
            }
        }
        m.insert(key, value);
    }

    fn put_data(&self, key: Vec<u8>, value: Vec<u8>) {
        let mut m = self.lock();
        if m.data.len() >= DATA_SESSIONS {
            m.data.pop_front();
        }
        m.data.push_back((key, value));
    }

    /// Notes that a data connection resumed `key`: whether it is the
    /// first time.
    fn first_resumption(&self, key: &[u8]) -> bool {
        let r = &mut self.lock().resumed;
        if r.contains(key) {
            return false;
        }
        if r.len() >= RESUMED_KEPT {
            r.clear();
        }
        r.insert(key.to_vec());
        true
    }

    /// A TLS session of this FTP session.
    fn own(&self, key: &[u8]) -> Option<Vec<u8>> {
        let m = self.lock();
        m.control
            .get(key)
            .or_else(|| m.data.iter().find(|(k, _)| k == key).map(|(_, v)| v))
            .cloned()
    }

    /// A TLS session this FTP session's connections may resume: its own;
    /// once logged in, one of its client's other live FTP sessions'; or
    /// one of a session from the same address that has not logged in yet,
    /// to be confirmed.
    fn find(&self, key: &[u8]) -> Option<(Vec<u8>, Origin)> {
        if let Some(v) = self.own(key) {
            return Some((v, Origin::Client));
        }
        let me = match &*self.login.borrow() {
            Login::As(k) => k.clone(),
            Login::Pending | Login::Ended => return None,
        };
        for s in self.clients.neighbours(self) {
            let origin = match &*s.login.borrow() {
                Login::As(k) if *k == me => Origin::Client,
                Login::Pending => Origin::Pending(s.clone()),
                Login::As(_) | Login::Ended => continue,
            };
            if let Some(v) = s.own(key) {
                return Some((v, origin));
            }
        }
        None
    }
}

/// The control connection's store: TLS 1.2 session IDs are kept.
#[derive(Debug)]
struct ControlStore(Arc<SessionStore>);

impl StoresServerSessions for ControlStore {
    fn put(&self, key: Vec<u8>, value: Vec<u8>) -> bool {
        self.0.put_control(key, value);
        true
    }

    fn get(&self, key: &[u8]) -> Option<Vec<u8>> {
        self.0.own(key)
    }

    fn take(&self, key: &[u8]) -> Option<Vec<u8>> {
        self.0.own(key)
    }

    fn can_cache(&self) -> bool {
        true
    }
}

/// What one data connection's handshake may leave the client: set by
/// the driver (a download) and by [`answer_handshake`] (a full
/// handshake), read when rustls would issue a ticket.
#[derive(Debug, Default)]
pub struct DataSwitch {
    download: AtomicBool,
    /// An upload whose handshake ends before its 150 reply (issue 48):
    /// it may issue a ticket if it resumed a TLS session for the first
    /// time (`first`).
    upload: AtomicBool,
    first: AtomicBool,
    /// The ClientHello was OpenSSL's (see [`SeesHello`]).
    openssl: AtomicBool,
    /// The handshake did not resume: it is refused, and gets nothing to
    /// come back with.
    full: AtomicBool,
    /// It resumed a TLS session of a session not logged in yet: nothing
    /// is issued before [`DataTls::confirm`] says whose it is.
    pending: Mutex<Option<Arc<SessionStore>>>,
}

impl DataSwitch {
    /// The connection is a download's: it may issue a TLS 1.3 ticket.
    pub fn download(&self) {
        self.download.store(true, Ordering::Release);
    }

    /// The connection is an upload's whose handshake is finished before
    /// the client is told to send (the driver's 150 waits for it), so the
    /// ticket is at the client before its first byte: a client that
    /// spends each TLS 1.3 ticket once (curl with OpenSSL) resumes its
    /// next data connection with it, and reads it before it closes
    /// (curl reads once before its close_notify), so no reset cuts the
    /// upload. Only a first resumption of a TLS session gives one: a
    /// client that offers the same ticket again needs none. And only an
    /// OpenSSL client's: Go's crypto/tls (jlaffaye/ftp, rclone) offers its
    /// ticket again, and closes an upload without reading, so a ticket it
    /// never reads makes its kernel reset the connection and cut the
    /// upload (426); rustls clients renew their session themselves.
    pub fn upload(&self) {
        self.upload.store(true, Ordering::Release);
    }

    /// Whether this connection may leave the client a new TLS 1.3 ticket.
    fn may_issue(&self) -> bool {
        let asked = self.download.load(Ordering::Acquire)
            || (self.upload.load(Ordering::Acquire)
                && self.first.load(Ordering::Acquire)
                && self.openssl.load(Ordering::Acquire));
        asked && !self.full() && self.pending().is_none()
    }

    fn full(&self) -> bool {
        self.full.load(Ordering::Acquire)
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, Option<Arc<SessionStore>>> {
        self.pending.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Looks `key` up for this connection, noting where it came from.
    fn find(&self, store: &SessionStore, key: &[u8]) -> Option<Vec<u8>> {
        let (v, origin) = store.find(key)?;
        let first = matches!(origin, Origin::Client) && store.first_resumption(key);
        self.first.store(first, Ordering::Release);
        *self.pending() = match origin {
            Origin::Client => None,
            Origin::Pending(s) => Some(s),
        };
        Some(v)
    }
}

/// A data connection's certificate resolver: the server's, after noting
/// in the connection's switch whether the ClientHello is OpenSSL's, which
/// lists TLS_EMPTY_RENEGOTIATION_INFO_SCSV among its cipher suites (RFC
/// 5746; Go, GnuTLS and rustls send the extension instead, or nothing).
/// OpenSSL uses each TLS 1.3 ticket once, and its FTP clients (curl,
/// Python) read what is left before they close a data connection.
#[derive(Debug)]
struct SeesHello {
    inner: Arc<dyn rustls::server::ResolvesServerCert>,
    switch: Arc<DataSwitch>,
}

impl rustls::server::ResolvesServerCert for SeesHello {
    fn resolve(&self, hello: rustls::server::ClientHello<'_>) -> Option<Arc<rustls::sign::CertifiedKey>> {
        let openssl = hello
            .cipher_suites()
            .contains(&rustls::CipherSuite::TLS_EMPTY_RENEGOTIATION_INFO_SCSV);
        self.switch.openssl.store(openssl, Ordering::Release);
        self.inner.resolve(hello)
    }
}

/// A data connection's view of its FTP session's store: it resumes what
/// the session may resume, and stores a session (so rustls issues a TLS
/// 1.3 ticket) only for a download whose handshake resumed.
#[derive(Debug)]
struct DataStore {
    store: Arc<SessionStore>,
    switch: Arc<DataSwitch>,
}

impl StoresServerSessions for DataStore {
    fn put(&self, key: Vec<u8>, value: Vec<u8>) -> bool {
        if !self.switch.may_issue() {
            return false;
        }
        self.store.put_data(key, value);
        true
    }

    fn get(&self, key: &[u8]) -> Option<Vec<u8>> {
        self.switch.find(&self.store, key)
    }

    fn take(&self, key: &[u8]) -> Option<Vec<u8>> {
        self.switch.find(&self.store, key)
    }

    fn can_cache(&self) -> bool {
        true
    }
}

/// The control connection's tickets (TLS 1.2 and 1.3): not encrypted
/// state but handles, random ids naming entries of the FTP session's
/// store, so a ticket resumes only where the store's lookup allows, and
/// only while its session lives. A ticketer that rustls sees `enabled`
/// issues TLS 1.2 tickets at all (Go resumes TLS 1.2 only with tickets),
/// and takes the TLS 1.3 ones over from the store.
#[derive(Debug)]
struct Tickets {
    store: Arc<SessionStore>,
    random: &'static dyn rustls::crypto::SecureRandom,
}

/// The lifetime hint sent with tickets; they are valid only while their
/// FTP session lives anyway.
const TICKET_LIFETIME: u32 = 6 * 60 * 60;

impl rustls::server::ProducesTickets for Tickets {
    fn enabled(&self) -> bool {
        true
    }

    fn lifetime(&self) -> u32 {
        TICKET_LIFETIME
    }

    fn encrypt(&self, plain: &[u8]) -> Option<Vec<u8>> {
        let mut id = vec![0u8; 32];
        self.random.fill(&mut id).ok()?;
        self.store.put_control(id.clone(), plain.to_vec());
        Some(id)
    }

    fn decrypt(&self, ticket: &[u8]) -> Option<Vec<u8>> {
        // A control connection resumes only its own (before login, a
        // second control connection is nobody's yet).
        self.store.own(ticket)
    }
}

/// A data connection's tickets. rustls asks a ticketer for a TLS 1.2
/// ticket whether or not it is `enabled`, and asks `enabled` only after
/// that (to answer the client's ticket extension, at the ServerHello),
/// and for TLS 1.3 before anything else. So this one is enabled only once
/// a TLS 1.2 ticket resumed here: that handshake gives the client a new
/// ticket, part of the handshake and read before any data, so it stays
/// fresh (held by a session that transfers). A full handshake gets none,
/// not even an empty one that would take the place of the client's good
/// ticket; and when a ticket was found but the handshake did not resume
/// after all (its cipher suite, say), the ticket sent is empty. TLS 1.3
/// sees it disabled and goes through [`DataStore`].
#[derive(Debug)]
struct DataTickets {
    store: Arc<SessionStore>,
    resumed: AtomicBool,
    switch: Arc<DataSwitch>,
    random: &'static dyn rustls::crypto::SecureRandom,
}

impl rustls::server::ProducesTickets for DataTickets {
    fn enabled(&self) -> bool {
        self.resumed.load(Ordering::Acquire)
    }

    fn lifetime(&self) -> u32 {
        TICKET_LIFETIME
    }

    fn encrypt(&self, plain: &[u8]) -> Option<Vec<u8>> {
        if self.switch.full() {
            return None;
        }
        let mut id = vec![0u8; 32];
        self.random.fill(&mut id).ok()?;
        self.store.put_data(id.clone(), plain.to_vec());
        Some(id)
    }

    fn decrypt(&self, ticket: &[u8]) -> Option<Vec<u8>> {
        let found = self.switch.find(&self.store, ticket);
        // A new ticket only where the resumption is the client's already.
        let ours = found.is_some() && self.switch.pending().is_none();
        self.resumed.store(ours, Ordering::Release);
        found
    }
}

/// What a server with FTPS shares between its sessions.
#[derive(Debug, Clone)]
pub struct Tls {
    base: Arc<ServerConfig>,
    clients: Arc<Clients>,
}

/// One FTP session's TLS: the control connection's configuration, and the
/// data connections', which share its session store. Dropping it ends the
/// session's registration under its client.
#[derive(Debug)]
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
    /// The configuration of one data connection, and its switch: a
    /// download (switched on before the handshake ends) that resumed
    /// gives the client one new TLS 1.3 ticket of this FTP session.
    pub fn connection(&self) -> (Arc<ServerConfig>, Arc<DataSwitch>) {
        let switch = Arc::new(DataSwitch::default());
        let random = self.base.crypto_provider().secure_random;
        let mut cfg = (*self.base).clone();
        cfg.cert_resolver = Arc::new(SeesHello {
            inner: self.base.cert_resolver.clone(),
            switch: switch.clone(),
        });
        cfg.session_storage = Arc::new(DataStore {
            store: self.store.clone(),
            switch: switch.clone(),
        });
        cfg.ticketer = Arc::new(DataTickets {
            store: self.store.clone(),
            resumed: AtomicBool::new(false),
            switch: switch.clone(),
            random,
        });
        (Arc::new(cfg), switch)
    }
}

impl DataTls {
    /// Whether a data connection's resumption is its client's. It is,
    /// unless the TLS session came from a session of the same address
    /// that had not logged in: then it is once that session logs in as
    /// the same user, and is not if it logs in as another, ends, or does
    /// neither within `timeout`.
    pub async fn confirm(&self, switch: &DataSwitch, timeout: std::time::Duration) -> bool {
        let Some(origin) = switch.pending().clone() else {
            return true;
        };
        let mut rx = origin.login.subscribe();
        let theirs = match tokio::time::timeout(timeout, rx.wait_for(|l| *l != Login::Pending)).await {
            Ok(Ok(l)) => l.clone(),
            _ => return false,
        };
        let ok = matches!((&theirs, &*self.store.login.borrow()), (Login::As(a), Login::As(b)) if a == b);
        if ok {
            *switch.pending() = None;
        }
        ok
    }
}

impl SessionTls {
    /// Follows the FTP session's login: the user once logged in, `None`
    /// before and after REIN. While logged in, its data connections may
    /// resume the TLS sessions of the same client's other live FTP
    /// sessions (the same user from the same address), and theirs this
    /// one's.
    pub fn bind(&self, user: Option<&[u8]>) {
        let store = &self.data.store;
        store.login.send_if_modified(|l| {
            let new = match user {
                Some(u) => Login::As((u.to_vec(), store.ip)),
                None => Login::Pending,
            };
            if *l == new || *l == Login::Ended {
                return false;
            }
            *l = new;
            true
        });
    }
}

impl Drop for SessionTls {
    fn drop(&mut self) {
        let store = &self.data.store;
        store.login.send_replace(Login::Ended);
        store.clients.remove(store);
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
        Ok(Tls {
            base: Arc::new(cfg),
            clients: Arc::default(),
        })
    }

    /// The configuration of the admin API's HTTPS: the same certificate
    /// (reloaded as it changes), HTTP/1.1 by ALPN.
    /// The web view's: HTTP/2 offered first, then HTTP/1.1.
    pub fn https_h2(&self) -> Arc<ServerConfig> {
        let mut cfg = (*self.base).clone();
        cfg.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        Arc::new(cfg)
    }

    pub fn https(&self) -> Arc<ServerConfig> {
        let mut cfg = (*self.base).clone();
        cfg.alpn_protocols = vec![b"http/1.1".to_vec()];
        Arc::new(cfg)
    }

    /// Fresh configurations for one FTP session (a clone costs well under
    /// a microsecond).
    /// `ip`: the client's address.
    pub fn session(&self, ip: IpAddr) -> SessionTls {
        let store = Arc::new(SessionStore::new(self.clients.clone(), ip));
        self.clients.add(&store);
        let mut control = (*self.base).clone();
        control.session_storage = Arc::new(ControlStore(store.clone()));
        control.ticketer = Arc::new(Tickets {
            store: store.clone(),
            random: self.base.crypto_provider().secure_random,
        });
        control.send_tls13_tickets = CONTROL_TICKETS;
        let mut data = (*self.base).clone();
        // One TLS 1.3 ticket, issued only where the `DataStore` that
        // `connection` puts in place lets it: downloads that resumed.
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
pub async fn answer_handshake(
    stream: &tokio::net::TcpStream,
    conn: &mut rustls::ServerConnection,
    switch: &DataSwitch,
) -> io::Result<()> {
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
                // Known from the ClientHello on; a TLS 1.2 full
                // handshake's ticket comes later, at the client's Finished.
                // (A HelloRetryRequest counts as full: no ticket, as before.)
                if conn
                    .handshake_kind()
                    .is_some_and(|k| k != rustls::HandshakeKind::Resumed)
                {
                    switch.full.store(true, Ordering::Release);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => stream.readable().await?,
            Err(e) => return Err(e),
        }
    }
}

mod cert;
pub use cert::CertStore;

#[cfg(test)]
mod tests;
