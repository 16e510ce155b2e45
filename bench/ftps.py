#!/usr/bin/env python3
"""FTPS (RFC 4217) RETR and STOR throughput: babelftp (release build) against
vsftpd, ProFTPD (mod_tls) and Pure-FTPd, same run, same certificate.

A self-signed RSA-2048 certificate for 127.0.0.1 is made with the openssl
CLI (Python's `cryptography` if there is no openssl). Every server listens on
127.0.0.1 with it, explicit FTPS (AUTH TLS, then PBSZ 0 / PROT P), and serves
the same file of MiB MiB (default 1 GiB; 512 MiB when /dev/shm is small),
hard-linked into a tree of its own on tmpfs. curl (`--ssl-reqd`, so every
data connection is TLS too) fetches it to /dev/null and uploads it back,
RUNS times (default 5) per TLS version, the servers taking turns (their order
rotates each run). Printed per TLS version (1.3, then 1.2 with `--tls-max
1.2`): the median MiB/s of each server, the CPU seconds per GiB the server
and curl spent (curl from its rusage, the server as the machine's busy time
minus curl's: the background load BENCH_PAUSE stops is not counted), and
babelftp / the best peer, as the ratio of the medians and as the median and
spread of the per-run ratios. babelftp in plain FTP (sendfile for RETR) is
measured too, for reference.

Servers, all unpacked by `scripts/peers.sh` into target/peers (run first if
missing), started as crates/test-support does (no system user is made):
  - babelftp `serve --tls-cert --tls-key --user u:p` ($BABELFTP_BIN, default
    target/release/babelftp; with BABELFTP_BASELINE a second babelftp is
    measured too, see bench/benchlib.py);
  - vsftpd 3.0.3, anonymous sessions as `daemon`, nopriv `nobody`,
    ssl_enable=YES, allow_anon_ssl, force_anon_logins_ssl and
    force_anon_data_ssl, require_ssl_reuse=NO, ssl_ciphers=HIGH (its
    default, DES-CBC3-SHA, would put it on 3DES under TLS 1.2);
  - ProFTPD 1.3.8, user bob (uid/gid of nobody) from an AuthUserFile, with
    mod_tls: Debian ships it in proftpd-mod-crypto, which this script
    fetches (`apt-get download`, same version as proftpd-core) and unpacks
    into target/peers/proftpd-crypto when it is not there (never installed);
    TLSRequired on, TLSOptions NoSessionReuseRequired;
  - Pure-FTPd 1.0.50, virtual user bob (nobody) from a PureDB, `-Y 2`
    (TLS required) with the certificate and key given by `-2`. Skipped, with
    the reason printed, if its build has no TLS.
A server that does not start, or whose probe transfer fails for a TLS
version, is left out of that table with the reason printed.

Needs root (the peers' chroots and users). See bench/benchlib.py for
BENCH_PAUSE (use BENCH_PAUSE=release/session while the fuzzer runs).
Usage: bench/ftps.py [RUNS] [MiB]
Environment: FTPS_TLS=1.3,1.2 (which tables, in order).
"""
import os, pwd, grp, re, resource, shutil, subprocess, sys, tempfile, time

import benchlib as B
from peers import SECRET_HASH, env as peer_env, write as write_mode

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
MIB = int(sys.argv[2]) if len(sys.argv) > 2 else None
TLS_VERSIONS = [v.strip() for v in os.environ.get('FTPS_TLS', '1.3,1.2').split(',') if v.strip()]
PEERS = os.path.abspath(os.environ.get('PEERS_DIR') or os.path.join(B.TOP, 'target', 'peers'))
VSFTPD = os.path.join(PEERS, 'vsftpd', 'usr', 'sbin', 'vsftpd')
PROFTPD = os.path.join(PEERS, 'proftpd', 'usr', 'sbin', 'proftpd')
PURE_FTPD = os.path.join(PEERS, 'pure-ftpd', 'usr', 'sbin', 'pure-ftpd')
PURE_PW = os.path.join(PEERS, 'pure-ftpd', 'usr', 'bin', 'pure-pw')
PROFTPD_CRYPTO = os.path.join(PEERS, 'proftpd-crypto')
CURL_TLS = {'1.3': ['--tlsv1.3'], '1.2': ['--tlsv1.2', '--tls-max', '1.2']}


