//! The defender: addresses that misbehave are banned (issue 29), as
//! SFTPGo's defender and ProFTPD's mod_ban do.
//!
//! Events carry scores: a failed login (wrong password, unknown user, a
//! disabled account alike: the client is not told which, and neither is
//! the score), a burst of connections (more than
//! `connections_per_second` from one address in one second, scored per
//! connection over the rate), and each command the hostile-input rules
//! refuse: PORT/EPRT to another host or a privileged port (an FTP bounce,
//! RFC 2577 3), a passive data connection from another host than the
//! session's client (a port thief; the address that connected is scored,
//! not the session's), a command line longer than `max_line`. An address
//! whose scores within `window` add up to `threshold` is banned for
//! `ban_time`, doubled at each ban that follows within a day, up to
//! `max_ban_time`; a session whose own hostile command banned it is closed
//! after the refusal. A banned address's connections are closed as soon
//! as they are accepted: no banner, no task, no TLS handshake; a session
//! it still has gets its logins refused without a password check. Addresses in `allow` are never scored.
//!
//! What is scored and banned is the client's address for IPv4, and its
//! network for IPv6: a /64 by default (`ipv6_prefix`), since one host or
//! one home gets a whole /64 and picks any address in it at will; a ban
//! per /128 would let it walk on to the next address.
//!
//! Scores are per node, in memory. Bans are too without an accounts
//! store; with one, every ban is written there and every node reads the
//! store's bans every few seconds, so a ban decided on one node (or added
//! with `babelftp ban add`) holds on all, and `babelftp ban rm` lifts it
//! on all. What a connection or a login asks costs a lock and a lookup.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use babelftp_accounts::BanNet;

use crate::config::Cidr;

/// `[defender]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefenderConfig {
    pub enabled: bool,
    /// The score that bans.
    pub threshold: u32,
    /// How long a score counts.
    pub window: Duration,
    /// The first ban's length; doubled for each ban within a day after.
    pub ban_time: Duration,
    pub max_ban_time: Duration,
    pub score_login_failed: u32,
    pub score_flood: u32,
    /// PORT/EPRT refused: to another host, or to a port below 1024.
    pub score_bounce: u32,
    /// A passive data connection from another host than the session's
    /// client (scored against the host that connected).
    pub score_foreign_data: u32,
    /// A command line longer than `max_line`.
    pub score_long_line: u32,
    /// Connections a second from one address before each more scores
    /// `score_flood`.
    pub connections_per_second: u32,
    /// Never scored nor banned.
    pub allow: Vec<Cidr>,
    /// The IPv6 network scored and banned as one client: its prefix
    /// length (64: a /64; 128: each address). IPv4 is per address.
    pub ipv6_prefix: u8,
}

impl Default for DefenderConfig {
    /// 15 points in 5 minutes: 15 failed logins (a user who mistypes a few
    /// times is not banned), or a burst of more than 20 connections a
    /// second for a moment. Banned 15 minutes, then 30, 60… up to a day.
    /// Loopback is allowed: the machine's own monitoring, a TLS or SSH
    /// tunnel that forwards every client from 127.0.0.1 (without PROXY
    /// protocol), and local tests are never banned (`allow = []` scores
    /// it too). A command the hostile-input rules refuse scores 5: three
    /// of them ban. A well-behaved client sends none; one behind NAT that
    /// puts its private address in PORT does (and fails to transfer
    /// anyway): `score_bounce = 0` spares it.
    fn default() -> Self {
        DefenderConfig {
            enabled: true,
            threshold: 15,
            window: Duration::from_secs(300),
            ban_time: Duration::from_secs(900),
            max_ban_time: Duration::from_secs(86_400),
            score_login_failed: 1,
            score_flood: 1,
            score_bounce: 5,
            score_foreign_data: 5,
            score_long_line: 5,
            connections_per_second: 20,
            allow: ["127.0.0.0/8", "::1/128"]
                .iter()
                .filter_map(|c| c.parse().ok())
                .collect(),
            ipv6_prefix: 64,
        }
    }
}

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    LoginFailed,
    Connected,
    /// PORT/EPRT refused (`score_bounce`).
    Bounce,
    /// A passive data connection from a foreign host
    /// (`score_foreign_data`).
    ForeignData,
    /// An over-long command line (`score_long_line`).
    LongLine,
}

#[derive(Debug, Default)]
struct Host {
    /// (when, score) within the window.
    scores: Vec<(Instant, u32)>,
    /// Connections in the current second.
    second: Option<Instant>,
    connections: u32,
    /// Its last ban, and how many it had within a day.
    last_ban: Option<Instant>,
    bans: u32,
}

