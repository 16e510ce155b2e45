#!/usr/bin/env python3
"""RETR and STOR of one big file: who limits the rate, the server or the client?

Each server (babelftp's release build, vsftpd, Pure-FTPd, pyftpdlib, as
SERVERS says) serves the same file of MiB MiB from tmpfs, and is fetched
RUNS times, the servers taking turns, by two clients:

- curl to /dev/null, as bench/all.py does: curl copies every octet into
  its own memory, so it is the client a user runs;
- a discarding client (below): it reads the data connection with
  recv(MSG_TRUNC), which Linux's TCP serves by dropping the octets without
  copying them, so the client costs almost nothing and the rate is what the
  server and the kernel can push. Its time runs from RETR to the end of the
  data, without the interpreter's start.

With KINDS=RETR,STOR the same file is also uploaded RUNS times to each
server (and removed after each), by curl -T and by a client that sends it
with sendfile(2) from tmpfs (no copy on the client's side: the rate is the
server's receive path and the kernel's), timed from STOR to the 226.

Per server and client it prints the median MiB/s, the server's CPU seconds
per GiB (utime + stime of the server and its children) and the client's CPU
seconds per GiB; client CPU close to the wall time means the client is the
bottleneck. Each transfer is made with the BENCH_PAUSE processes stopped
(bench/benchlib.py). Needs root (the peers' chroots and users).
Usage: bench/retr.py [RUNS] [MiB]      SERVERS=babelftp,vsftpd,pure-ftpd,pyftpdlib KINDS=RETR,STOR
"""
import os, pwd, resource, socket, statistics, subprocess, sys, tempfile, time

import benchlib as B
import peers as P

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
MIB = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
SERVERS = os.environ.get('SERVERS', 'babelftp,vsftpd,pure-ftpd,pyftpdlib').split(',')
KINDS = os.environ.get('KINDS', 'RETR').split(',')
# Who may write the served folder: each peer's session user (as bench/all.py).
OWNERS = {'vsftpd': 'daemon', 'proftpd': 'nobody', 'pure-ftpd': 'nobody', 'pyftpdlib': 'root', 'babelftp': 'root'}


def login(port, user, password):
    """A logged-in control connection in binary mode, and its reply reader."""
    c = socket.create_connection(('127.0.0.1', port), timeout=60)
    f = c.makefile('rb')

    def reply():
        line = f.readline()
        while line[3:4] != b' ':
            if not line:
                raise RuntimeError('control connection closed')
            line = f.readline()
        return line

    reply()
    c.sendall(f'USER {user}\r\n'.encode())
    if reply().startswith(b'331'):
        c.sendall(f'PASS {password}\r\n'.encode())
        reply()
    c.sendall(b'TYPE I\r\n'); reply()
    return c, reply


def discard_retr(port, user, password, path):
    """RETR `path`, the data dropped in the kernel; returns seconds from RETR
    to the end of the data."""
    c, reply = login(port, user, password)
    c.sendall(b'EPSV\r\n')
    d = socket.create_connection(('127.0.0.1', int(reply().split(b'|')[3])), timeout=60)
    buf = bytearray(1 << 24)
    t0 = time.perf_counter()
    c.sendall(f'RETR {path}\r\n'.encode())
    reply()
    n = 0
    while True:
        k = d.recv_into(buf, len(buf), socket.MSG_TRUNC)
        if not k:
            break
        n += k
    secs = time.perf_counter() - t0
    end = reply()
    d.close(); c.close()
    if n != MIB << 20 or not end.startswith(b'226'):
        raise RuntimeError(f'got {n} octets, then {end!r}')
    return secs


def sendfile_stor(port, user, password, path, src):
    """STOR `src` as `path`, sent with sendfile(2); returns seconds from STOR
    to the 226."""
    c, reply = login(port, user, password)
    c.sendall(b'EPSV\r\n')
    d = socket.create_connection(('127.0.0.1', int(reply().split(b'|')[3])), timeout=60)
    t0 = time.perf_counter()
    c.sendall(f'STOR {path}\r\n'.encode())
    first = reply()
    if not first.startswith(b'1'):
        raise RuntimeError(f'STOR: {first!r}')
    d.settimeout(None)  # sendfile(2) on a blocking socket
    with open(src, 'rb') as f:
        sent = 0
        while sent < MIB << 20:
            k = os.sendfile(d.fileno(), f.fileno(), sent, (MIB << 20) - sent)
            if not k:
                break
            sent += k
    d.close()
    end = reply()
    secs = time.perf_counter() - t0
    c.close()
    if not end.startswith(b'226'):
        raise RuntimeError(f'STOR ended with {end!r}')
    return secs


