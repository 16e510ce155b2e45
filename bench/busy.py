#!/usr/bin/env python3
"""Memory under load, babelftp against its peers in the same run (issue 47).

Two figures per server, each on a server started afresh:
  busy  SESSIONS concurrent sessions; each logs in, then (once every
        session is logged in, all released together) uploads 3 files of
        1 KiB-4 MiB and downloads each back, checked by SHA-256, and quits.
        The server's peak PSS is sampled every 20 ms (for a forking server,
        the sum over its processes: vsftpd, Pure-FTPd). Every uploaded file
        is checked on disk afterwards too.
  idle  IDLE sessions logged in and idle: (PSS with them - PSS before) / IDLE,
        in KiB per session.

Servers: babelftp ($BABELFTP_BIN, and $BABELFTP_BASELINE when set; see
bench/benchlib.py) and the peers named in BUSY_PEERS (comma-separated, from
pyftpdlib, vsftpd, pure-ftpd; default pyftpdlib), from bench/peers.py
(PEERS_DIR). BUSY_ONLY=label,...: only these of them (babelftp, new,
baseline, a peer's name). Every server serves its own tree on tmpfs (/dev/shm); files are
written where the page cache holds them, which is no process's PSS.
babelftp runs with its default `fsync = "batch"` (a flush of the
filesystem within a second, in a thread of its own; pyftpdlib, vsftpd and
Pure-FTPd never flush an upload, and on tmpfs a flush does nothing).

File sizes: BUSY_SIZES=log (default): log-uniform between 1 KiB and 4 MiB
(as many files of 1-4 KiB as of 1-4 MiB; mean ~0.5 MiB); BUSY_SIZES=uniform:
uniform between 1 KiB and 4 MiB (mean 2 MiB: 4x the octets, slower). The
same sizes and contents for every server (seeded).

The load generator is BUSY_PROCS processes (default 4) of threads, so the
client uses both cores; its CPU time is printed. Loopback only, bounded.
The measurements run inside benchlib.measuring() (BENCH_PAUSE).
Needs root for vsftpd and Pure-FTPd (their chroots and users).

Usage: bench/busy.py [SESSIONS] [IDLE] [RUNS]   (default 1000 9000 1)
"""
import ftplib, hashlib, io, multiprocessing as mp, os, pwd, random, resource, shutil, sys, tempfile, threading, time

import benchlib as B
import peers as P

SESSIONS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
IDLE = int(sys.argv[2]) if len(sys.argv) > 2 else 9000
RUNS = int(sys.argv[3]) if len(sys.argv) > 3 else 1
FILES = 3
SIZES = os.environ.get('BUSY_SIZES', 'log')
PROCS = int(os.environ.get('BUSY_PROCS', '4'))
PEER_NAMES = [p for p in os.environ.get('BUSY_PEERS', 'pyftpdlib').split(',') if p]
FORKING = {'vsftpd', 'pure-ftpd'}
POOL = 8 << 20
# Logins under way at once, per client process.
LOGINS = threading.Semaphore(8)


def sizes_of(sid):
    rng = random.Random(4700 + sid)
    if SIZES == 'uniform':
        return [rng.randint(1 << 10, 4 << 20) for _ in range(FILES)]
    return [int(2 ** rng.uniform(10, 22)) for _ in range(FILES)]


def content(pool, sid, k, size):
    """A file of its own: a header naming it, then pool bytes from a place
    of its own."""
    head = f'{sid:06d}/{k}/'.encode()
    off = (sid * 7919 + k * 104729) % (POOL - size)
    return (head + pool[off:off + size])[:size]


