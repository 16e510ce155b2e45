//! FTPS (RFC 4217) on real sockets with real clients: curl, lftp and
//! Python's ftplib, explicit (AUTH TLS) and implicit, and the binding of
//! data connections to their own control connection's TLS session.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

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

/// A server with FTPS and a second user, `alice`/`wonder`.
fn start_tls_two_users(tune: impl FnOnce(&mut babelftp_server::Config)) -> (TestServer, tempfile::TempDir) {
    babelftp_test_support::start_tls(false, |c| {
        c.users.push(babelftp_server::config::User::plain("alice", "wonder"));
        tune(c);
    })
}

/// Python prelude for the reuse tests: `session_of(user, password,
/// version, source)` logs in with PROT P under TLS `version` ('1.2' or
/// '1.3') from `source` (an address to bind, or None), and
/// `offer(f, session)` lists over a data connection of `f` that offers
/// `session`: 'accepted', or the reply that refused it.
const REUSE: &str = r#"
contexts = {}
def context(version):
    if version not in contexts:
        c = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        c.check_hostname = False
        c.verify_mode = ssl.CERT_NONE
        if version == '1.2':
            c.maximum_version = ssl.TLSVersion.TLSv1_2
        else:
            c.minimum_version = ssl.TLSVersion.TLSv1_3
        contexts[version] = c
    return contexts[version]
def session_of(user, password, version, source=None, log_in=True):
    f = Reusing(context=context(version))
    f.connect(HOST, PORT, timeout=20, source_address=source)
    if log_in:
        f.login(user, password)
        f.prot_p()
    else:
        f.auth()
    # A TLS 1.3 ticket comes after the handshake: read a reply under TLS.
    f.sendcmd('FEAT')
    return f
def offer(f, session):
    def ntransfercmd(cmd, rest=None):
        conn, size = ftplib.FTP.ntransfercmd(f, cmd, rest)
        return f.context.wrap_socket(conn, server_hostname=HOST, session=session), size
    f.ntransfercmd = ntransfercmd
    try:
        f.nlst()
        r = 'accepted'
    except ftplib.error_perm as e:
        r = str(e)
    except (ssl.SSLError, OSError) as e:
        r = f.getresp()
    del f.ntransfercmd
    return r
def ended(f):
    # QUIT, then the server's close: the session is over on its side.
    f.sock.sendall(b'QUIT\r\n')
    while f.sock.recv(4096):
        pass
"#;

