//! The server driven by real clients over real sockets: Python's ftplib,
//! curl and lftp. Each test names what a user would observe.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

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
names = ['日本語.txt', 'Ελληνικά', 'русский файл', 'שלום.txt', 'العربية', 'ไทย', '한국어', '中文简体', 'emoji😀.png',
         'e\u0301te\u0301', 'Ünïcödé', 'हिन्दी', 'ქართული', 'Հայերեն', 'বাংলা', 'mixed עברית and English', '𠀋𠂢 ext-B']
for n in names:
    f.storbinary('STOR ' + n, io.BytesIO(n.encode()))
listed = set(f.nlst())
print('all-listed', all(n in listed for n in names))
ok = True
for n in names:
    b = io.BytesIO(); f.retrbinary('RETR ' + n, b.write)
    ok = ok and b.getvalue() == n.encode()
print('all-read', ok)
for n in names[1:]:
    f.rename(n, n + '-2')
print('all-renamed', set(f.nlst()) >= {n + '-2' for n in names[1:]})
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
    assert!(out.contains("all-renamed True"), "{out}");
    assert!(srv.path("𠀋𠂢 ext-B-2").is_file());
    assert!(srv.path("mixed עברית and English-2").is_file());
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
    std::fs::write(local.path().join("src/run.sh"), "#!/bin/sh\n").unwrap();
    let mode = |p: &std::path::Path, m: u32| {
        std::fs::set_permissions(p, std::os::unix::fs::PermissionsExt::from_mode(m)).unwrap()
    };
    mode(&local.path().join("src/a.bin"), 0o640);
    mode(&local.path().join("src/run.sh"), 0o755);
    // An old time, which lftp sets on the upload with MFMT (issue 25.19).
    let old = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    std::fs::File::options()
        .write(true)
        .open(local.path().join("src/a.bin"))
        .unwrap()
        .set_modified(old)
        .unwrap();
    let url = format!("ftp://bob:secret@127.0.0.1:{}", srv.port());
    let src = local.path().join("src");
    let (rc, out, err) = lftp(&url, &format!("mirror -R {} /up", src.display()));
    assert_eq!(rc, 0, "{out}{err}");
    assert_eq!(std::fs::read(srv.path("up/a.bin")).unwrap(), a);
    assert_eq!(
        std::fs::metadata(srv.path("up/a.bin")).unwrap().modified().unwrap(),
        old,
        "lftp's MFMT kept the local time"
    );
    // lftp sends SITE CHMOD with the local modes (issue 11).
    let remote_mode = |p: &str| {
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(srv.path(p)).unwrap().permissions()) & 0o777
    };
    assert_eq!((remote_mode("up/a.bin"), remote_mode("up/run.sh")), (0o640, 0o755));
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

