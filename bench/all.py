#!/usr/bin/env python3
"""The whole benchmark of issue 12 in one command: babelftp against vsftpd,
ProFTPD, Pure-FTPd and pyftpdlib, on loopback, in the same run.

  sudo python3 bench/all.py [RUNS]        (default 3; needs root: the peers)

What it does, each figure a median of RUNS (the servers take turns, their
order rotating from run to run):
  1. the loopback TCP ceiling of one stream (iperf3, unpacked from Debian's
     package into target/peers/iperf3, never installed), the physical limit;
  2. RETR and STOR of one file of MIB MiB (default 1024) with curl, MiB/s
     and the server's CPU seconds per GiB;
  3. PAR clients at once (default 100), each fetching FILES files of 1 MiB
     (default 20) in one curl process: the aggregate MiB/s; then the same
     from Python's ftplib (PAR threads over 4 processes), because curl
     7.88 stalls 0.2-1 s after EPSV when the server's reply is already
     there (see parallel_ftplib);
  4. logins (connect, USER, PASS, QUIT): SEQ one after another (default
     1000, or as many as 10 s allow) and 50 connections at once doing 40 each, from bench/logins.py's
     load generator: logins/s and the server's CPU µs per login; the load
     generator's own CPU is printed, to show it is not the bottleneck;
  5. IDLE logged-in idle sessions (default 500; a comma-separated list
     measures each count, for bench/plot.py's memory plot): the memory they
     add to the server (PSS of the server and every process it started);
  6. the listings, by running bench/listing.py (LIST, NLST, MLSD of 1k, 10k
     and 100k entries; see there).
Each server serves a tree of its own on tmpfs. The server's CPU time is
utime + stime (+ the reaped children's) of the server and every process
below it, read from /proc before and after. Writes JSON to $JSON if set.
Environment: MIB, PAR, FILES, SEQ, IDLE, SKIP (comma-separated steps of
iperf,transfer,parallel,ftplib,logins,idle,listing to leave out).
"""
import json, multiprocessing, os, pwd, resource, shutil, socket, subprocess, sys, tempfile, time

import benchlib as B
import peers as P

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
MIB = int(os.environ.get('MIB', '1024'))
PAR = int(os.environ.get('PAR', '100'))
FILES = int(os.environ.get('FILES', '20'))
SEQ = int(os.environ.get('SEQ', '1000'))
IDLE = [int(x) for x in os.environ.get('IDLE', '500').split(',')]
SKIP = set(x for x in os.environ.get('SKIP', '').split(',') if x)
IPERF = os.path.join(P.PEERS, 'iperf3')


