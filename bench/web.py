#!/usr/bin/env python3
"""Web view (issue 31) against nginx: the same tree over HTTP, in one run.

Builds a tree in tmpfs (/dev/shm, removed at the end) and serves it with
both servers at once, each on its own free loopback port:

- nginx 1.22 from Debian, unpacked by scripts/nginx.sh into target/nginx
  (run here if needed; it installs nothing), started by `scripts/nginx.sh
  run`: `autoindex on`, `sendfile on`, `tcp_nopush on`, a master and one
  worker a core, access log off, listen backlog 1024 (tokio's);
- babelftp ($BABELFTP_BIN, default target/release/babelftp) as
  `babelftp serve --root ROOT --listen 127.0.0.1:FTP --http-listen
  127.0.0.1:HTTP --anonymous` plus $WEB_BABELFTP_ARGS (default
  `--max-connections 2000 --max-per-ip 2000`, as bench/load.py: the
  1,000 clients below all come from 127.0.0.1).

The tree: big/ with 10,000 entries (100 directories, 9,900 files of 0-5,000
bytes; names ASCII, Cyrillic, CJK and with & < > % # ? ' and spaces, so
that both escape HTML and URLs), small/ with the 1,000 files of 4-16 KiB
the concurrent clients fetch, and large.bin, 1 GiB of random bytes.

Before measuring, each server is checked once: the listing of big/ links
every one of the 10,000 entries (hrefs unescaped and URL-decoded), large.bin
comes whole with the right SHA-256, `Range: bytes=100-199` gives a 206 with
those bytes, and a file has an ETag. Then REPS rounds; each round measures
the two servers back to back, the order alternating from round to round,
each inside benchlib's `measuring()` (BENCH_PAUSE processes stopped, the
machine left to settle first):

a. the listing: GETS GETs of /big/ on one keep-alive connection
   (http.client; a server that closes it makes http.client reconnect, and
   that counts), after 3 to warm up: the median time per GET, and the page's
   size. Target: babelftp within 1.5x of nginx's time.
b. the 1 GiB download: `curl -s -o /dev/null -w %{speed_download}`, MiB/s,
   the median of DOWNLOADS downloads (loopback throughput is bimodal here,
   ~2,000 or ~3,100 MiB/s for nginx, with where the scheduler puts curl
   and the server). Target: babelftp at least 0.9x nginx's throughput.
c. CLIENTS concurrent downloads of the small files: CLIENTS threads, each
   opens its own connection, released together by a barrier, GET one file
   and check it by SHA-256: errors (connect, status, short read, checksum;
   target 0) and the wall time from the barrier to the last one done.

The server's CPU time (its threads, or nginx's master and workers) is
given for each figure, so a saturated client (curl, 1,000 Python threads
on 2 cores) can be told from a slow server. Printed: one line a round and
server, a table of the medians over the rounds with babelftp/nginx
(ratio of the medians, the median of the per-round ratios and their
spread), and a one-line summary with the ratios against the targets.
Exits 1 when a check or a request failed (not when a target is missed).
Ctrl-C or SIGTERM stop both servers and remove the tree; after a SIGKILL
the servers still stop (PR_SET_PDEATHSIG) but /dev/shm/babelftp-web-*
stays behind.

Usage: bench/web.py [--nginx-only] [--reps N] [--gets N] [--clients N]
                    [--file-mib N] [--downloads N]  (defaults 5, 50, 1000, 1024, 3)
--nginx-only measures nginx alone (no babelftp started): for a binary
without the web view.
"""
import argparse, ctypes, hashlib, html.parser, http.client, os, random, resource
import shlex, shutil, signal, subprocess, sys, tempfile, threading, time, urllib.parse

import benchlib as B

ENTRIES = 10_000
DIRS = 100


def die_with_parent():
    """preexec_fn: the server gets SIGTERM if this script dies (even by
    SIGKILL), so no nginx or babelftp outlives a killed bench."""
    libc = ctypes.CDLL('libc.so.6', use_errno=True)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


