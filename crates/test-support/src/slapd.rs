//! A real OpenLDAP server for the tests that need a directory: Debian
//! bookworm's slapd 2.5, as `scripts/slapd.sh` leaves it under
//! `target/slapd` of this workspace (or `$SLAPD_DIR`; `CARGO_TARGET_DIR`
//! does not move it), unpacked, never installed, with the libraries the
//! machine lacks in `libs/` and ldap-utils (`ldapwhoami`, `ldapsearch`, …)
//! beside it.
//!
//! [`Slapd::start`] loads the entries it is given into an mdb database
//! (with slapadd, offline), then starts slapd, as root, in the foreground on
//! a free port of 127.0.0.1 (and an ldaps:// one, with StartTLS on the
//! first, when given a certificate), with a `slapd.conf` of its own; config,
//! database and slapd's output live in a temporary directory, and the server
//! is stopped (SIGTERM, then SIGKILL) when its [`Slapd`] is dropped.
//! Nothing on the machine is read or changed but the unpacked tree: the
//! schemas and back_mdb come from there too (`include`, `modulepath`).
//!
//! The directory: the schemas core, cosine and inetorgperson (so
//! `inetOrgPerson` with `uid` and `userPassword`, and `groupOfNames` with
//! `member`), the base entry made from the base DN, and the rootdn
//! [`Slapd::admin_dn`]. Anyone may read everything but `userPassword`,
//! which anonymous may only bind with (`by anonymous auth`) and its owner
//! may change: what an FTP server that searches anonymously, then binds as
//! the user, needs.

use std::fs;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::{poll, stop_child};

/// How long slapd may take to answer a bind.
const READY_TIMEOUT: Duration = Duration::from_secs(20);

/// The rootdn's password.
const ADMIN_PASSWORD: &str = "admin-secret";

/// Where `scripts/slapd.sh` unpacked slapd: `$SLAPD_DIR` (a relative one
/// from the workspace's top), or the workspace's `target/slapd` (whatever
/// `CARGO_TARGET_DIR` says). Fails
/// the test when slapd is not there: no test is skipped for want of it.
pub fn slapd_dir() -> PathBuf {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = match std::env::var_os("SLAPD_DIR") {
        // Relative to the workspace, as scripts/slapd.sh takes it.
        Some(d) if !d.is_empty() => workspace.join(d),
        _ => workspace.join("target/slapd"),
    };
    let slapd = dir.join("slapd/usr/sbin/slapd");
    assert!(
        slapd.is_file(),
        "{} is missing: run `bash scripts/slapd.sh` first",
        slapd.display()
    );
    dir
}

/// `LD_LIBRARY_PATH` for the unpacked binaries: the directories
/// `scripts/slapd.sh` wrote down (its `libs/`, and slapd's own libslapi),
/// then the caller's.
pub fn ld_library_path() -> Option<String> {
    let ours = fs::read_to_string(slapd_dir().join("ld-library-path")).unwrap_or_default();
    let ours = ours.trim();
    let theirs = std::env::var("LD_LIBRARY_PATH").unwrap_or_default();
    match (ours.is_empty(), theirs.is_empty()) {
        (true, true) => None,
        (true, false) => Some(theirs),
        (false, true) => Some(ours.to_string()),
        (false, false) => Some(format!("{ours}:{theirs}")),
    }
}

/// A command for one of the unpacked programs: `usr/bin/NAME` of
/// ldap-utils (`ldapwhoami`, `ldapsearch`, …) or `usr/sbin/NAME` of slapd
/// (`slapadd`, `slappasswd`, …), with [`ld_library_path`] set. Fails the
/// test when there is no such program.
pub fn tool(name: &str) -> Command {
    let dir = slapd_dir();
    let bin = [
        dir.join("ldap-utils/usr/bin").join(name),
        dir.join("slapd/usr/sbin").join(name),
    ]
    .into_iter()
    .find(|p| p.is_file())
    .unwrap_or_else(|| panic!("no {name} in {}: run `bash scripts/slapd.sh` first", dir.display()));
    let mut cmd = Command::new(bin);
    if let Some(path) = ld_library_path() {
        cmd.env("LD_LIBRARY_PATH", path);
    }
    cmd
}

