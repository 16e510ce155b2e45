#!/usr/bin/env python3
"""Many small uploads, the figures of the small-files issue: babelftp
against pyftpdlib, vsftpd and Pure-FTPd, all in one run, every server with
its default settings, all writing to the same real disk (not tmpfs: what
an fsync costs is part of the figure).

Steps, each timed in wall seconds (each server in an upload tree of its
own, below one directory on the disk, by default target/bench-small,
created and removed by the run):
  1. new:       200 sequential uploads of new 1 KiB files with Python's
                ftplib (one session, storbinary each: PASV, STOR, the data,
                waiting for the 226); the login is not timed;
  2. overwrite: the same 200 names uploaded again, other contents, in a
                new ftplib session (the files of step 1 exist);
  3. mirror:    `lftp -c 'open ...; mirror -R SRC up/DIR'` of 300 files of
                100 B to 8 KiB (one connection; lftp makes DIR);
  4. curl:      one `curl -T "{f1,...,f100}" ftp://user:pass@.../up/DIR/`
                (curl's multi-file upload, one connection; DIR exists), 100
                files of 1 KiB. Also counted: the transfers whose
                time_pretransfer reached 0.9 s, curl 7.87-8.3's 1 s stall
                before a data connection (see below).
The servers take turns within each step of each round (their order
rotating from round to round); `sync` runs before each timed step, so
that no server pays for another's dirty pages; each step runs inside
benchlib.measuring() (BENCH_PAUSE). After each step every file is checked
on the server's disk (names, sizes and contents): a step that fails, times
out (STEP_TIMEOUT seconds, default 120) or leaves wrong files counts as
failed, is printed as such and left out of the medians.

Servers (each with a writable upload tree where overwrites are allowed):
  babelftp   `$BABELFTP_BIN serve` with its defaults (user u), plus the
             flags of $BABELFTP_SERVER_ARGS (split on spaces, e.g.
             `--fsync never`); with $BABELFTP_BASELINE another babelftp
             (`baseline`, same flags) in the same rounds;
  pyftpdlib  2.2.0, FTPServer, user bob, permissions elradfmwT (T: MFMT,
             which lftp sends after each upload);
  vsftpd     3.0.3, anonymous, running as `daemon`, which owns the upload
             directories; anon_other_write_enable=YES (benchlib's
             configuration) is what allows overwrites,
             anon_mkdir_write_enable=YES lets lftp make its directory;
  pure-ftpd  1.0.50, virtual user bob (uid nobody, who owns the upload
             directories), peers.py's flags.
None of them but babelftp syncs an upload to disk before its 226 by
default (babelftp: `--fsync batch`, a flush within a second after it).

Prints one line per step, server and round, then the medians per step and
server with babelftp / best peer and babelftp / pyftpdlib (and babelftp /
baseline) of the medians. `--json FILE` writes every figure as JSON.

curl 7.88.1 (Debian 12): when the 229 reply to EPSV is already in its
socket as its send() of EPSV returns (a server thread woken on curl's CPU
preempts curl and answers before curl runs again), curl finishes its DO
phase inside that call, goes to DOING_MORE without anything to wait for
and sleeps in curl_multi_poll for its full 1 s timeout before connecting
(fixed in curl 8.4.0, commit 6dd6654f75, PR #12042). The curl step shows
it; its stall count tells how often.

Usage: sudo python3 bench/smallfiles.py [RUNS] [--json FILE]   (RUNS default 3)
Environment:
  BABELFTP_BIN          the babelftp measured (default target/release/babelftp)
  BABELFTP_BASELINE     another babelftp measured in the same rounds
  BABELFTP_SERVER_ARGS  extra flags of both babelftp servers
  BENCH_PAUSE           see bench/benchlib.py (e.g. 'rustc|cargo')
  SMALL_DIR             the directory on disk (default target/bench-small;
                        must not exist, removed at the end)
  SERVERS               a subset, comma-separated (babelftp,pyftpdlib,vsftpd,pure-ftpd)
  STEPS                 a subset of new,overwrite,mirror,curl (overwrite needs new)
  STEP_TIMEOUT          seconds per step (default 120)
Needs root (the peers' users and chroots), lftp, curl; unpacks the peers
with scripts/peers.sh when missing.
"""
import argparse, ftplib, io, json, os, pwd, shutil, subprocess, sys, time

