//! Real FTP servers from Debian bookworm's packages, as `scripts/peers.sh`
//! leaves them under `target/peers` (or `$PEERS_DIR`): vsftpd, ProFTPD
//! (with mod_lang, its locales in `locale/`) and Pure-FTPd, unpacked, never
//! installed, with the libraries the machine lacks in `libs/`.
//!
//! Each one is started here, as root, in the foreground on a free port of
//! 127.0.0.1, with a config file of its own in a temporary directory that
//! also holds `root/`, the tree it serves; it is stopped when its [`Peer`]
//! is dropped. Sessions run as users every Debian system has (base-passwd):
//! `nobody` for the virtual user `bob`/`secret` of ProFTPD and Pure-FTPd
//! and for vsftpd's unprivileged process, `daemon` for vsftpd's anonymous
//! sessions (vsftpd enters its anonymous user's home before its chroot, and
//! nobody's is /nonexistent). Whatever the test puts below the root is
//! given to that user. Nothing depends on the machine's users, locales or
//! services, and nothing is added to them.
//!
//! Nothing a server reads after it has switched to its session user may be
//! read from `target/peers`: the checkout can sit in a directory only root
//! may enter (`/root`, or a `mktemp -d` directory, both 0700), and then
//! ProFTPD, whose sessions read their catalog and locale as `nobody`,
//! answered in English. What it reads that way is copied into its working
//! directory (see [`readable_copy`]); the binaries, libraries and modules
//! are loaded while the servers are still root, so they stay where they are.

use std::collections::HashMap;
use std::fs;
use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::{poll, stop_child};

/// `secret`, hashed with `openssl passwd -6 -salt babelftppeers secret`
/// (glibc's crypt, which both ProFTPD's AuthUserFile and PureDB take).
const SECRET_HASH: &str =
    "$6$babelftppeers$enbcgUQ32kr3G8fPZqoR6SDyg30NeZkoyeJQH5uvnBqFCKGeHP5Bxz.gpMqH2X.7SdtLIVPH1ZjmhW7gg3Yez/";

/// How long a server may take to greet.
const READY_TIMEOUT: Duration = Duration::from_secs(15);

/// Where `scripts/peers.sh` put the servers: `$PEERS_DIR`, or the
/// workspace's `target/peers`.
pub fn peers_dir() -> PathBuf {
    match std::env::var_os("PEERS_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/peers"),
    }
}

/// The compiled locales ProFTPD gets as `LOCPATH`.
pub fn locale_dir() -> PathBuf {
    peers_dir().join("locale")
}

/// A file `scripts/peers.sh` leaves; fails the test when it is missing.
pub fn installed(path: PathBuf) -> PathBuf {
    assert!(
        path.is_file(),
        "{} is missing: run `bash scripts/peers.sh` first",
        path.display()
    );
    path
}

/// `LD_LIBRARY_PATH` for the servers: the directories of `libs/` that
/// `scripts/peers.sh` wrote down, then the caller's.
fn ld_library_path() -> Option<String> {
    let ours = fs::read_to_string(peers_dir().join("ld-library-path")).unwrap_or_default();
    let ours = ours.trim();
    let theirs = std::env::var("LD_LIBRARY_PATH").unwrap_or_default();
    match (ours.is_empty(), theirs.is_empty()) {
        (true, true) => None,
        (true, false) => Some(theirs),
        (false, true) => Some(ours.to_string()),
        (false, false) => Some(format!("{ours}:{theirs}")),
    }
}

/// A system user sessions run as.
#[derive(Clone, Debug)]
struct Account {
    name: &'static str,
    uid: u32,
    gid: u32,
    /// The name of its primary group.
    group: String,
    home: PathBuf,
}