# ------------------------------------------------------------------ the tree
def big_names():
    """The 10,000 names of big/: (name, is_dir)."""
    pats = ['file-{:05d}.txt', 'файл-{:05d}.txt', '文件-{:05d}.dat', 'a & b <{:05d}>.html',
            "50% #{:05d} l'?.bin"]
    out = []
    for i in range(ENTRIES):
        if i % (ENTRIES // DIRS) == 0:
            out.append((f'dir-{i:05d}', True))
        else:
            out.append((pats[i % len(pats)].format(i), False))
    return out


def build_tree(root, clients, file_mib):
    t0 = time.perf_counter()
    big = os.path.join(root, 'big')
    os.makedirs(big)
    for i, (name, is_dir) in enumerate(big_names()):
        p = os.path.join(big, name)
        if is_dir:
            os.mkdir(p)
        else:
            with open(p, 'wb') as f:
                f.write(b'x' * ((i * 37) % 5001))
    small = os.path.join(root, 'small')
    os.mkdir(small)
    rng = random.Random(31)
    files = []
    for i in range(clients):
        name = f'{i:04d}-файл.bin' if i % 10 == 0 else f'{i:04d}.bin'
        data = rng.randbytes(rng.randint(4 << 10, 16 << 10))
        with open(os.path.join(small, name), 'wb') as f:
            f.write(data)
        files.append((name, len(data), hashlib.sha256(data).digest()))
    h = hashlib.sha256()
    with open(os.path.join(root, 'large.bin'), 'wb') as f:
        left = file_mib << 20
        while left:
            chunk = os.urandom(min(left, 64 << 20))
            h.update(chunk); f.write(chunk); left -= len(chunk)
    print(f'# tree built in {time.perf_counter() - t0:.1f} s: big/ {ENTRIES} entries, '
          f'small/ {clients} files of 4-16 KiB, large.bin {file_mib} MiB', flush=True)
    return files, h.digest()


# ----------------------------------------------------------------- servers
class Server:
    def __init__(self, label, proc, port, log):
        self.label, self.proc, self.port, self.log = label, proc, port, log

    def pids(self):
        """The server's processes: itself and its children (nginx's workers)."""
        out = [self.proc.pid]
        try:
            for task in os.listdir(f'/proc/{self.proc.pid}/task'):
                with open(f'/proc/{self.proc.pid}/task/{task}/children') as f:
                    out += [int(p) for p in f.read().split()]
        except OSError:
            pass
        return out

    def cpu(self):
        """CPU seconds of the server so far (exited children not counted:
        nginx's workers live as long as it)."""
        total = 0
        for p in self.pids():
            try:
                total += B.cpu_ticks(p)
            except OSError:
                pass
        return total / B.TICK

    def tail(self, n=5):
        try:
            with open(self.log, errors='replace') as f:
                return ''.join(f.readlines()[-n:]).rstrip()
        except OSError:
            return ''


def wait_http(port, proc, what, timeout=15.0):
    """Waits until something answers HTTP on port (any status)."""
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f'{what} exited ({proc.returncode}) before answering HTTP on {port}')
        try:
            c = http.client.HTTPConnection('127.0.0.1', port, timeout=2)
            c.request('GET', '/')
            c.getresponse().read()
            c.close()
            return
        except OSError as e:
            last = e
        time.sleep(0.05)
    raise RuntimeError(f'{what}: nothing answers HTTP on {port} ({last})')


def start_nginx(base, root):
    subprocess.run(['bash', os.path.join(B.TOP, 'scripts', 'nginx.sh')], check=True)
    port = B.free_port()
    run = os.path.join(base, 'nginx')
    log = os.path.join(base, 'nginx.out')
    with open(log, 'wb') as out:
        p = subprocess.Popen(['bash', os.path.join(B.TOP, 'scripts', 'nginx.sh'), 'run', run, f'127.0.0.1:{port}', root],
                             stdin=subprocess.DEVNULL, stdout=out, stderr=out, preexec_fn=die_with_parent)
    s = Server('nginx', p, port, os.path.join(run, 'error.log'))
    try:
        wait_http(port, p, 'nginx')
    except RuntimeError as e:
        B.stop(p)
        raise SystemExit(f'{e}\n{s.tail()}\n{open(log, errors="replace").read()}')
    return s


def start_babelftp(binary, base, root):
    ftp, port = B.free_port(), B.free_port()
    log = os.path.join(base, 'babelftp.out')
    extra = shlex.split(os.environ.get('WEB_BABELFTP_ARGS', '--max-connections 2000 --max-per-ip 2000'))
    cmd = [binary, 'serve', '--root', root, '--listen', f'127.0.0.1:{ftp}', '--http-listen', f'127.0.0.1:{port}',
           '--anonymous', *extra]
    print(f'# babelftp: {" ".join(shlex.quote(c) for c in cmd)}')
    with open(log, 'wb') as out:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=out, preexec_fn=die_with_parent)
    s = Server('babelftp', p, port, log)
    try:
        B.wait_greeting(ftp, p)
        wait_http(port, p, 'babelftp')
    except (SystemExit, RuntimeError) as e:
        B.stop(p)
        raise SystemExit(f'babelftp did not start its web view: {e}\n{s.tail()}\n'
                         '(a binary without --http-listen? bench/web.py --nginx-only measures nginx alone)')
    return s