/// `password` as an `{SSHA}` `userPassword` value (salted SHA-1, base64),
/// made by the unpacked `slappasswd`.
pub fn ssha(password: &str) -> String {
    let out = tool("slappasswd")
        .args(["-h", "{SSHA}", "-s", password])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "slappasswd: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The base entry for `base`, from the type of its first RDN.
fn base_entry(base: &str) -> String {
    let rdn = base.split(',').next().unwrap_or_default();
    let (kind, value) = rdn
        .split_once('=')
        .unwrap_or_else(|| panic!("base {base:?}: its first RDN has no `=`"));
    let (kind, value) = (kind.trim().to_ascii_lowercase(), value.trim());
    let classes = match kind.as_str() {
        "dc" => format!("objectClass: dcObject\nobjectClass: organization\ndc: {value}\no: {value}\n"),
        "o" => format!("objectClass: organization\no: {value}\n"),
        "ou" => format!("objectClass: organizationalUnit\nou: {value}\n"),
        _ => panic!("base {base:?}: only a dc=, o= or ou= first RDN is supported"),
    };
    format!("dn: {base}\nobjectClass: top\n{classes}")
}

/// A running slapd, stopped (SIGTERM, then SIGKILL) when dropped, its
/// temporary directory (config, database, output) removed after it.
pub struct Slapd {
    /// `ldap://127.0.0.1:PORT` (StartTLS too when started with TLS).
    pub url: String,
    /// `ldaps://127.0.0.1:PORT`, when started with TLS.
    pub ldaps_url: Option<String>,
    /// The suffix of its database, as given (`dc=example,dc=org`).
    pub base: String,
    /// Its rootdn, `cn=admin,` + the base: may bind, read and write
    /// everything.
    pub admin_dn: String,
    /// The rootdn's password.
    pub admin_password: String,
    child: Child,
    dir: tempfile::TempDir,
}

impl Slapd {
    /// Starts slapd with an mdb database for `base` (`dc=example,dc=org`;
    /// its first RDN must be `dc=`, `o=` or `ou=`) holding the base entry,
    /// made here, and the entries of `ldif` (LDIF, entries only, each below
    /// `base`, parents first; `userPassword` in clear or as [`ssha`] makes
    /// it), on a free port of 127.0.0.1; with `tls: Some((cert, key))`
    /// (PEM files) also on an ldaps:// port, and StartTLS on the first.
    /// Returns once it answers a bind as [`Slapd::admin_dn`]; fails the
    /// test with slapd's own output when it does not within 20 s (or when
    /// slapadd refuses the entries). A port found free can be taken by
    /// another test before slapd binds it, so a slapd that exits before
    /// answering because a port was taken (`bind(…) failed errno=98`) is
    /// tried again on other ports (three tries).
    pub fn start(base: &str, ldif: &str, tls: Option<(&Path, &Path)>) -> Slapd {
        let top = slapd_dir();
        let root = top.join("slapd");
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let db = d.join("db");
        fs::create_dir(&db).unwrap();
        let admin_dn = format!("cn=admin,{base}");
        let schema = root.join("etc/ldap/schema");
        let tls_lines = match tls {
            Some((cert, key)) => format!(
                "TLSCertificateFile {}\nTLSCertificateKeyFile {}\n",
                cert.display(),
                key.display()
            ),
            None => String::new(),
        };
        let conf = d.join("slapd.conf");
        fs::write(
            &conf,
            format!(
                "include {schema}/core.schema
include {schema}/cosine.schema
include {schema}/inetorgperson.schema
modulepath {modules}
moduleload back_mdb
pidfile {d}/slapd.pid
argsfile {d}/slapd.args
{tls_lines}
database mdb
maxsize 10485760
suffix \"{base}\"
rootdn \"{admin_dn}\"
rootpw {ADMIN_PASSWORD}
directory {db}
index objectClass eq
index uid,member eq
access to attrs=userPassword
  by self write
  by anonymous auth
  by * none
access to *
  by * read
",
                schema = schema.display(),
                modules = root.join("usr/lib/ldap").display(),
                d = d.display(),
                db = db.display(),
            ),
        )
        .unwrap();

        let data = d.join("data.ldif");
        fs::write(&data, format!("{}\n{}\n", base_entry(base), ldif.trim_matches('\n'))).unwrap();
        let out = tool("slapadd")
            .arg("-f")
            .arg(&conf)
            .arg("-l")
            .arg(&data)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "slapadd refused the entries ({}):\n{}{}\n--- the LDIF:\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            fs::read_to_string(&data).unwrap()
        );

        let started = Instant::now();
        let mut attempt = 1;
        loop {
            let port = free_port();
            let tls_port = tls.map(|_| free_port());
            let url = format!("ldap://127.0.0.1:{port}");
            let ldaps_url = tls_port.map(|p| format!("ldaps://127.0.0.1:{p}"));
            let listen = match &ldaps_url {
                Some(s) => format!("{url}/ {s}/"),
                None => format!("{url}/"),
            };
            let log = fs::File::create(d.join("slapd.out")).unwrap();
            let mut cmd = tool("slapd");
            // `-d stats`: in the foreground, errors and one line per
            // operation on stderr.
            cmd.arg("-f")
                .arg(&conf)
                .arg("-h")
                .arg(&listen)
                .args(["-d", "stats"])
                .stdin(Stdio::null())
                .stdout(log.try_clone().unwrap())
                .stderr(log)
                .current_dir(d);
            let mut child = cmd.spawn().unwrap_or_else(|e| panic!("starting slapd: {e}"));
            let ready = poll(READY_TIMEOUT, || {
                if let Some(status) = child.try_wait().unwrap() {
                    return Some(Err(format!("exited before answering: {status}")));
                }
                let bound = simple_bind(port, &admin_dn, ADMIN_PASSWORD) == Some(0);
                let tls_up = tls_port.is_none_or(|p| TcpStream::connect(("127.0.0.1", p)).is_ok());
                (bound && tls_up).then_some(Ok(()))
            })
            .unwrap_or_else(|| Err(format!("does not answer a bind on {listen} within {READY_TIMEOUT:?}")));
            match ready {
                Ok(()) => {
                    eprintln!("slapd ready on {listen} in {:?}", started.elapsed());
                    return Slapd {
                        url,
                        ldaps_url,
                        base: base.to_string(),
                        admin_dn,
                        admin_password: ADMIN_PASSWORD.to_string(),
                        child,
                        dir,
                    };
                }
                Err(why) if attempt < 3 && child.try_wait().unwrap().is_some() && logs(d).contains("errno=98") => {
                    eprintln!("slapd {why} on {listen}, trying other ports:\n{}", logs(d));
                    attempt += 1;
                }
                Err(why) => {
                    stop_child(&mut child, Duration::from_secs(5));
                    panic!("slapd {why}\n{}", logs(d));
                }
            }
        }
    }

    /// What slapd wrote (`-d stats`: errors, and one line per operation).
    pub fn logs(&self) -> String {
        logs(self.dir.path())
    }

    /// Its `ldap://` port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.url.rsplit(':').next().unwrap().parse().unwrap()
    }

    /// An LDAP simple bind of `dn` with `password` on [`Slapd::url`], by
    /// hand (no TLS): the bind response's resultCode (0: success, 49:
    /// invalidCredentials), or `None` when no response came.
    pub fn bind(&self, dn: &str, password: &str) -> Option<u8> {
        simple_bind(self.port(), dn, password)
    }
}

