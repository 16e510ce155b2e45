#!/usr/bin/env python3
"""Runs one listing command over and over on a server, for a profiler
attached to the server meanwhile (docs/dev/benchmarks.md, "Where the time
goes"). Not a benchmark: it prints the median wall time only as a check.

Usage: bench/listloop.py PORT DIR COMMAND N [USER PASS]
  e.g. perf record -F 4999 -g -p $(pgrep -f 'serve --root /dev/shm/tree') &
       python3 bench/listloop.py 2121 d100000 NLST 60
"""
import ftplib, statistics, sys, time

port, path, cmd, n = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
user, pw = (sys.argv[5], sys.argv[6]) if len(sys.argv) > 6 else ('u', 'p')
f = ftplib.FTP()
f.connect('127.0.0.1', port)
f.login(user, pw)
f.encoding = 'utf-8'
f.sendcmd('OPTS UTF8 ON')
f.cwd(path)
f.sendcmd('TYPE I')
times, size = [], 0
for _ in range(n):
    t0 = time.perf_counter()
    s = f.transfercmd(cmd)
    size = 0
    while True:
        b = s.recv(1 << 20)
        if not b:
            break
        size += len(b)
    s.close()
    f.voidresp()
    times.append(time.perf_counter() - t0)
f.quit()
print(f'{cmd} {path}: {size} bytes, median {statistics.median(times) * 1000:.1f} ms over {n}')
