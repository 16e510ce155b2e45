//! The defender's bans in the store (issue 29): a ban one node decides
//! holds on every node that reads the store; `babelftp ban` lists, adds and
//! lifts them.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::{AccountsError, Store};

/// What a ban covers: one address, or a network (an IPv6 /64 is one
/// client in practice: the defender bans that). Kept masked (the
/// network's first address) and canonical (an IPv4-mapped IPv6 address is
/// IPv4). Written `203.0.113.9`, `2001:db8::1` for one address,
/// `2001:db8:1:2::/64` for a network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BanNet {
    addr: IpAddr,
    prefix: u8,
}

impl BanNet {
    /// The network of `prefix` bits around `addr` (`None` if `prefix`
    /// is longer than the address: 32 for IPv4, 128 for IPv6).
    pub fn new(addr: IpAddr, prefix: u8) -> Option<BanNet> {
        let addr = addr.to_canonical();
        let addr = match addr {
            IpAddr::V4(a) if prefix <= 32 => {
                let mask = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
                IpAddr::V4(Ipv4Addr::from(u32::from(a) & mask))
            }
            IpAddr::V6(a) if prefix <= 128 => {
                let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
                IpAddr::V6(Ipv6Addr::from(u128::from(a) & mask))
            }
            _ => return None,
        };
        Some(BanNet { addr, prefix })
    }

    /// One address.
    pub fn host(addr: IpAddr) -> BanNet {
        let addr = addr.to_canonical();
        let prefix = if addr.is_ipv4() { 32 } else { 128 };
        BanNet { addr, prefix }
    }

    /// What the defender scores and bans for a client at `addr`: the
    /// address itself for IPv4, its `/ipv6_prefix` network for IPv6 (an
    /// IPv4-mapped address is IPv4).
    pub fn client(addr: IpAddr, ipv6_prefix: u8) -> BanNet {
        let addr = addr.to_canonical();
        match addr {
            IpAddr::V4(_) => BanNet::host(addr),
            IpAddr::V6(_) => BanNet::new(addr, ipv6_prefix.min(128)).unwrap_or(BanNet::host(addr)),
        }
    }

    /// The network's first address.
    pub fn addr(&self) -> IpAddr {
        self.addr
    }

    /// Its prefix length.
    pub fn prefix(&self) -> u8 {
        self.prefix
    }

    /// Whether this is one address (/32, /128).
    pub fn is_host(&self) -> bool {
        self.prefix == if self.addr.is_ipv4() { 32 } else { 128 }
    }

    /// Whether `ip` is in it (an IPv4-mapped IPv6 address counts as IPv4).
    pub fn contains(&self, ip: IpAddr) -> bool {
        BanNet::new(ip, self.prefix).is_some_and(|n| n == *self)
    }
}

impl From<IpAddr> for BanNet {
    fn from(addr: IpAddr) -> BanNet {
        BanNet::host(addr)
    }
}

impl fmt::Display for BanNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_host() {
            write!(f, "{}", self.addr)
        } else {
            write!(f, "{}/{}", self.addr, self.prefix)
        }
    }
}

impl std::str::FromStr for BanNet {
    type Err = ();

    /// `ADDR` or `ADDR/PREFIX` (the address need not be the network's
    /// first: `2001:db8::5/64` is `2001:db8::/64`).
    fn from_str(s: &str) -> Result<BanNet, ()> {
        let s = s.trim();
        match s.split_once('/') {
            None => s.parse::<IpAddr>().map(BanNet::host).map_err(|_| ()),
            Some((a, p)) => {
                let addr: IpAddr = a.parse().map_err(|_| ())?;
                // A prefix of an IPv4-mapped address counts in IPv6 bits.
                let (addr, prefix) = match (addr, p.parse::<u8>().map_err(|_| ())?) {
                    (IpAddr::V6(v6), p) if v6.to_ipv4_mapped().is_some() => {
                        (addr.to_canonical(), p.checked_sub(96).ok_or(())?)
                    }
                    (a, p) => (a, p),
                };
                BanNet::new(addr, prefix).ok_or(())
            }
        }
    }
}

/// A ban as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BanRecord {
    /// The address or network banned.
    pub addr: BanNet,
    /// Until when, Unix seconds.
    pub until_unix: i64,
    /// How many bans the address had within a day, this one included.
    pub count: u32,
    /// Why (`failed logins`, `connection flood`, `babelftp ban add`).
    pub reason: String,
}