#[test]
fn transcript_of_the_smaller_commands() {
    let srv = start(|_| {});
    std::fs::create_dir(srv.path("sub")).unwrap();
    let out = python(
        &srv,
        r#"
s = socket.create_connection((HOST, PORT))
fp = s.makefile('rb')
def cmd(line):
    if line is not None:
        s.sendall(line + b'\r\n')
    r = fp.readline()
    text = [r]
    while r[3:4] == b'-' or not r[:3].isdigit() or (len(text) > 1 and r[:4] != text[0][:3] + b' '):
        r = fp.readline(); text.append(r)
        if r[:3] == text[0][:3] and r[3:4] == b' ':
            break
    print((line or b'')[:20].decode(), '=>', b''.join(text).decode('utf-8', 'replace').replace('\r\n', ' | ').strip())
cmd(None)
cmd(b'SYST')
cmd(b'HELP')
cmd(b'STAT')
cmd(b'HOST localhost')
cmd(b'USER bob')
cmd(b'PASS secret')
cmd(b'HOST localhost')
cmd(b'ACCT x')
cmd(b'ALLO 100')
cmd(b'STRU F')
cmd(b'MODE S')
cmd(b'TYPE A N')
cmd(b'STAT /')
cmd(b'MLST readme.txt')
cmd(b'SIZE sub')
cmd(b'MDTM nothing')
cmd(b'OPTS UTF8 ON')
cmd(b'OPTS MLST type;size;')
cmd(b'MLST readme.txt')
cmd(b'REIN')
cmd(b'PWD')
cmd(b'QUIT')
"#,
    );
    let want = [
        "=> 220 ",
        "SYST => 215 UNIX Type: L8",
        "HELP => 214-",
        "STAT => 211-",
        "HOST localhost => 220 ",
        "USER bob => 331 ",
        "PASS secret => 230 ",
        "HOST localhost => 503 ",
        "ACCT x => 202 ",
        "ALLO 100 => 202 ",
        "STRU F => 200 ",
        "MODE S => 200 ",
        "TYPE A N => 200 ",
        "STAT / => 213-",
        "MLST readme.txt => 250-",
        "SIZE sub => 550 ",
        "MDTM nothing => 550 ",
        "OPTS UTF8 ON => 200 ",
        "OPTS MLST type;size; => 200 MLST OPTS type;size;",
        "MLST readme.txt => 250-",
        "REIN => 220 ",
        "PWD => 530 ",
        "QUIT => 221 ",
    ];
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), want.len(), "{out}");
    for (l, w) in lines.iter().zip(want) {
        assert!(l.trim_start().starts_with(w), "{l:?} should start with {w:?}\n{out}");
    }
    assert!(lines[13].contains("readme.txt") && lines[13].contains("sub"), "{out}");
    assert!(
        lines[14].contains(" type=file;size=20;modify=") && lines[14].contains(" /readme.txt |"),
        "{out}"
    );
    assert!(lines[19].contains(" type=file;size=20; /readme.txt |"), "{out}");
}

#[test]
fn ascii_mode_translates_line_ends_both_ways() {
    let srv = start(|_| {});
    std::fs::write(srv.path("unix.txt"), b"one\ntwo\n").unwrap();
    let out = python(
        &srv,
        r#"
f = ftplib.FTP()
f.connect(HOST, PORT)
f.login('bob', 'secret')
raw = []
f.voidcmd('TYPE A')
conn = f.transfercmd('RETR unix.txt')
data = b''
while True:
    b = conn.recv(65536)
    if not b: break
    data += b
conn.close(); f.voidresp()
print('wire', data)
f.storlines('STOR dos.txt', io.BytesIO(b'a\r\nb\r\n'))
f.quit()
"#,
    );
    assert!(out.contains(r"wire b'one\r\ntwo\r\n'"), "{out}");
    assert_eq!(std::fs::read(srv.path("dos.txt")).unwrap(), b"a\nb\n");
}

#[test]
fn passive_ports_range_and_foreign_data_connections_refused() {
    // A free port found now (never a fixed one): the range is that port
    // and the next few.
    let free = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (lo, hi) = (free, free.saturating_add(3));
    let srv = start(|c| c.passive_ports = Some(lo..=hi));
    let out = python(
        &srv,
        &r#"
f = ftplib.FTP()
f.connect(HOST, PORT)
f.login('bob', 'secret')
f.voidcmd('TYPE I')
host, port = f.makepasv()
print('in-range', LO <= port <= HI)
# a thief from another loopback address connects first
thief = socket.socket()
thief.bind(('127.0.0.2', 0))
thief.connect((host, port))
conn = f.transfercmd('RETR readme.txt')
data = conn.recv(100)
conn.close()
print(f.voidresp()[:3])
print('legit', data)
thief.settimeout(2)
try:
    print('thief', thief.recv(100))
except (socket.timeout, ConnectionResetError):
    print('thief nothing')
f.quit()
"#
        .replace("LO", &lo.to_string())
        .replace("HI", &hi.to_string()),
    );
    assert!(out.contains("in-range True"), "{out}");
    assert!(out.contains("legit b'hello from babelftp\\n'"), "{out}");
    assert!(out.contains("thief b''") || out.contains("thief nothing"), "{out}");
}

