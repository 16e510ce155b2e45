//! Uploads that go wrong leave nothing wrong behind (issue 11): REST+STOR,
//! APPE and STOU whose data connection never comes, temporary names that
//! stay out of listings and fit beside any name, a replaced file's mode,
//! temporary files a crash left, and the xferlog line of every transfer.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, SystemTime};

use common::*;

/// [`PY_RAW_FTP`], a login that also sets TYPE I, `send` (a STOR whose
/// data is sent, its 226 not read) and `upload` (one whose 226 is read).
const LOGIN: &str = r#"
def bob():
    s, f = connect()
    login(s, f)
    assert cmd(s, f, b'TYPE I').startswith(b'200')
    return s, f

def send(s, f, name, data):
    d = pasv(s, f)
    r = cmd(s, f, b'STOR ' + name)
    assert r.startswith(b'150'), r
    d.sendall(data)
    d.close()

def upload(s, f, name, data):
    send(s, f, name, data)
    assert reply(f).startswith(b'226')
"#;

/// Python for the tests of issue 47: `temps(d)`, the temporary files in
/// the folder `d` of the root `ROOT`.
const STORE_AND_LOOK: &str = r#"
import os
def temps(d):
    return sorted(n for n in os.listdir(os.path.join(ROOT, d)) if n.endswith('.part'))
"#;

fn py(srv: &TestServer, body: &str) -> String {
    python(srv, &format!("{PY_RAW_FTP}\n{LOGIN}\n{body}"))
}

/// Runs `body` with [`STORE_AND_LOOK`], `ROOT` (the server's root on disk)
/// and bob's session `s, f`.
fn store_and_look(srv: &TestServer, body: &str) -> String {
    let root = srv.root.path().display().to_string();
    py(srv, &format!("{STORE_AND_LOOK}\nROOT = {root:?}\ns, f = bob()\n{body}"))
}

fn names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn uploads_whose_data_connection_never_comes_change_nothing() {
    let srv = start(|c| c.data_timeout = Duration::from_millis(500));
    std::fs::write(srv.path("resume.bin"), b"0123456789").unwrap();
    let out = py(
        &srv,
        r#"
s, f = bob()
# REST+STOR: the file is not cut at the offset before data arrive.
epsv(s, f)
assert cmd(s, f, b'REST 3').startswith(b'350')
def never_connected(line):
    # 150 (the file is open), then 425 when no data connection comes.
    r = cmd(s, f, line)
    if r.startswith(b'150'):
        r = reply(f)
    return r[:3]
print('rest-stor', never_connected(b'STOR resume.bin'))
# APPE of a new name, STOU: no empty file is left.
epsv(s, f)
print('appe', never_connected(b'APPE new-appe.bin'))
epsv(s, f)
print('stou', never_connected(b'STOU'))
print('noop', cmd(s, f, b'NOOP')[:3])
"#,
    );
    assert!(out.contains("rest-stor b'425'"), "{out}");
    assert!(out.contains("appe b'425'") && out.contains("stou b'425'"), "{out}");
    assert_eq!(std::fs::read(srv.path("resume.bin")).unwrap(), b"0123456789");
    assert_eq!(names(srv.root.path()), ["readme.txt", "resume.bin"]);

    // And when data do come, REST+STOR cuts at the offset and goes on.
    let out = py(
        &srv,
        r#"
s, f = bob()
port = epsv(s, f)
d = socket.create_connection((HOST, port), timeout=20)
assert cmd(s, f, b'REST 3').startswith(b'350')
assert cmd(s, f, b'STOR resume.bin').startswith(b'150')
d.sendall(b'abc'); d.close()
print('done', reply(f)[:3])
"#,
    );
    assert!(out.contains("done b'226'"), "{out}");
    assert_eq!(std::fs::read(srv.path("resume.bin")).unwrap(), b"012abc");
}

