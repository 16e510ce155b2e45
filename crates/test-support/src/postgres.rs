//! A throwaway PostgreSQL cluster, from Debian's postgresql-15 as
//! `scripts/postgres.sh` unpacks it under `target/postgres` (or
//! `$PG_DIR`), with the libraries the machine lacks in `libs/`.
//!
//! [`start`] runs `initdb` into a new directory below `target/postgres/run`
//! and `postgres` in the foreground on 127.0.0.1 and a free port, no Unix
//! socket, durability off (a test's data need not survive a crash), trust
//! authentication for the superuser `babelftp`; the cluster is stopped
//! and its directory removed when the [`Postgres`] is dropped. PostgreSQL
//! refuses to run as root: as root, both run as `nobody` (setpriv), who
//! every Debian system has, and the data directory is given to it. When
//! `nobody` cannot reach `target/` (a checkout below a 0700 directory),
//! the binaries are copied once (per version) into the system's
//! temporary directory.

use std::fs;
use std::net::{SocketAddr, TcpListener};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use crate::{signal, wait_child, wait_for_port};

/// Where `scripts/postgres.sh` unpacked PostgreSQL.
pub fn pg_dir() -> PathBuf {
    match std::env::var_os("PG_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/postgres"),
    }
}

const BIN: &str = "pg/usr/lib/postgresql/15/bin";

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A command run as the cluster's user (`nobody` when we are root), with
/// the unpacked libraries.
fn as_owner(base: &Path, program: &str) -> Command {
    let bin = base.join(BIN).join(program);
    let mut cmd = if is_root() {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"])
            .arg(bin);
        c
    } else {
        Command::new(bin)
    };
    let ours = fs::read_to_string(base.join("ld-library-path")).unwrap_or_default();
    let ours = ours.trim();
    let theirs = std::env::var("LD_LIBRARY_PATH").unwrap_or_default();
    let path = [ours, theirs.as_str()]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(":");
    if !path.is_empty() {
        cmd.env("LD_LIBRARY_PATH", path);
    }
    cmd.current_dir("/");
    cmd
}

/// Whether the cluster's user can run the binaries under `base` and write
/// in `dir`.
fn reachable(base: &Path, dir: &Path) -> bool {
    if !is_root() {
        return true;
    }
    let bin = base.join(BIN).join("postgres");
    Command::new("setpriv")
        .args([
            "--reuid=nobody",
            "--regid=nogroup",
            "--clear-groups",
            "--",
            "test",
            "-x",
        ])
        .arg(&bin)
        .arg("-a")
        .arg("-x")
        .arg(dir)
        .status()
        .is_ok_and(|s| s.success())
}

/// The directory holding `pg/`, `libs/` and `ld-library-path` that the
/// cluster's user can use, and where clusters go.
fn base() -> &'static (PathBuf, PathBuf) {
    static BASE: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    BASE.get_or_init(|| {
        let dir = pg_dir();
        let postgres = dir.join(BIN).join("postgres");
        assert!(
            postgres.is_file(),
            "{} is missing: run `bash scripts/postgres.sh` first (it unpacks Debian's postgresql-15 into target/postgres)",
            postgres.display()
        );
        let run = dir.join("run");
        fs::create_dir_all(&run).unwrap();
        fs::set_permissions(&run, fs::Permissions::from_mode(0o755)).unwrap();
        if reachable(&dir, &run) {
            return (dir, run);
        }
        // A private parent directory: a copy everyone can enter, in the
        // system's temporary directory, made once per version (into a
        // temporary name, then renamed: another test process may race).
        let version = fs::read_to_string(dir.join("pg/.version")).unwrap_or_default();
        let copy = std::env::temp_dir().join(format!("babelftp-pg-{}", version.trim()));
        if !copy.join(BIN).join("postgres").is_file() {
            let tmp = tempfile::Builder::new()
                .prefix("babelftp-pg-copy-")
                .tempdir_in(std::env::temp_dir())
                .unwrap();
            fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o755)).unwrap();
            for part in ["pg", "libs", "ld-library-path"] {
                if dir.join(part).exists() {
                    let ok = Command::new("cp").arg("-a").arg(dir.join(part)).arg(tmp.path()).status().unwrap();
                    assert!(ok.success(), "copying {} to {}", dir.join(part).display(), tmp.path().display());
                }
            }
            // ld-library-path names directories below the original.
            let text = fs::read_to_string(tmp.path().join("ld-library-path")).unwrap_or_default();
            let moved = text.replace(&dir.display().to_string(), &copy.display().to_string());
            fs::write(tmp.path().join("ld-library-path"), moved).unwrap();
            let _ = fs::create_dir(tmp.path().join("run"));
            fs::set_permissions(tmp.path().join("run"), fs::Permissions::from_mode(0o755)).unwrap();
            let staged = tmp.keep();
            if fs::rename(&staged, &copy).is_err() {
                let _ = fs::remove_dir_all(&staged);
            }
        }
        let run = copy.join("run");
        assert!(reachable(&copy, &run), "nobody cannot run PostgreSQL from {}", copy.display());
        (copy, run)
    })
}

