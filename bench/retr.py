#!/usr/bin/env python3
"""RETR of one big file: who limits the rate, the server or the client?

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

Per server and client it prints the median MiB/s, the server's CPU seconds
per GiB (utime + stime of the server and its children) and the client's CPU
seconds per GiB; client CPU close to the wall time means the client is the
bottleneck. Needs root (the peers' chroots and users).
Usage: bench/retr.py [RUNS] [MiB]      SERVERS=babelftp,vsftpd,pure-ftpd,pyftpdlib
"""
import os, resource, socket, statistics, subprocess, sys, tempfile, time

import benchlib as B
import peers as P

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
MIB = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
SERVERS = os.environ.get('SERVERS', 'babelftp,vsftpd,pure-ftpd,pyftpdlib').split(',')


def discard_retr(port, user, password, path):
    """RETR `path`, the data dropped in the kernel; returns seconds from RETR
    to the end of the data."""
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
            os.link(big, os.path.join(pub, 'big.bin'))
            if name == 'babelftp':
                port = B.free_port()
                proc = B.serve(B.binaries()[0][1], root, port, '--anonymous')
                servers[name] = (port, 'u', 'p', proc)
            else:
                peer = P.STARTERS[name](os.path.join(d, 'conf'), root)
                servers[name] = (peer.port, peer.user, peer.password, peer.proc)
        res = {}
        for run in range(RUNS):
            k = run % len(SERVERS)
            for name in SERVERS[k:] + SERVERS[:k]:
                port, user, password, proc = servers[name]
                for client in ('curl', 'discard'):
                    c0 = ticks(proc.pid); r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                    t0 = time.perf_counter()
                    if client == 'curl':
                        subprocess.run(['curl', '-s', '-S', '-o', '/dev/null',
                                        f'ftp://{user}:{password}@127.0.0.1:{port}/pub/big.bin'], check=True)
                        secs = time.perf_counter() - t0
                        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                        client_cpu = r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime
                    else:
                        u0 = resource.getrusage(resource.RUSAGE_SELF)
                        secs = discard_retr(port, user, password, 'pub/big.bin')
                        u1 = resource.getrusage(resource.RUSAGE_SELF)
                        client_cpu = u1.ru_utime + u1.ru_stime - u0.ru_utime - u0.ru_stime
                    c1 = ticks(proc.pid)
                    r = res.setdefault((name, client), {'rate': [], 'srv': [], 'cli': []})
                    r['rate'].append(MIB / secs)
                    r['srv'].append((c1 - c0) * 1024 / MIB)
                    r['cli'].append(client_cpu * 1024 / MIB)
            print(f'# run {run + 1} of {RUNS} done', flush=True)
        print(f'RETR of {MIB} MiB, medians of {RUNS} runs')
        print(f'{"server":12} {"client":8} {"MiB/s":>7} {"wall s/GiB":>10} {"server CPU s/GiB":>17} {"client CPU s/GiB":>17}')
        for name in SERVERS:
            for client in ('curl', 'discard'):
                r = res[(name, client)]
                rate = statistics.median(r['rate'])
                print(f'{name:12} {client:8} {rate:7.0f} {1024 / rate:10.3f} {statistics.median(r["srv"]):17.2f} '
                      f'{statistics.median(r["cli"]):17.2f}   all {[round(x) for x in r["rate"]]}')
    finally:
        for port, _, _, proc in servers.values():
            B.stop(proc)
        subprocess.run(['rm', '-rf', base])


if __name__ == '__main__':
    main()
