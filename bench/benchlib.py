"""What the benches in bench/ share: which babelftp binaries to measure,
free ports, waiting for a greeting, /proc figures, and pausing background
load (a fuzzer) while a measurement runs.

Environment:
  BABELFTP_BIN       the babelftp binary measured (default target/release/babelftp)
  BABELFTP_BASELINE  another babelftp binary measured in the same run; the
                     figures then come with the ratio BIN/BASELINE
  BENCH_PAUSE        a `pgrep -f` pattern (e.g. release/session): processes
                     it matches get SIGSTOP during each measurement, SIGCONT
                     after (always, also on failure or Ctrl-C)
"""
import contextlib, os, signal, socket, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
TICK = os.sysconf('SC_CLK_TCK')


def binaries():
    """[(label, path)]: ('new', BABELFTP_BIN) and, when BABELFTP_BASELINE is
    set, ('baseline', it). Labels are 'babelftp' without a baseline."""
    new = os.environ.get('BABELFTP_BIN') or os.path.join(TOP, 'target', 'release', 'babelftp')
    base = os.environ.get('BABELFTP_BASELINE')
    out = [('new' if base else 'babelftp', os.path.abspath(new))]
    if base:
        out.append(('baseline', os.path.abspath(base)))
    for _, path in out:
        if not os.access(path, os.X_OK):
            raise SystemExit(f'{path}: not an executable (cargo build --release -p babelftp?)')
    return out


def describe(bins):
    for label, path in bins:
        st = os.stat(path)
        print(f'# {label}: {path} ({st.st_size // 1024} KiB, built {time.ctime(st.st_mtime)})')


def read_reply(sock, buf):
    """Reads an FTP control connection until a complete final reply line;
    returns (line, what came after it)."""
    while True:
        while b'\r\n' in buf:
            line, buf = buf.split(b'\r\n', 1)
            if len(line) >= 4 and line[3:4] == b' ':
                return line, buf
        data = sock.recv(4096)
        if not data:
            raise RuntimeError('server closed the connection')
        buf += data


def free_port():
    s = socket.socket(); s.bind(('127.0.0.1', 0)); p = s.getsockname()[1]; s.close(); return p


def wait_greeting(port, proc=None, timeout=15.0):
    """Waits until the server on `port` greets with 220."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f'server for port {port} exited: {proc.returncode}')
        try:
            with socket.create_connection(('127.0.0.1', port), timeout=1) as c:
                if c.recv(3) == b'220':
                    return
        except OSError:
            pass
        time.sleep(0.05)
    raise SystemExit(f'server on {port} did not greet')


def serve(binary, root, port, *extra):
    """Starts `binary serve` on 127.0.0.1:port with user u:p and waits for
    its greeting."""
    p = subprocess.Popen([binary, 'serve', '--root', root, '--listen', f'127.0.0.1:{port}', '--user', 'u:p', *extra],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_greeting(port, p)
    return p


def stop(proc):
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill(); proc.wait()


def proc_kib(pid, file, field):
    """A `Field:   N kB` line of /proc/PID/FILE, in KiB (0 if absent)."""
    with open(f'/proc/{pid}/{file}') as f:
        for line in f:
            if line.startswith(field + ':'):
                return int(line.split()[1])
    return 0


def pss_kib(pid):
    return proc_kib(pid, 'smaps_rollup', 'Pss')


def rss_kib(pid):
    return proc_kib(pid, 'status', 'VmRSS')


def cpu_ticks(pid):
    """utime + stime of a process (all its threads), in clock ticks."""
    with open(f'/proc/{pid}/stat') as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return int(fields[11]) + int(fields[12])


def busy_fraction(secs=0.5):
    """How busy the machine's CPUs were over `secs` (0..1)."""
    def sample():
        with open('/proc/stat') as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v), v[3] + v[4]
    t0, i0 = sample(); time.sleep(secs); t1, i1 = sample()
    return 1 - (i1 - i0) / max(1, t1 - t0)


def settle(limit=None, quiet=0.15):
    """Waits (BENCH_SETTLE seconds at most, default 30) until the machine is
    quiet apart from what BENCH_PAUSE stops; returns the busy fraction seen."""
    limit = float(os.environ.get('BENCH_SETTLE', '30')) if limit is None else limit
    end = time.monotonic() + limit
    while True:
        b = busy_fraction()
        if b <= quiet or time.monotonic() >= end:
            if b > quiet:
                print(f'# warning: machine {b:.0%} busy before a measurement', file=sys.stderr)
            return b


def _pause_pids():
    pat = os.environ.get('BENCH_PAUSE')
    if not pat:
        return []
    out = subprocess.run(['pgrep', '-f', pat], capture_output=True, text=True).stdout.split()
    me = os.getpid()
    return [int(p) for p in out if int(p) != me]


@contextlib.contextmanager
def measuring():
    """Stops the BENCH_PAUSE processes for the duration of the block (and
    resumes them whatever happens), after waiting for the machine to settle."""
    pids = _pause_pids()
    old = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    stopped = []
    try:
        for p in pids:
            try:
                os.kill(p, signal.SIGSTOP); stopped.append(p)
            except ProcessLookupError:
                pass
        settle()
        yield
    finally:
        for p in stopped:
            try:
                os.kill(p, signal.SIGCONT)
            except ProcessLookupError:
                pass
        signal.signal(signal.SIGTERM, old)


def median(xs):
    return statistics.median(xs) if xs else float('nan')


def ratio(a, b):
    return a / b if b else float('nan')


def table(rows, labels):
    """Prints rows of (figure, {label: [value per run]}, fmt): the median
    of each label's runs, then, when both 'new' and 'baseline' are there,
    the ratio of the medians and the median of the per-run ratios (each
    run measures the two back to back, so the latter cancels slow drifts in
    the machine's speed) with its spread (min-max) over the runs."""
    cols = list(labels)
    both = 'new' in cols and 'baseline' in cols
    head = ['figure'] + cols + (['new/baseline', 'paired', 'paired min-max'] if both else [])
    lines = [head]
    for name, vals, fmt in rows:
        line = [name] + [format(median(vals[c]), fmt) if vals.get(c) else '-' for c in cols]
        if both:
            pairs = [ratio(a, b) for a, b in zip(vals['new'], vals['baseline'])]
            line += [f"{ratio(median(vals['new']), median(vals['baseline'])):.2f}",
                     f'{median(pairs):.2f}', f'{min(pairs):.2f}-{max(pairs):.2f}']
        lines.append(line)
    w = [max(len(l[i]) for l in lines) for i in range(len(head))]
    for l in lines:
        print('  '.join([l[0].ljust(w[0])] + [c.rjust(w[i + 1]) for i, c in enumerate(l[1:])]))


def vsftpd_conf(port, root, empty, anon, nopriv, extra=''):
    """The vsftpd configuration both transfer benches use: anonymous
    (running as `anon`, its unprivileged part as `nopriv`) with uploads,
    on 127.0.0.1:`port`, serving `root`; `extra` lines are appended."""
    return f"""listen=YES
listen_ipv6=NO
listen_address=127.0.0.1
listen_port={port}
background=NO
anonymous_enable=YES
local_enable=NO
ftp_username={anon}
nopriv_user={nopriv}
anon_root={root}
write_enable=YES
anon_upload_enable=YES
anon_other_write_enable=YES
anon_world_readable_only=NO
anon_umask=022
seccomp_sandbox=NO
secure_chroot_dir={empty}
xferlog_enable=NO
dirmessage_enable=NO
""" + extra