def make_cert(d):
    """cert.pem and key.pem (RSA 2048, self-signed, CN and IP 127.0.0.1)
    in `d`; returns their paths."""
    cert, key = os.path.join(d, 'cert.pem'), os.path.join(d, 'key.pem')
    if shutil.which('openssl'):
        subprocess.run(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2',
                        '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
                        '-keyout', key, '-out', cert], check=True, capture_output=True)
    else:
        try:
            import datetime, ipaddress
            from cryptography import x509
            from cryptography.hazmat.primitives import hashes, serialization
            from cryptography.hazmat.primitives.asymmetric import rsa
            from cryptography.x509.oid import NameOID
        except ImportError:
            raise SystemExit('neither the openssl CLI nor Python\'s cryptography is there: cannot make a certificate')
        k = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, '127.0.0.1')])
        now = datetime.datetime.now(datetime.timezone.utc)
        c = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(k.public_key())
             .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
             .not_valid_after(now + datetime.timedelta(days=2))
             .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address('127.0.0.1'))]), False)
             .sign(k, hashes.SHA256()))
        with open(cert, 'wb') as f:
            f.write(c.public_bytes(serialization.Encoding.PEM))
        with open(key, 'wb') as f:
            f.write(k.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption()))
    os.chmod(key, 0o600)
    return cert, key


def mod_tls_dir():
    """The directory holding ProFTPD's mod_tls.so, fetching Debian's
    proftpd-mod-crypto (the version of the unpacked proftpd-core) into
    target/peers/proftpd-crypto if needed; None, with the reason printed,
    when there is none."""
    for d in (os.path.join(PEERS, 'proftpd', 'usr', 'lib', 'proftpd'),
              os.path.join(PROFTPD_CRYPTO, 'usr', 'lib', 'proftpd')):
        if os.path.isfile(os.path.join(d, 'mod_tls.so')):
            return d
    import gzip
    try:
        with gzip.open(os.path.join(PEERS, 'proftpd', 'usr', 'share', 'doc', 'proftpd-core', 'changelog.Debian.gz'), 'rt') as f:
            version = re.match(r'\S+ \(([^)]+)\)', f.readline()).group(1)
    except (OSError, AttributeError) as e:
        print(f'# proftpd: skipped: version of proftpd-core unknown ({e}), mod_tls not fetched')
        return None
    dl = tempfile.mkdtemp(prefix='babelftp-ftps-dl-')
    try:
        print(f'# proftpd: fetching proftpd-mod-crypto={version} (mod_tls) into {PROFTPD_CRYPTO}', flush=True)
        r = subprocess.run(['apt-get', 'download', '-qq', f'proftpd-mod-crypto={version}'], cwd=dl,
                           capture_output=True, text=True)
        debs = [f for f in os.listdir(dl) if f.endswith('.deb')]
        if r.returncode != 0 or not debs:
            print(f'# proftpd: skipped: apt-get download proftpd-mod-crypto={version} failed '
                  f'(stale package lists? apt-get update): {r.stderr.strip()[-300:]}')
            return None
        os.makedirs(PROFTPD_CRYPTO, exist_ok=True)
        subprocess.run(['dpkg-deb', '-x', os.path.join(dl, debs[0]), PROFTPD_CRYPTO], check=True)
    finally:
        shutil.rmtree(dl, ignore_errors=True)
    d = os.path.join(PROFTPD_CRYPTO, 'usr', 'lib', 'proftpd')
    if not os.path.isfile(os.path.join(d, 'mod_tls.so')):
        print('# proftpd: skipped: proftpd-mod-crypto has no mod_tls.so')
        return None
    return d


