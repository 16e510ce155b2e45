#!/usr/bin/env python3
"""What quota accounting costs (issue 29): STOR and RETR of MiB MiB (default
1 GiB) from tmpfs by two users of one SQLite accounts store on one server,
`free` (no limits) and `counted` (a quota of 1 TiB, so every upload is
metered: a conditional UPDATE per MiB reserved, one more to settle), taking
turns RUNS times (the order alternates). Prints the median MiB/s of each and
the ratio counted/free. With BABELFTP_BASELINE set, that binary's `free`
user is measured in the same runs too (a server of its own; its store is
its own, as an older babelftp may not read a newer schema).

The binary measured is $BABELFTP_BIN (default target/release/babelftp).
Usage: bench/limits.py [RUNS] [MiB]
"""
import os, shutil, subprocess, sys, tempfile, time

import benchlib as B

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
MIB = int(sys.argv[2]) if len(sys.argv) > 2 else 1024


def admin(binary, db, *args, stdin=''):
    subprocess.run([binary, *args, '--db', db], input=stdin.encode(), check=True,
                   stdout=subprocess.DEVNULL, env={**os.environ, 'LC_ALL': 'C'})


def start(binary, root, db, port):
    p = subprocess.Popen([binary, 'serve', '--root', root, '--listen', f'127.0.0.1:{port}', '--db', db],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    B.wait_greeting(port, p)
    return p


bins = B.binaries()
B.describe(bins)
free = shutil.disk_usage('/dev/shm').free >> 20
if free < 3 * MIB + 512:
    raise SystemExit(f'/dev/shm has {free} MiB free; 3 x {MIB} MiB are needed: pass a smaller MiB')
base = tempfile.mkdtemp(prefix='babelftp-limits-', dir='/dev/shm')
procs = []
try:
    root = os.path.join(base, 'root')
    os.makedirs(root)
    src = os.path.join(root, 'big.bin')
    with open(src, 'wb') as f:
        block = os.urandom(1 << 20)
        for _ in range(MIB):
            f.write(block)
    up_src = os.path.join(base, 'up.bin')
    shutil.copy(src, up_src)
    urls = {}
    for label, binary in bins:
        db = 'sqlite:' + os.path.join(base, f'{label}.db')
        admin(binary, db, 'user', 'add', 'free', stdin='pw\n')
        users = ['free']
        if label != 'baseline':
            admin(binary, db, 'user', 'add', 'counted', stdin='pw\n')
            admin(binary, db, 'user', 'set', 'counted', '--quota-bytes', '1TiB')
            users.append('counted')
        port = B.free_port()
        procs.append(start(binary, root, db, port))
        for u in users:
            name = u if label != 'baseline' else 'baseline'
            urls[name] = f'ftp://{u}:pw@127.0.0.1:{port}/'
    names = list(urls)
    res = {(n, d): [] for n in names for d in ('RETR', 'STOR')}
    for run in range(RUNS):
        order = names if run % 2 == 0 else names[::-1]
        with B.measuring():
            for n in order:
                url = urls[n]
                t = time.perf_counter()
                subprocess.run(['curl', '-s', '-S', '-o', '/dev/null', url + 'big.bin'], check=True)
                res[(n, 'RETR')].append(MIB / (time.perf_counter() - t))
                t = time.perf_counter()
                subprocess.run(['curl', '-s', '-S', '-T', up_src, url + f'up-{n}.bin'], check=True)
                res[(n, 'STOR')].append(MIB / (time.perf_counter() - t))
                up = os.path.join(root, f'up-{n}.bin')
                assert os.path.getsize(up) == MIB << 20, (n, os.path.getsize(up))
                os.remove(up)
        print(f'# run {run + 1}: ' + ', '.join(f'{n} RETR {res[(n, "RETR")][-1]:.0f} STOR {res[(n, "STOR")][-1]:.0f}'
                                                for n in names), flush=True)
    print(f'# MiB/s, median of {RUNS} runs of {MIB} MiB')
    B.table([(f'{d} MiB/s', {n: res[(n, d)] for n in names}, '.0f') for d in ('RETR', 'STOR')], names)
    for d in ('RETR', 'STOR'):
        a, b = B.median(res[('counted', d)]), B.median(res[('free', d)])
        print(f'{d}: counted {a:.0f} MiB/s, free {b:.0f} MiB/s, ratio {a / b:.3f}')
        if 'baseline' in names:
            c = B.median(res[('baseline', d)])
            print(f'{d}: free {b:.0f} MiB/s, baseline {c:.0f} MiB/s, ratio {b / c:.3f}')
finally:
    for p in procs:
        B.stop(p)
    shutil.rmtree(base, ignore_errors=True)
