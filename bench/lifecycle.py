#!/usr/bin/env python3
"""The session lifecycle bugs of issue 9, checked against any babelftp binary:
a rerunnable before/after comparison (the tests in crates/server/tests/
lifecycle.rs check the current server in-process).

Usage: bench/lifecycle.py BIN [BIN ...]   e.g. an old release build and
target/release/babelftp. Each case starts a fresh server on loopback.
Case 5 uses the default stall timeout (60 s) and so takes a minute.
"""
import socket, struct, subprocess, sys, time, os, tempfile, ftplib
def free_port():
    s = socket.socket(); s.bind(('127.0.0.1', 0)); p = s.getsockname()[1]; s.close(); return p
def start(BIN, extra=()):
    root = tempfile.mkdtemp()
    with open(os.path.join(root, 'big.bin'), 'wb') as f: f.write(os.urandom(64 << 20))
    with open(os.path.join(root, 'keep.bin'), 'wb') as f: f.write(b'old data')
    port = free_port()
    p = subprocess.Popen([BIN, 'serve', '--root', root, '--listen', f'127.0.0.1:{port}', '--user', 'bob:secret', *extra], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try: socket.create_connection(('127.0.0.1', port)).close(); break
        except OSError: time.sleep(0.05)
    return p, root, port
def connect(port):
    s = socket.create_connection(('127.0.0.1', port), timeout=5); f = s.makefile('rb'); f.readline(); return s, f
def readline(f):
    l = f.readline()
    while l.endswith(b'\r\x00\n'): l += f.readline()
    return l
def cmd(s, f, l):
    s.sendall(l + b'\r\n'); r = readline(f)
    if r[3:4] == b'-':
        while True:
            x = readline(f)
            if x[:3] == r[:3] and x[3:4] == b' ': break
    return r
def login(s, f): cmd(s, f, b'USER bob'); cmd(s, f, b'PASS secret'); cmd(s, f, b'TYPE I')
def epsv(s, f):
    r = cmd(s, f, b'EPSV'); return socket.create_connection(('127.0.0.1', int(r.split(b'|||')[1].split(b'|')[0])), timeout=5)
CASES = []
def case(name):
    def deco(fn):
        CASES.append((name, fn))
        return fn
    return deco
@case('1 RFC 2640 CR NUL LF name (one command)')
def _(port, root):
    s, f = connect(port); login(s, f)
    r = cmd(s, f, b'MKD foo\r\x00\nboo.bar')
    n = cmd(s, f, b'NOOP')
    return r[:3] == b'257' and n[:3] == b'200' and os.path.isdir(os.path.join(root, 'foo\r\nboo.bar'))
@case('2 ftplib abort() (urgent ABOR) during RETR')
def _(port, root):
    ftp = ftplib.FTP(); ftp.connect('127.0.0.1', port, timeout=5); ftp.login('bob', 'secret'); ftp.voidcmd('TYPE I')
    c = ftp.transfercmd('RETR big.bin'); c.recv(65536)
    r = ftp.abort()
    if r.startswith('426'): ftp.getresp()
    c.close(); return ftp.voidcmd('NOOP').startswith('200')
@case('3 1 MiB line without CRLF gets 500')
def _(port, root):
    s, f = connect(port); s.sendall(b'STOR ' + b'x' * (1 << 20)); return f.readline()[:3] == b'500'
@case('4 control reset mid-STOR keeps the old file')
def _(port, root):
    s, f = connect(port); login(s, f); d = epsv(s, f); cmd(s, f, b'STOR keep.bin'); d.sendall(b'n' * (1 << 20))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0)); f.close(); s.close(); time.sleep(0.2)
    try: d.sendall(b'n' * 4096); d.close()
    except OSError: pass
    time.sleep(0.5); return open(os.path.join(root, 'keep.bin'), 'rb').read() == b'old data'
@case('5 stalled download cut (426) within 90 s (default settings)')
def _(port, root):
    s, f = connect(port); login(s, f); s.settimeout(90); d = epsv(s, f); cmd(s, f, b'RETR big.bin')
    return readline(f)[:3] == b'426'
@case('6 QUIT during STOR: 226, 221, file whole')
def _(port, root):
    s, f = connect(port); login(s, f); d = epsv(s, f); cmd(s, f, b'STOR q.bin'); d.sendall(b'q' * 100000)
    s.sendall(b'QUIT\r\n'); time.sleep(0.2); d.close()
    a, b = readline(f)[:3], readline(f)[:3]
    time.sleep(0.2)
    return (a, b) == (b'226', b'221') and os.path.getsize(os.path.join(root, 'q.bin')) == 100000
@case('7 0xFF in a 257 reply doubled (IAC IAC)')
def _(port, root):
    s, f = connect(port); login(s, f); r = cmd(s, f, b'MKD \xff\xffa'); return b'\xff\xffa' in r
def run(BIN):
    results = {}
    for name, fn in CASES:
        p, root, port = start(BIN)
        try: results[name] = 'pass' if fn(port, root) else 'FAIL'
        except Exception as e: results[name] = f'FAIL ({type(e).__name__})'
        finally: p.kill(); p.wait()
    return results
bins = sys.argv[1:] or ['target/release/babelftp']
table = {b: run(b) for b in bins}
print('case | ' + ' | '.join(bins))
for name, _ in CASES:
    print(name + ' | ' + ' | '.join(table[b][name] for b in bins))