#[test]
fn temporary_names_are_never_listed_fit_long_names_and_keep_the_mode() {
    let srv = start(|_| {});
    // A name of 254 octets: the temporary name beside it must still fit.
    let long = format!("{}.bin", "é".repeat(125));
    assert_eq!(long.len(), 254);
    std::fs::write(srv.path("mode.txt"), b"old").unwrap();
    std::fs::set_permissions(srv.path("mode.txt"), std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = py(
        &srv,
        &format!(
            r#"
long = {long:?}.encode()
s, f = bob()
port = epsv(s, f)
d = socket.create_connection((HOST, port), timeout=20)
assert cmd(s, f, b'STOR mode.txt').startswith(b'150')
d.sendall(b'half of it')
# Meanwhile, another session lists the directory: no temporary name.
s2, f2 = bob()
for verb in (b'NLST', b'LIST', b'MLSD'):
    p2 = epsv(s2, f2)
    d2 = socket.create_connection((HOST, p2), timeout=20)
    assert cmd(s2, f2, verb).startswith(b'150')
    listing = b''
    while True:
        b = d2.recv(65536)
        if not b: break
        listing += b
    assert reply(f2).startswith(b'226')
    print(verb.decode(), b'.part' in listing or b'babelftp' in listing)
d.sendall(b' and the rest'); d.close()
print('mode', reply(f)[:3])
port = epsv(s, f)
d = socket.create_connection((HOST, port), timeout=20)
assert cmd(s, f, b'STOR ' + long).startswith(b'150')
d.sendall(b'long'); d.close()
print('long', reply(f)[:3])
"#
        ),
    );
    for verb in ["NLST", "LIST", "MLSD"] {
        assert!(out.contains(&format!("{verb} False")), "{out}");
    }
    assert!(out.contains("mode b'226'") && out.contains("long b'226'"), "{out}");
    assert_eq!(std::fs::read(srv.path("mode.txt")).unwrap(), b"half of it and the rest");
    let mode = std::fs::metadata(srv.path("mode.txt")).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o640, "the replaced file's mode");
    assert_eq!(std::fs::read(srv.path(&long)).unwrap(), b"long");
}

#[test]
fn temporary_files_an_earlier_run_left_are_swept_at_start() {
    let root_files = |root: &std::path::Path| {
        std::fs::create_dir(root.join("sub")).unwrap();
        for p in [".babelftp-4242-0.part", "sub/.babelftp-4242-7.part"] {
            let f = std::fs::File::create(root.join(p)).unwrap();
            f.set_modified(SystemTime::now() - Duration::from_secs(3600)).unwrap();
        }
        // Not ours: stays.
        std::fs::write(root.join(".babelftp-notes.txt"), b"x").unwrap();
        std::fs::write(root.join("sub/x.part"), b"x").unwrap();
    };
    let srv = start(|c| root_files(&c.root));
    wait_until(Duration::from_secs(10), "the temporary files are swept", || {
        (!srv.path(".babelftp-4242-0.part").exists() && !srv.path("sub/.babelftp-4242-7.part").exists()).then_some(())
    });
    assert!(srv.path(".babelftp-notes.txt").exists() && srv.path("sub/x.part").exists());
}