import benchlib as B
import peers as P

NEW_FILES, MIRROR_FILES, CURL_FILES = 200, 300, 100
STEP_TIMEOUT = float(os.environ.get('STEP_TIMEOUT', '120'))
STALL = 0.9  # a curl transfer whose time_pretransfer reaches this stalled
LFTP, CURL = shutil.which('lftp'), shutil.which('curl')
STEP_NAMES = {'new': f'1 new: {NEW_FILES} ftplib STOR of 1 KiB',
              'overwrite': f'2 overwrite: the {NEW_FILES} again',
              'mirror': f'3 lftp mirror -R: {MIRROR_FILES} files',
              'curl': f'4 curl -T {{{CURL_FILES} files}}'}
PATTERN = bytes(range(256)) * 40


class StepFailed(Exception):
    pass


class StepTimeout(StepFailed):
    pass


def content(kind, i, size=1024):
    """Deterministic contents: `kind` 0 (new), 1 (overwrite), 2 (mirror), 3 (curl)."""
    off = (i * 31 + kind * 97) % 256
    data = PATTERN[off:off + size]
    return data if kind != 1 else bytes(255 - b for b in data[:size])


class Server:
    """One server under test: its name, port, user, password, process,
    the upload directory on disk (`up` below its root), and the uid that
    must own the directories made for it."""
    def __init__(self, name, port, user, password, proc, updir, owner):
        self.name, self.port, self.user, self.password, self.proc = name, port, user, password, proc
        self.updir, self.owner = updir, owner

    def mkdir(self, sub):
        d = os.path.join(self.updir, sub)
        os.mkdir(d)
        os.chmod(d, 0o755)
        if self.owner is not None:
            os.chown(d, self.owner.pw_uid, self.owner.pw_gid)
        return d


def start_servers(base, only):
    bins = B.binaries()
    extra = os.environ.get('BABELFTP_SERVER_ARGS', '').split()
    out = []
    names = [('babelftp', bins[0][1])] + ([('baseline', bins[1][1])] if len(bins) > 1 else []) + \
        [('pyftpdlib', None), ('vsftpd', None), ('pure-ftpd', None)]
    for name, binary in names:
        if only and name not in only and not (name == 'baseline' and 'babelftp' in only):
            continue
        root = os.path.join(base, name, 'root')
        up = os.path.join(root, 'up')
        os.makedirs(up)
        os.chmod(root, 0o755); os.chmod(up, 0o755)
        work = os.path.join(base, name, 'work')
        owner = None
        try:
            if binary:
                port = B.free_port()
                proc = B.serve(binary, root, port, *extra)
                s = Server(name, port, 'u', 'p', proc, up, None)
            elif name == 'pyftpdlib':
                p = P.start_pyftpdlib(work, root, 'elradfmwT')
                s = Server(name, p.port, p.user, p.password, p.proc, up, None)
            elif name == 'vsftpd':
                owner = pwd.getpwnam('daemon')
                os.chown(up, owner.pw_uid, owner.pw_gid)
                p = P.start_vsftpd(work, root, 'anon_mkdir_write_enable=YES\n')
                s = Server(name, p.port, p.user, p.password, p.proc, up, owner)
            else:
                owner = pwd.getpwnam('nobody')
                os.chown(up, owner.pw_uid, owner.pw_gid)
                p = P.start_pure_ftpd(work, root)
                s = Server(name, p.port, p.user, p.password, p.proc, up, owner)
        except (RuntimeError, SystemExit) as e:
            print(f'# {name}: did not start: {e}', flush=True)
            continue
        out.append(s)
    return out


