//! The server driven by real clients over real sockets: Python's ftplib,
//! curl and lftp. Each test names what a user would observe.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{curl, lftp, python, python_at, random_file, start};

#[test]
fn ftplib_anonymous_lists_and_reads_but_cannot_write() {
    let srv = start(|_| {});
    let out = python(
        &srv,
        r#"
f = ftplib.FTP()
print(f.connect(HOST, PORT))
print(f.login())
print(f.nlst())
lines = []
f.retrlines('LIST', lines.append)
print(lines)
print(sorted(n for n, _ in f.mlsd()))
buf = io.BytesIO()
f.retrbinary('RETR readme.txt', buf.write)
print(buf.getvalue())
for cmd in ['STOR x', 'MKD d', 'DELE readme.txt', 'RNFR readme.txt', 'RMD /']:
    try:
        if cmd.startswith('STOR'):
            f.storbinary(cmd, io.BytesIO(b'x'))
        else:
            f.sendcmd(cmd)
        print('ALLOWED', cmd)
    except ftplib.error_perm as e:
        print('denied', str(e)[:3])
f.quit()
"#,
    );
    assert!(out.starts_with("220 "), "{out}");
    assert!(out.contains("230 "), "{out}");
    assert!(out.contains("['readme.txt']"), "{out}");
    assert!(out.contains("-rw-r--r--") && out.contains(" readme.txt'"), "{out}");
    assert!(out.contains("b'hello from babelftp\\n'"), "{out}");
    assert_eq!(out.matches("denied 550").count(), 5, "{out}");
    assert!(!out.contains("ALLOWED"), "{out}");
    assert!(!srv.path("x").exists() && !srv.path("d").exists() && srv.path("readme.txt").exists());
}

#[test]
fn ftplib_user_puts_gets_appends_resumes_renames_deletes() {
    let srv = start(|_| {});
    let data = random_file(&srv.path("src.bin"), 3 * 1024 * 1024 + 17);
    let out = python(
        &srv,
        r#"
f = ftplib.FTP()
f.connect(HOST, PORT)
f.login('bob', 'secret')
f.voidcmd('TYPE I')
src = open(os.path.join(os.environ['ROOT'], 'src.bin'), 'rb').read()
f.storbinary('STOR up.bin', io.BytesIO(src))
print('size', f.size('up.bin') == len(src))
got = io.BytesIO(); f.retrbinary('RETR up.bin', got.write)
print('get', got.getvalue() == src)
# resume a download from the middle
part = io.BytesIO(); f.retrbinary('RETR up.bin', part.write, rest=1000)
print('rest-get', part.getvalue() == src[1000:])
# resume an upload: first half, then REST + STOR of the rest
half = len(src) // 2
f.storbinary('STOR resumed.bin', io.BytesIO(src[:half]))
f.storbinary('STOR resumed.bin', io.BytesIO(src[half:]), rest=half)
print('rest-put', open(os.path.join(os.environ['ROOT'], 'resumed.bin'), 'rb').read() == src)
f.storbinary('APPE log.txt', io.BytesIO(b'one\n'))
f.storbinary('APPE log.txt', io.BytesIO(b'two\n'))
print('appe', open(os.path.join(os.environ['ROOT'], 'log.txt'), 'rb').read())
print(f.mkd('dir'))
print(f.cwd('dir'))
print(f.pwd())
print(f.sendcmd('CDUP'))
print(f.rename('up.bin', 'dir/moved.bin'))
print('moved', f.nlst('dir'))
print(f.delete('dir/moved.bin'))
print(f.rmd('dir'))
print(f.sendcmd('MDTM log.txt')[:4])
f.quit()
"#
        .replace(
            "os.environ['ROOT']",
            &format!("{:?}", srv.root.path().to_str().unwrap()),
        )
        .as_str(),
    );
    for want in [
        "size True",
        "get True",
        "rest-get True",
        "rest-put True",
        "appe b'one\\ntwo\\n'",
    ] {
        assert!(out.contains(want), "missing {want}: {out}");
    }
    // ftplib's mkd() returns the name parsed out of the 257 reply.
    assert!(out.contains("\n/dir\n250 Directory changed.\n/dir\n"), "{out}");
    assert!(
        out.contains("moved ['dir/moved.bin']") || out.contains("moved ['moved.bin']"),
        "{out}"
    );
    assert!(out.contains("213 "), "{out}");
    assert!(!srv.path("dir").exists());
    assert_eq!(std::fs::read(srv.path("resumed.bin")).unwrap(), data);
}

