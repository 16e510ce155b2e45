#!/usr/bin/env python3
"""A flood of connections from a banned address against refused logins
(issue 29: "a flood of 10,000 connections from a banned address costs the
server less CPU than 10,000 refused logins cost today").

One release binary ($BABELFTP_BIN, default target/release/babelftp), two
servers on an empty root on tmpfs, both with a users file holding one
account `h` with an argon2 hash (made by `babelftp passwd`) and
`login_fail_delay_ms = 0` (the delay is a timer, not CPU, but it would make
the logins take hours):
  (a) banned: `[defender] allow = []`; 127.0.0.1 is banned first the way
      an attacker gets itself banned (three over-long command lines, 5
      points each, threshold 15); then CONNS connections from 127.0.0.1,
      each connect, read the server's close (no banner), close;
  (b) refused logins: `[defender] enabled = false`; LOGINS connections,
      each greeting, USER h, PASS wrong (argon2 verify, 530), QUIT, the
      server's close;
  (c) for scale, on (b)'s server: CONNS connections that read the banner
      and QUIT (what an ordinary, unbanned connection costs).
Each from PROCS client processes at once (blocking sockets). The figure is
the server's CPU time (utime + stime of all its threads, /proc/PID/stat)
over each, per connection, RUNS times; the medians and the ratio (b)/(a)
are printed. See bench/benchlib.py for BENCH_PAUSE.
Usage: bench/flood.py [CONNS] [LOGINS] [RUNS] [PROCS]
(defaults 10000 10000 3 4).
"""
import json, multiprocessing, os, shutil, socket, subprocess, sys, tempfile, time

import benchlib as B

CONNS = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
LOGINS = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
RUNS = int(sys.argv[3]) if len(sys.argv) > 3 else 3
PROCS = int(sys.argv[4]) if len(sys.argv) > 4 else 4


def read_reply(f):
    """The code of the next reply (multi-line aware), or None at EOF."""
    line = f.readline()
    if not line:
        return None
    code = line[:3]
    if line[3:4] == b'-':
        while True:
            l = f.readline()
            if not l or (l[:3] == code and l[3:4] == b' '):
                break
    return int(code)


def closed_at_once(port):
    """Connects; True when the server closes without a banner."""
    s = socket.create_connection(('127.0.0.1', port), timeout=10)
    try:
        return s.recv(16) == b''
    except ConnectionResetError:
        return True
    finally:
        s.close()


def banned_worker(port, n, out):
    try:
        greeted = sum(0 if closed_at_once(port) else 1 for _ in range(n))
        out.put(('ok', greeted))
    except Exception as e:  # noqa: BLE001 (reported to the parent)
        out.put(('error', repr(e)))


def session(port, lines, want):
    """One connection: the greeting, each line with its expected reply,
    then the server's close."""
    s = socket.create_connection(('127.0.0.1', port), timeout=30)
    try:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        f = s.makefile('rb')
        if read_reply(f) != 220:
            raise RuntimeError('no greeting')
        for line, code in zip(lines, want):
            s.sendall(line + b'\r\n')
            got = read_reply(f)
            if got != code:
                raise RuntimeError(f'{line!r}: {got}, expected {code}')
        while s.recv(4096):
            pass
    finally:
        s.close()


LOGIN = ([b'USER h', b'PASS wrong', b'QUIT'], [331, 530, 221])
HELLO = ([b'QUIT'], [221])


def session_worker(port, n, what, out):
    try:
        lines, want = LOGIN if what == 'login' else HELLO
        for _ in range(n):
            session(port, lines, want)
        out.put(('ok', 0))
    except Exception as e:  # noqa: BLE001 (reported to the parent)
        out.put(('error', repr(e)))


