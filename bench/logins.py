#!/usr/bin/env python3
"""Logins per second, and the server's CPU time per login.

Starts `babelftp serve --user u:p` on an empty root on tmpfs (and the
baseline, see below), then, for the plain-text user u/p and for anonymous
(USER anonymous, PASS guest@), RUNS times:
  (a) sequential: SEQ logins one after another, each a new connection:
      greeting, USER, PASS, QUIT, the server's close;
  (b) parallel: CLIENTS connections at once, each doing PER such logins in
      a row (CLIENTS x PER logins), from PROCS client processes that drive
      their share of the connections with epoll;
  (c) the server's CPU time (utime + stime of all its threads, from
      /proc/<pid>/stat) over (a) and over (b), per login.
Prints the medians over the runs and, with a baseline, the ratios.

The client is raw sockets (no ftplib) so that it costs little next to the
server; the two share the machine's CPUs, so (a) and (b) are bounded by
the client too: (c) is the figure that is the server's alone. The server
closes first (the client reads its EOF after 221), so TIME_WAIT stays on
the server's side and the client's ephemeral ports do not run out.

The babelftp measured is $BABELFTP_BIN (default target/release/babelftp);
with BABELFTP_BASELINE=/path/to/other/babelftp that one is measured too,
in turn, and the ratio new/baseline printed. See bench/benchlib.py for
BENCH_PAUSE. With FLOOR=1, the floor is measured too, in turn: a server
that does nothing but a login's system calls, one connection at a time on
blocking sockets (crates/server/examples/login_floor.rs, built here). What
it spends per login is the kernel's share that no server can avoid.
Usage: bench/logins.py [RUNS] [SEQ] [CLIENTS] [PER] [PROCS]
(defaults 5 3000 50 100 2).
"""
import multiprocessing, os, re, select, shutil, socket, sys, tempfile, time

import benchlib as B

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
SEQ = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
CLIENTS = int(sys.argv[3]) if len(sys.argv) > 3 else 50
PER = int(sys.argv[4]) if len(sys.argv) > 4 else 100
PROCS = int(sys.argv[5]) if len(sys.argv) > 5 else 2

ACCOUNTS = {'user': (b'u', b'p'), 'anonymous': (b'anonymous', b'guest@')}
# The last line of a complete reply: three digits and a space.
LAST = re.compile(rb'(?:^|\n)(\d{3}) [^\n]*\n$')


def reply_code(buf):
    """The code of the complete reply in `buf`, or None while it is not."""
    m = LAST.search(buf)
    return int(m.group(1)) if m else None


def read_reply(s, buf=b''):
    while True:
        code = reply_code(buf)
        if code is not None:
            return code
        b = s.recv(4096)
        if not b:
            raise ConnectionError(f'closed before a reply: {buf!r}')
        buf += b


def expect(code, want, what):
    if code not in want:
        raise RuntimeError(f'{what}: {code}, expected {want}')


def login_once(port, user, pw):
    s = socket.create_connection(('127.0.0.1', port))
    try:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        expect(read_reply(s), (220,), 'greeting')
        s.sendall(b'USER ' + user + b'\r\n')
        code = read_reply(s)
        expect(code, (230, 331), 'USER')
        if code == 331:
            s.sendall(b'PASS ' + pw + b'\r\n')
            expect(read_reply(s), (230,), 'PASS')
        s.sendall(b'QUIT\r\n')
        expect(read_reply(s), (221,), 'QUIT')
        while s.recv(4096):
            pass
    finally:
        s.close()


def sequential(port, account, n):
    user, pw = ACCOUNTS[account]
    for _ in range(n):
        login_once(port, user, pw)


# The parallel client: one state machine per connection, under epoll.
GREET, USER, PASS, QUIT, EOF = range(5)


class Conn:
    __slots__ = ('sock', 'state', 'buf', 'left')


def parallel_worker(port, account, conns, per, out):
    """Runs `conns` connections at once, each doing `per` logins in a row;
    puts the number of logins done (or an error) on `out`."""
    try:
        user, pw = ACCOUNTS[account]
        cmd_user, cmd_pass = b'USER ' + user + b'\r\n', b'PASS ' + pw + b'\r\n'
        ep = select.epoll()
        by_fd = {}

        def open_conn(c):
            s = socket.socket()
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            s.setblocking(False)
            try:
                s.connect(('127.0.0.1', port))
            except BlockingIOError:
                pass
            c.sock, c.state, c.buf = s, GREET, b''
            by_fd[s.fileno()] = c
            ep.register(s.fileno(), select.EPOLLIN)

        for _ in range(conns):
            c = Conn(); c.left = per
            open_conn(c)
        done = 0
        active = conns
        while active:
            for fd, ev in ep.poll():
                c = by_fd[fd]
                try:
                    b = c.sock.recv(4096)
                except BlockingIOError:
                    continue
                if c.state == EOF:
                    if b:
                        continue
                    ep.unregister(fd); del by_fd[fd]; c.sock.close()
                    done += 1; c.left -= 1
                    if c.left:
                        open_conn(c)
                    else:
                        active -= 1
                    continue
                if not b:
                    raise ConnectionError(f'closed in state {c.state}: {c.buf!r}')
                c.buf += b
                code = reply_code(c.buf)
                if code is None:
                    continue
                c.buf = b''
                if c.state == GREET:
                    expect(code, (220,), 'greeting')
                    c.sock.send(cmd_user); c.state = USER
                elif c.state == USER:
                    expect(code, (230, 331), 'USER')
                    if code == 331:
                        c.sock.send(cmd_pass); c.state = PASS
                    else:
                        c.sock.send(b'QUIT\r\n'); c.state = QUIT
                elif c.state == PASS:
                    expect(code, (230,), 'PASS')
                    c.sock.send(b'QUIT\r\n'); c.state = QUIT
                elif c.state == QUIT:
                    expect(code, (221,), 'QUIT')
                    c.state = EOF
        out.put(done)
    except Exception as e:  # noqa: BLE001 (sent to the parent)
        out.put(f'{type(e).__name__}: {e}')


