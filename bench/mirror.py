#!/usr/bin/env python3
"""`babelftp mirror` against `lftp mirror`: many small files, one run.

Mode `get` (the default; issue 25 item 17): a directory of FILES (default
10,000) small files with mixed-script UTF-8 names (the STEMS of
bench/listing.py: `名前-0000001.bin`, `Игра-…`, `كتاب-…`, …), ~40 MB in
all (sizes 0 to 8,000 octets, varying), on tmpfs, served by vsftpd on
127.0.0.1 (anonymous). Each run copies it into a fresh directory on tmpfs
with `babelftp mirror ftp://…/src/ DEST` and with
`lftp -c 'open …; mirror src DEST'`, the two taking turns, then with
`babelftp mirror --parallel PAR` and `lftp mirror --parallel=PAR` (PAR
default 4). Every copy is checked (number of files and octets) before it
counts.

Mode `put`: `mirror -R` of FILES_PUT (default 1,000) such files from tmpfs
into three servers, each with a tree of its own on tmpfs: `babelftp serve`
($BABELFTP_SERVER_BIN, default the babelftp measured), pyftpdlib and
vsftpd; with our client and lftp, one connection and PAR. Each upload goes
into a new remote directory; every copy is checked on the server's disk.

Prints per run and then the medians (wall seconds, and the client's CPU
seconds, user + system, from rusage: a figure a busy machine disturbs
less) and babelftp / lftp. Clients
run in the C.UTF-8 locale (lftp turns names it cannot show in its locale's
charset into `?`). The babelftp measured is $BABELFTP_BIN (default
target/release/babelftp). Needs root (vsftpd's chroot); unpacks the peers
with scripts/peers.sh when missing. See bench/benchlib.py for BENCH_PAUSE.

With BABELFTP_BASELINE=/path/to/another/babelftp, that one's single
connection mirror is measured too, in the same turns (`baseline` rows).

Usage: bench/mirror.py [RUNS] [get|put|both]     (defaults 5 and get)
Environment: FILES, FILES_PUT, PAR (1: no parallel rows), SERVERS (for put: babelftp,pyftpdlib,vsftpd).
"""
import os, pwd, resource, shutil, subprocess, sys, tempfile, time

import benchlib as B
import peers as P

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
MODE = sys.argv[2] if len(sys.argv) > 2 else 'get'
FILES = int(os.environ.get('FILES', '10000'))
FILES_PUT = int(os.environ.get('FILES_PUT', '1000'))
PAR = int(os.environ.get('PAR', '4'))
LFTP = shutil.which('lftp')
BASELINE = os.environ.get('BABELFTP_BASELINE')
# As bench/listing.py's (importing it would parse our arguments as its own).
STEMS = ['名前', 'Игра', 'كتاب', 'plain', 'Ελληνικά', 'हिन्दी', '한국어', 'français-été']


def fill(d, n):
    """`n` files of 0..8000 octets (4,000 on average) with mixed-script
    names in `d`; returns (files, octets)."""
    os.makedirs(d)
    total = 0
    block = bytes(range(256)) * 33
    for i in range(n):
        size = (i * 7919) % 8001
        with open(os.path.join(d, f'{STEMS[i % len(STEMS)]}-{i:07d}.bin'), 'wb') as f:
            f.write(block[i % 256:i % 256 + size])
        total += size
    return n, total


def tally(d):
    """(files, octets) below `d`."""
    n = total = 0
    for dirpath, _, files in os.walk(d):
        for f in files:
            n += 1
            total += os.lstat(os.path.join(dirpath, f)).st_size
    return n, total


def client_env(state):
    e = dict(os.environ)
    for k in ('LANG', 'LANGUAGE', 'LC_MESSAGES', 'LC_CTYPE'):
        e.pop(k, None)
    e['LC_ALL'] = 'C.UTF-8'
    e['HOME'] = state
    e['XDG_STATE_HOME'] = state
    return e


CPU = {}  # label: [client CPU seconds (user + system) per run]


