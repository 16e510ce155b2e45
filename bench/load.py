#!/usr/bin/env python3
"""Load test: many concurrent checksummed sessions against babelftp.

Starts `babelftp serve` ($BABELFTP_BIN, default target/release/babelftp) on
a temporary root in tmpfs, then runs ROUNDS rounds. Each round opens
SESSIONS concurrent sessions (threads, released together by a barrier).
Each session logs in, uploads a file of its own (random bytes, 64 KiB to
1 MiB), downloads it back, downloads a shared 1 MiB file, and quits. Both
downloads are checked by SHA-256. After each round the files on disk are
checked against what was sent.

It prints per round: sessions, bytes moved, errors (a session that failed
somewhere: connect, login, transfer), corrupted (a download whose checksum
differs), lost (an uploaded file missing or different on disk), the peak
RSS of the server sampled every 20 ms, and its RSS once the round is over
and the server has been idle for 12 s (tokio's blocking threads
exit after 10 s idle). The server runs once for all rounds, so
memory that is not given back shows up in the idle column.

Loopback only, bounded: SESSIONS threads at most. The load generator's own
CPU time is printed too, so a saturated client can be told from a slow
server, and so is the server's CPU time over the round (and the idle time
after it, so a hook's trailing deliveries count). LOAD_USER=quota|store: log in as a user of an accounts store, with
or without a quota (see USER below); LOAD_HOOK=1: every event to a webhook. Usage: bench/load.py [SESSIONS]
[ROUNDS]   (default 1000 3)
"""
import ftplib, hashlib, io, os, random, resource, shutil, sys, tempfile, threading, time

import benchlib as B

SESSIONS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
# LOAD_USER=quota or store: the sessions log in as a user of a SQLite
# accounts store made here (an argon2 password each login), with a quota of
# 1 TiB (every upload metered) or without; default: the users file's u.
USER = {'quota': 'q', 'store': 'r'}.get(os.environ.get('LOAD_USER', ''), 'u')
# LOAD_HOOK=1: the server sends every event (logins, uploads, downloads,
# logouts) to a webhook, a small HTTP receiver in this process answering 204.
HOOK = os.environ.get('LOAD_HOOK') == '1'


def start_receiver():
    """An HTTP receiver on a free port that counts the events it gets."""
    import http.server
    got = [0]

    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = 'HTTP/1.1'

        def do_POST(self):
            self.rfile.read(int(self.headers.get('content-length', '0')))
            got[0] += 1
            self.send_response(204)
            self.send_header('content-length', '0')
            self.end_headers()

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, got
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3


def session(port, i, rnd, shared_sum, results, barrier):
    rng = random.Random(rnd * 100003 + i)
    data = rng.randbytes(rng.randint(64 << 10, 1 << 20))
    name = f'r{rnd}-s{i:04d}-файл.bin'
    moved = 0
    try:
        barrier.wait(timeout=120)
        f = ftplib.FTP()
        f.connect('127.0.0.1', port, timeout=120)
        f.login(USER, 'p')
        f.storbinary(f'STOR {name}', io.BytesIO(data), blocksize=65536)
        moved += len(data)
        back = hashlib.sha256()
        n = [0]
        def take(b):
            back.update(b); n[0] += len(b)
        f.retrbinary(f'RETR {name}', take, blocksize=65536)
        moved += n[0]
        shared = hashlib.sha256()
        m = [0]
        def take2(b):
            shared.update(b); m[0] += len(b)
        f.retrbinary('RETR shared.bin', take2, blocksize=65536)
        moved += m[0]
        f.quit()
        corrupt = (back.digest() != hashlib.sha256(data).digest()) + (shared.digest() != shared_sum)
        results[i] = ('ok', moved, corrupt, name, hashlib.sha256(data).digest())
    except Exception as e:  # noqa: BLE001 - every failure is counted
        results[i] = ('error', moved, 0, name, hashlib.sha256(data).digest(), repr(e)[:200])