def parallel(port, account):
    """CLIENTS connections over PROCS processes; returns logins done."""
    ctx = multiprocessing.get_context('fork')
    out = ctx.Queue()
    shares = [CLIENTS // PROCS + (1 if i < CLIENTS % PROCS else 0) for i in range(PROCS)]
    ps = [ctx.Process(target=parallel_worker, args=(port, account, n, PER, out)) for n in shares if n]
    for p in ps: p.start()
    results = [out.get() for _ in ps]
    for p in ps: p.join()
    bad = [r for r in results if not isinstance(r, int)]
    if bad:
        raise SystemExit(f'parallel client failed: {bad[0]}')
    return sum(results)


def timed(pid, f, n):
    """Runs f(); returns (logins/s, server CPU µs per login)."""
    c0 = B.cpu_ticks(pid); t0 = time.perf_counter()
    done = f()
    secs = time.perf_counter() - t0; c1 = B.cpu_ticks(pid)
    n = done if isinstance(done, int) else n
    return n / secs, (c1 - c0) / B.TICK * 1e6 / n


bins = B.binaries()
B.describe(bins)
print(f'# {RUNS} runs; sequential {SEQ} logins; parallel {CLIENTS} clients x {PER} logins '
      f'from {PROCS} processes; clock tick {1e6 / B.TICK:.0f} µs')
top = tempfile.mkdtemp(prefix='babelftp-logins-', dir='/dev/shm' if os.path.isdir('/dev/shm') else None)
procs = {}
try:
    root = os.path.join(top, 'root'); os.makedirs(root)
    with open(os.path.join(root, 'README.txt'), 'w') as f:
        f.write('logins bench\n')
    ports = {}
    for label, path in bins:
        ports[label] = B.free_port()
        procs[label] = B.serve(path, root, ports[label], '--max-connections', str(CLIENTS + 64),
                               '--max-per-ip', str(CLIENTS + 64), '--anonymous')
    labels = [label for label, _ in bins]
    if os.environ.get('FLOOR'):
        import subprocess
        subprocess.run(['cargo', 'build', '--quiet', '--release', '-p', 'babelftp-server', '--example', 'login_floor'],
                       cwd=B.TOP, check=True)
        ports['floor'] = B.free_port()
        procs['floor'] = subprocess.Popen([os.path.join(B.TOP, 'target', 'release', 'examples', 'login_floor'),
                                          str(ports['floor'])], stdin=subprocess.DEVNULL)
        B.wait_greeting(ports['floor'], procs['floor'])
        labels.append('floor')
    for label in labels:  # warm up: thread pools, allocator, page cache
        sequential(ports[label], 'user', 200)
        sequential(ports[label], 'anonymous', 200)
    figures = ('seq/s', 'par/s', 'seq cpu', 'par cpu')
    res = {(l, a, f): [] for l in labels for a in ACCOUNTS for f in figures}
    for run in range(RUNS):
        order = labels if run % 2 == 0 else labels[::-1]
        for account in ACCOUNTS:
            for label in order:
                port, pid = ports[label], procs[label].pid
                with B.measuring():
                    rate, cpu = timed(pid, lambda: sequential(port, account, SEQ), SEQ)
                    res[(label, account, 'seq/s')].append(rate); res[(label, account, 'seq cpu')].append(cpu)
                    prate, pcpu = timed(pid, lambda: parallel(port, account), CLIENTS * PER)
                    res[(label, account, 'par/s')].append(prate); res[(label, account, 'par cpu')].append(pcpu)
                print(f'# run {run + 1} {account:9} {label:8}: sequential {rate:6.0f}/s {cpu:5.0f} µs CPU; '
                      f'parallel {prate:6.0f}/s {pcpu:5.0f} µs CPU per login', flush=True)
    rows = []
    for account in ACCOUNTS:
        for f, name, fmt in (('seq/s', 'logins/s sequential', '.0f'), ('par/s', f'logins/s {CLIENTS} parallel', '.0f'),
                             ('seq cpu', 'server CPU µs/login, seq', '.0f'),
                             ('par cpu', 'server CPU µs/login, par', '.0f')):
            rows.append((f'{account}: {name}', {l: res[(l, account, f)] for l in labels}, fmt))
    print(f'# medians of {RUNS} runs')
    B.table(rows, labels)
    for label in labels:
        if procs[label].poll() is not None:
            raise SystemExit(f'{label} exited during the bench: {procs[label].returncode}')
finally:
    for p in procs.values():
        B.stop(p)
    shutil.rmtree(top, ignore_errors=True)
