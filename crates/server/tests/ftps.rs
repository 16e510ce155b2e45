//! FTPS (RFC 4217) on real sockets with real clients: curl, lftp and
//! Python's ftplib, explicit (AUTH TLS) and implicit, and the binding of
//! data connections to their own control connection's TLS session.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;

fn start_tls(required: bool) -> (TestServer, tempfile::TempDir) {
    babelftp_test_support::start_tls(required, |_| {})
}

/// Python prelude: a TLS context that trusts the test certificate, and an
/// FTP_TLS that resumes the control connection's TLS session on data
/// connections (ftplib does not, CPython issue 63699).
const TLS: &str = r#"
import ssl, time
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
ctx.check_hostname = False
ctx.verify_mode = ssl.CERT_NONE
class Reusing(ftplib.FTP_TLS):
    def ntransfercmd(self, cmd, rest=None):
        conn, size = ftplib.FTP.ntransfercmd(self, cmd, rest)
        if self._prot_p:
            conn = self.context.wrap_socket(conn, server_hostname=self.host, session=self.sock.session)
        return conn, size
def recv_all(conn):
    got = b''
    while True:
        b = conn.recv(1 << 20)
        if not b:
            return got
        got += b
def login(cls=Reusing):
    f = cls(context=ctx)
    f.connect(HOST, PORT, timeout=20)
    f.login('bob', 'secret')
    f.prot_p()
    return f
"#;

#[test]
fn ftplib_ftps_with_session_reuse_lists_stores_and_retrieves_utf8_names() {
    let (srv, _certs) = start_tls(false);
    let out = python(
        &srv,
        &format!(
            r#"{TLS}
f = login()
print('feat', [l.strip() for l in f.sendcmd('FEAT').splitlines() if l.strip() in ('AUTH TLS', 'PBSZ', 'PROT', 'UTF8')])
data = os.urandom(300000)
f.storbinary('STOR 日本語.bin', io.BytesIO(data))
got = io.BytesIO()
f.retrbinary('RETR 日本語.bin', got.write)
print('same', got.getvalue() == data)
print('nlst', '日本語.bin' in f.nlst())
f.sendcmd('LANG fr')
print('lang', f.sendcmd('NOOP'))
f.quit()
"#
        ),
    );
    assert!(
        out.contains("'UTF8'") && out.contains("'AUTH TLS'") && out.contains("'PBSZ'") && out.contains("'PROT'"),
        "{out}"
    );
    assert!(out.contains("same True"), "{out}");
    assert!(out.contains("nlst True"), "{out}");
    assert!(out.contains("lang 200 Commande"), "RFC 2640 holds under TLS: {out}");
    assert!(srv.path("日本語.bin").is_file());
}