def check(d, want):
    """Compares the files in `d` with `want` ({name: bytes}); raises
    StepFailed on the first difference."""
    try:
        got = sorted(os.listdir(d))
    except OSError as e:
        raise StepFailed(f'{d}: {e}')
    if got != sorted(want):
        missing = sorted(set(want) - set(got))
        extra = sorted(set(got) - set(want))
        raise StepFailed(f'{len(got)} files instead of {len(want)} (missing {missing[:3]}, extra {extra[:3]})')
    for name, data in want.items():
        with open(os.path.join(d, name), 'rb') as f:
            have = f.read()
        if have != data:
            raise StepFailed(f'{name}: {len(have)} octets, not the {len(data)} uploaded'
                             if len(have) != len(data) else f'{name}: other contents than uploaded')


def ftplib_step(srv, sub, files):
    """One ftplib session: logs in, CWD up/sub, then STORs `files` (the
    timed part); returns seconds."""
    deadline = time.monotonic() + STEP_TIMEOUT
    try:
        ftp = ftplib.FTP()
        ftp.connect('127.0.0.1', srv.port, timeout=min(30, STEP_TIMEOUT))
        ftp.login(srv.user, srv.password)
        ftp.cwd(f'up/{sub}')
        t = time.perf_counter()
        for name, data in files.items():
            ftp.storbinary(f'STOR {name}', io.BytesIO(data))
            if time.monotonic() > deadline:
                raise StepTimeout(f'more than {STEP_TIMEOUT:.0f} s')
        secs = time.perf_counter() - t
        try:
            ftp.quit()
        except (OSError, ftplib.Error):
            ftp.close()
        return secs
    except ftplib.all_errors as e:
        if isinstance(e, TimeoutError) or 'timed out' in str(e):
            raise StepTimeout(f'ftplib: {e}')
        raise StepFailed(f'ftplib: {type(e).__name__}: {e}')