def session(port, user, password, sid, pool, go, ready, results):
    files = []
    f = None
    try:
        # A few logins at a time: a burst of connections overflows a small
        # listen backlog (pyftpdlib's is 100), and a connection the kernel
        # answered with a SYN cookie and then dropped looks established to
        # the client, which waits for a greeting that never comes.
        with LOGINS:
            f = ftplib.FTP()
            f.connect('127.0.0.1', port, timeout=300)
            f.login(user, password)
    except Exception as e:  # noqa: BLE001 - every failure is counted
        ready.wait()
        results[sid] = ('error', 0, 0, files, 'login: ' + repr(e)[:200])
        return
    ready.wait()
    go.wait()
    moved = corrupt = 0
    try:
        for k, size in enumerate(sizes_of(sid)):
            data = content(pool, sid, k, size)
            digest = hashlib.sha256(data).digest()
            name = f'pub/b{sid:05d}-{k}.bin'
            files.append((name, digest))
            f.storbinary(f'STOR {name}', io.BytesIO(data), blocksize=65536)
            moved += size
            back = hashlib.sha256()
            n = [0]

            def take(b):
                back.update(b)
                n[0] += len(b)
            f.retrbinary(f'RETR {name}', take, blocksize=65536)
            moved += n[0]
            corrupt += back.digest() != digest or n[0] != size
        f.quit()
        results[sid] = ('ok', moved, corrupt, files, '')
    except Exception as e:  # noqa: BLE001
        results[sid] = ('error', moved, corrupt, files, repr(e)[:200])


def worker(port, user, password, sids, pool_seed, go, logged_in, out):
    """One client process: a thread per session of `sids`."""
    pool = random.Random(pool_seed).randbytes(POOL)
    threading.stack_size(256 << 10)
    results = {}
    ready = threading.Barrier(len(sids) + 1)
    threads = [threading.Thread(target=session, args=(port, user, password, s, pool, go, ready, results))
               for s in sids]
    for t in threads:
        t.start()
    ready.wait()
    logged_in.release()
    c0 = resource.getrusage(resource.RUSAGE_SELF)
    for t in threads:
        t.join()
    c1 = resource.getrusage(resource.RUSAGE_SELF)
    out.send((results, (c1.ru_utime + c1.ru_stime) - (c0.ru_utime + c0.ru_stime)))
    out.close()


def tree_pss(pid, forking):
    pids = P.descendants(pid) if forking else [pid]
    total = 0
    for p in pids:
        try:
            total += B.pss_kib(p)
        except OSError:
            pass
    return total


tree_cpu = P.tree_cpu


def busy(srv):
    """The busy figure of one server: peak PSS, errors, corrupted, lost."""
    ctx = mp.get_context('fork')
    go, logged_in = ctx.Event(), ctx.Semaphore(0)
    chunks = [list(range(i, SESSIONS, PROCS)) for i in range(PROCS)]
    pipes, procs = [], []
    forking = srv['name'] in FORKING
    with B.measuring():
        start = tree_pss(srv['pid'], forking)
        peak = [start]
        done = threading.Event()

        def sample():
            while not done.is_set():
                peak[0] = max(peak[0], tree_pss(srv['pid'], forking))
                time.sleep(0.02)
        sampler = threading.Thread(target=sample)
        sampler.start()
        for chunk in chunks:
            rd, wr = ctx.Pipe(False)
            p = ctx.Process(target=worker,
                            args=(srv['port'], srv['user'], srv['password'], chunk, 47, go, logged_in, wr))
            p.start()
            wr.close()
            pipes.append(rd)
            procs.append(p)
        t0 = time.perf_counter()
        cpu0 = tree_cpu(srv['pid'])
        for _ in chunks:
            logged_in.acquire()
        logged = tree_pss(srv['pid'], forking)
        t1 = time.perf_counter()
        go.set()
        got = [rd.recv() for rd in pipes]
        t2 = time.perf_counter()
        server_cpu = tree_cpu(srv['pid']) - cpu0
        done.set()
        sampler.join()
    for p in procs:
        p.join()
    results = {}
    client_cpu = 0.0
    for r, cpu in got:
        results.update(r)
        client_cpu += cpu
    errors = [r for r in results.values() if r[0] == 'error'] + [None] * (SESSIONS - len(results))
    corrupted = sum(r[2] for r in results.values())
    moved = sum(r[1] for r in results.values())
    lost = 0
    for r in results.values():
        for name, digest in r[3]:
            p = os.path.join(srv['root'], name)
            try:
                with open(p, 'rb') as f:
                    lost += hashlib.sha256(f.read()).digest() != digest
            except OSError:
                lost += r[0] == 'ok'
            try:
                os.remove(p)
            except OSError:
                pass
    first = next((r[4] for r in errors if r is not None), 'no result' if errors else '')
    return {'start': start, 'logged': logged, 'peak': peak[0], 'errors': len(errors), 'corrupted': corrupted,
            'lost': lost, 'moved': moved, 'login_s': t1 - t0, 'xfer_s': t2 - t1, 'client_cpu': client_cpu,
            'server_cpu': server_cpu,
            'first_error': first}


