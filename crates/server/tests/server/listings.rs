//! Directory listings as clients see them: small directories sorted, large
//! ones streamed whole (every entry, exact bytes, no upload temp file), NLST
//! names only, and ABOR in the middle of a streamed listing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{python, start, PY_RAW_FTP};

/// 10,000 entries in four scripts, more than the server gathers before it
/// starts to stream, with an upload's temporary file among them.
fn fill_large(dir: &std::path::Path) {
    std::fs::create_dir(dir).unwrap();
    for i in 0..2500 {
        for stem in ["名前", "Игра", "كتاب", "plain"] {
            std::fs::write(dir.join(format!("{stem}-{i:05}.txt")), format!("{i}")).unwrap();
        }
    }
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::remove_file(dir.join("plain-00000.txt")).unwrap();
    std::fs::write(dir.join(".babelftp-1-1.part"), b"in progress").unwrap();
}

#[test]
fn large_directories_stream_every_entry_and_small_ones_come_sorted() {
    let srv = start(|_| {});
    fill_large(&srv.path("big"));
    for n in ["c", "a", "B", "é", "b"] {
        std::fs::write(srv.path(n), b"x").unwrap();
    }
    let out = python(
        &srv,
        r#"
f = ftplib.FTP()
f.connect(HOST, PORT)
f.login('bob', 'secret')
names = f.nlst('big')
expect = {f'{s}-{i:05}.txt' for i in range(2500) for s in ('名前', 'Игра', 'كتاب', 'plain')}
expect.discard('plain-00000.txt'); expect.add('sub')
print('nlst', len(names), len(set(names)), set(n.rsplit('/', 1)[-1] for n in names) == expect)
lines = []
f.retrlines('LIST big', lines.append)
print('list', len(lines), all(l.endswith(tuple(expect)) for l in lines),
      sum(1 for l in lines if l.startswith('d')), any('.babelftp' in l for l in lines))
facts = list(f.mlsd('big'))
sizes = {n: int(fa['size']) for n, fa in facts if fa['type'] == 'file'}
print('mlsd', len(facts), sizes['Игра-01234.txt'], sizes['名前-02499.txt'],
      [fa['type'] for n, fa in facts if n == 'sub'])
mlsd_unique = [fa['unique'] for n, fa in facts if n == 'Игра-01234.txt'][0]
mlst = f.sendcmd('MLST big/Игра-01234.txt').splitlines()[1]
print('unique same', ('unique=' + mlsd_unique + ';').lower() in mlst.lower(), 'modify=' in mlst)
print('small', f.nlst())
f.quit()
"#,
    );
    assert!(out.contains("nlst 10000 10000 True"), "{out}");
    assert!(out.contains("list 10000 True 1 False"), "{out}");
    // sizes are the files' own: "1234" and "2499"
    assert!(out.contains("mlsd 10000 4 4 ['dir']"), "{out}");
    // MLSD (statat on the directory) and MLST (a path) agree on `unique`.
    assert!(out.contains("unique same True True"), "{out}");
    assert!(
        out.contains("small ['B', 'a', 'b', 'big', 'c', 'readme.txt', 'é']"),
        "{out}"
    );
}

#[test]
fn abor_in_the_middle_of_a_streamed_listing_keeps_the_session() {
    let srv = start(|_| {});
    // 40,000 names of 200 octets: a LIST of ~10 MB, more than the socket
    // buffers of both ends hold while the client does not read.
    let dir = srv.path("huge");
    std::fs::create_dir(&dir).unwrap();
    for i in 0..40_000 {
        std::fs::write(dir.join(format!("{i:06}-{}", "ж".repeat(97))), b"").unwrap();
    }
    let out = python(
        &srv,
        &format!(
            "{PY_RAW_FTP}{}",
            r#"
s, f = connect()
login(s, f)
d = pasv(s, f)
d.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
r = cmd(s, f, b'LIST huge')
print('start', r[:3])
first = d.recv(100)
print('first', first[:10], b'\xd0\xb6' in d.recv(4096))
time.sleep(0.5)  # the server is now blocked on a full data connection
r1 = cmd(s, f, b'ABOR')
r2 = r1 if r1.startswith(b'226') else reply(f)
d.close()
print('abor', r1[:3], r2[:3])
print('noop', cmd(s, f, b'NOOP')[:3])
d = pasv(s, f)
print('nlst', cmd(s, f, b'NLST huge')[:3])
data = b''
while True:
    b = d.recv(1 << 20)
    if not b:
        break
    data += b
d.close()
print('done', reply(f)[:3], data.count(b'\r\n'))
"#
        ),
    );
    assert!(out.contains("start b'150'"), "{out}");
    assert!(out.contains("first b'-rw-r--r--' True"), "{out}");
    assert!(out.contains("abor b'426' b'226'"), "{out}");
    assert!(out.contains("noop b'200'"), "{out}");
    assert!(out.contains("nlst b'150'"), "{out}");
    assert!(out.contains("done b'226' 40000"), "{out}");
}