/// Downloads over TLS read the file in 1 MiB buffers: a file of several
/// buffers and a ragged end comes whole, from a REST offset too, in ASCII
/// mode with every LF made CR LF, and an ABOR in the middle leaves the
/// session working.
#[test]
fn tls_downloads_of_several_buffers_from_an_offset_in_ascii_and_aborted() {
    let (srv, _certs) = start_tls(false);
    let big: Vec<u8> = (0..(3u32 << 20) + 12_345)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(srv.path("big.bin"), &big).unwrap();
    let text: Vec<u8> = (0..200_000u32)
        .flat_map(|i| format!("line {i}\n").into_bytes())
        .collect();
    std::fs::write(srv.path("text.txt"), &text).unwrap();
    let (big_path, text_path) = (
        srv.path("big.bin").display().to_string(),
        srv.path("text.txt").display().to_string(),
    );
    let out = python(
        &srv,
        &format!(
            r#"{TLS}
f = login()
data = open({big_path:?}, 'rb').read()
got = io.BytesIO(); f.retrbinary('RETR big.bin', got.write)
print('whole', got.getvalue() == data)
got = io.BytesIO(); f.retrbinary('RETR big.bin', got.write, rest=1234567)
print('rest', got.getvalue() == data[1234567:])
f.voidcmd('TYPE A')
conn = f.transfercmd('RETR text.txt')
wire = recv_all(conn)
conn.unwrap(); conn.close(); f.voidresp()
print('ascii', wire == open({text_path:?}, 'rb').read().replace(b'\n', b'\r\n'))
f.voidcmd('TYPE I')
conn = f.transfercmd('RETR big.bin')
conn.recv(65536)
f.sock.sendall(b'ABOR\r\n')
conn.close()
print('abor', f.getline()[:3], f.getline()[:3])
print('after', f.sendcmd('NOOP')[:3])
f.quit()
"#
        ),
    );
    assert!(out.contains("whole True"), "{out}");
    assert!(out.contains("rest True"), "{out}");
    assert!(out.contains("ascii True"), "{out}");
    // 426 then 226 when ABOR cuts the transfer; 426 then 225 when the
    // client's close of the data connection ended it first (as in
    // uploads.rs); 226 alone when it was already complete.
    assert!(
        out.contains("abor 426 226") || out.contains("abor 426 225") || out.contains("abor 226"),
        "{out}"
    );
    assert!(out.contains("after 200"), "{out}");
}

#[test]
fn a_data_connection_that_does_not_resume_its_own_session_is_refused_with_522() {
    let (srv, _certs) = start_tls(false);
    let out = python(
        &srv,
        &format!(
            r#"{TLS}
# Plain ftplib: a full handshake on the data connection.
f = login(ftplib.FTP_TLS)
try:
    f.nlst()
    print('plain ftplib: accepted')
except ftplib.error_perm as e:
    print('plain ftplib:', str(e)[:3])
except (ssl.SSLError, OSError) as e:
    print('plain ftplib:', f.getresp()[:3])
print('still there', f.sendcmd('NOOP')[:3])
# Another FTP session's TLS session, offered on this one's data connection.
a = login()
b = login()
class Stealing(ftplib.FTP_TLS):
    pass
def steal(cmd, rest=None):
    conn, size = ftplib.FTP.ntransfercmd(b, cmd, rest)
    return ctx.wrap_socket(conn, server_hostname=HOST, session=a.sock.session), size
b.ntransfercmd = steal
try:
    b.nlst()
    print('stolen: accepted')
except ftplib.error_perm as e:
    print('stolen:', str(e)[:3])
except (ssl.SSLError, OSError) as e:
    print('stolen:', b.getresp()[:3])
# And its own session resumes, again and again (the same ticket).
print('own', [len(a.nlst()) >= 0 for _ in range(5)])
"#
        ),
    );
    assert!(out.contains("plain ftplib: 522"), "{out}");
    assert!(out.contains("still there 200"), "{out}");
    assert!(out.contains("stolen: 522"), "{out}");
    assert!(out.contains("own [True, True, True, True, True]"), "{out}");
}

#[test]
fn curl_explicit_and_implicit_ftps() {
    let (srv, _certs) = start_tls(false);
    std::fs::write(srv.path("hello.txt"), b"hello over tls\n").unwrap();
    let port = srv.port();
    let (code, body) = curl(&[
        "--ssl-reqd",
        "-k",
        &format!("ftp://bob:secret@127.0.0.1:{port}/hello.txt"),
    ]);
    assert_eq!(code, 0);
    assert_eq!(body, b"hello over tls\n");
    let up = srv.root.path().join("..").join("upload-src.bin");
    let data = random_file(&up, 2 << 20);
    let (code, _) = curl(&[
        "--ssl-reqd",
        "-k",
        "-T",
        up.to_str().unwrap(),
        &format!("ftp://bob:secret@127.0.0.1:{port}/%C3%A9t%C3%A9.bin"),
    ]);
    assert_eq!(code, 0);
    assert!(std::fs::read(srv.path("été.bin")).unwrap() == data, "upload differs");
    let iport = srv.implicit[0].port();
    let (code, body) = curl(&["-k", &format!("ftps://bob:secret@127.0.0.1:{iport}/hello.txt")]);
    assert_eq!(code, 0, "implicit FTPS");
    assert_eq!(body, b"hello over tls\n");
}