/// Reuse binds a data connection to the client, not to one control
/// connection: a TLS session of another FTP session of the same user from
/// the same address resumes (rclone's and Go's shared session caches), and
/// everything else is still refused with 522: a session of another user,
/// of the same user from another address (127.0.0.2), of a session not
/// logged in, of a session that has ended, and no resumption at all (the
/// reply names the setting that lets such clients in). Under TLS 1.3 and
/// under TLS 1.2 (tickets and session IDs).
#[test]
fn data_connections_resume_only_sessions_of_the_same_user_from_the_same_address() {
    // A data connection that resumes a TLS session of a session from the
    // same address not logged in yet waits for that login up to
    // data_timeout (rclone opens control connections in parallel).
    let (srv, _certs) = start_tls_two_users(|c| c.data_timeout = std::time::Duration::from_secs(5));
    let out = python(
        &srv,
        &format!(
            r#"{TLS}{REUSE}
for v in ('1.3', '1.2'):
    # Plain ftplib: a full handshake on the data connection.
    f = ftplib.FTP_TLS(context=context(v))
    f.connect(HOST, PORT, timeout=20)
    f.login('bob', 'secret')
    f.prot_p()
    try:
        f.nlst()
        print(v, 'plain ftplib: accepted')
    except ftplib.error_perm as e:
        print(v, 'plain ftplib:', str(e))
    except (ssl.SSLError, OSError) as e:
        print(v, 'plain ftplib:', f.getresp())
    print(v, 'still there', f.sendcmd('NOOP')[:3])
    bob = session_of('bob', 'secret', v)
    bob2 = session_of('bob', 'secret', v)
    alice = session_of('alice', 'wonder', v)
    far = session_of('bob', 'secret', v, source=('127.0.0.2', 0))
    early = session_of(None, None, v, log_in=False)
    gone = session_of('bob', 'secret', v)
    gone_session = gone.sock.session
    ended(gone)
    print(v, 'own', [offer(bob, bob.sock.session) for _ in range(3)])
    print(v, 'same client', offer(bob2, bob.sock.session), offer(bob, bob2.sock.session))
    print(v, 'other user', offer(bob2, alice.sock.session)[:3], offer(alice, bob.sock.session)[:3])
    print(v, 'other address', offer(bob2, far.sock.session)[:3], offer(far, bob.sock.session)[:3])
    print(v, 'far own', offer(far, far.sock.session))
    print(v, 'not logged in', offer(bob2, early.sock.session)[:3])
    # A session that logs in while a data connection that resumed its TLS
    # session waits (rclone's parallel control connections): as the same
    # user it counts, as another it does not. (Whether the login comes
    # before or after that handshake, the answer is the same.)
    import threading
    for user, password in (('bob', 'secret'), ('alice', 'wonder')):
        late = session_of(None, None, v, log_in=False)
        got = []
        t = threading.Thread(target=lambda: got.append(offer(bob2, late.sock.session)))
        t.start()
        time.sleep(0.3)
        late.login(user, password)
        t.join()
        print(v, 'logged in later as', user, got[0][:8])
    print(v, 'ended', offer(bob2, gone_session)[:3])
    print(v, 'after', offer(bob2, bob2.sock.session), bob2.sendcmd('NOOP')[:3])
"#
        ),
    );
    for v in ["1.3", "1.2"] {
        assert!(
            out.contains(&format!(
                "{v} plain ftplib: 522 TLS session reuse required on the data connection (clients that never resume need tls_reuse_required = false on the server, or babelftp user set NAME --tls-reuse optional for their account)."
            )),
            "{out}"
        );
        assert!(out.contains(&format!("{v} still there 200")), "{out}");
        assert!(
            out.contains(&format!("{v} own ['accepted', 'accepted', 'accepted']")),
            "{out}"
        );
        assert!(out.contains(&format!("{v} same client accepted accepted")), "{out}");
        assert!(out.contains(&format!("{v} other user 522 522")), "{out}");
        assert!(out.contains(&format!("{v} other address 522 522")), "{out}");
        assert!(out.contains(&format!("{v} far own accepted")), "{out}");
        assert!(out.contains(&format!("{v} not logged in 522")), "{out}");
        assert!(out.contains(&format!("{v} logged in later as bob accepted")), "{out}");
        assert!(out.contains(&format!("{v} logged in later as alice 522")), "{out}");
        assert!(out.contains(&format!("{v} ended 522")), "{out}");
        assert!(out.contains(&format!("{v} after accepted 200")), "{out}");
    }
}

/// rclone's options for the test server (explicit FTPS, bob), and its
/// config file kept out of the user's.
fn rclone(srv: &TestServer, dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let pass = std::process::Command::new("rclone")
        .args(["obscure", "secret"])
        .output()
        .expect("rclone must be installed (scripts/test.sh installs it)");
    assert!(pass.status.success());
    let pass = String::from_utf8(pass.stdout).unwrap();
    let port = srv.port().to_string();
    let conf = dir.join("rclone.conf");
    let mut cmd = std::process::Command::new("rclone");
    cmd.args(["--config", conf.to_str().unwrap()])
        .args(["--ftp-host", "127.0.0.1", "--ftp-port", &port, "--ftp-user", "bob"])
        .args([
            "--ftp-pass",
            pass.trim(),
            "--ftp-explicit-tls",
            "--ftp-no-check-certificate",
        ])
        // One try: a 522 is an error, not something a retry hides.
        .args([
            "--retries",
            "1",
            "--low-level-retries",
            "1",
            "--contimeout",
            "20s",
            "--timeout",
            "60s",
        ])
        .args(args);
    output_within(&mut cmd, std::time::Duration::from_secs(120))
}