class Server:
    """One server under test: its name, base URL (with credentials) of its
    `pub/`, that directory on disk, and its process."""

    def __init__(self, name, url, pub, proc, log=None, peer=True):
        self.name, self.url, self.pub, self.proc, self.log, self.peer = name, url, pub, proc, log, peer

    def logs(self):
        if self.log and os.path.isfile(self.log):
            with open(self.log, errors='replace') as f:
                return f.read()[-2000:]
        return ''


def tree(base, name, big, owner=None):
    """base/name/root/pub/ with big.bin (a hard link of `big`, one copy in
    tmpfs) and small.txt; pub/ (and what is in it) given to `owner`.
    Returns (dir, root, pub)."""
    d = os.path.join(base, name); root = os.path.join(d, 'root'); pub = os.path.join(root, 'pub')
    os.makedirs(pub)
    for p in (d, root, pub):
        os.chmod(p, 0o755)
    os.link(big, os.path.join(pub, 'big.bin'))
    write_mode(os.path.join(pub, 'small.txt'), 'hello\n', 0o644)
    if owner is not None:
        for p in (pub, os.path.join(pub, 'small.txt')):
            os.lchown(p, owner.pw_uid, owner.pw_gid)
    return d, root, pub


def spawn(name, cmd, d, port, env):
    log = os.path.join(d, 'server.out')
    out = open(log, 'wb')
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=out, cwd=d, env=env)
    out.close()
    try:
        B.wait_greeting(port, p)
    except SystemExit as e:
        B.stop(p)
        with open(log, errors='replace') as f:
            raise RuntimeError(f'{e}: {f.read()[-1500:]}')
    return p, log


def start_vsftpd(base, big, cert, key):
    if not os.path.isfile(VSFTPD):
        raise RuntimeError(f'{VSFTPD} missing')
    anon, nopriv = pwd.getpwnam('daemon'), pwd.getpwnam('nobody')
    d, root, pub = tree(base, 'vsftpd', big, anon)
    empty = os.path.join(d, 'empty'); os.mkdir(empty)
    port = B.free_port()
    conf = os.path.join(d, 'vsftpd.conf')
    write_mode(conf, B.vsftpd_conf(port, root, empty, anon.pw_name, nopriv.pw_name, f"""ssl_enable=YES
allow_anon_ssl=YES
force_anon_logins_ssl=YES
force_anon_data_ssl=YES
require_ssl_reuse=NO
ssl_ciphers=HIGH
rsa_cert_file={cert}
rsa_private_key_file={key}
"""))
    p, log = spawn('vsftpd', [VSFTPD, conf], d, port, peer_env())
    return Server('vsftpd', f'ftp://anonymous:x@127.0.0.1:{port}/pub/', pub, p, log)


def start_proftpd(base, big, cert, key):
    if not os.path.isfile(PROFTPD):
        raise RuntimeError(f'{PROFTPD} missing')
    mods = mod_tls_dir()
    if mods is None:
        raise RuntimeError('no mod_tls')
    nobody = pwd.getpwnam('nobody')
    group = grp.getgrgid(nobody.pw_gid).gr_name
    d, root, pub = tree(base, 'proftpd', big, nobody)
    write_mode(os.path.join(d, 'passwd'), f'bob:{SECRET_HASH}:{nobody.pw_uid}:{nobody.pw_gid}::{root}:/bin/sh\n')
    write_mode(os.path.join(d, 'group'), f'peers:x:{nobody.pw_gid}:bob\n')
    port = B.free_port()
    conf = os.path.join(d, 'proftpd.conf')
    write_mode(conf, f"""ModulePath {mods}
LoadModule mod_tls.c
ServerType standalone
ServerName "babelftp ftps bench"
DefaultAddress 127.0.0.1
SocketBindTight on
Port {port}
User {nobody.pw_name}
Group {group}
ScoreboardFile {d}/proftpd.scoreboard
PidFile {d}/proftpd.pid
SystemLog {d}/proftpd.log
TransferLog none
WtmpLog off
DelayEngine off
UseReverseDNS off
AuthPAM off
AuthOrder mod_auth_file.c
AuthUserFile {d}/passwd
AuthGroupFile {d}/group
RequireValidShell off
DefaultRoot ~
Umask 022
AllowOverwrite on
AllowStoreRestart on
LangEngine off
<IfModule mod_tls.c>
  TLSEngine on
  TLSLog {d}/tls.log
  TLSProtocol TLSv1.2 TLSv1.3
  TLSRSACertificateFile {cert}
  TLSRSACertificateKeyFile {key}
  TLSVerifyClient off
  TLSRequired on
  TLSOptions NoSessionReuseRequired
  TLSRenegotiate none
</IfModule>
""")
    env = peer_env(); env['LOCPATH'] = os.path.join(PEERS, 'locale')
    p, log = spawn('proftpd', [PROFTPD, '-n', '-c', conf], d, port, env)
    return Server('proftpd', f'ftp://bob:secret@127.0.0.1:{port}/pub/', pub, p, os.path.join(d, 'proftpd.log'))


