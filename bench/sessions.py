#!/usr/bin/env python3
"""Memory of babelftp under many sessions and concurrent transfers.

Starts `babelftp serve` (release build) on a temporary root, then:
  1. opens N logged-in idle control sessions and reads the server's PSS;
  2. runs M concurrent downloads of different files and samples peak PSS.
Prints one line per figure. Usage: bench/sessions.py [N] [M]
"""
import ftplib, os, socket, subprocess, sys, tempfile, threading, time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 500
M = int(sys.argv[2]) if len(sys.argv) > 2 else 50
BIN = os.path.join(os.path.dirname(__file__), '..', 'target', 'release', 'babelftp')


def pss_kib(pid):
    with open(f'/proc/{pid}/smaps_rollup') as f:
        for line in f:
            if line.startswith('Pss:'):
                return int(line.split()[1])
    return 0


def free_port():
    s = socket.socket(); s.bind(('127.0.0.1', 0)); p = s.getsockname()[1]; s.close(); return p


root = tempfile.mkdtemp(prefix='babelftp-bench-', dir='/dev/shm' if os.path.isdir('/dev/shm') else None)
for i in range(M):
    with open(os.path.join(root, f'f{i}.bin'), 'wb') as f:
        f.write(os.urandom(8 << 20))
port = free_port()
srv = subprocess.Popen([BIN, 'serve', '--root', root, '--listen', f'127.0.0.1:{port}', '--user', 'u:p',
                        '--passive-ports', '41000-41999', '--max-connections', str(N + M + 10),
                        '--max-per-ip', str(N + M + 10)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.5)
try:
    base = pss_kib(srv.pid)
    sessions = []
    for _ in range(N):
        f = ftplib.FTP(); f.connect('127.0.0.1', port); f.login('u', 'p'); sessions.append(f)
    time.sleep(0.5)
    idle = pss_kib(srv.pid)
    print(f'idle sessions: {N}; server PSS {base} KiB before, {idle} KiB after: '
          f'{(idle - base) / N:.1f} KiB per session')
    for f in sessions:
        f.close()
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], pss_kib(srv.pid)); time.sleep(0.01)

    def fetch(i):
        f = ftplib.FTP(); f.connect('127.0.0.1', port); f.login('u', 'p')
        n = [0]
        f.retrbinary(f'RETR f{i}.bin', lambda b: n.__setitem__(0, n[0] + len(b)), blocksize=1 << 16)
        assert n[0] == 8 << 20
        f.quit()

    t = threading.Thread(target=sample); t.start()
    start = time.time()
    workers = [threading.Thread(target=fetch, args=(i,)) for i in range(M)]
    for w in workers: w.start()
    for w in workers: w.join()
    secs = time.time() - start
    done.set(); t.join()
    print(f'concurrent downloads: {M} files of 8 MiB in {secs:.2f} s; peak server PSS {peak[0]} KiB')
finally:
    srv.terminate(); srv.wait()
    subprocess.run(['rm', '-rf', root])