def main():
    binary = os.environ.get('BABELFTP_BIN') or os.path.join(B.TOP, 'target', 'release', 'babelftp')
    if not os.path.isfile(binary):
        raise SystemExit(f'{binary} missing: cargo build --release -p babelftp')
    base = tempfile.mkdtemp(prefix='babelftp-load-', dir='/dev/shm' if os.path.isdir('/dev/shm') else None)
    root = os.path.join(base, 'root')
    os.mkdir(root)
    shared = random.Random(7).randbytes(1 << 20)
    with open(os.path.join(root, 'shared.bin'), 'wb') as f:
        f.write(shared)
    shared_sum = hashlib.sha256(shared).digest()
    # Threads need file descriptors: two per session here, two there.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * SESSIONS + 256)), hard))
    threading.stack_size(256 << 10)
    B.describe([('babelftp', binary)])
    print(f'# root on {base}')
    port = B.free_port()
    store = []
    if USER != 'u':
        import subprocess
        db = 'sqlite:' + os.path.join(base, 'users.db')
        for name in ('q', 'r'):
            subprocess.run([binary, 'user', 'add', name, '--db', db], input=b'p\n', check=True,
                           stdout=subprocess.DEVNULL)
        subprocess.run([binary, 'user', 'set', 'q', '--quota-bytes', '1TiB', '--db', db], check=True,
                       stdout=subprocess.DEVNULL)
        store = ['--db', db]
        print(f'# sessions log in as {USER} of {db}' + (' (quota 1 TiB)' if USER == 'q' else ''))
    if HOOK:
        receiver, events_got = start_receiver()
        store += ['--hook', f'http://127.0.0.1:{receiver.server_address[1]}/events']
        print('# every event goes to a webhook in this process')
    srv = B.serve(binary, root, port, '--max-connections', str(SESSIONS + 10),
                  '--max-per-ip', str(SESSIONS + 10), '--passive-ports', '30000-39999',
                  '--fsync', 'never', *store)
    print(f'# {SESSIONS} concurrent sessions x {ROUNDS} rounds; each: STOR 64 KiB-1 MiB, RETR it, RETR 1 MiB shared, SHA-256 both')
    try:
        time.sleep(0.5)
        start_rss = B.rss_kib(srv.pid)
        print(f'# server RSS at start: {start_rss / 1024:.1f} MiB')
        print('round  sessions  MiB moved  errors  corrupted  lost  peak RSS MiB  idle RSS MiB  seconds  client CPU s  server CPU s')
        totals = {'errors': 0, 'corrupted': 0, 'lost': 0}
        for rnd in range(1, ROUNDS + 1):
            results = [None] * SESSIONS
            barrier = threading.Barrier(SESSIONS)
            threads = [threading.Thread(target=session, args=(port, i, rnd, shared_sum, results, barrier))
                       for i in range(SESSIONS)]
            peak = [B.rss_kib(srv.pid)]
            done = threading.Event()
            def sample():
                while not done.is_set():
                    peak[0] = max(peak[0], B.rss_kib(srv.pid))
                    time.sleep(0.02)
            sampler = threading.Thread(target=sample); sampler.start()
            c0 = resource.getrusage(resource.RUSAGE_SELF); t0 = time.perf_counter(); s0 = B.cpu_ticks(srv.pid)
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            t1 = time.perf_counter(); c1 = resource.getrusage(resource.RUSAGE_SELF)
            done.set(); sampler.join()
            errors = sum(1 for r in results if r is None or r[0] == 'error')
            corrupted = sum(r[2] for r in results if r is not None)
            lost = 0
            for r in results:
                if r is None:
                    continue
                p = os.path.join(root, r[3])
                if r[0] == 'ok':
                    try:
                        with open(p, 'rb') as f:
                            lost += hashlib.sha256(f.read()).digest() != r[4]
                    except OSError:
                        lost += 1
            moved = sum(r[1] for r in results if r is not None)
            # tokio's idle blocking threads exit after 10 s.
            time.sleep(12.0)
            idle = B.rss_kib(srv.pid)
            # The server's CPU over the round and the idle time after it
            # (a hook's deliveries that trail the round included).
            server_cpu = (B.cpu_ticks(srv.pid) - s0) / os.sysconf('SC_CLK_TCK')
            cpu = (c1.ru_utime + c1.ru_stime) - (c0.ru_utime + c0.ru_stime)
            print(f'{rnd:5d}  {SESSIONS:8d}  {moved / 2**20:9.0f}  {errors:6d}  {corrupted:9d}  {lost:4d}  '
                  f'{peak[0] / 1024:12.1f}  {idle / 1024:12.1f}  {t1 - t0:7.1f}  {cpu:12.1f}  {server_cpu:12.1f}', flush=True)
            for r in results:
                if r is not None and r[0] == 'error':
                    print(f'#   error: {r[5]}')
                    break
            totals['errors'] += errors; totals['corrupted'] += corrupted; totals['lost'] += lost
            for r in results:
                if r is not None:
                    try:
                        os.remove(os.path.join(root, r[3]))
                    except OSError:
                        pass
        print(f'# total: errors {totals["errors"]}, corrupted {totals["corrupted"]}, lost {totals["lost"]}; '
              f'RSS at start {start_rss / 1024:.1f} MiB, after the last round {idle / 1024:.1f} MiB')
        if HOOK:
            # Events still on their way get a few seconds.
            want = ROUNDS * SESSIONS * 4
            for _ in range(100):
                if events_got[0] >= want:
                    break
                time.sleep(0.1)
            print(f'# webhook received {events_got[0]} events (at least {want} expected: login, upload, 2 downloads each; and logouts)')
    finally:
        B.stop(srv)
        shutil.rmtree(base, ignore_errors=True)


if __name__ == '__main__':
    main()
