//! SIGHUP: the configuration read again; its users replace the running
//! list, and each other setting that changed is said to need a restart.

use std::sync::Arc;

use babelftp_server::{directory::Directory, Config, Users};

use super::{say, ServeArgs};

/// The settings a running server does not take from a reload, by the key
/// that sets them: (key, its value as text), compared between the running
/// configuration and the file read again.
fn restart_only(c: &Config) -> Vec<(&'static str, String)> {
    macro_rules! keys {
        ($($key:literal => $v:expr),* $(,)?) => { vec![$(($key, format!("{:?}", $v))),*] };
    }
    keys![
        "listen" => c.listen,
        "implicit_listen" => c.implicit_listen,
        "root" => c.root,
        "storage" => c.storage,
        "host" => c.hosts,
        "passive_ports" => c.passive_ports,
        "passive_address" => c.passive_address,
        "passive_addresses" => c.passive_networks,
        "max_passive_per_ip" => c.max_passive_per_ip,
        "tls_cert" => c.tls_cert,
        "tls_key" => c.tls_key,
        "tls_required" => c.tls_required,
        "tls_reuse_required" => c.tls_reuse_required,
        "max_connections" => c.max_connections,
        "max_per_ip" => c.max_per_ip,
        "idle_timeout" => c.idle_timeout,
        "download_rate" => c.download_rate,
        "upload_rate" => c.upload_rate,
        "xferlog" => c.xferlog,
        "fsync" => c.fsync,
        "db" => c.db,
        "auth_hook" => c.auth_hook,
        "ldap" => c.ldap,
        "defender" => c.defender,
        "hook" => c.hooks,
        "default_lang" => c.default_lang,
        "catalogs" => c.catalogs_dir,
        "fs_charset" => c.fs_charset,
        "dir_charsets" => c.dir_charsets,
        "legacy_client_charset" => c.legacy_client_charset,
        "mirror" => c.mirror,
        "anonymous" => c.anonymous,
        "anonymous_write" => c.anonymous_write,
        "proxy_protocol_from" => c.proxy_protocol_from,
        "metrics_listen" => c.metrics_listen,
        "admin_listen" => c.admin_listen,
        "http_listen" => c.http_listen,
    ]
}

/// The keys whose values differ between `running` and `read`.
pub fn needing_restart(running: &Config, read: &Config) -> Vec<&'static str> {
    restart_only(running)
        .into_iter()
        .zip(restart_only(read))
        .filter(|((_, a), (_, b))| a != b)
        .map(|((k, _), _)| k)
        .collect()
}

/// On SIGHUP, reads the configuration again (`--config` and the flags):
/// its users (the `[[user]]` tables, `users_file`, `--users`, `--user`)
/// replace the server's list (sessions already logged in go on, the next
/// login sees the new list); the accounts store needs no reload (read at
/// each login: its count is said); each other setting that changed in
/// the file is said to need a restart (compared with `running`, what the
/// server started with). A file that no longer reads keeps the old list
/// and says why.
pub fn on_hangup(users: Users, directory: Option<Arc<Directory>>, args: ServeArgs, running: Config) {
    use tokio::signal::unix::{signal, SignalKind};
    let Ok(mut hangup) = signal(SignalKind::hangup()) else {
        tracing::warn!("SIGHUP cannot be caught: users are not reloadable");
        return;
    };
    let file = args
        .config
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "--config".into());
    tokio::spawn(async move {
        while hangup.recv().await.is_some() {
            let args = args.clone();
            // Reading files and parsing hashes: off the async workers.
            let loaded = tokio::task::spawn_blocking(move || args.config()).await;
            match loaded {
                Ok(Ok(cfg)) => {
                    let changed = needing_restart(&running, &cfg);
                    let n = users.replace(cfg.users);
                    let stored = match &directory {
                        Some(d) => d.user_count().await.ok(),
                        None => None,
                    };
                    tracing::info!(
                        users = n,
                        store_users = stored,
                        restart_needed = %changed.join(","),
                        "users reloaded (SIGHUP): the configuration's named users replaced; the accounts store is read at each login"
                    );
                    say(&crate::msg::ts("cli-users-reloaded", &[("count", &n.to_string())]));
                    if let (Some(d), Some(count)) = (&directory, stored) {
                        say(&crate::msg::ts(
                            "cli-reload-store",
                            &[("store", &d.describe()), ("count", &count.to_string())],
                        ));
                    }
                    for key in changed {
                        tracing::warn!(key, file = %file, "setting changed: it takes effect only after a restart");
                        say(&crate::msg::ts("cli-reload-restart", &[("key", key), ("file", &file)]));
                    }
                }
                Ok(Err(e)) => {
                    tracing::warn!(error = %format!("{e:#}"), "users not reloaded (SIGHUP)");
                    say(&crate::msg::ts(
                        "cli-users-reload-failed",
                        &[("error", &format!("{e:#}"))],
                    ));
                }
                Err(e) => tracing::warn!(error = %e, "users not reloaded (SIGHUP)"),
            }
        }
    });
}
