//! `scripted_ftp.py`: a real FTP server in Python that misbehaves on
//! demand, as servers met in the wild do.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

/// `scripted_ftp.py` (a real FTP server in Python, with faults on demand)
/// over `root`; killed when dropped.
pub struct Scripted {
    child: std::process::Child,
    pub port: u16,
}

impl Scripted {
    pub fn start(root: &Path, faults: &[&str]) -> Scripted {
        use std::io::BufRead;
        let mut child = Command::new("python3")
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scripted_ftp.py"))
            .arg(root)
            .args(faults)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("python3 (scripts/test.sh installs it)");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line.trim().parse().expect("the port on the first line");
        Scripted { child, port }
    }
}

impl Drop for Scripted {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
