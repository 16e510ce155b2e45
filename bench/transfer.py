#!/usr/bin/env python3
"""RETR and STOR throughput: babelftp (release build) against vsftpd, same run.

Both serve the same 1 GiB file from tmpfs (this VM's disk would be what is
measured otherwise, see shared/notes/peer-servers.md); curl fetches it to
/dev/null and uploads it back, RUNS times each, alternating servers. Prints
the median MiB/s of each and the ratio. Needs vsftpd (scripts/peers.sh) and
root (vsftpd's chroot). Usage: bench/transfer.py [RUNS] [MiB]
"""
import os, shutil, socket, statistics, subprocess, sys, tempfile, time

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
MIB = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(HERE, '..', 'target', 'release', 'babelftp')


def free_port():
    s = socket.socket(); s.bind(('127.0.0.1', 0)); p = s.getsockname()[1]; s.close(); return p


def wait(port):
    for _ in range(100):
        try:
            with socket.create_connection(('127.0.0.1', port), timeout=1) as c:
                if c.recv(3) == b'220':
                    return
        except OSError:
            pass
        time.sleep(0.05)
    raise SystemExit(f'server on {port} did not greet')


base = tempfile.mkdtemp(prefix='babelftp-xfer-', dir='/dev/shm')
try:
    root = os.path.join(base, 'root'); pub = os.path.join(root, 'pub'); empty = os.path.join(base, 'empty')
    os.makedirs(pub); os.makedirs(empty)
    with open(os.path.join(pub, 'big.bin'), 'wb') as f:
        block = os.urandom(1 << 20)
        for _ in range(MIB):
            f.write(block)
    shutil.chown(pub, 'ftp', 'ftp')
    os.chmod(root, 0o755)
    up_src = os.path.join(base, 'up.bin'); shutil.copy(os.path.join(pub, 'big.bin'), up_src)

    ours_port, vs_port = free_port(), free_port()
    ours = subprocess.Popen([BIN, 'serve', '--root', root, '--listen', f'127.0.0.1:{ours_port}', '--user', 'u:p'],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    conf = os.path.join(base, 'vsftpd.conf')
    with open(conf, 'w') as f:
        f.write(f"""listen=YES
listen_ipv6=NO
listen_address=127.0.0.1
listen_port={vs_port}
background=NO
anonymous_enable=YES
local_enable=NO
anon_root={root}
write_enable=YES
anon_upload_enable=YES
anon_other_write_enable=YES
anon_world_readable_only=NO
seccomp_sandbox=NO
secure_chroot_dir={empty}
xferlog_enable=NO
""")
    os.chmod(conf, 0o600)
    vs = subprocess.Popen(['/usr/sbin/vsftpd', conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait(ours_port); wait(vs_port)
    servers = {'babelftp': f'ftp://u:p@127.0.0.1:{ours_port}/pub/', 'vsftpd': f'ftp://127.0.0.1:{vs_port}/pub/'}
    res = {(s, d): [] for s in servers for d in ('RETR', 'STOR')}
    for _ in range(RUNS):
        for name, url in servers.items():
            t = time.perf_counter()
            subprocess.run(['curl', '-s', '-S', '-o', '/dev/null', url + 'big.bin'], check=True)
            res[(name, 'RETR')].append(MIB / (time.perf_counter() - t))
            t = time.perf_counter()
            subprocess.run(['curl', '-s', '-S', '-T', up_src, url + 'up-' + name + '.bin'], check=True)
            res[(name, 'STOR')].append(MIB / (time.perf_counter() - t))
            os.remove(os.path.join(pub, 'up-' + name + '.bin'))
    for d in ('RETR', 'STOR'):
        a, b = statistics.median(res[('babelftp', d)]), statistics.median(res[('vsftpd', d)])
        print(f'{d} {MIB} MiB, median of {RUNS}: babelftp {a:.0f} MiB/s, vsftpd {b:.0f} MiB/s, ratio {a / b:.2f}')
finally:
    for p in ('ours', 'vs'):
        proc = globals().get(p)
        if proc:
            proc.terminate(); proc.wait()
    shutil.rmtree(base, ignore_errors=True)