def timed(cmd, env, label):
    """Runs `cmd`; returns its wall seconds and records its CPU seconds
    (user + system, from the children's rusage) under `label`."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True)
    secs = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise RuntimeError(f'{cmd[0]} failed ({r.returncode}): {r.stderr.decode(errors="replace")[-1500:]}')
    CPU.setdefault(label, []).append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return secs


def lftp_cmd(peer, script):
    # No retries and no waits between them: a failure fails the run.
    return [LFTP, '-c', f'set cmd:fail-exit yes; set net:max-retries 1; set net:reconnect-interval-base 1; '
                        f'open -u {peer.user},{peer.password} -p {peer.port} 127.0.0.1; {script}']


def url(peer, path):
    return f'ftp://{peer.user}:{peer.password}@127.0.0.1:{peer.port}/{path}'


def report(title, results, pairs):
    print(f'\n## {title}: medians of {RUNS} runs, seconds: wall (client CPU, user + system)')
    for name, v in results.items():
        print(f'{name:40s} {B.median(v):8.3f} ({B.median(CPU.get(name, [])):.3f})   (runs: {", ".join(f"{x:.2f}" for x in v)})')
    for ours, theirs in pairs:
        if results.get(ours) and results.get(theirs):
            paired = [a / b for a, b in zip(results[ours], results[theirs])]
            print(f'{ours} / {theirs}: {B.ratio(B.median(results[ours]), B.median(results[theirs])):.2f} '
                  f'(paired median {B.median(paired):.2f}, {min(paired):.2f}-{max(paired):.2f}); client CPU '
                  f'{B.ratio(B.median(CPU.get(ours, [])), B.median(CPU.get(theirs, []))):.2f}')


def get_mode(bin_path, base, procs):
    src_root = os.path.join(base, 'get-root'); os.makedirs(src_root); os.chmod(src_root, 0o755)
    t = time.time()
    want = fill(os.path.join(src_root, 'src'), FILES)
    for dirpath, dirs, files in os.walk(src_root):
        os.chmod(dirpath, 0o755)
    print(f'# get: {want[0]} files, {want[1]} octets, made in {time.time() - t:.1f} s; {RUNS} runs, PAR={PAR}', flush=True)
    peer = P.start_vsftpd(os.path.join(base, 'vsftpd-get'), src_root)
    procs.append(peer.proc)
    state = os.path.join(base, 'state'); os.makedirs(state, exist_ok=True)
    env = client_env(state)
    tools = [
        ('babelftp mirror', lambda d: [bin_path, 'mirror', '-q', url(peer, 'src/'), d]),
        ('lftp mirror', lambda d: lftp_cmd(peer, f'mirror src {d}')),
        (f'babelftp mirror --parallel {PAR}', lambda d: [bin_path, 'mirror', '-q', '--parallel', str(PAR), url(peer, 'src/'), d]),
        (f'lftp mirror --parallel={PAR}', lambda d: lftp_cmd(peer, f'mirror --parallel={PAR} src {d}')),
    ]
    if PAR <= 1:
        tools = tools[:2]
    if BASELINE:
        tools.insert(1, ('baseline mirror', lambda d: [BASELINE, 'mirror', '-q', url(peer, 'src/'), d]))
    results = {name: [] for name, _ in tools}
    for run in range(RUNS):
        for name, cmd in tools:
            dest = os.path.join(base, 'dest')
            shutil.rmtree(dest, ignore_errors=True)
            with B.measuring():
                secs = timed(cmd(dest), env, name)
            got = tally(dest)
            if got != want:
                raise RuntimeError(f'{name}: copied {got}, expected {want}')
            results[name].append(secs)
            print(f'# run {run + 1}: {name}: {secs:.3f} s', flush=True)
    shutil.rmtree(os.path.join(base, 'dest'), ignore_errors=True)
    B.stop(peer.proc)
    report(f'mirror of {FILES} files from vsftpd', results,
           [('babelftp mirror', 'lftp mirror'), (f'babelftp mirror --parallel {PAR}', f'lftp mirror --parallel={PAR}'),
            ('babelftp mirror', 'baseline mirror'), ('baseline mirror', 'lftp mirror')])


def put_mode(bin_path, base, procs):
    src = os.path.join(base, 'put-src')
    want = fill(src, FILES_PUT)
    print(f'# put: {want[0]} files, {want[1]} octets; {RUNS} runs, PAR={PAR}', flush=True)
    server_bin = os.path.abspath(os.environ.get('BABELFTP_SERVER_BIN') or bin_path)
    daemon = pwd.getpwnam('daemon')
    print(f'# babelftp serve: {server_bin}')
    only = [x for x in os.environ.get('SERVERS', '').split(',') if x]
    servers = []  # (name, peer, the directory uploads go to on disk, its remote path)
    for name in ('babelftp', 'pyftpdlib', 'vsftpd'):
        if only and name not in only:
            continue
        root = os.path.join(base, f'put-{name}'); os.makedirs(os.path.join(root, 'up')); os.chmod(root, 0o755)
        if name == 'babelftp':
            port = B.free_port()
            p = B.serve(server_bin, root, port)
            peer = P.Peer('babelftp', port, 'u', 'p', p, None)
        elif name == 'pyftpdlib':
            # T: MFMT, which mirror -R sends after each upload (both
            # clients do): without it pyftpdlib answers 550.
            peer = P.start_pyftpdlib(os.path.join(base, 'pyftpdlib-put'), root, 'elradfmwT')
        else:
            # Anonymous sessions run as daemon: the upload directory is
            # theirs (the chroot's root stays root's).
            os.chown(os.path.join(root, 'up'), daemon.pw_uid, daemon.pw_gid)
            peer = P.start_vsftpd(os.path.join(base, 'vsftpd-put'), root, 'anon_mkdir_write_enable=YES\n')
        procs.append(peer.proc)
        servers.append((name, peer, os.path.join(root, 'up')))
    state = os.path.join(base, 'state'); os.makedirs(state, exist_ok=True)
    env = client_env(state)
    results = {}
    pairs = []
    for name, peer, _ in servers:
        for a, b in ((f'babelftp mirror -R → {name}', f'lftp mirror -R → {name}'),
                     (f'babelftp mirror -R --parallel {PAR} → {name}', f'lftp mirror -R --parallel={PAR} → {name}'))[:2 if PAR > 1 else 1]:
            results[a] = []; results[b] = []
            pairs.append((a, b))
        if BASELINE:
            pairs.append((f'babelftp mirror -R → {name}', f'baseline mirror -R → {name}'))
    seq = 0
    for run in range(RUNS):
        for name, peer, updir in servers:
            tools = [
                (f'babelftp mirror -R → {name}', lambda d: [bin_path, 'mirror', '-q', '-R', src, url(peer, f'up/{d}/')]),
                (f'lftp mirror -R → {name}', lambda d: lftp_cmd(peer, f'mirror -R {src} up/{d}')),
                (f'babelftp mirror -R --parallel {PAR} → {name}',
                 lambda d: [bin_path, 'mirror', '-q', '-R', '--parallel', str(PAR), src, url(peer, f'up/{d}/')]),
                (f'lftp mirror -R --parallel={PAR} → {name}', lambda d: lftp_cmd(peer, f'mirror -R --parallel={PAR} {src} up/{d}')),
            ]
            if BASELINE:
                tools.insert(1, (f'baseline mirror -R → {name}',
                                 lambda d: [BASELINE, 'mirror', '-q', '-R', src, url(peer, f'up/{d}/')]))
            for label, cmd in (tools if PAR > 1 else tools[:2 + bool(BASELINE)]):
                results.setdefault(label, [])
                seq += 1
                d = f'r{seq}'
                with B.measuring():
                    secs = timed(cmd(d), env, label)
                got = tally(os.path.join(updir, d))
                if got != want:
                    raise RuntimeError(f'{label}: copied {got}, expected {want}')
                shutil.rmtree(os.path.join(updir, d), ignore_errors=True)
                results[label].append(secs)
                print(f'# run {run + 1}: {label}: {secs:.3f} s', flush=True)
    report(f'mirror -R of {FILES_PUT} files', results, pairs)


def main():
    if MODE not in ('get', 'put', 'both'):
        raise SystemExit(__doc__)
    if not LFTP:
        raise SystemExit('lftp is missing (apt-get install lftp)')
    P.ensure()
    bins = B.binaries()
    B.describe(bins)
    bin_path = bins[0][1]
    base = tempfile.mkdtemp(prefix='babelftp-mirror-', dir='/dev/shm')
    os.chmod(base, 0o755)
    procs = []
    try:
        if MODE in ('get', 'both'):
            get_mode(bin_path, base, procs)
        if MODE in ('put', 'both'):
            put_mode(bin_path, base, procs)
    finally:
        for p in procs:
            B.stop(p)
        shutil.rmtree(base, ignore_errors=True)


if __name__ == '__main__':
    main()