def ticks(pid):
    total = 0
    for q in P.descendants(pid):
        try:
            with open(f'/proc/{q}/stat') as f:
                fields = f.read().rsplit(')', 1)[1].split()
            total += sum(int(x) for x in fields[11:15])
        except (OSError, ValueError):
            pass
    return total / os.sysconf('SC_CLK_TCK')


def main():
    P.ensure()
    base = tempfile.mkdtemp(prefix='babelftp-retr-', dir='/dev/shm')
    servers = {}
    try:
        big = os.path.join(base, 'big.bin')
        with open(big, 'wb') as f:
            chunk = os.urandom(1 << 20)
            for _ in range(MIB):
                f.write(chunk)
        for name in SERVERS:
            d = os.path.join(base, name); root = os.path.join(d, 'root'); pub = os.path.join(root, 'pub')
            os.makedirs(pub)
            for p in (d, root, pub):
                os.chmod(p, 0o755)
            owner = pwd.getpwnam(OWNERS.get(name, 'root'))
            os.chown(pub, owner.pw_uid, owner.pw_gid)
            os.link(big, os.path.join(pub, 'big.bin'))
            if name == 'babelftp':
                port = B.free_port()
                proc = B.serve(B.binaries()[0][1], root, port, '--anonymous')
                servers[name] = (port, 'u', 'p', proc)
            else:
                peer = P.STARTERS[name](os.path.join(d, 'conf'), root)
                servers[name] = (peer.port, peer.user, peer.password, peer.proc)
        res = {}
        clients = [(k, c) for k in KINDS for c in (('curl', 'discard') if k == 'RETR' else ('curl', 'sendfile'))]
        for run in range(RUNS):
            k = run % len(SERVERS)
            for name in SERVERS[k:] + SERVERS[:k]:
                port, user, password, proc = servers[name]
                url = f'ftp://{user}:{password}@127.0.0.1:{port}/pub/'
                for kind, client in clients:
                    with B.measuring():
                        c0 = ticks(proc.pid); r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                        u0 = resource.getrusage(resource.RUSAGE_SELF)
                        t0 = time.perf_counter()
                        if client == 'curl':
                            args = ['-o', '/dev/null', url + 'big.bin'] if kind == 'RETR' else ['-T', big, url + 'up.bin']
                            subprocess.run(['curl', '-s', '-S', *args], check=True)
                            secs = time.perf_counter() - t0
                            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                            client_cpu = r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime
                        else:
                            if client == 'discard':
                                secs = discard_retr(port, user, password, 'pub/big.bin')
                            else:
                                secs = sendfile_stor(port, user, password, 'pub/up.bin', big)
                            u1 = resource.getrusage(resource.RUSAGE_SELF)
                            client_cpu = u1.ru_utime + u1.ru_stime - u0.ru_utime - u0.ru_stime
                        c1 = ticks(proc.pid)
                    if kind == 'STOR':
                        up = os.path.join(base, name, 'root', 'pub', 'up.bin')
                        if os.path.getsize(up) != MIB << 20:
                            raise RuntimeError(f'{name}: STOR stored {os.path.getsize(up)} octets')
                        os.remove(up)
                    r = res.setdefault((name, kind, client), {'rate': [], 'srv': [], 'cli': []})
                    r['rate'].append(MIB / secs)
                    r['srv'].append((c1 - c0) * 1024 / MIB)
                    r['cli'].append(client_cpu * 1024 / MIB)
            print(f'# run {run + 1} of {RUNS} done', flush=True)
        print(f'{", ".join(KINDS)} of {MIB} MiB, medians of {RUNS} runs')
        print(f'{"":5} {"server":12} {"client":8} {"MiB/s":>7} {"wall s/GiB":>10} {"server CPU s/GiB":>17} {"client CPU s/GiB":>17}')
        for kind, client in clients:
            for name in SERVERS:
                r = res[(name, kind, client)]
                rate = statistics.median(r['rate'])
                print(f'{kind:5} {name:12} {client:8} {rate:7.0f} {1024 / rate:10.3f} {statistics.median(r["srv"]):17.2f} '
                      f'{statistics.median(r["cli"]):17.2f}   all {[round(x) for x in r["rate"]]}')
    finally:
        for port, _, _, proc in servers.values():
            B.stop(proc)
        subprocess.run(['rm', '-rf', base])


if __name__ == '__main__':
    main()
