//! The session's lifecycle on real sockets, as real clients drive it:
//! RFC 2640's own CR NUL LF example, ftplib's urgent ABOR, huge lines,
//! resets and stalls, QUIT during a transfer. Each test reproduces a bug
//! found by black-box testing of the round-1 server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use common::*;

fn py(srv: &TestServer, body: &str) -> String {
    python(srv, &format!("{PY_RAW_FTP}\n{body}"))
}

#[test]
fn rfc2640_example_round_trips_through_mkd_cwd_nlst() {
    let srv = start(|_| {});
    let out = py(
        &srv,
        r#"
s, f = connect(); login(s, f)
# RFC 2640 3.1: foo<CR><LF>boo.bar is sent as foo<CR><NUL><LF>boo.bar
print('mkd', cmd(s, f, b'MKD foo\r\x00\nboo.bar')[:3])
print('cwd', cmd(s, f, b'CWD foo\r\x00\nboo.bar')[:3])
print('pwd', cmd(s, f, b'PWD'))
print('up', cmd(s, f, b'CDUP')[:3])
d = pasv(s, f)
print('nlst', cmd(s, f, b'NLST')[:3])
data = b''
while True:
    b = d.recv(65536)
    if not b: break
    data += b
print('226', reply(f)[:3])
print('listed', b'foo\r\nboo.bar\r\n' in data)
print('noop', cmd(s, f, b'NOOP')[:3])
"#,
    );
    assert!(out.contains("mkd b'257'"), "{out}");
    assert!(out.contains("cwd b'250'"), "{out}");
    // PWD pads the CR again on the way out.
    assert!(
        out.contains(r#"pwd b'257 "/foo\r\x00\nboo.bar" is the current directory.\r\n'"#),
        "{out}"
    );
    assert!(out.contains("nlst b'150'") && out.contains("226 b'226'"), "{out}");
    assert!(out.contains("listed True"), "{out}");
    assert!(out.contains("noop b'200'"), "no second command ran: {out}");
    assert!(srv.path("foo\r\nboo.bar").is_dir());
    assert!(!srv.path("foo\r").exists() && !srv.path("boo.bar").exists());
}

#[test]
fn ftplib_abort_interrupts_a_retr_and_the_session_goes_on() {
    let srv = start(|_| {});
    random_file(&srv.path("big.bin"), 64 << 20);
    let out = python(
        &srv,
        r#"
ftp = ftplib.FTP()
ftp.connect(HOST, PORT, timeout=20)
ftp.login('bob', 'secret')
ftp.voidcmd('TYPE I')
conn = ftp.transfercmd('RETR big.bin')
got = conn.recv(65536)
# ftplib sends ABOR\r\n with MSG_OOB (urgent data).
first = ftp.abort()
print('abort', first[:3])
if first.startswith('426'):
    print('then', ftp.getresp()[:3])
conn.close()
print('noop', ftp.voidcmd('NOOP')[:3])
print('pwd', ftp.pwd())
ftp.quit()
"#,
    );
    assert!(out.contains("abort 426") || out.contains("abort 226"), "{out}");
    if out.contains("abort 426") {
        assert!(out.contains("then 226"), "{out}");
    }
    assert!(out.contains("noop 200"), "{out}");
    assert!(out.contains("pwd /"), "{out}");
}

#[test]
fn bsd_ftp_style_ip_and_synch_abort_a_retr() {
    // What BSD ftp(1) sends: IAC IP, then IAC DM with the DM urgent (the
    // Synch), then ABOR (RFC 959 4.1.3).
    let srv = start(|_| {});
    random_file(&srv.path("big.bin"), 64 << 20);
    let out = py(
        &srv,
        r#"
s, f = connect(); login(s, f)
cmd(s, f, b'TYPE I')
d = pasv(s, f)
print('retr', cmd(s, f, b'RETR big.bin')[:3])
d.recv(65536)
s.send(b'\xff\xf4\xff')
s.send(b'\xf2', socket.MSG_OOB)
s.sendall(b'ABOR\r\n')
print('first', reply(f)[:3])
print('second', reply(f)[:3])
d.close()
print('noop', cmd(s, f, b'NOOP')[:3])
"#,
    );
    assert!(out.contains("retr b'150'"), "{out}");
    assert!(out.contains("first b'426'") && out.contains("second b'226'"), "{out}");
    assert!(out.contains("noop b'200'"), "{out}");
}

#[test]
fn twenty_thousand_pipelined_commands_each_get_their_reply_in_order() {
    let srv = start(|_| {});
    let out = py(
        &srv,
        r#"
import threading
s, f = connect(); login(s, f)
N = 20000
def send():
    for i in range(N // 1000):
        s.sendall(b''.join(b'NOOP\r\n' if j % 2 else b'SYST\r\n' for j in range(1000)))
t = threading.Thread(target=send); t.start()
ok = 0
for j in range(N):
    line = f.readline()
    want = b'200' if j % 2 else b'215'
    if line[:3] == want:
        ok += 1
t.join()
print('in order', ok)
"#,
    );
    assert!(out.contains("in order 20000"), "{out}");
}

#[test]
fn a_one_mib_line_gets_500_before_it_ends() {
    let srv = start(|_| {});
    let out = py(
        &srv,
        r#"
s, f = connect()
s.settimeout(5)
s.sendall(b'STOR ' + b'x' * (1 << 20))
print('reply', f.readline()[:3])
s.sendall(b'still the same line\r\n')
print('noop', cmd(s, f, b'NOOP')[:3])
"#,
    );
    assert!(out.contains("reply b'500'"), "{out}");
    assert!(out.contains("noop b'200'"), "{out}");
}

#[test]
fn a_reset_control_connection_mid_stor_keeps_the_old_file_and_leaves_nothing_behind() {
    let srv = start(|c| c.max_connections = 1);
    std::fs::write(srv.path("keep.bin"), b"old data").unwrap();
    py(
        &srv,
        r#"
import struct
s, f = connect(); login(s, f)
cmd(s, f, b'TYPE I')
d = pasv(s, f)
assert cmd(s, f, b'STOR keep.bin').startswith(b'150')
d.sendall(b'n' * (1 << 20))
# The client's control connection is reset ...
s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))
f.close(); s.close()
time.sleep(0.2)
# ... and its data connection then ends as a complete upload would.
try:
    d.sendall(b'n' * 4096)
    d.close()
except OSError:
    pass
"#,
    );
    // The slot is free again (max_connections = 1): the session is gone.
    let addr = srv.addrs[0];
    wait_until(Duration::from_secs(10), "a new session is admitted", || {
        let (_c, greeting) = Control::connect(addr);
        greeting.starts_with(b"220").then_some(())
    });
    let kept = std::fs::read(srv.path("keep.bin")).unwrap();
    assert!(kept == b"old data", "the old file was replaced by {} bytes", kept.len());
    wait_until(Duration::from_secs(10), "no temporary file is left", || {
        let left: Vec<_> = std::fs::read_dir(srv.root.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n.to_string_lossy().ends_with(".part"))
            .collect();
        left.is_empty().then_some(())
    });
}

