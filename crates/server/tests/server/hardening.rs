//! Issue 24, the smaller findings of the outside review: a C1 control in a
//! name reaching the xferlog raw, STAT telling strangers the version and
//! their address, and a few sessions holding a small passive range.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use common::*;

/// ftplib stores a name ending in U+009B (C1 CSI, `C2 9B`) and one with a
/// right-to-left override: the xferlog has their `%HH`, never the raw
/// control (a terminal would act on it), and the files are there as sent.
#[test]
fn controls_in_names_reach_the_xferlog_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("xferlog");
    let l = log.clone();
    let srv = start(move |c| c.xferlog = Some(l));
    let out = python(
        &srv,
        r#"
f = ftplib.FTP(); f.connect(HOST, PORT); f.encoding = 'utf-8'; f.login('bob', 'secret')
f.storbinary('STOR csi\u009b2J', io.BytesIO(b'x'))
f.storbinary('STOR evil\u202etxt.exe', io.BytesIO(b'y'))
print(sorted(f.nlst()))
f.quit()
"#,
    );
    assert!(out.contains("'csi\\x9b2J'"), "{out}");
    assert!(srv.path("csi\u{9b}2J").exists());
    drop(srv);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains(" /csi%C2%9B2J b _ i r bob "), "{text:?}");
    assert!(text.contains(" /evil%E2%80%AEtxt.exe b _ i r bob "), "{text:?}");
    assert!(
        !text.chars().any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
        "{text:?}"
    );
}

/// Before login STAT says how the session stands and nothing else: no
/// version to pick an exploit by, no address. After login, and before it
/// with `status_before_login`, the full status.
#[test]
fn stat_before_login_names_no_version_and_no_address() {
    let full = r#"
def full(s, f, line):
    s.sendall(line + b'\r\n')
    first = out = readline(f)
    while first[3:4] == b'-':
        l = readline(f)
        out += l
        if l[:3] == first[:3] and l[3:4] == b' ':
            break
    return out.decode()
"#;
    let srv = start(|_| {});
    let run = |srv: &TestServer, body: &str| python(srv, &format!("{PY_RAW_FTP}{full}\ns, f = connect()\n{body}"));
    let before = run(&srv, "print(full(s, f, b'STAT'))");
    assert!(before.starts_with("211-") && before.contains(" TYPE "), "{before}");
    assert!(
        before.trim_end().lines().last().unwrap().starts_with("211 "),
        "{before}"
    );
    assert!(!before.contains("babelftp 0."), "{before}");
    assert!(!before.contains("127.0.0.1") && !before.contains("::1"), "{before}");
    // Logged in: the version and the peer.
    let after = run(&srv, "login(s, f)\nprint(full(s, f, b'STAT'))");
    assert!(after.contains("babelftp 0.") && after.contains(" user bob"), "{after}");
    let open = start(|c| c.status_before_login = true);
    let before = run(&open, "print(full(s, f, b'STAT'))");
    assert!(before.contains("babelftp 0.") && before.contains(" user -"), "{before}");
}

/// A range of 8 passive ports: one address may hold 2 (a quarter). Three
/// sessions holding EPSV from 127.0.0.1: the third gets 425 with the reason,
/// and another address is not held back; a session that sends EPSV again
/// and again keeps one port (each new one gives the last back).
#[test]
fn one_address_cannot_hold_a_small_passive_range() {
    // Eight free ports in a row, below the kernel's ephemeral range (from
    // 32768 on Linux), so that no connection of another test running at the
    // same time takes one of them as its local port.
    let base = (20_000u16..32_000)
        .step_by(8)
        .find(|&p| (p..p + 8).all(|q| std::net::TcpListener::bind(("127.0.0.1", q)).is_ok()))
        .expect("eight free ports below 32000");
    let srv = start(move |c| c.passive_ports = Some(base..=base + 7));
    let script = r#"
a, fa = connect(); login(a, fa)
b, fb = connect(); login(b, fb)
c, fc = connect(); login(c, fc)
# The same session again and again: always one port.
for _ in range(20):
    r = cmd(a, fa, b'EPSV')
    assert r.startswith(b'229'), r
print('b', cmd(b, fb, b'EPSV')[:3].decode())
r = cmd(c, fc, b'EPSV')
print('c', r.decode().strip())
# One of them gives its port back: the third gets one.
print('rein', cmd(a, fa, b'REIN')[:3].decode())
print('c again', cmd(c, fc, b'EPSV')[:3].decode())
"#;
    let out = python(&srv, &format!("{PY_RAW_FTP}{script}"));
    assert!(out.contains("b 229"), "{out}");
    assert!(
        out.contains("c 425 Too many passive ports held from your address"),
        "{out}"
    );
    assert!(out.contains("c again 229"), "{out}");
    // Another address (::1, where the machine has it) is not held back.
    if let Some(v6) = srv.addrs.iter().find(|a| a.is_ipv6()) {
        let out = python_at(
            &srv,
            v6,
            &format!(
                "{PY_RAW_FTP}\nHOST = '::1'\nd, fd = connect(); login(d, fd)\nprint('v6', cmd(d, fd, b'EPSV')[:3].decode())\n"
            ),
        );
        assert!(out.contains("v6 229"), "{out}");
    }
}
