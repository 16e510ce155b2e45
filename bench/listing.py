#!/usr/bin/env python3
"""Directory listings: LIST, NLST and MLSD of directories of 1k to 1M
mixed-script UTF-8 names, babelftp against vsftpd, ProFTPD, Pure-FTPd and
pyftpdlib, all serving the same tree on tmpfs in the same run.

Per server, size and command, RUNS times in one logged-in session (EPSV,
the command, every byte read, the 226): the wall time from the command to
the 226, the time to the first data byte, the server's CPU time (schedstat
of every thread of the server and its children: the session's processes
for the forking peers), and the peak growth of the server's RSS while the
listing runs (sampled every 2 ms). Prints medians, and babelftp / the best
peer. babelftp is measured twice: as is, and translating names for a
legacy client (`--legacy-client-charset windows-1252`, the bench client
sends no OPTS UTF8): the charset layer's cost.

SERVERS=babelftp,pure-ftpd (names, comma-separated) measures only those
(babelftp means both of its rows). With JSON=path, the medians are also written there (bench/plot.py makes
the SVG plots of docs/dev/benchmarks.md from it).

Needs root (the peers). Usage: bench/listing.py [RUNS] [SIZES]
(defaults 5 and 1000,10000,100000; add 1000000 for the million: ~1 GiB of
tmpfs inodes and a few minutes). See bench/benchlib.py for BENCH_PAUSE.
"""
import json, os, shutil, socket, sys, tempfile, threading, time

import benchlib as B
import peers as P

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
SIZES = [int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else '1000,10000,100000').split(',')]
STEMS = ['名前', 'Игра', 'كتاب', 'plain', 'Ελληνικά', 'हिन्दी', '한국어', 'français-été']


def fill(d, n):
    os.makedirs(d)
    for i in range(n):
        fd = os.open(os.path.join(d, f'{STEMS[i % len(STEMS)]}-{i:07d}.txt'), os.O_CREAT | os.O_WRONLY, 0o644)
        os.write(fd, b'x' * (i % 97))
        os.close(fd)
    os.chmod(d, 0o755)


class Session:
    def __init__(self, port, user, password):
        self.s = socket.create_connection(('127.0.0.1', port), timeout=600)
        self.f = self.s.makefile('rb')
        self.reply()
        assert self.cmd(f'USER {user}').startswith(b'331')
        r = self.cmd(f'PASS {password}')
        assert r.startswith(b'230'), r
        assert self.cmd('TYPE I').startswith(b'200')

    def reply(self):
        line = self.f.readline()
        if line[3:4] == b'-':
            while True:
                l = self.f.readline()
                if l[:3] == line[:3] and l[3:4] == b' ':
                    break
        return line

    def cmd(self, c):
        self.s.sendall(c.encode() + b'\r\n')
        return self.reply()

    def listing(self, c):
        """Returns (seconds to the 226, seconds to the first byte, octets, lines)."""
        r = self.cmd('EPSV')
        assert r.startswith(b'229'), r
        port = int(r.split(b'|||')[1].split(b'|')[0])
        d = socket.create_connection(('127.0.0.1', port), timeout=600)
        t0 = time.perf_counter()
        self.s.sendall(c.encode() + b'\r\n')
        first = None; n = 0; lines = 0; buf = bytearray(1 << 20)
        while True:
            k = d.recv_into(buf)
            if not k:
                break
            if first is None:
                first = time.perf_counter()
            n += k; lines += buf[:k].count(b'\n')
        d.close()
        r1 = self.reply()
        r2 = r1 if r1.startswith(b'226') or r1.startswith(b'250') else self.reply()
        t1 = time.perf_counter()
        assert r2[:1] == b'2', (c, r1, r2)
        return t1 - t0, (first or t1) - t0, n, lines


def measure(name, port, user, password, pid, sizes, formats):
    """{(size, fmt): [(ms, first ms, server cpu ms, peak rss growth KiB, lines)]}"""
    out = {}
    sess = Session(port, user, password)
    pids = P.descendants(pid)  # the session's processes exist now
    for n in sizes:
        for fmt in formats:
            for _ in range(RUNS):
                base = P.rss_kib(pids); peak = [base]; stop = threading.Event()

                def sample():
                    while not stop.is_set():
                        peak[0] = max(peak[0], P.rss_kib(pids)); time.sleep(0.002)
                t = threading.Thread(target=sample); t.start()
                c0 = P.cpu_ns(pids)
                try:
                    secs, first, octets, lines = sess.listing(f'{fmt} d{n}')
                except (OSError, AssertionError) as e:
                    lines, secs = -1, repr(e)
                c1 = P.cpu_ns(pids)
                stop.set(); t.join()
                if lines < n:
                    # Left out of the tables, said here; a new session for
                    # what follows.
                    print(f'# {name}: {fmt} d{n}: failed ({lines} lines: {secs})', flush=True)
                    out.pop((n, fmt), None)
                    try:
                        sess = Session(port, user, password)
                        pids = P.descendants(pid)
                    except OSError:
                        return out
                    break
                out.setdefault((n, fmt), []).append((secs * 1e3, first * 1e3, (c1 - c0) / 1e6, peak[0] - base, lines))
            v = out.get((n, fmt))
            if not v:
                continue
            print(f'# {name} {fmt} {n}: {B.median([x[0] for x in v]):.1f} ms, cpu {B.median([x[2] for x in v]):.1f} ms, '
                  f'first byte {B.median([x[1] for x in v]):.1f} ms, rss +{max(x[3] for x in v) / 1024:.1f} MiB', flush=True)
    try:
        sess.cmd('QUIT')
    except OSError:
        pass
    return out