#[test]
fn every_transfer_has_an_xferlog_line_cut_ones_with_their_bytes() {
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("xferlog");
    let l2 = log.clone();
    let srv = start(move |c| c.xferlog = Some(l2));
    // Far more than loopback's socket buffers hold: the download is still
    // running when ABOR comes.
    random_file(&srv.path("big.bin"), 64 << 20);
    let out = py(
        &srv,
        r#"
s, f = bob()
# A download the client aborts after 1 MiB.
port = epsv(s, f)
d = socket.create_connection((HOST, port), timeout=20)
assert cmd(s, f, b'RETR big.bin').startswith(b'150')
got = 0
while got < (1 << 20):
    got += len(d.recv(65536))
s.sendall(b'ABOR\r\n')
d.close()
r = reply(f)
assert r.startswith(b'426'), r
r = reply(f)
print('abor', r[:3])
# An upload whose control connection dies.
port = epsv(s, f)
d = socket.create_connection((HOST, port), timeout=20)
assert cmd(s, f, b'STOR cut.bin').startswith(b'150')
d.sendall(b'u' * 300000)
time.sleep(0.3)
s.close()
time.sleep(0.3)
d.close()
# A complete one.
s, f = bob()
port = epsv(s, f)
d = socket.create_connection((HOST, port), timeout=20)
assert cmd(s, f, b'STOR whole.bin').startswith(b'150')
d.sendall(b'w' * 1000); d.close()
print('whole', reply(f)[:3])
"#,
    );
    // 426 then 226 when ABOR cuts the transfer; 426 then 225 when the
    // closed data connection ended it first.
    assert!(
        (out.contains("abor b'226'") || out.contains("abor b'225'")) && out.contains("whole b'226'"),
        "{out}"
    );
    let text = wait_until(Duration::from_secs(10), "three xferlog lines", || {
        let t = std::fs::read_to_string(&log).unwrap_or_default();
        (t.lines().count() >= 3).then_some(t)
    });
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split(' ').collect()).collect();
    let find = |name: &str| {
        lines
            .iter()
            .find(|f| f[8] == name)
            .unwrap_or_else(|| panic!("{name}: {text}"))
    };
    // current-time (5 fields), transfer-time, host, size, name, type, _, dir, …, completion.
    let retr = find("/big.bin");
    let bytes: u64 = retr[7].parse().unwrap();
    assert!((1 << 20..64 << 20).contains(&bytes), "{text}");
    assert_eq!((retr[11], *retr.last().unwrap()), ("o", "i"), "{text}");
    let cut = find("/cut.bin");
    assert_eq!(cut[7], "300000", "{text}");
    assert_eq!((cut[11], *cut.last().unwrap()), ("i", "i"), "{text}");
    let whole = find("/whole.bin");
    assert_eq!((whole[7], *whole.last().unwrap()), ("1000", "c"), "{text}");
    assert!(!srv.path("cut.bin").exists());
}

/// Issue 47: the end of a plain upload waits for nothing: its 226 comes
/// at once, whether or not the client says anything behind its data (the
/// `upload_end_wait`, set to a minute here, is not used). What the name
/// held is kept until the client shows it has read its 226: a client
/// whose control connection closes without reading it (a killed client
/// whose process was descheduled between its two closes: here, 300 ms
/// later) leaves the old file, or no file for a new name; one that reads
/// its 226 and closes without QUIT keeps its upload. Nothing temporary
/// stays behind.
#[test]
fn an_upload_is_answered_at_once_and_undone_when_its_client_never_reads_the_226() {
    let srv = start(|c| c.upload_end_wait = Duration::from_secs(60));
    std::fs::write(srv.path("kept.txt"), b"old contents").unwrap();
    std::fs::write(srv.path("read.txt"), b"old read").unwrap();
    let out = py(
        &srv,
        r#"
# Pipelined: NOOP right behind the data, as babelftp's client sends it.
s, f = bob()
send(s, f, b'piped.txt', b'piped contents')
s.sendall(b'NOOP\r\n')
print('piped', reply(f)[:3], reply(f)[:3])

# Quiet: the 226 at once, though the client says nothing more.
send(s, f, b'quiet.txt', b'quiet contents')
s.settimeout(5)
print('quiet', reply(f)[:3])

# Killed: the data FIN, then the control FIN 300 ms later, the 226 unread:
# a replaced file, then a new name.
k, kf = bob()
send(k, kf, b'kept.txt', b'NEW')
time.sleep(0.3)
kf.close(); k.close()
k2, k2f = bob()
send(k2, k2f, b'fresh.txt', b'half of it')
time.sleep(0.3)
k2f.close(); k2.close()

# The 226 read, then the connection closed without QUIT: it stands.
r, rf = bob()
send(r, rf, b'read.txt', b'read contents')
print('read', reply(rf)[:3])
rf.close(); r.close()
time.sleep(0.3)
print('noop', cmd(s, f, b'NOOP')[:3])
"#,
    );
    assert!(out.contains("piped b'226' b'200'"), "{out}");
    assert!(out.contains("quiet b'226'"), "{out}");
    assert!(out.contains("read b'226'"), "{out}");
    assert!(out.contains("noop b'200'"), "{out}");
    assert_eq!(std::fs::read(srv.path("piped.txt")).unwrap(), b"piped contents");
    assert_eq!(std::fs::read(srv.path("quiet.txt")).unwrap(), b"quiet contents");
    wait_until(Duration::from_secs(10), "the killed uploads are undone", || {
        (std::fs::read(srv.path("kept.txt")).ok()? == b"old contents" && !srv.path("fresh.txt").exists()).then_some(())
    });
    assert_eq!(std::fs::read(srv.path("read.txt")).unwrap(), b"read contents");
    wait_until(Duration::from_secs(10), "no temporary file is left", || {
        (!names(srv.root.path()).iter().any(|n| n.ends_with(".part"))).then_some(())
    });
}

