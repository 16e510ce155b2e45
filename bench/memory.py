#!/usr/bin/env python3
"""The server's memory after a flood of failed logins and after many
sessions have come and gone (issue 24.2).

Starts `babelftp serve` (the real binary, so with its start-up malloc
settings) with an argon2 user `a` (hash from `babelftp passwd`) and a
clear-text user `u:p`, then reads its VmRSS from /proc:
  start       after the first greeting;
  failures    right after FAILS failed logins (`USER a` / `PASS wrong`),
              CONC connections at a time, each retrying after its 530;
  +idle       after the server has checked no password for 12 s (the
              password-check memory is let go after 10 s);
  sessions    with SESSIONS sessions logged in as u at once;
  quit        2 s after they all sent QUIT.
Usage: bench/memory.py [FAILS] [CONC] [SESSIONS]  (defaults 1000 30 10000)
Environment: BABELFTP_BIN as for the other benches (bench/benchlib.py).
"""
import os, resource, selectors, socket, subprocess, sys, tempfile, time

import benchlib as B

FAILS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
CONC = int(sys.argv[2]) if len(sys.argv) > 2 else 30
SESSIONS = int(sys.argv[3]) if len(sys.argv) > 3 else 10000


def mib(kib):
    return f'{kib / 1024:.1f} MiB'


read_reply = B.read_reply


def fail_logins(port, total, conc):
    """`total` failed logins over `conc` connections (each goes on after
    its 530, which comes after the server's failed-login delay)."""
    sel = selectors.DefaultSelector()
    left = total
    done = 0
    conns = {}

    def start(s):
        nonlocal left
        left -= 1
        s.sendall(b'USER a\r\nPASS wrong\r\n')
        conns[s] = [b'', 0]  # buffer, replies seen

    for _ in range(min(conc, total)):
        s = socket.create_connection(('127.0.0.1', port))
        read_reply(s, b'')
        sel.register(s, selectors.EVENT_READ)
        start(s)
    while done < total:
        for key, _ in sel.select(timeout=30):
            s = key.fileobj
            data = s.recv(4096)
            if not data:
                raise SystemExit('server closed a connection')
            st = conns[s]
            st[0] += data
            while b'\r\n' in st[0]:
                line, st[0] = st[0].split(b'\r\n', 1)
                if line.startswith(b'530'):
                    done += 1
                    if left > 0:
                        start(s)
                elif not line.startswith(b'331'):
                    raise SystemExit(f'unexpected reply {line!r}')
    for s in list(conns):
        s.close()


def many_sessions(port, n):
    """Opens n sessions logged in as u; returns their sockets."""
    socks = []
    for _ in range(n):
        s = socket.create_connection(('127.0.0.1', port))
        s.sendall(b'USER u\r\nPASS p\r\n')
        socks.append(s)
    for s in socks:
        buf = b''
        line, buf = read_reply(s, buf)  # 220
        line, buf = read_reply(s, buf)  # 331
        line, buf = read_reply(s, buf)  # 230
        if not line.startswith(b'230'):
            raise SystemExit(f'login failed: {line!r}')
    return socks


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = SESSIONS + 1000
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    (_, binary), = B.binaries()[:1]
    B.describe([('babelftp', binary)])
    with tempfile.TemporaryDirectory() as d:
        h = subprocess.run([binary, 'passwd'], input=b'secret\n', capture_output=True, check=True)
        phc = h.stdout.decode().strip()
        users = os.path.join(d, 'users.toml')
        with open(users, 'w') as f:
            f.write(f'[[user]]\nname = "a"\npassword = "{phc}"\n')
        root = os.path.join(d, 'root')
        os.mkdir(root)
        port = B.free_port()
        p = subprocess.Popen([binary, 'serve', '--root', root, '--listen', f'127.0.0.1:{port}',
                              '--users', users, '--user', 'u:p', '--max-per-ip', str(SESSIONS + 10),
                              '--max-connections', str(SESSIONS + 10)],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            B.wait_greeting(port, p)
            time.sleep(0.5)
            rows = [('start', B.rss_kib(p.pid))]
            t = time.monotonic()
            fail_logins(port, FAILS, CONC)
            took = time.monotonic() - t
            rows.append((f'{FAILS} failed logins ({CONC} at a time, {took:.0f} s)', B.rss_kib(p.pid)))
            time.sleep(12)
            rows.append(('  + 12 s idle', B.rss_kib(p.pid)))
            socks = many_sessions(port, SESSIONS)
            rows.append((f'{SESSIONS} sessions logged in', B.rss_kib(p.pid)))
            for s in socks:
                try:
                    s.sendall(b'QUIT\r\n')
                except OSError:
                    pass
            for s in socks:
                s.close()
            time.sleep(2)
            rows.append((f'  + all quit, 2 s', B.rss_kib(p.pid)))
            time.sleep(10)
            rows.append((f'  + 12 s', B.rss_kib(p.pid)))
        finally:
            B.stop(p)
    start = rows[0][1]
    print(f'{"":<48} {"VmRSS":>10} {"over start":>11}')
    for label, kib in rows:
        print(f'{label:<48} {mib(kib):>10} {mib(kib - start):>11}')


if __name__ == '__main__':
    main()
