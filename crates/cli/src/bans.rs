//! `babelftp ban list | add ADDR [--for DURATION] | rm ADDR`: the
//! defender's bans in the accounts store, which every node of it reads
//! within seconds (issue 29). `list` prints one ban a line: the address
//! or network (an IPv6 client's /64, as the defender bans it), until when
//! (UTC), how many bans it had within a day, and why. `add` and `rm` take
//! an address or a network (`2001:db8:1:2::/64`); `rm` of an address
//! lifts every ban that covers it.

use std::time::Duration;

use babelftp_accounts::BanNet;

use anyhow::bail;
use clap::{Args, Subcommand};

use crate::msg::ts;

#[derive(Args, Debug)]
pub struct BanArgs {
    /// The accounts store, as for `babelftp user` [env: BABELFTP_DB] [default: sqlite:babelftp.db].
    #[arg(long, value_name = "URL", global = true)]
    db: Option<String>,
    /// As for `babelftp user`: the `db` of a configuration file.
    #[arg(long, value_name = "FILE", global = true)]
    config: Option<std::path::PathBuf>,
    #[command(subcommand)]
    cmd: BanCmd,
}

#[derive(Subcommand, Debug)]
enum BanCmd {
    /// The bans in force.
    List,
    /// Ban an address or a network (2001:db8:1:2::/64) on every node (default: one day).
    Add {
        addr: String,
        /// How long: 90s, 15m, 2h, 7d, or seconds.
        #[arg(long = "for", value_name = "DURATION")]
        duration: Option<String>,
    },
    /// Lift the ban of a network, or every ban that covers an address.
    Rm { addr: String },
}

/// `90s`, `15m`, `2h`, `7d`, or plain seconds.
pub fn parse_duration(s: &str) -> Option<Duration> {
    let s = s.trim();
    let (num, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let n: u64 = num.parse().ok()?;
    let secs = match unit {
        "s" => 1,
        "m" | "min" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return None,
    };
    n.checked_mul(secs).filter(|s| *s > 0).map(Duration::from_secs)
}

fn addr(s: &str) -> anyhow::Result<BanNet> {
    match s.parse::<BanNet>() {
        Ok(a) => Ok(a),
        Err(()) => Err(crate::exit::Usage(ts("cli-ban-bad-net", &[("addr", s)])).into()),
    }
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// Unix seconds as `YYYY-MM-DDTHH:MM:SSZ`.
pub(crate) fn utc(unix: i64) -> String {
    let c = babelftp_proto::listing::Civil::from_unix(unix);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        c.year, c.month, c.day, c.hour, c.minute, c.second
    )
}

pub async fn ban(a: BanArgs) -> anyhow::Result<()> {
    let url = crate::db::admin_url(a.db, a.config.as_deref())?;
    crate::db::warn_if_readable(Some(&url));
    let store = match babelftp_accounts::Store::open(&url).await {
        Ok(s) => s,
        Err(e) => bail!("{}: {e}", ts("cli-db-open", &[("url", &crate::exit::redact_url(&url))])),
    };
    match a.cmd {
        BanCmd::List => {
            for b in store.bans(unix_now()).await? {
                println!("{}\t{}\t{}\t{}", b.addr, utc(b.until_unix), b.count, b.reason);
            }
        }
        BanCmd::Add { addr: text, duration } => {
            let ip = addr(&text)?;
            let d = match duration {
                Some(d) => parse_duration(&d)
                    .ok_or_else(|| crate::exit::Usage(ts("cli-ban-bad-duration", &[("value", &d)])))?,
                None => Duration::from_secs(86_400),
            };
            let until = unix_now().saturating_add(i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
            store.ban(ip, until, 1, "babelftp ban add").await?;
            println!(
                "{}",
                ts("cli-ban-added", &[("addr", &ip.to_string()), ("until", &utc(until))])
            );
        }
        BanCmd::Rm { addr: text } => {
            let ip = addr(&text)?;
            let lifted = store.unban(ip).await?;
            if lifted.is_empty() {
                bail!(ts("cli-ban-not-found", &[("addr", &ip.to_string())]));
            }
            for net in lifted {
                println!("{}", ts("cli-ban-removed", &[("addr", &net.to_string())]));
            }
        }
    }
    store.close().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_read_as_people_write_them() {
        assert_eq!(parse_duration("90s"), Some(Duration::from_secs(90)));
        assert_eq!(parse_duration("15m"), Some(Duration::from_secs(900)));
        assert_eq!(parse_duration("2h"), Some(Duration::from_secs(7200)));
        assert_eq!(parse_duration("7d"), Some(Duration::from_secs(604_800)));
        assert_eq!(parse_duration("600"), Some(Duration::from_secs(600)));
        for bad in ["", "0", "5x", "m", "-3s", "99999999999999999999d"] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
    }
}