#[test]
fn quit_during_an_upload_finishes_it_then_closes() {
    let srv = start(|_| {});
    let out = py(
        &srv,
        r#"
s, f = connect(); login(s, f)
cmd(s, f, b'TYPE I')
d = pasv(s, f)
assert cmd(s, f, b'STOR q.bin').startswith(b'150')
d.sendall(b'q' * 100000)
s.sendall(b'QUIT\r\n')
time.sleep(0.2)
d.close()
print('first', reply(f)[:3])
print('second', reply(f)[:3])
print('eof', f.readline() == b'')
"#,
    );
    assert!(out.contains("first b'226'"), "{out}");
    assert!(out.contains("second b'221'"), "{out}");
    assert!(out.contains("eof True"), "{out}");
    assert_eq!(std::fs::read(srv.path("q.bin")).unwrap().len(), 100_000);
}

#[test]
fn stalled_data_connections_are_cut_with_426() {
    let srv = start(|c| c.stall_timeout = Duration::from_secs(1));
    random_file(&srv.path("big.bin"), 64 << 20);
    std::fs::write(srv.path("keep.bin"), b"old data").unwrap();
    let out = py(
        &srv,
        r#"
s, f = connect(); login(s, f)
cmd(s, f, b'TYPE I')
# A download whose client never reads.
d = pasv(s, f)
d.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
print('retr', cmd(s, f, b'RETR big.bin')[:3])
print('retr end', reply(f)[:3])
d.close()
# An upload whose client never sends.
d = pasv(s, f)
print('stor', cmd(s, f, b'STOR keep.bin')[:3])
print('stor end', reply(f)[:3])
d.close()
print('noop', cmd(s, f, b'NOOP')[:3])
"#,
    );
    assert!(out.contains("retr b'150'") && out.contains("retr end b'426'"), "{out}");
    assert!(out.contains("stor b'150'") && out.contains("stor end b'426'"), "{out}");
    assert!(out.contains("noop b'200'"), "{out}");
    let kept = std::fs::read(srv.path("keep.bin")).unwrap();
    assert!(kept == b"old data", "the old file was replaced by {} bytes", kept.len());
}