def run_cmd(cmd, env, cwd=None):
    """Runs `cmd` with the step's timeout; returns (seconds, stdout)."""
    t = time.perf_counter()
    try:
        r = subprocess.run(cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, timeout=STEP_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise StepTimeout(f'{os.path.basename(cmd[0])}: more than {STEP_TIMEOUT:.0f} s')
    secs = time.perf_counter() - t
    if r.returncode != 0:
        raise StepFailed(f'{os.path.basename(cmd[0])} exited {r.returncode}: '
                         f'{r.stderr.decode(errors="replace").strip()[-300:]}')
    return secs, r.stdout.decode(errors='replace')


def client_env(state):
    e = {k: v for k, v in os.environ.items() if k not in ('LANG', 'LANGUAGE', 'LC_MESSAGES', 'LC_CTYPE')}
    e.update(LC_ALL='C.UTF-8', HOME=state, XDG_STATE_HOME=state)
    return e


def make_sources(base):
    """The files of steps 3 and 4 on disk; returns their {name: bytes}."""
    mirror = {f'm{i:03d}.bin': content(2, i, 100 + (i * 7919) % 8093) for i in range(MIRROR_FILES)}
    curl = {f'c{i:03d}.bin': content(3, i) for i in range(CURL_FILES)}
    for sub, files in (('src-mirror', mirror), ('src-curl', curl)):
        d = os.path.join(base, sub)
        os.makedirs(d)
        for name, data in files.items():
            with open(os.path.join(d, name), 'wb') as f:
                f.write(data)
    return mirror, curl


def main():
    ap = argparse.ArgumentParser(description='small-file uploads: babelftp against its peers',
                                 epilog='See the module docstring for the environment.')
    ap.add_argument('runs', nargs='?', type=int, default=3)
    ap.add_argument('--json', metavar='FILE')
    args = ap.parse_args()
    for tool, path in (('lftp', LFTP), ('curl', CURL)):
        if not path:
            raise SystemExit(f'{tool} is missing')
    steps = [s for s in os.environ.get('STEPS', 'new,overwrite,mirror,curl').split(',') if s]
    if 'overwrite' in steps and 'new' not in steps:
        raise SystemExit('STEPS: overwrite needs new')
    only = [s for s in os.environ.get('SERVERS', '').split(',') if s]
    P.ensure()
    B.describe(B.binaries())
    base = os.path.abspath(os.environ.get('SMALL_DIR') or os.path.join(B.TOP, 'target', 'bench-small'))
    os.makedirs(base)  # must be new: it is removed at the end
    os.chmod(base, 0o755)
    fs = subprocess.run(['df', '-T', base], capture_output=True, text=True).stdout.splitlines()[-1].split()
    server_args = os.environ.get('BABELFTP_SERVER_ARGS', '')
    print(f'# {args.runs} rounds in {base} ({fs[1]} on {fs[0]}); babelftp serve flags: '
          f'{server_args or "(defaults)"}; step timeout {STEP_TIMEOUT:.0f} s', flush=True)
    for tool in (LFTP, CURL):
        print('# ' + subprocess.run([tool, '--version'], capture_output=True, text=True).stdout.splitlines()[0])
    servers = []
    results = {s: {} for s in steps}   # step: {server: [seconds or None per round]}
    failures = {s: {} for s in steps}  # step: {server: [reasons]}
    stalls = {}                        # server: [curl stalls per round]
    try:
        mirror_src, curl_src = make_sources(base)
        state = os.path.join(base, 'state'); os.makedirs(state)
        env = client_env(state)
        servers = start_servers(base, only)
        if not servers:
            raise SystemExit('no server started')
        for s in servers:
            print(f'# {s.name}: 127.0.0.1:{s.port} (user {s.user}), uploads to {s.updir}', flush=True)
        names = [s.name for s in servers]
        for r in range(args.runs):
            order = servers[r % len(servers):] + servers[:r % len(servers)]
            for step in steps:
                for srv in order:
                    sub = f'r{r + 1}-{"new" if step in ("new", "overwrite") else step}'
                    vals = results[step].setdefault(srv.name, [])
                    try:
                        if step == 'overwrite' and results['new'][srv.name][-1] is None:
                            raise StepFailed('skipped: step new failed')
                        if step in ('new', 'curl'):
                            srv.mkdir(sub)
                        os.sync()
                        if step in ('new', 'overwrite'):
                            kind = 0 if step == 'new' else 1
                            files = {f'f{i:03d}.bin': content(kind, i) for i in range(NEW_FILES)}
                            with B.measuring():
                                secs = ftplib_step(srv, sub, files)
                        elif step == 'mirror':
                            files = mirror_src
                            cmd = [LFTP, '-c', f'set cmd:fail-exit yes; set net:max-retries 1; '
                                               f'set net:reconnect-interval-base 1; '
                                               f'open -u {srv.user},{srv.password} -p {srv.port} 127.0.0.1; '
                                               f'mirror -R {os.path.join(base, "src-mirror")} up/{sub}']
                            with B.measuring():
                                secs, _ = run_cmd(cmd, env)
                        else:
                            files = curl_src
                            cmd = [CURL, '-sS', '-w', '%{time_pretransfer}\\n', '-T', '{' + ','.join(files) + '}',
                                   f'ftp://{srv.user}:{srv.password}@127.0.0.1:{srv.port}/up/{sub}/']
                            with B.measuring():
                                secs, out = run_cmd(cmd, env, cwd=os.path.join(base, 'src-curl'))
                            n = sum(1 for x in out.split() if float(x) >= STALL)
                            stalls.setdefault(srv.name, []).append(n)
                        check(os.path.join(srv.updir, sub), files)
                        vals.append(secs)
                        extra = f' ({stalls[srv.name][-1]} stalls of ~1 s)' if step == 'curl' else ''
                        print(f'# round {r + 1}: {STEP_NAMES[step]} -> {srv.name}: {secs:.3f} s{extra}', flush=True)
                    except StepFailed as e:
                        vals.append(None)
                        kind = 'TIMEOUT' if isinstance(e, StepTimeout) else 'FAILED'
                        failures[step].setdefault(srv.name, []).append(f'round {r + 1}: {kind}: {e}')
                        print(f'# round {r + 1}: {STEP_NAMES[step]} -> {srv.name}: {kind}: {e}', flush=True)
                    if step in ('mirror', 'curl', 'overwrite') or (step == 'new' and 'overwrite' not in steps):
                        shutil.rmtree(os.path.join(srv.updir, sub), ignore_errors=True)
        report(args, steps, names, results, failures, stalls, server_args, base)
    finally:
        for s in servers:
            B.stop(s.proc)
        shutil.rmtree(base, ignore_errors=True)


def report(args, steps, names, results, failures, stalls, server_args, base):
    peers = [n for n in names if n not in ('babelftp', 'baseline')]
    med = {st: {n: B.median([v for v in results[st].get(n, []) if v is not None]) for n in names} for st in steps}
    ok = {st: {n: sum(v is not None for v in results[st].get(n, [])) for n in names} for st in steps}
    print(f'\n## medians of {args.runs} rounds, wall seconds (babelftp serve {server_args or "defaults"})')
    head = ['step'] + names + ['babelftp/best peer', 'babelftp/pyftpdlib'] + (['babelftp/baseline'] if 'baseline' in names else [])
    rows = [head]
    ratios = {}
    for st in steps:
        line = [STEP_NAMES[st]]
        for n in names:
            k, tot = ok[st][n], len(results[st].get(n, []))
            if k == 0:
                kinds = {f.split(': ')[1] for f in failures[st].get(n, [])}
                line.append('/'.join(sorted(kinds)) or '-')
            else:
                line.append(f'{med[st][n]:.3f}' + ('' if k == tot else f' ({tot - k} failed)'))
        good = [p for p in peers if ok[st][p]]
        best = min(good, key=lambda p: med[st][p]) if good else None
        b = med[st].get('babelftp') if ok[st].get('babelftp') else None
        r_best = B.ratio(b, med[st][best]) if b is not None and best else None
        r_py = B.ratio(b, med[st]['pyftpdlib']) if b is not None and ok[st].get('pyftpdlib') else None
        line.append(f'{r_best:.2f} ({best})' if r_best is not None else '-')
        line.append(f'{r_py:.2f}' if r_py is not None else '-')
        r_base = None
        if 'baseline' in names:
            r_base = B.ratio(b, med[st]['baseline']) if b is not None and ok[st]['baseline'] else None
            line.append(f'{r_base:.2f}' if r_base is not None else '-')
        ratios[st] = {'best_peer': best, 'babelftp/best_peer': r_best, 'babelftp/pyftpdlib': r_py,
                      'babelftp/baseline': r_base}
        rows.append(line)
    w = [max(len(l[i]) for l in rows) for i in range(len(head))]
    for l in rows:
        print('  '.join([l[0].ljust(w[0])] + [c.rjust(w[i + 1]) for i, c in enumerate(l[1:])]))
    if 'curl' in steps:
        print('curl stalls of ~1 s per round (of 100 transfers): ' +
              ', '.join(f'{n} {stalls.get(n, [])}' for n in names))
    for st in steps:
        for n, why in failures[st].items():
            for w_ in why:
                print(f'failure: {STEP_NAMES[st]} -> {n}: {w_}')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'runs': args.runs, 'dir': base, 'babelftp_server_args': server_args,
                       'binaries': dict(B.binaries()), 'steps': {st: STEP_NAMES[st] for st in steps},
                       'seconds': results, 'medians': {st: {n: (med[st][n] if ok[st][n] else None) for n in names}
                                                       for st in steps},
                       'ratios': ratios, 'curl_stalls': stalls, 'failures': failures}, f, indent=1)
        print(f'# JSON in {args.json}')


if __name__ == '__main__':
    main()
