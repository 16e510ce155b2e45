#!/usr/bin/env python3
"""A one-shot `babelftp ls` of a big legacy directory, as a user runs it:
a fresh process each time, on its first visit to the server (an empty
XDG_STATE_HOME, so no remembered evidence), against lftp's and curl's
listing of the same directory.

The directory holds 10,000 files named as `crates/i18n/examples/
detect_10k.rs` names its mixed listing: the test corpus's development and
validation names (`crates/i18n/tests/corpus/generated.txt`), each with a
number, written in the 27 legacy charsets in turn (by Python's codecs;
names a charset cannot write are left out). babelftp serves it (`serve
--root`, no translation: the bytes go out as they are on disk). Per client,
RUNS times: the wall time of the whole command (start, connect, log in,
list, decide every name's charset for babelftp, print, exit), stdout to
/dev/null. Prints medians and each client / babelftp.

BABELFTP_BIN (default target/release/babelftp) is the binary measured, as
the client and as the server; with BABELFTP_BASELINE, that binary's
client is measured too, alternating with BABELFTP_BIN's run by run, against
the same server. BENCH_PAUSE as in bench/benchlib.py.

Usage: bench/first_listing.py [RUNS] (default 15)
"""
import os, shutil, subprocess, sys, tempfile, time

import benchlib as B

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 15
N = 10_000
# The 27 legacy charsets of detect_10k's mixed listing, as Python names them.
CODECS = [
    'shift_jis', 'euc_jp', 'gbk', 'gb18030', 'big5', 'cp949', 'cp1252', 'iso8859_15', 'mac_roman',
    'cp1250', 'iso8859_2', 'cp1251', 'koi8_r', 'koi8_u', 'iso8859_5', 'cp866', 'mac_cyrillic',
    'cp1253', 'iso8859_7', 'cp1254', 'cp1255', 'iso8859_8', 'cp1256', 'iso8859_6', 'cp1257',
    'cp1258', 'cp874',
]


def texts():
    path = os.path.join(B.TOP, 'crates', 'i18n', 'tests', 'corpus', 'generated.txt')
    out = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith('#'):
                continue
            fields = line.rstrip('\n').split('\t')
            # (the held-out part's names are for the detection test only)
            if len(fields) > 3 and fields[1] != 'held':
                out.append(fields[3])
    return out


def fill(d):
    """The 10,000 names, as detect_10k makes its mixed listing."""
    os.makedirs(d)
    ts = texts()
    made, i = 0, 0
    while made < N:
        text = f'{ts[i % len(ts)]} {i}'
        codec = CODECS[i % len(CODECS)]
        i += 1
        try:
            name = text.encode(codec)
        except UnicodeEncodeError:
            continue
        if b'/' in name or b'\0' in name or name in (b'.', b'..'):
            continue
        try:
            fd = os.open(os.path.join(os.fsencode(d), name), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            continue
        os.close(fd)
        made += 1


def timed(cmd, env):
    t = time.perf_counter()
    r = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    ms = (time.perf_counter() - t) * 1000
    if r.returncode != 0:
        raise SystemExit(f'{cmd[0]} exited {r.returncode}: {r.stderr.decode(errors="replace")[-800:]}')
    return ms


def main():
    bins = B.binaries()
    B.describe(bins)
    for tool in ('lftp', 'curl'):
        if shutil.which(tool) is None:
            raise SystemExit(f'{tool} is missing (apt-get install {tool})')
    work = tempfile.mkdtemp(prefix='babelftp-first-listing-')
    server = None
    try:
        root = os.path.join(work, 'root')
        os.makedirs(root)
        fill(os.path.join(root, 'mixed'))
        port = B.free_port()
        server = B.serve(bins[0][1], root, port)
        url = f'ftp://u:p@127.0.0.1:{port}/mixed/'
        home = os.path.join(work, 'home')
        os.makedirs(home)
        results = {}

        def env(state):
            e = dict(os.environ)
            # lftp keeps history and bookmarks under HOME; babelftp keeps
            # what it learns of a server under XDG_STATE_HOME: both fresh.
            e.update(HOME=home, XDG_STATE_HOME=state, XDG_CONFIG_HOME=os.path.join(home, 'config'),
                     XDG_DATA_HOME=os.path.join(home, 'data'), XDG_CACHE_HOME=os.path.join(home, 'cache'))
            return e

        with B.measuring():
            for run in range(RUNS):
                for label, binary in bins:
                    state = tempfile.mkdtemp(dir=work)
                    results.setdefault(f'babelftp ls ({label})', []).append(
                        timed([binary, 'ls', url], env(state)))
                results.setdefault('lftp ls', []).append(
                    timed(['lftp', '-c', f'set cmd:interactive false; open {url}; ls'], env(work)))
                results.setdefault('curl (LIST)', []).append(
                    timed(['curl', '-sS', '--max-time', '60', url], env(work)))
        print(f'# {N} names of 27 legacy charsets in one directory, {RUNS} runs each, wall time of the command')
        first = B.median(results[f'babelftp ls ({bins[0][0]})'])
        for k, v in results.items():
            m = B.median(v)
            print(f'{k:<28} {m:8.1f} ms median ({min(v):.1f}..{max(v):.1f})   / babelftp {m / first:.2f}')
    finally:
        B.stop(server)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