fn getent(db: &str, key: &str) -> String {
    let out = Command::new("getent").args([db, key]).output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// `name` from the passwd database; fails the test if there is none.
fn account(name: &'static str) -> Account {
    let line = getent("passwd", name);
    let f: Vec<&str> = line.trim().split(':').collect();
    assert!(f.len() >= 6, "no user {name}: {line:?}");
    let (uid, gid): (u32, u32) = (f[2].parse().unwrap(), f[3].parse().unwrap());
    let group = getent("group", &gid.to_string());
    let group = group.split(':').next().filter(|g| !g.is_empty()).unwrap_or("nogroup");
    Account {
        name,
        uid,
        gid,
        group: group.to_string(),
        home: PathBuf::from(f[5]),
    }
}

/// Gives everything below `root` (not `root` itself) to `to`.
fn give_tree(root: &Path, to: &Account) {
    for entry in fs::read_dir(root).unwrap() {
        let path = entry.unwrap().path();
        std::os::unix::fs::lchown(&path, Some(to.uid), Some(to.gid)).unwrap();
        if path.symlink_metadata().unwrap().is_dir() {
            give_tree(&path, to);
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The working directory of one server: its config, logs, and `root/`,
/// the tree it serves (0755 all the way, so that a server that has
/// switched to its session user can still walk it).
fn workdir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let root = dir.path().join("root");
    fs::create_dir(&root).unwrap();
    fs::set_permissions(&root, fs::Permissions::from_mode(0o755)).unwrap();
    (dir, root)
}

/// Copies the tree `from` to `to` (which must not exist), readable by every
/// user whatever the modes and the location of `from`: directories 0755,
/// files 0644. A server's working directory is the place for it: it is
/// 0755 in the system's temporary directory, and removed with the server.
/// Files hard-linked to one another in `from` stay so in `to`
/// (`localedef` links what locales share: 5 MB copied instead of 14).
fn readable_copy(from: &Path, to: &Path) {
    fn copy(from: &Path, to: &Path, copied: &mut HashMap<(u64, u64), PathBuf>) {
        let meta = fs::symlink_metadata(from)
            .unwrap_or_else(|e| panic!("{}: {e}: run `bash scripts/peers.sh` first", from.display()));
        if meta.is_dir() {
            fs::create_dir(to).unwrap();
            fs::set_permissions(to, fs::Permissions::from_mode(0o755)).unwrap();
            for entry in fs::read_dir(from).unwrap() {
                let name = entry.unwrap().file_name();
                copy(&from.join(&name), &to.join(&name), copied);
            }
        } else if meta.file_type().is_symlink() {
            std::os::unix::fs::symlink(fs::read_link(from).unwrap(), to).unwrap();
        } else if let Some(first) = copied.get(&(meta.dev(), meta.ino())) {
            fs::hard_link(first, to).unwrap();
        } else {
            fs::copy(from, to).unwrap_or_else(|e| panic!("copying {}: {e}", from.display()));
            fs::set_permissions(to, fs::Permissions::from_mode(0o644)).unwrap();
            if meta.nlink() > 1 {
                copied.insert((meta.dev(), meta.ino()), to.to_path_buf());
            }
        }
    }
    copy(from, to, &mut HashMap::new());
}

fn write_mode(path: &Path, text: &str, mode: u32) {
    fs::write(path, text).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

/// A running server, stopped (SIGTERM, then SIGKILL) when dropped.
pub struct Peer {
    /// What the test calls it (`vsftpd`, `proftpd`, …).
    pub name: &'static str,
    /// Its port on 127.0.0.1.
    pub port: u16,
    /// The tree it serves.
    pub root: PathBuf,
    /// Who its sessions run as.
    user: Account,
    child: Child,
    dir: tempfile::TempDir,
}

/// Why a server did not come up.
enum NotReady {
    Exited(std::process::ExitStatus),
    Silent,
}

/// Waits until the server on `port` answers a connection with its 220
/// greeting, [`READY_TIMEOUT`] at most.
fn wait_ready(child: &mut Child, port: u16) -> Result<(), NotReady> {
    let ready = poll(READY_TIMEOUT, || {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(Err(NotReady::Exited(status)));
        }
        let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut greeting = [0u8; 3];
        (s.read_exact(&mut greeting).is_ok() && &greeting == b"220").then_some(Ok(()))
    });
    ready.unwrap_or(Err(NotReady::Silent))
}

/// What a server wrote: its own output and its log file.
fn server_logs(name: &str, dir: &Path) -> String {
    let mut text = String::new();
    for f in ["server.out", "proftpd.log", "tls.log"] {
        if let Ok(b) = fs::read(dir.join(f)) {
            text += &format!("--- {name} {f}:\n{}", String::from_utf8_lossy(&b));
        }
    }
    text
}

impl Peer {
    /// Starts a server: `make` writes its config for a port and returns the
    /// command. A port found free can be taken by another test's data
    /// connection before the server binds it, so a server that exits
    /// before greeting is tried again on another port (three tries).
    fn start(
        name: &'static str,
        user: Account,
        dir: tempfile::TempDir,
        root: PathBuf,
        mut make: impl FnMut(&Path, u16) -> Command,
    ) -> Peer {
        let started = Instant::now();
        let mut attempt = 1;
        loop {
            let port = free_port();
            let mut cmd = make(dir.path(), port);
            let log = fs::File::create(dir.path().join("server.out")).unwrap();
            for var in ["LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_CTYPE"] {
                cmd.env_remove(var);
            }
            if let Some(path) = ld_library_path() {
                cmd.env("LD_LIBRARY_PATH", path);
            }
            cmd.stdin(Stdio::null())
                .stdout(log.try_clone().unwrap())
                .stderr(log)
                .current_dir(dir.path());
            let mut child = cmd.spawn().unwrap_or_else(|e| panic!("starting {name}: {e}"));
            match wait_ready(&mut child, port) {
                Ok(()) => {
                    eprintln!("{name} ready on 127.0.0.1:{port} in {:?}", started.elapsed());
                    return Peer {
                        name,
                        port,
                        root,
                        user,
                        child,
                        dir,
                    };
                }
                Err(NotReady::Exited(status)) if attempt < 3 => {
                    let logs = server_logs(name, dir.path());
                    eprintln!("{name} exited ({status}) on port {port}, trying another port:\n{logs}");
                    attempt += 1;
                }
                Err(why) => {
                    stop_child(&mut child, Duration::from_secs(5));
                    let why = match why {
                        NotReady::Exited(status) => format!("exited before serving: {status}"),
                        NotReady::Silent => format!("does not greet on port {port} within {READY_TIMEOUT:?}"),
                    };
                    panic!("{name} {why}\n{}", server_logs(name, dir.path()));
                }
            }
        }
    }

    /// `ftp://127.0.0.1:PORT` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("ftp://127.0.0.1:{}{path}", self.port)
    }

    /// Its control address.
    pub fn addr(&self) -> std::net::SocketAddr {
        ([127, 0, 0, 1], self.port).into()
    }

    /// The key the client remembers this server's charset under.
    pub fn key(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Gives `path` to the user the sessions run as (so that they may
    /// write it).
    pub fn give(&self, path: &Path) {
        std::os::unix::fs::lchown(path, Some(self.user.uid), Some(self.user.gid)).unwrap();
    }

    /// What the server wrote (its output and its log).
    pub fn logs(&self) -> String {
        server_logs(self.name, self.dir.path())
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        stop_child(&mut self.child, Duration::from_secs(5));
    }
}

/// vsftpd, anonymous (any password; sessions as `daemon`, chrooted in
/// the root), read/write: uploads, MKD, and DELE/RMD/RNFR/overwrites are
/// each enabled for anonymous. vsftpd refuses a chroot it could write to,
/// so the root stays root's; what `fill` puts below it is `daemon`'s.
pub fn vsftpd(fill: impl FnOnce(&Path)) -> Peer {
    vsftpd_with("", fill)
}

/// [`vsftpd`] with explicit FTPS required for logins and data
/// (`force_anon_logins_ssl`, `force_anon_data_ssl`) and data connections
/// required to resume the control connection's TLS session
/// (`require_ssl_reuse=YES`), TLS 1.2 and 1.3, with the certificate and key
/// in `cert` and `key` (PEM).
pub fn vsftpd_tls(cert: &Path, key: &Path, fill: impl FnOnce(&Path)) -> Peer {
    vsftpd_with(
        &format!(
            "ssl_enable=YES
allow_anon_ssl=YES
force_anon_logins_ssl=YES
force_anon_data_ssl=YES
require_ssl_reuse=YES
ssl_ciphers=HIGH
rsa_cert_file={}
rsa_private_key_file={}
",
            cert.display(),
            key.display()
        ),
        fill,
    )
}

/// [`vsftpd`] with `extra` lines added to its config.
pub fn vsftpd_with(extra: &str, fill: impl FnOnce(&Path)) -> Peer {
    let bin = installed(peers_dir().join("vsftpd/usr/sbin/vsftpd"));
    let (dir, root) = workdir();
    let anon = account("daemon");
    assert!(anon.home.is_dir(), "{anon:?}: vsftpd needs its home directory");
    let nopriv = account("nobody");
    fill(&root);
    give_tree(&root, &anon);
    let empty = dir.path().join("empty");
    fs::create_dir(&empty).unwrap();
    let root_text = root.display().to_string();
    let (anon_name, nopriv_name) = (anon.name, nopriv.name);
    Peer::start("vsftpd", anon, dir, root, |d, port| {
        let conf = d.join("vsftpd.conf");
        let text = format!(
            "listen=YES
listen_ipv6=NO
listen_address=127.0.0.1
listen_port={port}
background=NO
anonymous_enable=YES
local_enable=NO
ftp_username={anon_name}
nopriv_user={nopriv_name}
anon_root={root_text}
write_enable=YES
anon_upload_enable=YES
anon_mkdir_write_enable=YES
anon_other_write_enable=YES
anon_world_readable_only=NO
anon_umask=022
utf8_filesystem=YES
seccomp_sandbox=NO
secure_chroot_dir={empty}
xferlog_enable=NO
dirmessage_enable=NO
{extra}",
            empty = empty.display()
        );
        // vsftpd wants its config owned by root and not writable by others.
        write_mode(&conf, &text, 0o600);
        let mut cmd = Command::new(&bin);
        cmd.arg(&conf);
        cmd
    })
}

/// ProFTPD, standalone in the foreground (`-n`), user `bob`/`secret` from
/// an AuthUserFile (uid and gid of `nobody`, home = the root, chrooted
/// there; what `fill` puts below it is nobody's), overwrites and REST+STOR
/// allowed; LANG from the package's own catalogs and the locales of
/// [`locale_dir`] (`LOCPATH`), both copied into the server's directory:
/// its sessions read them as `nobody` (setlocale and gettext at `LANG`),
/// who may not be able to reach `target/peers`.
pub fn proftpd(lang_engine: bool, fill: impl FnOnce(&Path)) -> Peer {
    proftpd_with(lang_engine, "", "", fill)
}

/// [`proftpd`] (LangEngine on) with mod_tls (from Debian's
/// proftpd-mod-crypto, which `scripts/peers.sh` unpacks into
/// `proftpd-crypto/`): explicit FTPS required for logins and data, and
/// data connections required to resume the control connection's TLS
/// session (mod_tls's default), TLS 1.2 and 1.3, with the (ECDSA)
/// certificate and key in `cert` and `key` (PEM).
pub fn proftpd_tls(cert: &Path, key: &Path, fill: impl FnOnce(&Path)) -> Peer {
    let modules = peers_dir().join("proftpd-crypto/usr/lib/proftpd");
    installed(modules.join("mod_tls.so"));
    let head = format!("ModulePath {}\nLoadModule mod_tls.c\n", modules.display());
    let tail = format!(
        "<IfModule mod_tls.c>
  TLSEngine on
  TLSLog %D/tls.log
  TLSProtocol TLSv1.2 TLSv1.3
  TLSECCertificateFile {}
  TLSECCertificateKeyFile {}
  TLSVerifyClient off
  TLSRequired on
  TLSRenegotiate none
</IfModule>
",
        cert.display(),
        key.display()
    );
    proftpd_with(true, &head, &tail, fill)
}

/// [`proftpd`] with `head` before its config and `tail` after it (`%D` in
/// them is the server's directory).
pub fn proftpd_with(lang_engine: bool, head: &str, tail: &str, fill: impl FnOnce(&Path)) -> Peer {
    let top = peers_dir().join("proftpd");
    let bin = installed(top.join("usr/sbin/proftpd"));
    let (dir, root) = workdir();
    let nobody = account("nobody");
    fill(&root);
    give_tree(&root, &nobody);
    let (uid, gid) = (nobody.uid, nobody.gid);
    let (user, group) = (nobody.name, nobody.group.clone());
    let d = dir.path();
    write_mode(
        &d.join("passwd"),
        &format!("bob:{SECRET_HASH}:{uid}:{gid}::{}:/bin/sh\n", root.display()),
        0o600,
    );
    write_mode(&d.join("group"), &format!("peers:x:{gid}:bob\n"), 0o600);
    // Read by the sessions, as `nobody`: from target/peers they would fail
    // (EACCES) in a checkout below a 0700 directory, and ProFTPD answers
    // `LANG fr_FR` with 200 all the same, in English.
    let (langpath, locpath) = (d.join("lang"), d.join("locale"));
    readable_copy(&top.join("usr/share/locale"), &langpath);
    readable_copy(&locale_dir(), &locpath);
    let name = if lang_engine {
        "proftpd"
    } else {
        "proftpd (LangEngine off)"
    };
    Peer::start(name, nobody, dir, root, |d, port| {
        let conf = d.join("proftpd.conf");
        let text = format!(
            "{head}ServerType standalone
ServerName \"babelftp peers\"
DefaultAddress 127.0.0.1
SocketBindTight on
Port {port}
User {user}
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
LangEngine {lang}
LangPath {langpath}
{tail}",
            head = head.replace("%D", &d.display().to_string()),
            tail = tail.replace("%D", &d.display().to_string()),
            d = d.display(),
            lang = if lang_engine { "on" } else { "off" },
            langpath = langpath.display(),
        );
        write_mode(&conf, &text, 0o600);
        let mut cmd = Command::new(&bin);
        cmd.arg("-n").arg("-c").arg(&conf).env("LOCPATH", &locpath);
        cmd
    })
}

/// The languages ProFTPD with `LangEngine on` can offer here, as RFC 1766
/// tags (`fr-FR`), sorted: those with a catalog in the package
/// (`usr/share/locale/<ll_CC>/LC_MESSAGES/proftpd.mo`) whose locale
/// `scripts/peers.sh` built (`<ll_CC>` in [`locale_dir`]).
pub fn proftpd_languages() -> Vec<String> {
    let catalogs = peers_dir().join("proftpd/usr/share/locale");
    let mut tags: Vec<String> = fs::read_dir(&catalogs)
        .unwrap_or_else(|e| panic!("{}: {e}: run `bash scripts/peers.sh` first", catalogs.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|l| catalogs.join(l).join("LC_MESSAGES/proftpd.mo").is_file())
        .filter(|l| locale_dir().join(l).join("LC_CTYPE").is_file())
        .map(|l| l.replace('_', "-"))
        .collect();
    tags.sort();
    tags
}

/// Pure-FTPd in the foreground, virtual user `bob`/`secret` from a PureDB
/// made with `pure-pw mkdb` (uid and gid of `nobody`, home = the root
/// with `/./`: chrooted; what `fill` puts below it is nobody's), no
/// anonymous.
pub fn pure_ftpd(fill: impl FnOnce(&Path)) -> Peer {
    let top = peers_dir().join("pure-ftpd");
    let bin = installed(top.join("usr/sbin/pure-ftpd"));
    let pure_pw = installed(top.join("usr/bin/pure-pw"));
    let (dir, root) = workdir();
    let nobody = account("nobody");
    fill(&root);
    give_tree(&root, &nobody);
    let (uid, gid) = (nobody.uid, nobody.gid);
    let d = dir.path();
    let passwd = d.join("pureftpd.passwd");
    let pdb = d.join("pureftpd.pdb");
    write_mode(
        &passwd,
        &format!("bob:{SECRET_HASH}:{uid}:{gid}::{}/./::::::::::::\n", root.display()),
        0o600,
    );
    let mut mkdb = Command::new(pure_pw);
    mkdb.arg("mkdb").arg(&pdb).arg("-f").arg(&passwd);
    if let Some(path) = ld_library_path() {
        mkdb.env("LD_LIBRARY_PATH", path);
    }
    let out = mkdb.output().unwrap();
    assert!(
        out.status.success(),
        "pure-pw mkdb: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Peer::start("pure-ftpd", nobody, dir, root, |d, port| {
        let mut cmd = Command::new(&bin);
        cmd.arg("-S")
            .arg(format!("127.0.0.1,{port}"))
            .arg("-l")
            .arg(format!("puredb:{}", pdb.display()))
            .args(["-E", "-H", "-A"])
            .arg("-g")
            .arg(d.join("pure-ftpd.pid"));
        cmd
    })
}