def start_pure_ftpd(base, big, cert, key):
    if not os.path.isfile(PURE_FTPD):
        raise RuntimeError(f'{PURE_FTPD} missing')
    env = peer_env()
    helps = subprocess.run([PURE_FTPD, '--help'], capture_output=True, text=True, env=env)
    if '--tls' not in helps.stdout + helps.stderr:
        raise RuntimeError('its build has no TLS (no --tls in --help)')
    nobody = pwd.getpwnam('nobody')
    d, root, pub = tree(base, 'pure-ftpd', big, nobody)
    passwd, pdb = os.path.join(d, 'pureftpd.passwd'), os.path.join(d, 'pureftpd.pdb')
    write_mode(passwd, f'bob:{SECRET_HASH}:{nobody.pw_uid}:{nobody.pw_gid}::{root}/./::::::::::::\n')
    subprocess.run([PURE_PW, 'mkdb', pdb, '-f', passwd], check=True, capture_output=True, env=env)
    # One PEM with key and certificate (what every Pure-FTPd version takes).
    pem = os.path.join(d, 'pure-ftpd.pem')
    with open(key) as k, open(cert) as c:
        write_mode(pem, k.read() + c.read())
    port = B.free_port()
    p, log = spawn('pure-ftpd', [PURE_FTPD, '-S', f'127.0.0.1,{port}', '-l', f'puredb:{pdb}', '-E', '-H', '-A',
                                 '-Y', '2', '-2', pem, '-g', os.path.join(d, 'pure-ftpd.pid')], d, port, env)
    return Server('pure-ftpd', f'ftp://bob:secret@127.0.0.1:{port}/pub/', pub, p, log)