# ------------------------------------------------------------------ checks
class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = set()

    def handle_starttag(self, tag, attrs):
        if tag == 'a':
            for k, v in attrs:
                if k == 'href' and v is not None:
                    self.hrefs.add(v)


def get(port, path, headers=None):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=120)
    try:
        c.request('GET', path, headers=headers or {})
        r = c.getresponse()
        return r.status, dict((k.lower(), v) for k, v in r.getheaders()), r.read()
    finally:
        c.close()


def check(server, root, large_sum, file_mib):
    """The one-time checks; returns a list of failures."""
    bad = []
    status, _, body = get(server.port, '/big/')
    if status != 200:
        return [f'GET /big/: {status}']
    p = Links()
    p.feed(body.decode('utf-8', errors='replace'))
    got = set()
    for h in p.hrefs:
        h = urllib.parse.urlsplit(h).path
        if h.startswith('/big/'):
            h = h[len('/big/'):]
        got.add(urllib.parse.unquote(h))
    want = {n + '/' if d else n for n, d in big_names()}
    missing = want - got
    if missing:
        bad.append(f'the listing of /big/ lacks {len(missing)} of {len(want)} entries, e.g. {sorted(missing)[:3]}')
    # The whole large file, by SHA-256, streamed.
    c = http.client.HTTPConnection('127.0.0.1', server.port, timeout=120)
    c.request('GET', '/large.bin')
    r = c.getresponse()
    h, n = hashlib.sha256(), 0
    while True:
        b = r.read(1 << 20)
        if not b:
            break
        h.update(b); n += len(b)
    c.close()
    if r.status != 200 or n != file_mib << 20 or h.digest() != large_sum:
        bad.append(f'GET /large.bin: status {r.status}, {n} bytes, SHA-256 {"ok" if h.digest() == large_sum else "wrong"}')
    status, hdrs, body = get(server.port, '/large.bin', {'Range': 'bytes=100-199'})
    with open(os.path.join(root, 'large.bin'), 'rb') as f:
        f.seek(100); want_bytes = f.read(100)
    if status != 206 or body != want_bytes:
        bad.append(f'Range bytes=100-199: status {status}, {len(body)} bytes, {"right" if body == want_bytes else "wrong"} bytes')
    status, hdrs, _ = get(server.port, '/small/0001.bin')
    if status != 200 or 'etag' not in hdrs:
        bad.append(f'GET /small/0001.bin: status {status}, ETag {hdrs.get("etag")}')
    return bad


# ---------------------------------------------------------------- figures
def listing(port, gets):
    """(median seconds per GET of /big/, page bytes, reconnects)."""
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=60)
    times, size, closes = [], 0, 0
    for i in range(3 + gets):
        t0 = time.perf_counter()
        c.request('GET', '/big/')
        r = c.getresponse()
        body = r.read()
        t1 = time.perf_counter()
        if r.status != 200:
            raise RuntimeError(f'GET /big/: {r.status}')
        closes += r.will_close
        size = len(body)
        if i >= 3:
            times.append(t1 - t0)
    c.close()
    return B.median(times), size, closes


def download(port, file_mib):
    """MiB/s of one GET of large.bin by curl."""
    out = subprocess.run(['curl', '-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{speed_download}',
                          f'http://127.0.0.1:{port}/large.bin'], capture_output=True, text=True, timeout=600)
    code, size, speed = out.stdout.split()
    if code != '200' or int(float(size)) != file_mib << 20:
        raise RuntimeError(f'curl: status {code}, {size} bytes (curl exit {out.returncode})')
    return float(speed) / 2**20


