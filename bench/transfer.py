#!/usr/bin/env python3
"""RETR and STOR throughput: babelftp (release build) against vsftpd, same run.

Every server serves the same file of MiB MiB (default 1 GiB) from tmpfs (this
VM's disk would be what is measured otherwise, see
shared/notes/peer-servers.md); curl fetches it to /dev/null and uploads it
back, RUNS times each, the servers taking turns (their order rotates each
run). Prints the median MiB/s of each and the ratios.

The babelftp measured is $BABELFTP_BIN (default target/release/babelftp);
with BABELFTP_BASELINE=/path/to/other/babelftp that one is measured too and
the ratio new/baseline printed. vsftpd is the one `scripts/peers.sh` unpacks
into target/peers (run first if it is missing), started as
crates/test-support does: anonymous sessions as `daemon`, its unprivileged
process as `nobody`. Needs root (vsftpd's chroot). See bench/benchlib.py for
BENCH_PAUSE. Usage: bench/transfer.py [RUNS] [MiB]
"""
import os, shutil, subprocess, sys, tempfile, time

import benchlib as B
import peers as P

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
MIB = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
PEERS = os.environ.get('PEERS_DIR') or os.path.join(B.TOP, 'target', 'peers')
VSFTPD = os.path.join(PEERS, 'vsftpd', 'usr', 'sbin', 'vsftpd')


def account(name):
    import pwd
    return pwd.getpwnam(name)


def give_tree(top, pw):
    """Gives everything below `top` (not `top` itself) to `pw`."""
    for dirpath, dirs, files in os.walk(top):
        for n in dirs + files:
            os.lchown(os.path.join(dirpath, n), pw.pw_uid, pw.pw_gid)


if not os.path.isfile(VSFTPD):
    subprocess.run(['bash', os.path.join(B.TOP, 'scripts', 'peers.sh')], cwd=B.TOP, check=True)
bins = B.binaries()
B.describe(bins)
free = shutil.disk_usage('/dev/shm').free >> 20
if free < 3 * MIB + 512:
    raise SystemExit(f'/dev/shm has {free} MiB free; 3 x {MIB} MiB are needed: pass a smaller MiB')

base = tempfile.mkdtemp(prefix='babelftp-xfer-', dir='/dev/shm')
procs = []
try:
    os.chmod(base, 0o755)
    root = os.path.join(base, 'root'); pub = os.path.join(root, 'pub'); empty = os.path.join(base, 'empty')
    os.makedirs(pub); os.makedirs(empty)
    os.chmod(root, 0o755); os.chmod(pub, 0o755)
    with open(os.path.join(pub, 'big.bin'), 'wb') as f:
        block = os.urandom(1 << 20)
        for _ in range(MIB):
            f.write(block)
    # vsftpd's anonymous sessions run as daemon (nobody's home is
    # /nonexistent, and vsftpd enters it before its chroot); the root stays
    # root's (vsftpd refuses a chroot it could write to).
    anon, nopriv = account('daemon'), account('nobody')
    give_tree(root, anon)
    up_src = os.path.join(base, 'up.bin'); shutil.copy(os.path.join(pub, 'big.bin'), up_src)

    servers = {}
    for label, path in bins:
        port = B.free_port()
        procs.append(B.serve(path, root, port))
        servers[label] = f'ftp://u:p@127.0.0.1:{port}/pub/'
    vs_port = B.free_port()
    conf = os.path.join(base, 'vsftpd.conf')
    with open(conf, 'w') as f:
        f.write(B.vsftpd_conf(vs_port, root, empty, anon.pw_name, nopriv.pw_name))
    os.chmod(conf, 0o600)  # vsftpd wants its config root's and not writable by others
    vs_log = open(os.path.join(base, 'vsftpd.out'), 'wb')
    vs = subprocess.Popen([VSFTPD, conf], stdin=subprocess.DEVNULL, stdout=vs_log, stderr=vs_log,
                          cwd=base, env=P.env())
    procs.append(vs)
    try:
        B.wait_greeting(vs_port, vs)
    except SystemExit:
        sys.stderr.write(open(os.path.join(base, 'vsftpd.out'), errors='replace').read())
        raise
    servers['vsftpd'] = f'ftp://127.0.0.1:{vs_port}/pub/'

    names = list(servers)
    res = {(s, d): [] for s in names for d in ('RETR', 'STOR')}
    for run in range(RUNS):
        order = names[run % len(names):] + names[:run % len(names)]
        with B.measuring():
            for name in order:
                url = servers[name]
                t = time.perf_counter()
                subprocess.run(['curl', '-s', '-S', '-o', '/dev/null', url + 'big.bin'], check=True)
                res[(name, 'RETR')].append(MIB / (time.perf_counter() - t))
                t = time.perf_counter()
                subprocess.run(['curl', '-s', '-S', '-T', up_src, url + 'up-' + name + '.bin'], check=True)
                res[(name, 'STOR')].append(MIB / (time.perf_counter() - t))
                up = os.path.join(pub, 'up-' + name + '.bin')
                assert os.path.getsize(up) == MIB << 20, (name, os.path.getsize(up))
                os.remove(up)
        print(f'# run {run + 1}: ' + ', '.join(f'{n} RETR {res[(n, "RETR")][-1]:.0f} STOR {res[(n, "STOR")][-1]:.0f}'
                                                for n in names), flush=True)
    print(f'# MiB/s, median of {RUNS} runs of {MIB} MiB')
    B.table([(f'{d} MiB/s', {n: res[(n, d)] for n in names}, '.0f') for d in ('RETR', 'STOR')], names)
    ours = names[0]
    for d in ('RETR', 'STOR'):
        a, b = B.median(res[(ours, d)]), B.median(res[('vsftpd', d)])
        print(f'{d} {MIB} MiB, median of {RUNS}: {ours} {a:.0f} MiB/s, vsftpd {b:.0f} MiB/s, ratio {a / b:.2f}')
finally:
    for p in procs:
        B.stop(p)
    shutil.rmtree(base, ignore_errors=True)
