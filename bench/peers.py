"""The peer servers of the benches, in plain FTP, all serving one tree.

vsftpd 3.0.3, ProFTPD 1.3.8 and Pure-FTPd 1.0.50 come from Debian's
packages, unpacked by `scripts/peers.sh` into target/peers (never
installed); pyftpdlib comes from PyPI, installed with pip into
target/peers/pyftpdlib (never into the system's Python). Each `start_*`
takes a work directory of its own and the tree to serve (read-only: it
must be world-readable and owned by root), and returns a `Peer`: its name,
port, user, password and process. A peer that cannot start raises
RuntimeError with the reason. Needs root (the peers' chroots and users).
"""
import grp, os, pwd, subprocess, sys

import benchlib as B

PEERS = os.path.abspath(os.environ.get('PEERS_DIR') or os.path.join(B.TOP, 'target', 'peers'))
VSFTPD = os.path.join(PEERS, 'vsftpd', 'usr', 'sbin', 'vsftpd')
PROFTPD = os.path.join(PEERS, 'proftpd', 'usr', 'sbin', 'proftpd')
PURE_FTPD = os.path.join(PEERS, 'pure-ftpd', 'usr', 'sbin', 'pure-ftpd')
PURE_PW = os.path.join(PEERS, 'pure-ftpd', 'usr', 'bin', 'pure-pw')
PYFTPDLIB = os.path.join(PEERS, 'pyftpdlib')
PYFTPDLIB_VERSION = '2.2.0'
# `secret`, as crates/test-support/src/peers.rs hashes it (openssl passwd -6).
SECRET_HASH = '$6$babelftppeers$enbcgUQ32kr3G8fPZqoR6SDyg30NeZkoyeJQH5uvnBqFCKGeHP5Bxz.gpMqH2X.7SdtLIVPH1ZjmhW7gg3Yez/'


class Peer:
    def __init__(self, name, port, user, password, proc, log):
        self.name, self.port, self.user, self.password, self.proc, self.log = name, port, user, password, proc, log

    def tail(self):
        try:
            with open(self.log, errors='replace') as f:
                return f.read()[-1500:]
        except OSError:
            return ''


def ensure():
    """Unpacks the Debian peers and installs pyftpdlib when missing."""
    if not all(os.path.isfile(p) for p in (VSFTPD, PROFTPD, PURE_FTPD)):
        subprocess.run(['bash', os.path.join(B.TOP, 'scripts', 'peers.sh')], cwd=B.TOP, check=True)
    if not os.path.isdir(os.path.join(PYFTPDLIB, 'pyftpdlib')):
        subprocess.run([sys.executable, '-m', 'pip', 'install', '-q', '--disable-pip-version-check',
                        '--target', PYFTPDLIB, f'pyftpdlib=={PYFTPDLIB_VERSION}'], check=True)


def env():
    """A peer's environment: no locale, the libraries peers.sh unpacked."""
    e = {k: v for k, v in os.environ.items() if k not in ('LANG', 'LANGUAGE', 'LC_ALL', 'LC_MESSAGES', 'LC_CTYPE')}
    try:
        with open(os.path.join(PEERS, 'ld-library-path')) as f:
            ours = f.read().strip()
    except FileNotFoundError:
        ours = ''
    path = ':'.join(p for p in (ours, e.get('LD_LIBRARY_PATH', '')) if p)
    if path:
        e['LD_LIBRARY_PATH'] = path
    return e


def write(path, text, mode=0o600):
    with open(path, 'w') as f:
        f.write(text)
    os.chmod(path, mode)


def spawn(name, cmd, d, port, environ, user, password, log=None):
    out_path = os.path.join(d, 'server.out')
    out = open(out_path, 'wb')
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=out, cwd=d, env=environ)
    out.close()
    try:
        B.wait_greeting(port, p)
    except SystemExit as e:
        B.stop(p)
        with open(out_path, errors='replace') as f:
            raise RuntimeError(f'{name}: {e}: {f.read()[-1500:]}')
    return Peer(name, port, user, password, p, log or out_path)


def start_vsftpd(d, root, extra=''):
    """Anonymous sessions (as `daemon`, nopriv `nobody`) on `root`."""
    os.makedirs(d, exist_ok=True)
    empty = os.path.join(d, 'empty'); os.makedirs(empty, exist_ok=True)
    port = B.free_port()
    conf = os.path.join(d, 'vsftpd.conf')
    write(conf, B.vsftpd_conf(port, root, empty, 'daemon', 'nobody', 'max_clients=20000\nmax_per_ip=20000\n' + extra))
    return spawn('vsftpd', [VSFTPD, conf], d, port, env(), 'anonymous', 'x')


