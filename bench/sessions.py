#!/usr/bin/env python3
"""Memory of babelftp under many sessions and concurrent transfers.

Starts `babelftp serve` on a temporary root (tmpfs), then:
  1. opens N logged-in idle control sessions and reads the server's PSS;
  2. on a second, fresh server (so that what the idle sessions left in the
     allocator does not hide it), runs M concurrent downloads of different
     8 MiB files and samples the peak PSS every 10 ms.
RUNS times (fresh servers each time); prints the medians.

The babelftp measured is $BABELFTP_BIN (default target/release/babelftp);
with BABELFTP_BASELINE=/path/to/other/babelftp that one is measured too, in
turn, and the ratio new/baseline printed. See bench/benchlib.py for
BENCH_PAUSE. Usage: bench/sessions.py [N] [M] [RUNS]
"""
import ftplib, os, subprocess, sys, tempfile, threading, time

import benchlib as B

N = int(sys.argv[1]) if len(sys.argv) > 1 else 500
M = int(sys.argv[2]) if len(sys.argv) > 2 else 50
RUNS = int(sys.argv[3]) if len(sys.argv) > 3 else 3


def launch(binary, root):
    port = B.free_port()
    srv = B.serve(binary, root, port, '--passive-ports', '41000-41999',
                  '--max-connections', str(N + M + 10), '--max-per-ip', str(N + M + 10))
    time.sleep(0.3)
    return srv, port


def idle_sessions(binary, root):
    srv, port = launch(binary, root)
    try:
        base = B.pss_kib(srv.pid)
        sessions = []
        for _ in range(N):
            f = ftplib.FTP(); f.connect('127.0.0.1', port); f.login('u', 'p'); sessions.append(f)
        time.sleep(0.5)
        idle = B.pss_kib(srv.pid)
        for f in sessions:
            f.close()
        return {'base': base, 'idle': idle, 'per': (idle - base) / N}
    finally:
        B.stop(srv)


def downloads(binary, root):
    srv, port = launch(binary, root)
    try:
        base = B.pss_kib(srv.pid)
        peak = [0]
        done = threading.Event()

        def sample():
            while not done.is_set():
                peak[0] = max(peak[0], B.pss_kib(srv.pid)); time.sleep(0.01)

        errors = []

        def fetch(i):
            try:
                f = ftplib.FTP(); f.connect('127.0.0.1', port); f.login('u', 'p')
                n = [0]
                f.retrbinary(f'RETR f{i}.bin', lambda b: n.__setitem__(0, n[0] + len(b)), blocksize=1 << 16)
                assert n[0] == 8 << 20
                f.quit()
            except Exception as e:  # noqa: BLE001 (reported below)
                errors.append(e)

        t = threading.Thread(target=sample); t.start()
        start = time.time()
        workers = [threading.Thread(target=fetch, args=(i,)) for i in range(M)]
        for w in workers: w.start()
        for w in workers: w.join()
        secs = time.time() - start
        done.set(); t.join()
        if errors:
            raise SystemExit(f'{binary}: {len(errors)} downloads failed: {errors[0]!r}')
        return {'dl_base': base, 'peak': peak[0], 'rise': peak[0] - base, 'secs': secs}
    finally:
        B.stop(srv)


def measure(binary, root):
    return idle_sessions(binary, root) | downloads(binary, root)


bins = B.binaries()
B.describe(bins)
root = tempfile.mkdtemp(prefix='babelftp-bench-', dir='/dev/shm' if os.path.isdir('/dev/shm') else None)
try:
    for i in range(M):
        with open(os.path.join(root, f'f{i}.bin'), 'wb') as f:
            f.write(os.urandom(8 << 20))
    res = {label: [] for label, _ in bins}
    for run in range(RUNS):
        order = bins if run % 2 == 0 else bins[::-1]
        for label, path in order:
            with B.measuring():
                r = measure(path, root)
            res[label].append(r)
            print(f'# run {run + 1} {label}: PSS {r["base"]} KiB at start, {r["idle"]} KiB with {N} idle sessions '
                  f'({r["per"]:.1f} KiB each); {M} downloads of 8 MiB in {r["secs"]:.2f} s, '
                  f'PSS {r["dl_base"]} KiB at start, peak {r["peak"]} KiB', flush=True)
    labels = [label for label, _ in bins]

    def runs(key):
        return {label: [r[key] for r in res[label]] for label in labels}

    print(f'# medians of {RUNS} runs; {N} idle sessions, {M} concurrent downloads of 8 MiB')
    B.table([
        ('PSS at start, KiB', runs('base'), '.0f'),
        ('idle session, KiB each', runs('per'), '.1f'),
        (f'peak PSS, {M} downloads, KiB', runs('peak'), '.0f'),
        (f'peak - start, {M} downloads, KiB', runs('rise'), '.0f'),
        (f'{M} downloads, s', runs('secs'), '.2f'),
    ], labels)
finally:
    subprocess.run(['rm', '-rf', root])