read_reply = B.read_reply


def idle(srv):
    """KiB per logged-in idle session."""
    import socket
    forking = srv['name'] in FORKING
    with B.measuring():
        time.sleep(0.3)
        before = tree_pss(srv['pid'], forking)
        socks = []
        login = f'USER {srv["user"]}\r\nPASS {srv["password"]}\r\n'.encode()
        try:
            for i in range(IDLE):
                s = socket.create_connection(('127.0.0.1', srv['port']), timeout=60)
                socks.append(s)
                # Greeting first: a server may drop what comes before it.
                read_reply(s, b'')
                s.sendall(login)
                if len(socks) % 200 == 0:
                    drain_logins(socks[-200:])
            drain_logins(socks[len(socks) - len(socks) % 200:])
            time.sleep(1.0)
            with_them = tree_pss(srv['pid'], forking)
        finally:
            for s in socks:
                try:
                    s.sendall(b'QUIT\r\n')
                except OSError:
                    pass
                s.close()
    return {'idle_before': before, 'idle_with': with_them, 'per': (with_them - before) / IDLE}


def drain_logins(socks):
    for s in socks:
        buf = b''
        line, buf = read_reply(s, buf)
        if line.startswith(b'331'):
            line, buf = read_reply(s, buf)
        if not line.startswith(b'230'):
            raise RuntimeError(f'login failed: {line!r}')


def make_tree(base, name, owner):
    """base/name/root/pub, pub/ given to `owner` (root/ stays root's:
    vsftpd wants that)."""
    d = os.path.join(base, name)
    root = os.path.join(d, 'root')
    pub = os.path.join(root, 'pub')
    os.makedirs(pub)
    for p in (d, root):
        os.chmod(p, 0o755)
    os.chown(pub, owner.pw_uid, owner.pw_gid)
    os.chmod(pub, 0o755)
    return d, root


def start(base, name, path, n):
    """Starts one server for `n` sessions; returns its description."""
    owners = {'vsftpd': 'daemon', 'pure-ftpd': 'nobody', 'pyftpdlib': 'root'}
    d, root = make_tree(base, f'{name}-{time.monotonic_ns()}', pwd.getpwnam(owners.get(name, 'root')))
    if path is not None:
        port = B.free_port()
        proc = B.serve(path, root, port, '--max-connections', str(n + 10),
                       '--max-per-ip', str(n + 10))
        return {'name': name, 'port': port, 'user': 'u', 'password': 'p', 'proc': proc, 'pid': proc.pid,
                'root': root, 'dir': d}
    peer = P.STARTERS[name](os.path.join(d, 'conf'), root)
    return {'name': name, 'port': peer.port, 'user': peer.user, 'password': peer.password, 'proc': peer.proc,
            'pid': peer.proc.pid, 'root': root, 'dir': d}