def main():
    P.ensure()
    bins = B.binaries()
    B.describe(bins)
    base = tempfile.mkdtemp(prefix='babelftp-list-', dir='/dev/shm')
    procs = []
    results = {}
    try:
        os.chmod(base, 0o755)
        root = os.path.join(base, 'tree'); os.makedirs(root); os.chmod(root, 0o755)
        t = time.time()
        for n in SIZES:
            fill(os.path.join(root, f'd{n}'), n)
        print(f'# tree: {", ".join(str(n) for n in SIZES)} entries, made in {time.time() - t:.1f} s; {RUNS} runs', flush=True)
        only = [x for x in os.environ.get('SERVERS', '').split(',') if x]
        servers = []
        for label, path in bins:
            port = B.free_port()
            p = B.serve(path, root, port, '--max-per-ip', '100'); procs.append(p)
            servers.append((label, port, 'u', 'p', p.pid, ['LIST', 'NLST', 'MLSD']))
            port = B.free_port()
            p = B.serve(path, root, port, '--legacy-client-charset', 'windows-1252'); procs.append(p)
            servers.append((label + ' (cp1252 client)', port, 'u', 'p', p.pid, ['LIST', 'NLST', 'MLSD']))
        for name, start in P.STARTERS.items():
            if only and name not in only:
                continue
            try:
                peer = start(os.path.join(base, name), root)
            except (RuntimeError, OSError) as e:
                print(f'# {name}: not measured: {e}')
                continue
            procs.append(peer.proc)
            servers.append((name, peer.port, peer.user, peer.password, peer.proc.pid,
                            ['LIST', 'NLST'] + ([] if name == 'vsftpd' else ['MLSD'])))
        for name, port, user, password, pid, formats in servers:
            if only and name.split(' ')[0] not in only:
                continue
            with B.measuring():
                try:
                    results[name] = measure(name, port, user, password, pid, SIZES, formats)
                except (RuntimeError, OSError, AssertionError) as e:
                    print(f'# {name}: left out: {e}')
        report(results, [b[0] for b in bins])
        if os.environ.get('JSON'):
            with open(os.environ['JSON'], 'w') as f:
                json.dump({name: {f'{n} {fmt}': [B.median([x[i] for x in v]) for i in range(4)]
                                  for (n, fmt), v in r.items()} for name, r in results.items()}, f, indent=1)
    finally:
        for p in procs:
            B.stop(p)
        shutil.rmtree(base, ignore_errors=True)


def report(results, ours):
    peers = [n for n in results if n not in ours and '(' not in n]
    print('\n## medians: wall ms (server CPU ms) [first byte ms] {peak RSS growth MiB}')
    for n in SIZES:
        for fmt in ('LIST', 'NLST', 'MLSD'):
            row = []
            for name, r in results.items():
                v = r.get((n, fmt))
                if v:
                    row.append(f'{name} {B.median([x[0] for x in v]):.1f} ({B.median([x[2] for x in v]):.1f}) '
                               f'[{B.median([x[1] for x in v]):.1f}] {{{max(x[3] for x in v) / 1024:.1f}}}')
            print(f'{fmt} {n}: ' + ' | '.join(row))
            best = [(B.median([x[0] for x in results[p][(n, fmt)]]), B.median([x[2] for x in results[p][(n, fmt)]]), p)
                    for p in peers if (n, fmt) in results[p]]
            for o in ours:
                if (n, fmt) in results.get(o, {}) and best:
                    v = results[o][(n, fmt)]
                    w, c = B.median([x[0] for x in v]), B.median([x[2] for x in v])
                    bw, bc = min(best)[0], min(b[1] for b in best)
                    print(f'   {o} / best peer: wall {w / bw:.2f} (best {min(best)[2]} {bw:.1f} ms), '
                          f'server CPU {c / bc:.2f} (best {bc:.1f} ms)')


if __name__ == '__main__':
    main()
