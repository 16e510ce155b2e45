//! Server configuration. Every option has a default that lets
//! `babelftp serve` run with no arguments: `./ftp-root`, read-only
//! anonymous, 127.0.0.1:2121.

use std::net::{IpAddr, SocketAddr};
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::Duration;

/// A configured account.
#[derive(Debug, Clone)]
pub struct User {
    /// Login name (bytes as the client sends them).
    pub name: Vec<u8>,
    /// Password, compared in constant time.
    pub password: Vec<u8>,
    /// Whether the account may change files.
    pub write: bool,
}

/// Everything the server needs to run.
#[derive(Debug, Clone)]
pub struct Config {
    /// The directory served as `/`.
    pub root: PathBuf,
    /// Addresses to listen on (IPv4 and IPv6).
    pub listen: Vec<SocketAddr>,
    /// Whether `anonymous`/`ftp` may log in.
    pub anonymous: bool,
    /// Whether anonymous users may write (off by default).
    pub anonymous_write: bool,
    /// Named accounts.
    pub users: Vec<User>,
    /// Ports for PASV/EPSV; `None` lets the kernel choose.
    pub passive_ports: Option<RangeInclusive<u16>>,
    /// Address announced in 227 replies (behind NAT); default: the
    /// control connection's local address.
    pub passive_address: Option<IpAddr>,
    /// Longest accepted command line.
    pub max_line: usize,
    /// Idle sessions are closed with 421 after this long.
    pub idle_timeout: Duration,
    /// How long to wait for a data connection.
    pub data_timeout: Duration,
    /// Delay before answering a failed login.
    pub login_fail_delay: Duration,
    /// Most sessions at once; more get 421.
    pub max_connections: usize,
    /// Most sessions at once from one IP address; more get 421.
    pub max_per_ip: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            root: PathBuf::from("ftp-root"),
            listen: vec![SocketAddr::from(([127, 0, 0, 1], 2121))],
            anonymous: true,
            anonymous_write: false,
            users: Vec::new(),
            passive_ports: None,
            passive_address: None,
            max_line: babelftp_proto::line::DEFAULT_MAX_LINE,
            idle_timeout: Duration::from_secs(300),
            data_timeout: Duration::from_secs(30),
            login_fail_delay: Duration::from_secs(1),
            max_connections: 512,
            max_per_ip: 32,
        }
    }
}