def stop(srv):
    B.stop(srv['proc'])
    if srv['name'] in FORKING:
        # Session processes outlive a killed master only briefly; wait.
        time.sleep(0.5)
    shutil.rmtree(srv['dir'], ignore_errors=True)


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 2 * IDLE + 4 * SESSIONS + 1024)), hard))
    P.ensure()
    bins = B.binaries()
    B.describe(bins)
    servers = [(label, path) for label, path in bins] + [(name, None) for name in PEER_NAMES]
    only = [x for x in os.environ.get('BUSY_ONLY', '').split(',') if x]
    if only:
        servers = [s for s in servers if s[0] in only]
    base = tempfile.mkdtemp(prefix='babelftp-busy-', dir='/dev/shm')
    os.chmod(base, 0o755)
    print(f'# {SESSIONS} busy sessions x {FILES} files ({SIZES} sizes 1 KiB-4 MiB), STOR + RETR each, SHA-256; '
          f'{IDLE} idle logged-in sessions; {RUNS} run(s); tmpfs, babelftp fsync batch (default); '
          f'client: {PROCS} processes of threads', flush=True)
    res = {label: [] for label, _ in servers}
    try:
        for run in range(RUNS):
            k = run % len(servers)
            for label, path in servers[k:] + servers[:k]:
                name = label if path is None else label
                srv = start(base, name, path, max(SESSIONS, IDLE))
                try:
                    r = busy(srv)
                finally:
                    stop(srv)
                srv = start(base, name, path, max(SESSIONS, IDLE))
                try:
                    r |= idle(srv)
                finally:
                    stop(srv)
                res[label].append(r)
                print(f'# run {run + 1} {label}: busy PSS start {r["start"] / 1024:.1f} MiB, '
                      f'{SESSIONS} logged in {r["logged"] / 1024:.1f} MiB, peak {r["peak"] / 1024:.1f} MiB; '
                      f'{r["moved"] / 2**20:.0f} MiB moved in {r["xfer_s"]:.1f} s (logins {r["login_s"]:.1f} s, '
                      f'client CPU {r["client_cpu"]:.0f} s, server CPU {r["server_cpu"]:.1f} s); errors {r["errors"]}, corrupted {r["corrupted"]}, '
                      f'lost {r["lost"]}{"; first error: " + r["first_error"] if r["errors"] else ""}; '
                      f'idle: {r["idle_before"] / 1024:.1f} MiB, with {IDLE} sessions '
                      f'{r["idle_with"] / 1024:.1f} MiB, {r["per"]:.2f} KiB each', flush=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    labels = [label for label, _ in servers]
    ref = 'pyftpdlib' if 'pyftpdlib' in res and res['pyftpdlib'] else None
    print(f'# medians of {RUNS} run(s)' + (', and the ratio to pyftpdlib of the same run(s)' if ref else ''))
    cols = [('busy peak PSS MiB', lambda r: r['peak'] / 1024), ('busy start MiB', lambda r: r['start'] / 1024),
            ('busy s', lambda r: r['xfer_s']), ('busy server CPU s', lambda r: r['server_cpu']),
            ('idle KiB/session', lambda r: r['per']), ('errors', lambda r: r['errors']),
            ('corrupt+lost', lambda r: r['corrupted'] + r['lost'])]
    head = ['server'] + [c for c, _ in cols] + (['peak / pyftpdlib', 'idle / pyftpdlib'] if ref else [])
    lines = [head]
    for label in labels:
        line = [label] + [f'{B.median([f(r) for r in res[label]]):.1f}' for _, f in cols]
        if ref:
            peaks = [a['peak'] / b['peak'] for a, b in zip(res[label], res[ref])]
            idles = [a['per'] / b['per'] if b['per'] else float('nan') for a, b in zip(res[label], res[ref])]
            line += [f'{B.median(peaks):.2f}', f'{B.median(idles):.2f}']
        lines.append(line)
    w = [max(len(l[i]) for l in lines) for i in range(len(head))]
    for l in lines:
        print('  '.join([l[0].ljust(w[0])] + [c.rjust(w[i + 1]) for i, c in enumerate(l[1:])]))


if __name__ == '__main__':
    main()