/// Issue 47: two sessions of one user race on one name. A's upload is
/// answered and held; B's upload of the same name, read by B, replaces
/// it; then A closes without reading its 226. A's undo must not touch the
/// name (it holds B's file now), and nothing temporary is left.
#[test]
fn an_undo_never_takes_the_name_from_a_later_upload() {
    let srv = start(|_| {});
    std::fs::write(srv.path("race.txt"), b"first").unwrap();
    let out = py(
        &srv,
        r#"
a, af = bob()
b, bf = bob()
send(a, af, b'race.txt', b'from A')
time.sleep(0.2)
send(b, bf, b'race.txt', b'from B')
print('b', reply(bf)[:3])
af.close(); a.close()
time.sleep(0.3)
print('noop', cmd(b, bf, b'NOOP')[:3])
"#,
    );
    assert!(out.contains("b b'226'") && out.contains("noop b'200'"), "{out}");
    wait_until(Duration::from_secs(10), "no temporary file is left", || {
        (!names(srv.root.path()).iter().any(|n| n.ends_with(".part"))).then_some(())
    });
    assert_eq!(std::fs::read(srv.path("race.txt")).unwrap(), b"from B");
}

/// Issue 47: what an overwrite replaced is removed once the client shows
/// it read the 226, after the reply to its next command, and in any case
/// before QUIT's 221: a script that looks at the disk as soon as it has
/// its 221 finds no temporary file, a small replaced file or a large one
/// (unlinked on the blocking pool) alike.
#[test]
fn what_an_overwrite_replaced_is_gone_when_quit_is_answered() {
    let srv = start(|_| {});
    std::fs::write(srv.path("small.txt"), vec![b's'; 1024]).unwrap();
    std::fs::write(srv.path("big.bin"), vec![b'b'; 32 << 20]).unwrap();
    std::fs::write(srv.path("next.txt"), b"old next").unwrap();
    let out = store_and_look(
        &srv,
        r#"
upload(s, f, b'next.txt', b'new next')
print('noop', cmd(s, f, b'NOOP')[:3])
upload(s, f, b'small.txt', b'new small')
upload(s, f, b'big.bin', b'new big')
print('quit', cmd(s, f, b'QUIT')[:3], 'temps', temps('.'))
"#,
    );
    assert!(out.contains("noop b'200'"), "{out}");
    assert!(out.contains("quit b'221' temps []"), "{out}");
    assert_eq!(std::fs::read(srv.path("small.txt")).unwrap(), b"new small");
    assert_eq!(std::fs::read(srv.path("big.bin")).unwrap(), b"new big");
    assert_eq!(std::fs::read(srv.path("next.txt")).unwrap(), b"new next");
}

