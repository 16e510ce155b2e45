//! Admission: connection slots, globally and per client address (with
//! the bursts crate::memory watches), and the open-files limit they rest
//! on. Every door counts its connections with one [`Limits`] of its own.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;

use crate::config::Config;
use crate::memory;

/// Connection counts, globally and per IP address.
#[derive(Clone, Default)]
pub struct Limits(Arc<std::sync::Mutex<Counts>>);

/// Sessions open, in all and per address, and the bursts they come in.
#[derive(Debug, Default)]
struct Counts {
    live: usize,
    per_ip: HashMap<IpAddr, usize>,
    bursts: memory::Bursts,
}

/// A held connection slot; dropping it frees the slot.
pub struct Slot {
    limits: Limits,
    ip: IpAddr,
}

impl Limits {
    fn lock(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn admit(&self, ip: IpAddr, cfg: &Config) -> Option<Slot> {
        let ip = ip.to_canonical();
        let mut g = self.lock();
        let per_ip = g.per_ip.get(&ip).copied().unwrap_or(0);
        if g.live >= cfg.max_connections || per_ip >= cfg.max_per_ip {
            return None;
        }
        g.live += 1;
        g.per_ip.insert(ip, per_ip + 1);
        let live = g.live;
        g.bursts.started(live);
        Some(Slot {
            limits: self.clone(),
            ip,
        })
    }

    /// Why [`Limits::admit`] refused `ip`: its address holds `max_per_ip`
    /// sessions (`Some(max_per_ip)`), else the server is full (`None`).
    pub fn address_full(&self, ip: IpAddr, cfg: &Config) -> Option<usize> {
        let held = self.lock().per_ip.get(&ip.to_canonical()).copied().unwrap_or(0);
        (held >= cfg.max_per_ip).then_some(cfg.max_per_ip)
    }

    /// Whether a burst of sessions is over (see crate::memory).
    pub fn release_due(&self) -> bool {
        let mut g = self.lock();
        let live = g.live;
        g.bursts.release_due(live)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut g = self.limits.lock();
        g.live = g.live.saturating_sub(1);
        g.bursts.ended();
        if let Some(n) = g.per_ip.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                g.per_ip.remove(&self.ip);
            }
        }
        if g.per_ip.is_empty() {
            // The map's table, grown by a burst, goes too.
            g.per_ip = HashMap::new();
        }
    }
}

/// Raises this process's soft limit of open files to its hard limit (each
/// session holds one or more descriptors: the default soft limit of 1,024
/// would cap a server at a few hundred sessions). Returns the limit before
/// and after, or the error of the system call.
pub fn raise_open_files_limit() -> std::io::Result<(u64, u64)> {
    use nix::sys::resource::{getrlimit, setrlimit, Resource};
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE).map_err(std::io::Error::from)?;
    if soft < hard {
        setrlimit(Resource::RLIMIT_NOFILE, hard, hard).map_err(std::io::Error::from)?;
    }
    Ok((soft, hard.max(soft)))
}

/// How many sessions `open_files` descriptors carry: two each (control
/// and data connection), less a reserve for listeners, logs and the
/// runtime.
pub fn sessions_for_open_files(open_files: u64) -> u64 {
    open_files.saturating_sub(64) / 2
}