def concurrent(port, files, clients):
    """(errors, wall seconds, first error): CLIENTS threads, one GET each."""
    results = [None] * clients
    barrier = threading.Barrier(clients + 1)

    def one(i):
        name, size, digest = files[i % len(files)]
        try:
            barrier.wait(timeout=120)
            c = http.client.HTTPConnection('127.0.0.1', port, timeout=120)
            c.request('GET', '/small/' + urllib.parse.quote(name))
            r = c.getresponse()
            body = r.read()
            c.close()
            if r.status != 200:
                results[i] = f'{name}: status {r.status}'
            elif len(body) != size or hashlib.sha256(body).digest() != digest:
                results[i] = f'{name}: {len(body)} bytes of {size}, SHA-256 wrong'
            else:
                results[i] = 'ok'
        except Exception as e:  # noqa: BLE001 - every failure is counted
            results[i] = f'{name}: {e!r}'[:200]

    threads = [threading.Thread(target=one, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    barrier.wait(timeout=120)
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    errs = [r for r in results if r != 'ok']
    return len(errs), wall, (errs[0] if errs else None) or ('no result' if None in results else None)


def measure(server, args, files):
    """One round of the three figures for one server: a dict."""
    out = {}
    c0 = server.cpu()
    t, size, closes = listing(server.port, args.gets)
    out['listing'] = t * 1000; out['page'] = size / 1024; out['closes'] = closes
    out['listing_cpu'] = (server.cpu() - c0) / (args.gets + 3) * 1000
    c0 = server.cpu()
    out['download'] = B.median([download(server.port, args.file_mib) for _ in range(args.downloads)])
    out['download_cpu'] = (server.cpu() - c0) / (args.downloads * args.file_mib / 1024)
    c0 = server.cpu()
    out['errors'], out['wall'], out['first_error'] = concurrent(server.port, files, args.clients)
    out['concurrent_cpu'] = server.cpu() - c0
    return out


# ------------------------------------------------------------------ output
def table(rows, labels):
    """rows: (figure, {label: [per round]}, fmt, sum?). With nginx and
    babelftp both there: babelftp/nginx of the medians, the median of the
    per-round ratios and their min-max."""
    both = labels == ['nginx', 'babelftp']
    head = ['figure'] + labels + (['babelftp/nginx', 'paired', 'paired min-max'] if both else [])
    lines = [head]
    for name, vals, fmt, total in rows:
        agg = sum if total else B.median
        line = [name] + [format(agg(vals[l]), fmt) if vals.get(l) else '-' for l in labels]
        if both:
            if total:
                line += ['', '', '']
            else:
                pairs = [B.ratio(a, b) for a, b in zip(vals['babelftp'], vals['nginx'])]
                line += [f"{B.ratio(B.median(vals['babelftp']), B.median(vals['nginx'])):.2f}",
                         f'{B.median(pairs):.2f}', f'{min(pairs):.2f}-{max(pairs):.2f}']
        lines.append(line)
    w = [max(len(l[i]) for l in lines) for i in range(len(head))]
    for l in lines:
        print('  '.join([l[0].ljust(w[0])] + [c.rjust(w[i + 1]) for i, c in enumerate(l[1:])]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    ap.add_argument('--nginx-only', action='store_true', help='measure nginx alone')
    ap.add_argument('--reps', type=int, default=5, help='rounds (default 5)')
    ap.add_argument('--gets', type=int, default=50, help='GETs of the listing a round (default 50)')
    ap.add_argument('--clients', type=int, default=1000, help='concurrent downloads (default 1000)')
    ap.add_argument('--file-mib', type=int, default=1024, help='size of large.bin in MiB (default 1024)')
    ap.add_argument('--downloads', type=int, default=3, help='downloads of large.bin a round, their median counts (default 3)')
    args = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that `finally` cleans up

    binary = os.path.abspath(os.environ.get('BABELFTP_BIN') or os.path.join(B.TOP, 'target', 'release', 'babelftp'))
    if not args.nginx_only and not os.access(binary, os.X_OK):
        raise SystemExit(f'{binary}: not an executable (cargo build --release -p babelftp?), or use --nginx-only')
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * args.clients + 256)), hard))
    threading.stack_size(256 << 10)

    base = tempfile.mkdtemp(prefix='babelftp-web-', dir='/dev/shm' if os.path.isdir('/dev/shm') else None)
    servers = []
    failed = False
    try:
        root = os.path.join(base, 'root')
        os.mkdir(root)
        print(f'# root on {root}')
        files, large_sum = build_tree(root, args.clients, args.file_mib)
        servers.append(start_nginx(base, root))
        nginx_v = subprocess.run(['bash', '-c', 'd=target/nginx; LD_LIBRARY_PATH="$(cat $d/ld-library-path)" '
                                  '$d/usr/sbin/nginx -v 2>&1; cat $d/.version-nginx'],
                                 cwd=B.TOP, capture_output=True, text=True).stdout.split('\n')
        print(f'# nginx: {B.TOP}/target/nginx/usr/sbin/nginx ({nginx_v[0].replace("nginx version: ", "")}, '
              f'Debian {nginx_v[1]}), port {servers[0].port}')
        if not args.nginx_only:
            B.describe([('babelftp', binary)])
            servers.append(start_babelftp(binary, base, root))
        labels = [s.label for s in servers]
        for s in servers:
            bad = check(s, root, large_sum, args.file_mib)
            for b in bad:
                print(f'# CHECK FAILED, {s.label}: {b}')
            if not bad:
                print(f'# checks passed, {s.label}: listing complete (10,000 links), large.bin SHA-256, Range 206, ETag')
            failed |= bool(bad)
        print(f'# {args.reps} rounds, alternating order; a round: {args.gets} GETs of /big/ (+3 warm-up), '
              f'{args.downloads} curl of large.bin, {args.clients} concurrent GETs of small/', flush=True)
        got = {l: [] for l in labels}
        for rnd in range(args.reps):
            order = servers if rnd % 2 == 0 else servers[::-1]
            for s in order:
                with B.measuring():
                    try:
                        m = measure(s, args, files)
                    except (OSError, RuntimeError, http.client.HTTPException, ValueError) as e:
                        print(f'# round {rnd + 1} {s.label}: FAILED: {e}', flush=True)
                        failed = True
                        continue
                got[s.label].append(m)
                failed |= m['errors'] > 0
                print(f'# round {rnd + 1} {s.label:8}: listing {m["listing"]:.2f} ms/GET ({m["page"]:.0f} KiB'
                      f'{", " + str(m["closes"]) + " reconnects" if m["closes"] else ""}), '
                      f'{args.file_mib} MiB at {m["download"]:.0f} MiB/s, '
                      f'{args.clients} GETs: {m["errors"]} errors in {m["wall"]:.2f} s'
                      + (f' (first: {m["first_error"]})' if m['first_error'] else ''), flush=True)

        def col(key):
            return {l: [m[key] for m in got[l]] for l in labels}
        print()
        table([
            (f'listing of {ENTRIES:,} entries, ms/GET', col('listing'), '.2f', False),
            ('  server CPU ms per GET', col('listing_cpu'), '.1f', False),
            ('listing page, KiB', col('page'), '.0f', False),
            (f'download {args.file_mib} MiB, MiB/s', col('download'), '.0f', False),
            ('  server CPU s per GiB', col('download_cpu'), '.2f', False),
            (f'{args.clients:,} concurrent GETs, wall s', col('wall'), '.2f', False),
            ('  server CPU s', col('concurrent_cpu'), '.2f', False),
            (f'{args.clients:,} concurrent GETs, errors (all rounds)', col('errors'), 'd', True),
        ], labels)
        lis, dl, wall, errs = col('listing'), col('download'), col('wall'), col('errors')
        if args.nginx_only or not got.get('babelftp'):
            print(f'# summary (nginx only): listing {B.median(lis["nginx"]):.2f} ms/GET, '
                  f'download {B.median(dl["nginx"]):.0f} MiB/s, {args.clients:,} concurrent: '
                  f'{sum(errs["nginx"])} errors, {B.median(wall["nginx"]):.2f} s')
        else:
            rl = B.ratio(B.median(lis['babelftp']), B.median(lis['nginx']))
            rd = B.ratio(B.median(dl['babelftp']), B.median(dl['nginx']))
            rw = B.ratio(B.median(wall['babelftp']), B.median(wall['nginx']))
            e_b, e_n = sum(errs['babelftp']), sum(errs['nginx'])
            ok = lambda c: 'met' if c else 'MISSED'  # noqa: E731
            print(f'# summary: listing babelftp/nginx {rl:.2f}x the time (target <= 1.5: {ok(rl <= 1.5)}), '
                  f'download {rd:.2f}x the throughput (target >= 0.9: {ok(rd >= 0.9)}), '
                  f'{args.clients:,} concurrent: errors {e_b} babelftp, {e_n} nginx (target 0: {ok(e_b == 0)}), '
                  f'wall {rw:.2f}x')
    finally:
        for s in servers:
            B.stop(s.proc)
        shutil.rmtree(base, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