/// Issue 47: a run of overwrites in one folder reuses what the previous
/// one replaced as its temporary file (the replaced file's inode takes
/// the next upload, instead of a file made and another freed each time),
/// and that spare file is never in the way: a DELE then RMD of the
/// folder works at once, an unused spare is gone within seconds, and
/// none is left after QUIT. The old file survives a killed upload as
/// before (the faults suite's kill test).
#[test]
fn overwrites_in_a_row_reuse_the_replaced_file_and_leave_nothing_behind() {
    use std::os::unix::fs::MetadataExt;
    let srv = start(|_| {});
    std::fs::create_dir(srv.path("d")).unwrap();
    std::fs::create_dir(srv.path("e")).unwrap();
    for n in ["d/a.txt", "d/b.txt", "e/c.txt"] {
        std::fs::write(srv.path(n), format!("old {n}")).unwrap();
    }
    let old_a = std::fs::metadata(srv.path("d/a.txt")).unwrap().ino();
    let out = store_and_look(
        &srv,
        r#"
upload(s, f, b'd/a.txt', b'new a')
upload(s, f, b'd/b.txt', b'new b')
print('b', os.stat(os.path.join(ROOT, 'd/b.txt')).st_ino)
upload(s, f, b'e/c.txt', b'new c')
print('dele', cmd(s, f, b'DELE e/c.txt')[:3], 'rmd', cmd(s, f, b'RMD e')[:3])
upload(s, f, b'd/a.txt', b'newer a')
print('type', cmd(s, f, b'TYPE I')[:3])
time.sleep(2.5)
print('idle temps', temps('d'))
upload(s, f, b'd/b.txt', b'newer b')
print('quit', cmd(s, f, b'QUIT')[:3], 'temps', temps('d'))
"#,
    );
    // b's upload was written into the file a's upload replaced.
    assert!(out.contains(&format!("b {old_a}\n")), "old a.txt inode {old_a}: {out}");
    assert!(out.contains("dele b'250' rmd b'250'"), "{out}");
    assert!(out.contains("idle temps []"), "{out}");
    assert!(out.contains("quit b'221' temps []"), "{out}");
    assert_eq!(std::fs::read(srv.path("d/a.txt")).unwrap(), b"newer a");
    assert_eq!(std::fs::read(srv.path("d/b.txt")).unwrap(), b"newer b");
    assert!(!srv.path("e").exists());
}

/// A spare that is not the server's own (here, given to uid and gid 65534
/// after the overwrite that left it) is never written into: the next
/// upload gets a file of its own, owned by the server, and the foreign
/// one is removed. (The tests run as root, as CI does: the server's own
/// files are root's.)
#[test]
fn a_spare_owned_by_someone_else_is_not_reused() {
    use std::os::unix::fs::MetadataExt;
    let srv = start(|_| {});
    std::fs::create_dir(srv.path("d")).unwrap();
    for n in ["d/a.txt", "d/b.txt"] {
        std::fs::write(srv.path(n), format!("old {n}")).unwrap();
    }
    let out = store_and_look(
        &srv,
        r#"
upload(s, f, b'd/a.txt', b'new a')
spares = temps('d')
for n in spares:
    os.chown(os.path.join(ROOT, 'd', n), 65534, 65534)
print('spares', len(spares))
upload(s, f, b'd/b.txt', b'new b')
st = os.stat(os.path.join(ROOT, 'd/b.txt'))
print('b', st.st_ino, st.st_uid, st.st_gid)
print('quit', cmd(s, f, b'QUIT')[:3], 'temps', temps('d'))
"#,
    );
    assert!(out.contains("spares 1\n"), "{out}");
    let me = std::fs::metadata(srv.root.path()).unwrap();
    // Written into, b.txt would be 65534's.
    assert!(out.contains(&format!(" {} {}\n", me.uid(), me.gid())), "{out}");
    assert!(out.contains("quit b'221' temps []"), "{out}");
    assert_eq!(std::fs::read(srv.path("d/b.txt")).unwrap(), b"new b");
}