#[test]
fn idle_timeout_and_connection_limits_answer_421() {
    let srv = start(|c| {
        c.idle_timeout = std::time::Duration::from_millis(700);
        c.max_per_ip = 2;
    });
    let out = python(
        &srv,
        r#"
import time
a = socket.create_connection((HOST, PORT)); fa = a.makefile('rb'); print('a', fa.readline()[:3])
b = socket.create_connection((HOST, PORT)); fb = b.makefile('rb'); print('b', fb.readline()[:3])
c = socket.create_connection((HOST, PORT)); fc = c.makefile('rb'); print('c', fc.readline()[:3])
time.sleep(1.5)
print('a-idle', fa.readline()[:3])
d = socket.create_connection((HOST, PORT)); fd = d.makefile('rb'); print('d', fd.readline()[:3])
"#,
    );
    assert!(out.contains("a b'220'") && out.contains("b b'220'"), "{out}");
    assert!(out.contains("c b'421'"), "{out}");
    assert!(out.contains("a-idle b'421'"), "{out}");
    assert!(out.contains("d b'220'"), "{out}");
}

/// The idle deadline moves with every command: a client that sends NOOP
/// more often than the timeout stays, for longer than the timeout, and is
/// told 421 once it stops. (The session keeps one timer and moves it.)
#[test]
fn each_command_pushes_the_idle_deadline_back() {
    let srv = start(|c| c.idle_timeout = std::time::Duration::from_millis(700));
    let out = python(
        &srv,
        r#"
import time
a = socket.create_connection((HOST, PORT)); fa = a.makefile('rb'); print('greeting', fa.readline()[:3])
t0 = time.monotonic()
for i in range(6):
    time.sleep(0.3)
    a.sendall(b'NOOP\r\n'); print('noop', i, fa.readline()[:3])
print('alive-after', round(time.monotonic() - t0, 1))
t1 = time.monotonic()
line = fa.readline()
print('idle', line[:3], 'after', round(time.monotonic() - t1, 1))
"#,
    );
    assert!(out.contains("noop 5 b'200'"), "{out}");
    assert!(out.contains("idle b'421'"), "{out}");
    let after: f64 = out
        .rsplit("after ")
        .next()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(-1.0);
    assert!(
        (0.5..=3.0).contains(&after),
        "421 came {after} s after the last command\n{out}"
    );
}

#[test]
fn shutdown_lets_a_transfer_finish_then_says_421() {
    let mut srv = start(|_| {});
    random_file(&srv.path("big.bin"), 32 << 20);
    let addr = srv.addrs[0];
    let mut child = std::process::Command::new("python3")
        .arg("-c")
        .arg(format!(
            r#"
import ftplib, time, sys
f = ftplib.FTP()
f.connect('127.0.0.1', {})
f.login('bob', 'secret')
f.voidcmd('TYPE I')
conn = f.transfercmd('RETR big.bin')
print('started', flush=True)
time.sleep(1.0)
n = 0
while True:
    b = conn.recv(1 << 20)
    if not b: break
    n += len(b)
conn.close()
print('got', n)
print(f.getline()[:3])
print(f.getline()[:3])
"#,
            addr.port()
        ))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Shut down once the transfer is under way (not after a guessed delay).
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut first).unwrap();
    assert_eq!(first, "started\n");
    srv.begin_shutdown();
    let mut out = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut out).unwrap();
    let _ = child.wait();
    srv.join();
    assert!(out.contains(&format!("got {}", 32 << 20)), "{out}");
    assert!(out.contains("226\n421"), "{out}");
}

#[test]
fn stou_picks_a_unique_name_and_data_timeout_is_425() {
    let srv = start(|c| c.data_timeout = std::time::Duration::from_millis(500));
    std::fs::write(srv.path("report.txt"), b"first").unwrap();
    let out = python(
        &srv,
        r#"
f = ftplib.FTP()
f.connect(HOST, PORT)
f.login('bob', 'secret')
f.voidcmd('TYPE I')
conn, size = f.ntransfercmd('STOU report.txt')
conn.sendall(b'second'); conn.close()
print('stou-end', f.voidresp()[:3])
# PASV, then never connect: the server gives up with 425
f.makepasv()
f.putcmd('RETR report.txt')
print('retr', f.getline()[:3], f.getline()[:3])
print('after', f.sendcmd('NOOP')[:3])
f.quit()
"#,
    );
    assert!(out.contains("stou-end 226"), "{out}");
    assert!(out.contains("retr 150 425"), "{out}");
    assert!(out.contains("after 200"), "{out}");
    assert_eq!(std::fs::read(srv.path("report.txt")).unwrap(), b"first");
    assert_eq!(std::fs::read(srv.path("report.txt.1")).unwrap(), b"second");
}

