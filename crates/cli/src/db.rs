//! Which accounts store `serve` uses, and opening it: `--db URL`, else
//! `db = "…"` in the configuration, else `BABELFTP_DB`, else
//! `babelftp.db` in the working directory when it is there (the file
//! `babelftp user add` makes by default). A server without any of them has
//! no store: its accounts are `--user`, `--users` and `[[user]]` only, and
//! starting it creates no file.

use std::sync::Arc;

use anyhow::Context;
use babelftp_server::config::Config;
use babelftp_server::directory::hook::Hook;
use babelftp_server::directory::ldap::LdapAuth;
use babelftp_server::directory::Directory;
use babelftp_server::storage::{s3::S3Config, Backend};

/// The default store of every command: `babelftp.db` in the working
/// directory.
pub const DEFAULT_DB: &str = "sqlite:babelftp.db";

/// The store of the `user` and `group` commands: `--db`, else the `db` of
/// `--config FILE`, else `BABELFTP_DB`, else [`DEFAULT_DB`].
pub fn admin_url(flag: Option<String>, config: Option<&std::path::Path>) -> anyhow::Result<String> {
    if let Some(url) = flag.filter(|s| !s.is_empty()) {
        return Ok(url);
    }
    if let Some(path) = config {
        if let Some(url) = Config::load(path)?.db {
            return Ok(url);
        }
    }
    Ok(std::env::var("BABELFTP_DB")
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| DEFAULT_DB.to_owned()))
}

/// The store `serve` uses, if any.
pub fn serve_url(flag: Option<&str>, cfg: &Config) -> Option<String> {
    flag.map(str::to_owned)
        .or_else(|| cfg.db.clone())
        .or_else(|| std::env::var("BABELFTP_DB").ok().filter(|v| !v.is_empty()))
        .or_else(|| {
            std::path::Path::new("babelftp.db")
                .is_file()
                .then(|| DEFAULT_DB.to_owned())
        })
}

/// Opens the server's directory: the store at `url` (its schema brought
/// up to date), and the auth hook of the configuration. `s3://` homes and
/// folders take the endpoint and credentials of the server's S3 storage,
/// else the environment's (`AWS_ENDPOINT_URL`, `AWS_REGION`,
/// `AWS_ACCESS_KEY_ID`…).
pub async fn open_directory(url: Option<&str>, cfg: &Config) -> anyhow::Result<Arc<Directory>> {
    let store = match url {
        Some(url) => Some(
            babelftp_accounts::Store::open(url)
                .await
                .with_context(|| crate::msg::ts("cli-db-open", &[("url", &crate::exit::redact_url(url))]))?,
        ),
        None => None,
    };
    let hook = match &cfg.auth_hook {
        Some(h) => Some(Hook::new(h.clone())?),
        None => None,
    };
    let s3 = std::iter::once(&cfg.storage)
        .chain(cfg.hosts.iter().map(|h| &h.storage))
        .find_map(|b| match b {
            Backend::S3(s) => Some(s.clone()),
            Backend::Local => None,
        })
        .unwrap_or_else(|| S3Config {
            bucket: String::new(),
            endpoint: std::env::var("AWS_ENDPOINT_URL").ok(),
            region: std::env::var("AWS_REGION").ok(),
            prefix: String::new(),
            access_key_id: std::env::var("AWS_ACCESS_KEY_ID").ok(),
            secret_access_key: std::env::var("AWS_SECRET_ACCESS_KEY").ok(),
        });
    let ldap = match &cfg.ldap {
        Some(l) => Some(LdapAuth::new(l.clone())?),
        None => None,
    };
    Ok(Arc::new(Directory::new(store, hook, ldap, s3)?))
}