#[test]
fn utf8_names_spaces_and_cr_survive_a_round_trip() {
    let srv = start(|_| {});
    let out = python(
        &srv,
        r#"
f = ftplib.FTP(encoding='utf-8')
f.connect(HOST, PORT)
f.login('bob', 'secret')
names = ['日本語.txt', 'Ελληνικά', 'русский файл', 'שלום.txt', 'العربية', 'ไทย', '한국어', '中文简体', 'emoji😀.png', 'e\u0301te\u0301', 'Ünïcödé']
for n in names:
    f.storbinary('STOR ' + n, io.BytesIO(n.encode()))
listed = set(f.nlst())
print('all-listed', all(n in listed for n in names))
ok = True
for n in names:
    b = io.BytesIO(); f.retrbinary('RETR ' + n, b.write)
    ok = ok and b.getvalue() == n.encode()
print('all-read', ok)
print(f.rename('日本語.txt', '日本語-改名.txt'))
# one SP after the verb: "MKD  x" makes " x"
print(f.sendcmd('MKD  x'))
f.quit()
# A CR inside a name travels as CR NUL. ftplib cannot express it (its text
# reader splits lines at a bare CR), so speak the protocol by hand.
s = socket.create_connection((HOST, PORT))
def rd():
    data = b''
    while not data.endswith(b'\r\n'):
        data += s.recv(1)
    return data
rd()
for line in [b'USER bob', b'PASS secret', b'MKD a\r\x00b', b'RNFR a\r\x00b', b'RNTO c\r\x00d', b'QUIT']:
    s.sendall(line + b'\r\n')
    print(repr(rd()))
"#,
    );
    assert!(out.contains("all-listed True"), "{out}");
    assert!(out.contains("all-read True"), "{out}");
    assert!(srv.path("日本語-改名.txt").exists());
    assert!(srv.path(" x").is_dir(), "{out}");
    assert!(srv.path("c\rd").is_dir(), "{out}");
    assert!(out.contains("257 \"/ x\" created"), "{out}");
    // The 257 reply pads the CR with NUL on the wire (RFC 2640 3.1).
    assert!(out.contains(r#"b'257 "/a\r\x00b" created.\r\n'"#), "{out}");
    assert!(out.contains("b'350 ") && out.contains("b'250 Rename"), "{out}");
}

#[test]
fn traversal_attempts_stay_inside_the_root() {
    let srv = start(|_| {});
    let outside = srv
        .root
        .path()
        .parent()
        .unwrap()
        .join(format!("outside-{}", std::process::id()));
    std::fs::write(&outside, b"secret").unwrap();
    std::os::unix::fs::symlink(&outside, srv.path("link-out")).unwrap();
    std::os::unix::fs::symlink("/", srv.path("slash")).unwrap();
    let name = outside.file_name().unwrap().to_str().unwrap().to_owned();
    let out = python(
        &srv,
        &format!(
            r#"
f = ftplib.FTP(encoding='latin-1')
f.connect(HOST, PORT)
f.login('bob', 'secret')
for p in ['../{name}', '../../../../../../{name}', '/../{name}', 'link-out', 'slash/etc/passwd', '..\xc0\xae/{name}']:
    try:
        f.retrbinary('RETR ' + p, lambda b: print('LEAK', b))
    except ftplib.error_perm as e:
        print('refused', str(e)[:3])
print(f.cwd('../../..'))
print(f.pwd())
try:
    f.cwd('slash')
    print('entered', f.nlst())
except ftplib.error_perm as e:
    print('refused', str(e)[:3])
f.quit()
"#
        ),
    );
    std::fs::remove_file(&outside).unwrap();
    assert!(!out.contains("LEAK"), "{out}");
    assert!(!out.contains("entered"), "{out}");
    assert_eq!(out.matches("refused 550").count(), 7, "{out}");
    assert!(out.contains("\n/\n"), "{out}");
}

#[test]
fn aborted_upload_leaves_the_old_file_intact_and_abor_answers_426_226() {
    let srv = start(|_| {});
    std::fs::write(srv.path("keep.txt"), b"precious").unwrap();
    random_file(&srv.path("big.bin"), 64 * 1024 * 1024);
    let out = python(
        &srv,
        r#"
f = ftplib.FTP()
f.connect(HOST, PORT)
f.login('bob', 'secret')
f.voidcmd('TYPE I')
# an upload over keep.txt, aborted half way
conn = f.transfercmd('STOR keep.txt')
conn.sendall(b'x' * 100000)
f.sock.sendall(b'ABOR\r\n')
# keep the data connection open until the server has answered, so the
# upload cannot look complete (stream mode ends a file at EOF)
r1 = f.getline(); r2 = f.getline()
conn.close()
print('stor-abort', r1[:3], r2[:3])
# a download of a big file, aborted after the first chunk
conn = f.transfercmd('RETR big.bin')
conn.recv(65536)
f.sock.sendall(b'ABOR\r\n')
r1 = f.getline(); r2 = f.getline()
conn.close()
print('retr-abort', r1[:3], r2[:3])
print('after', f.sendcmd('NOOP'))
print('listing', f.nlst())
f.quit()
"#,
    );
    assert!(out.contains("stor-abort 426 226"), "{out}");
    assert!(out.contains("retr-abort 426 226"), "{out}");
    assert!(out.contains("after 200"), "{out}");
    assert_eq!(std::fs::read(srv.path("keep.txt")).unwrap(), b"precious");
    // No temporary file is left behind.
    assert!(out.contains("listing ['big.bin', 'keep.txt', 'readme.txt']"), "{out}");
}

#[test]
fn curl_lists_gets_puts_passive_active_and_ipv6() {
    let srv = start(|_| {});
    let base = format!("ftp://bob:secret@127.0.0.1:{}/", srv.port());
    let (rc, list) = curl(&[&base]);
    assert_eq!(rc, 0);
    assert!(String::from_utf8_lossy(&list).contains("readme.txt"));
    let (rc, body) = curl(&[&format!("{base}readme.txt")]);
    assert_eq!((rc, body.as_slice()), (0, &b"hello from babelftp\n"[..]));
    // PASV instead of EPSV
    let (rc, body) = curl(&["--disable-epsv", &format!("{base}readme.txt")]);
    assert_eq!((rc, body.as_slice()), (0, &b"hello from babelftp\n"[..]));
    // Active mode: PORT/EPRT back to curl.
    let (rc, body) = curl(&["-P", "127.0.0.1", &format!("{base}readme.txt")]);
    assert_eq!((rc, body.as_slice()), (0, &b"hello from babelftp\n"[..]));
    let (rc, body) = curl(&["-P", "127.0.0.1", "--disable-eprt", &format!("{base}readme.txt")]);
    assert_eq!((rc, body.as_slice()), (0, &b"hello from babelftp\n"[..]));
    // Upload with a UTF-8 name.
    let src = srv.root.path().join("local.bin");
    let data = random_file(&src, 200_000);
    let (rc, _) = curl(&["-T", src.to_str().unwrap(), &format!("{base}%E6%97%A5%E6%9C%AC.bin")]);
    assert_eq!(rc, 0);
    assert_eq!(std::fs::read(srv.path("日本.bin")).unwrap(), data);
    // Anonymous may not upload: curl reports the 550 (exit 25).
    let (rc, _) = curl(&[
        "-T",
        src.to_str().unwrap(),
        &format!("ftp://127.0.0.1:{}/anon.bin", srv.port()),
    ]);
    assert_eq!(rc, 25);
    assert!(!srv.path("anon.bin").exists());
    {
        let v6 = srv
            .addrs
            .iter()
            .find(|a| a.is_ipv6())
            .expect("IPv6 loopback ([::1]) is required");
        let url = format!("ftp://bob:secret@[::1]:{}/readme.txt", v6.port());
        let (rc, body) = curl(&[&url]);
        assert_eq!((rc, body.as_slice()), (0, &b"hello from babelftp\n"[..]));
        let (rc, body) = curl(&["-P", "::1", &url]);
        assert_eq!((rc, body.as_slice()), (0, &b"hello from babelftp\n"[..]));
    }
}

#[test]
fn lftp_mirrors_both_ways_and_resumes() {
    let srv = start(|_| {});
    let local = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(local.path().join("src/sub")).unwrap();
    let a = random_file(&local.path().join("src/a.bin"), 1_000_000);
    std::fs::write(local.path().join("src/sub/тест.txt"), "привет\n").unwrap();
    let url = format!("ftp://bob:secret@127.0.0.1:{}", srv.port());
    let src = local.path().join("src");
    let (rc, out, err) = lftp(&url, &format!("mirror -R {} /up", src.display()));
    assert_eq!(rc, 0, "{out}{err}");
    assert_eq!(std::fs::read(srv.path("up/a.bin")).unwrap(), a);
    assert_eq!(
        std::fs::read_to_string(srv.path("up/sub/тест.txt")).unwrap(),
        "привет\n"
    );
    let dst = local.path().join("down");
    let (rc, out, err) = lftp(&url, &format!("mirror /up {}", dst.display()));
    assert_eq!(rc, 0, "{out}{err}");
    assert_eq!(std::fs::read(dst.join("a.bin")).unwrap(), a);
    assert_eq!(std::fs::read_to_string(dst.join("sub/тест.txt")).unwrap(), "привет\n");
    // Resume a partial download: lftp `get -c` continues with REST.
    let partial = local.path().join("partial.bin");
    std::fs::write(&partial, &a[..300_000]).unwrap();
    let (rc, out, err) = lftp(&url, &format!("get -c /up/a.bin -o {}", partial.display()));
    assert_eq!(rc, 0, "{out}{err}");
    assert_eq!(std::fs::read(&partial).unwrap(), a);
    // lftp with a passive-off session (PORT) lists too.
    let (rc, out, err) = lftp(&url, "set ftp:passive-mode off; cls -1 /up");
    assert_eq!(rc, 0, "{out}{err}");
    assert!(out.contains("a.bin") && out.contains("sub"), "{out}");
}

#[test]
fn ipv6_control_connection_with_ftplib() {
    let srv = start(|_| {});
    let v6 = srv
        .addrs
        .iter()
        .find(|a| a.is_ipv6())
        .copied()
        .expect("IPv6 loopback ([::1]) is required");
    let out = python_at(
        &srv,
        &v6,
        r#"
f = ftplib.FTP()
f.connect(HOST, PORT)
f.login()
print(f.sendcmd('EPSV'))
print(f.nlst())
try:
    f.sendcmd('PASV')
except ftplib.error_perm as e:
    print('pasv', str(e)[:3])
f.quit()
"#,
    );
    assert!(out.contains("229 "), "{out}");
    assert!(out.contains("['readme.txt']"), "{out}");
}

#[test]
fn protocol_errors_get_clear_replies() {
    let srv = start(|_| {});
    let out = python(
        &srv,
        r#"
s = socket.create_connection((HOST, PORT))
fp = s.makefile('rb')
def cmd(line):
    s.sendall(line + b'\r\n')
    r = fp.readline()
    while r[3:4] == b'-':
        r = fp.readline()
    print(line[:20], r.decode('utf-8', 'replace').strip())
fp.readline()
cmd(b'LIST')
cmd(b'XYZZY')
cmd(b'\x01\x02')
cmd(b'USER bob')
cmd(b'PASS wrong')
cmd(b'USER bob')
cmd(b'PASS secret')
cmd(b'RETR a\x00b')
cmd(b'TYPE E')
cmd(b'EPRT |3|x|1|')
cmd(b'PORT 10,0,0,1,4,1')
cmd(b'PORT 127,0,0,1,0,21')
cmd(b'RNTO x')
cmd(b'MODE B')
cmd(b'LANG zz')
cmd(b'LANG fr_FR')
cmd(b'STOR ' + b'x' * 5000)
cmd(b'NOOP')
cmd(b'QUIT')
"#,
    );
    let codes: Vec<&str> = out
        .lines()
        .map(|l| l.rsplit_once("' ").map(|x| &x.1[..3]).unwrap_or("?"))
        .collect();
    assert_eq!(
        codes,
        [
            "530", "502", "500", "331", "530", "331", "230", "501", "504", "522", "504", "504", "503", "504", "504",
            "501", "500", "200", "221"
        ],
        "{out}"
    );
}

fn sha256(path: &std::path::Path) -> String {
    let out = std::process::Command::new("sha256sum").arg(path).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string()
}

/// 1 GiB both ways with curl; the checksums match. RETR goes through
/// sendfile(2), STOR through the buffered pump.
#[test]
fn one_gib_round_trip_keeps_the_checksum() {
    use std::io::Write;
    let srv = start(|_| {});
    let big = srv.path("big.bin");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&big).unwrap());
        let block = random_file(&srv.path("block.tmp"), 1 << 20);
        for i in 0u32..1024 {
            let mut b = block.clone();
            b[..4].copy_from_slice(&i.to_le_bytes());
            f.write_all(&b).unwrap();
        }
    }
    std::fs::remove_file(srv.path("block.tmp")).unwrap();
    let want = sha256(&big);
    let local = tempfile::tempdir().unwrap();
    let down = local.path().join("down.bin");
    let base = format!("ftp://bob:secret@127.0.0.1:{}/", srv.port());
    let (rc, _) = curl(&["-o", down.to_str().unwrap(), &format!("{base}big.bin")]);
    assert_eq!(rc, 0);
    assert_eq!(std::fs::metadata(&down).unwrap().len(), 1 << 30);
    assert_eq!(sha256(&down), want);
    std::fs::remove_file(&big).unwrap();
    let (rc, _) = curl(&["-T", down.to_str().unwrap(), &format!("{base}up.bin")]);
    assert_eq!(rc, 0);
    assert_eq!(sha256(&srv.path("up.bin")), want);
}