/// rclone copies several files up and back down with its defaults
/// (`--transfers 4`: several control connections, one TLS session cache
/// for all of them), then with `--ftp-disable-tls13` (TLS 1.2 tickets).
fn rclone_round_trip(extra: &[&str]) {
    let (srv, _certs) = start_tls(false);
    let work = tempfile::tempdir().unwrap();
    let (up, down) = (work.path().join("up"), work.path().join("down"));
    std::fs::create_dir(&up).unwrap();
    let files: Vec<(String, Vec<u8>)> = (0..12usize)
        .map(|i| {
            let data: Vec<u8> = (0..(100_000 + i * 37_501))
                .map(|j| (j.wrapping_mul(2_654_435_761) >> 7) as u8 ^ i as u8)
                .collect();
            let name = format!("f{i}.bin");
            std::fs::write(up.join(&name), &data).unwrap();
            (name, data)
        })
        .collect();
    let up_s = up.to_str().unwrap();
    let out = rclone(&srv, work.path(), &[&["copy", up_s, ":ftp:dir"], extra].concat());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !err.contains("522"), "rclone copy up: {err}");
    for (name, data) in &files {
        assert_eq!(
            &std::fs::read(srv.path(&format!("dir/{name}"))).unwrap(),
            data,
            "{name} up"
        );
    }
    let out = rclone(
        &srv,
        work.path(),
        &[&["copy", ":ftp:dir", down.to_str().unwrap()], extra].concat(),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !err.contains("522"), "rclone copy down: {err}");
    for (name, data) in &files {
        assert_eq!(&std::fs::read(down.join(name)).unwrap(), data, "{name} down");
    }
    let out = rclone(&srv, work.path(), &[&["check", up_s, ":ftp:dir"], extra].concat());
    assert!(
        out.status.success(),
        "rclone check: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn rclone_copies_up_and_down_with_its_defaults() {
    rclone_round_trip(&[]);
}

#[test]
fn rclone_copies_up_and_down_over_tls_1_2() {
    rclone_round_trip(&["--ftp-disable-tls13"]);
}

/// The Go client of crates/server/tests/go, built once per test run in
/// GOPATH mode from Debian's golang-github-jlaffaye-ftp-dev (no network).
fn go_client() -> std::path::PathBuf {
    static BUILT: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("go");
            std::fs::create_dir_all(&dir).unwrap();
            let bin = dir.join("ftps_client");
            let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/go/ftps_client.go");
            let out = std::process::Command::new("go")
                .arg("build")
                .arg("-o")
                .arg(&bin)
                .arg(&src)
                .env("GO111MODULE", "off")
                .env("GOPATH", "/usr/share/gocode")
                .env("GOCACHE", dir.join("cache"))
                .env("GOFLAGS", "")
                .current_dir(&dir)
                .output()
                .expect("go must be installed (scripts/test.sh installs golang-go)");
            assert!(
                out.status.success(),
                "go build (scripts/test.sh installs golang-go and golang-github-jlaffaye-ftp-dev): {}",
                String::from_utf8_lossy(&out.stderr)
            );
            bin
        })
        .clone()
}

fn go_ftps(srv: &TestServer, version: &str, cache: &str, files: usize) -> String {
    let mut cmd = std::process::Command::new(go_client());
    cmd.args([&format!("127.0.0.1:{}", srv.port()), "bob", "secret", version, cache])
        .arg(files.to_string());
    let out = output_within(&mut cmd, std::time::Duration::from_secs(60));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// jlaffaye/ftp with a session cache shared by two control connections,
/// under TLS 1.2 (Go resumes TLS 1.2 only with tickets) and TLS 1.3; and
/// without a cache (it never resumes): 522 naming the setting, and with
/// `tls_reuse_required = false` it works.
#[test]
fn go_jlaffaye_ftp_over_tls_1_2_and_1_3_with_a_session_cache() {
    let (srv, _certs) = start_tls(false);
    for v in ["1.2", "1.3"] {
        let out = go_ftps(&srv, v, "cache", 6);
        assert!(out.contains("ok go-5.bin") && out.contains("done"), "TLS {v}: {out}");
    }
    let out = go_ftps(&srv, "1.2", "nocache", 1);
    assert!(
        out.contains("error: STOR go-0.bin")
            && out.contains("522 TLS session reuse required on the data connection")
            && out.contains("tls_reuse_required = false"),
        "{out}"
    );
    let (open, _certs) = babelftp_test_support::start_tls(false, |c| c.tls_reuse_required = false);
    let out = go_ftps(&open, "1.2", "nocache", 2);
    assert!(out.contains("done"), "{out}");
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
    // writes lose its tail (vsftpd 9/20, measured); none
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