/// SITE (issue 11): CHMOD for writers, HELP, a clear refusal of the rest;
/// HELP lists only commands that work here.
#[test]
fn site_chmod_and_help_list_only_what_works() {
    let srv = start(|_| {});
    std::fs::write(srv.path("f.txt"), b"x").unwrap();
    let out = python(
        &srv,
        r#"
f = ftplib.FTP()
f.connect(HOST, PORT, timeout=20)
help = f.sendcmd('HELP')
print('help ccc', 'CCC' in help, 'auth', ' AUTH' in help, 'site', 'SITE' in help)
f.login('anonymous', 'x')
try:
    f.sendcmd('SITE CHMOD 600 f.txt')
    print('anon chmod: accepted')
except ftplib.error_perm as e:
    print('anon chmod:', str(e)[:3])
f.quit()
f = ftplib.FTP()
f.connect(HOST, PORT, timeout=20)
f.login('bob', 'secret')
print('site help', f.sendcmd('SITE HELP').replace('\r\n', '|'))
print('chmod', f.sendcmd('SITE CHMOD 600 f.txt')[:3])
for bad in ('SITE CHMOD 999 f.txt', 'SITE CHMOD 600', 'SITE CHMOD u+x f.txt', 'SITE EXEC ls'):
    try:
        f.sendcmd(bad)
        print(bad, 'accepted')
    except ftplib.error_perm as e:
        print(bad, '->', str(e)[:3])
try:
    f.sendcmd('SITE CHMOD 644 missing.txt')
except ftplib.error_perm as e:
    print('missing ->', str(e)[:3])
f.quit()
"#,
    );
    assert!(out.contains("help ccc False auth False site True"), "{out}");
    assert!(out.contains("anon chmod: 550"), "{out}");
    assert!(out.contains("site help 214") && out.contains("CHMOD"), "{out}");
    assert!(out.contains("chmod 200"), "{out}");
    for bad in [
        "SITE CHMOD 999 f.txt -> 501",
        "SITE CHMOD 600 -> 501",
        "SITE CHMOD u+x f.txt -> 501",
        "SITE EXEC ls -> 504",
    ] {
        assert!(out.contains(bad), "{bad}: {out}");
    }
    assert!(out.contains("missing -> 550"), "{out}");
    let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(srv.path("f.txt")).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600);
}