impl Drop for Slapd {
    fn drop(&mut self) {
        stop_child(&mut self.child, Duration::from_secs(5));
    }
}

fn logs(dir: &Path) -> String {
    match fs::read(dir.join("slapd.out")) {
        Ok(b) => format!("--- slapd's output:\n{}", String::from_utf8_lossy(&b)),
        Err(e) => format!("--- no output from slapd: {e}"),
    }
}

// ------------------------------------------------------ a bind, by hand

/// BER: `tag`, the definite length of `content`, `content`.
fn ber(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let len = content.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes: Vec<u8> = len.to_be_bytes().into_iter().skip_while(|b| *b == 0).collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend_from_slice(&bytes);
    }
    out.extend_from_slice(content);
    out
}

/// Reads one BER element's header from `r`: (tag, length).
fn read_header(r: &mut impl Read) -> Option<(u8, usize)> {
    let mut b = [0u8; 2];
    r.read_exact(&mut b).ok()?;
    let len = if b[1] < 0x80 {
        b[1] as usize
    } else {
        let n = (b[1] & 0x7f) as usize;
        if n == 0 || n > 4 {
            return None;
        }
        let mut l = [0u8; 4];
        r.read_exact(&mut l[4 - n..]).ok()?;
        u32::from_be_bytes(l) as usize
    };
    Some((b[0], len))
}

/// A simple bind (LDAPv3, message 1) on 127.0.0.1:`port`: the
/// resultCode of the BindResponse, or `None` when there is none within 5 s.
fn simple_bind(port: u16, dn: &str, password: &str) -> Option<u8> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let bind = [
        ber(0x02, &[3]),
        ber(0x04, dn.as_bytes()),
        ber(0x80, password.as_bytes()),
    ]
    .concat();
    let message = ber(0x30, &[ber(0x02, &[1]), ber(0x60, &bind)].concat());
    s.write_all(&message).ok()?;
    // LDAPMessage { messageID, BindResponse [APPLICATION 1] { resultCode, … } }
    let (tag, _) = read_header(&mut s)?;
    if tag != 0x30 {
        return None;
    }
    let (tag, len) = read_header(&mut s)?;
    let mut id = vec![0u8; len];
    s.read_exact(&mut id).ok()?;
    if tag != 0x02 {
        return None;
    }
    let (tag, _) = read_header(&mut s)?;
    if tag != 0x61 {
        return None;
    }
    let (tag, len) = read_header(&mut s)?;
    let mut code = vec![0u8; len];
    s.read_exact(&mut code).ok()?;
    code.first().copied().filter(|_| tag == 0x0a && len == 1)
}
