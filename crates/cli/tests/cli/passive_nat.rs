//! `passive_address` per client network (issue 30): behind NAT or in a
//! container, clients of one network are told another address in 227
//! than the rest.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;
use std::process::Command;

use crate::common;
use common::serve::Serve;

/// The 227 reply a client from `source` gets.
fn pasv_from(addr: SocketAddr, source: &str) -> String {
    let script = format!(
        "import ftplib\nftp = ftplib.FTP(source_address=({source:?}, 0))\nftp.connect({:?}, {}, timeout=10)\nftp.login('anonymous', 'a@b')\nprint(ftp.sendcmd('PASV'))\nftp.quit()\n",
        addr.ip().to_string(),
        addr.port()
    );
    let out = Command::new("python3").arg("-c").arg(script).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn clients_of_a_network_are_told_its_passive_address_and_the_others_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("babelftp.toml");
    std::fs::write(
        &conf,
        "passive_address = \"192.0.2.1\"\n[passive_addresses]\n\"127.0.0.0/8\" = \"198.51.100.8\"\n",
    )
    .unwrap();
    let srv = Serve::start(
        dir.path(),
        &[
            "--config",
            conf.to_str().unwrap(),
            "--passive-address-for",
            "127.0.0.2/32=198.51.100.7",
        ],
    );
    // The longest network that holds the client wins.
    let r = pasv_from(srv.addr, "127.0.0.2");
    assert!(r.contains("(198,51,100,7,"), "{r}");
    let r = pasv_from(srv.addr, "127.0.0.3");
    assert!(r.contains("(198,51,100,8,"), "{r}");
    // A malformed flag is refused with the syntax.
    let out = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(["serve", "--passive-address-for", "10.0.0.0/8"])
        .env("LC_ALL", "C")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("10.0.0.0/8=10.0.0.5"));
}
