#!/usr/bin/env python3
"""Logins through the accounts store against logins through a users file,
with the same argon2 hash (issue 28: "server CPU per login through the
store within 1.2x of a users-file login with the same password hash").

One password hash is made with `babelftp passwd`; a users file holds it,
and the store gets the same hash with `babelftp user import` (SQLite, and
PostgreSQL when scripts/postgres.sh has unpacked it: target/postgres). One
`babelftp serve` per way, all from $BABELFTP_BIN (default
target/release/babelftp), on an empty root on tmpfs. Then, RUNS times and
in alternating order: SEQ logins one after another (USER, PASS, QUIT, each
a new connection) and CLIENTS connections at once doing PER logins each,
with the server's CPU time per login (utime + stime from /proc), and the
logins per second. Prints the medians and the ratios store / users file.

The argon2 check (tens of milliseconds of CPU) is most of a login; what
the store adds is two queries. PostgreSQL's own CPU (its backend
processes) is not in the server's figure.
Usage: bench/accounts.py [RUNS] [SEQ] [CLIENTS] [PER]  (defaults 5 100 8 10).
"""
import os, shutil, subprocess, sys, tempfile, time

import benchlib as B

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
SEQ = int(sys.argv[2]) if len(sys.argv) > 2 else 100
CLIENTS = int(sys.argv[3]) if len(sys.argv) > 3 else 8
PER = int(sys.argv[4]) if len(sys.argv) > 4 else 10

sys.argv = ['logins.py', '1', str(SEQ), str(CLIENTS), str(PER), '2']
src = open(os.path.join(B.HERE, 'logins.py')).read().split('\nbins = B.binaries()')[0]
L = {'__name__': 'logins_bench', '__file__': os.path.join(B.HERE, 'logins.py')}
exec(compile(src, 'logins.py', 'exec'), L)
L['ACCOUNTS']['h'] = (b'h', b'bench-password')

bins = B.binaries()
binary = bins[0][1]
B.describe(bins[:1])
top = tempfile.mkdtemp(prefix='babelftp-accounts-', dir='/dev/shm' if os.path.isdir('/dev/shm') else None)
procs = {}
pg = None
try:
    root = os.path.join(top, 'root'); os.makedirs(root)
    h = subprocess.run([binary, 'passwd'], input=b'bench-password\nbench-password\n', capture_output=True, check=True)
    phc = h.stdout.decode().strip().splitlines()[-1]
    users = os.path.join(top, 'users.toml')
    with open(users, 'w') as f:
        f.write(f'[[user]]\nname = "h"\npassword = "{phc}"\nhome = "/"\nwrite = true\n')
    ways = {'users file': ['--users', users]}
    sqlite = f'sqlite:{os.path.join(top, "users.db")}'
    subprocess.run([binary, 'user', 'import', users, '--db', sqlite], check=True, capture_output=True)
    ways['SQLite store'] = ['--db', sqlite]
    pgdir = os.path.join(B.TOP, 'target', 'postgres')
    if os.path.isdir(os.path.join(pgdir, 'pg')):
        # A throwaway cluster, as the tests start it (test-support's
        # postgres module): initdb and postgres as `nobody`.
        data = os.path.join(top, 'pgdata')
        bindir = subprocess.run(['bash', '-c', f'ls -d {pgdir}/pg/usr/lib/postgresql/*/bin'], capture_output=True,
                                text=True).stdout.strip()
        llp = os.path.join(pgdir, 'ld-library-path')
        env = dict(os.environ, LD_LIBRARY_PATH=':'.join(l.strip() for l in open(llp) if l.strip())
                   if os.path.exists(llp) else '')
        os.makedirs(data); shutil.chown(data, 'nobody', 'nogroup'); os.chmod(top, 0o755)
        run_as = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups']
        subprocess.run(run_as + [f'{bindir}/initdb', '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8'],
                       check=True, capture_output=True, env=env)
        port = B.free_port()
        pg = subprocess.Popen(run_as + [f'{bindir}/postgres', '-D', data, '-p', str(port), '-k', data,
                                        '-c', 'listen_addresses=127.0.0.1'],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        url = f'postgres://postgres@127.0.0.1:{port}/postgres'
        for _ in range(100):
            if subprocess.run([binary, 'user', 'import', users, '--db', url], capture_output=True).returncode == 0:
                break
            time.sleep(0.2)
        ways['PostgreSQL store'] = ['--db', url]
    ports = {}
    for way, args in ways.items():
        ports[way] = B.free_port()
        procs[way] = B.serve(binary, root, ports[way], *args, '--max-connections', '200', '--max-per-ip', '200')
    for way in ways:
        L['sequential'](ports[way], 'h', 10)
    res = {}
    for run in range(RUNS):
        order = list(ways) if run % 2 == 0 else list(ways)[::-1]
        for way in order:
            port, pid = ports[way], procs[way].pid
            with B.measuring():
                rate, cpu = L['timed'](pid, lambda: L['sequential'](port, 'h', SEQ), SEQ)
                prate, pcpu = L['timed'](pid, lambda: L['parallel'](port, 'h'), CLIENTS * PER)
            for k, v in (('seq/s', rate), ('par/s', prate), ('seq cpu', cpu), ('par cpu', pcpu)):
                res.setdefault((way, k), []).append(v)
            print(f'# run {run + 1} {way:16}: sequential {rate:5.1f}/s {cpu:6.0f} µs CPU; parallel {prate:5.1f}/s '
                  f'{pcpu:6.0f} µs CPU per login',
                  flush=True)
    print(f'# medians of {RUNS} runs; ratio: store / users file')
    base = 'users file'
    for k, name in (('seq cpu', 'server CPU µs/login, sequential'), ('par cpu', f'server CPU µs/login, {CLIENTS} parallel'),
                    ('seq/s', 'logins/s sequential'), ('par/s', f'logins/s {CLIENTS} parallel')):
        cells = []
        for way in ways:
            m = B.median(res[(way, k)])
            r = '' if way == base else f' ({m / B.median(res[(base, k)]):.3f}x)'
            cells.append(f'{way}: {m:.1f}{r}')
        print(f'{name:36} ' + ' | '.join(cells))
finally:
    for p in procs.values():
        B.stop(p)
    if pg:
        B.stop(pg)
    shutil.rmtree(top, ignore_errors=True)