#[test]
fn a_client_that_reads_no_replies_is_disconnected() {
    let srv = start(|c| {
        c.stall_timeout = Duration::from_secs(1);
        c.max_connections = 1;
    });
    let out = py(
        &srv,
        r#"
s, f = connect()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.settimeout(2)
try:
    for _ in range(100000):
        s.sendall(b'HELP\r\n' * 100)
except OSError:
    pass
# With `s` still open and unread, the only slot must come free.
deadline = time.time() + 15
while time.time() < deadline:
    c = socket.create_connection((HOST, PORT), timeout=5)
    g = c.makefile('rb').readline()
    c.close()
    if g.startswith(b'220'):
        print('admitted')
        break
    time.sleep(0.2)
s.close()
"#,
    );
    assert!(out.contains("admitted"), "{out}");
}

#[test]
fn shutdown_cuts_a_transfer_at_the_grace_deadline_with_426_then_421() {
    let mut srv = start(|_| {});
    random_file(&srv.path("big.bin"), 64 << 20);
    let addr = srv.addrs[0];
    let (mut c, _) = Control::connect(addr);
    c.cmd("USER bob");
    c.cmd("PASS secret");
    c.cmd("TYPE I");
    let r = c.cmd("EPSV");
    let port: u16 = String::from_utf8_lossy(&r)
        .split("|||")
        .nth(1)
        .and_then(|p| p.split('|').next())
        .and_then(|p| p.parse().ok())
        .unwrap();
    let data = std::net::TcpStream::connect((addr.ip(), port)).unwrap();
    assert!(c.cmd("RETR big.bin").starts_with(b"150"));
    // The client never reads; the server's grace (2 s in tests) runs out.
    srv.begin_shutdown();
    assert!(c.reply().starts_with(b"426"));
    assert!(c.reply().starts_with(b"421"));
    drop(data);
    srv.join();
}

/// Issue 11: a client process killed mid-STOR. Its kernel closes the data
/// connection with a FIN, which in stream mode looks like a complete
/// upload, and the control connection with a FIN too; the upload must be
/// taken as cut (the control connection is gone), every time.
#[test]
fn a_killed_client_never_replaces_the_file_it_was_uploading() {
    let srv = start(|c| c.max_connections = 1);
    let old = vec![b'o'; 8 << 20];
    std::fs::write(srv.path("keep.bin"), &old).unwrap();
    let local = tempfile::tempdir().unwrap();
    let src = local.path().join("src.bin");
    random_file(&src, 64 << 20);
    let url = format!("ftp://bob:secret@127.0.0.1:{}/keep.bin", srv.port());
    let parts = || -> Vec<u64> {
        std::fs::read_dir(srv.root.path())
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".part"))
            .map(|e| e.metadata().map(|m| m.len()).unwrap_or(0))
            .collect()
    };
    let addr = srv.addrs[0];
    for run in 0..20 {
        let mut child = ChildGuard(
            std::process::Command::new("curl")
                .args(["-s", "-S", "--limit-rate", "40M", "-T"])
                .arg(&src)
                .arg(&url)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("curl"),
        );
        // Killed once the server has a good part of the upload.
        wait_until(Duration::from_secs(20), "the upload is under way", || {
            parts().iter().any(|&n| n >= 2 << 20).then_some(())
        });
        assert!(signal(child.0.id(), "KILL"));
        let _ = child.0.wait();
        wait_until(Duration::from_secs(20), "the session is gone", || {
            let (_c, greeting) = Control::connect(addr);
            greeting.starts_with(b"220").then_some(())
        });
        wait_until(Duration::from_secs(20), "no temporary file is left", || {
            parts().is_empty().then_some(())
        });
        let kept = std::fs::read(srv.path("keep.bin")).unwrap();
        assert!(
            kept == old,
            "run {run}: the old file was replaced by {} bytes of a killed upload",
            kept.len()
        );
    }
}