def ensure_iperf3():
    """iperf3 and its libraries unpacked into target/peers/iperf3."""
    binary = os.path.join(IPERF, 'usr', 'bin', 'iperf3')
    if not os.path.isfile(binary):
        os.makedirs(IPERF, exist_ok=True)
        tmp = tempfile.mkdtemp()
        try:
            subprocess.run(['apt-get', 'download', 'iperf3', 'libiperf0', 'libsctp1'], cwd=tmp, check=True,
                           capture_output=True)
            for deb in os.listdir(tmp):
                subprocess.run(['dpkg-deb', '-x', os.path.join(tmp, deb), IPERF], check=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    libs = [d for d, _, files in os.walk(IPERF) if any('.so' in f for f in files)]
    return binary, ':'.join(libs)


def iperf(runs):
    binary, libs = ensure_iperf3()
    env = dict(os.environ, LD_LIBRARY_PATH=libs)
    port = B.free_port()
    srv = subprocess.Popen([binary, '-s', '-B', '127.0.0.1', '-p', str(port)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        time.sleep(0.5)
        out = []
        for _ in range(runs):
            with B.measuring():
                r = subprocess.run([binary, '-c', '127.0.0.1', '-p', str(port), '-t', '5', '-J'],
                                   capture_output=True, text=True, env=env, check=True)
            bps = json.loads(r.stdout)['end']['sum_received']['bits_per_second']
            out.append(bps / 8 / (1 << 20))
        return out
    finally:
        B.stop(srv)


tree_ticks = P.tree_cpu


def tree_pss_kib(pid):
    total = 0
    for p in P.descendants(pid):
        try:
            total += B.pss_kib(p)
        except OSError:
            pass
    return total


class Srv:
    def __init__(self, name, port, user, password, proc, pub):
        self.name, self.port, self.user, self.password, self.proc, self.pub = name, port, user, password, proc, pub

    def url(self, path=''):
        return f'ftp://{self.user}:{self.password}@127.0.0.1:{self.port}/pub/{path}'


def make_tree(base, name, big, smalls, owner):
    """base/name/root/pub with the big file and the small ones hard-linked,
    pub/ given to `owner` (root/ stays root's: vsftpd wants that)."""
    d = os.path.join(base, name); root = os.path.join(d, 'root'); pub = os.path.join(root, 'pub')
    os.makedirs(pub)
    for p in (d, root):
        os.chmod(p, 0o755)
    os.link(big, os.path.join(pub, 'big.bin'))
    for s in smalls:
        os.link(s, os.path.join(pub, os.path.basename(s)))
    os.chown(pub, owner.pw_uid, owner.pw_gid); os.chmod(pub, 0o755)
    return d, root, pub


def start_all(base, big, smalls):
    servers = []
    bins = B.binaries()
    B.describe(bins)
    root_pw = pwd.getpwnam('root')
    for label, path in bins:
        d, root, pub = make_tree(base, label, big, smalls, root_pw)
        port = B.free_port()
        p = B.serve(path, root, port, '--anonymous', '--max-connections', '20000', '--max-per-ip', '20000')
        servers.append(Srv(label, port, 'u', 'p', p, pub))
    daemon, nobody = pwd.getpwnam('daemon'), pwd.getpwnam('nobody')
    for name, owner in (('vsftpd', daemon), ('proftpd', nobody), ('pure-ftpd', nobody), ('pyftpdlib', root_pw)):
        d, root, pub = make_tree(base, name, big, smalls, owner)
        try:
            peer = P.STARTERS[name](os.path.join(d, 'conf'), root)
        except (RuntimeError, OSError) as e:
            print(f'# {name}: not measured: {e}')
            continue
        servers.append(Srv(name, peer.port, peer.user, peer.password, peer.proc, pub))
    return servers


def curl(args):
    r = subprocess.run(['curl', '-s', '-S', '--max-time', '600', *args], stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError(f'curl exit {r.returncode}: {r.stderr.strip()[-300:]}')


def transfers(servers, up_src, res):
    for run in range(RUNS):
        k = run % len(servers)
        for s in servers[k:] + servers[:k]:
            for d, args in (('RETR', ['-o', '/dev/null', s.url('big.bin')]), ('STOR', ['-T', up_src, s.url('up.bin')])):
                with B.measuring():
                    c0 = tree_ticks(s.proc.pid); t0 = time.perf_counter()
                    try:
                        curl(args)
                    except RuntimeError as e:
                        print(f'# {s.name} {d}: {e}'); continue
                    secs = time.perf_counter() - t0; c1 = tree_ticks(s.proc.pid)
                res.setdefault((s.name, f'{d} MiB/s'), []).append(MIB / secs)
                res.setdefault((s.name, f'{d} server CPU s/GiB'), []).append((c1 - c0) * 1024 / MIB)
            up = os.path.join(s.pub, 'up.bin')
            if os.path.exists(up):
                if os.path.getsize(up) != MIB << 20:
                    print(f'# {s.name}: STOR stored {os.path.getsize(up)} octets, not {MIB << 20}')
                os.remove(up)
        print(f'# transfers run {run + 1} done', flush=True)


def parallel_downloads(servers, res):
    for run in range(RUNS):
        k = run % len(servers)
        for s in servers[k:] + servers[:k]:
            with B.measuring():
                t0 = time.perf_counter(); c0 = tree_ticks(s.proc.pid)
                procs = []
                for _ in range(PAR):
                    args = ['curl', '-s', '-S', '--max-time', '600']
                    for i in range(FILES):
                        args += ['-o', '/dev/null', s.url(f'f{i}.bin')]
                    procs.append(subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                                  stderr=subprocess.PIPE))
                failed = sum(1 for p in procs if p.wait() != 0)
                secs = time.perf_counter() - t0; c1 = tree_ticks(s.proc.pid)
            if failed:
                print(f'# {s.name}: {failed} of {PAR} parallel clients failed')
                continue
            res.setdefault((s.name, f'{PAR}x{FILES} x 1 MiB, MiB/s'), []).append(PAR * FILES / secs)
            res.setdefault((s.name, f'{PAR}x{FILES}, server CPU s'), []).append(c1 - c0)
        print(f'# parallel run {run + 1} done', flush=True)


def _ftplib_worker(port, user, password, clients, files, out):
    """`clients` threads, each one ftplib session fetching f0..f{files-1}
    from pub/ (binary, EPSV), the bytes counted and dropped; puts the octets
    received (or an error) on `out`."""
    import ftplib, threading
    got, errors = [], []

    def one():
        try:
            f = ftplib.FTP()
            f.connect('127.0.0.1', port, timeout=600)
            f.login(user, password)
            f.cwd('pub')
            f.voidcmd('TYPE I')
            n = 0
            for i in range(files):
                conn = f.transfercmd(f'RETR f{i}.bin')
                while True:
                    b = conn.recv(1 << 20)
                    if not b:
                        break
                    n += len(b)
                conn.close()
                f.voidresp()
            f.quit()
            got.append(n)
        except Exception as e:  # noqa: BLE001 (reported by the parent)
            errors.append(f'{type(e).__name__}: {e}')

    ts = [threading.Thread(target=one) for _ in range(clients)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    out.put(errors[0] if errors else sum(got))


def parallel_ftplib(servers, res):
    """The same PAR x FILES downloads from Python's ftplib (PAR sessions as
    threads of 4 processes): curl 7.88 stalls for its poll timeout (0.2 or
    1 s) after EPSV whenever the 229 reply is already in when it goes to
    wait, which a server that answers within ~0.1 ms triggers on most
    transfers (docs/dev/benchmarks.md); ftplib has no such wait."""
    ctx = multiprocessing.get_context('fork')
    procs_n = 4
    shares = [PAR // procs_n + (1 if i < PAR % procs_n else 0) for i in range(procs_n)]
    for run in range(RUNS):
        k = run % len(servers)
        for s in servers[k:] + servers[:k]:
            with B.measuring():
                out = ctx.Queue()
                t0 = time.perf_counter(); c0 = tree_ticks(s.proc.pid)
                ps = [ctx.Process(target=_ftplib_worker, args=(s.port, s.user, s.password, n, FILES, out))
                      for n in shares if n]
                for p in ps:
                    p.start()
                results = [out.get() for _ in ps]
                for p in ps:
                    p.join()
                secs = time.perf_counter() - t0; c1 = tree_ticks(s.proc.pid)
            bad = [r for r in results if not isinstance(r, int)]
            if bad or sum(results) != PAR * FILES << 20:
                print(f'# {s.name}: ftplib clients failed or fell short: {bad[:1] or sum(results)}')
                continue
            res.setdefault((s.name, f'{PAR}x{FILES} x 1 MiB, ftplib clients, MiB/s'), []).append(PAR * FILES / secs)
            res.setdefault((s.name, f'{PAR}x{FILES}, ftplib clients, server CPU s'), []).append(c1 - c0)
        print(f'# parallel (ftplib) run {run + 1} done', flush=True)


def logins(servers, res):
    import importlib.util
    spec = importlib.util.spec_from_file_location('logins_bench', os.path.join(B.HERE, 'logins.py'))
    src = open(os.path.join(B.HERE, 'logins.py')).read().split('\nbins = B.binaries()')[0]
    L = {'__name__': 'logins_bench', '__file__': os.path.join(B.HERE, 'logins.py')}
    sys_argv = sys.argv
    sys.argv = ['logins.py', '1', str(SEQ), '50', '40', '2']
    try:
        exec(compile(src, 'logins.py', 'exec'), L)
    finally:
        sys.argv = sys_argv
    for s in servers:
        L['ACCOUNTS'][s.name] = (s.user.encode(), s.password.encode())
    for s in servers:  # warm up
        L['sequential'](s.port, s.name, 100)
    for run in range(RUNS):
        k = run % len(servers)
        for s in servers[k:] + servers[:k]:
            for kind in ('sequential', 'parallel'):
                with B.measuring():
                    me0 = resource.getrusage(resource.RUSAGE_SELF); ch0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                    c0 = tree_ticks(s.proc.pid); t0 = time.perf_counter()
                    if kind == 'sequential':
                        # SEQ logins, or as many as 10 s allow (the peers
                        # that crypt() a password take milliseconds each).
                        n, end = 0, t0 + 10
                        while n < SEQ and time.perf_counter() < end:
                            L['login_once'](s.port, s.user.encode(), s.password.encode())
                            n += 1
                    else:
                        n = L['parallel'](s.port, s.name)
                    secs = time.perf_counter() - t0; c1 = tree_ticks(s.proc.pid)
                    me1 = resource.getrusage(resource.RUSAGE_SELF); ch1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                gen = (me1.ru_utime + me1.ru_stime - me0.ru_utime - me0.ru_stime
                       + ch1.ru_utime + ch1.ru_stime - ch0.ru_utime - ch0.ru_stime)
                res.setdefault((s.name, f'logins/s {kind}'), []).append(n / secs)
                res.setdefault((s.name, f'server CPU µs/login {kind}'), []).append((c1 - c0) * 1e6 / n)
                res.setdefault((s.name, f'load generator CPU % {kind}'), []).append(100 * gen / secs)
        print(f'# logins run {run + 1} done', flush=True)


def idle_sessions(servers, res):
    for s in servers:
        for count in IDLE:
            for _ in range(RUNS):
                added = idle_once(s, count)
                if added is not None:
                    res.setdefault((s.name, f'{count} idle sessions, added MiB'), []).append(added)
                time.sleep(1)
        print(f'# idle sessions {s.name} done', flush=True)


def idle_once(s, count):
    """Opens `count` logged-in sessions; returns the MiB they added."""
    with B.measuring():
        before = tree_pss_kib(s.proc.pid)
        socks = []
        try:
            for _ in range(count):
                c = socket.create_connection(('127.0.0.1', s.port), timeout=30)
                f = c.makefile('rb')
                socks.append((c, f))
                for cmd in (None, f'USER {s.user}', f'PASS {s.password}'):
                    if cmd:
                        c.sendall(cmd.encode() + b'\r\n')
                    line = f.readline()
                    while line[3:4] == b'-':
                        line = f.readline()
                if not line.startswith(b'230'):
                    raise RuntimeError(f'login: {line!r}')
            time.sleep(1)
            return (tree_pss_kib(s.proc.pid) - before) / 1024
        except (OSError, RuntimeError) as e:
            print(f'# {s.name}: idle sessions: {e} after {len(socks)}')
            return None
        finally:
            for c, f in socks:
                f.close(); c.close()


def report(res, servers, ours='babelftp'):
    names = [s.name for s in servers]
    figures = []
    for (n, fig) in res:
        if n in names and fig not in figures:
            figures.append(fig)
    w = max(len(f) for f in figures) if figures else 10
    print('\n## medians of', RUNS, 'runs')
    print(' ' * w + ''.join(f'{n:>13}' for n in names) + '   babelftp / best peer')
    lower_better = ('CPU', 'MiB')
    for fig in figures:
        row, vals = f'{fig:<{w}}', {}
        for n in names:
            v = res.get((n, fig))
            if v:
                vals[n] = B.median(v)
                row += f'{vals[n]:>13.1f}'
            else:
                row += f'{"-":>13}'
        peers = {n: v for n, v in vals.items() if n != ours and not n.startswith('baseline')}
        if ours in vals and peers and 'load generator' not in fig:
            lower = any(x in fig for x in ('CPU', 'added'))
            best = min(peers.values()) if lower else max(peers.values())
            row += f'   {vals[ours] / best:.2f}' if best else ''
        print(row)


def main():
    P.ensure()
    res = {}
    if 'iperf' not in SKIP:
        v = iperf(RUNS)
        res[('iperf3', 'loopback TCP, one stream, MiB/s')] = v
        print(f'# iperf3 one stream: {B.median(v):.0f} MiB/s', flush=True)
    base = tempfile.mkdtemp(prefix='babelftp-all-', dir='/dev/shm')
    servers = []
    try:
        os.chmod(base, 0o755)
        big = os.path.join(base, 'big.bin')
        with open(big, 'wb') as f:
            block = os.urandom(1 << 20)
            for _ in range(MIB):
                f.write(block)
        up_src = os.path.join(base, 'up-src.bin'); shutil.copy(big, up_src)
        smalls = []
        for i in range(FILES):
            p = os.path.join(base, f'f{i}.bin')
            with open(p, 'wb') as f:
                f.write(os.urandom(1 << 20))
            smalls.append(p)
        for p in [big, up_src] + smalls:
            os.chmod(p, 0o644)
        servers = start_all(base, big, smalls)
        if 'transfer' not in SKIP:
            transfers(servers, up_src, res)
        if 'parallel' not in SKIP:
            parallel_downloads(servers, res)
        if 'ftplib' not in SKIP:
            parallel_ftplib(servers, res)
        if 'logins' not in SKIP:
            logins(servers, res)
        if 'idle' not in SKIP:
            idle_sessions(servers, res)
        report(res, servers)
        if 'iperf' not in SKIP:
            print(f'iperf3 loopback TCP, one stream: {B.median(res[("iperf3", "loopback TCP, one stream, MiB/s")]):.0f} MiB/s')
        if os.environ.get('JSON'):
            with open(os.environ['JSON'], 'w') as f:
                json.dump({f'{n}|{fig}': v for (n, fig), v in res.items()}, f, indent=1)
    finally:
        for s in servers:
            B.stop(s.proc)
        shutil.rmtree(base, ignore_errors=True)
    if 'listing' not in SKIP:
        print('\n## listings (bench/listing.py)', flush=True)
        subprocess.run([sys.executable, os.path.join(B.HERE, 'listing.py'), str(RUNS)], check=False)


if __name__ == '__main__':
    main()