/// One node's defender.
#[derive(Debug)]
pub struct Defender {
    cfg: DefenderConfig,
    /// Per client: an IPv4 address, an IPv6 network (`ipv6_prefix`).
    hosts: Mutex<HashMap<BanNet, Host>>,
    /// Every ban in force, until when: this node's, and with a store the
    /// store's (which [`Defender::replace_bans`] brings in).
    bans: Mutex<Bans>,
}

/// The bans in force, and the prefix lengths among them (an address is
/// looked up once per length: a handful, whatever the number of bans).
#[derive(Debug, Default)]
struct Bans {
    until: HashMap<BanNet, Instant>,
    prefixes: Vec<u8>,
}

impl Bans {
    fn insert(&mut self, net: BanNet, until: Instant) {
        if !self.prefixes.contains(&net.prefix()) {
            self.prefixes.push(net.prefix());
        }
        self.until.insert(net, until);
    }

    /// Whether a ban covers `ip` at `now`.
    fn covers(&self, ip: IpAddr, now: Instant) -> bool {
        self.prefixes.iter().any(|p| {
            BanNet::new(ip, *p)
                .and_then(|n| self.until.get(&n))
                .is_some_and(|t| now < *t)
        })
    }
}

/// A ban, for the log and the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ban {
    /// What is banned: the address (IPv4), or its network (IPv6).
    pub net: BanNet,
    pub for_: Duration,
    /// How many bans this address had within a day, this one included.
    pub count: u32,
}

impl Defender {
    pub fn new(cfg: DefenderConfig) -> Defender {
        Defender {
            cfg,
            hosts: Mutex::new(HashMap::new()),
            bans: Mutex::new(Bans::default()),
        }
    }

    fn banned(&self) -> std::sync::MutexGuard<'_, Bans> {
        self.bans.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The configuration.
    pub fn config(&self) -> &DefenderConfig {
        &self.cfg
    }

    /// The bans are the store's now (every node reads them every few
    /// seconds): a ban lifted there is lifted here.
    pub fn replace_bans(&self, bans: impl IntoIterator<Item = (BanNet, Instant)>) {
        let mut all = Bans::default();
        for (net, t) in bans {
            all.insert(net, t);
        }
        *self.banned() = all;
    }

    /// The client `ip` is to the defender: its address (IPv4), or its
    /// network (IPv6, `ipv6_prefix`).
    pub fn client(&self, ip: IpAddr) -> BanNet {
        BanNet::client(ip, self.cfg.ipv6_prefix)
    }