def in_parallel(target, port, n, *args):
    """Runs `target` in PROCS processes, n connections in all; the sum of
    what they report."""
    out = multiprocessing.Queue()
    share = [n // PROCS + (1 if i < n % PROCS else 0) for i in range(PROCS)]
    ps = [multiprocessing.Process(target=target, args=(port, k, *args, out)) for k in share if k]
    for p in ps:
        p.start()
    total = 0
    for _ in ps:
        kind, v = out.get()
        if kind != 'ok':
            raise SystemExit(f'client failed: {v}')
        total += v
    for p in ps:
        p.join()
    return total


def timed(pid, f, n):
    """Runs f(); returns (connections/s, server CPU µs per connection, f())."""
    c0 = B.cpu_ticks(pid); t0 = time.perf_counter()
    r = f()
    secs = time.perf_counter() - t0; c1 = B.cpu_ticks(pid)
    return n / secs, (c1 - c0) / B.TICK * 1e6 / n, r


def start(binary, root, port, conf):
    p = subprocess.Popen([binary, 'serve', '--root', root, '--listen', f'127.0.0.1:{port}', '--config', conf,
                          '--max-connections', '200', '--max-per-ip', '200'],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    B.wait_greeting(port, p)
    return p


def ban_loopback(port):
    """Three over-long lines from 127.0.0.1: banned (its session is closed)."""
    s = socket.create_connection(('127.0.0.1', port), timeout=10)
    f = s.makefile('rb')
    assert read_reply(f) == 220
    codes = []
    for _ in range(3):
        s.sendall(b'NOOP ' + b'x' * 5000 + b'\r\n')
        codes.append(read_reply(f))
    s.close()
    if codes != [500, 500, 500] or not closed_at_once(port):
        raise SystemExit(f'127.0.0.1 not banned: {codes}')


def main():
    bins = B.binaries()
    binary = bins[0][1]
    B.describe(bins[:1])
    print(f'# {RUNS} runs; {CONNS} connections from a banned address, {LOGINS} refused logins, '
          f'{PROCS} client processes; clock tick {1e6 / B.TICK:.0f} µs')
    top = tempfile.mkdtemp(prefix='babelftp-flood-', dir='/dev/shm' if os.path.isdir('/dev/shm') else None)
    procs = {}
    try:
        root = os.path.join(top, 'root'); os.makedirs(root)
        h = subprocess.run([binary, 'passwd'], input=b'bench-password\nbench-password\n', capture_output=True,
                           check=True)
        phc = h.stdout.decode().strip().splitlines()[-1]
        users = os.path.join(top, 'users.toml')
        with open(users, 'w') as f:
            f.write(f'[[user]]\nname = "h"\npassword = "{phc}"\nhome = "/"\n')
        common = f'users_file = {json.dumps(users)}\nlogin_fail_delay_ms = 0\n'
        confs = {
            # No flood scoring in the way of the measurement: the address
            # is banned already, a banned connection is not scored.
            'banned': common + '[defender]\nallow = []\nthreshold = 15\nban_time = 86400\n',
            'logins': common + '[defender]\nenabled = false\n',
        }
        ports = {}
        for k, text in confs.items():
            conf = os.path.join(top, f'{k}.toml')
            with open(conf, 'w') as f:
                f.write(text)
            ports[k] = B.free_port()
            procs[k] = start(binary, root, ports[k], conf)
        ban_loopback(ports['banned'])
        # Warm up.
        in_parallel(banned_worker, ports['banned'], 100)
        in_parallel(session_worker, ports['logins'], 2 * PROCS, 'login')
        res = {}
        for run in range(RUNS):
            with B.measuring():
                rate, cpu, greeted = timed(procs['banned'].pid,
                                           lambda: in_parallel(banned_worker, ports['banned'], CONNS), CONNS)
            if greeted:
                raise SystemExit(f'{greeted} connections of the banned address got a banner')
            res.setdefault('banned', []).append((rate, cpu))
            with B.measuring():
                lrate, lcpu, _ = timed(procs['logins'].pid,
                                       lambda: in_parallel(session_worker, ports['logins'], LOGINS, 'login'), LOGINS)
            res.setdefault('logins', []).append((lrate, lcpu))
            with B.measuring():
                hrate, hcpu, _ = timed(procs['logins'].pid,
                                       lambda: in_parallel(session_worker, ports['logins'], CONNS, 'hello'), CONNS)
            res.setdefault('hello', []).append((hrate, hcpu))
            print(f'# run {run + 1}: banned {rate:7.0f}/s {cpu:8.1f} µs CPU; refused logins {lrate:6.1f}/s '
                  f'{lcpu:8.1f} µs CPU; banner+QUIT {hrate:6.0f}/s {hcpu:8.1f} µs CPU per connection', flush=True)
        med = {k: (B.median([r for r, _ in v]), B.median([c for _, c in v])) for k, v in res.items()}
        print(f'# medians of {RUNS} runs, server CPU per connection')
        print(f'(a) connection from a banned address (closed at accept): {med["banned"][1]:10.1f} µs '
              f'({med["banned"][0]:.0f}/s); {CONNS} of them: {med["banned"][1] * CONNS / 1e6:.2f} s CPU')
        print(f'(b) refused login (argon2, defender off):                {med["logins"][1]:10.1f} µs '
              f'({med["logins"][0]:.1f}/s); {LOGINS} of them: {med["logins"][1] * LOGINS / 1e6:.2f} s CPU')
        print(f'(c) banner + QUIT, not banned (for scale):               {med["hello"][1]:10.1f} µs '
              f'({med["hello"][0]:.0f}/s)')
        print(f'ratio (b)/(a) per connection: {B.ratio(med["logins"][1], med["banned"][1]):.0f}x; '
              f'(c)/(a): {B.ratio(med["hello"][1], med["banned"][1]):.1f}x')
    finally:
        for p in procs.values():
            B.stop(p)
        shutil.rmtree(top, ignore_errors=True)


if __name__ == '__main__':
    main()