#[test]
fn lftp_puts_and_gets_over_ftps() {
    let (srv, _certs) = start_tls(true);
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("данные.bin");
    let data = random_file(&src, 1 << 20);
    let url = format!("ftp://bob:secret@127.0.0.1:{}", srv.port());
    let (code, out, err) = lftp(
        &url,
        &format!(
            "set ftp:ssl-allow yes; set ftp:ssl-force yes; set ftp:ssl-protect-data yes; set ssl:verify-certificate no; put {} -o данные.bin; get данные.bin -o {}",
            src.display(),
            tmp.path().join("back.bin").display()
        ),
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(std::fs::read(srv.path("данные.bin")).unwrap() == data);
    assert!(std::fs::read(tmp.path().join("back.bin")).unwrap() == data);
}

#[test]
fn plaintext_behind_auth_tls_is_discarded_and_tls_required_refuses_clear_logins() {
    let (srv, _certs) = start_tls(true);
    let out = python(
        &srv,
        &format!(
            r#"{TLS}
s = socket.create_connection((HOST, PORT), timeout=10)
f = s.makefile('rb')
f.readline()
s.sendall(b'USER bob\r\n')
print('clear user', f.readline()[:3])
# A man in the middle appends commands to AUTH TLS: they must not run.
s.sendall(b'AUTH TLS\r\nUSER bob\r\nPASS secret\r\n')
print('auth', f.readline()[:3])
t = ctx.wrap_socket(s, server_hostname=HOST)
tf = t.makefile('rb')
t.sendall(b'PWD\r\n')
print('pwd', tf.readline()[:3])
"#
        ),
    );
    assert!(out.contains("clear user b'530'"), "{out}");
    assert!(out.contains("auth b'234'"), "{out}");
    assert!(out.contains("pwd b'530'"), "the injected USER/PASS did not run: {out}");
}

#[test]
fn an_upload_cut_without_close_notify_is_426_and_not_committed() {
    let (srv, _certs) = start_tls(false);
    std::fs::write(srv.path("keep.bin"), b"old data").unwrap();
    let out = python(
        &srv,
        &format!(
            r#"{TLS}
f = login()
f.voidcmd('TYPE I')
conn = f.transfercmd('STOR keep.bin')
conn.sendall(b'x' * 200000)
# No unwrap(): the TCP connection ends without TLS close_notify, as when
# an attacker truncates it.
conn.close()
try:
    print('end', f.voidresp()[:3])
except ftplib.error_temp as e:
    print('end', str(e)[:3])
"#
        ),
    );
    assert!(out.contains("end 426"), "{out}");
    let kept = std::fs::read(srv.path("keep.bin")).unwrap();
    assert!(
        kept == b"old data",
        "a truncated TLS upload replaced the file ({} bytes)",
        kept.len()
    );
}

#[test]
fn garbage_and_plaintext_on_tls_ports_close_cleanly() {
    let (srv, _certs) = start_tls(false);
    let iport = srv.implicit[0].port();
    let out = python(
        &srv,
        &format!(
            r#"{TLS}
# A plaintext client on the implicit port.
s = socket.create_connection((HOST, {iport}), timeout=20)
s.sendall(b'USER bob\r\n')
try:
    print('implicit plain', s.recv(100))
except OSError as e:
    print('implicit plain', type(e).__name__)
# Garbage instead of a ClientHello after AUTH TLS.
s = socket.create_connection((HOST, PORT), timeout=20)
f = s.makefile('rb'); f.readline()
s.sendall(b'AUTH TLS\r\n'); print('auth', f.readline()[:3])
s.sendall(b'\x16\x03\x01\x00\x05hello-not-tls' * 10)
try:
    print('garbage', s.recv(100))
except OSError as e:
    print('garbage', type(e).__name__)
# The server still serves.
g = login(); print('after', g.sendcmd('NOOP')[:3])
"#
        ),
    );
    assert!(
        !out.contains("implicit plain b'2") && !out.contains("implicit plain b'3"),
        "{out}"
    );
    assert!(out.contains("auth b'234'"), "{out}");
    assert!(out.contains("after 200"), "{out}");
}

#[test]
fn tls13_uploads_from_curl_are_never_truncated() {
    // Tickets on an upload's data connection make a client that only
    // writes lose its tail (shared/research/ftps.md: vsftpd 9/20); none
    // are sent, and every upload must arrive whole.
    let (srv, _certs) = start_tls(false);
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("up.bin");
    let data = random_file(&src, 3 << 20);
    for i in 0..10 {
        let (code, _) = curl(&[
            "--ssl-reqd",
            "-k",
            "--tlsv1.3",
            "-T",
            src.to_str().unwrap(),
            &format!("ftp://bob:secret@127.0.0.1:{}/up{i}.bin", srv.port()),
        ]);
        assert_eq!(code, 0, "upload {i}");
        assert!(
            std::fs::read(srv.path(&format!("up{i}.bin"))).unwrap() == data,
            "upload {i} differs"
        );
    }
}

#[test]
fn a_renewed_certificate_is_used_without_a_restart() {
    let (srv, certs) = start_tls(false);
    let fingerprint = r#"
import hashlib
s = socket.create_connection((HOST, PORT), timeout=10)
f = s.makefile('rb'); f.readline()
s.sendall(b'AUTH TLS\r\n'); f.readline()
t = ctx.wrap_socket(s, server_hostname=HOST)
print('cert', hashlib.sha256(t.getpeercert(binary_form=True)).hexdigest())
"#;
    let before = python(&srv, &format!("{TLS}{fingerprint}"));
    // Renew: a new key pair and certificate in the same files.
    std::thread::sleep(std::time::Duration::from_millis(20));
    certificate(certs.path());
    let after = python(&srv, &format!("{TLS}{fingerprint}"));
    assert!(
        before.starts_with("cert ") && after.starts_with("cert "),
        "{before} {after}"
    );
    assert_ne!(before, after, "the renewed certificate is presented");
}

#[test]
fn rein_after_auth_tls_ends_tls_and_auth_starts_it_again() {
    // RFC 4217 13: REIN returns the control connection to its state at
    // connect, in clear. With --tls-required, a clear USER is then 530
    // until AUTH TLS comes again. The implicit port keeps its TLS.
    let (srv, _certs) = start_tls(true);
    let iport = srv.implicit[0].port();
    let out = python(
        &srv,
        &format!(
            r#"{TLS}
f = login()
f.storbinary('STOR before.bin', io.BytesIO(b'x' * 1000))
print('rein', f.sendcmd('REIN')[:3])
# Python's unwrap(): close_notify both ways, then the same TCP connection
# as a plain socket (unwrap() gives back the SSLSocket object itself).
f.sock = socket.socket(fileno=f.sock.unwrap().detach())
f.sock.settimeout(20)
f.file = f.sock.makefile('r', encoding=f.encoding)
for cmd in ('PBSZ 0', 'USER bob', 'PWD'):
    try:
        print(cmd, f.sendcmd(cmd)[:3])
    except ftplib.Error as e:
        print(cmd, str(e)[:3])
f.auth()
f.login('bob', 'secret')
f.prot_p()
print('nlst', 'before.bin' in f.nlst())
f.quit()
# A client that sends plaintext at once, without its close_notify.
s = socket.create_connection((HOST, PORT), timeout=20)
s.recv(1000)
s.sendall(b'AUTH TLS\r\n'); s.recv(1000)
t = ctx.wrap_socket(s, server_hostname=HOST)
tf = t.makefile('rb')
t.sendall(b'REIN\r\n')
print('rein2', tf.readline()[:3])
raw = socket.socket(fileno=t.detach())
raw.settimeout(20)
raw.sendall(b'USER bob\r\n')
got = b''
while not got.endswith(b'\r\n'):
    got += raw.recv(1000)
print('clear user', got[got.rfind(b'530 '):][:3])
# Implicit FTPS: REIN keeps TLS.
g = Reusing(context=ctx)
g.sock = ctx.wrap_socket(socket.create_connection((HOST, {iport}), timeout=20), server_hostname=HOST)
g.af = g.sock.family
g.file = g.sock.makefile('r', encoding=g.encoding)
g.host = HOST
g.welcome = g.getresp()
g.login('bob', 'secret')
print('implicit rein', g.sendcmd('REIN')[:3])
g.login('bob', 'secret')
g._prot_p = True
print('implicit nlst', 'before.bin' in g.nlst())
"#
        ),
    );
    assert!(out.contains("rein 220"), "{out}");
    assert!(out.contains("PBSZ 0 503"), "PBSZ needs AUTH again: {out}");
    assert!(out.contains("USER bob 530"), "TLS is required again: {out}");
    assert!(out.contains("PWD 530"), "{out}");
    assert!(out.contains("nlst True"), "{out}");
    assert!(out.contains("rein2 b'220'"), "{out}");
    assert!(out.contains("clear user b'530'"), "{out}");
    assert!(out.contains("implicit rein 220"), "{out}");
    assert!(out.contains("implicit nlst True"), "{out}");
}

/// curl 7.88 finishes a data connection's TLS handshake before it reads the
/// replies to its next commands, so the server answers that handshake as
/// soon as the connection comes, before the transfer command (a server
/// that waits for RETR leaves such a client stuck until its poll timeout).
/// Here a client completes the handshake, resuming the control session,
/// with no transfer command sent, then downloads and uploads over it.
#[test]
fn the_data_handshake_is_answered_before_the_transfer_command() {
    let (srv, _certs) = start_tls(false);
    std::fs::write(srv.path("early.txt"), b"answered early\n").unwrap();
    let out = python(
        &srv,
        &format!(
            r#"{TLS}
f = login()
def early():
    host, port = ftplib.parse227(f.sendcmd('PASV'))
    raw = socket.create_connection((HOST, port), timeout=10)
    conn = ctx.wrap_socket(raw, server_hostname=HOST, session=f.sock.session, do_handshake_on_connect=False)
    conn.do_handshake()
    return conn
f.voidcmd('TYPE I')
conn = early()
print('resumed', conn.session_reused)
print('retr', f.sendcmd('RETR early.txt')[:3])
got = recv_all(conn)
conn.unwrap()
conn.close()
print('got', got)
print('end', f.voidresp()[:3])
conn = early()
print('resumed', conn.session_reused)
print('stor', f.sendcmd('STOR late.bin')[:3])
conn.sendall(b'x' * 100000)
conn.unwrap()
conn.close()
print('end', f.voidresp()[:3])
f.quit()
"#
        ),
    );
    assert_eq!(out.matches("resumed True").count(), 2, "{out}");
    assert!(out.contains("retr 150") && out.contains("stor 150"), "{out}");
    assert!(out.contains("got b'answered early\\n'"), "{out}");
    assert_eq!(out.matches("end 226").count(), 2, "{out}");
    assert_eq!(std::fs::read(srv.path("late.bin")).unwrap(), vec![b'x'; 100000]);
}

/// curl with OpenSSL offers a TLS 1.3 ticket once. A download's data
/// connection gives it a new one of the same FTP session, so several
/// downloads in one curl run all resume (reuse is required here) and
/// arrive whole; under TLS 1.2 the control session resumes every time.
#[test]
fn curl_downloads_several_files_in_one_ftps_session() {
    let (srv, _certs) = start_tls(false);
    let tmp = tempfile::tempdir().unwrap();
    let files: Vec<Vec<u8>> = (0..4)
        .map(|i| random_file(&srv.path(&format!("f{i}.bin")), (300 << 10) + i * 4099))
        .collect();
    for tls in [&["--tlsv1.3"][..], &["--tlsv1.2", "--tls-max", "1.2"][..]] {
        let mut args: Vec<String> = ["--ssl-reqd", "-k"].iter().map(|s| s.to_string()).collect();
        args.extend(tls.iter().map(|s| s.to_string()));
        for i in 0..files.len() {
            args.push("-o".into());
            args.push(tmp.path().join(format!("{}-{i}", tls[0])).display().to_string());
            args.push(format!("ftp://bob:secret@127.0.0.1:{}/f{i}.bin", srv.port()));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _) = curl(&args);
        assert_eq!(code, 0, "{tls:?}");
        for (i, data) in files.iter().enumerate() {
            let got = std::fs::read(tmp.path().join(format!("{}-{i}", tls[0]))).unwrap();
            assert!(&got == data, "{tls:?}: file {i} differs");
        }
    }
}

/// PROT changed between PASV and the transfer: a connection set up under
/// PROT P cannot carry a clear transfer (425 at once, the session goes
/// on); one set up under PROT C is given its handshake at the transfer.
#[test]
fn prot_changed_after_pasv() {
    let (srv, _certs) = start_tls(false);
    std::fs::write(srv.path("p.txt"), b"protected\n").unwrap();
    let out = python(
        &srv,
        &format!(
            r#"{TLS}
f = login()
host, port = ftplib.parse227(f.sendcmd('PASV'))
raw = socket.create_connection((HOST, port), timeout=10)
f.sendcmd('PROT C')
def final(cmd):
    try:
        r = f.sendcmd(cmd)
        if r.startswith('1'):
            r = f.getresp()
        return r[:3]
    except ftplib.Error as e:
        return str(e)[:3]
print('clear over a P connection:', final('RETR p.txt'))
raw.close()
print('still there', f.sendcmd('NOOP')[:3])
host, port = ftplib.parse227(f.sendcmd('PASV'))
raw = socket.create_connection((HOST, port), timeout=10)
f.sendcmd('PROT P')
print('retr', f.sendcmd('RETR p.txt')[:3])
conn = ctx.wrap_socket(raw, server_hostname=HOST, session=f.sock.session)
got = recv_all(conn)
print('got', got)
print('end', f.voidresp()[:3])
"#
        ),
    );
    assert!(out.contains("clear over a P connection: 425"), "{out}");
    assert!(out.contains("still there 200"), "{out}");
    assert!(
        out.contains("retr 150") && out.contains("got b'protected\\r\\n'"),
        "{out}"
    );
    assert!(out.contains("end 226"), "{out}");
}

/// Active mode (PORT) under PROT P: the server connects, then answers the
/// handshake at the transfer; with reuse required, a download and an
/// upload both succeed only by resuming the control session.
#[test]
fn active_mode_over_tls_resumes_the_control_session() {
    let (srv, _certs) = start_tls(false);
    let out = python(
        &srv,
        &format!(
            r#"{TLS}
f = login()
f.set_pasv(False)
data = os.urandom(200000)
print('stor', f.storbinary('STOR active.bin', io.BytesIO(data))[:3])
got = io.BytesIO()
print('retr', f.retrbinary('RETR active.bin', got.write)[:3])
print('same', got.getvalue() == data)
f.quit()
"#
        ),
    );
    assert!(out.contains("stor 226") && out.contains("retr 226"), "{out}");
    assert!(out.contains("same True"), "{out}");
    assert_eq!(std::fs::read(srv.path("active.bin")).unwrap().len(), 200000);
}