/// MFMT (draft-somers-ftp-mfxx, issue 25.19): FEAT offers it; a writer
/// sets a file's time, which MDTM, MLSD and the disk then show; a bad
/// time is 501, a missing file, a directory and a read-only account 550.
#[test]
fn mfmt_sets_the_modification_time_of_a_file() {
    let srv = start(|_| {});
    std::fs::write(srv.path("f.txt"), b"x").unwrap();
    std::fs::write(srv.path("日本語.txt"), b"y").unwrap();
    std::fs::create_dir(srv.path("dir")).unwrap();
    let out = python(
        &srv,
        r#"
f = ftplib.FTP()
f.connect(HOST, PORT, timeout=20)
f.login('anonymous', 'x')
print('feat', [l.strip() for l in f.sendcmd('FEAT').splitlines()[1:-1]])
try:
    f.sendcmd('MFMT 20200102030405 f.txt')
    print('anon mfmt: accepted')
except ftplib.error_perm as e:
    print('anon mfmt:', str(e)[:3])
f.quit()
f = ftplib.FTP()
f.connect(HOST, PORT, timeout=20)
f.login('bob', 'secret')
print('mfmt', f.sendcmd('MFMT 20200102030405 f.txt'))
print('mdtm', f.sendcmd('MDTM f.txt'))
print('mlsd', dict(f.mlsd())['f.txt']['modify'])
print('utf8', f.sendcmd('MFMT 19991231235959.5 /dir/../日本語.txt'))
for bad in ('MFMT 20200230000000 f.txt', 'MFMT 2020010203040 f.txt', 'MFMT 20200102030405',
            'MFMT 20200102030405 missing.txt', 'MFMT 20200102030405 dir'):
    try:
        f.sendcmd(bad)
        print(bad, 'accepted')
    except ftplib.error_perm as e:
        print(bad, '->', str(e)[:3])
f.quit()
"#,
    );
    assert!(out.contains("'MFMT'"), "FEAT lists MFMT: {out}");
    assert!(out.contains("anon mfmt: 550"), "{out}");
    assert!(out.contains("mfmt 213 Modify=20200102030405; f.txt"), "{out}");
    assert!(out.contains("mdtm 213 20200102030405"), "{out}");
    assert!(out.contains("mlsd 20200102030405"), "{out}");
    assert!(
        out.contains("utf8 213 Modify=19991231235959; /dir/../日本語.txt"),
        "{out}"
    );
    for bad in [
        "MFMT 20200230000000 f.txt -> 501",
        "MFMT 2020010203040 f.txt -> 501",
        "MFMT 20200102030405 -> 501",
        "MFMT 20200102030405 missing.txt -> 550",
        "MFMT 20200102030405 dir -> 550",
    ] {
        assert!(out.contains(bad), "{bad}: {out}");
    }
    let mtime = |p: &str| {
        std::fs::metadata(srv.path(p))
            .unwrap()
            .modified()
            .unwrap()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
    };
    assert_eq!(mtime("f.txt"), 1_577_934_245, "2020-01-02 03:04:05 UTC on disk");
    assert_eq!(mtime("日本語.txt"), 946_684_799);
    assert_eq!(std::fs::read(srv.path("f.txt")).unwrap(), b"x", "contents untouched");
}

/// Issue 12: argon2 runs off the async workers, bounded, so a flood of
/// hashed-password logins does not hold up other sessions: with forty
/// verifications queued, a logged-in session's NOOP and NLST are answered
/// while most of the flood is still waiting for its 230.
#[test]
fn a_flood_of_hashed_logins_does_not_hold_up_other_sessions() {
    let hash = babelftp_server::auth::hash_password(b"alice-pw").unwrap();
    let conf = tempfile::tempdir().unwrap();
    let users = conf.path().join("users.toml");
    std::fs::write(
        &users,
        format!("[[user]]\nname = \"alice\"\npassword = \"{hash}\"\nhome = \"/\"\n"),
    )
    .unwrap();
    let srv = start(|c| {
        c.users = babelftp_server::config::load_users(&users).unwrap();
        c.max_per_ip = 64;
    });
    let out = python(
        &srv,
        r#"
import threading
N = 40
w = ftplib.FTP(); w.connect(HOST, PORT, timeout=120); w.login('alice', 'alice-pw')
sent = threading.Semaphore(0); done = []; lock = threading.Lock()
def one():
    released = False
    try:
        g = ftplib.FTP(); g.connect(HOST, PORT, timeout=300)
        g.sendcmd('USER alice')
        g.putcmd('PASS alice-pw')
        sent.release(); released = True
        r = g.getresp()
        g.close()
    except Exception as e:
        r = 'err ' + repr(e)
        if not released: sent.release()
    with lock:
        done.append(r[:3])
ts = [threading.Thread(target=one) for _ in range(N)]
for t in ts: t.start()
for _ in range(N): sent.acquire()
r = w.sendcmd('NOOP')
with lock: at_noop = len(done)
names = w.nlst()
with lock: at_nlst = len(done)
for t in ts: t.join()
print('noop', r[:3], 'logins done at noop', at_noop, 'at nlst', at_nlst, 'of', N)
print('all', sorted(set(done)), len(done))
"#,
    );
    let num = |key: &str| -> usize {
        let i = out.find(key).unwrap_or_else(|| panic!("{out}")) + key.len();
        out[i..].split_whitespace().next().unwrap().parse().unwrap()
    };
    eprintln!("{out}");
    assert!(out.contains("noop 200"), "{out}");
    assert!(out.contains("all ['230'] 40"), "every login succeeds: {out}");
    assert!(
        num("at noop ") < 40 && num("at nlst ") < 40,
        "NOOP/NLST waited for the whole flood: {out}"
    );
}