def start_proftpd(d, root):
    """User bob (uid/gid of nobody) from an AuthUserFile, home `root`."""
    os.makedirs(d, exist_ok=True)
    nobody = pwd.getpwnam('nobody')
    group = grp.getgrgid(nobody.pw_gid).gr_name
    write(os.path.join(d, 'passwd'), f'bob:{SECRET_HASH}:{nobody.pw_uid}:{nobody.pw_gid}::{root}:/bin/sh\n')
    write(os.path.join(d, 'group'), f'peers:x:{nobody.pw_gid}:bob\n')
    port = B.free_port()
    conf = os.path.join(d, 'proftpd.conf')
    write(conf, f"""ServerType standalone
ServerName "babelftp bench"
DefaultAddress 127.0.0.1
SocketBindTight on
Port {port}
User {nobody.pw_name}
Group {group}
MaxInstances 20000
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
LangEngine off
""")
    e = env(); e['LOCPATH'] = os.path.join(PEERS, 'locale')
    return spawn('proftpd', [PROFTPD, '-n', '-c', conf], d, port, e, 'bob', 'secret', os.path.join(d, 'proftpd.log'))


def start_pure_ftpd(d, root):
    """Virtual user bob (nobody) from a PureDB, home `root`; listings not
    cut at its default 10,000 entries (`-L`)."""
    os.makedirs(d, exist_ok=True)
    nobody = pwd.getpwnam('nobody')
    passwd, pdb = os.path.join(d, 'pureftpd.passwd'), os.path.join(d, 'pureftpd.pdb')
    write(passwd, f'bob:{SECRET_HASH}:{nobody.pw_uid}:{nobody.pw_gid}::{root}/./::::::::::::\n')
    subprocess.run([PURE_PW, 'mkdb', pdb, '-f', passwd], check=True, capture_output=True, env=env())
    port = B.free_port()
    return spawn('pure-ftpd', [PURE_FTPD, '-S', f'127.0.0.1,{port}', '-l', f'puredb:{pdb}', '-E', '-H', '-A',
                               '-c', '20000', '-C', '20000', '-L', '2000000:8', '-g', os.path.join(d, 'pure-ftpd.pid')],
                 d, port, env(), 'bob', 'secret')


def start_pyftpdlib(d, root, perm='elradfmw'):
    """pyftpdlib's FTPServer (its default select/epoll loop), user bob with
    pyftpdlib's permissions `perm` (add T for MFMT, as `mirror -R` sends)."""
    os.makedirs(d, exist_ok=True)
    port = B.free_port()
    script = os.path.join(d, 'serve.py')
    write(script, f"""import logging, sys
sys.path.insert(0, {PYFTPDLIB!r})
from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer
logging.basicConfig(level=logging.WARNING)
a = DummyAuthorizer()
a.add_user('bob', 'secret', {root!r}, perm={perm!r})
h = FTPHandler
h.authorizer = a
h.use_sendfile = True
s = FTPServer(('127.0.0.1', {port}), h)
s.max_cons = 20000
s.max_cons_per_ip = 20000
s.serve_forever()
""", 0o644)
    return spawn('pyftpdlib', [sys.executable, script], d, port, env(), 'bob', 'secret')


STARTERS = {
    'vsftpd': start_vsftpd,
    'proftpd': start_proftpd,
    'pure-ftpd': start_pure_ftpd,
    'pyftpdlib': start_pyftpdlib,
}


def descendants(pid):
    """`pid` and every process below it."""
    kids = {}
    for name in os.listdir('/proc'):
        if not name.isdigit():
            continue
        try:
            with open(f'/proc/{name}/stat') as f:
                s = f.read()
            kids.setdefault(int(s[s.rindex(')') + 2:].split()[1]), []).append(int(name))
        except (OSError, ValueError):
            continue
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def tree_cpu(pid):
    """CPU seconds of `pid` and every live process below it, with those of
    threads and processes that have ended (utime, stime and the reaped
    children's)."""
    total = 0
    for p in descendants(pid):
        try:
            with open(f'/proc/{p}/stat') as f:
                fields = f.read().rsplit(')', 1)[1].split()
            total += sum(int(x) for x in fields[11:15])
        except (OSError, ValueError, IndexError):
            pass
    return total / B.TICK


def cpu_ns(pids):
    """Nanoseconds on a CPU of every thread of `pids` (schedstat: precise,
    where utime/stime count 10 ms ticks)."""
    total = 0
    for pid in pids:
        try:
            tasks = os.listdir(f'/proc/{pid}/task')
        except OSError:
            continue
        for t in tasks:
            try:
                with open(f'/proc/{pid}/task/{t}/schedstat') as f:
                    total += int(f.read().split()[0])
            except (OSError, ValueError):
                pass
    return total


def rss_kib(pids):
    """VmRSS of `pids` together, KiB."""
    total = 0
    for p in pids:
        try:
            total += B.rss_kib(p)
        except OSError:
            pass
    return total
