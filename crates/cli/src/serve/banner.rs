//! The banner's lines about what the server enforces (issue 48): the
//! passive range, the limits, the defender, the event hooks, the transfer
//! log, and the accounts store's users with their rights and home.

use babelftp_server::{Config, Server};

use crate::msg::ts;

/// How many users of an accounts store the banner lists (a screenful);
/// the rest are counted.
pub const STORE_USERS_SHOWN: usize = 20;

/// A rate for people: `10 MiB/s`, or "unlimited".
fn rate(r: Option<u64>) -> String {
    match r {
        Some(n) => format!("{}/s", babelftp_i18n::format_size(n)),
        None => ts("cli-banner-unlimited", &[]),
    }
}

/// The passive range and how many of its ports one address may hold; a
/// warning (banner and log) when an explicit `max_passive_per_ip`
/// exceeds the range.
pub fn passive_lines(cfg: &Config) -> Vec<String> {
    let cap = cfg.passive_cap().to_string();
    let mut out = vec![match &cfg.passive_ports {
        Some(r) => ts(
            "cli-banner-passive",
            &[("range", &format!("{}-{}", r.start(), r.end())), ("cap", &cap)],
        ),
        None => ts("cli-banner-passive-any", &[("cap", &cap)]),
    }];
    if let Some((n, ports)) = cfg.passive_cap_exceeds_range() {
        tracing::warn!(
            max_passive_per_ip = n,
            ports,
            "max_passive_per_ip exceeds the passive range: one address may hold every passive port"
        );
        out.push(ts(
            "cli-banner-passive-over",
            &[("cap", &n.to_string()), ("ports", &ports.to_string())],
        ));
    }
    out
}

/// `[limits]` and the session limits.
pub fn limits_lines(cfg: &Config) -> Vec<String> {
    vec![ts(
        "cli-banner-limits",
        &[
            ("sessions", &cfg.max_connections.to_string()),
            ("per_ip", &cfg.max_per_ip.to_string()),
            ("idle", &cfg.idle_timeout.as_secs().to_string()),
            ("down", &rate(cfg.download_rate)),
            ("up", &rate(cfg.upload_rate)),
        ],
    )]
}

/// The defender (`[defender]`): on, with its threshold, or off.
pub fn defender_lines(cfg: &Config) -> Vec<String> {
    let d = &cfg.defender;
    if !d.enabled {
        return vec![ts("cli-banner-defender-off", &[])];
    }
    vec![ts(
        "cli-banner-defender",
        &[
            ("threshold", &d.threshold.to_string()),
            ("window", &d.window.as_secs().to_string()),
            ("login", &d.score_login_failed.to_string()),
            ("ban", &d.ban_time.as_secs().to_string()),
        ],
    )]
}

/// The event hooks (`[[hook]]`, `--hook`) and the transfer log.
pub fn hook_and_xferlog_lines(cfg: &Config) -> Vec<String> {
    let mut out = Vec::new();
    if cfg.hooks.is_empty() {
        out.push(ts("cli-banner-hooks-none", &[]));
    }
    for h in &cfg.hooks {
        let events = if h.events.is_empty() {
            ts("cli-banner-hook-every", &[])
        } else {
            h.events.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
        };
        // The hook's name: its URL without credentials, or its command.
        out.push(ts("cli-banner-hook", &[("hook", &h.name), ("events", &events)]));
    }
    out.push(match &cfg.xferlog {
        Some(p) => ts("cli-banner-xferlog", &[("file", &p.display().to_string())]),
        None => ts("cli-banner-xferlog-off", &[]),
    });
    out
}

/// The accounts store's users, up to [`STORE_USERS_SHOWN`], each with its
/// rights and home, a warning for each home that is missing (as for the
/// users of the configuration), then how many more there are. `root` is
/// the served root as the banner names it.
pub async fn store_user_lines(server: &Server, root: &str) -> anyhow::Result<Vec<String>> {
    let Some(store) = server.directory().and_then(|d| d.store().cloned()) else {
        return Ok(Vec::new());
    };
    let users = store.list_users().await?;
    let mut out = Vec::new();
    for u in users.iter().take(STORE_USERS_SHOWN) {
        if u.disabled {
            out.push(ts("cli-banner-store-user-disabled", &[("name", &u.name)]));
            continue;
        }
        let Some(p) = store.profile(&u.name).await? else {
            continue;
        };
        let home = match &p.home {
            babelftp_accounts::Home::Inside(path) => babelftp_proto::display::PlainPath(path).to_string(),
            babelftp_accounts::Home::Source(s) => s.to_string(),
        };
        let mut rules: Vec<(String, babelftp_accounts::Perms)> = p.rules.iter().collect();
        rules.sort_by(|a, b| a.0.cmp(&b.0));
        let rights = rules
            .iter()
            .map(|(path, perms)| format!("{path} {perms}"))
            .collect::<Vec<_>>()
            .join("; ");
        out.push(ts(
            "cli-banner-store-user",
            &[("name", &u.name), ("home", &home), ("rights", &rights)],
        ));
        if server.store_home_missing(p.home.clone()).await {
            out.push(ts(
                "cli-home-missing",
                &[("name", &u.name), ("home", &home), ("root", root)],
            ));
        }
    }
    if users.len() > STORE_USERS_SHOWN {
        out.push(ts(
            "cli-banner-store-more",
            &[("count", &(users.len() - STORE_USERS_SHOWN).to_string())],
        ));
    }
    Ok(out)
}