impl Store {
    /// Bans `addr` (an address, or a network) until `until_unix` (a
    /// longer ban already there stays).
    pub async fn ban(
        &self,
        addr: impl Into<BanNet>,
        until_unix: i64,
        count: u32,
        reason: &str,
    ) -> Result<(), AccountsError> {
        sqlx::query(
            "INSERT INTO bans (addr, until_unix, count, reason) VALUES ($1, $2, $3, $4)
             ON CONFLICT (addr) DO UPDATE SET
               until_unix = CASE WHEN excluded.until_unix > bans.until_unix THEN excluded.until_unix ELSE bans.until_unix END,
               count = excluded.count, reason = excluded.reason",
        )
        .bind(addr.into().to_string())
        .bind(until_unix)
        .bind(i64::from(count))
        .bind(reason)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Lifts bans: of a network, that network's; of one address, every
    /// ban that covers it (its own, and its network's: `2001:db8::5` lifts
    /// `2001:db8::/64`). The bans lifted (expired or not).
    pub async fn unban(&self, addr: impl Into<BanNet>) -> Result<Vec<BanNet>, AccountsError> {
        let addr = addr.into();
        let rows: Vec<(String,)> = sqlx::query_as("SELECT addr FROM bans").fetch_all(self.pool()).await?;
        let mut lifted = Vec::new();
        for (text,) in rows {
            let Ok(net) = text.parse::<BanNet>() else { continue };
            let covers = match addr.is_host() {
                true => net.contains(addr.addr()),
                false => net == addr,
            };
            if !covers {
                continue;
            }
            let n = sqlx::query("DELETE FROM bans WHERE addr = $1")
                .bind(&text)
                .execute(self.pool())
                .await?
                .rows_affected();
            if n > 0 {
                lifted.push(net);
            }
        }
        lifted.sort();
        Ok(lifted)
    }

    /// The bans still running at `now_unix`, soonest to end first; the
    /// expired ones are removed.
    pub async fn bans(&self, now_unix: i64) -> Result<Vec<BanRecord>, AccountsError> {
        sqlx::query("DELETE FROM bans WHERE until_unix <= $1")
            .bind(now_unix)
            .execute(self.pool())
            .await?;
        let rows: Vec<(String, i64, i64, String)> =
            sqlx::query_as("SELECT addr, until_unix, count, reason FROM bans ORDER BY until_unix, addr")
                .fetch_all(self.pool())
                .await?;
        Ok(rows
            .into_iter()
            .filter_map(|(a, until_unix, count, reason)| {
                Some(BanRecord {
                    addr: a.parse::<BanNet>().ok()?,
                    until_unix,
                    count: u32::try_from(count).unwrap_or(u32::MAX),
                    reason,
                })
            })
            .collect())
    }
}

#[cfg(test)]
mod net_tests {
    use super::*;

    fn net(s: &str) -> BanNet {
        s.parse().unwrap()
    }

    #[test]
    fn networks_are_masked_written_and_read_back() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let n = BanNet::client(a, 64);
        assert_eq!(n, BanNet::client(b, 64), "two /128s of one /64");
        assert_eq!(n.to_string(), "2001:db8:1:2::/64");
        assert_eq!(net("2001:db8:1:2::/64"), n);
        assert_eq!(net("2001:db8:1:2:ffff::/64"), n, "masked");
        assert!(n.contains(a) && n.contains(b));
        assert!(!n.contains("2001:db8:1:3::1".parse().unwrap()));
        assert_eq!(BanNet::client(a, 128).to_string(), "2001:db8:1:2:aaaa::1");
        // IPv4 stays per address, mapped or not.
        let v4 = BanNet::client("::ffff:192.0.2.7".parse().unwrap(), 64);
        assert_eq!(v4.to_string(), "192.0.2.7");
        assert!(v4.is_host() && v4.contains("192.0.2.7".parse().unwrap()));
        assert!(!v4.contains("192.0.2.8".parse().unwrap()));
        assert_eq!(net("192.0.2.0/24").to_string(), "192.0.2.0/24");
        assert_eq!(net("::ffff:192.0.2.0/120").to_string(), "192.0.2.0/24");
        for bad in [
            "",
            "x",
            "192.0.2.1/33",
            "2001:db8::/129",
            "2001:db8::/x",
            "::ffff:1.2.3.4/90",
        ] {
            assert!(bad.parse::<BanNet>().is_err(), "{bad}");
        }
    }
}