/// A users file with argon2 hashes, homes and per-user write permission;
/// every transfer lands in the xferlog.
#[test]
fn users_file_homes_permissions_and_xferlog() {
    let hash = babelftp_server::auth::hash_password(b"alice-pw").unwrap();
    let conf = tempfile::tempdir().unwrap();
    let users = conf.path().join("users.toml");
    std::fs::write(
        &users,
        format!(
            "[[user]]\nname = \"alice\"\npassword = \"{hash}\"\nhome = \"/home/alice\"\nwrite = true\n\n\
             [[user]]\nname = \"reader\"\npassword = \"{hash}\"\nhome = \"/\"\n"
        ),
    )
    .unwrap();
    let log = conf.path().join("xferlog");
    let srv = start(|c| {
        c.users = babelftp_server::config::load_users(&users).unwrap();
        c.xferlog = Some(log.clone());
    });
    std::fs::create_dir_all(srv.path("home/alice")).unwrap();
    std::fs::write(srv.path("top-secret.txt"), b"not for alice").unwrap();
    let out = python(
        &srv,
        r#"
f = ftplib.FTP()
f.connect(HOST, PORT)
try:
    f.login('alice', 'wrong')
except ftplib.error_perm as e:
    print('bad-password', str(e)[:3])
f = ftplib.FTP()
f.connect(HOST, PORT)
f.login('alice', 'alice-pw')
print('pwd', f.pwd())
f.storbinary('STOR mine.txt', io.BytesIO(b'alice data'))
print('alice sees', f.nlst())
try:
    f.retrbinary('RETR ../top-secret.txt', print)
except ftplib.error_perm as e:
    print('escape', str(e)[:3])
f.quit()
g = ftplib.FTP()
g.connect(HOST, PORT)
g.login('reader', 'alice-pw')
b = io.BytesIO(); g.retrbinary('RETR home/alice/mine.txt', b.write)
print('reader got', b.getvalue())
try:
    g.storbinary('STOR x.txt', io.BytesIO(b'x'))
except ftplib.error_perm as e:
    print('reader write', str(e)[:3])
g.quit()
"#,
    );
    assert!(out.contains("bad-password 530"), "{out}");
    assert!(out.contains("pwd /\n"), "{out}");
    assert!(out.contains("alice sees ['mine.txt']"), "{out}");
    assert!(out.contains("escape 550"), "{out}");
    assert!(out.contains("reader got b'alice data'"), "{out}");
    assert!(out.contains("reader write 550"), "{out}");
    assert_eq!(std::fs::read(srv.path("home/alice/mine.txt")).unwrap(), b"alice data");
    drop(srv);
    let log = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 2, "{log}");
    assert!(
        lines[0].ends_with(" 127.0.0.1 10 /mine.txt b _ i r alice ftp 0 * c"),
        "{log}"
    );
    assert!(
        lines[1].ends_with(" 127.0.0.1 10 /home/alice/mine.txt b _ o r reader ftp 0 * c"),
        "{log}"
    );
}