    /// The bans in force (address or network, until when).
    pub fn bans(&self, now: Instant) -> Vec<(BanNet, Instant)> {
        let mut v: Vec<(BanNet, Instant)> = self
            .banned()
            .until
            .iter()
            .filter(|(_, t)| now < **t)
            .map(|(a, t)| (*a, *t))
            .collect();
        v.sort();
        v
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<BanNet, Host>> {
        self.hosts.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn exempt(&self, ip: IpAddr) -> bool {
        !self.cfg.enabled || self.cfg.allow.iter().any(|c| c.contains(ip))
    }

    /// Whether `ip` is banned now.
    pub fn is_banned(&self, ip: IpAddr, now: Instant) -> bool {
        if self.exempt(ip) {
            return false;
        }
        self.banned().covers(ip, now)
    }

    /// Scores an event of `ip`; the ban it caused, if any.
    pub fn event(&self, ip: IpAddr, ev: Event, now: Instant) -> Option<Ban> {
        if self.exempt(ip) {
            return None;
        }
        let net = self.client(ip);
        let mut hosts = self.lock();
        let h = hosts.entry(net).or_default();
        let score = match ev {
            Event::LoginFailed => self.cfg.score_login_failed,
            Event::Bounce => self.cfg.score_bounce,
            Event::ForeignData => self.cfg.score_foreign_data,
            Event::LongLine => self.cfg.score_long_line,
            Event::Connected => {
                if h.second
                    .is_none_or(|s| now.saturating_duration_since(s) >= Duration::from_secs(1))
                {
                    h.second = Some(now);
                    h.connections = 0;
                }
                h.connections += 1;
                if h.connections <= self.cfg.connections_per_second {
                    return None;
                }
                self.cfg.score_flood
            }
        };
        if score == 0 || self.banned().covers(ip, now) {
            return None;
        }
        let window = self.cfg.window;
        h.scores.retain(|(t, _)| now.saturating_duration_since(*t) < window);
        h.scores.push((now, score));
        let total: u32 = h.scores.iter().map(|(_, s)| s).sum();
        if total < self.cfg.threshold {
            return None;
        }
        // Banned: longer each time within a day.
        if h.last_ban
            .is_none_or(|t| now.saturating_duration_since(t) > Duration::from_secs(86_400))
        {
            h.bans = 0;
        }
        h.bans += 1;
        let factor = 1u32.checked_shl(h.bans - 1).unwrap_or(u32::MAX);
        let for_ = self.cfg.ban_time.saturating_mul(factor).min(self.cfg.max_ban_time);
        self.banned().insert(net, now + for_);
        h.last_ban = Some(now);
        h.scores.clear();
        Some(Ban {
            net,
            for_,
            count: h.bans,
        })
    }

    /// Forgets what has expired (hosts with no score, ban or recent
    /// connection): called now and then, so memory follows the attackers
    /// of the last window only.
    pub fn sweep(&self, now: Instant) {
        let window = self.cfg.window;
        self.banned().until.retain(|_, t| now < *t);
        self.lock().retain(|_, h| {
            h.scores.retain(|(t, _)| now.saturating_duration_since(*t) < window);
            !h.scores.is_empty()
                || h.last_ban
                    .is_some_and(|t| now.saturating_duration_since(t) < Duration::from_secs(86_400))
                || h.second
                    .is_some_and(|s| now.saturating_duration_since(s) < Duration::from_secs(1))
        });
    }

    /// How many addresses are tracked (for the metrics and the tests).
    pub fn tracked(&self) -> usize {
        self.lock().len()
    }
}

impl crate::Services {
    /// Whether a new connection from `peer` is let in: not banned, and
    /// not the connection that makes a burst a ban.
    pub fn admit(&self, peer: std::net::SocketAddr) -> bool {
        let now = Instant::now();
        if self.defender.is_banned(peer.ip(), now) {
            tracing::debug!(%peer, "connection closed: address banned");
            self.metrics.count_banned_connection();
            return false;
        }
        match self.defender.event(peer.ip(), Event::Connected, now) {
            Some(ban) => {
                self.banned(peer.ip(), ban, "connection flood");
                false
            }
            None => true,
        }
    }

    /// A failed login from `ip`: scored, and banned past the threshold.
    pub fn login_failed(&self, ip: IpAddr) {
        if let Some(ban) = self.defender.event(ip, Event::LoginFailed, Instant::now()) {
            self.banned(ip, ban, "failed logins");
        }
    }

    /// A command from `ip` that the hostile-input rules refused (or a
    /// passive data connection `ip` made to another client's port):
    /// scored, and banned past the threshold. Whether `ip` is banned now
    /// (by this event or before it).
    pub fn hostile(&self, ip: IpAddr, ev: Event) -> bool {
        let now = Instant::now();
        let reason = match ev {
            Event::Bounce => "FTP bounce (PORT/EPRT refused)",
            Event::ForeignData => "passive data connection to another client's port",
            Event::LongLine => "over-long command lines",
            Event::LoginFailed | Event::Connected => "misbehaviour",
        };
        tracing::debug!(addr = %ip.to_canonical(), reason, "hostile input scored");
        if let Some(ban) = self.defender.event(ip, ev, now) {
            self.banned(ip, ban, reason);
            return true;
        }
        self.defender.is_banned(ip, now)
    }

    /// A ban this node decided: logged, counted, and written to the store
    /// for the other nodes.
    fn banned(&self, ip: IpAddr, ban: Ban, reason: &'static str) {
        tracing::warn!(addr = %ip.to_canonical(), banned = %ban.net, seconds = ban.for_.as_secs(), bans_today = ban.count, reason, "address banned");
        self.metrics.count_ban();
        if let Some(events) = self.events.as_ref().filter(|e| e.wants(crate::events::Kind::Ban)) {
            let mut ev = crate::events::Event::new(crate::events::Kind::Ban);
            ev.client = Some(ip);
            ev.reason = Some(reason);
            ev.ban_seconds = Some(ban.for_.as_secs());
            events.emit(&ev);
        }
        if let Some(store) = self.directory.as_ref().and_then(|d| d.store().cloned()) {
            let until = unix_now().saturating_add(i64::try_from(ban.for_.as_secs()).unwrap_or(i64::MAX));
            tokio::spawn(async move {
                if let Err(e) = store.ban(ban.net, until, ban.count, reason).await {
                    tracing::warn!(error = %e, "ban not written to the accounts store");
                }
            });
        }
    }

    /// Brings in the store's bans (every few seconds): what another node
    /// or `babelftp ban` decided, and what was lifted.
    pub async fn sync_bans(&self) {
        if !self.defender.config().enabled {
            return;
        }
        let Some(store) = self.directory.as_ref().and_then(|d| d.store()) else {
            return;
        };
        let now_unix = unix_now();
        match store.bans(now_unix).await {
            Ok(list) => {
                let now = Instant::now();
                self.defender.replace_bans(list.into_iter().map(|b| {
                    let left = u64::try_from(b.until_unix.saturating_sub(now_unix)).unwrap_or(0);
                    (b.addr, now + Duration::from_secs(left))
                }));
            }
            Err(e) => tracing::debug!(error = %e, "bans not read from the accounts store"),
        }
    }
}

/// The wall clock, Unix seconds.
fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))
    }

    #[test]
    fn failed_logins_within_the_window_ban_and_bans_grow() {
        let cfg = DefenderConfig {
            threshold: 5,
            ban_time: Duration::from_secs(60),
            ..DefenderConfig::default()
        };
        let d = Defender::new(cfg);
        let t0 = Instant::now();
        let a = ip("192.0.2.1");
        for i in 0..4 {
            assert_eq!(d.event(a, Event::LoginFailed, t0 + Duration::from_secs(i)), None);
        }
        let ban = d.event(a, Event::LoginFailed, t0 + Duration::from_secs(4));
        assert_eq!(ban.map(|b| b.for_), Some(Duration::from_secs(60)));
        assert!(d.is_banned(a, t0 + Duration::from_secs(5)));
        assert!(!d.is_banned(ip("192.0.2.2"), t0), "another address is not");
        assert!(!d.is_banned(a, t0 + Duration::from_secs(65)), "expired");
        // Again within the day: twice as long.
        let t1 = t0 + Duration::from_secs(100);
        let mut last = None;
        for i in 0..5 {
            last = d.event(a, Event::LoginFailed, t1 + Duration::from_secs(i));
        }
        assert_eq!(last.map(|b| (b.for_, b.count)), Some((Duration::from_secs(120), 2)));
        // IPv4-mapped IPv6 is the same host.
        assert!(d.is_banned(ip("::ffff:192.0.2.1"), t1 + Duration::from_secs(10)));
    }

    #[test]
    fn scores_older_than_the_window_do_not_count() {
        let cfg = DefenderConfig {
            threshold: 3,
            window: Duration::from_secs(10),
            ..DefenderConfig::default()
        };
        let d = Defender::new(cfg);
        let t0 = Instant::now();
        let a = ip("198.51.100.7");
        for i in 0..10 {
            assert_eq!(d.event(a, Event::LoginFailed, t0 + Duration::from_secs(i * 6)), None);
        }
        d.sweep(t0 + Duration::from_secs(1000));
        assert_eq!(d.tracked(), 0);
    }

    #[test]
    fn a_burst_of_connections_scores_and_allowed_networks_never_do() {
        let cfg = DefenderConfig {
            threshold: 5,
            connections_per_second: 3,
            allow: vec!["10.0.0.0/8".parse().unwrap_or_else(|e: String| panic!("{e}"))],
            ..DefenderConfig::default()
        };
        let d = Defender::new(cfg);
        let t0 = Instant::now();
        let bad = ip("203.0.113.9");
        let mut banned = None;
        for _ in 0..8 {
            banned = banned.or(d.event(bad, Event::Connected, t0));
        }
        assert!(banned.is_some(), "3 free, then 5 over the rate");
        let ok = ip("10.1.2.3");
        for _ in 0..100 {
            assert_eq!(d.event(ok, Event::Connected, t0), None);
            assert_eq!(d.event(ok, Event::LoginFailed, t0), None);
        }
        assert!(!d.is_banned(ok, t0));
        // Connections spread over seconds do not score.
        let calm = ip("203.0.113.10");
        for s in 0..100 {
            assert_eq!(d.event(calm, Event::Connected, t0 + Duration::from_secs(s)), None);
        }
    }

    #[test]
    fn hostile_input_scores_its_own_points_per_kind() {
        // The defaults: 5 each, so three hostile commands reach 15.
        let d = Defender::new(DefenderConfig::default());
        let t0 = Instant::now();
        let a = ip("192.0.2.20");
        assert_eq!(d.event(a, Event::Bounce, t0), None);
        assert_eq!(d.event(a, Event::LongLine, t0), None);
        assert!(d.event(a, Event::ForeignData, t0).is_some(), "5 + 5 + 5 = 15");
        assert!(d.is_banned(a, t0));
        // Loopback is allowed by default: never scored.
        for _ in 0..10 {
            assert_eq!(d.event(ip("127.0.0.1"), Event::Bounce, t0), None);
            assert_eq!(d.event(ip("::1"), Event::LongLine, t0), None);
        }
        // Each kind has its own score; 0 turns one off.
        let cfg = DefenderConfig {
            threshold: 10,
            score_bounce: 0,
            score_foreign_data: 10,
            score_long_line: 4,
            ..DefenderConfig::default()
        };
        let d = Defender::new(cfg);
        let (b, f, l) = (ip("192.0.2.21"), ip("192.0.2.22"), ip("192.0.2.23"));
        for _ in 0..100 {
            assert_eq!(d.event(b, Event::Bounce, t0), None);
        }
        assert!(!d.is_banned(b, t0), "score_bounce = 0 never bans");
        assert!(d.event(f, Event::ForeignData, t0).is_some(), "one is 10");
        assert_eq!(d.event(l, Event::LongLine, t0), None);
        assert_eq!(d.event(l, Event::LongLine, t0), None);
        assert_eq!(
            d.event(l, Event::LongLine, t0).map(|b| b.count),
            Some(1),
            "4 + 4 + 4 >= 10"
        );
        // Hostile input and failed logins add up.
        let m = ip("192.0.2.24");
        assert_eq!(d.event(m, Event::LongLine, t0), None);
        for _ in 0..5 {
            assert_eq!(d.event(m, Event::LoginFailed, t0), None);
        }
        assert!(d.event(m, Event::LoginFailed, t0).is_some(), "4 + 6 * 1 = 10");
    }

    #[test]
    fn an_ipv6_client_is_its_64_and_an_ipv4_client_its_address() {
        let cfg = DefenderConfig {
            threshold: 4,
            ..DefenderConfig::default()
        };
        let d = Defender::new(cfg.clone());
        let t0 = Instant::now();
        // Two addresses of one /64 add up, and the ban holds for the
        // whole /64 (an address it never used too), not the next one.
        let (a, b) = (ip("2001:db8:1:2::a"), ip("2001:db8:1:2:ffff:ffff:ffff:ffff"));
        assert_eq!(d.event(a, Event::LoginFailed, t0), None);
        assert_eq!(d.event(b, Event::LoginFailed, t0), None);
        assert_eq!(d.event(a, Event::LoginFailed, t0), None);
        let ban = d.event(b, Event::LoginFailed, t0).map(|b| b.net.to_string());
        assert_eq!(ban.as_deref(), Some("2001:db8:1:2::/64"), "2 + 2 of one /64");
        assert_eq!(d.tracked(), 1);
        for x in [a, b, ip("2001:db8:1:2:1234::9")] {
            assert!(d.is_banned(x, t0), "{x}");
        }
        assert!(!d.is_banned(ip("2001:db8:1:3::a"), t0), "the next /64");
        let listed: Vec<String> = d.bans(t0).iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(listed, ["2001:db8:1:2::/64"]);
        // IPv4 stays per address.
        let (c, e) = (ip("192.0.2.30"), ip("192.0.2.31"));
        for _ in 0..3 {
            assert_eq!(d.event(c, Event::LoginFailed, t0), None);
        }
        assert_eq!(d.event(e, Event::LoginFailed, t0), None, "another address");
        assert!(d.event(c, Event::LoginFailed, t0).is_some());
        assert!(d.is_banned(c, t0) && !d.is_banned(e, t0));
        // Bans from the store (another node, `babelftp ban add`) of any
        // width hold for what they cover.
        d.replace_bans([
            (BanNet::host(ip("2001:db8:9::1")), t0 + Duration::from_secs(60)),
            ("2001:db8:7::/48".parse().unwrap(), t0 + Duration::from_secs(60)),
        ]);
        assert!(d.is_banned(ip("2001:db8:9::1"), t0));
        assert!(!d.is_banned(ip("2001:db8:9::2"), t0), "an address banned alone");
        assert!(d.is_banned(ip("2001:db8:7:ffff::1"), t0));
        assert!(!d.is_banned(a, t0), "lifted in the store: lifted here");
        // ipv6_prefix = 128: each address on its own.
        let d = Defender::new(DefenderConfig {
            ipv6_prefix: 128,
            ..cfg
        });
        for _ in 0..3 {
            assert_eq!(d.event(a, Event::LoginFailed, t0), None);
        }
        assert_eq!(d.event(b, Event::LoginFailed, t0), None);
        let ban = d.event(a, Event::LoginFailed, t0).map(|b| b.net.to_string());
        assert_eq!(ban.as_deref(), Some("2001:db8:1:2::a"));
        assert!(!d.is_banned(b, t0));
    }
}