def curl(args):
    """Runs curl; returns (seconds, seconds after curl's pretransfer point,
    curl's CPU seconds, the machine's busy CPU seconds) over the run."""
    def busy():
        with open('/proc/stat') as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return (sum(v) - v[3] - v[4]) / B.TICK
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN); b0 = busy(); t0 = time.perf_counter()
    r = subprocess.run(['curl', '-s', '-S', '-w', '%{time_pretransfer} %{time_total}', *args], check=True,
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
    t1 = time.perf_counter(); b1 = busy(); r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    pre, total = (float(x) for x in r.stdout.split()[-2:])
    c = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
    return t1 - t0, total - pre, c, b1 - b0


def probe(srv, tls):
    """One small TLS download; returns 'TLSv1.3 / TLS_AES_256_GCM_SHA384'
    (what curl reports for the control connection) or raises with curl's
    output."""
    r = subprocess.run(['curl', '-v', '-s', '-S', '-k', '--ssl-reqd', *CURL_TLS[tls], '-o', '/dev/null',
                        srv.url + 'small.txt'], capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        tail = '\n'.join(l for l in r.stderr.splitlines()[-6:])
        raise RuntimeError(f'curl exit {r.returncode}: {tail}')
    m = re.findall(r'SSL connection using (\S+) / (\S+)', r.stderr)
    prot = 'PROT P' in r.stderr
    return (f'{m[0][0]} / {m[0][1]}' if m else '?') + ('' if prot else ' (no PROT P!)')


def median_str(xs, fmt='.0f'):
    return format(B.median(xs), fmt) if xs else '-'


def measure(servers, tls, up_src, mib, plain=None):
    """RUNS rounds of RETR then STOR on every server (TLS `tls`, or plain
    FTP for the Server `plain`, measured after the others in each round).
    Returns {(name, 'RETR'|'STOR'): [(MiB/s, data-phase MiB/s, server CPU s,
    curl CPU s)]}."""
    jobs = [(s, tls) for s in servers] + ([(plain, None)] if plain else [])
    res = {}
    for run in range(RUNS):
        k = run % len(servers)
        order = jobs[k:len(servers)] + jobs[:k] + jobs[len(servers):]
        with B.measuring():
            for srv, t in order:
                name = srv.name if t else srv.name + ' (plain FTP)'
                opts = ['-k', '--ssl-reqd', *CURL_TLS[t]] if t else []
                up = os.path.join(srv.pub, 'up.bin')
                for d, args in (('RETR', ['-o', '/dev/null', srv.url + 'big.bin']),
                                ('STOR', ['-T', up_src, srv.url + 'up.bin'])):
                    secs, data, ccpu, busy = curl(opts + args)
                    res.setdefault((name, d), []).append((mib / secs, mib / data, max(0.0, busy - ccpu), ccpu))
                size = os.path.getsize(up)
                assert size == mib << 20, (name, size)
                os.remove(up)
        print(f'# TLS {tls} run {run + 1}: ' + ', '.join(
            f'{n} {d} {v[-1][0]:.0f}' for (n, d), v in res.items()), flush=True)
    return res


def report(res, tls, mib, ours, peers, ciphers):
    """Prints the table of one TLS version and the ratios; returns
    {(figure, 'RETR'|'STOR'): (ours, best peer, its figure, ratio)}."""
    gib = mib / 1024
    names = []
    for n, _ in res:
        if n not in names:
            names.append(n)
    print(f'\n## TLS {tls}: medians of {RUNS} runs of {mib} MiB. MiB/s: "wall" = the whole curl run (as '
          f'bench/transfer.py), "data" = after curl\'s pretransfer point (login, handshakes and the 0.2-1.2 s '
          f'curl waits when a server answers the data connection\'s TLS handshake only at RETR or STOR '
          f'left out). CPU s per GiB: the server\'s (machine busy time - curl\'s) and curl\'s')
    head = ['server', 'RETR wall', 'RETR data', 'STOR wall', 'STOR data',
            'RETR srv', 'RETR curl', 'STOR srv', 'STOR curl', 'TLS']
    lines = [head]
    for n in names:
        row = [n]
        for d in ('RETR', 'STOR'):
            vs = res.get((n, d), [])
            row += [median_str([v[0] for v in vs]), median_str([v[1] for v in vs])]
        for d in ('RETR', 'STOR'):
            vs = res.get((n, d), [])
            row += [median_str([v[2] / gib for v in vs], '.2f'), median_str([v[3] / gib for v in vs], '.2f')]
        row.append(ciphers.get(n, 'plain'))
        lines.append(row)
    w = [max(len(l[i]) for l in lines) for i in range(len(head))]
    for l in lines:
        print('  '.join([l[0].ljust(w[0])] + [c.rjust(w[i + 1]) for i, c in enumerate(l[1:-1])] + [l[-1]]))
    if not peers:
        print('(no peer measured: no ratio)')
        return {}
    out = {}
    for k, fig in ((0, 'wall'), (1, 'data')):
        for d in ('RETR', 'STOR'):
            meds = {p: B.median([v[k] for v in res[(p, d)]]) for p in peers}
            best = max(meds, key=meds.get)
            a = B.median([v[k] for v in res[(ours, d)]])
            # Per run: ours against the best peer of that same run.
            pairs = [r[k] / max(res[(p, d)][i][k] for p in peers) for i, r in enumerate(res[(ours, d)])]
            verdict = 'meets' if a / meds[best] >= 1.1 else 'below'
            print(f'{d} TLS {tls} ({fig}): {ours} {a:.0f} MiB/s, best peer {best} {meds[best]:.0f} MiB/s, '
                  f'ratio {a / meds[best]:.2f} (per run: median {B.median(pairs):.2f}, '
                  f'{min(pairs):.2f}-{max(pairs):.2f}); {verdict} the 1.1x goal')
            out[(fig, d)] = (a, best, meds[best], a / meds[best])
    return out


def main():
    for tool in ('curl',):
        if not shutil.which(tool):
            raise SystemExit(f'{tool} is needed')
    for v in TLS_VERSIONS:
        if v not in CURL_TLS:
            raise SystemExit(f'FTPS_TLS: {v}? (1.3 or 1.2)')
    if not all(os.path.isfile(p) for p in (VSFTPD, PROFTPD, PURE_FTPD)):
        subprocess.run(['bash', os.path.join(B.TOP, 'scripts', 'peers.sh')], cwd=B.TOP, check=True)
    bins = B.binaries()
    B.describe(bins)
    free = shutil.disk_usage('/dev/shm').free >> 20
    mib = MIB or (1024 if free >= 3 * 1024 + 512 else 512)
    if free < 3 * mib + 512:
        raise SystemExit(f'/dev/shm has {free} MiB free; 3 x {mib} MiB are needed: pass a smaller MiB')
    print(f'# {RUNS} runs of {mib} MiB per server and TLS version ({", ".join(TLS_VERSIONS)}); '
          f'{os.cpu_count()} CPUs; {subprocess.run(["curl", "--version"], capture_output=True, text=True).stdout.splitlines()[0]}')

    base = tempfile.mkdtemp(prefix='babelftp-ftps-', dir='/dev/shm')
    servers = []
    try:
        os.chmod(base, 0o755)
        cert, key = make_cert(base)
        big = os.path.join(base, 'big.bin')
        with open(big, 'wb') as f:
            block = os.urandom(1 << 20)
            for _ in range(mib):
                f.write(block)
        os.chmod(big, 0o644)
        up_src = os.path.join(base, 'up-src.bin')
        shutil.copy(big, up_src)

        ours = []
        for label, path in bins:
            d, root, pub = tree(base, label, big)
            port = B.free_port()
            p = B.serve(path, root, port, '--tls-cert', cert, '--tls-key', key)
            s = Server(label, f'ftp://u:p@127.0.0.1:{port}/pub/', pub, p, peer=False)
            servers.append(s); ours.append(s)
        for name, start in (('vsftpd', start_vsftpd), ('proftpd', start_proftpd), ('pure-ftpd', start_pure_ftpd)):
            try:
                servers.append(start(base, big, cert, key))
            except (RuntimeError, OSError, subprocess.CalledProcessError, KeyError) as e:
                print(f'# {name}: skipped: {e}')

        summary = {}
        for tls in TLS_VERSIONS:
            ciphers, live = {}, []
            for s in servers:
                try:
                    ciphers[s.name] = probe(s, tls)
                    live.append(s)
                except (RuntimeError, subprocess.TimeoutExpired) as e:
                    print(f'# TLS {tls}: {s.name} left out: {e}\n{s.logs()}')
            if not any(s in live for s in ours):
                raise SystemExit(f'TLS {tls}: babelftp does not answer FTPS')
            for s in live:
                print(f'# TLS {tls}: {s.name}: {ciphers[s.name]}')
            res = measure(live, tls, up_src, mib, plain=ours[0])
            summary[tls] = report(res, tls, mib, ours[0].name, [s.name for s in live if s.peer], ciphers)
        print('\n## summary (babelftp / best peer, medians)')
        for tls, out in summary.items():
            for (fig, d), (a, best, b, r) in out.items():
                print(f'TLS {tls} {d} ({fig}): {a:.0f} vs {best} {b:.0f} MiB/s: {r:.2f}x')
    finally:
        for s in servers:
            B.stop(s.proc)
        shutil.rmtree(base, ignore_errors=True)


if __name__ == '__main__':
    main()