/// A running cluster; stopped and removed when dropped.
pub struct Postgres {
    /// `postgres://babelftp@127.0.0.1:PORT/postgres`.
    pub url: String,
    pub addr: SocketAddr,
    data: tempfile::TempDir,
    child: Child,
}

impl Postgres {
    /// The server's log so far.
    pub fn log(&self) -> String {
        fs::read_to_string(self.data.path().join("server.log")).unwrap_or_default()
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // SIGINT: PostgreSQL's fast shutdown (SIGTERM waits for clients).
        signal(self.child.id(), "INT");
        if wait_child(&mut self.child, Duration::from_secs(10)).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Starts a new cluster (see the module's documentation).
pub fn start() -> Postgres {
    let (base, run) = base();
    let data = tempfile::Builder::new().prefix("cluster-").tempdir_in(run).unwrap();
    let pgdata = data.path().join("data");
    fs::create_dir(&pgdata).unwrap();
    fs::set_permissions(data.path(), fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(&pgdata, fs::Permissions::from_mode(0o700)).unwrap();
    if is_root() {
        for d in [data.path(), pgdata.as_path()] {
            let ok = Command::new("chown").arg("nobody:nogroup").arg(d).status().unwrap();
            assert!(ok.success(), "chown nobody {}", d.display());
        }
    }
    let out = as_owner(base, "initdb")
        .arg("-D")
        .arg(&pgdata)
        .args([
            "-U",
            "babelftp",
            "--auth=trust",
            "--no-locale",
            "-E",
            "UTF8",
            "--no-sync",
        ])
        .output()
        .unwrap_or_else(|e| panic!("initdb: {e}"));
    assert!(
        out.status.success(),
        "initdb failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let log = fs::File::create(data.path().join("server.log")).unwrap();
    let child = as_owner(base, "postgres")
        .arg("-D")
        .arg(&pgdata)
        .args(["-c", "listen_addresses=127.0.0.1", "-p", &port.to_string(), "-k", ""])
        // Durability off (a test's data need not survive a crash); no JIT
        // (scripts/postgres.sh does not fetch LLVM).
        .args(["-c", "fsync=off", "-c", "synchronous_commit=off"])
        .args(["-c", "full_page_writes=off", "-c", "jit=off"])
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap_or_else(|e| panic!("postgres: {e}"));
    let addr: SocketAddr = ([127, 0, 0, 1], port).into();
    let mut pg = Postgres {
        url: format!("postgres://babelftp@127.0.0.1:{port}/postgres"),
        addr,
        data,
        child,
    };
    // The port opens before the server takes queries ("the database
    // system is starting up"): wait for the log to say it is ready.
    let ready = wait_for_port(addr, Duration::from_secs(30))
        && crate::poll(Duration::from_secs(30), || {
            pg.log().contains("ready to accept connections").then_some(())
        })
        .is_some();
    if !ready || pg.child.try_wait().unwrap().is_some() {
        panic!("PostgreSQL did not start on {addr}:\n{}", pg.log());
    }
    pg
}
